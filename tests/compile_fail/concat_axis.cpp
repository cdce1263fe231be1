// Compile-fail case 8a: concat<4> of rank-4 tensors (axes are -4..3).
// Expected: ctnn::errors::invalid_axis<at_op<2, concat, node_named<...>>, count<4>, count<4>>.
// Control: concat<3> (the channel axis).
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using join = dsl::concat<3>;
#else
using join = dsl::concat<4>;
#endif

using block = dsl::graph<dsl::outputs<"out">,
                         dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 4>>,
                         dsl::node<"a", dsl::relu, "x">,
                         dsl::node<"b", dsl::sigmoid, "x">,
                         dsl::node<"out", join, "a", "b">>;
using net = ctnn::compile<block>;

void infer(const float* in, float* out) { net::run(in, out); }
