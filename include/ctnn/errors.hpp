#pragma once
// Compile errors for models that cannot be compiled. A pass records a diagnostic; diagnostic_check
// turns it into one of the class templates below, whose static_assert states the problem in words and
// whose template arguments (shown by the compiler) carry the numbers: op index and kind, shapes, counts.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/module.hpp>

// The model-file frontends' enums, declared here so that their errors can name values (the definitions
// are in frontend/flatbuffers.hpp and frontend/tflite/schema.hpp, which a model that fails includes).
namespace ctnn::flatbuffers {
enum class expectation : std::int32_t;
}
namespace ctnn::tflite {
enum class builtin_operator : std::int32_t;
enum class tensor_type : std::int8_t;
enum class activation_function : std::int8_t;
enum class tensor_feature : std::int32_t;
enum class fully_connected_feature : std::int32_t;
enum class quantization_problem : std::int32_t;
}  // namespace ctnn::tflite
namespace ctnn::protobuf {
enum class expectation : std::int32_t;
}

// The ONNX frontend's diagnostic codes (frontend/onnx/errors.hpp has their names and sentences; the
// frontend's enums named by its errors are declared here, defined in frontend/onnx/schema.hpp).
namespace ctnn::onnx {
enum class op_type : std::int32_t;
enum class attribute : std::int32_t;
enum class data_type : std::int32_t;
enum class tensor_feature : std::int32_t;

enum class onnx_error : std::int32_t {
  malformed_model = 300,       // value_a: byte offset, value_b: ctnn::protobuf::expectation
  unsupported_operator,        // value_a: ctnn::onnx::op_type (unknown: not in the default domain's list)
  unsupported_attribute,       // value_a: op_type, value_b: ctnn::onnx::attribute; expected.dims[0]: the value
                               // (floats in millionths); a string: expected = [-1, its byte offset, its length]
  unsupported_operand,         // value_a: op_type, value_b: operand slot (must be a constant of the type and
                               // shape the op reads: weights, bias, shape, pads, clip bounds)
  output_count,                // value_a: op_type, value_b: the node's output count (one is supported)
  unsupported_tensor_type,     // value_a: name offset, value_b: ctnn::onnx::data_type
  no_static_shape,             // value_a: name offset, value_b: rank; actual: the shape (-1 = unknown)
  rank_too_high,               // value_a: name offset, value_b: rank (ctnn::max_rank is 6)
  unsupported_tensor_feature,  // value_a: name offset, value_b: ctnn::onnx::tensor_feature
  too_many_model_io,           // value_a: 0 = inputs, 1 = outputs; value_b: their count (max 8)
  integer_arithmetic,          // value_a: op_type, value_b: operand slot (its element type differs from the
                               // first operand's: plain integer arithmetic takes one integer type)
  unsupported_rank,            // value_a: op_type, value_b: operand slot; actual: the operand's ONNX shape
  operand_type,                // value_a: op_type, value_b: operand slot; expected.dims[0]: its ctnn::onnx::data_type
  operand_value,               // value_a: op_type, value_b: operand slot; expected: [element index, value,
                               // 1 when the value is float32 bits (a scale) else 0]; a value out of the range
                               // the op accepts (scales finite and positive, zero points in their type,
                               // shape extents and bounds)
};
inline constexpr std::int32_t first_onnx_error = 300;
inline constexpr std::int32_t last_onnx_error = static_cast<std::int32_t>(onnx_error::operand_value);

constexpr error_code code_of(onnx_error e) { return static_cast<error_code>(e); }
constexpr bool is_onnx_error(error_code c) {
  return static_cast<std::int32_t>(c) >= first_onnx_error && static_cast<std::int32_t>(c) <= last_onnx_error;
}

}  // namespace ctnn::onnx

