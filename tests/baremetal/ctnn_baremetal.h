/* Run-time information from the bare-metal start-up code (startup_cortex_m4.c), for programs built with
 * ctnn_add_baremetal_executable(). */
#ifndef CTNN_BAREMETAL_H
#define CTNN_BAREMETAL_H

/* The pattern Reset_Handler fills the stack reservation with (a program that measures the stack of one
 * piece of code repaints with it, so that the overflow check at exit still holds). */
#define CTNN_STACK_PAINT 0xA5C3A5C3u

#ifdef __cplusplus
extern "C" {
#endif

/* Size of the stack reservation in bytes (__stack_size__ in the linker script, 64 KB by default). */
unsigned long ctnn_baremetal_stack_size(void);

/* Peak stack use so far in bytes: Reset_Handler fills the stack with a pattern, this finds the lowest
 * overwritten word. (A function that reserves stack without writing to it is not counted.) */
unsigned long ctnn_baremetal_stack_peak(void);

#ifdef __cplusplus
}
#endif

#endif
