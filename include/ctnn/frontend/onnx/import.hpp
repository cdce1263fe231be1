#pragma once
// ONNX -> ctnn::module: the importer behind ctnn::onnx::model (onnx.hpp), usable on its own at compile
// time and at run time (ctnn-inspect):
//
//   constexpr auto b = ctnn::onnx::bounds(bytes, size);                    // capacities that always suffice
//   constexpr auto c = ctnn::onnx::count<b.tensors, b.nodes, b.values, b.relayouts>(bytes, size);   // exact
//   constexpr auto r = ctnn::onnx::import<c.tensors, c.nodes, c.values, c.relayouts>(bytes, size, "kws");
//   r.ir.error.failed() ...; r.relayouts[k]: constants to re-lay out (onnx.hpp materialises them)
//   ctnn::onnx::import_into<b.values>(*heap_result, bytes, size, "kws");  // at run time, in place
//   ... import(bytes, size, "kws", {.dims = "batch=1 seq=16"})  // symbolic input dims bound (dim_bindings.hpp)
//
// Mapping:
//  * Layout. Activations of rank 4 are NCHW in ONNX and NHWC inside ctnn (docs/design.md §2): every ONNX value
//    has an IR tensor in its ONNX layout, in NHWC, or both, made on demand by a transpose op (a view,
//    no copy, when it moves only extent-1 dims: C = 1 or H*W = 1; alias_reshapes). Model inputs and
//    outputs keep the ONNX shapes: the executor takes and returns NCHW buffers, like onnxruntime.
//  * Constants. Initializers and Constant nodes become IR constants only where an op reads them, in the
//    layout it reads: zero-copy (constant_data::bytes into the embedded file) when the stored order is the
//    order ctnn reads and the data is 4-aligned; otherwise a `relayout` record (a gather with strides and
//    a scale) that onnx::model materialises into an inline constexpr array at compile time, one constant
//    evaluation per tensor. Conv weights OIHW -> OHWI (depthwise [C*M,1,kh,kw] -> [1,kh,kw,C*M]; free for
//    1x1 kernels), Gemm/MatMul weights to [out][in] (free for Gemm transB = 1), alpha/beta folded in,
//    broadcast biases, unaligned raw_data. INT64 shapes and pads are read at import (folded).
//  * Ops (default domain): Constant, Conv (groups, depthwise, auto_pad, dilations), Gemm (transA = 0),
//    MatMul (a constant B of rank <= 2: dense; otherwise batch_matmul), MaxPool, AveragePool
//    (count_include_pad as a zero pad; ceil_mode as end padding), GlobalAveragePool, Relu, Clip (0..6 =
//    relu6, 0..inf = relu; min > max: max everywhere), Sigmoid, Tanh, Abs, Neg, Sqrt, Reciprocal, Exp, Log,
//    Sin, Cos, Floor, Ceil, Round (halves to even; float32), Add,
//    Mul (numpy broadcasting; a constant operand is re-laid out to NHWC), Softmax (the last axis, or the
//    channels of an NHWC tensor; before opset 13, the coerced 2-D form through reshapes), Reshape,
//    Flatten, Concat, Pad (modes constant, reflect, edge, wrap; non-negative pads), BatchNormalization
//    (inference, rank 2, 3 or 4), Transpose, ReduceSum/Mean/Max/Min/Prod/SumSquare/L1/L2, ArgMax/ArgMin
//    (import_reduce.hpp), Equal/Less/LessOrEqual/Greater/GreaterOrEqual, And/Or/Xor/Not, Where, Cast
//    (import_logic.hpp), Div, Squeeze and Unsqueeze (axes an input from opset 13, an
//    attribute before), Identity (reshapes), Slice (constant starts/ends/axes/steps, clamped as ONNX says),
//    Split (a slice node per output: split input or attribute, num_outputs, equal parts), DepthToSpace
//    (DCR, CRD) and SpaceToDepth (a reshape, a transpose and a reshape), Gather (computed int32/int64 indices;
//    constant INT64 indices, up to 8 of them, become slices and a concat); these read their input in its ONNX
//    layout. LeakyRelu, Elu, HardSigmoid, HardSwish, PRelu (float32), Max and Min (one or more operands,
//    folded left; float32 or plain integers, as Add), Sum (likewise, of adds); Resize and Upsample (nearest,
//    linear, cubic; every coordinate_transformation_mode; constant roi, scales or sizes; in the operand's
//    layout), Expand and Tile (constant shape or repeats), LpNormalization (p 2) (import_spatial.hpp).
//    GatherND, ScatterND, CumSum, ReverseSequence, ConstantOfShape (a FLOAT value, folded; an integer one
//    known) (import_gather_scatter.hpp).
//  * Integers computed at import (import_known.hpp): Shape, Size, Range, and the integer ops over their results
//    (Gather, Concat, Cast, arithmetic, Mod, comparisons, Where, ReduceProd; Squeeze, Unsqueeze, Slice, Reshape,
//    Transpose)
//    evaluated into the importer's store; a constant tensor (relayout_kind::known_integers) only where an op
//    reads one as a tensor or it is a graph output.
//  * Float32: Erf, Gelu, Softplus, Softsign, Selu, Celu, ThresholdedRelu, Sign,
//    Tan, Sinh, Cosh, Asin, Acos, Atan, Asinh, Acosh, Atanh, Shrink (unary_function), Pow, Mod with fmod 1
//    (binary_function), Mean, LayerNormalization (Mean and InvStdDev outputs too), InstanceNormalization,
//    MeanVarianceNormalization (layer_norm), LogSoftmax, GlobalMaxPool, Dropout (the identity) (import_math.hpp).
//  * Issue #28's exporters' ops: GatherElements (gather_elements), ScatterElements (scatter_elements)
//    (import_gather_scatter.hpp), TopK (top_k, a node
//    per output in use; float32/int32/int64) and Hardmax (hardmax) (import_selection.hpp), Mish
//    (unary_function), LpPool (lp_pool; import_linear.hpp's pool import), LRN (lrn) and GroupNormalization (one
//    layer_norm over a grouped view) (import_math.hpp), Einsum of matmul-shaped equations (transposes, reduce_sum
//    and one batch_matmul; import_einsum.hpp); ReduceMax/ReduceMin of bools (casts around the float32 one);
//    opset-6 PRelu's per-channel slope (read as [C, 1, ...]).
//  * Variadic ops of more operands than a node holds (Concat, Sum, Max, Min, Mean): nodes of at most
//    max_node_inputs operands in a tree (import_wide, frontend/detail/operand_tree.hpp). A node's outputs after
//    its first that nothing reads (Dropout's mask) may be named.
//  * 1-D ops: Conv, MaxPool, AveragePool, BatchNormalization and GlobalAveragePool over [N, C, L] are the
//    2-D ops on [N, 1, L, C] (H = 1; the attributes of the one spatial dim are W's); between 1-D ops a
//    value stays [N, 1, L, C] (value::one_d), its ONNX [N, C, L] made on demand.
//  * Element types: float32, and uint8/int8/int32/int64 activations. Unquantized integers follow ONNX's
//    semantics: Add/Mul wrap around (integer_binary), MaxPool (8-bit), Pad, Transpose and Reshape keep
//    the type; lower_te gives these calls the ONNX integer kernels (kernel/onnx_integer.hpp).
//  * Shapes: each IR node's output shape is inferred as the node is added (pass::infer_types' own rules),
//    so the importer knows every value's shape (for layouts, Flatten, Gemm) without value_info.
//  * Bad input is a diagnostic in the module: onnx_error codes (onnx/errors.hpp; node = the NodeProto's
//    index, operator_code = its op_type) and the IR's own codes where they fit. The failed module keeps the
//    model's inputs and outputs where they were read, so code that calls run() adds no error of its own.
//
// The importer's parts (docs/frontends.md, "How the importers are organised"): import_values.hpp
// (capacities, relayouts, values), import_state.hpp (importer_state: the one state, its diagnostics, value
// lookups and module edits), import_layouts.hpp (free helpers taking the state: layouts, attributes,
// operands), the op families' import functions import_linear.hpp, import_elementwise.hpp,
// import_shape_ops.hpp, import_reduce.hpp, import_logic.hpp (comparisons, logical ops, Where, Cast),
// import_spatial.hpp (Resize, Upsample, Expand, Tile, LpNormalization, Sum), import_known.hpp (Shape, Size,
// Range: integers computed at import), import_gather_scatter.hpp, import_math.hpp, import_recurrent.hpp,
// import_selection.hpp (TopK, Hardmax), import_einsum.hpp and quantized.hpp,
// import_table.hpp (op_type -> IR kind and import function), import_qdq.hpp (QDQ groups lowered to the
// quantized ops before a node's row) and import_graph.hpp (the driver).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/dim_bindings.hpp>
#include <ctnn/frontend/onnx/import_graph.hpp>
#include <ctnn/frontend/onnx/import_values.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::onnx {

