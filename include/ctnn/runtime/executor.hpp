#pragma once
// The static executor of a compiled module: a flat, fully unrolled list of kernel calls whose operand
// addresses are compile-time constants (arena offsets, model input/output slots, constants). No heap,
// no exceptions, no run-time dispatch.
//
//   using net = ctnn::compile<my_model>;
//   float in[net::input<0>::elements], out[net::output<0>::elements];
//   net::run(in, out);                       // static arena in .bss
//   net::run_with_arena(my_arena, in, out);  // caller's arena (re-entrant), net::arena_bytes long
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/detail/for_each_index.hpp>
#include <ctnn/errors.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/runtime/constants.hpp>

namespace ctnn {

template <auto& M>
class executor : detail::diagnostic_check<M.error> {
  static constexpr bool valid = !M.error.failed();
  static_assert(!valid || M.has(fact::main_lowered),
                "ctnn::executor<M>: M must have gone through aot_lower_main (use ctnn::compile<Model>).");

  template <tensor_role Role, std::size_t I>
  struct io {
    static constexpr const tensor& info = Role == tensor_role::input ? M.input_tensor(I) : M.output_tensor(I);
    static constexpr ctnn::shape dims = info.dims;
    static constexpr dtype type = info.type;
    using element_type = element_t<type>;
    static constexpr std::size_t elements = static_cast<std::size_t>(dims.elements());
    static constexpr std::size_t bytes = static_cast<std::size_t>(info.bytes());
    static constexpr std::string_view name = info.label.view();
  };

 public:
  static constexpr auto& module = M;
  static constexpr std::size_t input_count = static_cast<std::size_t>(M.input_count);
  static constexpr std::size_t output_count = static_cast<std::size_t>(M.output_count);
  static constexpr std::size_t arena_bytes = static_cast<std::size_t>(M.arena_bytes);
  static constexpr std::size_t arena_alignment = static_cast<std::size_t>(M.arena_alignment);
  static constexpr std::size_t liveness_lower_bound = static_cast<std::size_t>(M.liveness_lower_bound);
  static constexpr std::size_t call_count = static_cast<std::size_t>(M.call_count);

  // input<I>::dims, ::type, ::element_type, ::elements, ::bytes, ::name; likewise output<I>.
  template <std::size_t I>
    requires(I < input_count)
  using input = io<tensor_role::input, I>;
  template <std::size_t I>
    requires(I < output_count)
  using output = io<tensor_role::output, I>;

  // run(inputs..., outputs...): pointers to each input's elements, then to each output's.
  template <class... Buffers>
  static void run(Buffers*... buffers) {
    run_with_arena(static_arena, buffers...);
  }

  // As run(), in an arena of at least arena_bytes aligned to arena_alignment that the caller owns.
  template <class... Buffers>
  static void run_with_arena(std::byte* arena, Buffers*... buffers) {
    constexpr bool count_ok = sizeof...(Buffers) == input_count + output_count;
    static_assert(count_ok, "ctnn::executor::run: pass one pointer per model input, then one per model output.");
    if constexpr (count_ok) {  // otherwise the checks below would only repeat the error
      static_assert(buffers_match<Buffers...>(std::make_index_sequence<sizeof...(Buffers)>{}),
                    "ctnn::executor::run: a buffer's element type does not match the model's (see input<I>::element_type "
                    "and output<I>::element_type); outputs must not be const.");
      const std::array<const void*, input_count + output_count> all{static_cast<const void*>(buffers)...};
      void* outputs[output_count > 0 ? output_count : 1]{};
      for (std::size_t o = 0; o < output_count; ++o) outputs[o] = const_cast<void*>(all[input_count + o]);
      if constexpr (valid) {
        detail::for_each_index<call_count>([&](auto call) { invoke<decltype(call)::value>(arena, all.data(), outputs); });
      }
    }
  }

 private:
  // One static arena per model (in .bss), whatever the constness of the caller's buffers.
  alignas(arena_alignment) static inline std::byte static_arena[arena_bytes > 0 ? arena_bytes : 1];

  template <class... Buffers, std::size_t... I>
  static constexpr bool buffers_match(std::index_sequence<I...>) {
    return (buffer_matches<I, Buffers>() && ...);
  }
  template <std::size_t I, class Buffer>
  static constexpr bool buffer_matches() {
    if constexpr (I < input_count) return std::is_same_v<std::remove_const_t<Buffer>, typename input<I>::element_type>;
    else return std::is_same_v<Buffer, typename output<I - input_count>::element_type>;
  }

  template <location L>
  static void* address(std::byte* arena, const void* const* inputs, void* const* outputs) {
    if constexpr (L.where == storage::arena) return arena + L.offset;
    else if constexpr (L.where == storage::model_input) return const_cast<void*>(inputs[L.index]);
    else if constexpr (L.where == storage::model_output) return outputs[L.index];
    else if constexpr (L.where == storage::constant) return const_cast<void*>(constant_address<M, L.index>());
    else return nullptr;
  }

  template <std::size_t C>
  static void invoke(std::byte* arena, const void* const* inputs, void* const* outputs) {
    static constexpr const kernel_call& call = M.calls[C];
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      const void* const operands[] = {address<call.operand_at[K]>(arena, inputs, outputs)..., nullptr};
      kernel::invoke<call.params>(operands, address<call.result_at>(arena, inputs, outputs));
    }(std::make_index_sequence<static_cast<std::size_t>(call.operand_count)>{});
  }
};

}  // namespace ctnn
