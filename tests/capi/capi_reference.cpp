// The independent side of the C API test (capi_two_models.c): the generators' NumPy references of the two
// models (tests/data), and the interface facts read from the C++ executors directly, not through the
// generated header.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/conv_net.hpp>
#include <ctnn/models/q_conv_net.hpp>

#include "conv_net_expected.hpp"
#include "q_conv_net_expected.hpp"
#include "capi_reference.h"

namespace {

namespace conv = ctnn_test_data::tflite_conv_net;
namespace qconv = ctnn_test_data::onnx_q_conv_net;
using conv_net = ctnn::compile<ctnn::models::conv_net>;
using q_conv_net = ctnn::compile<ctnn::models::q_conv_net>;

constexpr std::size_t q_cases = 3;

// Within 1e-5 plus 1e-4 of the magnitude: the float64 NumPy reference rounded to float, as the other
// conv_net tests allow.
bool close(float got, float want) { return std::fabs(got - want) <= 1e-5f + 1e-4f * std::fabs(want); }

}  // namespace

extern "C" {

size_t capi_reference_case_count(int model) { return model == capi_conv_net ? conv::case_count : q_cases; }

const float* capi_reference_input(int model, size_t c) {
  if (model == capi_conv_net) return conv::input0 + c * conv::input0_elements;
  return qconv::input0 + c * (qconv::input0_elements / q_cases);
}

int capi_reference_matches(int model, size_t c, const float* output0, const uint8_t* output1) {
  if (model == capi_conv_net) {
    for (std::size_t i = 0; i < conv::output0_elements; ++i)
      if (!close(output0[i], conv::expected0[c * conv::output0_elements + i])) return 0;
    return 1;
  }
  // ONNX's integer semantics: bit for bit.
  const std::size_t n0 = qconv::expected0_elements / q_cases, n1 = qconv::expected1_elements / q_cases;
  for (std::size_t i = 0; i < n0; ++i)
    if (output0[i] != qconv::expected0[c * n0 + i]) return 0;
  for (std::size_t i = 0; i < n1; ++i)
    if (output1[i] != qconv::expected1[c * n1 + i]) return 0;
  return 1;
}

float capi_reference_q_conv_net_output1_scale(void) { return q_conv_net::output<1>::info.quant.scale; }
int capi_reference_q_conv_net_output1_zero_point(void) { return q_conv_net::output<1>::info.quant.zero_point; }
size_t capi_reference_arena_bytes(int model) {
  return model == capi_conv_net ? conv_net::arena_bytes : q_conv_net::arena_bytes;
}

}  // extern "C"
