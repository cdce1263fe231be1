// One model file embedded by ctnn_add_model as ctnn::models::bench_model (a .tflite, or an .onnx once the
// ONNX importer exists), compiled by ctnn::compile with the default pipeline and timed whole and call by
// call (model_benchmark.hpp). One translation unit per model (benchmarks/kernels/CMakeLists.txt):
//   CTNN_BENCH_MODEL        the model's name, as run.py reports it
//   CTNN_BENCH_REFS         the folder of its reference cases: input_<k>.bin and CTNN_BENCH_OUTPUT_SUFFIX
//   CTNN_BENCH_OUTPUT_SUFFIX  ".bin" (TFLM's outputs) or ".ort.bin" (onnxruntime's)
//   CTNN_BENCH_TOLERANCE    0: bit-exact (int8 against TFLM); else the largest absolute difference allowed
// The check runs cases k = 0..3 and fails the program when any output is off; the timing uses case 0.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include <ctnn/models/bench_model.hpp>

#include "model_benchmark.hpp"

namespace {

using net = ctnn::compile<ctnn::models::bench_model>;
using bench = ctnn_bench::model_bench<net>;
#ifndef CTNN_BENCH_CASES
#define CTNN_BENCH_CASES 4  // the reference cases in CTNN_BENCH_REFS (input_<k>.bin, k < CTNN_BENCH_CASES)
#endif
constexpr int reference_cases = CTNN_BENCH_CASES;

std::string check_against_references(bench& b) {
  const std::string refs = CTNN_BENCH_REFS;
  constexpr double tolerance = CTNN_BENCH_TOLERANCE;
  double worst = 0.0;
  for (int k = 0; k < reference_cases; ++k) {
    const std::string input_file = refs + "/input_" + std::to_string(k) + ".bin";
    const std::string output_file = refs + "/output_" + std::to_string(k) + CTNN_BENCH_OUTPUT_SUFFIX;
    const auto input = ctnn_bench::read_file_as<bench::input_type>(input_file);
    const auto expected = ctnn_bench::read_file_as<bench::output_type>(output_file);
    if (input.size() != bench::input_elements || expected.size() != bench::output_elements) {
      std::fprintf(stderr, "%s: %s (%zu elements) or %s (%zu elements) is missing or has the wrong size (want %zu, %zu)\n",
                   CTNN_BENCH_MODEL, input_file.c_str(), input.size(), output_file.c_str(), expected.size(),
                   bench::input_elements, bench::output_elements);
      return {};
    }
    std::vector<bench::output_type> output(bench::output_elements);
    b.run(input.data(), output.data());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < output.size(); ++i) {
      const double difference = std::fabs(static_cast<double>(output[i]) - static_cast<double>(expected[i]));
      worst = difference > worst ? difference : worst;
      if (difference > tolerance || std::isnan(difference)) {
        if (wrong++ < 5)
          std::fprintf(stderr, "%s case %d: output[%zu] = %g, reference %g\n", CTNN_BENCH_MODEL, k, i,
                       static_cast<double>(output[i]), static_cast<double>(expected[i]));
      }
    }
    if (wrong > 0) {
      std::fprintf(stderr, "%s case %d: %zu of %zu outputs differ from %s (tolerance %g)\n", CTNN_BENCH_MODEL, k, wrong,
                   output.size(), output_file.c_str(), tolerance);
      return {};
    }
    if (k == 0) b.input() = input;
  }
  char verdict[160];
  if (tolerance == 0.0)
    std::snprintf(verdict, sizeof verdict, "%d/%d cases bit-exact with output_<k>%s", reference_cases,
                  reference_cases, CTNN_BENCH_OUTPUT_SUFFIX);
  else
    std::snprintf(verdict, sizeof verdict, "%d/%d cases within %g of output_<k>%s (max abs diff %.3g)", reference_cases,
                  reference_cases, tolerance, CTNN_BENCH_OUTPUT_SUFFIX, worst);
  return verdict;
}

}  // namespace

int main(int argc, char** argv) {
  return ctnn_bench::benchmark_main<net>(argc, argv, CTNN_BENCH_MODEL, check_against_references);
}
