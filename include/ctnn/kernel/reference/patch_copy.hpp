#pragma once
// The copies of patch execution (docs/memory.md, "Patch execution"): crop copies an NHWC window out of a
// tensor, paste writes a patch into its region of the whole tensor, fetch_rows fills the row buffer of a
// streamed input. Any element type: they move elements and never change a value, so a patched prefix is
// bit-exact with the whole-tensor one by construction.
#include <cstddef>
#include <cstdint>
#include <span>

#include <ctnn/kernel/params.hpp>
#include <ctnn/kernel/row_source.hpp>

namespace ctnn::kernel::reference {

namespace detail {

// Copies `rows` x `columns` pixels of `channels` elements between two NHWC images of widths `from_width`
// and `to_width`, starting at (from_row, from_column) and (to_row, to_column), for each batch.
template <class T>
constexpr void copy_pixels(const T* from, std::int32_t from_height, std::int32_t from_width, std::int32_t from_row,
                           std::int32_t from_column, T* to, std::int32_t to_height, std::int32_t to_width, std::int32_t to_row,
                           std::int32_t to_column, std::int32_t batches, std::int32_t rows, std::int32_t columns,
                           std::int32_t channels) {
  const std::int64_t run = static_cast<std::int64_t>(columns) * channels;  // one row of the window is contiguous
  for (std::int32_t b = 0; b < batches; ++b)
    for (std::int32_t y = 0; y < rows; ++y) {
      const std::int64_t source = ((static_cast<std::int64_t>(b) * from_height + from_row + y) * from_width + from_column) * channels;
      const std::int64_t target = ((static_cast<std::int64_t>(b) * to_height + to_row + y) * to_width + to_column) * channels;
      for (std::int64_t k = 0; k < run; ++k) to[target + k] = from[source + k];
    }
}

}  // namespace detail

// out = in[:, row : row + out.H, column : column + out.W, :] (kernel_params::patch)
template <class Params, class T>
constexpr void crop(Params p, const T* input, T* output) {
  detail::copy_pixels(input, p->in[1], p->in[2], p->patch().row, p->patch().column, output, p->out[1], p->out[2], 0, 0, p->out[0],
                      p->out[1], p->out[2], p->out[3]);
}

// out[:, row : row + in.H, column : column + in.W, :] = in; the rest of `output` is left as it is
// (the earlier patches' results: the whole tensor is the paste's second operand, and `output` its view).
template <class Params, class T>
constexpr void paste(Params p, const T* patch, T* output) {
  detail::copy_pixels(patch, p->in[1], p->in[2], 0, 0, output, p->out[1], p->out[2], p->patch().row, p->patch().column, p->in[0],
                      p->in[1], p->in[2], p->in[3]);
}

// The row buffer `rows` (out: [1, R, W, C]) of a streamed input for the next patch row
// (kernel_params::fetch): the halo rows it shares with the previous patch row move to its top, then
// `source` writes the new rows of the input below them. Moving the halo keeps every patch row's rows
// contiguous from buffer row 0 (crop reads them as an ordinary map) and asks the caller for each input row
// once, in order; it costs a copy of the halo rows per patch row. Not constexpr: it calls the caller's
// function.
template <class Params, class T>
void fetch_rows(Params p, const row_source* source, T* rows) {
  const std::int64_t row = static_cast<std::int64_t>(p->out[2]) * p->out[3];
  const std::int64_t kept = row * p->fetch().kept_rows, from = row * p->fetch().kept_from;
  for (std::int64_t k = 0; k < kept; ++k) rows[k] = rows[from + k];  // forward: the target is never above the source
  const auto bytes = static_cast<std::size_t>(row * p->fetch().fetched_rows) * sizeof(T);
  if (p->fetch().fetched_rows > 0)  // a patch row inside the previous one's rows needs none
    source->fill_rows(p->fetch().first_row, p->fetch().fetched_rows,
                      std::span<std::byte>{reinterpret_cast<std::byte*>(rows + kept), bytes});
}

}  // namespace ctnn::kernel::reference
