// Compile-time cost of plan_memory on a synthetic chain of CTNN_CHAIN_OPS ops (default 400): one
// constant evaluation of the pass, as in ctnn::compile. Built as an object file by the benchmark target;
// docs/memory.md has the measured times and constexpr steps, and the commands:
//
//   time g++ -std=c++20 -O0 -Iinclude -c benchmarks/memory_plan/chain_plan_cost.cpp -o /dev/null
//   clang++ ... -fconstexpr-steps=N          (the smallest N that compiles = the steps the plan costs)
//
// -DCTNN_CHAIN_SKIPS=K: every 7th result is also read up to K ops later (skip connections);
// -DCTNN_CHAIN_SIZES=0: random sizes (64..4159 B: greedy by size misses the bound, every algorithm of the
//  default runs); 1: a network-like profile (sizes halve and double: greedy by size reaches the bound);
// -DCTNN_CHAIN_PLANNER=<type>: the algorithm (default ctnn::memory::default_planner);
// -DCTNN_CHAIN_NO_PLAN: build the module only (the baseline).
#include <array>
#include <cstdint>

#include <ctnn/ir/module.hpp>
#include <ctnn/pass/plan_memory.hpp>

#ifndef CTNN_CHAIN_OPS
#define CTNN_CHAIN_OPS 400
#endif
#ifndef CTNN_CHAIN_SKIPS
#define CTNN_CHAIN_SKIPS 0
#endif
#ifndef CTNN_CHAIN_SIZES
#define CTNN_CHAIN_SIZES 0
#endif
#ifndef CTNN_CHAIN_PLANNER
#define CTNN_CHAIN_PLANNER ctnn::memory::default_planner
#endif

namespace {

constexpr std::int32_t ops = CTNN_CHAIN_OPS;
constexpr std::uint32_t skips = CTNN_CHAIN_SKIPS > 0 ? CTNN_CHAIN_SKIPS : 1;
using chain_module = ctnn::module<static_cast<std::size_t>(ops + 1), static_cast<std::size_t>(ops)>;

// x -> op 0 -> op 1 -> ... -> op N-1 (the output), element-wise ops of any sizes: the planner reads
// only tensors, nodes and calls. Op i also reads the result of op i - 1 - skip for some i.
constexpr chain_module make_chain() {
  chain_module m{};
  std::uint32_t random = 12345u;
  std::int32_t elements = 1024;
  ctnn::tensor x{};
  x.dims = ctnn::make_shape(1, 256);
  x.role = ctnn::tensor_role::input;
  x.io_index = 0;
  m.inputs[0] = m.add_tensor(x);
  m.input_count = 1;
  for (std::int32_t i = 0; i < ops; ++i) {
    random = random * 1664525u + 1013904223u;
    if (CTNN_CHAIN_SIZES == 0) elements = 16 + static_cast<std::int32_t>((random >> 8) % 1024);
    else if ((random >> 8) % 5 == 0) elements = elements > 64 ? elements / 2 : elements * 4;
    ctnn::node n{};
    n.kind = ctnn::op_kind::relu;
    n.inputs[0] = i;  // tensor i: the previous result (tensor 0: the input)
    n.input_count = 1;
    if (CTNN_CHAIN_SKIPS > 0 && i % 7 == 0 && i > static_cast<std::int32_t>((random >> 4) % skips) + 1) {
      n.inputs[1] = i - 1 - static_cast<std::int32_t>((random >> 4) % skips);
      n.input_count = 2;
    }
    ctnn::tensor t{};
    t.dims = ctnn::make_shape(1, elements);
    t.producer = i;
    n.output = m.add_tensor(t);
    m.nodes[static_cast<std::size_t>(m.node_count++)] = n;
    ctnn::kernel_call& c = m.calls[static_cast<std::size_t>(m.call_count++)];
    c.node = i;
    c.result = n.output;
    c.operands = n.inputs;
    c.operand_count = n.input_count;
  }
  m.tensor_at(m.node_at(ops - 1).output).role = ctnn::tensor_role::output;
  m.tensor_at(m.node_at(ops - 1).output).io_index = 0;
  m.outputs[0] = m.node_at(ops - 1).output;
  m.output_count = 1;
  m.establish(ctnn::fact::shapes_inferred);
  m.establish(ctnn::fact::kernels_lowered);
  return m;
}

constexpr chain_module chain = make_chain();
#ifndef CTNN_CHAIN_NO_PLAN
constexpr chain_module planned = ctnn::pass::plan_memory<CTNN_CHAIN_PLANNER>::run(chain);
static_assert(planned.has(ctnn::fact::memory_planned) && planned.arena_bytes() >= planned.liveness_lower_bound);
#endif

}  // namespace

// Keeps the plan in the object file.
std::int64_t ctnn_chain_plan_bytes() {
#ifndef CTNN_CHAIN_NO_PLAN
  return planned.arena_bytes();
#else
  return chain.node_count;
#endif
}
