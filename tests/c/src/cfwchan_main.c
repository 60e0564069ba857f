/*
 * Component 'cc' of tests/c/data/cchan.yaml with `firewall: true` on the simulated board:
 * channel calls (pp_chnl_send / pp_chnl_recv) open the firewall's range of their buffer
 * through the runtime's hook. argv: src dst n victim (physical addresses of pynq.allocate
 * buffers: u32[n] twice, u32[64]). src and dst are declared (pp_fw_own), the victim is not.
 * Prints "loop <sent> <received>", "recv_victim <code> <engine> <addr> <write> <why>",
 * "send_victim ..." (the same), "add <r>", "ALL OK".
 */
#include <stdio.h>
#include <stdlib.h>

#include "cc_pp.h"
#include "cchan_map.h"

static uint32_t arg(char **argv, int i)
{
    return (uint32_t)strtoul(argv[i], NULL, 0);
}

static void report(pp_rt *rt, const char *name, int e)
{
    const pp_fw_refusal *x = pp_fw_refused(rt);
    if (e != PP_EFIREWALL || x == NULL) {
        printf("%s %d none\n", name, e);
        return;
    }
    printf("%s %d %s 0x%08X %d %d\n", name, e, pp_fw_engine_name(rt, x->engine), (unsigned)x->addr, x->write,
           x->why);
}

int main(int argc, char **argv)
{
    pp_simboard sb;
    pp_platform plat;
    static pp_rt rt;
    pp_chnl loop = pp_chnl_at(CCHAN_HW_LOOP_RX_DYNAMIC0_ADDR, CCHAN_HW_LOOP_TX_DYNAMIC0_ADDR, "hw.loop");
    uint32_t n, src, dst, victim;
    int32_t s = 0;
    int e, got;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 5) {
        printf("FAIL usage: cfwchan src dst n victim\n");
        return 2;
    }
    src = arg(argv, 1), dst = arg(argv, 2), n = arg(argv, 3), victim = arg(argv, 4);
    if (pp_simboard_attach(&sb) != PP_OK || pp_simboard_platform(&sb, CC_BASE, &plat) != PP_OK ||
        cc_open(&rt, &plat) != PP_OK) {
        printf("FAIL attach\n");
        return 1;
    }
    pp_set_timeout(&rt, 120000000u);
    if (pp_fw_own(&rt, src, 4u * n) != PP_OK || pp_fw_own(&rt, dst, 4u * n) != PP_OK) {
        printf("FAIL pp_fw_own\n");
        return 1;
    }
    if ((e = pp_chnl_send(&rt, &loop, pp_buf_at(src, n), 0u, 1)) < 0) {
        printf("FAIL send: %s (%d)\n", pp_strerror(e), e);
        return 1;
    }
    got = pp_chnl_recv(&rt, &loop, pp_buf_at(dst, n), 60000000u);
    printf("loop %d %d\n", e, got);
    /* (the demo core's channel is left mid-transaction by a refused transfer: each hostile
     * call comes after a correct one, and the component's other exports keep serving) */
    if ((e = pp_chnl_send(&rt, &loop, pp_buf_at(src, 16u), 0u, 1)) < 0) {
        printf("FAIL send: %s (%d)\n", pp_strerror(e), e);
        return 1;
    }
    e = pp_chnl_recv(&rt, &loop, pp_buf_at(victim, 16u), 60000000u);
    report(&rt, "recv_victim", e);
    e = pp_chnl_send(&rt, &loop, pp_buf_at(victim, 16u), 0u, 1);
    report(&rt, "send_victim", e);
    if ((e = cc_hw_add(&rt, 40, 2, &s)) != PP_OK || s != 42) {
        printf("FAIL hw.add: %s (%d) %d\n", pp_strerror(e), e, (int)s);
        return 1;
    }
    printf("add %d\nALL OK\n", (int)s);
    pp_simboard_close(&sb);
    return 0;
}
