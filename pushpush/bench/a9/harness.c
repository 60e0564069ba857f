/*
 * The call path counter's harness (pushpush.bench.a9.count): the generated C runtime of
 * examples/pingpong/c's component 'callee' on the bare-metal platform layer, compiled for a
 * Cortex-A9 (-O2 -mcpu=cortex-a9) and run under an instruction-counting emulator. The
 * emulator plays the PL and the global timer; this file only gives the runtime what a
 * bare-metal program gives it: the window, a microsecond clock and the export f.
 *
 * Entry points (called by the emulator, one at a time, each returning to a stop address):
 *   a9_open()      bind the runtime to the window (pp_baremetal_platform + callee_open),
 *                  wait mode poll (sweep again at once)
 *   a9_wait(mode)  set the wait mode (PP_WAIT_*: sleep, the default, calls a9_idle)
 *   a9_call(x)     one call of hw.f (C -> Verilog): the call path of a C caller
 *   a9_serve()     pp_serve until a9_stop is set: the serve loop of a C callee
 *   a9_result()    the result of the last a9_call
 */
#include "callee_pp.h"

#define GTIMER_LO (*(volatile uint32_t *)0xF8F00200u) /* Cortex-A9 MPCore global timer */
#define GTIMER_HI (*(volatile uint32_t *)0xF8F00204u)
#define GOLDEN 0x9E3779B9u

static uint32_t state = 0;
static pp_rt rt;
static pp_platform plat;
static int32_t last_result;
volatile int a9_stop;
volatile uint32_t a9_idles;                            /* the platform's idle (wait mode sleep) calls */
const uint32_t a9_spin_rounds = PP_SPIN_ROUNDS;       /* read by the counter */

/* the platform's pause (wait mode sleep): a bare-metal program's idle hook; here it counts */
static void a9_idle(void *ctx)
{
    (void)ctx;
    a9_idles++;
}

/* f: the pingpong callee's state machine (as examples/pingpong/c/callee.c) */
int callee_f(pp_rt *r, int32_t x, int32_t *result)
{
    (void)r;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

/* microseconds from the global timer (it counts at half the CPU clock: 325 MHz on a
 * PYNQ-Z1; >> 8 is a 1.27 MHz tick, close enough for timeouts): hi, lo, hi until stable */
static uint64_t a9_now_us(void *ctx)
{
    uint32_t hi, lo;
    (void)ctx;
    do {
        hi = GTIMER_HI;
        lo = GTIMER_LO;
    } while (GTIMER_HI != hi);
    return (((uint64_t)hi << 32) | lo) >> 8;
}

int a9_open(void)
{
    int e = pp_baremetal_platform(CALLEE_BASE, a9_now_us, a9_idle, NULL, &plat);
    if (e != PP_OK)
        return e;
    if ((e = callee_open(&rt, &plat)) != PP_OK)
        return e;
    pp_set_timeout(&rt, 1000000u);
    return pp_set_wait(&rt, PP_WAIT_POLL);
}

int a9_wait(int mode)
{
    return pp_set_wait(&rt, mode);
}

int a9_call(int32_t x)
{
    return callee_hw_f(&rt, x, &last_result); /* (a tail call: the thinnest wrapper) */
}

long a9_serve(void)
{
    return pp_serve(&rt, &a9_stop, 0);
}

int32_t a9_result(void)
{
    return last_result;
}

/* freestanding: what GCC may call for struct copies and zeroing */
void *memset(void *d, int c, size_t n)
{
    unsigned char *p = (unsigned char *)d;
    while (n--)
        *p++ = (unsigned char)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    unsigned char *p = (unsigned char *)d;
    const unsigned char *q = (const unsigned char *)s;
    while (n--)
        *p++ = *q++;
    return d;
}
