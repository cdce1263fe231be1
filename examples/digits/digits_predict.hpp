#pragma once
// The digits demo's prediction: the class of the largest probability, for either form of the model (the
// DSL one, digits_model.hpp, and the one imported from digits.onnx, digits_imported.hpp).
#include <cstddef>

namespace digits {

// Index of the largest probability that Net (a ctnn::compile<...> executor) gives one image.
template <class Net>
int predict_with(const float* image) {
  float probabilities[Net::template output<0>::elements];
  Net::run(image, probabilities);
  int best = 0;
  for (int c = 1; c < static_cast<int>(Net::template output<0>::elements); ++c)
    if (probabilities[c] > probabilities[best]) best = c;
  return best;
}

}  // namespace digits
