#pragma once
// The TFLite importer's spatial ops (import.hpp; rows in import_plan.hpp's op_table): RESIZE_NEAREST_NEIGHBOR
// and RESIZE_BILINEAR (ops/resize.hpp, TFLM's coordinates), MIRROR_PAD (a pad in mode reflect or symmetric),
// SPACE_TO_BATCH_ND (a pad, then a reshape, a transpose and a reshape) and BATCH_TO_SPACE_ND (a reshape, a
// transpose and a reshape, then a slice: the crops), BROADCAST_TO (a reshape, then a tile), ADD_N and
// L2_NORMALIZATION. All but RESIZE_BILINEAR and ADD_N move bytes
// only: an int8 result is its input's bytes whatever the two tensors' quantization says, as in TFLM, whose
// kernels copy.
#include <bit>
#include <cstdint>

#include <ctnn/frontend/flatbuffers.hpp>
#include <ctnn/frontend/tflite/import_operands.hpp>
#include <ctnn/frontend/tflite/import_shape_ops.hpp>
#include <ctnn/frontend/tflite/schema.hpp>
#include <ctnn/ir/module.hpp>

namespace ctnn::tflite::detail {

// RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR as TFLM's Prepare takes them: a rank-4 input, a constant int32
// size [height, width]; align_corners and half_pixel_centers (RESIZE_BILINEAR refuses both, as TFLM does).
template <class S>
constexpr void import_resize(S& s, op_import& im) {
  const bool nearest = im.plan.code == builtin_operator::resize_nearest_neighbor;
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const shape in = sliced_input(s, im, 0);
  if (s.failed() || !expect_rank(s, im.op, im.plan, im.inputs[0], 4)) return;
  const std::int32_t size = constant_i32_vector(s, im, 1, 2);
  if (size < 0) return;
  const std::int32_t height = constant_i32(s, size, 0), width = constant_i32(s, size, 1);
  if (height < 1 || width < 1)
    return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                  {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 1});
  flatbuffers::reader& r = s.f.reader();
  const std::uint32_t align_field = nearest ? schema::resize_nearest_neighbor::align_corners : schema::resize_bilinear::align_corners;
  const std::uint32_t half_field =
      nearest ? schema::resize_nearest_neighbor::half_pixel_centers : schema::resize_bilinear::half_pixel_centers;
  const bool align_corners = r.scalar<std::uint8_t>(im.plan.options, align_field, 0) != 0;
  const bool half_pixel_centers = r.scalar<std::uint8_t>(im.plan.options, half_field, 0) != 0;
  if (s.take_reader_error()) return;
  if (!nearest && align_corners && half_pixel_centers) return option_error(s, im, half_field, 1);
  // TFLM's integer bilinear path computes 1024 * extent in int32: extents from 2^20 on would overflow it.
  constexpr std::int32_t integer_path_limit = 1 << 20;
  if (!nearest && s.m.tensor_at(im.inputs[0]).type == dtype::i8 &&
      (in[1] >= integer_path_limit || in[2] >= integer_path_limit || height >= integer_path_limit || width >= integer_path_limit))
    return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                  {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 1});
  const shape out = make_shape(in[0], height, width, in[3]);
  if (!expect_output_shape(s, im, im.out, out)) return;
  im.attrs.target = out;
  resize_fields f{};
  f.coordinates = resize_coordinates::tflite;
  f.tflite_options = (align_corners ? resize_fields::align_corners_bit : 0u) |
                     (half_pixel_centers ? resize_fields::half_pixel_centers_bit : 0u);
  f.resized_axes = 0b0110u;  // H and W of NHWC
  im.attrs.set(f);
}

// MIRROR_PAD (mode REFLECT or SYMMETRIC; constant int32 or int64 paddings [rank, 2], as TFLM reads): each pad
// at most the extent less one (REFLECT) or the extent (SYMMETRIC), where TFLM's GetInputDimension mirrors once.
template <class S>
constexpr void import_mirror_pad(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const shape in = sliced_input(s, im, 0);
  const std::int32_t pads = s.failed() ? -1 : operand(s, im.view, 1);
  if (s.failed()) return;
  const tensor& given = s.m.tensor_at(pads);
  if (given.role != tensor_role::constant || (given.type != dtype::i32 && given.type != dtype::i64) ||
      given.dims.elements() != 2 * std::int64_t{in.rank})
    return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                  {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 1});
  const std::int32_t mode = s.f.reader().template scalar<std::int8_t>(im.plan.options, schema::mirror_pad::mode, 0);
  if (s.take_reader_error()) return;
  if (mode != 0 && mode != 1) return option_error(s, im, schema::mirror_pad::mode, mode);
  im.attrs.pad.mode = mode == 0 ? pad_mode::reflect : pad_mode::symmetric;
  for (std::int32_t k = 0; k < 2 * in.rank; ++k) {
    const std::int64_t pad = given.type == dtype::i32 ? constant_i32(s, pads, k)
                                                      : load_le<std::int64_t>(given.data.bytes, static_cast<std::size_t>(8 * k));
    if (pad < 0 || pad > in[k / 2] - (mode == 0 ? 1 : 0))
      return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                    {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 1});
    im.attrs.pad.before_after[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(pad);
  }
}

// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND as TFLM runs them: a rank-3 ([N, H, C]: one block dim) or rank-4
// ([N, H, W, C]: two) input, constant int32 block_shape (each >= 1) and paddings or crops ([dims, 2], each
// >= 0). Block (by, bx) of batch b is result batch (by * bx_count + bx) * N + b (TensorFlow's order), so with
// H and W padded to Hp, Wp:
//   SPACE_TO_BATCH_ND: pad, [N, Hp/by, by, Wp/bx, bx, C] -> perm (2, 4, 0, 1, 3, 5) -> [by*bx*N, Hp/by, Wp/bx, C];
//   BATCH_TO_SPACE_ND: [by, bx, N, H, W, C] -> perm (2, 3, 0, 4, 1, 5) -> [N, H*by, W*bx, C], then the crops.
// A rank-3 tensor runs as [N, H, 1, C] with bx 1. SPACE_TO_BATCH_ND pads with 0, int8 with the output's zero
// point (TFLite's SpaceToBatchParams::output_offset; TFLM's Prepare leaves that field unset, so it pads with
// whatever its arena holds there: 0 in a fresh arena, which equals this for zero point 0 only).
template <class S>
constexpr void import_space_batch(S& s, op_import& im) {
  const bool to_batch = im.plan.code == builtin_operator::space_to_batch_nd;
  if (!expect_inputs(s, im.op, im.plan, im.view, 3, 3)) return;
  const shape given = sliced_input(s, im, 0);
  if (s.failed()) return;
  if (given.rank != 3 && given.rank != 4)
    return s.fail(error_code::unsupported_rank, im.op, im.plan.kind, {.rank_expected = 4, .rank_actual = given.rank}, {}, given);
  const std::int32_t spatial = given.rank - 2;
  const std::int32_t block = constant_i32_vector(s, im, 1, spatial);
  const std::int32_t margins = block < 0 ? -1 : constant_i32_vector(s, im, 2, 2 * std::int64_t{spatial});
  if (margins < 0) return;
  const shape in = make_shape(given[0], given[1], spatial == 2 ? given[2] : 1, given[given.rank - 1]);
  std::array<std::int32_t, 2> b{1, 1};
  std::array<std::int32_t, 4> m{};  // top, bottom, left, right
  for (std::int32_t d = 0; d < spatial; ++d) {
    b[static_cast<std::size_t>(d)] = constant_i32(s, block, d);
    m[static_cast<std::size_t>(2 * d)] = constant_i32(s, margins, 2 * d);
    m[static_cast<std::size_t>(2 * d + 1)] = constant_i32(s, margins, 2 * d + 1);
  }
  const auto operand_error = [&](std::uint32_t slot) {
    s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
           {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = slot});
  };
  for (std::int32_t d = 0; d < 2; ++d)
    if (b[static_cast<std::size_t>(d)] < 1 || b[static_cast<std::size_t>(d)] > max_window_value) return operand_error(1);
  for (const std::int32_t margin : m)
    if (margin < 0 || margin > max_window_value) return operand_error(2);
  const std::int64_t blocks = std::int64_t{b[0]} * b[1];
  const name label = numbered(to_batch ? "space_to_batch_nd" : "batch_to_space_nd", static_cast<std::size_t>(im.op));
  if (to_batch) {
    const std::int64_t padded_h = std::int64_t{in[1]} + m[0] + m[1], padded_w = std::int64_t{in[2]} + m[2] + m[3];
    // The padded tensor's elements, each factor checked before the next multiplies (no overflow).
    std::int64_t padded_elements = 1;
    for (const std::int64_t factor : {std::int64_t{in[0]}, std::int64_t{in[3]}, padded_h, padded_w})
      padded_elements = padded_elements > (std::int64_t{1} << 30) ? padded_elements : padded_elements * factor;
    if (padded_h % b[0] != 0 || padded_w % b[1] != 0 || padded_elements > (std::int64_t{1} << 30)) return operand_error(2);
    const auto h = static_cast<std::int32_t>(padded_h / b[0]), w = static_cast<std::int32_t>(padded_w / b[1]);
    const shape out4 = make_shape(static_cast<std::int32_t>(in[0] * blocks), h, w, in[3]);
    const shape out = spatial == 2 ? out4 : make_shape(out4[0], h, in[3]);
    if (!expect_output_shape(s, im, im.out, out)) return;
    pad_fields zero{};
    zero.before_after = {0, 0, m[0], m[1], m[2], m[3], 0, 0};
    const shape padded = make_shape(in[0], static_cast<std::int32_t>(padded_h), static_cast<std::int32_t>(padded_w), in[3]);
    const shape grouped = make_shape(in[0], h, b[0], w, b[1], in[3]);
    const shape moved = make_shape(b[0], b[1], in[0], h, w, in[3]);
    const std::int32_t as4 = s.add_tensor_like(im.out, in, label);
    if (as4 < 0 || !s.reshape(im.inputs[0], as4, in, label)) return;
    const std::int32_t with_pads = s.add_tensor_like(im.out, padded, label);
    if (with_pads < 0 || !s.pad(as4, with_pads, zero, label)) return;
    const std::int32_t blocked = s.add_tensor_like(im.out, grouped, label);
    if (blocked < 0 || !s.reshape(with_pads, blocked, grouped, label)) return;
    const std::int32_t batched = s.add_tensor_like(im.out, moved, label);
    if (batched < 0 || !s.transpose(blocked, batched, transpose_fields{{2, 4, 0, 1, 3, 5}}, label)) return;
    im.inputs[0] = batched;
    im.attrs.target = out;
    return;
  }
  if (in[0] % blocks != 0) return operand_error(1);
  const auto n = static_cast<std::int32_t>(in[0] / blocks);
  const std::int64_t full_h = std::int64_t{in[1]} * b[0], full_w = std::int64_t{in[2]} * b[1];
  if (m[0] + m[1] >= full_h || m[2] + m[3] >= full_w) return operand_error(2);
  const auto h = static_cast<std::int32_t>(full_h - m[0] - m[1]), w = static_cast<std::int32_t>(full_w - m[2] - m[3]);
  const shape out = spatial == 2 ? make_shape(n, h, w, in[3]) : make_shape(n, h, in[3]);
  if (!expect_output_shape(s, im, im.out, out)) return;
  const shape grouped = make_shape(b[0], b[1], n, in[1], in[2], in[3]);
  const shape moved = make_shape(n, in[1], b[0], in[2], b[1], in[3]);
  const shape spread = make_shape(n, static_cast<std::int32_t>(full_h), static_cast<std::int32_t>(full_w), in[3]);
  const std::int32_t blocked = s.add_tensor_like(im.out, grouped, label);
  if (blocked < 0 || !s.reshape(im.inputs[0], blocked, grouped, label)) return;
  const std::int32_t interleaved = s.add_tensor_like(im.out, moved, label);
  if (interleaved < 0 || !s.transpose(blocked, interleaved, transpose_fields{{2, 3, 0, 4, 1, 5}}, label)) return;
  const std::int32_t whole = s.add_tensor_like(im.out, spread, label);
  if (whole < 0 || !s.reshape(interleaved, whole, spread, label)) return;
  im.inputs[0] = whole;
  slice_fields crop = slice_fields::whole(spread);
  crop.begin[1] = m[0];
  crop.begin[2] = m[2];
  crop.extent[1] = h;
  crop.extent[2] = w;
  im.attrs.slice = crop;
  im.attrs.target = out;
}

