/* A stateful model through its generated C interface: the int8 SVDF of the state family
   (tests/data/ops/state/svdf_i8_state_i8_zero_point_6_runs, TFLM's output after six runs on one input). Checks
   the state macros, that ctnn_<x>_run carries the state and ctnn_<x>_reset restores it, that
   ctnn_<x>_run_with_state keeps one state per caller, and the error statuses. C99, host. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctnn_svdf.h"

/* batch 1, 8 filters, memory 3, int8 state: 24 bytes, rounded up to the state alignment. */
typedef char svdf_state_bytes[CTNN_SVDF_STATE_BYTES == 32 && CTNN_SVDF_STATE_ALIGNMENT == 16 ? 1 : -1];

static int failures = 0;

static void expect(int condition, const char* what) {
  if (!condition) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

static int read_file(const char* name, void* into, size_t bytes) {
  char path[1024];
  FILE* file;
  size_t got;
  snprintf(path, sizeof path, "%s/%s", CTNN_STATE_CASE_DIR, name);
  file = fopen(path, "rb");
  if (file == NULL) return 0;
  got = fread(into, 1, bytes, file);
  fclose(file);
  return got == bytes;
}

static unsigned char arena_storage[CTNN_SVDF_ARENA_BYTES + 2 * CTNN_SVDF_ARENA_ALIGNMENT];
static unsigned char state_storage[2][CTNN_SVDF_STATE_BYTES + CTNN_SVDF_STATE_ALIGNMENT];

static void* aligned_in(unsigned char* storage, size_t alignment) {
  const uintptr_t at = (uintptr_t)storage;
  return storage + (alignment - at % alignment) % alignment;
}

int main(void) {
  int8_t x[CTNN_SVDF_INPUT0_ELEMENTS], want[CTNN_SVDF_OUTPUT0_ELEMENTS], first[CTNN_SVDF_OUTPUT0_ELEMENTS],
      y[CTNN_SVDF_OUTPUT0_ELEMENTS];
  void* pools[CTNN_SVDF_POOL_COUNT];
  void* a = aligned_in(state_storage[0], CTNN_SVDF_STATE_ALIGNMENT);
  void* b = aligned_in(state_storage[1], CTNN_SVDF_STATE_ALIGNMENT);
  int n;
  pools[0] = aligned_in(arena_storage, CTNN_SVDF_ARENA_ALIGNMENT);
  expect(read_file("input_0.bin", x, sizeof x) && read_file("output_0.bin", want, sizeof want), "the case's files");

  expect(ctnn_svdf_run(x, first) == CTNN_OK, "run");
  for (n = 1; n < 6; ++n) expect(ctnn_svdf_run(x, y) == CTNN_OK, "run");
  expect(memcmp(y, want, sizeof y) == 0, "six runs: TFLM's output");
  ctnn_svdf_reset();
  expect(ctnn_svdf_run(x, y) == CTNN_OK && memcmp(y, first, sizeof y) == 0, "reset: the first run's output again");

  expect(ctnn_svdf_reset_state(a) == CTNN_OK && ctnn_svdf_reset_state(b) == CTNN_OK, "reset_state");
  for (n = 0; n < 6; ++n) expect(ctnn_svdf_run_with_state(a, pools, x, y) == CTNN_OK, "run_with_state a");
  expect(memcmp(y, want, sizeof y) == 0, "stream a, six runs: TFLM's output");
  expect(ctnn_svdf_run_with_state(b, pools, x, y) == CTNN_OK && memcmp(y, first, sizeof y) == 0,
         "stream b, one run: the first run's output");

  expect(ctnn_svdf_reset_state(NULL) == CTNN_ERROR_NULL_ARGUMENT, "reset_state(NULL)");
  expect(ctnn_svdf_run_with_state(NULL, pools, x, y) == CTNN_ERROR_NULL_ARGUMENT, "run_with_state without a state");
  expect(ctnn_svdf_run_with_state((unsigned char*)a + 1, pools, x, y) == CTNN_ERROR_MISALIGNED_MEMORY,
         "run_with_state on a misaligned state");
  printf("C API, state: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
