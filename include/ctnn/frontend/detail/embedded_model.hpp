#pragma once
// The model type both file frontends give (ctnn::tflite::model, ctnn::onnx::model): a file's bytes
// embedded in the program and the module imported from them. `Import::value` is that module (a static
// constexpr member, evaluated when first used: naming the model type imports nothing).
#include <cstddef>
#include <string_view>
#include <type_traits>

namespace ctnn::frontend_detail {

template <const char* Bytes, std::size_t Size, class Import>
struct embedded_model {
  using module_type = std::remove_cvref_t<decltype(Import::value)>;
  static constexpr std::string_view bytes{Bytes, Size};

  // The imported module; a file that cannot be imported gives a module whose `error` says why.
  static constexpr const module_type& imported = Import::value;

  // The frontend's entry, as for DSL models. A failed import's diagnostic becomes the compile error of
  // the executor's check (ctnn/errors.hpp), as every diagnostic does.
  static constexpr module_type build() { return imported; }
};

}  // namespace ctnn::frontend_detail
