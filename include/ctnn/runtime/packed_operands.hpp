#pragma once
// Constant operands re-laid out at compile time for the kernel that reads them (blocked / interleaved
// weights, precomputed sums): one `inline constexpr` array per (constants table, call parameters,
// operand slot, tensor), in .rodata, computed in a constant evaluation of its own (DESIGN §2, §6). The
// executor passes it instead of the stored constant when kernel::packs_operand says so.
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
};
static_assert(std::has_unique_object_representations_v<constant_view>,
              "ctnn::constant_view must have no padding bytes (clang 14 template-argument bug).");

namespace detail {

// A float32 constant stored as bytes, decoded once into an array that constant evaluation can read.
// Call-free, one statement per element: clang counts every step (DESIGN §6).
template <const auto& Views, std::size_t T>
constexpr auto decode_f32_view() {
  constexpr const constant_view& view = Views[T];
  std::array<float, view.count> values{};
  const char* bytes = view.bytes;
  float* out = values.data();
  for (const char* end = bytes + 4 * values.size(); bytes != end; bytes += 4)
    *out++ = __builtin_bit_cast(float, static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[0])) |
                                           static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[1])) << 8 |
                                           static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[2])) << 16 |
                                           static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[3])) << 24);
  return values;
}

template <const auto& Views, std::size_t T>
inline constexpr auto decoded_f32_view_v = decode_f32_view<Views, T>();

// Where a reader finds one constant: entry T of a views table (any constant; float bytes are decoded
// into an array keyed by the table), or a view given by value (user arrays only: their pointers are
// valid template arguments, see constant_data::user_array).
template <const auto& Views, std::size_t T>
struct table_entry {
  static constexpr const constant_view& view = Views[T];
  static constexpr const float* decoded_f32() { return decoded_f32_view_v<Views, T>.data(); }
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
      const char* b = view.bytes + 4 * i;
      return std::bit_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<unsigned char>(b[0])) |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(b[1])) << 8 |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(b[2])) << 16 |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(b[3])) << 24);
    }
  }
};

}  // namespace detail

// Operand K of a call with parameters P, as the call's run-time kernel wants it (an array in .rodata):
//  * packed_user_array_v: the constant is a user's array (constant_view::user_array), keyed by its view
//    (the array's own address) and P. Nothing in the key names the model: g++'s cost of mangling grows
//    with the length of a symbol's name, and a key naming a DSL model made a 400-layer model's compile
//    time superlinear. Calls with equal parameters reading the same array share one packed copy.
//  * packed_constant_v: any constant, entry T of a views table (the executor's).
template <kernel_params P, std::size_t K, constant_view View>
inline constexpr auto packed_user_array_v = kernel::pack_operand<P, K>(detail::constant_reader<detail::user_array_entry<View>>{});
template <const auto& Views, kernel_params P, std::size_t K, std::size_t T>
inline constexpr auto packed_constant_v = kernel::pack_operand<P, K>(detail::constant_reader<detail::table_entry<Views, T>>{});

}  // namespace ctnn
