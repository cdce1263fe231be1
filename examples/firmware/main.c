/* KWS on a Cortex-M through ctnn's C interface: one recorded input (kws_case.h), its class, the output
   checked byte for byte against TensorFlow Lite Micro's, and the SysTick ticks of one inference. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctnn_kws.h"
#include "kws_case.h"

/* SysTick (Armv7-M / Armv8-M system timer), counting down at the processor clock. */
#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)

typedef char input_size_matches[sizeof kws_input == CTNN_KWS_INPUT0_BYTES ? 1 : -1];
typedef char output_size_matches[sizeof kws_expected == CTNN_KWS_OUTPUT0_BYTES ? 1 : -1];

static int8_t scores[CTNN_KWS_OUTPUT0_ELEMENTS];

int main(void) {
  uint32_t start, ticks;
  int status, best = 0, i;
  SYST_RVR = 0xFFFFFFu; /* 24 bits: one inference stays well inside one period */
  SYST_CVR = 0u;
  SYST_CSR = 5u; /* enabled, processor clock, no interrupt */
  start = SYST_CVR;
  status = ctnn_kws_run(kws_input, scores);
  ticks = (start - SYST_CVR) & 0xFFFFFFu;
  if (status != CTNN_OK) {
    printf("ctnn_kws_run failed: %d\n", status);
    return 1;
  }
  for (i = 1; i < CTNN_KWS_OUTPUT0_ELEMENTS; ++i)
    if (scores[i] > scores[best]) best = i;
  printf("kws: %u bytes of arena, input %d int8 values, output %d classes\n", (unsigned)CTNN_KWS_ARENA_BYTES,
         CTNN_KWS_INPUT0_ELEMENTS, CTNN_KWS_OUTPUT0_ELEMENTS);
#ifdef KWS_INSTRUCTIONS_PER_100_TICKS
  /* ticks x the board's figure, in 32-bit integers (ticks < 2^24, the figure <= 100): exact to the instruction. */
  printf("inference: %lu SysTick ticks (x %s = %lu instructions under qemu -icount shift=0 on %s)\n",
         (unsigned long)ticks, KWS_INSTRUCTIONS_PER_TICK,
         (unsigned long)(ticks / 100u * KWS_INSTRUCTIONS_PER_100_TICKS + ticks % 100u * KWS_INSTRUCTIONS_PER_100_TICKS / 100u),
         KWS_BOARD);
#else
  printf("inference: %lu SysTick ticks on %s\n", (unsigned long)ticks, KWS_BOARD);
#endif
  /* The scale in millionths, folded by the compiler: printf needs no float formatting (newlib-nano's is opt-in). */
  printf("probability of class %d: %d/256 (scale %lu.%06lu, zero point %d)\n", best,
         (int)scores[best] - CTNN_KWS_OUTPUT0_ZERO_POINT, (unsigned long)CTNN_KWS_OUTPUT0_SCALE,
         (unsigned long)((CTNN_KWS_OUTPUT0_SCALE - (unsigned long)CTNN_KWS_OUTPUT0_SCALE) * 1e6 + 0.5),
         CTNN_KWS_OUTPUT0_ZERO_POINT);
  if (memcmp(scores, kws_expected, sizeof scores) != 0) {
    printf("the output differs from TensorFlow Lite Micro's\n");
    return 1;
  }
  printf("class %d, as TensorFlow Lite Micro\n", best);
  return 0;
}
