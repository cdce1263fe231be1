// Bit-exactness of ctnn's int8 kernels with TFLM, operator by operator, on the four MLPerf Tiny int8
// models (../shared/models/mlperf-tiny): every operator's output dump (refs/<model>/layers, computed by
// TFLM's reference kernels) must equal ctnn's result on the dumped inputs, byte for byte.
//
// Each layer goes through ctnn's own compile-time path: a one-op module built from the layer table
// (mlperf_layers.inc), infer_types (output shape, SAME padding), lower_te (kernel_params with TFLite's
// quantized parameters), kernel::invoke<params>. Weights, biases and per-channel scales are read from the
// .tflite file at run time (a stopgap reader, tflite_reader.hpp, until ctnn's TFLite frontend exists);
// the per-channel multipliers are computed by the same function runtime/requantization.hpp uses.
//
// A second check chains the layers on ctnn's own outputs for the four reference inputs of each model
// and compares the model outputs with refs/<model>/output_<k>.bin.
//
// Without ../shared (or CTNN_MLPERF_DIR) the tests say so and pass.
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>
#include <ctnn/pass/infer_types.hpp>
#include <ctnn/pass/lower_te.hpp>
#include <ctnn/pass/select_kernels.hpp>

#include "kernel/int8_test_support.hpp"
#include "kernel/reference/mlperf_describe.hpp"
#include "kernel/mlperf_layer_table.hpp"
#include "kernel/mlperf_layers.inc"
#include "kernel/reference/tflite_reader.hpp"

namespace {

using ctnn::kernel_params;
using ctnn::op_kind;
using mlperf::layer;

// Compile time: one module per layer, lowered by ctnn's passes (int8_test::build_layer_module).
using int8_test::has_weights;
using int8_test::layer_params;

// ---------------------------------------------------------------------------------------------------
// Run time.

std::string mlperf_dir() {
  if (const char* dir = std::getenv("CTNN_MLPERF_DIR")) return dir;
  return CTNN_MLPERF_DEFAULT_DIR;
}

std::vector<std::int8_t> read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return {};
  const std::vector<char> raw{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return {raw.begin(), raw.end()};
}

std::string dump_name(std::size_t op, std::int32_t code, std::int32_t tensor) {
  char name[96];
  std::snprintf(name, sizeof name, "op%02zu_%s_t%d.bin", op, tflite_reader::builtin_name(code), tensor);
  return name;
}

using tensor_values = std::map<std::int32_t, std::vector<std::int8_t>>;

// kernel::pack_operand's reader over a layer's weights and bias read at run time (the executor packs the
// same constants at compile time).
struct runtime_constant_reader {
  const std::vector<std::int8_t>* i8_values;
  const std::vector<std::int32_t>* i32_values;
  std::size_t count() const { return i8_values != nullptr ? i8_values->size() : i32_values->size(); }
  std::int8_t i8(std::size_t i) const { return (*i8_values)[i]; }
  std::int32_t i32(std::size_t i) const { return (*i32_values)[i]; }
  float f32(std::size_t) const { return 0.0f; }
};

// kernel::invoke<p> with the kernel select_kernels chooses for p, with the weights (operand 1) and bias
// (operand 2) in the layout the run-time kernel reads when it packs them, as the executor does.
template <kernel_params Lowered, kernel_params P = ctnn::pass::with_kernel_choice<Lowered>>
void invoke_with_packed_constants(const void* (&operands)[4], std::int8_t* out, const ctnn::kernel::requant_arrays& rq,
                                  const std::vector<std::int8_t>& weights, const std::vector<std::int32_t>& bias) {
  const auto packed = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
    if constexpr (has_weights(P.kind) && ctnn::kernel::packs_operand<P>(K))
      return ctnn::kernel::pack_operand<P, K>(K == 1 ? runtime_constant_reader{&weights, nullptr}
                                                     : runtime_constant_reader{nullptr, &bias});
    else
      return 0;
  };
  const auto weights_packed = packed(std::integral_constant<std::size_t, 1>{});
  const auto bias_packed = packed(std::integral_constant<std::size_t, 2>{});
  if constexpr (!std::is_same_v<decltype(weights_packed), const int>) operands[1] = weights_packed.data();
  if constexpr (!std::is_same_v<decltype(bias_packed), const int>) operands[2] = bias_packed.data();
  ctnn::kernel::invoke<P>(operands, out, rq);
}

