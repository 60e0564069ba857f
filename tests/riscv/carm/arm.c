/*
 * tests/riscv/carm: component 'arm', C on the ARM attached to the simulated board (see
 * system.yaml). Makes n chained calls of rv.g (C on the ARM -> C on the soft core), the first
 * with x = 11, printing "pair <x> <result>" for each; then prints SERVING and serves p (the
 * core calls it through rv.to_c) until SIGTERM; then its counters and ALL OK.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "arm_pp.h"

#define GOLDEN 0x9E3779B9u

static volatile sig_atomic_t stop_now = 0;
static uint32_t state = 0;

static void on_term(int sig)
{
    (void)sig;
    stop_now = 1;
}

/* p: the pingpong state machine, as rv.g */
int arm_p(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    return PP_OK;
}

int main(int argc, char **argv)
{
    static pp_simboard sb;
    static pp_rt rt;
    pp_platform plat;
    long n = argc > 1 ? atol(argv[1]) : 4, i;
    int32_t x = 11, r = 0;
    int e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGTERM, on_term);
    if (pp_simboard_attach(&sb) != PP_OK || pp_simboard_platform(&sb, ARM_BASE, &plat) != PP_OK ||
        arm_open(&rt, &plat) != PP_OK) {
        printf("FAIL attach\n");
        return 1;
    }
    pp_set_timeout(&rt, 600000000u); /* a simulated soft core on a loaded host is slow */
    for (i = 0; i < n; i++) {
        if ((e = arm_rv_g(&rt, x, &r)) != PP_OK) {
            printf("FAIL rv.g: %s (%d)\n", pp_strerror(e), e);
            return 1;
        }
        printf("pair %d %d\n", (int)x, (int)r);
        x = r;
    }
    printf("SERVING\n");
    while (!stop_now) {
        pp_poll(&rt);
        plat.idle(plat.ctx);
    }
    printf("counters c%u d%u s%u w%u\nALL OK\n", rt.counters.collisions, rt.counters.duplicates,
           rt.counters.strays, rt.counters.write_errors);
    pp_simboard_close(&sb);
    return 0;
}
