// Compile-fail case 15: a model whose plan needs more than its pool's limit.
//   conv (576 B, ops 0..1) and max pool (144 B, ops 1..2) are live together at op 1: 720 B > 512 B.
// Expected: errors::pool_budget_exceeded<pool_named<'s', 'r', 'a', 'm'>, needed_bytes<720>, limit_bytes<512>,
//           over_by_bytes<208>, at_op<1, op_kind::max_pool, node_named<...>>> and its sentence.
// Control: a limit of 720 B, which the model then asserts it fits.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float conv_w[4 * 3 * 3 * 3] = {};
inline constexpr float conv_b[4] = {};
inline constexpr float fc_w[3 * 36] = {};
inline constexpr float fc_b[3] = {};

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 3>, dsl::conv2d<conv_w, conv_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                              dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, dsl::flatten, dsl::dense<fc_w, fc_b>, dsl::softmax>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
inline constexpr long limit = 720;
#else
inline constexpr long limit = 512;
#endif
using net = ctnn::compile<model, ctnn::pools<ctnn::pool<"sram", limit>>>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
static_assert(net::pool<0>::bytes == 720 && net::pool<0>::size_limit == 720 && net::liveness_lower_bound == 720);
#endif

void infer(const float* in, float* out) { net::run(in, out); }