namespace ctnn::errors {

// Template-argument carriers, read by people in the compiler's message.
template <std::int32_t Index, op_kind Kind> struct at_op;
template <std::int32_t... Extents> struct dims;
template <std::int64_t N> struct count;
template <std::int64_t Position> struct pipeline_position;
template <fact Missing> struct missing_fact;
template <char... Name> struct pool_named;
template <char... Name> struct tensor_named;
template <std::int64_t Index> struct tensor_index;
template <std::int64_t Bytes> struct needed_bytes;
template <std::int64_t Bytes> struct limit_bytes;
template <std::int64_t Bytes> struct over_by_bytes;
template <std::int64_t Position> struct pin_position;

namespace detail {
template <class...> inline constexpr bool always_false = false;
}

template <class Op, class Expected, class Actual>
struct input_shapes_differ {
  static_assert(detail::always_false<Op>, "ctnn: the inputs of this op have shapes that cannot be combined "
                                           "(see the op index and both shapes in the template arguments).");
};
template <class Op, class Needed, class Given>
struct weight_count_mismatch {
  static_assert(detail::always_false<Op>, "ctnn: the weight array of this op has the wrong number of elements "
                                           "(needed vs given in the template arguments; conv2d weights are OHWI).");
};
template <class Op, class Needed, class Given>
struct bias_count_mismatch {
  static_assert(detail::always_false<Op>, "ctnn: the bias array of this op needs one element per output channel "
                                           "(needed vs given in the template arguments).");
};
template <class Op, class WeightsPerOutput, class WeightElements, class BiasElements>
struct weights_and_bias_disagree {
  static_assert(detail::always_false<Op>, "ctnn: the weights and the bias of this op imply different output counts "
                                           "(weights per output, weight and bias element counts in the template "
                                           "arguments); fix the wrong one, or give dsl::units<N>.");
};
template <class Op, class Channels, class Groups>
struct channels_not_divisible_by_groups {
  static_assert(detail::always_false<Op>, "ctnn: conv2d groups must divide both the input and output channels.");
};
template <class Op, class Input, class KernelH, class KernelW>
struct window_larger_than_input {
  static_assert(detail::always_false<Op>, "ctnn: the window of this conv/pool op does not fit its (padded) input.");
};
template <class Op, class From, class To>
struct reshape_changes_element_count {
  static_assert(detail::always_false<Op>, "ctnn: a reshape must keep the number of elements.");
};
template <class Op, class Target, class Input>
struct invalid_reshape_target {
  static_assert(detail::always_false<Op>, "ctnn: a reshape extent is positive, 0 (keep) or -1 (infer), with at most "
                                           "one -1 (target and input shapes in the template arguments).");
};
template <class Op, class Input, class Dimension, class OutputPosition>
struct pool_window_all_padding {
  static_assert(detail::always_false<Op>, "ctnn: a window of this pooling op covers only padding (dimension 1 = H, "
                                           "2 = W, and the output position in the template arguments); use smaller "
                                           "pads or dilation.");
};
template <class Op, class Dimension, class Rank>
struct pads_beyond_rank {
  static_assert(detail::always_false<Op>, "ctnn: this pad op gives (before, after) pads for a dimension its input "
                                           "does not have.");
};
template <class Op, class NeededRank, class GivenRank>
struct unsupported_rank {
  static_assert(detail::always_false<Op>, "ctnn: this op needs an input of another rank (NHWC ops need rank 4).");
};
template <class Op, class Axis, class Rank>
struct invalid_axis {
  static_assert(detail::always_false<Op>, "ctnn: the axis of this op is out of range for its input's rank.");
};
template <class Op, class InputSlot, class NodePosition>
struct unknown_input_name {
  static_assert(detail::always_false<Op>, "ctnn::dsl::graph: a node names an input that no earlier node has "
                                           "(or outputs<> names an unknown node; op index -1).");
};
template <class Op, class Inputs, class Limit>
struct too_many_inputs {
  static_assert(detail::always_false<Op>, "ctnn: this op has more inputs than ctnn::max_node_inputs.");
};
template <class Op, class Takes, class Given>
struct input_count_mismatch {
  static_assert(detail::always_false<Op>, "ctnn: this op is given the wrong number of inputs.");
};
template <class Op, class DType>
struct unsupported_dtype {
  static_assert(detail::always_false<Op>, "ctnn: no kernel for this op with this element type yet.");
};
template <class PassPosition, class MissingFacts>
struct pass_prerequisite_missing {
  static_assert(detail::always_false<PassPosition>,
                "ctnn: a pass in the pipeline runs before the pass that produces what it reads (pipeline position "
                "and the missing ctnn::fact bits in the template arguments).");
};

// --- Errors of the TFLite frontend (ctnn::tflite::model; frontend_error codes) ----------------------
// Carriers: a byte offset in the file, a tensor index, an op (index in execution order + TFLite builtin
// code), a fixed-point number, and which side of the model's interface.
template <std::int64_t Offset> struct at_byte;
template <std::int64_t Index> struct at_tensor;
template <std::int32_t Index, tflite::builtin_operator Code> struct tflite_op;
template <std::int64_t Value> struct millionths;
template <std::int64_t Value> struct shift;
struct model_inputs;
struct model_outputs;

template <class AtByte, flatbuffers::expectation Expected>
struct tflite_malformed_model {
  static_assert(detail::always_false<AtByte>, "ctnn::tflite: the model file is malformed or truncated: at the byte "
                                               "offset in the template arguments the reader did not find what the "
                                               "expectation there names.");
};
template <class Op>
struct tflite_unsupported_operator {
  static_assert(detail::always_false<Op>, "ctnn::tflite: the model uses an operator that ctnn does not support "
                                           "(its index in execution order and its TFLite builtin code are the "
                                           "template arguments).");
};
template <class Op, tflite::activation_function Fused>
struct tflite_unsupported_fused_activation {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this op's fused activation is not supported (NONE, RELU "
                                           "and RELU6 are).");
};
template <class Op, class Padding>
struct tflite_unsupported_padding {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this op's padding is neither SAME (0) nor VALID (1).");
};
template <class Op, class Value>
struct tflite_invalid_window {
  static_assert(detail::always_false<Op>, "ctnn::tflite: a stride, dilation or window size of this op is below 1.");
};
template <class Op, class Beta>
struct tflite_softmax_beta_not_one {
  static_assert(detail::always_false<Op>, "ctnn::tflite: only SOFTMAX with beta = 1 is supported (beta in "
                                           "millionths in the template arguments).");
};
template <class Op, tflite::fully_connected_feature Feature>
struct tflite_unsupported_fully_connected {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this FULLY_CONNECTED uses a feature ctnn does not support "
                                           "(named in the template arguments).");
};
template <class Op, class WeightTensor>
struct tflite_hybrid_model {
  static_assert(detail::always_false<Op>, "ctnn::tflite: hybrid models (float32 activations with int8 weights) are "
                                           "not supported: convert the model with full-integer quantization, or "
                                           "keep it float32 (the op and its weight tensor in the template "
                                           "arguments).");
};
template <class Tensor, tflite::tensor_type Type>
struct tflite_unsupported_tensor_type {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor has an element type ctnn does not support "
                                               "(FLOAT32, INT8 and INT32 are supported).");
};
template <class Tensor, class Shape>
struct tflite_no_static_shape {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor has no static shape (an extent that is -1, 0 "
                                               "or unknown): convert the model with a fixed batch size and input "
                                               "shape.");
};
template <class Tensor, class Rank>
struct tflite_rank_too_high {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor has more than ctnn::max_rank (6) dimensions.");
};
template <class Tensor, tflite::tensor_feature Feature>
struct tflite_unsupported_tensor_feature {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor uses a feature ctnn does not support (named in "
                                               "the template arguments).");
};
template <class Tensor, class Shape, class BufferBytes>
struct tflite_constant_size_mismatch {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a constant tensor's buffer does not hold as many bytes "
                                               "as its shape and type need (shape and buffer bytes in the template "
                                               "arguments).");
};
template <class Op, class OperandSlot>
struct tflite_unsupported_operand {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this operand of the op must be a constant of the type the "
                                           "op reads (weights and bias; int32 paddings, axes and shapes of the right "
                                           "size).");
};
template <class Op, class Outputs>
struct tflite_output_count {
  static_assert(detail::always_false<Op>, "ctnn::tflite: this op does not have exactly one output.");
};
template <class Which, class Count>
struct tflite_too_many_model_io {
  static_assert(detail::always_false<Which>, "ctnn::tflite: the model has more inputs or outputs than "
                                              "ctnn::max_model_io (8).");
};
template <class Tensor, tflite::quantization_problem Problem>
struct tflite_invalid_quantization {
  static_assert(detail::always_false<Tensor>, "ctnn::tflite: a tensor's quantization parameters are invalid (the "
                                               "problem is named in the template arguments).");
};
template <class Op, class Shift>
struct tflite_unrepresentable_multiplier {
  static_assert(detail::always_false<Op>, "ctnn::tflite: the quantization scales of this op give a requantization "
                                           "multiplier that TFLite cannot represent (its shift is in the template "
                                           "arguments: at most 31, and 0 or more for LOGISTIC, TANH and SOFTMAX).");
};

