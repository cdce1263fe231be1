// ctnn-print-passes: prints the digits demo model (examples/digits/digits_model.hpp) after every pass
// of ctnn::default_pipeline, with ctnn::print_module: stage 0 is the module the DSL built, stage K the
// module after the first K passes. Each stage starts with a line
//   == stage K/N: after <pass> ==
// (stage 0: "== stage 0/N: as built by the frontend =="). docs/passes.md shows the output.
//
//   ctnn-print-passes            every stage
//   ctnn-print-passes K          only stage K
//   ctnn-print-passes --help     the usage on stdout (status 0); a bad argument: the usage on stderr, status 2
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <ctnn/print/printer.hpp>
#include <ctnn/pass/pipeline.hpp>

#include "command_line.hpp"
#include "digits_model.hpp"

namespace {

using pipeline = ctnn::default_pipeline;

template <class T> struct is_plan_memory : std::false_type {};
template <class Algorithm> struct is_plan_memory<ctnn::pass::plan_memory<Algorithm>> : std::true_type {};

// A pass's name: its own `static constexpr const char* name` if it has one, else the default pipeline's
// names (the pass headers do not name themselves).
template <class Pass>
constexpr std::string_view pass_name() {
  namespace pass = ctnn::pass;
  if constexpr (requires { std::string_view{Pass::name}; }) return Pass::name;
  else if constexpr (std::is_same_v<Pass, pass::infer_types>) return "infer_types";
  else if constexpr (std::is_same_v<Pass, pass::fold_constants>) return "fold_constants";
  else if constexpr (std::is_same_v<Pass, pass::fold_batch_norm>) return "fold_batch_norm";
  else if constexpr (std::is_same_v<Pass, pass::fuse_ops>) return "fuse_ops";
  else if constexpr (std::is_same_v<Pass, pass::alias_reshapes>) return "alias_reshapes";
  else if constexpr (std::is_same_v<Pass, pass::lower_te>) return "lower_te";
  else if constexpr (is_plan_memory<Pass>::value) return "plan_memory";
  else if constexpr (std::is_same_v<Pass, pass::create_function_metadata>) return "create_function_metadata";
  else if constexpr (std::is_same_v<Pass, pass::create_executor_metadata>) return "create_executor_metadata";
  else if constexpr (std::is_same_v<Pass, pass::aot_lower_main>) return "aot_lower_main";
  else return "an unnamed pass";
}

void write(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

template <std::size_t K>
void print_stage() {
  char number[24];
  const auto put_number = [&number](std::size_t n) {
    write({number, static_cast<std::size_t>(std::to_chars(number, number + sizeof number, n).ptr - number)});
  };
  write("== stage ");
  put_number(K);
  write("/");
  put_number(pipeline::size);
  if constexpr (K == 0) {
    write(": as built by the frontend ==\n");
  } else {
    write(": after ");
    write(pass_name<typename pipeline::template pass<K - 1>>());
    write(" ==\n");
  }
  ctnn::print_module(ctnn::stage_v<digits::model, pipeline, K>, write);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string synopsis = "[stage 0.." + std::to_string(pipeline::size) + "]";
  constexpr std::string_view details = "The digits demo model after every pass of ctnn::default_pipeline, or after the first K.\n";
  if (const int status = ctnn_tools::screen_options(argc, argv, synopsis, details, {}); status >= 0) return status;
  if (argc > 2) return ctnn_tools::usage_error(argv[0], synopsis, "one stage at most");
  long only = -1;
  if (argc == 2) {
    const std::string_view arg{argv[1]};
    const auto [end, error] = std::from_chars(arg.data(), arg.data() + arg.size(), only);
    if (error != std::errc{} || end != arg.data() + arg.size() || only < 0 || only > static_cast<long>(pipeline::size))
      return ctnn_tools::usage_error(argv[0], synopsis, "the stage is a number from 0 to " + std::to_string(pipeline::size));
  }
  bool first = true;
  const auto print_if_asked = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
    if (only >= 0 && static_cast<std::size_t>(only) != K) return;
    if (!first) write("\n");
    first = false;
    print_stage<K>();
  };
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (print_if_asked(std::integral_constant<std::size_t, K>{}), ...);
  }(std::make_index_sequence<pipeline::size + 1>{});
  return 0;
}
