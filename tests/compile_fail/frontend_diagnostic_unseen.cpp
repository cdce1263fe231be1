// Compile-fail case 11b: a module that carries a model-file frontend's diagnostic (an ONNX code, 301)
// compiled without that frontend's header, which holds the code's error class (errors.hpp names no
// frontend: each specialises detail::frontend_error_class next to itself).
// Expected: ctnn::errors::frontend_diagnostic<301> and the sentence that says which header to include.
// Control: the same module without the diagnostic.
#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>

namespace dsl = ctnn::dsl;

using plain = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;

struct model {
  static constexpr auto build() {
    auto m = plain::build();
#ifndef CTNN_COMPILE_FAIL_CONTROL
    m.fail(ctnn::diagnostic{static_cast<ctnn::error_code>(301), 1, ctnn::op_kind::relu, {}, {}, {.operator_code = 41}});
#endif
    return m;
  }
};
using net = ctnn::compile<model>;

void infer(const float* in, float* out) { net::run(in, out); }
