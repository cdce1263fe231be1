#pragma once
// ONNX -> ctnn::module: the importer behind ctnn::onnx::model (onnx.hpp), usable on its own at compile
// time and at run time (ctnn-inspect):
//
//   constexpr auto b = ctnn::onnx::bounds(bytes, size);                    // capacities that always suffice
//   constexpr auto c = ctnn::onnx::count<b.tensors, b.nodes, b.values, b.relayouts>(bytes, size);   // exact
//   constexpr auto r = ctnn::onnx::import<c.tensors, c.nodes, c.values, c.relayouts>(bytes, size, "kws");
//   r.ir.error.failed() ...; r.relayouts[k]: constants to re-lay out (onnx.hpp materialises them)
//   ctnn::onnx::import_into<b.values>(*heap_result, bytes, size, "kws");  // at run time, in place
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
//    relu6, 0..inf = relu; min > max: max everywhere), Sigmoid, Tanh, Add,
//    Mul (numpy broadcasting; a constant operand is re-laid out to NHWC), Softmax (the last axis, or the
//    channels of an NHWC tensor; before opset 13, the coerced 2-D form through reshapes), Reshape,
//    Flatten, Concat, Pad (modes constant, reflect, edge, wrap; non-negative pads), BatchNormalization
//    (inference, rank 2, 3 or 4), Transpose.
//  * 1-D ops: Conv, MaxPool, AveragePool, BatchNormalization and GlobalAveragePool over [N, C, L] are the
//    2-D ops on [N, 1, L, C] (H = 1; the attributes of the one spatial dim are W's); between 1-D ops a
//    value stays [N, 1, L, C] (value::one_d), its ONNX [N, C, L] made on demand.
//  * Element types: float32, and uint8/int8/int32/int64 activations. Unquantized integers follow ONNX's
//    semantics: Add/Mul wrap around (integer_binary), MaxPool (8-bit), Pad, Transpose and Reshape keep
//    the type; lower_te gives these calls the ONNX integer kernels (kernel/reference/onnx_quant/run.hpp).
//  * Shapes: each IR node's output shape is inferred as the node is added (pass::infer_types' own rules),
//    so the importer knows every value's shape (for layouts, Flatten, Gemm) without value_info.
//  * Bad input is a diagnostic in the module: onnx_error codes (onnx/errors.hpp; node = the NodeProto's
//    index, value_a = its op_type) and the IR's own codes where they fit. The failed module keeps the
//    model's inputs and outputs where they were read, so code that calls run() adds no error of its own.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include <ctnn/frontend/onnx/errors.hpp>
#include <ctnn/frontend/onnx/quantized.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/shape_rules.hpp>

namespace ctnn::onnx {

// The capacities an import needs.
struct import_counts {
  std::size_t tensors = 1;
  std::size_t nodes = 1;
  std::size_t values = 1;     // ONNX values: graph inputs, initializers, node outputs
  std::size_t relayouts = 1;  // constants re-laid out at compile time
};

// A constant whose values onnx::model computes at compile time (module tensor `tensor`):
//   gather: out[i0,i1,i2,i3] = scale * source[sum_d i_d * strides[d]] (source: float32 LE at byte `source`)
enum class relayout_kind : std::int32_t { gather };

struct relayout {
  std::int32_t tensor = -1;
  relayout_kind kind = relayout_kind::gather;
  std::uint32_t source = 0;
  std::int32_t rank = 0;
  std::array<std::int32_t, 4> dims{};
  std::array<std::int64_t, 4> strides{};  // in source elements (0: broadcast)
  float scale = 1.0f;
  std::int32_t reserved = 0;  // no padding bytes
  constexpr std::int64_t elements() const {
    std::int64_t n = 1;
    for (std::int32_t d = 0; d < rank; ++d) n *= dims[static_cast<std::size_t>(d)];
    return n;
  }
};

// Writes relayout r's r.elements() values, gathered from the model file's bytes, to `out`. Used at compile
// time (onnx::model, once per tensor) and at run time (ctnn-run). The inner loops are call-free: clang
// counts every step (docs/design.md §6), and std::array::operator[] or std::bit_cast would each add steps.
constexpr void relayout_values(const relayout& r, const char* bytes, float* out) {
  std::array<std::int64_t, 4> extent{1, 1, 1, 1}, stride{};
  for (std::int32_t d = 0; d < r.rank; ++d) {
    extent[static_cast<std::size_t>(4 - r.rank + d)] = r.dims[static_cast<std::size_t>(d)];
    stride[static_cast<std::size_t>(4 - r.rank + d)] = 4 * r.strides[static_cast<std::size_t>(d)];
  }
  const std::int64_t n0 = extent[0], n1 = extent[1], n2 = extent[2], n3 = extent[3];
  const std::int64_t s0 = stride[0], s1 = stride[1], s2 = stride[2], s3 = stride[3];
  const float scale = r.scale;
  for (std::int64_t a = 0, at_a = r.source; a < n0; ++a, at_a += s0)
    for (std::int64_t b = 0, at_b = at_a; b < n1; ++b, at_b += s1)
      for (std::int64_t c = 0, at_c = at_b; c < n2; ++c, at_c += s2)
        for (std::int64_t d = 0, at = at_c; d < n3; ++d, at += s3)
          *out++ = __builtin_bit_cast(float, static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) |
                                                 static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 8 |
                                                 static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 2])) << 16 |
                                                 static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3])) << 24) *
                   scale;
}

template <std::size_t MaxTensors, std::size_t MaxNodes, std::size_t MaxRelayouts>
struct import_result {
  module<MaxTensors, MaxNodes> ir{};  // the imported module
  std::array<relayout, MaxRelayouts> relayouts{};
  std::int32_t relayout_count = 0;
  std::int32_t value_count = 0;
};

namespace detail {

enum class value_kind : std::int32_t { graph_input, initializer, constant, node_output };

// An ONNX value (by name) and the IR tensors that hold it.
struct value {
  protobuf::span name{};
  std::uint32_t hash = 0;
  value_kind kind = value_kind::node_output;
  protobuf::span proto{};         // initializer / constant: its TensorProto
  std::int32_t onnx_layout = -1;  // IR tensor with the ONNX shape
  std::int32_t nhwc = -1;         // IR tensor in NHWC (rank-4 activations)
  std::int32_t copies = 0;        // model outputs that are this value (a second one gets a copy)
  bool one_d = false;             // a rank-3 [N, C, L] activation whose `nhwc` tensor is [N, 1, L, C] (1-D ops)
};

// FNV-1a over a name (a call-free loop: clang counts every step, docs/design.md §6).
constexpr std::uint32_t hash_of(const char* text, std::uint32_t length) {
  std::uint32_t h = 2166136261u;
  for (std::uint32_t k = 0; k < length; ++k) h = (h ^ static_cast<std::uint32_t>(static_cast<unsigned char>(text[k]))) * 16777619u;
  return h;
}

// The largest stride, dilation, window extent and pad the importer accepts (later passes multiply them).
inline constexpr std::int64_t max_window_value = 65535;
inline constexpr float float_max = 3.40282347e+38f;

// NCHW dim of each NHWC dim, and the reverse.
inline constexpr std::array<std::int32_t, 4> nchw_of_nhwc{0, 2, 3, 1};
inline constexpr std::array<std::int32_t, 4> nhwc_of_nchw{0, 3, 1, 2};

constexpr shape to_nhwc(const shape& s) { return make_shape(s[0], s[2], s[3], s[1]); }
constexpr shape to_nchw(const shape& s) { return make_shape(s[0], s[3], s[1], s[2]); }

// The IR op kind an ONNX operator maps to (for the diagnostics of the IR's own codes: at_op<node, kind>).
constexpr op_kind kind_of(op_type t) {
  switch (t) {
    case op_type::Conv: case op_type::QLinearConv: case op_type::ConvInteger: return op_kind::conv2d;
    case op_type::Gemm: case op_type::QLinearMatMul: case op_type::MatMulInteger: return op_kind::dense;
    case op_type::MatMul: return op_kind::batch_matmul;
    case op_type::MaxPool: return op_kind::max_pool;
    case op_type::AveragePool: return op_kind::avg_pool;
    case op_type::GlobalAveragePool: return op_kind::global_avg_pool;
    case op_type::Relu: return op_kind::relu;
    case op_type::Sigmoid: return op_kind::sigmoid;
    case op_type::Tanh: return op_kind::tanh;
    case op_type::Clip: return op_kind::clip;
    case op_type::Add: return op_kind::add;
    case op_type::Mul: return op_kind::mul;
    case op_type::Softmax: return op_kind::softmax;
    case op_type::Concat: return op_kind::concat;
    case op_type::Pad: return op_kind::pad;
    case op_type::BatchNormalization: return op_kind::batch_norm;
    case op_type::Transpose: return op_kind::transpose;
    case op_type::QuantizeLinear: return op_kind::quantize;
    case op_type::DequantizeLinear: return op_kind::dequantize;
    default: return op_kind::reshape;  // Reshape, Flatten, Constant and the operators ctnn does not import
  }
}

// A float in millionths, clamped (for diagnostics: an int in a template argument).
constexpr std::int32_t millionths(float v) {
  double x = static_cast<double>(v) * 1e6;
  if (!(x > -2e9)) x = -2e9;
  if (x > 2e9) x = 2e9;
  return static_cast<std::int32_t>(x < 0 ? x - 0.5 : x + 0.5);
}

template <class Module, std::size_t MaxValues, std::size_t MaxRelayouts>
struct importer {
  model_file& f;
  Module& m;
  std::array<value, MaxValues>& values;
  std::array<relayout, MaxRelayouts>& relayouts;
  std::int32_t value_count = 0;
  std::int32_t relayout_count = 0;
  std::int32_t node_index = -1;         // the NodeProto being imported
  op_type current = op_type::unknown;

  // ---------------------------------------------------------------------------------------------------
  // Diagnostics.

