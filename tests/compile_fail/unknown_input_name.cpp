// Compile-fail case 9: a dsl::graph node names an input that no earlier node has (a typo: "aa").
// Expected: ctnn::errors::unknown_input_name<at_op<1, sigmoid, node_named<...>>, count<0>, count<2>> (input slot 0 of the
// graph's third node).
// Control: the node names "a".
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using second = dsl::node<"b", dsl::sigmoid, "a">;
#else
using second = dsl::node<"b", dsl::sigmoid, "aa">;
#endif

using block = dsl::graph<dsl::outputs<"b">,
                         dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 4>>,
                         dsl::node<"a", dsl::relu, "x">,
                         second>;
using net = ctnn::compile<block>;

void infer(const float* in, float* out) { net::run(in, out); }
