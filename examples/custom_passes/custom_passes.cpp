// Three user-defined passes, one at each stage of the flow, in a copy of the default pipeline:
//   drop_final_softmax   graph level (before lower_te): a classifier that only needs the argmax does not
//                        need its softmax; the op before it writes the model output instead.
//   align_arena<64>      mixed stage (after lower_te, before plan_memory): cache-line aligned buffers.
//   reserve_guard<N>     after planning: N spare bytes at the end of the arena (e.g. for an overrun canary).
// A pass is a struct with `static constexpr Module run(Module)`; it may declare the ctnn::fact bits it
// reads (`requires_facts`) so that a pipeline that runs it too early does not compile.
#include <cstdint>
#include <cstdio>

#include <ctnn/ctnn.hpp>

#include "digits_heldout.hpp"
#include "digits_model.hpp"

struct drop_final_softmax {
  static constexpr ctnn::fact requires_facts = ctnn::fact::shapes_inferred;

  template <class Module>
  static constexpr Module run(Module m) {
    if (m.node_count < 2) return m;
    const ctnn::node last = m.node_at(m.node_count - 1);
    const std::int32_t source = m.tensor_at(last.inputs[0]).producer;
    if (last.kind != ctnn::op_kind::softmax || source < 0 || m.tensor_at(last.output).role != ctnn::tensor_role::output)
      return m;
    m.tensor_at(m.node_at(source).output).producer = -1;  // the logits buffer is no longer needed
    m.node_at(source).output = last.output;
    m.tensor_at(last.output).producer = source;
    m.node_at(m.node_count - 1) = ctnn::node{};
    --m.node_count;
    return m;
  }
};

template <std::int32_t Alignment>
struct align_arena {
  static constexpr ctnn::fact requires_facts = ctnn::fact::kernels_lowered;
  template <class Module>
  static constexpr Module run(Module m) {
    m.arena_alignment = Alignment;  // plan_memory aligns every buffer and the arena to this
    return m;
  }
};

template <std::int64_t Bytes>
struct reserve_guard {
  static constexpr ctnn::fact requires_facts = ctnn::fact::memory_planned;
  template <class Module>
  static constexpr Module run(Module m) {
    m.pool_usage[0].bytes += Bytes;
    return m;
  }
};

namespace pass = ctnn::pass;
using my_pipeline =
    ctnn::pipeline<pass::infer_types, drop_final_softmax, pass::fold_constants, pass::fold_batch_norm, pass::fuse_ops,
                   pass::alias_reshapes, pass::lower_te, align_arena<64>, pass::plan_memory<>, reserve_guard<64>,
                   pass::select_kernels<>, pass::create_function_metadata, pass::create_executor_metadata, pass::aot_lower_main>;

using standard = ctnn::compile<digits::model>;
using custom = ctnn::compile<digits::model, my_pipeline>;

static_assert(custom::call_count + 1 == standard::call_count, "the softmax is gone");
static_assert(custom::arena_alignment == 64 && custom::arena_bytes % 64 == 0);
static_assert(custom::arena_bytes >= standard::arena_bytes + 64, "64 guard bytes at the end");

template <class Net>
int predict(const float* image) {
  float scores[Net::template output<0>::elements];
  Net::run(image, scores);
  int best = 0;
  for (int c = 1; c < 10; ++c) best = scores[c] > scores[best] ? c : best;
  return best;
}

int main() {
  int same = 0;
  for (std::size_t i = 0; i < digits::heldout_count; ++i) {
    const float* image = digits::heldout_images + i * digits::image_elements;
    same += predict<standard>(image) == predict<custom>(image);
  }
  std::printf("custom pipeline: %zu calls (standard %zu), arena %zu bytes aligned to %zu (standard %zu aligned to %zu)\n",
              custom::call_count, standard::call_count, custom::arena_bytes, custom::arena_alignment,
              standard::arena_bytes, standard::arena_alignment);
  std::printf("same argmax on %d of %zu held-out images\n", same, digits::heldout_count);
  return same == static_cast<int>(digits::heldout_count) ? 0 : 1;
}
