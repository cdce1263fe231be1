#pragma once
// The C++ DSL: a model written as a type. Layers are types whose weights are references to the user's
// constexpr arrays (they are never copied); a model type becomes the module's value table through one
// pack expansion of its layers' specs (docs/design.md §2).
//
//   inline constexpr float w1[8 * 3 * 3 * 1] = {...}, b1[8] = {...};
//   using tiny = ctnn::dsl::sequential<
//       ctnn::dsl::input<ctnn::f32, 1, 8, 8, 1>,
//       ctnn::dsl::conv2d<w1, b1, ctnn::dsl::kernel<3>, ctnn::dsl::same, ctnn::dsl::relu>,
//       ctnn::dsl::global_avg_pool, ctnn::dsl::dense<w2, b2>, ctnn::dsl::softmax>;
//
// Layouts: activations NHWC; conv2d weights OHWI (OHW(I/groups) when grouped); depthwise 1HWC;
// dense [out][in]. A DAG (residual add, concat) is a dsl::graph of named nodes. The layers are in
// dsl_layers.hpp; this header builds the module from them.
#include <ctnn/detail/require_cxx20.hpp>  // first: one clear error under an older -std
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include <ctnn/frontend/dsl_layers.hpp>
#include <ctnn/frontend/dsl_options.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::dsl {

// ---------------------------------------------------------------------------------------------------
// Module building, shared by sequential and graph.
namespace detail {

template <class Module>
constexpr std::int32_t add_input(Module& m, dtype type, const shape& dims, const name& label) {
  tensor t{};
  t.label = label;
  t.dims = dims;
  t.type = type;
  t.role = tensor_role::input;
  t.io_index = m.input_count;
  const std::int32_t id = m.add_tensor(t);
  m.inputs[static_cast<std::size_t>(m.input_count++)] = id;
  return id;
}

// Appends one op: its constants, the node and its output tensor. Returns the output tensor id.
template <class Module, class Inputs>
constexpr std::int32_t add_layer(Module& m, const layer_spec& spec, const name& label, const Inputs& inputs,
                                 std::int32_t input_count) {
  const std::int32_t node_id = m.node_count++;
  node& n = m.node_at(node_id);
  n.kind = spec.kind;
  n.label = label;
  n.attrs = spec.attrs;
  if (input_count > static_cast<std::int32_t>(max_node_inputs) - spec.constant_count) {
    m.fail({error_code::too_many_inputs,
            node_id,
            spec.kind,
            {},
            {},
            {.count_expected = max_node_inputs, .count_actual = input_count}});
    input_count = 1;
  }
  for (std::int32_t i = 0; i < input_count; ++i) n.inputs[static_cast<std::size_t>(i)] = inputs[static_cast<std::size_t>(i)];
  n.input_count = input_count;
  for (std::int32_t c = 0; c < spec.constant_count; ++c) {
    tensor t{};
    t.label = numbered(label.view(), static_cast<std::size_t>(c));
    t.dims = make_shape(spec.constants[static_cast<std::size_t>(c)].elements);
    t.role = tensor_role::constant;
    t.data.f32 = spec.constants[static_cast<std::size_t>(c)].data;
    t.data.user_array = t.data.f32 != nullptr;
    n.inputs[static_cast<std::size_t>(n.input_count++)] = m.add_tensor(t);
  }
  // A weighted layer without a bias keeps the bias slot, empty, so operands stay (data, weights, bias).
  if (spec.constant_count == 1) n.inputs[static_cast<std::size_t>(n.input_count++)] = -1;
  tensor out{};
  out.label = label;
  out.producer = node_id;
  n.output = m.add_tensor(out);
  return n.output;
}

// Makes a tensor the model's next output. A model input, or a tensor that is already an output, gets a
// copy op of its own, so that every output buffer is written by exactly one op.
constexpr void mark_output(auto& m, std::int32_t tensor_id) {
  if (m.tensor_at(tensor_id).role != tensor_role::intermediate) {
    const layer_spec copy = dsl::reshape<>::spec();  // an empty target keeps the shape: a copy
    const std::array<std::int32_t, 1> from{tensor_id};
    tensor_id = add_layer(m, copy, numbered("output", static_cast<std::size_t>(m.output_count)), from, 1);
  }
  tensor& t = m.tensor_at(tensor_id);
  t.role = tensor_role::output;
  t.io_index = m.output_count;
  m.outputs[static_cast<std::size_t>(m.output_count++)] = tensor_id;
}

template <class Layer>
constexpr std::int32_t constant_count_of() {
  if constexpr (requires { Layer::spec(); }) return Layer::spec().constant_count;
  else return 0;  // an input
}

template <class... Layers>
constexpr std::size_t constant_total() {
  const std::array<std::int32_t, sizeof...(Layers)> counts{constant_count_of<Layers>()...};
  std::size_t total = 0;
  for (auto c : counts) total += static_cast<std::size_t>(c);
  return total;
}

}  // namespace detail

