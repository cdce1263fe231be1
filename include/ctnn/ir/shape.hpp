#pragma once
// A tensor shape as a constexpr value: rank plus up to max_rank extents. Activations are NHWC.
#include <array>
#include <cstddef>
#include <cstdint>

namespace ctnn {

inline constexpr std::size_t max_rank = 6;

struct shape {
  std::int32_t rank = 0;
  std::array<std::int32_t, max_rank> dims{};

  constexpr std::int64_t elements() const {
    std::int64_t n = 1;
    for (std::int32_t i = 0; i < rank; ++i) n *= dims[static_cast<std::size_t>(i)];
    return n;
  }
  constexpr std::int32_t operator[](std::int32_t axis) const { return dims[static_cast<std::size_t>(axis)]; }
  // The extent along `axis`, counting negative axes from the back (-1 is the last).
  constexpr std::int32_t at(std::int32_t axis) const { return (*this)[axis < 0 ? axis + rank : axis]; }
  constexpr std::int32_t last() const { return rank > 0 ? at(-1) : 1; }
  friend constexpr bool operator==(const shape&, const shape&) = default;
};

template <class... Extents>
constexpr shape make_shape(Extents... extents) {
  static_assert(sizeof...(Extents) <= max_rank, "ctnn: a shape has at most ctnn::max_rank (6) dimensions.");
  shape s{};
  s.rank = static_cast<std::int32_t>(sizeof...(Extents));
  std::size_t i = 0;
  ((s.dims[i++] = static_cast<std::int32_t>(extents)), ...);
  return s;
}

// Named views of a rank-4 NHWC shape.
struct nhwc {
  std::int32_t n, h, w, c;
  static constexpr nhwc of(const shape& s) { return {s.dims[0], s.dims[1], s.dims[2], s.dims[3]}; }
};

// The batch dims of a matrix operand: all but its last two (ir/shape_rules.hpp, the matmul kernels).
constexpr shape matrix_batch(const shape& s) {
  shape batch{};
  batch.rank = s.rank > 2 ? s.rank - 2 : 0;
  for (std::int32_t d = 0; d < batch.rank; ++d) batch.dims[static_cast<std::size_t>(d)] = s[d];
  return batch;
}

}  // namespace ctnn
