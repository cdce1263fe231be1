// Compile-fail case 3b: a bias of the wrong length on a dense layer written the usual way (no units<>):
// the weights are [10][32] (10 outputs), the bias has 8 elements.
// Expected: ctnn::errors::weights_and_bias_disagree<at_op<1, dense, node_named<...>>, dims<32>, count<320>, count<8>>: the
// weights say 10 outputs, the bias 8, and nothing says which is right, so both counts are shown.
// Control: the bias has 10 elements.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w[10 * 32] = {};
#ifdef CTNN_COMPILE_FAIL_CONTROL
inline constexpr float b[10] = {};
#else
inline constexpr float b[8] = {};
#endif

using mlp = dsl::sequential<dsl::input<ctnn::f32, 1, 4, 4, 2>, dsl::flatten, dsl::dense<w, b>>;
using net = ctnn::compile<mlp>;

void infer(const float* in, float* out) { net::run(in, out); }
