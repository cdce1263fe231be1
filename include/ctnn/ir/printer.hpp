#pragma once
// Readable text of a module at any stage of the pipeline, like TVM's printed Relay/TIR, from the same
// constexpr value table the passes produce (docs/design.md §2: the same code runs at run time).
//
//   print_module(m, sink)       everything the stage has: header (name, facts, counts, diagnostic), the
//                               tensors that matter (inputs, outputs, constants and where their values
//                               come from, views), the graph ops; once lowered the kernel calls and the
//                               distinct kernels; once planned the memory plan; once main is lowered
//                               each call's operand locations; then function and executor metadata.
//   print_summary(m, sink)      one line per op (index, kind, name, fused activation, shapes).
//   print_memory_plan(m, sink)  arena size, liveness lower bound, one line per pool (several pools), one
//                               row per placed tensor (its pool's name after it with several) and per
//                               call's scratch ("scratch of call C").
//
// The sink is any callable taking std::string_view (a lambda appending to a string, fwrite to stdout,
// a UART writer). No iostream, no heap, no floating-point formatting from the C library: the header
// compiles for bare-metal targets (arm-none-eabi) and costs little flash there. The work is done by
// inline functions on a capacity-free view of the module (detail::module_view) through a type-erased
// sink, so a translation unit compiles the printers once, however many models it prints.
//
// print_module's layout (columns count from 0; a field that reaches past its column is separated from
// the one before by one space; numbers are right-aligned in their width):
//   module "<name>" / facts: <names in bit order, or none> / counts: ... / status: ok | error: <code> ...
//   inputs (n), outputs (n): "  input K" (or "  output K"), %id at 12, name at 17, type ("f32[1,8,8,1]",
//                        "?" before infer_types) at 36, bytes (6 wide) + " B" at 56
//   constants (n), views (n): %id at 2, name at 7, type at 26, then at 46 the bytes (6 wide) + " B" +
//                        "  " + origin (constants), or "alias_of %id (name)" (views)
//   ops (n):             index (4 wide), two spaces, kind, "label", +activation, attributes; next line,
//                        8 spaces: "(operand: type, ...) -> result: type" (an absent operand: none)
//   calls (n):           "  call " + index (2 wide) + "  op N (label)", at 36 "kernel K" [(shared by n calls)];
//                        once kernels are selected, "  runs <impl>[ <isa>]" and the layout of each constant
//                        operand, "  constants: 1 packed, 2 stored"; a quantized call's requantization on
//                        the next line (ir/requantization_text.hpp)
//   kernels (k distinct for n calls): "  kernel " + id (2 wide) + two spaces + the kernel's parameters
//                        [+ "  runs <impl>[ <isa>]"]
//   memory plan:         as print_memory_plan, indented by two spaces
//   main (n calls):      "  call " + index (2 wide) + "  kernel " + id (2 wide) + "  label(locations) -> location"
//                        (locations: arena+offset, input K, output K, constant <name>)
//   function metadata:   kernel (8 wide), op kind at 10, calls (5 wide) at 28, workspace, io, constants (11 wide)
//   executor metadata:   model line; "  input K"/"  output K"/"  pool K", name at 12, type at 34 and bytes
//                        (6 wide) at 54 (pools: bytes 8 wide at 34, alignment, read-only or read-write)
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/requantization_text.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn {

namespace detail {

// ---------------------------------------------------------------------------------------------------
// Names of the IR's enums (a switch without default: -Wswitch flags an enumerator added without a name).

constexpr std::string_view error_code_name(error_code c) {
  if (is_frontend_error(c)) return name_of(static_cast<frontend_error>(c));
  if (is_memory_error(c)) return name_of(static_cast<memory_error>(c));
  switch (c) {
    case error_code::none: return "none";
    case error_code::input_shapes_differ: return "input_shapes_differ";
    case error_code::weight_count_mismatch: return "weight_count_mismatch";
    case error_code::bias_count_mismatch: return "bias_count_mismatch";
    case error_code::weights_and_bias_disagree: return "weights_and_bias_disagree";
    case error_code::channels_not_divisible: return "channels_not_divisible";
    case error_code::window_larger_than_input: return "window_larger_than_input";
    case error_code::reshape_element_count: return "reshape_element_count";
    case error_code::invalid_reshape_target: return "invalid_reshape_target";
    case error_code::window_all_padding: return "window_all_padding";
    case error_code::pads_beyond_rank: return "pads_beyond_rank";
    case error_code::unsupported_rank: return "unsupported_rank";
    case error_code::invalid_axis: return "invalid_axis";
    case error_code::unknown_input_name: return "unknown_input_name";
    case error_code::too_many_inputs: return "too_many_inputs";
    case error_code::input_count_mismatch: return "input_count_mismatch";
    case error_code::unsupported_dtype: return "unsupported_dtype";
    case error_code::pass_prerequisite_missing: return "pass_prerequisite_missing";
    case error_code::pipeline_rejected: return "pipeline_rejected";
  }
  return "?";
}

constexpr std::string_view fact_name(fact f) {
  switch (f) {
    case fact::shapes_inferred: return "shapes_inferred";
    case fact::kernels_lowered: return "kernels_lowered";
    case fact::memory_planned: return "memory_planned";
    case fact::main_lowered: return "main_lowered";
    case fact::function_metadata: return "function_metadata";
    case fact::executor_metadata: return "executor_metadata";
    case fact::kernels_selected: return "kernels_selected";
  }
  return {};  // not a single known fact
}

constexpr std::string_view pad_mode_name(pad_mode m) {
  switch (m) {
    case pad_mode::constant: return "constant";
    case pad_mode::reflect: return "reflect";
    case pad_mode::edge: return "edge";
    case pad_mode::wrap: return "wrap";
  }
  return "?";
}

constexpr std::string_view padding_name(padding p) {
  switch (p) {
    case padding::valid: return "valid";
    case padding::same: return "same";
    case padding::explicit_pads: return "explicit";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------------
// What the printers read of a module, without its capacities: the printers are plain inline functions
// compiled once per translation unit, not once per module type (compile time, and flash when firmware
// prints several models).
struct module_view {
  const name& model_name;
  const tensor* tensors;
  std::int32_t tensor_count;
  const node* nodes;
  std::int32_t node_count;
  const std::int32_t* inputs;
  std::int32_t input_count;
  const std::int32_t* outputs;
  std::int32_t output_count;
  std::uint32_t facts;
  const diagnostic& error;
  const constant_recipe* recipes;
  std::int32_t recipe_count;
  const kernel_call* calls;
  std::int32_t call_count;
  const kernel_params* kernels;
  std::int32_t kernel_count;
  const function_info* functions;
  const executor_info& metadata;
  const memory::pool_allocation* allocations;
  std::int64_t arena_bytes;
  std::int32_t arena_alignment;
  std::int64_t liveness_lower_bound;
  std::int32_t peak_node;
  // The plan's pools and per-call scratch (plan_memory; docs/memory.md).
  const memory::pool_info* pools;
  std::int32_t pool_count;
  const memory::pool_usage* pool_usage;
  const memory::pool_allocation* scratch;  // per call
  const std::int64_t* scratch_bytes;       // per call

  constexpr bool has(fact f) const { return (facts & static_cast<std::uint32_t>(f)) != 0; }
  constexpr const tensor& tensor_at(std::int32_t id) const { return tensors[id]; }
  constexpr const node& node_at(std::int32_t id) const { return nodes[id]; }
  constexpr bool valid_tensor(std::int32_t id) const { return id >= 0 && id < tensor_count; }
  constexpr bool valid_node(std::int32_t id) const { return id >= 0 && id < node_count; }
  // As module::storage_root (a view's storage is its root's), safe on malformed ids.
  constexpr std::int32_t storage_root(std::int32_t id) const {
    for (std::int32_t steps = 0; valid_tensor(id) && tensor_at(id).alias_of >= 0 && steps < tensor_count; ++steps)
      id = tensor_at(id).alias_of;
    return id;
  }
};

template <class Module>
constexpr module_view view_of(const Module& m) {
  return {.model_name = m.model_name,
          .tensors = m.tensors.data(),
          .tensor_count = m.tensor_count,
          .nodes = m.nodes.data(),
          .node_count = m.node_count,
          .inputs = m.inputs.data(),
          .input_count = m.input_count,
          .outputs = m.outputs.data(),
          .output_count = m.output_count,
          .facts = m.facts,
          .error = m.error,
          .recipes = m.recipes.data(),
          .recipe_count = m.recipe_count,
          .calls = m.calls.data(),
          .call_count = m.call_count,
          .kernels = m.kernels.data(),
          .kernel_count = m.kernel_count,
          .functions = m.functions.data(),
          .metadata = m.metadata,
          .allocations = m.allocations.data(),
          .arena_bytes = m.arena_bytes(),
          .arena_alignment = m.arena_alignment,
          .liveness_lower_bound = m.liveness_lower_bound,
          .peak_node = m.peak_node,
          .pools = m.pools.data(),
          .pool_count = m.pool_count,
          .pool_usage = m.pool_usage.data(),
          .scratch = m.scratch.data(),
          .scratch_bytes = m.scratch_bytes.data()};
}

// The ops that read a tensor's storage: its first use is the op that writes it, its last use the last
// op that reads it or a view of it (as plan_memory computes lifetimes, in op order).
struct tensor_lifetime {
  std::int32_t first_use = -1;
  std::int32_t last_use = -1;
};
constexpr tensor_lifetime lifetime_of(const module_view& m, std::int32_t tensor_id) {
  const std::int32_t producer = m.tensor_at(tensor_id).producer;
  tensor_lifetime life{producer, producer};
  for (std::int32_t op = 0; op < m.node_count; ++op) {
    const node& n = m.node_at(op);
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
      if (m.valid_tensor(t) && m.storage_root(t) == tensor_id && op > life.last_use) life.last_use = op;
    }
  }
  return life;
}

// Whether any graph op reads the tensor (directly).
constexpr bool read_by_an_op(const module_view& m, std::int32_t tensor_id) {
  for (std::int32_t op = 0; op < m.node_count; ++op) {
    const node& n = m.node_at(op);
    for (std::int32_t k = 0; k < n.input_count; ++k)
      if (n.inputs[static_cast<std::size_t>(k)] == tensor_id) return true;
  }
  return false;
}

// How many calls use a kernel.
constexpr std::int32_t calls_of_kernel(const module_view& m, std::int32_t kernel) {
  std::int32_t count = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) count += m.calls[c].kernel == kernel ? 1 : 0;
  return count;
}

// Whether a tensor's shape is known at this stage (before infer_types only inputs and constants have one).
constexpr bool shape_known(const module_view& m, const tensor& t) {
  return m.has(fact::shapes_inferred) || t.role == tensor_role::input || t.role == tensor_role::constant;
}

// A callable object taking std::string_view, behind one function pointer (the public functions wrap
// whatever sink they are given in a lambda first, so functions and function pointers work too).
class sink_ref {
 public:
  template <class Sink>
    requires(!std::is_same_v<std::remove_cvref_t<Sink>, sink_ref>)
  explicit sink_ref(Sink& sink)
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(sink)))),
        call_([](void* object, std::string_view text) { (*static_cast<Sink*>(object))(text); }) {}
  void operator()(std::string_view text) const { call_(object_, text); }

 private:
  void* object_;
  void (*call_)(void*, std::string_view);
};

