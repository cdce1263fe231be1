#pragma once
// The module: one constexpr value table that every pass reads and returns (docs/design.md §2: types for
// identity, values for analysis). Fixed capacities keep it a literal type; the frontends size them
// exactly. Sections are filled by passes; `facts` records which ones hold.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/attributes.hpp>
#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/kernel_choice.hpp>
#include <ctnn/ir/kernel_params.hpp>
#include <ctnn/ir/little_endian.hpp>
#include <ctnn/ir/name.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/pools.hpp>
#include <ctnn/ir/requantization_recipe.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn {

inline constexpr std::size_t max_model_io = 8;

// state: a tensor that keeps its values between runs (TFLite's variable tensors: an LSTM's or SVDF's memory).
// It lives in the model's state memory, outside the planned pools (docs/memory.md, "State"), starts at its
// initial value (state_fill) and is written in place by the op that reads it (ops' state_operands).
enum class tensor_role : std::uint8_t { intermediate, input, output, constant, state };

// Where a constant's values are. Weights never live inside the module value (docs/design.md §2): the module
// points at static storage: a user's constexpr array (typed pointer), or the little-endian bytes of an
// embedded model file (`bytes`, read with byte indexing in constant evaluation, since reinterpret_cast
// is not allowed there).
struct constant_data {
  const float* f32 = nullptr;
  const std::int8_t* i8 = nullptr;
  const std::int32_t* i32 = nullptr;
  const char* bytes = nullptr;
  // The first byte of the model file that `bytes` points into: the embedded array itself, a valid template
  // argument (a pointer into it is not, on g++), so the executor keys a constant's own copy by (file,
  // offset) and executors of one model share it (runtime/packed_operands.hpp).
  const char* file = nullptr;
  // f32/i8/i32 is a user's array itself (the DSL's template argument), so the pointer may be a template
  // argument again: the executor then keys the array's packed copy by it, not by the module, which keeps
  // the model's type out of the symbol's name (docs/compile_time.md).
  bool user_array = false;

  constexpr bool present() const { return f32 != nullptr || i8 != nullptr || i32 != nullptr || bytes != nullptr; }
};

// Affine quantization: real = scale * (q - zero_point), per tensor, or per channel along `axis` (the
// scales then come from the model file or a user array; per-channel zero points are 0, as TFLite's
// symmetric weights have).
struct quantization {
  float scale = 0.0f;  // per tensor (per channel: the first channel's); 0 = not quantized
  std::int32_t zero_point = 0;
  std::int32_t axis = -1;  // per channel: the channel axis; -1 = per tensor
  std::int32_t channel_count = 0;
  const float* scales = nullptr;      // per-channel scales (user array)
  const char* scale_bytes = nullptr;  // per-channel scales (float32, little-endian, in a model file)

  constexpr bool quantized() const { return scale != 0.0f || channel_count > 0; }
  constexpr bool per_channel() const { return channel_count > 0; }
  constexpr float scale_of(std::int32_t channel) const {
    if (channel_count == 0) return scale;
    if (scales != nullptr) return scales[channel];
    return load_le<float>(scale_bytes, static_cast<std::size_t>(channel) * 4);
  }
};

struct tensor {
  name label{};
  shape dims{};
  dtype type = dtype::f32;
  tensor_role role = tensor_role::intermediate;
  constant_data data{};
  quantization quant{};
  std::int32_t producer = -1;  // node that writes it; -1 for inputs and constants
  std::int32_t io_index = -1;  // position among the model's inputs or outputs
  std::int32_t alias_of = -1;  // alias_reshapes: shares the storage of this tensor (a view)
  std::int32_t recipe = -1;    // a constant computed at compile time from module.recipes[recipe]

  constexpr std::int64_t bytes() const { return dims.elements() * static_cast<std::int64_t>(size_of(type)); }
};

// The byte a state tensor starts as, in every byte: its zero point for int8, else 0 (TFLM's
// ResetVariableTensors, which ignores a variable tensor's buffer).
constexpr std::uint8_t state_fill(const tensor& t) {
  return t.type == dtype::i8 ? static_cast<std::uint8_t>(t.quant.zero_point & 0xff) : std::uint8_t{0};
}

struct node {
  op_kind kind = op_kind::none;
  name label{};
  op_attributes attrs{};
  std::array<std::int32_t, max_node_inputs> inputs{};  // tensor ids; conv/dense: data, weights, bias (-1: none)
  std::int32_t input_count = 0;
  std::int32_t output = -1;
};

// Where an operand lives at run time, fixed at compile time by aot_lower_main.
// state: the model's state memory (module_graph::state_offset; `offset` in it, `index` the tensor).
enum class storage : std::int32_t { none, arena, model_input, model_output, constant, state };

