#pragma once
// Editing a pipeline instead of copying it: a pass of your own before or after a pass of the pipeline, a
// pass replaced, or left out. Each is a pipeline type (the default pipeline unless another is given):
//
//   using with_mine = ctnn::insert_before<ctnn::pass::lower_te, my_graph_pass>;
//   using net = ctnn::compile<model, with_mine>;
//   ctnn::insert_after<ctnn::pass::fuse_ops, my_pass, P>      ctnn::replace<ctnn::pass::fuse_ops, my_fuser, P>
//   ctnn::without<ctnn::pass::fold_batch_norm, P>
//
// The pass named must appear exactly once in the pipeline (a static_assert says so), and the pass inserted
// or put in its place must be a pass (ctnn::pipeline_pass: a static_assert names its first member missing,
// and the result is then a pipeline that reports nothing more). ctnn::compile still
// checks the order of the result (a pass before the one that establishes what it reads is a compile error)
// and gives the memory options to its plan_memory. Plain parameter packs: a pipeline holds a dozen types,
// so nothing here needs a metaprogramming library (docs/design.md §2).
#include <cstddef>
#include <type_traits>
#include <utility>

#include <ctnn/errors.hpp>
#include <ctnn/pass/pipeline.hpp>
#include <ctnn/pass/pipeline_pass.hpp>

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

// The pass that insert_before, insert_after and replace are given, against ctnn::pipeline_pass, one member
// at a time (as check_pipeline_pass, pass/pipeline.hpp).
template <class Pass>
struct check_inserted_pass {
  static_assert(pass_has_run_member<Pass>,
                "ctnn::insert_before / insert_after / replace: the pass given (check_inserted_pass<pass>) has neither "
                "`static constexpr void run_in_place(Module&)` nor `static constexpr Module run(Module)`.");
  static_assert(!pass_has_run_member<Pass> || pass_requires_facts_well_typed<Pass>,
                "ctnn::insert_before / insert_after / replace: the `requires_facts` of the pass given "
                "(check_inserted_pass<pass>) is not a `static constexpr ctnn::fact` (the facts the pass reads).");
  static_assert(!pass_has_run_member<Pass> || !pass_requires_facts_well_typed<Pass> || pass_establishes_well_typed<Pass>,
                "ctnn::insert_before / insert_after / replace: the `establishes` of the pass given "
                "(check_inserted_pass<pass>) is not a `static constexpr ctnn::fact` (the fact the pass fills).");
};
template <class Pass, class Result>
struct inserted {
  static_assert(sizeof(check_inserted_pass<Pass>) > 0);  // its sentence names the member missing
  using type = Result;
};
// Whether an edit may go ahead: a rejected pass makes the whole result a pipeline that only marks the
// module failed, so that the check's sentence is the only error.
template <class Edit>
inline constexpr bool edit_accepted = true;
template <class Pass, class Result>
inline constexpr bool edit_accepted<inserted<Pass, Result>> = pipeline_pass<Pass>;

// Each pass of the pipeline becomes Edit::at<Pass>: a pipeline of zero, one or more passes.
template <class Pipeline, class Anchor, class Edit>
struct edit_at {
  static_assert(errors::detail::always_false<Pipeline>,
                "ctnn::insert_before / insert_after / replace / without: the last argument is a ctnn::pipeline<...> "
                "(default: ctnn::default_pipeline).");
  using type = pipeline<rejected_pipeline_pass>;
};
template <class... Passes, class Anchor, class Edit>
struct edit_at<pipeline<Passes...>, Anchor, Edit> {
  static_assert((std::is_same_v<Passes, Anchor> + ... + 0) == 1,
                "ctnn::insert_before / insert_after / replace / without: the pass named must appear exactly once in "
                "the pipeline.");
  using type = std::conditional_t<
      edit_accepted<Edit>,
      typename join_pipelines<std::conditional_t<std::is_same_v<Passes, Anchor>, typename Edit::type, pipeline<Passes>>...>::type,
      pipeline<rejected_pipeline_pass>>;
};

}  // namespace detail

template <class Anchor, class Pass, class Pipeline = default_pipeline>
using insert_before = typename detail::edit_at<Pipeline, Anchor, detail::inserted<Pass, pipeline<Pass, Anchor>>>::type;

template <class Anchor, class Pass, class Pipeline = default_pipeline>
using insert_after = typename detail::edit_at<Pipeline, Anchor, detail::inserted<Pass, pipeline<Anchor, Pass>>>::type;

template <class Old, class New, class Pipeline = default_pipeline>
using replace = typename detail::edit_at<Pipeline, Old, detail::inserted<New, pipeline<New>>>::type;

template <class Pass, class Pipeline = default_pipeline>
using without = typename detail::edit_at<Pipeline, Pass, std::type_identity<pipeline<>>>::type;

// The passes before Anchor and after it (Anchor excluded): a tool that runs one pass its own way (with
// options known at run time) runs the rest with ctnn::run_pipeline_in_place.
namespace detail {

template <class Pipeline, class Anchor>
struct split_at {
  static_assert(errors::detail::always_false<Pipeline>,
                "ctnn::passes_before / passes_after: the last argument is a ctnn::pipeline<...> (default: "
                "ctnn::default_pipeline).");
  using before = pipeline<>;
  using after = pipeline<>;
};
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
