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

int main() {
  std::printf("ctnn %d.%d.%d\n", static_cast<int>(ctnn::version_major), static_cast<int>(ctnn::version_minor),
              static_cast<int>(ctnn::version_patch));
  return 0;
}
