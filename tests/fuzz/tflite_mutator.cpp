// The FlatBuffers (TFLite) structure-aware mutator (structured_mutator.hpp).
//
// A lenient parse follows the root uoffset, tables through their vtables, vectors and strings along the
// TFLite schema (../shared/FORMATS.md §2): Model.operator_codes/subgraphs/buffers/metadata_buffer/metadata/
// signature_defs, SubGraph.tensors/inputs/outputs/operators, Tensor.shape/type/buffer/quantization/
// is_variable/shape_signature/has_rank, QuantizationParameters.min/max/scale/zero_point/details_type/
// quantized_dimension, Operator.opcode_index/inputs/outputs/builtin_options_type/builtin_options/
// mutating_variable_inputs/intermediates/custom_options, OperatorCode.deprecated_builtin_code/version/
// builtin_code, Buffer.data/offset/size. The builtin options table is read with the fields of the members
// the importer knows (Conv2D, DepthwiseConv2D, Pool2D, FullyConnected, Softmax, Concatenation, Add,
// Reshape, Mul, Reducer, Sub) and otherwise walked as a table of scalars (each field's width guessed from
// its alignment and the next field's offset). Whatever does not parse is skipped; only the root table must.
//
// The parse yields the location, width and role of every scalar field and vector element found, the
// vectors (their length words), the buffers' data and the scalar fields a table lacks (the writer omits
// fields equal to their default). A call applies 1 to 4 edits, all in place except the added field:
//   scalar (45 %)   a field or element set to a value for its role: indices valid, -1, the count, the count
//                   + 1; shapes 0, 1, -1, 65536, INT32_MAX ...; types 0..23; builtin codes 0..160 (and a
//                   few beyond); scales NaN, +-inf, 0, denormals, 1e-40, 1e38, negative; zero points at the
//                   limits of int8/uint8/int32/int64; options by field (strides, axes, enums) ...; 1 in 8
//                   any interesting integer of the field's width
//   copy (10 %)     a field's value copied from another field of the same role (another tensor's type,
//                   another operand)
//   swap (12 %)     two index entries of the same role swapped (operands between ops, graph outputs), or two
//                   entries of a vector of tables (operators out of order, tensors renumbered)
//   truncate (6 %)  a vector's length lowered (shapes, operands, scales, buffer data, tensors ...)
//   data (12 %)     1, 2, 4 or 8 bytes of a buffer's data (or custom options) set to an interesting value
//   add (15 %)      an absent scalar field added: a copy of the table's vtable with the field's entry is
//                   appended to the file (the table's soffset now points forward to it, which FlatBuffers
//                   allows) and the value after it, e.g. Tensor.type on a float model, OperatorCode.
//                   builtin_code on an old one, Conv2DOptions.dilation_w_factor = 0, Buffer.offset
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "mutator_detail.hpp"

