// Compile-fail case 18: a pool given to ctnn::compile without ctnn::pools<> around it (not an option).
// Expected: one static_assert, "ctnn::compile<Model, Options...>: an option is not a compile option ...",
// whose instantiation names the option (check_compile_option<ctnn::pool<...>>); nothing else.
// Control: the pool inside ctnn::pools<>.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
using net = ctnn::compile<model, ctnn::memory_reuse, ctnn::pools<ctnn::pool<"sram", 4096>>>;
#else
using net = ctnn::compile<model, ctnn::memory_reuse, ctnn::pool<"sram", 4096>>;
#endif

void infer(const float* in, float* out) { net::run(in, out); }
