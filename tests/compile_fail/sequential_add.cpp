// Compile-fail case 10: add<> (two inputs) as a layer of a dsl::sequential (a chain of one-input layers).
// Expected: the static_assert "ctnn::dsl::sequential: add, mul and concat take several inputs; write the
// model as a ctnn::dsl::graph."
// Control: the same layers without the add.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::sigmoid>;
#else
using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::add<>, dsl::sigmoid>;
#endif
using net = ctnn::compile<model>;

void infer(const float* in, float* out) { net::run(in, out); }
