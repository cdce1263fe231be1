// The protobuf (ONNX) structure-aware mutator (structured_mutator.hpp).
//
// The parse walks the message tree by wire type (varint, i64, len, i32; groups are refused, as ctnn's
// reader refuses them) with the ONNX schema (../shared/FORMATS.md §3) naming each field: ModelProto,
// OperatorSetIdProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto, TypeProto,
// TypeProto.Tensor, TensorShapeProto, Dimension, StringStringEntryProto, TensorProto.Segment. A
// length-delimited field is a sub-message when the schema says so (and its bytes parse), a packed repeated
// scalar when the schema says so (dims, ints, floats, float_data, int32_data, int64_data, double_data,
// uint64_data: its elements are edited one by one), a string or bytes when the schema says so, and for a
// field the schema does not know a sub-message exactly when its bytes parse completely as records. The
// whole file must parse as a message, else the call falls back to the byte mutator.
//
// Each record is kept with its position, its tag, the position of its length varint and the record that
// encloses it. An edit that changes a length (a varint re-encoded with more or fewer bytes, a string
// replaced, a record deleted or inserted) is a splice: the bytes are replaced and the length of every
// enclosing record, from the innermost out, is re-encoded (a re-encoded length may itself change size,
// which the next enclosing length absorbs). A call applies 1 to 3 edits, re-parsing between them:
//   varint (28 %)     ir_version, opset versions, dims (also packed), data_type and elem_type (0..27),
//                     attribute type, ints, i; in place when the new encoding has the old length (or can
//                     be padded to it: non-minimal varints are valid), else spliced
//   fixed (9 %)       fixed32 floats (attribute f/floats, float_data) and fixed64 doubles: NaN, +-inf,
//                     denormals, ...
//   bytes (9 %)       1, 2, 4 or 8 bytes of raw_data (and other bytes fields) set to an interesting value
//   resize (5 %)      a string, bytes or packed payload shortened or lengthened (raw_data that no longer
//                     matches its dims)
//   string (15 %)     a value name (node input/output, graph input/output/value_info, initializer name)
//                     replaced by another name of the file, emptied, or made dangling; an op_type by
//                     another op type; an attribute name; an attribute string (auto_pad, mode); a domain
//   delete (12 %)     a record deleted (a node, an initializer, a graph input/output, a node operand, an
//                     attribute, a dim, an opset import, ...), preferring repeated fields
//   duplicate (8 %)   a record duplicated in place
//   move (6 %)        two sibling records swapped (nodes out of topological order, operands reordered)
//   transplant (8 %)  a record copied to the end of another message of the same type (an attribute of
//                     one node into another, a dim into another shape, a node into a subgraph)
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include <ctnn/frontend/onnx/schema.hpp>

#include "mutator_detail.hpp"

