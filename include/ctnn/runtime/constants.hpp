#pragma once
// Constants created by passes, materialised at compile time: one `inline constexpr` array per (module,
// tensor), computed in a constant evaluation of its own and placed in .rodata (docs/design.md §2). Constants the
// passes did not touch stay where they are (the user's arrays, zero-copy).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <ctnn/detail/constant_alignment.hpp>
#include <ctnn/detail/math.hpp>
#include <ctnn/ir/little_endian.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/kernel/dispatch.hpp>

namespace ctnn {

namespace detail {
template <auto& M, std::int32_t T>
constexpr auto materialize_constant();
template <auto& M, std::int32_t T>
constexpr auto materialize_f32();
}

// The values of a recipe constant: an array of float (of int8 or int32 for an integer concatenation that
// fold_constants folds, pass::fold_constants::integer_copy), in .rodata.
template <auto& M, std::int32_t T>
alignas(detail::constant_alignment<decltype(detail::materialize_constant<M, T>())>) inline constexpr auto constant_values_v =
    detail::materialize_constant<M, T>();

namespace detail {
// A float32 constant stored as bytes in an embedded model file, decoded once into an array so that
// constant evaluation can read it (reinterpret_cast is not allowed there).
template <auto& M, std::int32_t T>
constexpr auto decode_f32() {
  constexpr const tensor& info = M.tensor_at(T);
  std::array<float, static_cast<std::size_t>(info.dims.elements())> values{};
  load_le_elements(info.data.bytes, 0, values.size(), sizeof(float), values);
  return values;
}
}  // namespace detail

template <auto& M, std::int32_t T>
alignas(detail::constant_alignment<decltype(detail::decode_f32<M, T>())>) inline constexpr auto decoded_f32_v =
    detail::decode_f32<M, T>();

// The float32 values of constant tensor T of module M, readable in constant evaluation, whether a
// pass made them, the user wrote them or a model file holds them.
template <auto& M, std::int32_t T>
constexpr const float* constant_data_of() {
  constexpr const tensor& info = M.tensor_at(T);
  if constexpr (info.recipe >= 0) return constant_values_v<M, T>.data();
  else if constexpr (info.data.f32 != nullptr) return info.data.f32;
  else return decoded_f32_v<M, T>.data();
}

namespace detail {

// A recipe tensor's own stored values (user array or model bytes), which its recipe transforms.
template <auto& M, std::int32_t T>
constexpr const float* raw_data_of() {
  if constexpr (M.tensor_at(T).data.f32 != nullptr) return M.tensor_at(T).data.f32;
  else return decoded_f32_v<M, T>.data();
}

// An operand slot of a folded op: its constant's data, or nullptr for an empty slot (a missing bias).
template <auto& M, std::int32_t T>
constexpr const float* operand_data() {
  if constexpr (T < 0) return nullptr;
  else return constant_data_of<M, T>();
}

// The integers of constant tensor T (int8 or int32): its user array or its model file's bytes, decoded.
template <auto& M, std::int32_t T, class Integer>
constexpr void copy_integers(Integer* out) {
  constexpr const tensor& info = M.tensor_at(T);
  constexpr auto elements = static_cast<std::size_t>(info.dims.elements());
  if constexpr (info.recipe >= 0) {
    for (std::size_t k = 0; k < elements; ++k) out[k] = constant_values_v<M, T>[k];
  } else if constexpr (std::is_same_v<Integer, std::int8_t> && info.data.i8 != nullptr) {
    for (std::size_t k = 0; k < elements; ++k) out[k] = info.data.i8[k];
  } else if constexpr (std::is_same_v<Integer, std::int32_t> && info.data.i32 != nullptr) {
    for (std::size_t k = 0; k < elements; ++k) out[k] = info.data.i32[k];
  } else {
    std::array<Integer, elements> decoded{};
    load_le_elements(info.data.bytes, 0, elements, sizeof(Integer), decoded);
    for (std::size_t k = 0; k < elements; ++k) out[k] = decoded[k];
  }
}

template <auto& M, std::int32_t T>
constexpr auto materialize_constant() {
  constexpr const tensor& info = M.tensor_at(T);
  constexpr const constant_recipe& recipe = M.recipes[static_cast<std::size_t>(info.recipe)];
  constexpr auto elements = static_cast<std::size_t>(info.dims.elements());
  if constexpr (info.type == dtype::i8 || info.type == dtype::i32) {
    // fold_constants' integer concatenation: its operands' integers one after the other.
    using integer = std::conditional_t<info.type == dtype::i8, std::int8_t, std::int32_t>;
    std::array<integer, elements> values{};
    std::size_t at = 0;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((copy_integers<M, recipe.operands[K]>(values.data() + at),
        at += static_cast<std::size_t>(M.tensor_at(recipe.operands[K]).dims.elements())),
       ...);
    }(std::make_index_sequence<static_cast<std::size_t>(recipe.operand_count)>{});
    return values;
  } else {
    return materialize_f32<M, T>();
  }
}

template <auto& M, std::int32_t T>
constexpr auto materialize_f32() {
  constexpr const tensor& info = M.tensor_at(T);
  constexpr const constant_recipe& recipe = M.recipes[static_cast<std::size_t>(info.recipe)];
  constexpr auto elements = static_cast<std::size_t>(info.dims.elements());
  std::array<float, elements> values{};
  if constexpr (recipe.kind == recipe_kind::evaluate_op) {
    // The op's own reference kernel, run by the compiler on its (possibly folded) constant operands.
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      const float* const operands[] = {operand_data<M, recipe.operands[K]>()..., nullptr};
      kernel::invoke_f32<recipe.params()>(operands, values.data());
    }(std::make_index_sequence<static_cast<std::size_t>(recipe.operand_count)>{});
  } else {
    const float* scale = constant_data_of<M, recipe.operands[1]>();
    const float* own = raw_data_of<M, T>();  // this tensor's own values, before the recipe
    const float* offset = own;         // own_data_is_offset: this tensor is the batch norm's offset
    if constexpr (!recipe.own_data_is_offset) offset = constant_data_of<M, recipe.operands[2]>();
    const float* mean = constant_data_of<M, recipe.operands[3]>();
    const float* variance = constant_data_of<M, recipe.operands[4]>();
    const double epsilon = recipe.epsilon;
    // scale / sqrt(variance + epsilon) once per channel, then call-free loops over the elements (no
    // division or remainder per element: clang counts every step, docs/design.md §6).
    constexpr bool weights = recipe.kind == recipe_kind::batch_norm_weights;
    constexpr std::size_t channels = weights ? static_cast<std::size_t>(recipe.channel_count) : elements;
    std::array<double, channels> factors{};
    for (std::size_t c = 0; c < channels; ++c) factors[c] = scale[c] / math::sqrt(static_cast<double>(variance[c]) + epsilon);
    const double* factor = factors.data();
    float* out = values.data();
    if constexpr (weights) {
      // Element i belongs to channel (i / channel_stride) % channel_count: [outer][channels][stride].
      constexpr auto stride = static_cast<std::size_t>(recipe.channel_stride);
      static_assert(channels > 0 && stride > 0 && elements % (channels * stride) == 0,
                    "ctnn: a batch_norm_weights recipe's channels do not tile its tensor.");
      for (std::size_t outer = 0; outer < elements / (channels * stride); ++outer)
        for (std::size_t c = 0; c < channels; ++c)
          for (std::size_t k = 0; k < stride; ++k) *out++ = static_cast<float>(*own++ * factor[c]);
    } else {
      for (std::size_t c = 0; c < channels; ++c) {
        const double bias = recipe.own_data_is_offset ? 0.0 : own[c];
        *out++ = static_cast<float>((bias - mean[c]) * factor[c] + offset[c]);
      }
    }
  }
  return values;
}

}  // namespace detail

}  // namespace ctnn
