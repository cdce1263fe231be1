#pragma once
// What the structure-aware mutators share (structured_mutator.cpp, tflite_mutator.cpp, onnx_mutator.cpp):
// a seeded random number generator, little-endian loads and stores, and pools of interesting values.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "structured_mutator.hpp"

namespace ctnn_fuzz::structured::detail {

// splitmix64: deterministic for a seed, good enough for choosing edits.
class rng {
 public:
  explicit rng(std::uint64_t seed) : state_(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (0 when n is 0).
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }
  std::size_t index(std::size_t n) { return static_cast<std::size_t>(below(n)); }
  bool one_in(std::uint64_t n) { return below(n) == 0; }

 private:
  std::uint64_t state_;
};

inline std::uint64_t load_le(const std::uint8_t* p, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned k = 0; k < width; ++k) v |= static_cast<std::uint64_t>(p[k]) << (8 * k);
  return v;
}
inline void store_le(std::uint8_t* p, unsigned width, std::uint64_t v) {
  for (unsigned k = 0; k < width; ++k) p[k] = static_cast<std::uint8_t>(v >> (8 * k));
}
// The value of `width` bytes as a signed number.
inline std::int64_t sign_extend(std::uint64_t v, unsigned width) {
  if (width >= 8) return static_cast<std::int64_t>(v);
  const std::uint64_t sign = std::uint64_t{1} << (8 * width - 1);
  v &= (sign << 1) - 1;
  return static_cast<std::int64_t>((v ^ sign) - sign);
}

// An interesting integer for a field of `width` bytes holding `old` (0, +-1, 2, the width's limits, small
// deltas, powers of two, a flipped bit, ...). Returned as bits; the caller stores `width` bytes of it.
std::uint64_t interesting_int(rng& r, unsigned width, std::int64_t old);
// An interesting float (NaN, +-inf, 0, -0, denormals, 1e-40, 1e38, FLT_MAX, negatives, the old value
// scaled ...), as bits.
std::uint32_t interesting_float(rng& r, std::uint32_t old_bits);
std::uint64_t interesting_double(rng& r, std::uint64_t old_bits);

// The format mutators: edit `bytes` (resizing it at most to max_size) and return whether they did.
// false leaves `bytes` unspecified (the caller falls back to the byte mutator).
bool mutate_tflite(std::vector<std::uint8_t>& bytes, std::size_t max_size, rng& r, report& what);
bool mutate_onnx(std::vector<std::uint8_t>& bytes, std::size_t max_size, rng& r, report& what);
bool cross_over_tflite(std::vector<std::uint8_t>& bytes, const std::uint8_t* other, std::size_t other_size,
                       std::size_t max_size, rng& r, report& what);
bool cross_over_onnx(std::vector<std::uint8_t>& bytes, const std::uint8_t* other, std::size_t other_size,
                     std::size_t max_size, rng& r, report& what);

}  // namespace ctnn_fuzz::structured::detail
