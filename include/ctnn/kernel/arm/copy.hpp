#pragma once
// The int8 reshape that copies (the plan could not make its result a view of its input: a model input copied to a
// model output, say) on Armv7E-M, the same bytes as reference::copy: sixteen bytes a turn (GCC copies the aligned
// block with one LDM and one STM) where both ends are word-aligned, a word a turn otherwise (LDR and STR take any
// address on Armv7-M), then the tail. The reference kernel copies a byte a turn (four instructions a byte).
// Calls the plan runs in place keep the reference kernel.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/arm/detail/dsp.hpp>
#include <ctnn/kernel/detail/unpacked.hpp>
#include <ctnn/kernel/requant_arrays.hpp>

namespace ctnn::kernel::arm::detail {

template <kernel_params P>
struct copy_kernel : kernel::detail::reads_constants_as_stored {
  static constexpr bool supports = dsp_available && P.kind == op_kind::reshape && P.type == dtype::i8 && P.in_place == 0 &&
                                   P.in.elements() == P.out.elements() && P.out.elements() < (std::int64_t{1} << 31);

  template <std::size_t N>
  static void run(const void* const (&operands)[N], void* result, const requant_arrays&) {
    const auto* from = static_cast<const std::uint8_t*>(operands[0]);
    auto* to = static_cast<std::uint8_t*>(result);
    if (from == to) return;
    constexpr auto bytes = static_cast<std::size_t>(P.out.elements());
    std::size_t done = 0;
    if (((reinterpret_cast<std::uintptr_t>(from) | reinterpret_cast<std::uintptr_t>(to)) & 3u) == 0) {
      const auto* source = static_cast<const std::uint8_t*>(__builtin_assume_aligned(from, 4));
      auto* target = static_cast<std::uint8_t*>(__builtin_assume_aligned(to, 4));
      for (; done + 16 <= bytes; done += 16) std::memcpy(target + done, source + done, 16);
    }
    for (; done + 4 <= bytes; done += 4) {
      std::uint32_t word;
      std::memcpy(&word, from + done, 4);
      std::memcpy(to + done, &word, 4);
    }
    for (; done < bytes; ++done) to[done] = from[done];
  }
};

}  // namespace ctnn::kernel::arm::detail
