/* tests/riscv/pairs: component 'a', C on a soft RISC-V core (see ../system.yaml). */
#include "a_pp.h"
#include "pp_platform_riscv.h"

#define GOLDEN 0x9E3779B9u

static uint32_t state = 0;

/* g: the pingpong state machine: state <= rotl(state, 5) ^ x + 0x9E3779B9 */
int a_g(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

/* riscv -> riscv: n chained calls of b.g */
int a_to_rv(pp_rt *rt, uint32_t n, int32_t *result)
{
    int32_t x = 3;
    uint32_t i;
    int e;
    for (i = 0; i < n; i++)
        if ((e = a_b_g(rt, x, &x)) != PP_OK)
            return e;
    *result = x;
    return PP_OK;
}

/* riscv -> python: n chained calls of host.p */
int a_to_py(pp_rt *rt, uint32_t n, int32_t *result)
{
    int32_t x = 5;
    uint32_t i;
    int e;
    for (i = 0; i < n; i++)
        if ((e = a_host_p(rt, x, &x)) != PP_OK)
            return e;
    *result = x;
    return PP_OK;
}

/* the function a lends to the Verilog mapper: 2x + 1 */
static int dbl(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    *result = (int32_t)(2u * (uint32_t)x + 1u);
    return PP_OK;
}

/* higher order: mapper.apply(dbl, x) = dbl(dbl(x)) + 1, dbl called back on the core */
int a_hof(pp_rt *rt, int32_t x, int32_t *result)
{
    pp_fn f;
    int e = a_lend_i32_ret_i32(rt, dbl, &f);
    if (e != PP_OK)
        return e;
    return a_mapper_apply(rt, f, x, result);
}

/* errors and timeouts: one call of host.p with the given timeout; its result, or the error */
int a_try_p(pp_rt *rt, int32_t x, uint32_t timeout_us, int32_t *result)
{
    int32_t r = 0;
    int e;
    pp_set_timeout(rt, timeout_us);
    e = a_host_p(rt, x, &r);
    pp_set_timeout(rt, PP_DEFAULT_TIMEOUT_US);
    *result = e == PP_OK ? r : (int32_t)e;
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
    for (;;) {
        pp_poll(&rt);
        plat.idle(plat.ctx);
    }
    return 0;
}
