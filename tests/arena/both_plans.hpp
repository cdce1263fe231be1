#pragma once
// Runs a model compiled twice, with the default plan and with ctnn::in_place_windows, on the same
// deterministic inputs, and checks that the outputs agree: integers exactly, floats within the README's
// tolerance (an in-place call may run another kernel, with another summation order). Built with
// CTNN_ARENA_CHECKER (tests/CMakeLists.txt, AddressSanitizer trees), every call of both runs is checked
// against its plan (runtime/arena_checker.hpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

namespace ctnn_test {

// Value k of input `input` (floats in [-1, 1), integers small enough not to saturate a first layer).
template <class T>
T deterministic_value(std::size_t input, std::size_t k) {
  const std::uint32_t bits = static_cast<std::uint32_t>((k + 1) * 2654435761u + input * 40503u) >> 8;
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(bits % 2000u) / T{1000} - T{1};
  else if constexpr (std::is_signed_v<T>) return static_cast<T>(static_cast<std::int32_t>(bits % 200u) - 100);
  else return static_cast<T>(bits % 200u);
}

template <class Net, std::size_t... I>
auto make_inputs(std::index_sequence<I...>) {
  auto fill = []<std::size_t In>(std::integral_constant<std::size_t, In>) {
    using T = typename Net::template input<In>::element_type;
    std::vector<T> values(Net::template input<In>::elements);
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = deterministic_value<T>(In, k);
    return values;
  };
  return std::tuple{fill(std::integral_constant<std::size_t, I>{})...};
}

template <class Net, std::size_t... O>
auto make_outputs(std::index_sequence<O...>) {
  // 0x55 bytes: an output element that the run leaves unwritten differs between the two runs only by chance.
  return std::tuple{std::vector<typename Net::template output<O>::element_type>(
      Net::template output<O>::elements, static_cast<typename Net::template output<O>::element_type>(0x55))...};
}

template <class Net, class Inputs, class Outputs, std::size_t... I, std::size_t... O>
void run_on(const Inputs& inputs, Outputs& outputs, std::index_sequence<I...>, std::index_sequence<O...>) {
  Net::run(std::get<I>(inputs).data()..., std::get<O>(outputs).data()...);
}

template <class T>
void check_same_values(const std::vector<T>& planned, const std::vector<T>& in_place) {
  REQUIRE(planned.size() == in_place.size());
  if constexpr (std::is_floating_point_v<T>) {
    T largest = 0;
    for (const T v : planned) largest = std::max(largest, std::fabs(v));
    for (std::size_t i = 0; i < planned.size(); ++i) {
      CAPTURE(i);
      CHECK(std::fabs(planned[i] - in_place[i]) <= T(1e-5) * largest + T(1e-4) * std::fabs(planned[i]));
    }
  } else {
    CHECK(planned == in_place);
  }
}

// Plain and InPlace: the same model, compiled with the default plan and with ctnn::in_place_windows
// (models with one pool and every input and output in the caller's buffers).
template <class Plain, class InPlace>
void check_both_plans_agree() {
  static_assert(Plain::input_count == InPlace::input_count && Plain::output_count == InPlace::output_count);
  constexpr auto inputs = std::make_index_sequence<Plain::input_count>{};
  constexpr auto outputs = std::make_index_sequence<Plain::output_count>{};
  const auto values = make_inputs<Plain>(inputs);
  auto planned = make_outputs<Plain>(outputs);
  auto in_place = make_outputs<InPlace>(outputs);
  run_on<Plain>(values, planned, inputs, outputs);
  run_on<InPlace>(values, in_place, inputs, outputs);
  [&]<std::size_t... O>(std::index_sequence<O...>) {
    (check_same_values(std::get<O>(planned), std::get<O>(in_place)), ...);
  }(outputs);
}

}  // namespace ctnn_test