namespace ctnn_fuzz::structured::detail {
namespace {

enum class role : std::uint8_t {
  integer,
  boolean,
  floating,
  version,
  tensor_index,
  buffer_index,
  opcode_index,
  subgraph_index,
  dim,
  tensor_type,
  builtin_code,
  deprecated_code,
  op_version,
  options_type,
  zero_point,
  quantized_dimension,
  scale,
  option_scalar,  // a 4-byte field of an options table the parser does not know: an int or a float
  small_int,      // strides, dilations, filter sizes, depth multipliers
  axis,
  enum8,          // padding, activation functions, weights formats, details types
  table_offsets,  // a vector of tables (its elements are uoffsets)
  bytes,          // a [ubyte] vector (buffer data, custom options)
};

bool is_index(role r) {
  return r == role::tensor_index || r == role::buffer_index || r == role::opcode_index || r == role::subgraph_index;
}

struct scalar_field {
  std::uint32_t at;
  std::uint8_t width;
  role kind;
  std::uint32_t limit;  // the number of things an index field indexes
};
struct vector_field {
  std::uint32_t length_at;  // the uint32 length; the elements follow
  std::uint32_t length;
  std::uint8_t width;
  role kind;
};
struct absent_field {
  std::uint32_t table;
  std::uint16_t id;
  std::uint8_t width;
  role kind;
  std::uint32_t limit;
};
struct region {
  std::uint32_t at;
  std::uint32_t length;
};

struct model {
  std::vector<scalar_field> scalars;
  std::vector<vector_field> vectors;
  std::vector<absent_field> absents;
  std::vector<region> data;
};

// The fields of the builtin options tables the importer reads (union index, field id, width, role).
struct option_field {
  std::uint8_t type;
  std::uint8_t id;
  std::uint8_t width;
  role kind;
};
constexpr std::array<option_field, 35> known_options{{
    {1, 0, 1, role::enum8}, {1, 1, 4, role::small_int}, {1, 2, 4, role::small_int}, {1, 3, 1, role::enum8},
    {1, 4, 4, role::small_int}, {1, 5, 4, role::small_int}, {1, 6, 1, role::tensor_type},  // Conv2D
    {2, 0, 1, role::enum8}, {2, 1, 4, role::small_int}, {2, 2, 4, role::small_int}, {2, 3, 4, role::small_int},
    {2, 4, 1, role::enum8}, {2, 5, 4, role::small_int}, {2, 6, 4, role::small_int},  // DepthwiseConv2D
    {5, 0, 1, role::enum8}, {5, 1, 4, role::small_int}, {5, 2, 4, role::small_int}, {5, 3, 4, role::small_int},
    {5, 4, 4, role::small_int}, {5, 5, 1, role::enum8},  // Pool2D
    {8, 0, 1, role::enum8}, {8, 1, 1, role::enum8}, {8, 2, 1, role::boolean}, {8, 3, 1, role::boolean},
    {8, 4, 1, role::tensor_type},  // FullyConnected
    {9, 0, 4, role::floating},     // Softmax.beta
    {10, 0, 4, role::axis}, {10, 1, 1, role::enum8},  // Concatenation
    {11, 0, 1, role::enum8}, {11, 1, 1, role::boolean},  // Add
    {21, 0, 1, role::enum8},                             // Mul
    {27, 0, 1, role::boolean},                           // Reducer (MEAN ...)
    {28, 0, 1, role::enum8}, {28, 1, 1, role::boolean},  // Sub
    {17, 0, 4, role::dim},                               // Reshape.new_shape (a vector)
}};

constexpr std::size_t max_locations = std::size_t{1} << 18;

class parser {
 public:
  parser(const std::uint8_t* data, std::size_t size, model& m) : data_(data), size_(size), m_(m) {}

  bool run() {
    if (size_ < 8 || size_ > 0x7fffffffu) return false;
    const table root = table_at(u32(0));
    if (!root.ok()) return false;
    const std::uint32_t codes = length_of(root, 1), buffers = length_of(root, 4), subgraphs = length_of(root, 2);
    scalar(root, 0, 4, role::version);
    tables(root, 1, [&](const table& c) {
      scalar(c, 0, 1, role::deprecated_code);
      scalar(c, 2, 4, role::op_version);
      scalar(c, 3, 4, role::builtin_code);
    });
    tables(root, 2, [&](const table& g) { subgraph(g, codes, buffers); });
    tables(root, 4, [&](const table& b) {
      std::uint32_t at = 0, length = 0;
      if (vector_of(b, 0, 1, at, length)) {
        m_.vectors.push_back({at, length, 1, role::bytes});
        if (length > 0) m_.data.push_back({at + 4, length});
      }
      scalar(b, 1, 8, role::integer);  // offset, size: set (> 1), the data lies outside the file
      scalar(b, 2, 8, role::integer);
    });
    elements(root, 5, 4, role::buffer_index, buffers);
    tables(root, 6, [&](const table& metadata) { scalar(metadata, 1, 4, role::buffer_index, buffers); });
    tables(root, 7, [&](const table& signature) {
      for (const unsigned id : {0u, 1u})
        tables(signature, id, [&](const table& map) { scalar(map, 1, 4, role::tensor_index, tensors_); });
      scalar(signature, 4, 4, role::subgraph_index, subgraphs);
    });
    return true;
  }