namespace ctnn_fuzz::structured::detail {
namespace {

// Message types (none: a string, bytes or a packed payload; unknown: decided by whether it parses).
enum class msg : std::uint8_t { none, unknown, model, opset, graph, node, attribute, tensor, value_info, type, type_tensor, shape, dim, entry, segment };
enum class role : std::uint8_t {
  integer,
  ir_version,
  opset_version,
  dim,
  data_type,
  attr_type,
  data_location,
  boolean,
  value_name,
  op_type,
  attr_name,
  attr_string,
  domain,
  text,
  bytes,
  floating,
  message,
};
enum class packing : std::uint8_t { none, varint, fixed32, fixed64 };

struct spec {
  msg sub = msg::unknown;  // for length-delimited records
  role kind = role::integer;
  packing packed = packing::none;  // a repeated scalar: how its elements are written when packed
};
constexpr spec message(msg m) { return {m, role::message, packing::none}; }
constexpr spec varint(role r) { return {msg::none, r, packing::varint}; }
constexpr spec fixed32() { return {msg::none, role::floating, packing::fixed32}; }
constexpr spec fixed64() { return {msg::none, role::floating, packing::fixed64}; }
constexpr spec text(role r = role::text) { return {msg::none, r, packing::none}; }
constexpr spec unknown() { return {msg::unknown, role::integer, packing::none}; }

// What field `number` of a message of type `m` is.
spec lookup(msg m, std::uint32_t number) {
  switch (m) {
    case msg::model:
      switch (number) {
        case 1: return varint(role::ir_version);
        case 2: case 3: case 6: return text();
        case 4: return text(role::domain);
        case 5: return varint(role::integer);
        case 7: return message(msg::graph);
        case 8: return message(msg::opset);
        case 14: return message(msg::entry);
        default: return unknown();
      }
    case msg::opset:
      if (number == 1) return text(role::domain);
      if (number == 2) return varint(role::opset_version);
      return unknown();
    case msg::graph:
      switch (number) {
        case 1: return message(msg::node);
        case 2: case 10: return text();
        case 5: return message(msg::tensor);
        case 11: case 12: case 13: return message(msg::value_info);
        case 16: return message(msg::entry);
        default: return unknown();
      }
    case msg::node:
      switch (number) {
        case 1: case 2: return text(role::value_name);
        case 3: case 6: case 8: return text();
        case 4: return text(role::op_type);
        case 5: return message(msg::attribute);
        case 7: return text(role::domain);
        case 9: return message(msg::entry);
        default: return unknown();
      }
    case msg::attribute:
      switch (number) {
        case 1: case 21: return text(role::attr_name);
        case 2: case 7: return fixed32();
        case 3: case 8: return varint(role::integer);
        case 4: case 9: return text(role::attr_string);
        case 5: case 10: return message(msg::tensor);
        case 6: case 11: return message(msg::graph);
        case 13: return text();
        case 14: case 15: return message(msg::type);
        case 20: return varint(role::attr_type);
        default: return unknown();
      }
    case msg::tensor:
      switch (number) {
        case 1: return varint(role::dim);
        case 2: return varint(role::data_type);
        case 3: return message(msg::segment);
        case 4: return fixed32();
        case 5: case 7: case 11: return varint(role::integer);
        case 6: case 9: return text(role::bytes);
        case 8: return text(role::value_name);
        case 10: return fixed64();
        case 12: return text();
        case 13: case 16: return message(msg::entry);
        case 14: return varint(role::data_location);
        default: return unknown();
      }
    case msg::value_info:
      if (number == 1) return text(role::value_name);
      if (number == 2) return message(msg::type);
      if (number == 3) return text();
      if (number == 4) return message(msg::entry);
      return unknown();
    case msg::type:
      if (number == 1 || number == 8) return message(msg::type_tensor);
      if (number == 6) return text();
      return unknown();
    case msg::type_tensor:
      if (number == 1) return varint(role::data_type);
      if (number == 2) return message(msg::shape);
      return unknown();
    case msg::shape: return number == 1 ? message(msg::dim) : unknown();
    case msg::dim:
      if (number == 1) return varint(role::dim);
      if (number == 2 || number == 3) return text();
      return unknown();
    case msg::entry: return number == 1 || number == 2 ? text() : unknown();
    case msg::segment: return number == 1 || number == 2 ? varint(role::integer) : unknown();
    case msg::none:
    case msg::unknown: return unknown();
  }
  return unknown();
}

// Whether (m, number) is a repeated field whose occurrences a delete or duplicate should prefer.
bool repeated(msg m, std::uint32_t number) {
  switch (m) {
    case msg::model: return number == 8;
    case msg::graph: return number == 1 || number == 5 || number == 11 || number == 12 || number == 13;
    case msg::node: return number == 1 || number == 2 || number == 5;
    case msg::attribute: return number == 7 || number == 8;
    case msg::tensor: return number == 1;
    case msg::shape: return number == 1;
    default: return false;
  }
}

struct record {
  std::uint32_t tag_at = 0;
  std::uint32_t value_at = 0;  // the varint or fixed payload, or the length varint
  std::uint32_t end = 0;
  std::uint32_t payload_at = 0;  // length-delimited records
  std::uint32_t payload_length = 0;
  std::int32_t parent = -1;  // the length-delimited record whose payload holds this one (-1: top level)
  std::uint32_t number = 0;
  std::uint8_t wire = 0;
  msg container = msg::model;
  msg sub = msg::none;  // the message type when the payload parsed as a message
  role kind = role::integer;
};
// An element of a packed repeated scalar.
struct element {
  std::uint32_t at = 0, length = 0;
  std::int32_t parent = -1;  // the packed record
  role kind = role::integer;
  packing type = packing::varint;
};
struct tree {
  std::vector<record> records;
  std::vector<element> elements;
};

constexpr std::size_t max_records = std::size_t{1} << 18;
constexpr unsigned max_depth = 32;

bool read_varint(const std::uint8_t* data, std::uint32_t& at, std::uint32_t end, std::uint64_t& value) {
  value = 0;
  for (unsigned k = 0; k < 10 && at < end; ++k) {
    const std::uint8_t b = data[at++];
    value |= static_cast<std::uint64_t>(b & 0x7fu) << (7 * k);
    if ((b & 0x80u) == 0) return true;
  }
  return false;
}

// The varint encoding of v, at least `length` (<= 10) bytes (padded with continuation bytes: still valid).
unsigned encode_varint(std::uint64_t v, std::array<std::uint8_t, 10>& out, unsigned length = 1) {
  unsigned n = 0;
  while (n < out.size()) {
    const auto low = static_cast<std::uint8_t>(v & 0x7fu);
    v >>= 7;
    const bool more = v != 0 || n + 1 < length;
    out[n++] = more ? static_cast<std::uint8_t>(low | 0x80u) : low;
    if (!more) break;
  }
  return n;
}

class parser {
 public:
  parser(const std::uint8_t* data, std::size_t size, tree& t) : data_(data), size_(size), t_(t) {}

