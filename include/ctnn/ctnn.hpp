#pragma once
// ctnn: compile-time neural networks. The umbrella header: DSL, TFLite and ONNX frontends, passes, planner,
// kernels, executor.
#include <ctnn/detail/require_cxx20.hpp>  // first: one clear error under an older -std
#include <ctnn/compile.hpp>
#include <ctnn/errors.hpp>
#include <ctnn/frontend/dsl.hpp>
#include <ctnn/frontend/onnx.hpp>
#include <ctnn/frontend/tflite.hpp>
#include <ctnn/ir/module.hpp>
#include <ctnn/print/printer.hpp>
#include <ctnn/memory/buffer_info.hpp>
#include <ctnn/pass/pipeline.hpp>
#include <ctnn/runtime/executor.hpp>
#include <ctnn/version.hpp>
