#pragma once
// The ONNX importer's vocabulary (import.hpp): the capacities an import needs, the constants it re-lays
// out (relayout, relayout_values) and its result; inside, the ONNX values by name and the layout helpers.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include <ctnn/frontend/onnx/errors.hpp>
#include <ctnn/frontend/onnx/schema.hpp>
#include <ctnn/frontend/protobuf.hpp>
#include <ctnn/ir/little_endian.hpp>
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

// The importer's store of integers computed at import (detail/import_known.hpp): fixed capacities, a value of at
// most max_known_elements elements, at most max_known_values values and max_known_store elements in all.
inline constexpr std::size_t max_known_values = 64;
inline constexpr std::int64_t max_known_elements = 256;
inline constexpr std::size_t max_known_store = 1024;

// A constant whose values onnx::model computes at compile time (module tensor `tensor`):
//   gather: out[i0,i1,i2,i3] = scale * source[sum_d i_d * strides[d]] (source: float32 LE at byte `source`)
//   known_integers: the elements of an integer value computed at import (a Shape's, ...) that an op reads as a
//     tensor or that is a graph output: import_result::known[source, + elements()) as `type`'s little-endian
//     bytes (known_integer_bytes), which the tensor's data.bytes points at
enum class relayout_kind : std::int32_t { gather, known_integers };

struct relayout {
  std::int32_t tensor = -1;
  relayout_kind kind = relayout_kind::gather;
  std::uint32_t source = 0;
  std::int32_t rank = 0;
  std::array<std::int32_t, 4> dims{};
  std::array<std::int64_t, 4> strides{};  // in source elements (0: broadcast)
  float scale = 1.0f;
  dtype type = dtype::f32;  // known_integers: i64, i32 or b8 (and no padding bytes)
  constexpr std::int64_t elements() const {
    std::int64_t n = 1;
    for (std::int32_t d = 0; d < rank; ++d) n *= dims[static_cast<std::size_t>(d)];
    return n;
  }
};

// Writes relayout r's r.elements() values, gathered from the model file's bytes, to `out`. Used at compile
// time (onnx::model, once per tensor) and at run time (ctnn-run). One decoder call per row
// (ir/little_endian.hpp's call-free loop), not per element: clang counts every step and g++ keeps every
// constexpr call's result (docs/design.md §6); std::array::operator[] would add steps too.
constexpr void relayout_values(const relayout& r, const char* bytes, float* out) {
  // An empty constant: nothing to write (its other extents may be huge: [2^27, 0] must not walk 2^27 rows).
  if (r.elements() == 0) return;
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
      for (std::int64_t c = 0, at_c = at_b; c < n2; ++c, at_c += s2, out += n3) {
        load_le_elements(bytes, static_cast<std::size_t>(at_c), static_cast<std::size_t>(n3), static_cast<std::size_t>(s3), out);
        if (scale != 1.0f)
          for (std::int64_t d = 0; d < n3; ++d) out[d] *= scale;
      }
}

// The bytes of a known_integers relayout's constant.
constexpr std::int64_t known_integer_size(const relayout& r) { return r.elements() * static_cast<std::int64_t>(size_of(r.type)); }

// Writes a known_integers relayout's known_integer_size(r) bytes (little-endian elements of r.type) from the
// import's store `known` to `out`.
constexpr void known_integer_bytes(const relayout& r, const std::int64_t* known, char* out) {
  const auto width = static_cast<std::int64_t>(size_of(r.type));
  for (std::int64_t k = 0; k < r.elements(); ++k) {
    const auto bits = static_cast<std::uint64_t>(known[r.source + static_cast<std::uint64_t>(k)]);
    for (std::int64_t b = 0; b < width; ++b) out[k * width + b] = static_cast<char>(static_cast<unsigned char>(bits >> (8 * b)));
  }
}