// A chain: each layer consumes the previous layer's output; the last layer's output is the model's.
template <class Input, class... Layers>
struct sequential {
  static_assert(sizeof...(Layers) > 0, "ctnn::dsl::sequential<input<...>, layers...>: at least one layer.");
  using module_type = module<1 + sizeof...(Layers) + detail::constant_total<Layers...>(), sizeof...(Layers)>;

  static constexpr module_type build() {
    constexpr std::array<layer_spec, sizeof...(Layers)> specs{Layers::spec()...};
    static_assert([&] {
      for (const auto& s : specs) if (s.arity != 1) return false;
      return true;
    }(), "ctnn::dsl::sequential: add, mul and concat take several inputs; write the model as a ctnn::dsl::graph.");
    module_type m{};
    m.model_name = name{"sequential"};
    std::int32_t previous = detail::add_input(m, Input::type, Input::dims, name{"input"});
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const std::array<std::int32_t, 1> from{previous};
      previous = detail::add_layer(m, specs[i], numbered(name_of(specs[i].kind), i), from, 1);
    }
    detail::mark_output(m, previous);
    return m;
  }
};

// ---------------------------------------------------------------------------------------------------
// A DAG of named nodes: node<"name", layer, "input names"...>; inputs are node<"x", input<...>>.
//
//   using block = dsl::graph<dsl::outputs<"out">,
//       dsl::node<"x", dsl::input<f32, 1, 8, 8, 4>>,
//       dsl::node<"c", dsl::conv2d<w, b, dsl::kernel<3>, dsl::same>, "x">,
//       dsl::node<"out", dsl::add<dsl::relu>, "x", "c">>;
template <fixed_string Name, class Layer, fixed_string... Inputs>
struct node {
  static constexpr name label{Name.view()};
  static constexpr std::array<name, sizeof...(Inputs)> inputs{name{Inputs.view()}...};
  using layer = Layer;
};

template <fixed_string... Names>
struct outputs {
  static constexpr std::array<name, sizeof...(Names)> names{name{Names.view()}...};
};

namespace detail {

template <class T> struct is_input : std::false_type {};
template <dtype Type, std::int32_t... Dims> struct is_input<input<Type, Dims...>> : std::true_type {};
// A member tag, not a partial specialisation: clang 14 does not deduce `auto&` arguments there.
template <class T> struct is_constant : std::bool_constant<requires { T::is_graph_constant; }> {};

// What the builder needs of a graph node, as a value.
struct graph_entry {
  name label{};
  bool is_input = false;
  bool is_constant = false;
  constant_spec values{};
  dtype type = dtype::f32;
  shape dims{};
  layer_spec spec{};
  std::array<name, max_node_inputs> inputs{};
  std::int32_t input_count = 0;
};

template <class Node>
constexpr graph_entry entry_of() {
  graph_entry e{};
  e.label = Node::label;
  using layer = typename Node::layer;
  if constexpr (is_input<layer>::value) {
    e.is_input = true;
    e.type = layer::type;
    e.dims = layer::dims;
  } else if constexpr (is_constant<layer>::value) {
    e.is_constant = true;
    e.dims = layer::dims;
    e.values = layer::values();
  } else {
    e.spec = layer::spec();
    static_assert(Node::inputs.size() <= max_node_inputs, "ctnn::dsl::node: at most ctnn::max_node_inputs inputs.");
    static_assert(Node::inputs.size() > 0, "ctnn::dsl::node: a layer node names at least one input node.");
    for (std::size_t i = 0; i < Node::inputs.size(); ++i) e.inputs[i] = Node::inputs[i];
    e.input_count = static_cast<std::int32_t>(Node::inputs.size());
  }
  return e;
}

template <template <class> class Trait, class... Nodes>
constexpr std::size_t count_nodes() {
  const std::array<bool, sizeof...(Nodes)> matches{Trait<typename Nodes::layer>::value...};
  std::size_t n = 0;
  for (bool b : matches) n += b ? 1 : 0;
  return n;
}

}  // namespace detail