// ---------------------------------------------------------------------------------------------------
// A sink wrapper that knows its column (for aligned tables) and formats numbers.
class text_writer {
 public:
  explicit text_writer(sink_ref sink) : sink_(sink) {}

  void put(std::string_view text) {
    if (text.empty()) return;
    sink_(text);
    const std::size_t newline = text.rfind('\n');
    column_ = newline == std::string_view::npos ? column_ + text.size() : text.size() - newline - 1;
  }
  void line() { put("\n"); }
  void spaces(std::size_t count) {
    constexpr std::string_view blank = "                                ";
    for (; count > blank.size(); count -= blank.size()) put(blank);
    put(blank.substr(0, count));
  }
  // Pads to `column`; text already past it is separated by one space.
  void tab(std::size_t column) { spaces(column_ < column ? column - column_ : 1); }
  // Pads to `column` without the separating space (fixed-width fields that may touch).
  void pad_to(std::size_t column) { spaces(column_ < column ? column - column_ : 0); }

  // A decimal integer, right-aligned in `width` columns (wider numbers are printed whole).
  void number(std::int64_t value, std::size_t width = 0) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    const auto size = static_cast<std::size_t>(end - digits);
    if (size < width) spaces(width - size);
    put(std::string_view{digits, size});
  }

  // A real number with 6 significant digits, printf("%g") style (1e-05, 0.001, 2.5, 1e+06), without
  // the C library's floating-point formatting (large on bare-metal targets).
  void real(double value) {
    if (value != value) return put("nan");
    if (value < 0) {
      put("-");
      value = -value;
    }
    if (value > 1.7976931348623157e308) return put("inf");
    if (value == 0) return put("0");
    int exponent = 0;
    while (value >= 10.0) value /= 10.0, ++exponent;
    while (value < 1.0) value *= 10.0, --exponent;
    auto mantissa = static_cast<std::int64_t>(value * 100000.0 + 0.5);  // 6 digits: d.ddddd
    if (mantissa >= 1000000) mantissa /= 10, ++exponent;
    char digits[6];
    for (int i = 5; i >= 0; --i) digits[i] = static_cast<char>('0' + mantissa % 10), mantissa /= 10;
    int last = 5;  // without trailing zeros
    while (last > 0 && digits[last] == '0') --last;
    if (exponent < -4 || exponent >= 6) {
      put(std::string_view{digits, 1});
      if (last > 0) put("."), put(std::string_view{digits + 1, static_cast<std::size_t>(last)});
      put(exponent < 0 ? "e-" : "e+");
      const int magnitude = exponent < 0 ? -exponent : exponent;
      if (magnitude < 10) put("0");
      number(magnitude);
    } else if (exponent >= 0) {
      const int integral = exponent + 1;  // digits before the point (at most 6)
      put(std::string_view{digits, static_cast<std::size_t>(integral)});
      if (last >= integral) put("."), put(std::string_view{digits + integral, static_cast<std::size_t>(last - integral + 1)});
    } else {
      put("0.");
      for (int z = -1; z > exponent; --z) put("0");
      put(std::string_view{digits, static_cast<std::size_t>(last + 1)});
    }
  }

 private:
  sink_ref sink_;
  std::size_t column_ = 0;
};

