/* Start-up code for bare-metal Cortex-M4 (with FPU) programs linked with mps2_an386.ld and
 * --specs=rdimon.specs (newlib + semihosting); Cortex-M7, M33 and M55 programs (mps2_an386.ld on mps2-an500,
 * mps2_an505.ld, mps3_an547.ld, secure state) use it as it is: the registers it touches (CPACR, CFSR, ...)
 * are at the same addresses there. Armv6-M (Cortex-M0+, no FPU, Thumb-1 only) gets its own assembly for
 * the same steps (CTNN_ARMV6M below) and a fault report without the Armv7-M fault status registers.
 *
 *  - Vector table (section .isr_vector, placed at the start of FLASH): initial SP = __StackTop, Reset_Handler, the
 *    core exceptions and 32 external interrupts. Every handler except Reset_Handler is a weak alias of
 *    Default_Handler, so a program can define e.g. SysTick_Handler itself.
 *  - Reset_Handler: enables the FPU (CP10/CP11 full access), copies .data from its load address to RAM
 *    (skipped when they are the same), fills the stack with a pattern (to measure its peak use) and
 *    branches to newlib's _start (rdimon-crt0), which zeroes .bss, sets up the stack and heap, opens
 *    the semihosting stdio handles, runs static constructors and calls main, then exit(main's return
 *    value).
 *  - _stack_init (a weak hook that rdimon-crt0 calls right after it has set SP): puts SP back to
 *    __StackTop and limits the heap to __StackLimit. rdimon-crt0 takes SP and the heap limit from the
 *    semihosting SYS_HEAPINFO call; QEMU answers with the top of its largest RAM (the 16 MB PSRAM at
 *    0x21000000 on mps2-an386), a debugger on a real board usually with 0 (then __stack is used). With
 *    the override the memory layout is the linker script's everywhere: heap [end, __StackLimit),
 *    stack [__StackLimit, __StackTop) (64 KB by default), and malloc fails instead of growing into the
 *    stack.
 *  - At exit, a destructor checks that the bottom of the stack reservation is untouched; if not, the
 *    stack (or something else) overflowed it and the program fails with a message.
 *  - Default_Handler: an unexpected exception or fault prints the exception number, the faulting PC
 *    and the fault status registers through semihosting and ends the program with a failure status,
 *    so that a crash under QEMU fails the test at once instead of hanging until the timeout.
 *
 * Everything that runs before the FPU is enabled is written in assembly, so that the compiler cannot
 * put a floating-point (or FP-register spill) instruction there.
 */
#include <stdint.h>

#include "ctnn_baremetal.h"

extern uint32_t __StackTop[];     /* linker script: top of RAM */
extern uint32_t __StackLimit[];   /* linker script: bottom of the stack reservation */
extern void _start(void);         /* rdimon-crt0.o */

/* How many words at the bottom of the stack reservation must stay untouched. */
#define CTNN_STACK_GUARD_WORDS 16u

void Reset_Handler(void);
void Default_Handler(void);
void ctnn_report_fault(const uint32_t *frame);

#define CTNN_WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("Default_Handler")))
CTNN_WEAK_HANDLER(NMI_Handler);
CTNN_WEAK_HANDLER(HardFault_Handler);
CTNN_WEAK_HANDLER(MemManage_Handler);
CTNN_WEAK_HANDLER(BusFault_Handler);
CTNN_WEAK_HANDLER(UsageFault_Handler);
CTNN_WEAK_HANDLER(SVC_Handler);
CTNN_WEAK_HANDLER(DebugMon_Handler);
CTNN_WEAK_HANDLER(PendSV_Handler);
CTNN_WEAK_HANDLER(SysTick_Handler);

typedef void (*ctnn_handler)(void);

struct ctnn_vector_table {
  void *initial_sp;
  ctnn_handler exceptions[15]; /* exception numbers 1..15 */
  ctnn_handler irqs[32];       /* external interrupts 0..31 (exception numbers 16..47) */
};

#define CTNN_D4 Default_Handler, Default_Handler, Default_Handler, Default_Handler
#define CTNN_D16 CTNN_D4, CTNN_D4, CTNN_D4, CTNN_D4

