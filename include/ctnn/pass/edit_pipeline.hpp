#pragma once
// Editing a pipeline instead of copying it: a pass of your own before or after a pass of the pipeline, a
// pass replaced, or left out. Each is a pipeline type (the default pipeline unless another is given):
//
//   using with_mine = ctnn::insert_before<ctnn::pass::lower_te, my_graph_pass>;
//   using net = ctnn::compile<model, with_mine>;
//   ctnn::insert_after<ctnn::pass::fuse_ops, my_pass, P>      ctnn::replace<ctnn::pass::fuse_ops, my_fuser, P>
//   ctnn::without<ctnn::pass::fold_batch_norm, P>
//
// The pass named must appear exactly once in the pipeline (a static_assert says so). ctnn::compile still
// checks the order of the result (a pass before the one that establishes what it reads is a compile error)
// and gives the memory options to its plan_memory. Plain parameter packs: a pipeline holds a dozen types,
// so nothing here needs a metaprogramming library (docs/design.md §2).
#include <cstddef>
#include <type_traits>
#include <utility>

#include <ctnn/pass/pipeline.hpp>

namespace ctnn {

namespace detail {

template <class... Pipelines>
struct join_pipelines {
  using type = pipeline<>;
};
template <class... A>
struct join_pipelines<pipeline<A...>> {
  using type = pipeline<A...>;
};
template <class... A, class... B, class... Rest>
struct join_pipelines<pipeline<A...>, pipeline<B...>, Rest...> : join_pipelines<pipeline<A..., B...>, Rest...> {};

// Each pass of the pipeline becomes Edit::at<Pass>: a pipeline of zero, one or more passes.
template <class Pipeline, class Anchor, class Edit>
struct edit_at;
template <class... Passes, class Anchor, class Edit>
struct edit_at<pipeline<Passes...>, Anchor, Edit> {
  static_assert((std::is_same_v<Passes, Anchor> + ... + 0) == 1,
                "ctnn::insert_before / insert_after / replace / without: the pass named must appear exactly once in "
                "the pipeline.");
  using type = typename join_pipelines<std::conditional_t<std::is_same_v<Passes, Anchor>, typename Edit::type,
                                                          pipeline<Passes>>...>::type;
};

}  // namespace detail

template <class Anchor, class Pass, class Pipeline = default_pipeline>
using insert_before = typename detail::edit_at<Pipeline, Anchor, std::type_identity<pipeline<Pass, Anchor>>>::type;

template <class Anchor, class Pass, class Pipeline = default_pipeline>
using insert_after = typename detail::edit_at<Pipeline, Anchor, std::type_identity<pipeline<Anchor, Pass>>>::type;

template <class Old, class New, class Pipeline = default_pipeline>
using replace = typename detail::edit_at<Pipeline, Old, std::type_identity<pipeline<New>>>::type;

template <class Pass, class Pipeline = default_pipeline>
using without = typename detail::edit_at<Pipeline, Pass, std::type_identity<pipeline<>>>::type;

// The passes before Anchor and after it (Anchor excluded): a tool that runs one pass its own way (with
// options known at run time) runs the rest with ctnn::run_pipeline_in_place.
namespace detail {

template <class Pipeline, class Anchor>
struct split_at;
template <class... Passes, class Anchor>
struct split_at<pipeline<Passes...>, Anchor> {
  static_assert((std::is_same_v<Passes, Anchor> + ... + 0) == 1,
                "ctnn::passes_before / passes_after: the pass named must appear exactly once in the pipeline.");
  static constexpr std::size_t position = [] {
    constexpr bool is_anchor[] = {std::is_same_v<Passes, Anchor>...};
    std::size_t k = 0;
    while (!is_anchor[k]) ++k;
    return k;
  }();
  template <std::size_t First, std::size_t... K>
  static pipeline<typename pipeline<Passes...>::template pass<First + K>...> slice(std::index_sequence<K...>);
  using before = decltype(slice<0>(std::make_index_sequence<position>{}));
  using after = decltype(slice<position + 1>(std::make_index_sequence<sizeof...(Passes) - position - 1>{}));
};

}  // namespace detail

template <class Anchor, class Pipeline = default_pipeline>
using passes_before = typename detail::split_at<Pipeline, Anchor>::before;

template <class Anchor, class Pipeline = default_pipeline>
using passes_after = typename detail::split_at<Pipeline, Anchor>::after;

}  // namespace ctnn
