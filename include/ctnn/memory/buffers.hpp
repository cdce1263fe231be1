#pragma once
// The buffers a module's plan must place (memory::plan_buffers): one per tensor that needs storage of
// its own (intermediates; model inputs and outputs with io_in_arena), one per call that declares
// scratch, with lifetimes in op order; views (alias_reshapes) live in their root. With the reuse
// options, tensors join the buffer of another tensor:
//
//  * in place: an element-wise op writes its result over an operand that dies at that op. The reference
//    kernels (kernel/reference/elementwise.hpp, activation.hpp, batch_norm.hpp) read element i before
//    they write element i and touch no other element in between, so the result may alias an operand of
//    the same size. For add/mul with broadcasting, only an operand whose shape equals the result's (its
//    element i is read exactly when result element i is written), and no other operand may share its
//    storage with another shape. quantize/dequantize are in the table for the int8 kernels, on the
//    same contract (same byte size only).
//  * concat in place: the producers of a concat's inputs write straight into its output, each at its
//    slice. Only when the slices are contiguous (every dimension before the axis is 1): the kernels
//    write dense outputs. The concat's call then copies nothing (mark_in_place_calls: skipped). A channel concat of an
//    NHWC map would need kernels that write with an output row stride (not there yet).
//
//  * in-place windows (ctnn::in_place_depthwise, ctnn::in_place_conv, ctnn::in_place_windows): a
//    depthwise or ordinary convolution may write its result over its input, which dies there, if the
//    result starts at most memory::in_place_window_shift below it (no output pixel overwrites input
//    that the pixel walk still reads; the result may be larger or smaller than the input). The two
//    stay separate buffers, a pair (buffer_info::written_over, over_shift): the placement may overlap
//    them that way (first fit does), and the liveness bound counts the pair's smallest footprint at that
//    op. Not merged into one buffer: one rectangle over both lifetimes would hold the larger extent from
//    the input's birth to the result's death (VWW's 1x1 conv 8 -> 16 channels then costs more than it
//    saves). `window_candidates` limits the ops tried (buffers_to_place tries the ops at the peak).
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/ir/streamed_input.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/in_place_window.hpp>
#include <ctnn/memory/liveness.hpp>
#include <ctnn/memory/options.hpp>
#include <ctnn/ops/registry.hpp>

