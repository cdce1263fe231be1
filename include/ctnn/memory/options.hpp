#pragma once
// Memory options of ctnn::compile (and of pass::plan_memory): pools, pins, the planner and the reuse
// tricks. Each is a type; compile takes them in any order:
//
//   using net = ctnn::compile<model,
//                             ctnn::pools<ctnn::pool<"dtcm", 16 * 1024>, ctnn::pool<"sram", 64 * 1024>>,
//                             ctnn::pin<"conv1", "dtcm">,             // a tensor, by name
//                             ctnn::pin_kind<ctnn::memory::buffer_kind::scratch, "dtcm">,
//                             ctnn::planner<ctnn::memory::hill_climb<7>>,
//                             ctnn::in_place_ops, ctnn::memory_aware_order,
//                             ctnn::in_place_windows>;
//
// docs/memory.md describes each one.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <ctnn/ir/name.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/placement_algorithm.hpp>

namespace ctnn {

namespace memory {

enum class pin_target : std::int32_t { tensor, op, kind };

// One pin: buffers of a tensor (by name), of an op's result (by op index before planning) or of a kind
// go only to the named pool. Later pins win over earlier ones.
struct pin_rule {
  pin_target target = pin_target::tensor;
  name tensor{};
  std::int32_t op = -1;
  buffer_kind kind = buffer_kind::intermediate;
  name pool{};
};

// Everything plan_memory's options say, as one value.
struct plan_config {
  std::array<pool_info, max_pools> pools{};  // pool_count 0: keep the module's pools
  std::int32_t pool_count = 0;
  std::array<pin_rule, max_pins> pins{};
  std::int32_t pin_count = 0;
  bool in_place = false;         // element-wise ops write over an operand that dies there
  bool concat_in_place = false;  // producers write a concat's inputs into its output
  bool slice_in_place = false;   // a slice that is one contiguous block of its input is stored inside it
  bool reorder = false;          // memory-aware operator order for DAGs
  bool io_in_arena = false;      // model inputs and outputs live in the pools
  bool in_place_depthwise = false;  // a depthwise conv writes its result over its dying input, shifted
  bool in_place_conv = false;       // the same for conv2d (NHWC, ctnn's layout)
};

// Options are types with `static constexpr void apply(plan_config&)` and this tag.
template <class T>
concept memory_option = requires(plan_config& c) {
  typename T::ctnn_memory_option;
  T::apply(c);
};

namespace detail {
// Stands in for a type given to ctnn::planner<> that is not a placement algorithm (reported already).
struct rejected_algorithm {
  template <class Buffers, class Allocations>
  static constexpr std::int64_t plan(const Buffers&, std::int32_t, Allocations&) {
    return 0;
  }
};
}  // namespace detail

template <class... Options>
constexpr plan_config make_plan_config() {
  plan_config config{};
  (Options::apply(config), ...);
  return config;
}

}  // namespace memory

// A memory pool: its name, size limit in bytes (-1: none) and alignment. Budgets are checked at compile
// time: a plan that does not fit a pool's limit (after falling back to later pools) does not compile.
template <fixed_string Name, std::int64_t Limit = -1, std::int32_t Alignment = 16>
struct pool {
  static_assert(Alignment > 0 && (Alignment & (Alignment - 1)) == 0, "ctnn::pool: the alignment is a power of two.");
  static_assert(Name.view().size() > 0, "ctnn::pool: give the pool a name.");
  static constexpr auto label = Name;
  static constexpr memory::pool_info info{label.text, Limit, Alignment, false};
};
// A read-only pool (flash): holds no planned buffer; its limit bounds the model's constant bytes.
template <fixed_string Name, std::int64_t Limit = -1>
struct read_only_pool {
  static constexpr auto label = Name;
  static constexpr memory::pool_info info{label.text, Limit, 4, true};
};

// The pools, in fallback order: a buffer goes to the first pool (among its candidates) that has room.
template <class... Pools>
struct pools {
  using ctnn_memory_option = void;
  static_assert(sizeof...(Pools) >= 1 && sizeof...(Pools) <= memory::max_pools,
                "ctnn::pools: list 1 to ctnn::memory::max_pools (8) pools.");
  static_assert((!Pools::info.read_only || ...), "ctnn::pools: list at least one writable pool (ctnn::pool<>).");
  static constexpr void apply(memory::plan_config& c) {
    c.pool_count = 0;
    ((c.pools[static_cast<std::size_t>(c.pool_count++)] = Pools::info), ...);
  }
};

// Pins: only the named pool may hold these buffers (the plan fails to compile when it is full).
template <fixed_string Tensor, fixed_string Pool>
struct pin {
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) {
    c.pins[static_cast<std::size_t>(c.pin_count++)] =
        memory::pin_rule{memory::pin_target::tensor, name{Tensor.view()}, -1, memory::buffer_kind::intermediate, name{Pool.view()}};
  }
};
template <std::int32_t Op, fixed_string Pool>
struct pin_op {
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) {
    c.pins[static_cast<std::size_t>(c.pin_count++)] =
        memory::pin_rule{memory::pin_target::op, name{}, Op, memory::buffer_kind::intermediate, name{Pool.view()}};
  }
};
template <memory::buffer_kind Kind, fixed_string Pool>
struct pin_kind {
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) {
    c.pins[static_cast<std::size_t>(c.pin_count++)] = memory::pin_rule{memory::pin_target::kind, name{}, -1, Kind, name{Pool.view()}};
  }
};

