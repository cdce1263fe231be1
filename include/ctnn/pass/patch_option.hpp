#pragma once
// ctnn::patch_execution<...>: ctnn::compile's option that runs the first stages patch by patch
// (pass::patch_execution; docs/memory.md, "Patch execution"). Its pass goes right before lower_te.
//
//   ctnn::patch_execution<ctnn::patch_prefix<8>, ctnn::patch_grid<3, 3>>   the first 8 ops, a 3 x 3 grid
//   ctnn::patch_execution<ctnn::max_extra_macs<10>>                        automatic: the smallest peak within
//                                                                           10 % more MACs, only if it is lower
//   ctnn::patch_execution<>                                                automatic, max_extra_macs<10>
//   ctnn::patch_execution<..., ctnn::streamed_input>                       the input read by rows from a
//                                                                           ctnn::row_source given to run()
#include <cstdint>
#include <type_traits>

#include <ctnn/pass/lower_te.hpp>
#include <ctnn/pass/patch_execution.hpp>
#include <ctnn/pass/pipeline.hpp>

namespace ctnn {

// The prefix: the first Ops ops of the graph (after fusion: an activation fused into a conv is one op).
template <int Ops>
struct patch_prefix {
  static_assert(Ops >= 1 && Ops <= pass::max_patch_prefix, "ctnn::patch_prefix<Ops>: Ops is 1 to 24.");
  static constexpr int ops = Ops;
};
// The grid over the prefix's output: Rows x Columns patches.
template <int Rows, int Columns>
struct patch_grid {
  static_assert(Rows >= 1 && Columns >= 1 && Rows <= pass::max_patch_grid && Columns <= pass::max_patch_grid,
                "ctnn::patch_grid<Rows, Columns>: 1 to 8 patches along each axis.");
  static constexpr int rows = Rows, columns = Columns;
};
// The automatic choice's limit: at most Percent percent more MACs than the whole model without patches.
template <int Percent>
struct max_extra_macs {
  static_assert(Percent >= 0, "ctnn::max_extra_macs<Percent>: Percent is not negative.");
  static constexpr int percent = Percent;
};

// The prefix's input (a model input) is no buffer: each patch row asks the caller for the input rows it
// needs (ctnn::row_source, kernel/row_source.hpp), in order, each once, into a row buffer in the arena
// (docs/memory.md, "Streamed input"). run() takes a pointer to a ctnn::row_source in that input's place.
// With the automatic choice, the patch stage is always made (the smallest estimate within the MAC limit).
struct streamed_input {};

namespace detail {
template <class T>
struct patch_setting {
  static constexpr pass::patch_request apply(pass::patch_request r) { return r; }
  static constexpr bool known = false;
};
template <int Ops>
struct patch_setting<patch_prefix<Ops>> {
  static constexpr pass::patch_request apply(pass::patch_request r) { return r.ops = Ops, r; }
  static constexpr bool known = true;
};
template <int Rows, int Columns>
struct patch_setting<patch_grid<Rows, Columns>> {
  static constexpr pass::patch_request apply(pass::patch_request r) { return r.rows = Rows, r.columns = Columns, r; }
  static constexpr bool known = true;
};
template <int Percent>
struct patch_setting<max_extra_macs<Percent>> {
  static constexpr pass::patch_request apply(pass::patch_request r) { return r.max_extra_macs = Percent, r; }
  static constexpr bool known = true;
};
template <>
struct patch_setting<streamed_input> {
  static constexpr pass::patch_request apply(pass::patch_request r) { return r.streamed_input = 1, r; }
  static constexpr bool known = true;
};
template <class... Settings>
constexpr pass::patch_request patch_request_of() {
  pass::patch_request r{};
  ((r = patch_setting<Settings>::apply(r)), ...);
  return r;
}
}  // namespace detail

template <class... Settings>
struct patch_execution {
  static_assert((detail::patch_setting<Settings>::known && ...),
                "ctnn::patch_execution<...> takes ctnn::patch_prefix<Ops> with ctnn::patch_grid<Rows, Columns> (explicit), "
                "or ctnn::max_extra_macs<Percent> (automatic), and optionally ctnn::streamed_input.");
  static constexpr pass::patch_request request = detail::patch_request_of<Settings...>();
  static_assert((request.ops == 0) == (request.rows == 0),
                "ctnn::patch_execution: an explicit prefix needs its grid (patch_prefix<Ops> with patch_grid<Rows, Columns>).");
  using ctnn_patch_option = void;
  // The pass, with the plan_memory pass (and so the planner and memory options) its automatic choice
  // plans with to check that it lowers RAM.
  template <class Planning>
  using pass_type = pass::patch_execution<request, Planning>;
};

template <class T>
concept patch_option = requires { typename T::ctnn_patch_option; };
// A setting of patch_execution<...> given to ctnn::compile on its own (compile.hpp names it in its error).
template <class T>
concept patch_setting_option = detail::patch_setting<T>::known;

namespace detail {
// The pipeline with Pass inserted before its first lower_te (none: unchanged).
template <class Pipeline, class Pass, class Done = pipeline<>>
struct insert_before_lowering {
  using type = Pipeline;
};
template <class First, class... Rest, class Pass, class... Done>
struct insert_before_lowering<pipeline<First, Rest...>, Pass, pipeline<Done...>>
    : insert_before_lowering<pipeline<Rest...>, Pass, pipeline<Done..., First>> {};
template <class... Rest, class Pass, class... Done>
struct insert_before_lowering<pipeline<pass::lower_te, Rest...>, Pass, pipeline<Done...>> {
  using type = pipeline<Done..., Pass, pass::lower_te, Rest...>;
};
template <class Pass, class... Done>
struct insert_before_lowering<pipeline<>, Pass, pipeline<Done...>> {
  using type = pipeline<Done...>;
};
}  // namespace detail

// The pipeline with the option's pass before lower_te (Option void: the pipeline as it is); Planning: the
// plan_memory pass with the compile's planner and memory options.
template <class Pipeline, class Option, class Planning = pass::plan_memory<>>
struct with_patch_execution {
  using type = typename detail::insert_before_lowering<Pipeline, typename Option::template pass_type<Planning>>::type;
};
template <class Pipeline, class Planning>
struct with_patch_execution<Pipeline, void, Planning> {
  using type = Pipeline;
};

}  // namespace ctnn