__attribute__((section(".isr_vector"), used))
const struct ctnn_vector_table ctnn_vector_table = {
    __StackTop,
    {
        Reset_Handler,      /*  1 */
        NMI_Handler,        /*  2 */
        HardFault_Handler,  /*  3 */
        MemManage_Handler,  /*  4 */
        BusFault_Handler,   /*  5 */
        UsageFault_Handler, /*  6 */
        0, 0, 0, 0,         /*  7..10 reserved */
        SVC_Handler,        /* 11 */
        DebugMon_Handler,   /* 12 */
        0,                  /* 13 reserved */
        PendSV_Handler,     /* 14 */
        SysTick_Handler,    /* 15 */
    },
    {CTNN_D16, CTNN_D16},
};

#if defined(__ARM_ARCH_6M__)
#define CTNN_ARMV6M 1
#else
#define CTNN_ARMV6M 0
#endif

#if CTNN_ARMV6M
/* The steps below (Armv7-M) with Thumb-1 instructions only: no FPU to enable, no movw/movt (literal pools),
 * no post-indexed loads, no conditional execution; _start may be out of range of a Thumb-1 branch. GCC
 * reads Thumb-1 inline assembly in divided syntax (-masm-syntax-unified is off): each block switches. */
__attribute__((naked, noreturn)) void Reset_Handler(void) {
  __asm volatile(
      ".syntax unified\n\t"
      "ldr  r0, =__data_load__\n\t"
      "ldr  r1, =__data_start__\n\t"
      "ldr  r2, =__data_end__\n\t"
      "cmp  r0, r1\n\t"
      "beq  2f\n"
      "1:\n\t"
      "cmp  r1, r2\n\t"
      "bhs  2f\n\t"
      "ldr  r3, [r0]\n\t"
      "str  r3, [r1]\n\t"
      "adds r0, #4\n\t"
      "adds r1, #4\n\t"
      "b    1b\n"
      "2:\n\t"
      "ldr  r0, =__StackLimit\n\t"
      "ldr  r1, =__StackTop\n\t"
      "ldr  r2, =0xA5C3A5C3\n" /* CTNN_STACK_PAINT */
      "3:\n\t"
      "cmp  r0, r1\n\t"
      "bhs  4f\n\t"
      "str  r2, [r0]\n\t"
      "adds r0, #4\n\t"
      "b    3b\n"
      "4:\n\t"
      "ldr  r0, =_start\n\t"
      "bx   r0\n\t"
      ".ltorg\n\t"
      ".syntax divided\n\t");
}

__attribute__((naked)) void _stack_init(void) {
  __asm volatile(
      ".syntax unified\n\t"
      "ldr  r0, =__StackTop\n\t"
      "mov  sp, r0\n\t"
      "ldr  r0, =__StackLimit\n\t"
      "ldr  r1, =__heap_limit\n\t"
      "str  r0, [r1]\n\t"
      "bx   lr\n\t"
      ".ltorg\n\t"
      ".syntax divided\n\t");
}

