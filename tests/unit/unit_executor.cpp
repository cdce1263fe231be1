// Unit tests of runtime/executor.hpp: its compile-time members, run vs run_with_arena, re-entrancy
// with caller arenas (interleaved and on two threads), that nothing is written outside
// [0, arena_bytes) of a caller arena, and results against independent computations written here.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>

#include "test_modules.hpp"

namespace {

using tiny_net = ctnn::compile<ctnn_test::tiny_cnn>;
using graph_net = ctnn::compile<ctnn_test::small_graph>;
using io_net = ctnn::compile<ctnn_test::two_io_graph>;
using no_arena_net = ctnn::compile<ctnn::dsl::sequential<ctnn::dsl::input<ctnn::f32, 1, 5>, ctnn::dsl::tanh>>;

// ---------------------------------------------------------------------------------------------------
// Constants copied out of a model file's little-endian bytes (runtime/packed_operands.hpp): floats and
// int32 with the sign bit set in their last byte, bytes >= 0x80 elsewhere, and a slice at an odd offset.
inline constexpr char file_bytes[] =
    "\x00\x00\x80\x3f"   // 1.0f
    "\x00\x00\x20\xc0"   // -2.5f
    "\xdb\x0f\x49\x40"   // 3.14159274f
    "\x01\x00\x00\x80"   // int32 0x80000001
    "\xff\xfe\xfd\x7f";  // int32 0x7ffdfeff
constexpr std::size_t f32_type = static_cast<std::size_t>(ctnn::dtype::f32);
constexpr std::size_t i32_type = static_cast<std::size_t>(ctnn::dtype::i32);
constexpr const auto& floats = ctnn::file_constant_v<ctnn::file_slice{file_bytes, 0, 3, f32_type}>.values;
static_assert(floats[0] == 1.0f && floats[1] == -2.5f && floats[2] == 3.14159274f);
constexpr const auto& words = ctnn::file_constant_v<ctnn::file_slice{file_bytes, 12, 2, i32_type}>.values;
static_assert(words[0] == static_cast<std::int32_t>(0x80000001u) && words[1] == 0x7ffdfeff);
static_assert(ctnn::file_constant_v<ctnn::file_slice{file_bytes, 13, 1, i32_type}>.values[0] == static_cast<std::int32_t>(0xff800000u));

// ---------------------------------------------------------------------------------------------------
// Compile-time members.
static_assert(&tiny_net::module == &ctnn::compiled_v<ctnn_test::tiny_cnn>);
// Four calls: alias_reshapes made the flatten a view of the pool's result.
static_assert(tiny_net::input_count == 1 && tiny_net::output_count == 1 && tiny_net::call_count == 4);
static_assert(tiny_net::arena_bytes == 720 && tiny_net::arena_alignment == 16 && tiny_net::liveness_lower_bound == 720);
static_assert(tiny_net::input<0>::dims == ctnn::make_shape(1, 6, 6, 3) && tiny_net::input<0>::elements == 108 &&
              tiny_net::input<0>::bytes == 432 && tiny_net::input<0>::type == ctnn::dtype::f32);
static_assert(std::is_same_v<tiny_net::input<0>::element_type, float>);
static_assert(tiny_net::input<0>::name == "input" && tiny_net::output<0>::name == "softmax_4");
static_assert(tiny_net::output<0>::dims == ctnn::make_shape(1, 3) && tiny_net::output<0>::elements == 3 &&
              tiny_net::output<0>::bytes == 12);

static_assert(io_net::input_count == 2 && io_net::output_count == 2 && io_net::call_count == 3 && io_net::arena_bytes == 32);
static_assert(io_net::input<0>::name == "x" && io_net::input<1>::name == "y");
static_assert(io_net::output<0>::name == "p" && io_net::output<1>::name == "t");
static_assert(io_net::output<1>::elements == 8);
static_assert(graph_net::arena_bytes == 512 && graph_net::output<0>::dims == ctnn::make_shape(1, 1, 1, 4));
static_assert(no_arena_net::arena_bytes == 0 && no_arena_net::liveness_lower_bound == 0);

// input<I> / output<I> exist only for I below the counts.
template <class Net, std::size_t I>
concept has_input = requires { typename Net::template input<I>; };
template <class Net, std::size_t I>
concept has_output = requires { typename Net::template output<I>; };
static_assert(has_input<tiny_net, 0> && !has_input<tiny_net, 1> && has_output<tiny_net, 0> && !has_output<tiny_net, 1>);
static_assert(has_input<io_net, 1> && !has_input<io_net, 2> && has_output<io_net, 1> && !has_output<io_net, 2>);

// ---------------------------------------------------------------------------------------------------
// A caller arena with guard bytes on both sides.
struct guarded_arena {
  static constexpr std::size_t guard = 64;
  static constexpr std::byte pattern{0xA5};
  std::vector<std::byte> storage;
  std::size_t used;
  std::size_t base;

