#pragma once
// The op kind as the unit of the house (docs/design.md §2, "One descriptor per op kind"): everything ctnn
// knows about one op kind is a struct in include/ctnn/ops/<kind>.hpp, derived from op_defaults below and
// listed in ops/registry.hpp. The passes, the memory planner and the kernel dispatch ask the descriptor
// through ops::visit (registry.hpp) instead of switching over op_kind. A descriptor holds:
//
//   kind                       its op_kind;
//   operands                   how many inputs it takes (ops::infer_shape checks it for infer_types);
//   operands_read(p)           how many of them its kernel reads (the others order it after their producers);
//   infer(m, node_id)          its shape rule: the result's shape (m.fail with a diagnostic on a bad op);
//   prepare(m, n, p)           the kernel parameters beyond the common ones (kernel::prepare_params): a copy of
//                              its attribute struct (op_attributes and kernel_params share one vocabulary);
//   requantize(q, n, p)        TFLite's integer recipe of its int8 kernel (pass::compute_requantization);
//   requantize_onnx(m, n, p)   its own fields of ONNX's integer recipe (QuantizeLinear's axis and counts);
//   checked_shift(recipe)      the recipe's shift the TFLite importer checks (tflite_unrepresentable_multiplier);
//   table_recipe(p), has_table_arrays(p, rq)
//                              the table that recipe needs beyond kernel_params (kernel_call::requantization),
//                              and whether a call is given its arrays (kernel::invoke_dynamic);
//   has_kernel(type)           whether a reference kernel exists for the first input's element type;
//   has_result_kernel(in, out) whether that kernel writes result element type `out` (quantize, dequantize);
//   macs(m, n, out)            its multiply-accumulates for a result of extents `out` (ops/cost.hpp);
//   run_f32, run_i8            its reference kernels (kernel/reference), one source for both specialisation
//                              policies (docs/design.md §4);
//   state_operands             the operands its kernel updates in place: state tensors (tensor_role::state);
//   packed_integer_operands, joins_operands
//                              integer constants packed for it, and the concatenations fold_constants copies;
//   windows_its_input          its result is attrs.slice's window of its operand 0 (the planner's slice_in_place);
//   elementwise, in_place_slots, fuses_as, takes_fused_activation, non_negative_result, plain_integer_kernel
//                              what patch execution, the memory planner, fuse_ops and the ONNX policy need;
//   put_attributes, put_params, put_requantization
//                              its fields in the printer's text (print/op_fields.hpp, print/requantization_text.hpp).
//
// SIMD and DSP fast paths stay per op family and ISA (kernel/simd, kernel/arm); they recognise the kind in
// their `supports`.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/requantization_recipe.hpp>
#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::ops {

// How many inputs an op takes (absent optional inputs count: their id is -1).
struct operand_range {
  std::int32_t min = 1, max = 1;
};

// The quantization of a quantized call's operands and the TFLite helpers its recipe uses
// (pass::compute_requantization builds it; docs/numerics.md).
struct quantized_operands {
  quantization in{};   // the first input's
  quantization in2{};  // the second input's (binary ops)
  quantization out{};  // the result's
  std::array<quantization, max_node_inputs> operand{};  // every input's, by position (absent: not quantized)
  // Whether every input is quantized as the result (concat copies such inputs, and rescales the others).
  bool inputs_quantized_as_result = true;

  // QuantizeMultiplier of a real multiplier.
  static constexpr void set_multiplier(std::int32_t& multiplier, std::int32_t& shift, double real) {
    const ctnn::detail::quant::quantized_multiplier qm = ctnn::detail::quant::quantize_multiplier(real);
    multiplier = qm.multiplier;
    shift = qm.shift;
  }
  // CalculateActivationRangeQuantized in the result's quantization (int8, or int16 for an int16 call).
  constexpr void set_activation_range(activation fused, kernel_params& p) const {
    const ctnn::detail::quant::activation_bounds range = ctnn::detail::quant::quantized_activation_range(
        fused, out.scale, out.zero_point, lowest_value(p.out_type), highest_value(p.out_type));
    p.activation_min = range.min;
    p.activation_max = range.max;
  }
};

