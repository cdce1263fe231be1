#pragma once
// Reference batched matrix product (ops/batch_matmul.hpp; ONNX MatMul of two activations, numpy's matmul):
// out[..., i, j] = sum_k a[..., i, k] * b[..., k, j], where a's and b's batch dims (all but the last two)
// broadcast to out's. Any arithmetic element type; float32 is the one lowered (its descriptor's has_kernel).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>

namespace ctnn::kernel::reference {

using ctnn::matrix_batch;  // ir/shape.hpp: the batch dims of a matrix operand

template <class Params, class T>
constexpr void batch_matmul(Params p, const T* a, const T* b, T* output) {
  const std::int32_t rows = p->in.at(-2), depth = p->in.last(), columns = p->in2.last();
  const std::int64_t a_matrix = static_cast<std::int64_t>(rows) * depth;
  const std::int64_t b_matrix = static_cast<std::int64_t>(depth) * columns;
  const std::int64_t out_matrix = static_cast<std::int64_t>(rows) * columns;
  // The batches walk like a broadcast element-wise op, in units of whole matrices.
  detail::for_each_broadcast(matrix_batch(p->in), matrix_batch(p->in2), matrix_batch(p->out),
                             [&](std::int64_t batch, std::int64_t batch_a, std::int64_t batch_b) {
                               const T* x = a + batch_a * a_matrix;
                               const T* y = b + batch_b * b_matrix;
                               T* z = output + batch * out_matrix;
                               for (std::int32_t i = 0; i < rows; ++i)
                                 for (std::int32_t j = 0; j < columns; ++j) {
                                   T acc{};
                                   for (std::int32_t k = 0; k < depth; ++k)
                                     acc += x[static_cast<std::int64_t>(i) * depth + k] * y[static_cast<std::int64_t>(k) * columns + j];
                                   z[static_cast<std::int64_t>(i) * columns + j] = acc;
                                 }
                             });
}

}  // namespace ctnn::kernel::reference
