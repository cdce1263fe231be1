#pragma once
// The ONNX importer's onnx_math family (import.hpp; rows in import_table.hpp), float32: the functions of one
// operand that one op kind serves through attributes (unary_function: Erf, Gelu, Softplus, Softsign, Selu,
// Celu, ThresholdedRelu, Sign, Tan, Sinh, Cosh, Asin, Acos, Atan, Asinh, Acosh, Atanh, Shrink, Mish), and of two
// (binary_function: Pow, Mod with fmod 1); Mean (add, then unary_function's divide); the
// normalizations over axes (layer_norm: LayerNormalization, InstanceNormalization, MeanVarianceNormalization,
// GroupNormalization); LRN (ops/lrn.hpp);
// GlobalMaxPool (reduce_max over the spatial axes) and Dropout at inference (the identity).
#include <bit>
#include <cstdint>

#include <ctnn/frontend/onnx/import_elementwise.hpp>
#include <ctnn/frontend/onnx/import_shape_ops.hpp>

namespace ctnn::onnx::detail {

// The math_function of a unary_function row's op_type (Erf: the fallback; Gelu: by its `approximate`, read
// by the caller).
constexpr math_function function_of(op_type t) {
  switch (t) {
    case op_type::Softplus: return math_function::softplus;
    case op_type::Softsign: return math_function::softsign;
    case op_type::Selu: return math_function::selu;
    case op_type::Celu: return math_function::celu;
    case op_type::ThresholdedRelu: return math_function::thresholded_relu;
    case op_type::Sign: return math_function::sign;
    case op_type::Tan: return math_function::tan;
    case op_type::Sinh: return math_function::sinh;
    case op_type::Cosh: return math_function::cosh;
    case op_type::Asin: return math_function::asin;
    case op_type::Acos: return math_function::acos;
    case op_type::Atan: return math_function::atan;
    case op_type::Asinh: return math_function::asinh;
    case op_type::Acosh: return math_function::acosh;
    case op_type::Atanh: return math_function::atanh;
    case op_type::Shrink: return math_function::shrink;
    case op_type::Gelu: return math_function::gelu;
    case op_type::Mish: return math_function::mish;
    default: return math_function::erf;
  }
}

// The unary_function rows: the function and its coefficients (ONNX's defaults: Selu alpha 1.67326319217681884765625,
// gamma 1.05070102214813232421875; Celu alpha 1, not 0 (x / alpha); ThresholdedRelu alpha 1; Shrink lambd 0.5,
// bias 0; Gelu approximate "none" or "tanh"), in the operand's layout. A constant operand becomes a constant
// tensor, which fold_constants computes at compile time.
template <class S>
constexpr void import_unary_function(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_float(s, o, 0)) return;
  activation_coefficients c{};
  c.function = function_of(s.current);
  const auto bits = [](float v) { return std::bit_cast<std::uint32_t>(v); };
  switch (c.function) {
    case math_function::selu:
      c.alpha_bits = bits(float_attribute(s, n, "alpha", 1.67326319217681884765625f));
      c.gamma_bits = bits(float_attribute(s, n, "gamma", 1.05070102214813232421875f));
      break;
    case math_function::celu:
    case math_function::thresholded_relu: c.alpha_bits = bits(float_attribute(s, n, "alpha", 1.0f)); break;
    case math_function::shrink:
      c.alpha_bits = bits(float_attribute(s, n, "lambd", 0.5f));
      c.beta_bits = bits(float_attribute(s, n, "bias", 0.0f));
      break;
    case math_function::gelu: {
      const std::string_view approximate = s.f.string_attribute(s.f.attribute(n, "approximate"), "none");
      if (s.take_reader_error()) return;
      if (approximate == "tanh") c.function = math_function::gelu_tanh;
      else if (approximate != "none") return s.string_attribute_error(n, "approximate", attribute::approximate);
      break;
    }
    default: break;
  }
  if (s.failed() || s.take_reader_error()) return;
  if (c.function == math_function::celu && c.alpha() == 0.0f) return s.attribute_error(attribute::alpha, 0);
  // A NaN or infinite coefficient has no meaning here (and its folded constant none in constant evaluation).
  const bool shrink = c.function == math_function::shrink;
  const struct {
    float value;
    attribute name;
  } coefficients[] = {{c.alpha(), shrink ? attribute::lambd : attribute::alpha}, {c.beta(), attribute::bias},
                      {c.gamma(), attribute::gamma}};
  for (const auto& k : coefficients)
    if (k.value - k.value != 0.0f) return s.attribute_error(k.name, millionths(k.value));
  op_attributes a{};
  a.coefficients = c;
  unary_of(s, o.id[0], result, s.current_kind, false, a);
}