// --- Errors of the ONNX frontend (ctnn::onnx::model; onnx_error codes) ---------------------------------
// Template-argument carriers of the ONNX errors: a node (index in the graph + op_type), a byte offset, a
// value's name offset, an attribute value, and which side of the model's interface.
template <std::int32_t Index, onnx::op_type Type> struct onnx_node;
template <std::int64_t Offset> struct onnx_byte;
template <std::int64_t NameOffset> struct onnx_value_named_at;
template <std::int64_t Value> struct attribute_value;
template <std::int64_t Slot> struct operand_slot;
template <std::int64_t Offset, std::int64_t Length> struct attribute_string_at_byte;
template <std::int64_t Index> struct element_index;
template <std::int64_t Value> struct element_value;
template <std::int64_t Bits> struct float32_bits;  // a float32 as its bit pattern (int32)
struct onnx_model_inputs;
struct onnx_model_outputs;

template <class AtByte, protobuf::expectation Expected>
struct onnx_malformed_model {
  static_assert(detail::always_false<AtByte>, "ctnn::onnx: the model file is malformed or truncated: at the byte "
                                                    "offset in the template arguments the protobuf reader did not find "
                                                    "what the expectation there names.");
};
template <class Node>
struct onnx_unsupported_operator {
  static_assert(detail::always_false<Node>, "ctnn::onnx: the model uses an operator that ctnn does not support "
                                                  "(the node's index in the graph and its op_type are the template "
                                                  "arguments; unknown = not an ai.onnx operator).");
};
template <class Node, onnx::attribute Attribute, class Value>
struct onnx_unsupported_attribute {
  static_assert(detail::always_false<Node>, "ctnn::onnx: an attribute of this node has a value ctnn does not "
                                                  "support (the node, the attribute and its value are the template "
                                                  "arguments; floats in millionths).");
};
template <class Node, class Slot>
struct onnx_unsupported_operand {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this operand of the node must be a constant (an "
                                                  "initializer or a Constant node) of the type and shape the op reads: "
                                                  "float weights, bias and bounds; int64 shapes and pads.");
};
template <class Node, class Outputs>
struct onnx_output_count {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this node has more than one output in use (inference "
                                                  "uses one).");
};
template <class Value, onnx::data_type Type>
struct onnx_unsupported_tensor_type {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a model input or constant has an element type ctnn "
                                                   "does not support here (FLOAT, UINT8, INT8, INT32 or INT64 "
                                                   "activations; FLOAT weights; INT64 shapes and pads).");
};
template <class Value, class Shape>
struct onnx_no_static_shape {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a model input has no static shape (a symbolic, unknown "
                                                   "or 0 extent): export the model with a fixed batch size and input "
                                                   "shape.");
};
template <class Value, class Rank>
struct onnx_rank_too_high {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a tensor has more than ctnn::max_rank (6) dimensions.");
};
template <class Value, onnx::tensor_feature Feature>
struct onnx_unsupported_tensor_feature {
  static_assert(detail::always_false<Value>, "ctnn::onnx: a tensor uses a storage feature ctnn does not read "
                                                   "(named in the template arguments).");
};
template <class Node, class Slot>
struct onnx_integer_arithmetic {
  static_assert(detail::always_false<Node>, "ctnn::onnx: the operands of this element-wise op have different element "
                                            "types (plain integer arithmetic takes two integer operands of one type: "
                                            "uint8, int8, int32 or int64).");
};
template <class Node, class Slot, class Shape>
struct onnx_unsupported_rank {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this operand of the node has a rank the op does not support "
                                            "(Conv, ConvInteger, QLinearConv, MaxPool, AveragePool and "
                                            "BatchNormalization: 3 = 1-D or 4 = 2-D; GlobalAveragePool: 3 or 4; Gemm: "
                                            "2); the node, the operand and its shape are the template arguments.");
};
template <class Node, class Slot, onnx::data_type Type>
struct onnx_operand_type {
  static_assert(detail::always_false<Node>, "ctnn::onnx: this operand of the node has an element type the op does "
                                            "not support here (scales FLOAT; zero points, quantized data and weights "
                                            "UINT8 or INT8; biases INT32; shapes and pads INT64).");
};
template <class Node, class Slot, class Index, class Value>
struct onnx_operand_value {
  static_assert(detail::always_false<Node>, "ctnn::onnx: a value of this constant operand is out of the range the op "
                                            "accepts (scales finite and positive, zero points inside their type, shape "
                                            "extents below 2^31); the node, the operand, the element index and the "
                                            "value are the template arguments.");
};
template <class Which, class Count>
struct onnx_too_many_model_io {
  static_assert(detail::always_false<Which>, "ctnn::onnx: the model has more inputs or outputs than "
                                                   "ctnn::max_model_io (8).");
};

