// Compile-fail case 11: a custom pipeline that runs plan_memory (which reads the kernel calls) before
// lower_te (which makes them), used with ctnn::compile.
// Expected: ctnn::errors::pass_prerequisite_missing<count<1>, count<2>>: pipeline position 1, missing fact
// bit 2 (ctnn::fact::kernels_lowered).
// Control: the default order infer_types, lower_te, plan_memory, aot_lower_main.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using my_pipeline = ctnn::pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;
#else
using my_pipeline = ctnn::pipeline<pass::infer_types, pass::plan_memory<>, pass::lower_te, pass::aot_lower_main>;
#endif

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model, my_pipeline>;

void infer(const float* in, float* out) { net::run(in, out); }
