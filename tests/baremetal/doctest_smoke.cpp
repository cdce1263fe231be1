// Smoke test of the bare-metal harness: doctest runs on the Cortex-M4 under QEMU, prints through
// semihosting, float maths runs on the FPU, C++20 constexpr algorithms and std::array work, and a
// failed check makes the program (and so qemu) exit with a non-zero status.
//
// The doctest configuration (no exceptions but all asserts, no signals, no threads, no colours) comes
// from ctnn_add_baremetal_executable(). This translation unit owns doctest's implementation and main.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "ctnn_baremetal.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

// Compile-time proof of the target: Thumb-2 Cortex-M4 (Armv7E-M) or Cortex-M33 (Armv8-M Mainline with the
// DSP extension), single-precision FPU, hard-float ABI.
#if !(defined(__thumb2__) && ((__ARM_ARCH == 7 && defined(__ARM_ARCH_7EM__)) || (__ARM_ARCH == 8 && defined(__ARM_ARCH_8M_MAIN__) && defined(__ARM_FEATURE_DSP))))
#error "expected Thumb-2 on Armv7E-M (Cortex-M4) or Armv8-M Mainline with DSP (Cortex-M33)"
#endif
static_assert((__ARM_FP & 0x4) != 0, "single-precision hardware floating point");
#ifndef __ARM_PCS_VFP
#error "expected the hard-float calling convention (-mfloat-abi=hard)"
#endif
static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559);
static_assert(sizeof(void*) == 4);

namespace {

std::uint32_t read_cpacr() { return *reinterpret_cast<volatile const std::uint32_t*>(0xE000ED88u); }

std::uint32_t read_control() {
  std::uint32_t value;
  asm volatile("mrs %0, control" : "=r"(value));
  return value;
}

std::uint32_t read_fpscr() {
  std::uint32_t value;
  asm volatile("vmrs %0, fpscr" : "=r"(value));  // UsageFault (NOCP) if the FPU were disabled
  return value;
}

std::uint32_t read_sp() {
  std::uint32_t value;
  asm volatile("mov %0, sp" : "=r"(value));
  return value;
}

// Kept out of line so that the disassembly shows the FPU instructions (vmul.f32 / vadd.f32 or vfma).
[[gnu::noinline]] float dot(const float* a, const float* b, int n) {
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) {
    sum += a[i] * b[i];
  }
  return sum;
}

[[gnu::noinline]] float multiply_add(float a, float b, float c) { return a * b + c; }

constexpr int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

constexpr std::array<int, 6> sorted_constexpr() {
  std::array<int, 6> values{5, 3, 6, 1, 4, 2};
  std::sort(values.begin(), values.end());  // constexpr in C++20
  return values;
}

}  // namespace

TEST_CASE("float arithmetic") {
  volatile float a = 1.5f;  // volatile: computed at run time, not folded by the compiler
  volatile float b = 2.25f;
  CHECK(a * b == 3.375f);
  CHECK(a + b == 3.75f);
  CHECK(b / a == 1.5f);
  CHECK(multiply_add(a, b, 0.125f) == 3.5f);
  CHECK(std::sqrt(b) == 1.5f);
  CHECK(std::exp(float{a}) == doctest::Approx(4.4816890703f).epsilon(1e-6));
  CHECK(std::tanh(float{a}) == doctest::Approx(0.9051482536f).epsilon(1e-6));
  CHECK(std::fmax(float{a}, float{b}) == 2.25f);
  volatile float big = std::numeric_limits<float>::max();
  CHECK(std::isinf(big * 2.0f));
  volatile float zero = 0.0f;
  CHECK(std::isnan(zero / zero));
}

TEST_CASE("the FPU is enabled and used") {
  // Reset_Handler gave full access to CP10/CP11.
  CHECK(((read_cpacr() >> 20) & 0xFu) == 0xFu);
  const std::array<float, 4> x{1.0f, 2.0f, 3.0f, 4.0f};
  const std::array<float, 4> w{0.5f, -1.0f, 0.25f, 2.0f};
  CHECK(dot(x.data(), w.data(), 4) == 7.25f);
  // CONTROL.FPCA (bit 2) is set by the hardware once an FP instruction has run.
  CHECK((read_control() & 0x4u) != 0);
  // FPSCR: no rounding mode / flush-to-zero surprises (RMode = round to nearest, FZ = 0).
  const std::uint32_t fpscr = read_fpscr();
  CHECK(((fpscr >> 22) & 0x3u) == 0);
  CHECK(((fpscr >> 24) & 0x1u) == 0);
}

