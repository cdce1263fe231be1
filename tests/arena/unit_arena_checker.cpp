// The arena checker (runtime/arena_checker.hpp): what it opens for each call, as static_asserts on the
// plans of small DSL models (operands, results and views in the pools, caller's buffers and constants
// left out, several pools, in-place windows), in every tree. In a tree built with AddressSanitizer
// (CTNN_ARENA_CHECKER is then defined for every test, tests/CMakeLists.txt) also ASan's shadow memory:
// after before_call(c) exactly the planned bytes of call c are addressable, after the run all of them.
#include <cstddef>
#include <cstdint>
#include <iterator>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/runtime/arena_checker.hpp>

#include "pass/pass_test_modules.hpp"
#include "test_modules.hpp"

#ifdef CTNN_ARENA_CHECKER
#include <sanitizer/asan_interface.h>
#endif

namespace {

namespace dsl = ctnn::dsl;
using ctnn::detail::pool_range;

template <class Net>
constexpr auto ranges_of = ctnn::detail::ranges_of_each_call<Net::call_count>(Net::module);

constexpr bool overlap(const pool_range& a, const pool_range& b) {
  return a.pool == b.pool && a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

// tiny_cnn (test_modules.hpp) in two pools: "dtcm" (256 B) takes the dense result (12 B), "sram" the conv
// (576 B) and the max pool (144 B; the dense reads it through the flatten, a view). Calls: conv, max pool,
// dense, softmax. The model's input and output are the caller's buffers, weights are constants: neither
// is pool memory.
using two_pools = ctnn::compile<ctnn_test::tiny_cnn, ctnn::pools<ctnn::pool<"dtcm", 256>, ctnn::pool<"sram", 1024>>>;
constexpr auto& tiny = ranges_of<two_pools>;
static_assert(two_pools::call_count == 4);
static_assert(tiny.count[0] == 1 && tiny.of_call[0][0].pool == 1 && tiny.of_call[0][0].bytes == 576);  // conv: its result
static_assert(tiny.count[1] == 2 && tiny.of_call[1][0].bytes == 576 && tiny.of_call[1][1].bytes == 144 &&
              !overlap(tiny.of_call[1][0], tiny.of_call[1][1]));                                        // max pool
static_assert(tiny.count[2] == 2 && tiny.of_call[2][0].pool == 1 && tiny.of_call[2][0].bytes == 144 &&  // dense: the view's
              tiny.of_call[2][0].offset == tiny.of_call[1][1].offset &&                                 // root, where the
              tiny.of_call[2][1].pool == 0 && tiny.of_call[2][1].bytes == 12);                          // pool wrote it
static_assert(tiny.count[3] == 1 && tiny.of_call[3][0].pool == 0 && tiny.of_call[3][0].bytes == 12);  // softmax: its input

// An in-place window (docs/memory.md): x [1,6,6,4] -> conv 3x3 same relu (a, 576 B) -> depthwise 3x3 same
// (b, 576 B, written over a: it starts (6 + 2) pixels x 4 channels x 4 B = 128 B below a) -> global average
// pool. The checker opens both ranges of the in-place call: its input and its result overlap.
using window_model =
    dsl::sequential<dsl::input<ctnn::f32, 1, 6, 6, 4>,
                    dsl::conv2d<ctnn_test::ramp<144, 81>::values, ctnn_test::ramp<4, 82>::values, dsl::kernel<3>, dsl::same, dsl::relu>,
                    dsl::depthwise_conv2d<ctnn_test::ramp<36, 83>::values, ctnn_test::ramp<4, 84>::values, dsl::kernel<3>, dsl::same>,
                    dsl::global_avg_pool>;
using windows = ctnn::compile<window_model, ctnn::in_place_windows>;
constexpr auto& in_place = ranges_of<windows>;
static_assert(windows::call_count == 3 && windows::module.calls[1].params.in_place == 1);
static_assert(in_place.count[0] == 1 && in_place.of_call[0][0].bytes == 576);  // x is the caller's
static_assert(in_place.count[1] == 2 && in_place.of_call[1][0].bytes == 576 && in_place.of_call[1][1].bytes == 576);
static_assert(overlap(in_place.of_call[1][0], in_place.of_call[1][1]) &&
              in_place.of_call[1][0].offset == in_place.of_call[1][1].offset + 128);
static_assert(in_place.count[2] == 1 && in_place.of_call[2][0].offset == in_place.of_call[1][1].offset);  // the output is the caller's

// Every planned range starts on an ASan granule (8 bytes), so the shadow checks below are exact.
template <class Net>
constexpr bool granule_aligned() {
  for (std::size_t c = 0; c < Net::call_count; ++c)
    for (std::size_t r = 0; r < ranges_of<Net>.count[c]; ++r)
      if (ranges_of<Net>.of_call[c][r].offset % 8 != 0) return false;
  return true;
}
static_assert(granule_aligned<two_pools>() && granule_aligned<windows>());

#ifdef CTNN_ARENA_CHECKER
// The bytes of pool `pool` whose shadow is not what the plan of `call` says (open: planned for it).
template <class Net>
std::size_t bytes_not_as_planned(const typename Net::pool_pointers& pools, std::size_t pool, std::size_t call) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < Net::pool_bytes_at(pool); ++i) {
    bool planned = false;
    for (std::size_t r = 0; r < ranges_of<Net>.count[call]; ++r) {
      const pool_range& range = ranges_of<Net>.of_call[call][r];
      planned = planned || (static_cast<std::size_t>(range.pool) == pool && static_cast<std::size_t>(range.offset) <= i &&
                            i < static_cast<std::size_t>(range.offset + range.bytes));
    }
    wrong += (__asan_address_is_poisoned(pools[pool] + i) != 0) == planned ? 1 : 0;
  }
  return wrong;
}

template <class Net>
void check_shadow_per_call() {
  const typename Net::pool_pointers pools = Net::static_pools();
  {
    const ctnn::detail::arena_checker<Net> checker{pools};
    for (std::size_t call = 0; call < Net::call_count; ++call) {
      checker.before_call(call);
      for (std::size_t pool = 0; pool < Net::pool_count; ++pool) {
        CAPTURE(call);
        CAPTURE(pool);
        CHECK(bytes_not_as_planned<Net>(pools, pool, call) == 0);
      }
    }
  }
  for (std::size_t pool = 0; pool < Net::pool_count; ++pool)
    CHECK(__asan_region_is_poisoned(pools[pool], Net::pool_bytes_at(pool)) == nullptr);
}

TEST_CASE("before each call exactly its planned bytes are addressable, after the run all of them") {
  check_shadow_per_call<two_pools>();
  check_shadow_per_call<windows>();
}
#endif

TEST_CASE("the executor runs under the checker (when it is on) and gives the same result in place") {
  float x[6 * 6 * 4];
  for (std::size_t i = 0; i < std::size(x); ++i) x[i] = static_cast<float>(static_cast<int>(i % 17) - 8) / 8.0f;
  float planned[4], written_over[4];
  ctnn::compile<window_model>::run(x, planned);
  windows::run(x, written_over);
  for (std::size_t i = 0; i < 4; ++i) CHECK(planned[i] == doctest::Approx(written_over[i]).epsilon(1e-5));
#ifdef CTNN_ARENA_CHECKER
  CHECK(__asan_region_is_poisoned(windows::static_pools()[0], windows::arena_bytes) == nullptr);  // restored
#endif
}

}  // namespace
