/*
 * Component 'cc' of tests/c/data/cbuf.yaml with `firewall: true` on the simulated board: the
 * C runtime opens the memory firewall's ranges (pp_firewall.h). argv: src dst n bsrc bdst m
 * arena victim secret (physical addresses of pynq.allocate buffers the Python test made:
 * u32[n] twice, u8[m + 1], i16[m + 1], u32[64] three times) fnslot (hw.scale's dynamic cep
 * slot: calls of a function value) mode ("fw"; "nofw": the same program on the system
 * without the firewall, where the hostile calls are expected to pass and corrupt memory,
 * less own_window, which would overwrite this runtime's own slots).
 *
 * Correct calls (declared memory, pp_fw_own) pass; then each hostile call, each followed by a
 * correct one: "case <name> <code> <engine> <addr> <bytes> <write> <why> <call>".
 *   past_end      dst: the arena's first 8 words declared, 16 passed
 *   not_a_buffer  dst: the victim, never declared
 *   freed         dst: memory declared, then disowned (freed), then passed
 *   own_window    dst: this component's own window in the OCM (its slot table)
 *   read_secret   src: the secret, never declared (a read: the data must not arrive)
 *   fn_past_end   a function value of hw.scale's type (its dynamic slot), dst as past_end
 * Prints "ALL OK" at the end.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cc_pp.h"
#include "pp_firewall.h" /* (cc_pp.h includes it only in a system with the firewall) */

static uint32_t arg(char **argv, int i)
{
    return (uint32_t)strtoul(argv[i], NULL, 0);
}

static int correct(pp_rt *rt, uint32_t src, uint32_t dst, uint32_t n, const char *after)
{
    uint32_t r = 0;
    int32_t s = 0;
    int e = cc_hw_scale(rt, pp_buf_at(src, n), pp_buf_at(dst, n), 3u, &r);
    if (e != PP_OK || r != n) {
        printf("FAIL correct call after %s: %s (%d) r=%u\n", after, pp_strerror(e), e, (unsigned)r);
        return 1;
    }
    if ((e = cc_hw_add(rt, 40, 2, &s)) != PP_OK || s != 42) {
        printf("FAIL hw.add after %s: %s (%d)\n", after, pp_strerror(e), e);
        return 1;
    }
    return 0;
}

static void report(pp_rt *rt, const char *name, int e)
{
    const pp_fw_refusal *x = pp_fw_refused(rt);
    if (e != PP_EFIREWALL || x == NULL) {
        printf("case %s %d none\n", name, e);
        return;
    }
    printf("case %s %d %s 0x%08X %u %d %d %u\n", name, e, pp_fw_engine_name(rt, x->engine), (unsigned)x->addr,
           (unsigned)x->bytes, x->write, x->why, (unsigned)x->call);
    printf("why %s %s\n", name, pp_fw_why(x->why));
}

int main(int argc, char **argv)
{
    pp_simboard sb;
    pp_platform plat;
    static pp_rt rt;
    uint32_t r = 0, src, dst, n, bsrc, bdst, m, arena, victim, secret;
    pp_fn fn;
    int e, fw;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 12) {
        printf("FAIL usage: cfw src dst n bsrc bdst m arena victim secret fnslot fw|nofw\n");
        return 2;
    }
    src = arg(argv, 1), dst = arg(argv, 2), n = arg(argv, 3), bsrc = arg(argv, 4), bdst = arg(argv, 5);
    m = arg(argv, 6), arena = arg(argv, 7), victim = arg(argv, 8), secret = arg(argv, 9);
    fn = pp_fn_at(arg(argv, 10));
    fw = argv[11][0] == 'f';
    if (pp_simboard_attach(&sb) != PP_OK || pp_simboard_platform(&sb, CC_BASE, &plat) != PP_OK ||
        (e = cc_open(&rt, &plat)) != PP_OK) {
        printf("FAIL attach\n");
        return 1;
    }
    pp_set_timeout(&rt, 120000000u);
    /* the program's DMA memory: what its calls may pass */
    if (pp_fw_own(&rt, src, 4u * n) != PP_OK || pp_fw_own(&rt, dst, 4u * n) != PP_OK ||
        pp_fw_own(&rt, bsrc, m + 1u) != PP_OK || pp_fw_own(&rt, bdst, 2u * (m + 1u)) != PP_OK ||
        pp_fw_own(&rt, arena, 32u) != PP_OK) {
        printf("FAIL pp_fw_own\n");
        return 1;
    }
    if (correct(&rt, src, dst, n, "nothing"))
        return 1;
    printf("scale %u\n", (unsigned)n);
    /* a slice: exactly its elements (bsrc[1:], bdst[1:]) */
    if ((e = cc_hw_widen(&rt, pp_buf_at(bsrc + 1u, m), pp_buf_at(bdst + 2u, m), &r)) != PP_OK || r != m) {
        printf("FAIL hw.widen: %s (%d)\n", pp_strerror(e), e);
        return 1;
    }
    printf("widen %u\n", (unsigned)r);

    e = cc_hw_scale(&rt, pp_buf_at(src, 16u), pp_buf_at(arena, 16u), 3u, &r);
    report(&rt, "past_end", e);
    if (correct(&rt, src, dst, n, "past_end"))
        return 1;
    e = cc_hw_scale(&rt, pp_buf_at(src, 16u), pp_buf_at(victim, 16u), 3u, &r);
    report(&rt, "not_a_buffer", e);
    if (correct(&rt, src, dst, n, "not_a_buffer"))
        return 1;
    if (pp_fw_own(&rt, victim + 128u, 64u) != PP_OK || pp_fw_disown(&rt, victim + 128u) != PP_OK ||
        pp_fw_disown(&rt, victim + 128u) != (fw ? PP_EINVAL : PP_OK)) {
        printf("FAIL own/disown\n");
        return 1;
    }
    e = cc_hw_scale(&rt, pp_buf_at(src, 16u), pp_buf_at(victim + 128u, 16u), 3u, &r);
    report(&rt, "freed", e);
    if (correct(&rt, src, dst, n, "freed"))
        return 1;
    if (fw) {
        e = cc_hw_scale(&rt, pp_buf_at(src, 16u), pp_buf_at(CC_BASE, 16u), 3u, &r);
        report(&rt, "own_window", e);
        if (correct(&rt, src, dst, n, "own_window"))
            return 1;
    }
    e = cc_hw_scale(&rt, pp_buf_at(secret, 16u), pp_buf_at(dst, 16u), 1u, &r);
    report(&rt, "read_secret", e);
    if (correct(&rt, src, dst, n, "read_secret"))
        return 1;
    /* a function value: a correct call, then past the end */
    if ((e = cc_call_in_u32_buf_out_u32_buf_u32_ret_u32(&rt, fn, pp_buf_at(src, n), pp_buf_at(dst, n), 3u, &r)) != PP_OK ||
        r != n) {
        printf("FAIL function value: %s (%d)\n", pp_strerror(e), e);
        return 1;
    }
    e = cc_call_in_u32_buf_out_u32_buf_u32_ret_u32(&rt, fn, pp_buf_at(src, 16u), pp_buf_at(arena, 16u), 3u, &r);
    report(&rt, "fn_past_end", e);
    if (correct(&rt, src, dst, n, "fn_past_end"))
        return 1;
    printf("refused %u\n", (unsigned)pp_fw_count(&rt));
    printf("ALL OK\n");
    pp_simboard_close(&sb);
    return 0;
}
