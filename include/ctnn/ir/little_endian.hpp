#pragma once
// The one little-endian decoder: a scalar from the bytes of a model file (TFLite's flatbuffers, ONNX's
// protobuf fixed32/fixed64 fields and raw_data), a per-channel scale, a constant the executor copies, a
// tool's raw input. Usable in constant evaluation, where reinterpret_cast and memcpy are not
// (docs/design.md §6), and the same at run time whatever the host's byte order.
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ctnn {

// The scalars a model file stores: integers of 1, 2, 4 or 8 bytes, float32 and float64 (not bool, whose
// other byte values have no meaning: a reader compares its byte with 0).
template <class T>
concept little_endian_scalar = (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, float> ||
                               std::is_same_v<T, double>;

// The T whose bytes, least significant first, start at bytes[at]. The caller checks the bounds (the
// readers do, before every load). One expression per width and no helper calls: clang counts every step of
// a constant evaluation, and the decoders of whole constant tensors call this once per element (§6).
template <little_endian_scalar T>
constexpr T load_le(const char* bytes, std::size_t at) {
  if constexpr (sizeof(T) == 1) {
    return __builtin_bit_cast(T, static_cast<unsigned char>(bytes[at]));
  } else if constexpr (sizeof(T) == 2) {
    return __builtin_bit_cast(T, static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[at]) |
                                                            static_cast<unsigned char>(bytes[at + 1]) << 8));
  } else if constexpr (sizeof(T) == 4) {
    return __builtin_bit_cast(T, static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) |
                                     static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 8 |
                                     static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 2])) << 16 |
                                     static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3])) << 24);
  } else {
    static_assert(sizeof(T) == 8, "ctnn::load_le<T>: a scalar of 1, 2, 4 or 8 bytes");
    return __builtin_bit_cast(T, static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at])) |
                                     static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 1])) << 8 |
                                     static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 2])) << 16 |
                                     static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 3])) << 24 |
                                     static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 4])) << 32 |
                                     static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 5])) << 40 |
                                     static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 6])) << 48 |
                                     static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + 7])) << 56);
  }
}

}  // namespace ctnn