// Pow (an exponent of float32: a constant or a tensor, broadcast) and Mod (fmod 1: float32's only form; an
// integer Mod is refused): the row's kind (binary_function) with the function, in the layout import_binary
// picks.
template <class S>
constexpr void import_binary_function(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 2, 2) || !expect_float(s, o, 0) || !expect_float(s, o, 1)) return;
  op_attributes a{};
  a.coefficients.function = s.current == op_type::Pow ? math_function::pow : math_function::fmod;
  if (s.current == op_type::Mod) {
    const std::int64_t fmod = int_attribute(s, n, "fmod", 0);
    if (s.failed() || s.take_reader_error()) return;
    if (fmod != 1) return s.attribute_error(attribute::fmod, fmod);  // ONNX: floats need fmod 1
  }
  binary_nodes(s, o, result, a, [](std::int32_t folded) { return folded; });
}

// Mean: the sum of its float32 operands (the row's kind, add, folded left, broadcast) divided by their count
// (unary_function divide); of one operand, the identity.
template <class S>
constexpr void import_mean(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, max_node_inputs)) return;
  for (std::uint32_t slot = 0; slot < o.count; ++slot)
    if (o.id[slot] < 0 || !expect_float(s, o, slot)) return o.id[slot] < 0 ? s.operand_error(slot) : void();
  if (o.count == 1) return import_extremum(s, n, o, result);
  op_attributes divide{};
  divide.coefficients.function = math_function::divide;
  // The node's operand count: a Mean of more than max_node_inputs reaches here with the Sum of the first ones
  // as an operand (import_wide).
  divide.coefficients.alpha_bits = std::bit_cast<std::uint32_t>(static_cast<float>(n.input_count));
  binary_nodes(s, o, result, {}, [&](std::int32_t sum) {
    return s.add_node(op_kind::unary_function, divide, {sum}, s.label_of(result));
  });
}

// LayerNormalization's Mean and InvStdDev outputs (values result + 1 and + 2), when named: the mean over the
// normalised axes (kept as extent 1) and 1 / sqrt(variance + epsilon), the variance the mean of (x - mean)^2
// (mean, sub, mul, mean, unary_function inverse_sqrt). False after a diagnostic.
template <class S>
constexpr bool layer_norm_statistics(S& s, const node_view& n, std::int32_t x, std::int32_t result, const op_attributes& a) {
  const bool mean_used = n.output_count > 1 && s.f.output_name(n, 1).length > 0;
  const bool inv_std_dev_used = n.output_count > 2 && s.f.output_name(n, 2).length > 0;
  if (s.take_reader_error()) return false;
  if (!mean_used && !inv_std_dev_used) return true;
  op_attributes reduce{};
  reduce.mean.reduce_axes = a.mean.reduce_axes;
  reduce.keep_dims = true;
  const auto label = [&](std::size_t k) { return numbered("layer_norm_statistic", static_cast<std::size_t>(s.node_index) * 4 + k); };
  const std::int32_t mean = s.add_node(op_kind::mean, reduce, {x}, mean_used ? s.label_of(result + 1) : label(0));
  if (s.failed()) return false;
  if (mean_used) define(s, result + 1, mean, false);
  if (!inv_std_dev_used) return !s.failed();
  const std::int32_t centred = s.add_node(op_kind::sub, {}, {x, mean}, label(1));
  const std::int32_t squared = s.add_node(op_kind::mul, {}, {centred, centred}, label(2));
  const std::int32_t variance = s.add_node(op_kind::mean, reduce, {squared}, label(3));
  op_attributes inverse{};
  inverse.coefficients.function = math_function::inverse_sqrt;
  inverse.coefficients.alpha_bits = a.norm.epsilon_bits;
  const std::int32_t inv_std_dev = s.add_node(op_kind::unary_function, inverse, {variance}, s.label_of(result + 2));
  if (s.failed()) return false;
  define(s, result + 2, inv_std_dev, false);
  return true;
}

