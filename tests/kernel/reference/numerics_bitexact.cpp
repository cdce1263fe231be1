// int8 results that must not depend on the compiler or its optimisation level (issue #12): built with g++
// and clang at -O0, -O2 and -Os (tests/kernel/reference/CMakeLists.txt), each build prints the same lines, which
// tests/kernel/reference/check_bitexact.cmake compares with tests/kernel/reference/data/numerics_bitexact.txt:
//   * the int8 model tests/data/tflite/int8_net.tflite (QUANTIZE, per-channel CONV_2D and DEPTHWISE_CONV_2D,
//     AVERAGE_POOL_2D, FULLY_CONNECTED, SOFTMAX, DEQUANTIZE) through ctnn::compile on 64 inputs: the bits of
//     every output (the dequantized int8 softmax, exact multiples of 1/256);
//   * TFLite's requantization (MultiplyByQuantizedMultiplier) over int32's ends and shifts -31..30, the int8
//     softmax over equal and extreme logits, ONNX's float-scale quantization: an FNV-1a digest of each sweep.
// The executor runs the host's vectorised int8 kernels; the sweeps run the reference arithmetic.
#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>

#include <ctnn/ctnn.hpp>
#include <ctnn/detail/quantization.hpp>
#include <ctnn/kernel/reference/int8/softmax.hpp>
#include <ctnn/kernel/reference/onnx_quant/rounding.hpp>
#include <ctnn/models/int8_net.hpp>

namespace {

namespace q = ctnn::detail::quant;

struct digest {
  std::uint32_t h = 2166136261u;
  void add(std::uint32_t v) {
    for (int k = 0; k < 4; ++k) h = (h ^ ((v >> (8 * k)) & 0xffu)) * 16777619u;
  }
};

// A deterministic xorshift32 stream.
struct stream {
  std::uint32_t s = 2463534242u;
  std::uint32_t next() {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    return s;
  }
};

using net = ctnn::compile<ctnn::models::int8_net>;

void model_outputs() {
  stream r{};
  float input[net::input<0>::elements];
  float output[net::output<0>::elements];
  for (int sample = 0; sample < 64; ++sample) {
    for (float& x : input) x = static_cast<float>(static_cast<std::int32_t>(r.next() % 2001u) - 1000) / 1000.0f * (1 + sample % 3);
    net::run(input, output);
    std::printf("int8_net %2d:", sample);
    for (const float y : output) std::printf(" %08x", static_cast<unsigned>(std::bit_cast<std::uint32_t>(y)));
    std::printf("\n");
  }
}

void requantization_sweep() {
  constexpr std::int32_t lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
  stream r{};
  digest d{};
  for (std::int32_t shift = -31; shift <= 30; ++shift)
    for (const std::int32_t multiplier : {1 << 30, 1518500250, 2005050505, hi})
      for (int k = 0; k < 64; ++k) {
        const std::int32_t x = k == 0 ? lo : k == 1 ? hi : k == 2 ? 0 : static_cast<std::int32_t>(r.next()) >> (k % 31);
        d.add(static_cast<std::uint32_t>(q::multiply_by_quantized_multiplier(x, multiplier, shift)));
      }
  std::printf("requantization %08x\n", static_cast<unsigned>(d.h));
}

void softmax_sweep() {
  digest d{};
  stream r{};
  for (const float scale : {0.004f, 0.05f, 0.25f, 1.0f, 16.0f}) {
    ctnn::kernel_params p{};
    p.in = p.out = ctnn::make_shape(4, 10);
    const q::quantized_multiplier m = q::softmax_input_multiplier(1.0, static_cast<double>(scale), 5);
    p.input_multiplier = m.multiplier, p.input_shift = m.shift, p.output_offset = -128;
    std::array<std::int8_t, 40> x{}, y{};
    for (std::size_t c = 0; c < 10; ++c) {
      x[c] = 7;                                                      // equal logits
      x[10 + c] = c == 4 ? 127 : -128;                               // one extreme logit
      x[20 + c] = static_cast<std::int8_t>(c % 2 == 0 ? 127 : -128);  // two levels
      x[30 + c] = static_cast<std::int8_t>(r.next() & 0xffu);
    }
    ctnn::kernel::reference::int8::softmax(&p, x.data(), y.data());
    for (const std::int8_t v : y) d.add(static_cast<std::uint8_t>(v));
  }
  std::printf("softmax %08x\n", static_cast<unsigned>(d.h));
}

void onnx_quantization_sweep() {
  namespace onnx_quant = ctnn::kernel::reference::onnx_quant;
  digest d{};
  stream r{};
  for (int k = 0; k < 4096; ++k) {
    const float x = std::bit_cast<float>(r.next());  // every binade, NaN and infinities included
    const float scale = static_cast<float>(1 + r.next() % 1000) / 4096.0f;
    d.add(static_cast<std::uint8_t>(onnx_quant::quantize_value<std::int8_t>(x, scale, static_cast<std::int32_t>(r.next() % 256) - 128)));
    d.add(onnx_quant::quantize_value<std::uint8_t>(x, scale, static_cast<std::int32_t>(r.next() % 256)));
  }
  std::printf("onnx_quantization %08x\n", static_cast<unsigned>(d.h));
}

}  // namespace

int main() {
  model_outputs();
  requantization_sweep();
  softmax_sweep();
  onnx_quantization_sweep();
  return 0;
}