// Memory budgets (plan_memory): the pool by name, the bytes its plan needs, its limit, the excess and the op
// at its peak (ctnn-memory-report prints the names behind these numbers).
template <class Pool, class Needed, class Limit, class OverBy, class PeakOp>
struct pool_budget_exceeded {
  static_assert(detail::always_false<Pool>, "ctnn: the model needs more memory than a pool's limit allows (the pool's "
                                             "name, the bytes needed, the limit, the excess and the op at the pool's "
                                             "peak are the template arguments); raise the limit, add a fallback pool, "
                                             "or unpin buffers from it.");
};
template <class Pin, class Name, class FirstTensor, class SecondTensor>
struct pin_names_shared_tensor_name {
  static_assert(detail::always_false<Pin>, "ctnn: a ctnn::pin<> names a tensor name that two tensors share (the pin's "
                                            "position, the name and the two tensor indices are the template "
                                            "arguments); pin the tensor by its op instead (ctnn::pin_op<>).");
};
template <class Pin>
struct pin_names_no_tensor {
  static_assert(detail::always_false<Pin>, "ctnn: a ctnn::pin<> names a tensor (or ctnn::pin_op<> an op) that has no "
                                            "buffer to place (its position among the pins is the template argument).");
};
template <class Pin>
struct pin_names_no_pool {
  static_assert(detail::always_false<Pin>, "ctnn: a ctnn::pin<> names a pool that is not among the model's writable "
                                            "pools (its position among the pins is the template argument).");
};

