/* pushpush bench calls, the riscv <-> riscv row: component 'b', C on a second soft RISC-V core,
 * serving g, the pingpong callee's state machine (rotl(state, 5) ^ x + 0x9E3779B9). */
#include "b_pp.h"
#include "pp_platform_riscv.h"

#define GOLDEN 0x9E3779B9u

static uint32_t state = 0;

int b_g(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

int main(void)
{
    static pp_rt rt;
    static pp_riscv rv;
    pp_platform plat;

    if (pp_riscv_platform(&rv, B_BASE, &plat) != PP_OK || b_open(&rt, &plat) != PP_OK)
        return 1;
    pp_riscv_bind(&rv, &rt);
    pp_serve(&rt, NULL, 0); /* serve forever: spin on the slot of the last call, sweep, idle */
    return 0;
}
