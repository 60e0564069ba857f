/* The scalar exports of test component 'srv', shared by the C test programs
 * (cc_inproc.c: both components in one process; cc_procs.c: two processes). */
#include "srv_pp.h"

int srv_add_i32(pp_rt *rt, int32_t a, int32_t b, int32_t *result)
{
    (void)rt;
    *result = (int32_t)((uint32_t)a + (uint32_t)b);
    return PP_OK;
}

int srv_mix(pp_rt *rt, bool a, int8_t b, int16_t c, uint8_t d, uint16_t e, uint32_t f, float g, int64_t h,
            uint64_t i, double j, double *result)
{
    (void)rt;
    *result = (a ? 1.0 : 0.0) + b + c + d + e + (double)f + g + (double)h + (double)i + j;
    return PP_OK;
}

int srv_neg64(pp_rt *rt, int64_t x, int64_t *result)
{
    (void)rt;
    *result = -x;
    return PP_OK;
}

int srv_echo_u64(pp_rt *rt, uint64_t x, uint64_t *result)
{
    (void)rt;
    *result = x;
    return PP_OK;
}

int srv_scale(pp_rt *rt, float x, float k, float *result)
{
    (void)rt;
    *result = x * k;
    return PP_OK;
}

int srv_narrow(pp_rt *rt, int32_t x, int8_t *result)
{
    (void)rt;
    *result = (int8_t)x;
    return PP_OK;
}
