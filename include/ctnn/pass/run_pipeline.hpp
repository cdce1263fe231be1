#pragma once
// ctnn::run_pipeline<Pipeline>(module): every pass of a pipeline on a module, in order, as one function
// call: what a tool does at run time with a module a frontend read from a file (the same passes as
// ctnn::compile, which runs them at compile time, one constant evaluation per pass). A pass whose
// prerequisite facts are missing, or an earlier failure, stops the run: the module then carries the
// diagnostic (module::error). Usable in constant evaluation too.
//
//   auto m = ctnn::run_pipeline(imported_module);                       // ctnn::default_pipeline
//   auto m = ctnn::run_pipeline<ctnn::insert_before<ctnn::pass::lower_te, my_pass>>(imported_module);
#include <cstddef>
#include <utility>

#include <ctnn/pass/pipeline.hpp>

namespace ctnn {

template <class Pipeline = default_pipeline, class Module>
constexpr Module run_pipeline(Module m) {
  [&m]<std::size_t... K>(std::index_sequence<K...>) {
    ((m = detail::apply_pass<typename Pipeline::template pass<K>>(m, K)), ...);
  }(std::make_index_sequence<Pipeline::size>{});
  return m;
}

}  // namespace ctnn
