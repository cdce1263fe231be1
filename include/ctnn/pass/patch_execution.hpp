#pragma once
// patch_execution: runs a prefix of the graph patch by patch (MCUNetV2-style; docs/memory.md, "Patch
// execution"). The prefix's output is split into a rows x columns grid; for each patch, `crop` copies the
// receptive field of the prefix's input (halo included, clipped to the map), each prefix op runs on patch
// tensors with explicit pads (its own padding on the map's border sides, 0 where the halo holds real
// data), and `paste` writes the last result into its region of the whole output. The planner, the kernels
// and the executor then see ordinary small tensors; calls of equal geometry share a kernel.
//
// A graph-level pass (after infer_types and fusion, before lower_te). It adds ops and tensors, so in the
// compiler (run_on<M>) it returns a module with larger capacities; run(m) rewrites a module in place when
// its capacities suffice (the tools size theirs generously) and fails otherwise. With a streamed input
// (patch_request::streamed_input), each patch row starts with a fetch_rows op that fills the row buffer
// from the caller's ctnn::row_source; the crops read that buffer instead of the whole input.
#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <ctnn/errors.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ir/shape_rules.hpp>
#include <ctnn/ops/infer.hpp>
#include <ctnn/pass/lower_te.hpp>
#include <ctnn/pass/plan_memory.hpp>
#include <ctnn/pass/detail/patch_choice.hpp>
#include <ctnn/pass/detail/patch_geometry.hpp>