// The shift of an int8 recipe's multiplier that TFLite's QuantizeMultiplier must have accepted (at most
// 31, or `largest` where TFLM's Prepare asks less: hard_swish's output exponent <= 0); a shift that also
// sets an input radius (logistic, tanh, softmax) must not be negative.
struct recipe_shift {
  std::int32_t shift = 0;
  bool sets_radius = false;
  std::int32_t largest = 31;
};

// What the printer knows of an op beyond its attributes (ops' put_attributes): its first input's rank (0 when
// not known) and whether shape inference has resolved its window's pads.
struct printed_op {
  std::int32_t rank = 0;
  bool pads_resolved = false;
};

// How an op evaluates two int64 values known at import (frontend/detail/known_integers.hpp: ONNX's shape
// arithmetic, TFLite's int32 shape ops): its function (nullptr: the op is not evaluated at import), whether
// the result is a bool (the comparisons) and whether the second value divides (0 is refused before `apply`).
struct integer_evaluation {
  std::int64_t (*apply)(std::int64_t, std::int64_t) = nullptr;
  bool bool_result = false;
  bool divides = false;
};

// The ONNX integer kernel an op kind runs under requantization_policy::onnx (kernel/onnx_integer.hpp). The
// plain ones (binary and after) run ONNX's integer semantics on unquantized integers: arithmetic wraps
// around in the element type.
enum class onnx_integer_kernel : std::uint8_t {
  none,
  convolution,  // QLinearConv, ConvInteger: NCHW activations, OIHW weights, groups
  matmul,       // QLinearMatMul, MatMulInteger
  quantize,     // QuantizeLinear: float32 to 8 bit
  dequantize,   // DequantizeLinear: 8 bit to float32
  average,      // QLinearGlobalAveragePool (a QDQ GlobalAveragePool): 8 bit, NHWC, the type kept
  window_average,  // QLinearAveragePool (a QDQ AveragePool): 8 bit, NHWC, the type kept
  binary,       // plain: the descriptor's on_known_integers, on any integer type, numpy broadcasting
  window_max,   // plain: 8-bit max pool
  pad,          // plain: any integer type
  transpose,    // plain: int32 and int64 (the 8-bit ones are the int8 kernels' byte moves)
  copy,         // plain: int32 and int64 reshape
};

