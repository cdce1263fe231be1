// Compile-fail case 13: a type that is not a layer option (int) among conv2d's options.
// Expected: the static_assert "ctnn::dsl: an option of this layer is not a layer option (kernel<>, ...)."
// Control: dsl::relu in its place.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w[4 * 3 * 3 * 2] = {};
inline constexpr float b[4] = {};
#ifdef CTNN_COMPILE_FAIL_CONTROL
using activation = dsl::relu;
#else
using activation = int;
#endif

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 2>,
                            dsl::conv2d<w, b, dsl::kernel<3>, dsl::same, activation>>;
using net = ctnn::compile<cnn>;

void infer(const float* in, float* out) { net::run(in, out); }
