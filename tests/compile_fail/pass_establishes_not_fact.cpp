// Compile-fail case 20c: a pass of one's own whose `establishes` is an integer, not a ctnn::fact, inserted
// into the default pipeline with ctnn::insert_after.
// Expected: the static_assert of the editing helpers "the `establishes` of the pass given
// (check_inserted_pass<pass>) is not a `static constexpr ctnn::fact`", in check_inserted_pass<mark_shapes>.
// Control: `establishes` a ctnn::fact.
#include <cstdint>

#include <ctnn/ctnn.hpp>
#include <ctnn/pass/edit_pipeline.hpp>

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;

struct mark_shapes {
  static constexpr ctnn::fact requires_facts = ctnn::fact::shapes_inferred;
#ifdef CTNN_COMPILE_FAIL_CONTROL
  static constexpr ctnn::fact establishes = ctnn::fact::shapes_inferred;
#else
  static constexpr std::uint32_t establishes = 1;  // the bit of ctnn::fact::shapes_inferred, but not its type
#endif
  template <class Module>
  static constexpr void run_in_place(Module&) {}
};

using my_pipeline = ctnn::insert_after<pass::infer_types, mark_shapes>;
using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model, my_pipeline>;

void infer(const float* in, float* out) { net::run(in, out); }
