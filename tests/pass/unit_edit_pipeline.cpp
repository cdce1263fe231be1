// Editing the default pipeline (ctnn::insert_before, insert_after, replace, without: pass/edit_pipeline.hpp)
// and running a pipeline as one call (ctnn::run_pipeline: pass/run_pipeline.hpp): the edited lists, a
// compiled model with an inserted pass, and run_pipeline against the compile-time stages.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

#include <doctest/doctest.h>

#include <ctnn/compile.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/pass/edit_pipeline.hpp>
#include <ctnn/pass/run_pipeline.hpp>

#include "test_modules.hpp"

namespace {

namespace pass = ctnn::pass;
using ctnn::pipeline;
using ctnn_test::tiny_cnn;

struct rename_model {  // a pass of one's own: visible in the result
  template <class Module>
  static constexpr Module run(Module m) {
    m.model_name = ctnn::name{"renamed"};
    return m;
  }
};

using after_lowering = ctnn::insert_before<pass::plan_memory<>, rename_model>;
static_assert(std::is_same_v<after_lowering,
                             pipeline<pass::infer_types, pass::fold_constants, pass::fold_batch_norm, pass::fuse_ops,
                                      pass::alias_reshapes, pass::lower_te, rename_model, pass::plan_memory<>,
                                      pass::select_kernels<>, pass::create_function_metadata,
                                      pass::create_executor_metadata, pass::aot_lower_main>>);
static_assert(std::is_same_v<ctnn::insert_after<pass::infer_types, rename_model>::pass<1>, rename_model>);
static_assert(std::is_same_v<ctnn::insert_after<pass::aot_lower_main, rename_model>::pass<11>, rename_model>);
static_assert(std::is_same_v<ctnn::replace<pass::fuse_ops, rename_model>::pass<3>, rename_model> &&
              ctnn::replace<pass::fuse_ops, rename_model>::size == ctnn::default_pipeline::size);
static_assert(ctnn::without<pass::fold_batch_norm>::size == ctnn::default_pipeline::size - 1 &&
              std::is_same_v<ctnn::without<pass::fold_batch_norm>::pass<2>, pass::fuse_ops>);
// Edits compose, on any pipeline.
using two_edits = ctnn::without<pass::fold_constants, ctnn::insert_after<pass::infer_types, rename_model>>;
static_assert(std::is_same_v<two_edits::pass<0>, pass::infer_types> && std::is_same_v<two_edits::pass<1>, rename_model> &&
              std::is_same_v<two_edits::pass<2>, pass::fold_batch_norm>);

// Through ctnn::compile, with memory options given to its plan_memory as usual.
using renamed = ctnn::compile<tiny_cnn, after_lowering, ctnn::pools<ctnn::pool<"sram", 1024>>>;
static_assert(renamed::module.model_name.view() == "renamed" && renamed::arena_bytes == 720 &&
              std::string_view{renamed::module.pools[0].name} == "sram");

// run_pipeline: the same module as the stages ctnn::compile evaluates, in one call.
constexpr auto run = ctnn::run_pipeline(tiny_cnn::build());
static_assert(run.has(ctnn::fact::main_lowered) && run.arena_bytes() == ctnn::compiled_v<tiny_cnn>.arena_bytes() &&
              run.call_count == ctnn::compiled_v<tiny_cnn>.call_count);
static_assert(ctnn::run_pipeline<after_lowering>(tiny_cnn::build()).model_name.view() == "renamed");
// A pass before its prerequisites: the module says which (position 0, fact shapes_inferred missing).
constexpr auto misordered = ctnn::run_pipeline<pipeline<pass::lower_te, pass::infer_types>>(tiny_cnn::build());
static_assert(misordered.error.code == ctnn::error_code::pass_prerequisite_missing && misordered.error.position == 0 &&
              misordered.error.missing_facts == static_cast<std::int64_t>(ctnn::fact::shapes_inferred));

// passes_before / passes_after: the pipeline around one of its passes (how a tool runs one pass its own way).
static_assert(std::is_same_v<ctnn::passes_before<pass::lower_te>,
                             pipeline<pass::infer_types, pass::fold_constants, pass::fold_batch_norm, pass::fuse_ops,
                                      pass::alias_reshapes>>);
static_assert(std::is_same_v<ctnn::passes_after<pass::create_executor_metadata>, pipeline<pass::aot_lower_main>>);
static_assert(ctnn::passes_before<pass::infer_types>::size == 0 && ctnn::passes_after<pass::aot_lower_main>::size == 0);
static_assert(ctnn::passes_before<pass::plan_memory<>>::size + 1 + ctnn::passes_after<pass::plan_memory<>>::size ==
              ctnn::default_pipeline::size);
static_assert(std::is_same_v<ctnn::passes_after<rename_model, after_lowering>::pass<0>, pass::plan_memory<>>);

// run_pipeline_in_place: the passes on a module in place, also a pass that has only the by-value form.
constexpr auto in_place = [] {
  auto m = tiny_cnn::build();
  ctnn::run_pipeline_in_place<after_lowering>(m);
  return m;
}();
static_assert(in_place.model_name.view() == "renamed" && in_place.has(ctnn::fact::main_lowered) &&
              in_place.arena_bytes() == run.arena_bytes());

// An empty pipeline (what lies between two adjacent passes, as a tool splits default_pipeline) leaves the
// module as it was.
constexpr auto untouched = [] {
  auto m = tiny_cnn::build();
  ctnn::run_pipeline_in_place<ctnn::passes_before<pass::plan_memory<>, ctnn::passes_after<pass::lower_te>>>(m);
  return m;
}();
static_assert(ctnn::passes_before<pass::plan_memory<>, ctnn::passes_after<pass::lower_te>>::size == 0 &&
              untouched.node_count == tiny_cnn::build().node_count && !untouched.has(ctnn::fact::shapes_inferred));

TEST_CASE("run_pipeline_in_place on the heap: the compile-time module, each pass seen once in order") {
  using module_type = std::remove_cvref_t<decltype(ctnn::compiled_v<tiny_cnn>)>;
  const auto m = std::make_unique<module_type>(tiny_cnn::build());
  std::size_t seen = 0;
  bool in_order = true;
  ctnn::run_pipeline_in_place(*m, [&](auto, std::size_t position, const module_type& after) {
    in_order = in_order && position == seen++ && !after.error.failed();
  });
  CHECK(seen == ctnn::default_pipeline::size);
  CHECK(in_order);
  CHECK(ctnn_test::same_module(*m, ctnn::compiled_v<tiny_cnn>));
}

TEST_CASE("run_pipeline_in_place stops at the pass that fails and names it to the observer") {
  using misordered_pipeline = pipeline<pass::lower_te, pass::infer_types>;
  using module_type = std::remove_cvref_t<decltype(tiny_cnn::build())>;
  const auto m = std::make_unique<module_type>(tiny_cnn::build());
  std::size_t calls = 0, failed_at = 99;
  bool lower_te_failed = false;
  ctnn::run_pipeline_in_place<misordered_pipeline>(*m, [&]<class Pass>(std::type_identity<Pass>, std::size_t position,
                                                                      const module_type& after) {
    ++calls;
    if (after.error.failed()) {
      failed_at = position;
      lower_te_failed = std::is_same_v<Pass, pass::lower_te>;
    }
  });
  CHECK(calls == 1);  // infer_types does not run after the failure
  CHECK(failed_at == 0);
  CHECK(lower_te_failed);
  CHECK(m->error.code == ctnn::error_code::pass_prerequisite_missing);
}

TEST_CASE("run_pipeline at run time gives the compile-time module") {
  using module_type = std::remove_cvref_t<decltype(ctnn::compiled_v<tiny_cnn>)>;
  const auto built = std::make_unique<module_type>(tiny_cnn::build());
  const auto m = std::make_unique<module_type>(ctnn::run_pipeline(*built));
  CHECK(ctnn_test::same_module(*m, ctnn::compiled_v<tiny_cnn>));
}

}  // namespace
