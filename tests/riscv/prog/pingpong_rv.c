/*
 * The pingpong callee (examples/pingpong/c's component 'callee') on the RISC-V core
 * (tests/riscv/test_riscv_core.py): first N_CALLS chained calls of hw.f (riscv -> rtl),
 * reported with the core's cycle counter in the test's mailbox, then it serves f
 * (rtl/ARM -> riscv) forever; after N_CALLS + 1 calls served, one more call of hw.f
 * (the bench wrote a stray status into its rep before: it is cleared and counted).
 */
#include "callee_pp.h"
#include "pp_platform_riscv.h"

#ifndef N_CALLS
#define N_CALLS 4
#endif
#ifndef MAILBOX
#define MAILBOX 0x20000000u   /* the bench's memory, through the core's AXI master */
#endif
#define GOLDEN 0x9E3779B9u

static uint32_t state = 0;
static unsigned served = 0;
static int again = 0;

/* f: state <= rotl(state, 5) ^ x + 0x9E3779B9, returns the new state (as pingpong_callee.v) */
int callee_f(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    served++;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

int main(void)
{
    static pp_rt rt;
    static pp_riscv rv;
    volatile uint32_t *mbox = (volatile uint32_t *)(uintptr_t)MAILBOX;
    pp_platform plat;
    int32_t x = 3, r = 0;
    uint64_t c0, c1;
    int e = PP_OK, i;

    if (pp_riscv_platform(&rv, CALLEE_BASE, &plat) != PP_OK || callee_open(&rt, &plat) != PP_OK) {
        mbox[0] = 0xDEADu;
        return 1;
    }
    pp_riscv_bind(&rv, &rt);
    pp_set_timeout(&rt, 2000u);   /* 2 ms: 200000 cycles at 100 MHz */
    c0 = pp_riscv_cycles();
    for (i = 0; i < N_CALLS && e == PP_OK; i++) {
        e = callee_hw_f(&rt, x, &r);
        x = r;
    }
    c1 = pp_riscv_cycles();
    mbox[1] = (uint32_t)i;
    mbox[2] = (uint32_t)(c1 - c0);
    mbox[3] = (uint32_t)r;
    mbox[4] = (uint32_t)e;
    mbox[0] = 1u;                 /* the report is complete */
    for (;;) {
        pp_poll(&rt);
        plat.idle(plat.ctx);
        if (served == N_CALLS + 1u && !again) {
            again = 1;
            /* after the bench's stray status in hw.f's rep: one more call gets its own answer */
            e = callee_hw_f(&rt, 11, &r);
            mbox[6] = (uint32_t)r;
            mbox[7] = (uint32_t)e;
            mbox[5] = 1u;
            plat.idle(plat.ctx);
        }
    }
    return 0;
}
