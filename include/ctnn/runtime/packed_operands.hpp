#pragma once
// Constant operands re-laid out at compile time for the kernel that reads them (blocked / interleaved
// weights, precomputed sums): one `inline constexpr` array per (module, call, operand), in .rodata,
// computed in a constant evaluation of its own (DESIGN §2, §6). The executor passes it instead of the
// stored constant when kernel::packs_operand says so.
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/runtime/constants.hpp>

namespace ctnn {

namespace detail {

// Element access to constant tensor T of module M in constant evaluation, whatever holds it (a user
// array, the model file's bytes, a pass's recipe).
template <auto& M, std::int32_t T>
struct constant_reader {
  static constexpr const tensor& info = M.tensor_at(T);
  static constexpr std::size_t count() { return static_cast<std::size_t>(info.dims.elements()); }
  static constexpr float f32(std::size_t i) { return constant_data_of<M, T>()[i]; }
  // All the float values at once: packing loops index it directly (one step per element under clang's
  // -fconstexpr-steps, where each f32(i) call costs several).
  static constexpr const float* f32_values() { return constant_data_of<M, T>(); }
  static constexpr std::int8_t i8(std::size_t i) {
    if constexpr (info.data.i8 != nullptr) return info.data.i8[i];
    else return static_cast<std::int8_t>(info.data.bytes[i]);
  }
  static constexpr std::int32_t i32(std::size_t i) {
    if constexpr (info.data.i32 != nullptr) {
      return info.data.i32[i];
    } else {
      const char* b = info.data.bytes + 4 * i;
      return std::bit_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<unsigned char>(b[0])) |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(b[1])) << 8 |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(b[2])) << 16 |
                                         static_cast<std::uint32_t>(static_cast<unsigned char>(b[3])) << 24);
    }
  }
};

}  // namespace detail

// Operand K of call C of module M, as the call's run-time kernel wants it.
template <auto& M, std::size_t C, std::size_t K>
inline constexpr auto packed_operand_v =
    kernel::pack_operand<M.calls[C].params, K>(detail::constant_reader<M, M.calls[C].operands[K]>{});

}  // namespace ctnn
