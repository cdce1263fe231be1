#pragma once
// ctnn::run_pipeline<Pipeline>(module): every pass of a pipeline on a module, in order, as one function
// call: what a tool does at run time with a module a frontend read from a file (the same passes as
// ctnn::compile, which runs them at compile time, one constant evaluation per pass). A pass whose
// prerequisite facts are missing, or an earlier failure, stops the run: the module then carries the
// diagnostic (module::error). Usable in constant evaluation too.
//
//   auto m = ctnn::run_pipeline(imported_module);                       // ctnn::default_pipeline
//   auto m = ctnn::run_pipeline<ctnn::insert_before<ctnn::pass::lower_te, my_pass>>(imported_module);
//
// A module can be megabytes (module<4096, 4096> is 7 MB): at run time, keep it on the heap and run the
// passes on it in place, which needs no copy of it on the stack (docs/design.md §2):
//
//   auto m = std::make_unique<ctnn::module<512, 512>>();
//   ctnn::tflite::import_into(*m, bytes, size);
//   ctnn::run_pipeline_in_place(*m);
//   ctnn::run_pipeline_in_place(*m, [](auto pass, std::size_t position, const auto& m) { ... });
//
// The second form calls after_pass(std::type_identity<Pass>{}, position, module) after each pass that
// ran (m.error says whether it failed): how ctnn-inspect names the pass that failed.
#include <cstddef>
#include <type_traits>
#include <utility>

#include <ctnn/pass/pipeline.hpp>

namespace ctnn {

// Every pass of Pipeline on `m`, in place, calling after_pass(std::type_identity<Pass>{}, position, m)
// after each one that ran.
template <class Pipeline = default_pipeline, class Module, class AfterPass>
constexpr void run_pipeline_in_place(Module& m, AfterPass&& after_pass) {
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    const auto step = [&]<class Pass>(std::type_identity<Pass> pass, std::size_t position) {
      if (m.error.failed()) return;
      detail::apply_pass_in_place<Pass>(m, position);
      after_pass(pass, position, static_cast<const Module&>(m));
    };
    (step(std::type_identity<typename Pipeline::template pass<K>>{}, K), ...);
  }(std::make_index_sequence<Pipeline::size>{});
}

// Every pass of Pipeline on `m`, in place.
template <class Pipeline = default_pipeline, class Module>
constexpr void run_pipeline_in_place(Module& m) {
  run_pipeline_in_place<Pipeline>(m, [](auto, std::size_t, const Module&) {});
}

// Every pass of Pipeline on a module value.
template <class Pipeline = default_pipeline, class Module>
constexpr Module run_pipeline(Module m) {
  run_pipeline_in_place<Pipeline>(m);
  return m;
}

}  // namespace ctnn
