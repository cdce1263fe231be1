// Compile-fail case 16: a buffer pinned to a pool that cannot hold it, with a fallback pool that
// could. The conv result (576 B) is pinned to "dtcm" (48 B): it may not fall back to "sram".
// Expected: errors::pool_budget_exceeded<pool_named<'d', 't', 'c', 'm'>, needed_bytes<576>, limit_bytes<48>,
//           over_by_bytes<528>, at_op<0, op_kind::conv2d, node_named<...>>> and its sentence.
// Control: pinned to "sram".
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float conv_w[4 * 3 * 3 * 3] = {};
inline constexpr float conv_b[4] = {};
inline constexpr float fc_w[3 * 36] = {};
inline constexpr float fc_b[3] = {};

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 3>, dsl::conv2d<conv_w, conv_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                              dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, dsl::flatten, dsl::dense<fc_w, fc_b>, dsl::softmax>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
using pin = ctnn::pin<"conv2d_0", "sram">;
#else
using pin = ctnn::pin<"conv2d_0", "dtcm">;
#endif
using net = ctnn::compile<model, ctnn::pools<ctnn::pool<"dtcm", 48>, ctnn::pool<"sram", 4096>>, pin>;

void infer(const float* in, float* out) { net::run(in, out); }