// Reuse tricks (off by default: they change offsets that existing plans rely on; docs/memory.md).
struct in_place_ops {  // add/mul/relu/relu6/sigmoid/tanh/batch_norm/quantize/dequantize over a dying operand
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.in_place = true; }
};
struct concat_in_place {  // producers write straight into a concat's output (outermost-axis concats)
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.concat_in_place = true; }
};
struct slice_in_place {  // a slice, split or unpack part that is a contiguous block of its input lives inside it
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.slice_in_place = true; }
};
struct memory_aware_order {  // DAGs: the operator order with the lower liveness peak
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.reorder = true; }
};
struct memory_reuse {  // all four above
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.in_place = c.concat_in_place = c.slice_in_place = c.reorder = true; }
};
// In-place convolutions: a convolution may write its result over its input where the input dies there,
// starting far enough below it that no output pixel overwrites input a later pixel reads
// (memory/in_place_window.hpp; the result may be larger than the input: VWW's 1x1 conv 8 -> 16 channels
// needs its input's bytes plus the shift, 36,872 B, not the sum, 55,296 B). Used only where it lowers
// the liveness peak (plan_memory tries the ops at the peak, one step at a time, while the peak goes
// down) and the pools get smaller. Calls whose result the plan put over their input are marked
// kernel_params::in_place: they run the reference kernel (a vectorised kernel may walk the pixels in
// another order). Not part of memory_reuse: they trade kernel speed for RAM.
struct in_place_depthwise {  // depthwise_conv2d only
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.in_place_depthwise = true; }
};
struct in_place_conv {  // conv2d only (any window, stride, dilation, padding, groups; not ONNX's NCHW layout)
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.in_place_conv = true; }
};
struct in_place_windows {  // both
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.in_place_depthwise = c.in_place_conv = true; }
};
// Model inputs and outputs live in the pools: run() then takes no buffers for them; fill
// net::input<I>::data() and read net::output<I>::data().
struct io_in_arena {
  using ctnn_memory_option = void;
  static constexpr void apply(memory::plan_config& c) { c.io_in_arena = true; }
};

namespace detail {

// The algorithm given to ctnn::planner<A> against ctnn::placement_algorithm, one member at a time: the
// static_assert that fails names the first member missing (the instantiation names A).
template <class Algorithm>
struct check_planner_algorithm {
  static_assert(algorithm_has_plan<Algorithm>,
                "ctnn::planner<A>: A has no `plan` member: a placement algorithm is a struct with `template <class "
                "Buffers, class Allocations> static constexpr std::int64_t plan(const Buffers& buffers, std::int32_t "
                "count, Allocations& allocations)` (memory/algorithms.hpp).");
  static_assert(!algorithm_has_plan<Algorithm> || algorithm_plan_takes_buffers<Algorithm>,
                "ctnn::planner<A>: A::plan cannot be called as `A::plan(buffers, count, allocations)` (a const "
                "std::array<ctnn::memory::buffer_info, N>&, a std::int32_t, a std::array<ctnn::memory::pool_allocation, "
                "N>&) returning the pool size: declare it `static constexpr std::int64_t plan(...)` (a template over "
                "the two array types).");
};

}  // namespace detail

// The placement algorithm (memory/algorithms.hpp, or your own type with a static constexpr plan()):
// Algorithm must satisfy ctnn::placement_algorithm (memory/placement_algorithm.hpp).
template <class Algorithm>
struct planner {
  static_assert(sizeof(detail::check_planner_algorithm<Algorithm>) > 0);  // its sentence names the member missing
  using ctnn_planner_option = void;
  // A rejected algorithm is replaced by one that places nothing, so that the check's sentence is the only
  // error.
  using type = std::conditional_t<placement_algorithm<Algorithm>, Algorithm, memory::detail::rejected_algorithm>;
};

}  // namespace ctnn
