/* pushpush's C runtime, c/runtime/pp_platform_riscv.c: copied as is into a kind: riscv program's build folder; edit the original. */
/*
 * pushpush C runtime, RISC-V soft-core layer (see pp_platform_riscv.h). A call is a row of
 * stores; the core waits for each store's AXI write response, so the words land in program
 * order and the trigger, stored last, lands last. Each response that is not OKAY is counted
 * by the wrapper and noted in its error word: the write returns PP_ECOLLISION after a SLVERR
 * (an rtl window refused a write into a pending slot: the runtime retries until its timeout)
 * and PP_EBADFN after a DECERR (no component there). Waiting polls the own window: local memory, no bus traffic.
 */
#include "pp_platform_riscv.h"

#define PP_RISCV_REG(off) (*(volatile uint32_t *)(uintptr_t)(PP_RISCV_CTRL_BASE + (off)))

/* A 64-bit counter of the control page: high, low, high again until the high word held. */
static uint64_t pp_riscv_counter64(uint32_t lo_off)
{
    uint32_t hi, lo, hi2;
    do {
        hi = PP_RISCV_REG(lo_off + 4u);
        lo = PP_RISCV_REG(lo_off);
        hi2 = PP_RISCV_REG(lo_off + 4u);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

uint64_t pp_riscv_cycles(void)
{
    return pp_riscv_counter64(PP_RISCV_CTRL_CYCLE_LO);
}

/* The words, one store each (the core waits for each store's write response, so they land
 * in order, the last one last), then the error word: a SLVERR or DECERR among them. The
 * error word is read (so cleared) before too, so a failed store made outside this function
 * is not taken for one of this write. */
static int pp_riscv_write(void *ctx, uint32_t addr, const uint32_t *words, unsigned n)
{
    volatile uint32_t *dst = (volatile uint32_t *)(uintptr_t)addr;
    uint32_t err;
    (void)ctx;
    if ((addr & 3u) != 0)
        return PP_EINVAL;
    (void)PP_RISCV_REG(PP_RISCV_CTRL_ERRORS);
#ifdef PP_RISCV_CPU_VEXRISCV
    /* the loop: its instructions overlap the wait for each store's response (unrolled,
     * the second store waits for the first's: 4 cycles more per call) */
    for (; n > 0u; n--)
        *dst++ = *words++;
#else
    /* PicoRV32 (4 cycles per instruction): the usual call and reply (one word and the
     * trigger or status) without the loop's instructions: 16 cycles less per write */
    for (; n > 2u; n--)
        *dst++ = *words++;
    if (n == 2u) {
        dst[0] = words[0];
        dst[1] = words[1];
    } else if (n == 1u) {
        dst[0] = words[0];
    }
#endif
    err = PP_RISCV_REG(PP_RISCV_CTRL_ERRORS);
    if (err == 0)
        return PP_OK;
    return (err & 2u) != 0 ? PP_EBADFN : PP_ECOLLISION;
}

uint64_t pp_riscv_now_us(void *ctx)
{
    (void)ctx;
    return pp_riscv_counter64(PP_RISCV_CTRL_US_LO);
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
    out->window = (volatile uint32_t *)(uintptr_t)(window_base | PP_RISCV_IO);
    out->yield = pp_riscv_idle;
    out->irq_open = NULL;     /* PP_WAIT_INTERRUPT: not provided (the core polls its window) */
    out->irq_wait = NULL;
    out->claim = NULL;        /* one program owns the core: nothing to claim */
    out->unclaim = NULL;
    out->pending = NULL;
    out->timed_out = NULL;
#if PP_DIRECT
    out->direct = NULL;          /* every store's AXI response is checked (pp_riscv_write) */
    out->strongly_ordered = 0;
#endif
    out->read = NULL;         /* the core is a PL master: the firewall's page is the ARM's alone */
#ifdef PP_TRACE
    out->cycles = NULL;
    out->trace_open = NULL;
#endif
    return PP_OK;
}
