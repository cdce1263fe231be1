// Compile-fail case 20b: a pass of one's own whose in-place core is misspelt (run_inplace), second in the
// pipeline.
// Expected: the static_assert of ctnn::pipeline<Passes...> "has neither `static constexpr void
// run_in_place(Module&)` nor `static constexpr Module run(Module)`", in check_pipeline_pass<1, count_relus>.
// Control: the member spelt run_in_place.
#include <cstdint>

#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;

// Counts the relus (and does nothing with the count: the point is its misspelt member).
struct count_relus {
  static constexpr ctnn::fact requires_facts = ctnn::fact::shapes_inferred;
  template <class Module>
#ifdef CTNN_COMPILE_FAIL_CONTROL
  static constexpr void run_in_place(Module& m) {
#else
  static constexpr void run_inplace(Module& m) {
#endif
    std::int32_t relus = 0;
    for (std::int32_t i = 0; i < m.node_count; ++i) relus += m.node_at(i).kind == ctnn::op_kind::relu ? 1 : 0;
    (void)relus;
  }
};

using my_pipeline =
    ctnn::pipeline<pass::infer_types, count_relus, pass::lower_te, pass::plan_memory<>, pass::aot_lower_main>;
using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model, my_pipeline>;

void infer(const float* in, float* out) { net::run(in, out); }
