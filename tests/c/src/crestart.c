/*
 * Component 'cprog' of tests/c/data/restart.yaml on the simulated board, started again and
 * again against one load (tests/c/test_restart.py). Modes (argv[1]):
 *
 *   calls <n> <dyn> <sdyn>  "SLOW", py.slow(x, 0) through its dynamic slot at <sdyn> and its
 *                    static slot (a Python callee), checked; n calls of hw.f through the static
 *                    slot and n through the dynamic slot at address <dyn> (a function value),
 *                    each printed "pair <x> <result>"; fir.fir with
 *                    three lent C functions (lent slots), its output checked. Then counters
 *                    and "ALL OK". Any failed call: "FAIL ..." and exit 1.
 *   hang <ms> [sdyn] print "CALLING", then call py.slow(1, ms) (through the dynamic slot at
 *                    sdyn if given): the test kills us meanwhile, or our timeout
 *                    (RESTART_TIMEOUT_MS) ends the call: "returned <code>".
 *   serve            print "SERVING", serve f (sleeps ms, returns 3x+1) until SIGTERM.
 *   second           open the component twice in this process: the second must be refused.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cprog_pp.h"

static pp_simboard sb;
static pp_rt rt;
static volatile sig_atomic_t stop_now = 0;

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

int cprog_f(pp_rt *r, int32_t x, uint32_t ms, int32_t *result)
{
    struct timespec ts;
    (void)r;
    ts.tv_sec = (time_t)(ms / 1000u);
    ts.tv_nsec = (long)(ms % 1000u) * 1000000L;
    nanosleep(&ts, NULL);
    *result = 3 * x + 1;
    return PP_OK;
}

#define TAPS 4
#define SAMPLES 12
static const int32_t coeffs[TAPS] = {3, -1, 4, -2};
static int32_t xs[SAMPLES], ys[SAMPLES];
static int next_x = 0, nys = 0;

static int coeff(pp_rt *r, uint32_t i, int32_t *result)
{
    (void)r;
    if (i >= TAPS)
        return -1;
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

static void open_rt(pp_platform *plat)
{
    int e;
    if (pp_simboard_attach(&sb) != PP_OK)
        fail("attach", PP_EPLATFORM);
    if ((e = pp_simboard_platform(&sb, CPROG_BASE, plat)) != PP_OK)
        fail("platform", e);
    if ((e = cprog_open(&rt, plat)) != PP_OK)
        fail("open", e);
    /* a busy host's simulator is slow; a dropped call is not (RESTART_TIMEOUT_MS: the test of
     * a timeout's message) */
    pp_set_timeout(&rt, getenv("RESTART_TIMEOUT_MS") != NULL ? 1000u * (uint64_t)atol(getenv("RESTART_TIMEOUT_MS"))
                                                            : 60000000u);
}

int main(int argc, char **argv)
{
    pp_platform plat;
    const char *mode = argc > 1 ? argv[1] : "calls";
    int32_t x = 11, r32 = 0;
    int e, k;

    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGTERM, on_term);
    if (strcmp(mode, "second") == 0) {
        static pp_rt rt2;
        open_rt(&plat);
        e = cprog_open(&rt2, &plat);
        printf("second %d %s\n", e, e == PP_EBUSY ? "refused" : "NOT REFUSED");
        pp_close(&rt);
        e = cprog_open(&rt2, &plat); /* released: a new runtime may own it */
        printf("after close %d\n", e);
        pp_simboard_close(&sb);
        return 0;
    }
    open_rt(&plat);
    if (strcmp(mode, "hang") == 0) { /* hang <ms> [<address of a dynamic slot of py.slow>] */
        uint32_t ms = (uint32_t)atol(argc > 2 ? argv[2] : "60000");
        printf("CALLING\n");
        if (argc > 3)
            e = cprog_call_i32_u32_ret_i32(&rt, pp_fn_at((uint32_t)strtoul(argv[3], NULL, 0)), 1, ms, &r32);
        else
            e = cprog_py_slow(&rt, 1, ms, &r32);
        printf("returned %d\n", e);
        return 0;
    }
    if (strcmp(mode, "serve") == 0) {
        printf("SERVING\n");
        while (!stop_now) {
            pp_poll(&rt);
            plat.idle(plat.ctx);
        }
        printf("ALL OK\n");
        pp_simboard_close(&sb);
        return 0;
    }
    {
        long n = argc > 2 ? atol(argv[2]) : 3, i;
        pp_fn dyn = pp_fn_at(argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 0u);
        pp_fn slowdyn = pp_fn_at(argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 0) : 0u);
        pp_fn fc, fs, fk;
        /* first (so its rep is the first run-time rep, as a killed predecessor's first call
         * through a function value had): a software callee through a dynamic slot, then
         * through the static one */
        printf("SLOW\n");
        if (slowdyn.addr != 0 && ((e = cprog_call_i32_u32_ret_i32(&rt, slowdyn, x, 0u, &r32)) != PP_OK || r32 != x + 1))
            fail("py.slow (dynamic slot)", e != PP_OK ? e : PP_EUNKNOWN);
        if ((e = cprog_py_slow(&rt, x, 0u, &r32)) != PP_OK || r32 != x + 1)
            fail("py.slow", e != PP_OK ? e : PP_EUNKNOWN);
        for (i = 0; i < n; i++) { /* the static slot */
            if ((e = cprog_hw_f(&rt, x, &r32)) != PP_OK)
                fail("hw.f (static slot)", e);
            printf("pair %d %d\n", (int)x, (int)r32);
            x = r32 ^ (int32_t)i;
        }
        for (i = 0; i < n && dyn.addr != 0; i++) { /* a dynamic slot */
            if ((e = cprog_call_i32_ret_i32(&rt, dyn, x, &r32)) != PP_OK)
                fail("hw.f (dynamic slot)", e);
            printf("pair %d %d\n", (int)x, (int)r32);
            x = r32 ^ (int32_t)i;
        }
        for (k = 0; k < SAMPLES; k++) /* lent slots */
            xs[k] = (int32_t)((k * 7919) % 2001) - 1000;
        if (cprog_lend_u32_ret_i32(&rt, coeff, &fc) != PP_OK || cprog_lend_void_ret_i32(&rt, source, &fs) != PP_OK ||
            cprog_lend_i32_ret_void(&rt, sink, &fk) != PP_OK)
            fail("lend", PP_ENOSLOT);
        if ((e = cprog_fir_fir(&rt, fc, fs, fk, TAPS)) != PP_OK)
            fail("fir.fir", e);
        for (k = 0; k < SAMPLES; k++) {
            uint32_t acc = 0;
            int t;
            for (t = 0; t < TAPS && t <= k; t++)
                acc += (uint32_t)coeffs[t] * (uint32_t)xs[k - t];
            if (nys != SAMPLES || (int32_t)acc != ys[k])
                fail("fir output", PP_OK);
        }
        pp_release(&rt, fc);
        pp_release(&rt, fs);
        pp_release(&rt, fk);
    }
    printf("counters c%u d%u s%u w%u\nALL OK\n", rt.counters.collisions, rt.counters.duplicates,
           rt.counters.strays, rt.counters.write_errors);
    pp_close(&rt);
    pp_simboard_close(&sb);
    return 0;
}
