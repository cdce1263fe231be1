#pragma once
// float32 dense layer: [units][features] weights packed at compile time as blocks of units in vector
// lanes ([block][feature][unit]), so the inner loop over features reads weights contiguously; the batch
// rows are the pixels of the shared register-blocked product.
#include <ctnn/kernel/simd/detail/xsimd_config.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/simd/detail/f32_gemm.hpp>
#include <ctnn/kernel/simd/detail/f32_lanes.hpp>

#ifndef XSIMD_NO_SUPPORTED_ARCHITECTURE

namespace ctnn::kernel::simd::f32 {

template <kernel_params P>
struct dense {
  static constexpr bool supports =
      P.kind == op_kind::dense && P.type == dtype::f32 && P.out.rank == 2 && detail::vector_activation(P.fused);

 private:
  static constexpr int batch = P.out[0];
  static constexpr int units = P.out[1];
  static constexpr int features = static_cast<int>(P.in.elements() / (batch > 0 ? batch : 1));
  static constexpr detail::gemm_blocking blocking = detail::plan_gemm(units, batch);
  static constexpr int rows_per_block = blocking.pixels_per_block;
  static constexpr int width = blocking.block_width();

 public:
  static constexpr bool packs(std::size_t k) { return k == 1 || k == 2; }
  template <std::size_t K, class Reader>
  static constexpr auto pack(const Reader& read) {
    if constexpr (K == 1) return detail::pack_gemm_weights<units, 1, features, blocking>(read);
    else return detail::pack_gemm_bias<units, blocking>(read);
  }

  static void run(const float* const* operands, float* result) {
    const float* weights = operands[1];
    const float* bias = P.has_bias ? operands[2] : detail::zero_bias<blocking>.data();
    for (int row = 0; row < batch; row += rows_per_block) {
      const int count = batch - row < rows_per_block ? batch - row : rows_per_block;
      const float* rows[1] = {operands[0] + static_cast<long>(row) * features};
      // The product reads whole blocks of rows: copy the last ones, zero-padded. Only when a partial block
      // exists (a run-time test alone leaves a 1-element copy target that g++ -O0 and the sanitizers flag).
      if constexpr (batch % rows_per_block != 0) {
        alignas(64) float last_rows[rows_per_block * features];
        if (count < rows_per_block) {
          std::memcpy(last_rows, rows[0], sizeof(float) * static_cast<std::size_t>(count) * features);
          std::memset(last_rows + count * features, 0, sizeof(float) * static_cast<std::size_t>(rows_per_block - count) * features);
          rows[0] = last_rows;
        }
        run_rows(rows, weights, bias, result, row, count);
      } else {
        run_rows(rows, weights, bias, result, row, count);
      }
    }
  }

 private:
  static void run_rows(const float* const* rows, const float* weights, const float* bias, float* result, int row,
                       int count) {
    for (int block = 0; block < blocking.blocks; ++block)
      detail::gemm_block<rows_per_block, blocking.vectors_per_block, features, 1, features, units, P.fused>(
          rows, weights + block * features * width, bias + block * width,
          result + static_cast<long>(row) * units + block * width, count,
          units - block * width < width ? units - block * width : width);
  }
};

}  // namespace ctnn::kernel::simd::f32

#endif  // XSIMD_NO_SUPPORTED_ARCHITECTURE
