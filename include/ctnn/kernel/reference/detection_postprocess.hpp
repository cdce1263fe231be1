#pragma once
// detection_postprocess's reference kernel: TFLite Micro's DETECTION_POSTPROCESS
// (tensorflow/lite/micro/kernels/detection_postprocess.cc), step for step, so that its float results are TFLM's
// bit for bit: the boxes decoded against the anchors in double and rounded to float, the scores thresholded,
// TFLM's stable merge sort (insertion sort below 20 elements) for non-max suppression, its partial sorts (ties:
// the lower index first) for the classes of an anchor and the detections kept across classes, and its output
// placement (the fast path's, whose entries for several classes per detection leave gaps: TFLM writes entry
// c * k + col for the k-th (class, anchor) pair, c classes per detection). int8 operands are dequantized first
// as TFLite's kernel does ((float(q) - zero point) * scale); TFLM itself runs float32 only.
//
// The result is one packed float32 tensor (the importer slices the four outputs out of it): boxes
// [capacity, 4] (ymin, xmin, ymax, xmax), classes [capacity], scores [capacity], the detection count, then the
// kernel's scratch. Entries TFLM leaves unwritten are 0. Indices are kept in the float scratch as exact
// integers: infer bounds them below 2^24.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ctnn/detail/math.hpp>
#include <ctnn/ir/attributes.hpp>
#include <ctnn/ir/kernel_params.hpp>
#include <ctnn/ir/shape.hpp>

namespace ctnn::kernel::reference::detection {

// The sizes the kernel works with: anchors (N), the box encoding's length (>= 4), classes with and without
// the background column, the result's capacity, and where each part of the packed result starts.
struct packing {
  std::int64_t anchors = 0, encoding = 0, columns = 0, classes = 0, capacity = 0;
  std::int64_t boxes = 0, class_ids = 0, scores = 0, count = 0;  // the outputs
  std::int64_t decoded = 0, all_scores = 0, candidates = 0, kept_scores = 0, kept_anchors = 0, order = 0, merge = 0,
               active = 0, selected = 0, class_sort = 0, class_order = 0, entries = 0, entry_scores = 0, entry_order = 0,
               moved_entries = 0, moved_scores = 0, total = 0;  // the scratch