  bool run() {
    t_.records.clear();
    t_.elements.clear();
    return size_ > 0 && size_ <= 0x7fffffffu && message(0, static_cast<std::uint32_t>(size_), msg::model, -1, 0) &&
           !t_.records.empty();
  }

 private:
  bool undo(std::size_t records, std::size_t elements) {
    t_.records.resize(records);
    t_.elements.resize(elements);
    return false;
  }

  bool message(std::uint32_t at, std::uint32_t end, msg type, std::int32_t parent, unsigned depth) {
    const std::size_t records = t_.records.size(), elements = t_.elements.size();
    while (at < end) {
      if (t_.records.size() >= max_records) return undo(records, elements);
      record r;
      r.tag_at = at;
      std::uint64_t tag = 0;
      if (!read_varint(data_, at, end, tag)) return undo(records, elements);
      const std::uint64_t number = tag >> 3;
      r.wire = static_cast<std::uint8_t>(tag & 7u);
      if (number == 0 || number > 0x1fffffffu) return undo(records, elements);
      r.number = static_cast<std::uint32_t>(number);
      r.value_at = at;
      r.parent = parent;
      r.container = type;
      const spec s = lookup(type, r.number);
      r.kind = s.kind;
      std::uint64_t value = 0;
      switch (r.wire) {
        case 0:
          if (!read_varint(data_, at, end, value)) return undo(records, elements);
          break;
        case 1:
          if (end - at < 8) return undo(records, elements);
          at += 8;
          break;
        case 5:
          if (end - at < 4) return undo(records, elements);
          at += 4;
          break;
        case 2:
          if (!read_varint(data_, at, end, value) || value > end - at) return undo(records, elements);
          r.payload_at = at;
          r.payload_length = static_cast<std::uint32_t>(value);
          at += r.payload_length;
          break;
        default: return undo(records, elements);
      }
      r.end = at;
      const auto index = static_cast<std::int32_t>(t_.records.size());
      t_.records.push_back(r);
      if (r.wire == 2) payload(index, r, s, depth);
    }
    return true;
  }

  void payload(std::int32_t index, const record& r, const spec& s, unsigned depth) {
    if (s.packed != packing::none) {
      packed(index, r, s);
    } else if (s.sub != msg::none && depth < max_depth && (s.sub != msg::unknown || r.payload_length > 0)) {
      if (message(r.payload_at, r.payload_at + r.payload_length, s.sub, index, depth + 1))
        t_.records[static_cast<std::size_t>(index)].sub = s.sub;
    }
  }

  void packed(std::int32_t index, const record& r, const spec& s) {
    const std::size_t elements = t_.elements.size();
    const std::uint32_t end = r.payload_at + r.payload_length;
    const std::uint32_t width = s.packed == packing::fixed32 ? 4 : s.packed == packing::fixed64 ? 8 : 0;
    if (width != 0 && r.payload_length % width != 0) return;
    for (std::uint32_t at = r.payload_at; at < end;) {
      if (t_.elements.size() >= max_records) break;
      element e;
      e.at = at;
      e.parent = index;
      e.kind = s.kind;
      e.type = s.packed;
      if (width != 0) {
        at += width;
      } else {
        std::uint64_t value = 0;
        if (!read_varint(data_, at, end, value)) {
          t_.elements.resize(elements);
          return;
        }
      }
      e.length = at - e.at;
      t_.elements.push_back(e);
    }
  }

