#pragma once
// The static executor of a compiled module: a flat, fully unrolled list of kernel calls whose operand
// addresses are compile-time constants (arena offsets, model input/output slots, constants). No heap,
// no exceptions, no run-time dispatch.
//
//   using net = ctnn::compile<my_model>;
//   float in[net::input<0>::elements], out[net::output<0>::elements];
//   net::run(in, out);                       // static arena (one per pool) in .bss
//   net::run_with_arena(my_arena, in, out);  // caller's arena (re-entrant), net::arena_bytes long: void*,
//                                            // std::byte*, unsigned char*, char* or an array of those
//   net::run_with_pools({sram, dtcm}, in, out);  // caller's memory for each pool (net::pool<P>::bytes)
//
// A model with state (TFLite variable tensors: net::state_bytes > 0) keeps it between runs in a static state
// memory that run(), run_with_arena() and run_with_pools() update; net::reset_state() restores its initial
// values. Several streams of one model: net::run_with_state(state, pools, buffers...) with the caller's
// state memory per stream (state_bytes, aligned to state_alignment; net::reset_state(state) first).
//
// With ctnn::io_in_arena, model inputs and outputs live in the pools: run() takes no buffer for them;
// write net::input<I>::data() (or data(pools)) before and read net::output<I>::data() after. A streamed
// input (ctnn::streamed_input, input<I>::streamed) takes a pointer to a ctnn::row_source instead of a buffer.
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/errors.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/streamed_input.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/kernel/row_source.hpp>
#include <ctnn/runtime/arena_checker.hpp>
#include <ctnn/runtime/call_observer.hpp>
#include <ctnn/runtime/constants.hpp>
#include <ctnn/runtime/detail/planned_call.hpp>
#include <ctnn/runtime/packed_operands.hpp>
#include <ctnn/runtime/requantization.hpp>
#include <ctnn/runtime/typed_io.hpp>

namespace ctnn {

namespace detail {
template <class T>
inline constexpr bool is_byte_v = std::is_same_v<T, std::byte> || std::is_same_v<T, char> || std::is_same_v<T, unsigned char>;
// A writable pointer to bytes (or void), or an array of bytes: what run_with_arena takes as its arena.
template <class T>
concept byte_like_arena = (std::is_pointer_v<std::remove_cv_t<T>> &&
                           (std::is_same_v<std::remove_pointer_t<std::remove_cv_t<T>>, void> || is_byte_v<std::remove_pointer_t<std::remove_cv_t<T>>>)) ||
                          (std::is_array_v<T> && std::rank_v<T> == 1 && is_byte_v<std::remove_extent_t<T>>);
}  // namespace detail

// Each call runs the kernel that pass::select_kernels recorded in its parameters (kernel_params::choice).
template <auto& M>
class executor : detail::diagnostic_check<M.error> {
  static constexpr bool valid = !M.error.failed();
  static_assert(!valid || M.has(fact::main_lowered),
                "ctnn::executor<M>: M must have gone through aot_lower_main (use ctnn::compile<Model>).");
  static_assert(!valid || detail::scratch_is_placed(M),
                "ctnn::executor<M>: a call has scratch (module::scratch_bytes) that plan_memory did not place: "
                "reserve it in a pass before plan_memory.");