inline void put_shape(text_writer& w, const shape& s) {
  w.put("[");
  for (std::int32_t d = 0; d < s.rank; ++d) {
    if (d > 0) w.put(",");
    w.number(s[d]);
  }
  w.put("]");
}

// "f32[1,8,8,1]", or "?" while the shape is not inferred yet.
inline void put_type(text_writer& w, const module_view& m, const tensor& t) {
  if (!shape_known(m, t)) return w.put("?");
  w.put(name_of(t.type));
  put_shape(w, t.dims);
}

// "label: f32[1,8,8,1]" (or "none" for an absent operand).
inline void put_tensor_ref(text_writer& w, const module_view& m, std::int32_t id) {
  if (!m.valid_tensor(id)) return w.put("none");
  const tensor& t = m.tensor_at(id);
  w.put(t.label.view());
  w.put(": ");
  put_type(w, m, t);
}

inline void put_node_name(text_writer& w, const module_view& m, std::int32_t id) {
  if (!m.valid_node(id)) {
    w.put("op ");
    return w.number(id);
  }
  w.put("op ");
  w.number(id);
  w.put(" (");
  w.put(m.node_at(id).label.view());
  w.put(")");
}

// The fact bits by name, in bit order ("none" when there are none).
inline void put_facts(text_writer& w, std::uint32_t bits) {
  if (bits == 0) return w.put("none");
  bool first = true;
  for (std::uint32_t bit = 0; bit < 32; ++bit) {
    const std::uint32_t mask = 1u << bit;
    if ((bits & mask) == 0) continue;
    if (!first) w.put(", ");
    first = false;
    const std::string_view known = fact_name(static_cast<fact>(mask));
    if (!known.empty()) {
      w.put(known);
    } else {
      w.put("bit ");
      w.number(bit);
    }
  }
}