  const std::uint8_t* data_;
  std::size_t size_;
  tree& t_;
};

// A varint value for a field of this role.
std::uint64_t value_for(rng& r, role kind, std::uint64_t old) {
  const auto pick = [&r](auto const& values) { return static_cast<std::uint64_t>(values[r.index(values.size())]); };
  if (r.one_in(8)) return interesting_int(r, 8, static_cast<std::int64_t>(old));
  switch (kind) {
    case role::dim: {
      constexpr std::array<std::int64_t, 22> dims{0, 1, 2, 3, 4, 5, 7, 8, 16, 32, -1, -2, 65536, 1 << 20, 46341,
                                                  2147483647, 2147483648, 4294967296, std::int64_t{1} << 62,
                                                  std::numeric_limits<std::int64_t>::max(),
                                                  std::numeric_limits<std::int64_t>::min(), 255};
      if (r.one_in(5)) return old + (r.one_in(2) ? 1 : ~std::uint64_t{0});
      return pick(dims);
    }
    case role::data_type:
      if (r.one_in(8)) return pick(std::array<std::int64_t, 4>{-1, 28, 255, 2147483647});
      return r.below(28);
    case role::attr_type:
      if (r.one_in(8)) return pick(std::array<std::int64_t, 3>{-1, 15, 255});
      return r.below(15);
    case role::ir_version: return pick(std::array<std::int64_t, 10>{0, 1, 2, 3, 4, 7, 10, 13, 14, -1});
    case role::opset_version: return pick(std::array<std::int64_t, 12>{0, 1, 5, 6, 7, 10, 11, 12, 13, 21, 25, -1});
    case role::data_location: return pick(std::array<std::int64_t, 4>{0, 1, 2, -1});
    case role::boolean: return pick(std::array<std::int64_t, 3>{0, 1, 2});
    default: {
      constexpr std::array<std::int64_t, 18> ints{0, 1, -1, 2, 3, 4, -2, -3, 7, 8, 16, 255, 65536, 2147483647,
                                                  -2147483647 - 1, 4294967296, std::numeric_limits<std::int64_t>::max(),
                                                  std::numeric_limits<std::int64_t>::min()};
      if (r.one_in(4)) return old + (r.one_in(2) ? 1 + r.below(4) : ~r.below(4));
      return pick(ints);
    }
  }
}

constexpr std::array<std::string_view, 40> common_op_types{
    "Conv", "Gemm", "MatMul", "Relu", "Add", "Sub", "Mul", "Div", "Reshape", "Flatten", "Concat", "MaxPool",
    "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Softmax", "Sigmoid", "Tanh", "Clip", "Pad",
    "BatchNormalization", "QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul", "ConvInteger",
    "MatMulInteger", "Transpose", "Squeeze", "Unsqueeze", "Identity", "Constant", "LeakyRelu", "Dropout",
    "QGemm", "QLinearAdd", "QLinearGlobalAveragePool", "ConvTranspose", "", "NoSuchOp"};
constexpr std::array<std::string_view, 36> attribute_names{
    "kernel_shape", "strides", "pads", "dilations", "group", "auto_pad", "axis", "axes", "alpha", "beta",
    "transA", "transB", "epsilon", "momentum", "value", "mode", "min", "max", "allowzero", "ceil_mode",
    "count_include_pad", "storage_order", "keepdims", "perm", "shape", "to", "saturate", "block_size",
    "output_dtype", "spatial", "is_test", "consumed_inputs", "paddings", "broadcast", "training_mode", ""};
constexpr std::array<std::string_view, 11> attribute_strings{"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", "constant",
                                                             "reflect", "edge", "wrap", "", "same_upper", "x"};
constexpr std::array<std::string_view, 5> domains{"", "ai.onnx", "com.microsoft", "ai.onnx.ml", "x"};

class editor {
 public:
  editor(std::vector<std::uint8_t>& bytes, std::size_t max_size, rng& r, report& what)
      : bytes_(bytes), max_size_(max_size), r_(r), what_(what) {}

  // One edit on the current bytes (parsed afresh). false: the file does not parse, or the edit drawn was
  // not possible.
  bool one(tree& t) {
    if (!parser{bytes_.data(), bytes_.size(), t}.run()) return false;
    const std::uint64_t op = r_.below(100);
    if (op < 28) return varint_edit(t);
    if (op < 37) return fixed_edit(t);
    if (op < 46) return bytes_edit(t);
    if (op < 51) return resize_edit(t);
    if (op < 66) return string_edit(t);
    if (op < 78) return delete_edit(t);
    if (op < 86) return duplicate_edit(t);
    if (op < 92) return move_edit(t);
    return transplant_edit(t, t, bytes_);
  }

