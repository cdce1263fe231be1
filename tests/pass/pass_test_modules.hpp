#pragma once
// Helpers shared by the unit tests of the graph passes (fold_constants, fold_batch_norm, fuse_ops,
// alias_reshapes), the metadata passes and the pipeline order check: deterministic weight arrays that
// can be template arguments, pipelines with one pass left out, and small module queries.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/pipeline.hpp>

namespace ctnn_test {

// ---------------------------------------------------------------------------------------------------
// Weight arrays with distinct, deterministic values, usable as DSL template arguments (a static data
// member that is a complete C array): ramp<N, Seed>::values. Values lie in [-0.5, 0.5); with
// `Positive`, in [0.1, 1.1) (batch norm variances and scales).
constexpr float ramp_value(std::size_t i, int seed) {
  const std::uint32_t h = (static_cast<std::uint32_t>(i) + 1u) * 2654435761u ^ (static_cast<std::uint32_t>(seed) * 40503u);
  const std::uint32_t mixed = (h ^ (h >> 15)) * 2246822519u;
  return static_cast<float>((mixed >> 8) % 1000u) / 1000.0f - 0.5f;
}

namespace detail {
template <int Seed, bool Positive, class Indices>
struct ramp_values;
template <int Seed, bool Positive, std::size_t... I>
struct ramp_values<Seed, Positive, std::index_sequence<I...>> {
  static constexpr float values[sizeof...(I)] = {(Positive ? ramp_value(I, Seed) + 0.6f : ramp_value(I, Seed))...};
};
}  // namespace detail

template <std::size_t N, int Seed, bool Positive = false>
using ramp = detail::ramp_values<Seed, Positive, std::make_index_sequence<N>>;

// ---------------------------------------------------------------------------------------------------
// The default pipeline with one pass left out (the reference for "with vs without this pass").
namespace detail {
template <class Drop, class Pipeline>
struct without;
template <class Drop, class... Passes>
struct without<Drop, ctnn::pipeline<Passes...>> {
  using kept = decltype(std::tuple_cat(
      std::declval<std::conditional_t<std::is_same_v<Passes, Drop>, std::tuple<>, std::tuple<Passes>>>()...));
  template <class Tuple>
  struct to_pipeline;
  template <class... Kept>
  struct to_pipeline<std::tuple<Kept...>> {
    using type = ctnn::pipeline<Kept...>;
  };
  using type = typename to_pipeline<kept>::type;
};
}  // namespace detail

template <class Drop, class Pipeline = ctnn::default_pipeline>
using without = typename detail::without<Drop, Pipeline>::type;

static_assert(std::is_same_v<without<ctnn::pass::fuse_ops>,
                             ctnn::pipeline<ctnn::pass::infer_types, ctnn::pass::fold_constants, ctnn::pass::fold_batch_norm,
                                            ctnn::pass::alias_reshapes, ctnn::pass::lower_te, ctnn::pass::plan_memory<>,
                                            ctnn::pass::select_kernels<>, ctnn::pass::create_function_metadata, ctnn::pass::create_executor_metadata,
                                            ctnn::pass::aot_lower_main>>);

// ---------------------------------------------------------------------------------------------------
// Module queries.
template <class Module>
constexpr std::int32_t count_kind(const Module& m, ctnn::op_kind kind) {
  std::int32_t n = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) n += m.node_at(i).kind == kind ? 1 : 0;
  return n;
}

// The index of the first node of `kind`, or -1.
template <class Module>
constexpr std::int32_t find_kind(const Module& m, ctnn::op_kind kind) {
  for (std::int32_t i = 0; i < m.node_count; ++i)
    if (m.node_at(i).kind == kind) return i;
  return -1;
}

// The id of the tensor labelled `label` (the DSL labels a graph node's result with the node's name), or -1.
template <class Module>
constexpr std::int32_t tensor_named(const Module& m, std::string_view label) {
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).label.view() == label) return t;
  return -1;
}

// The calls whose kernel params have `kind`.
template <class Module>
constexpr std::int32_t count_calls(const Module& m, ctnn::op_kind kind) {
  std::int32_t n = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) n += m.calls[static_cast<std::size_t>(c)].params.kind == kind ? 1 : 0;
  return n;
}

// |a - b| <= rel * max(|b|, 1): relative for values of magnitude >= 1, absolute below (the outputs of
// a sum of products can be near 0 by cancellation, where a relative error means nothing).
inline bool close(double a, double b, double rel) { return std::fabs(a - b) <= rel * std::fmax(std::fabs(b), 1.0); }

// ---------------------------------------------------------------------------------------------------
// Every call's kernel id points at a kernel equal to its parameters, and every kernel is used (the kernel
// table after a pass that changes call parameters, e.g. mark_in_place_calls).
template <class Module>
constexpr bool kernels_match_calls(const Module& m) {
  std::array<bool, Module::node_capacity> used{};
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& call = m.calls[static_cast<std::size_t>(c)];
    if (call.kernel < 0 || call.kernel >= m.kernel_count || !(m.kernel(call.kernel) == call.params)) return false;
    used[static_cast<std::size_t>(call.kernel)] = true;
  }
  for (std::int32_t k = 0; k < m.kernel_count; ++k)
    if (!used[static_cast<std::size_t>(k)]) return false;
  return true;
}

}  // namespace ctnn_test