  constexpr bool failed() const { return m.error.failed(); }
  constexpr void fail(error_code code, std::int32_t node, op_kind kind, std::int64_t a, std::int64_t b,
                      const shape& expected = {}, const shape& actual = {}) {
    m.fail(diagnostic{code, node, kind, expected, actual, a, b});
  }
  constexpr void fail(onnx_error code, std::int64_t a, std::int64_t b, const shape& expected = {}, const shape& actual = {}) {
    fail(code_of(code), node_index, kind_of(current), a, b, expected, actual);
  }
  constexpr bool take_reader_error() {
    if (!f.failed()) return false;
    fail(code_of(onnx_error::malformed_model), -1, op_kind::conv2d, f.error().offset, static_cast<std::int64_t>(f.error().what));
    return true;
  }
  constexpr void malformed(std::int64_t offset, protobuf::expectation what) {
    f.reader().fail(offset, what);
    take_reader_error();
  }
  constexpr void attribute_error(attribute which, std::int64_t value) {
    std::int64_t v = value < -2000000000 ? -2000000000 : value > 2000000000 ? 2000000000 : value;
    fail(onnx_error::unsupported_attribute, static_cast<std::int64_t>(current), static_cast<std::int64_t>(which),
         make_shape(static_cast<std::int32_t>(v)));
  }
  // An unsupported string value: where it is in the file (ctnn-inspect and ctnn-run print it).
  constexpr void attribute_error(attribute which, const protobuf::span& text) {
    fail(onnx_error::unsupported_attribute, static_cast<std::int64_t>(current), static_cast<std::int64_t>(which),
         make_shape(-1, static_cast<std::int32_t>(text.at), static_cast<std::int32_t>(text.length)));
  }
  constexpr void string_attribute_error(const node_view& n, std::string_view name, attribute which) {
    attribute_error(which, f.reader().message_field(f.attribute(n, name).proto, schema::attribute::s));
  }
  constexpr void operand_error(std::uint32_t slot) {
    fail(onnx_error::unsupported_operand, static_cast<std::int64_t>(current), slot);
  }
  constexpr void operand_type_error(std::uint32_t slot, data_type type) {
    fail(onnx_error::operand_type, static_cast<std::int64_t>(current), slot, make_shape(static_cast<std::int32_t>(type)));
  }
  // Element `index` of a constant operand is out of range: an integer (clamped to int32) or a float's bits.
  constexpr void operand_value_error(std::uint32_t slot, std::int64_t index, std::int64_t value) {
    const std::int64_t v = value < -2147483647 ? -2147483647 : value > 2147483647 ? 2147483647 : value;
    fail(onnx_error::operand_value, static_cast<std::int64_t>(current), slot,
         make_shape(static_cast<std::int32_t>(index), static_cast<std::int32_t>(v), 0));
  }
  constexpr void operand_value_error(std::uint32_t slot, std::int64_t index, float value) {
    fail(onnx_error::operand_value, static_cast<std::int64_t>(current), slot,
         make_shape(static_cast<std::int32_t>(index), std::bit_cast<std::int32_t>(value), 1));
  }
  // Operand `slot` has a rank the op does not take (its ONNX shape in the diagnostic).
  constexpr void rank_error(std::uint32_t slot, const shape& s) {
    fail(onnx_error::unsupported_rank, static_cast<std::int64_t>(current), slot, {}, s);
  }

  // ---------------------------------------------------------------------------------------------------
  // Values.

  // Name lookups go through an open-addressing hash table (value index + 1 per slot, 0 = empty): a scan
  // over all values per lookup made the import quadratic in clang's constexpr step count.
  static constexpr std::size_t slot_count = std::bit_ceil(2 * MaxValues + 1);
  std::array<std::int32_t, slot_count> slots{};

  constexpr std::int32_t find(const protobuf::span& name) const {
    const std::string_view text = f.reader().view(name);
    const std::uint32_t h = hash_of(f.reader().pointer(name.at), name.length);
    for (std::size_t s = h & (slot_count - 1); slots[s] != 0; s = (s + 1) & (slot_count - 1)) {
      const auto v = static_cast<std::size_t>(slots[s] - 1);
      if (values[v].hash == h && values[v].name.length == name.length && f.reader().view(values[v].name) == text)
        return static_cast<std::int32_t>(v);
    }
    return -1;
  }

  constexpr std::int32_t add_value(const protobuf::span& name, value_kind kind, std::int64_t name_tag_at) {
    if (name.length == 0) return malformed(name_tag_at, protobuf::expectation::value_name), -1;
    if (find(name) >= 0) return malformed(name_tag_at, protobuf::expectation::unique_value), -1;
    if (static_cast<std::size_t>(value_count) >= MaxValues) return capacity_exceeded(), -1;
    value& v = values[static_cast<std::size_t>(value_count)];
    v = value{};
    v.name = name;
    v.hash = hash_of(f.reader().pointer(name.at), name.length);
    v.kind = kind;
    std::size_t s = v.hash & (slot_count - 1);
    while (slots[s] != 0) s = (s + 1) & (slot_count - 1);
    slots[s] = value_count + 1;
    return value_count++;
  }
  constexpr value& at(std::int32_t v) { return values[static_cast<std::size_t>(v)]; }
  constexpr name label_of(std::int32_t v) const { return name{f.reader().view(values[static_cast<std::size_t>(v)].name)}; }
  constexpr bool is_constant(std::int32_t v) const {
    const value_kind k = values[static_cast<std::size_t>(v)].kind;
    return k == value_kind::initializer || k == value_kind::constant;
  }

  // ---------------------------------------------------------------------------------------------------
  // Module edits.

  constexpr void capacity_exceeded() {
    if (!failed()) fail(error_code::too_many_inputs, -1, op_kind::conv2d, m.node_count, static_cast<std::int64_t>(Module::node_capacity));
  }
  constexpr std::int32_t add_tensor(const shape& dims, const name& label, tensor_role role = tensor_role::intermediate) {
    if (static_cast<std::size_t>(m.tensor_count) >= Module::tensor_capacity) return capacity_exceeded(), -1;
    tensor t{};
    t.label = label;
    t.dims = dims;
    t.role = role;
    return m.add_tensor(t);
  }
  // A node reading `inputs`, writing a new tensor whose shape infer_types' rules give; -1 on a failure.
  constexpr std::int32_t add_node(op_kind kind, const op_attributes& attrs, std::initializer_list<std::int32_t> inputs,
                                  const name& label) {
    if (failed()) return -1;
    for (const std::int32_t in : inputs)
      if (in < -1) return -1;
    const std::int32_t out = add_tensor({}, label);
    if (out < 0) return -1;
    if (static_cast<std::size_t>(m.node_count) >= Module::node_capacity) return capacity_exceeded(), -1;
    const std::int32_t id = m.node_count++;
    node& n = m.node_at(id);
    n = node{};
    n.kind = kind;
    n.label = label;
    n.attrs = attrs;
    n.output = out;
    for (const std::int32_t in : inputs) n.inputs[static_cast<std::size_t>(n.input_count++)] = in;
    m.tensor_at(out).producer = id;
    const shape dims = shape_rules::infer_node(m, id);
    if (failed()) {
      m.error.node = node_index;  // the ONNX node, not the IR node
      return -1;
    }
    m.tensor_at(out).dims = dims;
    m.tensor_at(out).type = shape_rules::result_type(m, m.node_at(id));
    return out;
  }
  constexpr std::int32_t reshape(std::int32_t in, const shape& target, const name& label) {
    op_attributes a{};
    a.target = target;
    return add_node(op_kind::reshape, a, {in}, label);
  }

  // A transpose: output dim d is input dim perm[d] (a rank-4 layout change, or any rank).
  template <std::size_t Rank>
  constexpr std::int32_t transpose(std::int32_t in, const std::array<std::int32_t, Rank>& perm, const name& label) {
    op_attributes a{};
    for (std::size_t d = 0; d < Rank; ++d) a.perm[d] = perm[d];
    return add_node(op_kind::transpose, a, {in}, label);
  }
  // The permutation that swaps dims `a` and `b` of a rank-`rank` tensor (its own inverse).
  static constexpr std::array<std::int32_t, max_rank> swapping(std::int32_t rank, std::int32_t a, std::int32_t b) {
    std::array<std::int32_t, max_rank> perm{};
    for (std::int32_t d = 0; d < rank; ++d) perm[static_cast<std::size_t>(d)] = d == a ? b : d == b ? a : d;
    return perm;
  }

  // A constant tensor of `dims` gathered from a value's float data (or zero-copy when the gather is the
  // stored order and the data is aligned).
  constexpr std::int32_t gathered(std::int32_t v, std::uint32_t slot, const shape& dims, const std::array<std::int64_t, 4>& strides,
                                  float scale) {
    const tensor_view t = float_tensor(v, slot);
    if (failed()) return -1;
    const std::int32_t id = add_tensor(dims, label_of(v), tensor_role::constant);
    if (id < 0) return -1;
    // The stored order: each extent > 1 steps by the product of the extents after it.
    bool stored_order = scale == 1.0f;
    std::int64_t step = 1;
    for (std::int32_t d = dims.rank - 1; d >= 0; --d) {
      if (dims[d] > 1 && strides[static_cast<std::size_t>(d)] != step) stored_order = false;
      step *= dims[d];
    }
    m.tensor_at(id).data.bytes = f.reader().pointer(t.data.at);
    m.tensor_at(id).data.file = f.reader().pointer(0);
    if (stored_order && t.data.at % 4 == 0) return id;
    if (static_cast<std::size_t>(relayout_count) >= MaxRelayouts) return capacity_exceeded(), -1;
    relayout& r = relayouts[static_cast<std::size_t>(relayout_count++)];
    r = relayout{};
    r.tensor = id;
    r.kind = relayout_kind::gather;
    r.source = t.data.at;
    r.rank = dims.rank;
    for (std::int32_t d = 0; d < dims.rank; ++d) {
      r.dims[static_cast<std::size_t>(d)] = dims[d];
      r.strides[static_cast<std::size_t>(d)] = strides[static_cast<std::size_t>(d)];
    }
    r.scale = scale;
    return id;
  }

  // A value's TensorProto, checked to be float32 with as many values as its dims give, stored contiguously.
  constexpr tensor_view float_tensor(std::int32_t v, std::uint32_t slot) {
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error()) return t;
    if (!checked_tensor(v, t)) return t;
    if (t.type != data_type::float32) return operand_error(slot), t;
    if (t.unpacked > 0 && t.data_field != schema::tensor::raw_data)
      return fail(onnx_error::unsupported_tensor_feature, at(v).name.at, static_cast<std::int64_t>(tensor_feature::unpacked_values)), t;
    if (static_cast<std::int64_t>(t.data.length) != t.dims.elements() * 4) malformed(t.proto.at, protobuf::expectation::tensor_data);
    return t;
  }
  constexpr bool checked_tensor(std::int32_t v, const tensor_view& t) {
    if (t.external) return fail(onnx_error::unsupported_tensor_feature, at(v).name.at, static_cast<std::int64_t>(tensor_feature::external_data)), false;
    if (t.segmented) return fail(onnx_error::unsupported_tensor_feature, at(v).name.at, static_cast<std::int64_t>(tensor_feature::segments)), false;
    if (t.rank > max_rank) return fail(onnx_error::rank_too_high, at(v).name.at, t.rank), false;
    if (pass_too_large(t.dims)) return malformed(t.proto.at, protobuf::expectation::tensor_size), false;
    return true;
  }
  static constexpr bool pass_too_large(const shape& s) {
    std::int64_t n = 8;
    for (std::int32_t d = 0; d < s.rank; ++d) {
      n *= s[d];
      if (n >= (std::int64_t{1} << 31)) return true;
    }
    return false;
  }
  // The ONNX shape of a constant value.
  constexpr shape constant_shape(std::int32_t v) {
    const tensor_view t = f.read_tensor(at(v).proto);
    take_reader_error();
    return t.dims;
  }

