// Compile-fail case 4: conv2d groups<3> on an input of 4 channels (groups must divide the channels).
// Expected: ctnn::errors::channels_not_divisible_by_groups<at_op<0, conv2d, node_named<...>>, count<4>, count<3>>.
// Control: groups<2> (the weights are OHW(I/groups) = 6*3*3*2 in both).
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w[6 * 3 * 3 * 2] = {};
inline constexpr float b[6] = {};
#ifdef CTNN_COMPILE_FAIL_CONTROL
using grouping = dsl::groups<2>;
#else
using grouping = dsl::groups<3>;
#endif

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>,
                            dsl::conv2d<w, b, dsl::kernel<3>, dsl::same, grouping>>;
using net = ctnn::compile<cnn>;

void infer(const float* in, float* out) { net::run(in, out); }
