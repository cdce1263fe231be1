/* Two models through their generated C interfaces (ctnn_add_model ... C_API), in one C99 program: the
   float conv_net.tflite and the quantized q_conv_net.onnx (a uint8 output with its scale and zero point).
   Checks the macros, each run function against the generators' references (capi_reference.cpp), and the
   error statuses. Built with -std=c99 -Wall -Wextra -Wpedantic -Werror on the host and the Cortex-M4. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctnn_conv_net.h"
#include "ctnn_q_conv_net.h"
#include "capi_reference.h"

/* Compile-time facts of the two plans (C99 has no _Static_assert: a negative array size stops the build). */
typedef char conv_net_input_elements[CTNN_CONV_NET_INPUT0_ELEMENTS == 162 ? 1 : -1];
typedef char conv_net_output_elements[CTNN_CONV_NET_OUTPUT0_ELEMENTS == 6 ? 1 : -1];
typedef char conv_net_float_io[CTNN_CONV_NET_INPUT0_DTYPE == CTNN_DTYPE_FLOAT32 ? 1 : -1];
typedef char q_conv_net_outputs[CTNN_Q_CONV_NET_OUTPUT_COUNT == 2 ? 1 : -1];
typedef char q_conv_net_uint8_output[CTNN_Q_CONV_NET_OUTPUT1_DTYPE == CTNN_DTYPE_UINT8 ? 1 : -1];
typedef char q_conv_net_output1_bytes[CTNN_Q_CONV_NET_OUTPUT1_BYTES == 144 ? 1 : -1];
typedef char single_pools[CTNN_CONV_NET_POOL_COUNT == 1 && CTNN_Q_CONV_NET_POOL_COUNT == 1 ? 1 : -1];

static int failures = 0;

static void expect(int condition, const char* what) {
  if (!condition) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

/* An arena of `bytes` aligned to `alignment` inside `storage` (C99 has no alignas). */
static void* aligned_in(unsigned char* storage, size_t alignment) {
  const uintptr_t at = (uintptr_t)storage;
  return storage + (alignment - at % alignment) % alignment;
}

static unsigned char conv_storage[CTNN_CONV_NET_ARENA_BYTES + CTNN_CONV_NET_ARENA_ALIGNMENT];
static unsigned char q_storage[CTNN_Q_CONV_NET_ARENA_BYTES + CTNN_Q_CONV_NET_ARENA_ALIGNMENT + 1];

int main(void) {
  const int dims[] = CTNN_Q_CONV_NET_INPUT0_DIMS;
  size_t c;
  expect(CTNN_Q_CONV_NET_INPUT0_RANK == 4 && dims[0] == 1 && dims[1] == 3 && dims[2] == 6 && dims[3] == 6,
         "q_conv_net input 0 is NCHW [1, 3, 6, 6]");
  expect(CTNN_Q_CONV_NET_OUTPUT1_SCALE == capi_reference_q_conv_net_output1_scale() &&
             CTNN_Q_CONV_NET_OUTPUT1_ZERO_POINT == capi_reference_q_conv_net_output1_zero_point() &&
             CTNN_Q_CONV_NET_OUTPUT1_SCALE > 0.0f,
         "q_conv_net output 1's scale and zero point are the compiled model's");
  expect(CTNN_CONV_NET_OUTPUT0_SCALE == 0.0f && CTNN_CONV_NET_OUTPUT0_ZERO_POINT == 0,
         "a float output has no quantization");
  expect(CTNN_CONV_NET_ARENA_BYTES == capi_reference_arena_bytes(capi_conv_net) &&
             CTNN_Q_CONV_NET_ARENA_BYTES == capi_reference_arena_bytes(capi_q_conv_net),
         "the arena sizes are the compiled plans'");

  for (c = 0; c < capi_reference_case_count(capi_conv_net); ++c) {
    float y[CTNN_CONV_NET_OUTPUT0_ELEMENTS];
    void* arena = aligned_in(conv_storage, CTNN_CONV_NET_ARENA_ALIGNMENT);
    memset(y, 0, sizeof y);
    expect(ctnn_conv_net_run(capi_reference_input(capi_conv_net, c), y) == CTNN_OK, "conv_net run");
    expect(capi_reference_matches(capi_conv_net, c, y, NULL), "conv_net run: outputs equal the reference");
    memset(y, 0, sizeof y);
    expect(ctnn_conv_net_run_with_arena(arena, capi_reference_input(capi_conv_net, c), y) == CTNN_OK,
           "conv_net run_with_arena");
    expect(capi_reference_matches(capi_conv_net, c, y, NULL), "conv_net run_with_arena: outputs equal the reference");
  }
  for (c = 0; c < capi_reference_case_count(capi_q_conv_net); ++c) {
    float y0[CTNN_Q_CONV_NET_OUTPUT0_ELEMENTS];
    uint8_t y1[CTNN_Q_CONV_NET_OUTPUT1_ELEMENTS];
    void* pools[CTNN_Q_CONV_NET_POOL_COUNT];
    pools[0] = aligned_in(q_storage, CTNN_Q_CONV_NET_ARENA_ALIGNMENT);
    memset(y0, 0, sizeof y0);
    memset(y1, 0, sizeof y1);
    expect(ctnn_q_conv_net_run(capi_reference_input(capi_q_conv_net, c), y0, y1) == CTNN_OK, "q_conv_net run");
    expect(capi_reference_matches(capi_q_conv_net, c, y0, y1), "q_conv_net run: outputs equal the reference");
    memset(y0, 0, sizeof y0);
    memset(y1, 0, sizeof y1);
    expect(ctnn_q_conv_net_run_with_pools(pools, capi_reference_input(capi_q_conv_net, c), y0, y1) == CTNN_OK,
           "q_conv_net run_with_pools");
    expect(capi_reference_matches(capi_q_conv_net, c, y0, y1), "q_conv_net run_with_pools: outputs equal the reference");
  }

  {
    float y[CTNN_CONV_NET_OUTPUT0_ELEMENTS];
    unsigned char* arena = (unsigned char*)aligned_in(conv_storage, CTNN_CONV_NET_ARENA_ALIGNMENT);
    expect(ctnn_conv_net_run(NULL, y) == CTNN_ERROR_NULL_ARGUMENT, "a null input is refused");
    expect(ctnn_conv_net_run_with_arena(NULL, capi_reference_input(capi_conv_net, 0), y) == CTNN_ERROR_NULL_ARGUMENT,
           "a null arena is refused");
    if (CTNN_CONV_NET_ARENA_ALIGNMENT > 1)
      expect(ctnn_conv_net_run_with_arena(arena + 1, capi_reference_input(capi_conv_net, 0), y) ==
                 CTNN_ERROR_MISALIGNED_MEMORY,
             "a misaligned arena is refused");
    expect(ctnn_conv_net_static_pool(0) != NULL && ctnn_conv_net_static_pool(1) == NULL, "static pools");
  }

  printf("C API, two models: %d failure(s); arenas %u and %u bytes\n", failures, (unsigned)CTNN_CONV_NET_ARENA_BYTES,
         (unsigned)CTNN_Q_CONV_NET_ARENA_BYTES);
  return failures == 0 ? 0 : 1;
}
