#pragma once
// TFLite -> ctnn::module: the importer behind ctnn::tflite::model (tflite.hpp), usable on its own at
// compile time and at run time (ctnn-inspect):
//
//   constexpr auto sizes = ctnn::tflite::count(bytes, size);          // exact capacities, one evaluation
//   constexpr auto m = ctnn::tflite::import<sizes.tensors, sizes.nodes>(bytes, size, "kws");
//   m.error.failed() / m.error.code == ctnn::code_of(ctnn::frontend_error::tflite_hybrid_model) ...
//
// Mapping (subgraph 0):
//  * Tensor i of the file is tensor i of the module (same index, so dumps and tools agree); tensors the
//    importer adds (see below) come after them. Shapes come from `shape` (shape_signature may hold -1 for
//    the batch); types float32, int8 and int32; constants point into the file's bytes (zero-copy:
//    constant_data::bytes is the first byte of the buffer's data); quantization per tensor (scale, zero
//    point) or per channel (channel_count, axis = quantized_dimension, scale_bytes into the file's float
//    vector). Names are the part of the TFLite name before the first ';', truncated to ctnn::name.
//  * Op i of the file is node i of the module unless the importer added nodes before it: a fused
//    activation of AVERAGE_POOL_2D, MAX_POOL_2D or CONCATENATION becomes a relu/relu6 node after the op
//    (their kernels have no fused activation), and a FULLY_CONNECTED whose input's first extent is not
//    TFLite's batch (elements / input features) gets a reshape to [batch, features] before it. Graph
//    outputs that are graph inputs, constants or repeated get a copy node at the end.
//  * Ops: CONV_2D, DEPTHWISE_CONV_2D (weights [1,H,W,C*M], multiplier = out / in channels),
//    FULLY_CONNECTED ([out][in], keep_num_dims only for rank-2 inputs), AVERAGE_POOL_2D, MAX_POOL_2D,
//    ADD, MUL, RESHAPE (shape input, else new_shape, else the output's shape), SOFTMAX (beta 1),
//    QUANTIZE, DEQUANTIZE, CONCATENATION, PAD (constant int32 paddings), RELU, RELU6, LOGISTIC, TANH,
//    MEAN (constant int32 axes, keep_dims). Padding SAME/VALID; fused activations NONE, RELU, RELU6.
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
#include <array>
#include <cstddef>
#include <cstdint>
#include <bit>
#include <initializer_list>
#include <limits>
#include <string_view>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite {

// The capacities an import needs (tensors and nodes of the module), from a first, cheap scan.
struct import_counts {
  std::size_t tensors = 1;
  std::size_t nodes = 1;
};

namespace detail {

// The IR kind of a supported builtin op; false for the others.
constexpr bool ir_kind_of(builtin_operator code, op_kind& kind) {
  switch (code) {
    case builtin_operator::conv_2d: kind = op_kind::conv2d; return true;
    case builtin_operator::depthwise_conv_2d: kind = op_kind::depthwise_conv2d; return true;
    case builtin_operator::fully_connected: kind = op_kind::dense; return true;
    case builtin_operator::average_pool_2d: kind = op_kind::avg_pool; return true;
    case builtin_operator::max_pool_2d: kind = op_kind::max_pool; return true;
    case builtin_operator::add: kind = op_kind::add; return true;
    case builtin_operator::mul: kind = op_kind::mul; return true;
    case builtin_operator::reshape: kind = op_kind::reshape; return true;
    case builtin_operator::softmax: kind = op_kind::softmax; return true;
    case builtin_operator::quantize: kind = op_kind::quantize; return true;
    case builtin_operator::dequantize: kind = op_kind::dequantize; return true;
    case builtin_operator::concatenation: kind = op_kind::concat; return true;
    case builtin_operator::pad: kind = op_kind::pad; return true;
    case builtin_operator::relu: kind = op_kind::relu; return true;
    case builtin_operator::relu6: kind = op_kind::relu6; return true;
    case builtin_operator::logistic: kind = op_kind::sigmoid; return true;
    case builtin_operator::tanh: kind = op_kind::tanh; return true;
    case builtin_operator::mean: kind = op_kind::mean; return true;
    default: return false;
  }
}

// The options table each supported op reads, and where its fused activation is (-1: none).
struct option_layout {
  schema::builtin_options type = schema::builtin_options::none;
  std::int32_t fused_field = -1;
};
constexpr option_layout options_of(builtin_operator code) {
  namespace s = schema;
  switch (code) {
    case builtin_operator::conv_2d: return {s::builtin_options::conv_2d, static_cast<std::int32_t>(s::conv_2d::fused_activation)};
    case builtin_operator::depthwise_conv_2d:
      return {s::builtin_options::depthwise_conv_2d, static_cast<std::int32_t>(s::depthwise_conv_2d::fused_activation)};
    case builtin_operator::fully_connected:
      return {s::builtin_options::fully_connected, static_cast<std::int32_t>(s::fully_connected::fused_activation)};
    case builtin_operator::average_pool_2d:
    case builtin_operator::max_pool_2d: return {s::builtin_options::pool_2d, static_cast<std::int32_t>(s::pool_2d::fused_activation)};
    case builtin_operator::add: return {s::builtin_options::add, static_cast<std::int32_t>(s::add::fused_activation)};
    case builtin_operator::mul: return {s::builtin_options::mul, static_cast<std::int32_t>(s::mul::fused_activation)};
    case builtin_operator::concatenation:
      return {s::builtin_options::concatenation, static_cast<std::int32_t>(s::concatenation::fused_activation)};
    case builtin_operator::softmax: return {s::builtin_options::softmax, -1};
    case builtin_operator::reshape: return {s::builtin_options::reshape, -1};
    case builtin_operator::pad: return {s::builtin_options::pad, -1};
    case builtin_operator::mean: return {s::builtin_options::reducer, -1};
    case builtin_operator::quantize: return {s::builtin_options::quantize, -1};
    case builtin_operator::dequantize: return {s::builtin_options::dequantize, -1};
    default: return {};
  }
}

// What the importer does with one op, shared by count() and import() so that they agree.
struct op_plan {
  builtin_operator code = builtin_operator::add;
  op_kind kind = op_kind::relu;
  bool supported = false;
  flatbuffers::table options{};
  activation_function fused = activation_function::none;
  bool activation_node = false;  // a relu/relu6 node after the op (pools, concat)
  bool flatten_node = false;     // a reshape to [batch, features] before a FULLY_CONNECTED
  std::int32_t flatten_batch = 0;
  std::int32_t flatten_features = 0;
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
  p.supported = ir_kind_of(o.code, p.kind);
  if (!p.supported || f.failed()) return p;
  const option_layout layout = options_of(o.code);
  p.options = f.options(o, layout.type);
  if (layout.fused_field >= 0)
    p.fused = f.reader().scalar<activation_function>(p.options, static_cast<std::uint32_t>(layout.fused_field),
                                                     activation_function::none);
  p.activation_node = (p.kind == op_kind::avg_pool || p.kind == op_kind::max_pool || p.kind == op_kind::concat) &&
                      (p.fused == activation_function::relu || p.fused == activation_function::relu6);
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

// Whether every float32 of `count` little-endian floats at `bytes` lies in [low, high] as bits (a call-free
// loop: clang counts every step); `largest` gets the largest bit pattern.
constexpr bool scale_bits_within(const char* bytes, std::uint32_t count, std::uint32_t low, std::uint32_t high,
                                 std::uint32_t& largest) {
  bool inside = true;
  largest = 0;
  for (std::uint32_t k = 0; k < 4 * count; k += 4) {
    const std::uint32_t bits = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k])) |
                               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k + 1])) << 8 |
                               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k + 2])) << 16 |
                               static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k + 3])) << 24;
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

