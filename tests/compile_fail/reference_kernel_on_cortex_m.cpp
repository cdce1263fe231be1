// Compile-fail case: ctnn::require_fast_kernels on a Cortex-M4 target, an int16 depthwise convolution of channel
// multiplier 2 (tests/data/ops/int16/depthwise_i16_multiplier2_stride2), which the Armv7E-M DSP family declines
// (its int16 depthwise kernel takes multiplier 1; the int8 ones take any). The host does not compile the DSP
// kernels (ctnn::target<cortex_m4> needs -mcpu), so the pipeline names the target in its own select_kernels:
// the check is then a dry run of the shapes against the family's rows (kernel/arm/decline.hpp), as on the target.
// Expected: errors::reference_kernel_call naming op 0 (depthwise_conv2d), the DSP family, and the reason
// depthwise_multiplier_not_1 with the multiplier, 2.
// Control: an int8 depthwise convolution of multiplier 2 (tests/data/ops/linear/depthwise_i8_multiplier2_bias_axis3),
// which it takes.
#include <ctnn/ctnn.hpp>
#include <ctnn/pass/edit_pipeline.hpp>
#include <ctnn/models/depthwise_int16_multiplier2.hpp>
#include <ctnn/models/depthwise_multiplier2.hpp>

using cortex_m4_kernels = ctnn::replace<ctnn::pass::select_kernels<>, ctnn::pass::select_kernels<ctnn::targets::cortex_m4>>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
using model = ctnn::models::depthwise_multiplier2;
using element = std::int8_t;
#else
using model = ctnn::models::depthwise_int16_multiplier2;
using element = std::int16_t;
#endif
using net = ctnn::compile<model, cortex_m4_kernels, ctnn::require_fast_kernels>;

void infer(const element* in, element* out) { net::run(in, out); }