// LayerNormalization (axis, default -1: the axes from it to the last are normalised; epsilon 1e-5; Scale,
// optional B, broadcast to X; stash_type not read: the statistics are computed in double), InstanceNormalization (the axes after the channels; scale and B per channel,
// read as [C, 1, ...]), MeanVarianceNormalization (axes, default [0, 2, 3]; epsilon 1e-9, no scale): a
// layer_norm in X's ONNX layout; LayerNormalization's Mean and InvStdDev when named (layer_norm_statistics).
template <class S>
constexpr void import_normalization(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool layer = s.current == op_type::LayerNormalization, instance = s.current == op_type::InstanceNormalization;
  if (!expect_inputs(s, o, layer ? 2 : instance ? 3 : 1, layer || instance ? 3 : 1) || !expect_activation(s, o, 0) ||
      !expect_float(s, o, 0))
    return;
  const shape xs = onnx_shape(s, o.id[0]);
  if (s.failed()) return;
  std::uint32_t mask = 0;
  float epsilon = 1e-5f;
  if (layer) {
    const std::int64_t axis = int_attribute(s, n, "axis", -1);
    if (s.failed() || s.take_reader_error()) return;
    if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
    for (std::int32_t d = static_cast<std::int32_t>(axis < 0 ? axis + xs.rank : axis); d < xs.rank; ++d) mask |= 1u << d;
  } else if (instance) {
    if (xs.rank < 3) return s.rank_error(0, xs);
    for (std::int32_t d = 2; d < xs.rank; ++d) mask |= 1u << d;
  } else {
    epsilon = 1e-9f;
    const attribute_view axes = s.f.attribute(n, "axes");
    const std::uint32_t count = axes.present() ? s.f.ints_count(axes) : 0;
    if (s.take_reader_error()) return;
    if (!axes.present()) {
      if (xs.rank != 4) return s.rank_error(0, xs);
      mask = 0b1101u;
    }
    for (std::uint32_t k = 0; k < count; ++k) {
      const std::int64_t axis = s.f.ints_at(axes, k);
      if (s.take_reader_error()) return;
      if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
      mask |= 1u << (axis < 0 ? axis + xs.rank : axis);
    }
  }
  if (layer || instance) epsilon = float_attribute(s, n, "epsilon", epsilon);
  if (s.failed() || s.take_reader_error()) return;
  if (!(epsilon >= 0.0f && epsilon - epsilon == 0.0f)) return s.attribute_error(attribute::epsilon, millionths(epsilon));
  op_attributes a{};
  a.mean.reduce_axes = mask;
  a.norm.epsilon_bits = std::bit_cast<std::uint32_t>(epsilon);
  std::int32_t inputs[3] = {as_onnx(s, o.id[0], 0), -1, -1};
  std::int32_t count = 1;
  for (std::uint32_t slot = 1; slot < o.count && slot < 3; ++slot) {
    if (o.id[slot] < 0) continue;
    if (!expect_float(s, o, slot)) return;
    std::int32_t operand = as_onnx(s, o.id[slot], slot);
    if (s.failed()) return;
    if (instance) {  // per channel: [C] as [C, 1, ...] against [N, C, ...]
      const shape cs = onnx_shape(s, o.id[slot]);
      if (cs.rank != 1 || cs[0] != xs[1]) return s.rank_error(slot, cs);
      shape per_channel = make_shape(cs[0]);
      for (std::int32_t d = 2; d < xs.rank; ++d) per_channel.dims[static_cast<std::size_t>(per_channel.rank++)] = 1;
      operand = s.reshape(operand, per_channel, numbered("per_channel", static_cast<std::size_t>(s.node_index) * 4 + slot));
    }
    inputs[count++] = operand;
  }
  if (s.failed()) return;
  if (layer && !layer_norm_statistics(s, n, inputs[0], result, a)) return;
  const std::int32_t y = count == 1   ? s.add_node(s.current_kind, a, {inputs[0]}, s.label_of(result))
                         : count == 2 ? s.add_node(s.current_kind, a, {inputs[0], inputs[1]}, s.label_of(result))
                                      : s.add_node(s.current_kind, a, {inputs[0], inputs[1], inputs[2]}, s.label_of(result));
  define(s, result, y, false);
}