TEST_CASE("compile-time evaluation") {
  static_assert(factorial(5) == 120);
  constexpr auto sorted = sorted_constexpr();
  static_assert(sorted == std::array<int, 6>{1, 2, 3, 4, 5, 6});
  static_assert(std::accumulate(sorted.begin(), sorted.end(), 0) == 21);  // constexpr in C++20
  CHECK(sorted.front() == 1);
}

TEST_CASE("std::array algorithms at run time") {
  std::array<float, 8> values{3.0f, -1.0f, 4.0f, 1.0f, -5.0f, 9.0f, 2.0f, 6.0f};
  std::sort(values.begin(), values.end());
  CHECK(std::is_sorted(values.begin(), values.end()));
  CHECK(values.front() == -5.0f);
  CHECK(*std::max_element(values.begin(), values.end()) == 9.0f);
  CHECK(std::accumulate(values.begin(), values.end(), 0.0f) == 19.0f);
  std::array<float, 8> relu{};
  std::transform(values.begin(), values.end(), relu.begin(), [](float v) { return std::max(v, 0.0f); });
  CHECK(std::count(relu.begin(), relu.end(), 0.0f) == 2);
  CHECK(std::inner_product(relu.begin(), relu.end(), relu.begin(), 0.0f) == 147.0f);
}

TEST_CASE("the harness may use the heap") {
  std::vector<int> numbers(1000);
  std::iota(numbers.begin(), numbers.end(), 1);
  CHECK(std::accumulate(numbers.begin(), numbers.end(), 0) == 500500);
  void* block = std::malloc(64 * 1024);
  CHECK(block != nullptr);
  std::free(block);
}

extern "C" std::uint32_t __StackTop[], __StackLimit[], __HeapBase[];  // linker script

TEST_CASE("memory layout of the linker script") {
  // _stack_init (startup) put the stack at the top of RAM, whatever SYS_HEAPINFO said.
  const auto sp = read_sp();
  CHECK(sp < reinterpret_cast<std::uintptr_t>(__StackTop));
  CHECK(sp >= reinterpret_cast<std::uintptr_t>(__StackLimit));
  CHECK(ctnn_baremetal_stack_size() == 64u * 1024u);
  CHECK(ctnn_baremetal_stack_peak() > 0);
  CHECK(ctnn_baremetal_stack_peak() < ctnn_baremetal_stack_size());
  // The heap lies between .bss and the stack, and malloc fails instead of growing into the stack.
  void* block = std::malloc(1024 * 1024);
  REQUIRE(block != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(block) >= reinterpret_cast<std::uintptr_t>(__HeapBase));
  CHECK(reinterpret_cast<std::uintptr_t>(block) + 1024 * 1024 <= reinterpret_cast<std::uintptr_t>(__StackLimit));
  std::free(block);
  void* too_big = std::malloc(4 * 1024 * 1024);
  CHECK(too_big == nullptr);
  std::free(too_big);
}

// Skipped unless doctest runs with --no-skip: checks that a failed check fails the program (qemu exits
// with a non-zero status). Run by the ctest test doctest_smoke_failure_is_reported.
TEST_CASE("deliberate failure" * doctest::skip()) {
  volatile float one = 1.0f;
  CHECK(one + one == 3.0f);
}

int main(int argc, char** argv) {
  std::printf("ctnn bare-metal harness: Armv%d Cortex-M with FPU under semihosting, GCC %s, newlib %s\n", __ARM_ARCH,
              __VERSION__, _NEWLIB_VERSION);
  std::printf("  stack pointer in main: 0x%08lx\n", static_cast<unsigned long>(read_sp()));
  doctest::Context context(argc, argv);
  const int result = context.run();
  std::printf("doctest finished: %s, peak stack use %lu of %lu bytes\n", result == 0 ? "success" : "FAILURE",
              ctnn_baremetal_stack_peak(), ctnn_baremetal_stack_size());
  return result;
}
