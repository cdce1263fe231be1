#pragma once
// ctnn: compile-time neural networks. The umbrella header: DSL, passes, planner, kernels, executor.
//
// Not the frontends nor the printer, which a model's translation unit does not need: the header that
// ctnn_add_model generates for a model file (<ctnn/models/<name>.hpp>) includes its own frontend
// (<ctnn/frontend/tflite.hpp> or <ctnn/frontend/onnx.hpp>); code that names ctnn::tflite or ctnn::onnx itself
// includes that header, and print_module's users <ctnn/print/printer.hpp>. Each costs every translation unit
// that includes it (docs/compile_time.md, "Precompiled headers" and issue #24's goal).
#include <ctnn/detail/require_cxx20.hpp>  // first: one clear error under an older -std
#include <ctnn/compile.hpp>
#include <ctnn/errors.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/pass/pipeline.hpp>
#include <ctnn/runtime/executor.hpp>
#include <ctnn/version.hpp>
