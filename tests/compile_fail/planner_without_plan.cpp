// Compile-fail case 21b: a placement algorithm of one's own whose member is named `place`, not `plan`.
// Expected: the static_assert of ctnn::planner<A> "A has no `plan` member", in
// check_planner_algorithm<stack_all>.
// Control: the member named plan.
#include <cstddef>
#include <cstdint>

#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

// Every buffer after the previous one: correct (no two buffers overlap), never small.
struct stack_all {
  template <class Buffers, class Allocations>
#ifdef CTNN_COMPILE_FAIL_CONTROL
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
#else
  static constexpr std::int64_t place(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
#endif
    std::int64_t end = 0;
    for (std::int32_t b = 0; b < count; ++b) {
      const auto& buffer = buffers[static_cast<std::size_t>(b)];
      end = (end + buffer.alignment - 1) / buffer.alignment * buffer.alignment;
      allocations[static_cast<std::size_t>(b)].offset = end;
      end += buffer.bytes;
    }
    return end;
  }
};

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model, ctnn::planner<stack_all>>;

void infer(const float* in, float* out) { net::run(in, out); }
