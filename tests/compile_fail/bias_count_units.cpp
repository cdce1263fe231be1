// Compile-fail case 3a: a bias of the wrong length, on a conv2d whose output channels are given by
// units<8>: the bias has 6 elements where 8 are needed.
// Expected: ctnn::errors::bias_count_mismatch<at_op<0, conv2d, node_named<...>>, count<8>, count<6>>.
// Control: the bias has 8 elements.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w[8 * 3 * 3 * 2] = {};
#ifdef CTNN_COMPILE_FAIL_CONTROL
inline constexpr float b[8] = {};
#else
inline constexpr float b[6] = {};
#endif

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 2>,
                            dsl::conv2d<w, b, dsl::units<8>, dsl::kernel<3>, dsl::same>>;
using net = ctnn::compile<cnn>;

void infer(const float* in, float* out) { net::run(in, out); }
