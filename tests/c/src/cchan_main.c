/*
 * Component 'cc' of tests/c/data/cchan.yaml on the simulated board: C uses the channels of
 * examples/channels's core with pp_chnl_send / pp_chnl_recv. argv: src dst n acc_src acc_dst
 * (physical addresses of pynq.allocate buffers the Python test made: u32[n] twice, u32[3],
 * u32[4]). Prints "loop <sent> <received> <offset> <last>", "acc ...", the stuck send's
 * result, "add <r>", "ALL OK".
 */
#include <stdio.h>
#include <stdlib.h>

#include "cc_pp.h"
#include "cchan_map.h"

static uint32_t arg(char **argv, int i)
{
    return (uint32_t)strtoul(argv[i], NULL, 0);
}

int main(int argc, char **argv)
{
    pp_simboard sb;
    pp_platform plat;
    static pp_rt rt;
    pp_chnl loop = pp_chnl_at(CCHAN_HW_LOOP_RX_DYNAMIC0_ADDR, CCHAN_HW_LOOP_TX_DYNAMIC0_ADDR, "hw.loop");
    pp_chnl acc = pp_chnl_at(CCHAN_HW_ACC_RX_DYNAMIC0_ADDR, CCHAN_HW_ACC_TX_DYNAMIC0_ADDR, "hw.acc");
    pp_chnl stuck = pp_chnl_at(CCHAN_HW_STUCK_RX_DYNAMIC0_ADDR, CCHAN_HW_STUCK_TX_DYNAMIC0_ADDR, "hw.stuck");
    uint32_t n;
    int32_t s = 0;
    int e, got;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 6) {
        printf("FAIL usage: cchan src dst n acc_src acc_dst\n");
        return 2;
    }
    if (pp_simboard_attach(&sb) != PP_OK || pp_simboard_platform(&sb, CC_BASE, &plat) != PP_OK ||
        cc_open(&rt, &plat) != PP_OK) {
        printf("FAIL attach\n");
        return 1;
    }
    pp_set_timeout(&rt, 120000000u);
    n = arg(argv, 3);
    /* loop: n words sent at offset 9 come back with the same offset and last */
    if ((e = pp_chnl_send(&rt, &loop, pp_buf_at(arg(argv, 1), n), 9u, 1)) < 0) {
        printf("FAIL send %s: %s (%d)\n", loop.name, pp_strerror(e), e);
        return 1;
    }
    got = pp_chnl_recv(&rt, &loop, pp_buf_at(arg(argv, 2), n), 60000000u);
    printf("loop %d %d %u %d\n", e, got, (unsigned)loop.offset, loop.last);
    /* acc: 3 words with last=0, then 0 words with last=1: (sum, count) */
    if ((e = pp_chnl_send(&rt, &acc, pp_buf_at(arg(argv, 4), 3u), 0u, 0)) != 3 ||
        (e = pp_chnl_send(&rt, &acc, pp_buf_at(arg(argv, 4), 0u), 0u, 1)) != 0) {
        printf("FAIL send %s: %s (%d)\n", acc.name, pp_strerror(e), e);
        return 1;
    }
    got = pp_chnl_recv(&rt, &acc, pp_buf_at(arg(argv, 5), 4u), 60000000u);
    printf("acc %d %d\n", got, acc.last);
    /* a receive with nothing to come: PP_ETIMEOUT after about 0.2 s */
    e = pp_chnl_recv(&rt, &acc, pp_buf_at(arg(argv, 5) + 8u, 2u), 200000u);
    printf("acc-empty %d %u\n", e, (unsigned)acc.words);
    /* stuck: the core takes 3 words and stops */
    e = pp_chnl_send(&rt, &stuck, pp_buf_at(arg(argv, 1), n), 0u, 1);
    printf("stuck %d %u %s\n", e, (unsigned)stuck.words, pp_strerror(e));
    if ((e = cc_hw_add(&rt, 40, 2, &s)) != PP_OK || s != 42) {
        printf("FAIL hw.add: %s (%d) %d\n", pp_strerror(e), e, (int)s);
        return 1;
    }
    printf("add %d\nALL OK\n", (int)s);
    pp_simboard_close(&sb);
    return 0;
}
