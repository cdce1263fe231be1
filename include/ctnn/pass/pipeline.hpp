#pragma once
// A pipeline is a list of pass types; each stage of a model is its own `inline constexpr` variable, so
// each pass runs in one constant evaluation of its own (compiler limits apply per pass, DESIGN §6).
// A pass is a struct with `static constexpr Module run(Module)`, optionally `requires_facts` (what it
// reads) and `establishes` (what it fills).
#include <cstddef>
#include <cstdint>
#include <tuple>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/aot_lower_main.hpp>
#include <ctnn/pass/infer_types.hpp>
#include <ctnn/pass/lower_te.hpp>
#include <ctnn/pass/plan_memory.hpp>

namespace ctnn {

template <class... Passes>
struct pipeline {
  static constexpr std::size_t size = sizeof...(Passes);
  template <std::size_t K> using pass = std::tuple_element_t<K, std::tuple<Passes...>>;
};

using default_pipeline = pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;

namespace detail {

template <class Pass>
constexpr std::uint32_t required_facts() {
  if constexpr (requires { Pass::requires_facts; }) return static_cast<std::uint32_t>(Pass::requires_facts);
  else return 0;
}

// Runs one pass unless an earlier one failed; refuses to run it before the facts it reads exist.
template <class Pass, class Module>
constexpr Module apply_pass(Module m, std::size_t position) {
  if (m.error.failed()) return m;
  const std::uint32_t needed = required_facts<Pass>();
  if ((m.facts & needed) != needed) {
    m.fail({error_code::pass_prerequisite_missing, -1, op_kind::relu, {}, {}, static_cast<std::int64_t>(position),
            static_cast<std::int64_t>(needed & ~m.facts)});
    return m;
  }
  m = Pass::run(m);
  if constexpr (requires { Pass::establishes; }) {
    if (!m.error.failed()) m.establish(Pass::establishes);
  }
  return m;
}

}  // namespace detail

// The module of `Model` after the first K passes of `Pipeline`.
template <class Model, class Pipeline, std::size_t K>
inline constexpr auto stage_v =
    detail::apply_pass<typename Pipeline::template pass<K - 1>>(stage_v<Model, Pipeline, K - 1>, K - 1);

template <class Model, class Pipeline>
inline constexpr auto stage_v<Model, Pipeline, 0> = Model::build();

// The module of `Model` after the whole pipeline.
template <class Model, class Pipeline = default_pipeline>
inline constexpr auto& compiled_v = stage_v<Model, Pipeline, Pipeline::size>;

}  // namespace ctnn
