// Property tests of the memory planner on thousands of random inputs (run-time calls of the same
// constexpr code the compiler runs):
//
//  1. Random buffer sets, every algorithm: no two buffers whose lifetimes meet overlap, offsets are
//     aligned, the pool is the highest end and never below the liveness lower bound, plans are
//     deterministic; branch_and_bound equals the optimum found by brute force over all first-fit orders.
//  2. Random DAG modules (relu/sigmoid/tanh/add/mul with broadcasting, concat, pad, views, constants,
//     scratch, and on NHWC maps conv2d and depthwise_conv2d of any window, stride, padding and channel
//     counts), planned with every algorithm and every reuse option (in-place convolutions included),
//     with and without limited pools and pins: an independent checker finds no overlap between tensors
//     (or scratch) live at the same op, other than the ones reuse allows (an element-wise result over
//     its dying operand, a concat input inside its output, a convolution marked in place over its dying
//     input no higher than the brute-force shift allows); and an interpreter that runs the planned
//     module in simulated pools, with the reference kernels (convolutions) or their access order, and
//     garbage in every scratch region, computes outputs equal bit for bit to an unplanned evaluation.
//     Op reorders are valid topological orders.
#include <bit>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <numeric>
#include <random>
#include <string>
#include <typeinfo>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/kernel/reference/conv2d.hpp>
#include <ctnn/memory/algorithms.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/in_place_window.hpp>
#include <ctnn/memory/liveness.hpp>
#include <ctnn/pass/aot_lower_main.hpp>
#include <ctnn/pass/plan_memory.hpp>
#include <ctnn/print/printer.hpp>

namespace {

namespace memory = ctnn::memory;
using memory::buffer_info;
using memory::pool_allocation;

// ---------------------------------------------------------------------------------------------------
// 1. Buffer sets.
constexpr std::size_t set_capacity = 24;
using buffer_set = std::array<buffer_info, set_capacity>;

buffer_set random_set(std::mt19937& rng, std::int32_t& count, std::int32_t& ops, std::int32_t max_count = static_cast<std::int32_t>(set_capacity)) {
  static const std::array<std::int32_t, 7> alignments{1, 2, 4, 8, 16, 32, 64};
  count = std::uniform_int_distribution<std::int32_t>{0, max_count}(rng);
  ops = std::uniform_int_distribution<std::int32_t>{1, 16}(rng);
  buffer_set b{};
  for (std::int32_t i = 0; i < count; ++i) {
    auto& x = b[static_cast<std::size_t>(i)];
    x.tensor = i;
    const int kind = std::uniform_int_distribution<int>{0, 9}(rng);
    x.bytes = kind == 0 ? 0 : kind < 7 ? std::uniform_int_distribution<int>{1, 300}(rng) : std::uniform_int_distribution<int>{300, 5000}(rng);
    x.alignment = alignments[std::uniform_int_distribution<std::size_t>{0, alignments.size() - 1}(rng)];
    x.first_use = std::uniform_int_distribution<std::int32_t>{0, ops - 1}(rng);
    // Mostly short lifetimes (as in networks), some long ones (skip connections).
    const std::int32_t span = std::uniform_int_distribution<int>{0, 3}(rng) == 0 ? ops : 3;
    x.last_use = std::min(ops - 1, x.first_use + std::uniform_int_distribution<std::int32_t>{0, span}(rng));
  }
  return b;
}

// Checks a plan; returns the pool size.
template <class Algorithm>
std::int64_t checked_plan(const buffer_set& b, std::int32_t count, std::int32_t ops) {
  std::array<pool_allocation, set_capacity> at{};
  const std::int64_t pool = Algorithm::plan(b, count, at);
  std::int64_t highest = 0;
  for (std::int32_t i = 0; i < count; ++i) {
    const auto& x = b[static_cast<std::size_t>(i)];
    const std::int64_t off = at[static_cast<std::size_t>(i)].offset;
    REQUIRE(off >= 0);
    REQUIRE(off % x.alignment == 0);
    highest = std::max(highest, off + x.bytes);
    for (std::int32_t j = i + 1; j < count; ++j) {
      const auto& y = b[static_cast<std::size_t>(j)];
      if (!x.lifetime_overlaps(y) || x.bytes == 0 || y.bytes == 0) continue;
      const std::int64_t o = at[static_cast<std::size_t>(j)].offset;
      REQUIRE((off + x.bytes <= o || o + y.bytes <= off));
    }
  }
  REQUIRE(pool == highest);
  REQUIRE(pool >= memory::liveness_lower_bound(b, count, ops).bytes);
  std::array<pool_allocation, set_capacity> again{};
  REQUIRE(Algorithm::plan(b, count, again) == pool);
  for (std::int32_t i = 0; i < count; ++i) REQUIRE(again[static_cast<std::size_t>(i)].offset == at[static_cast<std::size_t>(i)].offset);
  return pool;
}

TEST_CASE("every algorithm: valid, deterministic plans no smaller than the liveness bound (3000 random sets)") {
  std::mt19937 rng{20240612u};
  std::array<std::int64_t, 8> total{};
  std::int64_t bound_total = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::int32_t count = 0, ops = 0;
    const buffer_set b = random_set(rng, count, ops);
    CAPTURE(trial);
    const std::array<std::int64_t, 8> pools{
        checked_plan<memory::greedy_by_size>(b, count, ops),      checked_plan<memory::greedy_by_conflicts>(b, count, ops),
        checked_plan<memory::greedy_by_breadth>(b, count, ops),   checked_plan<memory::interval_sweep>(b, count, ops),
        checked_plan<memory::hill_climb<5, 40>>(b, count, ops),    checked_plan<memory::branch_and_bound<10, 400>>(b, count, ops),
        checked_plan<memory::default_planner>(b, count, ops),
        checked_plan<memory::best_of<memory::greedy_by_conflicts, memory::greedy_by_breadth>>(b, count, ops)};
    // best_of keeps the smallest of its members; the default is never worse than greedy by size.
    CHECK(pools[7] == std::min(pools[1], pools[2]));
    CHECK(pools[6] <= pools[0]);
    CHECK(pools[6] <= pools[3]);
    CHECK(pools[4] <= pools[0]);  // the climb starts from the greedy-by-size order and never accepts worse
    for (std::size_t k = 0; k < total.size(); ++k) total[k] += pools[k];
    bound_total += memory::liveness_lower_bound(b, count, ops).bytes;
  }
  MESSAGE("pool bytes over 3000 sets: size " << total[0] << ", conflicts " << total[1] << ", breadth " << total[2] << ", sweep "
                                             << total[3] << ", hill " << total[4] << ", b&b " << total[5] << ", default "
                                             << total[6] << "; liveness bounds " << bound_total);
  CHECK(total[6] < total[0]);  // the default finds better plans than greedy by size on these sets
}