// The window of a conv or pool op: "window 3x3 stride 2x2 [dilation 2x2] padding same: t1 l1 b1 r1".
// Pads are shown once resolved (infer_types makes them explicit for every mode); valid padding has none.
inline void put_window(text_writer& w, const window& win, bool pads_resolved) {
  w.put("window ");
  w.number(win.kernel_h);
  w.put("x");
  w.number(win.kernel_w);
  w.put(" stride ");
  w.number(win.stride_h);
  w.put("x");
  w.number(win.stride_w);
  if (win.dilation_h != 1 || win.dilation_w != 1) {
    w.put(" dilation ");
    w.number(win.dilation_h);
    w.put("x");
    w.number(win.dilation_w);
  }
  w.put(" padding ");
  w.put(padding_name(win.mode));
  const bool any_pad = win.pad_top != 0 || win.pad_left != 0 || win.pad_bottom != 0 || win.pad_right != 0;
  if ((pads_resolved && (win.mode != padding::valid || any_pad)) || win.mode == padding::explicit_pads) {
    w.put(": t");
    w.number(win.pad_top);
    w.put(" l");
    w.number(win.pad_left);
    w.put(" b");
    w.number(win.pad_bottom);
    w.put(" r");
    w.number(win.pad_right);
  }
}

// "pads 0,0,1,1,1,1,0,0" (before/after per dim) for a pad op.
inline void put_pad_pairs(text_writer& w, const std::array<std::int32_t, 2 * max_rank>& pads, std::int32_t rank) {
  w.put("pads ");
  const std::int32_t count = 2 * (rank > 0 ? rank : static_cast<std::int32_t>(max_rank));
  for (std::int32_t i = 0; i < count; ++i) {
    if (i > 0) w.put(",");
    w.number(pads[static_cast<std::size_t>(i)]);
  }
}

// The attributes an op kind reads (after its fused activation).
inline void put_attributes(text_writer& w, const module_view& m, const node& n) {
  const op_attributes& a = n.attrs;
  const bool resolved = m.has(fact::shapes_inferred);
  switch (n.kind) {
    case op_kind::conv2d:
      w.put("  ");
      put_window(w, a.win, resolved);
      w.put(" groups ");
      w.number(a.groups);
      break;
    case op_kind::depthwise_conv2d:
      w.put("  ");
      put_window(w, a.win, resolved);
      w.put(" multiplier ");
      w.number(a.depth_multiplier);
      break;
    case op_kind::max_pool:
    case op_kind::avg_pool:
      w.put("  ");
      put_window(w, a.win, resolved);
      break;
    case op_kind::dense:
      if (a.units > 0) {
        w.put("  units ");
        w.number(a.units);
      }
      break;
    case op_kind::softmax:
    case op_kind::concat:
      w.put("  axis ");
      w.number(a.axis);
      break;
    case op_kind::reshape:
      if (a.target.rank > 0) {
        w.put("  target ");
        put_shape(w, a.target);
      } else {
        w.put("  copy");
      }
      break;
    case op_kind::pad:
      w.put("  ");
      put_pad_pairs(w, a.pads, m.valid_tensor(n.inputs[0]) ? m.tensor_at(n.inputs[0]).dims.rank : 0);
      if (a.fill_mode == pad_mode::constant) {
        w.put(" value ");
        w.real(static_cast<double>(a.pad_value));
      } else {
        w.put(" "), w.put(pad_mode_name(a.fill_mode));
      }
      break;
    case op_kind::batch_norm:
      w.put("  epsilon ");
      w.real(static_cast<double>(a.epsilon));
      break;
    case op_kind::quantize:
    case op_kind::dequantize:
      w.put("  to ");
      w.put(name_of(a.out_type));
      break;
    case op_kind::mean:
      w.put("  axes mask ");
      w.number(static_cast<std::int64_t>(a.reduce_axes));
      w.put(a.keep_dims ? " keep_dims" : "");
      break;
    case op_kind::clip:
      w.put("  min ");
      w.real(static_cast<double>(a.clip_min));
      w.put(" max ");
      w.real(static_cast<double>(a.clip_max));
      break;
    case op_kind::transpose:
      w.put("  perm ");
      for (std::int32_t d = 0; m.valid_tensor(n.inputs[0]) && d < m.tensor_at(n.inputs[0]).dims.rank; ++d) {
        if (d > 0) w.put(",");
        w.number(a.perm[static_cast<std::size_t>(d)]);
      }
      break;
    case op_kind::global_avg_pool:
    case op_kind::add:
    case op_kind::mul:
    case op_kind::relu:
    case op_kind::relu6:
    case op_kind::sigmoid:
    case op_kind::tanh:
    case op_kind::batch_matmul:
      break;
    case op_kind::crop:
    case op_kind::paste:
      w.put("  at row ");
      w.number(a.pads[2]);
      w.put(" column ");
      w.number(a.pads[4]);
      break;
  }
}

