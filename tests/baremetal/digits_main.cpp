// The digits demo's executor on a Cortex-M4F (same headers, same model file as examples/digits): prints one
// line "<index> <prediction>" per held-out image, then a summary. The host test
// baremetal_digits_matches_host compares the lines with `digits_demo --predictions`. Returns non-zero
// if the predictions disagree with PyTorch's (which the host build matches on every image).
#include <cstdio>

#include "ctnn_baremetal.h"
#include "digits_heldout.hpp"
#include "digits_imported.hpp"

int main() {
  unsigned agree = 0, correct = 0;
  for (unsigned i = 0; i < digits::heldout_count; ++i) {
    const int predicted = digits::imported::predict(digits::heldout_images + i * digits::image_elements);
    std::printf("%u %d\n", i, predicted);
    agree += predicted == digits::torch_predictions[i];
    correct += predicted == digits::heldout_labels[i];
  }
  std::printf("summary: %u/%u correct, %u/%u agree with PyTorch; arena %lu bytes, peak stack %lu bytes\n", correct,
              static_cast<unsigned>(digits::heldout_count), agree, static_cast<unsigned>(digits::heldout_count),
              static_cast<unsigned long>(digits::imported::net::arena_bytes), ctnn_baremetal_stack_peak());
  return agree == digits::heldout_count ? 0 : 1;
}
