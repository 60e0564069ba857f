/*
 * riscv_pingpong: component 'callee', C on the soft RISC-V core (kind: riscv, docs/riscv.md).
 * Built by pushpush (pushpush.c.riscv) with the generated proxies and the bare-metal runtime;
 * runs from reset: opens its window, then serves its exports forever.
 *
 *   f(x)      the pingpong callee's state machine (as pingpong_callee.v)
 *   bench(n)  n chained calls of hw.f (Verilog), the first with x = 3; returns the cycles the
 *             core counted (rdcycle), 0xFFFFFFFF if a call failed
 *   last()    the result of bench's last call
 */
#include "callee_pp.h"
#include "pp_platform_riscv.h"

#define GOLDEN 0x9E3779B9u

static uint32_t state = 0;
static int32_t last_result = 0;

/* f: state <= rotl(state, 5) ^ x + 0x9E3779B9, returns the new state */
int callee_f(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

int callee_bench(pp_rt *rt, uint32_t n, uint32_t *result)
{
    int32_t x = 3, r = 0;
    uint64_t c0 = pp_riscv_cycles();
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (callee_hw_f(rt, x, &r) != PP_OK) {
            *result = 0xFFFFFFFFu;
            return PP_OK;
        }
        x = r;
    }
    *result = (uint32_t)(pp_riscv_cycles() - c0);
    last_result = r;
    return PP_OK;
}

int callee_last(pp_rt *rt, int32_t *result)
{
    (void)rt;
    *result = last_result;
    return PP_OK;
}

int main(void)
{
    static pp_rt rt;
    static pp_riscv rv;
    pp_platform plat;

    if (pp_riscv_platform(&rv, CALLEE_BASE, &plat) != PP_OK || callee_open(&rt, &plat) != PP_OK)
        return 1;   /* ebreak: the core stops (pp_riscv.trap) */
    pp_riscv_bind(&rv, &rt);
    pp_serve(&rt, NULL, 0); /* serve forever: spin on the slot of the last call, sweep, idle */
    return 0;
}
