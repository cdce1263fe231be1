// Compile-fail case: ctnn::require_fast_kernels on a Cortex-M4 target, a depthwise convolution of channel
// multiplier 2 (tests/data/ops/linear/depthwise_i8_multiplier2_bias_axis3), which the Armv7E-M DSP family
// declines. The host does not compile the DSP kernels (ctnn::target<cortex_m4> needs -mcpu), so the pipeline
// names the target in its own select_kernels: the check is then a dry run of the shapes against the family's
// rows (kernel/arm/decline.hpp), as on the target.
// Expected: errors::reference_kernel_call naming op 0 (depthwise_conv2d), the DSP family, and the reason
// depthwise_multiplier_not_1 with the multiplier, 2.
// Control: the same op with multiplier 1 (tests/data/ops/linear/depthwise_i8_bias_axis3), which it takes.
#include <ctnn/ctnn.hpp>
#include <ctnn/pass/edit_pipeline.hpp>
#include <ctnn/models/depthwise_multiplier1.hpp>
#include <ctnn/models/depthwise_multiplier2.hpp>

using cortex_m4_kernels = ctnn::replace<ctnn::pass::select_kernels<>, ctnn::pass::select_kernels<ctnn::targets::cortex_m4>>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
using model = ctnn::models::depthwise_multiplier1;
#else
using model = ctnn::models::depthwise_multiplier2;
#endif
using net = ctnn::compile<model, cortex_m4_kernels, ctnn::require_fast_kernels>;

void infer(const std::int8_t* in, std::int8_t* out) { net::run(in, out); }