  explicit guarded_arena(std::size_t bytes, std::byte fill = pattern) : used(bytes) {
    storage.assign(bytes + 3 * guard, pattern);
    // Align the arena start to 64 (a multiple of every arena_alignment used here).
    const auto address = reinterpret_cast<std::uintptr_t>(storage.data() + guard);
    base = guard + static_cast<std::size_t>((64 - address % 64) % 64);
    for (std::size_t i = 0; i < used; ++i) storage[base + i] = fill;
  }
  std::byte* arena() { return storage.data() + base; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < base; ++i)
      if (storage[i] != pattern) return false;
    for (std::size_t i = base + used; i < storage.size(); ++i)
      if (storage[i] != pattern) return false;
    return true;
  }
  std::size_t bytes_changed() const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < used; ++i) n += storage[base + i] != pattern ? 1 : 0;
    return n;
  }
};

bool same_bits(const float* a, const float* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(float)) == 0; }

// ---------------------------------------------------------------------------------------------------
TEST_CASE("run and run_with_arena give identical results") {
  for (std::uint32_t seed = 1; seed <= 5; ++seed) {
    const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, seed);
    float a[3], b[3];
    tiny_net::run(x.data(), a);
    alignas(16) std::byte arena[tiny_net::arena_bytes];
    tiny_net::run_with_arena(arena, x.data(), b);
    CAPTURE(seed);
    CHECK(same_bits(a, b, 3));
    // A softmax output: positive, sums to 1.
    CHECK(a[0] > 0.0f);
    CHECK(std::fabs(a[0] + a[1] + a[2] - 1.0f) <= 1e-6f);
    // run() again (its static arena now holds the previous inference) gives the same bits.
    float c[3];
    tiny_net::run(x.data(), c);
    CHECK(same_bits(a, c, 3));
  }
}

TEST_CASE("the result does not depend on the arena's previous contents; inputs stay unchanged") {
  const auto x = ctnn_test::random_floats(graph_net::input<0>::elements, 77);
  const auto x_before = x;
  guarded_arena zeros{graph_net::arena_bytes, std::byte{0}}, nans{graph_net::arena_bytes, std::byte{0xFF}};
  float a[4], b[4];
  for (auto& v : b) v = std::numeric_limits<float>::quiet_NaN();
  graph_net::run_with_arena(zeros.arena(), x.data(), a);
  graph_net::run_with_arena(nans.arena(), x.data(), b);
  CHECK(same_bits(a, b, 4));
  for (float v : b) CHECK(std::isfinite(v));
  CHECK(x == x_before);
}

TEST_CASE("the executor writes nothing outside [0, arena_bytes) of a caller arena") {
  {
    guarded_arena g{tiny_net::arena_bytes};
    const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, 5);
    float out[3];
    tiny_net::run_with_arena(g.arena(), x.data(), out);
    CHECK(g.guards_intact());
    CHECK(g.bytes_changed() > tiny_net::arena_bytes / 2);  // the arena really was used
  }
  {
    guarded_arena g{graph_net::arena_bytes};
    const auto x = ctnn_test::random_floats(graph_net::input<0>::elements, 6);
    float out[4];
    graph_net::run_with_arena(g.arena(), x.data(), out);
    CHECK(g.guards_intact());
    CHECK(g.bytes_changed() > graph_net::arena_bytes / 2);
  }
  {
    guarded_arena g{io_net::arena_bytes};
    const auto x = ctnn_test::random_floats(8, 7), y = ctnn_test::random_floats(8, 8);
    float p[8], t[8];
    io_net::run_with_arena(g.arena(), x.data(), y.data(), p, t);
    CHECK(g.guards_intact());
  }
}

// run_with_arena takes any writable byte-like arena (executor::arena_ref); read-only or wider element types
// are refused by overload resolution (a too small array: tests/compile_fail/arena_too_small.cpp).
using tiny_arena = tiny_net::arena_ref;
static_assert(std::is_convertible_v<void*, tiny_arena> && std::is_convertible_v<unsigned char*, tiny_arena> &&
              std::is_convertible_v<std::uint8_t*, tiny_arena> && std::is_convertible_v<char*, tiny_arena> &&
              std::is_convertible_v<std::byte*, tiny_arena> && std::is_convertible_v<std::byte* const&, tiny_arena> &&
              std::is_convertible_v<unsigned char (&)[tiny_net::arena_bytes], tiny_arena> &&
              std::is_convertible_v<std::nullptr_t, tiny_arena>);
