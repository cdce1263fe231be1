#pragma once
// The ONNX importer's selections (rows in import_table.hpp): TopK (ops/top_k.hpp) and Hardmax
// (ops/hardmax.hpp), float32, in the input's ONNX layout.
#include <cstdint>

#include <ctnn/frontend/onnx/import_gather_scatter.hpp>
#include <ctnn/frontend/onnx/import_layouts.hpp>

namespace ctnn::onnx::detail {

// TopK (float32, int32 or int64 X): k an attribute before opset 10, then a constant INT64 (or INT32) input of
// one element in [1, the axis' extent] (a computed K would give a shape known only at run time: refused); `axis` (default -1),
// `largest` (opset 11, default 1) and `sorted` (default 1; with 0 ONNX leaves the order open, and the
// sorted one is given). One top_k node per output in use: the Values (value `result`, X's type) and the
// Indices (`result + 1`, INT64).
template <class S>
constexpr void import_top_k(S& s, const node_view& n, const operands& o, std::int32_t result) {
  const bool k_input = s.f.opset() >= 10;
  if (!expect_inputs(s, o, k_input ? 2 : 1, k_input ? 2 : 1) || !expect_activation(s, o, 0)) return;
  if (k_input && !expect_constant(s, o, 1)) return;
  const dtype type = element_type(s, o.id[0]);
  if (type != dtype::f32 && type != dtype::i32 && type != dtype::i64) return s.operand_error(0);
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t axis = int_attribute(s, n, "axis", -1), largest = int_attribute(s, n, "largest", 1);
  const std::int64_t sorted = int_attribute(s, n, "sorted", 1);
  const std::int64_t k = k_input ? constant_integer_scalar(s, o.id[1], 1) : int_attribute(s, n, "k", -1);
  if (s.failed() || s.take_reader_error()) return;
  if (n.output_count > 2) return s.fail(onnx_error::output_count, {.operator_code = static_cast<std::int64_t>(s.current), .count_actual = n.output_count});
  if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  if (largest != 0 && largest != 1) return s.attribute_error(attribute::largest, largest);
  if (sorted != 0 && sorted != 1) return s.attribute_error(attribute::sorted, sorted);
  const std::int32_t along = static_cast<std::int32_t>(axis < 0 ? axis + xs.rank : axis);
  if (k < 1 || k > xs[along]) return k_input ? s.operand_value_error(1, 0, k) : s.attribute_error(attribute::k, k);
  const std::int32_t x = as_onnx(s, o.id[0], 0);
  op_attributes a{};
  a.axis = along;
  top_k_fields kept{static_cast<std::int32_t>(k), static_cast<std::int32_t>(largest), static_cast<std::int32_t>(sorted), 0};
  for (std::uint32_t output = 0; output < n.output_count && !s.failed(); ++output) {
    if (s.f.output_name(n, output).length == 0) continue;  // omitted
    const auto v = static_cast<std::int32_t>(result + static_cast<std::int32_t>(output));
    kept.indices = output == 0 ? 0 : 1;
    a.set(kept);
    a.out_type = output == 0 ? type : dtype::i64;
    define(s, v, s.add_node(s.current_kind, a, {x}, s.label_of(v)), false);
  }
}

// Hardmax (float32): opset 13 one-hot of the first largest element along `axis` (default -1); before 13 the
// input is read as the matrix [d0 ... d(axis-1), d(axis) ... d(r-1)] (default axis 1) and each row's
// largest is over all of it: reshapes around the one hardmax node.
template <class S>
constexpr void import_hardmax(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, 1) || !expect_float(s, o, 0)) return;
  const bool coerced = s.f.opset() < 13;
  const shape xs = onnx_shape(s, o.id[0]);
  const std::int64_t axis = int_attribute(s, n, "axis", coerced ? 1 : -1);
  if (s.failed() || s.take_reader_error()) return;
  if (axis < -xs.rank || axis >= xs.rank) return s.axis_error(axis, xs.rank);
  const std::int32_t along = static_cast<std::int32_t>(axis < 0 ? axis + xs.rank : axis);
  std::int32_t x = as_onnx(s, o.id[0], 0);
  const name label = s.label_of(result);
  op_attributes a{};
  a.axis = along;
  if (coerced) {
    std::int32_t rows = 1, columns = 1;
    for (std::int32_t d = 0; d < xs.rank; ++d) (d < along ? rows : columns) *= xs[d];
    x = s.reshape(x, make_shape(rows, columns), label);
    a.axis = 1;
  }
  const std::int32_t y = s.add_node(s.current_kind, a, {x}, label);
  if (!coerced) return define(s, result, y, false);
  define_reshaped(s, result, y, xs);
}

}  // namespace ctnn::onnx::detail
