#pragma once
// A tiny run-time reader of .tflite files (FlatBuffers, TFLite schema), for the kernel tests only: it
// reads what the per-layer checks need (tensors with shapes, types, quantization and buffers; operators
// with their builtin options). A stopgap until ctnn's own TFLite frontend exists; it is not part of the
// library. Little-endian hosts only (as the files).
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace tflite_reader {

// TFLite enum values used by the tests (schema.fbs).
enum builtin : std::int32_t {
  ADD = 0,
  AVERAGE_POOL_2D = 1,
  CONCATENATION = 2,
  CONV_2D = 3,
  DEPTHWISE_CONV_2D = 4,
  DEQUANTIZE = 6,
  FULLY_CONNECTED = 9,
  LOGISTIC = 14,
  MAX_POOL_2D = 17,
  MUL = 18,
  RELU = 19,
  RELU6 = 21,
  RESHAPE = 22,
  SOFTMAX = 25,
  TANH = 28,
  PAD = 34,
  MEAN = 40,
  QUANTIZE = 114,
};
enum tensor_type : std::int32_t { FLOAT32 = 0, INT32 = 2, UINT8 = 3, INT64 = 4, INT8 = 9 };

inline const char* builtin_name(std::int32_t code) {
  switch (code) {
    case ADD: return "ADD";
    case AVERAGE_POOL_2D: return "AVERAGE_POOL_2D";
    case CONCATENATION: return "CONCATENATION";
    case CONV_2D: return "CONV_2D";
    case DEPTHWISE_CONV_2D: return "DEPTHWISE_CONV_2D";
    case DEQUANTIZE: return "DEQUANTIZE";
    case FULLY_CONNECTED: return "FULLY_CONNECTED";
    case LOGISTIC: return "LOGISTIC";
    case MAX_POOL_2D: return "MAX_POOL_2D";
    case MUL: return "MUL";
    case RELU: return "RELU";
    case RELU6: return "RELU6";
    case RESHAPE: return "RESHAPE";
    case SOFTMAX: return "SOFTMAX";
    case TANH: return "TANH";
    case PAD: return "PAD";
    case MEAN: return "MEAN";
    case QUANTIZE: return "QUANTIZE";
    default: return "?";
  }
}

struct tensor {
  std::vector<std::int32_t> shape;
  std::int32_t type = FLOAT32;
  std::uint32_t buffer = 0;
  std::string name;
  std::vector<float> scales;
  std::vector<std::int64_t> zero_points;
  std::int32_t quantized_dimension = 0;
  std::size_t data_offset = 0;  // byte offset of the buffer's data in the file (0: none)
  std::size_t data_size = 0;

  float scale() const { return scales.empty() ? 0.0f : scales[0]; }
  std::int32_t zero_point() const { return zero_points.empty() ? 0 : static_cast<std::int32_t>(zero_points[0]); }
};

// Builtin options the tests read (defaults as in the schema).
struct options {
  std::int32_t padding = 0;  // SAME = 0, VALID = 1
  std::int32_t stride_w = 0, stride_h = 0;
  std::int32_t dilation_w = 1, dilation_h = 1;
  std::int32_t filter_w = 0, filter_h = 0;
  std::int32_t depth_multiplier = 0;
  std::int32_t fused = 0;  // NONE = 0, RELU = 1, RELU_N1_TO_1 = 2, RELU6 = 3, TANH = 4
  float beta = 0.0f;
  bool keep_num_dims = false;
  std::int32_t axis = 0;  // concatenation
};

struct op {
  std::int32_t code = -1;
  std::vector<std::int32_t> inputs, outputs;
  options opt;
};

struct model {
  std::vector<unsigned char> bytes;
  std::vector<tensor> tensors;
  std::vector<op> ops;
  std::vector<std::int32_t> inputs, outputs;
  bool ok = false;

  const unsigned char* data_of(const tensor& t) const { return t.data_offset != 0 ? bytes.data() + t.data_offset : nullptr; }
};

namespace detail {

struct reader {
  const std::vector<unsigned char>& b;
  template <class T>
  T at(std::size_t pos) const {
    T v{};
    std::memcpy(&v, b.data() + pos, sizeof(T));
    return v;
  }
  // A table at `table`: the position of field `id`, or 0 if absent.
  std::size_t field(std::size_t table, int id) const {
    const std::size_t vtable = table - static_cast<std::size_t>(static_cast<std::int64_t>(at<std::int32_t>(table)));
    const auto vsize = at<std::uint16_t>(vtable);
    const std::size_t entry = 4 + 2 * static_cast<std::size_t>(id);
    if (entry + 2 > vsize) return 0;
    const auto off = at<std::uint16_t>(vtable + entry);
    return off == 0 ? 0 : table + off;
  }
  std::size_t deref(std::size_t pos) const { return pos + at<std::uint32_t>(pos); }
  std::size_t table_field(std::size_t table, int id) const {
    const std::size_t f = field(table, id);
    return f == 0 ? 0 : deref(f);
  }
  template <class T>
  T scalar(std::size_t table, int id, T fallback) const {
    const std::size_t f = field(table, id);
    return f == 0 ? fallback : at<T>(f);
  }
  // Vector field: {position of the first element, length}.
  std::pair<std::size_t, std::uint32_t> vec(std::size_t table, int id) const {
    const std::size_t f = field(table, id);
    if (f == 0) return {0, 0};
    const std::size_t v = deref(f);
    return {v + 4, at<std::uint32_t>(v)};
  }
  template <class T>
  std::vector<T> scalars(std::size_t table, int id) const {
    const auto [first, n] = vec(table, id);
    std::vector<T> out(n);
    for (std::uint32_t i = 0; i < n; ++i) out[i] = at<T>(first + i * sizeof(T));
    return out;
  }
  std::string string(std::size_t table, int id) const {
    const auto [first, n] = vec(table, id);
    return first == 0 ? std::string{} : std::string(reinterpret_cast<const char*>(b.data() + first), n);
  }
};

}  // namespace detail

inline model read(const std::string& path) {
  model m;
  std::ifstream file(path, std::ios::binary);
  if (!file) return m;
  m.bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  if (m.bytes.size() < 8) return m;
  const detail::reader r{m.bytes};
  const std::size_t root = r.deref(0);

  std::vector<std::int32_t> codes;
  {
    const auto [first, n] = r.vec(root, 1);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t code = r.deref(first + 4 * i);
      const auto deprecated = static_cast<std::int32_t>(r.scalar<std::int8_t>(code, 0, 0));
      const std::int32_t builtin = r.scalar<std::int32_t>(code, 3, 0);
      codes.push_back(deprecated < 127 ? (builtin > deprecated ? builtin : deprecated) : builtin);
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> buffers;  // data offset, size
  {
    const auto [first, n] = r.vec(root, 4);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t buffer = r.deref(first + 4 * i);
      const auto [data, size] = r.vec(buffer, 0);
      buffers.emplace_back(size == 0 ? 0 : data, size);
    }
  }
  const auto [subgraphs, subgraph_count] = r.vec(root, 2);
  if (subgraph_count == 0) return m;
  const std::size_t graph = r.deref(subgraphs);
  {
    const auto [first, n] = r.vec(graph, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t t = r.deref(first + 4 * i);
      tensor x;
      x.shape = r.scalars<std::int32_t>(t, 0);
      x.type = r.scalar<std::int8_t>(t, 1, 0);
      x.buffer = r.scalar<std::uint32_t>(t, 2, 0);
      x.name = r.string(t, 3);
      if (const std::size_t q = r.table_field(t, 4); q != 0) {
        x.scales = r.scalars<float>(q, 2);
        x.zero_points = r.scalars<std::int64_t>(q, 3);
        x.quantized_dimension = r.scalar<std::int32_t>(q, 6, 0);
      }
      if (x.buffer < buffers.size()) {
        x.data_offset = buffers[x.buffer].first;
        x.data_size = buffers[x.buffer].second;
      }
      m.tensors.push_back(std::move(x));
    }
  }
  m.inputs = r.scalars<std::int32_t>(graph, 1);
  m.outputs = r.scalars<std::int32_t>(graph, 2);
  {
    const auto [first, n] = r.vec(graph, 3);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t o = r.deref(first + 4 * i);
      op x;
      const auto index = r.scalar<std::uint32_t>(o, 0, 0);
      x.code = index < codes.size() ? codes[index] : -1;
      x.inputs = r.scalars<std::int32_t>(o, 1);
      x.outputs = r.scalars<std::int32_t>(o, 2);
      if (const std::size_t opt = r.table_field(o, 4); opt != 0) {
        options& p = x.opt;
        switch (x.code) {
          case CONV_2D:
            p.padding = r.scalar<std::int8_t>(opt, 0, 0);
            p.stride_w = r.scalar<std::int32_t>(opt, 1, 0);
            p.stride_h = r.scalar<std::int32_t>(opt, 2, 0);
            p.fused = r.scalar<std::int8_t>(opt, 3, 0);
            p.dilation_w = r.scalar<std::int32_t>(opt, 4, 1);
            p.dilation_h = r.scalar<std::int32_t>(opt, 5, 1);
            break;
          case DEPTHWISE_CONV_2D:
            p.padding = r.scalar<std::int8_t>(opt, 0, 0);
            p.stride_w = r.scalar<std::int32_t>(opt, 1, 0);
            p.stride_h = r.scalar<std::int32_t>(opt, 2, 0);
            p.depth_multiplier = r.scalar<std::int32_t>(opt, 3, 0);
            p.fused = r.scalar<std::int8_t>(opt, 4, 0);
            p.dilation_w = r.scalar<std::int32_t>(opt, 5, 1);
            p.dilation_h = r.scalar<std::int32_t>(opt, 6, 1);
            break;
          case AVERAGE_POOL_2D:
          case MAX_POOL_2D:
            p.padding = r.scalar<std::int8_t>(opt, 0, 0);
            p.stride_w = r.scalar<std::int32_t>(opt, 1, 0);
            p.stride_h = r.scalar<std::int32_t>(opt, 2, 0);
            p.filter_w = r.scalar<std::int32_t>(opt, 3, 0);
            p.filter_h = r.scalar<std::int32_t>(opt, 4, 0);
            p.fused = r.scalar<std::int8_t>(opt, 5, 0);
            break;
          case FULLY_CONNECTED:
            p.fused = r.scalar<std::int8_t>(opt, 0, 0);
            p.keep_num_dims = r.scalar<std::uint8_t>(opt, 2, 0) != 0;
            break;
          case ADD:
          case MUL:
            p.fused = r.scalar<std::int8_t>(opt, 0, 0);
            break;
          case SOFTMAX:
            p.beta = r.scalar<float>(opt, 0, 0.0f);
            break;
          case CONCATENATION:
            p.axis = r.scalar<std::int32_t>(opt, 0, 0);
            p.fused = r.scalar<std::int8_t>(opt, 1, 0);
            break;
          default:
            break;
        }
      }
      m.ops.push_back(std::move(x));
    }
  }
  m.ok = true;
  return m;
}

}  // namespace tflite_reader
