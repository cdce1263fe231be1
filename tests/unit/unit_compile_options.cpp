// ctnn::compile's options (compile.hpp): each kind picked by a filter over the option types, in
// any order; absent kinds give the defaults; memory options reach plan_memory in the order given.
// (An option of no kind: tests/compile_fail/compile_option_unknown.cpp.) static_asserts only: the test is
// that it compiles.
#include <tuple>
#include <type_traits>

#include <ctnn/compile.hpp>
#include <ctnn/pass/edit_pipeline.hpp>

namespace {

using ctnn::detail::compile_options;

using planner = ctnn::memory::greedy_by_size;
using sram = ctnn::pools<ctnn::pool<"sram", 4096>>;
using custom = ctnn::without<ctnn::pass::fold_batch_norm>;

// Nothing given: the default pipeline, no planner, policy or target of the user's.
using none = compile_options<>;
static_assert(std::is_same_v<none::user_pipeline, ctnn::default_pipeline> && std::is_void_v<none::planner> &&
              std::is_void_v<none::kernels> && std::is_void_v<none::target> &&
              std::is_same_v<none::memory_options, std::tuple<>> && std::is_same_v<none::type, ctnn::default_pipeline>);

// Every kind, in two orders: the same choice.
using all = compile_options<custom, ctnn::planner<planner>, ctnn::specialisation<ctnn::shared>, ctnn::memory_reuse, sram,
                            ctnn::target<ctnn::targets::generic>>;
using shuffled = compile_options<sram, ctnn::target<ctnn::targets::generic>, ctnn::memory_reuse, ctnn::specialisation<ctnn::shared>,
                                 ctnn::planner<planner>, custom>;
static_assert(std::is_same_v<all::user_pipeline, custom> && std::is_same_v<all::planner, planner> &&
              std::is_same_v<all::kernels, ctnn::shared> && std::is_same_v<all::target, ctnn::targets::generic>);
static_assert(std::is_same_v<all::memory_options, std::tuple<ctnn::memory_reuse, sram>>);
static_assert(std::is_same_v<shuffled::memory_options, std::tuple<sram, ctnn::memory_reuse>>);  // as given
static_assert(std::is_same_v<shuffled::user_pipeline, all::user_pipeline> && std::is_same_v<shuffled::planner, all::planner> &&
              std::is_same_v<shuffled::kernels, all::kernels> && std::is_same_v<shuffled::target, all::target>);

// The options land in the pipeline's plan_memory and select_kernels.
using default_with_pools = compile_options<sram>::type;
static_assert(std::is_same_v<default_with_pools::pass<6>, ctnn::pass::plan_memory<ctnn::memory::default_planner, sram>>);

// The first option of no kind is the one reported (absent_option: none).
static_assert(std::is_same_v<ctnn::detail::option_of_kind<ctnn::detail::is_unknown_option, sram, int, float>, int>);
static_assert(std::is_same_v<ctnn::detail::option_of_kind<ctnn::detail::is_unknown_option, sram>, ctnn::detail::absent_option>);

}  // namespace
