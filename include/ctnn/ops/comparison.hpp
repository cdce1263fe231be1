#pragma once
// The comparisons (TFLite EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL; ONNX Equal, Less,
// LessOrEqual, Greater, GreaterOrEqual): a Compare b with numpy broadcasting, a bool result. One template,
// comparison_op<K, Compare>, over the operator (ops/equal.hpp ... greater_equal.hpp are one line each);
// kernel/reference/logic.hpp has the kernel.
#include <algorithm>
#include <cstdint>

#include <ctnn/kernel/reference/logic.hpp>
#include <ctnn/ops/binary.hpp>

namespace ctnn::ops {

// The result's element type is attrs.out_type, which the importers set to b8 (infer refuses any other).
// Float32, int8 (TFLite: rescaled; ONNX plain integers: raw), uint8, int32 and int64 operands; bools for the
// equality tests (Equality), as TFLM and ONNX run them. No int16: TFLM compares int16 in GREATER only, with
// the rescaling its Prepare leaves unset (every result false).
template <op_kind K, class Compare, bool Equality = false>
struct comparison_op : binary_elementwise {
  static constexpr op_kind kind = K;
  static constexpr bool takes_fused_activation = false;
  static constexpr std::uint32_t in_place_slots = 0;  // the result's element type is not the operands'
  static constexpr bool result_type_from_attributes = true;
  static constexpr bool plain_integer_kernel = true;
  static constexpr integer_evaluation on_known_integers{[](std::int64_t a, std::int64_t b) -> std::int64_t { return Compare{}(a, b); },
                                                        true};
  static constexpr bool has_kernel(dtype type) {
    return type == dtype::f32 || type == dtype::i8 || type == dtype::u8 || type == dtype::i32 || type == dtype::i64 ||
           (Equality && type == dtype::b8);
  }

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const shape out = binary_elementwise::infer(m, node_id);
    const node& n = m.node_at(node_id);
    if (n.attrs.out_type != dtype::b8)
      m.fail({error_code::unsupported_dtype,
              node_id,
              n.kind,
              {},
              out,
              {.rejected_value = static_cast<std::int64_t>(n.attrs.out_type)}});
    return out;
  }

  // TFLM's ComparisonsPrepare (int8): left_shift 8; each operand's scale as a multiplier below one
  // (QuantizeMultiplierSmallerThanOneExp of double(scale)), its zero point negated. The result has none.
  // Operands without quantization (ONNX's plain int8) keep left_shift 0: the kernel compares raw values.
  static constexpr void requantize(const quantized_operands& q, const node&, kernel_params& p) {
    if (!q.in.quantized() || !q.in2.quantized()) return;
    p.left_shift = 8;
    p.input2_offset = ctnn::detail::quant::wrapping_neg(q.in2.zero_point);
    q.set_multiplier(p.input_multiplier, p.input_shift, static_cast<double>(q.in.scale));
    q.set_multiplier(p.input2_multiplier, p.input2_shift, static_cast<double>(q.in2.scale));
  }
  // Both scales must be below one: TFLM's kernel shifts right by the negated exponent (a larger scale
  // would shift by a negative amount).
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) {
    return {std::max(recipe.input_shift, recipe.input2_shift), false, 0};
  }

  template <class Params>
  [[gnu::always_inline]] static void run_f32(Params p, const float* const* operands, float* result) {
    const void* untyped[2] = {operands[0], operands[1]};
    kernel::reference::logic::compare<Compare>(p, untyped, static_cast<void*>(result));
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result,
                                            const kernel::requant_arrays&) {
    kernel::reference::logic::compare<Compare>(p, operands, result);
  }
};

}  // namespace ctnn::ops
