#pragma once
// Element types of tensors, and the mapping between a dtype value and its C++ type.
#include <cstddef>
#include <cstdint>

namespace ctnn {

// Appended in order (i16, then b8): the values are CTNN_DTYPE_* of the C API (runtime/c_api.hpp) and must not
// move. b8: a boolean, one byte holding 0 or 1 (TFLite BOOL, ONNX BOOL: comparisons, logical ops, SELECT).
enum class dtype : std::int32_t { f32, i8, u8, i32, i64, i16, b8 };

constexpr std::size_t size_of(dtype t) {
  switch (t) {
    case dtype::f32: return 4;
    case dtype::i8: return 1;
    case dtype::u8: return 1;
    case dtype::i32: return 4;
    case dtype::i64: return 8;
    case dtype::i16: return 2;
    case dtype::b8: return 1;
  }
  return 0;
}

constexpr const char* name_of(dtype t) {
  switch (t) {
    case dtype::f32: return "f32";
    case dtype::i8: return "i8";
    case dtype::u8: return "u8";
    case dtype::i32: return "i32";
    case dtype::i64: return "i64";
    case dtype::i16: return "i16";
    case dtype::b8: return "b8";
  }
  return "?";
}

// The element types of TFLite's quantized activations (int8; int16 of the 16x8 quantization): their ops'
// kernels read the tensors' scales and zero points.
constexpr bool is_quantized_activation(dtype t) { return t == dtype::i8 || t == dtype::i16; }

// The smallest and largest values of a quantized activation type (int16's; int8's otherwise): the clamps of
// their kernels' recipes.
constexpr std::int32_t lowest_value(dtype t) { return t == dtype::i16 ? -32768 : -128; }
constexpr std::int32_t highest_value(dtype t) { return t == dtype::i16 ? 32767 : 127; }

namespace detail {
template <dtype T> struct element_type_of;
template <> struct element_type_of<dtype::f32> { using type = float; };
template <> struct element_type_of<dtype::i8> { using type = std::int8_t; };
template <> struct element_type_of<dtype::u8> { using type = std::uint8_t; };
template <> struct element_type_of<dtype::i32> { using type = std::int32_t; };
template <> struct element_type_of<dtype::i64> { using type = std::int64_t; };
template <> struct element_type_of<dtype::i16> { using type = std::int16_t; };
template <> struct element_type_of<dtype::b8> { using type = bool; };
}  // namespace detail

// The C++ element type stored for a dtype: element_t<dtype::f32> is float.
template <dtype T> using element_t = typename detail::element_type_of<T>::type;

// DSL spellings of the dtypes.
inline constexpr dtype f32 = dtype::f32;
inline constexpr dtype i8 = dtype::i8;
inline constexpr dtype u8 = dtype::u8;
inline constexpr dtype i32 = dtype::i32;
inline constexpr dtype i16 = dtype::i16;
inline constexpr dtype b8 = dtype::b8;

}  // namespace ctnn