namespace ctnn {

// Diagnostic codes of this pass (reason: patch_problem; prefix_ops; node: the op at fault).
enum class patch_error : std::int32_t {
  prefix_cannot_be_patched = 400,
  capacity_exceeded,  // run(m): the module has no room for the patch ops (added_ops, added_tensors)
};
constexpr error_code code_of(patch_error e) { return static_cast<error_code>(e); }

namespace errors {
template <pass::patch_problem Problem>
struct patch_reason {};
// The prefix given to ctnn::patch_execution holds an op that cannot run patch by patch.
template <class Op, class Reason>
struct prefix_op_cannot_be_patched {
  static_assert(detail::always_false<Op>,
                "ctnn::patch_execution: this op of the prefix cannot run patch by patch (the op and the reason in the "
                "template arguments): a prefix holds convolutions, depthwise convolutions, pooling and elementwise ops "
                "with per-channel constants, each reading the previous one's result; end it before this op.");
};
// ctnn::streamed_input was asked for, but the model's input cannot be read by rows through a patch stage.
template <class Op, class Reason>
struct input_cannot_be_streamed {
  static_assert(detail::always_false<Op>,
                "ctnn::streamed_input: the model's input cannot be read by rows (the op and the reason in the template "
                "arguments): only a patch stage streams its input, so the first op must start a patchable prefix "
                "(convolutions, pooling, elementwise ops) that alone reads a model input of batch 1, with a grid within "
                "max_extra_macs; drop ctnn::streamed_input or raise the limit.");
};
}  // namespace errors

namespace pass {

namespace detail {

// Nodes a plan adds: per patch a crop, the prefix's ops and a paste, less the prefix's own ops, and per patch
// row a fetch_rows when the input is streamed; and tensors: the results of those ops (the prefix's old
// tensors stay, unused).
constexpr std::int32_t fetch_ops(const patch_plan& p) { return p.streamed ? p.rows : 0; }
constexpr std::int32_t added_nodes(const patch_plan& p) { return p.ops == 0 ? 0 : p.patches() * (p.ops + 2) + fetch_ops(p) - p.ops; }
constexpr std::int32_t added_tensors(const patch_plan& p) { return p.ops == 0 ? 0 : p.patches() * (p.ops + 2) + fetch_ops(p); }

// A copy of `m` with larger capacities (every section copied as far as it is filled).
template <std::size_t T, std::size_t N, class Module>
constexpr module<T, N> with_capacity(const Module& m) {
  module<T, N> out{};
  out.model_name = m.model_name;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    out.tensors[static_cast<std::size_t>(t)] = m.tensors[static_cast<std::size_t>(t)];
    out.allocations[static_cast<std::size_t>(t)] = m.allocations[static_cast<std::size_t>(t)];
  }
  out.tensor_count = m.tensor_count;
  for (std::int32_t i = 0; i < m.node_count; ++i) out.nodes[static_cast<std::size_t>(i)] = m.nodes[static_cast<std::size_t>(i)];
  out.node_count = m.node_count;
  out.inputs = m.inputs;
  out.input_count = m.input_count;
  out.outputs = m.outputs;
  out.output_count = m.output_count;
  out.error = m.error;
  out.facts = m.facts;
  out.requantization = m.requantization;
  for (std::int32_t r = 0; r < m.recipe_count; ++r) out.recipes[static_cast<std::size_t>(r)] = m.recipes[static_cast<std::size_t>(r)];
  out.recipe_count = m.recipe_count;
  out.pools = m.pools;
  out.pool_count = m.pool_count;
  out.pins = m.pins;
  out.pin_count = m.pin_count;
  out.arena_alignment = m.arena_alignment;
  return out;
}

// Rewrites the first p.ops ops of `m` into the patch loop (the module must have room: added_nodes(p)).
template <class Module>
constexpr void apply_patch_plan(Module& m, const patch_plan& p) {
  const std::int32_t ops = p.ops;
  std::array<node, max_patch_prefix> prefix{};
  for (std::int32_t j = 0; j < ops; ++j) prefix[static_cast<std::size_t>(j)] = m.node_at(j);
  const std::int32_t input = prefix[0].inputs[0];
  const std::int32_t whole = prefix[static_cast<std::size_t>(ops - 1)].output;
  const shape out = m.tensor_at(whole).dims;
  // The regions, from the prefix as it is (the loop below overwrites its nodes).
  std::array<axis_regions, max_patch_grid> row_regions{}, column_regions{};
  for (std::int32_t i = 0; i < p.rows; ++i)
    row_regions[static_cast<std::size_t>(i)] = regions_along(m, ops, 1, split_point(out[1], p.rows, i), split_point(out[1], p.rows, i + 1));
  for (std::int32_t k = 0; k < p.columns; ++k)
    column_regions[static_cast<std::size_t>(k)] =
        regions_along(m, ops, 2, split_point(out[2], p.columns, k), split_point(out[2], p.columns, k + 1));
  // The ops after the prefix move to the end of the new list.
  const std::int32_t rest = m.node_count - ops;
  const std::int32_t first_rest = p.patches() * (ops + 2) + fetch_ops(p);
  for (std::int32_t i = rest - 1; i >= 0; --i) m.nodes[static_cast<std::size_t>(first_rest + i)] = m.nodes[static_cast<std::size_t>(ops + i)];
  for (std::int32_t j = 0; j < ops; ++j) m.tensor_at(prefix[static_cast<std::size_t>(j)].output).producer = -1;  // replaced
  std::int32_t at = 0;
  std::int32_t latest = whole;  // the view of the whole output after the pastes so far
  const auto new_tensor = [&m](const tensor& like, shape dims, name label) {
    tensor t = like;
    t.dims = dims;
    t.label = label;
    t.role = tensor_role::intermediate;
    t.io_index = -1;
    t.alias_of = -1;
    return m.add_tensor(t);
  };
  // Streamed: the row buffer, as many whole input rows as one patch row reads at most.
  std::int32_t buffered_rows = 0;
  for (std::int32_t i = 0; i < p.rows; ++i) {
    const axis_regions& h = row_regions[static_cast<std::size_t>(i)];
    buffered_rows = h.end[0] - h.begin[0] > buffered_rows ? h.end[0] - h.begin[0] : buffered_rows;
  }
  const tensor& image = m.tensor_at(input);
  const shape buffer_dims = make_shape(image.dims[0], buffered_rows, image.dims[2], image.dims[3]);
  std::int32_t buffer = -1;  // the row buffer's view after the fetches so far
  for (std::int32_t i = 0; i < p.rows; ++i) {
    const axis_regions& h = row_regions[static_cast<std::size_t>(i)];
    if (p.streamed) {
      // Keeps the rows this patch row shares with the previous one (moved to the top), fetches the rest.
      // It reads the output's latest view, so it runs after the previous patch row's crops.
      const std::int32_t previous_begin = i == 0 ? 0 : row_regions[static_cast<std::size_t>(i - 1)].begin[0];
      const std::int32_t previous_end = i == 0 ? 0 : row_regions[static_cast<std::size_t>(i - 1)].end[0];
      const std::int32_t kept = previous_end > h.begin[0] ? previous_end - h.begin[0] : 0;
      const std::int32_t first = h.begin[0] > previous_end ? h.begin[0] : previous_end;
      node fetch{};
      fetch.kind = op_kind::fetch_rows;
      fetch.label = numbered("fetch_rows", static_cast<std::size_t>(i));
      fetch.inputs[0] = input;
      fetch.inputs[1] = buffer;
      fetch.inputs[2] = latest;
      fetch.input_count = i == 0 ? 1 : 3;
      fetch.attrs.target = buffer_dims;
      fetch.attrs.set(row_fetch_fields{kept > 0 ? h.begin[0] - previous_begin : 0, kept, first, h.end[0] - first});
      fetch.output = new_tensor(image, buffer_dims, numbered("input_rows", static_cast<std::size_t>(i)));
      if (i > 0) m.tensor_at(fetch.output).alias_of = m.storage_root(buffer);
      m.nodes[static_cast<std::size_t>(at)] = fetch;
      m.tensor_at(fetch.output).producer = at++;
      buffer = fetch.output;
    }
    for (std::int32_t k = 0; k < p.columns; ++k) {
      const axis_regions& w = column_regions[static_cast<std::size_t>(k)];
      const auto patch = static_cast<std::size_t>(i * p.columns + k);
      const auto extent = [&](const tensor& t, std::size_t j) {
        return make_shape(t.dims[0], h.end[j] - h.begin[j], w.end[j] - w.begin[j], t.dims[3]);
      };
      node crop{};
      crop.kind = op_kind::crop;
      crop.label = numbered("crop", patch);
      crop.inputs[0] = p.streamed ? buffer : input;
      crop.input_count = 1;
      crop.attrs.target = extent(m.tensor_at(input), 0);
      crop.attrs.set(patch_fields{p.streamed ? 0 : h.begin[0], w.begin[0]});  // streamed: the patch row's rows start the buffer
      crop.output = new_tensor(m.tensor_at(input), crop.attrs.target, numbered(m.tensor_at(input).label.view(), patch));
      m.nodes[static_cast<std::size_t>(at)] = crop;
      m.tensor_at(crop.output).producer = at++;
      std::int32_t data = crop.output;
      for (std::int32_t j = 0; j < ops; ++j) {
        const auto ju = static_cast<std::size_t>(j);
        node n = prefix[ju];
        n.label = numbered(n.label.view(), patch);
        n.inputs[0] = data;
        if (is_windowed(n.kind)) {
          n.attrs.win.mode = padding::explicit_pads;
          n.attrs.win.pad_top = h.pad_before[ju];
          n.attrs.win.pad_bottom = h.pad_after[ju];
          n.attrs.win.pad_left = w.pad_before[ju];
          n.attrs.win.pad_right = w.pad_after[ju];
        }
        const tensor& like = m.tensor_at(prefix[ju].output);
        n.output = new_tensor(like, extent(like, ju + 1), numbered(like.label.view(), patch));
        m.nodes[static_cast<std::size_t>(at)] = n;
        m.tensor_at(n.output).producer = at++;
        data = n.output;
      }
      node paste{};
      paste.kind = op_kind::paste;
      paste.label = numbered("paste", patch);
      paste.inputs[0] = data;
      paste.inputs[1] = patch == 0 ? -1 : latest;  // orders the pastes; the kernel writes only its region of the view
      paste.input_count = patch == 0 ? 1 : 2;
      paste.attrs.target = out;
      paste.attrs.set(patch_fields{h.begin[static_cast<std::size_t>(ops)], w.begin[static_cast<std::size_t>(ops)]});
      if (patch == 0) {
        paste.output = whole;
      } else {
        paste.output = new_tensor(m.tensor_at(whole), out, numbered(m.tensor_at(whole).label.view(), patch));
        m.tensor_at(paste.output).alias_of = whole;
      }
      m.nodes[static_cast<std::size_t>(at)] = paste;
      m.tensor_at(paste.output).producer = at++;
      latest = paste.output;
    }
  }
  m.node_count = first_rest + rest;
  for (std::int32_t i = first_rest; i < m.node_count; ++i) {
    node& n = m.node_at(i);
    for (std::int32_t s = 0; s < n.input_count; ++s)
      if (n.inputs[static_cast<std::size_t>(s)] == whole) n.inputs[static_cast<std::size_t>(s)] = latest;
    m.tensor_at(n.output).producer = i;
  }
  // The patch ops' shapes through the shape rules: a geometry mistake fails here, not at run time.
  for (std::int32_t i = 0; i < first_rest && !m.error.failed(); ++i) {
    const shape inferred = ops::infer_shape(m, i);
    if (!m.error.failed() && inferred != m.tensor_at(m.node_at(i).output).dims)
      m.fail({error_code::input_shapes_differ, i, m.node_at(i).kind, m.tensor_at(m.node_at(i).output).dims, inferred});
  }
}

}  // namespace detail

// The plan for `m` (the automatic choice when request.ops == 0): what the pass does, and what the reports
// show. `config`: the plan options whose total RAM the estimate counts (reuse, in-place convolutions, I/O
// in the pools or in the caller's buffers).
template <class Module>
constexpr patch_plan plan_patches(const Module& m, const patch_request& request, const memory::plan_config& config = every_tensor_counted) {
  return detail::choose_patches(m, request, config);
}

// The pass with a request given at run time (tools, tests), in place, on a module with room for the patch ops.
template <class Module>
constexpr void patch_module_in_place(Module& m, const patch_request& request, const memory::plan_config& config = every_tensor_counted) {
  const patch_plan chosen = plan_patches(m, request, config);
  if (chosen.check.problem != patch_problem::none) {
    m.fail({code_of(patch_error::prefix_cannot_be_patched), chosen.check.op, m.node_at(chosen.check.op < 0 ? 0 : chosen.check.op).kind,
            {}, {}, {.prefix_ops = chosen.ops, .reason = static_cast<std::int64_t>(chosen.check.problem)}});
    return;
  }
  const std::int32_t nodes = detail::added_nodes(chosen), tensors = detail::added_tensors(chosen);
  if (m.node_count + nodes > static_cast<std::int32_t>(Module::node_capacity) ||
      m.tensor_count + tensors > static_cast<std::int32_t>(Module::tensor_capacity)) {
    m.fail({code_of(patch_error::capacity_exceeded), -1, op_kind::none, {}, {}, {.added_ops = nodes, .added_tensors = tensors}});
    return;
  }
  if (chosen.ops > 0) detail::apply_patch_plan(m, chosen);
}

template <class Module>
constexpr Module patch_module(Module m, const patch_request& request, const memory::plan_config& config = every_tensor_counted) {
  patch_module_in_place(m, request, config);
  return m;
}

namespace detail {

// Total RAM of a planned module: its writable pools plus the inputs and outputs in the caller's buffers
// (what the figures of docs/memory.md count); a plan that fails counts as no plan.
template <class Module>
constexpr std::int64_t total_ram(const Module& m) {
  if (m.error.failed()) return std::numeric_limits<std::int64_t>::max();
  std::int64_t bytes = m.io_bytes_outside;
  for (std::int32_t p = 0; p < m.pool_count; ++p)
    if (!m.pools[static_cast<std::size_t>(p)].read_only) bytes += m.pool_usage[static_cast<std::size_t>(p)].bytes;
  return bytes;
}

// The total RAM of `m` lowered and planned by Planning (a plan_memory pass with the compile's options).
template <class Planning, class Module>
constexpr std::int64_t planned_ram(Module m) {
  m = lower_te::run(m);
  if (!m.error.failed()) m = Planning::run(m);
  return total_ram(m);
}

// The planning that bounds Planning's plan of the patched module from above, cheaply: the default planner
// is the best of several algorithms, greedy by size among them, so greedy by size's plan is never smaller
// (unit_memory_properties checks it); other planners check themselves. The automatic choice keeps the patch
// stage when even this bound is below the whole-tensor plan, so the option never increases RAM, and the
// compiler does not run the default planner's hill climb on the patched module twice.
template <class Planning>
struct upper_bound_planning {
  using type = Planning;
};
template <class... Options>
struct upper_bound_planning<plan_memory<memory::default_planner, Options...>> {
  using type = plan_memory<memory::greedy_by_size, Options...>;
};

// The module after the patch stage that `Request` asks of M (a variable: one evaluation, shared by the
// RAM comparison and the pass's result).
template <const auto& M, patch_request Request>
inline constexpr auto patched_v = [] {
  constexpr patch_plan chosen = choose_patches(M, Request, every_tensor_counted);  // explicit: the options do not matter
  using Module = std::remove_cvref_t<decltype(M)>;
  auto m = with_capacity<Module::tensor_capacity + static_cast<std::size_t>(added_tensors(chosen)),
                         Module::node_capacity + static_cast<std::size_t>(added_nodes(chosen))>(M);
  if (chosen.ops > 0) apply_patch_plan(m, chosen);
  return m;
}();

}  // namespace detail

// The pass. Request: an explicit prefix and grid (applied as asked), or the automatic choice, which is kept
// only when the module planned by Planning (plan_memory with the compile's planner and memory options)
// needs less RAM in all with it than without (checked against an upper bound of the patched plan: above):
// the option never increases RAM.
// patch_module_in_place with the automatic choice's rule at run time: `m` gets the patch stage only when
// plan_module<Algorithm>(..., config) needs less RAM in all with it (explicit requests and streamed inputs:
// always). `scratch` (contents lost) is where each candidate is lowered and planned: with both modules on
// the heap, no frame of this holds a module (a module<1024, 768> is megabytes, three times that under
// ASan), so it runs on a default stack.
template <class Algorithm, class Module>
constexpr void patch_module_in_place_if_lower(Module& m, Module& scratch, const patch_request& request, const memory::plan_config& config) {
  const auto planned_ram = [&config](Module& x) {
    lower_te::run_in_place(x);
    if (!x.error.failed()) plan_module_in_place<Algorithm>(x, config);
    return detail::total_ram(x);
  };
  scratch = m;
  patch_module_in_place(scratch, request, config);
  if (request.ops > 0 || request.streamed_input != 0 || scratch.error.failed() || scratch.node_count == m.node_count) {
    patch_module_in_place(m, request, config);
    return;
  }
  const std::int64_t with = planned_ram(scratch);
  scratch = m;
  if (with < planned_ram(scratch)) patch_module_in_place(m, request, config);  // deterministic: the same stage
}

// The same by value (a copy of `m` and a scratch module in this frame: run it on a large stack, or use
// patch_module_in_place_if_lower with modules on the heap).
template <class Algorithm, class Module>
constexpr Module patch_module_if_lower(const Module& m, const patch_request& request, const memory::plan_config& config) {
  Module result = m, scratch{};
  patch_module_in_place_if_lower<Algorithm>(result, scratch, request, config);
  return result;
}

template <patch_request Request, class Planning = plan_memory<>>
struct patch_execution {
  static constexpr fact requires_facts = fact::shapes_inferred;
  static constexpr fact establishes = fact::shapes_inferred;  // keeps it: every new tensor has its shape
  static constexpr bool reads_module_constant = true;          // run_on<M>: the result is a larger module

