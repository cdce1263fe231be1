#pragma once
// Whether a model output agrees with a reference output (ctnn-run --expect, and the compiled route of the
// op-conformance suites, tests/case_suite.hpp, so that both routes apply one rule): float32 elements within
// |got - want| <= relative * |want| + absolute (NaN matches NaN, an infinity only itself); integer elements
// within |got - want| <= absolute, which is exactly under the default (an absolute of 1 allows the 1 LSB by
// which two runtimes' requantizations may differ: the QDQ suite, tests/data/ops/qdq/ATOL). Both buffers hold raw little-endian elements of the output's type.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/little_endian.hpp>

namespace ctnn_tools {

// The float32 tolerance: TFLM's float kernels and ctnn's may round a libm call or a sum differently.
struct tolerance {
  double relative = 1e-5;
  double absolute = 1e-6;
};

struct element_mismatch {
  std::size_t element;
  double got, want;
};

struct output_comparison {
  std::string size_problem;                // non-empty when the byte counts differ
  std::size_t mismatches = 0;              // elements that disagree
  std::vector<element_mismatch> first;     // the first few of them
  bool agrees() const { return size_problem.empty() && mismatches == 0; }
};

namespace detail {

inline double element_value(ctnn::dtype type, const char* bytes, std::size_t i) {
  switch (type) {
    case ctnn::dtype::f32: return static_cast<double>(ctnn::load_le<float>(bytes, 4 * i));
    case ctnn::dtype::i8: return ctnn::load_le<std::int8_t>(bytes, i);
    case ctnn::dtype::u8: return ctnn::load_le<std::uint8_t>(bytes, i);
    case ctnn::dtype::i32: return ctnn::load_le<std::int32_t>(bytes, 4 * i);
    case ctnn::dtype::i64: return static_cast<double>(ctnn::load_le<std::int64_t>(bytes, 8 * i));
    case ctnn::dtype::i16: return ctnn::load_le<std::int16_t>(bytes, 2 * i);
    case ctnn::dtype::b8: return bytes[i] != 0 ? 1 : 0;
  }
  return 0;
}

inline bool element_agrees(ctnn::dtype type, const char* got, const char* want, std::size_t i, tolerance t) {
  const std::size_t size = ctnn::size_of(type);
  if (type != ctnn::dtype::f32 && t.absolute < 1) {  // exactly (int64 values beyond 2^53 as well)
    for (std::size_t b = 0; b < size; ++b)
      if (got[i * size + b] != want[i * size + b]) return false;
    return true;
  }
  const double g = element_value(type, got, i), w = element_value(type, want, i);
  if (type != ctnn::dtype::f32) return std::fabs(g - w) <= t.absolute;
  if (std::isnan(w)) return std::isnan(g);
  if (std::isinf(w)) return g == w;
  return std::fabs(g - w) <= t.relative * std::fabs(w) + t.absolute;
}

}  // namespace detail

inline output_comparison compare_output(ctnn::dtype type, const char* got, std::size_t got_bytes, const char* want,
                                        std::size_t want_bytes, tolerance t = {}, std::size_t keep = 5) {
  output_comparison c;
  if (got_bytes != want_bytes) {
    c.size_problem = std::to_string(got_bytes) + " bytes, the reference has " + std::to_string(want_bytes);
    return c;
  }
  const std::size_t elements = got_bytes / ctnn::size_of(type);
  for (std::size_t i = 0; i < elements; ++i) {
    if (detail::element_agrees(type, got, want, i, t)) continue;
    if (c.first.size() < keep)
      c.first.push_back({i, detail::element_value(type, got, i), detail::element_value(type, want, i)});
    ++c.mismatches;
  }
  return c;
}

}  // namespace ctnn_tools
