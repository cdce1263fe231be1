#pragma once
// A read-only FlexBuffers reader for one map of scalars: the custom options of a TFLite custom operator
// (TFLite_Detection_PostProcess's), written from the format description (flatbuffers' flexbuffers.h). The root
// (the buffer's last byte its width, the byte before its packed type) must be a map; `find` looks a key up,
// `as_int`, `as_real` and `as_bool` read a number, a float or a bool as flexbuffers' AsInt64, AsDouble and
// AsBool do (inline or indirect). Every position is checked against the span before it is read: a failed read
// records the first problem (its byte offset and what was expected there) and returns nothing, never reads
// outside. Usable in constant evaluation (no reinterpret_cast, no memcpy).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <ctnn/ir/little_endian.hpp>

namespace ctnn::flexbuffers {

// A value's type, the high six bits of its packed type byte (flexbuffers::Type; the ones this reader reads).
enum class value_type : std::uint8_t {
  null = 0, integer = 1, unsigned_integer = 2, real = 3, key = 4, string = 5, indirect_integer = 6,
  indirect_unsigned = 7, indirect_real = 8, map = 9, boolean = 26,
};

// What a failed read did not find.
enum class expectation : std::int32_t {
  none,
  root,        // the last two bytes: a root width of 1, 2, 4 or 8 and a root value inside the buffer
  map,         // a root of type map whose header (keys offset, keys width, size), values and types are inside
  keys,        // the map's keys: a vector of as many offsets as values, of width 1, 2, 4 or 8, inside
  key_string,  // a key: a 0-terminated string inside the buffer
  value,       // a value (an indirect one's target) inside the buffer
  number,      // a number or a bool (an integer, an unsigned integer, a float of 4 or 8 bytes)
};

constexpr const char* name_of(expectation e) {
  switch (e) {
    case expectation::none: return "none";
    case expectation::root: return "a root width of 1, 2, 4 or 8 bytes and a root value inside the buffer";
    case expectation::map: return "a root map whose header, values and types are inside the buffer";
    case expectation::keys: return "the map's keys vector inside the buffer";
    case expectation::key_string: return "a 0-terminated key inside the buffer";
    case expectation::value: return "a value inside the buffer";
    case expectation::number: return "a number or a bool";
  }
  return "?";
}

// One value of the map: where its bytes are and how wide they are (an indirect value: its target's).
struct value {
  bool present = false;
  value_type type = value_type::null;
  std::size_t at = 0;
  std::uint32_t width = 0;
};

class map_reader {
 public:
  constexpr map_reader(const char* bytes, std::size_t size) : bytes_(bytes), size_(size) {
    if (size < 3) {
      fail(0, expectation::root);
      return;
    }
    const std::uint32_t root_width = static_cast<unsigned char>(bytes[size - 1]);
    const auto packed = static_cast<unsigned char>(bytes[size - 2]);
    if (!valid_width(root_width) || size - 2 < root_width) {
      fail(size - 1, expectation::root);
      return;
    }
    const std::size_t root_at = size - 2 - root_width;
    if (static_cast<value_type>(packed >> 2) != value_type::map) {
      fail(size - 2, expectation::map);
      return;
    }
    width_ = 1u << (packed & 3u);
    const std::uint64_t offset = unsigned_at(root_at, root_width);
    // The values start `offset` bytes before the root; the header's three words before them.
    if (offset > root_at || root_at - offset < 3 * std::uint64_t{width_}) {
      fail(root_at, expectation::map);
      return;
    }
    values_ = static_cast<std::size_t>(root_at - offset);
    const std::uint64_t length = unsigned_at(values_ - width_, width_);
    keys_width_ = static_cast<std::uint32_t>(unsigned_at(values_ - 2 * width_, width_));
    const std::size_t keys_field = values_ - 3 * width_;
    const std::uint64_t keys_offset = unsigned_at(keys_field, width_);
    if (length > size || values_ + length * (width_ + 1) > size) {
      fail(values_ - width_, expectation::map);
      return;
    }
    length_ = static_cast<std::uint32_t>(length);
    if (!valid_width(keys_width_) || keys_offset > keys_field || keys_field - keys_offset < keys_width_) {
      fail(keys_field, expectation::keys);
      return;
    }
    keys_ = static_cast<std::size_t>(keys_field - keys_offset);
    if (unsigned_at(keys_ - keys_width_, keys_width_) != length || keys_ + std::uint64_t{length_} * keys_width_ > size) {
      fail(keys_ - keys_width_, expectation::keys);
      return;
    }
  }

  constexpr bool failed() const { return failed_; }
  constexpr std::size_t error_offset() const { return error_at_; }
  constexpr expectation error() const { return error_; }
  constexpr std::uint32_t size() const { return length_; }

  // The value of `key`, or one that is not present (an absent key, or after a failure).
  constexpr value find(std::string_view key) {
    for (std::uint32_t k = 0; k < length_ && !failed_; ++k)
      if (key_is(k, key)) return value_at(k);
    return {};
  }