// The importer's state while it fills a module.
template <class Module>
struct importer {
  model_file& f;
  Module& m;

  constexpr void fail(error_code code, std::int32_t node, op_kind kind, std::int64_t a, std::int64_t b,
                      const shape& expected = {}, const shape& actual = {}) {
    m.fail(diagnostic{code, node, kind, expected, actual, a, b});
  }
  constexpr void fail(frontend_error code, std::int32_t node, op_kind kind, std::int64_t a, std::int64_t b,
                      const shape& expected = {}, const shape& actual = {}) {
    fail(code_of(code), node, kind, a, b, expected, actual);
  }
  constexpr void malformed(std::int64_t offset, flatbuffers::expectation what) {
    f.reader().fail(offset, what);
    take_reader_error();
  }
  constexpr bool take_reader_error() {
    if (!f.failed()) return false;
    fail(frontend_error::tflite_malformed_model, -1, op_kind::conv2d, f.error().offset,
         static_cast<std::int64_t>(f.error().what));
    return true;
  }
  constexpr bool failed() const { return m.error.failed(); }

  // ---------------------------------------------------------------------------------------------------
  // Tensors.

  static constexpr bool dtype_of(tensor_type t, dtype& out) {
    switch (t) {
      case tensor_type::float32: out = dtype::f32; return true;
      case tensor_type::int8: out = dtype::i8; return true;
      case tensor_type::int32: out = dtype::i32; return true;
      default: return false;
    }
  }

  // The part of a TFLite tensor name before the first ';' (converters join the names of fused ops), at
  // most name::capacity characters. A call-free loop on raw pointers: clang counts every step (docs/design.md §6).
  static constexpr name label_of(const char* text, std::uint32_t length) {
    name label{};
    char* out = label.text.data();
    const std::uint32_t limit = length < name::capacity ? length : static_cast<std::uint32_t>(name::capacity);
    for (std::uint32_t n = 0; n < limit && text[n] != ';'; ++n) out[n] = text[n];
    return label;
  }

