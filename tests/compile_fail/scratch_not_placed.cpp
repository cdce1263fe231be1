// Compile-fail case: a pass after plan_memory reserves scratch for a call (module::scratch_bytes, the one
// per-call figure), which the plan then does not hold.
// Expected: ctnn::executor<M>'s static_assert that every call's scratch was placed.
// Control: the same pass before plan_memory, which places the scratch.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;

struct reserve_scratch_for_call_0 {
  static constexpr ctnn::fact requires_facts = ctnn::fact::kernels_lowered;
  template <class Module>
  static constexpr Module run(Module m) {
    m.scratch_bytes[0] = 64;
    return m;
  }
};

#ifdef CTNN_COMPILE_FAIL_CONTROL
using my_pipeline = ctnn::pipeline<pass::infer_types, pass::lower_te, reserve_scratch_for_call_0, pass::plan_memory<>, pass::aot_lower_main>;
#else
using my_pipeline = ctnn::pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, reserve_scratch_for_call_0, pass::aot_lower_main>;
#endif

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model, my_pipeline>;

void infer(const float* in, float* out) { net::run(in, out); }