  // Element k of an INT64 constant (shapes, pads), read at import; a failure names operand `slot`.
  constexpr std::int64_t constant_int(std::int32_t v, std::uint32_t slot, std::uint32_t k, std::int64_t& count) {
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return 0;
    if (t.type != data_type::int64) return operand_error(slot), 0;
    count = t.dims.elements();
    if (t.data_field == schema::tensor::raw_data) {
      if (static_cast<std::int64_t>(t.data.length) != count * 8) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0;
      return k < count ? static_cast<std::int64_t>(f.reader().load_u64(t.data.at + 8 * k)) : 0;
    }
    const std::uint32_t stored = f.reader().repeated_count(t.proto, schema::tensor::int64_data, protobuf::wire::varint);
    if (take_reader_error()) return 0;
    if (stored != count) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0;
    return k < count ? static_cast<std::int64_t>(f.reader().repeated_at(t.proto, schema::tensor::int64_data, protobuf::wire::varint, k)) : 0;
  }
  // A FLOAT scalar constant (Clip bounds, Pad's value).
  constexpr float constant_float(std::int32_t v, std::uint32_t slot) {
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return 0.0f;
    if (t.type != data_type::float32 || t.dims.elements() != 1) return operand_error(slot), 0.0f;
    if (t.data_field == schema::tensor::raw_data) {
      if (t.data.length != 4) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0.0f;
      return std::bit_cast<float>(f.reader().load_u32(t.data.at));
    }
    const auto bits = f.reader().repeated_at(t.proto, schema::tensor::float_data, protobuf::wire::i32, 0);
    take_reader_error();
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  }

  // ---------------------------------------------------------------------------------------------------
  // Layouts.

  // The ONNX shape of a value.
  constexpr shape onnx_shape(std::int32_t v) {
    if (is_constant(v)) return constant_shape(v);
    const value& x = at(v);
    if (x.onnx_layout >= 0) return m.tensor_at(x.onnx_layout).dims;
    const shape s = m.tensor_at(x.nhwc).dims;
    return x.one_d ? make_shape(s[0], s[3], s[2]) : to_nchw(s);
  }

  // The value as an IR tensor in its ONNX layout (constants: as stored).
  constexpr std::int32_t as_onnx(std::int32_t v, std::uint32_t slot) {
    value& x = at(v);
    if (x.onnx_layout >= 0) return x.onnx_layout;
    if (is_constant(v)) {
      const shape s = constant_shape(v);
      std::array<std::int64_t, 4> strides{};
      if (s.rank > 4) return operand_error(slot), -1;
      std::int64_t step = 1;
      for (std::int32_t d = s.rank - 1; d >= 0; --d) strides[static_cast<std::size_t>(d)] = step, step *= s[d];
      return x.onnx_layout = gathered(v, slot, s, strides, 1.0f);
    }
    // NHWC -> NCHW: a transpose (a view when it moves only extent-1 dims, alias_reshapes).
    const std::int32_t nchw = transpose(x.nhwc, nhwc_of_nchw, label_of(v));
    if (!x.one_d || nchw < 0) return x.onnx_layout = nchw;
    const shape s = m.tensor_at(nchw).dims;  // [N, C, 1, L] -> [N, C, L] (a view)
    return x.onnx_layout = reshape(nchw, make_shape(s[0], s[1], s[3]), label_of(v));
  }

  // The value as an IR tensor in NHWC (rank 4).
  constexpr std::int32_t as_nhwc(std::int32_t v, std::uint32_t slot) {
    value& x = at(v);
    if (x.nhwc >= 0 && !x.one_d) return x.nhwc;
    const shape s = onnx_shape(v);
    if (failed()) return -1;
    if (s.rank != 4) return rank_error(slot, s), -1;
    if (is_constant(v)) {
      // [N, C, H, W] stored: NHWC dim d steps by the stride of NCHW dim nchw_of_nhwc[d].
      const std::array<std::int64_t, 4> nchw_strides{static_cast<std::int64_t>(s[1]) * s[2] * s[3], static_cast<std::int64_t>(s[2]) * s[3], s[3], 1};
      return x.nhwc = gathered(v, slot, to_nhwc(s), {nchw_strides[0], nchw_strides[2], nchw_strides[3], nchw_strides[1]}, 1.0f);
    }
    return x.nhwc = transpose(x.onnx_layout, nchw_of_nhwc, label_of(v));
  }

  // A 1-D activation [N, C, L] as the NHWC image [N, 1, L, C] that 2-D ops read (H = 1): a reshape (a
  // view) and a transpose, made once per value.
  constexpr std::int32_t as_nhwc_1d(std::int32_t v, std::uint32_t slot) {
    if (at(v).nhwc >= 0 && at(v).one_d) return at(v).nhwc;
    const std::int32_t flat = as_onnx(v, slot);
    if (failed() || flat < 0) return -1;
    const shape s = m.tensor_at(flat).dims;
    if (s.rank != 3) return rank_error(slot, s), -1;
    const std::int32_t image = reshape(flat, make_shape(s[0], s[1], 1, s[2]), label_of(v));
    const std::int32_t id = image < 0 ? -1 : transpose(image, nchw_of_nhwc, label_of(v));
    if (id < 0) return -1;
    at(v).one_d = true;
    return at(v).nhwc = id;
  }

  // The input of a windowed op (conv, pools, batch norm) in NHWC: rank 4 (2-D), or rank 3 (1-D, H = 1);
  // `spatial` gets 2 or 1.
  constexpr std::int32_t windowed_input(std::int32_t v, std::uint32_t slot, std::uint32_t& spatial) {
    const shape s = onnx_shape(v);
    if (failed()) return -1;
    if (s.rank != 3 && s.rank != 4) return rank_error(slot, s), -1;
    spatial = static_cast<std::uint32_t>(s.rank - 2);
    return spatial == 1 ? as_nhwc_1d(v, slot) : as_nhwc(v, slot);
  }

  // Records a node's result: value `v` held by IR tensor `id` in NHWC (a 1-D value: [N, 1, L, C]) or in
  // the ONNX layout.
  constexpr void define(std::int32_t v, std::int32_t id, bool nhwc, bool one_d = false) {
    if (v < 0 || id < 0 || failed()) return;
    if (nhwc) at(v).nhwc = id, at(v).one_d = one_d;
    else at(v).onnx_layout = id;
    m.tensor_at(id).label = label_of(v);
  }

  // The layout an element-wise op keeps: NHWC when the (rank-4) operand has it.
  constexpr bool prefers_nhwc(std::int32_t v) const {
    const value& x = values[static_cast<std::size_t>(v)];
    return !is_constant(v) && x.nhwc >= 0 && !x.one_d;
  }
  // Whether `v` is a 1-D activation held as [N, 1, L, C] (element-wise ops keep that layout).
  constexpr bool held_1d(std::int32_t v) const {
    const value& x = values[static_cast<std::size_t>(v)];
    return !is_constant(v) && x.nhwc >= 0 && x.one_d;
  }

  // ---------------------------------------------------------------------------------------------------
  // Attributes.

  constexpr std::int64_t int_attribute(const node_view& n, std::string_view name, std::int64_t fallback) {
    return f.int_attribute(f.attribute(n, name), fallback);
  }
  constexpr float float_attribute(const node_view& n, std::string_view name, float fallback) {
    return f.float_attribute(f.attribute(n, name), fallback);
  }
  // An ints attribute of `count` values (absent: all `fallback`); another count is an unsupported value.
  constexpr bool ints_attribute(const node_view& n, std::string_view name, attribute which, std::uint32_t count,
                                std::int64_t fallback, std::array<std::int64_t, 4>& out) {
    const attribute_view a = f.attribute(n, name);
    for (std::uint32_t k = 0; k < count; ++k) out[k] = fallback;
    if (!a.present()) return !take_reader_error();
    const std::uint32_t stored = f.ints_count(a);
    if (take_reader_error()) return false;
    if (stored != count) return attribute_error(which, stored), false;
    for (std::uint32_t k = 0; k < count; ++k) out[k] = f.ints_at(a, k);
    return !take_reader_error();
  }

