#pragma once
// The TFLite importer's reading of an op's operands and options (import.hpp): operands that exist and are
// available, constant operands, fused activations, windows, input counts and ranks, and the requantization
// multipliers an int8 op derives from its scales.
#include <array>
#include <cstddef>
#include <cstdint>

#include <ctnn/detail/quantization.hpp>
#include <ctnn/ir/little_endian.hpp>
#include <ctnn/frontend/tflite/import_tensors.hpp>

namespace ctnn::tflite::detail {

template <class Module>
struct operand_importer : tensor_importer<Module> {

  // ---------------------------------------------------------------------------------------------------
  // Operators.

  // Operand k of op i: a tensor index that exists and is available (a graph input, a constant or an
  // earlier op's output); -1 where `optional`.
  constexpr std::int32_t operand(const operator_view& o, std::uint32_t k, bool optional = false) {
    const std::int32_t id = this->f.index_at(o.inputs, k);
    if (this->take_reader_error()) return -1;
    if (id == -1 && optional) return -1;
    if (id < 0 || static_cast<std::uint32_t>(id) >= this->f.tensor_count()) {
      this->malformed(o.inputs.position(k), flatbuffers::expectation::tensor_index);
      return -1;
    }
    const tensor& t = this->m.tensor_at(id);
    if (t.role == tensor_role::intermediate && t.producer < 0) {
      this->malformed(o.inputs.position(k), flatbuffers::expectation::produced_tensor);
      return -1;
    }
    return id;
  }

  // Operand k must be a constant (weights, bias, int32 shapes/pads/axes) of type `type`.
  constexpr bool constant_operand(std::int32_t op, const op_plan& p, std::int32_t id, std::uint32_t k, dtype type) {
    if (id < 0) return true;
    const tensor& t = this->m.tensor_at(id);
    if (t.role == tensor_role::constant && t.type == type) return true;
    this->fail(frontend_error::tflite_unsupported_operand, op, p.kind,
               {.operator_code = static_cast<std::int64_t>(p.code), .input_slot = k});
    return false;
  }

  // Element k of a constant int32 tensor (little-endian bytes in the file).
  constexpr std::int32_t constant_i32(std::int32_t id, std::int64_t k) const {
    return load_le<std::int32_t>(this->m.tensor_at(id).data.bytes, static_cast<std::size_t>(4 * k));
  }

  constexpr bool activation_to_ir(std::int32_t op, const op_plan& p, activation& out) {
    switch (p.fused) {
      case activation_function::none: out = activation::none; return true;
      case activation_function::relu: out = activation::relu; return true;
      case activation_function::relu6: out = activation::relu6; return true;
      default:
        this->fail(
            frontend_error::tflite_unsupported_activation, op, p.kind,
            {.operator_code = static_cast<std::int64_t>(p.code), .rejected_value = static_cast<std::int64_t>(p.fused)});
        return false;
    }
  }

  // Padding, strides and dilations of a conv/pool options table into a window.
  constexpr bool read_window(std::int32_t op, const op_plan& p, std::uint32_t padding_id, std::uint32_t stride_w_id,
                             std::uint32_t stride_h_id, std::int32_t dilation_w_id, std::int32_t dilation_h_id,
                             window& w) {
    flatbuffers::reader& r = this->f.reader();  // a named type: f is a dependent base member
    const auto pad = r.scalar<std::int8_t>(p.options, padding_id, 0);
    w.stride_w = r.scalar<std::int32_t>(p.options, stride_w_id, 0);
    w.stride_h = r.scalar<std::int32_t>(p.options, stride_h_id, 0);
    if (dilation_w_id >= 0) w.dilation_w = r.scalar<std::int32_t>(p.options, static_cast<std::uint32_t>(dilation_w_id), 1);
    if (dilation_h_id >= 0) w.dilation_h = r.scalar<std::int32_t>(p.options, static_cast<std::uint32_t>(dilation_h_id), 1);
    if (this->take_reader_error()) return false;
    if (pad != static_cast<std::int8_t>(padding_type::same) && pad != static_cast<std::int8_t>(padding_type::valid)) {
      this->fail(frontend_error::tflite_unsupported_padding, op, p.kind,
                 {.operator_code = static_cast<std::int64_t>(p.code), .rejected_value = pad});
      return false;
    }
    w.mode = pad == static_cast<std::int8_t>(padding_type::same) ? padding::same : padding::valid;
    // Below 1 is meaningless; 2^16 and more would only overflow the shape arithmetic of later passes.
    for (const std::int32_t v : {w.stride_w, w.stride_h, w.dilation_w, w.dilation_h, w.kernel_h, w.kernel_w}) {
      if (v < 1 || v > max_window_value) {
        this->fail(frontend_error::tflite_invalid_window, op, p.kind,
                   {.operator_code = static_cast<std::int64_t>(p.code), .rejected_value = v});
        return false;
      }
    }
    return true;
  }