  // The plan this pass makes for `m`.
  template <class Module>
  static constexpr patch_plan plan(const Module& m) {
    return plan_patches(m, Request, Planning::config);
  }

  template <const auto& M>
  static constexpr auto run_on() {
    constexpr patch_plan chosen = plan(M);
    if constexpr (chosen.check.problem != patch_problem::none && Request.streamed_input != 0) {
      (void)errors::input_cannot_be_streamed<errors::module_op<M, chosen.check.op>,
                                             errors::patch_reason<chosen.check.problem>>{};
      return M;
    } else if constexpr (chosen.check.problem != patch_problem::none) {
      (void)errors::prefix_op_cannot_be_patched<errors::module_op<M, chosen.check.op>,
                                                errors::patch_reason<chosen.check.problem>>{};
      return M;
    } else if constexpr (chosen.ops == 0) {
      return M;
    } else if constexpr (Request.ops > 0) {
      return detail::patched_v<M, Request>;
    } else if constexpr (Request.streamed_input != 0) {
      // Streamed: the interface takes a row_source, so the chosen stage stays whatever the whole-tensor RAM.
      return detail::patched_v<M, patch_request{chosen.ops, chosen.rows, chosen.columns, 0, 1}>;
    } else {
      // The chosen prefix and grid as an explicit request: the search runs once.
      constexpr patch_request chosen_request{chosen.ops, chosen.rows, chosen.columns, 0};
      constexpr std::int64_t with =
          detail::planned_ram<typename detail::upper_bound_planning<Planning>::type>(detail::patched_v<M, chosen_request>);
      constexpr std::int64_t without = detail::planned_ram<Planning>(M);
      if constexpr (with < without) return detail::patched_v<M, chosen_request>;
      else return M;
    }
  }

  template <class Module>
  static constexpr Module run(Module m) {
    return patch_module(m, Request, Planning::config);
  }
};

}  // namespace pass
}  // namespace ctnn