// Runs layer I of Table on the values in `values` (its inputs' tensors); returns its output.
template <const auto& Table, std::size_t I>
std::vector<std::int8_t> run_layer(const tflite_reader::model& m, const tensor_values& values) {
  constexpr kernel_params p = layer_params<Table, I>();
  const tflite_reader::op& o = m.ops[I];
  std::vector<std::int8_t> out(static_cast<std::size_t>(p.out.elements()));
  const auto input = [&](std::size_t k) -> const std::int8_t* {
    const auto found = values.find(o.inputs[k]);
    return found == values.end() ? nullptr : found->second.data();
  };
  std::vector<std::int8_t> weights;
  std::vector<std::int32_t> bias;
  std::vector<std::int32_t> multipliers, shifts;
  ctnn::kernel::requant_arrays rq{};
  const void* operands[4] = {input(0), nullptr, nullptr, nullptr};
  if (operands[0] == nullptr) return {};
  if constexpr (has_weights(p.kind)) {
    const tflite_reader::tensor& w = m.tensors[static_cast<std::size_t>(o.inputs[1])];
    const auto* wd = reinterpret_cast<const std::int8_t*>(m.data_of(w));
    weights.assign(wd, wd + w.data_size);
    operands[1] = weights.data();
    if (o.inputs.size() > 2 && o.inputs[2] >= 0) {
      const tflite_reader::tensor& b = m.tensors[static_cast<std::size_t>(o.inputs[2])];
      bias.resize(b.data_size / 4);
      std::memcpy(bias.data(), m.data_of(b), b.data_size);
      operands[2] = bias.data();
    }
    if constexpr (p.per_channel != 0) {
      const float in_scale = m.tensors[static_cast<std::size_t>(o.inputs[0])].scale();
      const float out_scale = m.tensors[static_cast<std::size_t>(o.outputs[0])].scale();
      for (std::int32_t c = 0; c < p.out.last(); ++c) {
        const float ws = w.scales.size() > 1 ? w.scales[static_cast<std::size_t>(c)] : w.scales[0];
        const auto qm = ctnn::detail::quant::channel_multiplier(in_scale, ws, out_scale);
        multipliers.push_back(qm.multiplier);
        shifts.push_back(qm.shift);
      }
      rq.multiplier = multipliers.data();
      rq.shift = shifts.data();
    }
  } else if constexpr (p.kind == op_kind::add || p.kind == op_kind::mul) {
    operands[1] = input(1);
    if (operands[1] == nullptr) return {};
  }
  invoke_with_packed_constants<p>(operands, out.data(), rq, weights, bias);
  return out;
}

struct model_report {
  std::size_t layers = 0, layers_matched = 0, bytes = 0, bytes_matched = 0;
};

template <const auto& Table, std::size_t... I>
void check_model(const char* name, std::index_sequence<I...>) {
  const std::string dir = mlperf_dir();
  const std::string model_name = name;
  const tflite_reader::model m = tflite_reader::read(dir + "/" + model_name + ".tflite");
  if (!m.ok) {
    MESSAGE("skipped: " << dir << "/" << model_name << ".tflite not found (set CTNN_MLPERF_DIR to ../shared/models/mlperf-tiny)");
    return;
  }
  REQUIRE(m.ops.size() == sizeof...(I));
  // The tables must describe these files.
  for (std::size_t k = 0; k < m.ops.size(); ++k) {
    bool known = false;
    const layer from_file = mlperf::describe(m, k, known);
    CHECK_MESSAGE(from_file == Table[k], model_name << " op " << k << " differs from its table entry; regenerate it: "
                                              << mlperf::layer_text(from_file));
  }
  const std::string refs = dir + "/refs/" + name;

  // 1. Per layer, on TFLM's dumped inputs.
  tensor_values dumps;
  dumps[m.inputs[0]] = read_bytes(refs + "/input_0.bin");
  for (std::size_t k = 0; k < m.ops.size(); ++k)
    dumps[m.ops[k].outputs[0]] = read_bytes(refs + "/layers/" + dump_name(k, m.ops[k].code, m.ops[k].outputs[0]));
  model_report report;
  const auto check_layer = [&](std::size_t k, const std::vector<std::int8_t>& got) {
    const std::vector<std::int8_t>& want = dumps[m.ops[k].outputs[0]];
    std::size_t same = 0;
    for (std::size_t i = 0; i < want.size() && i < got.size(); ++i) same += want[i] == got[i];
    ++report.layers;
    report.bytes += want.size();
    report.bytes_matched += same;
    const bool exact = !want.empty() && got.size() == want.size() && same == want.size();
    report.layers_matched += exact;
    CHECK_MESSAGE(exact, model_name << " op " << k << " (" << tflite_reader::builtin_name(m.ops[k].code) << "): " << same << " of "
                              << want.size() << " bytes equal TFLM's dump");
  };
  (check_layer(I, run_layer<Table, I>(m, dumps)), ...);
  MESSAGE(model_name << ": " << report.layers_matched << "/" << report.layers << " layers bit-exact with TFLM, "
               << report.bytes_matched << "/" << report.bytes << " bytes");

  // 2. The whole model on ctnn's own intermediates, for the four reference inputs.
  for (int k = 0; k < 4; ++k) {
    tensor_values chain;
    chain[m.inputs[0]] = read_bytes(refs + "/input_" + std::to_string(k) + ".bin");
    ((chain[m.ops[I].outputs[0]] = run_layer<Table, I>(m, chain)), ...);
    const std::vector<std::int8_t> want = read_bytes(refs + "/output_" + std::to_string(k) + ".bin");
    CHECK_MESSAGE(chain[m.outputs[0]] == want, model_name << " case " << k << ": model output differs from TFLM's");
  }
}

template <const auto& Table>
void check_model(const char* name) {
  check_model<Table>(name, std::make_index_sequence<std::size(Table)>{});
}

}  // namespace

TEST_CASE("MLPerf Tiny KWS (DS-CNN): every layer bit-exact with TFLM") {
  check_model<mlperf::kws_ref_model_layers>("kws_ref_model");
}
TEST_CASE("MLPerf Tiny VWW (MobileNetV1 0.25): every layer bit-exact with TFLM") {
  check_model<mlperf::vww_96_int8_layers>("vww_96_int8");
}
TEST_CASE("MLPerf Tiny IC (ResNet-8): every layer bit-exact with TFLM") {
  check_model<mlperf::pretrainedResnet_quant_layers>("pretrainedResnet_quant");
}
TEST_CASE("MLPerf Tiny AD (autoencoder): every layer bit-exact with TFLM") {
  check_model<mlperf::ad01_int8_layers>("ad01_int8");
}
