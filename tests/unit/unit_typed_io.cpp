// Typed I/O (runtime/typed_io.hpp): net::make_buffers() gives std::arrays of each input's and output's
// element type and count, and net::run(io) gives the same results as the pointer form of run().
#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#ifdef CTNN_MLPERF_KWS
#include <ctnn/models/kws.hpp>
#else
#include <ctnn/models/int8_net.hpp>
#endif

#include "test_modules.hpp"

namespace {

// Every element type's size is its C++ type's, and the I/O buffers are made of those types.
template <ctnn::dtype... Types>
constexpr bool sizes_agree() {
  return ((ctnn::size_of(Types) == sizeof(ctnn::element_t<Types>)) && ...);
}
static_assert(sizes_agree<ctnn::dtype::f32, ctnn::dtype::i8, ctnn::dtype::u8, ctnn::dtype::i32, ctnn::dtype::i64, ctnn::dtype::i16>());
static_assert(std::is_same_v<ctnn::element_t<ctnn::dtype::i16>, std::int16_t> && ctnn::i16 == ctnn::dtype::i16);

using floats = ctnn::compile<ctnn_test::two_io_graph>;
using io_of_floats = decltype(floats::make_buffers());
static_assert(std::is_same_v<io_of_floats::inputs_type, std::tuple<std::array<float, 8>, std::array<float, 8>>>);
static_assert(std::is_same_v<io_of_floats::outputs_type, std::tuple<std::array<float, 8>, std::array<float, 8>>>);

// A TFLite model with quantized layers and float32 input and output (quantize / dequantize inside);
// with CTNN_MLPERF_KWS, MLPerf Tiny's KWS model, whose input and output are int8.
#ifdef CTNN_MLPERF_KWS
using quantized = ctnn::compile<ctnn::models::kws>;
using element = std::int8_t;
#else
using quantized = ctnn::compile<ctnn::models::int8_net>;
using element = float;
#endif
static_assert(std::is_same_v<quantized::input<0>::element_type, element> && std::is_same_v<quantized::output<0>::element_type, element>);
using io_of_quantized = decltype(quantized::make_buffers());
static_assert(std::is_same_v<std::tuple_element_t<0, io_of_quantized::inputs_type>, std::array<element, quantized::input<0>::elements>>);
static_assert(std::is_same_v<std::tuple_element_t<0, io_of_quantized::outputs_type>, std::array<element, quantized::output<0>::elements>>);
static_assert(std::tuple_size_v<io_of_quantized::outputs_type> == quantized::output_count);

// With io_in_arena the tensors live in the pools: no buffers.
using in_arena = ctnn::compile<ctnn_test::two_io_graph, ctnn::io_in_arena>;
static_assert(std::tuple_size_v<decltype(in_arena::make_buffers())::inputs_type> == 0 &&
              std::tuple_size_v<decltype(in_arena::make_buffers())::outputs_type> == 0);

TEST_CASE("run(io) on typed buffers equals run on pointers (float32, two inputs and two outputs)") {
  auto io = floats::make_buffers();
  std::array<float, 8> x{}, y{}, p{}, t{};
  for (std::size_t i = 0; i < 8; ++i) {
    x[i] = 0.25f * static_cast<float>(i) - 1.0f;
    y[i] = 0.5f - 0.125f * static_cast<float>(i);
  }
  io.input<0>() = x;
  std::get<1>(io.inputs) = y;
  floats::run(io);
  floats::run(x.data(), y.data(), p.data(), t.data());
  CHECK(io.output<0>() == p);
  CHECK(io.output<1>() == t);
  CHECK(p != std::array<float, 8>{});  // the model computed something
}

TEST_CASE("run(io) on typed buffers equals run on pointers (a quantized model)") {
  auto io = quantized::make_buffers();
  auto& in = io.input<0>();
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<element>(static_cast<int>(i * 37 % 255) - 127);
  std::array<element, quantized::output<0>::elements> expected{};
  quantized::run(in.data(), expected.data());
  quantized::run(io);
  CHECK(io.output<0>() == expected);
}

}  // namespace
