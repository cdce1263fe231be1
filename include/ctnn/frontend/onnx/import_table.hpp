#pragma once
// The ONNX importer's operator table (import.hpp): one row per supported op_type, with the IR op kind the
// node's diagnostics name (at_op<node, kind>) and the function that imports the node. The driver
// (import_graph.hpp) finds a NodeProto's row and calls its function; an op_type without a row is
// onnx_unsupported_operator (Constant nodes are the driver's own: they define a value and add no node).
//
// Adding an operator: its import function in its family's header (import_linear.hpp, import_elementwise.hpp,
// import_shape_ops.hpp, quantized.hpp, or a new import_<family>.hpp included below), of the signature
// import_fn, and one row here. docs/frontends.md ("How the importers are organised") has the details.
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/onnx/import_einsum.hpp>
#include <ctnn/frontend/onnx/import_elementwise.hpp>
#include <ctnn/frontend/onnx/import_gather_scatter.hpp>
#include <ctnn/frontend/onnx/import_known.hpp>
#include <ctnn/frontend/onnx/import_linear.hpp>
#include <ctnn/frontend/onnx/import_logic.hpp>
#include <ctnn/frontend/onnx/import_math.hpp>
#include <ctnn/frontend/onnx/import_recurrent.hpp>
#include <ctnn/frontend/onnx/import_reduce.hpp>
#include <ctnn/frontend/onnx/import_selection.hpp>
#include <ctnn/frontend/onnx/import_shape_ops.hpp>
#include <ctnn/frontend/onnx/import_spatial.hpp>
#include <ctnn/frontend/onnx/quantized.hpp>

