// The digits demo: a CNN trained with PyTorch on scikit-learn's 8x8 digits, imported from digits.onnx by
// ctnn_add_model and compiled by ctnn into a static executor. Prints the model, its memory plan, held-out
// accuracy next to PyTorch's, and the median latency of one inference.
//   digits_demo                 the report
//   digits_demo --predictions   one line per held-out image: "<index> <prediction>" (compared with the
//                               bare-metal build's output by the test suite)
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "digits_heldout.hpp"
#include "digits_imported.hpp"

#include <ctnn/print/printer.hpp>  // print_summary, print_memory_plan (not in the umbrella header)

namespace {

namespace model = digits::imported;

void print_predictions() {
  for (std::size_t i = 0; i < digits::heldout_count; ++i)
    std::printf("%zu %d\n", i, model::predict(digits::heldout_images + i * digits::image_elements));
}

double median_microseconds_per_inference() {
  constexpr int batch = 200;
  constexpr int rounds = 51;
  std::vector<double> per_inference;
  volatile float sink = 0.0f;  // keeps the inferences from being optimised away
  float probabilities[model::net::output<0>::elements];
  for (int r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int b = 0; b < batch; ++b) {
      const std::size_t image = static_cast<std::size_t>(r * batch + b) % digits::heldout_count;
      model::net::run(digits::heldout_images + image * digits::image_elements, probabilities);
      sink = sink + probabilities[0];
    }
    const auto stop = std::chrono::steady_clock::now();
    per_inference.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / batch);
  }
  std::sort(per_inference.begin(), per_inference.end());
  return per_inference[per_inference.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view{argv[1]} == "--predictions") {
    print_predictions();
    return 0;
  }
  if (argc > 1) {
    std::fprintf(stderr, "usage: %s [--predictions]\n", argv[0]);
    return 2;
  }
  const auto to_stdout = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  using net = model::net;

  std::printf("== ctnn digits demo: a CNN trained with PyTorch on scikit-learn's 8x8 digits ==\n\n");
  ctnn::print_summary(net::module, to_stdout);
  std::printf("\n");
  ctnn::print_memory_plan(net::module, to_stdout);
  std::printf("input  %.*s: %zu floats, output %.*s: %zu floats (caller's buffers)\n\n",
              static_cast<int>(net::input<0>::name.size()), net::input<0>::name.data(), net::input<0>::elements,
              static_cast<int>(net::output<0>::name.size()), net::output<0>::name.data(), net::output<0>::elements);

  int correct = 0, agree = 0;
  for (std::size_t i = 0; i < digits::heldout_count; ++i) {
    const int predicted = model::predict(digits::heldout_images + i * digits::image_elements);
    correct += predicted == digits::heldout_labels[i];
    if (predicted == digits::torch_predictions[i]) {
      ++agree;
    } else {
      // Explains a disagreement: only a near-tie between PyTorch's top two logits can flip a prediction.
      std::printf("  image %zu: ctnn %d, PyTorch %d (PyTorch's top-2 logit margin %.3g)\n", i, predicted,
                  digits::torch_predictions[i], static_cast<double>(digits::torch_top2_margin[i]));
    }
  }
  const auto count = static_cast<int>(digits::heldout_count);
  std::printf("held-out accuracy: ctnn %d/%d (%.2f %%), PyTorch %d/%d; predictions agree on %d/%d images\n", correct,
              count, 100.0 * correct / count, digits::torch_correct, count, agree, count);
  std::printf("median latency: %.2f us per inference (single thread, %zu kernel calls)\n",
              median_microseconds_per_inference(), net::call_count);
  return correct == digits::torch_correct && agree == count ? 0 : 1;
}