struct location {
  storage where = storage::none;
  std::int32_t index = -1;   // model input/output position, or constant tensor id
  std::int64_t offset = 0;   // byte offset in the arena
};
static_assert(std::has_unique_object_representations_v<location>,
              "ctnn::location must have no padding bytes (clang 14 template-argument bug).");

struct kernel_call {
  std::int32_t node = -1;
  std::int32_t kernel = -1;  // index into module::kernels (structurally equal calls share one)
  kernel_params params{};
  std::array<std::int32_t, max_node_inputs> operands{};  // tensor ids (-1: absent)
  std::int32_t operand_count = 0;
  std::int32_t result = -1;
  std::array<location, max_node_inputs> operand_at{};
  location result_at{};
  requantization_recipe requantization{};  // pass::compute_requantization: its table, if any
};

// How a constant that a pass creates is computed (docs/design.md §2: such weights are materialised once, at compile
// time, in a variable template keyed by the module and the tensor; the module only holds the recipe).
enum class recipe_kind : std::int32_t {
  evaluate_op,          // fold_constants: the result of `op` on constant operands
  batch_norm_weights,   // fold_batch_norm: the tensor's own data times scale / sqrt(variance + epsilon),
                        // per output channel (channel = (index / channel_stride) % channel_count)
  batch_norm_bias,      // fold_batch_norm: (own data - mean) * scale / sqrt(variance + epsilon) + offset; with
                        // own_data_is_offset, the tensor is the batch norm's offset and the bias was 0
};

struct constant_recipe {
  recipe_kind kind = recipe_kind::evaluate_op;
  // The tensors it reads (-1: absent), in the folded op's operand order: evaluate_op, the op's operands;
  // batch_norm_*, the batch norm's (input, scale, offset, mean, variance). Only what materialising reads is
  // kept, not the folded node: the module has a recipe slot per node, and each field of a slot costs
  // compiler memory whether used or not (docs/compile_time.md, the 400-layer chain).
  std::array<std::int32_t, max_node_inputs> operands{};
  std::int32_t operand_count = 0;
  float epsilon = 0.0f;  // batch_norm_*: the batch norm's epsilon
  std::int32_t channel_stride = 1;
  std::int32_t channel_count = 0;
  bool own_data_is_offset = false;
  // evaluate_op: the parameters of the kernel that computes it (its op kind among them), recorded by
  // fold_constants, so that what materialises the constant (runtime/constants.hpp, kernel::module_runner)
  // lowers nothing itself (docs/design.md §1: nothing decides after the pipeline). Kept as their bytes
  // (params() gives them back): clang's constant evaluator builds every member of a kernel_params in every
  // slot, used or not (+35 MB on the 400-layer chain), and an unused array of words costs it almost nothing.
  std::array<std::uint32_t, sizeof(kernel_params) / sizeof(std::uint32_t)> params_words{};

  constexpr kernel_params params() const { return std::bit_cast<kernel_params>(params_words); }

  // The recipe of `op`'s result, computed by the kernel that `params` describe.
  static constexpr constant_recipe evaluating(const node& op, const kernel_params& params) {
    constant_recipe r{};
    r.kind = recipe_kind::evaluate_op;
    r.operands = op.inputs;
    r.operand_count = op.input_count;
    r.params_words = std::bit_cast<decltype(r.params_words)>(params);
    return r;
  }
  // A recipe that folds batch norm `bn` into a weights or bias tensor (`kind` batch_norm_*).
  static constexpr constant_recipe folding_batch_norm(recipe_kind kind, const node& bn, bool own_data_is_offset = false) {
    constant_recipe r{};
    r.kind = kind;
    r.operands = bn.inputs;
    r.operand_count = bn.input_count;
    r.epsilon = bn.attrs.batch_norm.epsilon();
    r.own_data_is_offset = own_data_is_offset;
    return r;
  }
};

// Per kernel (create_function_metadata): the bytes one call of it touches.
struct function_info {
  std::int32_t calls = 0;           // calls that use this kernel
  std::int64_t workspace_bytes = 0; // scratch inside the kernel
  std::int64_t io_bytes = 0;        // activations read and written by one call
  std::int64_t constant_bytes = 0;  // weights and biases read by one call
};

// One model input or output (create_executor_metadata).
struct io_info {
  name label{};
  shape dims{};
  dtype type = dtype::f32;
  std::int64_t bytes = 0;
  float scale = 0.0f;         // quantized tensors: real = scale * (q - zero_point); 0 when not quantized
  std::int32_t zero_point = 0;
};

