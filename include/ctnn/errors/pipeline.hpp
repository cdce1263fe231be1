#pragma once
// Compile errors of a pipeline: a pass that runs before the pass that establishes what it reads, found
// from the passes' declarations (ctnn::compile) or in the module (a pass run by hand).
#include <cstdint>

#include <ctnn/errors/graph.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::errors {

template <std::int64_t Position> struct pipeline_position;
template <fact Missing> struct missing_fact;

template <class PassPosition, class MissingFacts>
struct pass_prerequisite_missing {
  static_assert(detail::always_false<PassPosition>,
                "ctnn: a pass in the pipeline runs before the pass that produces what it reads (pipeline position "
                "and the missing ctnn::fact bits in the template arguments).");
};

// A pipeline's pass order, checked from the passes' declarations: `Pass` reads `MissingFact`, which no
// pass before it establishes; `ProducerPass` is the pass that does (move `Pass` after it).
struct no_pass_in_the_pipeline_establishes_it {};
template <class Pass, class MissingFact, class ProducerPass>
struct pass_runs_before_its_prerequisite {
  static_assert(detail::always_false<Pass>, "ctnn: this pipeline runs a pass before the pass that produces what it "
                                             "reads (the pass, the missing ctnn::fact and the pass that establishes "
                                             "it are the template arguments).");
};

}  // namespace ctnn::errors
