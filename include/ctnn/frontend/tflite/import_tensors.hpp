#pragma once
// The TFLite importer's state (import.hpp) and its first job: the file's tensors as IR tensors (types,
// shapes, names, constant data in place, quantization checked), with the diagnostics and the module edits
// the op importer builds on (import_operands.hpp, import_ops.hpp).
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
#include <ctnn/frontend/tflite/import_plan.hpp>

namespace ctnn::tflite::detail {

template <class Module>
struct tensor_importer {
  model_file& f;
  Module& m;
  name op_label{};  // the op being imported: its output tensor's name (TFLite ops have none of their own)

  // `node` counts the file's ops (-1: not an op's error); an op's error carries op_label.
  constexpr void fail(error_code code, std::int32_t node, op_kind kind, const diagnostic_details& details,
                      const shape& expected = {}, const shape& actual = {}) {
    m.fail_in_file(diagnostic{code, node, kind, expected, actual, details, node >= 0 ? op_label : name{}});
  }
  constexpr void fail(frontend_error code, std::int32_t node, op_kind kind, const diagnostic_details& details,
                      const shape& expected = {}, const shape& actual = {}) {
    fail(code_of(code), node, kind, details, expected, actual);
  }
  constexpr void malformed(std::int64_t offset, flatbuffers::expectation what) {
    f.reader().fail(offset, what);
    take_reader_error();
  }
  constexpr bool take_reader_error() {
    if (!f.failed()) return false;
    m.fail_in_file(f.error().as_diagnostic(code_of(frontend_error::tflite_malformed_model)));
    return true;
  }
  constexpr bool failed() const { return m.error.failed(); }

  // Capacities too small for the file (import<> called with less than count() says): a caller's error.
  constexpr void capacity_exceeded() {
    fail(error_code::too_many_inputs, -1, op_kind::conv2d,
         {.count_expected = static_cast<std::int64_t>(Module::node_capacity), .count_actual = m.node_count});
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

  // The part of a TFLite tensor name before the first ';' (converters join the names of fused ops), kept
  // whole up to name::capacity characters, else its head and tail (name::assign). A call-free scan on raw
  // pointers: clang counts every step (docs/design.md §6).
  static constexpr name label_of(const char* text, std::uint32_t length) {
    std::uint32_t before_separator = 0;
    while (before_separator < length && text[before_separator] != ';') ++before_separator;
    name label{};
    label.assign(text, before_separator);
    return label;
  }

  constexpr void import_tensor(std::uint32_t i) {
    const tensor_view tv = f.tensor(i);
    if (take_reader_error()) return;
    const auto index = static_cast<std::int64_t>(i);
    tensor t{};
    if (!dtype_of(tv.type, t.type)) {
      fail(frontend_error::tflite_unsupported_tensor_type, -1, op_kind::conv2d,
           {.tensor = index, .rejected_value = static_cast<std::int64_t>(tv.type)});
      return;
    }
    if (tv.is_variable) return feature(i, tensor_feature::variable);
    if (tv.has_sparsity) return feature(i, tensor_feature::sparsity);
    if (tv.external_buffer != 0 || f.buffer_is_external(tv.buffer)) return feature(i, tensor_feature::external_buffer);
    // Shape: `shape` (static; shape_signature may say -1 for the batch). No static shape: a negative or
    // zero extent, or no `shape` where shape_signature gives a rank.
    if (tv.shape.length > max_rank) {
      fail(frontend_error::tflite_rank_too_high, -1, op_kind::conv2d,
           {.tensor = index, .rank_actual = tv.shape.length});
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
      fail(frontend_error::tflite_no_static_shape, -1, op_kind::conv2d, {.tensor = index, .rank_actual = t.dims.rank},
           {}, t.dims);
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
        fail(frontend_error::tflite_constant_size_mismatch, -1, op_kind::conv2d,
             {.tensor = index, .bytes_available = data.length}, t.dims);
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
    fail(frontend_error::tflite_unsupported_tensor_feature, -1, op_kind::conv2d,
         {.tensor = static_cast<std::int64_t>(i), .reason = static_cast<std::int64_t>(what)});
  }

  constexpr bool invalid_quantization(std::uint32_t i, quantization_problem what) {
    fail(frontend_error::tflite_invalid_quantization, -1, op_kind::conv2d,
         {.tensor = static_cast<std::int64_t>(i), .reason = static_cast<std::int64_t>(what)});
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
};

}  // namespace ctnn::tflite::detail
