#pragma once
// Reads an operator of a .tflite file into an mlperf::layer (run time). Shared by the generator of the
// compile-time tables and by the test that checks each table entry against its file.
#include <bit>
#include <cstdio>
#include <cstdint>
#include <string>

#include "kernel/mlperf_layer_table.hpp"
#include "kernel/reference/tflite_reader.hpp"

namespace mlperf {

struct model_files {
  const char* name;  // refs/<name>/ and <name>.tflite
};
inline constexpr model_files models[] = {{"kws_ref_model"}, {"vww_96_int8"}, {"pretrainedResnet_quant"}, {"ad01_int8"}};

inline ctnn::shape shape_of(const std::vector<std::int32_t>& extents) {
  ctnn::shape s{};
  s.rank = static_cast<std::int32_t>(extents.size());
  for (std::size_t d = 0; d < extents.size(); ++d) s.dims[d] = extents[d];
  return s;
}

inline ctnn::op_kind kind_of(std::int32_t code, bool& known) {
  namespace t = tflite_reader;
  known = true;
  switch (code) {
    case t::CONV_2D: return ctnn::op_kind::conv2d;
    case t::DEPTHWISE_CONV_2D: return ctnn::op_kind::depthwise_conv2d;
    case t::FULLY_CONNECTED: return ctnn::op_kind::dense;
    case t::AVERAGE_POOL_2D: return ctnn::op_kind::avg_pool;
    case t::MAX_POOL_2D: return ctnn::op_kind::max_pool;
    case t::ADD: return ctnn::op_kind::add;
    case t::MUL: return ctnn::op_kind::mul;
    case t::SOFTMAX: return ctnn::op_kind::softmax;
    case t::RESHAPE: return ctnn::op_kind::reshape;
    case t::LOGISTIC: return ctnn::op_kind::sigmoid;
    case t::TANH: return ctnn::op_kind::tanh;
    case t::RELU: return ctnn::op_kind::relu;
    case t::RELU6: return ctnn::op_kind::relu6;
    case t::CONCATENATION: return ctnn::op_kind::concat;
    case t::PAD: return ctnn::op_kind::pad;
    case t::MEAN: return ctnn::op_kind::mean;
    case t::QUANTIZE: return ctnn::op_kind::quantize;
    case t::DEQUANTIZE: return ctnn::op_kind::dequantize;
    default: known = false; return ctnn::op_kind::relu;
  }
}

inline ctnn::activation activation_of(std::int32_t fused) {
  return fused == 1 ? ctnn::activation::relu : fused == 3 ? ctnn::activation::relu6 : ctnn::activation::none;
}

// The layer of operator `index`; `known` is false for an operator the tables do not describe.
inline layer describe(const tflite_reader::model& m, std::size_t index, bool& known) {
  const tflite_reader::op& o = m.ops[index];
  layer l{};
  l.op_index = static_cast<std::int32_t>(index);
  l.kind = kind_of(o.code, known);
  const auto& in = m.tensors[static_cast<std::size_t>(o.inputs[0])];
  const auto& out = m.tensors[static_cast<std::size_t>(o.outputs[0])];
  l.in = shape_of(in.shape);
  l.out = shape_of(out.shape);
  l.in_scale = std::bit_cast<std::uint32_t>(in.scale());
  l.in_zero_point = in.zero_point();
  l.out_scale = std::bit_cast<std::uint32_t>(out.scale());
  l.out_zero_point = out.zero_point();
  l.fused = activation_of(o.opt.fused);
  const bool weighted = l.kind == ctnn::op_kind::conv2d || l.kind == ctnn::op_kind::depthwise_conv2d || l.kind == ctnn::op_kind::dense;
  if (weighted) {
    const auto& w = m.tensors[static_cast<std::size_t>(o.inputs[1])];
    l.weights = shape_of(w.shape);
    l.weight_scale = std::bit_cast<std::uint32_t>(w.scale());
    l.weight_channels = static_cast<std::int32_t>(w.scales.size());
    l.has_bias = o.inputs.size() > 2 && o.inputs[2] >= 0;
  }
  if (l.kind == ctnn::op_kind::conv2d || l.kind == ctnn::op_kind::depthwise_conv2d) {
    l.kernel_h = l.weights[1];
    l.kernel_w = l.weights[2];
  } else if (l.kind == ctnn::op_kind::avg_pool || l.kind == ctnn::op_kind::max_pool) {
    l.kernel_h = o.opt.filter_h;
    l.kernel_w = o.opt.filter_w;
  }
  if (l.kind == ctnn::op_kind::conv2d || l.kind == ctnn::op_kind::depthwise_conv2d || l.kind == ctnn::op_kind::avg_pool ||
      l.kind == ctnn::op_kind::max_pool) {
    l.stride_h = o.opt.stride_h;
    l.stride_w = o.opt.stride_w;
    l.dilation_h = o.opt.dilation_h;
    l.dilation_w = o.opt.dilation_w;
    l.pad = o.opt.padding == 0 ? ctnn::padding::same : ctnn::padding::valid;
  }
  if (l.kind == ctnn::op_kind::depthwise_conv2d) l.depth_multiplier = o.opt.depth_multiplier;
  if (l.kind == ctnn::op_kind::add || l.kind == ctnn::op_kind::mul) {
    const auto& in2 = m.tensors[static_cast<std::size_t>(o.inputs[1])];
    l.in2 = shape_of(in2.shape);
    l.in2_scale = std::bit_cast<std::uint32_t>(in2.scale());
    l.in2_zero_point = in2.zero_point();
  }
  return l;
}

inline bool operator==(const layer& a, const layer& b) {
  return a.op_index == b.op_index && a.kind == b.kind && a.in == b.in && a.in2 == b.in2 && a.weights == b.weights &&
         a.out == b.out && a.kernel_h == b.kernel_h && a.kernel_w == b.kernel_w && a.stride_h == b.stride_h &&
         a.stride_w == b.stride_w && a.dilation_h == b.dilation_h && a.dilation_w == b.dilation_w && a.pad == b.pad &&
         a.depth_multiplier == b.depth_multiplier && a.fused == b.fused && a.has_bias == b.has_bias &&
         a.in_scale == b.in_scale && a.in_zero_point == b.in_zero_point && a.in2_scale == b.in2_scale &&
         a.in2_zero_point == b.in2_zero_point && a.weight_scale == b.weight_scale &&
         a.weight_channels == b.weight_channels && a.out_scale == b.out_scale && a.out_zero_point == b.out_zero_point;
}

inline std::string shape_text(const ctnn::shape& s) {
  if (s.rank == 0) return "{}";
  std::string t = "dims(";
  for (std::int32_t d = 0; d < s.rank; ++d) {
    if (d != 0) t.append(", ");
    t.append(std::to_string(s[d]));
  }
  t.append(")");
  return t;
}

// The C++ initializer of a layer (the generator's output, and the test's hint when an entry is stale).
// (No "literal" + std::string: g++ 12 -O3 warns falsely about it, -Wrestrict.)
inline std::string layer_text(const layer& l) {
  char buffer[512];
  const char* act = l.fused == ctnn::activation::relu ? "relu" : l.fused == ctnn::activation::relu6 ? "relu6" : "none";
  std::snprintf(buffer, sizeof buffer,
                "{%d, ctnn::op_kind::%s, %s, %s, %s, %s, %d, %d, %d, %d, %d, %d, ctnn::padding::%s, %d, "
                "ctnn::activation::%s, %s, 0x%08xu, %d, 0x%08xu, %d, 0x%08xu, %d, 0x%08xu, %d}",
                l.op_index, ctnn::name_of(l.kind), shape_text(l.in).c_str(), shape_text(l.in2).c_str(),
                shape_text(l.weights).c_str(), shape_text(l.out).c_str(), l.kernel_h, l.kernel_w, l.stride_h, l.stride_w,
                l.dilation_h, l.dilation_w, l.pad == ctnn::padding::same ? "same" : "valid", l.depth_multiplier, act,
                l.has_bias ? "true" : "false", l.in_scale, l.in_zero_point, l.in2_scale, l.in2_zero_point, l.weight_scale,
                l.weight_channels, l.out_scale, l.out_zero_point);
  return buffer;
}

}  // namespace mlperf
