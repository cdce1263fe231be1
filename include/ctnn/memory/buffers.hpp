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
//    write dense outputs. The concat kernel then copies each slice onto itself. A channel concat of an
//    NHWC map would need kernels that write with an output row stride (not there yet).
//
//  * in-place depthwise (ctnn::in_place_depthwise): a depthwise convolution writes its result over its
//    input, which dies there, shifted down by memory::in_place_window_shift (no output pixel overwrites
//    input that the pixel walk still reads). The two are one buffer: its extent runs from the lower
//    start to the higher end, its lifetime from the input's first use to the result's last. A merge is
//    taken only when it does not raise the liveness peak of the buffers so far (a stride-2 layer's
//    small result would otherwise hold its large input's bytes for its whole life).
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/memory/in_place_window.hpp>
#include <ctnn/memory/options.hpp>

namespace ctnn::memory {

template <class Module>
struct buffer_set {
  static constexpr std::size_t capacity = Module::tensor_capacity + Module::node_capacity;
  std::array<buffer_info, capacity> buffers{};
  std::int32_t count = 0;
  std::array<std::int32_t, Module::tensor_capacity> buffer_of{};        // tensor -> buffer (-1: none)
  std::array<std::int64_t, Module::tensor_capacity> offset_in_buffer{};  // concat in place: its slice
  std::array<std::int32_t, Module::node_capacity> scratch_of{};         // call -> buffer (-1: none)
  std::array<bool, Module::node_capacity> window_in_place{};            // per node: a depthwise conv in place
  std::int32_t in_place_ops = 0;  // element-wise ops and depthwise convs
  std::int32_t windows_in_place = 0;  // depthwise convs only
  std::int32_t concats_in_place = 0;
  std::int64_t io_bytes_outside = 0;
};

// Element-wise ops whose result may be written over operand `slot`.
constexpr bool may_write_over(op_kind kind, std::int32_t slot) {
  switch (kind) {
    case op_kind::add:
    case op_kind::mul: return slot == 0 || slot == 1;
    case op_kind::relu:
    case op_kind::relu6:
    case op_kind::sigmoid:
    case op_kind::tanh:
    case op_kind::batch_norm:
    case op_kind::quantize:
    case op_kind::dequantize: return slot == 0;
    default: return false;
  }
}

template <class Module>
constexpr buffer_set<Module> plan_buffers(const Module& m, const plan_config& config) {
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

  // The liveness peak of the live buffers (scratch included) with buffers `a` and `b` replaced by one
  // of `bytes` over the union of their lifetimes (a < 0: as they are): in-place depthwise's test.
  const std::int64_t* call_scratch = m.scratch_bytes.data();
  std::array<std::int64_t, Module::node_capacity + 2> live_storage{};
  std::int64_t* live = live_storage.data();
  const auto peak_with = [&](std::int32_t a, std::int32_t b_merged, std::int64_t bytes) {
    for (std::int32_t op = 0; op <= m.node_count + 1; ++op) live[op] = 0;
    const auto add = [&](std::int32_t first, std::int32_t last, std::int64_t size) {
      live[first < 0 ? 0 : first] += size;
      live[last + 1] -= size;
    };
    for (std::int32_t i = 0; i < s.count; ++i)
      if (!dead[i] && i != a && i != b_merged && b[i].first_use <= b[i].last_use) add(b[i].first_use, b[i].last_use, b[i].bytes);
    if (a >= 0) {
      add(b[a].first_use < b[b_merged].first_use ? b[a].first_use : b[b_merged].first_use,
          b[a].last_use > b[b_merged].last_use ? b[a].last_use : b[b_merged].last_use, bytes);
    }
    for (std::int32_t c = 0; c < m.call_count; ++c)
      if (call_scratch[c] > 0) add(m.calls[static_cast<std::size_t>(c)].node, m.calls[static_cast<std::size_t>(c)].node, call_scratch[c]);
    std::int64_t sum = 0, peak = 0;
    for (std::int32_t op = 0; op < m.node_count; ++op) {
      sum += live[op];
      if (sum > peak) peak = sum;
    }
    return peak;
  };

  if (config.in_place || config.concat_in_place || config.in_place_depthwise) {
    for (std::int32_t op = 0; op < m.node_count; ++op) {
      const node& n = nodes[op];
      const std::int32_t out = n.output;
      if (out < 0 || of[out] < 0) continue;
      const std::int32_t out_buffer = of[out];
      if (config.in_place_depthwise && n.kind == op_kind::depthwise_conv2d) {
        // The result, alone in a buffer that starts here, over the input (operand 0), whose buffer dies here.
        const std::int32_t operand = n.inputs[0];
        const std::int32_t r = m.storage_root(operand);
        const std::int32_t into = r >= 0 ? of[r] : -1;
        const shape& in_dims = t[operand].dims;
        const shape& out_dims = t[out].dims;
        if (into >= 0 && into != out_buffer && b[into].last_use == op && b[out_buffer].first_use == op && next[out] < 0 &&
            head[out_buffer] == out && in_dims.rank == 4 && out_dims.rank == 4 && in_dims[0] == out_dims[0] &&
            size_of(t[operand].type) == size_of(t[out].type)) {
          const std::int64_t alignment = b[into].alignment > b[out_buffer].alignment ? b[into].alignment : b[out_buffer].alignment;
          std::int64_t shift = in_place_window_shift(in_dims, out_dims, n.attrs.win) * static_cast<std::int64_t>(size_of(t[out].type));
          shift = shift >= 0 ? shift / alignment * alignment : -((-shift + alignment - 1) / alignment * alignment);
          const std::int64_t at = slice[r] + shift;  // the result's start in `into`
          const std::int64_t low = at < 0 ? at : 0;
          const std::int64_t high = at + b[out_buffer].bytes > b[into].bytes ? at + b[out_buffer].bytes : b[into].bytes;
          if (peak_with(into, out_buffer, high - low) <= peak_with(-1, -1, 0)) {
            for (std::int32_t x = head[into]; x >= 0; x = next[x]) slice[x] -= low;
            merge(out_buffer, into, at - low);
            b[into].bytes = high - low;
            s.window_in_place[static_cast<std::size_t>(op)] = true;
            ++s.in_place_ops;
            ++s.windows_in_place;
            continue;
          }
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
    head[s.count] = -1;
    scratch[c] = s.count;
    b[s.count++] = buffer_info{-1, scratch_bytes[c], m.arena_alignment, op, op, buffer_kind::scratch, all_pools};
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
  for (std::int32_t x = 0; x < m.tensor_count; ++x)
    if (of[x] >= 0) of[x] = moved[of[x]];
  for (std::int32_t c = 0; c < m.call_count; ++c)
    if (scratch[c] >= 0) scratch[c] = moved[scratch[c]];
  return s;
}

}  // namespace ctnn::memory