// A pipeline's pass order, checked from the passes' declarations: `Pass` reads `MissingFact`, which no
// pass before it establishes; `ProducerPass` is the pass that does (move `Pass` after it).
struct no_pass_in_the_pipeline_establishes_it {};
template <class Pass, class MissingFact, class ProducerPass>
struct pass_runs_before_its_prerequisite {
  static_assert(detail::always_false<Pass>, "ctnn: this pipeline runs a pass before the pass that produces what it "
                                             "reads (the pass, the missing ctnn::fact and the pass that establishes "
                                             "it are the template arguments).");
};

}  // namespace ctnn::errors

namespace ctnn::detail {

template <shape S, class = std::make_index_sequence<static_cast<std::size_t>(S.rank)>> struct shape_type;
template <shape S, std::size_t... I>
struct shape_type<S, std::index_sequence<I...>> {
  using type = errors::dims<S.dims[I]...>;
};

struct no_error {};

}  // namespace ctnn::detail

namespace ctnn::onnx::detail {

struct no_onnx_error {};

// The errors:: class of an ONNX diagnostic (no_onnx_error for the other codes), named without
// instantiating it.
template <diagnostic D>
constexpr auto onnx_error_type() {
  if constexpr (!is_onnx_error(D.code)) {
    return std::type_identity<no_onnx_error>{};
  } else {
    using node = errors::onnx_node<D.node, static_cast<op_type>(D.value_a)>;
    using value = errors::onnx_value_named_at<D.value_a>;
    using b = errors::count<D.value_b>;
    constexpr auto code = static_cast<onnx_error>(D.code);
    if constexpr (code == onnx_error::malformed_model)
      return std::type_identity<errors::onnx_malformed_model<errors::onnx_byte<D.value_a>, static_cast<protobuf::expectation>(D.value_b)>>{};
    else if constexpr (code == onnx_error::unsupported_operator) return std::type_identity<errors::onnx_unsupported_operator<node>>{};
    else if constexpr (code == onnx_error::unsupported_attribute && D.expected.rank == 3 && D.expected.dims[0] == -1)
      return std::type_identity<errors::onnx_unsupported_attribute<  // a string: where it is in the file
          node, static_cast<attribute>(D.value_b), errors::attribute_string_at_byte<D.expected.dims[1], D.expected.dims[2]>>>{};
    else if constexpr (code == onnx_error::unsupported_attribute)
      return std::type_identity<errors::onnx_unsupported_attribute<node, static_cast<attribute>(D.value_b),
                                                                   errors::attribute_value<D.expected.dims[0]>>>{};
    else if constexpr (code == onnx_error::unsupported_rank)
      return std::type_identity<errors::onnx_unsupported_rank<node, errors::operand_slot<D.value_b>,
                                                              typename ctnn::detail::shape_type<D.actual>::type>>{};
    else if constexpr (code == onnx_error::operand_type)
      return std::type_identity<errors::onnx_operand_type<node, errors::operand_slot<D.value_b>, static_cast<data_type>(D.expected.dims[0])>>{};
    else if constexpr (code == onnx_error::operand_value && D.expected.dims[2] == 1)
      return std::type_identity<errors::onnx_operand_value<node, errors::operand_slot<D.value_b>, errors::element_index<D.expected.dims[0]>,
                                                           errors::float32_bits<D.expected.dims[1]>>>{};
    else if constexpr (code == onnx_error::operand_value)
      return std::type_identity<errors::onnx_operand_value<node, errors::operand_slot<D.value_b>, errors::element_index<D.expected.dims[0]>,
                                                           errors::element_value<D.expected.dims[1]>>>{};
    else if constexpr (code == onnx_error::unsupported_operand)
      return std::type_identity<errors::onnx_unsupported_operand<node, errors::operand_slot<D.value_b>>>{};
    else if constexpr (code == onnx_error::output_count) return std::type_identity<errors::onnx_output_count<node, b>>{};
    else if constexpr (code == onnx_error::unsupported_tensor_type)
      return std::type_identity<errors::onnx_unsupported_tensor_type<value, static_cast<data_type>(D.value_b)>>{};
    else if constexpr (code == onnx_error::no_static_shape)
      return std::type_identity<errors::onnx_no_static_shape<value, typename ctnn::detail::shape_type<D.actual>::type>>{};
    else if constexpr (code == onnx_error::rank_too_high) return std::type_identity<errors::onnx_rank_too_high<value, b>>{};
    else if constexpr (code == onnx_error::unsupported_tensor_feature)
      return std::type_identity<errors::onnx_unsupported_tensor_feature<value, static_cast<tensor_feature>(D.value_b)>>{};
    else if constexpr (code == onnx_error::integer_arithmetic)
      return std::type_identity<errors::onnx_integer_arithmetic<node, errors::operand_slot<D.value_b>>>{};
    else
      return std::type_identity<errors::onnx_too_many_model_io<
          std::conditional_t<D.value_a == 0, errors::onnx_model_inputs, errors::onnx_model_outputs>, b>>{};
  }
}

}  // namespace ctnn::onnx::detail

