// ctnn-inspect: what ctnn makes of a model file, with the same reader, importer and passes that run in
// the compiler, run here at run time (docs/design.md §2).
//
//   ctnn-inspect <model.tflite|model.onnx>  the file, the imported ops and tensors (shapes, types,
//                                          quantization, constant data), then the module after
//                                          ctnn::default_pipeline (ctnn::print_module: kernels, memory plan)
//   ctnn-inspect --import-only <model>     only the file and the import
//   ctnn-inspect --operators               the operators each frontend imports and the op kinds they become
//                                          (the importers' own tables; float32/int8: whether the kind has a
//                                          kernel for that element type), as the Markdown tables that
//                                          docs/frontends.md carries (the test docs_operator_tables compares)
//   ctnn-inspect --target <core> <model>   after the module, the kernel family of every call on that target
//                                          (cortex-m0plus, m3, m4, m7, m33, m55, m85, generic, sse4.1,
//                                          avx2, avx512-vnni, neon) and, where the reference kernel runs,
//                                          why the fast family declines the call (kernel/arm/decline.hpp's
//                                          rows: what ctnn::require_fast_kernels reports), ending with the
//                                          line "reference calls on <core>: N" and the list
//   ctnn-inspect --fast-kernels            the shapes the Cortex-M int8 families take, as the Markdown table
//                                          docs/design.md §4 carries (their rows, kernel/arm/decline.hpp;
//                                          the test docs_fast_kernel_table compares)
//   ctnn-inspect --patches <model>         the same with the automatic patch stage before lower_te, as
//                                          ctnn::patch_execution<ctnn::max_extra_macs<10>> makes it: its
//                                          prefix, grid, halo, extra MACs and estimated peaks (the line of
//                                          ctnn-memory-report --patches, patch_stage.hpp), then the
//                                          patched module (crop, the prefix's ops per patch, paste)
//   ctnn-inspect --dim NAME=N --input-shape INPUT=D0,D1,... <model.onnx>
//                                          an ONNX model's symbolic input dimensions bound (onnx_dims.hpp; a
//                                          symbolic first axis nothing binds is bound to 1, and a line says so)
//
// The format is decided as in every tool and in ctnn_add_model (model_file.hpp, format_of): "TFL3" at byte 4
// is TFLite, else a file named *.onnx is ONNX, else the file is neither.
// Exit status: 0 when the file imports and the whole pipeline succeeds; 1 when the file cannot be
// imported (the diagnostic is printed in words, the sentence of the compile error ctnn::tflite::model or
// ctnn::onnx::model would give, with the op or node, tensor or byte offset); 2 when a pass fails (e.g. no
// kernel for an element type yet; print_module shows the diagnostic) or for an unknown option (usage on
// stderr, command_line.hpp); 3 for other usage and I/O errors. --help: the usage on stdout, status 0.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <ctnn/frontend/onnx.hpp>
#include <ctnn/frontend/tflite.hpp>
#include <ctnn/ir/diagnostic_text.hpp>
#include <ctnn/kernel/arm/decline.hpp>
#include <ctnn/kernel/reference_by_kind.hpp>
#include <ctnn/print/printer.hpp>
#include <ctnn/pass/edit_pipeline.hpp>
#include <ctnn/pass/run_pipeline.hpp>

#include "command_line.hpp"
#include "model_file.hpp"
#include "onnx_counts.hpp"
#include "patch_stage.hpp"
#include "read_file.hpp"