  constexpr bool expect_inputs(std::int32_t op, const op_plan& p, const operator_view& o, std::uint32_t least,
                               std::uint32_t most) {
    if (o.inputs.length >= least && o.inputs.length <= most) return true;
    this->fail(error_code::input_count_mismatch, op, p.kind,
               {.count_expected = o.inputs.length < least ? least : most, .count_actual = o.inputs.length});
    return false;
  }

  constexpr bool expect_rank(std::int32_t op, const op_plan& p, std::int32_t id, std::int32_t rank) {
    const shape& s = this->m.tensor_at(id).dims;
    if (s.rank == rank) return true;
    this->fail(error_code::unsupported_rank, op, p.kind, {.rank_expected = rank, .rank_actual = s.rank}, {}, s);
    return false;
  }

  // The requantization multipliers an int8 op's kernel derives from its scales (lower_te, runtime/
  // requantization.hpp) must be ones TFLite's QuantizeMultiplier accepts (shift at most 31; a shift
  // below -31 is flushed to 0); LOGISTIC, TANH and SOFTMAX also derive their input radius from the shift,
  // which must not be negative. Operands without a scale are lower_te's to report.
  constexpr bool check_requantization(std::int32_t op, const op_plan& p, const node& n) {
    namespace q = ctnn::detail::quant;
    const tensor& x = this->m.tensor_at(n.inputs[0]);
    const tensor& y = this->m.tensor_at(n.output);
    if ((x.type != dtype::i8 && y.type != dtype::i8) || !x.quant.quantized() || !y.quant.quantized()) return true;
    const double in = static_cast<double>(x.quant.scale), out = static_cast<double>(y.quant.scale);
    const quantization& second = n.input_count > 1 && n.inputs[1] >= 0 ? this->m.tensor_at(n.inputs[1]).quant : quantization{};
    std::int32_t shift = 0;
    bool radius = false;
    switch (n.kind) {
      case op_kind::conv2d:
      case op_kind::depthwise_conv2d:
      case op_kind::dense:
        if (!second.quantized()) return true;
        shift = q::quantize_multiplier(in * largest_scale(second) / out).shift;
        break;
      case op_kind::add: {
        if (!second.quantized()) return true;
        const double twice_max_input_scale = 2 * (in > second.scale ? in : static_cast<double>(second.scale));
        shift = q::quantize_multiplier(twice_max_input_scale / (1048576.0 * out)).shift;  // left shift 20
        break;
      }
      case op_kind::mul:
        if (!second.quantized()) return true;
        shift = q::quantize_multiplier(in * static_cast<double>(second.scale) / out).shift;
        break;
      case op_kind::relu:
      case op_kind::quantize:
      case op_kind::mean:
        shift = q::quantize_multiplier(in / out).shift;
        break;
      case op_kind::sigmoid:
      case op_kind::tanh:
        shift = q::logistic_tanh_input_multiplier(x.quant.scale).shift;
        radius = true;
        break;
      case op_kind::softmax:
        shift = q::softmax_input_multiplier(1.0, in, 5).shift;
        radius = true;
        break;
      default:
        return true;
    }
    if (shift <= 31 && (!radius || shift >= 0)) return true;
    this->fail(frontend_error::tflite_unrepresentable_multiplier, op, p.kind,
               {.operator_code = static_cast<std::int64_t>(p.code), .rejected_value = shift});
    return false;
  }
};

}  // namespace ctnn::tflite::detail
