#pragma once
// The module: one constexpr value table that every pass reads and returns (DESIGN §2: types for
// identity, values for analysis). Fixed capacities keep it a literal type; the frontends size them
// exactly. Sections are filled by passes; `facts` records which ones hold.
#include <array>
#include <bit>
#include <type_traits>
#include <cstddef>
#include <cstdint>

#include <ctnn/ir/attributes.hpp>
#include <ctnn/ir/diagnostic.hpp>
#include <ctnn/ir/dtype.hpp>
#include <ctnn/ir/name.hpp>
#include <ctnn/ir/op_kind.hpp>
#include <ctnn/ir/shape.hpp>
#include <ctnn/memory/buffer_info.hpp>

namespace ctnn {

inline constexpr std::size_t max_node_inputs = 8;
inline constexpr std::size_t max_model_io = 8;

enum class tensor_role : std::uint8_t { intermediate, input, output, constant };

// Where a constant's values are. Weights never live inside the module value (DESIGN §2): the module
// points at static storage (a user's constexpr array, or the bytes of an embedded model file).
struct constant_data {
  const float* f32 = nullptr;
  const std::int8_t* i8 = nullptr;
  const std::int32_t* i32 = nullptr;
};

struct tensor {
  name label{};
  shape dims{};
  dtype type = dtype::f32;
  tensor_role role = tensor_role::intermediate;
  constant_data data{};
  std::int32_t producer = -1;  // node that writes it; -1 for inputs and constants
  std::int32_t io_index = -1;  // position among the model's inputs or outputs

  constexpr std::int64_t bytes() const { return dims.elements() * static_cast<std::int64_t>(size_of(type)); }
};

struct node {
  op_kind kind = op_kind::relu;
  name label{};
  op_attributes attrs{};
  std::array<std::int32_t, max_node_inputs> inputs{};  // tensor ids; conv/dense: data, weights, bias (-1: none)
  std::int32_t input_count = 0;
  std::int32_t output = -1;
};

// Everything a kernel needs, with no names: equal params mean one kernel instantiation (dedup).
// It is a template argument of every kernel, so it has no padding bytes: clang 14 miscompiles reads of
// class-type template arguments that have tail padding (checked below, with location).
struct kernel_params {
  op_kind kind = op_kind::relu;
  dtype type = dtype::f32;
  activation fused = activation::none;
  shape in{};
  shape in2{};  // add/mul: the second operand
  shape out{};
  window win{};
  std::int32_t groups = 1;
  std::int32_t depth_multiplier = 1;
  std::int32_t axis = -1;  // normalised to a non-negative axis
  std::array<std::int32_t, 2 * max_rank> pads{};
  std::uint32_t pad_value_bits = 0;  // pad: the fill value's float bits (keeps the struct padding-free)
  std::array<std::int32_t, max_node_inputs> concat_extents{};
  std::int32_t concat_count = 0;
  std::int32_t has_bias = 0;
  constexpr float pad_value() const { return std::bit_cast<float>(pad_value_bits); }
  friend constexpr bool operator==(const kernel_params&, const kernel_params&) = default;
};
static_assert(std::has_unique_object_representations_v<kernel_params>,
              "ctnn::kernel_params must have no padding bytes (clang 14 template-argument bug).");

// Where an operand lives at run time, fixed at compile time by aot_lower_main.
enum class storage : std::int32_t { none, arena, model_input, model_output, constant };

struct location {
  storage where = storage::none;
  std::int32_t index = -1;   // model input/output position, or constant tensor id
  std::int64_t offset = 0;   // byte offset in the arena
};
static_assert(std::has_unique_object_representations_v<location>,
              "ctnn::location must have no padding bytes (clang 14 template-argument bug).");

struct kernel_call {
  std::int32_t node = -1;
  kernel_params params{};
  std::array<std::int32_t, max_node_inputs> operands{};  // tensor ids (-1: absent)
  std::int32_t operand_count = 0;
  std::int32_t result = -1;
  std::array<location, max_node_inputs> operand_at{};
  location result_at{};
};

// Facts a pass establishes; a pass that reads a fact requires it (pipeline checks).
enum class fact : std::uint32_t {
  shapes_inferred = 1u << 0,
  kernels_lowered = 1u << 1,
  memory_planned = 1u << 2,
  main_lowered = 1u << 3,
};

template <std::size_t MaxTensors, std::size_t MaxNodes>
struct module {
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

  std::uint32_t facts = 0;
  diagnostic error{};

  // Filled by lower_te: one call per node, in execution order.
  std::array<kernel_call, MaxNodes> calls{};
  std::int32_t call_count = 0;

  // Filled by plan_memory.
  std::array<memory::pool_allocation, MaxTensors> allocations{};
  std::int64_t arena_bytes = 0;
  std::int32_t arena_alignment = 16;
  std::int64_t liveness_lower_bound = 0;
  std::int32_t peak_node = -1;

  constexpr bool has(fact f) const { return (facts & static_cast<std::uint32_t>(f)) != 0; }
  constexpr void establish(fact f) { facts |= static_cast<std::uint32_t>(f); }

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

  constexpr void fail(const diagnostic& d) {
    if (!error.failed()) error = d;
  }
};

}  // namespace ctnn