 private:
  struct table {
    std::uint32_t at = 0, vtable = 0, vtable_size = 0, inline_size = 0;
    bool ok() const { return at != 0; }
  };

  bool fits(std::uint64_t at, std::uint64_t n) const { return at <= size_ && n <= size_ - at; }
  std::uint32_t u16(std::uint64_t at) const { return fits(at, 2) ? static_cast<std::uint32_t>(load_le(data_ + at, 2)) : 0u; }
  std::uint32_t u32(std::uint64_t at) const { return fits(at, 4) ? static_cast<std::uint32_t>(load_le(data_ + at, 4)) : 0u; }
  bool full() const { return budget_ == 0 || m_.scalars.size() + m_.vectors.size() >= max_locations; }

  table table_at(std::uint64_t at) {
    if (at < 8 || !fits(at, 4) || budget_ == 0) return {};
    --budget_;
    const std::int64_t vt = static_cast<std::int64_t>(at) - static_cast<std::int32_t>(u32(at));
    if (vt < 0 || !fits(static_cast<std::uint64_t>(vt), 4)) return {};
    const auto vtable = static_cast<std::uint32_t>(vt);
    const std::uint32_t vsize = u16(vtable), isize = u16(vtable + 2);
    if (vsize < 4 || vsize % 2 != 0 || !fits(vtable, vsize) || isize < 4 || !fits(at, isize)) return {};
    return table{static_cast<std::uint32_t>(at), vtable, vsize, isize};
  }
  // The position of field `id` (0: absent, or outside the file).
  std::uint32_t field(const table& t, unsigned id, unsigned width) const {
    if (!t.ok()) return 0;
    const std::uint32_t entry = 4 + 2 * id;
    if (entry + 2 > t.vtable_size) return 0;
    const std::uint32_t offset = u16(t.vtable + entry);
    if (offset < 4 || !fits(std::uint64_t{t.at} + offset, width)) return 0;
    return t.at + offset;
  }
  std::uint32_t follow(std::uint32_t at) const {
    if (at == 0 || !fits(at, 4)) return 0;
    const std::uint64_t target = std::uint64_t{at} + u32(at);
    return target != at && target < size_ ? static_cast<std::uint32_t>(target) : 0u;
  }
  // The vector in field `id`: the position of its length word and its length.
  bool vector_of(const table& t, unsigned id, unsigned width, std::uint32_t& at, std::uint32_t& length) const {
    at = follow(field(t, id, 4));
    if (at == 0 || !fits(at, 4)) return false;
    length = u32(at);
    return std::uint64_t{length} * width <= size_ - at - 4;
  }
  std::uint32_t length_of(const table& t, unsigned id) const {
    std::uint32_t at = 0, length = 0;
    return vector_of(t, id, 4, at, length) ? length : 0u;
  }

  void scalar(const table& t, unsigned id, unsigned width, role kind, std::uint32_t limit = 0) {
    if (!t.ok() || full()) return;
    const std::uint32_t at = field(t, id, width);
    if (at != 0) m_.scalars.push_back({at, static_cast<std::uint8_t>(width), kind, limit});
    else m_.absents.push_back({t.at, static_cast<std::uint16_t>(id), static_cast<std::uint8_t>(width), kind, limit});
  }
  void elements(const table& t, unsigned id, unsigned width, role kind, std::uint32_t limit = 0) {
    std::uint32_t at = 0, length = 0;
    if (!t.ok() || full() || !vector_of(t, id, width, at, length)) return;
    m_.vectors.push_back({at, length, static_cast<std::uint8_t>(width), kind});
    for (std::uint32_t k = 0; k < length && !full(); ++k)
      m_.scalars.push_back({at + 4 + k * width, static_cast<std::uint8_t>(width), kind, limit});
  }
  template <class F>
  void tables(const table& t, unsigned id, F&& each) {
    std::uint32_t at = 0, length = 0;
    if (!t.ok() || full() || !vector_of(t, id, 4, at, length)) return;
    m_.vectors.push_back({at, length, 4, role::table_offsets});
    for (std::uint32_t k = 0; k < length && !full(); ++k) {
      const table element = table_at(follow(at + 4 + 4 * k));
      if (element.ok()) each(element);
    }
  }