// A kernel's compile-time parameters in one line: "conv2d f32 +relu [1,8,8,1] -> [1,8,8,8] window ...".
inline void put_kernel_params(text_writer& w, const kernel_params& p) {
  w.put(name_of(p.kind));
  w.put(" ");
  w.put(name_of(p.type));
  if (p.fused != activation::none) {
    w.put(" +");
    w.put(name_of(p.fused));
  }
  w.put(" ");
  put_shape(w, p.in);
  if (p.kind == op_kind::add || p.kind == op_kind::mul) {
    w.put(", ");
    put_shape(w, p.in2);
  }
  w.put(" -> ");
  put_shape(w, p.out);
  switch (p.kind) {
    case op_kind::conv2d:
    case op_kind::depthwise_conv2d:
    case op_kind::max_pool:
    case op_kind::avg_pool:
      w.put("  ");
      put_window(w, p.win, true);
      if (p.kind == op_kind::conv2d && p.groups != 1) {
        w.put(" groups ");
        w.number(p.groups);
      }
      if (p.kind == op_kind::depthwise_conv2d && p.depth_multiplier != 1) {
        w.put(" multiplier ");
        w.number(p.depth_multiplier);
      }
      break;
    case op_kind::softmax:
      w.put("  axis ");
      w.number(p.axis);
      break;
    case op_kind::concat:
      w.put("  axis ");
      w.number(p.axis);
      w.put(" extents ");
      for (std::int32_t i = 0; i < p.concat_count; ++i) {
        if (i > 0) w.put(",");
        w.number(p.concat_extents[static_cast<std::size_t>(i)]);
      }
      break;
    case op_kind::pad:
      w.put("  ");
      put_pad_pairs(w, p.pads, p.in.rank);
      if (p.fill_mode == pad_mode::constant) {
        w.put(" value ");
        w.real(static_cast<double>(p.pad_value()));
      } else {
        w.put(" "), w.put(pad_mode_name(p.fill_mode));
      }
      break;
    case op_kind::batch_norm:
      w.put("  epsilon ");
      w.real(static_cast<double>(p.pad_value()));
      break;
    case op_kind::clip:
      w.put("  min ");
      w.real(static_cast<double>(p.clip_min()));
      w.put(" max ");
      w.real(static_cast<double>(p.clip_max()));
      break;
    default:
      break;
  }
  if ((p.kind == op_kind::conv2d || p.kind == op_kind::depthwise_conv2d || p.kind == op_kind::dense) && p.has_bias != 0)
    w.put(", with bias");
}

// Where an operand lives at run time: "arena+128", "input 0", "output 0", "constant conv2d_0_0".
inline void put_location(text_writer& w, const module_view& m, const location& at) {
  switch (at.where) {
    case storage::arena:
      w.put("arena+");
      w.number(at.offset);
      break;
    case storage::model_input:
      w.put("input ");
      w.number(at.index);
      break;
    case storage::model_output:
      w.put("output ");
      w.number(at.index);
      break;
    case storage::constant:
      w.put("constant ");
      if (m.valid_tensor(at.index)) w.put(m.tensor_at(at.index).label.view());
      else w.number(at.index);
      break;
    case storage::none:
      w.put("none");
      break;
  }
}

// The diagnostic: "error: <code> at op 3 (add \"c\"): value_a 8, value_b 4, expected [..], actual [..]".
inline void put_diagnostic(text_writer& w, const module_view& m, const diagnostic& d) {
  w.put("error: ");
  w.put(error_code_name(d.code));
  if (d.code == error_code::pass_prerequisite_missing) {
    w.put(" at pipeline position ");
    w.number(d.value_a);
    w.put(", missing ");
    put_facts(w, static_cast<std::uint32_t>(d.value_b));
    return;
  }
  if (d.node >= 0) {
    w.put(" at op ");
    w.number(d.node);
    w.put(" (");
    w.put(name_of(d.kind));
    if (m.valid_node(d.node)) {
      w.put(" \"");
      w.put(m.node_at(d.node).label.view());
      w.put("\"");
    }
    w.put(")");
  }
  w.put(": value_a ");
  w.number(d.value_a);
  w.put(", value_b ");
  w.number(d.value_b);
  if (d.expected.rank > 0) {
    w.put(", expected ");
    put_shape(w, d.expected);
  }
  if (d.actual.rank > 0) {
    w.put(", actual ");
    put_shape(w, d.actual);
  }
}

// A planned pool's name ("arena" for the default pool).
constexpr std::string_view pool_name(const module_view& m, std::int32_t p) {
  if (m.pool_count <= 0 && p == 0) return "arena";
  if (p < 0 || p >= m.pool_count || m.pools[p].name == nullptr) return "?";
  return m.pools[p].name;
}

