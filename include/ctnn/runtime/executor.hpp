#pragma once
// The static executor of a compiled module: a flat, fully unrolled list of kernel calls whose operand
// addresses are compile-time constants (arena offsets, model input/output slots, constants). No heap,
// no exceptions, no run-time dispatch.
//
//   using net = ctnn::compile<my_model>;
//   float in[net::input<0>::elements], out[net::output<0>::elements];
//   net::run(in, out);                       // static arena (one per pool) in .bss
//   net::run_with_arena(my_arena, in, out);  // caller's arena (re-entrant), net::arena_bytes long
//   net::run_with_pools({sram, dtcm}, in, out);  // caller's memory for each pool (net::pool<P>::bytes)
//
// With ctnn::io_in_arena, model inputs and outputs live in the pools: run() takes no buffer for them;
// write net::input<I>::data() (or data(pools)) before and read net::output<I>::data() after.
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
#include <ctnn/runtime/packed_operands.hpp>
#include <ctnn/runtime/requantization.hpp>

namespace ctnn {

// Kernels: the specialisation policy (kernel::full or kernel::shared; kernel/dispatch.hpp).
template <auto& M, class Kernels = kernel::full>
class executor : detail::diagnostic_check<M.error> {
  static constexpr bool valid = !M.error.failed();
  static_assert(!valid || M.has(fact::main_lowered),
                "ctnn::executor<M>: M must have gone through aot_lower_main (use ctnn::compile<Model>).");

  static constexpr std::size_t pool_total = M.pool_count > 0 ? static_cast<std::size_t>(M.pool_count) : 1;
  static constexpr std::size_t bytes_of_pool(std::size_t p) {
    if (p == 0) return static_cast<std::size_t>(M.arena_bytes);  // passes after planning may grow the arena
    return M.pools[p].read_only ? 0 : static_cast<std::size_t>(M.pool_usage[p].bytes);
  }
  static constexpr std::size_t alignment_of_pool(std::size_t p) {
    const std::int32_t a = M.pool_count > 0 ? M.pools[p].alignment : 0;
    const std::int32_t b = p == 0 && M.arena_alignment > a ? M.arena_alignment : a;
    return static_cast<std::size_t>(b > 0 ? b : 1);
  }

 public:
  // One pointer per pool (read-only pools: unused).
  using pool_pointers = std::array<std::byte*, pool_total>;

 private:
  template <tensor_role Role, std::size_t I>
  struct io {
    static constexpr const tensor& info = Role == tensor_role::input ? M.input_tensor(I) : M.output_tensor(I);
    static constexpr std::int32_t id = Role == tensor_role::input ? M.inputs[I] : M.outputs[I];
    static constexpr ctnn::shape dims = info.dims;
    static constexpr dtype type = info.type;
    using element_type = element_t<type>;
    static constexpr std::size_t elements = static_cast<std::size_t>(dims.elements());
    static constexpr std::size_t bytes = static_cast<std::size_t>(info.bytes());
    static constexpr std::string_view name = info.label.view();
    // ctnn::io_in_arena: where it lives in the pools (run() takes no buffer for it).
    static constexpr bool in_arena = M.allocations[static_cast<std::size_t>(id)].offset >= 0;
    static constexpr std::size_t pool = static_cast<std::size_t>(M.allocations[static_cast<std::size_t>(id)].pool);
    static constexpr std::size_t offset = in_arena ? static_cast<std::size_t>(M.allocations[static_cast<std::size_t>(id)].offset) : 0;
    static element_type* data(const pool_pointers& pools)
      requires in_arena
    {
      return reinterpret_cast<element_type*>(pools[pool] + offset);
    }
    static element_type* data()
      requires in_arena
    {
      return data(static_pools());
    }
  };

  template <tensor_role Role>
  static constexpr std::size_t external_count() {
    std::size_t n = 0;
    const std::int32_t count = Role == tensor_role::input ? M.input_count : M.output_count;
    for (std::int32_t i = 0; i < count; ++i) {
      const std::int32_t id = Role == tensor_role::input ? M.inputs[static_cast<std::size_t>(i)] : M.outputs[static_cast<std::size_t>(i)];
      n += M.allocations[static_cast<std::size_t>(id)].offset < 0 ? 1 : 0;
    }
    return n;
  }
  // The model inputs, then outputs, that run() takes a buffer for (all unless io_in_arena), as
  // (is output, index) pairs.
  static constexpr std::size_t external_inputs = external_count<tensor_role::input>();
  static constexpr std::size_t external_outputs = external_count<tensor_role::output>();
  static constexpr auto external = [] {
    std::array<std::array<std::size_t, 2>, external_inputs + external_outputs + 1> slots{};
    std::size_t k = 0;
    for (std::int32_t i = 0; i < M.input_count; ++i)
      if (M.allocations[static_cast<std::size_t>(M.inputs[static_cast<std::size_t>(i)])].offset < 0) slots[k++] = {0, static_cast<std::size_t>(i)};
    for (std::int32_t o = 0; o < M.output_count; ++o)
      if (M.allocations[static_cast<std::size_t>(M.outputs[static_cast<std::size_t>(o)])].offset < 0) slots[k++] = {1, static_cast<std::size_t>(o)};
    return slots;
  }();

