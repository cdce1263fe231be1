#pragma once
// A model file as the tools see it: read, imported with the reader and importer ctnn_add_model uses at
// compile time (here at run time), and compiled by ctnn::default_pipeline with plan options given at run
// time (plan_options.hpp), so a tool's numbers are those of ctnn::compile<model, options...>.
//
//   ctnn_tools::with_compiled_model(program, path, options, [](const auto& module) { ...; return 0; });
//
// Every tool goes through here, so they all accept, reject and run the same files. The format is decided
// as ctnn_add_model decides it (format_of): by the content first ("TFL3" at byte 4 is TFLite), then by a
// file name *.onnx (an ONNX ModelProto has no magic bytes); anything else is neither.
// Modules are large (fixed capacities, up to 7 MB): each is made on the heap, imported into and compiled in
// place (ctnn::tflite::import_into, ctnn::run_pipeline_in_place), so the tools run on the default stack.
// Failures are said on stderr, "<program>: <path>: <reason>", and give exit status 1 (model_status).
// ctnn-run asks for the constants' values too (constants::computed): the ONNX constants the importer
// re-lays out (OIHW conv weights, ...) are then computed (onnx::relayout_values) into arrays that live
// while `use` runs; the other tools need only their sizes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ctnn/frontend/onnx.hpp>
#include <ctnn/frontend/onnx/operators.hpp>
#include <ctnn/frontend/tflite.hpp>
#include <ctnn/frontend/tflite/operators.hpp>
#include <ctnn/pass/edit_pipeline.hpp>
#include <ctnn/pass/run_pipeline.hpp>

#include "onnx_counts.hpp"
#include "patch_stage.hpp"
#include "plan_options.hpp"
#include "read_file.hpp"

