// The entry points of the structure-aware mutators (structured_mutator.hpp): the choice between the
// format mutators and the byte mutator, the cross-over, and the pools of interesting values.
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>

#include "mutator_detail.hpp"

namespace ctnn_fuzz::structured {

const char* name_of(edit e) {
  switch (e) {
    case edit::none: return "none";
    case edit::fallback: return "fallback";
    case edit::fb_scalar: return "fb_scalar";
    case edit::fb_copy: return "fb_copy";
    case edit::fb_swap: return "fb_swap";
    case edit::fb_truncate: return "fb_truncate";
    case edit::fb_data: return "fb_data";
    case edit::fb_add_field: return "fb_add_field";
    case edit::fb_crossover: return "fb_crossover";
    case edit::pb_varint: return "pb_varint";
    case edit::pb_varint_resized: return "pb_varint_resized";
    case edit::pb_fixed: return "pb_fixed";
    case edit::pb_bytes: return "pb_bytes";
    case edit::pb_bytes_resized: return "pb_bytes_resized";
    case edit::pb_string: return "pb_string";
    case edit::pb_delete: return "pb_delete";
    case edit::pb_duplicate: return "pb_duplicate";
    case edit::pb_move: return "pb_move";
    case edit::pb_transplant: return "pb_transplant";
    case edit::pb_crossover: return "pb_crossover";
  }
  return "?";
}

bool plain_requested() {
  static const bool plain = [] {
    const char* value = std::getenv("CTNN_FUZZ_MUTATOR");
    return value != nullptr && std::string_view{value} == "plain";
  }();
  return plain;
}

namespace {

bool is_tflite(const std::uint8_t* data, std::size_t size) { return size >= 8 && std::memcmp(data + 4, "TFL3", 4) == 0; }
bool handles(format formats, format f) { return (static_cast<unsigned>(formats) & static_cast<unsigned>(f)) != 0; }

// The scratch copy a mutation works on (one per thread; libFuzzer calls the mutator from one thread).
std::vector<std::uint8_t>& scratch() {
  thread_local std::vector<std::uint8_t> bytes;
  return bytes;
}

}  // namespace

std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed, byte_mutator fallback,
                   format formats, unsigned fallback_one_in, report* what) {
  report local;
  report& r = what != nullptr ? *what : local;
  r = report{};
  detail::rng random{seed};
  const auto fall_back = [&]() -> std::size_t {
    r.fell_back = true;
    r.last = edit::fallback;
    if (fallback != nullptr) return fallback(data, size, max_size);
    return size <= max_size ? size : max_size;
  };
  if (plain_requested() || size == 0 || size > max_size || (fallback_one_in != 0 && random.one_in(fallback_one_in)))
    return fall_back();
  std::vector<std::uint8_t>& bytes = scratch();
  bytes.assign(data, data + size);
  const bool tflite = is_tflite(data, size);
  const bool done = tflite ? handles(formats, format::tflite) && detail::mutate_tflite(bytes, max_size, random, r)
                           : handles(formats, format::onnx) && detail::mutate_onnx(bytes, max_size, random, r);
  if (!done || bytes.empty() || bytes.size() > max_size) {
    r = report{};
    return fall_back();
  }
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

std::size_t cross_over(const std::uint8_t* data1, std::size_t size1, const std::uint8_t* data2, std::size_t size2,
                       std::uint8_t* out, std::size_t max_out, unsigned seed, format formats, report* what) {
  report local;
  report& r = what != nullptr ? *what : local;
  r = report{};
  detail::rng random{seed};
  // libFuzzer draws between the custom mutator and the custom cross-over evenly; most calls decline.
  if (plain_requested() || !random.one_in(4) || size1 == 0 || size1 > max_out || size2 == 0) return 0;
  const bool tflite = is_tflite(data1, size1);
  if (tflite != is_tflite(data2, size2)) return 0;
  std::vector<std::uint8_t>& bytes = scratch();
  bytes.assign(data1, data1 + size1);
  const bool done = tflite ? handles(formats, format::tflite) && detail::cross_over_tflite(bytes, data2, size2, max_out, random, r)
                           : handles(formats, format::onnx) && detail::cross_over_onnx(bytes, data2, size2, max_out, random, r);
  if (!done || bytes.empty() || bytes.size() > max_out) {
    r = report{};
    return 0;
  }
  std::memcpy(out, bytes.data(), bytes.size());
  return bytes.size();
}

namespace detail {

std::uint64_t interesting_int(rng& r, unsigned width, std::int64_t old) {
  const unsigned bits = 8 * (width >= 8 ? 8 : width);
  const std::int64_t min = bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1));
  const std::int64_t max = bits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (bits - 1)) - 1;
  const std::uint64_t umax = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  switch (r.below(12)) {
    case 0: {
      constexpr std::array<std::int64_t, 10> small{0, 1, -1, 2, 3, 4, -2, 7, 8, 16};
      return static_cast<std::uint64_t>(small[r.index(small.size())]);
    }
    case 1: return static_cast<std::uint64_t>(min);
    case 2: return static_cast<std::uint64_t>(max);
    case 3: return umax;  // -1, or the unsigned maximum
    case 4: return static_cast<std::uint64_t>(max) + 1;  // the unsigned half-way point
    case 5:
    case 6: {  // a small delta (wrapping)
      const std::uint64_t delta = 1 + r.below(16);
      return r.one_in(2) ? static_cast<std::uint64_t>(old) + delta : static_cast<std::uint64_t>(old) - delta;
    }
    case 7: return std::uint64_t{1} << r.below(bits);  // a power of two
    case 8: return static_cast<std::uint64_t>(old) ^ (std::uint64_t{1} << r.below(bits));  // a flipped bit
    case 9: {  // the limits of the narrower widths
      constexpr std::array<std::int64_t, 10> limits{127, 128, 255, 256, -128, -129, 32767, 65535, 65536, 2147483647};
      return static_cast<std::uint64_t>(limits[r.index(limits.size())]);
    }
    case 10: return static_cast<std::uint64_t>(old) * 2;
    default: return r.next();
  }
}