  // Inserts a record of `from` (other bytes, parsed as `source`) into a message of the same type.
  bool transplant_edit(const tree& t, const tree& source, const std::vector<std::uint8_t>& from) {
    for (int probe = 0; probe < 16 && !source.records.empty(); ++probe) {
      const record& s = source.records[r_.index(source.records.size())];
      if (s.container == msg::unknown || s.container == msg::none) continue;
      // A target: the top level (a model), or a record parsed as a message of s's container type.
      std::int32_t target = -2;
      if (s.container == msg::model && r_.one_in(2)) {
        target = -1;
      } else {
        for (int look = 0; look < 64; ++look) {
          const auto k = static_cast<std::int32_t>(r_.index(t.records.size()));
          if (t.records[static_cast<std::size_t>(k)].sub == s.container) {
            target = k;
            break;
          }
        }
        if (target == -2 && s.container == msg::model) target = -1;
      }
      if (target == -2) continue;
      const std::vector<std::uint8_t> copy(from.begin() + s.tag_at, from.begin() + s.end);
      std::uint32_t at = static_cast<std::uint32_t>(bytes_.size());
      if (target >= 0) {
        const record& m = t.records[static_cast<std::size_t>(target)];
        at = m.payload_at + m.payload_length;
        // Or before one of its records, when it has some.
        for (int look = 0; look < 8 && r_.one_in(2); ++look) {
          const record& c = t.records[r_.index(t.records.size())];
          if (c.parent == target) {
            at = c.tag_at;
            break;
          }
        }
      }
      if (!splice(t, target, at, 0, copy)) continue;
      what_.last = &from == &bytes_ ? edit::pb_transplant : edit::pb_crossover;
      what_.resized = true;
      return true;
    }
    return false;
  }

  // Replaces one of t's records by a record of the same field of a message of the same type in `from`.
  bool replace_edit(const tree& t, const tree& source, const std::vector<std::uint8_t>& from) {
    for (int probe = 0; probe < 32 && !t.records.empty() && !source.records.empty(); ++probe) {
      const record& mine = t.records[r_.index(t.records.size())];
      if (mine.container == msg::unknown) continue;
      for (int look = 0; look < 64; ++look) {
        const record& theirs = source.records[r_.index(source.records.size())];
        if (theirs.container != mine.container || theirs.number != mine.number || theirs.wire != mine.wire) continue;
        const std::vector<std::uint8_t> copy(from.begin() + theirs.tag_at, from.begin() + theirs.end);
        if (copy.size() == mine.end - mine.tag_at && std::equal(copy.begin(), copy.end(), bytes_.begin() + mine.tag_at))
          continue;
        if (!splice(t, mine.parent, mine.tag_at, mine.end - mine.tag_at, copy)) break;
        what_.last = edit::pb_crossover;
        what_.resized = true;
        return true;
      }
    }
    return false;
  }

 private:
  // Replaces bytes [at, at + old_length) by `with` and re-encodes the length of every record enclosing
  // them, from `parent` (the innermost) out. false when the result would exceed max_size.
  bool splice(const tree& t, std::int32_t parent, std::uint32_t at, std::uint32_t old_length, const std::vector<std::uint8_t>& with) {
    struct length_edit {
      std::uint32_t at, old_length;
      std::array<std::uint8_t, 10> encoding;
      unsigned length;
    };
    std::vector<length_edit> lengths;
    std::int64_t delta = static_cast<std::int64_t>(with.size()) - old_length;
    for (std::int32_t p = parent; p >= 0; p = t.records[static_cast<std::size_t>(p)].parent) {
      const record& r = t.records[static_cast<std::size_t>(p)];
      const std::int64_t length = static_cast<std::int64_t>(r.payload_length) + delta;
      if (length < 0 || length > 0x7fffffff) return false;
      length_edit e{r.value_at, r.payload_at - r.value_at, {}, 0};
      e.length = encode_varint(static_cast<std::uint64_t>(length), e.encoding);
      delta += static_cast<std::int64_t>(e.length) - e.old_length;
      lengths.push_back(e);
    }
    const std::int64_t size = static_cast<std::int64_t>(bytes_.size()) + delta;
    if (size <= 0 || static_cast<std::uint64_t>(size) > max_size_) return false;
    thread_local std::vector<std::uint8_t> out;  // swapped with bytes_: both keep their capacity
    out.clear();
    out.reserve(static_cast<std::size_t>(size));
    std::uint32_t from = 0;
    for (auto e = lengths.rbegin(); e != lengths.rend(); ++e) {  // outermost (first in the file) first
      out.insert(out.end(), bytes_.begin() + from, bytes_.begin() + e->at);
      out.insert(out.end(), e->encoding.begin(), e->encoding.begin() + e->length);
      from = e->at + e->old_length;
    }
    out.insert(out.end(), bytes_.begin() + from, bytes_.begin() + at);
    out.insert(out.end(), with.begin(), with.end());
    out.insert(out.end(), bytes_.begin() + at + old_length, bytes_.end());
    bytes_.swap(out);
    return true;
  }

