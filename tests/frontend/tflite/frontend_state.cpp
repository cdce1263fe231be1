// State (docs/memory.md, "State"): TFLite variable tensors and resource variables become the model's state memory,
// outside the pools, kept between runs. The executor's state figures and API on SVDF, UNIDIRECTIONAL_SEQUENCE_LSTM
// and resource-variable models of the state family (tests/data/ops/state), and the diagnostics of the models ctnn
// refuses (scripts/gen_op_tests_state.py).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/import_checks.hpp"

#include <ctnn/ctnn.hpp>
#include <ctnn/models/lstm_f32_cifg_peephole_projection.hpp>
#include <ctnn/models/lstm_f32_time_major.hpp>
#include <ctnn/models/state_refused_lstm_cifg_partial.hpp>
#include <ctnn/models/lstm_i8_zero_points.hpp>
#include <ctnn/models/resvar_f32_init.hpp>
#include <ctnn/models/resvar_i8_buffer.hpp>
#include <ctnn/models/state_refused_resvar_init_computes.hpp>
#include <ctnn/models/state_refused_resvar_never_assigned.hpp>
#include <ctnn/models/state_refused_resvar_resource_read_by_add.hpp>
#include <ctnn/models/state_refused_resvar_two_shapes.hpp>
#include <ctnn/models/state_refused_resvar_while.hpp>
#include <ctnn/models/state_refused_lstm_i8_cell_scale.hpp>
#include <ctnn/models/state_refused_lstm_i8_cell_state_i8.hpp>
#include <ctnn/models/state_refused_lstm_i8_cifg.hpp>
#include <ctnn/models/state_refused_lstm_i8_input_float_weights.hpp>
#include <ctnn/models/state_refused_lstm_i8_peephole.hpp>
#include <ctnn/models/state_refused_lstm_i8_projection.hpp>
#include <ctnn/models/state_refused_lstm_i8_weights_per_channel.hpp>
#include <ctnn/models/state_refused_lstm_i8_weights_zero_point.hpp>
#include <ctnn/models/state_refused_lstm_layer_norm.hpp>
#include <ctnn/models/state_refused_lstm_one_peephole.hpp>
#include <ctnn/models/state_refused_lstm_projection_bias_alone.hpp>
#include <ctnn/models/state_refused_lstm_relu.hpp>
#include <ctnn/models/state_refused_lstm_state_not_variable.hpp>
#include <ctnn/models/state_refused_svdf_bias_scale.hpp>
#include <ctnn/models/state_refused_svdf_hybrid.hpp>
#include <ctnn/models/state_refused_svdf_state_not_variable.hpp>
#include <ctnn/models/state_refused_two_svdf_one_state.hpp>
#include <ctnn/models/state_refused_variable_read_by_add.hpp>
#include <ctnn/models/svdf_f32.hpp>
#include <ctnn/models/svdf_i8_zero_point.hpp>

