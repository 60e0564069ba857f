/* pushpush's C runtime, c/runtime/pp_platform_riscv.c: copied as is into a kind: riscv program's build folder; edit the original. */
/*
 * pushpush C runtime, RISC-V soft-core layer (see pp_platform_riscv.h). A call is a row of
 * stores; the core waits for each store's AXI write response, so the words land in program
 * order and the trigger, stored last, lands last. Each response that is not OKAY is counted
 * by the wrapper: the write returns PP_ECOLLISION after a SLVERR (an rtl window refused a
 * write into a pending slot: the runtime retries until its timeout) and PP_EBADFN after a
 * DECERR (no component there). Waiting polls the own window: local memory, no bus traffic.
 */
#include "pp_platform_riscv.h"

#define PP_RISCV_REG(off) (*(volatile uint32_t *)(uintptr_t)(PP_RISCV_CTRL_BASE + (off)))

uint64_t pp_riscv_cycles(void)
{
    uint32_t hi, lo, hi2;
    do {
        __asm__ volatile ("rdcycleh %0" : "=r"(hi));
        __asm__ volatile ("rdcycle %0" : "=r"(lo));
        __asm__ volatile ("rdcycleh %0" : "=r"(hi2));
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

static int pp_riscv_write(void *ctx, uint32_t addr, const uint32_t *words, unsigned n)
{
    volatile uint32_t *dst = (volatile uint32_t *)(uintptr_t)addr;
    uint32_t slv = PP_RISCV_REG(PP_RISCV_CTRL_SLVERR), dec = PP_RISCV_REG(PP_RISCV_CTRL_DECERR);
    unsigned k;
    (void)ctx;
    if (n == 0)
        return PP_OK;
    if ((addr & 3u) != 0)
        return PP_EINVAL;
    for (k = 0; k < n; k++)
        dst[k] = words[k];
    if (PP_RISCV_REG(PP_RISCV_CTRL_DECERR) != dec)
        return PP_EBADFN;
    if (PP_RISCV_REG(PP_RISCV_CTRL_SLVERR) != slv)
        return PP_ECOLLISION;
    return PP_OK;
}

uint64_t pp_riscv_now_us(void *ctx)
{
    uint32_t hi, lo, hi2;
    (void)ctx;
    do {
        hi = PP_RISCV_REG(PP_RISCV_CTRL_US_HI);
        lo = PP_RISCV_REG(PP_RISCV_CTRL_US_LO);
        hi2 = PP_RISCV_REG(PP_RISCV_CTRL_US_HI);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

static void pp_riscv_idle(void *ctx)
{
    const pp_riscv *rv = (const pp_riscv *)ctx;
    if (rv->rt != NULL) {
        PP_RISCV_REG(PP_RISCV_CTRL_COUNTERS + 0x0u) = rv->rt->counters.collisions;
        PP_RISCV_REG(PP_RISCV_CTRL_COUNTERS + 0x4u) = rv->rt->counters.duplicates;
        PP_RISCV_REG(PP_RISCV_CTRL_COUNTERS + 0x8u) = rv->rt->counters.strays;
        PP_RISCV_REG(PP_RISCV_CTRL_COUNTERS + 0xCu) = rv->rt->counters.write_errors;
    }
}

void pp_riscv_bind(pp_riscv *rv, const pp_rt *rt)
{
    rv->rt = rt;
    pp_riscv_idle(rv);
}

int pp_riscv_platform(pp_riscv *rv, uint32_t window_base, pp_platform *out)
{
    if (rv == NULL || (window_base & 3u) != 0)
        return PP_EINVAL;
    rv->rt = NULL;
    out->write = pp_riscv_write;
    out->idle = pp_riscv_idle;
    out->now_us = pp_riscv_now_us;
    out->ctx = rv;
    out->window = (volatile uint32_t *)(uintptr_t)window_base;
    out->yield = pp_riscv_idle;
    out->irq_open = NULL;     /* PP_WAIT_INTERRUPT: not provided (the core polls its window) */
    out->irq_wait = NULL;
    out->claim = NULL;        /* one program owns the core: nothing to claim */
    out->unclaim = NULL;
    out->pending = NULL;
    out->timed_out = NULL;
    out->read = NULL;         /* the core is a PL master: the firewall's page is the ARM's alone */
#ifdef PP_TRACE
    out->cycles = NULL;
    out->trace_open = NULL;
#endif
    return PP_OK;
}
