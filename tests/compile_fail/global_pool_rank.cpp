// Compile-fail case 7: global_avg_pool (an NHWC op) after flatten, i.e. on a rank-2 tensor.
// Expected: ctnn::errors::unsupported_rank<at_op<1, global_avg_pool, node_named<...>>, count<4>, count<2>>.
// Control: global_avg_pool first, then flatten.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using model = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>, dsl::global_avg_pool, dsl::flatten>;
#else
using model = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>, dsl::flatten, dsl::global_avg_pool>;
#endif
using net = ctnn::compile<model>;

void infer(const float* in, float* out) { net::run(in, out); }
