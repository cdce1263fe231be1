// The digits demo model (examples/digits, written with the DSL), timed whole and call by call
// (model_benchmark.hpp) on held-out image 0. The check: its predictions on all held-out images equal
// PyTorch's (the demo's own criterion).
#include <cstddef>
#include <cstdio>
#include <string>

#include "digits_heldout.hpp"
#include "digits_model.hpp"
#include "model_benchmark.hpp"

namespace {

using bench = ctnn_bench::model_bench<digits::net>;

std::string check_predictions(bench& b) {
  std::size_t agree = 0;
  for (std::size_t i = 0; i < digits::heldout_count; ++i) {
    const float* image = digits::heldout_images + i * digits::image_elements;
    b.run(image, b.output().data());
    std::size_t best = 0;
    for (std::size_t c = 1; c < bench::output_elements; ++c)
      if (b.output()[c] > b.output()[best]) best = c;
    if (static_cast<int>(best) == digits::torch_predictions[i]) ++agree;
    else std::fprintf(stderr, "digits image %zu: ctnn predicts %zu, PyTorch %d\n", i, best, digits::torch_predictions[i]);
  }
  if (agree != digits::heldout_count) return {};
  b.input().assign(digits::heldout_images, digits::heldout_images + digits::image_elements);
  return std::to_string(agree) + "/" + std::to_string(digits::heldout_count) + " predictions equal PyTorch's";
}

}  // namespace

int main(int argc, char** argv) { return ctnn_bench::benchmark_main<digits::net>(argc, argv, "digits", check_predictions); }
