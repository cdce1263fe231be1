#pragma once
// Alignment of the arrays of constants materialised at compile time (.rodata: weights re-laid out, packed or
// computed by passes). On hosts a cache line: the SIMD kernels stream weights a whole vector at a time, and a
// 64-byte vector that straddles two lines costs two loads (an ONNX LSTM whose weights sat 32 bytes past a line
// ran 13 % slower). On Cortex-M the element type's own: flash is counted by the byte and there is no data
// cache to split (docs/design.md §6).
#include <cstddef>

namespace ctnn::detail {

#if defined(__arm__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
inline constexpr std::size_t cache_line_bytes = 1;
#else
inline constexpr std::size_t cache_line_bytes = 64;
#endif

template <class T>
inline constexpr std::size_t constant_alignment = alignof(T) > cache_line_bytes ? alignof(T) : cache_line_bytes;

}  // namespace ctnn::detail
