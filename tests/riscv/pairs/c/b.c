/* tests/riscv/pairs: component 'b', C on a second soft RISC-V core (see ../system.yaml). */
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

/* riscv -> riscv, the other way: n chained calls of a.g */
int b_back(pp_rt *rt, uint32_t n, int32_t *result)
{
    int32_t x = 7;
    uint32_t i;
    int e;
    for (i = 0; i < n; i++)
        if ((e = b_a_g(rt, x, &x)) != PP_OK)
            return e;
    *result = x;
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
    for (;;) {
        pp_poll(&rt);
        plat.idle(plat.ctx);
    }
    return 0;
}
