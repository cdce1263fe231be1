// Compile-fail case 2: a conv2d weight array with the wrong number of elements.
// The second conv reads the first conv's 8 channels, but its OHWI weights were written for 3 input
// channels: 16*3*3*3 = 432 elements where 16*3*3*8 = 1152 are needed.
// units<16> says which array is right (without it, ctnn reports that weights and bias disagree).
// Expected: ctnn::errors::weight_count_mismatch<at_op<1, conv2d, node_named<...>>, count<1152>, count<432>>.
// Control: the weights have 16*3*3*8 elements.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w1[8 * 3 * 3 * 3] = {};
inline constexpr float b1[8] = {};
#ifdef CTNN_COMPILE_FAIL_CONTROL
inline constexpr float w2[16 * 3 * 3 * 8] = {};
#else
inline constexpr float w2[16 * 3 * 3 * 3] = {};
#endif
inline constexpr float b2[16] = {};

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 3>,
                            dsl::conv2d<w1, b1, dsl::kernel<3>, dsl::same, dsl::relu>,
                            dsl::conv2d<w2, b2, dsl::kernel<3>, dsl::same, dsl::units<16>>>;
using net = ctnn::compile<cnn>;

void infer(const float* in, float* out) { net::run(in, out); }
