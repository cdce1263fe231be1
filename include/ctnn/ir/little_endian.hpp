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

// The unsigned word of 2, 4 or 8 bytes at bytes[at], least significant first, as one expression: no loop and
// no call, which both cost constant-evaluation steps on every field a reader loads (a four-step loop per
// field made clang's TFLite import of VWW a third slower). Macros local to this header.
#define CTNN_LE_BYTE(BYTES, AT, TYPE, SHIFT) (static_cast<TYPE>(static_cast<unsigned char>((BYTES)[AT])) << (SHIFT))
#define CTNN_LE_WORD2(BYTES, AT)                                                      \
  static_cast<std::uint16_t>(CTNN_LE_BYTE(BYTES, AT, std::uint32_t, 0) |              \
                             CTNN_LE_BYTE(BYTES, (AT) + 1, std::uint32_t, 8))
#define CTNN_LE_WORD4(BYTES, AT)                                                                   \
  (CTNN_LE_BYTE(BYTES, AT, std::uint32_t, 0) | CTNN_LE_BYTE(BYTES, (AT) + 1, std::uint32_t, 8) | \
   CTNN_LE_BYTE(BYTES, (AT) + 2, std::uint32_t, 16) | CTNN_LE_BYTE(BYTES, (AT) + 3, std::uint32_t, 24))
#define CTNN_LE_WORD8(BYTES, AT)                          \
  (static_cast<std::uint64_t>(CTNN_LE_WORD4(BYTES, AT)) | \
   static_cast<std::uint64_t>(CTNN_LE_WORD4(BYTES, (AT) + 4)) << 32)
// A T from a word of its size: integers by conversion (modular in C++20), floats by bit-cast. Never a bit-cast
// for an integer: clang evaluates one through a byte buffer (per element of a tensor: the int8 AD's 270 K
// weights, +0.3 s).
#define CTNN_LE_AS(T, WORD) (std::is_integral_v<T> ? static_cast<T>(WORD) : __builtin_bit_cast(T, WORD))

// `count` values into out[0], out[1], ...: value k's bytes, least significant first, start at
// bytes[at + k * stride] (stride in bytes: sizeof(T) for a packed array, 0 to repeat one value). The caller
// checks the bounds (the readers do). One loop per width, whose body is one statement and no call: clang
// counts every step of a constant evaluation, and g++ keeps every constexpr call's result in a table, which a
// call per element of a model's weights would fill with hundreds of thousands of entries (docs/design.md §6).
// `out` is the caller's array itself (a C array or a std::array, by reference): g++ evaluates stores
// through a pointer parameter at a much higher memory cost (measured on the float VWW: +15 MB). Words are
// assembled by shifts and ORs on every host: a bit-cast of a four-byte aggregate rewritten per element
// was as fast, but g++ kept a copy of it per element until the evaluation ended (float VWW, g++ -O2:
// 512 MB against 436 MB; benchmarks/RESULTS.md, "Compiler memory, the last 5 %").
template <class Out, little_endian_scalar T = std::remove_cvref_t<decltype(std::declval<Out&>()[0])>>
constexpr void load_le_elements(const char* bytes, std::size_t at, std::size_t count, std::size_t stride, Out& out) {
  if constexpr (sizeof(T) == 1) {
    // Packed int8 weights, the bulk of a model (the AD's 270 K), by the fewest steps: one index, no stride.
    const char* from = bytes + at;
    if (stride == 1)
      for (std::size_t k = 0; k < count; ++k) out[k] = static_cast<T>(from[k]);
    else
      for (std::size_t k = 0; k < count; ++k, from += stride) out[k] = static_cast<T>(*from);
  } else if constexpr (sizeof(T) == 2) {
    for (std::size_t k = 0; k < count; ++k, at += stride) out[k] = CTNN_LE_AS(T, CTNN_LE_WORD2(bytes, at));
  } else if constexpr (sizeof(T) == 4) {
    for (std::size_t k = 0; k < count; ++k, at += stride) out[k] = CTNN_LE_AS(T, CTNN_LE_WORD4(bytes, at));
  } else {
    static_assert(sizeof(T) == 8, "ctnn::load_le_elements<T>: a scalar of 1, 2, 4 or 8 bytes");
    for (std::size_t k = 0; k < count; ++k, at += stride) out[k] = CTNN_LE_AS(T, CTNN_LE_WORD8(bytes, at));
  }
}

// The T whose bytes, least significant first, start at bytes[at] (a field, a scale, an operand value; whole
// tensors go through load_le_elements). The caller checks the bounds. The readers call this for every field
// of a model file: one expression, as above.
template <little_endian_scalar T>
constexpr T load_le(const char* bytes, std::size_t at) {
  if constexpr (sizeof(T) == 1) return static_cast<T>(bytes[at]);
  else if constexpr (sizeof(T) == 2) return CTNN_LE_AS(T, CTNN_LE_WORD2(bytes, at));
  else if constexpr (sizeof(T) == 4) return CTNN_LE_AS(T, CTNN_LE_WORD4(bytes, at));
  else return CTNN_LE_AS(T, CTNN_LE_WORD8(bytes, at));
}

#undef CTNN_LE_AS
#undef CTNN_LE_WORD8
#undef CTNN_LE_WORD4
#undef CTNN_LE_WORD2
#undef CTNN_LE_BYTE

}  // namespace ctnn