// BROADCAST_TO as TFLM's Prepare takes it: a constant int32 or int64 shape of at most 5 extents, no fewer
// than the input's rank; each input extent (aligned at the end) 1 or the shape's. A reshape adding the
// leading unit dims (a view), then a tile.
template <class S>
constexpr void import_broadcast_to(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, 2)) return;
  const shape in = sliced_input(s, im, 0);
  if (s.failed()) return;
  const auto refuse = [&] {
    s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
           {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = 1});
  };
  const std::int32_t shape_id = operand(s, im.view, 1);
  if (s.failed()) return;
  if (shape_id < 0) return refuse();  // an omitted shape (g++ -O3 saw tensor_at(-1) on this path)
  const tensor& given = s.m.tensor_at(shape_id);
  // (a shape computed at import, BROADCAST_ARGS' or SHAPE's, is read from the importer's store: import_known.hpp)
  const bool known = s.is_known(shape_id);
  if ((given.role != tensor_role::constant && !known) || (given.type != dtype::i32 && given.type != dtype::i64) || given.dims.rank != 1 ||
      given.dims[0] < in.rank || given.dims[0] > 5)
    return refuse();
  shape out{}, padded{};
  out.rank = padded.rank = given.dims[0];
  const std::int32_t added = out.rank - in.rank;
  for (std::int32_t d = 0; d < out.rank; ++d) {
    const std::int64_t extent = known ? s.known_at(shape_id, d)
                                : given.type == dtype::i32 ? constant_i32(s, shape_id, d)
                                                         : load_le<std::int64_t>(given.data.bytes, static_cast<std::size_t>(8 * d));
    const std::int32_t from = d < added ? 1 : in[d - added];
    if (extent < 1 || extent > (std::int64_t{1} << 24) || (from != 1 && from != extent)) return refuse();
    out.dims[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(extent);
    padded.dims[static_cast<std::size_t>(d)] = from;
  }
  if (checked_elements(out) < 0) return refuse();
  if (!expect_output_shape(s, im, im.out, out)) return;
  const name label = numbered("broadcast_to", static_cast<std::size_t>(im.op));
  const std::int32_t aligned = s.add_tensor_like(im.out, padded, label);
  if (aligned < 0 || !s.reshape(im.inputs[0], aligned, padded, label)) return;
  im.inputs[0] = aligned;
  im.attrs.target = out;
}