  static constexpr std::size_t pool_total = M.pool_count > 0 ? static_cast<std::size_t>(M.pool_count) : 1;
  static constexpr std::size_t bytes_of_pool(std::size_t p) {
    if (p == 0) return static_cast<std::size_t>(M.arena_bytes());  // passes after planning may grow the arena
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
    // ctnn::streamed_input: run() takes a ctnn::row_source* for it, which fills rows of row_bytes bytes.
    static constexpr bool streamed = Role == tensor_role::input && streamed_inputs(M)[I];
    static constexpr std::size_t row_bytes = dims.rank == 4 ? bytes / static_cast<std::size_t>(dims[0] * dims[1]) : bytes;
    // Quantized tensors (int8/uint8 models): real = scale * (q - zero_point). Not quantized: scale 0.
    static constexpr bool quantized = info.quant.quantized();
    static constexpr float scale = info.quant.scale;
    static constexpr std::int32_t zero_point = quantized ? info.quant.zero_point : 0;
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

 public:
  // The model inputs, then outputs, that run() takes a buffer for (all unless io_in_arena), as
  // (is output, index) pairs (the C API writes its parameter lists from them).
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
  static constexpr std::size_t arena_bytes = static_cast<std::size_t>(M.arena_bytes());
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
  // The state memory (tensors that keep their values between runs), outside the pools.
  static constexpr std::size_t state_bytes = static_cast<std::size_t>(M.state_bytes());
  static constexpr std::size_t state_alignment = static_cast<std::size_t>(M.state_alignment);
  // Bytes of RAM in all: the writable pools, the state, and the inputs and outputs kept in the caller's buffers.
  static constexpr std::size_t total_ram_bytes = [] {
    std::size_t total = static_cast<std::size_t>(M.io_bytes_outside) + state_bytes;
    for (std::size_t p = 0; p < pool_count; ++p) total += bytes_of_pool(p);
    return total;
  }();

  // input<I>: the model's I-th input, as constexpr members: ::dims (a ctnn::shape, in the model's own
  // layout), ::type (ctnn::dtype) and ::element_type (the C++ type of a buffer's elements), ::elements,
  // ::bytes, ::name, and its quantization: ::quantized, ::scale, ::zero_point (real = scale * (q - zero_point);
  // scale 0 when not quantized). Likewise output<I>. docs/metadata.md lists them with the JSON fields.
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

  // The arena of run_with_arena: any writable byte-like memory. A pointer to void, std::byte, char or
  // unsigned char (std::uint8_t) must point to arena_bytes bytes aligned to arena_alignment: a
  // precondition, as a byte pointer's type says nothing of either. An array of those has its size checked
  // at compile time; its alignment stays the caller's (alignas(net::arena_alignment) on the array).
  class arena_ref {
   public:
    arena_ref(std::nullptr_t) {}  // a model whose arena_bytes is 0
    template <class Arena>
      requires detail::byte_like_arena<std::remove_reference_t<Arena>>
    arena_ref(Arena&& arena) : bytes_(static_cast<std::byte*>(static_cast<void*>(+arena))) {
      if constexpr (std::is_array_v<std::remove_reference_t<Arena>>)
        static_assert(sizeof(arena) >= arena_bytes, "ctnn::executor::run_with_arena: the arena array is smaller than "
                                                     "net::arena_bytes.");
    }
    std::byte* bytes() const { return bytes_; }

   private:
    std::byte* bytes_ = nullptr;
  };

  // Typed buffers (runtime/typed_io.hpp): auto io = net::make_buffers(); net::run(io);
  static constexpr io_buffers<executor> make_buffers() { return {}; }
  static void run(io_buffers<executor>& io) {
    io.apply([](auto*... buffers) { run(buffers...); });
  }

  // As run(), in an arena of at least arena_bytes aligned to arena_alignment that the caller owns
  // (models with one pool; see run_with_pools).
  template <class... Buffers>
  static void run_with_arena(arena_ref arena, Buffers*... buffers) {
    static_assert(pool_count == 1, "ctnn::executor::run_with_arena: this model has several pools; give one pointer per "
                                   "pool to run_with_pools.");
    constexpr bool count_ok = sizeof...(Buffers) == external_inputs + external_outputs;
    static_assert(count_ok, "ctnn::executor::run: pass one pointer per model input, then one per model output.");
    if constexpr (count_ok) execute(pool_pointers{arena.bytes()}, buffers...);
  }

  // As run(), with the caller's memory for every pool: pools[P] at least pool<P>::bytes long, aligned
  // to pool<P>::alignment. Re-entrant: each caller its own pools.
  template <class... Buffers>
  static void run_with_pools(const pool_pointers& pools, Buffers*... buffers) {
    constexpr bool count_ok = sizeof...(Buffers) == external_inputs + external_outputs;
    static_assert(count_ok, "ctnn::executor::run: pass one pointer per model input, then one per model output.");
    if constexpr (count_ok) execute(pools, buffers...);
  }

  // As run_with_pools(), with the caller's state memory: state_bytes bytes aligned to state_alignment, set
  // by reset_state(state) before its first run. Re-entrant with its own pools and state per caller.
  template <class... Buffers>
  static void run_with_state(std::byte* state, const pool_pointers& pools, Buffers*... buffers) {
    constexpr bool count_ok = sizeof...(Buffers) == external_inputs + external_outputs;
    static_assert(count_ok, "ctnn::executor::run: pass one pointer per model input, then one per model output.");
    if constexpr (count_ok) execute_on(pools, state, buffers...);
  }

  // The static state memory to its initial values (what it holds before the first run).
  static void reset_state() { reset_state(static_state()); }
  // A caller's state memory (state_bytes long) to the initial values.
  static void reset_state(std::byte* state) {
    for (std::size_t b = 0; b < state_bytes; ++b) state[b] = initial_state[b];
  }
  // The static state memory that run() updates.
  static std::byte* static_state() { return static_state_memory.data(); }

  // Call C alone, on the caller's pools and model buffers (inputs, then outputs, by position; the kernel
  // benchmarks time each call this way). The calls before C must have run on the same pools.
  template <std::size_t C>
    requires(C < call_count)
  static void run_call(const pool_pointers& pools, const void* const* inputs, void* const* outputs) {
    if constexpr (valid)
      detail::run_planned_call<detail::plan_of(call_table[C], scratch_table[C])>(pools, inputs, outputs, call_constants[C].data(),
                                                                                 requantization_table[C], static_state());
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

  // The state memory's initial values: a state tensor's initial data where it has some (a resource variable a
  // CALL_ONCE initialises: the model file's bytes), else state_fill. Constant-initialised: .bss when all zero.
  static constexpr auto initial_state = [] {
    std::array<std::byte, state_bytes + 1> image{};
    for (std::int32_t t = 0; t < M.tensor_count; ++t) {
      const tensor& s = M.tensor_at(t);
      if (s.role != tensor_role::state) continue;
      const auto at = static_cast<std::size_t>(M.state_offset(t));
      for (std::size_t b = 0; b < static_cast<std::size_t>(s.bytes()); ++b)
        image[at + b] = static_cast<std::byte>(s.data.bytes != nullptr ? static_cast<std::uint8_t>(s.data.bytes[b]) : state_fill(s));
    }
    return image;
  }();
  alignas(state_alignment) static inline std::array<std::byte, state_bytes + 1> static_state_memory = initial_state;

  template <class... Buffers>
  static void execute(const pool_pointers& pools, Buffers*... buffers) {
    execute_on(pools, static_state(), buffers...);
  }
  template <class... Buffers>
  static void execute_on(const pool_pointers& pools, std::byte* state, Buffers*... buffers) {
    static_assert(buffers_match<Buffers...>(std::make_index_sequence<sizeof...(Buffers)>{}),
                  "ctnn::executor::run: a buffer's element type does not match the model's (see input<I>::element_type "
                  "and output<I>::element_type; a streamed input, input<I>::streamed, takes a ctnn::row_source*); outputs "
                  "must not be const.");
    const std::array<const void*, sizeof...(Buffers) + 1> given{static_cast<const void*>(buffers)..., nullptr};
    const void* inputs[input_count > 0 ? input_count : 1]{};
    void* outputs[output_count > 0 ? output_count : 1]{};
    for (std::size_t k = 0; k < sizeof...(Buffers); ++k) {
      if (external[k][0] == 0) inputs[external[k][1]] = given[k];
      else outputs[external[k][1]] = const_cast<void*>(given[k]);
    }
    if constexpr (valid) {
      // Every call in one function body, in order (a braced list evaluates left to right; a comma fold
      // of hundreds of calls exceeds clang's expression nesting limit of 256). No per-call function of
      // this class: their names would contain M (runtime/detail/planned_call.hpp).
      [[maybe_unused]] const detail::arena_check<executor> arena{pools};  // runtime/arena_checker.hpp: nothing unless opted in
      [&]<std::size_t... C>(std::index_sequence<C...>) {
        [[maybe_unused]] const int in_order[] = {
            (detail::observe_call(call_event::begin, C),  // runtime/call_observer.hpp: nothing unless opted in
             arena.before_call(C),
             detail::run_planned_call<detail::plan_of(call_table[C], scratch_table[C])>(
                 pools, inputs, outputs, call_constants[C].data(), requantization_table[C], state),
             detail::observe_call(call_event::end, C), 0)...,
            0};
      }(std::make_index_sequence<call_count>{});
    }
  }

  template <class... Buffers, std::size_t... I>
  static constexpr bool buffers_match(std::index_sequence<I...>) {
    return (buffer_matches<I, Buffers>() && ...);
  }
  template <std::size_t I, class Buffer>
  static constexpr bool buffer_matches() {
    if constexpr (external[I][0] != 0) return std::is_same_v<Buffer, typename output<external[I][1]>::element_type>;
    else if constexpr (input<external[I][1]>::streamed) return std::is_same_v<std::remove_const_t<Buffer>, row_source>;
    else return std::is_same_v<std::remove_const_t<Buffer>, typename input<external[I][1]>::element_type>;
  }

  // Small tables copied out of M once. Nothing below is instantiated per call or per constant under a
  // name that contains M: clang re-emits the whole module constant for every instantiated function
  // that names it, and g++ mangles the name of every function and variable it instantiates (constexpr,
  // consteval and lambdas included), a name that contains the model type; either made compile time
  // superlinear in the layer count (docs/compile_time.md). Per-call work is expanded in one place, with
  // templates keyed by values (kernel_params, locations, a user array's view).
  static constexpr auto call_table = M.calls;
  static constexpr auto scratch_table = M.scratch;  // where plan_memory put each call's scratch
  static constexpr std::size_t slot_width = max_node_inputs;  // operand slots per call
  static constexpr std::size_t slot_count = call_count * slot_width;

  // The constants that passes computed, materialised (one variable each, keyed by M and the tensor).
  static constexpr auto recipe_tensors = [] {
    detail::index_list<M.tensors.size()> list{};
    for (std::int32_t i = 0; i < M.tensor_count; ++i)
      if (M.tensors[static_cast<std::size_t>(i)].recipe >= 0) list.add(static_cast<std::size_t>(i));
    return list;
  }();
  // Per element type (float32, and int8 and int32 for fold_constants' integer concatenations): its address, else
  // nullptr.
  template <class Element, std::int32_t T>
  static constexpr const Element* computed_as() {
    if constexpr (std::is_same_v<typename decltype(constant_values_v<M, T>)::value_type, Element>) return constant_values_v<M, T>.data();
    else return nullptr;
  }
  template <class Element>
  static constexpr auto computed_values = []<std::size_t... R>(std::index_sequence<R...>) {
    std::array<const Element*, M.tensors.size()> values{};
    const Element* const data[] = {computed_as<Element, static_cast<std::int32_t>(recipe_tensors.at[R])>()..., nullptr};
    for (std::size_t r = 0; r < sizeof...(R); ++r) values[recipe_tensors.at[r]] = data[r];
    return values;
  }(std::make_index_sequence<recipe_tensors.count>{});

  // What packing reads of each constant (runtime/packed_operands.hpp).
  static constexpr auto constant_views = [] {
    std::array<constant_view, M.tensors.size()> views{};
    for (std::size_t i = 0; i < static_cast<std::size_t>(M.tensor_count); ++i) {
      const tensor& t = M.tensors[i];
      if (t.role != tensor_role::constant) continue;
      const float* computed = computed_values<float>[i];
      const std::int8_t* computed_i8 = computed_values<std::int8_t>[i];
      const std::int32_t* computed_i32 = computed_values<std::int32_t>[i];
      const bool is_computed = computed != nullptr || computed_i8 != nullptr || computed_i32 != nullptr;
      views[i] = constant_view{computed != nullptr ? computed : t.data.f32, computed_i8 != nullptr ? computed_i8 : t.data.i8,
                               computed_i32 != nullptr ? computed_i32 : t.data.i32, t.data.bytes,
                               static_cast<std::size_t>(t.dims.elements()), t.data.user_array && !is_computed ? 1u : 0u,
                               static_cast<std::size_t>(t.type)};
    }
    return views;
  }();

  // Where each constant lies in its model file (count 0: it names no file, or a pass replaced its values).
  static constexpr auto file_slices = [] {
    std::array<file_slice, M.tensors.size()> slices{};
    for (std::size_t i = 0; i < static_cast<std::size_t>(M.tensor_count); ++i) {
      const tensor& t = M.tensors[i];
      const constant_view& view = constant_views[i];
      if (t.role == tensor_role::constant && view.f32 == nullptr && view.i8 == nullptr && view.i32 == nullptr &&
          t.data.bytes != nullptr && t.data.file != nullptr)
        slices[i] = {t.data.file, static_cast<std::size_t>(t.data.bytes - t.data.file), view.count, view.type};
    }
    return slices;
  }();

  // How each operand slot (call * slot_width + operand) is passed when it is a constant: packed where the
  // call's recorded kernel packs it, else as the array that holds it, or its copy out of the model file.
  static constexpr auto slot_sources = [] {
    std::array<detail::operand_source, slot_count + 1> sources{};
    for (std::size_t slot = 0; slot < slot_count; ++slot) {
      const location& at = call_table[slot / slot_width].operand_at[slot % slot_width];
      if (at.where != storage::constant) continue;
      const constant_view& view = constant_views[static_cast<std::size_t>(at.index)];
      const bool in_file = file_slices[static_cast<std::size_t>(at.index)].file != nullptr;
      if (!call_table[slot / slot_width].params.choice.packs(static_cast<std::int32_t>(slot % slot_width)))
        sources[slot] = view.f32 != nullptr || view.i8 != nullptr || view.i32 != nullptr ? detail::operand_source::own_array
                        : in_file                                                       ? detail::operand_source::file_copy
                                                                                        : detail::operand_source::table_copy;
      else if (view.user_array != 0) sources[slot] = detail::operand_source::packed_user_array;
      else if (in_file) sources[slot] = detail::operand_source::packed_file;
      else sources[slot] = detail::operand_source::packed_table;
    }
    return sources;
  }();
  static constexpr auto slots_of(detail::operand_source source) {
    detail::index_list<slot_count + 1> list{};
    for (std::size_t slot = 0; slot < slot_count; ++slot)
      if (slot_sources[slot] == source) list.add(slot);
    return list;
  }
  static constexpr auto user_array_slots = slots_of(detail::operand_source::packed_user_array);
  static constexpr auto file_copy_slots = slots_of(detail::operand_source::file_copy);
  static constexpr auto table_copy_slots = slots_of(detail::operand_source::table_copy);
  static constexpr auto packed_file_slots = slots_of(detail::operand_source::packed_file);
  static constexpr auto constant_slots = slots_of(detail::operand_source::packed_table);
  static constexpr std::size_t tensor_at(std::size_t slot) {
    return static_cast<std::size_t>(call_table[slot / slot_width].operand_at[slot % slot_width].index);
  }

  // Every call's constant operands, one row per call (nullptr for the others): packed for the call's
  // kernel when it packs them, else the user's array or the one a pass computed (zero-copy), or a copy
  // out of the model file (which is then read by the compiler only). The only per-call data of this
  // class that is emitted (one symbol); the calls read it with constant indices.
  static constexpr auto call_constants = [] {
    std::array<std::array<const void*, slot_width>, call_count + 1> rows{};
    for (std::size_t slot = 0; slot < slot_count; ++slot) {
      if (slot_sources[slot] != detail::operand_source::own_array) continue;
      const constant_view& view = constant_views[tensor_at(slot)];
      rows[slot / slot_width][slot % slot_width] = view.f32 != nullptr  ? static_cast<const void*>(view.f32)
                                                   : view.i8 != nullptr  ? static_cast<const void*>(view.i8)
                                                                         : static_cast<const void*>(view.i32);
    }
    const auto fill = [&rows](const auto& slots, const void* const* addresses) {
      for (std::size_t k = 0; k < slots.count; ++k) rows[slots.at[k] / slot_width][slots.at[k] % slot_width] = addresses[k];
    };
    [&]<std::size_t... S>(std::index_sequence<S...>) {
      const void* const copies[] = {file_constant_v<file_slices[tensor_at(file_copy_slots.at[S])]>.data()..., nullptr};
      fill(file_copy_slots, copies);
    }(std::make_index_sequence<file_copy_slots.count>{});
    [&]<std::size_t... S>(std::index_sequence<S...>) {
      const void* const copies[] = {stored_constant_v<constant_views, tensor_at(table_copy_slots.at[S])>.data()..., nullptr};
      fill(table_copy_slots, copies);
    }(std::make_index_sequence<table_copy_slots.count>{});
    [&]<std::size_t... S>(std::index_sequence<S...>) {
      const void* const packed[] = {packed_file_constant_v<call_table[packed_file_slots.at[S] / slot_width].params,
                                                           packed_file_slots.at[S] % slot_width,
                                                           file_slices[tensor_at(packed_file_slots.at[S])]>.data()...,
                                    nullptr};
      fill(packed_file_slots, packed);
    }(std::make_index_sequence<packed_file_slots.count>{});
    [&]<std::size_t... U>(std::index_sequence<U...>) {
      const void* const packed[] = {
          packed_user_array_v<call_table[user_array_slots.at[U] / slot_width].params, user_array_slots.at[U] % slot_width,
                              constant_views[tensor_at(user_array_slots.at[U])]>.data()...,
          nullptr};
      for (std::size_t u = 0; u < sizeof...(U); ++u) rows[user_array_slots.at[u] / slot_width][user_array_slots.at[u] % slot_width] = packed[u];
    }(std::make_index_sequence<user_array_slots.count>{});
    [&]<std::size_t... P>(std::index_sequence<P...>) {
      const void* const packed[] = {packed_constant_v<constant_views, call_table[constant_slots.at[P] / slot_width].params,
                                                      constant_slots.at[P] % slot_width, tensor_at(constant_slots.at[P])>.data()...,
                                    nullptr};
      for (std::size_t p = 0; p < sizeof...(P); ++p) rows[constant_slots.at[p] / slot_width][constant_slots.at[p] % slot_width] = packed[p];
    }(std::make_index_sequence<constant_slots.count>{});
    return rows;
  }();

  // Every call's per-channel requantization arrays (empty for calls without), one emitted table.
  static constexpr auto requantized_calls = [] {
    detail::index_list<call_count + 1> list{};
    for (std::size_t c = 0; c < call_count; ++c)
      if (call_table[c].requantization.table != ::ctnn::requantization_table::none) list.add(c);  // calls with a table
    return list;
  }();
  static constexpr auto requantization_table = []<std::size_t... R>(std::index_sequence<R...>) {
    std::array<kernel::requant_arrays, call_count + 1> table{};
    const kernel::requant_arrays arrays[] = {requantization_of<M, requantized_calls.at[R]>()..., kernel::requant_arrays{}};
    for (std::size_t r = 0; r < sizeof...(R); ++r) table[requantized_calls.at[r]] = arrays[r];
    return table;
  }(std::make_index_sequence<requantized_calls.count>{});
};

}  // namespace ctnn