// GroupNormalization (opset 18: scale and bias per group, [G]; opset 21: per channel, [C]; epsilon 1e-5;
// stash_type not read: the statistics are computed in double): X [N, C, D1, ...] viewed as [N, G, C / G, D1 *
// ...], one layer_norm over its last two axes with the scale and bias viewed as [G, 1, 1] or [G, C / G, 1]
// (broadcast), viewed back as X's shape.
template <class S>
constexpr void import_group_normalization(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 3, 3) || !expect_activation(s, o, 0) || !expect_float(s, o, 0) || !expect_float(s, o, 1) ||
      !expect_float(s, o, 2))
    return;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t groups = int_attribute(s, n, "num_groups", 0);
  const float epsilon = float_attribute(s, n, "epsilon", 1e-5f);
  if (s.failed() || s.take_reader_error()) return;
  if (xs.rank < 2) return s.rank_error(0, xs);
  const std::int32_t channels = xs[1];
  if (groups < 1 || groups > channels || channels % groups != 0) return s.attribute_error(attribute::num_groups, groups);
  if (!(epsilon >= 0.0f && epsilon - epsilon == 0.0f)) return s.attribute_error(attribute::epsilon, millionths(epsilon));
  const auto g = static_cast<std::int32_t>(groups);
  std::int32_t rest = 1;
  for (std::int32_t d = 2; d < xs.rank; ++d) rest *= xs[d];
  const bool per_channel = s.f.opset() >= 21;
  const shape operand_shape = per_channel ? make_shape(g, channels / g, 1) : make_shape(g, 1, 1);
  const auto label = [&](std::size_t k) { return numbered("group_norm", static_cast<std::size_t>(s.node_index) * 4 + k); };
  std::int32_t inputs[3] = {s.reshape(as_onnx(s, o.id[0], 0), make_shape(xs[0], g, channels / g, rest), label(0)), -1, -1};
  for (std::uint32_t slot = 1; slot < 3 && !s.failed(); ++slot) {
    const shape given = onnx_shape(s, o.id[slot]);
    if (given.rank != 1 || given[0] != (per_channel ? channels : g)) return s.rank_error(slot, given);
    inputs[slot] = s.reshape(as_onnx(s, o.id[slot], slot), operand_shape, label(slot));
  }
  if (s.failed()) return;
  op_attributes a{};
  a.mean.reduce_axes = 0b1100u;
  a.norm.epsilon_bits = std::bit_cast<std::uint32_t>(epsilon);
  define_reshaped(s, result, s.add_node(s.current_kind, a, {inputs[0], inputs[1], inputs[2]}, label(3)), xs);
}

