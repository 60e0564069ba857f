/* pushpush's C runtime, c/runtime/pp_platform_riscv.h: copied as is into a kind: riscv program's build folder; edit the original. */
/*
 * pushpush C runtime, RISC-V soft-core layer (kind: riscv, docs/riscv.md): the platform of
 * a component running bare metal on cores/riscv's PicoRV32. The core's address space is the
 * global endpoint address space: its own window is local dual-ported memory at its global
 * address, every other address a store through the core's AXI master.
 */
#ifndef PP_PLATFORM_RISCV_H
#define PP_PLATFORM_RISCV_H

#include "pp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Uncached alias: VexRiscv's data cache leaves addresses with bit 31 set to the bus (its
 * ioRange), so the own window and the control page, which the hardware changes under the
 * core, are read at their address with bit 31 set (pp_riscv decodes both without bit 31
 * when CPU is vexriscv). PicoRV32 has no cache: no alias. */
#ifdef PP_RISCV_CPU_VEXRISCV
#define PP_RISCV_IO 0x80000000u
#else
#define PP_RISCV_IO 0u
#endif
/* The control page of cores/riscv (pp_riscv's CTRL_BASE), as the core reads it */
#define PP_RISCV_CTRL_BASE (0x10000000u | PP_RISCV_IO)
#define PP_RISCV_CTRL_COUNTERS 0x00u /* 4 words: shown at the window's byte offsets 0x0..0xC */
#define PP_RISCV_CTRL_SLVERR 0x10u   /* m_axi responses SLVERR */
#define PP_RISCV_CTRL_DECERR 0x14u   /* m_axi responses DECERR */
#define PP_RISCV_CTRL_US_LO 0x18u    /* microseconds since reset (the wrapper's CLOCK_MHZ) */
#define PP_RISCV_CTRL_US_HI 0x1Cu
#define PP_RISCV_CTRL_CYCLE_LO 0x20u /* clock cycles since reset, low word (either core) */
#define PP_RISCV_CTRL_CYCLE_HI 0x24u
#define PP_RISCV_CTRL_HALT 0x28u     /* a write stops the program (pp_riscv.trap; crt0 after main) */
#define PP_RISCV_CTRL_ERRORS 0x2Cu   /* m_axi error responses since the last read of this word
                                      * (the read clears it): bit 0 SLVERR, bit 1 DECERR */
#define PP_RISCV_CTRL_CPU 0x30u      /* the core: 0 PicoRV32, 1 VexRiscv */

typedef struct {
    const pp_rt *rt;     /* set by pp_riscv_bind: its counters are published at every idle */
} pp_riscv;

/* The platform of the component whose window starts at window_base. */
int pp_riscv_platform(pp_riscv *rv, uint32_t window_base, pp_platform *out);
/* Publish rt's counters in the window (AXI reads of offsets 0x0..0xC) from now on. */
void pp_riscv_bind(pp_riscv *rv, const pp_rt *rt);
/* Clock cycles since reset (the control page's counter: rdcycle is PicoRV32's only). */
uint64_t pp_riscv_cycles(void);
/* Microseconds since reset (the wrapper's counter; now_us of the platform). */
uint64_t pp_riscv_now_us(void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* PP_PLATFORM_RISCV_H */
