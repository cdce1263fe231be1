#pragma once
// Constant operands re-laid out at compile time for the kernel that reads them (blocked / interleaved
// weights, precomputed sums): one `inline constexpr` array per (constants table, call parameters,
// operand slot, tensor), in .rodata, computed in a constant evaluation of its own (docs/design.md §2, §6). The
// executor passes it instead of the stored constant when the call's recorded kernel packs it
// (kernel_params::choice). Constants read unpacked from a model file's bytes get an array of their own too
// (stored_constant_v): the file itself is read in constant evaluation only.
//
// Nothing here names the module: the executor copies what packing reads of each constant (pointers and
// an element count) into a small table once, and the packed operands are keyed by that table. Clang
// re-emits a module constant for every instantiation that names it, which made the executor's compile
// time quadratic in the layer count (docs/compile_time.md).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/constant_alignment.hpp>
#include <ctnn/ir/little_endian.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/params.hpp>

namespace ctnn {

// What packing reads of one constant tensor. Exactly one of the pointers is set for a constant; `f32`
// is also set for a constant a pass computed (its materialised values).
struct constant_view {
  const float* f32 = nullptr;
  const std::int8_t* i8 = nullptr;
  const std::int32_t* i32 = nullptr;
  const char* bytes = nullptr;  // little-endian, as stored in a model file
  std::size_t count = 0;        // elements
  // 1: constant_data::user_array, and no pass changed the values. A whole word, so that a view (a
  // template argument of packed_user_array_v) has no padding bytes on any target (clang 14
  // template-argument bug).
  std::size_t user_array = 0;
  std::size_t type = 0;  // the dtype, as a whole word (no padding)
};
static_assert(std::has_unique_object_representations_v<constant_view>,
              "ctnn::constant_view must have no padding bytes (clang 14 template-argument bug).");

// Where a constant lies in an embedded model file: the file's first byte (the embedded array itself, a
// valid template argument) and the offset, element count and dtype. A key that names neither the module
// nor the executor, so that every executor of one model shares a constant's copy.
struct file_slice {
  const char* file = nullptr;
  std::size_t offset = 0;
  std::size_t count = 0;
  std::size_t type = 0;
};
static_assert(std::has_unique_object_representations_v<file_slice>,
              "ctnn::file_slice must have no padding bytes (clang 14 template-argument bug).");

namespace detail {

// The elements of a constant's own copy. A plain array member, written by index: g++ evaluates such writes
// with about a fifth of the memory that writes through a pointer into a std::array take (measured: 80 KB
// of int8 copied, +9 to +17 MB against +45 MB).
template <class T, std::size_t N>
struct constant_array {
  T values[N > 0 ? N : 1];
  constexpr const T* data() const { return values; }
  static constexpr std::size_t size() { return N; }
};

// A constant stored as little-endian bytes (in a model file), copied into an array of its own element
// type: its own copy in .rodata, and the float values packing reads in constant evaluation (which cannot
// reinterpret bytes), by the decoder's call-free loop (docs/design.md §6).
template <class Entry>
constexpr auto copy_stored_bytes() {
  constexpr const constant_view& view = Entry::view;
  // A bool constant is copied as its bytes (0 or 1: a bool's representation), which the byte loader reads.
  using stored = element_t<static_cast<dtype>(view.type)>;
  using element = std::conditional_t<std::is_same_v<stored, bool>, std::uint8_t, stored>;
  constexpr std::size_t count = view.count;
  constant_array<element, count> copy{};
  const char* bytes = view.bytes;
  load_le_elements(bytes, 0, count, sizeof(element), copy.values);
  return copy;
}

template <class Entry>
alignas(constant_alignment<decltype(copy_stored_bytes<Entry>())>) inline constexpr auto stored_copy_v = copy_stored_bytes<Entry>();

// Where a reader finds one constant: a slice of a model file (keyed by the slice), entry T of a views
// table (any constant; keyed by the table), or a view given by value (user arrays only: their pointers are
// valid template arguments, see constant_data::user_array). decoded_f32(): a float constant stored as
// bytes, decoded once into an array (its stored copy).
template <file_slice S>
struct file_entry {
  static constexpr constant_view view{nullptr, nullptr, nullptr, S.file + S.offset, S.count, 0, S.type};
  static constexpr const float* decoded_f32() { return stored_copy_v<file_entry>.data(); }
};
template <const auto& Views, std::size_t T>
struct table_entry {
  static constexpr const constant_view& view = Views[T];
  static constexpr const float* decoded_f32() { return stored_copy_v<table_entry>.data(); }
};
template <constant_view View>
struct user_array_entry {
  static constexpr constant_view view = View;
  static constexpr const float* decoded_f32() { return nullptr; }  // never bytes
};

// Element access to one constant in constant evaluation, whatever holds it.
template <class Entry>
struct constant_reader {
  static constexpr const constant_view& view = Entry::view;
  static constexpr std::size_t count() { return view.count; }
  // All the float values at once: packing loops index it directly (one step per element under clang's
  // -fconstexpr-steps, where each f32(i) call costs several).
  static constexpr const float* f32_values() {
    if constexpr (view.f32 != nullptr) return view.f32;
    else return Entry::decoded_f32();
  }
  static constexpr float f32(std::size_t i) { return f32_values()[i]; }
  static constexpr std::int8_t i8(std::size_t i) {
    if constexpr (view.i8 != nullptr) return view.i8[i];
    else return static_cast<std::int8_t>(view.bytes[i]);
  }
  static constexpr std::int32_t i32(std::size_t i) {
    if constexpr (view.i32 != nullptr) {
      return view.i32[i];
    } else {
      return load_le<std::int32_t>(view.bytes, 4 * i);
    }
  }
};

}  // namespace detail

// Operand K of a call with parameters P, as the call's run-time kernel wants it (an array in .rodata):
//  * packed_user_array_v: the constant is a user's array (constant_view::user_array), keyed by its view
//    (the array's own address) and P. Nothing in the key names the model: g++'s cost of mangling grows
//    with the length of a symbol's name, and a key naming a DSL model made a 400-layer model's compile
//    time superlinear. Calls with equal parameters reading the same array share one packed copy.
//  * packed_file_constant_v: a constant in a model file, keyed by its slice and P (shared likewise);
//  * packed_constant_v: any constant, entry T of a views table (the executor's).
template <kernel_params P, std::size_t K, constant_view View>
alignas(detail::constant_alignment<decltype(kernel::pack_operand<P, K>(detail::constant_reader<detail::user_array_entry<View>>{}))>)
inline constexpr auto packed_user_array_v = kernel::pack_operand<P, K>(detail::constant_reader<detail::user_array_entry<View>>{});
template <kernel_params P, std::size_t K, file_slice S>
alignas(detail::constant_alignment<decltype(kernel::pack_operand<P, K>(detail::constant_reader<detail::file_entry<S>>{}))>)
inline constexpr auto packed_file_constant_v = kernel::pack_operand<P, K>(detail::constant_reader<detail::file_entry<S>>{});
template <const auto& Views, kernel_params P, std::size_t K, std::size_t T>
alignas(detail::constant_alignment<decltype(kernel::pack_operand<P, K>(detail::constant_reader<detail::table_entry<Views, T>>{}))>)
inline constexpr auto packed_constant_v = kernel::pack_operand<P, K>(detail::constant_reader<detail::table_entry<Views, T>>{});

// A constant read unpacked, as stored, from a model file's bytes: an array of its own (one per constant,
// whatever the number of calls and executors reading it), so that the file itself is read in constant
// evaluation only and never reaches the image (flash holds each constant once). file_constant_v is keyed
// by the slice; stored_constant_v by a views table's entry (modules whose constants name no file).
template <file_slice S>
inline constexpr auto file_constant_v = detail::stored_copy_v<detail::file_entry<S>>;
template <const auto& Views, std::size_t T>
inline constexpr auto stored_constant_v = detail::stored_copy_v<detail::table_entry<Views, T>>;

}  // namespace ctnn