namespace ctnn_tools {

inline constexpr int model_status = 1;

// Two capacities, so that small models stay quick and MLPerf-sized ones fit.
using small_module = ctnn::module<512, 512>;
using large_module = ctnn::module<4096, 4096>;

// The ONNX importer's value table at a capacity: every name of the file (initializers, Constant nodes, node
// outputs) takes an entry, an IR tensor or not, and real exports name several per tensor (Swin-T at 64x64:
// 4,617 values for 1,542 tensors and 1,186 nodes), so the large module's table is four times its tensors (84
// bytes an entry: 1.4 MB of import_into's stack; the module itself is unchanged).
inline constexpr std::size_t large_onnx_values = 4 * large_module::tensor_capacity;
template <class Module>
inline constexpr std::size_t onnx_value_capacity =
    Module::tensor_capacity == large_module::tensor_capacity ? large_onnx_values : Module::tensor_capacity;

// The module named after the file (its stem).
inline std::string_view stem_of(std::string_view path) {
  const std::string_view file = path.substr(path.find_last_of('/') + 1);
  return file.substr(0, file.find_last_of('.'));
}

enum class model_format { tflite, onnx, neither };

// ctnn_add_model's rule (cmake/ctnnAddModel.cmake): the bytes first, then the name.
inline model_format format_of(const std::vector<char>& bytes, std::string_view path) {
  if (bytes.size() >= 8 && std::string_view{bytes.data() + 4, 4} == "TFL3") return model_format::tflite;
  if (path.size() >= 5 && path.substr(path.size() - 5) == ".onnx") return model_format::onnx;
  return model_format::neither;
}

// Whether `use` needs the values of the constants an ONNX import re-lays out (to run the model).
enum class constants { sizes_only, computed };

// After an import's first problem: every part of the file its importer does not support (a frontend's
// list_unsupported: frontend/tflite/operators.hpp, frontend/onnx/operators.hpp, calling a sink with one
// line each), under a heading, so that one run names them all; nothing when there is none.
template <class List>
void put_unsupported_parts(std::FILE* out, const char* what, List&& list) {
  std::string lines;
  const std::int32_t found = list([&lines](std::string_view s) { lines += s; });
  if (found == 0) return;
  std::fprintf(out, "the file's unsupported %s (%d):\n", what, static_cast<int>(found));
  for (std::size_t at = 0; at < lines.size();) {
    const std::size_t end = lines.find('\n', at);
    std::fprintf(out, "  %.*s\n", static_cast<int>(end - at), lines.data() + at);
    at = end + 1;
  }
}

inline void put_unsupported_tflite_parts(std::FILE* out, const char* bytes, std::size_t size) {
  put_unsupported_parts(out, "operators and tensor types",
                        [&](auto sink) { return ctnn::tflite::list_unsupported(bytes, size, sink); });
}

inline void put_unsupported_onnx_parts(std::FILE* out, const char* bytes, std::size_t size) {
  put_unsupported_parts(out, "operators", [&](auto sink) { return ctnn::onnx::list_unsupported(bytes, size, sink); });
}

namespace detail {

struct model_context {
  const char* program;
  const char* path;
  const std::vector<char>& bytes;
  const plan_options& options;
  constants wanted = constants::sizes_only;
};

inline void say(const model_context& c, std::string_view reason) {
  std::fprintf(stderr, "%s: %s: %.*s\n", c.program, c.path, static_cast<int>(reason.size()), reason.data());
}

// The sentence a frontend's describe() writes, as one string (it ends with a newline).
template <class Describe>
std::string described(Describe&& describe) {
  std::string text;
  describe([&text](std::string_view s) { text += s; });
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The import and the pipeline do not depend on what a tool does with the module: they are compiled once,
// for the two capacities, in model_file.cpp (the explicit instantiations below), not in every tool.

// default_pipeline on an imported module, its plan_memory pass with the command line's plan options;
// 0, or model_status after saying why.
template <class Module>
int compile_module(const model_context& c, Module& m) {
  using pipeline = ctnn::default_pipeline;
  using planning = ctnn::pass::plan_memory<>;
  using lowering = ctnn::pass::lower_te;
  ctnn::run_pipeline_in_place<ctnn::passes_before<lowering, pipeline>>(m);
  // --patches: the patch stage just before lower_te, where ctnn::compile puts it (patch_stage.hpp).
  if (c.options.patches() && !m.error.failed()) apply_patch_stage(m, c.options.config());
  ctnn::run_pipeline_in_place<ctnn::pipeline<lowering>>(m);
  ctnn::run_pipeline_in_place<ctnn::passes_before<planning, ctnn::passes_after<lowering, pipeline>>>(m);
  if (!m.error.failed()) ctnn::pass::plan_module_in_place<planning::algorithm>(m, c.options.config());
  ctnn::run_pipeline_in_place<ctnn::passes_after<planning, pipeline>>(m);
  if (m.error.failed()) {
    say(c, c.options.describe(m, m.error));
    return model_status;
  }
  return 0;
}

// A TFLite file imported into `m` and compiled: 0, or model_status after saying why.
template <class Module>
int import_tflite(const model_context& c, Module& m) {
  ctnn::tflite::import_into(m, c.bytes.data(), c.bytes.size(), stem_of(c.path));
  if (m.error.failed()) {
    say(c, described([&](auto sink) { ctnn::tflite::describe(m.error, sink); }));
    put_unsupported_tflite_parts(stderr, c.bytes.data(), c.bytes.size());
    return model_status;
  }
  return compile_module(c, m);
}

// An ONNX import at a module's capacities, and the constants it re-laid out when they are computed.
template <class Module>
struct onnx_import {
  static constexpr std::size_t T = Module::tensor_capacity, N = Module::node_capacity, V = onnx_value_capacity<Module>;
  std::unique_ptr<ctnn::onnx::import_result<T, N, T>> result = std::make_unique<ctnn::onnx::import_result<T, N, T>>();
  std::vector<std::vector<float>> relaid;  // the module's re-laid-out constants point into it
};

// The re-laid-out constants are listed (planning and metadata need their sizes only), or computed when
// the context asks for them. 0, or model_status after saying why.
template <class Module>
int import_onnx(const model_context& c, onnx_import<Module>& i) {
  auto& r = *i.result;
  ctnn::onnx::import_into<onnx_import<Module>::V>(r, c.bytes.data(), c.bytes.size(), stem_of(c.path),
                                                  {.dims = c.options.onnx_dims()});
  if (r.ir.error.failed()) {
    say(c, described([&](auto sink) { ctnn::onnx::describe(r.ir.error, c.bytes.data(), c.bytes.size(), sink); }));
    put_unsupported_onnx_parts(stderr, c.bytes.data(), c.bytes.size());
    return model_status;
  }
  if (const std::string note = batch_note(r, c.bytes.data(), c.bytes.size()); !note.empty())
    std::fprintf(stderr, "%s: %s: note: %s", c.program, c.path, note.c_str());
  if (c.wanted == constants::computed) {
    i.relaid.resize(static_cast<std::size_t>(r.relayout_count));
    for (std::size_t k = 0; k < i.relaid.size(); ++k) {
      const ctnn::onnx::relayout& relayout = r.relayouts[k];
      if (relayout.kind == ctnn::onnx::relayout_kind::known_integers) {  // integers computed at import: their bytes
        i.relaid[k].resize(static_cast<std::size_t>((ctnn::onnx::known_integer_size(relayout) + 3) / 4));
        char* bytes = reinterpret_cast<char*>(i.relaid[k].data());
        ctnn::onnx::known_integer_bytes(relayout, r.known.data(), bytes);
        r.ir.tensor_at(relayout.tensor).data.bytes = bytes;
        continue;
      }
      i.relaid[k].resize(static_cast<std::size_t>(relayout.elements()));
      ctnn::onnx::relayout_values(relayout, c.bytes.data(), i.relaid[k].data());
      r.ir.tensor_at(relayout.tensor).data.f32 = i.relaid[k].data();
    }
  }
  return compile_module(c, r.ir);
}

extern template int import_tflite<small_module>(const model_context&, small_module&);
extern template int import_tflite<large_module>(const model_context&, large_module&);
extern template int import_onnx<small_module>(const model_context&, onnx_import<small_module>&);
extern template int import_onnx<large_module>(const model_context&, onnx_import<large_module>&);

template <class Module, class Use>
int use_tflite(const model_context& c, Use& use) {
  const auto m = std::make_unique<Module>();
  if (const int status = import_tflite(c, *m)) return status;
  return use(static_cast<const Module&>(*m));
}

template <class Module, class Use>
int use_onnx(const model_context& c, Use& use) {
  onnx_import<Module> i;
  if (const int status = import_onnx(c, i)) return status;
  return use(std::as_const(i.result->ir));
}

}  // namespace detail

// The work of with_compiled_model, on the file's bytes (a vector: operator new aligns to 16 bytes, as the
// generated headers align the embedded bytes).
template <class Use>
int compile_model_bytes(const char* program, const char* path, const std::vector<char>& bytes, const plan_options& options,
                        constants wanted, Use& use) {
  const detail::model_context c{program, path, bytes, options, wanted};
  const model_format format = format_of(bytes, path);
  if (format == model_format::neither) {
    detail::say(c, "neither a TFLite file (\"TFL3\" at byte 4) nor an ONNX file (named *.onnx)");
    return model_status;
  }
  if (format == model_format::onnx) {
    ctnn::onnx::model_file f{bytes.data(), bytes.size()};
    const ctnn::onnx::import_counts b =
        onnx_counts<large_module::tensor_capacity, large_module::node_capacity, large_onnx_values,
                    large_module::tensor_capacity>(bytes.data(), bytes.size(), {.dims = options.onnx_dims()});
    if (f.failed()) {
      detail::say(c, detail::described([&](auto sink) {
        ctnn::onnx::describe(f.error().as_diagnostic(ctnn::onnx::code_of(ctnn::onnx::onnx_error::malformed_model)),
                             bytes.data(), bytes.size(), sink);
      }));
      return model_status;
    }
    const auto fits = [&b](std::size_t capacity, std::size_t values) {
      return b.tensors <= capacity && b.nodes <= capacity && b.values <= values && b.relayouts <= capacity;
    };
    if (fits(small_module::tensor_capacity, onnx_value_capacity<small_module>)) return detail::use_onnx<small_module>(c, use);
    if (fits(large_module::tensor_capacity, large_onnx_values)) return detail::use_onnx<large_module>(c, use);
    detail::say(c, "the model needs " + std::to_string(b.tensors) + " tensors, " + std::to_string(b.nodes) + " nodes and " +
                       std::to_string(b.values) + " values; the tools handle up to " +
                       std::to_string(large_module::tensor_capacity) + " tensors and nodes, " +
                       std::to_string(large_onnx_values) + " values");
    return model_status;
  }
  ctnn::tflite::model_file f{bytes.data(), bytes.size()};
  if (f.failed()) {
    detail::say(c, detail::described([&](auto sink) {
      ctnn::tflite::describe(f.error().as_diagnostic(ctnn::code_of(ctnn::frontend_error::tflite_malformed_model)),
                             sink);
    }));
    return model_status;
  }
  const ctnn::tflite::import_counts n = ctnn::tflite::count(bytes.data(), bytes.size());
  if (n.tensors <= small_module::tensor_capacity && n.nodes <= small_module::node_capacity)
    return detail::use_tflite<small_module>(c, use);
  if (n.tensors <= large_module::tensor_capacity && n.nodes <= large_module::node_capacity)
    return detail::use_tflite<large_module>(c, use);
  detail::say(c, "the model has " + std::to_string(n.tensors) + " tensors and " + std::to_string(n.nodes) +
                     " ops; the tools handle up to " + std::to_string(large_module::tensor_capacity));
  return model_status;
}

// Reads the model at `path`, imports it, runs the pipeline with `options`' plan and returns
// use(module) (a const reference to the compiled module, small_module or large_module: `use` is generic);
// or says why not on stderr and returns model_status.
template <class Use>
int with_compiled_model(const char* program, const char* path, const plan_options& options, Use&& use,
                        constants wanted = constants::sizes_only) {
  std::vector<char> bytes;
  std::string problem;
  if (!read_file(path, bytes, problem)) {
    std::fprintf(stderr, "%s: %s: cannot read the file: %s\n", program, path, problem.c_str());
    return model_status;
  }
  return compile_model_bytes(program, path, bytes, options, wanted, use);
}

// The same on bytes already read (ctnn-run's model with --constant inputs folded in); `path` names it.
template <class Use>
int with_compiled_model_bytes(const char* program, const char* path, const std::vector<char>& bytes, const plan_options& options,
                              constants wanted, Use&& use) {
  return compile_model_bytes(program, path, bytes, options, wanted, use);
}

}  // namespace ctnn_tools
