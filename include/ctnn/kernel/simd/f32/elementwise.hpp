#pragma once
// float32 relu and relu6 as ops, vectorised (the binary ops: kernel/simd/f32/binary.hpp). The same
// operation per element as the reference kernels: identical results.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>
#include <ctnn/kernel/simd/f32/pool.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct rectifier : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = (P.kind == op_kind::relu || P.kind == op_kind::relu6) && P.type == dtype::f32;
  static constexpr activation function = P.kind == op_kind::relu ? activation::relu : activation::relu6;

  static void run(const float* const* operands, float* result) {
    detail::for_each_channel_chunk<static_cast<int>(P.out.elements())>([&](auto lanes, int i) __attribute__((always_inline)) {
      using V = decltype(lanes);
      detail::activate<function>(V::load_unaligned(operands[0] + i)).store_unaligned(result + i);
    });
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