 public:
  static constexpr auto& module = M;
  static constexpr std::size_t input_count = static_cast<std::size_t>(M.input_count);
  static constexpr std::size_t output_count = static_cast<std::size_t>(M.output_count);
  static constexpr std::size_t arena_bytes = static_cast<std::size_t>(M.arena_bytes);
  static constexpr std::size_t arena_alignment = static_cast<std::size_t>(M.arena_alignment);
  static constexpr std::size_t liveness_lower_bound = static_cast<std::size_t>(M.liveness_lower_bound);
  static constexpr std::size_t call_count = static_cast<std::size_t>(M.call_count);
  // Each pool by index (ctnn::shared_pools loops over them), and as pool<P> below.
  static constexpr std::string_view pool_name_at(std::size_t p) {
    return M.pool_count > 0 && M.pools[p].name != nullptr ? std::string_view{M.pools[p].name} : std::string_view{"arena"};
  }
  static constexpr std::size_t pool_bytes_at(std::size_t p) { return bytes_of_pool(p); }
  static constexpr std::size_t pool_alignment_at(std::size_t p) { return alignment_of_pool(p); }
  // The pools (ctnn::pools<>; one pool "arena" by default): pool<P>::name, ::bytes, ::alignment,
  // ::size_limit (-1: none), ::read_only, ::lower_bound (of its buffers), ::peak_op.
  static constexpr std::size_t pool_count = pool_total;
  template <std::size_t P>
    requires(P < pool_count)
  struct pool {
    static constexpr std::string_view name = pool_name_at(P);
    static constexpr std::size_t bytes = bytes_of_pool(P);
    static constexpr std::size_t alignment = alignment_of_pool(P);
    static constexpr std::int64_t size_limit = M.pool_count > 0 ? M.pools[P].size_limit : -1;
    static constexpr bool read_only = M.pool_count > 0 && M.pools[P].read_only;
    static constexpr std::int64_t lower_bound = M.pool_usage[P].lower_bound;
    static constexpr std::int32_t peak_op = M.pool_usage[P].peak_node;
  };
  // The index of the pool with this name (pool_count when there is none).
  static constexpr std::size_t pool_index(std::string_view name) {
    for (std::size_t p = 0; p < pool_count; ++p)
      if (M.pool_count > 0 && M.pools[p].name != nullptr && std::string_view{M.pools[p].name} == name) return p;
    return M.pool_count > 0 || name != "arena" ? pool_count : 0;
  }
  // Bytes of RAM in all: the writable pools plus the inputs and outputs kept in the caller's buffers.
  static constexpr std::size_t total_ram_bytes = [] {
    std::size_t total = static_cast<std::size_t>(M.io_bytes_outside);
    for (std::size_t p = 0; p < pool_count; ++p) total += bytes_of_pool(p);
    return total;
  }();

  // input<I>::dims, ::type, ::element_type, ::elements, ::bytes, ::name; likewise output<I>.
  template <std::size_t I>
    requires(I < input_count)
  using input = io<tensor_role::input, I>;
  template <std::size_t I>
    requires(I < output_count)
  using output = io<tensor_role::output, I>;

  // run(inputs..., outputs...): pointers to each input's elements, then to each output's (only those not
  // in the pools: see io_in_arena).
  template <class... Buffers>
  static void run(Buffers*... buffers) {
    if constexpr (pool_count == 1) run_with_arena(static_pool<0>::storage, buffers...);
    else run_with_pools(static_pools(), buffers...);
  }