namespace ctnn::detail {

// The errors:: class of a frontend diagnostic (frontend_error codes, ir/diagnostic.hpp).
template <diagnostic D>
constexpr auto frontend_error_type() {
  using op = errors::tflite_op<D.node, static_cast<tflite::builtin_operator>(D.value_a)>;
  using tensor = errors::at_tensor<D.value_a>;
  using b = errors::count<D.value_b>;
  constexpr auto code = static_cast<frontend_error>(D.code);
  if constexpr (code == frontend_error::tflite_malformed_model)
    return std::type_identity<errors::tflite_malformed_model<errors::at_byte<D.value_a>,
                                                             static_cast<flatbuffers::expectation>(D.value_b)>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_operator) return std::type_identity<errors::tflite_unsupported_operator<op>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_activation)
    return std::type_identity<errors::tflite_unsupported_fused_activation<op, static_cast<tflite::activation_function>(D.value_b)>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_padding) return std::type_identity<errors::tflite_unsupported_padding<op, b>>{};
  else if constexpr (code == frontend_error::tflite_invalid_window) return std::type_identity<errors::tflite_invalid_window<op, b>>{};
  else if constexpr (code == frontend_error::tflite_softmax_beta)
    return std::type_identity<errors::tflite_softmax_beta_not_one<op, errors::millionths<D.value_b>>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_fully_connected)
    return std::type_identity<errors::tflite_unsupported_fully_connected<op, static_cast<tflite::fully_connected_feature>(D.value_b)>>{};
  else if constexpr (code == frontend_error::tflite_hybrid_model)
    return std::type_identity<errors::tflite_hybrid_model<op, errors::at_tensor<D.value_b>>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_tensor_type)
    return std::type_identity<errors::tflite_unsupported_tensor_type<tensor, static_cast<tflite::tensor_type>(D.value_b)>>{};
  else if constexpr (code == frontend_error::tflite_no_static_shape)
    return std::type_identity<errors::tflite_no_static_shape<tensor, typename shape_type<D.actual>::type>>{};
  else if constexpr (code == frontend_error::tflite_rank_too_high) return std::type_identity<errors::tflite_rank_too_high<tensor, b>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_tensor_feature)
    return std::type_identity<errors::tflite_unsupported_tensor_feature<tensor, static_cast<tflite::tensor_feature>(D.value_b)>>{};
  else if constexpr (code == frontend_error::tflite_constant_size_mismatch)
    return std::type_identity<errors::tflite_constant_size_mismatch<tensor, typename shape_type<D.expected>::type, b>>{};
  else if constexpr (code == frontend_error::tflite_unsupported_operand) return std::type_identity<errors::tflite_unsupported_operand<op, b>>{};
  else if constexpr (code == frontend_error::tflite_output_count) return std::type_identity<errors::tflite_output_count<op, b>>{};
  else if constexpr (code == frontend_error::tflite_too_many_model_io)
    return std::type_identity<errors::tflite_too_many_model_io<std::conditional_t<D.value_a == 0, errors::model_inputs, errors::model_outputs>, b>>{};
  else if constexpr (code == frontend_error::tflite_invalid_quantization)
    return std::type_identity<errors::tflite_invalid_quantization<tensor, static_cast<tflite::quantization_problem>(D.value_b)>>{};
  else if constexpr (code == frontend_error::tflite_unrepresentable_multiplier)
    return std::type_identity<errors::tflite_unrepresentable_multiplier<op, errors::shift<D.value_b>>>{};
  else return std::type_identity<no_error>{};
}

