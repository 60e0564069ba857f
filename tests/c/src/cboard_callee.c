/*
 * Component 'callee' of tests/c/data/cboard.yaml, attached to the simulated board
 * (pp_platform_simboard.c). First it calls: hw.f (Verilog) N times, py.g (Python) with
 * 64-bit and float values, fir.fir (Verilog) handing it three of its own C functions
 * (coeff, src, sink) that the hardware calls back, and py.hang, which nobody serves (the
 * timeout code; then hw.f again: the system keeps serving). Then it prints SERVING and
 * serves its exports f and wide (called by Python and by Verilog) until SIGTERM.
 *
 * Output: "ok <check>", "pair <x> <result>" per hw.f call, "cycles_per_call <n>", counters,
 * "ALL OK" at the end. Exit 1 at the first failed check.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callee_pp.h"

#define GOLDEN 0x9E3779B9u

static pp_simboard sb;
static pp_rt rt;
static volatile sig_atomic_t stop_now = 0;
static uint32_t state = 0; /* the state of our f: the pingpong callee's model */

static void on_term(int sig)
{
    (void)sig;
    stop_now = 1;
}

static void fail(const char *what, int e)
{
    printf("FAIL %s: %s (%d)\n", what, pp_strerror(e), e);
    exit(1);
}

/* ---- our exports */
int callee_f(pp_rt *r, int32_t x, int32_t *result)
{
    (void)r;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

int callee_wide(pp_rt *r, int64_t a, uint64_t b, double c, float d, int8_t e, uint16_t g, bool h, double *result)
{
    (void)r;
    *result = (double)a + (double)b + c + (double)d + (double)e + (double)g + (h ? 1.0 : 0.0);
    return PP_OK;
}

/* ---- the functions we hand to fir.fir */
#define TAPS 8
#define SAMPLES 40
static const int32_t coeffs[TAPS] = {3, -1, 4, -1, 5, -9, 2, -6};
static int32_t xs[SAMPLES], ys[SAMPLES];
static int coeff_calls = 0, next_x = 0, nys = 0;

static int coeff(pp_rt *r, uint32_t i, int32_t *result)
{
    (void)r;
    if (i >= TAPS)
        return -1;
    coeff_calls++;
    *result = coeffs[i];
    return PP_OK;
}

static int source(pp_rt *r, int32_t *result)
{
    (void)r;
    if (next_x >= SAMPLES)
        return -1; /* the end of the stream */
    *result = xs[next_x++];
    return PP_OK;
}

static int sink(pp_rt *r, int32_t y)
{
    (void)r;
    if (nys < SAMPLES)
        ys[nys++] = y;
    return PP_OK;
}

int main(int argc, char **argv)
{
    pp_platform plat;
    int32_t x, r32 = 0;
    double rd = 0;
    long n = argc > 1 ? atol(argv[1]) : 20, i;
    int e, k;
    uint64_t c0, c1;
    pp_fn fc, fs, fk;

    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGTERM, on_term);
    if (pp_simboard_attach(&sb) != PP_OK)
        fail("attach", PP_EPLATFORM);
    if (pp_simboard_platform(&sb, CALLEE_BASE, &plat) != PP_OK || callee_open(&rt, &plat) != PP_OK)
        fail("open", PP_EINVAL);
    pp_set_timeout(&rt, 60000000u); /* the simulator is slow on a loaded machine */

    /* C -> Verilog: every result printed (the test chains them with c2's) */
    x = -5;
    c0 = pp_simboard_cycle(&sb);
    for (i = 0; i < n; i++) {
        if ((e = callee_hw_f(&rt, x, &r32)) != PP_OK)
            fail("hw.f", e);
        printf("pair %d %d\n", (int)x, (int)r32);
        x = r32 ^ (int32_t)i;
    }
    c1 = pp_simboard_cycle(&sb);
    printf("cycles_per_call %.1f\n", n > 0 ? (double)(c1 - c0) / (double)n : 0.0);
    printf("ok C -> Verilog\n");

    /* C -> Python: 64-bit and float values, negative numbers */
    if ((e = callee_py_g(&rt, -3000000000LL, -0.5, &rd)) != PP_OK || rd != 1.5e9)
        fail("py.g(-3e9, -0.5)", e);
    if ((e = callee_py_g(&rt, (int64_t)1 << 52, 0.25, &rd)) != PP_OK || rd != (double)((int64_t)1 << 50))
        fail("py.g(2^52, 0.25)", e);
    printf("ok C -> Python\n");

    /* higher-order: our C functions handed to hardware, which calls them back */
    for (k = 0; k < SAMPLES; k++)
        xs[k] = (int32_t)((k * 7919) % 2001) - 1000;
    if (callee_lend_u32_ret_i32(&rt, coeff, &fc) != PP_OK || callee_lend_void_ret_i32(&rt, source, &fs) != PP_OK ||
        callee_lend_i32_ret_void(&rt, sink, &fk) != PP_OK)
        fail("lend", PP_ENOSLOT);
    if ((e = callee_fir_fir(&rt, fc, fs, fk, TAPS)) != PP_OK)
        fail("fir.fir", e);
    if (coeff_calls != TAPS || nys != SAMPLES)
        fail("fir callbacks", PP_OK);
    for (k = 0; k < SAMPLES; k++) {
        uint32_t acc = 0;
        int t;
        for (t = 0; t < TAPS && t <= k; t++)
            acc += (uint32_t)coeffs[t] * (uint32_t)xs[k - t];
        if ((int32_t)acc != ys[k])
            fail("fir output", PP_OK);
    }
    pp_release(&rt, fc);
    pp_release(&rt, fs);
    pp_release(&rt, fk);
    printf("ok higher-order C -> Verilog -> C\n");

    /* a callee that never answers: the timeout code, and everything keeps working */
    pp_set_timeout(&rt, 300000u);
    if ((e = callee_py_hang(&rt, 1, &r32)) != PP_ETIMEOUT)
        fail("py.hang did not time out", e);
    pp_set_timeout(&rt, 60000000u);
    if ((e = callee_hw_f(&rt, 7, &r32)) != PP_OK)
        fail("hw.f after a timeout", e);
    printf("pair 7 %d\n", (int)r32);
    printf("ok timeout\n");

    /* serve f and wide (Python and Verilog call them) until SIGTERM */
    printf("SERVING\n");
    while (!stop_now) {
        pp_poll(&rt);
        plat.idle(plat.ctx);
    }
    printf("counters c%u d%u s%u w%u\n", rt.counters.collisions, rt.counters.duplicates, rt.counters.strays,
           rt.counters.write_errors);
    printf("ALL OK\n");
    pp_simboard_close(&sb);
    return 0;
}
