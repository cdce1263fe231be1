#pragma once
// The arithmetic both importers apply to integers computed at import (frontend/onnx/import_known.hpp,
// frontend/tflite/import_known.hpp): numpy broadcasting over flat element indices, and one element of an integer
// op of an IR kind. Everything wraps around as two's complement (no undefined overflow in constant evaluation).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::frontend_detail {

// The flat index into an operand of `in` dims of element `flat` of the broadcast result of `out` dims (dims
// aligned at the right, extent-1 dims repeated).
constexpr std::int64_t broadcast_source(const shape& out, const shape& in, std::int64_t flat) {
  std::int64_t source = 0, stride = 1;
  for (std::int32_t d = out.rank - 1, e = in.rank - 1; d >= 0; --d, --e) {
    const std::int64_t i = flat % out[d];
    flat /= out[d];
    if (e < 0) continue;
    if (in[e] != 1) source += i * stride;
    stride *= in[e];
  }
  return source;
}

// The broadcast shape of `a` and `b`; false when they do not broadcast.
constexpr bool broadcast_dims(const shape& a, const shape& b, shape& out) {
  out.rank = a.rank > b.rank ? a.rank : b.rank;
  for (std::int32_t d = 0; d < out.rank; ++d) {
    const std::int32_t x = d - (out.rank - a.rank) >= 0 ? a[d - (out.rank - a.rank)] : 1;
    const std::int32_t y = d - (out.rank - b.rank) >= 0 ? b[d - (out.rank - b.rank)] : 1;
    if (x != y && x != 1 && y != 1) return false;
    out.dims[static_cast<std::size_t>(d)] = x == 1 ? y : x;
  }
  return true;
}

// How op `kind` evaluates two values known at import: its descriptor's on_known_integers (ops/descriptor.hpp;
// apply nullptr: the op is not evaluated at import). One lookup per op, not per element.
constexpr ops::integer_evaluation integer_evaluation_of(op_kind kind) {
  return ops::facts(kind).on_known_integers;
}

}  // namespace ctnn::frontend_detail