  // The varint of a record or of a packed element: its position, length, enclosing record and role.
  bool varint_edit(const tree& t) {
    std::uint32_t at = 0, length = 0;
    std::int32_t parent = -1;
    role kind = role::integer;
    bool found = false;
    for (int probe = 0; probe < 32 && !found; ++probe) {
      if (!t.elements.empty() && r_.one_in(4)) {
        const element& e = t.elements[r_.index(t.elements.size())];
        if (e.type != packing::varint) continue;
        at = e.at, length = e.length, parent = e.parent, kind = e.kind, found = true;
      } else {
        const record& r = t.records[r_.index(t.records.size())];
        if (r.wire != 0) continue;
        at = r.value_at, length = r.end - r.value_at, parent = r.parent, kind = r.kind, found = true;
      }
    }
    if (!found) return false;
    std::uint64_t old = 0;
    std::uint32_t cursor = at;
    read_varint(bytes_.data(), cursor, at + length, old);
    const std::uint64_t v = value_for(r_, kind, old);
    if (v == old) return false;
    std::array<std::uint8_t, 10> encoding{};
    unsigned n = encode_varint(v, encoding);
    if (n < length && r_.one_in(2)) n = encode_varint(v, encoding, length);  // padded in place
    if (n == length) {
      std::memcpy(bytes_.data() + at, encoding.data(), n);
      what_.last = edit::pb_varint;
      return true;
    }
    if (!splice(t, parent, at, length, std::vector<std::uint8_t>(encoding.begin(), encoding.begin() + n))) return false;
    what_.last = edit::pb_varint_resized;
    what_.resized = true;
    return true;
  }

  bool fixed_edit(const tree& t) {
    for (int probe = 0; probe < 32; ++probe) {
      std::uint32_t at = 0, width = 0;
      if (!t.elements.empty() && r_.one_in(3)) {
        const element& e = t.elements[r_.index(t.elements.size())];
        if (e.type == packing::varint) continue;
        at = e.at, width = e.length;
      } else {
        const record& r = t.records[r_.index(t.records.size())];
        if (r.wire != 1 && r.wire != 5) continue;
        at = r.value_at, width = r.wire == 5 ? 4 : 8;
      }
      const std::uint64_t old = load_le(bytes_.data() + at, width);
      std::uint64_t v = 0;
      if (r_.one_in(4)) v = interesting_int(r_, width, sign_extend(old, width));
      else v = width == 4 ? interesting_float(r_, static_cast<std::uint32_t>(old)) : interesting_double(r_, old);
      if (width == 4) v &= 0xffffffffu;
      if (v == old) continue;
      store_le(bytes_.data() + at, width, v);
      what_.last = edit::pb_fixed;
      return true;
    }
    return false;
  }

  // A length-delimited record that is not a message (strings, bytes, packed payloads), optionally of a role.
  const record* leaf(const tree& t, bool (*wanted)(role), bool non_empty) {
    for (int probe = 0; probe < 64; ++probe) {
      const record& r = t.records[r_.index(t.records.size())];
      if (r.wire == 2 && r.sub == msg::none && (!non_empty || r.payload_length > 0) && (wanted == nullptr || wanted(r.kind)))
        return &r;
    }
    return nullptr;
  }