// The name a diagnostic carries (ir/diagnostic.hpp: diagnostic_name) as Carrier<'s', 'r', 'a', 'm'>.
template <diagnostic D, template <char...> class Carrier>
constexpr auto named_carrier() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return std::type_identity<Carrier<diagnostic_name_char(D.actual, I)...>>{};
  }(std::make_index_sequence<static_cast<std::size_t>(D.actual.rank)>{});
}
template <diagnostic D, template <char...> class Carrier>
using named_t = typename decltype(named_carrier<D, Carrier>())::type;

// The errors:: class of a diagnostic (no_error when there is none), named without instantiating it.
template <diagnostic D>
constexpr auto error_type() {
  using op = errors::at_op<D.node, D.kind>;
  using expected = typename shape_type<D.expected>::type;
  using actual = typename shape_type<D.actual>::type;
  using a = errors::count<D.value_a>;
  using b = errors::count<D.value_b>;
  if constexpr (D.code == error_code::input_shapes_differ) return std::type_identity<errors::input_shapes_differ<op, expected, actual>>{};
  else if constexpr (D.code == error_code::weight_count_mismatch) return std::type_identity<errors::weight_count_mismatch<op, a, b>>{};
  else if constexpr (D.code == error_code::bias_count_mismatch) return std::type_identity<errors::bias_count_mismatch<op, a, b>>{};
  else if constexpr (D.code == error_code::weights_and_bias_disagree)
    return std::type_identity<errors::weights_and_bias_disagree<op, expected, a, b>>{};
  else if constexpr (D.code == error_code::channels_not_divisible) return std::type_identity<errors::channels_not_divisible_by_groups<op, a, b>>{};
  else if constexpr (D.code == error_code::window_larger_than_input) return std::type_identity<errors::window_larger_than_input<op, actual, a, b>>{};
  else if constexpr (D.code == error_code::reshape_element_count) return std::type_identity<errors::reshape_changes_element_count<op, expected, actual>>{};
  else if constexpr (D.code == error_code::invalid_reshape_target) return std::type_identity<errors::invalid_reshape_target<op, expected, actual>>{};
  else if constexpr (D.code == error_code::window_all_padding) return std::type_identity<errors::pool_window_all_padding<op, actual, a, b>>{};
  else if constexpr (D.code == error_code::pads_beyond_rank) return std::type_identity<errors::pads_beyond_rank<op, a, b>>{};
  else if constexpr (D.code == error_code::unsupported_rank) return std::type_identity<errors::unsupported_rank<op, a, b>>{};
  else if constexpr (D.code == error_code::invalid_axis) return std::type_identity<errors::invalid_axis<op, a, b>>{};
  else if constexpr (D.code == error_code::unknown_input_name) return std::type_identity<errors::unknown_input_name<op, a, b>>{};
  else if constexpr (D.code == error_code::too_many_inputs) return std::type_identity<errors::too_many_inputs<op, a, b>>{};
  else if constexpr (D.code == error_code::input_count_mismatch) return std::type_identity<errors::input_count_mismatch<op, a, b>>{};
  else if constexpr (D.code == error_code::unsupported_dtype) return std::type_identity<errors::unsupported_dtype<op, a>>{};
  else if constexpr (D.code == error_code::pass_prerequisite_missing)
    return std::type_identity<errors::pass_prerequisite_missing<errors::pipeline_position<D.value_a>,
                                                                errors::missing_fact<static_cast<fact>(D.value_b)>>>{};
  else if constexpr (is_frontend_error(D.code)) return frontend_error_type<D>();
  else if constexpr (onnx::is_onnx_error(D.code)) return onnx::detail::onnx_error_type<D>();
  else if constexpr (D.code == code_of(memory_error::pool_budget_exceeded))
    return std::type_identity<errors::pool_budget_exceeded<named_t<D, errors::pool_named>, errors::needed_bytes<D.value_a>,
                                                           errors::limit_bytes<D.value_b>,
                                                           errors::over_by_bytes<D.value_a - D.value_b>, op>>{};
  else if constexpr (D.code == code_of(memory_error::pin_ambiguous_tensor_name))
    return std::type_identity<errors::pin_names_shared_tensor_name<errors::pin_position<D.expected.dims[0]>,
                                                                   named_t<D, errors::tensor_named>,
                                                                   errors::tensor_index<D.value_a>, errors::tensor_index<D.value_b>>>{};
  else if constexpr (D.code == code_of(memory_error::pin_unknown_tensor))
    return std::type_identity<errors::pin_names_no_tensor<errors::pin_position<D.value_a>>>{};
  else if constexpr (D.code == code_of(memory_error::pin_unknown_pool))
    return std::type_identity<errors::pin_names_no_pool<errors::pin_position<D.value_a>>>{};
  else return std::type_identity<no_error>{};
}
// Deriving from it instantiates the error class: its static_assert is the compile error.
template <diagnostic D>
struct diagnostic_check : decltype(error_type<D>())::type {};

}  // namespace ctnn::detail
