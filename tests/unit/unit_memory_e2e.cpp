// The executor's outputs do not depend on the memory plan: the digits demo model and the residual DAG of
// the e2e tests, compiled with every placement algorithm (and a user's), with every reuse option, with
// inputs/outputs in the arena and with several limited pools, give outputs equal bit for bit to the
// default compile's. The plans themselves differ (checked: not all offsets agree).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/memory/algorithms.hpp>

#include "digits_heldout.hpp"
#include "digits_model.hpp"
#include "e2e/data/residual.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace memory = ctnn::memory;

// tests/e2e/residual_test.cpp's model.
namespace data = ctnn_test_data::residual;
using residual = dsl::graph<
    dsl::outputs<"out">,
    dsl::node<"x", dsl::input<ctnn::f32, 1, 8, 8, 6>>,
    dsl::node<"a", dsl::conv2d<data::conv_a_w, data::conv_a_b, dsl::kernel<3>, dsl::same, dsl::relu>, "x">,
    dsl::node<"b", dsl::conv2d<data::conv_b_w, data::conv_b_b, dsl::kernel<3>, dsl::same>, "a">,
    dsl::node<"c", dsl::add<dsl::relu>, "x", "b">,
    dsl::node<"d", dsl::depthwise_conv2d<data::dw_w, data::dw_b, dsl::kernel<3>, dsl::same, dsl::multiplier<2>, dsl::relu>, "c">,
    dsl::node<"e", dsl::conv2d<data::conv_e_w, data::conv_e_b, dsl::kernel<1>>, "d">,
    dsl::node<"f", dsl::add<>, "c", "e">,
    dsl::node<"g", dsl::tanh, "f">,
    dsl::node<"h", dsl::mul<>, "g", "f">,
    dsl::node<"out", dsl::global_avg_pool, "h">>;

// A user's algorithm: first fit in order of first use.
struct by_first_use {
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t count, Allocations& allocations) {
    std::array<std::int64_t, std::tuple_size_v<Buffers>> key{};
    for (std::int32_t b = 0; b < count; ++b) key[static_cast<std::size_t>(b)] = buffers[static_cast<std::size_t>(b)].first_use;
    return memory::first_fit(buffers, count, memory::detail::sorted_by_key<std::tuple_size_v<Buffers>>(count, key.data()), allocations);
  }
};

template <class Net>
std::vector<float> outputs_of(const float* input) {
  std::vector<float> out(Net::template output<0>::elements);
  if constexpr (Net::template input<0>::in_arena) {
    std::memcpy(Net::template input<0>::data(), input, Net::template input<0>::bytes);
    Net::run();
    std::memcpy(out.data(), Net::template output<0>::data(), Net::template output<0>::bytes);
  } else {
    Net::run(input, out.data());
  }
  return out;
}

template <class Model, class Reference, class... Variants>
void check_variants(const float* inputs, std::size_t cases, std::size_t input_elements) {
  for (std::size_t c = 0; c < cases; ++c) {
    const float* input = inputs + c * input_elements;
    const std::vector<float> want = outputs_of<Reference>(input);
    const auto compare = [&]<class Net>(Net*) {
      const std::vector<float> got = outputs_of<Net>(input);
      CAPTURE(c);
      REQUIRE(got.size() == want.size());
      CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
    };
    (compare(static_cast<Variants*>(nullptr)), ...);
  }
}

template <class Model>
using variants_of = std::tuple<
    ctnn::compile<Model, ctnn::planner<memory::greedy_by_size>>, ctnn::compile<Model, ctnn::planner<memory::greedy_by_conflicts>>,
    ctnn::compile<Model, ctnn::planner<memory::greedy_by_breadth>>, ctnn::compile<Model, ctnn::planner<memory::interval_sweep>>,
    ctnn::compile<Model, ctnn::planner<memory::hill_climb<3, 50>>>, ctnn::compile<Model, ctnn::planner<memory::branch_and_bound<>>>,
    ctnn::compile<Model, ctnn::planner<by_first_use>>, ctnn::compile<Model, ctnn::memory_reuse>,
    ctnn::compile<Model, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::planner<memory::hill_climb<9, 50>>>,
    ctnn::compile<Model, ctnn::pools<ctnn::pool<"tcm", 512>, ctnn::pool<"sram">>, ctnn::memory_reuse, ctnn::planner<memory::interval_sweep>>>;

template <class Model, class Tuple>
struct check_all;
template <class Model, class... Nets>
struct check_all<Model, std::tuple<Nets...>> {
  static void run(const float* inputs, std::size_t cases, std::size_t input_elements) {
    check_variants<Model, ctnn::compile<Model>, Nets...>(inputs, cases, input_elements);
  }
  // How many variants place at least one tensor elsewhere than the default plan.
  static int differing_plans() {
    constexpr auto& reference = ctnn::compile<Model>::module;
    int differing = 0;
    const auto visit = [&]<class Net>(Net*) {
      bool differs = Net::module.node_count != reference.node_count;
      for (std::int32_t t = 0; t < reference.tensor_count; ++t)
        differs = differs || Net::module.allocations[static_cast<std::size_t>(t)].offset != reference.allocations[static_cast<std::size_t>(t)].offset ||
                  Net::module.allocations[static_cast<std::size_t>(t)].pool != reference.allocations[static_cast<std::size_t>(t)].pool;
      differing += differs ? 1 : 0;
    };
    (visit(static_cast<Nets*>(nullptr)), ...);
    return differing;
  }
};

TEST_CASE("digits: every plan gives the default plan's outputs, bit for bit") {
  using all = check_all<digits::model, variants_of<digits::model>>;
  all::run(digits::heldout_images, 40, digits::image_elements);
  CHECK(all::differing_plans() >= 3);
}

TEST_CASE("residual DAG: every plan gives the default plan's outputs, bit for bit") {
  using all = check_all<residual, variants_of<residual>>;
  all::run(data::inputs, data::case_count, data::input_elements);
  CHECK(all::differing_plans() >= 3);
  // The reuse options do work on this DAG (not at its peak, op 4: c, d and e are all needed there).
  static_assert(ctnn::compile<residual, ctnn::memory_reuse>::module.in_place_ops == 3);  // c over b, f over c, h over g
}

}  // namespace
