#pragma once
// The TFLite importer's plan of each op (import.hpp): which IR op a builtin code becomes, where its options
// are, which nodes the import adds around it, and the bounds it checks values against (scales, windows).
// count() reads these alone.
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
#include <ctnn/ir/little_endian.hpp>
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
