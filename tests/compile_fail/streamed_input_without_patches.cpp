// Compile-fail case: ctnn::streamed_input given to ctnn::compile on its own: the input is read by rows only by
// a patch stage, so the setting belongs inside ctnn::patch_execution<...>.
// Expected: the sentence naming ctnn::patch_execution, in check_compile_option<ctnn::streamed_input>.
// Control: ctnn::patch_execution<ctnn::streamed_input>, run with a ctnn::row_source.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w[4 * 3 * 3 * 1] = {};
inline constexpr float b[4] = {};

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 1>, dsl::conv2d<w, b, dsl::kernel<3>, dsl::same>, dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>,
                            dsl::global_avg_pool>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
using net = ctnn::compile<cnn, ctnn::patch_execution<ctnn::streamed_input>>;
#else
using net = ctnn::compile<cnn, ctnn::streamed_input>;
#endif

void infer(const ctnn::row_source* in, float* out) { net::run(in, out); }
