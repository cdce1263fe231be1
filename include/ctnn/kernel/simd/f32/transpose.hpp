#pragma once
// float32 NHWC <-> NCHW transposes (the layout changes ONNX models insert around convolutions), on 4 x 4
// blocks (simd/detail/transpose_blocks.hpp): the values moved, equal to the reference's.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/simd/detail/transpose_blocks.hpp>

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct transpose : kernel::detail::reads_constants_as_stored {
  using layout = simd::detail::layout_transpose<P>;
  static constexpr bool supports = simd::detail::has_block_transposes && layout::applies && P.type == dtype::f32;
  static void run(const float* const* operands, float* result) { layout::run(operands[0], result); }
};

}  // namespace ctnn::kernel::simd::f32