inline void write_memory_plan(text_writer& w, const module_view& m, std::size_t indent) {
  w.spaces(indent);
  if (!m.has(fact::memory_planned)) {
    w.put("memory: not planned yet");
    return w.line();
  }
  w.put("arena: ");
  w.number(m.arena_bytes);
  w.put(" bytes (alignment ");
  w.number(m.arena_alignment);
  w.put("), liveness lower bound ");
  w.number(m.liveness_lower_bound);
  w.put(" bytes");
  if (m.peak_node >= 0) {
    w.put(" at ");
    put_node_name(w, m, m.peak_node);
  }
  w.line();
  // Several pools: one line each (bytes, limit, alignment, lower bound of its buffers and the op there).
  const bool several_pools = m.pool_count > 1;
  for (std::int32_t p = 0; several_pools && p < m.pool_count; ++p) {
    const memory::pool_info& pool = m.pools[p];
    const memory::pool_usage& usage = m.pool_usage[p];
    w.spaces(indent);
    w.put("  pool ");
    w.number(p);
    w.put(" \"");
    w.put(pool_name(m, p));
    w.put("\": ");
    w.number(usage.bytes);
    w.put(" bytes (limit ");
    if (pool.size_limit < 0) w.put("none");
    else w.number(pool.size_limit);
    w.put(", alignment ");
    w.number(pool.alignment);
    w.put(pool.read_only ? ", read-only: the constants)" : "), lower bound ");
    if (!pool.read_only) {
      w.number(usage.lower_bound);
      if (usage.peak_node >= 0) {
        w.put(" at ");
        put_node_name(w, m, usage.peak_node);
      }
    }
    w.line();
  }
  w.spaces(indent);
  w.put("  offset     bytes  first   last  tensor");
  w.line();
  // One row per placed tensor (with its pool when there are several), then each call's scratch.
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const auto& a = m.allocations[static_cast<std::size_t>(t)];
    if (a.offset < 0) continue;
    const tensor_lifetime life = lifetime_of(m, t);
    w.spaces(indent);
    w.number(a.offset, 8);
    w.number(m.tensor_at(t).bytes(), 10);
    w.number(life.first_use, 7);
    w.number(life.last_use, 7);
    w.put("  ");
    w.put(m.tensor_at(t).label.view());
    if (several_pools) {
      w.put(" in ");
      w.put(pool_name(m, a.pool));
    }
    w.line();
  }
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const auto& a = m.scratch[c];
    if (a.offset < 0) continue;
    const std::int32_t op = m.calls[c].node;
    w.spaces(indent);
    w.number(a.offset, 8);
    w.number(m.scratch_bytes[c], 10);
    w.number(op, 7);
    w.number(op, 7);
    w.put("  scratch of call ");
    w.number(c);
    if (several_pools) {
      w.put(" in ");
      w.put(pool_name(m, a.pool));
    }
    w.line();
  }
}

// ---------------------------------------------------------------------------------------------------
// print_module's sections.

// "1 op" / "3 ops", then `after`.
inline void put_count(text_writer& w, std::int64_t count, std::string_view noun, std::string_view after) {
  w.number(count);
  w.put(" ");
  w.put(noun);
  if (count != 1) w.put("s");
  w.put(after);
}

inline void write_header(text_writer& w, const module_view& m) {
  w.put("module \"");
  w.put(m.model_name.view());
  w.put("\"");
  w.line();
  w.put("  facts:  ");
  put_facts(w, m.facts);
  w.line();
  w.put("  counts: ");
  put_count(w, m.input_count, "input", ", ");
  put_count(w, m.output_count, "output", ", ");
  put_count(w, m.node_count, "op", ", ");
  put_count(w, m.tensor_count, "tensor", ", ");
  put_count(w, m.recipe_count, "recipe", ", ");
  put_count(w, m.call_count, "call", ", ");
  put_count(w, m.kernel_count, "kernel", "");
  w.line();
  w.put("  status: ");
  if (m.error.failed()) put_diagnostic(w, m, m.error);
  else w.put("ok");
  w.line();
}

// One row of the tensor tables: "%id  label   f32[shape]   bytes B" (a view has no bytes of its own).
inline void write_tensor_row(text_writer& w, const module_view& m, std::int32_t id, std::size_t at) {
  const tensor& t = m.tensor_at(id);
  w.pad_to(at);
  w.put("%");
  w.number(id);
  w.tab(at + 5);
  w.put(t.label.view());
  w.tab(at + 24);
  put_type(w, m, t);
  w.tab(at + 44);
  if (t.alias_of >= 0) {
    w.put("alias_of %");
    w.number(t.alias_of);
    if (m.valid_tensor(t.alias_of)) {
      w.put(" (");
      w.put(m.tensor_at(t.alias_of).label.view());
      w.put(")");
    }
  } else if (shape_known(m, t)) {
    w.number(t.bytes(), 6);
    w.put(" B");
  } else {
    w.put("     ? B");
  }
}

inline void write_tensors(text_writer& w, const module_view& m) {
  w.put("inputs (");
  w.number(m.input_count);
  w.put(")");
  w.line();
  for (std::int32_t i = 0; i < m.input_count; ++i) {
    w.put("  input ");
    w.number(i);
    write_tensor_row(w, m, m.inputs[static_cast<std::size_t>(i)], 12);
    w.line();
  }
  w.put("outputs (");
  w.number(m.output_count);
  w.put(")");
  w.line();
  for (std::int32_t o = 0; o < m.output_count; ++o) {
    w.put("  output ");
    w.number(o);
    write_tensor_row(w, m, m.outputs[static_cast<std::size_t>(o)], 12);
    w.line();
  }

  std::int32_t constants = 0, views = 0;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    constants += m.tensor_at(t).role == tensor_role::constant ? 1 : 0;
    views += m.tensor_at(t).alias_of >= 0 ? 1 : 0;
  }
  w.put("constants (");
  w.number(constants);
  w.put(")");
  w.line();
  for (std::int32_t id = 0; id < m.tensor_count; ++id) {
    const tensor& t = m.tensor_at(id);
    if (t.role != tensor_role::constant) continue;
    write_tensor_row(w, m, id, 2);
    w.put("  ");
    if (t.recipe >= 0 && t.recipe < m.recipe_count) {
      const constant_recipe& r = m.recipes[static_cast<std::size_t>(t.recipe)];
      if (r.kind == recipe_kind::evaluate_op) w.put("folded ");
      else w.put(r.kind == recipe_kind::batch_norm_weights ? "batch-norm-folded weights of " : "batch-norm-folded bias of ");
      w.put(name_of(r.op.kind));
      w.put(" \"");
      w.put(r.op.label.view());
      w.put("\"");
      if (r.kind == recipe_kind::batch_norm_bias && r.own_data_is_offset) w.put(", from its offset");
      w.put(" (recipe ");
      w.number(t.recipe);
      w.put(")");
    } else if (t.data.f32 != nullptr || t.data.i8 != nullptr || t.data.i32 != nullptr) {
      w.put("user data");
    } else {
      if (t.data.bytes != nullptr) w.put("model file bytes");
      else w.put("no data");
    }
    if (!read_by_an_op(m, id)) w.put(", read by no op");
    w.line();
  }
  if (views > 0) {
    w.put("views (");
    w.number(views);
    w.put(")");
    w.line();
    for (std::int32_t id = 0; id < m.tensor_count; ++id) {
      const tensor& t = m.tensor_at(id);
      if (t.alias_of < 0) continue;
      write_tensor_row(w, m, id, 2);
      w.line();
    }
  }
}

