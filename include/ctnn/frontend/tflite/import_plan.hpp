#pragma once
// The TFLite importer's plan of each op (import.hpp): the operator table (which IR op a builtin code
// becomes, where its options are), which nodes the import adds around each op, and the bounds it checks
// values against (scales, windows). count() reads these alone.
#include <array>
#include <cstddef>
#include <cstdint>
#include <bit>
#include <initializer_list>
#include <limits>
#include <string_view>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/frontend/detail/operand_tree.hpp>
#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/little_endian.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite {


// The capacities an import needs (tensors and nodes of the module), from a first, cheap scan.
struct import_counts {
  std::size_t tensors = 1;
  std::size_t nodes = 1;
};

namespace detail {

// The import function of a row (import_graph.hpp's import_by_job calls it): how the op's operands and
// options are read.
enum class import_job : std::int32_t {
  linear,   // conv, depthwise, fully connected (import_linear.hpp)
  pool,     // average and max pooling (import_linear.hpp)
  binary,   // two activations, broadcast (import_elementwise.hpp)
  unary,    // one activation, no options (import_elementwise.hpp)
  leaky_relu,  // one activation, its alpha (import_elementwise.hpp, likewise below)
  gelu,        // one float32 activation: unary_function gelu, or gelu_tanh when approximate
  elu,
  softmax,  // (import_elementwise.hpp)
  reshape,  // (import_shape_ops.hpp, likewise below)
  concat,
  pad,
  reduction,          // MEAN, SUM, REDUCE_MAX, REDUCE_MIN, ARG_MAX, ARG_MIN
  reshape_to_output,  // SQUEEZE, EXPAND_DIMS: a reshape to the output's shape
  transpose,
  strided_slice,
  slice,
  split,              // SPLIT, SPLIT_V: one slice node per output
  unpack,             // one slice node per output
  pack,               // a reshape of each input (the new unit axis), then a concat
  block_rearrange,    // DEPTH_TO_SPACE, SPACE_TO_DEPTH: reshape, transpose, reshape
  gather,
  select,             // SELECT_V2: three operands (import_elementwise.hpp, likewise below)
  cast,               // one operand, the output's type
  resize,             // RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR (import_spatial.hpp, likewise below)
  mirror_pad,
  space_batch,        // SPACE_TO_BATCH_ND: pad, reshape, transpose, reshape; BATCH_TO_SPACE_ND: reshapes, transpose, slice
  add_n,
  broadcast_to,       // a reshape (the leading unit dims), then a tile
  l2_normalization,
  svdf,               // five operands, the fifth its state (import_recurrent.hpp)
  sequence_lstm,      // UNIDIRECTIONAL_SEQUENCE_LSTM: its gate constants packed by concats, two states
  transpose_conv,     // (import_linear.hpp, likewise below)
  batch_matmul,       // adj_x, adj_y: a transpose of the operand before the op
  log_softmax,        // (import_elementwise.hpp)
  // the gather/scatter family (import_gather_scatter.hpp)
  reverse,            // a slice stepping back along the reversed axes
  gather_nd,
  cumsum,
  fill,               // a reshape (the scalar to unit extents), then a tile
  zeros_like,
  dynamic_update_slice,
  embedding_lookup,   // a gather of the table's rows (hybrid: a dequantize of the table before it)
  known_integers,     // SHAPE, BROADCAST_ARGS: integers computed at import, no node (import_known.hpp)
  // resource variables (import_variables.hpp)
  var_handle,         // names a variable: no node
  read_variable,      // a copy of the variable's state tensor
  assign_variable,    // no result in the file: the import function adds its node
  call_once,          // its init subgraph evaluated at import: no node
  // custom operators (custom_op_table)
  detection_postprocess,  // one packed node and a slice per output (import_detection.hpp)
};

// Whether a job's op has no result in the file (its import function adds what node it has).
constexpr bool has_no_result(import_job job) { return job == import_job::assign_variable || job == import_job::call_once; }

// Whether a job's import function adds the op's nodes itself, one per output (the driver adds none).
constexpr bool adds_a_node_per_output(import_job job) {
  return job == import_job::split || job == import_job::unpack || job == import_job::detection_postprocess;
}

// Where a row's fused activation is: its field in the options table (-1: none), and whether a node after the
// op applies it (as_node: a RELU/RELU6 after a kind whose kernels take no fused activation, which plan_op
// counts as op_plan::activation_node).
struct fused_activation_at {
  std::int32_t field = -1;
  bool as_node = false;
};
constexpr fused_activation_at fused_at(std::uint32_t field) { return {static_cast<std::int32_t>(field), false}; }
constexpr fused_activation_at fused_node_at(std::uint32_t field) { return {static_cast<std::int32_t>(field), true}; }
inline constexpr fused_activation_at no_fused_activation{};

// The operator table: one row per supported builtin code, with the IR op kind it becomes, its import
// function, the options table it reads and where its fused activation is. count() and import() read it
// through plan_op, so they agree. An operator code without a row is tflite_unsupported_operator.
//
// Adding an operator: a row here (and, when no job fits, a job with its import function in its family's
// header: import_linear.hpp, import_elementwise.hpp, import_shape_ops.hpp). docs/frontends.md ("How the
// importers are organised") has the details.
struct op_row {
  builtin_operator code;
  op_kind kind;
  import_job job;
  schema::builtin_options options;
  fused_activation_at fused;
};

inline constexpr op_row op_table[] = {
    // import_known.hpp: integers computed at import (no node; the kind names the diagnostics)
    {builtin_operator::shape, op_kind::reshape, import_job::known_integers, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::broadcast_args, op_kind::reshape, import_job::known_integers, schema::builtin_options::none,
     no_fused_activation},
    // import_linear.hpp
    {builtin_operator::conv_2d, op_kind::conv2d, import_job::linear, schema::builtin_options::conv_2d,
     fused_at(schema::conv_2d::fused_activation)},
    {builtin_operator::depthwise_conv_2d, op_kind::depthwise_conv2d, import_job::linear, schema::builtin_options::depthwise_conv_2d,
     fused_at(schema::depthwise_conv_2d::fused_activation)},
    {builtin_operator::fully_connected, op_kind::dense, import_job::linear, schema::builtin_options::fully_connected,
     fused_at(schema::fully_connected::fused_activation)},
    {builtin_operator::average_pool_2d, op_kind::avg_pool, import_job::pool, schema::builtin_options::pool_2d,
     fused_node_at(schema::pool_2d::fused_activation)},
    {builtin_operator::max_pool_2d, op_kind::max_pool, import_job::pool, schema::builtin_options::pool_2d,
     fused_node_at(schema::pool_2d::fused_activation)},
    // import_elementwise.hpp
    {builtin_operator::add, op_kind::add, import_job::binary, schema::builtin_options::add, fused_at(schema::add::fused_activation)},
    {builtin_operator::mul, op_kind::mul, import_job::binary, schema::builtin_options::mul, fused_at(schema::mul::fused_activation)},
    {builtin_operator::sub, op_kind::sub, import_job::binary, schema::builtin_options::sub,
     fused_at(schema::sub::fused_activation)},
    {builtin_operator::relu, op_kind::relu, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::relu6, op_kind::relu6, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::logistic, op_kind::sigmoid, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::tanh, op_kind::tanh, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::relu_n1_to_1, op_kind::relu_n1_to_1, import_job::unary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::relu_0_to_1, op_kind::relu_0_to_1, import_job::unary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::hard_swish, op_kind::hard_swish, import_job::unary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::leaky_relu, op_kind::leaky_relu, import_job::leaky_relu, schema::builtin_options::leaky_relu,
     no_fused_activation},
    {builtin_operator::elu, op_kind::elu, import_job::elu, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::gelu, op_kind::unary_function, import_job::gelu, schema::builtin_options::gelu,
     no_fused_activation},
    {builtin_operator::prelu, op_kind::prelu, import_job::binary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::maximum, op_kind::maximum, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::minimum, op_kind::minimum, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::quantize, op_kind::quantize, import_job::unary, schema::builtin_options::quantize, no_fused_activation},
    {builtin_operator::dequantize, op_kind::dequantize, import_job::unary, schema::builtin_options::dequantize, no_fused_activation},
    {builtin_operator::abs, op_kind::abs, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::neg, op_kind::neg, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::sqrt, op_kind::sqrt, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::rsqrt, op_kind::rsqrt, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::exp, op_kind::exp, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::log, op_kind::log, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::sin, op_kind::sin, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::cos, op_kind::cos, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::floor, op_kind::floor, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::ceil, op_kind::ceil, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::round, op_kind::round, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::square, op_kind::square, import_job::unary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::softmax, op_kind::softmax, import_job::softmax, schema::builtin_options::softmax, no_fused_activation},
    // import_shape_ops.hpp
    {builtin_operator::reshape, op_kind::reshape, import_job::reshape, schema::builtin_options::reshape, no_fused_activation},
    {builtin_operator::concatenation, op_kind::concat, import_job::concat, schema::builtin_options::concatenation,
     fused_node_at(schema::concatenation::fused_activation)},
    {builtin_operator::pad, op_kind::pad, import_job::pad, schema::builtin_options::pad, no_fused_activation},
    {builtin_operator::mean, op_kind::mean, import_job::reduction, schema::builtin_options::reducer, no_fused_activation},
    {builtin_operator::sum, op_kind::reduce_sum, import_job::reduction, schema::builtin_options::reducer, no_fused_activation},
    {builtin_operator::reduce_max, op_kind::reduce_max, import_job::reduction, schema::builtin_options::reducer, no_fused_activation},
    {builtin_operator::reduce_min, op_kind::reduce_min, import_job::reduction, schema::builtin_options::reducer, no_fused_activation},
    {builtin_operator::arg_max, op_kind::arg_max, import_job::reduction, schema::builtin_options::arg_max, no_fused_activation},
    {builtin_operator::arg_min, op_kind::arg_min, import_job::reduction, schema::builtin_options::arg_min, no_fused_activation},
    {builtin_operator::squeeze, op_kind::reshape, import_job::reshape_to_output, schema::builtin_options::squeeze,
     no_fused_activation},
    {builtin_operator::expand_dims, op_kind::reshape, import_job::reshape_to_output, schema::builtin_options::expand_dims,
     no_fused_activation},
    {builtin_operator::transpose, op_kind::transpose, import_job::transpose, schema::builtin_options::transpose,
     no_fused_activation},
    {builtin_operator::strided_slice, op_kind::slice, import_job::strided_slice, schema::builtin_options::strided_slice,
     no_fused_activation},
    {builtin_operator::slice, op_kind::slice, import_job::slice, schema::builtin_options::slice, no_fused_activation},
    {builtin_operator::split, op_kind::slice, import_job::split, schema::builtin_options::split, no_fused_activation},
    {builtin_operator::split_v, op_kind::slice, import_job::split, schema::builtin_options::split_v, no_fused_activation},
    {builtin_operator::unpack, op_kind::slice, import_job::unpack, schema::builtin_options::unpack, no_fused_activation},
    {builtin_operator::pack, op_kind::concat, import_job::pack, schema::builtin_options::pack, no_fused_activation},
    {builtin_operator::gather, op_kind::gather, import_job::gather, schema::builtin_options::gather, no_fused_activation},
    {builtin_operator::depth_to_space, op_kind::reshape, import_job::block_rearrange, schema::builtin_options::depth_to_space,
     no_fused_activation},
    {builtin_operator::space_to_depth, op_kind::reshape, import_job::block_rearrange, schema::builtin_options::space_to_depth,
     no_fused_activation},
    // the logic family (import_elementwise.hpp)
    {builtin_operator::equal, op_kind::equal, import_job::binary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::not_equal, op_kind::not_equal, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::less, op_kind::less, import_job::binary, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::less_equal, op_kind::less_equal, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::greater, op_kind::greater, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::greater_equal, op_kind::greater_equal, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::logical_and, op_kind::logical_and, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::logical_or, op_kind::logical_or, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::logical_not, op_kind::logical_not, import_job::unary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::select_v2, op_kind::select, import_job::select, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::cast, op_kind::cast, import_job::cast, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::div, op_kind::div, import_job::binary, schema::builtin_options::div,
     fused_at(schema::div::fused_activation)},
    {builtin_operator::floor_div, op_kind::floor_div, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::floor_mod, op_kind::floor_mod, import_job::binary, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::squared_difference, op_kind::squared_difference, import_job::binary,
     schema::builtin_options::none,
     no_fused_activation},
    // import_spatial.hpp
    {builtin_operator::resize_nearest_neighbor, op_kind::resize_nearest, import_job::resize,
     schema::builtin_options::resize_nearest_neighbor, no_fused_activation},
    {builtin_operator::resize_bilinear, op_kind::resize_linear, import_job::resize, schema::builtin_options::resize_bilinear,
     no_fused_activation},
    {builtin_operator::mirror_pad, op_kind::pad, import_job::mirror_pad, schema::builtin_options::mirror_pad, no_fused_activation},
    {builtin_operator::space_to_batch_nd, op_kind::reshape, import_job::space_batch, schema::builtin_options::space_to_batch_nd,
     no_fused_activation},
    {builtin_operator::batch_to_space_nd, op_kind::slice, import_job::space_batch, schema::builtin_options::batch_to_space_nd,
     no_fused_activation},
    {builtin_operator::add_n, op_kind::add_n, import_job::add_n, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::broadcast_to, op_kind::tile, import_job::broadcast_to, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::l2_normalization, op_kind::l2_normalization, import_job::l2_normalization,
     schema::builtin_options::l2_norm, no_fused_activation},
    // import_recurrent.hpp
    {builtin_operator::svdf, op_kind::svdf, import_job::svdf, schema::builtin_options::svdf,
     fused_at(schema::svdf::fused_activation)},
    // (its fused activation is its cell gate's: the import function reads it)
    {builtin_operator::unidirectional_sequence_lstm, op_kind::sequence_lstm, import_job::sequence_lstm,
     schema::builtin_options::unidirectional_sequence_lstm, no_fused_activation},
    // the transpose_conv family (import_linear.hpp)
    {builtin_operator::transpose_conv, op_kind::transpose_conv2d, import_job::transpose_conv, schema::builtin_options::transpose_conv,
     fused_at(schema::transpose_conv::fused_activation)},
    {builtin_operator::batch_matmul, op_kind::batch_matmul, import_job::batch_matmul, schema::builtin_options::batch_matmul,
     no_fused_activation},
    {builtin_operator::padv2, op_kind::pad, import_job::pad, schema::builtin_options::padv2, no_fused_activation},
    {builtin_operator::l2_pool_2d, op_kind::l2_pool, import_job::pool, schema::builtin_options::pool_2d,
     fused_node_at(schema::pool_2d::fused_activation)},
    {builtin_operator::log_softmax, op_kind::log_softmax, import_job::log_softmax, schema::builtin_options::none,
     no_fused_activation},
    // import_gather_scatter.hpp
    {builtin_operator::reverse_v2, op_kind::slice, import_job::reverse, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::gather_nd, op_kind::gather_nd, import_job::gather_nd, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::cumsum, op_kind::cumsum, import_job::cumsum, schema::builtin_options::cumsum, no_fused_activation},
    {builtin_operator::fill, op_kind::tile, import_job::fill, schema::builtin_options::none, no_fused_activation},
    {builtin_operator::zeros_like, op_kind::zeros_like, import_job::zeros_like, schema::builtin_options::none,
     no_fused_activation},
    {builtin_operator::dynamic_update_slice, op_kind::update_slice, import_job::dynamic_update_slice,
     schema::builtin_options::none, no_fused_activation},
    {builtin_operator::embedding_lookup, op_kind::gather, import_job::embedding_lookup, schema::builtin_options::none,
     no_fused_activation},
    // import_variables.hpp: resource variables (state)
    {builtin_operator::var_handle, op_kind::assign_variable, import_job::var_handle, schema::builtin_options::var_handle,
     no_fused_activation},
    {builtin_operator::read_variable, op_kind::reshape, import_job::read_variable, schema::builtin_options::read_variable,
     no_fused_activation},
    {builtin_operator::assign_variable, op_kind::assign_variable, import_job::assign_variable,
     schema::builtin_options::assign_variable, no_fused_activation},
    {builtin_operator::call_once, op_kind::assign_variable, import_job::call_once, schema::builtin_options::call_once,
     no_fused_activation},
};

// The custom operators (builtin code CUSTOM), by their operator code's custom_code: the same rows with the
// custom code for the builtin one (their options are the op's custom_options bytes, read by the import
// function). A CUSTOM operator whose custom code has no row is tflite_unsupported_operator.
struct custom_op_row {
  std::string_view custom_code;
  op_kind kind;
  import_job job;
};

inline constexpr custom_op_row custom_op_table[] = {
    // import_detection.hpp: SSD post-processing (custom options: a FlexBuffers map)
    {"TFLite_Detection_PostProcess", op_kind::detection_postprocess, import_job::detection_postprocess},
};

constexpr std::int32_t find_custom_op(std::string_view custom_code) {
  constexpr auto rows = static_cast<std::int32_t>(sizeof custom_op_table / sizeof custom_op_table[0]);
  for (std::int32_t k = 0; k < rows; ++k)
    if (custom_op_table[k].custom_code == custom_code) return k;
  return -1;
}

// The index of a builtin code's row in op_table, or -1 (an index: g++ does not compare a pointer into the
// table with nullptr in constant evaluation under -fsanitize=address).
constexpr std::int32_t find_op(builtin_operator code) {
  constexpr auto rows = static_cast<std::int32_t>(sizeof op_table / sizeof op_table[0]);
  for (std::int32_t k = 0; k < rows; ++k)
    if (op_table[k].code == code) return k;
  return -1;
}

// What the importer does with one op, shared by count() and import() so that they agree.
struct op_plan {
  builtin_operator code = builtin_operator::add;
  op_kind kind = op_kind::none;
  import_job job = import_job::unary;
  bool supported = false;
  flatbuffers::table options{};
  activation_function fused = activation_function::none;
  bool activation_node = false;  // a relu/relu6 node after the op (pools, concat)
  bool flatten_node = false;     // a reshape to [batch, features] before a FULLY_CONNECTED
  std::int32_t flatten_batch = 0;
  std::int32_t flatten_features = 0;
  // Nodes and tensors the op's import function adds beyond its one node (a split's node per further output,
  // a pack's reshapes, the reshape and transpose of DEPTH_TO_SPACE), which count() adds to the capacities.
  std::uint32_t added_nodes = 0;
  std::uint32_t added_tensors = 0;
};

// The element count of a shape whose extents are all positive, or -1 when one is not or the tensor would
// reach 2^31 bytes (checked before anything multiplies extents: a corrupted shape must not overflow).
constexpr std::int64_t checked_elements(const shape& s) {
  constexpr std::int64_t limit = std::int64_t{1} << 31;
  std::int64_t n = 1;
  for (std::int32_t d = 0; d < s.rank; ++d) {
    const std::int64_t extent = s.dims[static_cast<std::size_t>(d)];
    if (extent <= 0 || extent >= limit) return -1;
    n *= extent;
    if (n * 8 >= limit) return -1;
  }
  return n;
}

// The shape vector of tensor t (rank and extents as stored; unknown extents are kept as they are).
constexpr shape stored_shape(model_file& f, const tensor_view& t) {
  shape s{};
  const std::uint32_t rank = t.shape.length < max_rank ? t.shape.length : static_cast<std::uint32_t>(max_rank);
  s.rank = static_cast<std::int32_t>(rank);
  for (std::uint32_t d = 0; d < rank; ++d) s.dims[d] = f.reader().element<std::int32_t>(t.shape, d);
  return s;
}

constexpr op_plan plan_op(model_file& f, const operator_view& o) {
  op_plan p{};
  p.code = o.code;
  if (o.code == builtin_operator::custom) {
    const std::int32_t c = find_custom_op(f.reader().view(o.custom_code));
    p.supported = c >= 0;
    if (!p.supported) return p;
    p.kind = custom_op_table[c].kind;
    p.job = custom_op_table[c].job;
    // detection_postprocess: its packed node and tensor, then a slice per output (the driver adds none)
    if (p.job == import_job::detection_postprocess) {
      p.added_nodes = o.outputs.length;
      p.added_tensors = 1;
    }
    return p;
  }
  const std::int32_t k = find_op(o.code);
  p.supported = k >= 0;
  if (!p.supported) return p;
  const op_row& row = op_table[k];
  p.kind = row.kind;
  p.job = row.job;
  if (f.failed()) return p;
  p.options = f.options(o, row.options);
  if (row.fused.field >= 0)
    p.fused = f.reader().scalar<activation_function>(p.options, static_cast<std::uint32_t>(row.fused.field),
                                                     activation_function::none);
  p.activation_node = row.fused.as_node &&
                      (p.fused == activation_function::relu || p.fused == activation_function::relu6);
  if (adds_a_node_per_output(p.job) && o.outputs.length > 1) p.added_nodes = o.outputs.length - 1;
  if (p.job == import_job::pack) p.added_nodes = p.added_tensors = o.inputs.length;
  if (p.job == import_job::concat || p.job == import_job::add_n)  // more operands than a node holds: a tree of nodes
    p.added_nodes = p.added_tensors = frontend_detail::added_joins(o.inputs.length);
  if (p.job == import_job::block_rearrange) p.added_nodes = p.added_tensors = 2;
  if (p.job == import_job::broadcast_to) p.added_nodes = p.added_tensors = 1;
  if (p.job == import_job::batch_matmul) p.added_nodes = p.added_tensors = 2;  // at most
  if (p.job == import_job::broadcast_to || p.job == import_job::fill || p.job == import_job::embedding_lookup)
    p.added_nodes = p.added_tensors = 1;  // embedding_lookup: the hybrid form's dequantize
  if (p.job == import_job::sequence_lstm) p.added_nodes = p.added_tensors = 4;  // the packed weights, biases, peepholes
  if (p.job == import_job::read_variable) p.added_tensors = 1;    // the variable's state, at its first use
  if (p.job == import_job::assign_variable) p.added_tensors = 2;  // likewise, and the node's one-element result
  if (p.job == import_job::space_batch) p.added_nodes = p.added_tensors = o.code == builtin_operator::space_to_batch_nd ? 4 : 3;
  if (p.kind == op_kind::dense && o.inputs.length >= 2) {
    const std::int32_t in = f.index_at(o.inputs, 0), w = f.index_at(o.inputs, 1);
    if (in >= 0 && w >= 0 && static_cast<std::uint32_t>(in) < f.tensor_count() &&
        static_cast<std::uint32_t>(w) < f.tensor_count()) {
      const shape input = stored_shape(f, f.tensor(static_cast<std::uint32_t>(in)));
      const shape weights = stored_shape(f, f.tensor(static_cast<std::uint32_t>(w)));
      const std::int64_t elements = checked_elements(input);
      const std::int32_t features = weights.rank == 2 ? weights[1] : 0;
      if (features > 0 && input.rank > 0 && elements > 0 && elements % features == 0 &&
          input[0] != elements / features) {
        p.flatten_node = true;
        p.flatten_batch = static_cast<std::int32_t>(elements / features);
        p.flatten_features = features;
      }
    }
  }
  return p;
}

// Whether tensor t has constant data in the file.
constexpr bool has_data(model_file& f, const tensor_view& t) { return f.buffer_data(t.buffer).length > 0; }

// The largest stride, dilation, window extent and pad the importer accepts.
inline constexpr std::int32_t max_window_value = 65535;

// The int8 scales the importer accepts, as float bits: [2^-60, 2^60]. Between positive floats the bit
// patterns order as the values, and NaN, infinities, zero and negative scales fall outside. The bounds
// keep every float product or quotient of two scales that the kernels form (input x weight scale,
// 1 / output scale) finite and normal; converters write scales far inside them. int32 tensors (biases,
// which no kernel requantizes) need a finite scale >= 0: below int32_scale_end.
inline constexpr std::uint32_t min_scale_bits = 0x21800000u;  // 2^-60
inline constexpr std::uint32_t max_scale_bits = 0x5d800000u;  // 2^60
inline constexpr std::uint32_t int32_scale_end = 0x7f800000u;  // +infinity

// Whether every float32 of `count` little-endian floats at `bytes` lies in [low, high] as bits (one
// statement and one decoder call per element: clang counts every step); `largest` gets the largest bit pattern.
constexpr bool scale_bits_within(const char* bytes, std::uint32_t count, std::uint32_t low, std::uint32_t high,
                                 std::uint32_t& largest) {
  bool inside = true;
  largest = 0;
  for (std::uint32_t k = 0; k < 4 * count; k += 4) {
    const std::uint32_t bits = load_le<std::uint32_t>(bytes, k);
    inside = inside && bits >= low && bits <= high;
    largest = bits > largest ? bits : largest;
  }
  return inside;
}

// The largest scale of a quantization (per channel: over the channels, which the importer checked).
constexpr double largest_scale(const quantization& q) {
  if (!q.per_channel()) return static_cast<double>(q.scale);
  std::uint32_t largest = 0;
  if (q.scale_bytes != nullptr) {
    scale_bits_within(q.scale_bytes, static_cast<std::uint32_t>(q.channel_count), 0, 0xffffffffu, largest);
    return static_cast<double>(std::bit_cast<float>(largest));
  }
  float most = 0.0f;
  for (std::int32_t c = 0; c < q.channel_count; ++c) most = q.scale_of(c) > most ? q.scale_of(c) : most;
  return static_cast<double>(most);
}

}  // namespace detail

}  // namespace ctnn::tflite
