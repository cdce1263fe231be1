#pragma once
// detection_postprocess: the end of an SSD detector (TFLite's custom operator TFLite_Detection_PostProcess):
// box encodings [1, N, >= 4] decoded against constant anchors [N, 4], class predictions [1, N, classes (+ a
// background column)] thresholded, then non-max suppression, fast (each anchor by its best class) or regular
// (per class). TFLM's four outputs (boxes, classes, scores, the detection count) are one packed float32 result
// (kernel/reference/detection_postprocess.hpp: an IR node has one result, as lstm's), which the TFLite importer
// reads with a slice per output. Operands float32, or int8 (dequantized first; anchors float32 or int8). The
// descriptor of op_kind::detection_postprocess (ops/descriptor.hpp).
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/kernel/reference/detection_postprocess.hpp>
#include <ctnn/ops/descriptor.hpp>

namespace ctnn::ops {

struct detection_postprocess : op_defaults {
  static constexpr op_kind kind = op_kind::detection_postprocess;
  static constexpr operand_range operands{3, 3};
  static constexpr std::size_t operands_read(const kernel_params&) { return 3; }
  static constexpr bool result_type_from_attributes = true;  // float32 (attrs.out_type), whatever its operands
  static constexpr bool has_kernel(dtype type) { return type == dtype::f32 || type == dtype::i8; }
  static constexpr bool has_result_kernel(dtype, dtype out) { return out == dtype::f32; }

  // TFLM's Prepare and Eval checks: box encodings [1, N, >= 4], class predictions [1, N, classes or classes + 1],
  // anchors [N, 4]; box encodings and class predictions both float32 or both int8, float32 anchors with float32
  // ones; options in range. The result: the packed tensor, its indices below 2^24 (the kernel keeps them as
  // floats).
  template <class Module>
  static constexpr shape infer(Module& m, std::int32_t node_id) {
    const node& n = m.node_at(node_id);
    const tensor& boxes = m.tensor_at(n.inputs[0]);
    const tensor& scores = m.tensor_at(n.inputs[1]);
    const tensor& anchors = m.tensor_at(n.inputs[2]);
    const detection_fields& f = n.attrs.detection();
    const auto fail = [&](std::int32_t slot, const shape& want, const shape& got) {
      m.fail({error_code::input_shapes_differ, node_id, n.kind, want, got, {.input_slot = slot}});
      return got;
    };
    const shape& b = boxes.dims;
    if (b.rank != 3 || b[0] != 1 || b[2] < 4) return fail(0, make_shape(1, b.rank > 1 ? b[1] : 1, 4), b);
    const shape& s = scores.dims;
    if (s.rank != 3 || s[0] != 1 || s[1] != b[1] || s[2] < f.num_classes || s[2] > f.num_classes + 1)
      return fail(1, make_shape(1, b[1], f.num_classes + 1), s);
    if (anchors.dims != make_shape(b[1], 4)) return fail(2, make_shape(b[1], 4), anchors.dims);
    if (scores.type != boxes.type || (boxes.type == dtype::f32 && anchors.type != dtype::f32) ||
        (anchors.type != dtype::f32 && anchors.type != dtype::i8)) {
      const std::uint32_t slot = scores.type != boxes.type ? 1 : 2;
      m.fail({error_code::unsupported_dtype, node_id, n.kind, {}, m.tensor_at(n.inputs[slot]).dims,
              {.faulty_operand = slot + 1, .rejected_value = static_cast<std::int64_t>(m.tensor_at(n.inputs[slot]).type)}});
      return b;
    }
    const kernel::reference::detection::packing pk(b, s, f);
    const std::int64_t largest = pk.anchors * pk.columns + f.max_detections + pk.anchors;
    if (f.num_classes < 1 || f.max_detections < 0 || f.classes_per_detection < 1 || f.detections_per_class < 1 ||
        f.capacity < 1 || largest >= kernel::reference::detection::largest_index ||
        pk.total >= (std::int64_t{1} << 28))
      return fail(0, make_shape(1, b[1], 4), b);
    return make_shape(static_cast<std::int32_t>(pk.total));
  }
  // Its options, the second operand's extents and each operand's type and quantization.
  template <class Module>
  static constexpr void prepare(const Module& m, const node& n, kernel_params& p) {
    p.in2 = m.tensor_at(n.inputs[1]).dims;
    p.set(n.attrs.detection());
    detection_operand_fields operands{};
    for (std::size_t k = 0; k < 3; ++k) {
      const tensor& t = m.tensor_at(n.inputs[k]);
      operands.types[k] = t.type;
      operands.scale_bits[k] = t.type == dtype::f32 ? 0 : std::bit_cast<std::uint32_t>(t.quant.scale);
      operands.zero_points[k] = t.type == dtype::f32 ? 0 : t.quant.zero_point;
    }
    p.set(operands);
  }
  // No multiply-accumulates: a count of the pairs non-max suppression may compare, per class in the regular form.
  template <class Module>
  static constexpr std::int64_t macs(const Module& m, const node& n, const shape&) {
    const std::int64_t anchors = m.tensor_at(n.inputs[0]).dims[1];
    return anchors * anchors * (n.attrs.detection().regular_nms != 0 ? n.attrs.detection().num_classes : 1);
  }

  template <class Params>
  [[gnu::always_inline]] static constexpr void run_f32(Params p, const float* const* operands, float* result) {
    kernel::reference::detection::run(p, operands[0], operands[1], operands[2], result);
  }
  template <class Params>
  [[gnu::always_inline]] static void run_i8(Params p, const void* const* operands, void* result, const kernel::requant_arrays&) {
    const auto* boxes = static_cast<const std::int8_t*>(operands[0]);
    const auto* scores = static_cast<const std::int8_t*>(operands[1]);
    if (p->detection_operands().types[2] == dtype::i8)
      kernel::reference::detection::run(p, boxes, scores, static_cast<const std::int8_t*>(operands[2]), static_cast<float*>(result));
    else
      kernel::reference::detection::run(p, boxes, scores, static_cast<const float*>(operands[2]), static_cast<float*>(result));
  }

  template <class Writer>
  static void put_attributes(Writer& w, const op_attributes& a, const printed_op&) {
    put_fields(w, a.detection());
  }
  template <class Writer>
  static void put_params(Writer& w, const kernel_params& p) {
    put_fields(w, p.detection());
  }
  template <class Writer>
  static void put_fields(Writer& w, const detection_fields& f) {
    w.field("  max_detections ", f.max_detections);
    w.field(" classes_per_detection ", f.classes_per_detection);
    if (f.regular_nms != 0) w.field(" regular detections_per_class ", f.detections_per_class);
    w.field(" num_classes ", f.num_classes);
    w.real_field(" score_threshold ", f.score_threshold());
    w.real_field(" iou_threshold ", f.iou_threshold());
    w.real_field(" scales ", f.scale(0));
    for (std::size_t k = 1; k < 4; ++k) w.real_field(" ", f.scale(k));
    w.field(" capacity ", f.capacity);
  }
};

}  // namespace ctnn::ops
