#pragma once
// The TFLite importer's custom operators (import_plan.hpp's custom_op_table): TFLite_Detection_PostProcess, the
// end of an SSD detector. Its options are a FlexBuffers map in the op's custom_options (frontend/flexbuffers.hpp),
// read as TFLM's DetectionPostProcessInit reads them, but every key it needs must be there (TFLM reads an absent
// one as 0) and every value in the range its kernel takes. One detection_postprocess node writes the packed
// result (ops/detection_postprocess.hpp); a slice per output reads its part (boxes, first, is a view).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/flexbuffers.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/ops/detection_postprocess.hpp>

namespace ctnn::tflite::detail {

// TFLite_Detection_PostProcess's options from its custom_options; false after a diagnostic.
template <class S>
constexpr bool read_detection_options(S& s, const op_import& im, detection_fields& f) {
  const flatbuffers::vector& bytes = im.view.custom_options;
  const auto problem = [&](custom_options_problem p, std::int64_t key, std::int64_t value, std::int64_t at = 0) {
    s.fail(frontend_error::tflite_invalid_custom_options, im.op, im.plan.kind,
           {.operator_code = static_cast<std::int64_t>(im.plan.code), .byte_offset = at, .position = key,
            .reason = static_cast<std::int64_t>(p), .rejected_value = value});
    return false;
  };
  const char* start = s.f.reader().pointer(bytes.at);
  if (!bytes.present() || start == nullptr) return problem(custom_options_problem::malformed, -1, 0, bytes.at);
  flexbuffers::map_reader r{start, bytes.length};
  const auto malformed = [&] {
    return problem(custom_options_problem::malformed, -1, static_cast<std::int64_t>(r.error()),
                   bytes.at + static_cast<std::int64_t>(r.error_offset()));
  };
  if (r.failed()) return malformed();
  // Each key's value (detection_postprocess_keys' order): the thresholds and scales (keys 3 to 8) as floats, the
  // others as integers in [0, 2^24) (use_regular_nms: a bool or a number).
  std::array<std::int64_t, 11> integers{};
  std::array<float, 11> reals{};
  constexpr std::int64_t most = (std::int64_t{1} << 24) - 1;  // counts the kernel keeps as exact floats
  for (std::size_t k = 0; k < 11; ++k) {
    const flexbuffers::value v = r.find(detection_postprocess_keys[k]);
    if (r.failed()) return malformed();
    const auto key = static_cast<std::int64_t>(k);
    if (!v.present) {
      if (k < 9) return problem(custom_options_problem::missing_key, key, 0);
      integers[k] = k == 9 ? 100 : 0;  // TFLM's kNumDetectionsPerClass; the fast non-max suppression
      continue;
    }
    const bool real = k >= 3 && k < 9;
    if (real) {
      double d = 0.0;
      if (!r.as_real(v, d)) return malformed();
      // TFLM's AsFloat rounds the double to float; a value outside float's range (or NaN) has no float to round
      // to (undefined behaviour, and no constant expression): refused.
      constexpr double float_max = 3.4028234663852886e38;
      if (!(d >= -float_max && d <= float_max))
        return problem(custom_options_problem::out_of_range, key, d > 0 ? std::int64_t{1} << 62 : -(std::int64_t{1} << 62));
      reals[k] = static_cast<float>(d);
      continue;
    }
    bool ok = true;
    if (k == 10) {
      bool b = false;
      ok = r.as_bool(v, b);
      integers[k] = b ? 1 : 0;
    } else {
      ok = r.as_int(v, integers[k]);
    }
    if (!ok) return malformed();
    if (integers[k] < 0 || integers[k] > most) return problem(custom_options_problem::out_of_range, key, integers[k]);
  }
  f.max_detections = static_cast<std::int32_t>(integers[0]);
  f.num_classes = static_cast<std::int32_t>(integers[2]);
  f.regular_nms = static_cast<std::int32_t>(integers[10]);
  f.detections_per_class = static_cast<std::int32_t>(integers[9]);
  const auto millionths = [](float x) { return x > -9e12f && x < 9e12f ? static_cast<std::int64_t>(x * 1e6f) : 0; };
  // TFLM: max_classes_per_detection > 0 (fast form), detections_per_class > 0 (regular form), the IoU threshold in
  // (0, 1]; num_classes >= 1; the box scales finite and not 0 (the boxes divide by them).
  if (f.num_classes < 1) return problem(custom_options_problem::out_of_range, 2, f.num_classes);
  if (f.regular_nms == 0 && integers[1] < 1) return problem(custom_options_problem::out_of_range, 1, integers[1]);
  if (f.regular_nms != 0 && f.detections_per_class < 1) return problem(custom_options_problem::out_of_range, 9, f.detections_per_class);
  // TFLM's fast form keeps min(max_classes_per_detection, num_classes) classes per anchor; the regular one none.
  f.classes_per_detection = f.regular_nms != 0 ? 1 : static_cast<std::int32_t>(integers[1] < f.num_classes ? integers[1] : f.num_classes);
  if (!(reals[4] > 0.0f && reals[4] <= 1.0f)) return problem(custom_options_problem::out_of_range, 4, millionths(reals[4]));
  for (std::size_t k = 5; k < 9; ++k)
    if (reals[k] == 0.0f)
      return problem(custom_options_problem::out_of_range, static_cast<std::int64_t>(k), millionths(reals[k]));
  f.score_threshold_bits = std::bit_cast<std::uint32_t>(reals[3]);
  f.iou_threshold_bits = std::bit_cast<std::uint32_t>(reals[4]);
  for (std::size_t k = 0; k < 4; ++k) f.scale_bits[k] = std::bit_cast<std::uint32_t>(reals[5 + k]);
  return true;
}

// TFLite_Detection_PostProcess (box encodings, class predictions, constant anchors; four float32 outputs: boxes
// [1, M, 4], classes [1, M], scores [1, M], the count [1]). M must hold every entry TFLM's kernel writes: the
// regular form's max_detections, the fast form's c * c * min(max_detections, anchors) (its entries with gaps, c
// classes per detection), where TFLM would write past a smaller output.
template <class S>
constexpr void import_detection_postprocess(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 3, 3)) return;
  if (im.view.outputs.length != 4)
    return s.fail(frontend_error::tflite_output_count, im.op, im.plan.kind,
                  {.operator_code = static_cast<std::int64_t>(im.plan.code), .count_actual = im.view.outputs.length});
  detection_fields f{};
  if (!read_detection_options(s, im, f)) return;
  const std::int32_t boxes = operand(s, im.view, 0), scores = operand(s, im.view, 1), anchors = operand(s, im.view, 2);
  if (s.failed()) return;
  const dtype type = s.m.tensor_at(boxes).type;
  if (type != dtype::f32 && type != dtype::i8)
    return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind, {.rejected_value = static_cast<std::int64_t>(type)}, {},
                  s.m.tensor_at(boxes).dims);
  if (!constant_operand(s, im.op, im.plan, anchors, 2, s.m.tensor_at(anchors).type == dtype::i8 ? dtype::i8 : dtype::f32))
    return;
  std::array<std::int32_t, 4> outputs{};
  for (std::uint32_t k = 0; k < 4; ++k) outputs[k] = s.f.index_at(im.view.outputs, k);
  const std::int32_t capacity = s.m.tensor_at(outputs[0]).dims.rank == 3 ? s.m.tensor_at(outputs[0]).dims[1] : -1;
  const shape in = s.m.tensor_at(boxes).dims;
  const std::int64_t anchor_count = in.rank == 3 ? in[1] : 0;
  const std::int64_t kept = f.max_detections < anchor_count ? f.max_detections : anchor_count;
  // c * c clamped at 2^31 (no output holds more) before the product with kept (< 2^24): no overflow
  const std::int64_t squared = std::int64_t{f.classes_per_detection} * f.classes_per_detection;
  const std::int64_t needed =
      f.regular_nms != 0 ? f.max_detections : (squared < (std::int64_t{1} << 31) ? squared : std::int64_t{1} << 31) * kept;
  const std::array<shape, 4> wanted{make_shape(1, capacity, 4), make_shape(1, capacity), make_shape(1, capacity), make_shape(1)};
  for (std::uint32_t k = 0; k < 4; ++k) {
    const tensor& t = s.m.tensor_at(outputs[k]);
    if (t.type != dtype::f32)
      return s.fail(error_code::unsupported_dtype, im.op, im.plan.kind,
                    {.rejected_value = static_cast<std::int64_t>(t.type)}, {}, t.dims);
    if (capacity < 1 || capacity < needed || t.dims != wanted[k])
      return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.output_position = k},
                    k == 0 ? make_shape(1, static_cast<std::int32_t>(needed < 1 ? 1 : needed < 0x7fffffff ? needed : 0x7fffffff), 4) : wanted[k], t.dims);
  }
  f.capacity = capacity;
  im.attrs.set(f);
  im.attrs.out_type = dtype::f32;
  const name label = numbered(name_of(im.plan.kind), static_cast<std::size_t>(im.op));
  const shape& score_dims = s.m.tensor_at(scores).dims;
  if (in.rank != 3 || in[2] < 4 || score_dims.rank != 3)
    return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.input_slot = in.rank != 3 || in[2] < 4 ? 0u : 1u},
                  make_shape(1, static_cast<std::int32_t>(anchor_count), 4), in.rank != 3 || in[2] < 4 ? in : score_dims);
  const kernel::reference::detection::packing pk(in, score_dims, f);
  if (pk.total >= (std::int64_t{1} << 28))
    return s.fail(error_code::input_shapes_differ, im.op, im.plan.kind, {.input_slot = 1}, {}, score_dims);
  const std::int32_t packed = s.add_tensor_like(outputs[0], make_shape(static_cast<std::int32_t>(pk.total)), label);
  if (packed < 0) return;
  node* n = s.add_node(im.plan.kind, label, packed);
  if (n == nullptr) return;
  n->attrs = im.attrs;
  n->inputs = {boxes, scores, anchors};
  n->input_count = 3;
  const std::array<std::int64_t, 4> begins{pk.boxes, pk.class_ids, pk.scores, pk.count};
  for (std::uint32_t k = 0; k < 4; ++k) {
    slice_fields window{};
    window.begin[0] = static_cast<std::int32_t>(begins[k]);
    window.stride[0] = 1;
    window.extent[0] = static_cast<std::int32_t>(s.m.tensor_at(outputs[k]).dims.elements());
    if (!s.slice(packed, outputs[k], window, s.m.tensor_at(outputs[k]).dims,
                 numbered("detection_output", static_cast<std::size_t>(im.op) * 4 + k)))
      return;
  }
}

}  // namespace ctnn::tflite::detail
