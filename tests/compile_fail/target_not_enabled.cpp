// Compile-fail case: ctnn::target<> asks for kernels the compiler flags cannot build (the Armv7E-M DSP
// kernels in a host build).
// Expected: the static_assert "ctnn::target<T>: the compiler flags do not enable T's instruction set ...".
// Control: ctnn::targets::generic (the reference kernels, on any machine).
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w[4 * 3 * 3 * 2] = {};
inline constexpr float b[4] = {};
#ifdef CTNN_COMPILE_FAIL_CONTROL
using target = ctnn::targets::generic;
#else
using target = ctnn::targets::cortex_m4;
#endif

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 2>, dsl::conv2d<w, b, dsl::kernel<3>, dsl::same>>;
using net = ctnn::compile<cnn, ctnn::target<target>>;

void infer(const float* in, float* out) { net::run(in, out); }
