// Unit tests of pass::fold_constants: an op whose operands are all constants becomes a constant tensor
// with an evaluate_op recipe (the node disappears); runtime/constants.hpp materialises its values at
// compile time (ctnn::constant_values_v), and the executor's remaining ops read them. Ops with a
// non-constant operand, and constant results that are model outputs, stay ops.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/kernel/prepare.hpp>
#include <ctnn/runtime/constants.hpp>

#include "pass_test_modules.hpp"
#include "test_modules.hpp"

namespace {

namespace dsl = ctnn::dsl;
namespace pass = ctnn::pass;
using ctnn::op_kind;
using ctnn::recipe_kind;
using ctnn::tensor_role;

// The module after infer_types, and after infer_types + fold_constants (stage 1 and 2 of the default
// pipeline, whose first two passes these are).
template <class Model>
constexpr auto& typed = ctnn::stage_v<Model, ctnn::default_pipeline, 1>;
template <class Model>
constexpr auto& folded = ctnn::stage_v<Model, ctnn::default_pipeline, 2>;

static_assert(std::is_same_v<ctnn::default_pipeline::pass<1>, pass::fold_constants>);
static_assert(pass::fold_constants::requires_facts == ctnn::fact::shapes_inferred);
static_assert(ctnn::detail::established_facts<pass::fold_constants>() == 0);  // a rewrite, not a new fact

inline constexpr float c4[4] = {-1.5f, 0.25f, 2.0f, -3.0f};
inline constexpr float d4[4] = {2.0f, -0.5f, 0.5f, 4.0f};

// ---------------------------------------------------------------------------------------------------
// relu(const): y = x + relu(c). Tensors: x 0, c 1, r 2, y 3.
using relu_const = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                              dsl::node<"c", dsl::constant<c4, 1, 4>>, dsl::node<"r", dsl::relu, "c">,
                              dsl::node<"y", dsl::add<>, "x", "r">>;
static_assert(typed<relu_const>.node_count == 2 && typed<relu_const>.recipe_count == 0);
static_assert(typed<relu_const>.tensor_at(2).role == tensor_role::intermediate && typed<relu_const>.tensor_at(2).recipe == -1);
// After: one node (the add), r is a constant whose recipe is the relu.
static_assert(folded<relu_const>.node_count == 1 && folded<relu_const>.node_at(0).kind == op_kind::add);
static_assert(folded<relu_const>.recipe_count == 1);
static_assert(folded<relu_const>.tensor_at(2).role == tensor_role::constant && folded<relu_const>.tensor_at(2).recipe == 0);
static_assert(folded<relu_const>.tensor_at(2).dims == ctnn::make_shape(1, 4));
static_assert(folded<relu_const>.recipes[0].kind == recipe_kind::evaluate_op);
static_assert(folded<relu_const>.recipes[0].params().kind == op_kind::relu && folded<relu_const>.recipes[0].operands[0] == 1 &&
              folded<relu_const>.recipes[0].operand_count == 1);
// The add still reads x and (now constant) r; nothing else changed.
static_assert(folded<relu_const>.node_at(0).inputs[0] == 0 && folded<relu_const>.node_at(0).inputs[1] == 2 &&
              folded<relu_const>.node_at(0).output == 3 && folded<relu_const>.tensor_at(3).producer == 0);
static_assert(folded<relu_const>.tensor_count == typed<relu_const>.tensor_count);

// The values: relu of c, computed by the relu kernel in constant evaluation, in .rodata.
constexpr auto& relu_values = ctnn::constant_values_v<folded<relu_const>, 2>;
static_assert(relu_values.size() == 4);
static_assert(relu_values[0] == 0.0f && relu_values[1] == 0.25f && relu_values[2] == 2.0f && relu_values[3] == 0.0f);
// Where the executor finds constants: the materialised array for a recipe, the user's array otherwise.
static_assert(ctnn::constant_data_of<folded<relu_const>, 2>() == relu_values.data());
static_assert(ctnn::constant_data_of<folded<relu_const>, 1>() == c4);

// Materialised constants start on a cache line on hosts (detail/constant_alignment.hpp): SIMD kernels load whole
// vectors of them, and one straddling two lines costs two loads.
TEST_CASE("fold_constants: materialised constants are aligned to a cache line") {
  CHECK(reinterpret_cast<std::uintptr_t>(relu_values.data()) % 64 == 0);
}

// Regression (fixed): a folded constant keeps the index of the op that computed it as its `producer`
// (module.hpp: "-1 for inputs and constants"); erase_nodes (graph_edit.hpp:53-55) resets producers of
// non-constants only, and fold_constants has just made the tensor a constant. After compaction the
// stale index names another op: here node 0, the add, whose output is tensor 3.
TEST_CASE("fold_constants: a folded constant has no producer") {
  CHECK(folded<relu_const>.tensor_at(2).producer == -1);
}

// Stage 2 is the pass applied to stage 1.
TEST_CASE("fold_constants: stage_v equals the pass run on the typed module") {
  const auto direct = pass::fold_constants::run(typed<relu_const>);
  CHECK(ctnn_test::same_module(direct, folded<relu_const>));
  CHECK(direct.recipe_count == 1);
  CHECK(direct.tensor_at(2).recipe == 0);
}

// ---------------------------------------------------------------------------------------------------
// add(const, const) with broadcasting: s = a[2,3] + b[3]; y = x * s. Tensors: x 0, a 1, b 2, s 3, y 4.
inline constexpr float a6[6] = {0.5f, -1.25f, 2.0f, 3.5f, -0.75f, 1.0f};
inline constexpr float b3[3] = {0.25f, 1.5f, -2.0f};
using add_consts = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 2, 3>>,
                              dsl::node<"a", dsl::constant<a6, 2, 3>>, dsl::node<"b", dsl::constant<b3, 3>>,
                              dsl::node<"s", dsl::add<>, "a", "b">, dsl::node<"y", dsl::mul<>, "x", "s">>;
static_assert(typed<add_consts>.node_count == 2 && folded<add_consts>.node_count == 1);
static_assert(folded<add_consts>.node_at(0).kind == op_kind::mul && folded<add_consts>.tensor_at(3).recipe == 0);
static_assert(folded<add_consts>.recipes[0].params().kind == op_kind::add && folded<add_consts>.recipes[0].operand_count == 2 &&
              folded<add_consts>.recipes[0].operands[0] == 1 && folded<add_consts>.recipes[0].operands[1] == 2);
static_assert(folded<add_consts>.tensor_at(3).dims == ctnn::make_shape(2, 3));
// The recipe records its kernel's parameters (the broadcast's two shapes, the result's): what materialises
// the constant lowers nothing itself (docs/design.md §1), and they are what lowering the op would give.
static_assert(folded<add_consts>.recipes[0].params().kind == op_kind::add &&
              folded<add_consts>.recipes[0].params().in == ctnn::make_shape(2, 3) &&
              folded<add_consts>.recipes[0].params().in2 == ctnn::make_shape(3) &&
              folded<add_consts>.recipes[0].params().out == ctnn::make_shape(2, 3));
static_assert(folded<add_consts>.recipes[0].params() == ctnn::kernel::prepare_params(typed<add_consts>, typed<add_consts>.node_at(0)));

TEST_CASE("fold_constants: add(const, const) with broadcasting materialises a[i][j] + b[j]") {
  constexpr auto& s = ctnn::constant_values_v<folded<add_consts>, 3>;
  static_assert(s.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) {
    const double expected = static_cast<double>(a6[i]) + static_cast<double>(b3[i % 3]);  // exact in float here
    CHECK(static_cast<double>(s[i]) == expected);
  }
}

// ---------------------------------------------------------------------------------------------------
// A chain: r = relu(c), p = r * d, y = x + p. Both relu and mul fold; the mul's recipe reads r's.
// Tensors: x 0, c 1, d 2, r 3, p 4, y 5.
using chain = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                         dsl::node<"c", dsl::constant<c4, 1, 4>>, dsl::node<"d", dsl::constant<d4, 1, 4>>,
                         dsl::node<"r", dsl::relu, "c">, dsl::node<"p", dsl::mul<>, "r", "d">,
                         dsl::node<"y", dsl::add<>, "x", "p">>;
static_assert(typed<chain>.node_count == 3 && folded<chain>.node_count == 1 && folded<chain>.recipe_count == 2);
static_assert(folded<chain>.tensor_at(3).recipe == 0 && folded<chain>.tensor_at(4).recipe == 1);
static_assert(folded<chain>.recipes[0].params().kind == op_kind::relu && folded<chain>.recipes[1].params().kind == op_kind::mul);
static_assert(folded<chain>.recipes[1].operands[0] == 3 && folded<chain>.recipes[1].operands[1] == 2);
static_assert(folded<chain>.node_at(0).inputs[1] == 4);

TEST_CASE("fold_constants: a chain const -> relu -> mul(const) materialises relu(c) * d") {
  constexpr auto& p = ctnn::constant_values_v<folded<chain>, 4>;
  for (std::size_t i = 0; i < 4; ++i) {
    const double relu = c4[i] > 0.0f ? static_cast<double>(c4[i]) : 0.0;
    CHECK(static_cast<double>(p[i]) == relu * static_cast<double>(d4[i]));  // products of these values are exact
  }
  // relu(c) * d = {0, 0.25 * -0.5, 2 * 0.5, 0}
  CHECK(p[1] == -0.125f);
  CHECK(p[2] == 1.0f);
}

// ---------------------------------------------------------------------------------------------------
// Ops with a non-constant operand stay: y = x * c (and a conv of the model input, whose weights are
// constants).
using mul_input = dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                             dsl::node<"c", dsl::constant<c4, 1, 4>>, dsl::node<"y", dsl::mul<>, "x", "c">>;
static_assert(folded<mul_input>.node_count == 1 && folded<mul_input>.recipe_count == 0);
static_assert(folded<mul_input>.node_at(0).kind == op_kind::mul && folded<mul_input>.tensor_at(1).recipe == -1);
static_assert(folded<ctnn_test::tiny_cnn>.node_count == typed<ctnn_test::tiny_cnn>.node_count &&
              folded<ctnn_test::tiny_cnn>.recipe_count == 0);

// ---------------------------------------------------------------------------------------------------
// Constant results that are model outputs stay ops (the caller's buffer must be written at run time):
// y = tanh(c) + sigmoid(c) is an output, so the add stays while tanh and sigmoid fold; z = relu(x).
// Tensors: x 0, c 1, t 2, g 3, y 4, z 5.
using output_of_consts =
    dsl::graph<dsl::outputs<"y", "z">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>, dsl::node<"c", dsl::constant<c4, 1, 4>>,
               dsl::node<"t", dsl::tanh, "c">, dsl::node<"g", dsl::sigmoid, "c">, dsl::node<"y", dsl::add<>, "t", "g">,
               dsl::node<"z", dsl::relu, "x">>;
static_assert(typed<output_of_consts>.node_count == 4);
static_assert(folded<output_of_consts>.node_count == 2 && folded<output_of_consts>.recipe_count == 2);
static_assert(folded<output_of_consts>.node_at(0).kind == op_kind::add && folded<output_of_consts>.node_at(1).kind == op_kind::relu);
static_assert(folded<output_of_consts>.tensor_at(4).role == tensor_role::output && folded<output_of_consts>.tensor_at(4).recipe == -1);
static_assert(folded<output_of_consts>.tensor_at(2).recipe == 0 && folded<output_of_consts>.tensor_at(3).recipe == 1);
// A model output computed from a constant alone also stays an op: out = relu(c).
using relu_const_output = dsl::graph<dsl::outputs<"r">, dsl::node<"x", dsl::input<ctnn::f32, 1, 4>>,
                                     dsl::node<"c", dsl::constant<c4, 1, 4>>, dsl::node<"r", dsl::relu, "c">>;
static_assert(folded<relu_const_output>.node_count == 1 && folded<relu_const_output>.recipe_count == 0 &&
              folded<relu_const_output>.node_at(0).kind == op_kind::relu);

TEST_CASE("fold_constants: tanh and sigmoid of constants, materialised with ctnn's constexpr math") {
  constexpr auto& t = ctnn::constant_values_v<folded<output_of_consts>, 2>;
  constexpr auto& g = ctnn::constant_values_v<folded<output_of_consts>, 3>;
  for (std::size_t i = 0; i < 4; ++i) {
    const double x = c4[i];
    CHECK(ctnn_test::close(t[i], std::tanh(x), 1e-6));
    CHECK(ctnn_test::close(g[i], 1.0 / (1.0 + std::exp(-x)), 1e-6));
  }
}

// ---------------------------------------------------------------------------------------------------
// Executors: the ops that remain read the folded constants.
static_assert(ctnn::compile<relu_const>::call_count == 1 && ctnn::compile<chain>::call_count == 1 &&
              ctnn::compile<add_consts>::call_count == 1 && ctnn::compile<output_of_consts>::call_count == 2);
// The add's second operand is the folded constant r (tensor 2), read from constant storage.
static_assert(ctnn::compiled_v<relu_const>.calls[0].operand_at[1].where == ctnn::storage::constant &&
              ctnn::compiled_v<relu_const>.calls[0].operand_at[1].index == 2);

TEST_CASE("fold_constants: executors read the folded constants") {
  const float x4[4] = {10.0f, 20.0f, 30.0f, 40.0f};
  SUBCASE("x + relu(c)") {
    float y[4] = {};
    ctnn::compile<relu_const>::run(x4, y);
    for (std::size_t i = 0; i < 4; ++i) CHECK(y[i] == x4[i] + (c4[i] > 0.0f ? c4[i] : 0.0f));
  }
  SUBCASE("x + relu(c) * d") {
    float y[4] = {};
    ctnn::compile<chain>::run(x4, y);
    CHECK(y[0] == 10.0f);
    CHECK(y[1] == 19.875f);
    CHECK(y[2] == 31.0f);
    CHECK(y[3] == 40.0f);
  }
  SUBCASE("x * (a + b)") {
    const float x6[6] = {1.0f, 2.0f, 3.0f, -1.0f, 0.5f, 4.0f};
    float y[6] = {};
    ctnn::compile<add_consts>::run(x6, y);
    for (std::size_t i = 0; i < 6; ++i) CHECK(static_cast<double>(y[i]) == x6[i] * (static_cast<double>(a6[i]) + b3[i % 3]));
  }
  SUBCASE("outputs computed from constants are written at run time") {
    float y[4] = {}, z[4] = {};
    const float xs[4] = {-1.0f, 1.0f, -2.0f, 2.0f};
    ctnn::compile<output_of_consts>::run(xs, y, z);
    for (std::size_t i = 0; i < 4; ++i) {
      const double x = c4[i];
      CHECK(ctnn_test::close(y[i], std::tanh(x) + 1.0 / (1.0 + std::exp(-x)), 1e-6));
      CHECK(z[i] == (xs[i] > 0.0f ? xs[i] : 0.0f));
    }
    float r[4] = {};
    ctnn::compile<relu_const_output>::run(xs, r);
    for (std::size_t i = 0; i < 4; ++i) CHECK(r[i] == (c4[i] > 0.0f ? c4[i] : 0.0f));
  }
}

// ---------------------------------------------------------------------------------------------------
// Folding an op with an empty operand slot (a dense without a bias, on a constant).
inline constexpr float fc_w[8] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};  // [2][4]
inline constexpr float fc_in[4] = {1.0f, 0.5f, -1.0f, 2.0f};
using dense_const_no_bias =
    dsl::graph<dsl::outputs<"y">, dsl::node<"x", dsl::input<ctnn::f32, 1, 2>>, dsl::node<"c", dsl::constant<fc_in, 1, 4>>,
               dsl::node<"d", dsl::dense<fc_w, dsl::no_bias, dsl::units<2>>, "c">, dsl::node<"y", dsl::add<>, "x", "d">>;
// Tensors: x 0, c 1, w 2, d 3, y 4.
static_assert(folded<dense_const_no_bias>.node_count == 1 && folded<dense_const_no_bias>.tensor_at(3).recipe == 0 &&
              folded<dense_const_no_bias>.recipes[0].operands[2] == -1);
// d = {1 + 1 - 3 + 8, 5 + 3 - 7 + 16} = {7, 17}:
static_assert(ctnn::constant_values_v<folded<dense_const_no_bias>, 3>[0] == 7.0f);
static_assert(ctnn::constant_values_v<folded<dense_const_no_bias>, 3>[1] == 17.0f);

}  // namespace
