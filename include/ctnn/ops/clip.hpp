#pragma once
// clip: min(max(x, attrs.clip.min()), attrs.clip.max()) (ONNX Clip with general bounds; Clip(0, 6) is relu6).
// The descriptor of op_kind::clip (ops/descriptor.hpp).
#include <cstdint>

#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/int8/activation.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct clip : unary_elementwise {
  static constexpr op_kind kind = op_kind::clip;
  static constexpr std::uint32_t in_place_slots = 0;  // (not listed for in-place results so far)
  // Its int8 kernel is exact on plain integers (an ONNX Clip of int8 without a scale clamps the integers).
  static constexpr bool plain_integer_kernel = true;

  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.clip = n.attrs.clip;
  }
  // A raw clamp, as relu6: the bounds in the input's quantization; an int8 tensor without a scale holds
  // plain integers (an ONNX Clip of int8), whose bounds are the integers themselves.
  static constexpr void requantize(const quantized_operands& q, const node& n, kernel_params& p) {
    const auto raw_bound = [&](float bound) -> std::int32_t {
      const float raw = q.in.scale == 0.0f ? bound : bound / q.in.scale;
      if (raw <= -256.0f) return -128;  // beyond int8 whatever the zero point (also +-inf, no bound)
      if (raw >= 256.0f) return 127;
      return ctnn::detail::quant::float_to_int8(bound, q.in.scale == 0.0f ? 1.0f : q.in.scale,
                                                q.in.scale == 0.0f ? 0 : q.in.zero_point);
    };
    p.activation_min = raw_bound(n.attrs.clip.min());
    p.activation_max = raw_bound(n.attrs.clip.max());
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_bounds(w, a.clip);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_bounds(w, p.clip);
  }
  template <class Writer>
  static void put_bounds(Writer& w, const clip_fields& bounds) {
    w.real_field("  min ", static_cast<double>(bounds.min()));
    w.real_field(" max ", static_cast<double>(bounds.max()));
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::clip(p, operands[0], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    kernel::reference::int8::clamp(p, static_cast<const std::int8_t*>(operands[0]), static_cast<std::int8_t*>(result));
  }
};

}  // namespace ctnn::ops
