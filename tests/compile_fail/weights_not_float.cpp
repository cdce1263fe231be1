// Compile-fail case 14: conv2d weights given as an int array.
// Expected: the static_assert "ctnn::dsl: weights and biases must be constexpr float arrays (e.g. inline
// constexpr float w[N])."
// Control: a float array.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
inline constexpr float w[4 * 3 * 3 * 2] = {};
#else
inline constexpr int w[4 * 3 * 3 * 2] = {};
#endif
inline constexpr float b[4] = {};

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 2>, dsl::conv2d<w, b, dsl::kernel<3>, dsl::same>>;
using net = ctnn::compile<cnn>;

void infer(const float* in, float* out) { net::run(in, out); }
