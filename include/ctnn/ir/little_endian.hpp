#pragma once
// The one little-endian decoder: a scalar from the bytes of a model file (TFLite's flatbuffers, ONNX's
// protobuf fixed32/fixed64 fields and raw_data), a per-channel scale, a constant the executor copies, a
// tool's raw input. Usable in constant evaluation, where reinterpret_cast and memcpy are not
// (docs/design.md §6), and the same at run time whatever the host's byte order.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace ctnn {

// The scalars a model file stores: integers of 1, 2, 4 or 8 bytes, float32 and float64 (not bool, whose
// other byte values have no meaning: a reader compares its byte with 0).
template <class T>
concept little_endian_scalar = (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, float> ||
                               std::is_same_v<T, double>;

// `count` values into out[0], out[1], ...: value k's bytes, least significant first, start at
// bytes[at + k * stride] (stride in bytes: sizeof(T) for a packed array, 0 to repeat one value). The caller
// checks the bounds (the readers do). One loop per width, whose body is one statement and no call: clang
// counts every step of a constant evaluation, and g++ keeps every constexpr call's result in a table, which a
// call per element of a model's weights would fill with hundreds of thousands of entries (docs/design.md §6).
// `out` is the caller's array itself (a C array or a std::array, by reference): g++ evaluates stores
// through a pointer parameter at a much higher memory cost (measured on the float VWW: +15 MB). Words are
// assembled by shifts and ORs on every host: a bit-cast of a four-byte aggregate rewritten per element
// was as fast, but g++ kept a copy of it per element until the evaluation ended (float VWW, g++ -O2:
// 512 MB against 436 MB; docs/compile_time.md).
template <class Out, little_endian_scalar T = std::remove_cvref_t<decltype(std::declval<Out&>()[0])>>
constexpr void load_le_elements(const char* bytes, std::size_t at, std::size_t count, std::size_t stride, Out& out) {
  if constexpr (sizeof(T) == 1) {
    // A conversion, not a bit-cast: it is modular in C++20 whatever char's signedness, and clang evaluates a
    // bit-cast through a byte buffer, per element (the int8 AD's 270 K weights: +0.3 s).
    for (std::size_t k = 0; k < count; ++k, at += stride) out[k] = static_cast<T>(bytes[at]);
  } else if constexpr (sizeof(T) == 2) {
    for (std::size_t k = 0; k < count; ++k, at += stride)
      out[k] = __builtin_bit_cast(T, static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[at]) |
                                                                static_cast<unsigned char>(bytes[at + 1]) << 8));
  } else if constexpr (sizeof(T) == 4) {
    for (std::size_t k = 0; k < count; ++k, at += stride)
      out[k] = __builtin_bit_cast(T, static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 8 |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 2])) << 16 |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3])) << 24);
  } else {
    static_assert(sizeof(T) == 8, "ctnn::load_le_elements<T>: a scalar of 1, 2, 4 or 8 bytes");
    for (std::size_t k = 0; k < count; ++k, at += stride)
      out[k] = __builtin_bit_cast(T, static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at])) |
                                         static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 1])) << 8 |
                                         static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 2])) << 16 |
                                         static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 3])) << 24 |
                                         static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 4])) << 32 |
                                         static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 5])) << 40 |
                                         static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 6])) << 48 |
                                         static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 7])) << 56);
  }
}

// The T whose bytes, least significant first, start at bytes[at] (a field, a scale, an operand value; whole
// tensors go through load_le_elements). The caller checks the bounds. Integers are assembled and converted
// (modular in C++20), without the bit-cast and the one-element array: the readers call this for every field
// of a model file, and clang evaluates a bit-cast through a byte buffer.
template <little_endian_scalar T>
constexpr T load_le(const char* bytes, std::size_t at) {
  if constexpr (std::is_integral_v<T>) {
    using word = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
    word value = 0;
    for (std::size_t b = sizeof(T); b-- > 0;) value = value << 8 | static_cast<unsigned char>(bytes[at + b]);
    return static_cast<T>(value);
  } else {
    T value[1]{};
    load_le_elements(bytes, at, 1, sizeof(T), value);
    return value[0];
  }
}

}  // namespace ctnn
