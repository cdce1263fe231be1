#pragma once
// The first problem a byte reader (FlatBuffers, protobuf) found: the byte offset of the offending bytes
// and what was expected there, as the reader's own `expectation` enum (a 32-bit enum with a `none`).
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/diagnostic.hpp>

namespace ctnn::frontend_detail {

template <class Expectation>
struct reader_error {
  std::int64_t offset = -1;
  Expectation what = Expectation::none;
  std::int32_t reserved = 0;  // keeps the struct free of padding bytes (usable as a template argument)
  constexpr bool failed() const { return what != Expectation::none; }
  // The diagnostic of a model file the reader rejected, under the frontend's own `malformed` code: one
  // place for the importers and for the tools that describe a file they could not open.
  constexpr diagnostic as_diagnostic(error_code malformed) const {
    return {malformed, -1, op_kind::none, {}, {}, {.byte_offset = offset, .reason = static_cast<std::int64_t>(what)}};
  }
};

}  // namespace ctnn::frontend_detail
