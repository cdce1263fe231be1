#pragma once
// The data of patch execution (docs/memory.md, "Patch execution"), public: what the option asks for, why
// a prefix cannot be patched, and the plan the pass made with the figures the reports show
// (pass::patch_execution<R>::plan(module)).
#include <cstdint>

namespace ctnn::pass {

inline constexpr std::int32_t max_patch_prefix = 24;  // ops in a patched prefix
inline constexpr std::int32_t max_patch_grid = 8;     // patches along one axis
// The automatic choice tries grids of at most this many patches: every patch adds a call per prefix op,
// and planning VWW's 4-op prefix on an 8 x 8 grid (384 more calls) exceeds g++'s constexpr operation
// limit in the default planner's hill climb (docs/memory.md, "Patch execution").
inline constexpr std::int32_t max_automatic_patches = 16;

// Why a prefix cannot be patched (a patch_error diagnostic's `reason`, the errors:: type's argument).
enum class patch_problem : std::int32_t {
  none,
  op_not_patchable,   // an op that mixes pixels across the whole map (global pool, dense, reshape, softmax, ...)
  not_a_chain,        // the op does not read the previous op's result, or that result has other readers
  operand_not_local,  // a second operand that is not a per-channel constant
  not_nhwc,           // the prefix's input is not a rank-4 map
  bad_prefix,         // no op, more than max_patch_prefix ops, or the whole model
  bad_grid,           // a grid of 0 or more than max_patch_grid patches along an axis, or more than the map
  input_not_streamable,  // streamed input: the prefix's input is not a model input of batch 1 that only it reads
  no_grid_within_macs,   // streamed input, automatic: no prefix and grid within max_extra_macs
};

struct prefix_check {
  patch_problem problem = patch_problem::none;
  std::int32_t op = -1;  // the op at fault
};

// What a patched prefix costs and needs, from the geometry alone.
struct patch_figures {
  std::int64_t whole_macs = 0;    // the prefix run over whole tensors
  std::int64_t patched_macs = 0;  // the prefix run patch by patch (the halos recomputed)
  std::int32_t halo_rows = 0, halo_columns = 0;  // the largest overlap of two neighbouring input windows
};

// What the option asks for: ops > 0 an explicit prefix (the first `ops` ops) and grid; ops == 0 the
// automatic choice within max_extra_macs percent of the model's MACs. streamed_input 1: the prefix's input
// is read by rows from the caller (ctnn::streamed_input), and the automatic choice always makes a patch
// stage (the smallest estimate; the interface then takes a ctnn::row_source whatever the RAM). A template
// argument: int32 only.
struct patch_request {
  std::int32_t ops = 0;
  std::int32_t rows = 0, columns = 0;
  std::int32_t max_extra_macs = 10;
  std::int32_t streamed_input = 0;
};

// What was chosen, with the figures the report shows (ops == 0: no patch stage).
struct patch_plan {
  std::int32_t ops = 0, rows = 1, columns = 1;
  prefix_check check{};
  patch_figures figures{};
  std::int64_t model_macs = 0;
  // Estimated total RAM (pool peak + I/O in the caller's buffers) without and with the patch stage, under the
  // plan options given to plan_patches (default: every tensor counted, plain liveness), in bytes.
  std::int64_t peak_before = 0, peak_after = 0;
  bool streamed = false;                          // the input is read by rows into a row buffer
  std::int32_t buffered_rows = 0;                 // streamed: the row buffer's rows (the most one patch row reads)
  constexpr std::int32_t patches() const { return rows * columns; }
  constexpr std::int64_t extra_macs() const { return figures.patched_macs - figures.whole_macs; }
};

}  // namespace ctnn::pass
