#pragma once
// What a call's requantization table is computed from (docs/design.md §4), recorded per call by
// pass::compute_requantization. A table is data that does not fit in kernel_params (per output channel
// or per concat input); the runtime materialises it from this recipe, once, in .rodata, and decides
// nothing itself. Per-tensor multipliers, shifts and offsets are kernel_params fields.
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ctnn {

enum class requantization_table : std::int32_t {
  none,                  // kernel_params holds everything the kernel needs
  channel_multipliers,   // per output channel, QuantizeMultiplier of input * weight[c] / output (TFLite);
                         // computed from this recipe alone, so calls with equal scales share one table
  channel_multipliers_of_call,  // the same, but the weights' scales are bytes in no named file: the table is
                                // computed from the call's own tensors (keyed by module and call)
  concat_inputs,         // per concat input, its float rescaling to the output (TFLite's
                         // ConcatenationWithScaling), computed from the call's tensors
};

// A template argument (the runtime keys channel_multipliers tables by it): no padding bytes (clang 14).
struct requantization_recipe {
  const float* weight_scales = nullptr;     // per-channel weight scales in a user array, or
  const char* weight_scale_file = nullptr;  // in a model file: its first byte (a valid template argument)
  std::size_t weight_scale_offset = 0;      // ... and the scales' offset in it
  std::int32_t channels = 0;                // the table's length: output channels, or concat inputs
  std::int32_t weight_channels = 0;         // per-channel weight scales; 0: one weight scale for all channels
  std::uint32_t input_scale_bits = 0;       // float bits
  std::uint32_t output_scale_bits = 0;
  std::uint32_t weight_scale_bits = 0;      // the per-tensor weight scale
  requantization_table table = requantization_table::none;
  friend constexpr bool operator==(const requantization_recipe&, const requantization_recipe&) = default;
};
static_assert(std::has_unique_object_representations_v<requantization_recipe>,
              "ctnn::requantization_recipe must have no padding bytes (clang 14 template-argument bug).");

}  // namespace ctnn
