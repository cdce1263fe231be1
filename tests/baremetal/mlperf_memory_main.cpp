// An MLPerf Tiny int8 model (CTNN_MLPERF_MODEL, embedded by ctnn_add_model) compiled by ctnn for the
// Cortex-M4 with the memory options that reach its goal (ctnn::memory_reuse + ctnn::io_in_arena), and
// with in-place convolutions on top (ctnn::in_place_windows: below the liveness bound of the plan
// without them where CTNN_BELOW_BOUND is 1), both run under qemu on the TFLM reference cases (embedded
// by embed_refs.cmake): the outputs must equal TFLM's bit for bit, and the plans must meet the issue's
// goals, which the program checks at compile time (static_assert on the executors' own figures) and
// prints as one JSON line per option set:
//   {"model": ..., "target": "cortex-m4", "options": ..., "arena_bytes": ..., "scratch_bytes": ...,
//    "io_bytes_outside": ..., "total_ram": ..., "lower_bound": ..., "tflm_arena": ..., "tvm_usmp": ..., "goal": ...}
// total_ram is what TFLM's arena counts: the pools (activations, inputs and outputs placed there, and the
// kernels' scratch) plus the inputs and outputs kept in the caller's buffers.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <ctnn/ctnn.hpp>
#include <ctnn/models/mlperf_model.hpp>

#include "ctnn_baremetal.h"
#include "mlperf_refs.hpp"

#define CTNN_STRINGIZE2(x) #x
#define CTNN_STRINGIZE(x) CTNN_STRINGIZE2(x)

namespace {

using net = ctnn::compile<ctnn::models::mlperf_model, ctnn::memory_reuse, ctnn::io_in_arena>;
using in_place = ctnn::compile<ctnn::models::mlperf_model, ctnn::memory_reuse, ctnn::io_in_arena, ctnn::in_place_windows>;
using plain = ctnn::compile<ctnn::models::mlperf_model>;  // default options: figures only (never run)

static_assert(net::total_ram_bytes <= CTNN_GOAL_BYTES,
              "the plan misses the issue's RAM goal for this model on the Cortex-M4 (see the JSON line it prints)");
static_assert(in_place::total_ram_bytes <= net::total_ram_bytes, "in-place convolutions never make the plan larger");
static_assert(!CTNN_BELOW_BOUND || (in_place::total_ram_bytes < CTNN_LOWER_BOUND_BYTES && in_place::total_ram_bytes < net::total_ram_bytes),
              "with in-place convolutions this model's plan should go below its liveness lower bound (see the JSON lines)");
static_assert(net::input<0>::bytes == mlperf_refs::input_bytes && net::output<0>::bytes == mlperf_refs::output_bytes,
              "the reference cases do not match the model's interface");

// Runs Net on the reference cases; returns how many give TFLM's outputs.
template <class Net>
unsigned equal_cases(const char* options) {
  unsigned equal = 0;
  for (std::size_t k = 0; k < mlperf_refs::case_count; ++k) {
    std::memcpy(Net::template input<0>::data(), mlperf_refs::input[k], Net::template input<0>::bytes);
    Net::run();
    const bool same = std::memcmp(Net::template output<0>::data(), mlperf_refs::output[k], Net::template output<0>::bytes) == 0;
    std::printf("%s case %u: %s\n", options, static_cast<unsigned>(k), same ? "equal to TFLM" : "DIFFERS from TFLM");
    equal += same ? 1 : 0;
  }
  return equal;
}

template <class Net>
constexpr int calls_in_place() {  // calls whose result was placed over their input (reference kernels)
  int count = 0;
  for (std::int32_t c = 0; c < Net::module.call_count; ++c) count += Net::module.calls[static_cast<std::size_t>(c)].params.in_place;
  return count;
}

template <class Net>
constexpr long scratch_bytes() {  // the kernels' scratch, planned in the pools with the activations
  long total = 0;
  for (std::int32_t c = 0; c < Net::module.call_count; ++c) total += static_cast<long>(Net::module.scratch_bytes[static_cast<std::size_t>(c)]);
  return total;
}

template <class Net>
void print_figures(const char* options) {
  std::printf("{\"model\": \"%s\", \"target\": \"cortex-m4\", \"options\": \"%s\", \"arena_bytes\": %lu, \"scratch_bytes\": %ld, "
              "\"io_bytes_outside\": %ld, \"total_ram\": %lu, \"lower_bound\": %lu, \"in_place_ops\": %d, \"calls_in_place\": %d, "
              "\"tflm_arena\": %ld, \"tvm_usmp\": %ld, \"goal\": %ld}\n",
              CTNN_STRINGIZE(CTNN_MLPERF_MODEL), options, static_cast<unsigned long>(Net::arena_bytes), scratch_bytes<Net>(),
              static_cast<long>(Net::module.io_bytes_outside), static_cast<unsigned long>(Net::total_ram_bytes),
              static_cast<unsigned long>(Net::liveness_lower_bound), static_cast<int>(Net::module.in_place_ops), calls_in_place<Net>(),
              static_cast<long>(CTNN_TFLM_ARENA_BYTES), static_cast<long>(CTNN_TVM_USMP_BYTES), static_cast<long>(CTNN_GOAL_BYTES));
}

}  // namespace

int main() {
  const unsigned equal = equal_cases<net>("reuse+io");
  const unsigned equal_in_place = equal_cases<in_place>("reuse+io+win");
  print_figures<plain>("-");
  print_figures<net>("reuse+io");
  print_figures<in_place>("reuse+io+win");
  std::printf("summary: %u/%u cases equal to TFLM, %u/%u with in-place convolutions; peak stack %lu bytes\n", equal,
              static_cast<unsigned>(mlperf_refs::case_count), equal_in_place, static_cast<unsigned>(mlperf_refs::case_count),
              ctnn_baremetal_stack_peak());
  return equal == mlperf_refs::case_count && equal_in_place == mlperf_refs::case_count && net::total_ram_bytes <= CTNN_GOAL_BYTES ? 0 : 1;
}
