// Compile-fail case: ctnn::streamed_input on a model whose first op (a global average pool) cannot run patch
// by patch: only a patch stage reads its input by rows, so the input cannot be streamed.
// Expected: ctnn::errors::input_cannot_be_streamed<at_op<0, global_avg_pool, node_named<...>>, patch_reason<op_not_patchable>>.
// Control: the same option set without ctnn::streamed_input (the automatic choice then makes no patch stage).
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float fc_w[2 * 3] = {};
inline constexpr float fc_b[2] = {};

using pooled = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 3>, dsl::global_avg_pool, dsl::flatten, dsl::dense<fc_w, fc_b>>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
using net = ctnn::compile<pooled, ctnn::patch_execution<ctnn::max_extra_macs<10>>>;
void infer(const float* in, float* out) { net::run(in, out); }
#else
using net = ctnn::compile<pooled, ctnn::patch_execution<ctnn::max_extra_macs<10>, ctnn::streamed_input>>;
void infer(const ctnn::row_source* in, float* out) { net::run(in, out); }
#endif