namespace detail {

// The graph's record counts (for bounds).
struct graph_counts {
  std::size_t nodes = 0, initializers = 0, inputs = 0, outputs = 0, node_inputs = 0, node_outputs = 0;
  std::size_t joins = 0;  // the hidden values of variadic nodes of more operands than a node holds (import_wide)
};

constexpr graph_counts count_graph(model_file& f) {
  graph_counts c{};
  const protobuf::span graph = f.graph();
  protobuf::field fd{};
  for (std::uint32_t at = graph.at; f.reader().next(graph, at, fd);) {
    if (fd.number == schema::graph::node) {
      ++c.nodes;
      const std::uint32_t inputs = f.reader().count(fd.bytes, schema::node::input);
      c.node_inputs += inputs;
      c.joins += frontend_detail::added_joins(inputs);
      c.node_outputs += f.reader().count(fd.bytes, schema::node::output);
    } else if (fd.number == schema::graph::initializer) {
      ++c.initializers;
    } else if (fd.number == schema::graph::input) {
      ++c.inputs;
    } else if (fd.number == schema::graph::output) {
      ++c.outputs;
    }
  }
  return c;
}

}  // namespace detail

// Capacities that always suffice for an import of these bytes (an upper bound from the graph's record
// counts: every value may get a layout conversion, every operand a re-laid-out constant and a node of a
// folded variadic op: Max, Min). count() makes them exact.
constexpr import_counts bounds(const char* bytes, std::size_t size) {
  model_file f{bytes, size};
  const detail::graph_counts c = detail::count_graph(f);
  if (f.failed()) return {};
  const std::size_t values = c.initializers + c.inputs + c.node_outputs + c.joins;
  import_counts b{};
  b.values = values + c.nodes + 1;  // a hidden value per node: QDQ's integer results (import_qdq.hpp)
  b.relayouts = c.node_inputs + values + 1;
  b.tensors = 5 * values + c.node_inputs + 3 * c.nodes + c.outputs + 1;
  b.nodes = 4 * values + 3 * c.nodes + c.node_inputs + c.outputs + 1;
  return b;
}