// ADD_N: 2 or more operands of one shape (add_n's shape rule); int8 ones all quantized as the first (TFLM's
// Prepare checks it). More than max_node_inputs float32 operands: add_n nodes chained (operands_in_tree), which
// add in TFLM's order (0 plus each input in turn), so the sum is the same to the bit; int8 ones are refused
// there (input_count_mismatch): an inner sum requantized to the output's scale would round where TFLM does not.
template <class S>
constexpr void import_add_n(S& s, op_import& im) {
  const std::uint32_t count = im.view.inputs.length;
  const std::int32_t first_operand = count >= 2 ? operand(s, im.view, 0) : -1;
  if (s.failed()) return;
  const bool chained = count > max_node_inputs && s.m.tensor_at(first_operand).type == dtype::f32;
  if (!expect_inputs(s, im.op, im.plan, im.view, 2, chained ? count : static_cast<std::uint32_t>(max_node_inputs))) return;
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::int32_t id = operand(s, im.view, k);
    if (s.failed()) return;
    const quantization& first = s.m.tensor_at(first_operand).quant;
    const quantization& here = s.m.tensor_at(id).quant;
    if (s.m.tensor_at(id).type == dtype::i8 && (here.scale != first.scale || here.zero_point != first.zero_point))
      return s.fail(frontend_error::tflite_unsupported_operand, im.op, im.plan.kind,
                    {.operator_code = static_cast<std::int64_t>(im.plan.code), .input_slot = k});
    if (!chained) im.inputs[k] = id;
  }
  if (!chained) {
    im.input_count = static_cast<std::int32_t>(count);
    return;
  }
  const shape dims = s.m.tensor_at(im.out).dims;
  operands_in_tree(s, im, frontend_detail::operand_tree::chained,
                   [&](const std::array<std::int32_t, max_node_inputs>&, std::uint32_t) { return dims; });
}

// L2_NORMALIZATION as TFLM's Prepare takes it: rank 4 at most, no fused activation; the last axis, epsilon
// 1e-6 (its Eval's).
template <class S>
constexpr void import_l2_normalization(S& s, op_import& im) {
  if (!expect_inputs(s, im.op, im.plan, im.view, 1, 1)) return;
  const shape in = sliced_input(s, im, 0);
  if (s.failed()) return;
  if (in.rank < 1 || in.rank > 4)
    return s.fail(error_code::unsupported_rank, im.op, im.plan.kind, {.rank_expected = 4, .rank_actual = in.rank}, {}, in);
  const auto fused = s.f.reader().template scalar<std::int8_t>(im.plan.options, schema::l2_norm::fused_activation, 0);
  if (s.take_reader_error()) return;
  if (fused != 0) return option_error(s, im, schema::l2_norm::fused_activation, fused);
  im.attrs.norm = {in.rank - 1, std::bit_cast<std::uint32_t>(1e-6f)};
}

}  // namespace ctnn::tflite::detail
