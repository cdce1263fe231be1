#pragma once
// ctnn::compile<Model, Options...>: the executor of a model after the default (or a given) pipeline.
//
// The options (docs/design.md §0 is their one list: what each sets and its default), in any order: a
// pipeline, ctnn::planner<>, ctnn::specialisation<>, ctnn::target<>, ctnn::require_fast_kernels,
// ctnn::patch_execution<> (at most one of each) and the memory options (memory/options.hpp). The planner and
// memory options go to every pass::plan_memory of the pipeline; the specialisation, the target and
// require_fast_kernels to every pass::select_kernels;
// patch_execution's pass goes right before lower_te. scripts/check_docs.py --compile-options (the ctest
// docs_compile_options) checks the list and the errors below against these types.
//
//   using net = ctnn::compile<model, ctnn::pools<ctnn::pool<"sram", 64 * 1024>>, ctnn::planner<ctnn::memory::hill_climb<7>>>;
//   using small = ctnn::compile<model, ctnn::specialisation<ctnn::shared>>;
#include <ctnn/detail/require_cxx20.hpp>  // first: one clear error under an older -std
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>


#include <ctnn/memory/options.hpp>
#include <ctnn/memory/shared_pools.hpp>
#include <ctnn/pass/patch_option.hpp>
#include <ctnn/pass/pipeline.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/runtime/executor.hpp>
#include <ctnn/target.hpp>

