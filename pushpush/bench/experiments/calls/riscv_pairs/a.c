/*
 * pushpush bench calls, the riscv <-> riscv and riscv -> python rows (pushpush.bench.experiments.calls.riscv_rows):
 * component 'a', C on a soft RISC-V core. Its exports time n chained calls with the core's
 * cycle counter (rdcycle): the count is exact, software time included.
 *
 *   to_rv(n)  n chained calls of b.g (C on a second core), the first with x = 3
 *   to_py(n)  n chained calls of host.p (Python on the ARM), the first with x = 5
 *   last()    the last result either got
 * Each returns the cycles, or 0xFFFFFFFF if a call failed.
 */
#include "a_pp.h"
#include "pp_platform_riscv.h"

static int32_t last_result = 0;

int a_to_rv(pp_rt *rt, uint32_t n, uint32_t *result)
{
    int32_t x = 3, r = 0;
    uint64_t c0 = pp_riscv_cycles();
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (a_b_g(rt, x, &r) != PP_OK) {
            *result = 0xFFFFFFFFu;
            return PP_OK;
        }
        x = r;
    }
    *result = (uint32_t)(pp_riscv_cycles() - c0);
    last_result = r;
    return PP_OK;
}

int a_to_py(pp_rt *rt, uint32_t n, uint32_t *result)
{
    int32_t x = 5, r = 0;
    uint64_t c0 = pp_riscv_cycles();
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (a_host_p(rt, x, &r) != PP_OK) {
            *result = 0xFFFFFFFFu;
            return PP_OK;
        }
        x = r;
    }
    *result = (uint32_t)(pp_riscv_cycles() - c0);
    last_result = r;
    return PP_OK;
}

int a_last(pp_rt *rt, int32_t *result)
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

    if (pp_riscv_platform(&rv, A_BASE, &plat) != PP_OK || a_open(&rt, &plat) != PP_OK)
        return 1;
    pp_riscv_bind(&rv, &rt);
    pp_serve(&rt, NULL, 0); /* serve forever: spin on the slot of the last call, sweep, idle */
    return 0;
}