  void subgraph(const table& g, std::uint32_t codes, std::uint32_t buffers) {
    const std::uint32_t tensors = length_of(g, 0);
    tensors_ = std::max(tensors_, tensors);
    tables(g, 0, [&](const table& t) { tensor(t, buffers); });
    elements(g, 1, 4, role::tensor_index, tensors);
    elements(g, 2, 4, role::tensor_index, tensors);
    tables(g, 3, [&](const table& o) { op(o, tensors, codes); });
    scalar(g, 5, 4, role::integer);
  }

  void tensor(const table& t, std::uint32_t buffers) {
    elements(t, 0, 4, role::dim);
    scalar(t, 1, 1, role::tensor_type);
    scalar(t, 2, 4, role::buffer_index, buffers);
    const std::uint32_t q_at = follow(field(t, 4, 4));
    const table q = q_at != 0 ? table_at(q_at) : table{};
    if (q.ok()) {
      elements(q, 0, 4, role::floating);
      elements(q, 1, 4, role::floating);
      elements(q, 2, 4, role::scale);
      elements(q, 3, 8, role::zero_point);
      scalar(q, 4, 1, role::enum8);
      scalar(q, 6, 4, role::quantized_dimension);
    }
    scalar(t, 5, 1, role::boolean);
    elements(t, 7, 4, role::dim);
    scalar(t, 8, 1, role::boolean);
  }

  void op(const table& o, std::uint32_t tensors, std::uint32_t codes) {
    scalar(o, 0, 4, role::opcode_index, codes);
    elements(o, 1, 4, role::tensor_index, tensors);
    elements(o, 2, 4, role::tensor_index, tensors);
    scalar(o, 3, 1, role::options_type);
    const std::uint32_t type_at = field(o, 3, 1);
    const std::uint32_t options_at = follow(field(o, 4, 4));
    if (options_at != 0) options(table_at(options_at), type_at != 0 ? data_[type_at] : 0u);
    std::uint32_t at = 0, length = 0;
    if (vector_of(o, 5, 1, at, length) && !full()) {
      m_.vectors.push_back({at, length, 1, role::bytes});
      if (length > 0) m_.data.push_back({at + 4, length});
    }
    elements(o, 7, 1, role::boolean);
    elements(o, 8, 4, role::tensor_index, tensors);
    scalar(o, 11, 1, role::options_type);
    const std::uint32_t options2_at = follow(field(o, 12, 4));
    if (options2_at != 0) options(table_at(options2_at), 0);
  }

  // A builtin options table: the known fields of its member, or every field as a scalar.
  void options(const table& t, std::uint32_t type) {
    if (!t.ok() || full()) return;
    bool known = false;
    for (const option_field& f : known_options) {
      if (f.type != type) continue;
      known = true;
      if (type == 17) elements(t, f.id, f.width, f.kind);
      else scalar(t, f.id, f.width, f.kind);
    }
    if (known) return;
    std::array<std::uint32_t, 64> offsets{};
    std::size_t count = 0;
    for (std::uint32_t entry = 4; entry + 2 <= t.vtable_size && count < offsets.size(); entry += 2) {
      const std::uint32_t offset = u16(t.vtable + entry);
      if (offset >= 4 && offset < t.inline_size) offsets[count++] = offset;
    }
    std::sort(offsets.begin(), offsets.begin() + static_cast<std::ptrdiff_t>(count));
    for (std::size_t k = 0; k < count && !full(); ++k) {
      const std::uint32_t gap = (k + 1 < count ? offsets[k + 1] : t.inline_size) - offsets[k];
      const std::uint32_t at = t.at + offsets[k];
      const std::uint8_t width = gap >= 4 && at % 4 == 0 ? 4 : gap >= 2 && at % 2 == 0 ? 2 : 1;
      if (gap == 0 || !fits(at, width)) continue;
      m_.scalars.push_back({at, width, width == 4 ? role::option_scalar : width == 1 ? role::enum8 : role::integer, 0});
    }
  }