namespace ctnn {

// The specialisation policies (kernel/dispatch.hpp).
using kernel::full;
using kernel::shared;

namespace detail {
template <class Policy>
inline constexpr bool is_specialisation_policy = std::is_same_v<Policy, full> || std::is_same_v<Policy, shared>;
}  // namespace detail

// ctnn::compile's option: specialisation<ctnn::full> or specialisation<ctnn::shared>.
template <class Policy>
struct specialisation {
  static_assert(detail::is_specialisation_policy<Policy>,
                "ctnn::specialisation<Policy>: Policy is ctnn::full (a kernel per call, compile-time shapes) or "
                "ctnn::shared (a kernel per op kind, run-time shapes).");
  using ctnn_specialisation_option = void;
  using type = Policy;
};

namespace detail {

template <class T>
struct is_pipeline : std::false_type {};
template <class... Passes>
struct is_pipeline<pipeline<Passes...>> : std::true_type {};

template <class T>
concept planner_option = requires { typename T::ctnn_planner_option; };

template <class T>
concept specialisation_option = requires { typename T::ctnn_specialisation_option; };

template <class T>
concept target_option = requires { typename T::ctnn_target_option; };

template <class T>
concept kernel_requirement_option = requires { typename T::ctnn_kernel_requirement_option; };

template <class T>
inline constexpr bool is_compile_option = is_pipeline<T>::value || planner_option<T> || specialisation_option<T> ||
                                          target_option<T> || kernel_requirement_option<T> || memory::memory_option<T> ||
                                          patch_option<T>;

// The option kinds as traits (a type with ::value), so that the options of one kind are a filter over the
// option types.
template <class T>
struct is_pipeline_option : std::bool_constant<is_pipeline<T>::value> {};
template <class T>
struct is_planner_option : std::bool_constant<planner_option<T>> {};
template <class T>
struct is_specialisation_option : std::bool_constant<specialisation_option<T>> {};
template <class T>
struct is_target_option : std::bool_constant<target_option<T>> {};
template <class T>
struct is_kernel_requirement_option : std::bool_constant<kernel_requirement_option<T>> {};
template <class T>
struct is_memory_option : std::bool_constant<memory::memory_option<T>> {};
template <class T>
struct is_patch_option : std::bool_constant<patch_option<T>> {};
template <class T>
struct is_unknown_option : std::bool_constant<!is_compile_option<T>> {};

// The options of one kind, in the order given, as a std::tuple type: the filter is one std::tuple_cat of
// a one- or zero-element tuple per option (not boost::hana::filter, whose headers cost every model's
// translation unit more than the 5 % allowed; docs/design.md §2).
template <template <class> class Kind, class... Options>
using options_of_kind =
    decltype(std::tuple_cat(std::declval<std::conditional_t<Kind<Options>::value, std::tuple<Options>, std::tuple<>>>()...));

// The first option of a kind (its type), or absent_option when none is given.
struct absent_option {
  using type = void;
};
template <template <class> class Kind, class... Options>
using option_of_kind =
    std::tuple_element_t<0, decltype(std::tuple_cat(std::declval<options_of_kind<Kind, Options...>>(), std::tuple<absent_option>{}))>;

// Checks the first option that is not a compile option (absent_option: none is), so that a misspelt
// option gives one error, which names it.
template <class Option>
struct check_compile_option {
  static_assert(!patch_setting_option<Option>,
                "ctnn::compile: ctnn::streamed_input, ctnn::patch_prefix<>, ctnn::patch_grid<> and ctnn::max_extra_macs<> "
                "go inside ctnn::patch_execution<...>: only a patch stage can read the input by rows.");
  static_assert(is_compile_option<Option> || patch_setting_option<Option> || std::is_same_v<Option, absent_option>,
                "ctnn::compile<Model, Options...>: an option is not a compile option (a ctnn::pipeline<>, "
                "ctnn::planner<>, ctnn::specialisation<>, ctnn::target<>, ctnn::require_fast_kernels, ctnn::patch_execution<>, "
                "ctnn::pools<>, "
                "ctnn::pin<>, ctnn::pin_op<>, ctnn::pin_kind<>, ctnn::in_place_ops, ctnn::concat_in_place, ctnn::slice_in_place, "
                "ctnn::memory_aware_order, ctnn::memory_reuse, ctnn::in_place_windows, ctnn::in_place_depthwise, "
                "ctnn::in_place_conv or ctnn::io_in_arena; docs/design.md §0); a pool goes inside ctnn::pools<...>.");
};

// plan_memory with the compile options added.
template <class Pass, class Planner, class MemoryOptions>
struct with_memory_options {
  using type = Pass;
};
template <class Algorithm, class... Own, class Planner, class... Added>
struct with_memory_options<pass::plan_memory<Algorithm, Own...>, Planner, std::tuple<Added...>> {
  using type = pass::plan_memory<std::conditional_t<std::is_void_v<Planner>, Algorithm, Planner>, Own..., Added...>;
};

template <class Pass>
inline constexpr bool is_plan_memory = false;
template <class Algorithm, class... Options>
inline constexpr bool is_plan_memory<pass::plan_memory<Algorithm, Options...>> = true;
template <class Pipeline>
inline constexpr bool has_plan_memory = false;
template <class... Passes>
inline constexpr bool has_plan_memory<pipeline<Passes...>> = (is_plan_memory<Passes> || ...);

template <class Pipeline, class Planner, class MemoryOptions>
struct apply_memory_options;
template <class... Passes, class Planner, class MemoryOptions>
struct apply_memory_options<pipeline<Passes...>, Planner, MemoryOptions> {
  using type = pipeline<typename with_memory_options<Passes, Planner, MemoryOptions>::type...>;
};

// select_kernels with the compile options' target, policy and requirement (void: the pass's own).
template <class Pass, class Target, class Policy, class Requirement>
struct with_kernel_options {
  using type = Pass;
};
template <class OwnTarget, class OwnPolicy, class OwnRequirement, class Target, class Policy, class Requirement>
struct with_kernel_options<pass::select_kernels<OwnTarget, OwnPolicy, OwnRequirement>, Target, Policy, Requirement> {
  using type = pass::select_kernels<std::conditional_t<std::is_void_v<Target>, OwnTarget, Target>,
                                    std::conditional_t<std::is_void_v<Policy>, OwnPolicy, Policy>,
                                    std::conditional_t<std::is_void_v<Requirement>, OwnRequirement, Requirement>>;
};
template <class Pass>
inline constexpr bool is_select_kernels = false;
template <class Target, class Policy, class Requirement>
inline constexpr bool is_select_kernels<pass::select_kernels<Target, Policy, Requirement>> = true;
template <class Pipeline>
inline constexpr bool has_select_kernels = false;
template <class... Passes>
inline constexpr bool has_select_kernels<pipeline<Passes...>> = (is_select_kernels<Passes> || ...);

template <class Pipeline, class Target, class Policy, class Requirement>
struct apply_kernel_options;
template <class... Passes, class Target, class Policy, class Requirement>
struct apply_kernel_options<pipeline<Passes...>, Target, Policy, Requirement> {
  using type = pipeline<typename with_kernel_options<Passes, Target, Policy, Requirement>::type...>;
};

template <class... Options>
struct compile_options : check_compile_option<option_of_kind<is_unknown_option, Options...>> {
  template <template <class> class Kind>
  static constexpr std::size_t count = std::tuple_size_v<options_of_kind<Kind, Options...>>;
  static_assert(count<is_pipeline_option> <= 1, "ctnn::compile: give at most one pipeline.");
  static_assert(count<is_planner_option> <= 1, "ctnn::compile: give at most one ctnn::planner<>.");
  static_assert(count<is_specialisation_option> <= 1, "ctnn::compile: give at most one ctnn::specialisation<>.");
  static_assert(count<is_target_option> <= 1, "ctnn::compile: give at most one ctnn::target<>.");
  static_assert(count<is_kernel_requirement_option> <= 1, "ctnn::compile: give ctnn::require_fast_kernels at most once.");