__attribute__((naked)) void Default_Handler(void) {
  __asm volatile(
      ".syntax unified\n\t"
      "movs r0, #4\n\t"
      "mov  r1, lr\n\t"
      "tst  r0, r1\n\t"
      "bne  1f\n\t"
      "mrs  r0, msp\n\t"
      "b    2f\n"
      "1:\n\t"
      "mrs  r0, psp\n"
      "2:\n\t"
      "ldr  r1, =__StackLimit + 256\n\t"
      "ldr  r2, =__StackTop\n\t"
      "mov  r3, r2\n\t"
      "cmp  r0, r1\n\t"
      "blo  3f\n\t"
      "cmp  r0, r2\n\t"
      "bhs  3f\n\t"
      "lsrs r3, r0, #3\n\t"
      "lsls r3, r3, #3\n"
      "3:\n\t"
      "mov  sp, r3\n\t"
      "ldr  r1, =ctnn_report_fault\n\t"
      "bx   r1\n\t"
      ".ltorg\n\t"
      ".syntax divided\n\t");
}
#else
__attribute__((naked, noreturn)) void Reset_Handler(void) {
  __asm volatile(
      /* SCB->CPACR (0xE000ED88) |= 0xF << 20: full access to CP10 and CP11 (the FPU). */
      "movw r0, #0xED88\n\t"
      "movt r0, #0xE000\n\t"
      "ldr  r1, [r0]\n\t"
      "orr  r1, r1, #0x00F00000\n\t"
      "str  r1, [r0]\n\t"
      "dsb\n\t"
      "isb\n\t"
      /* Copy .data from FLASH (load address) to RAM, unless the loader already put it there
       * (load address == run address). */
      "movw r0, #:lower16:__data_load__\n\t"
      "movt r0, #:upper16:__data_load__\n\t"
      "movw r1, #:lower16:__data_start__\n\t"
      "movt r1, #:upper16:__data_start__\n\t"
      "movw r2, #:lower16:__data_end__\n\t"
      "movt r2, #:upper16:__data_end__\n\t"
      "cmp  r0, r1\n\t"
      "beq  2f\n"
      "1:\n\t"
      "cmp  r1, r2\n\t"
      "bhs  2f\n\t"
      "ldr  r3, [r0], #4\n\t"
      "str  r3, [r1], #4\n\t"
      "b    1b\n"
      "2:\n\t"
      /* Paint the stack reservation [__StackLimit, __StackTop). Nothing is on the stack yet. */
      "movw r0, #:lower16:__StackLimit\n\t"
      "movt r0, #:upper16:__StackLimit\n\t"
      "movw r1, #:lower16:__StackTop\n\t"
      "movt r1, #:upper16:__StackTop\n\t"
      "movw r2, #0xA5C3\n\t" /* CTNN_STACK_PAINT */
      "movt r2, #0xA5C3\n"
      "3:\n\t"
      "cmp  r0, r1\n\t"
      "bhs  4f\n\t"
      "str  r2, [r0], #4\n\t"
      "b    3b\n"
      "4:\n\t"
      /* newlib's start-up: .bss, stack, heap, stdio, constructors, main, exit. */
      "b    _start\n\t");
}

/* Called by rdimon-crt0's _start right after it has set SP from SYS_HEAPINFO (or __stack), before it
 * uses the stack: SP = __StackTop, heap limit = __StackLimit (see the top of this file). */
__attribute__((naked)) void _stack_init(void) {
  __asm volatile(
      "movw r0, #:lower16:__StackTop\n\t"
      "movt r0, #:upper16:__StackTop\n\t"
      "mov  sp, r0\n\t"
      "movw r0, #:lower16:__StackLimit\n\t"
      "movt r0, #:upper16:__StackLimit\n\t"
      "movw r1, #:lower16:__heap_limit\n\t" /* librdimon: checked by _sbrk */
      "movt r1, #:upper16:__heap_limit\n\t"
      "str  r0, [r1]\n\t"
      "bx   lr\n\t");
}

__attribute__((naked)) void Default_Handler(void) {
  __asm volatile(
      /* r0 = the exception stack frame (MSP or PSP, from EXC_RETURN in lr), then report on the stack
       * below that frame when it lies in the stack reservation, so that the report's own calls leave it
       * intact, else on a fresh stack at the top (the fault may be a stack overflow). */
      "tst   lr, #4\n\t"
      "ite   eq\n\t"
      "mrseq r0, msp\n\t"
      "mrsne r0, psp\n\t"
      "movw  r1, #:lower16:__StackLimit\n\t"
      "movt  r1, #:upper16:__StackLimit\n\t"
      "add   r1, r1, #256\n\t"
      "movw  r2, #:lower16:__StackTop\n\t"
      "movt  r2, #:upper16:__StackTop\n\t"
      "mov   r3, r2\n\t"
      "cmp   r0, r1\n\t"
      "blo   1f\n\t"
      "cmp   r0, r2\n\t"
      "bhs   1f\n\t"
      "bic   r3, r0, #7\n"
      "1:\n\t"
      "mov   sp, r3\n\t"
      "b     ctnn_report_fault\n\t");
}
#endif /* CTNN_ARMV6M */

