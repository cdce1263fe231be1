#pragma once
// Options of DSL layers (kernel size, stride, padding, activation, ...). Each option is a type with a
// static apply() that writes its field of op_attributes; a layer applies its options in one pack
// expansion.
#include <cstdint>
#include <type_traits>

#include <ctnn/ir/attributes.hpp>

namespace ctnn::dsl {

template <std::int32_t H, std::int32_t W = H>
struct kernel {
  static_assert(H > 0 && W > 0, "ctnn::dsl::kernel<H, W>: the window must be at least 1x1.");
  static constexpr void apply(op_attributes& a) { a.win.kernel_h = H, a.win.kernel_w = W; }
};
template <std::int32_t H, std::int32_t W = H>
struct stride {
  static_assert(H > 0 && W > 0, "ctnn::dsl::stride<H, W>: strides must be positive.");
  static constexpr void apply(op_attributes& a) { a.win.stride_h = H, a.win.stride_w = W; }
};
template <std::int32_t H, std::int32_t W = H>
struct dilation {
  static_assert(H > 0 && W > 0, "ctnn::dsl::dilation<H, W>: dilations must be positive.");
  static constexpr void apply(op_attributes& a) { a.win.dilation_h = H, a.win.dilation_w = W; }
};
// TensorFlow's SAME padding: output = ceil(input / stride); an odd pad goes to the bottom/right.
struct same {
  static constexpr void apply(op_attributes& a) { a.win.mode = padding::same; }
};
struct valid {
  static constexpr void apply(op_attributes& a) { a.win.mode = padding::valid; }
};
template <std::int32_t Top, std::int32_t Left, std::int32_t Bottom = Top, std::int32_t Right = Left>
struct pads {
  static_assert(Top >= 0 && Left >= 0 && Bottom >= 0 && Right >= 0, "ctnn::dsl::pads<>: pads must be >= 0.");
  static constexpr void apply(op_attributes& a) {
    a.win.mode = padding::explicit_pads;
    a.win.pad_top = Top, a.win.pad_left = Left, a.win.pad_bottom = Bottom, a.win.pad_right = Right;
  }
};
template <std::int32_t G>
struct groups {
  static_assert(G > 0, "ctnn::dsl::groups<G>: G must be positive.");
  static constexpr void apply(op_attributes& a) { a.groups = G; }
};
template <std::int32_t M>
struct multiplier {
  static_assert(M > 0, "ctnn::dsl::multiplier<M>: the depth multiplier must be positive.");
  static constexpr void apply(op_attributes& a) { a.depth_multiplier = M; }
};
// Output channels/features, for layers without a bias (otherwise the bias length gives them).
template <std::int32_t N>
struct units {
  static_assert(N > 0, "ctnn::dsl::units<N>: N must be positive.");
  static constexpr void apply(op_attributes& a) { a.units = N; }
};

// batch_norm's epsilon as a ratio (a float template argument is g++-only): epsilon<1, 1000> = 1e-3.
// The default is PyTorch's, 1e-5.
template <std::int64_t Numerator, std::int64_t Denominator>
struct epsilon {
  static_assert(Numerator > 0 && Denominator > 0, "ctnn::dsl::epsilon<N, D>: N / D must be positive.");
  static constexpr void apply(op_attributes& a) {
    a.batch_norm.epsilon_bits = std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<double>(Numerator) / static_cast<double>(Denominator)));
  }
};

namespace detail {
template <class T, class = void> struct is_option : std::false_type {};
template <class T>
struct is_option<T, std::void_t<decltype(T::apply(std::declval<op_attributes&>()))>> : std::true_type {};
}  // namespace detail

template <class T>
concept layer_option = detail::is_option<T>::value;

template <class... Options>
constexpr op_attributes attributes_from() {
  op_attributes a{};
  (Options::apply(a), ...);
  return a;
}

}  // namespace ctnn::dsl