// LRN (float32, rank >= 3: [N, C, D1, ...]): `size` (required, >= 1), alpha (1e-4), beta (0.75), bias (1), finite:
// an lrn node (ops/lrn.hpp) in X's ONNX layout.
template <class S>
constexpr void import_lrn(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_activation(s, o, 0) || !expect_float(s, o, 0)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t size = int_attribute(s, n, "size", 0);
  const float alpha = float_attribute(s, n, "alpha", 1e-4f), beta = float_attribute(s, n, "beta", 0.75f);
  const float bias = float_attribute(s, n, "bias", 1.0f);
  if (s.failed() || s.take_reader_error()) return;
  if (xs.rank < 3) return s.rank_error(0, xs);
  if (size < 1 || size > (std::int64_t{1} << 24)) return s.attribute_error(attribute::size, size);
  const struct {
    float value;
    attribute name;
  } coefficients[] = {{alpha, attribute::alpha}, {beta, attribute::beta}, {bias, attribute::bias}};
  for (const auto& k : coefficients)
    if (k.value - k.value != 0.0f) return s.attribute_error(k.name, millionths(k.value));
  op_attributes a{};
  a.set(lrn_fields{static_cast<std::int32_t>(size), std::bit_cast<std::uint32_t>(alpha), std::bit_cast<std::uint32_t>(beta),
                   std::bit_cast<std::uint32_t>(bias)});
  define(s, result, s.add_node(s.current_kind, a, {as_onnx(s, o.id[0], 0)}, s.label_of(result)), false);
}

// GlobalMaxPool: the largest over the spatial axes (2 and on), kept as extent 1: the row's kind (reduce_max)
// in the ONNX layout.
template <class S>
constexpr void import_global_max_pool(S& s, const node_view&, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_activation(s, o, 0) || !expect_float(s, o, 0)) return;
  const shape xs = onnx_shape(s, o.id[0]);
  if (s.failed()) return;
  if (xs.rank < 3) return s.rank_error(0, xs);
  op_attributes a{};
  for (std::int32_t d = 2; d < xs.rank; ++d) a.mean.reduce_axes |= 1u << d;
  a.keep_dims = true;
  define(s, result, s.add_node(s.current_kind, a, {as_onnx(s, o.id[0], 0)}, s.label_of(result)), false);
}

// A BOOL (or integer) constant's one element, read at import: -1 after a diagnostic naming operand `slot`.
template <class S>
constexpr std::int32_t constant_flag(S& s, std::int32_t v, std::uint32_t slot) {
  const tensor_view t = s.f.read_tensor(s.at(v).proto);
  if (s.take_reader_error() || !s.checked_tensor(v, t)) return -1;
  if (t.type != data_type::bool_ || t.dims.elements() != 1) return s.operand_error(slot), -1;
  if (t.data_field == schema::tensor::raw_data) {
    if (t.data.length != 1) return s.malformed(t.proto.at, protobuf::expectation::tensor_data), -1;
    return s.f.reader().byte(t.data.at) != 0 ? 1 : 0;
  }
  const std::uint32_t stored = s.f.reader().repeated_count(t.proto, schema::tensor::int32_data, protobuf::wire::varint);
  if (s.take_reader_error()) return -1;
  if (stored != 1) return s.malformed(t.proto.at, protobuf::expectation::tensor_data), -1;
  const auto flag = s.f.reader().repeated_at(t.proto, schema::tensor::int32_data, protobuf::wire::varint, 0);
  if (s.take_reader_error()) return -1;
  return flag != 0 ? 1 : 0;
}

// Dropout at inference: the identity. Its ratio is not read (nor opset 6's is_test: an inference runs the
// identity, as onnxruntime does); training_mode (opset 12 on: an operand) must be a constant false, or true
// with a constant ratio of 0; the mask output (named) is refused by the driver's output count.
template <class S>
constexpr void import_dropout(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 3)) return;
  if (o.count > 2 && o.id[2] >= 0) {
    if (!expect_constant(s, o, 2)) return;
    const std::int32_t training = constant_flag(s, o.id[2], 2);
    if (training < 0) return;
    // Training with a ratio of 0 drops nothing (the identity too); with another ratio, or the default 0.5, it
    // would draw random masks.
    const bool drops_nothing = o.id[1] >= 0 && s.is_constant(o.id[1]) && constant_scalar(s, o.id[1], 1) == 0.0f;
    if (s.failed()) return;
    if (training > 0 && !drops_nothing) return s.operand_value_error(2, 0, std::int64_t{1});
  }
  if (s.failed()) return;
  operands data = o;
  data.count = 1;
  import_identity(s, n, data, result);
}

}  // namespace ctnn::onnx::detail