// What every descriptor has unless it says otherwise: one input, the result shaped as the input, no kernel
// parameters of its own, no quantized recipe, no kernels.
struct op_defaults {
  static constexpr operand_range operands{1, 1};
  // An op whose result element i depends on its operands' element i only (broadcast aside): patch
  // execution may run it on a patch; the memory planner may write its result over an operand in
  // in_place_slots (bit k: operand k).
  static constexpr bool elementwise = false;
  static constexpr std::uint32_t in_place_slots = 0;
  // The operands (bit k: operand k) that are state its kernel updates in place (svdf's activation state); a
  // state tensor may be read there only (the TFLite importer checks it).
  static constexpr std::uint32_t state_operands = 0;
  // The constant operands (bit k: operand k) whose integers its int8 kernel reads with quantization it keeps itself
  // (sequence_lstm's packed per-gate weights and biases: their tensors are not quantized, fold_constants copies
  // the parts' integers): lower_te does not ask them for a scale (kernel::unpreparable_operand).
  static constexpr std::uint32_t packed_integer_operands = 0;
  // Whether its result is its operands one after the other along attrs.axis (concat): along the first axis, on
  // integers quantized alike (or a result not quantized), a copy that fold_constants folds (integer_copy).
  static constexpr bool joins_operands = false;
  // Whether its result is the window attrs.slice of its operand 0, in order (slice): where that window is one
  // contiguous block (ops::slice::contiguous_offset), the planner may store the result inside the operand.
  static constexpr bool windows_its_input = false;
  // An activation op that fuse_ops may fold into its producer's kernel (none: not an activation).
  static constexpr activation fuses_as = activation::none;
  // Whether its kernel applies a fused activation (attrs.fused) to its result: fuse_ops may fold a
  // following activation op into it.
  static constexpr bool takes_fused_activation = false;
  // Whether its result is >= 0 by construction.
  static constexpr bool non_negative_result = false;
  // Whether its int8 kernel is exact on plain integers (no scale needed): under ONNX's policy such an op
  // may read an int8 tensor without quantization (kernel::needs_quantization).
  static constexpr bool plain_integer_kernel = false;
  // Whether its operand 1 is its constant weights (conv, dense): int8 weights with their own quantization,
  // rewritten by fold_batch_norm, fuse_ops' bias folding and patch execution's weight reads.
  static constexpr bool has_weights = false;
  // Whether its result's element type is attrs.out_type (arg_max: int32 or int64) rather than its first
  // input's (ops::result_type).
  static constexpr bool result_type_from_attributes = false;
  // Whether TFLM's int16 kernel of it runs only with zero point 0 on its int16 tensors (its Prepare checks
  // it; the TFLite importer refuses others).
  static constexpr bool int16_symmetric = false;
  // The scale 2^e its int16 result must have (TFLM's LOGISTIC and TANH: -15; 0: any).
  static constexpr std::int32_t int16_result_exponent = 0;
  // Whether its int8 result is one of its input's values as they are (max, min): TFLM requantizes nothing, so
  // input and result must share scale and zero point (the TFLite importer checks it where TFLM's Eval does).
  static constexpr bool int8_result_is_an_input_value = false;
  // Its evaluation of values known at import (none by default).
  static constexpr integer_evaluation on_known_integers{};
  // Its ONNX integer kernel (none by default).
  static constexpr onnx_integer_kernel onnx_integer = onnx_integer_kernel::none;

  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    return m.tensor_at(m.node_at(node_id).inputs[0]).dims;
  }
  // The operands its kernel reads, the first ones of its inputs (kernel::operands_read).
  static constexpr std::size_t operands_read(const kernel_params&) { return 1; }
  template <class Module>
  static constexpr void prepare(const Module&, const node&, kernel_params&) {}
  // Whether its result is its input's bytes as they are (alias_reshapes then makes it a view).
  template <class Module>
  static constexpr bool is_view(const Module&, const node&) { return false; }
  static constexpr void requantize(const quantized_operands&, const node&, kernel_params&) {}
  // Its fields of ONNX's integer recipe beyond the scales and zero points (pass::compute_requantization's
  // set_onnx_fields; none).
  template <class Module>
  static constexpr void requantize_onnx(const Module&, const node&, kernel_params&) {}
  // The shift the TFLite importer checks in its recipe (requantize's result): the output multiplier's.
  static constexpr recipe_shift checked_shift(const kernel_params& recipe) { return {recipe.output_shift, false}; }
  // The table its int8 kernel of call parameters `p` reads beyond kernel_params (none; per-channel
  // multipliers, p.per_channel, are built from the module by pass::compute_requantization's recipe_of), and
  // whether a call is given that table's arrays.
  static constexpr requantization_recipe table_recipe(const kernel_params&) { return {}; }
  static constexpr bool has_table_arrays(const kernel_params& p, const kernel::requant_arrays& rq) {
    return p.per_channel == 0 || (rq.multiplier != nullptr && rq.shift != nullptr);
  }
  static constexpr bool has_kernel(dtype) { return false; }
  // Whether its kernel of first input element type `in` writes a result of element type `out` (an op whose
  // result type is its input's is not asked about another).
  static constexpr bool has_result_kernel(dtype, dtype) { return true; }
  // Its multiply-accumulates when it writes a result of extents `out` (its own result's, or a patch's):
  // one per result element, as docs/memory.md counts element-wise ops.
  template <class Module>
  static constexpr std::int64_t macs(const Module&, const node&, const shape& out) {
    return out.elements();
  }

  // Its attributes in print_module's op line, after the kind, label and fused activation ("  min 0 max 6"). The writer is the printer's (ir/printer_text.hpp); its
  // helpers (put_numbers, put_pad_pairs, put_shape) are called unqualified and found through the writer's
  // namespace, so that the descriptors, which every translation unit includes, do not include the printer.
  template <class Writer>
  static void put_attributes(Writer&, const op_attributes&, const printed_op&) {}
  // Its kernel call's parameters after the shapes, in the calls' and kernels' lines.
  template <class Writer>
  static void put_params(Writer&, const kernel_params&) {}
  // What its call's TFLite requantization line says beyond the offsets, multipliers and clamp.
  template <class Writer>
  static void put_requantization(Writer&, const kernel_params&) {}
};