// The optimum over all first-fit orders (which contains an optimal placement: see branch_and_bound.hpp).
std::int64_t brute_force(const buffer_set& b, std::int32_t count) {
  std::array<std::int32_t, set_capacity> order{};
  std::iota(order.begin(), order.begin() + count, 0);
  std::int64_t best = -1;
  do {
    std::array<pool_allocation, set_capacity> at{};
    const std::int64_t pool = memory::first_fit(b, count, order, at);
    if (best < 0 || pool < best) best = pool;
  } while (std::next_permutation(order.begin(), order.begin() + count));
  return best;
}

TEST_CASE("branch_and_bound is optimal on small sets (500 random sets of up to 7 buffers, against brute force)") {
  std::mt19937 rng{99u};
  int improved_on_greedy = 0;
  for (int trial = 0; trial < 500; ++trial) {
    std::int32_t count = 0, ops = 0;
    const buffer_set b = random_set(rng, count, ops, 7);
    CAPTURE(trial);
    std::array<pool_allocation, set_capacity> at{};
    bool proven = false;
    const std::int64_t pool = memory::branch_and_bound<12, 1'000'000>::plan(b, count, at, proven);
    CHECK(proven);
    const std::int64_t optimum = brute_force(b, count);
    REQUIRE(pool == optimum);
    REQUIRE(checked_plan<memory::branch_and_bound<12, 1'000'000>>(b, count, ops) == optimum);
    improved_on_greedy += optimum < checked_plan<memory::greedy_by_size>(b, count, ops) ? 1 : 0;
  }
  CHECK(improved_on_greedy > 10);
}

TEST_CASE("hill_climb: the seed selects the walk; equal seeds give equal plans") {
  std::mt19937 rng{5u};
  int differ = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::int32_t count = 0, ops = 0;
    const buffer_set b = random_set(rng, count, ops);
    std::array<pool_allocation, set_capacity> a{}, c{}, d{};
    const auto pa = memory::hill_climb<1, 60>::plan(b, count, a);
    const auto pc = memory::hill_climb<1, 60>::plan(b, count, c);
    const auto pd = memory::hill_climb<2, 60>::plan(b, count, d);
    REQUIRE(pa == pc);
    for (std::int32_t i = 0; i < count; ++i) REQUIRE(a[static_cast<std::size_t>(i)].offset == c[static_cast<std::size_t>(i)].offset);
    for (std::int32_t i = 0; i < count; ++i) differ += a[static_cast<std::size_t>(i)].offset != d[static_cast<std::size_t>(i)].offset ? 1 : 0;
    (void)pd;
  }
  CHECK(differ > 0);
}

// ---------------------------------------------------------------------------------------------------
// 2. Random DAG modules.
using dag = ctnn::module<80, 40>;

const float constant_values[8] = {0.5f, -1.25f, 2.0f, 0.75f, -0.5f, 1.5f, -2.0f, 0.25f};

// Weights and biases of the random convolutions: windows into one table of small dyadic values (sums of
// products stay exact enough that only the order of operations could change a bit: it must not).
const std::vector<float>& weight_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(1 << 15);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<float>(static_cast<std::int32_t>((i * 2654435761u) >> 27) - 16) / 16.0f;
    return t;
  }();
  return table;
}

// The kernel parameters of a random DAG's convolution (what lower_te would give it).
ctnn::kernel_params conv_params(const dag& m, const ctnn::node& n) {
  ctnn::kernel_params p{};
  p.kind = n.kind;
  p.in = m.tensor_at(n.inputs[0]).dims;
  p.out = m.tensor_at(n.output).dims;
  p.win = n.attrs.win;
  p.depth_multiplier = n.attrs.depth_multiplier;
  p.has_bias = 1;
  return p;
}

ctnn::shape broadcast(const ctnn::shape& a, const ctnn::shape& b) {
  ctnn::shape out{};
  out.rank = std::max(a.rank, b.rank);
  for (std::int32_t d = 0; d < out.rank; ++d) {
    const std::int32_t da = d - (out.rank - a.rank), db = d - (out.rank - b.rank);
    out.dims[static_cast<std::size_t>(d)] = std::max(da >= 0 ? a[da] : 1, db >= 0 ? b[db] : 1);
  }
  return out;
}

