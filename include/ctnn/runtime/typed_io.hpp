#pragma once
// Typed buffers for an executor's inputs and outputs (docs/design.md §5), beside the pointer form of run():
//
//   auto io = net::make_buffers();          // std::arrays of each tensor's element type and count
//   std::get<0>(io.inputs).fill(0);         // or io.input<0>()
//   net::run(io);
//   auto scores = io.output<0>();           // std::array<std::int8_t, net::output<0>::elements>
//
// Only the tensors run() takes a buffer for are here (all of them unless ctnn::io_in_arena). The arrays
// live where the caller puts `io` (on the stack by default; `static` puts them in .bss).
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace ctnn {

namespace detail {

// The array type of external tensor K of executor Net (Net::external lists inputs, then outputs).
template <class Net, std::size_t K>
struct external_array {
  static constexpr std::size_t index = Net::external[K][1];
  using io = std::conditional_t<Net::external[K][0] == 0, typename Net::template input<index>,
                                typename Net::template output<index>>;
  static_assert(!io::streamed, "ctnn::executor::make_buffers: a streamed input (ctnn::streamed_input) has no buffer; call "
                               "net::run(&row_source, outputs...) with pointers instead.");
  using type = std::array<typename io::element_type, io::elements>;
};

template <class Net, std::size_t First, std::size_t... K>
auto external_arrays(std::index_sequence<K...>) -> std::tuple<typename external_array<Net, First + K>::type...>;

}  // namespace detail

template <class Net>
struct io_buffers {
  using inputs_type = decltype(detail::external_arrays<Net, 0>(std::make_index_sequence<Net::external_inputs>{}));
  using outputs_type =
      decltype(detail::external_arrays<Net, Net::external_inputs>(std::make_index_sequence<Net::external_outputs>{}));

  inputs_type inputs{};
  outputs_type outputs{};

  template <std::size_t I>
  constexpr auto& input() { return std::get<I>(inputs); }
  template <std::size_t I>
  constexpr const auto& input() const { return std::get<I>(inputs); }
  template <std::size_t I>
  constexpr auto& output() { return std::get<I>(outputs); }
  template <std::size_t I>
  constexpr const auto& output() const { return std::get<I>(outputs); }

  // Calls `run` (any of the executor's run functions taking pointers) with every input's, then every
  // output's, first element.
  template <class Run>
  void apply(Run&& run) {
    std::apply([&](auto&... in) { std::apply([&](auto&... out) { run(in.data()..., out.data()...); }, outputs); }, inputs);
  }
};

}  // namespace ctnn
