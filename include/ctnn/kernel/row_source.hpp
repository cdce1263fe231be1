#pragma once
// ctnn::row_source: where a streamed model input's rows come from (ctnn::streamed_input; docs/memory.md,
// "Streamed input"). The patch stage asks for rows as each patch row needs them: in order, top to bottom,
// each row once, into the row buffer the plan placed in the arena. For firmware: a function pointer and a
// context, no heap, no exceptions; a camera driver copies the lines it has received (or waits for them).
//
//   void fill(void* camera, std::int32_t first_row, std::int32_t row_count, std::span<std::byte> rows);
//   ctnn::row_source source{fill, &camera};        // or ctnn::row_source{callable}: a callable kept by reference
//   net::run(&source, scores);                     // the streamed input's slot takes a pointer to the source
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

namespace ctnn {

class row_source {
 public:
  // Writes rows [first_row, first_row + row_count) of the input, row-major (each row: width x channels
  // elements of the input's element type, the model's own quantization), into `rows`, which is exactly
  // that long.
  using fill_function = void (*)(void* context, std::int32_t first_row, std::int32_t row_count, std::span<std::byte> rows);

  constexpr row_source(fill_function fill, void* context) : fill_(fill), context_(context) {}
  // A callable `fill(first_row, row_count, rows)`, kept by reference: it must outlive the runs that use it.
  template <class Callable>
    requires(!std::is_same_v<std::remove_cvref_t<Callable>, row_source> &&
             std::is_invocable_v<Callable&, std::int32_t, std::int32_t, std::span<std::byte>>)
  constexpr explicit row_source(Callable& fill)
      : fill_([](void* context, std::int32_t first_row, std::int32_t row_count, std::span<std::byte> rows) {
          (*static_cast<Callable*>(context))(first_row, row_count, rows);
        }),
        context_(const_cast<void*>(static_cast<const void*>(&fill))) {}
  template <class Callable>
    requires(!std::is_same_v<std::remove_cvref_t<Callable>, row_source>)
  row_source(const Callable&&) = delete;  // a temporary callable would be gone before the run

  void fill_rows(std::int32_t first_row, std::int32_t row_count, std::span<std::byte> rows) const {
    fill_(context_, first_row, row_count, rows);
  }

 private:
  fill_function fill_;
  void* context_;
};

}  // namespace ctnn
