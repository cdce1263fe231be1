// A hand-built int8 model through ctnn::compile (the default pipeline: infer_types ... lower_te,
// plan_memory, aot_lower_main) and the static executor: per-channel conv and depthwise (multipliers from
// runtime/requantization.hpp, computed at compile time, passed by the executor's hook), a residual add,
// global average pooling, reshape, a per-tensor dense layer and softmax. The executor's result must equal
// the same kernels called one by one with multipliers computed at run time, and the compile-time
// multiplier arrays must equal the run-time ones.
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/detail/quantization.hpp>
#include <ctnn/runtime/requantization.hpp>

namespace {

using ctnn::dtype;
using ctnn::make_shape;
using ctnn::op_kind;
using ctnn::tensor_role;

constexpr std::array<std::int8_t, 8 * 3 * 3 * 3> make_weights(std::uint32_t seed, std::size_t n) {
  std::array<std::int8_t, 8 * 3 * 3 * 3> w{};
  std::uint32_t s = seed;
  for (std::size_t i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    w[i] = static_cast<std::int8_t>(static_cast<std::int32_t>(s % 255) - 127);
  }
  return w;
}
inline constexpr auto conv_w = make_weights(1, 8 * 3 * 3 * 3);       // OHWI [8,3,3,3]
inline constexpr auto dw_w = make_weights(2, 3 * 3 * 8);             // [1,3,3,8]
inline constexpr auto fc_w = make_weights(3, 5 * 8);                 // [5,8]
inline constexpr std::int32_t conv_b[8] = {100, -200, 300, -400, 500, -600, 700, -800};
inline constexpr std::int32_t dw_b[8] = {-50, 60, -70, 80, -90, 100, -110, 120};
inline constexpr std::int32_t fc_b[5] = {1000, -1000, 500, 0, -250};
inline constexpr float conv_scales[8] = {0.004f, 0.007f, 0.0031f, 0.01f, 0.0055f, 0.0029f, 0.0083f, 0.0061f};
inline constexpr float dw_scales[8] = {0.02f, 0.011f, 0.017f, 0.009f, 0.025f, 0.013f, 0.03f, 0.015f};

constexpr ctnn::quantization q(float scale, std::int32_t zero_point) {
  ctnn::quantization r{};
  r.scale = scale;
  r.zero_point = zero_point;
  return r;
}
constexpr ctnn::quantization per_channel(const float* scales, std::int32_t channels, std::int32_t axis) {
  ctnn::quantization r{};
  r.scale = scales[0];
  r.scales = scales;
  r.channel_count = channels;
  r.axis = axis;
  return r;
}

// x [1,7,6,3] -> conv 3x3 same relu [1,7,6,8] (a) -> depthwise 3x3 same [1,7,6,8] (b) -> add(a, b) relu (c)
//   -> global average pool [1,1,1,8] -> reshape [1,8] -> dense [1,5] -> softmax [1,5]
struct int8_model {
  static constexpr auto build() {
    ctnn::module<16, 8> m{};
    m.model_name = ctnn::name{"int8_model"};
    const auto add = [&](ctnn::shape dims, dtype type, tensor_role role, ctnn::quantization quant) {
      ctnn::tensor t{};
      t.dims = dims, t.type = type, t.role = role, t.quant = quant;
      return m.add_tensor(t);
    };
    const std::int32_t x = add(make_shape(1, 7, 6, 3), dtype::i8, tensor_role::input, q(0.02f, -5));
    m.tensor_at(x).io_index = 0;
    const std::int32_t cw = add(make_shape(8, 3, 3, 3), dtype::i8, tensor_role::constant, per_channel(conv_scales, 8, 0));
    m.tensor_at(cw).data.i8 = conv_w.data();
    const std::int32_t cb = add(make_shape(8), dtype::i32, tensor_role::constant, {});
    m.tensor_at(cb).data.i32 = conv_b;
    const std::int32_t a = add({}, dtype::i8, tensor_role::intermediate, q(0.05f, -128));
    const std::int32_t dw = add(make_shape(1, 3, 3, 8), dtype::i8, tensor_role::constant, per_channel(dw_scales, 8, 3));
    m.tensor_at(dw).data.i8 = dw_w.data();
    const std::int32_t db = add(make_shape(8), dtype::i32, tensor_role::constant, {});
    m.tensor_at(db).data.i32 = dw_b;
    const std::int32_t b = add({}, dtype::i8, tensor_role::intermediate, q(0.07f, 3));
    const std::int32_t c = add({}, dtype::i8, tensor_role::intermediate, q(0.06f, -128));
    const std::int32_t g = add({}, dtype::i8, tensor_role::intermediate, q(0.06f, -128));
    const std::int32_t r = add({}, dtype::i8, tensor_role::intermediate, q(0.06f, -128));
    const std::int32_t fw = add(make_shape(5, 8), dtype::i8, tensor_role::constant, q(0.01f, 0));
    m.tensor_at(fw).data.i8 = fc_w.data();
    const std::int32_t fb = add(make_shape(5), dtype::i32, tensor_role::constant, {});
    m.tensor_at(fb).data.i32 = fc_b;
    const std::int32_t logits = add({}, dtype::i8, tensor_role::intermediate, q(0.1f, 10));
    const std::int32_t y = add({}, dtype::i8, tensor_role::output, q(1.0f / 256, -128));
    m.tensor_at(y).io_index = 0;
    const auto node = [&](op_kind kind, std::initializer_list<std::int32_t> inputs, std::int32_t output, auto&& attrs) {
      ctnn::node n{};
      n.kind = kind;
      n.inputs.fill(-1);
      for (std::int32_t in : inputs) n.inputs[static_cast<std::size_t>(n.input_count++)] = in;
      n.output = output;
      attrs(n.attrs);
      m.tensor_at(output).producer = m.node_count;
      m.nodes[static_cast<std::size_t>(m.node_count++)] = n;
    };
    node(op_kind::conv2d, {x, cw, cb}, a, [](auto& at) {
      at.win.kernel_h = at.win.kernel_w = 3, at.win.mode = ctnn::padding::same, at.units = 8, at.fused = ctnn::activation::relu;
    });
    node(op_kind::depthwise_conv2d, {a, dw, db}, b, [](auto& at) { at.win.kernel_h = at.win.kernel_w = 3, at.win.mode = ctnn::padding::same; });
    node(op_kind::add, {a, b}, c, [](auto& at) { at.fused = ctnn::activation::relu; });
    node(op_kind::global_avg_pool, {c}, g, [](auto&) {});
    node(op_kind::reshape, {g}, r, [](auto& at) { at.target = make_shape(1, 8); });
    node(op_kind::dense, {r, fw, fb}, logits, [](auto& at) { at.units = 5; });
    node(op_kind::softmax, {logits}, y, [](auto&) {});
    m.inputs[0] = x, m.input_count = 1;
    m.outputs[0] = y, m.output_count = 1;
    return m;
  }
};

using net = ctnn::compile<int8_model>;
constexpr const auto& compiled = ctnn::compiled_v<int8_model>;

static_assert(std::is_same_v<net::input<0>::element_type, std::int8_t> && std::is_same_v<net::output<0>::element_type, std::int8_t>);
static_assert(net::output<0>::elements == 5);
// Per-channel multipliers exist at compile time (the first call is the conv).
static_assert(compiled.calls[0].params.kind == op_kind::conv2d && compiled.calls[0].params.per_channel == 1);
static_assert(ctnn::requantization_v<compiled, 0>.multiplier.size() == 8);
static_assert(ctnn::requantization_v<compiled, 0>.multiplier[0] ==
              ctnn::detail::quant::channel_multiplier(0.02f, conv_scales[0], 0.05f).multiplier);

// The same network, kernel by kernel, with multipliers computed at run time.
template <std::size_t C>
void step(const void* const (&operands)[4], void* out) {
  constexpr ctnn::kernel_params p = compiled.calls[C].params;
  std::vector<std::int32_t> multipliers, shifts;
  ctnn::kernel::requant_arrays rq{};
  if constexpr (p.per_channel != 0) {
    const auto& call = compiled.calls[C];
    const auto& w = compiled.tensor_at(call.operands[1]).quant;
    for (std::int32_t ch = 0; ch < p.out.last(); ++ch) {
      const auto qm = ctnn::detail::quant::channel_multiplier(compiled.tensor_at(call.operands[0]).quant.scale, w.scale_of(ch),
                                                              compiled.tensor_at(call.result).quant.scale);
      multipliers.push_back(qm.multiplier), shifts.push_back(qm.shift);
    }
    rq.multiplier = multipliers.data(), rq.shift = shifts.data();
  }
  ctnn::kernel::invoke<p>(operands, out, rq);
}

}  // namespace

