// Compile-fail case: a model whose output list is empty (a model file can say so; issue #23 found the tools
// accepted it and wrote nothing). infer_types rejects it before any work: nothing it computes would be kept.
// Expected: ctnn::errors::model_without_outputs<count<1>> (one input) and its sentence.
// Control: the same model with its output.
#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>

namespace dsl = ctnn::dsl;

using plain = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;

struct model {
  static constexpr auto build() {
    auto m = plain::build();
#ifndef CTNN_COMPILE_FAIL_CONTROL
    m.output_count = 0;
#endif
    return m;
  }
};
using net = ctnn::compile<model>;

#ifdef CTNN_COMPILE_FAIL_CONTROL
void infer(const float* in, float* out) { net::run(in, out); }
#else
constexpr auto arena = net::arena_bytes;
#endif