// One memory pool as the executor's caller sees it (create_executor_metadata): the plan's pools in
// fallback order, then, when no pool is read-only, "constants" for the weights the kernels read (.rodata).
struct pool_metadata {
  const char* name = "arena";
  std::int64_t bytes = 0;        // what the plan needs in it (read-only pools: the constants' bytes)
  std::int64_t size_limit = -1;  // its limit (ctnn::pool<Name, Bytes>); -1: none
  std::int32_t alignment = 16;   // of its start and of every offset in it
  bool read_only = false;
};

struct executor_info {
  name model{};
  std::array<io_info, max_model_io> inputs{};
  std::int32_t input_count = 0;
  std::array<io_info, max_model_io> outputs{};
  std::int32_t output_count = 0;
  std::array<pool_metadata, memory::max_pools + 1> pools{};
  std::int32_t pool_count = 0;
  std::int32_t alignment = 16;
  std::int64_t constant_bytes = 0;  // weights read by the executor, over all kernels
  std::int32_t kernel_count = 0;
  std::int32_t call_count = 0;
};

// Facts a pass establishes; a pass that reads a fact requires it (pipeline checks).
enum class fact : std::uint32_t {
  shapes_inferred = 1u << 0,
  kernels_lowered = 1u << 1,
  memory_planned = 1u << 2,
  main_lowered = 1u << 3,
  function_metadata = 1u << 4,
  executor_metadata = 1u << 5,
  kernels_selected = 1u << 6,
};

// A model's graph: tensors, nodes, inputs and outputs, and the first error found. The module's first
// section; a frontend that only counts what a file holds (the ONNX importer's count()) fills this alone,
// without the kernel, planner and metadata tables (whose initialisation costs constexpr steps).
template <std::size_t MaxTensors, std::size_t MaxNodes>
struct module_graph {
  static constexpr std::size_t tensor_capacity = MaxTensors;
  static constexpr std::size_t node_capacity = MaxNodes;

  name model_name{};
  std::array<tensor, MaxTensors> tensors{};
  std::int32_t tensor_count = 0;
  std::array<node, MaxNodes> nodes{};
  std::int32_t node_count = 0;
  std::array<std::int32_t, max_model_io> inputs{};
  std::int32_t input_count = 0;
  std::array<std::int32_t, max_model_io> outputs{};
  std::int32_t output_count = 0;
  diagnostic error{};

  constexpr std::int32_t add_tensor(const tensor& t) {
    tensors[static_cast<std::size_t>(tensor_count)] = t;
    return tensor_count++;
  }
  constexpr const tensor& tensor_at(std::int32_t id) const { return tensors[static_cast<std::size_t>(id)]; }
  constexpr tensor& tensor_at(std::int32_t id) { return tensors[static_cast<std::size_t>(id)]; }
  constexpr const node& node_at(std::int32_t id) const { return nodes[static_cast<std::size_t>(id)]; }
  constexpr node& node_at(std::int32_t id) { return nodes[static_cast<std::size_t>(id)]; }
  constexpr const tensor& input_tensor(std::int32_t i) const { return tensor_at(inputs[static_cast<std::size_t>(i)]); }
  constexpr const tensor& output_tensor(std::int32_t i) const { return tensor_at(outputs[static_cast<std::size_t>(i)]); }

  // The tensor whose storage a tensor uses (itself unless alias_reshapes made it a view).
  constexpr std::int32_t storage_root(std::int32_t id) const {
    while (id >= 0 && tensor_at(id).alias_of >= 0) id = tensor_at(id).alias_of;
    return id;
  }

  // The state memory (tensor_role::state): each state tensor in tensor order, at a multiple of
  // state_alignment. Few tensors are state, so the layout is recomputed rather than stored.
  static constexpr std::int64_t state_alignment = 16;
  constexpr std::int64_t state_offset(std::int32_t id) const {
    std::int64_t offset = 0;
    for (std::int32_t t = 0; t < id; ++t)
      if (tensor_at(t).role == tensor_role::state) offset += (tensor_at(t).bytes() + state_alignment - 1) / state_alignment * state_alignment;
    return offset;
  }
  constexpr std::int64_t state_bytes() const { return state_offset(tensor_count); }
  constexpr std::int32_t state_tensor_count() const {
    std::int32_t count = 0;
    for (std::int32_t t = 0; t < tensor_count; ++t) count += tensor_at(t).role == tensor_role::state ? 1 : 0;
    return count;
  }

  // The name errors give op `id` (docs/design.md §3): its result tensor's, which is the model's own name for
  // it (TFLite ops have none but their output's), else the node's label.
  constexpr const name& op_name(std::int32_t id) const {
    const node& n = node_at(id);
    return n.output >= 0 && !tensor_at(n.output).label.empty() ? tensor_at(n.output).label : n.label;
  }

