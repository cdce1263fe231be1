#pragma once
// The TFLite importer's first job (import.hpp): the file's tensors as IR tensors (types, shapes, names,
// constant data in place, quantization checked), free functions that take the importer state
// (import_state.hpp).
#include <cstddef>
#include <cstdint>
#include <limits>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_plan.hpp>
#include <ctnn/frontend/tflite/import_state.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

constexpr bool dtype_of(tensor_type t, dtype& out) {
  switch (t) {
    case tensor_type::float32: out = dtype::f32; return true;
    case tensor_type::int8: out = dtype::i8; return true;
    case tensor_type::uint8: out = dtype::u8; return true;   // TFLM's uint8 model edges (uint8_operators.hpp)
    case tensor_type::int32: out = dtype::i32; return true;
    case tensor_type::int16: out = dtype::i16; return true;  // 16x8 activations (zero point 0: each op checks)
    case tensor_type::int64: out = dtype::i64; return true;  // 16x8 biases
    case tensor_type::bool_: out = dtype::b8; return true;   // comparisons, logical ops, SELECT
    case tensor_type::resource: out = dtype::i32; return true;  // VAR_HANDLE's result (TFLM: the variable's int32 id)
    default: return false;
  }
}

// The part of a TFLite tensor name before the first ';' (converters join the names of fused ops), kept
// whole up to name::capacity characters, else its head and tail (name::assign). A call-free scan on raw
// pointers: clang counts every step (docs/design.md §6).
constexpr name label_of(const char* text, std::uint32_t length) {
  std::uint32_t before_separator = 0;
  while (before_separator < length && text[before_separator] != ';') ++before_separator;
  name label{};
  label.assign(text, before_separator);
  return label;
}

template <class S>
constexpr void feature(S& s, std::uint32_t i, tensor_feature what) {
  s.fail(frontend_error::tflite_unsupported_tensor_feature, -1, op_kind::none,
         {.tensor = static_cast<std::int64_t>(i), .reason = static_cast<std::int64_t>(what)});
}

template <class S>
constexpr bool invalid_quantization(S& s, std::uint32_t i, quantization_problem what) {
  s.fail(frontend_error::tflite_invalid_quantization, -1, op_kind::none,
         {.tensor = static_cast<std::int64_t>(i), .reason = static_cast<std::int64_t>(what)});
  return false;
}

template <class S>
constexpr bool import_quantization(S& s, std::uint32_t i, const tensor_view& tv, tensor& t) {
  flatbuffers::reader& r = s.f.reader();  // a named type: s.f is dependent
  if (!tv.quantization.present()) return true;
  const auto details = r.scalar<std::uint8_t>(tv.quantization, schema::quantization::details_type, 0);
  const flatbuffers::vector scale = r.vector_field(tv.quantization, schema::quantization::scale, 4);
  const flatbuffers::vector zero_point = r.vector_field(tv.quantization, schema::quantization::zero_point, 8);
  const auto axis = r.scalar<std::int32_t>(tv.quantization, schema::quantization::quantized_dimension, 0);
  if (s.take_reader_error()) return false;
  if (details != 0) return feature(s, i, tensor_feature::quantization_details), false;
  if (scale.length == 0) return true;
  if (zero_point.length != 0 && zero_point.length != scale.length)
    return feature(s, i, tensor_feature::quantization_counts_differ), false;
  // Scales: int8, uint8 and int16 (activations, weights) within [2^-60, 2^60], int32 and int64 (biases) finite
  // and >= 0 (see min_scale_bits).
  const bool activation = t.type == dtype::i8 || t.type == dtype::u8 || t.type == dtype::i16;
  const std::uint32_t low = activation ? min_scale_bits : 0u, high = activation ? max_scale_bits : int32_scale_end - 1;
  std::uint32_t largest = 0;
  const bool scales_valid = scale_bits_within(r.pointer(scale.at), scale.length, low, high, largest);
  if (scale.length == 1) {
    const std::int64_t zero = zero_point.length == 0 ? 0 : r.element<std::int64_t>(zero_point, 0);
    if (s.take_reader_error()) return false;
    if (!scales_valid) return invalid_quantization(s, i, quantization_problem::scale);
    const std::int64_t zero_min = t.type == dtype::i8    ? -128
                                  : t.type == dtype::u8  ? 0
                                  : t.type == dtype::i16 ? -32768
                                                         : std::numeric_limits<std::int32_t>::min();
    const std::int64_t zero_max = t.type == dtype::i8    ? 127
                                  : t.type == dtype::u8  ? 255
                                  : t.type == dtype::i16 ? 32767
                                                         : std::numeric_limits<std::int32_t>::max();
    if (zero < zero_min || zero > zero_max) return invalid_quantization(s, i, quantization_problem::zero_point);
    t.quant.scale = r.element<float>(scale, 0);
    t.quant.zero_point = static_cast<std::int32_t>(zero);
    return !s.take_reader_error();
  }
  // An int32 or int64 tensor's per-channel parameters are a bias's, which no kernel reads (TFLM derives a bias's scales
  // from the input's and the filter's): converters copy the filter's quantized_dimension onto rank-1 biases
  // (3 for a depthwise filter), and TFLM runs such files, so they are neither checked nor kept.
  if (t.type == dtype::i32 || t.type == dtype::i64) return true;
  if (axis < 0 || axis >= t.dims.rank || t.dims[axis] != static_cast<std::int32_t>(scale.length))
    return feature(s, i, tensor_feature::quantized_dimension), false;
  if (!scales_valid) return invalid_quantization(s, i, quantization_problem::channel_scale);
  // Per-channel zero points must be 0 (symmetric weights): every byte of every int64 (a call-free loop:
  // clang counts every step).
  if (zero_point.length > 0) {
    const char* bytes = r.data();
    char any = 0;
    const std::uint32_t end = zero_point.at + 8 * zero_point.length;
    for (std::uint32_t k = zero_point.at; k < end; ++k) any |= bytes[k];
    if (any != 0) return feature(s, i, tensor_feature::per_channel_zero_point), false;
  }
  t.quant.scale = r.element<float>(scale, 0);
  t.quant.zero_point = 0;
  t.quant.axis = axis;
  t.quant.channel_count = static_cast<std::int32_t>(scale.length);
  t.quant.scale_bytes = r.pointer(scale.at);
  return !s.take_reader_error();
}