namespace ctnn::memory {

template <class Module>
struct buffer_set {
  static constexpr std::size_t capacity = Module::tensor_capacity + Module::node_capacity;
  std::array<buffer_info, capacity> buffers{};
  std::int32_t count = 0;
  std::array<std::int32_t, Module::tensor_capacity> buffer_of{};        // tensor -> buffer (-1: none)
  std::array<std::int64_t, Module::tensor_capacity> offset_in_buffer{};  // concat in place: its slice
  std::array<std::int32_t, Module::node_capacity> scratch_of{};         // call -> buffer (-1: none)
  std::int32_t in_place_ops = 0;      // element-wise ops merged with an operand
  std::int32_t windows_in_place = 0;  // convolutions whose result may be placed over their input (pairs)
  std::int32_t concats_in_place = 0;
  std::int32_t slices_in_place = 0;
  std::int64_t io_bytes_outside = 0;
};

// Element-wise ops whose result may be written over operand `slot`.
constexpr bool may_write_over(op_kind kind, std::int32_t slot) {
  return (ops::facts(kind).in_place_slots >> slot & 1u) != 0;
}

// Whether the options let op `n` write its result over its input: a convolution whose kernels walk
// output pixels row-major and finish all channels of a pixel before the next, over NHWC activations:
// ctnn's layout, and ONNX's integer conv held in NHWC (onnx_nhwc: kernel::reference::onnx_quant::conv and
// the DSP kernels, kernel/arm/onnx_conv.hpp, walk that way); not ONNX's NCHW layout.
constexpr bool window_in_place_allowed(const plan_config& config, const node& n) {
  if (n.kind == op_kind::depthwise_conv2d) return config.in_place_depthwise;
  if (n.kind == op_kind::conv2d)
    return config.in_place_conv && (n.attrs.layout == data_layout::ctnn || n.attrs.layout == data_layout::onnx_nhwc);
  return false;
}

// The scratch of an ONNX integer conv2d or dense over uint8 data is its input made int8 (kernel/arm/onnx_scratch.hpp,
// the module's scratch_bytes: the input's size). Where that input's buffer is in the pools (and not a model
// output's), the kernel makes it int8 in place instead (kernel/arm/onnx_conv.hpp, run without scratch): no scratch
// buffer (pass::place_buffers then records none for the call). An input read after the call is made uint8 again
// before the call returns (kernel_params::input_restored; a top-bit flip, about one instruction a byte on the DSP
// family): IC's residual maps, which feed a convolution and the Add after it, then need no int8 copy beside them.
template <class Module>
constexpr bool scratch_made_in_place(const Module& m, std::int32_t op, std::int64_t scratch_bytes, const std::int32_t* buffer_of,
                                     const buffer_info* buffers) {
  const node& n = m.node_at(op);
  if ((n.kind != op_kind::conv2d && n.kind != op_kind::dense) || !is_onnx_layout(n.attrs.layout) || n.input_count < 1) return false;
  const tensor& x = m.tensor_at(n.inputs[0]);
  if (x.type != dtype::u8 || x.bytes() != scratch_bytes) return false;
  const std::int32_t root = m.storage_root(n.inputs[0]);
  const std::int32_t over = root >= 0 ? buffer_of[root] : -1;
  return over >= 0 && buffers[over].kind != buffer_kind::output;
}

// `window_candidates` (per node; nullptr: all): the convolutions that may be placed in place.
template <class Module>
constexpr buffer_set<Module> plan_buffers(const Module& m, const plan_config& config, const bool* window_candidates = nullptr) {
  buffer_set<Module> s{};
  constexpr std::size_t tensors = Module::tensor_capacity;
  buffer_info* b = s.buffers.data();
  std::int32_t* of = s.buffer_of.data();
  std::int64_t* slice = s.offset_in_buffer.data();
  // Members of each buffer as linked lists over tensors (merges move whole lists).
  std::array<std::int32_t, tensors> next_storage{};
  std::array<std::int32_t, Module::tensor_capacity + Module::node_capacity> head_storage{};
  std::int32_t* next = next_storage.data();
  std::int32_t* head = head_storage.data();
  std::array<bool, Module::tensor_capacity + Module::node_capacity> dead_storage{};
  bool* dead = dead_storage.data();
  const tensor* t = m.tensors.data();
  const node* nodes = m.nodes.data();
  const auto streamed = streamed_inputs(m);  // no buffer: the caller's row_source fills the row buffer

  for (std::int32_t x = 0; x < m.tensor_count; ++x) {
    of[x] = -1;
    next[x] = -1;
    const tensor& info = t[x];
    if (info.alias_of >= 0) continue;  // a view: lives in its root
    buffer_kind kind = buffer_kind::intermediate;
    std::int32_t first = 0, last = 0;
    if (info.role == tensor_role::intermediate && info.producer >= 0) {
      first = last = info.producer;
    } else if (info.role == tensor_role::input) {
      if (info.io_index >= 0 && streamed[static_cast<std::size_t>(info.io_index)]) continue;
      if (!config.io_in_arena) {
        s.io_bytes_outside += info.bytes();
        continue;
      }
      kind = buffer_kind::input;
    } else if (info.role == tensor_role::output && info.producer >= 0) {
      if (!config.io_in_arena) {
        s.io_bytes_outside += info.bytes();
        continue;
      }
      kind = buffer_kind::output;
      first = info.producer;
      last = m.node_count;  // read by the caller after the last op: no op may write over it
    } else {
      continue;
    }
    of[x] = s.count;
    head[s.count] = x;
    b[s.count++] = buffer_info{x, info.bytes(), m.arena_alignment, first, last, kind, all_pools};
  }
  // Readers extend lifetimes (a view keeps its root alive).
  for (std::int32_t op = 0; op < m.node_count; ++op)
    for (std::int32_t i = 0; i < nodes[op].input_count; ++i) {
      const std::int32_t r = m.storage_root(nodes[op].inputs[static_cast<std::size_t>(i)]);
      if (r >= 0 && of[r] >= 0 && b[of[r]].last_use < op) b[of[r]].last_use = op;
    }

  // Moves every member of buffer `from` into buffer `into`, `delta` bytes further.
  const auto merge = [&](std::int32_t from, std::int32_t into, std::int64_t delta) {
    std::int32_t tail = head[into];
    while (next[tail] >= 0) tail = next[tail];
    for (std::int32_t x = head[from]; x >= 0; x = next[x]) {
      of[x] = into;
      slice[x] += delta;
    }
    next[tail] = head[from];
    if (b[from].first_use < b[into].first_use) b[into].first_use = b[from].first_use;
    if (b[from].last_use > b[into].last_use) b[into].last_use = b[from].last_use;
    if (b[from].alignment > b[into].alignment) b[into].alignment = b[from].alignment;
    dead[from] = true;
  };

  if (config.in_place || config.concat_in_place || config.slice_in_place || config.in_place_depthwise || config.in_place_conv) {
    for (std::int32_t op = 0; op < m.node_count; ++op) {
      const node& n = nodes[op];
      const std::int32_t out = n.output;
      if (out < 0 || of[out] < 0) continue;
      const std::int32_t out_buffer = of[out];
      if (window_in_place_allowed(config, n) && (window_candidates == nullptr || window_candidates[op])) {
        // The result, alone in a buffer that starts here, may be written over the input (operand 0),
        // whose buffer dies here: a pair for the placement (buffer_info::written_over), not a merge.
        const std::int32_t operand = n.inputs[0];
        const std::int32_t r = m.storage_root(operand);
        const std::int32_t over = r >= 0 ? of[r] : -1;
        const shape& in_dims = t[operand].dims;
        const shape& out_dims = t[out].dims;
        if (over >= 0 && over != out_buffer && b[over].last_use == op && b[out_buffer].first_use == op && next[out] < 0 &&
            head[out_buffer] == out && in_dims.rank == 4 && out_dims.rank == 4 && in_dims[0] == out_dims[0] &&
            size_of(t[operand].type) == size_of(t[out].type)) {
          b[out_buffer].written_over = over;
          // The input sits slice[r] bytes into its buffer, the result at the start of its own.
          b[out_buffer].over_shift = in_place_window_shift(in_dims, out_dims, n.attrs.win) * static_cast<std::int64_t>(size_of(t[out].type)) + slice[r];
          ++s.windows_in_place;
        }
      }
      if (config.slice_in_place && ops::facts(n.kind).windows_its_input && t[out].role == tensor_role::intermediate &&
          head[out_buffer] == out && next[out] < 0 && b[out_buffer].first_use == op) {
        // A window that is one contiguous block of its input (a split's or unpack's part along the outermost
        // dim of extent above 1): the result is stored inside the input's buffer, where its bytes already are
        // (its call then copies nothing: mark_in_place_calls skips it), and keeps that buffer alive.
        const std::int32_t operand = n.inputs[0];
        const std::int32_t r = m.storage_root(operand);
        const std::int32_t into = r >= 0 ? of[r] : -1;
        const std::int64_t first = ops::slice::contiguous_offset(t[operand].dims, n.attrs.slice);
        const std::int64_t at = slice[r >= 0 ? r : 0] + first * static_cast<std::int64_t>(size_of(t[out].type));
        if (into >= 0 && into != out_buffer && first >= 0 && size_of(t[operand].type) == size_of(t[out].type) &&
            at % b[out_buffer].alignment == 0) {
          merge(out_buffer, into, at);
          ++s.slices_in_place;
          continue;
        }
      }
      if (!config.in_place && !config.concat_in_place) continue;
      if (config.in_place) {
        for (std::int32_t slot = 0; slot < n.input_count; ++slot) {
          if (!may_write_over(n.kind, slot)) continue;
          const std::int32_t operand = n.inputs[static_cast<std::size_t>(slot)];
          const std::int32_t r = m.storage_root(operand);
          if (r < 0 || of[r] < 0 || of[r] == out_buffer) continue;
          const std::int32_t into = of[r];
          if (b[into].last_use != op) continue;  // the operand (or a view of it) is read later
          if (t[operand].bytes() != t[out].bytes() || t[operand].dims.elements() != t[out].dims.elements()) continue;
          // Every operand stored in that buffer (the operand itself, a view of it, or a tensor a concat
          // put there) must be read at element i exactly when result element i is written: the result's
          // shape, at the same place.
          bool ok = true;
          for (std::int32_t k = 0; k < n.input_count; ++k) {
            const std::int32_t other = n.inputs[static_cast<std::size_t>(k)];
            const std::int32_t other_root = m.storage_root(other);
            if (other < 0 || other_root < 0 || of[other_root] != into) continue;
            if (!(t[other].dims == t[out].dims) || slice[other_root] != slice[r]) ok = false;
          }
          if (!ok) continue;
          merge(out_buffer, into, slice[r]);
          ++s.in_place_ops;
          break;
        }
      }
      if (config.concat_in_place && n.kind == op_kind::concat && of[out] == out_buffer && !dead[out_buffer]) {
        const shape& dims = t[out].dims;
        const std::int32_t axis = n.attrs.axis < 0 ? n.attrs.axis + dims.rank : n.attrs.axis;
        bool ok = n.input_count > 0 && b[out_buffer].first_use == op;
        for (std::int32_t d = 0; d < axis && ok; ++d) ok = dims[d] == 1;
        std::int64_t at = 0;
        for (std::int32_t i = 0; i < n.input_count && ok; ++i) {
          const std::int32_t operand = n.inputs[static_cast<std::size_t>(i)];
          const std::int32_t r = m.storage_root(operand);
          const std::int32_t from = r >= 0 ? of[r] : -1;
          ok = from >= 0 && from != out_buffer && b[from].bytes == t[operand].bytes() && slice[r] == 0 &&
               at % b[from].alignment == 0 && b[from].first_use < op;
          for (std::int32_t j = 0; j < i && ok; ++j) {
            const std::int32_t rj = m.storage_root(n.inputs[static_cast<std::size_t>(j)]);
            ok = rj >= 0 && of[rj] != from;
          }
          at += t[operand].bytes();
        }
        if (ok && at == b[out_buffer].bytes) {
          std::int64_t offset = 0;
          for (std::int32_t i = 0; i < n.input_count; ++i) {
            const std::int32_t operand = n.inputs[static_cast<std::size_t>(i)];
            merge(of[m.storage_root(operand)], out_buffer, offset);
            offset += t[operand].bytes();
          }
          ++s.concats_in_place;
        }
      }
    }
  }

  // Intra-op scratch: live during its call only.
  std::int32_t* scratch = s.scratch_of.data();
  const std::int64_t* scratch_bytes = m.scratch_bytes.data();
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    scratch[c] = -1;
    if (scratch_bytes[c] <= 0) continue;
    const std::int32_t op = m.calls[static_cast<std::size_t>(c)].node;
    if (scratch_made_in_place(m, op, scratch_bytes[c], of, b)) continue;
    head[s.count] = -1;
    scratch[c] = s.count;
    b[s.count++] = buffer_info{-1, scratch_bytes[c], m.arena_alignment, op, op, buffer_kind::scratch, all_pools};
  }

