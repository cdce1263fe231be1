#pragma once
// The ONNX importer's Einsum (a row in import_table.hpp), float32, lowered at import to the IR's existing kinds
// when its equation is matmul-shaped: one operand, a transpose and/or sums ("ij->ji", "ij->i"); two operands,
// sums of labels one operand alone has, then one batch_matmul between two transposes and views ("ij,jk->ik",
// "bij,bjk->bik", "...ij,...jk->...ik", "ij,kj->ik", "i,i->", "i,j->ij"). A label repeated in one term (a
// diagonal), more than two operands, or a term that does not parse is refused naming the equation.
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include <ctnn/frontend/onnx/import_elementwise.hpp>
#include <ctnn/frontend/onnx/import_layouts.hpp>
#include <ctnn/frontend/onnx/import_shape_ops.hpp>

namespace ctnn::onnx::detail {

// Labels: 'A'-'Z' 0-25, 'a'-'z' 26-51 (ASCII order, which the implicit output sorts by), the dims an ellipsis
// stands for 52 + k, aligned to the right across the operands (numpy's broadcast).
inline constexpr std::int32_t einsum_ellipsis_label = 52;

struct einsum_term {
  std::array<std::int32_t, max_rank> labels{};
  std::int32_t rank = 0;
  bool ellipsis = false;
  std::int32_t ellipsis_at = 0;  // where the ellipsis stands among the explicit labels
};

// Parses one term (spaces skipped); false when a character is neither a letter nor part of one "...".
constexpr bool parse_einsum_term(std::string_view text, einsum_term& t) {
  for (std::size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (c == ' ') continue;
    if (c == '.') {
      if (t.ellipsis || text.substr(k, 3) != "...") return false;
      t.ellipsis = true, t.ellipsis_at = t.rank, k += 2;
      continue;
    }
    const bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (!upper && !lower) return false;
    if (t.rank >= static_cast<std::int32_t>(max_rank)) return false;
    t.labels[static_cast<std::size_t>(t.rank++)] = upper ? c - 'A' : 26 + (c - 'a');
  }
  return true;
}

// A term's labels for an operand of `rank` dims (the ellipsis' dims numbered from the right against
// `ellipsis_rank`, the widest ellipsis); false when the rank does not fit the term.
constexpr bool expand_einsum_term(einsum_term& t, std::int32_t rank, std::int32_t ellipsis_rank) {
  const std::int32_t extra = rank - t.rank;
  if (extra < 0 || (!t.ellipsis && extra != 0) || rank > static_cast<std::int32_t>(max_rank)) return false;
  if (!t.ellipsis) return true;
  einsum_term out{};
  for (std::int32_t k = 0; k < t.ellipsis_at; ++k)
    out.labels[static_cast<std::size_t>(out.rank++)] = t.labels[static_cast<std::size_t>(k)];
  for (std::int32_t k = 0; k < extra; ++k)
    out.labels[static_cast<std::size_t>(out.rank++)] = einsum_ellipsis_label + ellipsis_rank - extra + k;
  for (std::int32_t k = t.ellipsis_at; k < t.rank; ++k)
    out.labels[static_cast<std::size_t>(out.rank++)] = t.labels[static_cast<std::size_t>(k)];
  t = out;
  return true;
}

constexpr std::uint64_t einsum_mask(const einsum_term& t) {
  std::uint64_t mask = 0;
  for (std::int32_t k = 0; k < t.rank; ++k) mask |= std::uint64_t{1} << t.labels[static_cast<std::size_t>(k)];
  return mask;
}
constexpr std::int32_t einsum_position(const einsum_term& t, std::int32_t label) {
  for (std::int32_t k = 0; k < t.rank; ++k)
    if (t.labels[static_cast<std::size_t>(k)] == label) return k;
  return -1;
}

// Operand x (labels t, dims xs) summed over the labels outside `keep` (a reduce_sum, dims dropped): the
// tensor, and t and xs updated.
template <class S>
constexpr std::int32_t einsum_sum_out(S& s, std::int32_t x, einsum_term& t, shape& xs, std::uint64_t keep,
                                      std::size_t tag) {
  std::uint32_t axes = 0;
  einsum_term kept{};
  shape rest{};
  for (std::int32_t k = 0; k < t.rank; ++k) {
    const std::int32_t label = t.labels[static_cast<std::size_t>(k)];
    if ((keep >> label & 1u) == 0) {
      axes |= 1u << k;
      continue;
    }
    kept.labels[static_cast<std::size_t>(kept.rank++)] = label;
    rest.dims[static_cast<std::size_t>(rest.rank++)] = xs[k];
  }
  if (axes == 0) return x;
  op_attributes a{};
  a.mean.reduce_axes = axes;
  a.keep_dims = false;
  const std::int32_t summed = s.add_node(op_kind::reduce_sum, a, {x}, numbered("einsum_sum", tag));
  t = kept, xs = rest;
  return rest.rank == 0 ? s.reshape(summed, make_shape(1), numbered("einsum_scalar", tag)) : summed;
}

// x (labels from, dims xs) transposed to the labels' order `to` (a permutation of from's); x itself when it is
// the identity.
template <class S>
constexpr std::int32_t einsum_permute(S& s, std::int32_t x, const einsum_term& from, const einsum_term& to,
                                      std::size_t tag) {
  std::array<std::int32_t, max_rank> perm{};
  bool identity = true;
  for (std::int32_t k = 0; k < to.rank; ++k) {
    perm[static_cast<std::size_t>(k)] = einsum_position(from, to.labels[static_cast<std::size_t>(k)]);
    identity = identity && perm[static_cast<std::size_t>(k)] == k;
  }
  return identity || to.rank < 2 ? x : s.transpose(x, perm, numbered("einsum_transpose", tag));
}

template <class S>
constexpr void import_einsum(S& s, const node_view& n, const operands& o, std::int32_t result) {
  if (!expect_inputs(s, o, 1, max_node_inputs)) return;
  const std::string_view equation = s.f.string_attribute(s.f.attribute(n, "equation"), "");
  if (s.take_reader_error()) return;
  const auto refuse = [&] { s.string_attribute_error(n, "equation", attribute::equation); };
  // The terms: inputs before "->", comma-separated; the output after it (absent: implicit).
  const std::size_t arrow = equation.find("->");
  const std::string_view inputs = equation.substr(0, arrow);
  std::array<einsum_term, 2> term{};
  std::uint32_t count = 0;
  for (std::size_t start = 0;;) {
    const std::size_t comma = inputs.find(',', start);
    if (count >= 2 ||
        !parse_einsum_term(inputs.substr(start, comma == std::string_view::npos ? comma : comma - start), term[count]))
      return refuse();
    ++count;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (count != o.count || count > 2) return refuse();
  std::array<shape, 2> xs{};
  std::int32_t ellipsis_rank = 0;
  for (std::uint32_t k = 0; k < count; ++k) {
    if (o.id[k] < 0 || !expect_float(s, o, k)) return;
    xs[k] = onnx_shape(s, o.id[k]);
    if (s.failed()) return;
    if (term[k].ellipsis && xs[k].rank - term[k].rank > ellipsis_rank) ellipsis_rank = xs[k].rank - term[k].rank;
  }
  std::uint64_t seen = 0, twice = 0;
  for (std::uint32_t k = 0; k < count; ++k) {
    if (!expand_einsum_term(term[k], xs[k].rank, ellipsis_rank)) return refuse();
    std::uint64_t own = 0;
    for (std::int32_t d = 0; d < term[k].rank; ++d) {
      const std::uint64_t bit = std::uint64_t{1} << term[k].labels[static_cast<std::size_t>(d)];
      if ((own & bit) != 0) return refuse();  // a diagonal
      own |= bit;
    }
    twice |= seen & own, seen |= own;
  }
  einsum_term out{};
  if (arrow != std::string_view::npos) {
    if (!parse_einsum_term(equation.substr(arrow + 2), out)) return refuse();
    if (!out.ellipsis && ellipsis_rank > 0) {
      // numpy sums the ellipsis' dims out when the output has none: not a matmul shape here
      return refuse();
    }
    if (!expand_einsum_term(out, out.rank + (out.ellipsis ? ellipsis_rank : 0), ellipsis_rank)) return refuse();
  } else {  // implicit: the ellipsis' dims, then the labels used once, in ASCII order
    for (std::int32_t k = 0; k < ellipsis_rank; ++k)
      out.labels[static_cast<std::size_t>(out.rank++)] = einsum_ellipsis_label + k;
    for (std::int32_t label = 0; label < einsum_ellipsis_label; ++label)
      if ((seen >> label & 1u) != 0 && (twice >> label & 1u) == 0) {
        if (out.rank >= static_cast<std::int32_t>(max_rank)) return refuse();
        out.labels[static_cast<std::size_t>(out.rank++)] = label;
      }
  }
  const std::uint64_t produced = einsum_mask(out);
  if ((produced & ~seen) != 0 || std::popcount(produced) != out.rank) return refuse();  // unknown or repeated
  // Each label's extent, which every operand holding it must share (an ellipsis dim may broadcast from 1).
  std::array<std::int32_t, 64> extent{};
  for (std::uint32_t k = 0; k < count; ++k)
    for (std::int32_t d = 0; d < term[k].rank; ++d) {
      const std::int32_t label = term[k].labels[static_cast<std::size_t>(d)], e = xs[k][d];
      auto& known = extent[static_cast<std::size_t>(label)];
      if (known == 0 || known == 1) known = label >= einsum_ellipsis_label || known == 0 ? e : known;
      if (known != e && !(label >= einsum_ellipsis_label && e == 1)) return refuse();
    }
  shape target{};
  target.rank = out.rank;
  for (std::int32_t d = 0; d < out.rank; ++d)
    target.dims[static_cast<std::size_t>(d)] =
        extent[static_cast<std::size_t>(out.labels[static_cast<std::size_t>(d)])];
  const auto tag = [&](std::size_t k) { return static_cast<std::size_t>(s.node_index) * 8 + k; };
  std::array<std::int32_t, 2> x{};
  for (std::uint32_t k = 0; k < count; ++k) x[k] = as_onnx(s, o.id[k], k);
  if (s.failed()) return;
  if (count == 1) {  // sums, then a transpose (a view of the result's shape either way)
    x[0] = einsum_sum_out(s, x[0], term[0], xs[0], produced, tag(0));
    const std::int32_t y = einsum_permute(s, x[0], term[0], out, tag(1));
    if (s.failed()) return;
    return define_reshaped(s, result, y, target);
  }
  // Labels one operand alone has and the output lacks: summed first.
  for (std::uint32_t k = 0; k < 2; ++k)
    x[k] = einsum_sum_out(s, x[k], term[k], xs[k], produced | einsum_mask(term[1 - k]), tag(k));
  if (s.failed()) return;
  const std::uint64_t in_a = einsum_mask(term[0]), in_b = einsum_mask(term[1]);
  // [batch..., M..., K...] times [batch..., K..., N...] gives [batch..., M..., N...]: batch, M and N in the
  // output's order, K in A's.
  einsum_term a_order{}, b_order{}, product{};
  const auto append = [](einsum_term& t, std::int32_t l) { t.labels[static_cast<std::size_t>(t.rank++)] = l; };
  std::int32_t batch = 0, rows = 1, inner = 1, columns = 1;
  for (std::int32_t d = 0; d < out.rank; ++d) {
    const std::int32_t l = out.labels[static_cast<std::size_t>(d)];
    if ((in_a >> l & 1u) != 0 && (in_b >> l & 1u) != 0)
      append(a_order, l), append(b_order, l), append(product, l), ++batch;
  }
  for (std::int32_t d = 0; d < out.rank; ++d) {
    const std::int32_t l = out.labels[static_cast<std::size_t>(d)];
    if ((in_a >> l & 1u) != 0 && (in_b >> l & 1u) == 0)
      append(a_order, l), append(product, l), rows *= extent[static_cast<std::size_t>(l)];
  }
  for (std::int32_t d = 0; d < term[0].rank; ++d) {
    const std::int32_t l = term[0].labels[static_cast<std::size_t>(d)];
    if ((produced >> l & 1u) == 0) append(a_order, l), append(b_order, l), inner *= extent[static_cast<std::size_t>(l)];
  }
  for (std::int32_t d = 0; d < out.rank; ++d) {
    const std::int32_t l = out.labels[static_cast<std::size_t>(d)];
    if ((in_b >> l & 1u) != 0 && (in_a >> l & 1u) == 0)
      append(b_order, l), append(product, l), columns *= extent[static_cast<std::size_t>(l)];
  }
  if (batch + 2 > static_cast<std::int32_t>(max_rank)) return refuse();
  // Operand k in `order`, viewed as [its batch extents..., r, c].
  const auto matrix = [&](std::uint32_t k, const einsum_term& order, std::int32_t r, std::int32_t c) {
    const std::int32_t y = einsum_permute(s, x[k], term[k], order, tag(2 + k));
    shape m{};
    for (std::int32_t d = 0; d < batch; ++d)
      m.dims[static_cast<std::size_t>(m.rank++)] =
          xs[k][einsum_position(term[k], order.labels[static_cast<std::size_t>(d)])];
    m.dims[static_cast<std::size_t>(m.rank++)] = r;
    m.dims[static_cast<std::size_t>(m.rank++)] = c;
    return s.reshape(y, m, numbered("einsum_matrix", tag(4 + k)));
  };
  const std::int32_t a = matrix(0, a_order, rows, inner);
  const std::int32_t b = matrix(1, b_order, inner, columns);
  if (s.failed()) return;
  const std::int32_t c =
      s.add_node(s.current_kind, {}, {a, b}, numbered("einsum_matmul", tag(6)));  // the row's: batch_matmul
  if (s.failed()) return;
  // The product [batch..., M..., N...] (its batch extents broadcast), then the output's order.
  shape unfolded{};
  for (std::int32_t d = 0; d < product.rank; ++d)
    unfolded.dims[static_cast<std::size_t>(unfolded.rank++)] =
        d < batch ? s.m.tensor_at(c).dims[d]
                  : extent[static_cast<std::size_t>(product.labels[static_cast<std::size_t>(d)])];
  if (unfolded.rank == 0) return define_reshaped(s, result, c, target);
  const std::int32_t labelled = s.reshape(c, unfolded, numbered("einsum_unfolded", tag(7)));
  const std::int32_t y = einsum_permute(s, labelled, product, out, tag(8));
  define(s, result, y, false);
}

}  // namespace ctnn::onnx::detail
