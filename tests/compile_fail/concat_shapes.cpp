// Compile-fail case 8b: concat along channels of [1,8,8,4] and a stride-2 pooled [1,4,4,4].
// Expected: ctnn::errors::input_shapes_differ<at_op<2, concat, node_named<...>>, dims<1, 8, 8, 4>, dims<1, 4, 4, 4>>.
// Control: the pool keeps 8x8 (stride 1, same padding).
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using pool = dsl::max_pool<dsl::kernel<2>, dsl::same>;
#else
using pool = dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>;
#endif

using block = dsl::graph<dsl::outputs<"out">,
                         dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 4>>,
                         dsl::node<"a", dsl::relu, "x">,
                         dsl::node<"p", pool, "x">,
                         dsl::node<"out", dsl::concat<>, "a", "p">>;
using net = ctnn::compile<block>;

void infer(const float* in, float* out) { net::run(in, out); }