// Defaults Base, with the printer members of an op whose one printed field is its axis (attrs.axis, kernel_params::axis).
template <class Base>
struct prints_axis : Base {
  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  axis ", a.axis);
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axis ", p.axis);
  }
};

// The defaults of an element-wise op of one operand (activations): its result may overwrite its input,
// and patch execution may run it on a patch.
struct unary_elementwise : op_defaults {
  static constexpr bool elementwise = true;
  static constexpr std::uint32_t in_place_slots = 1;
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }
};

namespace detail {
template <class Params>
struct type_at_compile_time {};
template <kernel_params P>
struct type_at_compile_time<kernel::static_params<P>> {
  static constexpr dtype value = P.type;
};
}  // namespace detail

// Calls f(T{}) with the integer type T of a call's first input, a quantized activation type (int16; int8
// otherwise): the int8 and int16 kernels of an op are one template. With parameters known at compile time
// (kernel::static_params) only that type's kernel is instantiated.
template <class Params, class F>
[[gnu::always_inline]] inline void with_activation_type(Params p, F&& f) {
  if constexpr (requires { detail::type_at_compile_time<Params>::value; }) {
    if constexpr (detail::type_at_compile_time<Params>::value == dtype::i16) f(std::int16_t{});
    else f(std::int8_t{});
  } else if (p->type == dtype::i16) {
    f(std::int16_t{});
  } else {
    f(std::int8_t{});
  }
}

// An op that moves bytes without reading them (reshape, transpose): an int8 or int16 one keeps its input's
// quantization (no recipe), and its integer kernel, written for any element type, moves uint8 and plain int8
// integers as well (ONNX models), int16 (TFLite's 16x8 tensors) and bools, chosen by the element's size.
struct byte_move : op_defaults {
  static constexpr bool plain_integer_kernel = true;
  static constexpr bool has_kernel(dtype type) {
    return type == dtype::f32 || type == dtype::i8 || type == dtype::u8 || type == dtype::i16 || type == dtype::b8;
  }
  // Calls move(T{}) with the integer type T of the first input's element size.
  template <class Params, class Move>
  [[gnu::always_inline]] static void with_integer_type(Params p, Move&& move) {
    switch (size_of(p->type)) {
      case 8: return move(std::int64_t{});
      case 4: return move(std::int32_t{});
      case 2: return move(std::int16_t{});
      default: return move(std::int8_t{});
    }
  }
};

// A byte move that also takes int32 and int64 elements (slice, gather: TFLite's int32 tensors, ONNX's plain
// integers).
struct any_type_move : byte_move {
  static constexpr bool has_kernel(dtype type) {
    return byte_move::has_kernel(type) || type == dtype::i32 || type == dtype::i64;
  }
};

// An activation of its own (relu, relu6, sigmoid, tanh): the float32 kernel applies A element by element,
// and fuse_ops may fold the op into its producer as fused activation A. The int8 kernel and recipe are the
// op's.
template <op_kind K, activation A>
struct activation_op : unary_elementwise {
  static constexpr op_kind kind = K;
  static constexpr activation fuses_as = A;
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::activate_all(A, p->out.elements(), operands[0], result);
  }
};

// What a descriptor must name (the defaults give everything else): a message that names the member.
template <class D>
concept op_descriptor = requires {
  { D::kind } -> std::convertible_to<op_kind>;
  { D::operands } -> std::convertible_to<operand_range>;
};

}  // namespace ctnn::ops