  const std::uint8_t* data_;
  std::size_t size_;
  model& m_;
  std::size_t budget_ = std::size_t{1} << 16;  // tables visited
  std::uint32_t tensors_ = 0;                  // the most tensors of a subgraph (for the signatures)
};

// A value for a field of this role (as bits; `width` bytes of it are stored).
std::uint64_t value_for(rng& r, role kind, unsigned width, std::uint64_t old_bits, std::uint32_t limit) {
  const std::int64_t old = sign_extend(old_bits, width);
  const auto pick = [&r](auto const& values) { return static_cast<std::uint64_t>(values[r.index(values.size())]); };
  if (kind != role::scale && kind != role::floating && r.one_in(8)) return interesting_int(r, width, old);
  switch (kind) {
    case role::tensor_index:
    case role::buffer_index:
    case role::opcode_index:
    case role::subgraph_index:
      switch (r.below(8)) {
        case 4: return limit;
        case 5: return std::uint64_t{limit} + 1;
        case 6: return ~std::uint64_t{0};  // -1
        case 7: return interesting_int(r, width, old);
        default: return r.below(limit == 0 ? 1 : limit);
      }
    case role::dim:
    case role::small_int: {
      constexpr std::array<std::int64_t, 20> dims{0, 1, 2, 3, 4, 5, 7, 8, 16, 32, -1, -2, 65536, 1 << 20, 46341,
                                                  2147483647, -2147483647 - 1, 1 << 16, 255, 1000};
      if (r.one_in(5)) return static_cast<std::uint64_t>(old) + (r.one_in(2) ? 1 : ~std::uint64_t{0});
      return pick(dims);
    }
    case role::tensor_type:
      if (r.one_in(8)) return pick(std::array<std::int64_t, 4>{-1, 127, -128, 100});
      return r.below(24);
    case role::builtin_code:
      if (r.one_in(7)) return pick(std::array<std::int64_t, 7>{161, 200, 205, 209, 255, -1, 2147483647});
      return r.below(161);
    case role::deprecated_code:
      if (r.one_in(8)) return pick(std::array<std::int64_t, 3>{-1, -128, 127});
      return r.below(128);
    case role::op_version: return pick(std::array<std::int64_t, 9>{0, 1, 2, 3, 4, 8, 13, -1, 2147483647});
    case role::options_type:
      if (r.one_in(8)) return pick(std::array<std::int64_t, 4>{127, 128, 200, 255});
      return r.below(127);
    case role::zero_point: {
      constexpr std::array<std::int64_t, 16> values{0, 1, -1, -128, 127, 128, 255, 256, -129, -32768, 32767, 65535,
                                                    -2147483647 - 1, 2147483647, std::numeric_limits<std::int64_t>::min(),
                                                    std::numeric_limits<std::int64_t>::max()};
      return r.one_in(4) ? interesting_int(r, width, old) : pick(values);
    }
    case role::quantized_dimension:
      return pick(std::array<std::int64_t, 9>{0, 1, 2, 3, 4, 5, -1, 2147483647, -2147483647 - 1});
    case role::scale:
    case role::floating: return interesting_float(r, static_cast<std::uint32_t>(old_bits));
    case role::boolean: return pick(std::array<std::int64_t, 4>{0, 1, 2, 255});
    case role::version: return pick(std::array<std::int64_t, 6>{0, 1, 2, 3, 4, -1});
    case role::axis: return pick(std::array<std::int64_t, 13>{-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, -2147483647 - 1, 2147483647});
    case role::enum8: return pick(std::array<std::int64_t, 12>{0, 1, 2, 3, 4, 5, 6, 7, -1, 127, -128, 255});
    case role::option_scalar: return r.one_in(2) ? interesting_float(r, static_cast<std::uint32_t>(old_bits)) : interesting_int(r, width, old);
    case role::integer:
    case role::table_offsets:
    case role::bytes: return interesting_int(r, width, old);
  }
  return interesting_int(r, width, old);
}

std::uint64_t mask_of(unsigned width) { return width >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * width)) - 1; }