  // Pairs whose buffers a later merge changed (the input's buffer must die, the result's start, at the
  // op) are dropped: the two then simply conflict.
  for (std::int32_t i = 0; i < s.count; ++i) {
    const std::int32_t over = b[i].written_over;
    if (over < 0) continue;
    if (dead[i] || dead[over] || b[over].last_use != b[i].first_use) {
      b[i].written_over = -1;
      b[i].over_shift = 0;
      --s.windows_in_place;
    }
  }
  // Drop the merged buffers.
  std::array<std::int32_t, Module::tensor_capacity + Module::node_capacity> moved_storage{};
  std::int32_t* moved = moved_storage.data();
  std::int32_t kept = 0;
  for (std::int32_t i = 0; i < s.count; ++i) {
    moved[i] = dead[i] ? -1 : kept;
    if (!dead[i]) b[kept++] = b[i];
  }
  s.count = kept;
  for (std::int32_t i = 0; i < kept; ++i)
    if (b[i].written_over >= 0) b[i].written_over = moved[b[i].written_over];
  for (std::int32_t x = 0; x < m.tensor_count; ++x)
    if (of[x] >= 0) of[x] = moved[of[x]];
  for (std::int32_t c = 0; c < m.call_count; ++c)
    if (scratch[c] >= 0) scratch[c] = moved[scratch[c]];
  return s;
}