// Imports the graph of an ONNX file into `r`, an import_result as constructed, whose capacities hold
// bounds() or count(); MaxValues: the ONNX values it may hold. In place: at run time the result lives on
// the heap (it can be megabytes).
template <std::size_t MaxValues, std::size_t MaxTensors, std::size_t MaxNodes, std::size_t MaxRelayouts>
constexpr void import_into(import_result<MaxTensors, MaxNodes, MaxRelayouts>& r, const char* bytes, std::size_t size,
                           std::string_view model_name = "onnx", const import_options& options = {}) {
  model_file f{bytes, size};
  std::array<detail::value, MaxValues> values{};
  detail::importer_state<module<MaxTensors, MaxNodes>, MaxValues, MaxRelayouts> s{f, r.ir, values, r.relayouts};
  s.dim_bindings = options.dims;
  detail::import_graph(s, model_name);
  r.relayout_count = s.relayout_count;
  r.value_count = s.value_count;
  r.known = s.known_data;
  r.batch_bound_to_one = s.batch_bound_to_one;
  r.batch_names = s.batch_names;
}

// The same as a value (constant evaluation: onnx::model).
template <std::size_t MaxTensors, std::size_t MaxNodes, std::size_t MaxValues, std::size_t MaxRelayouts>
constexpr import_result<MaxTensors, MaxNodes, MaxRelayouts> import(const char* bytes, std::size_t size,
                                                                    std::string_view model_name = "onnx",
                                                                    const import_options& options = {}) {
  import_result<MaxTensors, MaxNodes, MaxRelayouts> r{};
  import_into<MaxValues>(r, bytes, size, model_name, options);
  return r;
}

// The exact capacities: an import with the bounds, counted.
template <std::size_t MaxTensors, std::size_t MaxNodes, std::size_t MaxValues, std::size_t MaxRelayouts>
constexpr import_counts count(const char* bytes, std::size_t size, const import_options& options = {}) {
  module_graph<MaxTensors, MaxNodes> m{};  // the graph alone: a whole module's tables would cost steps
  std::array<relayout, MaxRelayouts> relayouts{};
  std::array<detail::value, MaxValues> values{};
  model_file f{bytes, size};
  detail::importer_state<module_graph<MaxTensors, MaxNodes>, MaxValues, MaxRelayouts> s{f, m, values, relayouts};
  s.dim_bindings = options.dims;
  detail::import_graph(s, "onnx");
  import_counts c{};
  c.tensors = m.tensor_count > 0 ? static_cast<std::size_t>(m.tensor_count) : 1;
  c.nodes = s.node_peak > m.node_count ? static_cast<std::size_t>(s.node_peak)  // QDQ: before erase_unread_nodes
            : m.node_count > 0           ? static_cast<std::size_t>(m.node_count)
                                         : 1;
  c.values = s.value_count > 0 ? static_cast<std::size_t>(s.value_count) : 1;
  c.relayouts = s.relayout_count > 0 ? static_cast<std::size_t>(s.relayout_count) : 1;
  return c;
}

}  // namespace ctnn::onnx