class editor {
 public:
  editor(std::vector<std::uint8_t>& bytes, const model& m, std::size_t max_size, rng& r, report& what)
      : bytes_(bytes), m_(m), max_size_(max_size), r_(r), what_(what) {}

  bool one() {
    const std::uint64_t op = r_.below(100);
    bool done = false;
    if (op < 45) done = set_scalar();
    else if (op < 55) done = copy_value();
    else if (op < 67) done = r_.one_in(2) ? swap_indices() || swap_tables() : swap_tables() || swap_indices();
    else if (op < 73) done = truncate();
    else if (op < 85) done = data();
    else if (!added_) done = added_ = add_field();
    return done;
  }

 private:
  std::uint64_t load(std::uint32_t at, unsigned width) const { return load_le(bytes_.data() + at, width); }
  void store(std::uint32_t at, unsigned width, std::uint64_t v) { store_le(bytes_.data() + at, width, v); }
  bool in_file(std::uint64_t at, std::uint64_t n) const { return at <= bytes_.size() && n <= bytes_.size() - at; }

  bool set_scalar() {
    if (m_.scalars.empty()) return false;
    const scalar_field& s = m_.scalars[r_.index(m_.scalars.size())];
    const std::uint64_t old = load(s.at, s.width);
    const std::uint64_t v = value_for(r_, s.kind, s.width, old, s.limit);
    if (((v ^ old) & mask_of(s.width)) == 0) return false;
    store(s.at, s.width, v);
    what_.last = edit::fb_scalar;
    return true;
  }

  // Another scalar of the same role and width whose value differs from `s`'s (random probes).
  const scalar_field* partner(const std::vector<scalar_field>& in, const std::vector<std::uint8_t>& bytes,
                              const scalar_field& s, std::uint64_t value) {
    for (int probe = 0; probe < 48 && !in.empty(); ++probe) {
      const scalar_field& t = in[r_.index(in.size())];
      if (t.kind == s.kind && t.width == s.width && t.at != s.at &&
          ((load_le(bytes.data() + t.at, t.width) ^ value) & mask_of(s.width)) != 0)
        return &t;
    }
    return nullptr;
  }

  bool copy_value() {
    if (m_.scalars.empty()) return false;
    const scalar_field& s = m_.scalars[r_.index(m_.scalars.size())];
    const scalar_field* t = partner(m_.scalars, bytes_, s, load(s.at, s.width));
    if (t == nullptr) return false;
    store(s.at, s.width, load(t->at, t->width));
    what_.last = edit::fb_copy;
    return true;
  }

  bool swap_indices() {
    if (m_.scalars.empty()) return false;
    for (int probe = 0; probe < 16; ++probe) {
      const scalar_field& s = m_.scalars[r_.index(m_.scalars.size())];
      if (!is_index(s.kind)) continue;
      const std::uint64_t a = load(s.at, s.width);
      const scalar_field* t = partner(m_.scalars, bytes_, s, a);
      if (t == nullptr) continue;
      store(s.at, s.width, load(t->at, t->width));
      store(t->at, t->width, a);
      what_.last = edit::fb_swap;
      return true;
    }
    return false;
  }

  bool swap_tables() {
    for (int probe = 0; probe < 16 && !m_.vectors.empty(); ++probe) {
      const vector_field& v = m_.vectors[r_.index(m_.vectors.size())];
      if (v.kind != role::table_offsets || v.length < 2) continue;
      const auto i = static_cast<std::uint32_t>(r_.below(v.length));
      auto j = static_cast<std::uint32_t>(r_.below(v.length - 1));
      if (j >= i) ++j;
      const std::uint32_t pi = v.length_at + 4 + 4 * i, pj = v.length_at + 4 + 4 * j;
      if (!in_file(pi, 4) || !in_file(pj, 4)) continue;
      const std::uint64_t ti = std::uint64_t{pi} + load(pi, 4), tj = std::uint64_t{pj} + load(pj, 4);
      if (tj <= pi || ti <= pj || ti == tj) continue;  // uoffsets point forward
      store(pi, 4, tj - pi);
      store(pj, 4, ti - pj);
      what_.last = edit::fb_swap;
      return true;
    }
    return false;
  }