namespace {

namespace models = ctnn::models;
using ctnn::frontend_error;
using ctnn::op_kind;
using ctnn::tflite::tensor_feature;

using ctnn_test::error_of;
using ctnn_test::refused_operand;

template <class Model>
constexpr bool refused_feature(tensor_feature what) {
  return error_of<Model>.code == code_of(frontend_error::tflite_unsupported_tensor_feature) &&
         error_of<Model>.reason == static_cast<std::int64_t>(what);
}

// A variable tensor read by ADD (no state there), one state updated by two SVDFs, an SVDF whose state is a graph
// input; an int8 SVDF's bias scale that is not the state's times the time weights'; a hybrid SVDF.
static_assert(refused_feature<models::state_refused_variable_read_by_add>(tensor_feature::variable_use) &&
              error_of<models::state_refused_variable_read_by_add>.kind == op_kind::add &&
              error_of<models::state_refused_variable_read_by_add>.tensor == 1);
static_assert(refused_feature<models::state_refused_two_svdf_one_state>(tensor_feature::variable_use) &&
              error_of<models::state_refused_two_svdf_one_state>.kind == op_kind::svdf);
static_assert(refused_feature<models::state_refused_svdf_state_not_variable>(tensor_feature::state_not_variable));
static_assert(error_of<models::state_refused_svdf_bias_scale>.code == code_of(frontend_error::tflite_invalid_quantization) &&
              error_of<models::state_refused_svdf_bias_scale>.reason ==
                  static_cast<std::int64_t>(ctnn::tflite::quantization_problem::bias_scale));
static_assert(error_of<models::state_refused_svdf_hybrid>.code == code_of(frontend_error::tflite_unsupported_operand) &&
              error_of<models::state_refused_svdf_hybrid>.input_slot == 1 &&
              error_of<models::state_refused_svdf_hybrid>.kind == op_kind::svdf);

// UNIDIRECTIONAL_SEQUENCE_LSTM forms ctnn refuses, named by the file's operand: layer normalisation (20), which
// TFLM refuses too; a projection's bias (17) without its weights; one peephole of three (the forget gate's: the
// input gate's, 9, is missing); an input gate with recurrent weights (5) but no input weights (CIFG is all or
// none); a cell-gate activation other than TANH (the options' field 0, RELU); an int8 input with float32 weights
// (the first weights, 1, not of the int8 form's type); a state that is not a variable tensor.
static_assert(refused_operand<models::state_refused_lstm_layer_norm>(20, op_kind::sequence_lstm));
static_assert(refused_operand<models::state_refused_lstm_projection_bias_alone>(17, op_kind::sequence_lstm));
static_assert(refused_operand<models::state_refused_lstm_one_peephole>(9, op_kind::sequence_lstm));
static_assert(refused_operand<models::state_refused_lstm_cifg_partial>(5, op_kind::sequence_lstm));
static_assert(error_of<models::state_refused_lstm_relu>.code == code_of(frontend_error::tflite_unsupported_option) &&
              error_of<models::state_refused_lstm_relu>.reason == 0 && error_of<models::state_refused_lstm_relu>.rejected_value == 1);
static_assert(refused_operand<models::state_refused_lstm_i8_input_float_weights>(1, op_kind::sequence_lstm));
static_assert(refused_feature<models::state_refused_lstm_state_not_variable>(tensor_feature::state_not_variable) &&
              error_of<models::state_refused_lstm_state_not_variable>.kind == op_kind::sequence_lstm);

// int8 (TFLM's 8x8_16) forms TFLM does not run, named by the file's operand or tensor: CIFG (the input gate's input
// weights, 1, absent), peepholes (9), a projection (16); input-to-cell weights (tensor 6) with a zero point, input-
// to-forget weights (tensor 2) with per-channel scales; a cell state (tensor 14) of scale 3e-4, not a power of two,
// or of int8.
static_assert(refused_operand<models::state_refused_lstm_i8_cifg>(1, op_kind::sequence_lstm));
static_assert(refused_operand<models::state_refused_lstm_i8_peephole>(9, op_kind::sequence_lstm));
static_assert(refused_operand<models::state_refused_lstm_i8_projection>(16, op_kind::sequence_lstm));
template <class Model>
constexpr bool refused_quantization(ctnn::tflite::quantization_problem what, std::int32_t tensor) {
  return error_of<Model>.code == code_of(frontend_error::tflite_invalid_quantization) &&
         error_of<Model>.reason == static_cast<std::int64_t>(what) && error_of<Model>.tensor == tensor &&
         error_of<Model>.kind == op_kind::sequence_lstm;
}
static_assert(refused_quantization<models::state_refused_lstm_i8_weights_zero_point>(ctnn::tflite::quantization_problem::lstm_weights, 6));
static_assert(refused_quantization<models::state_refused_lstm_i8_weights_per_channel>(ctnn::tflite::quantization_problem::lstm_weights, 2));
static_assert(refused_quantization<models::state_refused_lstm_i8_cell_scale>(ctnn::tflite::quantization_problem::lstm_cell_scale, 14));
static_assert(refused_feature<models::state_refused_lstm_i8_cell_state_i8>(tensor_feature::state_type) &&
              error_of<models::state_refused_lstm_i8_cell_state_i8>.tensor == 14);

// Resource variables ctnn refuses: a variable read as [1, 2] (op 1) and assigned the [1, 4] input (op 3, naming the
// value, tensor 0); a variable read (op 1, its result tensor 1) and never assigned; an init subgraph (1) whose op 1
// is an ADD; WHILE (control flow other than CALL_ONCE); a RESOURCE tensor (1) read by an ADD (op 1).
template <class Model>
constexpr bool refused_resource(tensor_feature what, std::int32_t op, std::int64_t tensor) {
  return refused_feature<Model>(what) && error_of<Model>.node == op && error_of<Model>.tensor == tensor;
}
static_assert(refused_resource<models::state_refused_resvar_two_shapes>(tensor_feature::resource_mismatch, 3, 0) &&
              error_of<models::state_refused_resvar_two_shapes>.kind == op_kind::assign_variable);
static_assert(refused_resource<models::state_refused_resvar_never_assigned>(tensor_feature::resource_unassigned, 1, 1));
static_assert(refused_resource<models::state_refused_resvar_resource_read_by_add>(tensor_feature::resource_use, 1, 1));
static_assert(error_of<models::state_refused_resvar_init_computes>.code == code_of(frontend_error::tflite_unsupported_init_subgraph) &&
              error_of<models::state_refused_resvar_init_computes>.node == 0 &&
              error_of<models::state_refused_resvar_init_computes>.position == 1 &&
              error_of<models::state_refused_resvar_init_computes>.input_slot == 1 &&
              error_of<models::state_refused_resvar_init_computes>.operator_code ==
                  static_cast<std::int64_t>(ctnn::tflite::builtin_operator::add));
static_assert(error_of<models::state_refused_resvar_while>.code == code_of(frontend_error::tflite_unsupported_operator) &&
              error_of<models::state_refused_resvar_while>.operator_code ==
                  static_cast<std::int64_t>(ctnn::tflite::builtin_operator::while_));

// svdf_f32: batch 1, 4 filters, memory 5: 80 bytes of float state. svdf_i8_zero_point: batch 1, 8 filters,
// memory 3, int8 state: 24 bytes, rounded up to the state alignment.
using float_net = ctnn::compile<models::svdf_f32>;
using int8_net = ctnn::compile<models::svdf_i8_zero_point>;
static_assert(float_net::state_bytes == 80 && float_net::state_alignment == 16);
static_assert(int8_net::state_bytes == 32);
static_assert(float_net::total_ram_bytes >= float_net::state_bytes + float_net::arena_bytes);
static_assert(float_net::module.tensor_at(4).role == ctnn::tensor_role::state);
// The state's operand lives in the state memory, not in a pool.
static_assert(float_net::module.calls[0].operand_at[4].where == ctnn::storage::state &&
              float_net::module.calls[0].operand_at[4].offset == 0);

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  REQUIRE_MESSAGE(file, path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

const std::string state_cases = CTNN_STATE_CASES_DIR;

// Float outputs within 1e-5 of a case's recorded ones (its raw little-endian floats).
template <std::size_t N>
void check_close(const std::array<float, N>& out, const std::vector<char>& want) {
  REQUIRE(want.size() == sizeof out);
  for (std::size_t k = 0; k < N; ++k) {
    float expected = 0.0f;
    std::memcpy(&expected, want.data() + 4 * k, 4);
    CHECK(out[k] == doctest::Approx(expected).epsilon(1e-5));
  }
}

TEST_CASE("the static state carries between runs and reset_state restores it") {
  const std::vector<char> input = read_bytes(state_cases + "/svdf_i8_state_i8_zero_point_6_runs/input_0.bin");
  const std::vector<char> want = read_bytes(state_cases + "/svdf_i8_state_i8_zero_point_6_runs/output_0.bin");
  const auto* in = reinterpret_cast<const std::int8_t*>(input.data());
  REQUIRE(input.size() == int8_net::input<0>::bytes);
  std::array<std::int8_t, int8_net::output<0>::elements> first{}, out{};
  // TFLM starts an int8 state at its zero point (9): every byte of the fresh static state.
  for (std::size_t b = 0; b < int8_net::state_bytes - 8; ++b) CHECK(static_cast<std::int8_t>(int8_net::static_state()[b]) == 9);
  int8_net::run(in, first.data());
  for (int n = 1; n < 6; ++n) int8_net::run(in, out.data());
  CHECK(std::memcmp(out.data(), want.data(), out.size()) == 0);  // the sixth run, as TFLM's
  CHECK(std::memcmp(out.data(), first.data(), out.size()) != 0);  // the state changed the result
  int8_net::reset_state();
  int8_net::run(in, out.data());
  CHECK(std::memcmp(out.data(), first.data(), out.size()) == 0);
}

TEST_CASE("run_with_state keeps one state per stream") {
  const std::vector<char> input = read_bytes(state_cases + "/svdf_i8_state_i8_zero_point_6_runs/input_0.bin");
  const std::vector<char> want = read_bytes(state_cases + "/svdf_i8_state_i8_zero_point_6_runs/output_0.bin");
  const auto* in = reinterpret_cast<const std::int8_t*>(input.data());
  alignas(int8_net::state_alignment) std::byte stream_a[int8_net::state_bytes], stream_b[int8_net::state_bytes];
  alignas(int8_net::arena_alignment) std::byte arena[int8_net::arena_bytes + 1];
  int8_net::reset_state(stream_a);
  int8_net::reset_state(stream_b);
  std::array<std::int8_t, int8_net::output<0>::elements> a{}, b{};
  // Stream a runs six times, stream b once in between: each sees only its own state.
  for (int n = 0; n < 6; ++n) {
    int8_net::run_with_state(stream_a, {arena}, in, a.data());
    if (n == 2) int8_net::run_with_state(stream_b, {arena}, in, b.data());
  }
  CHECK(std::memcmp(a.data(), want.data(), a.size()) == 0);
  int8_net::reset_state();
  std::array<std::int8_t, int8_net::output<0>::elements> once{};
  int8_net::run(in, once.data());
  CHECK(std::memcmp(b.data(), once.data(), b.size()) == 0);
}

TEST_CASE("float32 SVDF: the state carries, as TFLM's") {
  const std::vector<char> input = read_bytes(state_cases + "/svdf_f32_rank1/input_0.bin");
  const std::vector<char> want = read_bytes(state_cases + "/svdf_f32_rank1/output_0.bin");
  std::array<float, float_net::output<0>::elements> out{};
  float_net::reset_state();
  float_net::run(reinterpret_cast<const float*>(input.data()), out.data());
  check_close(out, want);
}

// lstm_f32_time_major: 3 steps of batch 2, 6 cells: two states of 2 x 6 floats (48 bytes each) in the state
// memory; the packed gate constants folded at compile time (no concat left to run).
using lstm_net = ctnn::compile<models::lstm_f32_time_major>;
static_assert(lstm_net::state_bytes == 96);
static_assert(lstm_net::module.call_count == 1 && lstm_net::module.calls[0].operand_at[4].where == ctnn::storage::state &&
              lstm_net::module.calls[0].operand_at[5].where == ctnn::storage::state &&
              lstm_net::module.calls[0].operand_at[5].offset == 48);

// lstm_f32_cifg_peephole_projection: CIFG, peepholes and a projection with its bias (5 cells to 2 outputs): 8
// operands, the output state 2 floats, the cell state 5.
using projected_net = ctnn::compile<models::lstm_f32_cifg_peephole_projection>;
static_assert(projected_net::module.call_count == 1 && projected_net::module.calls[0].operand_count == 8);
static_assert(projected_net::state_bytes == 16 + 32 && projected_net::output<0>::elements == 4 * 2);

TEST_CASE("float32 UNIDIRECTIONAL_SEQUENCE_LSTM with CIFG, peepholes and a projection: TFLite's values") {
  const std::vector<char> input = read_bytes(state_cases + "/lstm_f32_cifg_peephole_projection_2_runs/input_0.bin");
  const std::vector<char> want = read_bytes(state_cases + "/lstm_f32_cifg_peephole_projection_2_runs/output_0.bin");
  REQUIRE(input.size() == projected_net::input<0>::bytes);
  std::array<float, projected_net::output<0>::elements> out{};
  projected_net::reset_state();
  for (int n = 0; n < 2; ++n) projected_net::run(reinterpret_cast<const float*>(input.data()), out.data());
  check_close(out, want);  // the second run, as lstm_reference's
}

// lstm_i8_zero_points: int8, time-major, 4 steps of batch 3, 7 cells: an int8 output state (3 x 7 bytes, rounded up
// to the state alignment) and an int16 cell state (3 x 7 x 2 bytes); the packed int8 weights and int32 biases folded
// at compile time into constants of their own types (no concat left to run).
using lstm_i8_net = ctnn::compile<models::lstm_i8_zero_points>;
static_assert(lstm_i8_net::module.call_count == 1 && lstm_i8_net::state_bytes == 32 + 48);
static_assert(lstm_i8_net::module.tensor_at(lstm_i8_net::module.calls[0].operands[1]).type == ctnn::dtype::i8 &&
              lstm_i8_net::module.tensor_at(lstm_i8_net::module.calls[0].operands[1]).recipe >= 0 &&
              lstm_i8_net::module.tensor_at(lstm_i8_net::module.calls[0].operands[3]).type == ctnn::dtype::i32 &&
              lstm_i8_net::module.tensor_at(lstm_i8_net::module.calls[0].operands[5]).type == ctnn::dtype::i16);

// The packed constants hold the parts' integers one after the other (fold_constants' integer copy), whatever
// their scales: operand 1, the 4 gates' int8 input weights, and operand 3, their int32 biases (little-endian in
// the file).
template <class Integer>
constexpr bool packed_as_parts(std::int32_t operand) {
  constexpr auto& m = lstm_i8_net::module;
  const std::int32_t packed = m.calls[0].operands[static_cast<std::size_t>(operand)];
  const ctnn::constant_recipe& recipe = m.recipes[static_cast<std::size_t>(m.tensor_at(packed).recipe)];
  std::size_t at = 0;
  for (std::int32_t k = 0; k < recipe.operand_count; ++k) {
    const ctnn::tensor& part = m.tensor_at(recipe.operands[static_cast<std::size_t>(k)]);
    for (std::int64_t e = 0; e < part.dims.elements(); ++e, ++at) {
      const Integer want = ctnn::load_le<Integer>(part.data.bytes, static_cast<std::size_t>(e) * sizeof(Integer));
      const Integer got = operand == 1 ? static_cast<Integer>(ctnn::constant_values_v<m, m.calls[0].operands[1]>[at])
                                       : static_cast<Integer>(ctnn::constant_values_v<m, m.calls[0].operands[3]>[at]);
      if (got != want) return false;
    }
  }
  return at == static_cast<std::size_t>(m.tensor_at(packed).dims.elements()) && recipe.operand_count == 4;
}
static_assert(packed_as_parts<std::int8_t>(1) && packed_as_parts<std::int32_t>(3));

TEST_CASE("int8 UNIDIRECTIONAL_SEQUENCE_LSTM: TFLM's integers, the states carry from the output state's zero point") {
  const std::vector<char> input = read_bytes(state_cases + "/lstm_i8_time_major_batch3_zero_points_3_runs/input_0.bin");
  const std::vector<char> want = read_bytes(state_cases + "/lstm_i8_time_major_batch3_zero_points_3_runs/output_0.bin");
  const auto* in = reinterpret_cast<const std::int8_t*>(input.data());
  REQUIRE(input.size() == lstm_i8_net::input<0>::bytes);
  std::array<std::int8_t, lstm_i8_net::output<0>::elements> first{}, out{};
  lstm_i8_net::reset_state();
  // TFLM starts the output state at its zero point (3), the cell state at 0.
  for (std::size_t b = 0; b < 21; ++b) CHECK(static_cast<std::int8_t>(lstm_i8_net::static_state()[b]) == 3);
  lstm_i8_net::run(in, first.data());
  for (int n = 1; n < 3; ++n) lstm_i8_net::run(in, out.data());
  CHECK(std::memcmp(out.data(), want.data(), out.size()) == 0);  // the third run, as TFLM's
  CHECK(std::memcmp(out.data(), first.data(), out.size()) != 0);
  lstm_i8_net::reset_state();
  lstm_i8_net::run(in, out.data());
  CHECK(std::memcmp(out.data(), first.data(), out.size()) == 0);
}

TEST_CASE("float32 UNIDIRECTIONAL_SEQUENCE_LSTM: the output and cell states carry, as TFLM's") {
  const std::vector<char> input = read_bytes(state_cases + "/lstm_f32_time_major_batch2_4_runs/input_0.bin");
  const std::vector<char> want = read_bytes(state_cases + "/lstm_f32_time_major_batch2_4_runs/output_0.bin");
  const auto* in = reinterpret_cast<const float*>(input.data());
  REQUIRE(input.size() == lstm_net::input<0>::bytes);
  std::array<float, lstm_net::output<0>::elements> first{}, out{};
  lstm_net::reset_state();
  lstm_net::run(in, first.data());
  for (int n = 1; n < 4; ++n) lstm_net::run(in, out.data());
  check_close(out, want);  // the fourth run, as TFLM's
  CHECK(std::memcmp(out.data(), first.data(), sizeof out) != 0);  // the state changed the result
  lstm_net::reset_state();
  lstm_net::run(in, out.data());
  CHECK(std::memcmp(out.data(), first.data(), sizeof out) == 0);
}

// resvar_f32_init: two float32 resource variables of [1, 5] (acc, previous), each its own state (20 bytes, rounded
// up to the state alignment), initialised by a CALL_ONCE init subgraph: the state memory's initial image holds its
// constants (the file's bytes), not zeros. Op order: the file's (reads before and after an assignment of acc).
using resvar_net = ctnn::compile<models::resvar_f32_init>;
static_assert(resvar_net::state_bytes == 64);
static_assert([] {
  constexpr auto& m = resvar_net::module;
  std::int32_t states = 0, assignments = 0;
  for (std::int32_t t = 0; t < m.tensor_count; ++t)
    if (m.tensor_at(t).role == ctnn::tensor_role::state && m.tensor_at(t).data.bytes != nullptr) ++states;
  for (std::int32_t c = 0; c < m.call_count; ++c) assignments += m.node_at(m.calls[static_cast<std::size_t>(c)].node).kind == op_kind::assign_variable ? 1 : 0;
  return states == 2 && assignments == 2;
}());

// Its ops use acc's state three times (a read, the assignment, a read after it): the memory-aware order, which follows
// producer edges only, leaves such a module in the file's order; an SVDF's one-owner state does not stop it.
template <class Net>
constexpr bool reorderable() {
  std::array<std::int32_t, std::remove_cvref_t<decltype(Net::module)>::node_capacity> order{};
  return ctnn::memory::memory_aware_order(Net::module, ctnn::memory::plan_config{}, order);
}
static_assert(!reorderable<resvar_net>() && reorderable<float_net>());

TEST_CASE("resource variables: initial values from CALL_ONCE, carried between runs, restored by reset_state") {
  const std::vector<char> input = read_bytes(state_cases + "/resvar_f32_accumulator_init_3_runs/input_0.bin");
  const std::vector<char> want_sum = read_bytes(state_cases + "/resvar_f32_accumulator_init_3_runs/output_0.bin");
  const std::vector<char> want_delta = read_bytes(state_cases + "/resvar_f32_accumulator_init_3_runs/output_1.bin");
  const auto* in = reinterpret_cast<const float*>(input.data());
  REQUIRE(input.size() == resvar_net::input<0>::bytes);
  // The fresh static state: the init subgraph's constants (acc's at 0, previous' at 32), not all zero.
  std::array<std::byte, resvar_net::state_bytes> fresh{};
  std::memcpy(fresh.data(), resvar_net::static_state(), fresh.size());
  CHECK(std::count(fresh.begin(), fresh.end(), std::byte{0}) < 40);
  std::array<float, resvar_net::output<0>::elements> sum{}, delta{}, first{};
  resvar_net::run(in, first.data(), delta.data());
  for (std::size_t k = 0; k < first.size(); ++k) {  // acc's initial value plus the input
    float initial = 0.0f;
    std::memcpy(&initial, fresh.data() + 4 * k, 4);
    CHECK(first[k] == initial + in[k]);
  }
  for (int n = 1; n < 3; ++n) resvar_net::run(in, sum.data(), delta.data());
  check_close(sum, want_sum);  // the third run, as TFLM's
  check_close(delta, want_delta);
  resvar_net::reset_state();
  CHECK(std::memcmp(resvar_net::static_state(), fresh.data(), fresh.size()) == 0);
  resvar_net::run(in, sum.data(), delta.data());
  CHECK(std::memcmp(sum.data(), first.data(), sizeof sum) == 0);
  // A stream's own state starts at the same initial values.
  alignas(resvar_net::state_alignment) std::byte stream[resvar_net::state_bytes];
  alignas(resvar_net::arena_alignment) std::byte arena[resvar_net::arena_bytes + 1];
  resvar_net::reset_state(stream);
  CHECK(std::memcmp(stream, fresh.data(), fresh.size()) == 0);
  resvar_net::run_with_state(stream, {arena}, in, sum.data(), delta.data());
  CHECK(std::memcmp(sum.data(), first.data(), sizeof sum) == 0);
}

// resvar_i8_buffer: an int8 streaming buffer [1, 4, 3] without initial values: it starts at its zero point (-5), as
// TFLM allocates it; its output 1 is the buffer after each run.
using buffer_net = ctnn::compile<models::resvar_i8_buffer>;
static_assert(buffer_net::state_bytes == 16);

TEST_CASE("an int8 resource variable starts at its zero point and reset_state restores it") {
  const std::vector<char> input = read_bytes(state_cases + "/resvar_i8_streaming_buffer_3_runs/input_0.bin");
  const std::vector<char> want = read_bytes(state_cases + "/resvar_i8_streaming_buffer_3_runs/output_1.bin");
  const auto* in = reinterpret_cast<const std::int8_t*>(input.data());
  for (std::size_t b = 0; b < 12; ++b) CHECK(static_cast<std::int8_t>(buffer_net::static_state()[b]) == -5);
  std::array<std::int8_t, buffer_net::output<0>::elements> average{};
  std::array<std::int8_t, buffer_net::output<1>::elements> buffer{}, first{};
  buffer_net::run(in, average.data(), first.data());
  for (int n = 1; n < 3; ++n) buffer_net::run(in, average.data(), buffer.data());
  CHECK(std::memcmp(buffer.data(), want.data(), buffer.size()) == 0);
  buffer_net::reset_state();
  for (std::size_t b = 0; b < 12; ++b) CHECK(static_cast<std::int8_t>(buffer_net::static_state()[b]) == -5);
  buffer_net::run(in, average.data(), buffer.data());
  CHECK(std::memcmp(buffer.data(), first.data(), buffer.size()) == 0);
}

}  // namespace
