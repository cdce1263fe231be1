// A model file that ctnn must reject (tests/frontend/tflite/CMakeLists.txt embeds it as model_under_test),
// compiled as a user does: its import fails the compilation with one error, the ctnn::errors::tflite_*
// class of the problem. The control target embeds a valid model under the same name and compiles.
#include <ctnn/ctnn.hpp>
#include <ctnn/models/model_under_test.hpp>

using net = ctnn::compile<ctnn::models::model_under_test>;
[[maybe_unused]] constexpr std::size_t calls = net::call_count;  // instantiates the executor and its check
