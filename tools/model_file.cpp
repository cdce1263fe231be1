// The model loading every tool shares (model_file.hpp), compiled once: the importers and the pipeline at
// the tools' two module capacities are the bulk of a tool's compile time, and three tools use them.
#include "model_file.hpp"

namespace ctnn_tools {

template ctnn::onnx::import_counts onnx_counts<large_module::tensor_capacity, large_module::node_capacity, large_onnx_values,
                                               large_module::tensor_capacity>(const char*, std::size_t,
                                                                              const ctnn::onnx::import_options&);

namespace detail {
template int import_tflite<small_module>(const model_context&, small_module&);
template int import_tflite<large_module>(const model_context&, large_module&);
template int import_onnx<small_module>(const model_context&, onnx_import<small_module>&);
template int import_onnx<large_module>(const model_context&, onnx_import<large_module>&);
}  // namespace detail

}  // namespace ctnn_tools
