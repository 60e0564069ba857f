/*
 * pingpong_c: component 'callee' (C). Run by `pushpush run examples/pingpong/c` against the
 * simulated board (pp_platform_simboard.c); on a PYNQ-Z1 swap the attach for
 * pp_linux_open (docs/c.md).
 *
 *   callee N [M]  makes N chained calls of hw.f (Verilog), prints
 *              "c_to_rtl <calls> <simulated cycles> <wall seconds> <x0> <last result>",
 *              then M (default 0) chained calls of host.g (Python), prints
 *              "c_to_py <calls> <wall seconds> <x0> <last result>",
 *              then serves f (the pingpong callee's state machine, in C) until SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "callee_pp.h"

#define GOLDEN 0x9E3779B9u

static volatile sig_atomic_t stop_now = 0;
static uint32_t state = 0;

static void on_term(int sig)
{
    (void)sig;
    stop_now = 1;
}

/* f: state <= rotl(state, 5) ^ x + 0x9E3779B9, returns the new state (as pingpong_callee.v) */
int callee_f(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

int main(int argc, char **argv)
{
    static pp_rt rt;
    pp_simboard sb;
    pp_platform plat;
    long n = argc > 1 ? atol(argv[1]) : 100, m = argc > 2 ? atol(argv[2]) : 0, i;
    int32_t x = 3, r = 0;
    uint64_t c0, c1, t0, t1;
    int e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGTERM, on_term);
    if (pp_simboard_attach(&sb) != PP_OK || pp_simboard_platform(&sb, CALLEE_BASE, &plat) != PP_OK ||
        callee_open(&rt, &plat) != PP_OK) {
        printf("error: cannot attach to the simulated board\n");
        return 1;
    }
    pp_set_timeout(&rt, 120000000u);
    c0 = pp_simboard_cycle(&sb);
    t0 = pp_linux_now_us(NULL);
    for (i = 0; i < n; i++) {
        if ((e = callee_hw_f(&rt, x, &r)) != PP_OK) {
            printf("error: hw.f: %s\n", pp_strerror(e));
            return 1;
        }
        x = r;
    }
    t1 = pp_linux_now_us(NULL);
    c1 = pp_simboard_cycle(&sb);
    printf("c_to_rtl %ld %llu %.6f %d %d\n", n, (unsigned long long)(c1 - c0), (double)(t1 - t0) / 1e6, 3, (int)r);
    if (m > 0) {
        x = 5;
        t0 = pp_linux_now_us(NULL);
        for (i = 0; i < m; i++) {
            if ((e = callee_host_g(&rt, x, &r)) != PP_OK) {
                printf("error: host.g: %s\n", pp_strerror(e));
                return 1;
            }
            x = r;
        }
        t1 = pp_linux_now_us(NULL);
        printf("c_to_py %ld %.6f %d %d\n", m, (double)(t1 - t0) / 1e6, 5, (int)r);
    }
    printf("SERVING\n");
    while (!stop_now) {
        pp_poll(&rt);
        plat.idle(plat.ctx);
    }
    printf("counters %u %u %u %u\n", rt.counters.collisions, rt.counters.duplicates, rt.counters.strays,
           rt.counters.write_errors);
    pp_simboard_close(&sb);
    return 0;
}
