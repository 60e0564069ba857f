/*
 * pp_wg_take / pp_wg_count (pp_firewall.c) over a platform whose PL is an array standing for
 * the window guard's register page: tests/c/test_c_window_guard.py. The map header's
 * <SYS>_WINDOW_GUARD_BASE and <SYS>_PL_MASTERS name the page and the masters.
 */
#include <stdio.h>
#include <string.h>

#include "pp_firewall.h"
#include "wg_map.h"

static uint32_t page[1024];   /* the guard's 4 KiB page */
static unsigned reads, writes;

static int rd(void *ctx, uint32_t addr, uint32_t *value)
{
    (void)ctx;
    if (addr < WG_WINDOW_GUARD_BASE || addr >= WG_WINDOW_GUARD_BASE + 4096u)
        return PP_EPLATFORM;
    reads++;
    *value = page[(addr - WG_WINDOW_GUARD_BASE) / 4u];
    return PP_OK;
}

static int wr(void *ctx, uint32_t addr, const uint32_t *words, unsigned n)
{
    (void)ctx;
    if (n != 1u || addr != WG_WINDOW_GUARD_BASE + PP_FW_BAD_INFO)
        return PP_EPLATFORM;   /* the only store: the latch's clear */
    writes++;
    if (words[0] >> 31)
        page[PP_FW_BAD_INFO / 4u] &= 0x7FFFFFFFu;
    return PP_OK;
}

#define CHECK(c, name) do { if (!(c)) { printf("FAIL %s\n", name); return 1; } printf("ok %s\n", name); } while (0)

int main(void)
{
    static const char *const masters[] = WG_PL_MASTERS;
    pp_rt rt;
    pp_wg_refusal r;
    memset(&rt, 0, sizeof rt);
    rt.plat.read = rd;
    rt.plat.write = wr;
    CHECK(pp_wg_take(&rt, WG_WINDOW_GUARD_BASE, &r) == 0 && writes == 0, "nothing latched");
    page[PP_FW_REFUSED / 4u] = 3u;
    page[PP_FW_BAD_ADDR / 4u] = 0xFFFC0020u;
    /* VALID, WRITE, INCR, 4-byte beats, 2 beats, ID 0x2005 */
    page[PP_FW_BAD_INFO / 4u] = (1u << 31) | (1u << 30) | (1u << 28) | (2u << 25) | (1u << 17) | 0x2005u;
    page[PP_FW_INFO / 4u] = (12u << 16) | (2u << 8);   /* TAG_LSB 12, TAG_BITS 2: ID 0x2005 is master 2 */
    CHECK(pp_wg_count(&rt, WG_WINDOW_GUARD_BASE) == 3u, "count");
    CHECK(pp_wg_take(&rt, WG_WINDOW_GUARD_BASE, &r) == 1, "latched");
    CHECK(r.addr == 0xFFFC0020u && r.bytes == 8u && r.write == 1 && r.master == 2u, "fields");
    CHECK(strcmp(masters[r.master], "mixer") == 0 && strcmp(masters[0], "ps") == 0, "master names");
    CHECK(writes == 1 && pp_wg_take(&rt, WG_WINDOW_GUARD_BASE, &r) == 0, "cleared");
    rt.plat.read = NULL;
    CHECK(pp_wg_take(&rt, WG_WINDOW_GUARD_BASE, &r) == PP_EPLATFORM && pp_wg_count(&rt, WG_WINDOW_GUARD_BASE) == 0,
          "no PL reads");
    printf("ALL OK\n");
    return 0;
}
