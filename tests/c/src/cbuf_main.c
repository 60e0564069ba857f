/*
 * Component 'cc' of tests/c/data/cbuf.yaml on the simulated board: C calls an rtl export
 * with buffer parameters. argv: src_phys dst_phys n k bsrc_phys bdst_phys m (physical
 * addresses of pynq.allocate buffers the Python test made: u32[n] twice, u8[m], i16[m]).
 * Prints "scale <r>", "widen <r>", the stuck call's error, "add <r>", "ALL OK".
 */
#include <stdio.h>
#include <stdlib.h>

#include "cc_pp.h"

static uint32_t arg(char **argv, int i)
{
    return (uint32_t)strtoul(argv[i], NULL, 0);
}

int main(int argc, char **argv)
{
    pp_simboard sb;
    pp_platform plat;
    static pp_rt rt;
    uint32_t r = 0;
    int32_t s = 0;
    int e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 8) {
        printf("FAIL usage: cbuf src dst n k bsrc bdst m\n");
        return 2;
    }
    if (pp_simboard_attach(&sb) != PP_OK || pp_simboard_platform(&sb, CC_BASE, &plat) != PP_OK ||
        cc_open(&rt, &plat) != PP_OK) {
        printf("FAIL attach\n");
        return 1;
    }
    pp_set_timeout(&rt, 120000000u);
    if ((e = cc_hw_scale(&rt, pp_buf_at(arg(argv, 1), arg(argv, 3)), pp_buf_at(arg(argv, 2), arg(argv, 3)),
                         arg(argv, 4), &r)) != PP_OK) {
        printf("FAIL hw.scale: %s (%d)\n", pp_strerror(e), e);
        return 1;
    }
    printf("scale %u\n", (unsigned)r);
    if ((e = cc_hw_widen(&rt, pp_buf_at(arg(argv, 5), arg(argv, 7)), pp_buf_at(arg(argv, 6), arg(argv, 7)),
                         &r)) != PP_OK) {
        printf("FAIL hw.widen: %s (%d)\n", pp_strerror(e), e);
        return 1;
    }
    printf("widen %u\n", (unsigned)r);
    e = cc_hw_stuck(&rt, pp_buf_at(arg(argv, 1), arg(argv, 3)), &r);
    printf("stuck %d 0x%08X %s\n", e, (unsigned)rt.last_error_status, pp_strerror(e));
    if ((e = cc_hw_add(&rt, 40, 2, &s)) != PP_OK || s != 42) {
        printf("FAIL hw.add: %s (%d) %d\n", pp_strerror(e), e, (int)s);
        return 1;
    }
    printf("add %d\nALL OK\n", (int)s);
    pp_simboard_close(&sb);
    return 0;
}
