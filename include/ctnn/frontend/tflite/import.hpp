#pragma once
// TFLite -> ctnn::module: the importer behind ctnn::tflite::model (tflite.hpp), usable on its own at
// compile time and at run time (ctnn-inspect):
//
//   constexpr auto sizes = ctnn::tflite::count(bytes, size);          // exact capacities, one evaluation
//   constexpr auto m = ctnn::tflite::import<sizes.tensors, sizes.nodes>(bytes, size, "kws");
//   ctnn::tflite::import_into(*heap_module, bytes, size, "kws");        // at run time, in place
//   m.error.failed() / m.error.code == ctnn::code_of(ctnn::frontend_error::tflite_hybrid_model) ...
//
// Mapping (subgraph 0):
//  * Tensor i of the file is tensor i of the module (same index, so dumps and tools agree); tensors the
//    importer adds (see below) come after them. Shapes come from `shape` (shape_signature may hold -1 for
//    the batch); types float32, int8, int16, int32, int64 and bool; constants point into the file's bytes (zero-copy:
//    constant_data::bytes is the first byte of the buffer's data); quantization per tensor (scale, zero
//    point) or per channel (channel_count, axis = quantized_dimension, scale_bytes into the file's float
//    vector). Names are the part of the TFLite name before the first ';', truncated to ctnn::name.
//  * Op i of the file is node i of the module unless the importer added nodes before it: a fused
//    activation of AVERAGE_POOL_2D, MAX_POOL_2D or CONCATENATION becomes a relu/relu6 node after the op
//    (their kernels have no fused activation), and a FULLY_CONNECTED whose input's first extent is not
//    TFLite's batch (elements / input features) gets a reshape to [batch, features] before it; SPLIT,
//    SPLIT_V and UNPACK become a slice node per output, PACK a reshape per input and a concat,
//    DEPTH_TO_SPACE and SPACE_TO_DEPTH a reshape, a transpose and a reshape, SPACE_TO_BATCH_ND a reshape, a
//    pad, a reshape, a transpose and a reshape, BATCH_TO_SPACE_ND a reshape, a transpose and a reshape before
//    its slice, BROADCAST_TO a reshape before its tile, UNIDIRECTIONAL_SEQUENCE_LSTM a concat of its gates'
//    constants per kind (input weights, recurrent weights, biases, peepholes; import_recurrent.hpp). Graph
//    outputs that are graph inputs, constants or repeated get a copy node at the end.
//  * Ops: CONV_2D, DEPTHWISE_CONV_2D (weights [1,H,W,C*M], multiplier = out / in channels),
//    FULLY_CONNECTED ([out][in], keep_num_dims only for rank-2 inputs), AVERAGE_POOL_2D, MAX_POOL_2D,
//    ADD, SUB, MUL, RESHAPE (shape input, else new_shape, else the output's shape), SOFTMAX (beta 1),
//    QUANTIZE, DEQUANTIZE, CONCATENATION, PAD (constant int32 paddings), RELU, RELU6, LOGISTIC, TANH,
//    MEAN, SUM, REDUCE_MAX, REDUCE_MIN (constant int32 axes, keep_dims), ARG_MAX, ARG_MIN (int32
//    result), ABS and RSQRT (float32, int8), NEG, SQRT, EXP, LOG, SIN, COS, FLOOR, CEIL, ROUND, SQUARE
//    (float32), SQUEEZE and EXPAND_DIMS (reshapes), TRANSPOSE, STRIDED_SLICE (rank <= 4, masks
//    begin/end/shrink_axis), SLICE, SPLIT, SPLIT_V, PACK, UNPACK, DEPTH_TO_SPACE, SPACE_TO_DEPTH (constant
//    int32 operands), GATHER (batch_dims 0; int32 indices, constant or not), RELU_N1_TO_1, RELU_0_TO_1,
//    LEAKY_RELU (alpha), HARD_SWISH, ELU, PRELU, MAXIMUM, MINIMUM, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL,
//    GREATER, GREATER_EQUAL (BOOL results), LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT, SELECT_V2, CAST, DIV,
//    FLOOR_DIV, FLOOR_MOD, SQUARED_DIFFERENCE, RESIZE_NEAREST_NEIGHBOR and
//    RESIZE_BILINEAR (constant size; align_corners, half_pixel_centers), MIRROR_PAD, SPACE_TO_BATCH_ND,
//    BATCH_TO_SPACE_ND, BROADCAST_TO, ADD_N, L2_NORMALIZATION (import_spatial.hpp). REVERSE_V2, GATHER_ND,
//    CUMSUM, FILL, ZEROS_LIKE, EMBEDDING_LOOKUP, DYNAMIC_UPDATE_SLICE (import_gather_scatter.hpp). GELU
//    (float32, approximate: unary_function gelu or gelu_tanh). SVDF, UNIDIRECTIONAL_SEQUENCE_LSTM (float32)
//    (import_recurrent.hpp: their states are variable tensors). The custom operator TFLite_Detection_PostProcess
//    (import_detection.hpp: its FlexBuffers options; one detection_postprocess node and a slice per output).
//    Resource variables: VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE, and CALL_ONCE whose init subgraph assigns
//    constants (import_variables.hpp: each variable a state tensor, its initial values the constants').
//    Padding SAME/VALID; fused activations NONE, RELU, RELU6.
//  * Bad input is a diagnostic in the module (frontend_error codes, ir/diagnostic.hpp; a few of the
//    IR's own codes where they fit: unsupported_rank, input_count_mismatch, too_many_inputs,
//    invalid_axis); the failed module keeps the file's inputs and outputs. ctnn::compile turns the
//    diagnostic into a compile error, ctnn-inspect into a sentence (describe.hpp).
//  * Values that later passes multiply are bounded here (tensors under 2^31 bytes; strides, dilations,
//    windows and pads up to 65535), so that a corrupted file cannot overflow their arithmetic. So are
//    quantization parameters: int8 scales finite in [2^-60, 2^60] (per channel too), int32 scales finite
//    and >= 0, zero points in the type's range (tflite_invalid_quantization, naming the tensor), and the
//    requantization multipliers each int8 op derives from its scales within what TFLite's
//    QuantizeMultiplier and the kernels accept (tflite_unrepresentable_multiplier, naming the op).
//
// Cost (docs/design.md §6): ~1,800 clang steps per tensor or op (vww_96_int8: 165 K of the default 1,048,576);
// no loop over weight data (per-channel zero points: one byte each, in a call-free loop).
//
// The importer's parts (docs/frontends.md, "How the importers are organised"): import_plan.hpp (the
// operator table: builtin code -> IR kind, options, fused activation; each op's plan; value bounds),
// import_state.hpp (importer_state: the one state, its diagnostics and module edits), import_tensors.hpp
// (tensors, quantization), import_operands.hpp (free helpers taking the state: operands, options,
// requantization; op_import), the op families' import functions import_linear.hpp, import_elementwise.hpp,
// import_shape_ops.hpp and import_spatial.hpp, import_known.hpp (SHAPE, BROADCAST_ARGS: integers computed at
// import), import_detection.hpp (the custom operators of custom_op_table), and import_graph.hpp (the driver: import_by_job, import_op,
// the graph).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_graph.hpp>
#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite {

// The module capacities an import of these bytes needs: the file's tensors and ops, plus the tensors and
// nodes the importer adds. On malformed bytes it counts what it could read before the problem, enough
// for the import to reach the same problem and report it.
constexpr import_counts count(const char* bytes, std::size_t size) {
  model_file f{bytes, size};
  if (f.failed()) return {};
  import_counts c{f.tensor_count(), f.operator_count()};
  for (std::uint32_t i = 0; i < f.operator_count() && !f.failed(); ++i) {
    const detail::op_plan p = detail::plan_op(f, f.op(i));
    const std::size_t extra = (p.activation_node ? 1u : 0u) + (p.flatten_node ? 1u : 0u);
    c.tensors += extra + p.added_tensors;
    c.nodes += extra + p.added_nodes;
  }
  // Outputs that are graph inputs, constants or repeated get a copy.
  const flatbuffers::vector& outputs = f.outputs();
  for (std::uint32_t k = 0; k < outputs.length && k < max_model_io && !f.failed(); ++k) {
    const std::int32_t id = f.index_at(outputs, k);
    if (id < 0 || static_cast<std::uint32_t>(id) >= f.tensor_count()) continue;
    bool copy = detail::has_data(f, f.tensor(static_cast<std::uint32_t>(id)));
    for (std::uint32_t j = 0; j < f.inputs().length && !copy; ++j) copy = f.index_at(f.inputs(), j) == id;
    for (std::uint32_t j = 0; j < k && !copy; ++j) copy = f.index_at(outputs, j) == id;
    c.tensors += copy ? 1u : 0u;
    c.nodes += copy ? 1u : 0u;
  }
  // A CALL_ONCE's init subgraph (import_variables.hpp) makes at most a state tensor per op there.
  for (std::uint32_t g = 1; g < f.subgraph_count() && !f.failed(); ++g) c.tensors += f.subgraph(g).operators.length;
  if (c.tensors == 0) c.tensors = 1;
  if (c.nodes == 0) c.nodes = 1;
  return c;
}

// Imports subgraph 0 of a TFLite file into `m`, a module as constructed (count() gives the capacities it
// needs), in place: at run time a module lives on the heap (it can be megabytes).
template <class Module>
constexpr void import_into(Module& m, const char* bytes, std::size_t size, std::string_view model_name = "tflite") {
  model_file f{bytes, size};
  if (!f.failed() && (f.tensor_count() > Module::tensor_capacity || f.operator_count() > Module::node_capacity)) {
    // Capacities smaller than count() says: a caller error, reported as too many inputs of the model.
    m.fail(diagnostic{error_code::too_many_inputs,
                      -1,
                      op_kind::none,
                      {},
                      {},
                      {.count_expected = static_cast<std::int64_t>(Module::tensor_capacity),
                       .count_actual = static_cast<std::int64_t>(f.tensor_count())}});
    return;
  }
  detail::importer_state<Module> s{f, m};
  detail::import_graph(s, model_name);
}

// The same as a module value of the given capacities (constant evaluation: tflite::model).
template <std::size_t MaxTensors, std::size_t MaxNodes>
constexpr module<MaxTensors, MaxNodes> import(const char* bytes, std::size_t size, std::string_view model_name = "tflite") {
  module<MaxTensors, MaxNodes> m{};
  import_into(m, bytes, size, model_name);
  return m;
}

}  // namespace ctnn::tflite
