// Compile-fail case 21a: ctnn::planner<int>.
// Expected: the static_assert of ctnn::planner<A> (ctnn::placement_algorithm, memory/placement_algorithm.hpp)
// "A has no `plan` member", in check_planner_algorithm<int>.
// Control: ctnn::planner<ctnn::memory::greedy_by_size>.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

#ifdef CTNN_COMPILE_FAIL_CONTROL
using algorithm = ctnn::memory::greedy_by_size;
#else
using algorithm = int;
#endif

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model, ctnn::planner<algorithm>>;

void infer(const float* in, float* out) { net::run(in, out); }