  // Records the first error. `d.node` is an op of this module (or -1); the error gets that op's name.
  constexpr void fail(const diagnostic& d) {
    if (error.failed()) return;
    error = d;
    if (d.node >= 0 && d.node < node_count && d.op_name.empty()) error.op_name = op_name(d.node);
  }
  // Records the first error of a frontend, whose `d.node` counts the ops of the model file (not of this
  // module) and whose `d.op_name` the frontend set from the file.
  constexpr void fail_in_file(const diagnostic& d) {
    if (!error.failed()) error = d;
  }
};

template <std::size_t MaxTensors, std::size_t MaxNodes>
struct module : module_graph<MaxTensors, MaxNodes> {
  std::uint32_t facts = 0;
  requantization_policy requantization = requantization_policy::tflite;  // set by the frontend

  // Constants created by passes (fold_constants, fold_batch_norm); tensor::recipe indexes them.
  std::array<constant_recipe, MaxNodes> recipes{};
  std::int32_t recipe_count = 0;

  // Filled by lower_te: one call per node that needs a kernel, in execution order, and the distinct
  // kernels they use, each as the first call that uses it (kernel(k) gives its parameters). Not a table of
  // kernel_params of its own: clang's constant evaluator builds every member of every slot of such a table,
  // used or not, in every module value (+73 MB on the 400-layer chain; docs/compile_time.md).
  std::array<kernel_call, MaxNodes> calls{};
  std::int32_t call_count = 0;
  std::array<std::int32_t, MaxNodes> kernel_first_call{};
  std::int32_t kernel_count = 0;

  // The parameters of distinct kernel k (0 <= k < kernel_count): those of its first call.
  constexpr const kernel_params& kernel(std::int32_t k) const {
    return calls[static_cast<std::size_t>(kernel_first_call[static_cast<std::size_t>(k)])].params;
  }

  // Filled by create_function_metadata (one per kernel) and create_executor_metadata.
  std::array<function_info, MaxNodes> functions{};
  executor_info metadata{};

  // Memory planning (plan_memory's steps: assign_pools, order_for_memory, place_buffers,
  // mark_in_place_calls, check_budgets; docs/memory.md). Set before placement, by assign_pools or by a pass
  // of yours: the pools in fallback order (none: one pool "arena" without a limit) and the pins, and the
  // alignment of every buffer. scratch_bytes is the one record of each call's scratch: lower_te writes
  // what the call's kernel declares (kernel/scratch.hpp), a pass before planning may reserve more.
  std::array<memory::pool_info, memory::max_pools> pools{};
  std::int32_t pool_count = 0;
  std::array<memory::pool_pin, memory::max_pins> pins{};  // assign_pools: the pins, resolved
  std::int32_t pin_count = 0;
  std::array<std::int64_t, MaxNodes> scratch_bytes{};  // per call (the reference kernels declare none)
  std::int32_t arena_alignment = 16;
  // Filled by place_buffers: where every buffer went (tensors: allocations, per tensor id; scratch: per
  // call), what each pool needs, and the liveness lower bound of everything placed.
  std::array<memory::pool_allocation, MaxTensors> allocations{};
  std::array<memory::pool_allocation, MaxNodes> scratch{};
  std::array<memory::pool_usage, memory::max_pools> pool_usage{};
  std::int64_t liveness_lower_bound = 0;   // over all writable pools
  std::int32_t peak_node = -1;             // the op where it is reached
  std::int32_t in_place_ops = 0;           // ops that write over an operand that dies there
  std::array<bool, MaxNodes> result_over_input{};  // per op: its result was placed over its dying input
                                                   // (an in-place convolution; mark_in_place_calls reads it)
  std::int32_t concats_in_place = 0;       // concats whose inputs were written into the output
  std::int32_t slices_in_place = 0;        // slices stored inside their input (memory::plan_config::slice_in_place)
  std::int32_t copies_skipped = 0;         // calls that would copy bytes onto themselves (mark_in_place_calls)
  std::int64_t bytes_not_copied = 0;       // their results' bytes
  std::int32_t reordered = 0;              // 1: the op order was changed to lower the peak
  std::int64_t io_bytes_outside = 0;       // model inputs and outputs kept in the caller's buffers

  // Pool 0's bytes (the whole arena when there is one pool): pool_usage is the one record of what each pool
  // needs; a pass after planning that grows the arena changes pool_usage[0].bytes.
  constexpr std::int64_t arena_bytes() const { return pool_usage[0].bytes; }

  constexpr bool has(fact f) const { return (facts & static_cast<std::uint32_t>(f)) != 0; }
  constexpr void establish(fact f) { facts |= static_cast<std::uint32_t>(f); }
};

}  // namespace ctnn