// numpy broadcasting: aligned from the last axis, extents equal or 1.
bool broadcastable(const ctnn::shape& a, const ctnn::shape& b) {
  for (std::int32_t k = 1; k <= std::min(a.rank, b.rank); ++k) {
    const std::int32_t x = a[a.rank - k], y = b[b.rank - k];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

dag random_dag(std::mt19937& rng) {
  dag m{};
  m.model_name = ctnn::name{"random"};
  const auto pick = [&rng](std::int32_t n) { return std::uniform_int_distribution<std::int32_t>{0, n - 1}(rng); };
  const bool four_d = pick(3) == 0;
  const std::int32_t height = 2 + pick(5), width = 2 + pick(5);
  const auto make_shape = [&](std::int32_t c) { return four_d ? ctnn::make_shape(1, height, width, c) : ctnn::make_shape(1, c); };
  std::vector<std::int32_t> available;
  const std::int32_t inputs = 1 + pick(2);
  for (std::int32_t i = 0; i < inputs; ++i) {
    ctnn::tensor t{};
    t.label = ctnn::numbered("in", static_cast<std::size_t>(i));
    t.dims = make_shape(2 + pick(12));
    t.role = ctnn::tensor_role::input;
    t.io_index = i;
    m.inputs[static_cast<std::size_t>(i)] = m.add_tensor(t);
    available.push_back(m.inputs[static_cast<std::size_t>(i)]);
  }
  m.input_count = inputs;
  const std::int32_t ops = 1 + pick(24);
  for (std::int32_t k = 0; k < ops && m.tensor_count < 70; ++k) {
    ctnn::node n{};
    n.label = ctnn::numbered("op", static_cast<std::size_t>(k));
    const std::int32_t a = available[static_cast<std::size_t>(pick(static_cast<std::int32_t>(available.size())))];
    const ctnn::shape& sa = m.tensor_at(a).dims;
    ctnn::shape out = sa;
    const int choice = pick(four_d ? 16 : 13);  // NHWC maps: more convolutions
    if (choice >= 10 && sa.rank == 4 && m.tensor_at(a).role != ctnn::tensor_role::constant) {
      // A convolution (2 in 3) or a depthwise one: 1x1 to 3x3, stride 1 or 2, any padding up to the
      // window, Cout from 1 to 12 (depthwise: multiplier 1 or 2).
      n.kind = choice % 3 == 0 ? ctnn::op_kind::depthwise_conv2d : ctnn::op_kind::conv2d;
      ctnn::window& w = n.attrs.win;
      w.kernel_h = 1 + pick(3), w.kernel_w = 1 + pick(3), w.stride_h = 1 + pick(2), w.stride_w = 1 + pick(2);
      w.mode = ctnn::padding::explicit_pads;
      w.pad_top = pick(w.kernel_h), w.pad_bottom = pick(w.kernel_h), w.pad_left = pick(w.kernel_w), w.pad_right = pick(w.kernel_w);
      if (sa[1] + w.pad_top + w.pad_bottom < w.kernel_h || sa[2] + w.pad_left + w.pad_right < w.kernel_w) w.pad_bottom = w.pad_right = 2;
      const std::int32_t out_channels = n.kind == ctnn::op_kind::conv2d ? 1 + pick(12) : sa[3] * (n.attrs.depth_multiplier = 1 + pick(2));
      out = ctnn::make_shape(1, (sa[1] + w.pad_top + w.pad_bottom - w.kernel_h) / w.stride_h + 1,
                             (sa[2] + w.pad_left + w.pad_right - w.kernel_w) / w.stride_w + 1, out_channels);
      const std::int64_t weight_count = static_cast<std::int64_t>(w.kernel_h) * w.kernel_w * out_channels *
                                        (n.kind == ctnn::op_kind::conv2d ? sa[3] : 1);
      const auto constant = [&](ctnn::shape dims, std::int64_t count) {
        ctnn::tensor c{};
        c.label = ctnn::numbered("w", static_cast<std::size_t>(m.tensor_count));
        c.dims = dims;
        c.role = ctnn::tensor_role::constant;
        c.data.f32 = weight_table().data() + pick(static_cast<std::int32_t>(weight_table().size() - static_cast<std::size_t>(count)));
        return m.add_tensor(c);
      };
      n.inputs[0] = a;
      n.inputs[1] = constant(n.kind == ctnn::op_kind::conv2d ? ctnn::make_shape(out_channels, w.kernel_h, w.kernel_w, sa[3])
                                                             : ctnn::make_shape(1, w.kernel_h, w.kernel_w, out_channels),
                             weight_count);
      n.inputs[2] = constant(ctnn::make_shape(out_channels), out_channels);
      n.input_count = 3;
    } else if (choice == 9 && m.tensor_at(a).role != ctnn::tensor_role::constant) {
      // A view (what alias_reshapes makes of a reshape): rank 2 <-> rank 4, no op.
      ctnn::tensor v{};
      v.label = ctnn::numbered("view", static_cast<std::size_t>(k));
      v.dims = sa.rank == 2 ? ctnn::make_shape(1, 1, 1, sa[1]) : ctnn::make_shape(1, static_cast<std::int32_t>(sa.elements()));
      v.alias_of = a;
      available.push_back(m.add_tensor(v));
      continue;
    } else if (choice <= 2 || choice >= 9) {  // (a convolution or a view that does not apply: a unary op)
      n.kind = std::array{ctnn::op_kind::relu, ctnn::op_kind::sigmoid, ctnn::op_kind::tanh}[static_cast<std::size_t>(choice % 3)];
      n.inputs[0] = a;
      n.input_count = 1;
    } else if (choice <= 5) {
      n.kind = pick(2) == 0 ? ctnn::op_kind::add : ctnn::op_kind::mul;
      std::int32_t b = -1;
      const int how = pick(4);
      if (how == 0) {
        b = a;  // x + x
      } else if (how == 1) {
        ctnn::tensor c{};  // a broadcast constant
        c.label = ctnn::numbered("const", static_cast<std::size_t>(k));
        c.dims = sa.rank == 2 ? ctnn::make_shape(1, 1) : ctnn::make_shape(1, 1, 1, 1);
        c.role = ctnn::tensor_role::constant;
        c.data.f32 = &constant_values[pick(8)];
        b = m.add_tensor(c);
      } else {
        std::vector<std::int32_t> same;
        for (const std::int32_t t : available)
          if (m.tensor_at(t).dims.elements() == sa.elements() && broadcastable(m.tensor_at(t).dims, sa)) same.push_back(t);
        b = same[static_cast<std::size_t>(pick(static_cast<std::int32_t>(same.size())))];
      }
      const bool swap = pick(2) == 0;
      n.inputs[0] = swap ? b : a;
      n.inputs[1] = swap ? a : b;
      n.input_count = 2;
      out = broadcast(m.tensor_at(n.inputs[0]).dims, m.tensor_at(n.inputs[1]).dims);
    } else if (choice <= 7) {
      n.kind = ctnn::op_kind::concat;
      std::vector<std::int32_t> fits;
      for (const std::int32_t t : available) {
        const auto& s = m.tensor_at(t).dims;
        bool ok = s.rank == sa.rank;
        for (std::int32_t d = 0; ok && d + 1 < s.rank; ++d) ok = s[d] == sa[d];
        if (ok) fits.push_back(t);
      }
      n.input_count = 2 + pick(2);
      std::int32_t channels = 0;
      for (std::int32_t i = 0; i < n.input_count; ++i) {
        n.inputs[static_cast<std::size_t>(i)] = i == 0 ? a : fits[static_cast<std::size_t>(pick(static_cast<std::int32_t>(fits.size())))];
        channels += m.tensor_at(n.inputs[static_cast<std::size_t>(i)]).dims.last();
      }
      n.attrs.axis = sa.rank - 1;
      out.dims[static_cast<std::size_t>(sa.rank - 1)] = channels;
    } else {
      n.kind = ctnn::op_kind::pad;
      n.inputs[0] = a;
      n.input_count = 1;
      const std::int32_t before = pick(3), after = 1 + pick(3);
      n.attrs.pad.before_after[static_cast<std::size_t>(2 * (sa.rank - 1))] = before;
      n.attrs.pad.before_after[static_cast<std::size_t>(2 * (sa.rank - 1) + 1)] = after;
      n.attrs.pad.fill_value_bits = std::bit_cast<std::uint32_t>(0.375f);
      out.dims[static_cast<std::size_t>(sa.rank - 1)] += before + after;
    }
    ctnn::tensor r{};
    r.label = n.label;
    r.dims = out;
    r.producer = m.node_count;
    n.output = m.add_tensor(r);
    m.nodes[static_cast<std::size_t>(m.node_count++)] = n;
    available.push_back(n.output);
  }
  // Outputs: the last op's result, and sometimes another one (possibly read later: an output that is
  // also an operand).
  std::vector<std::int32_t> produced;
  for (std::int32_t i = 0; i < m.node_count; ++i) produced.push_back(m.node_at(i).output);
  if (produced.empty()) {  // no op: one relu
    ctnn::node n{};
    n.kind = ctnn::op_kind::relu;
    n.inputs[0] = m.inputs[0];
    n.input_count = 1;
    ctnn::tensor r{};
    r.dims = m.input_tensor(0).dims;
    r.producer = 0;
    n.output = m.add_tensor(r);
    m.nodes[0] = n;
    m.node_count = 1;
    produced.push_back(n.output);
  }
  std::vector<std::int32_t> outs{produced.back()};
  if (produced.size() > 1 && pick(2) == 0) outs.push_back(produced[static_cast<std::size_t>(pick(static_cast<std::int32_t>(produced.size()) - 1))]);
  for (std::size_t o = 0; o < outs.size(); ++o) {
    m.tensor_at(outs[o]).role = ctnn::tensor_role::output;
    m.tensor_at(outs[o]).io_index = static_cast<std::int32_t>(o);
    m.outputs[o] = outs[o];
  }
  m.output_count = static_cast<std::int32_t>(outs.size());
  // One call per op (what lower_te makes), some with scratch.
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    ctnn::kernel_call& c = m.calls[static_cast<std::size_t>(i)];
    c.node = i;
    c.kernel = 0;
    c.params.kind = m.node_at(i).kind;
    c.operands = m.node_at(i).inputs;
    c.operand_count = m.node_at(i).input_count;
    c.result = m.node_at(i).output;
    m.scratch_bytes[static_cast<std::size_t>(i)] = pick(4) == 0 ? 4 * (1 + pick(40)) : 0;
  }
  m.call_count = m.node_count;
  m.establish(ctnn::fact::shapes_inferred);
  m.establish(ctnn::fact::kernels_lowered);
  return m;
}

// Runs one op with the reference kernels' access order (kernel/reference/): element-wise ops read
// element i, then write element i; binary ops with broadcasting walk an odometer; concat copies runs
// in output order; pad fills, then copies rows. Convolutions run the reference kernels themselves.
void run_op(const dag& m, const ctnn::node& n, const std::array<const float*, ctnn::max_node_inputs>& in, float* out) {
  const ctnn::shape& so = m.tensor_at(n.output).dims;
  const std::int64_t elements = so.elements();
  switch (n.kind) {
    case ctnn::op_kind::relu:
      for (std::int64_t i = 0; i < elements; ++i) out[i] = in[0][i] > 0.0f ? in[0][i] : 0.0f;
      return;
    case ctnn::op_kind::sigmoid:
      for (std::int64_t i = 0; i < elements; ++i) out[i] = 1.0f / (1.0f + std::exp(-in[0][i]));
      return;
    case ctnn::op_kind::tanh:
      for (std::int64_t i = 0; i < elements; ++i) out[i] = std::tanh(in[0][i]);
      return;
    case ctnn::op_kind::add:
    case ctnn::op_kind::mul: {
      const auto combine = [&n](float x, float y) { return n.kind == ctnn::op_kind::mul ? x * y : x + y; };
      const ctnn::shape& sa = m.tensor_at(n.inputs[0]).dims;
      const ctnn::shape& sb = m.tensor_at(n.inputs[1]).dims;
      if (sa == so && sb == so) {
        for (std::int64_t i = 0; i < elements; ++i) out[i] = combine(in[0][i], in[1][i]);
        return;
      }
      const auto strides = [&so](const ctnn::shape& s) {
        std::array<std::int64_t, ctnn::max_rank> st{};
        std::int64_t stride = 1;
        for (std::int32_t d = so.rank - 1; d >= 0; --d) {
          const std::int32_t od = s.rank - so.rank + d;
          const std::int32_t extent = od >= 0 ? s[od] : 1;
          st[static_cast<std::size_t>(d)] = extent == 1 ? 0 : stride;
          stride *= extent;
        }
        return st;
      };
      const auto st_a = strides(sa), st_b = strides(sb);
      std::array<std::int32_t, ctnn::max_rank> index{};
      std::int64_t ia = 0, ib = 0;
      for (std::int64_t i = 0; i < elements; ++i) {
        out[i] = combine(in[0][ia], in[1][ib]);
        for (std::int32_t d = so.rank - 1; d >= 0; --d) {
          const auto du = static_cast<std::size_t>(d);
          ia += st_a[du];
          ib += st_b[du];
          if (++index[du] < so[d]) break;
          ia -= st_a[du] * so[d];
          ib -= st_b[du] * so[d];
          index[du] = 0;
        }
      }
      return;
    }
    case ctnn::op_kind::concat: {
      std::int64_t outer = 1;
      for (std::int32_t d = 0; d < n.attrs.axis; ++d) outer *= so[d];
      float* to = out;
      for (std::int64_t o = 0; o < outer; ++o)
        for (std::int32_t i = 0; i < n.input_count; ++i) {
          const std::int64_t run = m.tensor_at(n.inputs[static_cast<std::size_t>(i)]).dims.last();
          const float* from = in[static_cast<std::size_t>(i)] + o * run;
          for (std::int64_t k = 0; k < run; ++k) *to++ = from[k];
        }
      return;
    }
    case ctnn::op_kind::pad: {
      for (std::int64_t i = 0; i < elements; ++i) out[i] = n.attrs.pad.fill_value();
      const ctnn::shape& si = m.tensor_at(n.inputs[0]).dims;
      const std::int32_t row = si.last(), out_row = so.last();
      const std::int32_t before = n.attrs.pad.before_after[static_cast<std::size_t>(2 * (si.rank - 1))];
      for (std::int64_t r = 0; r < si.elements() / row; ++r)
        for (std::int32_t k = 0; k < row; ++k) out[r * out_row + before + k] = in[0][r * row + k];
      return;
    }
    case ctnn::op_kind::conv2d:
    case ctnn::op_kind::depthwise_conv2d: {
      const ctnn::kernel_params p = conv_params(m, n);
      if (n.kind == ctnn::op_kind::conv2d) ctnn::kernel::reference::conv2d(&p, in[0], in[1], in[2], out);
      else ctnn::kernel::reference::depthwise_conv2d(&p, in[0], in[1], in[2], out);
      return;
    }
    default: FAIL("unexpected op kind");
  }
}

// Unplanned: every tensor its own array, views share their root's.
std::vector<std::vector<float>> evaluate_reference(const dag& m, const std::vector<std::vector<float>>& inputs) {
  std::vector<std::vector<float>> value(static_cast<std::size_t>(m.tensor_count));
  for (std::int32_t i = 0; i < m.input_count; ++i) value[static_cast<std::size_t>(m.inputs[static_cast<std::size_t>(i)])] = inputs[static_cast<std::size_t>(i)];
  const auto data = [&](std::int32_t t) -> const float* {
    const std::int32_t r = m.storage_root(t);
    if (m.tensor_at(r).role == ctnn::tensor_role::constant) return m.tensor_at(r).data.f32;
    return value[static_cast<std::size_t>(r)].data();
  };
  for (std::int32_t op = 0; op < m.node_count; ++op) {
    const ctnn::node& n = m.node_at(op);
    std::array<const float*, ctnn::max_node_inputs> in{};
    for (std::int32_t k = 0; k < n.input_count; ++k) in[static_cast<std::size_t>(k)] = data(n.inputs[static_cast<std::size_t>(k)]);
    auto& out = value[static_cast<std::size_t>(n.output)];
    out.assign(static_cast<std::size_t>(m.tensor_at(n.output).dims.elements()), 0.0f);
    run_op(m, n, in, out.data());
  }
  std::vector<std::vector<float>> outputs;
  for (std::int32_t o = 0; o < m.output_count; ++o) outputs.push_back(value[static_cast<std::size_t>(m.outputs[static_cast<std::size_t>(o)])]);
  return outputs;
}

// Planned: the calls in order, operands where aot_lower_main put them, pools filled with garbage and
// every scratch region overwritten before its call.
std::vector<std::vector<float>> evaluate_planned(const dag& m, const std::vector<std::vector<float>>& inputs, std::mt19937& rng) {
  std::vector<std::vector<std::byte>> pools(static_cast<std::size_t>(m.pool_count));
  for (std::int32_t p = 0; p < m.pool_count; ++p) {
    pools[static_cast<std::size_t>(p)].resize(static_cast<std::size_t>(p == 0 ? m.arena_bytes() : m.pool_usage[static_cast<std::size_t>(p)].bytes) + 1);
    for (auto& byte : pools[static_cast<std::size_t>(p)]) byte = static_cast<std::byte>(rng() & 0xFF);
  }
  std::vector<std::vector<float>> in_buffers = inputs, out_buffers;
  for (std::int32_t o = 0; o < m.output_count; ++o)
    out_buffers.emplace_back(static_cast<std::size_t>(m.output_tensor(o).dims.elements()), std::nanf(""));
  const auto address = [&](const ctnn::location& l) -> float* {
    switch (l.where) {
      case ctnn::storage::arena: return reinterpret_cast<float*>(pools[static_cast<std::size_t>(l.index < 0 ? 0 : l.index)].data() + l.offset);
      case ctnn::storage::model_input: return in_buffers[static_cast<std::size_t>(l.index)].data();
      case ctnn::storage::model_output: return out_buffers[static_cast<std::size_t>(l.index)].data();
      case ctnn::storage::constant: return const_cast<float*>(m.tensor_at(l.index).data.f32);
      case ctnn::storage::state:  // these random models have no state
      case ctnn::storage::none: return nullptr;
    }
    return nullptr;
  };
  // io_in_arena: the caller writes the inputs into the pools.
  for (std::int32_t i = 0; i < m.input_count; ++i) {
    const ctnn::location l = ctnn::pass::location_of(m, m.inputs[static_cast<std::size_t>(i)]);
    if (l.where == ctnn::storage::arena) std::memcpy(address(l), inputs[static_cast<std::size_t>(i)].data(), inputs[static_cast<std::size_t>(i)].size() * 4);
  }
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const ctnn::kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    const auto& s = m.scratch[static_cast<std::size_t>(c)];
    if (s.offset >= 0) std::memset(pools[static_cast<std::size_t>(s.pool)].data() + s.offset, 0xA5, static_cast<std::size_t>(m.scratch_bytes[static_cast<std::size_t>(c)]));
    std::array<const float*, ctnn::max_node_inputs> in{};
    for (std::int32_t k = 0; k < call.operand_count; ++k) in[static_cast<std::size_t>(k)] = address(call.operand_at[static_cast<std::size_t>(k)]);
    run_op(m, m.node_at(call.node), in, address(call.result_at));
  }
  std::vector<std::vector<float>> outputs;
  for (std::int32_t o = 0; o < m.output_count; ++o) {
    const ctnn::location l = ctnn::pass::location_of(m, m.outputs[static_cast<std::size_t>(o)]);
    const float* from = address(l);
    outputs.emplace_back(from, from + m.output_tensor(o).dims.elements());
  }
  return outputs;
}