  // As run(), in an arena of at least arena_bytes aligned to arena_alignment that the caller owns
  // (models with one pool; see run_with_pools).
  template <class... Buffers>
  static void run_with_arena(std::byte* arena, Buffers*... buffers) {
    static_assert(pool_count == 1, "ctnn::executor::run_with_arena: this model has several pools; give one pointer per "
                                   "pool to run_with_pools.");
    constexpr bool count_ok = sizeof...(Buffers) == external_inputs + external_outputs;
    static_assert(count_ok, "ctnn::executor::run: pass one pointer per model input, then one per model output.");
    if constexpr (count_ok) execute(pool_pointers{arena}, buffers...);
  }

  // As run(), with the caller's memory for every pool: pools[P] at least pool<P>::bytes long, aligned
  // to pool<P>::alignment. Re-entrant: each caller its own pools.
  template <class... Buffers>
  static void run_with_pools(const pool_pointers& pools, Buffers*... buffers) {
    constexpr bool count_ok = sizeof...(Buffers) == external_inputs + external_outputs;
    static_assert(count_ok, "ctnn::executor::run: pass one pointer per model input, then one per model output.");
    if constexpr (count_ok) execute(pools, buffers...);
  }

  // Call C alone, on the caller's pools and model buffers (inputs, then outputs, by position; the kernel
  // benchmarks time each call this way). The calls before C must have run on the same pools.
  template <std::size_t C>
    requires(C < call_count)
  static void run_call(const pool_pointers& pools, const void* const* inputs, void* const* outputs) {
    if constexpr (valid) invoke<C>(pools, inputs, outputs);
  }

  // The static pools run() uses.
  static pool_pointers static_pools() {
    return [&]<std::size_t... P>(std::index_sequence<P...>) { return pool_pointers{static_pool<P>::storage...}; }(
        std::make_index_sequence<pool_count>{});
  }

 private:
  // One static array per pool (in .bss), whatever the constness of the caller's buffers.
  template <std::size_t P>
  struct static_pool {
    alignas(alignment_of_pool(P)) static inline std::byte storage[bytes_of_pool(P) > 0 ? bytes_of_pool(P) : 1];
  };

  template <class... Buffers>
  static void execute(const pool_pointers& pools, Buffers*... buffers) {
    static_assert(buffers_match<Buffers...>(std::make_index_sequence<sizeof...(Buffers)>{}),
                  "ctnn::executor::run: a buffer's element type does not match the model's (see input<I>::element_type "
                  "and output<I>::element_type); outputs must not be const.");
    const std::array<const void*, sizeof...(Buffers) + 1> given{static_cast<const void*>(buffers)..., nullptr};
    const void* inputs[input_count > 0 ? input_count : 1]{};
    void* outputs[output_count > 0 ? output_count : 1]{};
    for (std::size_t k = 0; k < sizeof...(Buffers); ++k) {
      if (external[k][0] == 0) inputs[external[k][1]] = given[k];
      else outputs[external[k][1]] = const_cast<void*>(given[k]);
    }
    if constexpr (valid) {
      detail::for_each_index<call_count>([&](auto call) { invoke<decltype(call)::value>(pools, inputs, outputs); });
    }
  }

  template <class... Buffers, std::size_t... I>
  static constexpr bool buffers_match(std::index_sequence<I...>) {
    return (buffer_matches<I, Buffers>() && ...);
  }
  template <std::size_t I, class Buffer>
  static constexpr bool buffer_matches() {
    if constexpr (external[I][0] == 0) return std::is_same_v<std::remove_const_t<Buffer>, typename input<external[I][1]>::element_type>;
    else return std::is_same_v<Buffer, typename output<external[I][1]>::element_type>;
  }

  // Small tables copied out of M once. The per-call and per-constant functions below read these and do
  // not name M: clang re-emits the whole module constant for every instantiated function that names it,
  // which made compile time quadratic in the layer count (docs/compile_time.md).
  static constexpr auto call_table = M.calls;
  static constexpr auto constant_table = [] {
    std::array<const void*, M.tensors.size()> pointers{};
    for (std::size_t i = 0; i < pointers.size(); ++i) {
      const constant_data& d = M.tensors[i].data;
      pointers[i] = d.f32 != nullptr ? static_cast<const void*>(d.f32)
                    : d.i8 != nullptr ? static_cast<const void*>(d.i8)
                    : d.i32 != nullptr ? static_cast<const void*>(d.i32)
                                       : static_cast<const void*>(d.bytes);
    }
    return pointers;
  }();
  static constexpr auto recipe_table = [] {
    std::array<bool, M.tensors.size()> has_recipe{};
    for (std::size_t i = 0; i < has_recipe.size(); ++i) has_recipe[i] = M.tensors[i].recipe >= 0;
    return has_recipe;
  }();