  // box encodings [1, N, encoding], class predictions [1, N, columns]
  constexpr packing(const shape& box_encodings, const shape& class_predictions, const detection_fields& f)
      : anchors(box_encodings[1]), encoding(box_encodings[2]), columns(class_predictions[2]), classes(f.num_classes),
        capacity(f.capacity) {
    const std::int64_t per_class = f.classes_per_detection, detections = f.max_detections;
    std::int64_t at = 0;
    const auto part = [&](std::int64_t size) {
      const std::int64_t start = at;
      at += size;
      return start;
    };
    boxes = part(4 * capacity);
    class_ids = part(capacity);
    scores = part(capacity);
    count = part(1);
    decoded = part(4 * anchors);
    all_scores = part(anchors * columns);
    candidates = part(anchors);
    kept_scores = part(anchors);
    kept_anchors = part(anchors);
    order = part(anchors);
    merge = part(anchors);
    active = part(anchors);
    selected = part(anchors);
    class_sort = part(f.regular_nms != 0 ? 0 : classes);
    class_order = part(f.regular_nms != 0 ? 0 : anchors * per_class);
    entries = part(f.regular_nms != 0 ? detections + anchors : 0);
    entry_scores = part(f.regular_nms != 0 ? detections + anchors : 0);
    entry_order = part(f.regular_nms != 0 ? detections + anchors : 0);
    moved_entries = part(f.regular_nms != 0 ? detections : 0);
    moved_scores = part(f.regular_nms != 0 ? detections : 0);
    total = at;
  }
};

// The largest index the scratch holds as a float (exact below 2^24).
inline constexpr std::int64_t largest_index = std::int64_t{1} << 24;

namespace detail {

constexpr std::int64_t index_at(const float* at, std::int64_t k) { return static_cast<std::int64_t>(at[k]); }
constexpr float as_index(std::int64_t i) { return static_cast<float>(i); }

// Element k of an operand as float: as it is, or dequantized as TFLite's Dequantizer does.
template <class T>
constexpr float value_of(const T* x, std::int64_t k, float scale, std::int32_t zero_point) {
  if constexpr (std::is_same_v<T, float>)
    return x[k];
  else
    return (static_cast<float>(x[k]) - static_cast<float>(zero_point)) * scale;
}

// std::max<float> / std::min<float> as TFLM calls them (the first when neither is less).
constexpr float larger(float a, float b) { return a < b ? b : a; }
constexpr float smaller(float a, float b) { return b < a ? b : a; }

// TFLM's ComputeIntersectionOverUnion of decoded boxes i and j.
constexpr float intersection_over_union(const float* decoded, std::int64_t i, std::int64_t j) {
  const float* a = decoded + 4 * i;
  const float* b = decoded + 4 * j;
  const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
  const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
  if (area_a <= 0 || area_b <= 0) return 0.0f;
  const float ymin = larger(a[0], b[0]), xmin = larger(a[1], b[1]);
  const float ymax = smaller(a[2], b[2]), xmax = smaller(a[3], b[3]);
  const float intersection = larger(ymax - ymin, 0.0f) * larger(xmax - xmin, 0.0f);
  return intersection / (area_a + area_b - intersection);
}

// TFLM's InsertionSort: each element rotated to std::upper_bound's position among those before it.
template <class Before>
constexpr void insertion_sort(float* values, std::int64_t count, const Before& before) {
  for (std::int64_t i = 0; i < count; ++i) {
    const float v = values[i];
    std::int64_t first = 0, length = i;  // std::upper_bound, as libstdc++ probes
    while (length > 0) {
      const std::int64_t half = length >> 1;
      if (before(v, values[first + half])) {
        length = half;
      } else {
        first += half + 1;
        length -= half + 1;
      }
    }
    for (std::int64_t k = i; k > first; --k) values[k] = values[k - 1];
    values[first] = v;
  }
}

// TFLM's MergeSort (insertion sort below 20 elements, then a top-down merge taking the right element only when
// it comes strictly before the left one: stable).
template <class Before>
constexpr void merge_sort(float* values, float* scratch, std::int64_t count, const Before& before) {
  if (count < 20) return insertion_sort(values, count, before);
  const std::int64_t half = count / 2;
  merge_sort(values, scratch, half, before);
  merge_sort(values + half, scratch, count - half, before);
  std::int64_t left = 0, right = half;
  for (std::int64_t i = 0; i < count; ++i)
    scratch[i] = left >= half || (right < count && before(values[right], values[left])) ? values[right++] : values[left++];
  for (std::int64_t i = 0; i < count; ++i) values[i] = scratch[i];
}

// TFLM's DecreasingPartialArgSort: the indices of the `sorted` largest of values[0, count), largest first, ties
// the lower index first (std::partial_sort under that total order: one result whatever the algorithm).
constexpr void decreasing_partial_arg_sort(const float* values, std::int64_t count, std::int64_t sorted, float* indices) {
  for (std::int64_t k = 0; k < count; ++k) indices[k] = as_index(k);
  for (std::int64_t r = 0; r < sorted; ++r) {
    std::int64_t best = r;
    for (std::int64_t k = r + 1; k < count; ++k) {
      const std::int64_t i = index_at(indices, k), b = index_at(indices, best);
      if (values[i] > values[b] || (values[i] == values[b] && i < b)) best = k;
    }
    const float chosen = indices[best];
    indices[best] = indices[r];
    indices[r] = chosen;
  }
}

// TFLM's NonMaxSuppressionSingleClassHelper over scores[0, N): the anchors kept, at most `limit`, into
// scratch `selected`; returns their count.
constexpr std::int64_t non_max_suppression(const packing& pk, const detection_fields& f, const float* scores,
                                           std::int64_t limit, float* result) {
  float* kept_scores = result + pk.kept_scores;
  float* kept_anchors = result + pk.kept_anchors;
  float* order = result + pk.order;
  float* active = result + pk.active;
  float* selected = result + pk.selected;
  const float* decoded = result + pk.decoded;
  const float threshold = f.score_threshold(), iou_threshold = f.iou_threshold();
  std::int64_t kept = 0;
  for (std::int64_t i = 0; i < pk.anchors; ++i)
    if (scores[i] >= threshold) {
      kept_scores[kept] = scores[i];
      kept_anchors[kept++] = as_index(i);
    }
  for (std::int64_t k = 0; k < kept; ++k) order[k] = as_index(k);
  merge_sort(order, result + pk.merge, kept,
             [&](float i, float j) { return kept_scores[static_cast<std::int64_t>(i)] > kept_scores[static_cast<std::int64_t>(j)]; });
  const std::int64_t output_size = kept < limit ? kept : limit;
  std::int64_t count = 0, candidates = kept;
  for (std::int64_t k = 0; k < kept; ++k) active[k] = 1.0f;
  for (std::int64_t i = 0; i < kept; ++i) {
    if (candidates == 0 || count >= output_size) break;
    if (active[i] == 0.0f) continue;
    const std::int64_t anchor = index_at(kept_anchors, index_at(order, i));
    selected[count++] = as_index(anchor);
    active[i] = 0.0f;
    --candidates;
    for (std::int64_t j = i + 1; j < kept; ++j)
      if (active[j] != 0.0f &&
          intersection_over_union(decoded, anchor, index_at(kept_anchors, index_at(order, j))) > iou_threshold) {
        active[j] = 0.0f;
        --candidates;
      }
  }
  return count;
}

// One output entry: anchor's decoded box, a class and its score (entries past the capacity, which the importer
// rules out, are not written).
constexpr void put_entry(const packing& pk, float* result, std::int64_t at, std::int64_t anchor, std::int64_t class_id,
                         float score) {
  if (at < 0 || at >= pk.capacity) return;
  for (std::int64_t c = 0; c < 4; ++c) result[pk.boxes + 4 * at + c] = result[pk.decoded + 4 * anchor + c];
  result[pk.class_ids + at] = static_cast<float>(class_id);
  result[pk.scores + at] = score;
}

// TFLM's NonMaxSuppressionMultiClassFastHelper: each anchor ranked by its best class, the classes_per_detection
// best of each anchor kept.
constexpr void fast_nms(const packing& pk, const detection_fields& f, float* result) {
  const std::int64_t per_anchor = f.classes_per_detection, offset = pk.columns - pk.classes;
  const float* scores = result + pk.all_scores;
  float* best = result + pk.candidates;
  float* class_order = result + pk.class_order;
  // the partial sort permutes all `classes` indices (in class_sort); the first per_anchor are kept
  for (std::int64_t row = 0; row < pk.anchors; ++row) {
    const float* row_scores = scores + row * pk.columns + offset;
    float* sorted = result + pk.class_sort;
    decreasing_partial_arg_sort(row_scores, pk.classes, per_anchor, sorted);
    for (std::int64_t col = 0; col < per_anchor; ++col) class_order[row * per_anchor + col] = sorted[col];
    best[row] = row_scores[index_at(sorted, 0)];
  }
  const std::int64_t selected = non_max_suppression(pk, f, best, f.max_detections, result);
  std::int64_t written = 0;
  for (std::int64_t i = 0; i < selected; ++i) {
    const std::int64_t anchor = index_at(result + pk.selected, i);
    for (std::int64_t col = 0; col < per_anchor; ++col) {
      const std::int64_t class_id = index_at(class_order, anchor * per_anchor + col);
      put_entry(pk, result, per_anchor * written + col, anchor, class_id, scores[anchor * pk.columns + offset + class_id]);
      ++written;
    }
  }
  result[pk.count] = static_cast<float>(written);
}

// TFLM's NonMaxSuppressionMultiClassRegularHelper: non-max suppression per class, the max_detections best
// (anchor, class) entries kept across classes.
constexpr void regular_nms(const packing& pk, const detection_fields& f, float* result) {
  const std::int64_t offset = pk.columns - pk.classes, detections = f.max_detections;
  const float* scores = result + pk.all_scores;
  float* class_scores = result + pk.candidates;
  float* entries = result + pk.entries;
  float* entry_scores = result + pk.entry_scores;
  float* entry_order = result + pk.entry_order;
  std::int64_t sorted = 0;
  for (std::int64_t col = 0; col < pk.classes; ++col) {
    for (std::int64_t row = 0; row < pk.anchors; ++row) class_scores[row] = scores[row * pk.columns + col + offset];
    const std::int64_t selected = non_max_suppression(pk, f, class_scores, f.detections_per_class, result);
    std::int64_t at = sorted;
    for (std::int64_t i = 0; i < selected; ++i) {
      const std::int64_t anchor = index_at(result + pk.selected, i);
      entries[at] = as_index(anchor * pk.columns + col + offset);
      entry_scores[at++] = class_scores[anchor];
    }
    const std::int64_t keep = at < detections ? at : detections;
    decreasing_partial_arg_sort(entry_scores, at, keep, entry_order);
    for (std::int64_t r = 0; r < keep; ++r) {
      result[pk.moved_entries + r] = entries[index_at(entry_order, r)];
      result[pk.moved_scores + r] = entry_scores[index_at(entry_order, r)];
    }
    for (std::int64_t r = 0; r < keep; ++r) {
      entries[r] = result[pk.moved_entries + r];
      entry_scores[r] = result[pk.moved_scores + r];
    }
    sorted = keep;
  }
  for (std::int64_t r = 0; r < sorted; ++r) {
    const std::int64_t entry = index_at(entries, r), anchor = entry / pk.columns;
    put_entry(pk, result, r, anchor, entry - anchor * pk.columns - offset, entry_scores[r]);
  }
  result[pk.count] = static_cast<float>(sorted);
}

}  // namespace detail

// The kernel: operands box encodings [1, N, >= 4], class predictions [1, N, classes (+ 1)], anchors [N, 4]
// (y, x, h, w), each float32 or int8 (Box, Scores, Anchor); p->detection() its options, p->detection_operands() the
// operands' quantization, p->in and p->in2 the first two operands' extents.
template <class Box, class Scores, class Anchor, class Params>
constexpr void run(Params p, const Box* box_encodings, const Scores* class_predictions, const Anchor* anchors, float* result) {
  const detection_fields& f = p->detection();
  const packing pk(p->in, p->in2, f);
  for (std::int64_t k = 0; k < pk.decoded; ++k) result[k] = 0.0f;
  const detection_operand_fields& q = p->detection_operands();
  const auto operand_value = [&](const auto* x, std::int64_t k, std::size_t operand) {
    return detail::value_of(x, k, std::bit_cast<float>(q.scale_bits[operand]), q.zero_points[operand]);
  };
  // DecodeCenterSizeBoxes (in double, as TFLM: y / y_scale * anchor h + anchor y, 0.5 * exp(h / h_scale) * anchor h).
  const double sy = f.scale(0), sx = f.scale(1), sh = f.scale(2), sw = f.scale(3);
  for (std::int64_t i = 0; i < pk.anchors; ++i) {
    const std::int64_t at = i * pk.encoding;
    const double y = operand_value(box_encodings, at, 0), x = operand_value(box_encodings, at + 1, 0),
                 h = operand_value(box_encodings, at + 2, 0), w = operand_value(box_encodings, at + 3, 0);
    const double ay = operand_value(anchors, 4 * i, 2), ax = operand_value(anchors, 4 * i + 1, 2),
                 ah = operand_value(anchors, 4 * i + 2, 2), aw = operand_value(anchors, 4 * i + 3, 2);
    // The product and the sum as two statements: a compiler that contracts a * b + c into one fused
    // multiply-add within an expression (clang's default) would round once where TFLM rounds twice.
    const double y_offset = y / sy * ah, x_offset = x / sx * aw;
    const auto y_center = static_cast<float>(y_offset + ay);
    const auto x_center = static_cast<float>(x_offset + ax);
    const auto half_h = static_cast<float>(0.5 * ctnn::detail::math::either::exp(h / sh) * ah);
    const auto half_w = static_cast<float>(0.5 * ctnn::detail::math::either::exp(w / sw) * aw);
    float* box = result + pk.decoded + 4 * i;
    box[0] = y_center - half_h;
    box[1] = x_center - half_w;
    box[2] = y_center + half_h;
    box[3] = x_center + half_w;
  }
  for (std::int64_t k = 0; k < pk.anchors * pk.columns; ++k) result[pk.all_scores + k] = operand_value(class_predictions, k, 1);
  if (f.regular_nms != 0)
    detail::regular_nms(pk, f, result);
  else
    detail::fast_nms(pk, f, result);
}

}  // namespace ctnn::kernel::reference::detection
