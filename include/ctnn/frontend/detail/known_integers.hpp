#pragma once
// The arithmetic both importers apply to integers computed at import (frontend/onnx/import_known.hpp,
// frontend/tflite/import_known.hpp): numpy broadcasting over flat element indices, and one element of an integer
// op of an IR kind. Everything wraps around as two's complement (no undefined overflow in constant evaluation).
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>

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

// Whether `kind` is an integer op the importers evaluate at import (integer_op).
constexpr bool has_integer_op(op_kind kind) {
  switch (kind) {
    case op_kind::add: case op_kind::sub: case op_kind::mul: case op_kind::div: case op_kind::floor_div:
    case op_kind::maximum: case op_kind::minimum: case op_kind::equal: case op_kind::not_equal: case op_kind::less:
    case op_kind::less_equal: case op_kind::greater: case op_kind::greater_equal:
      return true;
    default: return false;
  }
}
constexpr bool is_comparison(op_kind kind) {
  return kind == op_kind::equal || kind == op_kind::not_equal || kind == op_kind::less || kind == op_kind::less_equal ||
         kind == op_kind::greater || kind == op_kind::greater_equal;
}

// One element of integer op `kind` (has_integer_op): sums and products wrap around; div truncates toward zero
// (C++, onnxruntime, TFLite's int32 DIV), floor_div rounds down; the caller checks the divisor is not 0.
constexpr std::int64_t integer_op(op_kind kind, std::int64_t a, std::int64_t b) {
  const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  switch (kind) {
    case op_kind::add: return static_cast<std::int64_t>(ua + ub);
    case op_kind::sub: return static_cast<std::int64_t>(ua - ub);
    case op_kind::mul: return static_cast<std::int64_t>(ua * ub);
    case op_kind::div: return b == -1 ? static_cast<std::int64_t>(0 - ua) : a / b;
    case op_kind::floor_div: {
      if (b == -1) return static_cast<std::int64_t>(0 - ua);
      const std::int64_t q = a / b;
      return q * b != a && (a < 0) != (b < 0) ? q - 1 : q;
    }
    case op_kind::maximum: return a > b ? a : b;
    case op_kind::minimum: return a < b ? a : b;
    case op_kind::equal: return a == b;
    case op_kind::not_equal: return a != b;
    case op_kind::less: return a < b;
    case op_kind::less_equal: return a <= b;
    case op_kind::greater: return a > b;
    case op_kind::greater_equal: return a >= b;
    default: return 0;
  }
}

}  // namespace ctnn::frontend_detail