std::uint32_t interesting_float(rng& r, std::uint32_t old_bits) {
  const float old = std::bit_cast<float>(old_bits);
  constexpr float max = std::numeric_limits<float>::max();
  const std::array<float, 24> values{
      std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
      std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
      0.0f, -0.0f, std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
      1e-40f /* denormal */, std::numeric_limits<float>::min(), 1e-30f, 1e-10f,
      1e38f, max, -max, -1.0f,
      1.0f, 0.5f, 2.0f, 1.0f / 255.0f,
      65536.0f, 127.5f, 1e-5f, 3.4e38f};
  switch (r.below(8)) {
    case 0: return std::bit_cast<std::uint32_t>(-old);
    case 1: return std::bit_cast<std::uint32_t>(old * 2.0f);
    case 2: return std::bit_cast<std::uint32_t>(old * 0.5f);
    case 3: return std::bit_cast<std::uint32_t>(old * 1e10f);
    case 4: return old_bits ^ (std::uint32_t{1} << r.below(32));
    case 5: return 0x7fa00000u;  // a signalling NaN
    default: return std::bit_cast<std::uint32_t>(values[r.index(values.size())]);
  }
}

std::uint64_t interesting_double(rng& r, std::uint64_t old_bits) {
  const double old = std::bit_cast<double>(old_bits);
  const std::array<double, 14> values{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(), 0.0, -0.0,
                                      std::numeric_limits<double>::denorm_min(), 1e-300, 1e-40, 1e38, 1e300,
                                      std::numeric_limits<double>::max(), -1.0, 1.0, 0.5};
  switch (r.below(5)) {
    case 0: return std::bit_cast<std::uint64_t>(-old);
    case 1: return std::bit_cast<std::uint64_t>(old * 1e10);
    case 2: return old_bits ^ (std::uint64_t{1} << r.below(64));
    default: return std::bit_cast<std::uint64_t>(values[r.index(values.size())]);
  }
}

}  // namespace detail
}  // namespace ctnn_fuzz::structured