  bool truncate() {
    for (int probe = 0; probe < 8 && !m_.vectors.empty(); ++probe) {
      const vector_field& v = m_.vectors[r_.index(m_.vectors.size())];
      const std::uint64_t length = load(v.length_at, 4);
      if (length == 0) continue;
      store(v.length_at, 4, r_.one_in(3) ? 0 : r_.below(length));
      what_.last = edit::fb_truncate;
      return true;
    }
    return false;
  }

  bool data() {
    if (m_.data.empty()) return false;
    const region& d = m_.data[r_.index(m_.data.size())];
    unsigned width = 1u << r_.below(4);
    std::uint64_t at = d.at + r_.below(d.length);
    at -= at % width;
    if (at < d.at || at + width > std::uint64_t{d.at} + d.length) {
      width = 1;
      at = d.at + r_.below(d.length);
    }
    const auto position = static_cast<std::uint32_t>(at);
    const std::uint64_t old = load(position, width);
    const std::uint64_t v = width == 4 && r_.one_in(2) ? interesting_float(r_, static_cast<std::uint32_t>(old))
                                                       : interesting_int(r_, width, sign_extend(old, width));
    if (((v ^ old) & mask_of(width)) == 0) return false;
    store(position, width, v);
    what_.last = edit::fb_data;
    return true;
  }

  // Adds an absent scalar field: a new vtable (the old entries and the field's) appended to the file, the
  // table's soffset pointing to it, and the field's bytes after it (within 64 KiB of the table).
  bool add_field() {
    if (m_.absents.empty()) return false;
    const absent_field& a = m_.absents[r_.index(m_.absents.size())];
    if (!in_file(a.table, 4)) return false;
    const std::int64_t vt = static_cast<std::int64_t>(a.table) - static_cast<std::int32_t>(load(a.table, 4));
    if (vt < 0 || !in_file(static_cast<std::uint64_t>(vt), 4)) return false;
    const auto vtable = static_cast<std::uint32_t>(vt);
    const auto vsize = static_cast<std::uint32_t>(load(vtable, 2)), isize = static_cast<std::uint32_t>(load(vtable + 2, 2));
    if (vsize < 4 || vsize % 2 != 0 || !in_file(vtable, vsize)) return false;
    const std::uint32_t old_entries = (vsize - 4) / 2, entries = std::max<std::uint32_t>(old_entries, a.id + 1u);
    const std::uint32_t new_vsize = 4 + 2 * entries;
    const std::size_t new_vtable = (bytes_.size() + 1) & ~std::size_t{1};
    const std::size_t field_at = (new_vtable + new_vsize + a.width - 1) / a.width * a.width;
    const std::size_t end = field_at + a.width;
    if (new_vsize > 0xfffe || end > max_size_ || field_at - a.table + a.width > 0xffff) return false;
    std::vector<std::uint16_t> entry(entries, 0);
    for (std::uint32_t k = 0; k < old_entries; ++k) entry[k] = static_cast<std::uint16_t>(load(vtable + 4 + 2 * k, 2));
    const auto offset = static_cast<std::uint32_t>(field_at - a.table);
    entry[a.id] = static_cast<std::uint16_t>(offset);
    bytes_.resize(end, 0);
    store(static_cast<std::uint32_t>(new_vtable), 2, new_vsize);
    store(static_cast<std::uint32_t>(new_vtable + 2), 2, std::max(isize, offset + a.width));
    for (std::uint32_t k = 0; k < entries; ++k) store(static_cast<std::uint32_t>(new_vtable + 4 + 2 * k), 2, entry[k]);
    store(a.table, 4, static_cast<std::uint64_t>(static_cast<std::int64_t>(a.table) - static_cast<std::int64_t>(new_vtable)));
    store(static_cast<std::uint32_t>(field_at), a.width, value_for(r_, a.kind, a.width, 0, a.limit));
    what_.last = edit::fb_add_field;
    what_.resized = true;
    return true;
  }

