#pragma once
// top_k: the attrs.top_k().k largest (attrs.top_k().largest 1) or smallest (0) elements of its input (float32,
// int32 or int64) along attrs.axis, in that order, equal values by lower index first (ONNX TopK); its result
// is their values (attrs.top_k().indices 0, ONNX's first output, of the input's type) or their positions along
// the axis (1, the second, int64: attrs.out_type), shaped as the input with the axis' extent k. NaN orders
// above every number (numpy's sort), so largest puts it first. The ONNX importer adds one node per output in
// use. The descriptor of op_kind::top_k (ops/descriptor.hpp).
#include <cstdint>
#include <type_traits>

#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct top_k : op_defaults {
  static constexpr op_kind kind = op_kind::top_k;
  static constexpr bool result_type_from_attributes = true;
  static constexpr bool plain_integer_kernel = true;  // ONNX's plain int32/int64 (no quantization)
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i32 || type == dtype::i64; }
  static constexpr bool has_result_kernel(dtype in, dtype out) { return out == in || out == dtype::i64; }

  // The axis inside the input, k in [1, the axis' extent], the result's type the input's (values) or int64
  // (indices).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const tensor& in = m.tensor_at(n.inputs[0]);
    shape out = in.dims;
    const dtype result = n.attrs.top_k().indices != 0 ? dtype::i64 : in.type;
    if (n.attrs.axis < 0 || n.attrs.axis >= out.rank || n.attrs.out_type != result) {
      m.fail({error_code::invalid_axis, node_id, n.kind, {}, out, {.axis = n.attrs.axis, .rank_actual = out.rank}});
      return out;
    }
    const std::int32_t k = n.attrs.top_k().k;
    if (k < 1 || k > out[n.attrs.axis]) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, out, make_shape(k), {.faulty_operand = 1}});
      return out;
    }
    out.dims[static_cast<std::size_t>(n.attrs.axis)] = k;
    return out;
  }
  template <class Module>
  static constexpr void prepare(const Module&, const node& n, kernel_params& p) {
    p.axis = n.attrs.axis;
    p.set(n.attrs.top_k());
  }
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape& out) {
    // Comparisons, counted as multiply-adds so that the work bound (ctnn-run's --max-macs, the fuzzers') covers a
    // huge k: each result element is a pass over its row.
    const shape& in = m.tensor_at(n.inputs[0]).dims;
    const std::int32_t axis = n.attrs.axis < 0 ? n.attrs.axis + in.rank : n.attrs.axis;
    return axis >= 0 && axis < in.rank ? out.elements() * in[axis] : 0;
  }

  // Whether element a of a row comes before element b in the result's order (a != b): a strict total order
  // (value, then position), so that the j-th pick is the first element after the (j-1)-th.
  template <class T>
  static constexpr bool greater(T a, T b) {
    return a != a ? b == b : b == b && a > b;  // NaN (a != a) above every number
  }
  template <class T>
  static constexpr bool comes_before(const T* row, std::int64_t stride, bool largest, std::int64_t a, std::int64_t b) {
    const T va = row[a * stride], vb = row[b * stride];
    const bool same = va == vb || (va != va && vb != vb);
    if (!same) return largest ? greater(va, vb) : greater(vb, va);
    return a < b;
  }

  // k scans of each row (no scratch): the next pick is the element that comes first among those after the
  // previous pick. Out: T (the values) or std::int64_t (the positions, Indices).
  template <bool Indices, class Params, class T, class Out>
  static constexpr void select(Params p, const T* input, Out* result) {
    const std::int32_t axis = p->axis;
    const std::int64_t dim = p->in[axis], k = p->top_k().k;
    std::int64_t outer = 1, inner = 1;
    for (std::int32_t d = 0; d < axis; ++d) outer *= p->in[d];
    for (std::int32_t d = axis + 1; d < p->in.rank; ++d) inner *= p->in[d];
    const bool largest = p->top_k().largest != 0;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        const T* row = input + o * dim * inner + i;
        std::int64_t previous = -1;
        for (std::int64_t j = 0; j < k; ++j) {
          std::int64_t best = -1;
          for (std::int64_t e = 0; e < dim; ++e) {
            if (e == previous || (previous >= 0 && comes_before(row, inner, largest, e, previous))) continue;
            if (best < 0 || comes_before(row, inner, largest, e, best)) best = e;
          }
          previous = best;
          const std::int64_t at = (o * k + j) * inner + i;
          if constexpr (Indices) result[at] = best;
          else result[at] = row[best * inner];
        }
      }
  }

  // The values are of the input's type (constant evaluation may fold float32 ones); the indices are written
  // through the untyped result.
  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    if (p->top_k().indices == 0) return select<false>(p, operands[0], result);
    void* indices = result;
    select<true>(p, operands[0], static_cast<std::int64_t*>(indices));
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    const auto run = [&]<class T>(T) {
      if (p->top_k().indices != 0) select<true>(p, static_cast<const T*>(operands[0]), static_cast<std::int64_t*>(result));
      else select<false>(p, static_cast<const T*>(operands[0]), static_cast<T*>(result));
    };
    if (p->type == dtype::i64) run(std::int64_t{});
    else run(std::int32_t{});
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    w.field("  axis ", a.axis);
    w.field(" k ", a.top_k().k);
    w.put(a.top_k().largest != 0 ? " largest" : " smallest");
    w.put(a.top_k().indices != 0 ? " indices" : " values");
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    w.field("  axis ", p.axis);
    w.field(" k ", p.top_k().k);
  }
};

}  // namespace ctnn::ops
