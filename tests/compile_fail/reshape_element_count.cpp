// Compile-fail case 6: a reshape of a [1,8,8,1] tensor (64 elements) to [1,60].
// Expected: ctnn::errors::reshape_changes_element_count<at_op<1, reshape, node_named<...>>, dims<1, 8, 8, 1>, dims<1, 60>>.
// Control: reshape<1, 64>.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using to_vector = dsl::reshape<1, 64>;
#else
using to_vector = dsl::reshape<1, 60>;
#endif

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 1>, dsl::relu, to_vector>;
using net = ctnn::compile<model>;

void infer(const float* in, float* out) { net::run(in, out); }