  static_assert(count<is_patch_option> <= 1, "ctnn::compile: give at most one ctnn::patch_execution<>.");
  using pipeline_option = option_of_kind<is_pipeline_option, Options...>;
  using given_pipeline = std::conditional_t<std::is_same_v<pipeline_option, absent_option>, default_pipeline, pipeline_option>;
  using planner = typename option_of_kind<is_planner_option, Options...>::type;
  using patch = std::conditional_t<std::is_same_v<option_of_kind<is_patch_option, Options...>, absent_option>, void,
                                   option_of_kind<is_patch_option, Options...>>;
  // The kernel specialisation policy and the target (void: select_kernels' own defaults, full and native).
  using kernels = typename option_of_kind<is_specialisation_option, Options...>::type;
  using target = typename option_of_kind<is_target_option, Options...>::type;
  // ctnn::require_fast_kernels, or void.
  using requirement = std::conditional_t<count<is_kernel_requirement_option> == 0, void,
                                         option_of_kind<is_kernel_requirement_option, Options...>>;
  using memory_options = options_of_kind<is_memory_option, Options...>;

  // The patch stage goes before lower_te, planning with the options its automatic choice checks RAM with.
  using user_pipeline = typename with_patch_execution<given_pipeline, patch,
                                                      typename with_memory_options<pass::plan_memory<>, planner, memory_options>::type>::type;
  // The user's pipeline is checked as written (its error messages name its passes), then the options
  // are added to its plan_memory.
  using checked = typename checked_pipeline<user_pipeline>::type;
  static constexpr bool has_memory_options = !std::is_void_v<planner> || !std::is_same_v<memory_options, std::tuple<>>;
  static_assert(!has_memory_options || has_plan_memory<user_pipeline> || first_order_problem(user_pipeline{}).position >= 0,
                "ctnn::compile: a planner or memory option is given, but the pipeline has no ctnn::pass::plan_memory to "
                "take it.");
  static constexpr bool has_kernel_options = !std::is_void_v<kernels> || !std::is_void_v<target> || !std::is_void_v<requirement>;
  static_assert(!has_kernel_options || has_select_kernels<user_pipeline> || first_order_problem(user_pipeline{}).position >= 0,
                "ctnn::compile: a ctnn::specialisation<>, ctnn::target<> or ctnn::require_fast_kernels is given, but the "
                "pipeline has no ctnn::pass::select_kernels to take it.");
  using planned = std::conditional_t<std::is_void_v<planner> && std::is_same_v<memory_options, std::tuple<>>, checked,
                                     typename apply_memory_options<checked, planner, memory_options>::type>;
  using type = std::conditional_t<!has_kernel_options, planned,
                                  typename apply_kernel_options<planned, target, kernels, requirement>::type>;
};

}  // namespace detail

template <class Model, class... Options>
using compile = executor<compiled_v<Model, typename detail::compile_options<Options...>::type>>;

}  // namespace ctnn