  constexpr void import_tensor(std::uint32_t i) {
    const tensor_view tv = f.tensor(i);
    if (take_reader_error()) return;
    const auto index = static_cast<std::int64_t>(i);
    tensor t{};
    if (!dtype_of(tv.type, t.type)) {
      fail(frontend_error::tflite_unsupported_tensor_type, -1, op_kind::conv2d, index, static_cast<std::int64_t>(tv.type));
      return;
    }
    if (tv.is_variable) return feature(i, tensor_feature::variable);
    if (tv.has_sparsity) return feature(i, tensor_feature::sparsity);
    if (tv.external_buffer != 0 || f.buffer_is_external(tv.buffer)) return feature(i, tensor_feature::external_buffer);
    // Shape: `shape` (static; shape_signature may say -1 for the batch). No static shape: a negative or
    // zero extent, or no `shape` where shape_signature gives a rank.
    if (tv.shape.length > max_rank) {
      fail(frontend_error::tflite_rank_too_high, -1, op_kind::conv2d, index, tv.shape.length);
      return;
    }
    t.dims = stored_shape(f, tv);
    bool is_static = true;
    for (std::int32_t d = 0; d < t.dims.rank; ++d) is_static = is_static && t.dims[d] > 0;
    if (tv.shape.length == 0 && tv.shape_signature.length > 0) {
      is_static = false;
      t.dims.rank = static_cast<std::int32_t>(tv.shape_signature.length < max_rank ? tv.shape_signature.length : max_rank);
      for (std::int32_t d = 0; d < t.dims.rank; ++d)
        t.dims.dims[static_cast<std::size_t>(d)] = f.reader().element<std::int32_t>(tv.shape_signature, static_cast<std::uint32_t>(d));
    }
    if (take_reader_error()) return;
    if (!is_static) {
      fail(frontend_error::tflite_no_static_shape, -1, op_kind::conv2d, index, t.dims.rank, {}, t.dims);
      return;
    }
    if (checked_elements(t.dims) < 0) return malformed(f.field_position(tv.table, schema::tensor::shape), flatbuffers::expectation::tensor_size);
    if (tv.name.present()) t.label = label_of(f.reader().pointer(tv.name.at), tv.name.length);
    // Constant data, zero-copy.
    const flatbuffers::vector data = f.buffer_data(tv.buffer);
    if (take_reader_error()) return;
    if (data.length > 0) {
      const std::int64_t needed = t.dims.elements() * static_cast<std::int64_t>(size_of(t.type));
      if (needed != data.length) {
        fail(frontend_error::tflite_constant_size_mismatch, -1, op_kind::conv2d, index, data.length, t.dims);
        return;
      }
      if (data.at % size_of(t.type) != 0) return malformed(data.at, flatbuffers::expectation::aligned_data);
      t.role = tensor_role::constant;
      t.data.bytes = f.reader().pointer(data.at);
      t.data.file = f.reader().pointer(0);
    }
    if (t.type != dtype::f32 && !import_quantization(i, tv, t)) return;
    m.tensors[i] = t;
  }

  constexpr void feature(std::uint32_t i, tensor_feature what) {
    fail(frontend_error::tflite_unsupported_tensor_feature, -1, op_kind::conv2d, static_cast<std::int64_t>(i),
         static_cast<std::int64_t>(what));
  }

  constexpr bool invalid_quantization(std::uint32_t i, quantization_problem what) {
    fail(frontend_error::tflite_invalid_quantization, -1, op_kind::conv2d, static_cast<std::int64_t>(i),
         static_cast<std::int64_t>(what));
    return false;
  }

  constexpr bool import_quantization(std::uint32_t i, const tensor_view& tv, tensor& t) {
    auto& r = f.reader();
    if (!tv.quantization.present()) return true;
    const auto details = r.scalar<std::uint8_t>(tv.quantization, schema::quantization::details_type, 0);
    const flatbuffers::vector scale = r.vector_field(tv.quantization, schema::quantization::scale, 4);
    const flatbuffers::vector zero_point = r.vector_field(tv.quantization, schema::quantization::zero_point, 8);
    const auto axis = r.scalar<std::int32_t>(tv.quantization, schema::quantization::quantized_dimension, 0);
    if (take_reader_error()) return false;
    if (details != 0) return feature(i, tensor_feature::quantization_details), false;
    if (scale.length == 0) return true;
    if (zero_point.length != 0 && zero_point.length != scale.length)
      return feature(i, tensor_feature::quantization_counts_differ), false;
    // Scales: int8 within [2^-60, 2^60], int32 finite and >= 0 (see min_scale_bits).
    const bool int8 = t.type == dtype::i8;
    const std::uint32_t low = int8 ? min_scale_bits : 0u, high = int8 ? max_scale_bits : int32_scale_end - 1;
    std::uint32_t largest = 0;
    const bool scales_valid = scale_bits_within(r.pointer(scale.at), scale.length, low, high, largest);
    if (scale.length == 1) {
      const std::int64_t zero = zero_point.length == 0 ? 0 : r.element<std::int64_t>(zero_point, 0);
      if (take_reader_error()) return false;
      if (!scales_valid) return invalid_quantization(i, quantization_problem::scale);
      const std::int64_t zero_min = int8 ? -128 : std::numeric_limits<std::int32_t>::min();
      const std::int64_t zero_max = int8 ? 127 : std::numeric_limits<std::int32_t>::max();
      if (zero < zero_min || zero > zero_max) return invalid_quantization(i, quantization_problem::zero_point);
      t.quant.scale = r.element<float>(scale, 0);
      t.quant.zero_point = static_cast<std::int32_t>(zero);
      return !take_reader_error();
    }
    if (axis < 0 || axis >= t.dims.rank || t.dims[axis] != static_cast<std::int32_t>(scale.length))
      return feature(i, tensor_feature::quantized_dimension), false;
    if (!scales_valid) return invalid_quantization(i, quantization_problem::channel_scale);
    // Per-channel zero points must be 0 (symmetric weights): all 8 bytes of the first, then the low byte
    // of each (a call-free loop: clang counts every step, and an int8 or int16 zero point that is not 0
    // has a low byte that is not 0 unless it is a multiple of 256, which int8 cannot hold).
    if (zero_point.length > 0) {
      const char* bytes = r.data();
      char any = 0;
      for (std::uint32_t k = 0; k < 8; ++k) any |= bytes[zero_point.at + k];
      const std::uint32_t end = zero_point.at + 8 * zero_point.length;
      for (std::uint32_t k = zero_point.at; k < end; k += 8) any |= bytes[k];
      if (any != 0) return feature(i, tensor_feature::per_channel_zero_point), false;
    }
    t.quant.scale = r.element<float>(scale, 0);
    t.quant.zero_point = 0;
    t.quant.axis = axis;
    t.quant.channel_count = static_cast<std::int32_t>(scale.length);
    t.quant.scale_bytes = r.pointer(scale.at);
    return !take_reader_error();
  }