  // A number as an integer (a float truncated toward zero, as AsInt64; one out of range fails); false after a failure.
  constexpr bool as_int(const value& v, std::int64_t& out) {
    if (!v.present || failed_) return false;
    switch (v.type) {
      case value_type::integer:
      case value_type::indirect_integer:
      case value_type::boolean: out = signed_at(v.at, v.width); return true;
      case value_type::unsigned_integer:
      case value_type::indirect_unsigned: {
        const std::uint64_t u = unsigned_at(v.at, v.width);
        if (u > (std::uint64_t{1} << 63) - 1) return fail(v.at, expectation::number), false;
        out = static_cast<std::int64_t>(u);
        return true;
      }
      case value_type::real:
      case value_type::indirect_real: {
        double d = 0.0;
        if (!as_real(v, d)) return false;
        if (!(d > -9.2e18 && d < 9.2e18)) return fail(v.at, expectation::number), false;
        out = static_cast<std::int64_t>(d);
        return true;
      }
      default: return fail(v.at, expectation::number), false;
    }
  }
  // A number as a double (a float of 4 bytes widened, integers converted); false after a failure.
  constexpr bool as_real(const value& v, double& out) {
    if (!v.present || failed_) return false;
    if (v.type == value_type::real || v.type == value_type::indirect_real) {
      if (v.width == 4) out = static_cast<double>(load_le<float>(bytes_, v.at));
      else if (v.width == 8) out = load_le<double>(bytes_, v.at);
      else return fail(v.at, expectation::number), false;
      return true;
    }
    std::int64_t i = 0;
    if (!as_int(v, i)) return false;
    out = static_cast<double>(i);
    return true;
  }
  // A bool or a number, true when not 0 (AsBool); false after a failure.
  constexpr bool as_bool(const value& v, bool& out) {
    if (v.type == value_type::boolean && v.present && !failed_) return out = unsigned_at(v.at, v.width) != 0, true;
    std::int64_t i = 0;
    if (!as_int(v, i)) return false;
    out = i != 0;
    return true;
  }

 private:
  static constexpr bool valid_width(std::uint64_t w) { return w == 1 || w == 2 || w == 4 || w == 8; }
  constexpr void fail(std::size_t at, expectation e) {
    if (failed_) return;
    failed_ = true;
    error_at_ = at;
    error_ = e;
    length_ = 0;
  }
  // The callers have checked that [at, at + width) is inside the buffer.
  constexpr std::uint64_t unsigned_at(std::size_t at, std::uint32_t width) const {
    switch (width) {
      case 1: return static_cast<unsigned char>(bytes_[at]);
      case 2: return load_le<std::uint16_t>(bytes_, at);
      case 4: return load_le<std::uint32_t>(bytes_, at);
      default: return load_le<std::uint64_t>(bytes_, at);
    }
  }
  // The same word sign-extended (two's complement: C++20 converts modulo 2^64).
  constexpr std::int64_t signed_at(std::size_t at, std::uint32_t width) const {
    const std::uint64_t sign = std::uint64_t{1} << (8 * width - 1);
    return static_cast<std::int64_t>((unsigned_at(at, width) ^ sign) - sign);
  }
  // Whether key k is `key` (its bytes then a 0).
  constexpr bool key_is(std::uint32_t k, std::string_view key) {
    const std::size_t entry = keys_ + std::size_t{k} * keys_width_;
    const std::uint64_t offset = unsigned_at(entry, keys_width_);
    if (offset > entry) return fail(entry, expectation::key_string), false;
    const std::size_t at = static_cast<std::size_t>(entry - offset);
    std::size_t i = 0;
    for (; at + i < size_ && bytes_[at + i] != 0; ++i)
      if (i >= key.size() || bytes_[at + i] != key[i]) break;
    if (at + i >= size_) return fail(at, expectation::key_string), false;
    if (bytes_[at + i] != 0) {  // a mismatch: the key must still end inside the buffer
      std::size_t end = at + i;
      while (end < size_ && bytes_[end] != 0) ++end;
      if (end >= size_) return fail(at, expectation::key_string), false;
      return false;
    }
    return i == key.size();
  }
  constexpr value value_at(std::uint32_t k) {
    const auto packed = static_cast<unsigned char>(bytes_[values_ + std::size_t{length_} * width_ + k]);
    value v{true, static_cast<value_type>(packed >> 2), values_ + std::size_t{k} * width_, width_};
    if (v.type == value_type::indirect_integer || v.type == value_type::indirect_unsigned ||
        v.type == value_type::indirect_real) {
      const std::uint64_t offset = unsigned_at(v.at, width_);
      v.width = 1u << (packed & 3u);
      if (offset > v.at || v.at - offset + v.width > size_) return fail(v.at, expectation::value), value{};
      v.at = static_cast<std::size_t>(v.at - offset);
    }
    return v;
  }

  const char* bytes_;
  std::size_t size_;
  std::uint32_t width_ = 1, keys_width_ = 1, length_ = 0;
  std::size_t values_ = 0, keys_ = 0;
  bool failed_ = false;
  std::size_t error_at_ = 0;
  expectation error_ = expectation::none;
};

}  // namespace ctnn::flexbuffers