template <class Outputs, class... Nodes>
struct graph {
  static constexpr std::size_t input_nodes = detail::count_nodes<detail::is_input, Nodes...>();
  static constexpr std::size_t constant_nodes = detail::count_nodes<detail::is_constant, Nodes...>();
  static constexpr std::size_t layer_nodes = sizeof...(Nodes) - input_nodes - constant_nodes;
  static_assert(input_nodes >= 1 && input_nodes <= max_model_io, "ctnn::dsl::graph: 1 to 8 input nodes.");
  static_assert(layer_nodes >= 1, "ctnn::dsl::graph: at least one layer node.");
  static_assert(Outputs::names.size() >= 1 && Outputs::names.size() <= max_model_io,
                "ctnn::dsl::graph<outputs<names...>, nodes...>: 1 to 8 outputs.");
  // Room for one copy op per output (an output that names an input, or a name listed twice).
  static constexpr std::size_t output_copies = Outputs::names.size();
  using module_type = module<sizeof...(Nodes) + detail::constant_total<typename Nodes::layer...>() + output_copies,
                             layer_nodes + output_copies>;

  static constexpr module_type build() {
    constexpr std::array<detail::graph_entry, sizeof...(Nodes)> entries{detail::entry_of<Nodes>()...};
    module_type m{};
    m.model_name = name{"graph"};
    // Tensor id of each entry's output, found by searching backwards (inputs are usually recent).
    std::array<std::int32_t, sizeof...(Nodes)> produced{};
    const auto find = [&](const name& wanted, std::size_t before) -> std::int32_t {
      for (std::size_t k = before; k-- > 0;)
        if (entries[k].label == wanted) return produced[k];
      return -1;
    };
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const auto& e = entries[i];
      if (e.is_input) {
        produced[i] = detail::add_input(m, e.type, e.dims, e.label);
        continue;
      }
      if (e.is_constant) {
        tensor t{};
        t.label = e.label;
        t.dims = e.dims;
        t.role = tensor_role::constant;
        t.data.f32 = e.values.data;
        t.data.user_array = t.data.f32 != nullptr;
        produced[i] = m.add_tensor(t);
        continue;
      }
      std::array<std::int32_t, max_node_inputs> from{};
      for (std::int32_t k = 0; k < e.input_count; ++k) {
        from[static_cast<std::size_t>(k)] = find(e.inputs[static_cast<std::size_t>(k)], i);
        if (from[static_cast<std::size_t>(k)] < 0) {
          m.fail({error_code::unknown_input_name,
                  m.node_count,
                  e.spec.kind,
                  {},
                  {},
                  {.input_slot = k, .position = static_cast<std::int64_t>(i)},
                  e.label});
          return m;
        }
      }
      if (e.spec.arity > 0 && e.spec.arity != e.input_count)
        m.fail({error_code::input_count_mismatch,
                m.node_count,
                e.spec.kind,
                {},
                {},
                {.count_expected = e.spec.arity, .count_actual = e.input_count},
                e.label});
      produced[i] = detail::add_layer(m, e.spec, e.label, from, e.input_count);
    }
    for (const name& out : Outputs::names) {
      const std::int32_t t = find(out, entries.size());
      if (t < 0) {
        m.fail({error_code::unknown_input_name, -1, op_kind::none, {}, {}, {.input_slot = -1, .position = -1}});
        return m;
      }
      detail::mark_output(m, t);
    }
    return m;
  }
};

}  // namespace ctnn::dsl

namespace ctnn::dsl {

// Gives a model a name (shown by printers, tools and metadata): dsl::named<"digits", dsl::sequential<...>>.
template <fixed_string Name, class Model>
struct named {
  static constexpr auto build() {
    auto m = Model::build();
    m.model_name = name{Name.view()};
    return m;
  }
};

}  // namespace ctnn::dsl
