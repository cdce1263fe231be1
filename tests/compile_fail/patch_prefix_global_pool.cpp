// Compile-fail case: ctnn::patch_execution with a prefix that holds a global average pool (op 1), which
// mixes every pixel of the map and cannot run patch by patch.
// Expected: ctnn::errors::prefix_op_cannot_be_patched<at_op<1, global_avg_pool, node_named<...>>, patch_reason<op_not_patchable>>.
// Control: the prefix ends before it (the conv alone).
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float w[4 * 3 * 3 * 1] = {};
inline constexpr float b[4] = {};
inline constexpr float fc_w[2 * 4] = {};
inline constexpr float fc_b[2] = {};
#ifdef CTNN_COMPILE_FAIL_CONTROL
using prefix = ctnn::patch_prefix<1>;
#else
using prefix = ctnn::patch_prefix<2>;
#endif

using cnn = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 1>, dsl::conv2d<w, b, dsl::kernel<3>, dsl::same>, dsl::global_avg_pool,
                            dsl::flatten, dsl::dense<fc_w, fc_b>>;
using net = ctnn::compile<cnn, ctnn::patch_execution<prefix, ctnn::patch_grid<2, 2>>>;

void infer(const float* in, float* out) { net::run(in, out); }