namespace ctnn::onnx::detail {

// An op's import: reads node `n` (its operands `o`, already looked up) and defines value `result` (its one
// output, already entered in the value table), or records a diagnostic in the state `s`. s.current is
// n's op_type and s.current_kind its row's kind, the kind of the node it adds, so that a kind is named by its
// row (issue #24): a function names a kind only where it chooses one (Conv: conv2d or depthwise_conv2d;
// MatMul: dense or batch_matmul), and the kinds several functions add have a builder in import_state.hpp
// (reshape, transpose, pad).
template <class S>
using import_fn = void (*)(S& s, const node_view& n, const operands& o, std::int32_t result);

template <class S>
struct op_row {
  op_type type;
  op_kind kind;
  import_fn<S> import;
  // Whether the node may have several outputs (Split): the driver enters each as a value, in order, so that
  // output k is value `result + k`.
  bool several_outputs = false;
};

template <class S>
inline constexpr op_row<S> op_table[] = {
    // import_linear.hpp
    {op_type::Conv, op_kind::conv2d, &import_conv<S>},
    {op_type::Gemm, op_kind::dense, &import_gemm<S>},
    {op_type::MatMul, op_kind::batch_matmul, &import_matmul<S>},
    {op_type::MaxPool, op_kind::max_pool, &import_pool<S>},
    {op_type::AveragePool, op_kind::avg_pool, &import_pool<S>},
    // import_elementwise.hpp
    {op_type::GlobalAveragePool, op_kind::global_avg_pool, &import_unary<S>},
    {op_type::Relu, op_kind::relu, &import_unary<S>},
    {op_type::Sigmoid, op_kind::sigmoid, &import_unary<S>},
    {op_type::Tanh, op_kind::tanh, &import_unary<S>},
    {op_type::Clip, op_kind::clip, &import_clip<S>},
    {op_type::Add, op_kind::add, &import_arithmetic<S>},
    {op_type::Mul, op_kind::mul, &import_arithmetic<S>},
    {op_type::Sub, op_kind::sub, &import_arithmetic<S>},
    {op_type::Softmax, op_kind::softmax, &import_softmax<S>},
    {op_type::Abs, op_kind::abs, &import_unary_math<S>},
    {op_type::Neg, op_kind::neg, &import_unary_math<S>},
    {op_type::Sqrt, op_kind::sqrt, &import_unary_math<S>},
    {op_type::Reciprocal, op_kind::reciprocal, &import_unary_math<S>},
    {op_type::Exp, op_kind::exp, &import_unary_math<S>},
    {op_type::Log, op_kind::log, &import_unary_math<S>},
    {op_type::Sin, op_kind::sin, &import_unary_math<S>},
    {op_type::Cos, op_kind::cos, &import_unary_math<S>},
    {op_type::Floor, op_kind::floor, &import_unary_math<S>},
    {op_type::Ceil, op_kind::ceil, &import_unary_math<S>},
    {op_type::Round, op_kind::round, &import_unary_math<S>},
    {op_type::LeakyRelu, op_kind::leaky_relu, &import_leaky_relu<S>},
    {op_type::Elu, op_kind::elu, &import_elu<S>},
    {op_type::HardSigmoid, op_kind::hard_sigmoid, &import_hard_sigmoid<S>},
    {op_type::HardSwish, op_kind::hard_swish, &import_hard_swish<S>},
    {op_type::PRelu, op_kind::prelu, &import_prelu<S>},
    {op_type::Max, op_kind::maximum, &import_extremum<S>},
    {op_type::Min, op_kind::minimum, &import_extremum<S>},
    // import_shape_ops.hpp
    {op_type::Reshape, op_kind::reshape, &import_reshape<S>},
    {op_type::Flatten, op_kind::reshape, &import_flatten<S>},
    {op_type::Concat, op_kind::concat, &import_concat<S>},
    {op_type::Pad, op_kind::pad, &import_pad<S>},
    {op_type::Transpose, op_kind::transpose, &import_transpose<S>},
    {op_type::BatchNormalization, op_kind::batch_norm, &import_batch_norm<S>},
    {op_type::Squeeze, op_kind::reshape, &import_squeeze<S>},
    {op_type::Unsqueeze, op_kind::reshape, &import_squeeze<S>},
    {op_type::Identity, op_kind::reshape, &import_identity<S>},
    {op_type::Slice, op_kind::slice, &import_slice<S>},
    {op_type::Split, op_kind::slice, &import_split<S>, true},
    {op_type::Gather, op_kind::gather, &import_gather<S>},
    {op_type::DepthToSpace, op_kind::reshape, &import_block_rearrange<S>},
    {op_type::SpaceToDepth, op_kind::reshape, &import_block_rearrange<S>},
    // import_reduce.hpp
    {op_type::ReduceSum, op_kind::reduce_sum, &import_reduce<S>},
    {op_type::ReduceMean, op_kind::mean, &import_reduce<S>},
    {op_type::ReduceMax, op_kind::reduce_max, &import_reduce<S>},
    {op_type::ReduceMin, op_kind::reduce_min, &import_reduce<S>},
    {op_type::ReduceProd, op_kind::reduce_prod, &import_reduce<S>},
    {op_type::ReduceSumSquare, op_kind::reduce_sum_square, &import_reduce<S>},
    {op_type::ReduceL1, op_kind::reduce_l1, &import_reduce<S>},
    {op_type::ReduceL2, op_kind::reduce_l2, &import_reduce<S>},
    {op_type::ReduceLogSum, op_kind::reduce_log_sum, &import_reduce<S>},
    {op_type::ReduceLogSumExp, op_kind::reduce_log_sum_exp, &import_reduce<S>},
    {op_type::ArgMax, op_kind::arg_max, &import_arg<S>},
    {op_type::ArgMin, op_kind::arg_min, &import_arg<S>},
    // quantized.hpp
    {op_type::QuantizeLinear, op_kind::quantize, &import_quantize_linear<S>},
    {op_type::DequantizeLinear, op_kind::dequantize, &import_quantize_linear<S>},
    {op_type::QLinearConv, op_kind::conv2d, &import_quantized_conv<S>},
    {op_type::ConvInteger, op_kind::conv2d, &import_quantized_conv<S>},
    {op_type::QLinearMatMul, op_kind::dense, &import_quantized_matmul<S>},
    {op_type::MatMulInteger, op_kind::dense, &import_quantized_matmul<S>},
    // import_logic.hpp (and Div: import_elementwise.hpp)
    {op_type::Equal, op_kind::equal, &import_bool_binary<S>},
    {op_type::Less, op_kind::less, &import_bool_binary<S>},
    {op_type::LessOrEqual, op_kind::less_equal, &import_bool_binary<S>},
    {op_type::Greater, op_kind::greater, &import_bool_binary<S>},
    {op_type::GreaterOrEqual, op_kind::greater_equal, &import_bool_binary<S>},
    {op_type::And, op_kind::logical_and, &import_bool_binary<S>},
    {op_type::Or, op_kind::logical_or, &import_bool_binary<S>},
    {op_type::Xor, op_kind::logical_xor, &import_bool_binary<S>},
    {op_type::Not, op_kind::logical_not, &import_not<S>},
    {op_type::IsNaN, op_kind::not_equal, &import_is_nan<S>},
    {op_type::Where, op_kind::select, &import_where<S>},
    {op_type::Cast, op_kind::cast, &import_cast<S>},
    {op_type::Div, op_kind::div, &import_arithmetic<S>},
    // import_spatial.hpp
    {op_type::Resize, op_kind::resize_nearest, &import_resize<S>},
    {op_type::Upsample, op_kind::resize_nearest, &import_resize<S>},
    {op_type::Sum, op_kind::add, &import_extremum<S>},
    {op_type::Expand, op_kind::tile, &import_tile<S>},
    {op_type::Tile, op_kind::tile, &import_tile<S>},
    {op_type::LpNormalization, op_kind::l2_normalization, &import_lp_normalization<S>},
    // import_recurrent.hpp
    {op_type::LSTM, op_kind::lstm, &import_recurrent<S>, true},
    {op_type::GRU, op_kind::gru, &import_recurrent<S>, true},
    {op_type::RNN, op_kind::rnn, &import_recurrent<S>, true},
    // the transpose_conv family (import_linear.hpp)
    {op_type::ConvTranspose, op_kind::transpose_conv2d, &import_conv_transpose<S>},
    // import_gather_scatter.hpp
    {op_type::GatherND, op_kind::gather_nd, &import_gather_nd<S>},
    {op_type::CumSum, op_kind::cumsum, &import_cumsum<S>},
    {op_type::ConstantOfShape, op_kind::tile, &import_constant_of_shape<S>},
    {op_type::ScatterND, op_kind::scatter_nd, &import_scatter_nd<S>},
    {op_type::ReverseSequence, op_kind::reverse_sequence, &import_reverse_sequence<S>},
    // import_known.hpp: integers computed at import (no node; the kind names the diagnostics)
    {op_type::Shape, op_kind::reshape, &import_shape<S>},
    {op_type::Size, op_kind::reshape, &import_size<S>},
    {op_type::Range, op_kind::reshape, &import_range<S>},
    // the onnx_math family (import_math.hpp; LogSoftmax: import_elementwise.hpp)
    {op_type::Erf, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Gelu, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Softplus, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Softsign, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Selu, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Celu, op_kind::unary_function, &import_unary_function<S>},
    {op_type::ThresholdedRelu, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Sign, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Tan, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Sinh, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Cosh, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Asin, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Acos, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Atan, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Asinh, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Acosh, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Atanh, op_kind::unary_function, &import_unary_function<S>},
    {op_type::Shrink, op_kind::unary_function, &import_unary_function<S>},
    {op_type::LayerNormalization, op_kind::layer_norm, &import_normalization<S>, true},
    {op_type::InstanceNormalization, op_kind::layer_norm, &import_normalization<S>},
    {op_type::MeanVarianceNormalization, op_kind::layer_norm, &import_normalization<S>},
    {op_type::LogSoftmax, op_kind::log_softmax, &import_softmax<S>},
    {op_type::GlobalMaxPool, op_kind::reduce_max, &import_global_max_pool<S>},
    {op_type::Dropout, op_kind::reshape, &import_dropout<S>},
    {op_type::Pow, op_kind::binary_function, &import_binary_function<S>},
    {op_type::Mod, op_kind::binary_function, &import_binary_function<S>},
    {op_type::Mean, op_kind::add, &import_mean<S>},
    // ONNX operators of issue #28 (import_gather_scatter.hpp)
    {op_type::GatherElements, op_kind::gather_elements, &import_gather_elements<S>},
    {op_type::ScatterElements, op_kind::scatter_elements, &import_scatter_elements<S>},
    // import_selection.hpp
    {op_type::TopK, op_kind::top_k, &import_top_k<S>, true},
    {op_type::Hardmax, op_kind::hardmax, &import_hardmax<S>},
    {op_type::Mish, op_kind::unary_function, &import_unary_function<S>},
    {op_type::LpPool, op_kind::lp_pool, &import_pool<S>},  // import_linear.hpp
    {op_type::LRN, op_kind::lrn, &import_lrn<S>},  // import_math.hpp
    {op_type::GroupNormalization, op_kind::layer_norm, &import_group_normalization<S>},  // import_math.hpp
    {op_type::Einsum, op_kind::batch_matmul, &import_einsum<S>},  // import_einsum.hpp
};

// The index of an op_type's row in op_table<S>, or -1 (an index: g++ does not compare a pointer into the
// table with nullptr in constant evaluation under -fsanitize=address).
template <class S>
constexpr std::int32_t find_op(op_type t) {
  constexpr auto rows = static_cast<std::int32_t>(sizeof op_table<S> / sizeof op_table<S>[0]);
  for (std::int32_t k = 0; k < rows; ++k)
    if (op_table<S>[k].type == t) return k;
  return -1;
}

}  // namespace ctnn::onnx::detail
