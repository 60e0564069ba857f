/*
 * Component 'c2' of tests/c/data/cboard.yaml on the simulated board: a second C caller of
 * hw.f (Verilog), running at the same time as 'callee' (each through its own static slot),
 * in the YAML's wait mode (interrupt). Prints "pair <x> <result>" per call, its wait mode
 * and interrupt wakes, its counters and "ALL OK".
 */
#include <stdio.h>
#include <stdlib.h>

#include "c2_pp.h"

int main(int argc, char **argv)
{
    pp_simboard sb;
    pp_platform plat;
    static pp_rt rt;
    long n = argc > 1 ? atol(argv[1]) : 20, i;
    int32_t x = 1000, r = 0;
    int e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (pp_simboard_attach(&sb) != PP_OK || pp_simboard_platform(&sb, C2_BASE, &plat) != PP_OK ||
        c2_open(&rt, &plat) != PP_OK) {
        printf("FAIL attach\n");
        return 1;
    }
    pp_set_timeout(&rt, 60000000u);
    for (i = 0; i < n; i++) {
        if ((e = c2_hw_f(&rt, x, &r)) != PP_OK) {
            printf("FAIL hw.f: %s (%d)\n", pp_strerror(e), e);
            return 1;
        }
        printf("pair %d %d\n", (int)x, (int)r);
        x = (int32_t)((uint32_t)r + (uint32_t)i);
    }
    printf("wait %s wakes %u\n", pp_wait_name(pp_get_wait(&rt)), rt.irq.wakes);
    pp_set_wait(&rt, PP_WAIT_SLEEP); /* clears our pending bit: it must not hold the line */
    printf("counters c%u d%u s%u w%u\nALL OK\n", rt.counters.collisions, rt.counters.duplicates,
           rt.counters.strays, rt.counters.write_errors);
    pp_simboard_close(&sb);
    return 0;
}