inline void write_ops(text_writer& w, const module_view& m) {
  w.put("ops (");
  w.number(m.node_count);
  w.put(")");
  w.line();
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    w.number(i, 4);
    w.put("  ");
    w.put(name_of(n.kind));
    w.put(" \"");
    w.put(n.label.view());
    w.put("\"");
    if (n.attrs.fused != activation::none) {
      w.put(" +");
      w.put(name_of(n.attrs.fused));
    }
    put_attributes(w, m, n);
    w.line();
    w.spaces(8);
    w.put("(");
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      if (k > 0) w.put(", ");
      put_tensor_ref(w, m, n.inputs[static_cast<std::size_t>(k)]);
    }
    w.put(") -> ");
    put_tensor_ref(w, m, n.output);
    w.line();
  }
}

// The kernel select_kernels recorded: "runs simd_i8 avx2", then, for a call, each constant operand's
// layout: "  constants: 1 packed, 2 stored" (operand indices in the op's input order).
inline void put_kernel_choice(text_writer& w, const kernel_choice& c) {
  if (c.impl == kernel_impl::undecided) {  // select_kernels ran at run time (tools)
    w.put("runs a ");
    w.put(name_of(c.isa));
    w.put(" kernel or the reference (decided by the compiler)");
    return;
  }
  w.put("runs ");
  w.put(name_of(c.impl));
  if (c.isa != instruction_set::none) {
    w.put(" ");
    w.put(name_of(c.isa));
  }
}

inline void put_constant_layouts(text_writer& w, const module_view& m, const kernel_call& call) {
  bool first = true;
  for (std::int32_t k = 0; k < call.operand_count; ++k) {
    const std::int32_t id = call.operands[static_cast<std::size_t>(k)];
    if (!m.valid_tensor(id) || m.tensor_at(id).role != tensor_role::constant) continue;
    w.put(first ? "  constants: " : ", ");
    first = false;
    w.number(k);
    w.put(call.params.choice.packs(k) ? " packed" : " stored");
  }
}

inline void write_calls_and_kernels(text_writer& w, const module_view& m) {
  w.put("calls (");
  w.number(m.call_count);
  w.put(")");
  w.line();
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    w.put("  call ");
    w.number(c, 2);
    w.put("  ");
    put_node_name(w, m, call.node);
    w.tab(36);
    w.put("kernel ");
    w.number(call.kernel);
    const std::int32_t sharing = calls_of_kernel(m, call.kernel);
    if (sharing > 1) {
      w.put(" (shared by ");
      w.number(sharing);
      w.put(" calls)");
    }
    if (m.has(fact::kernels_selected)) {
      w.put("  ");
      put_kernel_choice(w, call.params.choice);
      put_constant_layouts(w, m, call);
    }
    w.line();
    write_call_requantization(w, m, call);
  }
  w.put("kernels (");
  w.number(m.kernel_count);
  w.put(" distinct for ");
  put_count(w, m.call_count, "call", ")");
  w.line();
  for (std::int32_t k = 0; k < m.kernel_count; ++k) {
    w.put("  kernel ");
    w.number(k, 2);
    w.put("  ");
    put_kernel_params(w, m.kernels[static_cast<std::size_t>(k)]);
    if (m.has(fact::kernels_selected)) {
      w.put("  ");
      put_kernel_choice(w, m.kernels[static_cast<std::size_t>(k)].choice);
    }
    w.line();
  }
}

inline void write_main(text_writer& w, const module_view& m) {
  w.put("main (");
  put_count(w, m.call_count, "call", ")");
  w.line();
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    w.put("  call ");
    w.number(c, 2);
    w.put("  kernel ");
    w.number(call.kernel, 2);
    w.put("  ");
    if (m.valid_node(call.node)) w.put(m.node_at(call.node).label.view());
    w.put("(");
    for (std::int32_t k = 0; k < call.operand_count; ++k) {
      if (k > 0) w.put(", ");
      put_location(w, m, call.operand_at[static_cast<std::size_t>(k)]);
    }
    w.put(") -> ");
    put_location(w, m, call.result_at);
    w.line();
  }
}

inline void write_function_metadata(text_writer& w, const module_view& m) {
  w.put("function metadata (bytes per call)");
  w.line();
  w.put("  kernel  op kind            calls  workspace         io  constants");
  w.line();
  for (std::int32_t k = 0; k < m.kernel_count; ++k) {
    const function_info& f = m.functions[static_cast<std::size_t>(k)];
    w.number(k, 8);
    w.put("  ");
    w.put(name_of(m.kernels[static_cast<std::size_t>(k)].kind));
    w.tab(28);
    w.number(f.calls, 5);
    w.number(f.workspace_bytes, 11);
    w.number(f.io_bytes, 11);
    w.number(f.constant_bytes, 11);
    w.line();
  }
}

