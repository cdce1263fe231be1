// float32 numerics at the edges (issue #12): what the reference kernels (bare-metal targets, fold_constants,
// ctnn-run) do with NaN, +-Inf, -0.0 and denormals, op by op. docs/numerics.md tabulates these results;
// each row there is a CHECK here.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/reference/activation.hpp>
#include <ctnn/kernel/reference/data_movement.hpp>
#include <ctnn/kernel/reference/elementwise.hpp>
#include <ctnn/ops/add.hpp>
#include <ctnn/ops/mul.hpp>

namespace {

namespace reference = ctnn::kernel::reference;
using ctnn::activation;

constexpr float not_a_number = std::numeric_limits<float>::quiet_NaN();
constexpr float inf = std::numeric_limits<float>::infinity();
constexpr float denormal = std::numeric_limits<float>::denorm_min() * 3.0f;

bool negative_zero(float x) { return x == 0.0f && std::signbit(x); }
bool positive_zero(float x) { return x == 0.0f && !std::signbit(x); }

std::vector<float> softmax(const std::vector<float>& logits) {
  ctnn::kernel_params p{};
  p.in = p.out = ctnn::make_shape(1, static_cast<std::int32_t>(logits.size()));
  std::vector<float> out(logits.size());
  reference::softmax(&p, logits.data(), out.data());
  return out;
}

std::vector<float> clip(const std::vector<float>& x, float low, float high) {
  ctnn::kernel_params p{};
  p.in = p.out = ctnn::make_shape(static_cast<std::int32_t>(x.size()));
  p.clip.min_bits = std::bit_cast<std::uint32_t>(low);
  p.clip.max_bits = std::bit_cast<std::uint32_t>(high);
  std::vector<float> out(x.size());
  reference::clip(&p, x.data(), out.data());
  return out;
}

}  // namespace

TEST_CASE("relu and relu6: NaN, infinities, -0.0 and denormals") {
  // relu is x > 0 ? x : 0 (TFLite's and the SIMD kernels' compare-and-select): NaN and -0.0 become +0.0.
  CHECK(positive_zero(reference::activate(activation::relu, not_a_number)));
  CHECK(positive_zero(reference::activate(activation::relu, -0.0f)));
  CHECK(reference::activate(activation::relu, inf) == inf);
  CHECK(positive_zero(reference::activate(activation::relu, -inf)));
  CHECK(reference::activate(activation::relu, denormal) == denormal);
  CHECK(positive_zero(reference::activate(activation::relu, -denormal)));
  // relu6 is x < 0 ? 0 : min(x, 6): NaN stays NaN, -0.0 stays -0.0.
  CHECK(std::isnan(reference::activate(activation::relu6, not_a_number)));
  CHECK(negative_zero(reference::activate(activation::relu6, -0.0f)));
  CHECK(reference::activate(activation::relu6, inf) == 6.0f);
  CHECK(positive_zero(reference::activate(activation::relu6, -inf)));
  CHECK(reference::activate(activation::relu6, denormal) == denormal);
}

TEST_CASE("sigmoid and tanh: NaN propagates, infinities reach the asymptotes, zeros keep their sign in tanh") {
  CHECK(std::isnan(reference::activate(activation::sigmoid, not_a_number)));
  CHECK(reference::activate(activation::sigmoid, inf) == 1.0f);
  CHECK(positive_zero(reference::activate(activation::sigmoid, -inf)));
  CHECK(reference::activate(activation::sigmoid, -0.0f) == 0.5f);
  CHECK(reference::activate(activation::sigmoid, denormal) == 0.5f);
  CHECK(std::isnan(reference::activate(activation::tanh, not_a_number)));
  CHECK(reference::activate(activation::tanh, inf) == 1.0f);
  CHECK(reference::activate(activation::tanh, -inf) == -1.0f);
  CHECK(negative_zero(reference::activate(activation::tanh, -0.0f)));
  CHECK(reference::activate(activation::tanh, denormal) == denormal);
}

TEST_CASE("clip is min(max(x, low), high): NaN stays, -0.0 and denormals pass, low > high gives high") {
  const std::vector<float> y = clip({not_a_number, -inf, inf, -0.0f, denormal, 0.25f, 5.0f}, -1.0f, 1.0f);
  CHECK(std::isnan(y[0]));
  CHECK(y[1] == -1.0f);
  CHECK(y[2] == 1.0f);
  CHECK(negative_zero(y[3]));
  CHECK(y[4] == denormal);
  CHECK(y[5] == 0.25f);
  CHECK(y[6] == 1.0f);
  CHECK(clip({-3.0f, 1.5f, 4.0f}, 2.0f, 1.0f) == std::vector<float>{1.0f, 1.0f, 1.0f});  // ONNX, numpy.clip
  const std::vector<float> nan_row = clip({not_a_number}, 2.0f, 1.0f);
  CHECK(std::isnan(nan_row[0]));
}

TEST_CASE("float softmax: equal logits share, extreme logits do not overflow, infinities and NaN") {
  for (const float value : {-1e30f, -87.0f, 0.0f, 88.0f, 1e30f}) {
    const std::vector<float> y = softmax(std::vector<float>(4, value));
    for (const float v : y) CHECK(v == 0.25f);  // x - max = 0 for every logit
  }
  const std::vector<float> extreme = softmax({1e30f, -1e30f, 0.0f});
  CHECK(extreme[0] == 1.0f);
  CHECK(positive_zero(extreme[1]));
  CHECK(positive_zero(extreme[2]));
  const std::vector<float> large = softmax({1000.0f, 1000.0f, 999.0f});  // exp(1000) alone would overflow
  CHECK(large[0] == doctest::Approx(0.4223188f));
  CHECK(large[2] == doctest::Approx(0.1553624f));
  // -inf logits get 0; a +inf logit makes inf - inf = NaN in its row; a NaN logit makes the row NaN.
  const std::vector<float> minus_inf = softmax({-inf, 0.0f, -inf});
  CHECK(minus_inf == std::vector<float>{0.0f, 1.0f, 0.0f});
  for (const float v : softmax({inf, 0.0f})) CHECK(std::isnan(v));
  for (const float v : softmax({1.0f, not_a_number, 2.0f})) CHECK(std::isnan(v));
}

TEST_CASE("add and mul follow IEEE arithmetic (NaN propagates, inf - inf is NaN, -0.0 + -0.0 is -0.0)") {
  ctnn::kernel_params p{};
  p.kind = ctnn::op_kind::add;
  p.in = p.in2 = p.out = ctnn::make_shape(4);
  const std::vector<float> a{not_a_number, inf, -0.0f, denormal}, b{1.0f, -inf, -0.0f, denormal};
  std::vector<float> sum(4), product(4);
  const std::array<const float*, 2> operands{a.data(), b.data()};
  ctnn::ops::add::run_f32(&p, operands.data(), sum.data());
  CHECK(std::isnan(sum[0]));
  CHECK(std::isnan(sum[1]));
  CHECK(negative_zero(sum[2]));
  CHECK(sum[3] == 2.0f * denormal);
  p.kind = ctnn::op_kind::mul;
  ctnn::ops::mul::run_f32(&p, operands.data(), product.data());
  CHECK(std::isnan(product[0]));
  CHECK(product[1] == -inf);
  CHECK(positive_zero(product[2]));
  CHECK(positive_zero(product[3]));  // denormal * denormal underflows to +0.0
}
