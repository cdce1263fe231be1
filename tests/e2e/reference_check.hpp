#pragma once
// Runs a compiled model on every reference case and checks each output element against the float64
// reference: |got - want| <= 1e-5 + 1e-4 * |want| (float32 accumulation-order error is ~1e-7 on these
// models; see scripts/README.md).
#include <cmath>
#include <cstddef>

#include <doctest/doctest.h>

namespace ctnn_test {

inline constexpr float absolute_tolerance = 1e-5f;
inline constexpr float relative_tolerance = 1e-4f;

template <class Net, std::size_t Cases>
void check_against_reference(const float* inputs, const float* expected) {
  constexpr std::size_t in_elements = Net::template input<0>::elements;
  constexpr std::size_t out_elements = Net::template output<0>::elements;
  for (std::size_t c = 0; c < Cases; ++c) {
    float out[out_elements];
    for (auto& v : out) v = std::nanf("");  // a kernel that skips an element cannot pass by accident
    Net::run(inputs + c * in_elements, out);
    for (std::size_t i = 0; i < out_elements; ++i) {
      const float want = expected[c * out_elements + i];
      CAPTURE(c);
      CAPTURE(i);
      CHECK(std::fabs(out[i] - want) <= absolute_tolerance + relative_tolerance * std::fabs(want));
    }
  }
}

}  // namespace ctnn_test