template <std::size_t MaxTensors, std::size_t MaxNodes, std::size_t MaxRelayouts>
struct import_result {
  module<MaxTensors, MaxNodes> ir{};  // the imported module
  std::array<relayout, MaxRelayouts> relayouts{};
  std::int32_t relayout_count = 0;
  std::int32_t value_count = 0;
  std::array<std::int64_t, max_known_store> known{};  // the integers computed at import (relayout_kind::known_integers)
  // Graph inputs whose symbolic first axis no binding gave: bound to 1 (dim_bindings.hpp). Bit k: input k;
  // batch_names[k]: the dim_param's name in the file (empty: none).
  std::uint32_t batch_bound_to_one = 0;
  std::array<protobuf::span, max_model_io> batch_names{};
};

namespace detail {

// qdq_deferred (import_qdq.hpp): a DequantizeLinear of a constant (int8 weights, an int32 bias), or the result
// of a float op over such weights that only its QuantizeLinear may read: no IR tensor holds it.
// known_integers: integers computed at import (Shape, and the integer ops over such values: import_known.hpp),
// held in the importer's store (importer_state::known), not in an IR tensor.
enum class value_kind : std::int32_t { graph_input, initializer, constant, node_output, qdq_deferred, known_integers };

// One known value: its ONNX shape, its element type (i64, i32, or b8 for a comparison's result) and where its
// elements start in the store.
struct known_integers {
  shape dims{};
  dtype type = dtype::i64;
  std::int32_t at = 0;
};

// The operands of the DequantizeLinear that made a value (value indices; source -1: none), and its NodeProto.
struct dequantized_from {
  std::int32_t source = -1, scale = -1, zero_point = -1;
  protobuf::span node{};
};

// An ONNX value (by name) and the IR tensors that hold it.
struct value {
  protobuf::span name{};
  std::uint32_t hash = 0;
  value_kind kind = value_kind::node_output;
  protobuf::span proto{};         // initializer / constant: its TensorProto
  std::int32_t onnx_layout = -1;  // IR tensor with the ONNX shape
  std::int32_t nhwc = -1;         // IR tensor in NHWC (rank-4 activations)
  std::int32_t copies = 0;        // model outputs that are this value (a second one gets a copy)
  std::int32_t known = -1;        // known_integers: its entry in the importer's store
  bool one_d = false;             // a rank-3 [N, C, L] activation whose `nhwc` tensor is [N, 1, L, C] (1-D ops)
  bool reached = false;           // the error path of an operand produced later (unready_operand,
                                  // import_layouts.hpp): the value depends on the reading node's result
  dequantized_from dq{};          // a DequantizeLinear's result (import_qdq.hpp)
  protobuf::span deferred_op{};   // qdq_deferred: the float op (Conv, Gemm, MatMul) its QuantizeLinear lowers,
  std::int32_t deferred_index = -1;  // and its index among the graph's nodes;
  float clamp_low = -3.40282347e+38f;  // a Relu or Clip of the op's result (its bounds), folded into the lowering
  float clamp_high = 3.40282347e+38f;
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

// The IR type of an ONNX element type ctnn reads.
constexpr dtype dtype_of(data_type t) {
  switch (t) {
    case data_type::uint8: return dtype::u8;
    case data_type::int8: return dtype::i8;
    case data_type::int32: return dtype::i32;
    case data_type::float32: return dtype::f32;
    case data_type::int64: return dtype::i64;
    case data_type::bool_: return dtype::b8;
    default: return dtype::i64;  // not one ctnn reads: callers check the data_type first
  }
}

// A float in millionths, clamped (for diagnostics: an int in a template argument).
constexpr std::int32_t millionths(float v) {
  double x = static_cast<double>(v) * 1e6;
  if (!(x > -2e9)) x = -2e9;
  if (x > 2e9) x = 2e9;
  return static_cast<std::int32_t>(x < 0 ? x - 0.5 : x + 0.5);
}

}  // namespace detail

}  // namespace ctnn::onnx
