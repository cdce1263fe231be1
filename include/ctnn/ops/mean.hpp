#pragma once
// mean: the average over the axes of attrs.mean.reduce_axes (bit d: axis d), the reduced axes kept as
// extent 1 with attrs.keep_dims (TFLite MEAN). The descriptor of op_kind::mean (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/int8/mean.hpp>
#include <ctnn/kernel/reference/reduce.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct mean : op_defaults {
  static constexpr op_kind kind = op_kind::mean;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  // The input's shape without the reduced axes (or with them as 1); a mask naming an axis past the
  // input's rank is an invalid axis.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const std::uint32_t reduced_axes = n.attrs.mean.reduce_axes;
    shape out{};
    for (std::int32_t d = 0; d < in.rank; ++d) {
      if ((reduced_axes >> d & 1u) == 0) out.dims[static_cast<std::size_t>(out.rank++)] = in[d];
      else if (n.attrs.keep_dims) out.dims[static_cast<std::size_t>(out.rank++)] = 1;
    }
    if (reduced_axes >> in.rank != 0u)
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, in,
              {.axis = static_cast<std::int64_t>(reduced_axes), .rank_actual = in.rank}});
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.mean = n.attrs.mean;
  }
  // TFLM's Mean: the output multiplier input scale / output scale; with one quantization on both sides
  // TFLM sums the raw values and divides instead (reference_ops::Mean).
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    q.set_multiplier(p.output_multiplier, p.output_shift, static_cast<double>(q.in.scale) / static_cast<double>(q.out.scale));
    p.mean.same_quantization = q.in.scale == q.out.scale && q.in.zero_point == q.out.zero_point ? 1 : 0;
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::mean(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::mean(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, std::int32_t) {
    w.field("  axes mask ", static_cast<std::int64_t>(a.mean.reduce_axes));
    w.put(a.keep_dims ? " keep_dims" : "");
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axes mask ", static_cast<std::int64_t>(p.mean.reduce_axes));
  }
  template <class Writer>
  static void put_requantization(Writer& w, const kernel_params& p) {
    if (p.mean.same_quantization != 0) w.put(", same quantization (sum and divide)");
  }
};

}  // namespace ctnn::ops
