/* tests/riscv/carm: component 'rv', C on the soft RISC-V core (see ../system.yaml). */
#include "rv_pp.h"
#include "pp_platform_riscv.h"

#define GOLDEN 0x9E3779B9u

static uint32_t state = 0;

/* g: the pingpong state machine: state <= rotl(state, 5) ^ x + 0x9E3779B9 */
int rv_g(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

/* riscv -> C on the ARM: n chained calls of arm.p, the first with x = 5 */
int rv_to_c(pp_rt *rt, uint32_t n, int32_t *result)
{
    int32_t x = 5;
    uint32_t i;
    int e;
    for (i = 0; i < n; i++)
        if ((e = rv_arm_p(rt, x, &x)) != PP_OK) {
            *result = (int32_t)e;
            return PP_OK;
        }
    *result = x;
    return PP_OK;
}

int main(void)
{
    static pp_rt rt;
    static pp_riscv rv;
    pp_platform plat;

    if (pp_riscv_platform(&rv, RV_BASE, &plat) != PP_OK || rv_open(&rt, &plat) != PP_OK)
        return 1;
    pp_riscv_bind(&rv, &rt);
    for (;;) {
        pp_poll(&rt);
        plat.idle(plat.ctx);
    }
    return 0;
}
