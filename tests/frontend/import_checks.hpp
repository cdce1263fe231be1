#pragma once
// Checks shared by the frontend tests: a module after infer_types gives every tensor the shape and type
// the file stated, and constants point into the embedded bytes (zero-copy, aligned).
#include <cstddef>
#include <cstdint>

#include <ctnn/frontend/tflite.hpp>
#include <ctnn/pass/infer_types.hpp>

namespace ctnn_test {

// The diagnostic of a model's import (a refused model's, checked without the compile error ctnn::compile gives).
template <class Model>
constexpr const ctnn::diagnostic& error_of = Model::imported.error;

// A TFLite model refused at operand `slot` of an op of kind `kind` (frontend_error::tflite_unsupported_operand).
template <class Model>
constexpr bool refused_operand(std::int64_t slot, ctnn::op_kind kind) {
  return error_of<Model>.code == code_of(ctnn::frontend_error::tflite_unsupported_operand) && error_of<Model>.input_slot == slot &&
         error_of<Model>.kind == kind;
}

// infer_types on the imported module: no diagnostic, and the same shape and type for every tensor.
template <class Module>
constexpr bool infer_types_keeps_file_shapes(const Module& m) {
  const Module inferred = ctnn::pass::infer_types::run(m);
  if (inferred.error.failed() || !inferred.has(ctnn::fact::shapes_inferred)) return false;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    if (!(inferred.tensor_at(t).dims == m.tensor_at(t).dims)) return false;
    if (inferred.tensor_at(t).type != m.tensor_at(t).type) return false;
  }
  return true;
}

// Every constant's data lies inside the embedded array, aligned to its element size, where the file's
// buffer is (nothing is copied).
template <class Module>
constexpr bool constants_point_into(const Module& m, const char* bytes, std::size_t size) {
  std::int32_t constants = 0;
  for (std::int32_t t = 0; t < m.tensor_count; ++t) {
    const ctnn::tensor& info = m.tensor_at(t);
    if (info.role != ctnn::tensor_role::constant) continue;
    ++constants;
    if (info.data.bytes == nullptr || info.data.f32 != nullptr || info.data.i8 != nullptr || info.data.i32 != nullptr)
      return false;
    const std::ptrdiff_t at = info.data.bytes - bytes;  // same array: a constant expression
    if (at < 8 || static_cast<std::size_t>(at) + static_cast<std::size_t>(info.bytes()) > size) return false;
    if (at % static_cast<std::ptrdiff_t>(ctnn::size_of(info.type)) != 0) return false;
  }
  return constants > 0;
}

}  // namespace ctnn_test
