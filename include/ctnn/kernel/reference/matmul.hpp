#pragma once
// Reference batched matrix product (ops/batch_matmul.hpp; ONNX MatMul of two activations, numpy's matmul):
// out[..., i, j] = sum_k a[..., i, k] * b[..., k, j], where a's and b's batch dims (all but the last two)
// broadcast to out's. float32 sums in T; the integer forms (TFLite BATCH_MATMUL as TFLM's reference
// BatchMatMul computes it) sum each product of the operands plus their offsets (-zero points) in an int32
// (int8) or int64 (int16) accumulator, in order of k, and requantize it.
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>

namespace ctnn::kernel::reference {

using ctnn::matrix_batch;  // ir/shape.hpp: the batch dims of a matrix operand

// The product with each result element z = finish(sum over k of product(a[..., i, k], b[..., k, j])), the
// sum in an Accumulator starting at 0.
template <class Accumulator, class Params, class T, class Out, class Product, class Finish>
constexpr void batch_matmul_with(Params p, const T* a, const T* b, Out* output, Product&& product, Finish&& finish) {
  const std::int32_t rows = p->in.at(-2), depth = p->in.last(), columns = p->in2.last();
  const std::int64_t a_matrix = static_cast<std::int64_t>(rows) * depth;
  const std::int64_t b_matrix = static_cast<std::int64_t>(depth) * columns;
  const std::int64_t out_matrix = static_cast<std::int64_t>(rows) * columns;
  // The batches walk like a broadcast element-wise op, in units of whole matrices.
  detail::for_each_broadcast(matrix_batch(p->in), matrix_batch(p->in2), matrix_batch(p->out),
                             [&](std::int64_t batch, std::int64_t batch_a, std::int64_t batch_b) {
                               const T* x = a + batch_a * a_matrix;
                               const T* y = b + batch_b * b_matrix;
                               Out* z = output + batch * out_matrix;
                               for (std::int32_t i = 0; i < rows; ++i)
                                 for (std::int32_t j = 0; j < columns; ++j) {
                                   Accumulator acc{};
                                   for (std::int32_t k = 0; k < depth; ++k)
                                     acc = product(acc, x[static_cast<std::int64_t>(i) * depth + k], y[static_cast<std::int64_t>(k) * columns + j]);
                                   z[static_cast<std::int64_t>(i) * columns + j] = finish(acc);
                                 }
                             });
}

template <class Params, class T>
constexpr void batch_matmul(Params p, const T* a, const T* b, T* output) {
  batch_matmul_with<T>(p, a, b, output, [](T acc, T x, T y) { return acc + x * y; }, [](T acc) { return acc; });
}

// int8 (int32 sums, wrapping as TFLM's do on its targets) and int16 (int64 sums, zero points 0): rescaled by
// output_multiplier/shift (the int64 form for int16), plus the output zero point, clamped to the type.
template <class Params, class T>
constexpr void batch_matmul_quantized(Params p, const T* a, const T* b, T* output) {
  namespace q = ctnn::detail::quant;
  const auto clamp = [&](std::int32_t v) {
    v = v < p->activation_min ? p->activation_min : v;
    return static_cast<T>(v > p->activation_max ? p->activation_max : v);
  };
  if constexpr (sizeof(T) == 1) {
    batch_matmul_with<std::int32_t>(
        p, a, b, output,
        [&](std::int32_t acc, T x, T y) { return q::wrapping_add(acc, (x + p->input_offset) * (y + p->input2_offset)); },
        [&](std::int32_t acc) {
          return clamp(q::wrapping_add(q::multiply_by_quantized_multiplier(acc, p->output_multiplier, p->output_shift), p->output_offset));
        });
  } else {
    batch_matmul_with<std::int64_t>(
        p, a, b, output, [](std::int64_t acc, T x, T y) { return acc + std::int64_t{x} * y; },
        [&](std::int64_t acc) { return clamp(q::multiply_by_quantized_multiplier_int64(acc, p->output_multiplier, p->output_shift)); });
  }
}

}  // namespace ctnn::kernel::reference
