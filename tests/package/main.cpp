// The package tests' consumer program (consumer/ and subdirectory_consumer/ build it): it includes the
// umbrella header the way a user does and checks something real through it.
#include <ctnn/ctnn.hpp>

#include <cstdio>

static_assert(ctnn::version_major == 0);
#if defined(CTNN_EXPECTED_VERSION_MAJOR)
static_assert(ctnn::version_major == CTNN_EXPECTED_VERSION_MAJOR &&
                  ctnn::version_minor == CTNN_EXPECTED_VERSION_MINOR &&
                  ctnn::version_patch == CTNN_EXPECTED_VERSION_PATCH,
              "ctnn's headers and its CMake project disagree on the version");
#endif

// A tiny model compiled through the installed (or added) package: y = relu(W x + b) with W = [[1, -1],
// [2, 0.5]], b = [0.5, -4]; for x = [3, 1]: relu([2.5, 2.5]) = [2.5, 2.5], for x = [1, 3]: relu([-1.5, -0.5]) = [0, 0].
inline constexpr float weights[2 * 2] = {1.0f, -1.0f, 2.0f, 0.5f};
inline constexpr float bias[2] = {0.5f, -4.0f};
using tiny = ctnn::dsl::sequential<ctnn::dsl::input<ctnn::f32, 1, 2>, ctnn::dsl::dense<weights, bias, ctnn::dsl::relu>>;
using net = ctnn::compile<tiny>;
static_assert(net::output<0>::elements == 2);

int main() {
  std::printf("ctnn %d.%d.%d\n", static_cast<int>(ctnn::version_major), static_cast<int>(ctnn::version_minor),
              static_cast<int>(ctnn::version_patch));
  const float a[2] = {3.0f, 1.0f}, b[2] = {1.0f, 3.0f};
  float ya[2] = {-1.0f, -1.0f}, yb[2] = {-1.0f, -1.0f};
  net::run(a, ya);
  net::run(b, yb);
  const bool ok = ya[0] == 2.5f && ya[1] == 2.5f && yb[0] == 0.0f && yb[1] == 0.0f;
  std::printf("tiny model: [%g, %g] [%g, %g] %s\n", static_cast<double>(ya[0]), static_cast<double>(ya[1]),
              static_cast<double>(yb[0]), static_cast<double>(yb[1]), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
