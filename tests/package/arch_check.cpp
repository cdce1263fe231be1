// Built by the package_find_package consumer with ctnn_add_model(... ARCH x86-64-v2): the flag reaches the
// model target's compile, so ctnn's native target has the SSE4.1 int8 kernels (the x86-64 baseline has
// none: docs/install.md). Runs the model once on zeros.
#include <array>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/conv_net.hpp>

static_assert(ctnn::targets::native::isa >= ctnn::instruction_set::x86_sse4_1 &&
                  ctnn::targets::native::isa <= ctnn::instruction_set::x86_avx512_vnni,
              "ctnn_add_model(... ARCH x86-64-v2) did not give this target -march=x86-64-v2");

using net = ctnn::compile<ctnn::models::conv_net>;

int main() {
  static std::array<net::input<0>::element_type, net::input<0>::elements> input{};
  static std::array<net::output<0>::element_type, net::output<0>::elements> output{};
  net::run(input.data(), output.data());
  return 0;
}
