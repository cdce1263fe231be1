#pragma once
// resize_nearest, resize_linear and resize_cubic: the input resampled to the shape attrs.target, each result index along a
// resized axis mapped to an input coordinate as attrs.resize() says (TFLM's float arithmetic for TFLite's
// RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR, ONNX's for Resize and Upsample). The descriptors of
// op_kind::resize_nearest, resize_linear and resize_cubic (ops/descriptor.hpp); kernels in kernel/reference/resize.hpp.
#include <cstdint>

#include <ctnn/ir/enum_names.hpp>
#include <ctnn/kernel/reference/resize.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

// What the three kinds share: the shape rule, the kernel fields, the printed fields.
template <class Base, op_kind K>
struct resize_op : Base {
  static constexpr op_kind kind = K;

  // The result has the input's rank and positive extents; an axis that is not resized keeps its extent.
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const shape in = m.tensor_at(n.inputs[0]).dims;
    const shape& out = n.attrs.target;
    bool fits = out.rank == in.rank;
    for (std::int32_t d = 0; fits && d < in.rank; ++d)
      fits = out[d] >= 1 && ((n.attrs.resize().resized_axes >> d & 1u) != 0 || out[d] == in[d]);
    if (!fits) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, out, in, {}});
      return in;
    }
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.set(n.attrs.resize());
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_fields(w, a.resize());
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_fields(w, p.resize());
  }
  // "  tflite align_corners 0 half_pixel_centers 1 axes 6", "  half_pixel round_prefer_floor axes 12" (nearest),
  // "  half_pixel antialias 1 exclude_outside 0 a -0.75 axes 12" (cubic; linear without a); axes: a bit per dim.
  template <class Writer>
  static void put_fields(Writer& w, const resize_fields& r) {
    w.put("  ");
    w.put(name_of(r.coordinates));
    if (r.coordinates == resize_coordinates::tflite) {
      w.field(" align_corners ", r.align_corners() ? 1 : 0);
      w.field(" half_pixel_centers ", r.half_pixel_centers() ? 1 : 0);
    } else if (K == op_kind::resize_nearest) {
      w.put(" ");
      w.put(name_of(r.rounding));
    } else {
      w.field(" antialias ", r.antialias() ? 1 : 0);
      w.field(" exclude_outside ", r.exclude_outside() ? 1 : 0);
      if (K == op_kind::resize_cubic) w.real_field(" a ", static_cast<double>(r.cubic_coeff_a()));
    }
    w.field(" axes ", r.resized_axes);
  }
};

// Nearest neighbour: a byte move (TFLM copies int8 elements whatever their quantization).
struct resize_nearest : resize_op<any_type_move, op_kind::resize_nearest> {
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::resize_nearest(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    with_integer_type(p, [&]<class T>(T) { kernel::reference::resize_nearest(p, static_cast<const T*>(operands[0]), static_cast<T*>(result)); });
  }
};

// (Multi)linear interpolation: float32 under either coordinates, int8 under TFLite's (TFLM's integer path;
// its result keeps the input's quantization, as TFLM, which reads the integers as they are).
struct resize_linear : resize_op<op_defaults, op_kind::resize_linear> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    if (p->resize().coordinates == resize_coordinates::tflite)
      kernel::reference::resize_bilinear_tflite(p, operands[0], result);
    else
      kernel::reference::resize_interpolate_onnx(p, operands[0], result, kernel::reference::resize_detail::linear_weight{});
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::resize_bilinear(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

// The cubic convolution (ONNX's mode cubic, float32).
struct resize_cubic : resize_op<op_defaults, op_kind::resize_cubic> {
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32; }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::resize_interpolate_onnx(p, operands[0], result,
                                               kernel::reference::resize_detail::cubic_weight{p->resize().cubic_coeff_a()});
  }
};

}  // namespace ctnn::ops