  // Conv/pool window attributes on an NHWC input; explicit pads for every auto_pad mode. `spatial` 1: the
  // attributes of a 1-D op, whose input is read as an image of height 1 (its window, 1 x k).
  constexpr bool read_window(const node_view& n, const shape& in, std::int64_t kernel_h, std::int64_t kernel_w, window& w,
                             std::uint32_t spatial = 2) {
    std::array<std::int64_t, 4> strides{}, dilations{}, pads{};
    if (!ints_attribute(n, "strides", attribute::strides, spatial, 1, strides) ||
        !ints_attribute(n, "dilations", attribute::dilations, spatial, 1, dilations) ||
        !ints_attribute(n, "pads", attribute::pads, 2 * spatial, 0, pads))
      return false;
    if (spatial == 1) {  // [begin, end] along W; H gets none
      strides = {1, strides[0], 0, 0};
      dilations = {1, dilations[0], 0, 0};
      pads = {0, pads[0], 0, pads[1]};
    }
    for (const std::int64_t v : {strides[0], strides[1]})
      if (v < 1 || v > max_window_value) return attribute_error(attribute::strides, v), false;
    for (const std::int64_t v : {dilations[0], dilations[1]})
      if (v < 1 || v > max_window_value) return attribute_error(attribute::dilations, v), false;
    for (std::uint32_t k = 0; k < 4; ++k)
      if (pads[k] < 0 || pads[k] > max_window_value) return attribute_error(attribute::pads, pads[k]), false;
    if (kernel_h < 1 || kernel_w < 1 || kernel_h > max_window_value || kernel_w > max_window_value)
      return attribute_error(attribute::kernel_shape, kernel_h < 1 || kernel_h > max_window_value ? kernel_h : kernel_w), false;
    w.kernel_h = static_cast<std::int32_t>(kernel_h);
    w.kernel_w = static_cast<std::int32_t>(kernel_w);
    w.stride_h = static_cast<std::int32_t>(strides[0]);
    w.stride_w = static_cast<std::int32_t>(strides[1]);
    w.dilation_h = static_cast<std::int32_t>(dilations[0]);
    w.dilation_w = static_cast<std::int32_t>(dilations[1]);
    w.mode = padding::explicit_pads;
    const std::string_view mode = f.string_attribute(f.attribute(n, "auto_pad"), "NOTSET");
    if (take_reader_error()) return false;
    if (mode == "NOTSET") {
      w.pad_top = static_cast<std::int32_t>(pads[0]);
      w.pad_left = static_cast<std::int32_t>(pads[1]);
      w.pad_bottom = static_cast<std::int32_t>(pads[2]);
      w.pad_right = static_cast<std::int32_t>(pads[3]);
    } else if (mode == "VALID") {
      w.pad_top = w.pad_left = w.pad_bottom = w.pad_right = 0;
    } else if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      // TensorFlow's SAME is SAME_UPPER (the odd pixel at the end); SAME_LOWER puts it at the start.
      shape_rules::same_padding(in[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top, w.pad_bottom);
      shape_rules::same_padding(in[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left, w.pad_right);
      if (mode == "SAME_LOWER") {
        const std::int32_t top = w.pad_top, left = w.pad_left;
        w.pad_top = w.pad_bottom, w.pad_bottom = top;
        w.pad_left = w.pad_right, w.pad_right = left;
      }
    } else {
      return string_attribute_error(n, "auto_pad", attribute::auto_pad), false;
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Nodes.

  struct operands {
    std::array<std::int32_t, max_node_inputs + 1> id{};  // value indices (-1: omitted); QLinearConv has 9
    std::uint32_t count = 0;
  };

  constexpr operands read_operands(const node_view& n) {
    operands o{};
    if (n.input_count > o.id.size()) {
      fail(error_code::too_many_inputs, node_index, kind_of(current), n.input_count, max_node_inputs);
      return o;
    }
    protobuf::field fd{};
    for (std::uint32_t at_ = n.proto.at; f.reader().next(n.proto, at_, fd);) {
      if (fd.number != schema::node::input) continue;
      std::int32_t v = -1;
      if (fd.bytes.length > 0) {
        v = find(fd.bytes);
        if (v < 0) return malformed(fd.tag_at, protobuf::expectation::produced_value), o;
      }
      o.id[o.count++] = v;
    }
    take_reader_error();
    return o;
  }

  // Inputs `least`..`most` given (trailing omitted ones count as absent), required ones present.
  constexpr bool expect_inputs(const operands& o, std::uint32_t least, std::uint32_t most) {
    std::uint32_t given = o.count;
    while (given > least && o.id[given - 1] < 0) --given;
    bool present = true;
    for (std::uint32_t k = 0; k < least && k < given; ++k) present = present && o.id[k] >= 0;
    if (given >= least && given <= most && present) return true;
    fail(error_code::input_count_mismatch, node_index, kind_of(current), given < least ? least : most, given);
    return false;
  }
  constexpr bool expect_constant(const operands& o, std::uint32_t slot) {
    if (o.id[slot] >= 0 && is_constant(o.id[slot])) return true;
    operand_error(slot);
    return false;
  }
  constexpr bool expect_activation(const operands& o, std::uint32_t slot) {
    if (o.id[slot] >= 0 && !is_constant(o.id[slot])) return true;
    operand_error(slot);
    return false;
  }

  constexpr void import_node(const protobuf::span& proto) {
    const node_view n = f.read_node(proto);
    if (take_reader_error()) return;
    current = n.type;
    // Training-mode BatchNormalization has its running statistics as extra outputs: the mode is the reason.
    if (n.type == op_type::BatchNormalization && int_attribute(n, "training_mode", 0) != 0)
      return attribute_error(attribute::training_mode, 1);
    // One result in use: later outputs must be omitted (empty names).
    std::uint32_t outputs = n.output_count;
    for (std::uint32_t k = n.output_count; k > 1; --k)
      if (f.output_name(n, k - 1).length == 0) --outputs;
    if (take_reader_error()) return;
    if (n.output_count == 0 || outputs != 1) return fail(onnx_error::output_count, static_cast<std::int64_t>(n.type), n.output_count);
    std::int64_t out_tag = 0;
    protobuf::span out_name{};
    {
      protobuf::field fd{};
      for (std::uint32_t at_ = proto.at; f.reader().next(proto, at_, fd);)
        if (fd.number == schema::node::output && out_tag == 0) out_tag = fd.tag_at, out_name = fd.bytes;
    }
    const operands o = read_operands(n);
    if (failed()) return;
    if (n.type == op_type::Constant) return import_constant(n, out_name, out_tag);
    const std::int32_t result = add_value(out_name, value_kind::node_output, out_tag);
    if (result < 0) return;
    switch (n.type) {
      case op_type::Conv: return conv(n, o, result);
      case op_type::Gemm: return gemm(n, o, result);
      case op_type::MatMul: return matmul(o, result);
      case op_type::MaxPool:
      case op_type::AveragePool: return pool(n, o, result);
      case op_type::GlobalAveragePool: return unary(o, result, op_kind::global_avg_pool, true);
      case op_type::Relu: return unary(o, result, op_kind::relu, false);
      case op_type::Sigmoid: return unary(o, result, op_kind::sigmoid, false);
      case op_type::Tanh: return unary(o, result, op_kind::tanh, false);
      case op_type::Clip: return clip(n, o, result);
      case op_type::Add: return binary(o, result, op_kind::add);
      case op_type::Mul: return binary(o, result, op_kind::mul);
      case op_type::Softmax: return softmax(n, o, result);
      case op_type::Reshape: return reshape_node(n, o, result);
      case op_type::Flatten: return flatten(n, o, result);
      case op_type::Concat: return concat(n, o, result);
      case op_type::Pad: return pad(n, o, result);
      case op_type::BatchNormalization: return batch_norm(n, o, result);
      case op_type::QuantizeLinear:
      case op_type::DequantizeLinear:
      case op_type::QLinearConv:
      case op_type::ConvInteger:
      case op_type::QLinearMatMul:
      case op_type::MatMulInteger: return quantized_ops<importer>{*this}.import(n, o, result);
      case op_type::Transpose: return transpose_node(n, o, result);
      default: return fail(onnx_error::unsupported_operator, static_cast<std::int64_t>(n.type), 0);
    }
  }

  constexpr void import_constant(const node_view& n, const protobuf::span& out_name, std::int64_t out_tag) {
    const attribute_view a = f.attribute(n, "value");
    const protobuf::span proto = a.present() ? f.tensor_attribute(a) : protobuf::span{};
    if (take_reader_error()) return;
    if (!a.present()) return attribute_error(attribute::value, -1);  // value_float, value_ints, ...: not read
    const std::int32_t v = add_value(out_name, value_kind::constant, out_tag);
    if (v >= 0) at(v).proto = proto;
  }

  constexpr void conv(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 2, 3) || !expect_activation(o, 0) || !expect_constant(o, 1)) return;
    if (o.count > 2 && o.id[2] >= 0 && !expect_constant(o, 2)) return;
    std::uint32_t spatial = 2;
    const std::int32_t x = windowed_input(o.id[0], 0, spatial);
    const shape stored = constant_shape(o.id[1]);
    if (failed() || x < 0) return;
    if (stored.rank != static_cast<std::int32_t>(spatial) + 2) return operand_error(1);
    // 1-D weights [O, I, k] are the image weights [O, I, 1, k] (the same bytes).
    const shape ws = spatial == 1 ? make_shape(stored[0], stored[1], 1, stored[2]) : stored;
    const shape in = m.tensor_at(x).dims;
    const std::int32_t units = ws[0], per_group = ws[1], kh = ws[2], kw = ws[3];
    const std::int64_t group = int_attribute(n, "group", 1);
    std::array<std::int64_t, 4> kernel{};
    if (!ints_attribute(n, "kernel_shape", attribute::kernel_shape, spatial, -1, kernel)) return;
    if (spatial == 1) kernel = {-1, kernel[0], 0, 0};
    if ((kernel[0] != -1 && kernel[0] != kh) || (kernel[1] != -1 && kernel[1] != kw))
      return attribute_error(attribute::kernel_shape, kernel[0] != -1 && kernel[0] != kh ? kernel[0] : kernel[1]);
    if (group < 1 || group > in[3]) return attribute_error(attribute::group, group);
    op_attributes a{};
    if (!read_window(n, in, kh, kw, a.win, spatial)) return;
    const std::int64_t taps = static_cast<std::int64_t>(kh) * kw;
    std::int32_t weights = -1;
    op_kind kind = op_kind::conv2d;
    if (group > 1 && group == in[3] && per_group == 1) {
      // Depthwise: [C*M, 1, kh, kw] -> [1, kh, kw, C*M] (output channel c*M + m in both).
      kind = op_kind::depthwise_conv2d;
      a.depth_multiplier = units % in[3] == 0 ? units / in[3] : 1;
      weights = gathered(o.id[1], 1, make_shape(1, kh, kw, units), {0, kw, 1, taps}, 1.0f);
    } else {
      // OIHW -> OHWI.
      a.groups = static_cast<std::int32_t>(group);
      a.units = units;
      weights = gathered(o.id[1], 1, make_shape(units, kh, kw, per_group), {per_group * taps, kw, 1, taps}, 1.0f);
    }
    const std::int32_t bias = o.count > 2 && o.id[2] >= 0 ? gathered(o.id[2], 2, make_shape(units), {1, 0, 0, 0}, 1.0f) : -1;
    if (bias >= 0 && constant_shape(o.id[2]).elements() != units) return operand_error(2);
    define(result, add_node(kind, a, {x, weights, bias}, label_of(result)), true, spatial == 1);
  }

  // Gemm: Y = alpha * A' * B' + beta * C, A [M, K] (transA: [K, M], transposed), B and C constant.
  constexpr void gemm(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 2, 3) || !expect_activation(o, 0) || !expect_constant(o, 1)) return;
    if (o.count > 2 && o.id[2] >= 0 && !expect_constant(o, 2)) return;
    const float alpha = float_attribute(n, "alpha", 1.0f), beta = float_attribute(n, "beta", 1.0f);
    const std::int64_t trans_a = int_attribute(n, "transA", 0), trans_b = int_attribute(n, "transB", 0);
    if (take_reader_error()) return;
    std::int32_t x = as_onnx(o.id[0], 0);
    const shape bs = constant_shape(o.id[1]);
    if (failed()) return;
    if (m.tensor_at(x).dims.rank != 2) return rank_error(0, m.tensor_at(x).dims);
    if (trans_a != 0) x = transpose(x, std::array<std::int32_t, 2>{1, 0}, numbered("gemm_a", static_cast<std::size_t>(node_index)));
    if (failed()) return;
    const shape in = m.tensor_at(x).dims;
    if (bs.rank != 2) return operand_error(1);
    const std::int32_t k = in[1];
    const std::int32_t units = trans_b != 0 ? bs[0] : bs[1];
    if ((trans_b != 0 ? bs[1] : bs[0]) != k) return operand_error(1);
    // Weights [N][K]: B is [N, K] with transB, else [K, N].
    const std::int32_t weights = trans_b != 0 ? gathered(o.id[1], 1, make_shape(units, k), {k, 1, 0, 0}, alpha)
                                              : gathered(o.id[1], 1, make_shape(units, k), {1, units, 0, 0}, alpha);
    std::int32_t bias = -1, matrix = -1;
    if (o.count > 2 && o.id[2] >= 0) {
      const shape cs = constant_shape(o.id[2]);
      const std::int64_t elements = cs.elements();
      const bool per_row = cs.rank == 2 && cs[0] == in[0] && in[0] != 1 && cs[1] == units;
      // C broadcasts to [M, N]: one value, or N values ([N] or [1, N]) as the bias; a full [M, N] is added.
      if (per_row) {
        matrix = gathered(o.id[2], 2, make_shape(in[0], units), {units, 1, 0, 0}, beta);
      } else {
        if (elements != 1 && (elements != units || (cs.rank == 2 && cs[0] != 1) || cs.rank > 2)) return operand_error(2);
        bias = gathered(o.id[2], 2, make_shape(units), {elements == 1 && units != 1 ? 0 : 1, 0, 0, 0}, beta);
      }
    }
    op_attributes a{};
    a.units = units;
    if (matrix < 0) return define(result, add_node(op_kind::dense, a, {x, weights, bias}, label_of(result)), false);
    const std::int32_t product = add_node(op_kind::dense, a, {x, weights, -1}, numbered("gemm", static_cast<std::size_t>(node_index)));
    define(result, add_node(op_kind::add, {}, {product, matrix}, label_of(result)), false);
  }

  // MatMul (numpy's matmul). A constant B [K, N] or [K]: a dense layer on A flattened to [rows, K]; any
  // other B (an activation, or a constant of rank 3 or 4): batch_matmul.
  constexpr void matmul(const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 2, 2) || !expect_activation(o, 0)) return;
    const std::int32_t x = as_onnx(o.id[0], 0);
    const shape bs = onnx_shape(o.id[1]);
    if (failed()) return;
    if (!is_constant(o.id[1]) || bs.rank > 2) return batch_matmul(o, result, x, bs);
    const shape in = m.tensor_at(x).dims;
    // B [K, N], or a vector [K] (one column, whose dim the result drops).
    if (bs.rank < 1 || in.rank < 1 || in.at(-1) != bs[0]) return operand_error(1);
    const std::int32_t k = bs[0], units = bs.rank == 2 ? bs[1] : 1;
    const std::int32_t weights = gathered(o.id[1], 1, make_shape(units, k), {1, units, 0, 0}, 1.0f);
    op_attributes a{};
    a.units = units;
    if (in.rank == 2 && bs.rank == 2) return define(result, add_node(op_kind::dense, a, {x, weights, -1}, label_of(result)), false);
    const auto rows = static_cast<std::int32_t>(in.elements() / k);
    const std::int32_t flat = reshape(x, make_shape(rows, k), numbered("matmul_rows", static_cast<std::size_t>(node_index)));
    const std::int32_t product = add_node(op_kind::dense, a, {flat, weights, -1}, numbered("matmul", static_cast<std::size_t>(node_index)));
    define(result, reshape(product, matmul_shape(in, bs), label_of(result)), false);
  }

  // numpy's matmul result shape for A and B of rank >= 1 (a 1-D operand is promoted to a matrix, and its
  // promoted dim dropped): the batch dims broadcast, then [M, N]. A scalar result is [1].
  static constexpr shape matmul_shape(const shape& a, const shape& b) {
    const shape a2 = a.rank == 1 ? make_shape(1, a[0]) : a, b2 = b.rank == 1 ? make_shape(b[0], 1) : b;
    shape out{};
    shape_rules::broadcast(matrix_batch(a2), matrix_batch(b2), out);
    if (a.rank > 1) out.dims[static_cast<std::size_t>(out.rank++)] = a2.at(-2);
    if (b.rank > 1) out.dims[static_cast<std::size_t>(out.rank++)] = b2.last();
    return out.rank == 0 ? make_shape(1) : out;
  }

  // MatMul as batch_matmul of A (IR tensor x, ONNX layout) and B (an activation, or a constant as stored):
  // 1-D operands become [1, K] and [K, 1], and the result is reshaped to numpy's shape.
  constexpr void batch_matmul(const operands& o, std::int32_t result, std::int32_t x, const shape& bs) {
    const std::int32_t y = as_onnx(o.id[1], 1);
    if (failed() || x < 0 || y < 0) return;
    const shape as = m.tensor_at(x).dims;
    if (as.rank < 1 || bs.rank < 1) return rank_error(as.rank < 1 ? 0 : 1, as.rank < 1 ? as : bs);
    const bool vector_a = as.rank == 1, vector_b = bs.rank == 1;
    const std::int32_t a = vector_a ? reshape(x, make_shape(1, as[0]), numbered("matmul_row", static_cast<std::size_t>(node_index))) : x;
    const std::int32_t b = vector_b ? reshape(y, make_shape(bs[0], 1), numbered("matmul_column", static_cast<std::size_t>(node_index))) : y;
    if (!vector_a && !vector_b) return define(result, add_node(op_kind::batch_matmul, {}, {a, b}, label_of(result)), false);
    const std::int32_t product = add_node(op_kind::batch_matmul, {}, {a, b}, numbered("matmul", static_cast<std::size_t>(node_index)));
    define(result, reshape(product, matmul_shape(as, bs), label_of(result)), false);
  }

  // ceil_mode's end padding along one dim: the output gets ceil((in + pads - window) / stride) + 1
  // windows, less the last when it would start past the input and its leading pads.
  // `limit`: where (from the start of the leading pads) the input ends.
  static constexpr void ceil_padding(std::int32_t in, std::int32_t kernel, std::int32_t stride, std::int32_t dilation,
                                     std::int32_t before, std::int32_t& after, std::int32_t limit) {
    const std::int32_t span = (kernel - 1) * dilation + 1;
    const std::int32_t room = in + before + after - span;
    if (room < 0 || room % stride == 0) return;
    const std::int32_t last_start = (room / stride + 1) * stride;
    if (last_start >= limit) return;
    after += last_start + span - (in + before + after);
  }

  constexpr void pool(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 1) || !expect_activation(o, 0)) return;
    std::uint32_t spatial = 2;
    const std::int32_t x = windowed_input(o.id[0], 0, spatial);
    if (failed() || x < 0) return;
    const shape in = m.tensor_at(x).dims;
    std::array<std::int64_t, 4> kernel{};
    if (!ints_attribute(n, "kernel_shape", attribute::kernel_shape, spatial, -1, kernel)) return;
    if (spatial == 1) kernel = {1, kernel[0], 0, 0};
    op_attributes a{};
    if (!read_window(n, in, kernel[0], kernel[1], a.win, spatial)) return;
    const bool average = current == op_type::AveragePool;
    const bool ceil_mode = int_attribute(n, "ceil_mode", 0) != 0;
    const bool include_pad = average && int_attribute(n, "count_include_pad", 0) != 0 &&
                             (a.win.pad_top | a.win.pad_left | a.win.pad_bottom | a.win.pad_right) != 0;
    if (take_reader_error()) return;
    std::int32_t source = x;
    shape extent = in;
    const std::int32_t input_end_h = a.win.pad_top + in[1], input_end_w = a.win.pad_left + in[2];
    if (include_pad) {
      // ctnn's average divides by the in-bounds count: count_include_pad pads with zeros first (a Pad op),
      // then pools without pads.
      op_attributes zeros{};
      zeros.pads[2] = a.win.pad_top, zeros.pads[3] = a.win.pad_bottom;
      zeros.pads[4] = a.win.pad_left, zeros.pads[5] = a.win.pad_right;
      source = add_node(op_kind::pad, zeros, {x}, numbered("pool_pads", static_cast<std::size_t>(node_index)));
      if (source < 0) return;
      extent = m.tensor_at(source).dims;
      a.win.pad_top = a.win.pad_left = a.win.pad_bottom = a.win.pad_right = 0;
    }
    if (ceil_mode) {
      // The ceil's extra output (a window that starts inside the input or its leading pads): more padding at
      // the end, which pooling ignores (max) or does not count (average), as ONNX does.
      const window& w = a.win;
      ceil_padding(extent[1], w.kernel_h, w.stride_h, w.dilation_h, w.pad_top, a.win.pad_bottom, input_end_h);
      ceil_padding(extent[2], w.kernel_w, w.stride_w, w.dilation_w, w.pad_left, a.win.pad_right, input_end_w);
    }
    define(result, add_node(average ? op_kind::avg_pool : op_kind::max_pool, a, {source}, label_of(result)), true, spatial == 1);
  }

  // Ops that keep the layout of their operand (relu, sigmoid, tanh), or need NHWC (global pool).
  constexpr void unary(const operands& o, std::int32_t result, op_kind kind, bool needs_nhwc) {
    if (!expect_inputs(o, 1, 1) || !expect_activation(o, 0)) return;
    unary_of(o.id[0], result, kind, needs_nhwc);
  }
  constexpr void unary_of(std::int32_t v, std::int32_t result, op_kind kind, bool needs_nhwc, const op_attributes& a = {}) {
    if (held_1d(v) || (needs_nhwc && onnx_shape(v).rank == 3)) {  // a 1-D activation: [N, 1, L, C] in and out
      const std::int32_t x = as_nhwc_1d(v, 0);
      return define(result, add_node(kind, a, {x}, label_of(result)), true, true);
    }
    const bool nhwc = needs_nhwc || prefers_nhwc(v);
    const std::int32_t x = nhwc ? as_nhwc(v, 0) : as_onnx(v, 0);
    define(result, add_node(kind, a, {x}, label_of(result)), nhwc);
  }

  // A scalar constant as a float: FLOAT, or an integer type (Clip's bounds on integers, an integer Pad's fill
  // value; integers beyond 2^24 are rounded, which pad() refuses).
  constexpr float constant_scalar(std::int32_t v, std::uint32_t slot) {
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return 0.0f;
    if (t.type == data_type::float32) return constant_float(v, slot);
    if (!is_integer(t.type) || t.dims.elements() != 1) return operand_error(slot), 0.0f;
    std::uint64_t raw = 0;
    if (t.data_field == schema::tensor::raw_data) {
      if (t.data.length != element_bytes(t.type)) return malformed(t.proto.at, protobuf::expectation::tensor_data), 0.0f;
      raw = t.type == data_type::int64 ? f.reader().load_u64(t.data.at)
            : t.type == data_type::int32 ? f.reader().load_u32(t.data.at)
                                         : f.reader().byte(t.data.at);
    } else {
      const std::uint32_t field = t.type == data_type::int64 ? schema::tensor::int64_data : schema::tensor::int32_data;
      raw = f.reader().repeated_at(t.proto, field, protobuf::wire::varint, 0);
      take_reader_error();
    }
    // The stored bits as the type's value (varints of negative int32 values carry 64 sign-extended bits).
    const std::int64_t value = t.type == data_type::int8    ? static_cast<std::int8_t>(raw & 0xffu)
                               : t.type == data_type::uint8 ? static_cast<std::int64_t>(raw & 0xffu)
                               : t.type == data_type::int32 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(raw))
                                                            : static_cast<std::int64_t>(raw);
    return static_cast<float>(value);
  }

  // Clip(0, 6) is relu6, Clip(0, max) relu, Clip without bounds the identity, any other Clip a clip op.
  constexpr void clip(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 3) || !expect_activation(o, 0)) return;
    float low = -float_max, high = float_max;
    if (f.opset() < 11) {
      low = float_attribute(n, "min", low);
      high = float_attribute(n, "max", high);
    } else {
      if (o.count > 1 && o.id[1] >= 0) low = expect_constant(o, 1) ? constant_scalar(o.id[1], 1) : 0.0f;
      if (o.count > 2 && o.id[2] >= 0) high = expect_constant(o, 2) ? constant_scalar(o.id[2], 2) : 0.0f;
    }
    if (failed() || take_reader_error()) return;
    if (low != low) return f.opset() < 11 ? attribute_error(attribute::min, -1) : operand_value_error(1, 0, low);
    if (high != high) return f.opset() < 11 ? attribute_error(attribute::max, -1) : operand_value_error(2, 0, high);
    if (low > high) low = high;  // ONNX (numpy.clip): every result is max
    if (low <= -float_max && high >= float_max) {  // no bounds: the identity (a copy, or a view)
      if (held_1d(o.id[0])) return unary_of(o.id[0], result, op_kind::reshape, false);
      const bool nhwc = prefers_nhwc(o.id[0]);
      const std::int32_t x = nhwc ? as_nhwc(o.id[0], 0) : as_onnx(o.id[0], 0);
      return define(result, add_node(op_kind::reshape, {}, {x}, label_of(result)), nhwc);
    }
    const std::int32_t x = at(o.id[0]).onnx_layout >= 0 ? at(o.id[0]).onnx_layout : at(o.id[0]).nhwc;
    const bool is_float = x >= 0 && m.tensor_at(x).type == dtype::f32;  // int8 relu would requantize
    if (is_float && low == 0.0f && (high == 6.0f || high >= float_max))
      return unary_of(o.id[0], result, high == 6.0f ? op_kind::relu6 : op_kind::relu, false);
    op_attributes a{};
    a.clip_min = low;
    a.clip_max = high;
    unary_of(o.id[0], result, op_kind::clip, false, a);
  }

  // A constant operand of an element-wise op next to an NHWC activation: padded to rank 4 on the left
  // (numpy broadcasting), then re-laid out as NHWC.
  constexpr std::int32_t broadcast_constant_nhwc(std::int32_t v, std::uint32_t slot) {
    const shape s = constant_shape(v);
    if (failed()) return -1;
    if (s.rank > 4) return rank_error(slot, s), -1;
    shape padded = make_shape(1, 1, 1, 1);
    for (std::int32_t d = 0; d < s.rank; ++d) padded.dims[static_cast<std::size_t>(4 - s.rank + d)] = s[d];
    const std::array<std::int64_t, 4> nchw_strides{static_cast<std::int64_t>(padded[1]) * padded[2] * padded[3],
                                                   static_cast<std::int64_t>(padded[2]) * padded[3], padded[3], 1};
    return gathered(v, slot, to_nhwc(padded), {nchw_strides[0], nchw_strides[2], nchw_strides[3], nchw_strides[1]}, 1.0f);
  }

  // The element type of a value (constants: their TensorProto's, types ctnn does not read as i64: dtype_of).
  constexpr dtype element_type(std::int32_t v) {
    if (is_constant(v)) {
      const tensor_view t = f.read_tensor(at(v).proto);
      take_reader_error();
      return dtype_of(t.type);
    }
    const value& x = at(v);
    return m.tensor_at(x.onnx_layout >= 0 ? x.onnx_layout : x.nhwc).type;
  }

  static constexpr bool is_integer(data_type t) {
    return t == data_type::int8 || t == data_type::uint8 || t == data_type::int32 || t == data_type::int64;
  }

  // An integer constant read in place (zero-copy into the embedded bytes, ONNX's shape): raw_data of `type`,
  // aligned to its element size, since the kernels read typed elements.
  constexpr std::int32_t integer_constant(std::int32_t v, std::uint32_t slot, dtype type) {
    if (at(v).onnx_layout >= 0) return at(v).onnx_layout;
    const tensor_view t = f.read_tensor(at(v).proto);
    if (take_reader_error() || !checked_tensor(v, t)) return -1;
    if (!is_integer(t.type) || dtype_of(t.type) != type) return fail(onnx_error::integer_arithmetic, static_cast<std::int64_t>(current), slot), -1;
    if (t.data_field != schema::tensor::raw_data)
      return fail(onnx_error::unsupported_tensor_feature, at(v).name.at, static_cast<std::int64_t>(tensor_feature::unpacked_values)), -1;
    if (static_cast<std::int64_t>(t.data.length) != t.dims.elements() * element_bytes(t.type))
      return malformed(t.proto.at, protobuf::expectation::tensor_data), -1;
    if (t.data.at % element_bytes(t.type) != 0)
      return fail(onnx_error::unsupported_tensor_feature, at(v).name.at, static_cast<std::int64_t>(tensor_feature::unaligned_integers)), -1;
    const std::int32_t id = add_tensor(t.dims.rank == 0 ? make_shape(1) : t.dims, label_of(v), tensor_role::constant);
    if (id < 0) return -1;
    m.tensor_at(id).type = type;
    m.tensor_at(id).data.bytes = f.reader().pointer(t.data.at);
    m.tensor_at(id).data.file = f.reader().pointer(0);
    return at(v).onnx_layout = id;
  }

  // Whether `v` is an integer value of `type` that a float holds exactly (up to 2^24).
  static constexpr bool fits(float v, dtype type) {
    const float low = type == dtype::u8 ? 0.0f : type == dtype::i8 ? -128.0f : -16777216.0f;
    const float high = type == dtype::u8 ? 255.0f : type == dtype::i8 ? 127.0f : 16777216.0f;
    return v >= low && v <= high && static_cast<float>(static_cast<std::int32_t>(v)) == v;
  }

  // Add/Mul of plain integers: ONNX's semantics (the result wraps around in the element type), run by the
  // kernels of ONNX's integer ops (kernel/reference/onnx_quant). Both operands of one integer type, in the
  // ONNX layout (numpy broadcasting); a constant operand is read in place.
  constexpr void integer_binary(const operands& o, std::int32_t result, op_kind kind, dtype type) {
    std::array<std::int32_t, 2> x{};
    for (const std::uint32_t slot : {0u, 1u}) {
      const std::int32_t v = o.id[slot];
      x[slot] = is_constant(v) ? integer_constant(v, slot, type) : as_onnx(v, slot);
      if (failed() || x[slot] < 0) return;
      if (m.tensor_at(x[slot]).type != type) return fail(onnx_error::integer_arithmetic, static_cast<std::int64_t>(current), slot);
    }
    define(result, add_node(kind, {}, {x[0], x[1]}, label_of(result)), false);
  }

  constexpr void binary(const operands& o, std::int32_t result, op_kind kind) {
    if (!expect_inputs(o, 2, 2)) return;
    const std::int32_t a = o.id[0], b = o.id[1];
    const shape sa = onnx_shape(a), sb = onnx_shape(b);
    if (failed()) return;
    // The first operand's type decides (ONNX gives both one type; integer_binary checks the second).
    if (const dtype type = element_type(a); type != dtype::f32) return failed() ? void() : integer_binary(o, result, kind, type);
    // NHWC when an activation operand has it and the other operand can follow: a rank-4 activation, or
    // a constant (re-laid out). Otherwise both in the ONNX layout.
    const bool a_ok = is_constant(a) || sa.rank == 4, b_ok = is_constant(b) || sb.rank == 4;
    const bool nhwc = (prefers_nhwc(a) || prefers_nhwc(b)) && a_ok && b_ok && sa.rank <= 4 && sb.rank <= 4 &&
                      (sa.rank == 4 || sb.rank == 4);
    const auto operand = [&](std::int32_t v, std::uint32_t slot) {
      if (!nhwc) return as_onnx(v, slot);
      return is_constant(v) ? broadcast_constant_nhwc(v, slot) : as_nhwc(v, slot);
    };
    const std::int32_t x = operand(a, 0);
    const std::int32_t y = operand(b, 1);
    if (failed()) return;
    if (m.tensor_at(y).type != dtype::f32) return fail(onnx_error::integer_arithmetic, static_cast<std::int64_t>(current), 1);
    define(result, add_node(kind, {}, {x, y}, label_of(result)), nhwc);
  }

  constexpr void softmax(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 1) || !expect_activation(o, 0)) return;
    const bool v13 = f.opset() >= 13;
    const shape s = onnx_shape(o.id[0]);
    std::int64_t axis = int_attribute(n, "axis", v13 ? -1 : 1);
    if (failed() || take_reader_error()) return;
    if (axis < 0) axis += s.rank;
    if (axis < 0 || axis >= s.rank) return fail(error_code::invalid_axis, node_index, op_kind::softmax, axis, s.rank);
    if (v13 && prefers_nhwc(o.id[0]) && axis == 1) {
      const std::int32_t x = as_nhwc(o.id[0], 0);  // the channels are the last NHWC axis
      return define(result, add_node(op_kind::softmax, {}, {x}, label_of(result)), true);
    }
    const std::int32_t x = as_onnx(o.id[0], 0);
    if (axis == s.rank - 1) return define(result, add_node(op_kind::softmax, {}, {x}, label_of(result)), false);
    if (v13) {
      // Another axis: swapped with the last one, the softmax, and swapped back.
      const auto swap = swapping(s.rank, static_cast<std::int32_t>(axis), s.rank - 1);
      const std::int32_t moved = transpose(x, swap, numbered("softmax_axis_last", static_cast<std::size_t>(node_index)));
      const std::int32_t y = add_node(op_kind::softmax, {}, {moved}, numbered("softmax", static_cast<std::size_t>(node_index)));
      return define(result, transpose(y, swap, label_of(result)), false);
    }
    // Before opset 13: softmax over the flattened [prod(dims < axis), prod(dims >= axis)].
    std::int64_t outer = 1;
    for (std::int32_t d = 0; d < axis; ++d) outer *= s[d];
    const std::int32_t flat = reshape(x, make_shape(outer, s.elements() / outer), numbered("softmax_2d", static_cast<std::size_t>(node_index)));
    const std::int32_t y = add_node(op_kind::softmax, {}, {flat}, numbered("softmax", static_cast<std::size_t>(node_index)));
    define(result, reshape(y, s, label_of(result)), false);
  }

  constexpr void reshape_node(const node_view& n, const operands& o, std::int32_t result) {
    const bool from_input = f.opset() >= 5;
    if (!expect_inputs(o, from_input ? 2 : 1, from_input ? 2 : 1)) return;
    shape target{};
    std::int64_t count = 0;
    if (from_input) {
      if (!expect_constant(o, 1)) return;
      constant_int(o.id[1], 1, 0, count);
      if (failed()) return;
      if (constant_shape(o.id[1]).rank != 1) return operand_error(1);
      if (count > static_cast<std::int64_t>(max_rank)) return fail(onnx_error::rank_too_high, at(o.id[1]).name.at, count);
      for (std::uint32_t k = 0; k < count && !failed(); ++k) {
        const std::int64_t extent = constant_int(o.id[1], 1, k, count);
        if (extent < -1 || extent > 0x7fffffff) return operand_value_error(1, k, extent);
        target.dims[k] = static_cast<std::int32_t>(extent);
      }
    } else {
      const attribute_view a = f.attribute(n, "shape");
      count = f.ints_count(a);
      if (count > static_cast<std::int64_t>(max_rank)) return fail(onnx_error::rank_too_high, 0, count);
      for (std::uint32_t k = 0; k < count; ++k) {
        const std::int64_t extent = f.ints_at(a, k);
        if (extent < -1 || extent > 0x7fffffff) return attribute_error(attribute::shape, extent);
        target.dims[k] = static_cast<std::int32_t>(extent);
      }
    }
    if (failed() || take_reader_error()) return;
    target.rank = static_cast<std::int32_t>(count);
    bool zero = false;
    for (std::int32_t d = 0; d < target.rank; ++d) zero = zero || target[d] == 0;
    if (zero && int_attribute(n, "allowzero", 0) != 0) return attribute_error(attribute::allowzero, 1);
    if (target.rank == 0) target = make_shape(1);  // a scalar: one element ("rank 0" is "keep" in the IR)
    const std::int32_t x = as_onnx(o.id[0], 0);
    define(result, reshape(x, target, label_of(result)), false);
  }

  constexpr void flatten(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 1)) return;
    const shape s = onnx_shape(o.id[0]);
    std::int64_t axis = int_attribute(n, "axis", 1);
    if (failed() || take_reader_error()) return;
    if (axis < 0) axis += s.rank;
    if (axis < 0 || axis > s.rank) return fail(error_code::invalid_axis, node_index, op_kind::reshape, axis, s.rank);
    std::int64_t outer = 1;
    for (std::int32_t d = 0; d < axis; ++d) outer *= s[d];
    const std::int32_t x = as_onnx(o.id[0], 0);
    define(result, reshape(x, make_shape(outer, s.elements() / outer), label_of(result)), false);
  }

  constexpr void concat(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, max_node_inputs)) return;
    const shape s = onnx_shape(o.id[0]);
    const attribute_view axis_attribute = f.attribute(n, "axis");
    std::int64_t axis = f.int_attribute(axis_attribute, 1);
    if (failed() || take_reader_error()) return;
    if (!axis_attribute.present() && f.opset() >= 4) return attribute_error(attribute::axis, -1);
    if (axis < 0) axis += s.rank;
    if (axis < 0 || axis >= s.rank) return fail(error_code::invalid_axis, node_index, op_kind::concat, axis, s.rank);
    bool nhwc = s.rank == 4;
    bool any_nhwc = false;
    for (std::uint32_t k = 0; k < o.count; ++k) {
      if (o.id[k] < 0) return operand_error(k);
      any_nhwc = any_nhwc || prefers_nhwc(o.id[k]);
    }
    nhwc = nhwc && any_nhwc;
    std::array<std::int32_t, max_node_inputs> inputs{};
    for (std::uint32_t k = 0; k < o.count; ++k) inputs[k] = nhwc ? as_nhwc(o.id[k], k) : as_onnx(o.id[k], k);
    if (failed()) return;
    op_attributes a{};
    a.axis = nhwc ? nhwc_of_nchw[static_cast<std::size_t>(axis)] : static_cast<std::int32_t>(axis);
    const std::int32_t out = add_node(op_kind::concat, a, {inputs[0]}, label_of(result));
    if (out < 0) return;
    // The other operands, then the shape again (add_node inferred it from the first alone).
    node& c = m.node_at(m.tensor_at(out).producer);
    for (std::uint32_t k = 1; k < o.count; ++k) c.inputs[k] = inputs[k];
    c.input_count = static_cast<std::int32_t>(o.count);
    const shape dims = shape_rules::infer_node(m, m.tensor_at(out).producer);
    if (failed()) return void(m.error.node = node_index);
    m.tensor_at(out).dims = dims;
    define(result, out, nhwc);
  }

  constexpr void pad(const node_view& n, const operands& o, std::int32_t result) {
    const bool from_input = f.opset() >= 11;
    if (!expect_inputs(o, from_input ? 2 : 1, from_input ? 4 : 1) || !expect_activation(o, 0)) return;
    const std::string_view mode = f.string_attribute(f.attribute(n, "mode"), "constant");
    if (take_reader_error()) return;
    const pad_mode fill_mode = mode == "reflect" ? pad_mode::reflect
                               : mode == "edge"  ? pad_mode::edge
                               : mode == "wrap"  ? pad_mode::wrap
                                                 : pad_mode::constant;
    if (mode != "constant" && fill_mode == pad_mode::constant) return string_attribute_error(n, "mode", attribute::mode);
    const shape s = onnx_shape(o.id[0]);
    std::array<std::int64_t, 2 * max_rank> pads{};
    float fill = 0.0f;
    std::int64_t count = 0;
    if (from_input) {
      if (!expect_constant(o, 1)) return;
      constant_int(o.id[1], 1, 0, count);
      if (failed()) return;
      // axes (opset 18): pads name these dims only ([begins..., ends...] in axes' order).
      std::array<std::int32_t, max_rank> axes{};
      std::int64_t axis_count = s.rank;
      for (std::int32_t d = 0; d < s.rank; ++d) axes[static_cast<std::size_t>(d)] = d;
      if (o.count > 3 && o.id[3] >= 0) {
        if (!expect_constant(o, 3)) return;
        constant_int(o.id[3], 3, 0, axis_count);
        if (failed()) return;
        if (axis_count > s.rank) return operand_error(3);
        for (std::uint32_t k = 0; k < axis_count; ++k) {
          std::int64_t axis = constant_int(o.id[3], 3, k, axis_count);
          if (axis < 0) axis += s.rank;
          if (axis < 0 || axis >= s.rank) return fail(error_code::invalid_axis, node_index, op_kind::pad, axis, s.rank);
          axes[k] = static_cast<std::int32_t>(axis);
        }
      }
      if (count != 2 * axis_count) return operand_error(1);
      for (std::uint32_t k = 0; k < axis_count; ++k) {
        pads[static_cast<std::size_t>(axes[k])] = constant_int(o.id[1], 1, k, count);
        pads[static_cast<std::size_t>(axes[k] + s.rank)] = constant_int(o.id[1], 1, static_cast<std::uint32_t>(k + axis_count), count);
      }
      count = 2 * s.rank;
      if (o.count > 2 && o.id[2] >= 0) fill = expect_constant(o, 2) ? constant_scalar(o.id[2], 2) : 0.0f;
    } else {
      const attribute_view a = f.attribute(n, f.opset() >= 2 ? "pads" : "paddings");
      count = f.ints_count(a);
      if (take_reader_error()) return;
      if (count != 2 * s.rank) return attribute_error(attribute::pads, count);
      for (std::uint32_t k = 0; k < count; ++k) pads[k] = f.ints_at(a, k);
      fill = float_attribute(n, "value", 0.0f);
    }
    if (failed() || take_reader_error()) return;
    for (std::int32_t k = 0; k < 2 * s.rank; ++k)
      if (pads[static_cast<std::size_t>(k)] < 0 || pads[static_cast<std::size_t>(k)] > max_window_value)
        return attribute_error(attribute::pads, pads[static_cast<std::size_t>(k)]);
    // An integer tensor's fill value must be one of its values (the kernel converts it to the element type).
    if (const dtype type = element_type(o.id[0]); type != dtype::f32 && !fits(fill, type)) return operand_error(2);
    const bool nhwc = prefers_nhwc(o.id[0]);
    op_attributes a{};
    a.pad_value = fill;
    a.fill_mode = fill_mode;
    for (std::int32_t d = 0; d < s.rank; ++d) {
      // IR dim d holds ONNX dim d, or (NHWC) ONNX dim nchw_of_nhwc[d]; ONNX pads are [begins..., ends...].
      const std::int32_t source = nhwc ? nchw_of_nhwc[static_cast<std::size_t>(d)] : d;
      a.pads[static_cast<std::size_t>(2 * d)] = static_cast<std::int32_t>(pads[static_cast<std::size_t>(source)]);
      a.pads[static_cast<std::size_t>(2 * d + 1)] = static_cast<std::int32_t>(pads[static_cast<std::size_t>(source + s.rank)]);
    }
    const std::int32_t x = nhwc ? as_nhwc(o.id[0], 0) : as_onnx(o.id[0], 0);
    define(result, add_node(op_kind::pad, a, {x}, label_of(result)), nhwc);
  }

  // Transpose (perm: a permutation of the dims; absent: reversed). An input held in NHWC alone is
  // transposed from there, the two permutations composed.
  constexpr void transpose_node(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 1, 1)) return;
    const shape s = onnx_shape(o.id[0]);
    const attribute_view given = f.attribute(n, "perm");
    if (failed() || take_reader_error()) return;
    std::array<std::int32_t, max_rank> perm{};
    const std::uint32_t count = given.present() ? f.ints_count(given) : static_cast<std::uint32_t>(s.rank);
    if (take_reader_error()) return;
    if (count != static_cast<std::uint32_t>(s.rank)) return attribute_error(attribute::perm, count);
    for (std::int32_t d = 0; d < s.rank; ++d) {
      const std::int64_t from = given.present() ? f.ints_at(given, static_cast<std::uint32_t>(d)) : s.rank - 1 - d;
      if (from < 0 || from >= s.rank) return attribute_error(attribute::perm, from);
      perm[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(from);
    }
    if (take_reader_error()) return;
    const value& x = at(o.id[0]);
    // A constant is folded; a 1-D value held as [N, 1, L, C] is read in its ONNX layout.
    std::int32_t source = is_constant(o.id[0]) || x.one_d ? as_onnx(o.id[0], 0) : x.onnx_layout;
    if (source < 0 && !failed()) {  // NHWC only: ONNX dim k is NHWC dim nhwc_of_nchw[k]
      source = x.nhwc;
      for (std::int32_t d = 0; d < s.rank; ++d)
        perm[static_cast<std::size_t>(d)] = nhwc_of_nchw[static_cast<std::size_t>(perm[static_cast<std::size_t>(d)])];
    }
    op_attributes a{};
    a.perm = perm;
    define(result, add_node(op_kind::transpose, a, {source}, label_of(result)), false);
  }

  constexpr void batch_norm(const node_view& n, const operands& o, std::int32_t result) {
    if (!expect_inputs(o, 5, 5) || !expect_activation(o, 0)) return;
    for (std::uint32_t k = 1; k < 5; ++k)
      if (!expect_constant(o, k)) return;
    if (int_attribute(n, "training_mode", 0) != 0) return attribute_error(attribute::training_mode, 1);
    if (f.opset() < 9 && int_attribute(n, "spatial", 1) != 1) return attribute_error(attribute::spatial, 0);
    const float epsilon = float_attribute(n, "epsilon", 1e-5f);
    const shape s = onnx_shape(o.id[0]);
    if (failed() || take_reader_error()) return;
    if (s.rank < 2 || s.rank > 4) return rank_error(0, s);
    // The channels (ONNX axis 1) are the last axis of an NHWC tensor (a 1-D [N, C, L] one: [N, 1, L, C]) and
    // of a [N, C] one.
    const std::int32_t x = s.rank == 4 ? as_nhwc(o.id[0], 0) : s.rank == 3 ? as_nhwc_1d(o.id[0], 0) : as_onnx(o.id[0], 0);
    std::array<std::int32_t, 4> parameters{};
    for (std::uint32_t k = 1; k < 5; ++k) {
      if (constant_shape(o.id[k]).elements() != s[1]) return operand_error(k);
      parameters[k - 1] = gathered(o.id[k], k, make_shape(s[1]), {1, 0, 0, 0}, 1.0f);
    }
    op_attributes a{};
    a.epsilon = epsilon;
    define(result, add_node(op_kind::batch_norm, a, {x, parameters[0], parameters[1], parameters[2], parameters[3]}, label_of(result)),
           s.rank >= 3, s.rank == 3);
  }

  // ---------------------------------------------------------------------------------------------------
  // The graph.

  constexpr void import_inputs(const protobuf::span& graph) {
    protobuf::field fd{};
    for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd) && !failed();) {
      if (fd.number != schema::graph::input) continue;
      const value_info_view info = f.read_value_info(fd.bytes);
      if (take_reader_error()) return;
      if (info.name.length > 0 && find(info.name) >= 0 && is_constant(find(info.name))) continue;  // IR 3: initializers listed
      if (m.input_count >= static_cast<std::int32_t>(max_model_io))
        return fail(onnx_error::too_many_model_io, 0, m.input_count + 1);
      const std::int32_t v = add_value(info.name, value_kind::graph_input, fd.tag_at);
      if (v < 0) return;
      // float32, or integers: 8-bit for the quantized ops (quantized.hpp), any of them for plain integer ops
      if (info.type != data_type::float32 && !is_integer(info.type))
        return fail(onnx_error::unsupported_tensor_type, info.name.at, static_cast<std::int64_t>(info.type));
      if (info.rank > max_rank) return fail(onnx_error::rank_too_high, info.name.at, info.rank);
      bool is_static = info.has_shape;
      for (std::int32_t d = 0; d < info.dims.rank; ++d) is_static = is_static && info.dims[d] > 0;
      if (!is_static || pass_too_large(info.dims)) return fail(onnx_error::no_static_shape, info.name.at, info.rank, {}, info.dims);
      const std::int32_t id = add_tensor(info.dims, label_of(v), tensor_role::input);
      if (id < 0) return;
      m.tensor_at(id).type = dtype_of(info.type);
      m.tensor_at(id).io_index = m.input_count;
      m.inputs[static_cast<std::size_t>(m.input_count++)] = id;
      at(v).onnx_layout = id;
    }
    take_reader_error();
  }

  constexpr void import_outputs(const protobuf::span& graph) {
    protobuf::field fd{};
    for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd) && !failed();) {
      if (fd.number != schema::graph::output) continue;
      const protobuf::span name = f.reader().message_field(fd.bytes, schema::value_info::name);
      if (take_reader_error()) return;
      const std::int32_t v = find(name);
      if (v < 0) return malformed(fd.tag_at, protobuf::expectation::graph_output);
      if (m.output_count >= static_cast<std::int32_t>(max_model_io)) return fail(onnx_error::too_many_model_io, 1, m.output_count + 1);
      node_index = -1;
      current = op_type::unknown;
      std::int32_t id = as_onnx(v, 0);
      if (failed() || id < 0) return;
      // A graph input, a constant, or an output listed twice: a copy writes this output's buffer.
      if (m.tensor_at(id).role != tensor_role::intermediate || at(v).copies++ > 0)
        id = add_node(op_kind::reshape, {}, {id}, numbered("output", static_cast<std::size_t>(m.output_count)));
      if (id < 0) return;
      tensor& t = m.tensor_at(id);
      t.role = tensor_role::output;
      t.io_index = m.output_count;
      t.label = label_of(v);
      m.outputs[static_cast<std::size_t>(m.output_count++)] = id;
    }
    take_reader_error();
  }

  constexpr void run(std::string_view model_name) {
    m.model_name = name{model_name};
    if constexpr (requires { m.requantization; }) m.requantization = requantization_policy::onnx;  // docs/design.md §4
    if (take_reader_error()) return;
    const protobuf::span graph = f.graph();
    protobuf::field fd{};
    // Initializers first (nodes read them by name), then the runtime inputs, the nodes, the outputs.
    for (std::uint32_t at_ = graph.at; f.reader().next(graph, at_, fd) && !failed();) {
      if (fd.number == schema::graph::sparse_initializer)
        return fail(onnx_error::unsupported_tensor_feature, fd.bytes.at, static_cast<std::int64_t>(tensor_feature::sparse));
      if (fd.number != schema::graph::initializer) continue;
      const protobuf::span label = f.reader().message_field(fd.bytes, schema::tensor::name);
      const std::int32_t v = take_reader_error() ? -1 : add_value(label, value_kind::initializer, fd.tag_at);
      if (v >= 0) at(v).proto = fd.bytes;
    }
    if (take_reader_error() || failed()) return;
    import_inputs(graph);
    node_index = 0;
    for (std::uint32_t at_ = graph.at; !failed() && f.reader().next(graph, at_, fd);) {
      if (fd.number != schema::graph::node) continue;
      import_node(fd.bytes);
      ++node_index;
    }
    if (take_reader_error() || failed()) return;
    import_outputs(graph);
  }
};