// The buffers plan_memory places (and the memory-aware order compares): plan_buffers, with in-place
// convolutions (ctnn::in_place_windows and its parts) kept only where they lower the liveness peak:
// elsewhere they would only slow the calls down (they run the reference kernel). The search starts with
// none and, while the peak goes down, adds the convolutions at the peak (all ops where it is reached:
// one left out keeps it), and stops when that does not lower it. One plan_buffers per step.
template <class Module>
constexpr buffer_set<Module> buffers_to_place(const Module& m, const plan_config& config) {
  if (!config.in_place_depthwise && !config.in_place_conv) return plan_buffers(m, config);
  std::array<bool, Module::node_capacity> candidates{};
  auto set = plan_buffers(m, config, candidates.data());
  const auto peak_of = [&](const buffer_set<Module>& x) { return liveness_lower_bound(x.buffers, x.count, m.node_count).bytes; };
  std::array<std::int64_t, Module::node_capacity + 1> live{};
  for (std::int32_t step = 0; step < m.node_count; ++step) {
    live_bytes_per_op(set.buffers, set.count, m.node_count, live);
    std::int64_t peak = 0;
    for (std::int32_t op = 0; op < m.node_count; ++op) peak = live[static_cast<std::size_t>(op)] > peak ? live[static_cast<std::size_t>(op)] : peak;
    bool added = false;
    for (std::int32_t op = 0; op < m.node_count; ++op) {
      bool& candidate = candidates[static_cast<std::size_t>(op)];
      if (live[static_cast<std::size_t>(op)] != peak || candidate || !window_in_place_allowed(config, m.node_at(op))) continue;
      candidate = added = true;
    }
    if (!added) break;
    const auto next = plan_buffers(m, config, candidates.data());
    if (peak_of(next) >= peak) break;
    set = next;
  }
  return set;
}

}  // namespace ctnn::memory