static_assert(!std::is_convertible_v<const void*, tiny_arena> && !std::is_convertible_v<const std::byte*, tiny_arena> &&
              !std::is_convertible_v<const unsigned char (&)[tiny_net::arena_bytes], tiny_arena> &&
              !std::is_convertible_v<float*, tiny_arena> && !std::is_convertible_v<std::int8_t*, tiny_arena> &&
              !std::is_convertible_v<std::uint32_t (&)[tiny_net::arena_bytes], tiny_arena>);

TEST_CASE("run_with_arena takes void*, unsigned char*, std::uint8_t*, char* and aligned byte arrays alike") {
  const auto x = ctnn_test::random_floats(tiny_net::input<0>::elements, 11);
  float expected[3];
  tiny_net::run(x.data(), expected);
  const auto check = [&](auto arena) {
    float out[3] = {};
    tiny_net::run_with_arena(arena, x.data(), out);
    CHECK(same_bits(expected, out, 3));
  };
  guarded_arena g{tiny_net::arena_bytes};
  check(static_cast<void*>(g.arena()));
  check(reinterpret_cast<unsigned char*>(g.arena()));
  check(reinterpret_cast<std::uint8_t*>(g.arena()));
  check(reinterpret_cast<char*>(g.arena()));
  CHECK(g.guards_intact());
  alignas(tiny_net::arena_alignment) unsigned char bytes[tiny_net::arena_bytes];
  float out[3] = {};
  tiny_net::run_with_arena(bytes, x.data(), out);
  CHECK(same_bits(expected, out, 3));
  alignas(tiny_net::arena_alignment) std::uint8_t larger[tiny_net::arena_bytes + 64];
  tiny_net::run_with_arena(larger, x.data(), out);
  CHECK(same_bits(expected, out, 3));
}

TEST_CASE("a model without intermediates needs no arena") {
  const float x[5] = {-2.0f, -0.5f, 0.0f, 0.5f, 2.0f};
  float out[5];
  no_arena_net::run_with_arena(nullptr, x, out);
  for (int i = 0; i < 5; ++i) CHECK(std::fabs(out[i] - std::tanh(x[i])) <= 1e-6f);
}

TEST_CASE("run_with_arena is re-entrant: two arenas interleaved") {
  const auto x1 = ctnn_test::random_floats(tiny_net::input<0>::elements, 11);
  const auto x2 = ctnn_test::random_floats(tiny_net::input<0>::elements, 12);
  float want1[3], want2[3];
  tiny_net::run(x1.data(), want1);
  tiny_net::run(x2.data(), want2);
  REQUIRE_FALSE(same_bits(want1, want2, 3));
  guarded_arena a{tiny_net::arena_bytes}, b{tiny_net::arena_bytes};
  float o1[3], o2[3], o3[3], o4[3];
  tiny_net::run_with_arena(a.arena(), x1.data(), o1);
  tiny_net::run_with_arena(b.arena(), x2.data(), o2);
  tiny_net::run_with_arena(a.arena(), x2.data(), o3);  // arena a last held x1's intermediates
  tiny_net::run_with_arena(b.arena(), x1.data(), o4);
  CHECK(same_bits(o1, want1, 3));
  CHECK(same_bits(o2, want2, 3));
  CHECK(same_bits(o3, want2, 3));
  CHECK(same_bits(o4, want1, 3));
}

TEST_CASE("run_with_arena is re-entrant: two threads, each with its own arena") {
  constexpr int inputs = 4, rounds = 300;
  std::vector<std::vector<float>> x;
  std::vector<std::array<float, 3>> want(inputs);
  for (int i = 0; i < inputs; ++i) {
    x.push_back(ctnn_test::random_floats(tiny_net::input<0>::elements, 100 + static_cast<std::uint32_t>(i)));
    tiny_net::run(x.back().data(), want[static_cast<std::size_t>(i)].data());
  }
  int mismatches[2] = {0, 0};
  const auto worker = [&](int id) {
    guarded_arena g{tiny_net::arena_bytes};
    for (int r = 0; r < rounds; ++r) {
      const int which = (r + id) % inputs;
      float out[3];
      tiny_net::run_with_arena(g.arena(), x[static_cast<std::size_t>(which)].data(), out);
      if (!same_bits(out, want[static_cast<std::size_t>(which)].data(), 3)) ++mismatches[id];
    }
    if (!g.guards_intact()) ++mismatches[id];
  };
  std::thread t0{worker, 0}, t1{worker, 1};
  t0.join();
  t1.join();
  CHECK(mismatches[0] == 0);
  CHECK(mismatches[1] == 0);
}

