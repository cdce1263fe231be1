// Compile-fail case 12c: executor::run given an int buffer for the model's f32 input.
// Expected: the static_assert "ctnn::executor::run: a buffer's element type does not match the model's
// (see input<I>::element_type and output<I>::element_type); outputs must not be const."
// Control: a float input buffer.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model>;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using element = float;
#else
using element = int;
#endif

void infer(const element* in, float* out) { net::run(in, out); }
