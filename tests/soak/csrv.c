/*
 * Component 'csrv' of tests/soak/soak.yaml: a C callee on the simulated board that the soak
 * (tests/soak/test_soak.py) kills with kill -9 and starts again while the test's process
 * calls it. Serves f(x, ms): sleeps ms milliseconds, returns 5x + 7 (int32, wrapping). Prints
 * "SERVING" once its runtime is open, "ALL OK" and its counters after SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "csrv_pp.h"

static volatile sig_atomic_t stop_now = 0;

static void on_term(int sig)
{
    (void)sig;
    stop_now = 1;
}

int csrv_f(pp_rt *r, int32_t x, uint32_t ms, int32_t *result)
{
    struct timespec ts;
    (void)r;
    ts.tv_sec = (time_t)(ms / 1000u);
    ts.tv_nsec = (long)(ms % 1000u) * 1000000L;
    nanosleep(&ts, NULL);
    *result = (int32_t)(5u * (uint32_t)x + 7u);
    return PP_OK;
}

int main(void)
{
    static pp_simboard sb;
    static pp_rt rt;
    pp_platform plat;
    int e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGTERM, on_term);
    if (pp_simboard_attach(&sb) != PP_OK) {
        printf("FAIL attach\n");
        return 1;
    }
    if ((e = pp_simboard_platform(&sb, CSRV_BASE, &plat)) != PP_OK || (e = csrv_open(&rt, &plat)) != PP_OK) {
        printf("FAIL open: %s (%d)\n", pp_strerror(e), e);
        return 1;
    }
    printf("SERVING\n");
    while (!stop_now) {
        pp_poll(&rt);
        plat.idle(plat.ctx);
    }
    printf("counters c%u d%u s%u w%u\nALL OK\n", rt.counters.collisions, rt.counters.duplicates,
           rt.counters.strays, rt.counters.write_errors);
    pp_close(&rt);
    pp_simboard_close(&sb);
    return 0;
}
