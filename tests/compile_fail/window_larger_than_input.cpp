// Compile-fail case 5: a 5x5 conv with valid padding on a 3x3 input (the window does not fit).
// Expected: ctnn::errors::window_larger_than_input<at_op<0, conv2d, node_named<...>>, dims<1, 3, 3, 1>, count<5>, count<5>>.
// Control: same padding (pads of 2 make the 5x5 window fit).
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w[2 * 5 * 5 * 1] = {};
inline constexpr float b[2] = {};
#ifdef CTNN_COMPILE_FAIL_CONTROL
using padding = dsl::same;
#else
using padding = dsl::valid;
#endif

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 3, 3, 1>, dsl::conv2d<w, b, dsl::kernel<5>, padding>>;
using net = ctnn::compile<cnn>;

void infer(const float* in, float* out) { net::run(in, out); }