TEST_CASE("an int8 model runs through ctnn::compile and equals its kernels called one by one") {
  static_assert(compiled.call_count == 7 || compiled.call_count == 6);
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> d(-128, 127);
  for (int trial = 0; trial < 20; ++trial) {
    std::int8_t x[7 * 6 * 3];
    for (auto& v : x) v = static_cast<std::int8_t>(d(rng));
    std::int8_t y[5] = {};
    net::run(x, y);

    std::int8_t a[7 * 6 * 8], b[7 * 6 * 8], c[7 * 6 * 8], g[8], logits[5], want[5];
    step<0>({x, conv_w.data(), conv_b, nullptr}, a);
    step<1>({a, dw_w.data(), dw_b, nullptr}, b);
    step<2>({a, b, nullptr, nullptr}, c);
    step<3>({c, nullptr, nullptr, nullptr}, g);
    constexpr std::size_t dense = compiled.call_count == 7 ? 5 : 4;  // the reshape may have become a view
    step<dense>({g, fc_w.data(), fc_b, nullptr}, logits);
    step<dense + 1>({logits, nullptr, nullptr, nullptr}, want);
    CHECK(std::vector<std::int8_t>(y, y + 5) == std::vector<std::int8_t>(want, want + 5));
    int sum = 0;
    for (std::int8_t v : y) sum += v + 128;
    CHECK(sum >= 250);  // softmax: probabilities (1/256 each) add up to about one
    CHECK(sum <= 262);
  }
}

TEST_CASE("the compile-time per-channel multipliers equal the run-time computation") {
  for (std::size_t ch = 0; ch < 8; ++ch) {
    const auto conv = ctnn::detail::quant::channel_multiplier(0.02f, conv_scales[ch], 0.05f);
    CHECK(ctnn::requantization_v<compiled, 0>.multiplier[ch] == conv.multiplier);
    CHECK(ctnn::requantization_v<compiled, 0>.shift[ch] == conv.shift);
    const auto dw = ctnn::detail::quant::channel_multiplier(0.05f, dw_scales[ch], 0.07f);
    CHECK(ctnn::requantization_v<compiled, 1>.multiplier[ch] == dw.multiplier);
    CHECK(ctnn::requantization_v<compiled, 1>.shift[ch] == dw.shift);
  }
  CHECK(ctnn::requantization_of<compiled, 2>().multiplier == nullptr);  // add: everything in kernel_params
}
