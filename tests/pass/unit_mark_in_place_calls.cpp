// pass::mark_in_place_calls, before and after, on hand-set module::result_over_input: the calls of the
// marked ops get kernel_params::in_place = 1, the others 0; the kernel table is rebuilt so that equal calls
// share a kernel again and every kernel is used; with nothing to change, the module stays as it was.
#include <cstdint>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/mark_in_place_calls.hpp>

#include "pass_test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;

// Two relu calls with equal parameters: one kernel (dedup), then a sigmoid.
using twice = dsl::sequential<dsl::input<ctnn::f32, 1, 4>, dsl::relu, dsl::relu, dsl::sigmoid>;
constexpr auto lowered = ctnn::stage_v<twice, ctnn::default_pipeline, 6>;
static_assert(lowered.call_count == 3 && lowered.kernel_count == 2 && lowered.calls[0].kernel == 0 && lowered.calls[1].kernel == 0 &&
              lowered.calls[2].kernel == 1);

using ctnn_test::kernels_match_calls;  // pass_test_modules.hpp
template <class Module>
constexpr Module over_input(Module m, bool op0, bool op1, bool op2) {
  m.result_over_input[0] = op0, m.result_over_input[1] = op1, m.result_over_input[2] = op2;
  return m;
}

// Nothing marked: nothing changes.
constexpr auto none = pass::mark_in_place_calls::run(lowered);
static_assert(none.kernel_count == 2 && none.calls[1].kernel == 0 && none.calls[1].params.in_place == 0 && kernels_match_calls(none));

// The second relu in place: it needs a kernel of its own (its parameters differ now).
constexpr auto second = pass::mark_in_place_calls::run(over_input(lowered, false, true, false));
static_assert(second.calls[0].params.in_place == 0 && second.calls[1].params.in_place == 1 && second.calls[2].params.in_place == 0);
static_assert(second.kernel_count == 3 && second.calls[0].kernel == 0 && second.calls[1].kernel == 1 && second.calls[2].kernel == 2);
static_assert(kernels_match_calls(second));

// Both relus in place: they share one kernel again, in call order.
constexpr auto both = pass::mark_in_place_calls::run(over_input(lowered, true, true, false));
static_assert(both.kernel_count == 2 && both.calls[0].kernel == 0 && both.calls[1].kernel == 0 && both.kernel(0).in_place == 1 &&
              kernels_match_calls(both));

// Unmarking: a call marked before but not placed over its input any more goes back to 0.
constexpr auto unmarked = pass::mark_in_place_calls::run(over_input(second, false, false, false));
static_assert(unmarked.kernel_count == 2 && unmarked.calls[1].params.in_place == 0 && kernels_match_calls(unmarked));
static_assert(unmarked.facts == lowered.facts);

TEST_CASE("mark_in_place_calls: the same at run time") {
  auto m = over_input(lowered, false, true, false);
  pass::mark_in_place_calls::run_in_place(m);
  CHECK(m.kernel_count == 3);
  CHECK(m.calls[1].params.in_place == 1);
  CHECK(kernels_match_calls(m));
}

}  // namespace
