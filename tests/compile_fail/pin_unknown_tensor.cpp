// Compile-fail case 17: a pin naming a tensor the model does not have ("conv1"; sequential models
// name each layer's result <kind>_<index>: "conv2d_0").
// Expected: errors::pin_names_no_tensor<pin_position<1>> and its sentence.
// Control: the right name.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float conv_w[4 * 3 * 3 * 3] = {};
inline constexpr float conv_b[4] = {};

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 3>, dsl::conv2d<conv_w, conv_b, dsl::kernel<3>, dsl::same, dsl::relu>,
                              dsl::max_pool<dsl::kernel<2>, dsl::stride<2>>, dsl::global_avg_pool>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
inline constexpr ctnn::fixed_string name = "conv2d_0";
#else
inline constexpr ctnn::fixed_string name = "conv1";
#endif
using net = ctnn::compile<model, ctnn::pools<ctnn::pool<"dtcm", 1024>, ctnn::pool<"sram">>, ctnn::pin<"max_pool_1", "sram">,
                          ctnn::pin<name, "dtcm">>;

void infer(const float* in, float* out) { net::run(in, out); }
