// Compile-fail case: a budget check of shared pools that names a pool no model has ("sram" where the
// models use the default pool "arena"). It must not read as 0 bytes and pass.
// Expected: the sentence of ctnn::shared_pools::named and the name's index (pool_count, 1) in the details.
// Control: the pool's real name.
#include <ctnn/ctnn.hpp>

namespace dsl = ctnn::dsl;

inline constexpr float fc_w[3 * 4] = {};
inline constexpr float fc_b[3] = {};

using model = dsl::sequential<dsl::input<ctnn::f32, 1, 4>, dsl::dense<fc_w, fc_b>, dsl::relu>;
using net_a = ctnn::compile<model>;
using net_b = ctnn::compile<model, ctnn::io_in_arena>;
using shared = ctnn::shared_pools<net_a, net_b>;
#ifdef CTNN_COMPILE_FAIL_CONTROL
static_assert(shared::bytes<"arena"> <= 64);
#else
static_assert(shared::bytes<"sram"> <= 64);
#endif