namespace {

using pipeline = ctnn::default_pipeline;

void write(std::string_view text) { ctnn_tools::write_text(stdout, text); }

void put(std::int64_t value) { std::printf("%lld", static_cast<long long>(value)); }

void put_shape(const ctnn::shape& s) {
  write("[");
  for (std::int32_t d = 0; d < s.rank; ++d) {
    if (d > 0) write(",");
    put(s[d]);
  }
  write("]");
}

std::string_view role_name(ctnn::tensor_role r) {
  switch (r) {
    case ctnn::tensor_role::intermediate: return "";
    case ctnn::tensor_role::input: return "input";
    case ctnn::tensor_role::output: return "output";
    case ctnn::tensor_role::constant: return "constant";
    case ctnn::tensor_role::state: return "state";
  }
  return "?";
}

// The file as TFLite sees it: header, operator codes, ops with their TFLite names and operands.
void print_file(ctnn::tflite::model_file& f, std::string_view path, std::size_t size) {
  std::printf("file: %.*s (%zu bytes), TFLite schema version %u, %u subgraph(s), %u buffers, %u operator codes\n",
              static_cast<int>(path.size()), path.data(), size, f.version(), f.subgraph_count(), f.buffer_count(),
              f.operator_code_count());
  const auto description = f.reader().view(f.description());
  if (!description.empty()) std::printf("description: %.*s\n", static_cast<int>(description.size()), description.data());
  std::printf("subgraph 0: %u tensors, %u ops, %u inputs, %u outputs\n", f.tensor_count(), f.operator_count(),
              f.inputs().length, f.outputs().length);
  std::printf("ops (TFLite)\n");
  for (std::uint32_t i = 0; i < f.operator_count() && !f.failed(); ++i) {
    const ctnn::tflite::operator_view o = f.op(i);
    if (f.failed()) break;
    const std::string_view n = ctnn::tflite::name_of(o.code);
    std::printf("  %4u  %-20.*s (", i, static_cast<int>(n.size()), n.data());
    for (std::uint32_t k = 0; k < o.inputs.length; ++k) std::printf("%s%d", k ? ", " : "", f.index_at(o.inputs, k));
    write(") -> (");
    for (std::uint32_t k = 0; k < o.outputs.length; ++k) std::printf("%s%d", k ? ", " : "", f.index_at(o.outputs, k));
    write(")\n");
  }
}

// The imported tensors: index, role, type and shape, bytes, quantization, constant data, name.
template <class Module>
void print_tensors(const Module& m, const char* file_start) {
  std::printf("tensors (%d)\n", m.tensor_count);
  for (std::int32_t id = 0; id < m.tensor_count; ++id) {
    const ctnn::tensor& t = m.tensor_at(id);
    std::printf("  %4d  %-8.*s %s", id, static_cast<int>(role_name(t.role).size()), role_name(t.role).data(),
                ctnn::name_of(t.type));
    put_shape(t.dims);
    std::printf("  %lld B", static_cast<long long>(t.bytes()));
    if (t.quant.per_channel()) {
      std::printf("  q per-channel axis %d, %d scales [%g, %g, ...]", t.quant.axis, t.quant.channel_count,
                  static_cast<double>(t.quant.scale_of(0)), static_cast<double>(t.quant.scale_of(t.quant.channel_count > 1 ? 1 : 0)));
    } else if (t.quant.quantized()) {
      std::printf("  q scale %.9g zero_point %d", static_cast<double>(t.quant.scale), t.quant.zero_point);
    }
    if (t.data.bytes != nullptr) std::printf("  data at byte %td", t.data.bytes - file_start);
    const std::string_view label = t.label.view();
    std::printf("  \"%.*s\"\n", static_cast<int>(label.size()), label.data());
  }
}

template <class Pass>
std::string_view pass_name() {
  namespace pass = ctnn::pass;
  if constexpr (requires { std::string_view{Pass::name}; }) return Pass::name;
  else if constexpr (std::is_same_v<Pass, pass::infer_types>) return "infer_types";
  else if constexpr (std::is_same_v<Pass, pass::fold_constants>) return "fold_constants";
  else if constexpr (std::is_same_v<Pass, pass::fold_batch_norm>) return "fold_batch_norm";
  else if constexpr (std::is_same_v<Pass, pass::fuse_ops>) return "fuse_ops";
  else if constexpr (std::is_same_v<Pass, pass::alias_reshapes>) return "alias_reshapes";
  else if constexpr (std::is_same_v<Pass, pass::lower_te>) return "lower_te";
  else if constexpr (std::is_same_v<Pass, pass::create_function_metadata>) return "create_function_metadata";
  else if constexpr (std::is_same_v<Pass, pass::create_executor_metadata>) return "create_executor_metadata";
  else if constexpr (std::is_same_v<Pass, pass::aot_lower_main>) return "aot_lower_main";
  else return "plan_memory";
}

struct job {
  const std::vector<char>* bytes = nullptr;
  std::string_view path;
  bool import_only = false;
  bool patches = false;
  std::string_view target;  // --target: the core whose kernel families are shown (empty: none)
  std::string dims;         // --dim, --input-shape: the ONNX bindings of symbolic input dims (onnx_dims.hpp)
};

// --target's names and their instruction sets.
struct target_name {
  std::string_view name;
  ctnn::instruction_set isa;
};
constexpr target_name target_names[] = {
    {"generic", ctnn::targets::generic::isa},         {"cortex-m0plus", ctnn::targets::cortex_m0plus::isa},
    {"cortex-m3", ctnn::targets::cortex_m3::isa},     {"cortex-m4", ctnn::targets::cortex_m4::isa},
    {"cortex-m7", ctnn::targets::cortex_m7::isa},     {"cortex-m33", ctnn::targets::cortex_m33::isa},
    {"cortex-m55", ctnn::targets::cortex_m55::isa},   {"cortex-m85", ctnn::targets::cortex_m85::isa},
    {"sse4.1", ctnn::targets::x86_sse4_1::isa},       {"avx2", ctnn::targets::x86_avx2::isa},
    {"avx512-vnni", ctnn::targets::x86_avx512_vnni::isa}, {"neon", ctnn::targets::arm_neon::isa},
};
const target_name* find_target(std::string_view name) {
  for (const target_name& t : target_names)
    if (t.name == name) return &t;
  return nullptr;
}

// The kernel family of every call on a target: on a Cortex-M target with fast kernels, by the families' rows
// (kernel/arm/decline.hpp; where the compiler finds a finer condition of a kernel's supports it reports
// other_shape instead), elsewhere what the values decide ("?": the SIMD family's supports, known only to the
// compiler). Calls that compute nothing (copies onto themselves) are listed as such; reference calls are
// counted and listed at the end.
template <class Module>
void print_target_families(const Module& m, const target_name& t) {
  std::printf("\nkernel families on %.*s (calls of the module above)\n", static_cast<int>(t.name.size()), t.name.data());
  std::string refused;
  int reference_calls = 0;
  for (std::int32_t c = 0; c < m.call_count; ++c) {
    const ctnn::kernel_call& call = m.calls[static_cast<std::size_t>(c)];
    const ctnn::kernel_params& p = call.params;
    const std::string_view label = m.op_name(call.node).view();
    std::printf("  call %3d  op %3d %-18s %-28.*s ", c, call.node, ctnn::name_of(p.kind), static_cast<int>(label.size()), label.data());
    if (p.in_place == 2) {
      std::printf("none (a copy onto itself: skipped)\n");
      continue;
    }
    ctnn::kernel_impl runs = ctnn::kernel_impl::reference;
    ctnn::kernel_decline reason = ctnn::kernel_decline::none, mve = ctnn::kernel_decline::none;
    if (ctnn::is_cortex_m_family(t.isa)) {
      const ctnn::kernel::arm::cortex_m_verdict v = ctnn::kernel::arm::verdict_on(p, t.isa);
      runs = v.runs, reason = v.reason, mve = v.mve;
    } else {
      runs = ctnn::pass::kernel_by_values(p, t.isa);
    }
    if (runs == ctnn::kernel_impl::undecided) {
      std::printf("%s?\n", ctnn::family_name(ctnn::pass::family_to_ask(p, t.isa)));
      continue;
    }
    std::printf("%s", ctnn::family_name(runs));
    if (runs == ctnn::kernel_impl::arm_dsp_i8 && mve != ctnn::kernel_decline::none)
      std::printf(" (the MVE family's fallback: %s)", ctnn::describe(mve));
    if (runs == ctnn::kernel_impl::reference && reason != ctnn::kernel_decline::none) {
      const std::int64_t value = ctnn::decline_value(reason, p);
      std::printf(": %s", ctnn::describe(reason));
      if (value >= 0) std::printf(" (%lld)", static_cast<long long>(value));
    }
    std::printf("\n");
    if (runs == ctnn::kernel_impl::reference) {
      ++reference_calls;
      refused += "  op " + std::to_string(call.node) + " " + ctnn::name_of(p.kind) + " \"" + std::string{label} + "\"\n";
    }
  }
  std::printf("reference calls on %.*s: %d\n%s", static_cast<int>(t.name.size()), t.name.data(), reference_calls, refused.c_str());
}

using ctnn_tools::stem_of;  // the module is named after the file

template <class Module>
int inspect_module(const job& j, Module& m);

// Imports into a module of capacities T x N (on the heap: modules are large) and runs the pipeline on it.
template <std::size_t T, std::size_t N>
int inspect(const job& j) {
  const char* bytes = j.bytes->data();
  const std::size_t size = j.bytes->size();
  const auto m = std::make_unique<ctnn::module<T, N>>();
  ctnn::tflite::import_into(*m, bytes, size, stem_of(j.path));
  if (m->error.failed()) {
    ctnn::tflite::describe(m->error, write);
    ctnn_tools::put_unsupported_tflite_parts(stdout, bytes, size);
    return 1;
  }
  return inspect_module(j, *m);
}

// An ONNX file: imported with capacities that hold its bounds (the relaid-out constants are listed, not
// computed: the compiler computes them).
template <std::size_t T, std::size_t N, std::size_t V, std::size_t R>
int inspect_onnx(const job& j) {
  const char* bytes = j.bytes->data();
  const std::size_t size = j.bytes->size();
  const auto r = std::make_unique<ctnn::onnx::import_result<T, N, R>>();
  ctnn::onnx::import_into<V>(*r, bytes, size, stem_of(j.path), {.dims = j.dims});
  if (r->ir.error.failed()) {
    ctnn::onnx::describe(r->ir.error, bytes, size, write);
    ctnn_tools::put_unsupported_onnx_parts(stdout, bytes, size);
    return 1;
  }
  std::printf("%s", ctnn_tools::batch_note(*r, bytes, size).c_str());
  std::printf("constants re-laid out at compile time: %d\n", r->relayout_count);
  return inspect_module(j, r->ir);
}

// The pipeline on `m` in place; a failing pass is named, and the module is printed as it left it.
template <class Module>
int inspect_module(const job& j, Module& m) {
  const char* bytes = j.bytes->data();
  std::printf("import: ok (%d tensors, %d nodes)\n", m.tensor_count, m.node_count);
  print_tensors(m, bytes);
  if (j.import_only) return 0;

  int status = 0;
  // Positions count from `first`: the pipeline runs in two parts around the patch stage.
  const auto run_passes = [&]<class Passes>(std::type_identity<Passes>, std::size_t first) {
    ctnn::run_pipeline_in_place<Passes>(m, [&]<class Pass>(std::type_identity<Pass>, std::size_t position, const Module& after) {
      if (!after.error.failed()) return;
      const std::string_view name = pass_name<Pass>();
      std::printf("\npass %zu (%.*s) failed; the module after pass %zu:\n", first + position + 1, static_cast<int>(name.size()),
                  name.data(), first + position);
      ctnn::print_module(after, write);
      ctnn::describe_module_error(after, write);
      status = 2;
    });
  };
  // --patches imports into the large capacities only (run()), so only they instantiate the patch stage.
  constexpr bool room_for_patches = Module::node_capacity >= 1024;
  if (!room_for_patches || !j.patches) {
    run_passes(std::type_identity<pipeline>{}, 0);
  } else if constexpr (room_for_patches) {
    // The patch stage where ctnn::compile puts it, right before lower_te, planned with default_pipeline's
    // plan_memory options (those of its RAM check).
    using lowering = ctnn::pass::lower_te;
    using before = ctnn::passes_before<lowering, pipeline>;
    run_passes(std::type_identity<before>{}, 0);
    if (status == 0) {
      std::printf("\n");
      ctnn_tools::apply_patch_stage(m, ctnn::pass::plan_memory<>::config);
      if (m.error.failed()) {
        std::printf("the patch stage failed:\n");
        ctnn::describe_module_error(m, write);
        status = 2;
      }
    }
    if (status == 0) run_passes(std::type_identity<ctnn::pipeline<lowering>>{}, before::size);
    if (status == 0) run_passes(std::type_identity<ctnn::passes_after<lowering, pipeline>>{}, before::size + 1);
  }
  if (status == 0) {
    std::printf("\nafter ctnn::default_pipeline (%zu passes):\n", pipeline::size);
    ctnn::print_module(m, write);
    if (const target_name* t = find_target(j.target)) print_target_families(m, *t);
  }
  return status;
}

int run_onnx(job& j) {
  const char* bytes = j.bytes->data();
  const std::size_t size = j.bytes->size();
  ctnn::onnx::model_file f{bytes, size};
  std::printf("file: %.*s (%zu bytes), ONNX IR version %lld, opset %lld\n", static_cast<int>(j.path.size()), j.path.data(),
              size, static_cast<long long>(f.ir_version()), static_cast<long long>(f.opset()));
  constexpr std::size_t large = ctnn_tools::large_module::tensor_capacity, large_values = ctnn_tools::large_onnx_values;
  const ctnn::onnx::import_counts b = ctnn_tools::onnx_counts<large, large, large_values, large>(bytes, size, {.dims = j.dims});
  if (f.failed()) {
    ctnn::onnx::describe(f.error().as_diagnostic(ctnn::onnx::code_of(ctnn::onnx::onnx_error::malformed_model)),
                         bytes, size, write);
    return 1;
  }
  if (b.tensors <= 512 && b.nodes <= 512 && b.values <= 512 && b.relayouts <= 512 && !j.patches) return inspect_onnx<512, 512, 512, 512>(j);
  if (b.tensors <= large && b.nodes <= large && b.values <= large_values && b.relayouts <= large)
    return inspect_onnx<large, large, large_values, large>(j);
  std::printf("error: the model needs %zu tensors, %zu nodes and %zu values; ctnn-inspect handles up to %zu tensors and "
              "nodes, %zu values\n", b.tensors, b.nodes, b.values, large, large_values);
  return 3;
}

// --fast-kernels: the Cortex-M families' rows as a Markdown table, in row order.
int print_fast_kernels() {
  std::printf("| family | op kind | element type | recipe | declines when |\n|---|---|---|---|---|\n");
  const auto rows = [](const char* family, std::span<const ctnn::kernel::arm::fast_kernel_rule> rules) {
    for (const ctnn::kernel::arm::fast_kernel_rule& r : rules) {
      std::printf("| %s | `%s` | %s | %s | ", family, ctnn::name_of(r.kind), ctnn::name_of(r.type),
                  r.requantization == ctnn::requantization_policy::onnx ? "ONNX" : "TFLite");
      const char* separator = "";
      for (ctnn::kernel_decline d : r.declines_when) {
        if (d == ctnn::kernel_decline::none) break;
        std::printf("%s%s", separator, ctnn::describe(d));
        separator = "; ";
      }
      std::printf("%s |\n", *separator == '\0' ? "none listed (the kernel's own finer conditions: other_shape)" : "");
    }
  };
  rows("Armv7E-M DSP", ctnn::kernel::arm::dsp_rules);
  rows("Armv8.1-M MVE", ctnn::kernel::arm::mve_rules);
  rows("Armv6-M", ctnn::kernel::arm::v6m_rules);
  return 0;
}

// --operators: the TFLite and ONNX operator tables as Markdown, in table order.
int print_operators() {
  const auto kernel = [](ctnn::op_kind kind, ctnn::dtype type) { return ctnn::kernel::has_kernel(kind, type) ? "yes" : ""; };
  std::printf("| TFLite operator | ctnn op kind | float32 | int8 |\n|---|---|---|---|\n");
  ctnn::tflite::for_each_operator([&](ctnn::tflite::builtin_operator code, ctnn::op_kind kind) {
    const std::string_view name = ctnn::tflite::name_of(code);
    std::printf("| %.*s | `%s` | %s | %s |\n", static_cast<int>(name.size()), name.data(), ctnn::name_of(kind),
                kernel(kind, ctnn::dtype::f32), kernel(kind, ctnn::dtype::i8));
  });
  ctnn::tflite::for_each_custom_operator([&](std::string_view custom_code, ctnn::op_kind kind) {
    std::printf("| CUSTOM \"%.*s\" | `%s` | %s | %s |\n", static_cast<int>(custom_code.size()), custom_code.data(),
                ctnn::name_of(kind), kernel(kind, ctnn::dtype::f32), kernel(kind, ctnn::dtype::i8));
  });
  std::printf("\n| ONNX operator | ctnn op kind |\n|---|---|\n");
  ctnn::onnx::for_each_operator([](ctnn::onnx::op_type type, ctnn::op_kind kind) {
    const std::string_view name = ctnn::onnx::name_of(type);
    std::printf("| %.*s | `%s` |\n", static_cast<int>(name.size()), name.data(), ctnn::name_of(kind));
  });
  return 0;
}

int run(job& j) {
  const char* bytes = j.bytes->data();
  const std::size_t size = j.bytes->size();
  switch (ctnn_tools::format_of(*j.bytes, j.path)) {
    case ctnn_tools::model_format::onnx: return run_onnx(j);
    case ctnn_tools::model_format::neither:
      std::printf("error: %.*s is neither a TFLite file (\"TFL3\" at byte 4) nor an ONNX file (named *.onnx)\n",
                  static_cast<int>(j.path.size()), j.path.data());
      return 1;
    case ctnn_tools::model_format::tflite: break;
  }
  ctnn::tflite::model_file f{bytes, size};
  if (f.failed()) {
    ctnn::tflite::describe(f.error().as_diagnostic(ctnn::code_of(ctnn::frontend_error::tflite_malformed_model)),
                           write);
    return 1;
  }
  print_file(f, j.path, size);
  const ctnn::tflite::import_counts c = ctnn::tflite::count(bytes, size);
  // --patches: room for the patch ops (a stage of up to 16 patches of a 24-op prefix adds 416 ops).
  if (c.tensors <= 256 && c.nodes <= 128 && !j.patches) return inspect<256, 128>(j);
  if (c.tensors <= 2048 && c.nodes <= 1024) return inspect<2048, 1024>(j);
  std::printf("error: the model has %zu tensors and %zu ops; ctnn-inspect handles up to 2048 and 1024\n", c.tensors, c.nodes);
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  constexpr ctnn_tools::option_spec options[] = {
      {"--import-only", false}, {"--patches", false}, {"--operators", false}, {"--fast-kernels", false}, {"--target", true},
      ctnn_tools::onnx_dim_option_specs[0], ctnn_tools::onnx_dim_option_specs[1]};
  constexpr std::string_view synopsis =
      "[--import-only] [--patches] [--target <core>] [--dim NAME=N]... [--input-shape INPUT=D0,D1,...]... "
      "<model.tflite|model.onnx> | --operators | --fast-kernels";
  if (const int status = ctnn_tools::screen_options(
          argc, argv, synopsis,
          "  --operators     the operators the TFLite and ONNX frontends import (Markdown tables)\n"
          "  --fast-kernels  the shapes the Cortex-M int8 families take (a Markdown table)\n"
          "  --import-only   only the file and the import, not the pipeline\n"
          "  --patches       the first ops patch by patch where that lowers RAM within 10 % more MACs\n"
          "                  (ctnn::patch_execution<ctnn::max_extra_macs<10>>); the patch stage is printed\n"
          "  --target <core> the kernel family of every call on that core, and why the reference kernel runs\n"
          "                  where it does: cortex-m0plus, cortex-m3, cortex-m4, cortex-m7, cortex-m33,\n"
          "                  cortex-m55, cortex-m85, generic, sse4.1, avx2, avx512-vnni, neon\n" +
              std::string{ctnn_tools::onnx_dim_options_help},
          options);
      status >= 0)
    return status;
  if (argc == 2 && std::strcmp(argv[1], "--operators") == 0) return print_operators();
  if (argc == 2 && std::strcmp(argv[1], "--fast-kernels") == 0) return print_fast_kernels();
  job j{};
  const char* path = nullptr;
  for (int a = 1; a < argc; ++a) {
    if (std::string problem; ctnn_tools::read_onnx_dim_option(argc, argv, a, j.dims, problem)) {
      if (problem.empty()) continue;
      std::fprintf(stderr, "%s: %s\n", argv[0], problem.c_str());
      return 3;
    }
    if (std::strcmp(argv[a], "--import-only") == 0) j.import_only = true;
    else if (std::strcmp(argv[a], "--patches") == 0) j.patches = true;
    else if (std::strcmp(argv[a], "--target") == 0 && a + 1 < argc) j.target = argv[++a];
    else if (path == nullptr && argv[a][0] != '-') path = argv[a];
    else path = nullptr, a = argc;
  }
  if (path == nullptr) {
    std::fprintf(stderr, "usage: %s %.*s\n", argv[0], static_cast<int>(synopsis.size()), synopsis.data());
    return 3;
  }
  if (!j.target.empty() && find_target(j.target) == nullptr) {
    std::fprintf(stderr, "%s: --target %.*s: not a core ctnn-inspect knows (see --help)\n", argv[0],
                 static_cast<int>(j.target.size()), j.target.data());
    return 3;
  }
  // operator new aligns to 16 bytes, as the generated headers align the embedded bytes.
  std::vector<char> bytes;
  if (std::string problem; !ctnn_tools::read_file(path, bytes, problem)) {
    std::fprintf(stderr, "%s: cannot read %s: %s\n", argv[0], path, problem.c_str());
    return 3;
  }
  j.bytes = &bytes;
  j.path = path;
  return run(j);
}