// Whether tensor x (at byte `x_low`) was written into concat result y (at `y_low`) by concat in place:
// x is one of y's inputs at its slice, or lies (so) inside one of them (nested concats). x may be read
// after the concat too: its slice is never written over while y's buffer lives.
bool written_into_concat(const dag& m, std::int32_t x, std::int64_t x_low, std::int32_t y, std::int64_t y_low) {
  const std::int32_t k = m.tensor_at(y).producer;
  if (k < 0 || m.node_at(k).kind != ctnn::op_kind::concat) return false;
  const ctnn::node& n = m.node_at(k);
  std::int64_t slice = 0;
  for (std::int32_t slot = 0; slot < n.input_count; ++slot) {
    const std::int32_t z = m.storage_root(n.inputs[static_cast<std::size_t>(slot)]);
    const auto& at = m.allocations[static_cast<std::size_t>(z)];
    if (at.offset == y_low + slice && (z == x ? x_low == at.offset : written_into_concat(m, x, x_low, z, at.offset))) return true;
    slice += m.tensor_at(n.inputs[static_cast<std::size_t>(slot)]).bytes();
  }
  return false;
}

// The independent overlap check: tensors (by root) and scratch regions live at the same op of the
// planned order may share bytes only as reuse allows.
void check_no_illegal_overlap(const dag& m) {
  struct region {
    std::int32_t tensor = -1;  // -1: scratch of call `first`
    std::int32_t pool = 0;
    std::int64_t low = 0, high = 0;
    std::int32_t first = 0, last = 0;
  };
  std::vector<region> regions;
  const std::int32_t last_op = m.node_count - 1;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const auto& a = m.allocations[static_cast<std::size_t>(t)];
    if (a.offset < 0) continue;
    const ctnn::tensor& x = m.tensor_at(t);
    REQUIRE(x.alias_of < 0);  // views are never placed
    region r{t, a.pool, a.offset, a.offset + x.bytes(), x.producer >= 0 ? x.producer : 0, x.producer >= 0 ? x.producer : 0};
    if (x.role == ctnn::tensor_role::output) r.last = last_op;
    for (std::int32_t op = 0; op < m.node_count; ++op)
      for (std::int32_t k = 0; k < m.node_at(op).input_count; ++k)
        if (m.storage_root(m.node_at(op).inputs[static_cast<std::size_t>(k)]) == t) r.last = std::max(r.last, op);
    regions.push_back(r);
  }
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& s = m.scratch[static_cast<std::size_t>(c)];
    if (s.offset >= 0) regions.push_back({-1, s.pool, s.offset, s.offset + m.scratch_bytes[static_cast<std::size_t>(c)], c, c});
  }
  const auto legal = [&m](const region& x, const region& y) {
    if (x.tensor < 0 || y.tensor < 0) return false;
    const std::int32_t k = m.tensor_at(y.tensor).producer;
    if (k < 0) return false;
    const ctnn::node& n = m.node_at(k);
    if (n.kind == ctnn::op_kind::concat) return written_into_concat(m, x.tensor, x.low, y.tensor, y.low);
    if (n.kind == ctnn::op_kind::conv2d || n.kind == ctnn::op_kind::depthwise_conv2d) {
      // y computed over x, its dying input, by a call marked in place, starting no higher than the
      // brute-force rule allows.
      const ctnn::kernel_params p = conv_params(m, n);
      return m.storage_root(n.inputs[0]) == x.tensor && x.last == k && y.first == k &&
             m.calls[static_cast<std::size_t>(k)].params.in_place == 1 &&
             y.low - x.low <= memory::in_place_window_shift_per_pixel(p.in, p.out, p.win) * static_cast<std::int64_t>(sizeof(float));
    }
    for (std::int32_t slot = 0; slot < n.input_count; ++slot)
      if (m.storage_root(n.inputs[static_cast<std::size_t>(slot)]) == x.tensor && memory::may_write_over(n.kind, slot) && x.last == k &&
          x.low == y.low && x.high == y.high)
        return true;  // y written over x, which dies at y's op
    return false;
  };
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const region& x = regions[i];
    // Buffers start at multiples of their pool's alignment; a concat's inputs inside its output at
    // multiples of the module's arena alignment.
    REQUIRE(x.low % m.arena_alignment == 0);
    if (x.tensor < 0) REQUIRE(x.low % m.pools[static_cast<std::size_t>(x.pool)].alignment == 0);
    REQUIRE(x.high <= (x.pool == 0 ? m.arena_bytes() : m.pool_usage[static_cast<std::size_t>(x.pool)].bytes));
    for (std::size_t j = i + 1; j < regions.size(); ++j) {
      const region& y = regions[j];
      if (x.pool != y.pool || x.low >= y.high || y.low >= x.high || x.low == x.high || y.low == y.high) continue;
      if (x.first > y.last || y.first > x.last) continue;
      CAPTURE(x.tensor);
      CAPTURE(y.tensor);
      CAPTURE(x.low);
      CAPTURE(x.high);
      CAPTURE(x.first);
      CAPTURE(x.last);
      CAPTURE(y.low);
      CAPTURE(y.high);
      CAPTURE(y.first);
      CAPTURE(y.last);
      CAPTURE(x.pool);
      if (!(legal(x, y) || legal(y, x)) && std::getenv("CTNN_DUMP") != nullptr)
        ctnn::print_module(m, [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); });
      REQUIRE((legal(x, y) || legal(y, x)));
    }
  }
}

