#pragma once
// The first problem a byte reader (FlatBuffers, protobuf) found: the byte offset of the offending bytes
// and what was expected there, as the reader's own `expectation` enum (a 32-bit enum with a `none`).
#include <cstdint>
#include <type_traits>

namespace ctnn::frontend_detail {

template <class Expectation>
struct reader_error {
  std::int64_t offset = -1;
  Expectation what = Expectation::none;
  std::int32_t reserved = 0;  // keeps the struct free of padding bytes (usable as a template argument)
  constexpr bool failed() const { return what != Expectation::none; }
};

}  // namespace ctnn::frontend_detail
