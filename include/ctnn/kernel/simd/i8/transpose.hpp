#pragma once
// 8-bit (int8, uint8) NHWC <-> NCHW transposes, the byte moves ONNX models insert around their integer
// convolutions (any requantization policy), on 16 x 16 byte blocks (simd/detail/transpose_blocks.hpp).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>
#include <ctnn/kernel/simd/detail/transpose_blocks.hpp>
#include <ctnn/kernel/simd/i8/isa.hpp>

namespace ctnn::kernel::simd::i8_detail {

template <kernel_params P, class I>
struct transpose_kernel : kernel::detail::reads_constants_as_stored {
  using layout = simd::detail::layout_transpose<P>;
  static constexpr bool supports = I::available && layout::applies && (P.type == dtype::i8 || P.type == dtype::u8);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    layout::run(static_cast<const std::uint8_t*>(operands[0]), static_cast<std::uint8_t*>(result));
  }
};

}  // namespace ctnn::kernel::simd::i8_detail
