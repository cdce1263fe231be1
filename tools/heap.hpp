#pragma once
// Large results (modules, imports) built directly in a heap block. new T(make()) initialises the block
// from the prvalue (guaranteed copy elision); std::make_unique<T>(make()) would first materialise the
// result on the stack and copy it: one module-sized object per call in the caller's frame.
#include <memory>

namespace ctnn_tools {

template <class Make>
auto on_heap(Make&& make) {
  using result_type = decltype(make());
  return std::unique_ptr<result_type>(new result_type(make()));
}

}  // namespace ctnn_tools
