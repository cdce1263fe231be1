// Compile-fail case 20a: a pipeline whose pass is not a pass (int), given to ctnn::compile.
// Expected: the static_assert of ctnn::pipeline<Passes...> (ctnn::pipeline_pass, pass/pipeline_pass.hpp) that
// names the member missing, in check_pipeline_pass<0, int>: position 0, the type int.
// Control: a pipeline of passes.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using my_pipeline = ctnn::pipeline<pass::infer_types, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;
#else
using my_pipeline = ctnn::pipeline<int>;
#endif

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model, my_pipeline>;

void infer(const float* in, float* out) { net::run(in, out); }