  std::vector<std::uint8_t>& bytes_;
  const model& m_;
  std::size_t max_size_;
  rng& r_;
  report& what_;
  bool added_ = false;
};

// The parse of the current call (one per thread, its capacity kept: libFuzzer calls the mutator thousands
// of times a second).
model& scratch_model() {
  thread_local model m;
  m.scalars.clear();
  m.vectors.clear();
  m.absents.clear();
  m.data.clear();
  return m;
}

}  // namespace

bool mutate_tflite(std::vector<std::uint8_t>& bytes, std::size_t max_size, rng& r, report& what) {
  model& m = scratch_model();
  if (!parser{bytes.data(), bytes.size(), m}.run() || (m.scalars.empty() && m.absents.empty())) return false;
  editor e{bytes, m, max_size, r, what};
  const std::uint64_t edits = r.one_in(2) ? 1 : 2 + r.below(3);
  for (std::uint64_t k = 0; k < edits; ++k)
    for (int attempt = 0; attempt < 8; ++attempt)
      if (e.one()) {
        ++what.edits;
        break;
      }
  return what.edits > 0;
}

bool cross_over_tflite(std::vector<std::uint8_t>& bytes, const std::uint8_t* other, std::size_t other_size,
                       std::size_t, rng& r, report& what) {
  model mine, theirs;
  if (!parser{bytes.data(), bytes.size(), mine}.run() || !parser{other, other_size, theirs}.run()) return false;
  if (mine.scalars.empty() || theirs.scalars.empty()) return false;
  const std::uint64_t copies = 1 + r.below(4);
  for (std::uint64_t k = 0; k < copies; ++k) {
    if (r.one_in(4) && !mine.data.empty() && !theirs.data.empty()) {
      // A run of constant data.
      const region& to = mine.data[r.index(mine.data.size())];
      const region& from = theirs.data[r.index(theirs.data.size())];
      const std::uint32_t length = static_cast<std::uint32_t>(1 + r.below(std::min<std::uint32_t>({to.length, from.length, 64})));
      const std::uint64_t to_at = to.at + r.below(to.length - length + 1), from_at = from.at + r.below(from.length - length + 1);
      if (std::memcmp(bytes.data() + to_at, other + from_at, length) == 0) continue;
      std::memcpy(bytes.data() + to_at, other + from_at, length);
      ++what.edits;
      continue;
    }
    const scalar_field& s = mine.scalars[r.index(mine.scalars.size())];
    for (int probe = 0; probe < 48; ++probe) {
      const scalar_field& t = theirs.scalars[r.index(theirs.scalars.size())];
      if (t.kind != s.kind || t.width != s.width) continue;
      const std::uint64_t v = load_le(other + t.at, t.width);
      if (((v ^ load_le(bytes.data() + s.at, s.width)) & mask_of(s.width)) == 0) continue;
      store_le(bytes.data() + s.at, s.width, v);
      ++what.edits;
      break;
    }
  }
  if (what.edits > 0) what.last = edit::fb_crossover;
  return what.edits > 0;
}

}  // namespace ctnn_fuzz::structured::detail

namespace ctnn_fuzz::structured {

bool tflite_locations(const std::uint8_t* data, std::size_t size, std::vector<location>& out) {
  out.clear();
  detail::model m;
  if (!detail::parser{data, size, m}.run()) return false;
  for (const detail::scalar_field& s : m.scalars) out.push_back({s.at, s.width});
  for (const detail::vector_field& v : m.vectors) {
    out.push_back({v.length_at, 4});
    if (v.kind == detail::role::table_offsets)  // the uoffsets of a vector of tables (swapped by fb_swap)
      for (std::uint32_t k = 0; k < v.length; ++k) out.push_back({v.length_at + 4 + 4 * k, 4});
  }
  for (const detail::region& d : m.data) out.push_back({d.at, d.length});
  return true;
}

}  // namespace ctnn_fuzz::structured