  bool bytes_edit(const tree& t) {
    const record* r = leaf(t, [](role k) { return k == role::bytes; }, true);
    if (r == nullptr) r = leaf(t, nullptr, true);
    if (r == nullptr) return false;
    unsigned width = 1u << r_.below(4);
    std::uint64_t at = r->payload_at + r_.below(r->payload_length);
    at -= (at - r->payload_at) % width;
    if (at + width > std::uint64_t{r->payload_at} + r->payload_length) {
      width = 1;
      at = r->payload_at + r_.below(r->payload_length);
    }
    const std::uint64_t old = load_le(bytes_.data() + at, width);
    const std::uint64_t v = width == 4 && r_.one_in(2) ? interesting_float(r_, static_cast<std::uint32_t>(old))
                                                       : interesting_int(r_, width, sign_extend(old, width));
    if (((v ^ old) & (width == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * width)) - 1)) == 0) return false;
    store_le(bytes_.data() + at, width, v);
    what_.last = edit::pb_bytes;
    return true;
  }

  bool resize_edit(const tree& t) {
    const record* r = leaf(t, nullptr, false);
    if (r == nullptr) return false;
    const auto index = static_cast<std::int32_t>(r - t.records.data());
    const std::uint32_t amount = 1 + static_cast<std::uint32_t>(r_.below(r_.one_in(2) ? 8 : 64));
    if (r->payload_length > 0 && r_.one_in(2)) {
      const std::uint32_t cut = std::min(amount, r->payload_length);
      const std::uint32_t at = r->payload_at + static_cast<std::uint32_t>(r_.below(r->payload_length - cut + 1));
      if (!splice(t, index, at, cut, {})) return false;
    } else {
      std::vector<std::uint8_t> more(amount, 0);
      if (r_.one_in(2))
        for (std::uint8_t& b : more) b = static_cast<std::uint8_t>(r_.next());
      const std::uint32_t at = r->payload_at + static_cast<std::uint32_t>(r_.below(r->payload_length + 1));
      if (!splice(t, index, at, 0, more)) return false;
    }
    what_.last = edit::pb_bytes_resized;
    what_.resized = true;
    return true;
  }

  bool string_edit(const tree& t) {
    const record* r = leaf(t, [](role k) {
      return k == role::value_name || k == role::op_type || k == role::attr_name || k == role::attr_string || k == role::domain;
    }, false);
    if (r == nullptr) return false;
    const auto index = static_cast<std::int32_t>(r - t.records.data());
    const std::string_view old{reinterpret_cast<const char*>(bytes_.data() + r->payload_at), r->payload_length};
    std::string replacement;
    const auto same_role = [&]() -> std::string {  // another string of this role in the file
      for (int probe = 0; probe < 64; ++probe) {
        const record& o = t.records[r_.index(t.records.size())];
        if (o.wire == 2 && o.sub == msg::none && o.kind == r->kind)
          return std::string(reinterpret_cast<const char*>(bytes_.data() + o.payload_at), o.payload_length);
      }
      return std::string{};
    };
    switch (r->kind) {
      case role::value_name:
        switch (r_.below(6)) {
          case 0: replacement = ""; break;                            // an omitted operand, or an empty name
          case 1: replacement = std::string(old) + "_dangling"; break;  // produced by nothing
          case 2: replacement = old.substr(0, old.size() / 2); break;
          default: replacement = same_role(); break;                  // another value
        }
        break;
      case role::op_type:
        if (r_.one_in(3)) replacement = same_role();
        else if (r_.one_in(2)) replacement = common_op_types[r_.index(common_op_types.size())];
        else replacement = ctnn::onnx::name_of(static_cast<ctnn::onnx::op_type>(1 + r_.below(ctnn::onnx::op_type_count - 1)));
        break;
      case role::attr_name:
        replacement = r_.one_in(3) ? same_role() : std::string(attribute_names[r_.index(attribute_names.size())]);
        break;
      case role::attr_string: replacement = attribute_strings[r_.index(attribute_strings.size())]; break;
      default: replacement = domains[r_.index(domains.size())]; break;
    }
    if (replacement == old) return false;
    if (!splice(t, index, r->payload_at, r->payload_length, std::vector<std::uint8_t>(replacement.begin(), replacement.end())))
      return false;
    what_.last = edit::pb_string;
    what_.resized = replacement.size() != old.size();
    return true;
  }

  // A record, preferring the occurrences of repeated fields (nodes, initializers, operands, ...).
  const record* some_record(const tree& t) {
    if (r_.one_in(4)) return &t.records[r_.index(t.records.size())];
    for (int probe = 0; probe < 64; ++probe) {
      const record& r = t.records[r_.index(t.records.size())];
      if (repeated(r.container, r.number)) return &r;
    }
    return &t.records[r_.index(t.records.size())];
  }

