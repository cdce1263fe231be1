#pragma once
// The ONNX schema subset ctnn reads (onnx.proto, proto2, package onnx; ../shared/FORMATS.md §3 has the
// field numbers), on top of the constexpr protobuf reader: enums, field numbers, and views of a model
// file's messages that check what they hand out.
//
//   onnx::model_file f{bytes, size};        // ModelProto: ir_version, the default-domain opset, the graph
//   f.graph()                               // the GraphProto's span; iterate it with f.reader().next(...)
//   f.read_node(span) / f.read_tensor(span) / f.read_value_info(span) / f.attribute(node, "pads")
//   f.failed(), f.error()                   // the first problem: byte offset + protobuf::expectation
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn::onnx {

// The operators of the default domain (ai.onnx), by their ONNX names; `unknown` for any other name or
// domain. Diagnostics carry one (ctnn::onnx::op_type::Sub in a compile error).
#define CTNN_ONNX_OP_TYPES(X)                                                                                        \
  X(Abs) X(Acos) X(Acosh) X(Add) X(AffineGrid) X(And) X(ArgMax) X(ArgMin) X(Asin) X(Asinh) X(Atan) X(Atanh)         \
  X(Attention) X(AveragePool) X(BatchNormalization) X(Bernoulli) X(BitShift) X(BitwiseAnd) X(BitwiseNot)            \
  X(BitwiseOr) X(BitwiseXor) X(BlackmanWindow) X(Cast) X(CastLike) X(Ceil) X(Celu) X(CenterCropPad) X(Clip)         \
  X(Col2Im) X(Compress) X(Concat) X(ConcatFromSequence) X(Constant) X(ConstantOfShape) X(Conv) X(ConvInteger)       \
  X(ConvTranspose) X(Cos) X(Cosh) X(CumSum) X(DFT) X(DeformConv) X(DepthToSpace) X(DequantizeLinear) X(Det) X(Div)  \
  X(Dropout) X(DynamicQuantizeLinear) X(Einsum) X(Elu) X(Equal) X(Erf) X(Exp) X(Expand) X(EyeLike) X(Flatten)       \
  X(Floor) X(GRU) X(Gather) X(GatherElements) X(GatherND) X(Gelu) X(Gemm) X(GlobalAveragePool) X(GlobalLpPool)      \
  X(GlobalMaxPool) X(Greater) X(GreaterOrEqual) X(GridSample) X(GroupNormalization) X(HammingWindow) X(HannWindow)  \
  X(HardSigmoid) X(HardSwish) X(Hardmax) X(Identity) X(If) X(ImageDecoder) X(InstanceNormalization) X(IsInf)        \
  X(IsNaN) X(LRN) X(LSTM) X(LayerNormalization) X(LeakyRelu) X(Less) X(LessOrEqual) X(Log) X(LogSoftmax) X(Loop)    \
  X(LpNormalization) X(LpPool) X(MatMul) X(MatMulInteger) X(Max) X(MaxPool) X(MaxRoiPool) X(MaxUnpool) X(Mean)     \
  X(MeanVarianceNormalization) X(MelWeightMatrix) X(Min) X(Mish) X(Mod) X(Mul) X(Multinomial) X(Neg)                \
  X(NegativeLogLikelihoodLoss) X(NonMaxSuppression) X(NonZero) X(Not) X(OneHot) X(Optional) X(OptionalGetElement)   \
  X(OptionalHasElement) X(Or) X(PRelu) X(Pad) X(Pow) X(QLinearConv) X(QLinearMatMul) X(QuantizeLinear) X(RNN)       \
  X(RandomNormal) X(RandomNormalLike) X(RandomUniform) X(RandomUniformLike) X(Range) X(Reciprocal) X(ReduceL1)      \
  X(ReduceL2) X(ReduceLogSum) X(ReduceLogSumExp) X(ReduceMax) X(ReduceMean) X(ReduceMin) X(ReduceProd) X(ReduceSum) \
  X(ReduceSumSquare) X(RegexFullMatch) X(Relu) X(Reshape) X(Resize) X(ReverseSequence) X(RoiAlign)                  \
  X(RotaryEmbedding) X(Round) X(STFT) X(Scan) X(Scatter) X(ScatterElements) X(ScatterND) X(Selu) X(SequenceAt)      \
  X(SequenceConstruct) X(SequenceEmpty) X(SequenceErase) X(SequenceInsert) X(SequenceLength) X(SequenceMap)         \
  X(Shape) X(Shrink) X(Sigmoid) X(Sign) X(Sin) X(Sinh) X(Size) X(Slice) X(Softmax) X(SoftmaxCrossEntropyLoss)       \
  X(Softplus) X(Softsign) X(SpaceToDepth) X(Split) X(SplitToSequence) X(Sqrt) X(Squeeze) X(StringConcat)            \
  X(StringNormalizer) X(StringSplit) X(Sub) X(Sum) X(Tan) X(Tanh) X(TfIdfVectorizer) X(ThresholdedRelu) X(Tile)     \
  X(TopK) X(Transpose) X(Trilu) X(Unique) X(Unsqueeze) X(Upsample) X(Where) X(Xor)

#define CTNN_ONNX_ENUMERATOR(name) name,
#define CTNN_ONNX_NAME(name) #name,
enum class op_type : std::int32_t { unknown, CTNN_ONNX_OP_TYPES(CTNN_ONNX_ENUMERATOR) };
namespace detail {
inline constexpr std::array op_type_names{"", CTNN_ONNX_OP_TYPES(CTNN_ONNX_NAME)};
}  // namespace detail
#undef CTNN_ONNX_NAME
#undef CTNN_ONNX_ENUMERATOR
#undef CTNN_ONNX_OP_TYPES

inline constexpr auto op_type_count = static_cast<std::int32_t>(detail::op_type_names.size());

constexpr std::string_view name_of(op_type t) {
  const auto i = static_cast<std::int32_t>(t);
  return i > 0 && i < op_type_count ? std::string_view{detail::op_type_names[static_cast<std::size_t>(i)]} : std::string_view{};
}

// The op_type of a default-domain name ("Conv"), or unknown (a binary search over the sorted names).
constexpr op_type op_type_of(std::string_view name) {
  std::int32_t low = 1, high = op_type_count;
  while (low < high) {
    const std::int32_t mid = (low + high) / 2;
    const std::string_view here{detail::op_type_names[static_cast<std::size_t>(mid)]};
    if (here == name) return static_cast<op_type>(mid);
    if (here < name) low = mid + 1;
    else high = mid;
  }
  return op_type::unknown;
}

// TensorProto.DataType.
enum class data_type : std::int32_t {
  undefined = 0, float32 = 1, uint8 = 2, int8 = 3, uint16 = 4, int16 = 5, int32 = 6, int64 = 7, string = 8,
  bool_ = 9, float16 = 10, float64 = 11, uint32 = 12, uint64 = 13, complex64 = 14, complex128 = 15, bfloat16 = 16,
  float8e4m3fn = 17, float8e4m3fnuz = 18, float8e5m2 = 19, float8e5m2fnuz = 20, uint4 = 21, int4 = 22,
  float4e2m1 = 23, float8e8m0 = 24, uint2 = 25, int2 = 26,
};

constexpr std::string_view name_of(data_type t) {
  constexpr std::array<std::string_view, 28> names{
      "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL", "FLOAT16",
      "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ",
      "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2"};
  const auto i = static_cast<std::int32_t>(t);
  return i >= 0 && i < 27 ? names[static_cast<std::size_t>(i)] : std::string_view{};
}

// Bytes per element of the fixed-width types ctnn reads (0 for the others).
constexpr std::uint32_t element_bytes(data_type t) {
  switch (t) {
    case data_type::float32: case data_type::int32: return 4;
    case data_type::int64: return 8;
    case data_type::uint8: case data_type::int8: case data_type::bool_: return 1;
    default: return 0;
  }
}

// AttributeProto.AttributeType.
enum class attribute_type : std::int32_t {
  undefined = 0, float_ = 1, int_ = 2, string = 3, tensor = 4, graph = 5, floats = 6, ints = 7, strings = 8,
  tensors = 9, graphs = 10, sparse_tensor = 11, sparse_tensors = 12, type_proto = 13, type_protos = 14,
};

// The attributes (and attribute-like operands) whose values ctnn checks; diagnostics name one.
enum class attribute : std::int32_t {
  none, auto_pad, ceil_mode, count_include_pad, dilations, group, kernel_shape, pads, strides, alpha, beta, transA,
  transB, axis, mode, allowzero, min, max, epsilon, spatial, training_mode, value, broadcast, storage_order, perm,
  block_size, shape, axes, starts, ends, steps, split, num_outputs, blocksize, to, coordinate_transformation_mode,
  nearest_mode, antialias, exclude_outside, keep_aspect_ratio_policy, scales, sizes, p,
  hidden_size, direction, layout, clip, input_forget, linear_before_reset, activations, activation_alpha, activation_beta,
  output_padding, output_shape, batch_dims, reduction, exclusive, reverse, batch_axis, time_axis,
  approximate, lambd, fmod, gamma, bias,
  k, largest, sorted, size, num_groups, stash_type, equation,
};

constexpr std::string_view name_of(attribute a) {
  constexpr std::array<std::string_view, 72> names{
      "none", "auto_pad", "ceil_mode", "count_include_pad", "dilations", "group", "kernel_shape", "pads", "strides",
      "alpha", "beta", "transA", "transB", "axis", "mode", "allowzero", "min", "max", "epsilon", "spatial",
      "training_mode", "value", "broadcast", "storage_order", "perm", "block_size", "shape", "axes", "starts",
      "ends", "steps", "split", "num_outputs", "blocksize", "to", "coordinate_transformation_mode", "nearest_mode",
      "antialias", "exclude_outside", "keep_aspect_ratio_policy", "scales", "sizes", "p",
      "hidden_size", "direction", "layout", "clip", "input_forget", "linear_before_reset", "activations",
      "activation_alpha", "activation_beta", "output_padding", "output_shape", "batch_dims", "reduction", "exclusive",
      "reverse", "batch_axis", "time_axis", "approximate", "lambd", "fmod", "gamma", "bias",
      "k", "largest", "sorted", "size", "num_groups", "stash_type", "equation"};
  const auto i = static_cast<std::int32_t>(a);
  return i >= 0 && i < static_cast<std::int32_t>(names.size()) ? names[static_cast<std::size_t>(i)] : std::string_view{};
}

namespace schema {
// Field numbers (onnx.proto).
namespace model { inline constexpr std::uint32_t ir_version = 1, graph = 7, opset_import = 8; }
namespace opset { inline constexpr std::uint32_t domain = 1, version = 2; }
namespace graph {
inline constexpr std::uint32_t node = 1, name = 2, initializer = 5, input = 11, output = 12, value_info = 13,
                               sparse_initializer = 15;
}
namespace node { inline constexpr std::uint32_t input = 1, output = 2, name = 3, op_type = 4, attribute = 5, domain = 7; }
namespace attribute {
inline constexpr std::uint32_t name = 1, f = 2, i = 3, s = 4, t = 5, g = 6, floats = 7, ints = 8, strings = 9, type = 20;
}
namespace tensor {
inline constexpr std::uint32_t dims = 1, data_type = 2, segment = 3, float_data = 4, int32_data = 5, int64_data = 7,
                               name = 8, raw_data = 9, double_data = 10, uint64_data = 11, external_data = 13,
                               data_location = 14;
}
namespace value_info { inline constexpr std::uint32_t name = 1, type = 2; }
namespace type_proto { inline constexpr std::uint32_t tensor_type = 1; }
namespace tensor_type { inline constexpr std::uint32_t elem_type = 1, shape = 2; }
namespace shape_proto { inline constexpr std::uint32_t dim = 1; }
namespace dimension { inline constexpr std::uint32_t dim_value = 1, dim_param = 2; }
}  // namespace schema

// A TensorProto: its dims (ONNX order), type, name, and where its values are.
struct tensor_view {
  protobuf::span proto{};
  data_type type = data_type::undefined;
  shape dims{};               // rank up to ctnn::max_rank; extents checked below 2^31
  std::uint32_t rank = 0;     // the stored rank (may exceed max_rank)
  protobuf::span name{};
  protobuf::span data{};      // raw_data, or a packed float_data / int32_data / int64_data payload
  std::uint32_t data_field = 0;  // the field `data` came from (schema::tensor::raw_data, float_data, ...)
  std::uint32_t unpacked = 0;    // values of the typed field written one record each (not packed)
  bool external = false;      // data_location EXTERNAL or external_data present
  bool segmented = false;
};

// A NodeProto: op type, domain, name, and its operand and result counts.
struct node_view {
  protobuf::span proto{};
  protobuf::span op_type_name{};
  protobuf::span domain{};
  protobuf::span name{};
  std::uint32_t input_count = 0;
  std::uint32_t output_count = 0;
  op_type type = op_type::unknown;  // unknown also for other domains
};

// An attribute of a node, found by name.
struct attribute_view {
  protobuf::span proto{};  // empty: absent
  attribute_type type = attribute_type::undefined;
  std::uint32_t tag_at = 0;
  constexpr bool present() const { return !proto.empty(); }
};

// A ValueInfoProto of a tensor: name, element type and shape (-1: a symbolic or unknown extent).
struct value_info_view {
  protobuf::span name{};
  data_type type = data_type::undefined;
  bool has_shape = false;
  shape dims{};
  std::uint32_t rank = 0;
  std::array<protobuf::span, max_rank> dim_names{};  // each dim's dim_param (empty: none)
};

class model_file {
 public:
  constexpr model_file(const char* bytes, std::size_t size) : reader_(bytes, size) {
    const protobuf::span model = reader_.whole();
    protobuf::field f{};
    for (std::uint32_t at = model.at; reader_.next(model, at, f);) {
      if (f.number == schema::model::ir_version && f.type == protobuf::wire::varint) ir_version_ = static_cast<std::int64_t>(f.value);
      else if (f.number == schema::model::graph && f.type == protobuf::wire::len) graph_ = f.bytes, has_graph_ = true;
      else if (f.number == schema::model::opset_import && f.type == protobuf::wire::len) read_opset(f.bytes);
      else if (f.number == schema::model::graph || f.number == schema::model::opset_import) reader_.fail(f.tag_at, protobuf::expectation::wire_type);
    }
    if (!reader_.failed() && !has_graph_) reader_.fail(0, protobuf::expectation::graph);
  }

  constexpr bool failed() const { return reader_.failed(); }
  constexpr const protobuf::error& error() const { return reader_.error(); }
  constexpr protobuf::reader& reader() { return reader_; }
  constexpr const protobuf::reader& reader() const { return reader_; }

  constexpr std::int64_t ir_version() const { return ir_version_; }
  // The opset of the default domain ("" or "ai.onnx"); models without opset_import (IR < 3) are opset 1.
  constexpr std::int64_t opset() const { return opset_; }
  constexpr const protobuf::span& graph() const { return graph_; }

  constexpr tensor_view read_tensor(const protobuf::span& proto) {
    tensor_view t{};
    t.proto = proto;
    protobuf::field f{};
    std::uint32_t typed_field = 0;
    for (std::uint32_t at = proto.at; reader_.next(proto, at, f);) {
      namespace s = schema::tensor;
      switch (f.number) {
        case s::dims: {
          const auto values = f.type == protobuf::wire::len ? reader_.packed_count(f.bytes, protobuf::wire::varint) : 1u;
          for (std::uint32_t k = 0; k < values && !reader_.failed(); ++k) {
            const std::uint64_t extent = f.type == protobuf::wire::len ? reader_.packed_at(f.bytes, protobuf::wire::varint, k) : f.value;
            if (extent >= 0x80000000u) return reader_.fail(f.tag_at, protobuf::expectation::tensor_size), t;
            if (t.rank < max_rank) t.dims.dims[t.rank] = static_cast<std::int32_t>(extent);
            ++t.rank;
          }
          break;
        }
        case s::data_type: t.type = static_cast<data_type>(static_cast<std::int32_t>(f.value)); break;
        case s::name: t.name = f.bytes; break;
        case s::raw_data:
          if (f.type != protobuf::wire::len) return reader_.fail(f.tag_at, protobuf::expectation::wire_type), t;
          t.data = f.bytes;
          t.data_field = s::raw_data;
          break;
        case s::float_data:
        case s::int32_data:
        case s::int64_data:
        case s::double_data:
        case s::uint64_data:
          typed_field = f.number;
          if (f.type == protobuf::wire::len) {
            if (t.data_field != s::raw_data) t.data = f.bytes, t.data_field = f.number;
          } else {
            ++t.unpacked;
          }
          break;
        case s::segment: t.segmented = true; break;
        case s::external_data: t.external = true; break;
        case s::data_location: t.external = t.external || f.value == 1; break;
        default: break;
      }
    }
    if (t.data_field == 0 && typed_field != 0) t.data_field = typed_field;  // unpacked values only
    t.dims.rank = static_cast<std::int32_t>(t.rank < max_rank ? t.rank : max_rank);
    // More than 2^40 elements is no tensor ctnn reads (a fuzzed file's dims): refused here, so that no
    // importer multiplies such extents past int64 (shape::elements; issue #23). An empty one stays.
    constexpr std::int64_t most_elements = std::int64_t{1} << 40;
    std::int64_t elements = 1;
    bool too_large = false;
    for (std::int32_t d = 0; d < t.dims.rank; ++d) {
      const std::int64_t extent = t.dims[d];
      if (extent == 0) return t;
      too_large = too_large || elements > most_elements / extent;
      if (!too_large) elements *= extent;
    }
    if (too_large) {  // callers read the dims before they see the failure: give them none
      reader_.fail(proto.at, protobuf::expectation::tensor_size);
      t.dims = shape{};
      t.rank = 0;
    }
    return t;
  }

  constexpr node_view read_node(const protobuf::span& proto) {
    node_view n{};
    n.proto = proto;
    protobuf::field f{};
    for (std::uint32_t at = proto.at; reader_.next(proto, at, f);) {
      namespace s = schema::node;
      if (f.number == s::input) ++n.input_count;
      else if (f.number == s::output) ++n.output_count;
      else if (f.number == s::op_type) n.op_type_name = f.bytes;
      else if (f.number == s::domain) n.domain = f.bytes;
      else if (f.number == s::name) n.name = f.bytes;
    }
    const std::string_view domain = reader_.view(n.domain);
    n.type = domain.empty() || domain == "ai.onnx" ? op_type_of(reader_.view(n.op_type_name)) : op_type::unknown;
    return n;
  }

  // Operand k (field `input`) or result k (field `output`) of a node: the value's name.
  constexpr protobuf::span node_name(const node_view& n, std::uint32_t number, std::uint32_t k) {
    std::uint32_t i = 0;
    protobuf::field f{};
    for (std::uint32_t at = n.proto.at; reader_.next(n.proto, at, f);) {
      if (f.number != number) continue;
      if (f.type != protobuf::wire::len) return reader_.fail(f.tag_at, protobuf::expectation::wire_type), protobuf::span{};
      if (i++ == k) return f.bytes;
    }
    return {};
  }
  constexpr protobuf::span input_name(const node_view& n, std::uint32_t k) { return node_name(n, schema::node::input, k); }
  constexpr protobuf::span output_name(const node_view& n, std::uint32_t k) { return node_name(n, schema::node::output, k); }

  // The node's attribute called `name` (the last one, as for any repeated-then-singular lookup).
  constexpr attribute_view attribute(const node_view& n, std::string_view name) {
    attribute_view found{};
    protobuf::field f{};
    for (std::uint32_t at = n.proto.at; reader_.next(n.proto, at, f);) {
      if (f.number != schema::node::attribute || f.type != protobuf::wire::len) continue;
      const protobuf::field label = reader_.last(f.bytes, schema::attribute::name);
      if (!reader_.equals(label.bytes, name)) continue;
      found.proto = f.bytes;
      found.tag_at = f.tag_at;
      found.type = static_cast<attribute_type>(reader_.int_field(f.bytes, schema::attribute::type, 0));
    }
    return found;
  }

  // Typed attribute values; an attribute of another type is a failure at its tag.
  constexpr bool expect_type(const attribute_view& a, attribute_type type) {
    if (!a.present()) return false;
    // IR 1 had no `type`: the value field decides.
    if (a.type == type || a.type == attribute_type::undefined) return true;
    reader_.fail(a.tag_at, protobuf::expectation::attribute_type);
    return false;
  }
  constexpr std::int64_t int_attribute(const attribute_view& a, std::int64_t fallback) {
    return expect_type(a, attribute_type::int_) ? reader_.int_field(a.proto, schema::attribute::i, 0) : fallback;
  }
  constexpr float float_attribute(const attribute_view& a, float fallback) {
    return expect_type(a, attribute_type::float_) ? reader_.float_field(a.proto, schema::attribute::f, 0.0f) : fallback;
  }
  constexpr std::string_view string_attribute(const attribute_view& a, std::string_view fallback) {
    return expect_type(a, attribute_type::string) ? reader_.view(reader_.message_field(a.proto, schema::attribute::s)) : fallback;
  }
  constexpr std::uint32_t ints_count(const attribute_view& a) {
    return expect_type(a, attribute_type::ints) ? reader_.repeated_count(a.proto, schema::attribute::ints, protobuf::wire::varint) : 0;
  }
  constexpr std::int64_t ints_at(const attribute_view& a, std::uint32_t k) {
    return static_cast<std::int64_t>(reader_.repeated_at(a.proto, schema::attribute::ints, protobuf::wire::varint, k));
  }
  constexpr std::uint32_t floats_count(const attribute_view& a) {
    return expect_type(a, attribute_type::floats) ? reader_.repeated_count(a.proto, schema::attribute::floats, protobuf::wire::i32) : 0;
  }
  constexpr float floats_at(const attribute_view& a, std::uint32_t k) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(reader_.repeated_at(a.proto, schema::attribute::floats, protobuf::wire::i32, k)));
  }
  constexpr protobuf::span tensor_attribute(const attribute_view& a) {
    return expect_type(a, attribute_type::tensor) ? reader_.message_field(a.proto, schema::attribute::t) : protobuf::span{};
  }

  // A ValueInfoProto (graph input or output): name, element type and shape.
  constexpr value_info_view read_value_info(const protobuf::span& proto) {
    value_info_view v{};
    v.name = reader_.message_field(proto, schema::value_info::name);
    const protobuf::span type = reader_.message_field(proto, schema::value_info::type);
    const protobuf::field tensor = reader_.last(type, schema::type_proto::tensor_type);
    if (!tensor.present() || tensor.type != protobuf::wire::len) return v;
    v.type = static_cast<data_type>(static_cast<std::int32_t>(reader_.int_field(tensor.bytes, schema::tensor_type::elem_type, 0)));
    const protobuf::field shape_field = reader_.last(tensor.bytes, schema::tensor_type::shape);
    if (!shape_field.present() || shape_field.type != protobuf::wire::len) return v;
    v.has_shape = true;
    protobuf::field f{};
    for (std::uint32_t at = shape_field.bytes.at; reader_.next(shape_field.bytes, at, f);) {
      if (f.number != schema::shape_proto::dim || f.type != protobuf::wire::len) continue;
      const protobuf::field value = reader_.last(f.bytes, schema::dimension::dim_value);
      std::int64_t extent = value.present() && value.type == protobuf::wire::varint ? static_cast<std::int64_t>(value.value) : -1;
      if (extent < -1 || extent >= 0x80000000LL) extent = -1;
      const protobuf::field param = reader_.last(f.bytes, schema::dimension::dim_param);
      if (v.rank < max_rank && param.present() && param.type == protobuf::wire::len) v.dim_names[v.rank] = param.bytes;
      if (v.rank < max_rank) v.dims.dims[v.rank] = static_cast<std::int32_t>(extent);
      ++v.rank;
    }
    v.dims.rank = static_cast<std::int32_t>(v.rank < max_rank ? v.rank : max_rank);
    return v;
  }

 private:
  constexpr void read_opset(const protobuf::span& entry) {
    const std::string_view domain = reader_.view(reader_.message_field(entry, schema::opset::domain));
    const std::int64_t version = reader_.int_field(entry, schema::opset::version, 0);
    if (domain.empty() || domain == "ai.onnx") opset_ = version;
  }

  protobuf::reader reader_;
  protobuf::span graph_{};
  bool has_graph_ = false;
  std::int64_t ir_version_ = 0;
  std::int64_t opset_ = 1;
};

}  // namespace ctnn::onnx