template <class Algorithm>
void plan_and_check(const dag& original, const memory::plan_config& config, const std::vector<std::vector<float>>& expected,
                    const std::vector<std::vector<float>>& inputs, std::mt19937& rng, int& failures_expected, int& reordered,
                    int config_number) {
  CAPTURE(config_number);
  CAPTURE(typeid(Algorithm).name());
  dag m = ctnn::pass::plan_module<Algorithm>(original, config);
  if (m.error.failed()) {
    // Only a budget can fail here; the diagnostic's numbers must be right.
    REQUIRE(m.error.code == ctnn::code_of(ctnn::memory_error::pool_budget_exceeded));
    const std::int32_t pool = m.error.expected.dims[0];
    REQUIRE(m.error.bytes_available == m.pools[static_cast<std::size_t>(pool)].size_limit);
    REQUIRE(m.error.bytes_needed > m.error.bytes_available);
    ++failures_expected;
    return;
  }
  REQUIRE(m.has(ctnn::fact::memory_planned));
  // A valid order: same ops, every operand produced before it is read.
  std::vector<int> seen(static_cast<std::size_t>(m.tensor_count), 0);
  for (std::int32_t op = 0; op < m.node_count; ++op) {
    const ctnn::node& n = m.node_at(op);
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t r = m.storage_root(n.inputs[static_cast<std::size_t>(k)]);
      if (m.tensor_at(r).producer >= 0) REQUIRE(m.tensor_at(r).producer < op);
    }
    REQUIRE(m.tensor_at(n.output).producer == op);
    REQUIRE(m.calls[static_cast<std::size_t>(op)].node == op);
    REQUIRE(m.calls[static_cast<std::size_t>(op)].result == n.output);
  }
  reordered += m.reordered;
  // Pools: within limits, never below their own liveness bound; pins respected.
  for (std::int32_t p = 0; p < m.pool_count; ++p) {
    const auto& usage = m.pool_usage[static_cast<std::size_t>(p)];
    REQUIRE(usage.bytes >= usage.lower_bound);
    if (m.pools[static_cast<std::size_t>(p)].size_limit >= 0) REQUIRE(usage.bytes <= m.pools[static_cast<std::size_t>(p)].size_limit);
  }
  for (std::int32_t k = 0; k < config.pin_count; ++k) {
    const auto& pin = config.pins[static_cast<std::size_t>(k)];
    if (pin.target != memory::pin_target::kind || pin.kind != memory::buffer_kind::scratch) continue;
    for (std::int32_t c = 0; c < m.call_count; ++c)
      if (m.scratch[static_cast<std::size_t>(c)].offset >= 0) REQUIRE(m.scratch[static_cast<std::size_t>(c)].pool == 0);
  }
  m = ctnn::pass::aot_lower_main::run(m);
  check_no_illegal_overlap(m);
  const auto got = evaluate_planned(m, inputs, rng);
  REQUIRE(got.size() == expected.size());
  for (std::size_t o = 0; o < got.size(); ++o) {
    REQUIRE(got[o].size() == expected[o].size());
    if (std::memcmp(got[o].data(), expected[o].data(), got[o].size() * sizeof(float)) != 0 && std::getenv("CTNN_DUMP") != nullptr)
      ctnn::print_module(m, [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); });
    REQUIRE(std::memcmp(got[o].data(), expected[o].data(), got[o].size() * sizeof(float)) == 0);
  }
}

