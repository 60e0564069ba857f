/* pushpush's C runtime, c/runtime/pp_platform_baremetal.c: copied as is into every generated c/ folder; edit the original. */
/*
 * pushpush C runtime, bare-metal layer (see pp_platform.h): the global endpoint address
 * space is the CPU's physical address space, so a window is a pointer and a call is a row
 * of volatile stores (a barrier before the trigger word). Compiles with -ffreestanding
 * -nostdlib; needs only <stddef.h>/<stdint.h> and a compiler that provides
 * __sync_synchronize (GCC/Clang: `dmb` on ARMv7). The documented minimum you provide: a
 * microsecond clock (now_us), and an idle hook if you want one (co-operative round robin:
 * run other tasks there). Map the OCM and GP0 ranges as Strongly-ordered memory in your MMU
 * tables (or leave the MMU off); with a Device mapping set strongly_ordered to 0 (the
 * runtime then puts its barriers back, pp_platform.strongly_ordered).
 */
#include "pp_platform.h"

int pp_baremetal_write(void *ctx, uint32_t addr, const uint32_t *words, unsigned n)
{
    volatile uint32_t *dst = (volatile uint32_t *)(uintptr_t)addr;
    unsigned k;
    (void)ctx;
    if (n == 0)
        return PP_OK;
    if ((addr & 3u) != 0)
        return PP_EINVAL;
    for (k = 0; k + 1u < n; k++)
        dst[k] = words[k];
    /* Needed: the last word (trigger, status) after the others and after every earlier store
     * of the runtime (a slot's re-arm before its reply), also on a Normal-memory mapping */
    PP_BARRIER();
    dst[n - 1u] = words[n - 1u];
    /* Needed: the write in effect before the runtime reads on (the interrupt block's clear
     * before the sweep after it, docs/architecture.md section 2.3) */
    PP_BARRIER();
    return PP_OK;
}

volatile uint32_t *pp_baremetal_direct(void *ctx, uint32_t addr, unsigned n, int *soft)
{
    (void)ctx;
    (void)n;
    *soft = 0; /* (as pp_baremetal_write: a software callee's pending slot is overwritten) */
    return (addr & 3u) == 0 ? (volatile uint32_t *)(uintptr_t)addr : NULL;
}

int pp_baremetal_read(void *ctx, uint32_t addr, uint32_t *value)
{
    (void)ctx;
    if ((addr & 3u) != 0)
        return PP_EINVAL;
    *value = *(volatile const uint32_t *)(uintptr_t)addr;
    return PP_OK;
}

int pp_baremetal_platform(uint32_t window_base, uint64_t (*now_us)(void *), void (*idle)(void *), void *ctx,
                          pp_platform *out)
{
    if (now_us == NULL || (window_base & 3u) != 0)
        return PP_EINVAL;
    out->write = pp_baremetal_write;
    out->idle = idle;
    out->now_us = now_us;
    out->ctx = ctx;
    out->window = (volatile uint32_t *)(uintptr_t)window_base;
    out->yield = idle;        /* PP_WAIT_YIELD: your hook too (there is no scheduler here) */
    out->irq_open = NULL;     /* PP_WAIT_INTERRUPT: not provided (your GIC handler's job) */
    out->irq_wait = NULL;
    out->claim = NULL;        /* one program owns the CPU: nothing to claim */
    out->unclaim = NULL;
    out->pending = NULL;      /* (a software callee's slot is overwritten when pending) */
    out->timed_out = NULL;
#if PP_DIRECT
    out->direct = pp_baremetal_direct;
    /* The OCM and GP0 ranges mapped Strongly-ordered, or the MMU off (then every data access
     * is Strongly-ordered): the runtime's own accesses need no barrier between them. A
     * Device or Normal mapping: set out->strongly_ordered = 0 after this call. */
    out->strongly_ordered = 1;
#endif
    out->read = pp_baremetal_read;
#ifdef PP_TRACE
    out->cycles = NULL;
    out->trace_open = NULL;
#endif
    return PP_OK;
}