/* Semihosting call (bkpt 0xAB): r0 = operation, r1 = argument. */
static uint32_t ctnn_semihosting(uint32_t op, const void *arg) {
  register uint32_t r0 __asm("r0") = op;
  register const void *r1 __asm("r1") = arg;
  __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static char *ctnn_append(char *out, const char *text) {
  while (*text != '\0') {
    *out++ = *text++;
  }
  return out;
}

static char *ctnn_append_hex(char *out, uint32_t value) {
  out = ctnn_append(out, "0x");
  for (int shift = 28; shift >= 0; shift -= 4) {
    *out++ = "0123456789abcdef"[(value >> shift) & 0xFu];
  }
  return out;
}

__attribute__((noreturn, used)) void ctnn_report_fault(const uint32_t *frame) {
  static const char *const names[16] = {"thread",    "reset",      "NMI",         "HardFault",
                                        "MemManage", "BusFault",   "UsageFault",  "reserved",
                                        "reserved",  "reserved",   "reserved",    "SVCall",
                                        "DebugMon",  "reserved",   "PendSV",      "SysTick"};
  uint32_t ipsr;
  __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  const uint32_t exception = ipsr & 0x1FFu;
#if !CTNN_ARMV6M
  volatile const uint32_t *const scb_cfsr = (volatile const uint32_t *)0xE000ED28u;
  volatile const uint32_t *const scb_hfsr = (volatile const uint32_t *)0xE000ED2Cu;
  volatile const uint32_t *const scb_mmfar = (volatile const uint32_t *)0xE000ED34u;
  volatile const uint32_t *const scb_bfar = (volatile const uint32_t *)0xE000ED38u;
#endif

  static char message[256];
  char *out = ctnn_append(message, "\n*** bare-metal: unexpected exception ");
  out = ctnn_append_hex(out, exception);
  out = ctnn_append(out, " (");
  out = ctnn_append(out, exception < 16 ? names[exception] : "IRQ");
  out = ctnn_append(out, ")");
  const uintptr_t frame_address = (uintptr_t)frame;
  if (frame_address >= 0x20000000u && frame_address + 32u <= (uintptr_t)__StackTop) {
    out = ctnn_append(out, " pc=");
    out = ctnn_append_hex(out, frame[6]);
    out = ctnn_append(out, " lr=");
    out = ctnn_append_hex(out, frame[5]);
  }
#if !CTNN_ARMV6M /* Armv6-M has no configurable fault status registers */
  out = ctnn_append(out, " CFSR=");
  out = ctnn_append_hex(out, *scb_cfsr);
  out = ctnn_append(out, " HFSR=");
  out = ctnn_append_hex(out, *scb_hfsr);
  out = ctnn_append(out, " MMFAR=");
  out = ctnn_append_hex(out, *scb_mmfar);
  out = ctnn_append(out, " BFAR=");
  out = ctnn_append_hex(out, *scb_bfar);
#endif
  out = ctnn_append(out, "\n");
  *out = '\0';

  ctnn_semihosting(0x04u, message);                   /* SYS_WRITE0 */
  ctnn_semihosting(0x18u, (const void *)0x20023u);    /* SYS_EXIT, ADP_Stopped_RunTimeError */
  for (;;) {
  }
}

unsigned long ctnn_baremetal_stack_size(void) {
  return (unsigned long)((uintptr_t)__StackTop - (uintptr_t)__StackLimit);
}

unsigned long ctnn_baremetal_stack_peak(void) {
  const volatile uint32_t *word = __StackLimit;
  while (word < __StackTop && *word == CTNN_STACK_PAINT) {
    ++word;
  }
  return (unsigned long)((uintptr_t)__StackTop - (uintptr_t)word);
}

/* Runs in exit() (newlib's __libc_fini_array), after main has returned. */
__attribute__((destructor)) static void ctnn_check_stack_guard(void) {
  const volatile uint32_t *word = __StackLimit;
  for (uint32_t i = 0; i < CTNN_STACK_GUARD_WORDS; ++i) {
    if (word[i] != CTNN_STACK_PAINT) {
      ctnn_semihosting(0x04u, "\n*** bare-metal: the stack reached the bottom of its reservation "
                              "(overflow; enlarge it with -Wl,--defsym=__stack_size__=...)\n");
      ctnn_semihosting(0x18u, (const void *)0x20023u); /* SYS_EXIT, ADP_Stopped_RunTimeError */
      return;
    }
  }
}
