#pragma once
// ctnn::pipeline_pass<P>: what a type needs to be a pass of a ctnn::pipeline (docs/design.md §1, "One job
// per pass"):
//
//   struct my_pass {
//     static constexpr ctnn::fact requires_facts = ctnn::fact::shapes_inferred;   // optional: the facts it reads
//     static constexpr ctnn::fact establishes = ctnn::fact::kernels_lowered;      // optional: the fact it fills
//     template <class Module> static constexpr void run_in_place(Module& m);       // the in-place core, or
//     template <class Module> static constexpr Module run(Module m);               // the by-value form (or both)
//   };
//
// The concept looks at declarations only: the names run_in_place / run (member templates over a module type
// that the pipeline picks later: they are not instantiated here) and the types of requires_facts and
// establishes. ctnn::pipeline<Passes...> and the editing helpers (pass/edit_pipeline.hpp) check every pass
// they are given with one static_assert per member, whose sentence names the first one missing; whether
// run_in_place(m) / run(m) accept the module is checked where a pass first runs on one (pass/pipeline.hpp).
#include <concepts>
#include <type_traits>

#include <ctnn/detail/member_named.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn {

namespace detail {

// One concept per member of the interface.
template <class P>
concept pass_has_run_in_place = has_member_named_run_in_place<P>;
template <class P>
concept pass_has_run = has_member_named_run<P>;
template <class P>
concept pass_has_run_member = pass_has_run_in_place<P> || pass_has_run<P>;
// requires_facts and establishes are optional; when declared, each is a `static constexpr ctnn::fact`
// (several facts: static_cast<ctnn::fact>(bits | bits)).
template <class P>
concept pass_requires_facts_well_typed =
    !requires { P::requires_facts; } || std::same_as<decltype(P::requires_facts), const fact>;
template <class P>
concept pass_establishes_well_typed = !requires { P::establishes; } || std::same_as<decltype(P::establishes), const fact>;

}  // namespace detail

template <class P>
concept pipeline_pass = std::is_class_v<P> && detail::pass_has_run_member<P> && detail::pass_requires_facts_well_typed<P> &&
                        detail::pass_establishes_well_typed<P>;

}  // namespace ctnn