TEST_CASE("random DAGs: every algorithm and reuse option gives a sound plan and the same outputs (1500 DAGs, convolutions in place too)") {
  std::mt19937 rng{424242u};
  int budget_failures = 0, reordered = 0, in_place = 0, concats = 0, with_scratch = 0, convolutions = 0, windows_in_place = 0,
      lowered_arenas = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const dag m = random_dag(rng);
    CAPTURE(trial);
    std::vector<std::vector<float>> inputs;
    for (std::int32_t i = 0; i < m.input_count; ++i) {
      std::vector<float> v(static_cast<std::size_t>(m.input_tensor(i).dims.elements()));
      for (auto& x : v) x = std::uniform_real_distribution<float>{-2.0f, 2.0f}(rng);
      inputs.push_back(v);
    }
    const auto expected = evaluate_reference(m, inputs);

    std::vector<memory::plan_config> configs;
    configs.push_back(memory::make_plan_config<>());
    configs.push_back(memory::make_plan_config<ctnn::memory_reuse>());
    configs.push_back(memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena>());
    configs.push_back(memory::make_plan_config<ctnn::in_place_ops>());
    // Two small pools with fallback to an unlimited one, scratch pinned to the first.
    configs.push_back(memory::make_plan_config<ctnn::pools<ctnn::pool<"tcm", 96>, ctnn::pool<"sram", 512, 32>, ctnn::pool<"ext">>,
                                               ctnn::pin_kind<memory::buffer_kind::scratch, "tcm">, ctnn::memory_reuse>());
    // A limited last pool: may fail, with a correct diagnostic.
    configs.push_back(memory::make_plan_config<ctnn::pools<ctnn::pool<"a", 128>, ctnn::pool<"b", 1024>>, ctnn::in_place_ops>());
    // In-place convolutions, alone and with every other reuse option, and one part of them.
    configs.push_back(memory::make_plan_config<ctnn::in_place_windows>());
    configs.push_back(memory::make_plan_config<ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>());
    configs.push_back(memory::make_plan_config<ctnn::in_place_conv, ctnn::io_in_arena>());
    configs.push_back(memory::make_plan_config<ctnn::in_place_windows, ctnn::io_in_arena>());
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const int number = static_cast<int>(k);
      plan_and_check<memory::greedy_by_size>(m, configs[k], expected, inputs, rng, budget_failures, reordered, number);
      plan_and_check<memory::interval_sweep>(m, configs[k], expected, inputs, rng, budget_failures, reordered, number);
      plan_and_check<memory::default_planner>(m, configs[k], expected, inputs, rng, budget_failures, reordered, number);
    }
    plan_and_check<memory::greedy_by_conflicts>(m, configs[1], expected, inputs, rng, budget_failures, reordered, 1);
    plan_and_check<memory::greedy_by_breadth>(m, configs[1], expected, inputs, rng, budget_failures, reordered, 1);
    plan_and_check<memory::hill_climb<3, 30>>(m, configs[1], expected, inputs, rng, budget_failures, reordered, 1);
    plan_and_check<memory::branch_and_bound<8, 300>>(m, configs[1], expected, inputs, rng, budget_failures, reordered, 1);
    const dag reused = ctnn::pass::plan_module<memory::greedy_by_size>(m, configs[1]);
    in_place += reused.in_place_ops;
    concats += reused.concats_in_place;
    const auto windows_dag = std::make_unique<dag>(ctnn::pass::plan_module<memory::greedy_by_size>(m, configs[7]));
    const dag& windows = *windows_dag;
    for (std::int32_t c = 0; c < m.call_count; ++c) {
      const ctnn::op_kind kind = m.calls[static_cast<std::size_t>(c)].params.kind;
      convolutions += kind == ctnn::op_kind::conv2d || kind == ctnn::op_kind::depthwise_conv2d ? 1 : 0;
      windows_in_place += windows.calls[static_cast<std::size_t>(c)].params.in_place;
    }
    // In place only where the arena gets smaller (same op order: no memory_aware_order), else no call is
    // marked: the same arena as without the option.
    const auto plain_io = std::make_unique<dag>(ctnn::pass::plan_module<memory::default_planner>(m, memory::make_plan_config<ctnn::io_in_arena>()));
    const auto windows_io = std::make_unique<dag>(ctnn::pass::plan_module<memory::default_planner>(m, configs[9]));
    CHECK(windows_io->arena_bytes() <= plain_io->arena_bytes());
    if (windows_io->arena_bytes() == plain_io->arena_bytes()) CHECK(windows_io->in_place_ops == 0);
    lowered_arenas += windows_io->arena_bytes() < plain_io->arena_bytes() ? 1 : 0;
    for (std::int32_t c = 0; c < m.call_count; ++c) with_scratch += m.scratch_bytes[static_cast<std::size_t>(c)] > 0 ? 1 : 0;
  }
  MESSAGE("in-place ops " << in_place << ", concats in place " << concats << ", reordered plans " << reordered << ", budget failures "
                          << budget_failures << ", calls with scratch " << with_scratch << ", convolutions " << convolutions
                          << ", of them in place (reuse + io + windows) " << windows_in_place << ", arenas lowered by in-place convolutions "
                          << lowered_arenas);
  // The generator reached every mechanism.
  CHECK(in_place > 500);
  CHECK(concats > 50);
  CHECK(reordered > 20);
  CHECK(budget_failures > 50);
  CHECK(with_scratch > 1000);
  CHECK(windows_in_place > 50);
  CHECK(lowered_arenas > 50);
}

}  // namespace
