// Compile-fail case 12e: run_with_arena given a byte array one byte shorter than net::arena_bytes (1,024 B:
// the relu's 8 x 8 x 4 floats).
// Expected: the static_assert "ctnn::executor::run_with_arena: the arena array is smaller than
// net::arena_bytes." with the array's type.
// Control: an array of net::arena_bytes.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 8, 8, 4>, dsl::relu, dsl::global_avg_pool>;
using net = ctnn::compile<model>;
static_assert(net::arena_bytes == 1024);

#ifdef CTNN_COMPILE_FAIL_CONTROL
alignas(net::arena_alignment) unsigned char arena[net::arena_bytes];
#else
alignas(net::arena_alignment) unsigned char arena[net::arena_bytes - 1];
#endif

void infer(const float* in, float* out) { net::run_with_arena(arena, in, out); }