  // What packing reads of each constant (runtime/packed_operands.hpp): the packed operands are keyed by
  // this table, not by M. A constant a pass computed is materialised here (its instantiation names M once).
  template <std::size_t T>
  static constexpr const float* computed_values() {
    if constexpr (recipe_table[T]) return constant_values_v<M, static_cast<std::int32_t>(T)>.data();
    else return nullptr;
  }
  static constexpr auto constant_views = []<std::size_t... T>(std::index_sequence<T...>) {
    std::array<constant_view, sizeof...(T) + 1> views{};
    const float* const computed[] = {computed_values<T>()..., nullptr};
    for (std::size_t i = 0; i < sizeof...(T); ++i) {
      const tensor& t = M.tensors[i];
      if (t.role != tensor_role::constant) continue;
      views[i] = constant_view{computed[i] != nullptr ? computed[i] : t.data.f32, t.data.i8, t.data.i32, t.data.bytes,
                               static_cast<std::size_t>(t.dims.elements())};
    }
    return views;
  }(std::make_index_sequence<static_cast<std::size_t>(M.tensor_count)>{});

  template <location L>
  static void* address(const pool_pointers& pools, const void* const* inputs, void* const* outputs) {
    if constexpr (L.where == storage::arena) return pools[L.index > 0 ? static_cast<std::size_t>(L.index) : 0] + L.offset;
    else if constexpr (L.where == storage::model_input) return const_cast<void*>(inputs[L.index]);
    else if constexpr (L.where == storage::model_output) return outputs[L.index];
    else if constexpr (L.where == storage::constant) {
      if constexpr (recipe_table[static_cast<std::size_t>(L.index)]) return const_cast<void*>(constant_address<M, L.index>());
      else return const_cast<void*>(constant_table[static_cast<std::size_t>(L.index)]);
    } else {
      return nullptr;
    }
  }

  // Operand K of call C: a constant the call's kernel reads re-laid out is passed packed.
  template <std::size_t C, std::size_t K>
  static const void* operand_address(const pool_pointers& pools, const void* const* inputs, void* const* outputs) {
    static constexpr const kernel_call& call = call_table[C];
    constexpr bool packed = Kernels::template packs_operand<call.params>(K) && call.operand_at[K].where != storage::none;
    static_assert(!packed || call.operand_at[K].where == storage::constant,
                  "ctnn::executor: the kernel of this call reads an operand re-laid out at compile time (weights), "
                  "but the operand is computed at run time; lower the op so that its weights are a constant.");
    if constexpr (packed) return packed_operand_v<constant_views, call.params, K, static_cast<std::size_t>(call.operands[K])>.data();
    else return address<call.operand_at[K]>(pools, inputs, outputs);
  }

  template <std::size_t C>
  static void invoke(const pool_pointers& pools, const void* const* inputs, void* const* outputs) {
    static constexpr const kernel_call& call = call_table[C];
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      const void* const operands[] = {operand_address<C, K>(pools, inputs, outputs)..., nullptr};
      if constexpr (call.params.per_channel != 0 && call.params.type == dtype::i8)
        call_kernel<C>(operands, address<call.result_at>(pools, inputs, outputs), requantization_of<M, C>(), pools);
      else
        call_kernel<C>(operands, address<call.result_at>(pools, inputs, outputs), kernel::requant_arrays{}, pools);
    }(std::make_index_sequence<static_cast<std::size_t>(call.operand_count)>{});
  }

  // Where plan_memory put each call's scratch (offset -1: none).
  static constexpr auto scratch_table = M.scratch;

  // Call C's kernel. A kernel that declares scratch (kernel_params::scratch_bytes) gets its address too:
  // planned with the activations, live during this call only, its contents undefined on entry.
  template <std::size_t C, std::size_t N>
  static void call_kernel(const void* const (&operands)[N], void* result, const kernel::requant_arrays& rq,
                          const pool_pointers& pools) {
    static constexpr const kernel_call& call = call_table[C];
    if constexpr (call.params.scratch_bytes > 0) {
      static constexpr memory::pool_allocation at = scratch_table[C];
      static_assert(at.offset >= 0, "ctnn::executor: a kernel declares scratch that plan_memory did not place.");
      Kernels::template invoke<call.params>(operands, result, rq, static_cast<void*>(pools[static_cast<std::size_t>(at.pool)] + at.offset));
    } else {
      Kernels::template invoke<call.params>(operands, result, rq);
    }
  }
};

}  // namespace ctnn