// ---------------------------------------------------------------------------------------------------
// Results against independent computations.
TEST_CASE("two inputs, two outputs: buffers bound in the order of outputs<>") {
  // s = x + y, t = relu(s) (output 1), p = s * y (output 0). One float operation each: exact.
  const auto x = ctnn_test::random_floats(8, 21), y = ctnn_test::random_floats(8, 22);
  float p[8], t[8];
  io_net::run(x.data(), y.data(), p, t);
  for (std::size_t i = 0; i < 8; ++i) {
    const float s = x[i] + y[i];
    CAPTURE(i);
    CHECK(p[i] == s * y[i]);
    CHECK(t[i] == (s > 0.0f ? s : 0.0f));
  }
}

TEST_CASE("the graph model matches a double-precision computation") {
  // a = conv1x1(x) + bias, b = relu(a), c = a + b, d = concat(c, b) on channels, out = mean of d.
  // Tolerance: relative 1e-5 of the mean magnitude per channel.
  const auto x = ctnn_test::random_floats(graph_net::input<0>::elements, 31, -2.0f, 2.0f);
  float out[4];
  graph_net::run(x.data(), out);
  double sum[4] = {}, magnitude[4] = {};
  for (std::size_t pixel = 0; pixel < 16; ++pixel) {
    double a[2], b[2];
    for (std::size_t oc = 0; oc < 2; ++oc) {
      a[oc] = ctnn_test::graph_conv_b[oc];
      for (std::size_t ic = 0; ic < 2; ++ic) a[oc] += static_cast<double>(ctnn_test::graph_conv_w[oc * 2 + ic]) * x[pixel * 2 + ic];
      b[oc] = a[oc] > 0 ? a[oc] : 0;
    }
    const double d[4] = {a[0] + b[0], a[1] + b[1], b[0], b[1]};
    for (std::size_t ch = 0; ch < 4; ++ch) {
      sum[ch] += d[ch];
      magnitude[ch] += std::fabs(d[ch]);
    }
  }
  for (std::size_t ch = 0; ch < 4; ++ch) {
    const double want = sum[ch] / 16;
    CAPTURE(ch);
    CHECK(std::fabs(out[ch] - want) <= 1e-5 * std::max(std::fabs(want), magnitude[ch] / 16));
  }
}

// ---------------------------------------------------------------------------------------------------
// Known bugs (see the report and unit_dsl.cpp): what the executor computes for them.
using output_is_input_net = ctnn::compile<ctnn::dsl::graph<ctnn::dsl::outputs<"x", "y">,
                                                           ctnn::dsl::node<"x", ctnn::dsl::input<ctnn::f32, 1, 2>>,
                                                           ctnn::dsl::node<"y", ctnn::dsl::relu, "x">>>;
TEST_CASE("a graph output that names the input: outputs are the input and relu(input)") {
  const float in[2] = {-1.0f, 2.0f};
  float o0[2] = {7.0f, -7.0f}, o1[2] = {9.0f, 9.0f};
  output_is_input_net::run(in, o0, o1);
  CHECK(o0[0] == -1.0f);
  CHECK(o0[1] == 2.0f);
  CHECK(o1[0] == 0.0f);
  CHECK(o1[1] == 2.0f);
}

using output_twice_net = ctnn::compile<ctnn::dsl::graph<ctnn::dsl::outputs<"y", "y">,
                                                        ctnn::dsl::node<"x", ctnn::dsl::input<ctnn::f32, 1, 2>>,
                                                        ctnn::dsl::node<"y", ctnn::dsl::relu, "x">>>;
TEST_CASE("an output named twice is written to both output buffers") {
  const float in[2] = {-1.0f, 2.0f};
  float o0[2] = {7.0f, 7.0f}, o1[2] = {9.0f, 9.0f};
  output_twice_net::run(in, o0, o1);
  CHECK(o1[0] == 0.0f);
  CHECK(o1[1] == 2.0f);
  CHECK(o0[0] == 0.0f);
  CHECK(o0[1] == 2.0f);
}

}  // namespace