  bool delete_edit(const tree& t) {
    const record* r = some_record(t);
    if (t.records.size() < 2 || !splice(t, r->parent, r->tag_at, r->end - r->tag_at, {})) return false;
    what_.last = edit::pb_delete;
    what_.resized = true;
    return true;
  }

  bool duplicate_edit(const tree& t) {
    const record* r = some_record(t);
    const std::vector<std::uint8_t> copy(bytes_.begin() + r->tag_at, bytes_.begin() + r->end);
    if (!splice(t, r->parent, r->end, 0, copy)) return false;
    what_.last = edit::pb_duplicate;
    what_.resized = true;
    return true;
  }

  bool move_edit(const tree& t) {
    const record* a = some_record(t);
    for (int probe = 0; probe < 64; ++probe) {
      const record& b = t.records[r_.index(t.records.size())];
      if (&b == a || b.parent != a->parent || (probe < 32 && b.number != a->number)) continue;
      const record& first = a->tag_at < b.tag_at ? *a : b;
      const record& second = a->tag_at < b.tag_at ? b : *a;
      if (std::equal(bytes_.begin() + first.tag_at, bytes_.begin() + first.end, bytes_.begin() + second.tag_at,
                     bytes_.begin() + second.end))
        continue;
      std::vector<std::uint8_t> swapped;
      swapped.reserve(second.end - first.tag_at);
      swapped.insert(swapped.end(), bytes_.begin() + second.tag_at, bytes_.begin() + second.end);
      swapped.insert(swapped.end(), bytes_.begin() + first.end, bytes_.begin() + second.tag_at);
      swapped.insert(swapped.end(), bytes_.begin() + first.tag_at, bytes_.begin() + first.end);
      std::copy(swapped.begin(), swapped.end(), bytes_.begin() + first.tag_at);
      what_.last = edit::pb_move;
      return true;
    }
    return false;
  }

  std::vector<std::uint8_t>& bytes_;
  std::size_t max_size_;
  rng& r_;
  report& what_;
};

}  // namespace

bool mutate_onnx(std::vector<std::uint8_t>& bytes, std::size_t max_size, rng& r, report& what) {
  editor e{bytes, max_size, r, what};
  thread_local tree t;  // its capacity kept between calls
  const std::uint64_t edits = r.one_in(2) ? 1 : 2 + r.below(2);
  for (std::uint64_t k = 0; k < edits; ++k)
    for (int attempt = 0; attempt < 8; ++attempt) {
      if (e.one(t)) {
        ++what.edits;
        break;
      }
      if (t.records.empty()) return what.edits > 0;  // does not parse
    }
  return what.edits > 0;
}

bool cross_over_onnx(std::vector<std::uint8_t>& bytes, const std::uint8_t* other, std::size_t other_size,
                     std::size_t max_size, rng& r, report& what) {
  tree mine, theirs;
  if (!parser{bytes.data(), bytes.size(), mine}.run() || !parser{other, other_size, theirs}.run()) return false;
  const std::vector<std::uint8_t> from(other, other + other_size);
  editor e{bytes, max_size, r, what};
  const bool done = r.one_in(2) ? e.transplant_edit(mine, theirs, from) || e.replace_edit(mine, theirs, from)
                                : e.replace_edit(mine, theirs, from) || e.transplant_edit(mine, theirs, from);
  if (done) {
    what.edits = 1;
    what.last = edit::pb_crossover;
  }
  return done;
}

}  // namespace ctnn_fuzz::structured::detail

namespace ctnn_fuzz::structured {

bool onnx_locations(const std::uint8_t* data, std::size_t size, std::vector<location>& out) {
  out.clear();
  detail::tree t;
  if (!detail::parser{data, size, t}.run()) return false;
  for (const detail::record& r : t.records) {
    if (r.wire != 2) {
      out.push_back({r.value_at, r.end - r.value_at});
    } else {
      out.push_back({r.value_at, r.payload_at - r.value_at});  // the length
      if (r.sub == detail::msg::none && r.payload_length > 0) out.push_back({r.payload_at, r.payload_length});
    }
  }
  for (const detail::element& e : t.elements) out.push_back({e.at, e.length});
  return true;
}

}  // namespace ctnn_fuzz::structured