// Tensor i of the file as tensor i of the module.
template <class S>
constexpr void import_tensor(S& s, std::uint32_t i) {
  flatbuffers::reader& r = s.f.reader();  // a named type: s.f is dependent
  const tensor_view tv = s.f.tensor(i);
  if (s.take_reader_error()) return;
  const auto index = static_cast<std::int64_t>(i);
  tensor t{};
  if (!dtype_of(tv.type, t.type)) {
    s.fail(frontend_error::tflite_unsupported_tensor_type, -1, op_kind::none,
           {.tensor = index, .rejected_value = static_cast<std::int64_t>(tv.type)});
    return;
  }
  if (tv.has_sparsity) return feature(s, i, tensor_feature::sparsity);
  if (tv.external_buffer != 0 || s.f.buffer_is_external(tv.buffer))
    return feature(s, i, tensor_feature::external_buffer);
  // Shape: `shape` (static; shape_signature may say -1 for the batch). No static shape: a negative or
  // zero extent, or no `shape` where shape_signature gives a rank.
  if (tv.shape.length > max_rank) {
    s.fail(frontend_error::tflite_rank_too_high, -1, op_kind::none,
           {.tensor = index, .rank_actual = tv.shape.length});
    return;
  }
  t.dims = stored_shape(s.f, tv);
  bool is_static = true;
  for (std::int32_t d = 0; d < t.dims.rank; ++d) is_static = is_static && t.dims[d] > 0;
  if (tv.shape.length == 0 && tv.shape_signature.length > 0) {
    is_static = false;
    t.dims.rank =
        static_cast<std::int32_t>(tv.shape_signature.length < max_rank ? tv.shape_signature.length : max_rank);
    for (std::int32_t d = 0; d < t.dims.rank; ++d)
      t.dims.dims[static_cast<std::size_t>(d)] =
          r.element<std::int32_t>(tv.shape_signature, static_cast<std::uint32_t>(d));
  }
  if (s.take_reader_error()) return;
  if (!is_static) {
    s.fail(frontend_error::tflite_no_static_shape, -1, op_kind::none, {.tensor = index, .rank_actual = t.dims.rank},
           {}, t.dims);
    return;
  }
  if (checked_elements(t.dims) < 0)
    return s.malformed(s.f.field_position(tv.table, schema::tensor::shape), flatbuffers::expectation::tensor_size);
  if (tv.name.present()) t.label = label_of(s.f.reader().pointer(tv.name.at), tv.name.length);
  // Constant data, zero-copy.
  const flatbuffers::vector data = s.f.buffer_data(tv.buffer);
  if (s.take_reader_error()) return;
  if (data.length > 0) {
    const std::int64_t needed = t.dims.elements() * static_cast<std::int64_t>(size_of(t.type));
    if (needed != data.length) {
      s.fail(frontend_error::tflite_constant_size_mismatch, -1, op_kind::none,
             {.tensor = index, .bytes_available = data.length}, t.dims);
      return;
    }
    if (data.at % size_of(t.type) != 0) return s.malformed(data.at, flatbuffers::expectation::aligned_data);
    t.role = tensor_role::constant;
    t.data.bytes = s.f.reader().pointer(data.at);
    t.data.file = s.f.reader().pointer(0);
  }
  if (t.type != dtype::f32 && !import_quantization(s, i, tv, t)) return;
  // A variable tensor is state: kept between runs, starting as TFLM resets it (ir/module.hpp's state_fill; a
  // buffer it may have is not read, as TFLM does not read it). import_recurrent.hpp checks that only the op
  // that owns it reads it.
  if (tv.is_variable) {
    t.role = tensor_role::state;
    t.data = {};
  }
  // A RESOURCE tensor: a variable's handle (import_variables.hpp), which only READ_VARIABLE and ASSIGN_VARIABLE read.
  if (tv.type == tensor_type::resource) {
    if (static_cast<std::size_t>(s.handle_count) >= S::max_resource_handles)
      return feature(s, i, tensor_feature::resource_capacity);
    s.handles[static_cast<std::size_t>(s.handle_count++)] = {static_cast<std::int32_t>(i), -1};
  }
  s.m.tensors[i] = t;
}

}  // namespace ctnn::tflite::detail