// The graph's record counts (for bounds).
struct graph_counts {
  std::size_t nodes = 0, initializers = 0, inputs = 0, outputs = 0, node_inputs = 0, node_outputs = 0;
};

constexpr graph_counts count_graph(model_file& f) {
  graph_counts c{};
  const protobuf::span graph = f.graph();
  protobuf::field fd{};
  for (std::uint32_t at = graph.at; f.reader().next(graph, at, fd);) {
    if (fd.number == schema::graph::node) {
      ++c.nodes;
      c.node_inputs += f.reader().count(fd.bytes, schema::node::input);
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
// counts: every value may get a layout conversion, every operand a re-laid-out constant). count() makes
// them exact.
constexpr import_counts bounds(const char* bytes, std::size_t size) {
  model_file f{bytes, size};
  const detail::graph_counts c = detail::count_graph(f);
  if (f.failed()) return {};
  const std::size_t values = c.initializers + c.inputs + c.node_outputs;
  import_counts b{};
  b.values = values + 1;
  b.relayouts = c.node_inputs + values + 1;
  b.tensors = 5 * values + c.node_inputs + 3 * c.nodes + c.outputs + 1;
  b.nodes = 4 * values + 3 * c.nodes + c.outputs + 1;
  return b;
}

// Imports the graph of an ONNX file into `r`, an import_result as constructed, whose capacities hold
// bounds() or count(); MaxValues: the ONNX values it may hold. In place: at run time the result lives on
// the heap (it can be megabytes).
template <std::size_t MaxValues, std::size_t MaxTensors, std::size_t MaxNodes, std::size_t MaxRelayouts>
constexpr void import_into(import_result<MaxTensors, MaxNodes, MaxRelayouts>& r, const char* bytes, std::size_t size,
                           std::string_view model_name = "onnx") {
  model_file f{bytes, size};
  std::array<detail::value, MaxValues> values{};
  detail::importer<module<MaxTensors, MaxNodes>, MaxValues, MaxRelayouts> run{f, r.ir, values, r.relayouts};
  run.run(model_name);
  r.relayout_count = run.relayout_count;
  r.value_count = run.value_count;
}

// The same as a value (constant evaluation: onnx::model).
template <std::size_t MaxTensors, std::size_t MaxNodes, std::size_t MaxValues, std::size_t MaxRelayouts>
constexpr import_result<MaxTensors, MaxNodes, MaxRelayouts> import(const char* bytes, std::size_t size,
                                                                    std::string_view model_name = "onnx") {
  import_result<MaxTensors, MaxNodes, MaxRelayouts> r{};
  import_into<MaxValues>(r, bytes, size, model_name);
  return r;
}

// The exact capacities: an import with the bounds, counted.
template <std::size_t MaxTensors, std::size_t MaxNodes, std::size_t MaxValues, std::size_t MaxRelayouts>
constexpr import_counts count(const char* bytes, std::size_t size) {
  module_graph<MaxTensors, MaxNodes> m{};  // the graph alone: a whole module's tables would cost steps
  std::array<relayout, MaxRelayouts> relayouts{};
  std::array<detail::value, MaxValues> values{};
  model_file f{bytes, size};
  detail::importer<module_graph<MaxTensors, MaxNodes>, MaxValues, MaxRelayouts> run{f, m, values, relayouts};
  run.run("onnx");
  import_counts c{};
  c.tensors = m.tensor_count > 0 ? static_cast<std::size_t>(m.tensor_count) : 1;
  c.nodes = m.node_count > 0 ? static_cast<std::size_t>(m.node_count) : 1;
  c.values = run.value_count > 0 ? static_cast<std::size_t>(run.value_count) : 1;
  c.relayouts = run.relayout_count > 0 ? static_cast<std::size_t>(run.relayout_count) : 1;
  return c;
}

}  // namespace ctnn::onnx