  // ---------------------------------------------------------------------------------------------------
  // Graph inputs and outputs.

  constexpr void import_inputs() {
    const flatbuffers::vector& inputs = f.inputs();
    if (inputs.length > max_model_io) {
      fail(frontend_error::tflite_too_many_model_io, -1, op_kind::conv2d, 0, inputs.length);
      return;
    }
    for (std::uint32_t k = 0; k < inputs.length && !failed(); ++k) {
      const std::int32_t id = f.index_at(inputs, k);
      if (take_reader_error()) return;
      if (id < 0 || static_cast<std::uint32_t>(id) >= f.tensor_count() || m.tensor_at(id).role != tensor_role::intermediate)
        return malformed(inputs.position(k), flatbuffers::expectation::tensor_index);
      tensor& t = m.tensor_at(id);
      t.role = tensor_role::input;
      t.io_index = m.input_count;
      m.inputs[static_cast<std::size_t>(m.input_count++)] = id;
    }
  }

  constexpr void import_outputs() {
    const flatbuffers::vector& outputs = f.outputs();
    if (outputs.length > max_model_io) {
      fail(frontend_error::tflite_too_many_model_io, -1, op_kind::conv2d, 1, outputs.length);
      return;
    }
    for (std::uint32_t k = 0; k < outputs.length && !failed(); ++k) {
      std::int32_t id = f.index_at(outputs, k);
      if (take_reader_error()) return;
      if (id < 0 || static_cast<std::uint32_t>(id) >= f.tensor_count())
        return malformed(outputs.position(k), flatbuffers::expectation::tensor_index);
      const tensor& source = m.tensor_at(id);
      if (source.role == tensor_role::intermediate && source.producer < 0)
        return malformed(outputs.position(k), flatbuffers::expectation::produced_tensor);
      if (source.role != tensor_role::intermediate) {
        // A graph input, a constant or an output listed twice: a copy op writes this output's buffer.
        const std::int32_t copy_id = add_tensor_like(id, source.dims, source.label);
        node* n = add_node(op_kind::reshape, numbered("output", k), copy_id);  // empty target: a copy
        if (n == nullptr) return;
        n->inputs[0] = id;
        n->input_count = 1;
        id = copy_id;
      }
      tensor& t = m.tensor_at(id);
      t.role = tensor_role::output;
      t.io_index = m.output_count;
      m.outputs[static_cast<std::size_t>(m.output_count++)] = id;
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Operators.

  // Operand k of op i: a tensor index that exists and is available (a graph input, a constant or an
  // earlier op's output); -1 where `optional`.
  constexpr std::int32_t operand(const operator_view& o, std::uint32_t k, bool optional = false) {
    const std::int32_t id = f.index_at(o.inputs, k);
    if (take_reader_error()) return -1;
    if (id == -1 && optional) return -1;
    if (id < 0 || static_cast<std::uint32_t>(id) >= f.tensor_count()) {
      malformed(o.inputs.position(k), flatbuffers::expectation::tensor_index);
      return -1;
    }
    const tensor& t = m.tensor_at(id);
    if (t.role == tensor_role::intermediate && t.producer < 0) {
      malformed(o.inputs.position(k), flatbuffers::expectation::produced_tensor);
      return -1;
    }
    return id;
  }

  // Operand k must be a constant (weights, bias, int32 shapes/pads/axes) of type `type`.
  constexpr bool constant_operand(std::int32_t op, const op_plan& p, std::int32_t id, std::uint32_t k, dtype type) {
    if (id < 0) return true;
    const tensor& t = m.tensor_at(id);
    if (t.role == tensor_role::constant && t.type == type) return true;
    fail(frontend_error::tflite_unsupported_operand, op, p.kind, static_cast<std::int64_t>(p.code), k);
    return false;
  }

  // Element k of a constant int32 tensor (little-endian bytes in the file).
  constexpr std::int32_t constant_i32(std::int32_t id, std::int64_t k) const {
    const char* b = m.tensor_at(id).data.bytes;
    const auto byte = [&](std::int64_t j) { return static_cast<std::uint32_t>(static_cast<unsigned char>(b[4 * k + j])); };
    return static_cast<std::int32_t>(byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24);
  }

  constexpr bool activation_to_ir(std::int32_t op, const op_plan& p, activation& out) {
    switch (p.fused) {
      case activation_function::none: out = activation::none; return true;
      case activation_function::relu: out = activation::relu; return true;
      case activation_function::relu6: out = activation::relu6; return true;
      default:
        fail(frontend_error::tflite_unsupported_activation, op, p.kind, static_cast<std::int64_t>(p.code),
             static_cast<std::int64_t>(p.fused));
        return false;
    }
  }

  // Padding, strides and dilations of a conv/pool options table into a window.
  constexpr bool read_window(std::int32_t op, const op_plan& p, std::uint32_t padding_id, std::uint32_t stride_w_id,
                             std::uint32_t stride_h_id, std::int32_t dilation_w_id, std::int32_t dilation_h_id,
                             window& w) {
    auto& r = f.reader();
    const auto pad = r.scalar<std::int8_t>(p.options, padding_id, 0);
    w.stride_w = r.scalar<std::int32_t>(p.options, stride_w_id, 0);
    w.stride_h = r.scalar<std::int32_t>(p.options, stride_h_id, 0);
    if (dilation_w_id >= 0) w.dilation_w = r.scalar<std::int32_t>(p.options, static_cast<std::uint32_t>(dilation_w_id), 1);
    if (dilation_h_id >= 0) w.dilation_h = r.scalar<std::int32_t>(p.options, static_cast<std::uint32_t>(dilation_h_id), 1);
    if (take_reader_error()) return false;
    if (pad != static_cast<std::int8_t>(padding_type::same) && pad != static_cast<std::int8_t>(padding_type::valid)) {
      fail(frontend_error::tflite_unsupported_padding, op, p.kind, static_cast<std::int64_t>(p.code), pad);
      return false;
    }
    w.mode = pad == static_cast<std::int8_t>(padding_type::same) ? padding::same : padding::valid;
    // Below 1 is meaningless; 2^16 and more would only overflow the shape arithmetic of later passes.
    for (const std::int32_t v : {w.stride_w, w.stride_h, w.dilation_w, w.dilation_h, w.kernel_h, w.kernel_w}) {
      if (v < 1 || v > max_window_value) {
        fail(frontend_error::tflite_invalid_window, op, p.kind, static_cast<std::int64_t>(p.code), v);
        return false;
      }
    }
    return true;
  }

  constexpr bool expect_inputs(std::int32_t op, const op_plan& p, const operator_view& o, std::uint32_t least,
                               std::uint32_t most) {
    if (o.inputs.length >= least && o.inputs.length <= most) return true;
    fail(error_code::input_count_mismatch, op, p.kind, o.inputs.length < least ? least : most, o.inputs.length);
    return false;
  }

  constexpr bool expect_rank(std::int32_t op, const op_plan& p, std::int32_t id, std::int32_t rank) {
    const shape& s = m.tensor_at(id).dims;
    if (s.rank == rank) return true;
    fail(error_code::unsupported_rank, op, p.kind, rank, s.rank, {}, s);
    return false;
  }

  // The requantization multipliers an int8 op's kernel derives from its scales (lower_te, runtime/
  // requantization.hpp) must be ones TFLite's QuantizeMultiplier accepts (shift at most 31; a shift
  // below -31 is flushed to 0); LOGISTIC, TANH and SOFTMAX also derive their input radius from the shift,
  // which must not be negative. Operands without a scale are lower_te's to report.
  constexpr bool check_requantization(std::int32_t op, const op_plan& p, const node& n) {
    namespace q = ctnn::detail::quant;
    const tensor& x = m.tensor_at(n.inputs[0]);
    const tensor& y = m.tensor_at(n.output);
    if ((x.type != dtype::i8 && y.type != dtype::i8) || !x.quant.quantized() || !y.quant.quantized()) return true;
    const double in = static_cast<double>(x.quant.scale), out = static_cast<double>(y.quant.scale);
    const quantization& second = n.input_count > 1 && n.inputs[1] >= 0 ? m.tensor_at(n.inputs[1]).quant : quantization{};
    std::int32_t shift = 0;
    bool radius = false;
    switch (n.kind) {
      case op_kind::conv2d:
      case op_kind::depthwise_conv2d:
      case op_kind::dense:
        if (!second.quantized()) return true;
        shift = q::quantize_multiplier(in * largest_scale(second) / out).shift;
        break;
      case op_kind::add: {
        if (!second.quantized()) return true;
        const double twice_max_input_scale = 2 * (in > second.scale ? in : static_cast<double>(second.scale));
        shift = q::quantize_multiplier(twice_max_input_scale / (1048576.0 * out)).shift;  // left shift 20
        break;
      }
      case op_kind::mul:
        if (!second.quantized()) return true;
        shift = q::quantize_multiplier(in * static_cast<double>(second.scale) / out).shift;
        break;
      case op_kind::relu:
      case op_kind::quantize:
      case op_kind::mean:
        shift = q::quantize_multiplier(in / out).shift;
        break;
      case op_kind::sigmoid:
      case op_kind::tanh:
        shift = q::logistic_tanh_input_multiplier(x.quant.scale).shift;
        radius = true;
        break;
      case op_kind::softmax:
        shift = q::softmax_input_multiplier(1.0, in, 5).shift;
        radius = true;
        break;
      default:
        return true;
    }
    if (shift <= 31 && (!radius || shift >= 0)) return true;
    fail(frontend_error::tflite_unrepresentable_multiplier, op, p.kind, static_cast<std::int64_t>(p.code), shift);
    return false;
  }

  // Capacities too small for the file (import<> called with less than count() says): a caller's error.
  constexpr void capacity_exceeded() {
    fail(error_code::too_many_inputs, -1, op_kind::conv2d, m.node_count, static_cast<std::int64_t>(Module::node_capacity));
  }

  // A node of the module: appended, with its output tensor's producer set (nullptr when full).
  constexpr node* add_node(op_kind kind, const name& label, std::int32_t output) {
    if (output < 0 || static_cast<std::size_t>(m.node_count) >= Module::node_capacity) {
      if (!failed()) capacity_exceeded();
      return nullptr;
    }
    node& n = m.node_at(m.node_count);
    n = node{};
    n.kind = kind;
    n.label = label;
    n.output = output;
    m.tensor_at(output).producer = m.node_count++;
    return &n;
  }

  // A tensor the importer adds (the intermediate before a synthesized node, an output's copy); -1 when full.
  constexpr std::int32_t add_tensor_like(std::int32_t like, const shape& dims, const name& label) {
    if (static_cast<std::size_t>(m.tensor_count) >= Module::tensor_capacity) {
      capacity_exceeded();
      return -1;
    }
    tensor t{};
    t.label = label;
    t.dims = dims;
    t.type = m.tensor_at(like).type;
    t.quant = m.tensor_at(like).quant;
    return m.add_tensor(t);
  }

  constexpr void import_op(std::uint32_t i) {
    const auto op = static_cast<std::int32_t>(i);
    const operator_view o = f.op(i);
    if (take_reader_error()) return;
    const op_plan p = plan_op(f, o);
    if (take_reader_error()) return;
    if (!p.supported) {
      fail(frontend_error::tflite_unsupported_operator, op, op_kind::conv2d, static_cast<std::int64_t>(p.code), 0);
      return;
    }
    auto& r = f.reader();
    // One output, a fresh tensor.
    if (o.outputs.length != 1) {
      fail(frontend_error::tflite_output_count, op, p.kind, static_cast<std::int64_t>(p.code), o.outputs.length);
      return;
    }
    const std::int32_t out = f.index_at(o.outputs, 0);
    if (take_reader_error()) return;
    if (out < 0 || static_cast<std::uint32_t>(out) >= f.tensor_count())
      return malformed(o.outputs.position(0), flatbuffers::expectation::tensor_index);
    if (m.tensor_at(out).role != tensor_role::intermediate || m.tensor_at(out).producer >= 0)
      return malformed(o.outputs.position(0), flatbuffers::expectation::op_output);

    activation fused = activation::none;
    if (!activation_to_ir(op, p, fused)) return;
    const name label = numbered(name_of(p.kind), i);

    // Where this op's own node writes: the file's output tensor, or a new one before a synthesized
    // activation node.
    std::int32_t result = out;
    if (p.activation_node && (result = add_tensor_like(out, m.tensor_at(out).dims, label)) < 0) return;

    std::array<std::int32_t, max_node_inputs> inputs{};
    std::int32_t input_count = 0;
    op_attributes attrs{};

    switch (p.kind) {
      case op_kind::conv2d:
      case op_kind::depthwise_conv2d:
      case op_kind::dense: {
        if (!expect_inputs(op, p, o, 2, 3)) return;
        const std::int32_t x = operand(o, 0), w = operand(o, 1), b = o.inputs.length > 2 ? operand(o, 2, true) : -1;
        if (failed()) return;
        const tensor& weights = m.tensor_at(w);
        const bool float_input = m.tensor_at(x).type == dtype::f32;
        bool hybrid = float_input && weights.type != dtype::f32;
        if (p.kind == op_kind::dense)
          hybrid = hybrid || r.scalar<bool>(p.options, schema::fully_connected::asymmetric_quantize_inputs, false);
        if (hybrid) {
          fail(frontend_error::tflite_hybrid_model, op, p.kind, static_cast<std::int64_t>(p.code), w);
          return;
        }
        if (!constant_operand(op, p, w, 1, weights.type)) return;
        if (b >= 0 && !constant_operand(op, p, b, 2, m.tensor_at(b).type)) return;
        const shape in = m.tensor_at(x).dims;
        const shape ws = weights.dims;
        if (p.kind == op_kind::dense) {
          if (!expect_rank(op, p, w, 2)) return;
          if (r.scalar<std::int8_t>(p.options, schema::fully_connected::weights_format, 0) != 0) {
            fail(frontend_error::tflite_unsupported_fully_connected, op, p.kind, static_cast<std::int64_t>(p.code),
                 static_cast<std::int64_t>(fully_connected_feature::shuffled_weights));
            return;
          }
          if (r.scalar<bool>(p.options, schema::fully_connected::keep_num_dims, false) && in.rank > 2) {
            fail(frontend_error::tflite_unsupported_fully_connected, op, p.kind, static_cast<std::int64_t>(p.code),
                 static_cast<std::int64_t>(fully_connected_feature::keep_num_dims));
            return;
          }
          attrs.units = ws[0];
        } else {
          if (!expect_rank(op, p, x, 4) || !expect_rank(op, p, w, 4)) return;
          attrs.win.kernel_h = ws[1];
          attrs.win.kernel_w = ws[2];
          if (p.kind == op_kind::conv2d) {
            namespace s = schema::conv_2d;
            if (!read_window(op, p, s::padding, s::stride_w, s::stride_h, s::dilation_w, s::dilation_h, attrs.win)) return;
            attrs.units = ws[0];
            attrs.groups = ws[3] > 0 && in[3] % ws[3] == 0 ? in[3] / ws[3] : 1;  // else infer_types reports it
          } else {
            namespace s = schema::depthwise_conv_2d;
            if (!read_window(op, p, s::padding, s::stride_w, s::stride_h, s::dilation_w, s::dilation_h, attrs.win)) return;
            attrs.depth_multiplier = in[3] > 0 && ws[3] % in[3] == 0 ? ws[3] / in[3] : 1;  // derived, as TFLM does
          }
        }
        attrs.fused = fused;
        std::int32_t data = x;
        if (p.flatten_node) {
          // TFLite flattens the input to [elements / features, features]; ctnn's dense keeps dim 0.
          const std::int32_t flat = add_tensor_like(x, make_shape(p.flatten_batch, p.flatten_features), numbered("flatten", i));
          node* n = flat < 0 ? nullptr : add_node(op_kind::reshape, numbered("flatten", i), flat);
          if (n == nullptr) return;
          n->attrs.target = m.tensor_at(flat).dims;
          n->inputs[0] = x;
          n->input_count = 1;
          data = flat;
        }
        inputs = {data, w, b};
        input_count = 3;
        break;
      }
      case op_kind::avg_pool:
      case op_kind::max_pool: {
        if (!expect_inputs(op, p, o, 1, 1)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        if (failed()) return;
        namespace s = schema::pool_2d;
        attrs.win.kernel_w = r.scalar<std::int32_t>(p.options, s::filter_width, 0);
        attrs.win.kernel_h = r.scalar<std::int32_t>(p.options, s::filter_height, 0);
        if (!read_window(op, p, s::padding, s::stride_w, s::stride_h, -1, -1, attrs.win)) return;
        break;
      }
      case op_kind::add:
      case op_kind::mul:
        if (!expect_inputs(op, p, o, 2, 2)) return;
        inputs = {operand(o, 0), operand(o, 1)};
        input_count = 2;
        attrs.fused = fused;
        break;
      case op_kind::relu:
      case op_kind::relu6:
      case op_kind::sigmoid:
      case op_kind::tanh:
      case op_kind::quantize:
      case op_kind::dequantize:
        if (!expect_inputs(op, p, o, 1, 1)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        attrs.out_type = m.tensor_at(out).type;
        break;
      case op_kind::softmax: {
        if (!expect_inputs(op, p, o, 1, 1)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        const float beta = r.scalar<float>(p.options, schema::softmax::beta, 0.0f);
        if (beta != 1.0f) {
          double millionths = static_cast<double>(beta) * 1e6;
          if (!(millionths > -9e15)) millionths = -9e15;  // also NaN: a number for the diagnostic
          if (millionths > 9e15) millionths = 9e15;
          fail(frontend_error::tflite_softmax_beta, op, p.kind, static_cast<std::int64_t>(p.code),
               static_cast<std::int64_t>(millionths < 0 ? millionths - 0.5 : millionths + 0.5));
          return;
        }
        break;
      }
      case op_kind::reshape: {
        if (!expect_inputs(op, p, o, 1, 2)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        const std::int32_t shape_id = o.inputs.length > 1 ? operand(o, 1, true) : -1;
        if (failed()) return;
        const flatbuffers::vector new_shape = r.vector_field(p.options, schema::reshape::new_shape, 4);
        if (take_reader_error()) return;
        // TFLite's order: a constant 1-D shape input, else new_shape, else the output's (static) shape.
        const tensor* given = shape_id >= 0 ? &m.tensor_at(shape_id) : nullptr;
        if (given != nullptr && given->role == tensor_role::constant && given->type == dtype::i32 && given->dims.rank == 1 &&
            given->dims[0] >= 1 && given->dims[0] <= static_cast<std::int32_t>(max_rank)) {
          attrs.target.rank = given->dims[0];
          for (std::int32_t d = 0; d < attrs.target.rank; ++d) attrs.target.dims[static_cast<std::size_t>(d)] = constant_i32(shape_id, d);
        } else if (new_shape.length >= 1 && new_shape.length <= max_rank) {
          attrs.target.rank = static_cast<std::int32_t>(new_shape.length);
          for (std::uint32_t d = 0; d < new_shape.length; ++d) attrs.target.dims[d] = r.element<std::int32_t>(new_shape, d);
        } else {
          attrs.target = m.tensor_at(out).dims;
        }
        // -1 (inferred, once at most) means the same in TFLite and the IR; 0 is "keep" in the IR but an
        // extent of 0 in TFLite, which no static model has: a target with 0, other negative extents or
        // more than one -1 is refused, as is one whose known extents overflow.
        if (attrs.target.rank == 0) attrs.target = m.tensor_at(out).dims;
        shape known = attrs.target;
        std::int32_t inferred = 0;
        for (std::int32_t d = 0; d < known.rank; ++d)
          if (known[d] == -1) known.dims[static_cast<std::size_t>(d)] = 1, ++inferred;
        if (inferred > 1 || checked_elements(known) < 0) {
          fail(frontend_error::tflite_unsupported_operand, op, p.kind, static_cast<std::int64_t>(p.code), 1);
          return;
        }
        break;
      }
      case op_kind::concat: {
        if (o.inputs.length < 1) {
          fail(error_code::input_count_mismatch, op, p.kind, 1, 0);
          return;
        }
        if (o.inputs.length > max_node_inputs) {
          fail(error_code::too_many_inputs, op, p.kind, o.inputs.length, max_node_inputs);
          return;
        }
        for (std::uint32_t k = 0; k < o.inputs.length; ++k) inputs[k] = operand(o, k);
        input_count = static_cast<std::int32_t>(o.inputs.length);
        attrs.axis = r.scalar<std::int32_t>(p.options, schema::concatenation::axis, 0);
        break;
      }
      case op_kind::pad: {
        if (!expect_inputs(op, p, o, 2, 2)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        const std::int32_t pads = operand(o, 1);
        if (failed() || !constant_operand(op, p, pads, 1, dtype::i32)) return;
        const std::int32_t rank = m.tensor_at(inputs[0]).dims.rank;
        if (m.tensor_at(pads).dims.elements() != 2 * rank) {
          fail(frontend_error::tflite_unsupported_operand, op, p.kind, static_cast<std::int64_t>(p.code), 1);
          return;
        }
        for (std::int32_t k = 0; k < 2 * rank; ++k) {
          const std::int32_t pad = constant_i32(pads, k);
          if (pad < 0 || pad > max_window_value) {
            fail(frontend_error::tflite_unsupported_operand, op, p.kind, static_cast<std::int64_t>(p.code), 1);
            return;
          }
          attrs.pads[static_cast<std::size_t>(k)] = pad;
        }
        break;
      }
      case op_kind::mean: {
        if (!expect_inputs(op, p, o, 2, 2)) return;
        inputs[0] = operand(o, 0);
        input_count = 1;
        const std::int32_t axes = operand(o, 1);
        if (failed() || !constant_operand(op, p, axes, 1, dtype::i32)) return;
        const std::int32_t rank = m.tensor_at(inputs[0]).dims.rank;
        const std::int64_t count = m.tensor_at(axes).dims.elements();
        for (std::int64_t k = 0; k < count; ++k) {
          const std::int32_t axis = constant_i32(axes, k);
          const std::int32_t normalised = axis < 0 ? axis + rank : axis;
          if (normalised < 0 || normalised >= rank) {
            fail(error_code::invalid_axis, op, p.kind, axis, rank);
            return;
          }
          attrs.reduce_axes |= 1u << normalised;
        }
        attrs.keep_dims = r.scalar<bool>(p.options, schema::reducer::keep_dims, false);
        break;
      }
      case op_kind::global_avg_pool:
      case op_kind::batch_norm:
      case op_kind::transpose:
      case op_kind::clip:
      case op_kind::batch_matmul:
      case op_kind::crop:
      case op_kind::paste:
        break;  // not produced by this frontend
    }
    if (failed() || take_reader_error()) return;

    node* n = add_node(p.kind, label, result);
    if (n == nullptr) return;
    n->attrs = attrs;
    n->inputs = inputs;
    n->input_count = input_count;
    if (!check_requantization(op, p, *n)) return;
    if (p.activation_node) {
      node* act = add_node(p.fused == activation_function::relu ? op_kind::relu : op_kind::relu6,
                           numbered(p.fused == activation_function::relu ? "relu" : "relu6", i), out);
      if (act == nullptr) return;
      act->inputs[0] = result;
      act->input_count = 1;
    }
  }

  // After a failed import: the graph inputs and outputs the file names, so that the failed module keeps
  // the model's interface (code that calls run() then adds no error to the import's).
  constexpr void keep_interface() {
    if (f.failed()) return;  // malformed bytes: the interface is unknown
    m.input_count = m.output_count = 0;
    for (std::uint32_t side = 0; side < 2; ++side) {
      const flatbuffers::vector& ids = side == 0 ? f.inputs() : f.outputs();
      for (std::uint32_t k = 0; k < ids.length && k < max_model_io; ++k) {
        const std::int32_t id = f.index_at(ids, k);
        if (f.failed() || id < 0 || id >= m.tensor_count) return;
        if (side == 0) {
          m.tensor_at(id).role = tensor_role::input;
          m.inputs[static_cast<std::size_t>(m.input_count++)] = id;
        } else {
          m.tensor_at(id).role = tensor_role::output;
          m.outputs[static_cast<std::size_t>(m.output_count++)] = id;
        }
      }
    }
  }

  constexpr void run(std::string_view model_name) {
    m.model_name = name{model_name};
    if (take_reader_error()) return;
    // Every tensor (the first problem is the one reported; the others still get their shape and type).
    const std::uint32_t tensors = f.tensor_count();
    for (std::uint32_t i = 0; i < tensors; ++i) import_tensor(i);
    m.tensor_count = static_cast<std::int32_t>(tensors);
    if (!failed()) import_inputs();
    for (std::uint32_t i = 0; i < f.operator_count() && !failed(); ++i) import_op(i);
    if (!failed()) import_outputs();
    take_reader_error();
    if (failed()) keep_interface();
  }
};

}  // namespace detail

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
    c.tensors += extra;
    c.nodes += extra;
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
  if (c.tensors == 0) c.tensors = 1;
  if (c.nodes == 0) c.nodes = 1;
  return c;
}

// Imports subgraph 0 of a TFLite file into a module of the given capacities (count() gives them).
template <std::size_t MaxTensors, std::size_t MaxNodes>
constexpr module<MaxTensors, MaxNodes> import(const char* bytes, std::size_t size, std::string_view model_name = "tflite") {
  module<MaxTensors, MaxNodes> m{};
  model_file f{bytes, size};
  if (!f.failed() && (f.tensor_count() > MaxTensors || f.operator_count() > MaxNodes)) {
    // Capacities smaller than count() says: a caller error, reported as too many inputs of the model.
    m.fail(diagnostic{error_code::too_many_inputs, -1, op_kind::conv2d, {}, {}, f.tensor_count(), MaxTensors});
    return m;
  }
  detail::importer<module<MaxTensors, MaxNodes>> run{f, m};
  run.run(model_name);
  return m;
}

}  // namespace ctnn::tflite