inline void write_io_info(text_writer& w, std::string_view what, std::int32_t index, const io_info& io) {
  w.put("  ");
  w.put(what);
  w.put(" ");
  w.number(index);
  w.tab(12);
  w.put(io.label.view());
  w.tab(34);
  w.put(name_of(io.type));
  put_shape(w, io.dims);
  w.tab(54);
  w.number(io.bytes, 6);
  w.put(" B");
  if (io.scale != 0.0f) {
    w.put("  scale ");
    w.real(static_cast<double>(io.scale));
    w.put(" zero_point ");
    w.number(io.zero_point);
  }
  w.line();
}

inline void write_executor_metadata(text_writer& w, const module_view& m) {
  const executor_info& e = m.metadata;
  w.put("executor metadata");
  w.line();
  w.put("  model \"");
  w.put(e.model.view());
  w.put("\": ");
  put_count(w, e.kernel_count, "kernel", ", ");
  put_count(w, e.call_count, "call", ", ");
  w.number(e.constant_bytes);
  w.put(" constant bytes, alignment ");
  w.number(e.alignment);
  w.line();
  for (std::int32_t i = 0; i < e.input_count; ++i) write_io_info(w, "input", i, e.inputs[static_cast<std::size_t>(i)]);
  for (std::int32_t o = 0; o < e.output_count; ++o) write_io_info(w, "output", o, e.outputs[static_cast<std::size_t>(o)]);
  for (std::int32_t p = 0; p < e.pool_count; ++p) {
    const pool_metadata& pool = e.pools[static_cast<std::size_t>(p)];
    w.put("  pool ");
    w.number(p);
    w.tab(12);
    w.put(pool.name != nullptr ? std::string_view{pool.name} : std::string_view{"?"});
    w.tab(34);
    w.number(pool.bytes, 8);
    w.put(" B  alignment ");
    w.number(pool.alignment);
    w.put(pool.read_only ? "  read-only" : "  read-write");
    w.line();
  }
}

inline void write_module(text_writer& w, const module_view& m) {
  write_header(w, m);
  write_tensors(w, m);
  write_ops(w, m);
  if (m.has(fact::kernels_lowered)) write_calls_and_kernels(w, m);
  if (m.has(fact::memory_planned)) {
    w.put("memory plan");
    w.line();
    write_memory_plan(w, m, 2);
  }
  if (m.has(fact::main_lowered)) write_main(w, m);
  if (m.has(fact::function_metadata)) write_function_metadata(w, m);
  if (m.has(fact::executor_metadata)) write_executor_metadata(w, m);
}

inline void write_summary(text_writer& w, const module_view& m) {
  w.put("model ");
  w.put(m.model_name.view());
  w.put(": ");
  w.number(m.node_count);
  w.put(" ops, ");
  w.number(m.tensor_count);
  w.put(" tensors");
  w.line();
  std::int64_t parameters = 0;
  for (std::int32_t i = 0; i < m.node_count; ++i) {
    const node& n = m.node_at(i);
    w.number(i, 4);
    w.put("  ");
    w.put(name_of(n.kind));
    w.tab(24);
    w.put(n.label.view());
    w.tab(38);
    if (n.attrs.fused != activation::none) {
      w.put("+");
      w.put(name_of(n.attrs.fused));
    }
    w.tab(47);
    if (m.valid_tensor(n.inputs[0]) && shape_known(m, m.tensor_at(n.inputs[0]))) put_shape(w, m.tensor_at(n.inputs[0]).dims);
    else w.put("?");
    w.put(" -> ");
    if (m.valid_tensor(n.output) && shape_known(m, m.tensor_at(n.output))) put_shape(w, m.tensor_at(n.output).dims);
    else w.put("?");
    for (std::int32_t k = 0; k < n.input_count; ++k) {
      const std::int32_t t = n.inputs[static_cast<std::size_t>(k)];
      if (m.valid_tensor(t) && m.tensor_at(t).role == tensor_role::constant) parameters += m.tensor_at(t).dims.elements();
    }
    w.line();
  }
  w.put("parameters: ");
  w.number(parameters);
  w.line();
}

}  // namespace detail

// Everything the module holds at its stage, section by section (see the top of this header).
template <class Module, class Sink>
void print_module(const Module& m, Sink&& out) {
  auto call = [&out](std::string_view text) { out(text); };  // also a plain function or a function pointer
  detail::text_writer w{detail::sink_ref{call}};
  detail::write_module(w, detail::view_of(m));
}

// One line per op: index (4 columns), kind (18), name (14), "+activation" (9), first input's shape ->
// output shape ("?" before infer_types); then the number of parameters (elements of the constants the
// ops read).
template <class Module, class Sink>
void print_summary(const Module& m, Sink&& out) {
  auto call = [&out](std::string_view text) { out(text); };  // also a plain function or a function pointer
  detail::text_writer w{detail::sink_ref{call}};
  detail::write_summary(w, detail::view_of(m));
}

// The arena: size, alignment, liveness lower bound and the op at the peak, then one row per arena
// tensor: offset (8 columns), bytes (10), first and last op that use it (7 each), name.
template <class Module, class Sink>
void print_memory_plan(const Module& m, Sink&& out) {
  auto call = [&out](std::string_view text) { out(text); };  // also a plain function or a function pointer
  detail::text_writer w{detail::sink_ref{call}};
  detail::write_memory_plan(w, detail::view_of(m), 0);
}

}  // namespace ctnn
