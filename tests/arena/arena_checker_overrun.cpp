// The arena checker catches a kernel that writes one byte outside its planned range. int8_net.tflite
// (tests/data/tflite) compiled as usual, then a deliberately wrong plan: the same module with the first
// int8 result in the arena one element (one byte) shorter. The kernels' parameters, and so the bytes the
// kernel of that call writes, are unchanged: its last byte is the first byte after its planned range.
//
//   arena_checker_overrun            runs the wrong plan: passes when ASan reports the write (a
//                                    use-after-poison; tests/arena/CMakeLists.txt)
//   arena_checker_overrun --control  runs the right plan: must finish without a report
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/int8_net.hpp>

namespace {

using net = ctnn::compile<ctnn::models::int8_net>;

// The first call whose result is an int8 tensor of its own in the arena (its kernel writes every byte).
constexpr std::int32_t shortened_call = [] {
  const auto& m = net::module;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const std::int32_t result = m.calls[static_cast<std::size_t>(c)].result;
    const ctnn::tensor& t = m.tensor_at(result);
    if (t.type == ctnn::dtype::i8 && t.role == ctnn::tensor_role::intermediate && t.alias_of < 0 &&
        m.allocations[static_cast<std::size_t>(result)].offset >= 0 && t.dims.elements() > 1)
      return c;
  }
  return std::int32_t{-1};
}();
static_assert(shortened_call >= 0, "int8_net has an int8 intermediate result");

constexpr std::int32_t shortened_tensor = net::module.calls[static_cast<std::size_t>(shortened_call)].result;
constexpr std::int64_t planned_bytes = net::module.tensor_at(shortened_tensor).bytes();

inline constexpr auto wrong_plan = [] {
  auto m = net::module;
  m.tensor_at(shortened_tensor).dims = ctnn::make_shape(planned_bytes - 1);  // one int8 element fewer
  return m;
}();
using wrong = ctnn::executor<wrong_plan>;

template <class Net>
void run_once() {
  std::vector<typename Net::template input<0>::element_type> input(Net::template input<0>::elements);
  using input_type = typename Net::template input<0>::element_type;
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<input_type>(static_cast<float>(static_cast<int>(i % 13) - 6) / 4.0f);
  std::vector<typename Net::template output<0>::element_type> output(Net::template output<0>::elements);
  Net::run(input.data(), output.data());
}

}  // namespace

int main(int argc, char** argv) {
  static_assert(net::input_count == 1 && net::output_count == 1);
  const bool control = argc > 1 && std::strcmp(argv[1], "--control") == 0;
  std::printf("call %d writes %lld bytes at arena offset %lld; the %s plan gives it %lld\n", shortened_call,
              static_cast<long long>(planned_bytes),
              static_cast<long long>(net::module.allocations[static_cast<std::size_t>(shortened_tensor)].offset),
              control ? "right" : "wrong", static_cast<long long>(control ? planned_bytes : planned_bytes - 1));
  std::fflush(stdout);
  if (control) run_once<net>();
  else run_once<wrong>();
  std::printf("finished without a report\n");
  return 0;
}
