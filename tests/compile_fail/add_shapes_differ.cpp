// Compile-fail case 1: a residual add of two tensors whose shapes cannot be broadcast.
// The conv "c" makes 6 channels while its skip input "x" has 4: add(x, c) is [1,8,8,4] + [1,8,8,6].
// Expected: ctnn::errors::input_shapes_differ<at_op<2, add, node_named<...>>, dims<1, 8, 8, 4>, dims<1, 8, 8, 6>>,
// the add's name longer than ctnn::name::capacity (31) shown as its head and tail: "encoder/block_...ual_add/output".
// Control (CTNN_COMPILE_FAIL_CONTROL): the conv makes 4 channels, so the add is [1,8,8,4] + [1,8,8,4].
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
inline constexpr std::int32_t filters = 4;
#else
inline constexpr std::int32_t filters = 6;
#endif
inline constexpr float w[filters * 3 * 3 * 4] = {};
inline constexpr float b[filters] = {};

using block = dsl::graph<dsl::outputs<"encoder/block_3/residual_add/output">,
                         dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 4>>,
                         dsl::node<"a", dsl::relu, "x">,
                         dsl::node<"c", dsl::conv2d<w, b, dsl::kernel<3>, dsl::same>, "a">,
                         dsl::node<"encoder/block_3/residual_add/output", dsl::add<dsl::relu>, "x", "c">>;
using net = ctnn::compile<block>;

void infer(const float* in, float* out) { net::run(in, out); }
