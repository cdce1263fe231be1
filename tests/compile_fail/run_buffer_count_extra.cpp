// Compile-fail case 12b: executor::run given three buffers for a model with one input and one output.
// Expected: the static_assert "ctnn::executor::run: pass one pointer per model input, then one per model
// output."
// Control: run(in, out).
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model>;

#ifdef CTNN_COMPILE_FAIL_CONTROL
void infer(const float* in, float* out) { net::run(in, out); }
#else
void infer(const float* in, float*) { net::run(in, in, in); }
#endif
