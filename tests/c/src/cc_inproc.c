/*
 * C <-> C in one process (tests/c/data/cc.yaml): the in-process model of the ps region is
 * one array; component cli's idle hook runs component srv's sweep (and the other way
 * round), so two runtimes make progress in one thread. Checks every scalar type, function
 * values both ways, error statuses, timeouts, duplicates, strays, collisions and the
 * counters. Prints "ok <name>" per check; exits 1 at the first failure. Argument "direct":
 * the platform also gives direct pointers into the array (pp_platform.direct, Normal
 * memory: strongly_ordered 0), so calls take pp_call's inline fast path and replies
 * pp_take_hot's, with their barriers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_pp.h"
#include "srv_pp.h"

#define PS_WORDS (CLI_PS_SIZE / 4u)

static uint32_t ps[PS_WORDS];
static pp_rt srv, cli;
static int srv_serving = 1;   /* 0: srv never answers (a hung callee) */
static int refuse_writes = 0; /* > 0: that many writes into srv are refused (SLVERR); < 0: all */
static uint64_t clock_us = 0;
static int direct_mode = 0;   /* argv[1] "direct": pp_platform.direct given */

static int check(int cond, const char *name, const char *detail)
{
    if (!cond) {
        printf("FAIL %s: %s (cli counters c%u d%u s%u w%u, srv counters c%u d%u s%u w%u)\n", name, detail,
               cli.counters.collisions, cli.counters.duplicates, cli.counters.strays, cli.counters.write_errors,
               srv.counters.collisions, srv.counters.duplicates, srv.counters.strays, srv.counters.write_errors);
        exit(1);
    }
    printf("ok %s\n", name);
    return 1;
}

static volatile uint32_t *mem_direct(void *ctx, uint32_t addr, unsigned n, int *soft)
{
    (void)ctx;
    *soft = 0; /* (one thread: a pending slot is taken by the idle hook's sweep) */
    if (addr < CLI_PS_BASE || addr - CLI_PS_BASE + 4u * n > CLI_PS_SIZE || (addr & 3u) != 0)
        return NULL;
    return (volatile uint32_t *)&ps[(addr - CLI_PS_BASE) / 4u];
}

static int mem_write(void *ctx, uint32_t addr, const uint32_t *words, unsigned n)
{
    unsigned k;
    uint32_t off;
    (void)ctx;
    if (addr < CLI_PS_BASE || addr - CLI_PS_BASE + 4u * n > CLI_PS_SIZE)
        return PP_EBADFN;
    if (refuse_writes != 0 && addr >= SRV_BASE && addr < SRV_BASE + SRV_SIZE) {
        if (refuse_writes > 0)
            refuse_writes--;
        return PP_ECOLLISION;
    }
    off = (addr - CLI_PS_BASE) / 4u;
    for (k = 0; k < n; k++)
        ps[off + k] = words[k];
    return PP_OK;
}

/* a word written into the window at cli's next idle, before srv may answer (a stray that
 * arrives while a call waits) */
static int inject_pending = 0;
static uint32_t inject_off = 0, inject_word = 0;

static void idle_cli(void *ctx)
{
    (void)ctx;
    clock_us += 10;
    if (inject_pending) {
        ps[inject_off] = inject_word;
        inject_pending = 0;
        return;
    }
    if (srv_serving)
        pp_poll(&srv);
}

static void idle_srv(void *ctx)
{
    (void)ctx;
    clock_us += 10;
    pp_poll(&cli);
}

static uint64_t now(void *ctx)
{
    (void)ctx;
    return clock_us;
}

/* ------------------------------------------------------------------ srv's exports */






static int cb_guard(pp_rt *rt);

int srv_apply(pp_rt *rt, pp_fn f, int32_t x, int32_t *result)
{
    int32_t once, again;
    int e = srv_call_i32_ret_i32(rt, f, x, &once);   /* call the function value we got */
    if (e != PP_OK)
        return e;
    e = cb_guard(rt);
    if (e != PP_OK)
        return e;
    e = srv_call_i32_ret_i32(rt, f, once, &again);
    if (e != PP_OK)
        return e;
    *result = again;
    return PP_OK;
}

static uint32_t dup_off = 0, dup_trig = 0;

int srv_twice(pp_rt *rt, int32_t x, int32_t *result)
{
    if (dup_off != 0) {
        /* a re-stored trigger of the call running now: the sweep must drop it */
        rt->plat.window[dup_off] = dup_trig;
        pp_poll(rt);
    }
    *result = 2 * x;
    return PP_OK;
}

int srv_get_twice(pp_rt *rt, pp_fn *result)
{
    static pp_fn lent = {0};
    if (lent.addr == 0 && srv_lend_i32_ret_i32(rt, srv_twice, &lent) != PP_OK)
        return -1;
    *result = lent;
    return PP_OK;
}

int srv_fail(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    (void)result;
    return x == 0 ? PP_OK : -1;
}

static uint32_t poked = 0;

int srv_poke(pp_rt *rt, uint32_t x)
{
    (void)rt;
    poked = x;
    return PP_OK;
}

/* srv's import cli.cb, called from inside srv.apply (a nested call the other way) */
static int cb_guard(pp_rt *rt)
{
    int32_t r = 0;
    int e = srv_cli_cb(rt, 20, &r);
    return e == PP_OK && r == 21 ? PP_OK : -1;
}

/* ------------------------------------------------------------------ cli's exports */
int cli_cb(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    *result = x + 1;
    return PP_OK;
}

static int square_calls = 0;

static int square(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    square_calls++;
    *result = x * x;
    return PP_OK;
}

int main(int argc, char **argv)
{
    pp_platform pc, psrv;
    int32_t r32 = 0;
    int64_t r64 = 0;
    uint64_t u64 = 0;
    float rf = 0;
    double rd = 0;
    int8_t r8 = 0;
    pp_fn f, tw;
    int e;
    uint32_t st_off, cep_off, status_before;
    volatile uint32_t *saved_cep;

    direct_mode = argc > 1 && strcmp(argv[1], "direct") == 0;
    memset(&pc, 0, sizeof pc);
    pc.write = mem_write;
    pc.direct = direct_mode ? mem_direct : NULL;
    pc.idle = idle_cli;
    pc.now_us = now;
    psrv = pc;
    psrv.idle = idle_srv;
    pc.window = ps + (CLI_BASE - CLI_PS_BASE) / 4u;
    psrv.window = ps + (SRV_BASE - CLI_PS_BASE) / 4u;
    check(cli_open(&cli, &pc) == PP_OK && srv_open(&srv, &psrv) == PP_OK, "open", "open failed");
    pp_set_timeout(&cli, 20000);
    pp_set_timeout(&srv, 20000);

    /* scalar types, negative numbers, 64-bit and float values */
    check(cli_srv_add_i32(&cli, -7, 3, &r32) == PP_OK && r32 == -4, "i32 negative", "add_i32(-7, 3) != -4");
    /* direct: the first call looked for a stray (pp_call_site), every later one takes the
     * fast path (pp_call) while its calls take their own replies */
    check(cli.sites[0].fast == (direct_mode ? 1 : 0) && cli.sites[0].clean == 1, "fast path ready",
          "the site's fast flag after a call that took its own reply");
    check(cli_srv_add_i32(&cli, 2147483647, 1, &r32) == PP_OK && r32 == (-2147483647 - 1), "i32 wrap",
          "add_i32(INT_MAX, 1)");
    e = cli_srv_mix(&cli, true, -128, -32768, 255, 65535, 4294967295u, -1.5f, -((int64_t)1 << 40),
                    (uint64_t)1 << 50, 0.25, &rd);
    check(e == PP_OK && rd == 1.0 - 128 - 32768 + 255 + 65535 + 4294967295.0 - 1.5 - 1099511627776.0 +
                                  1125899906842624.0 + 0.25, "all scalar types", "mix");
    check(cli_srv_neg64(&cli, (int64_t)0x123456789ABCLL, &r64) == PP_OK && r64 == -(int64_t)0x123456789ABCLL,
          "i64 negative", "neg64");
    check(cli_srv_echo_u64(&cli, 0xFEDCBA9876543210ull, &u64) == PP_OK && u64 == 0xFEDCBA9876543210ull, "u64",
          "echo_u64");
    check(cli_srv_scale(&cli, -2.5f, 4.0f, &rf) == PP_OK && rf == -10.0f, "f32", "scale");
    check(cli_srv_narrow(&cli, -5, &r8) == PP_OK && r8 == -5, "i8 result", "narrow(-5)");
    check(cli_srv_narrow(&cli, 0x17F, &r8) == PP_OK && r8 == 127, "i8 truncation", "narrow(0x17F)");
    check(cli_srv_poke(&cli, 0xC0FFEEu) == PP_OK && poked == 0xC0FFEEu, "void result", "poke");

    /* function values: cli lends a C function, srv calls it back (during the call) */
    check(cli_lend_i32_ret_i32(&cli, square, &f) == PP_OK && f.addr >= CLI_BASE && f.addr < CLI_BASE + CLI_SIZE,
          "lend", "lend failed");
    check(cli_srv_apply(&cli, f, -3, &r32) == PP_OK && r32 == 81 && square_calls == 2, "higher-order C -> C -> C",
          "apply(square, -3) != 81");
    /* srv returns its function value; cli calls it through the typed helper */
    check(cli_srv_get_twice(&cli, &tw) == PP_OK && tw.addr >= SRV_BASE && tw.addr < SRV_BASE + SRV_SIZE,
          "function result", "get_twice");
    check(cli_call_i32_ret_i32(&cli, tw, 21, &r32) == PP_OK && r32 == 42, "call a returned value", "twice(21)");
    /* errors */
    check(cli_srv_fail(&cli, 1, &r32) == PP_ECALLEE, "callee error status", "fail(1) != PP_ECALLEE");
    check(cli_srv_fail(&cli, 0, &r32) == PP_OK, "after an error", "fail(0)");
    check(pp_release(&cli, f) == PP_OK, "release", "release");
    check(srv_call_i32_ret_i32(&srv, f, 1, &r32) == PP_EBADFN, "released function answers BAD_FUNCTION",
          "a call of a released function");
    /* its words are passed over while others are free: after calls through a function value
     * (each a run-time rep, next-fit) went round the run-time area twice, it still answers
     * (hardware may still call it: docs/architecture.md section 2.2) */
    {
        unsigned k, ok = 1;
        for (k = 0; k < 2u * cli.runtime_words && ok; k++)
            ok = cli_call_i32_ret_i32(&cli, tw, (int32_t)k, &r32) == PP_OK && r32 == 2 * (int32_t)k;
        check(ok, "function-value calls", "twice(k) through the run-time area");
        check(srv_call_i32_ret_i32(&srv, f, 1, &r32) == PP_EBADFN, "a released function's words not reused",
              "a released function stopped answering BAD_FUNCTION");
    }
    check(cli_call_i32_ret_i32(&cli, pp_fn_at(0), 1, &r32) == PP_EBADFN, "null function", "call of address 0");

    /* a callee that never answers: the timeout code, and the system keeps serving */
    srv_serving = 0;
    check(cli_srv_add_i32(&cli, 1, 1, &r32) == PP_ETIMEOUT, "timeout", "no PP_ETIMEOUT");
    srv_serving = 1;
    pp_poll(&srv); /* takes the old call now: its late reply lands in cli's rep */
    check(cli_srv_add_i32(&cli, 5, 6, &r32) == PP_OK && r32 == 11 && cli.counters.strays == 1,
          "late reply is a stray", "the late reply was delivered or not counted");

    /* a stray status into a rep slot nobody waits on: cleared and counted before the next
     * call (pp_call_site), or, on the fast path after a call that took its own reply (direct:
     * a repeat of that reply, its echo), when the call sees it while it waits */
    st_off = cli.sites[0].rep_off + cli.sites[0].result_words;
    cli.plat.window[st_off] = direct_mode ? PP_STATUS_OK | (cli.sites[0].seq ? PP_STATUS_ECHO : 0u) : PP_STATUS_OK;
    check(cli_srv_add_i32(&cli, 2, 2, &r32) == PP_OK && r32 == 4 && cli.counters.strays == 2, "stray cleared",
          "stray");

    /* a reply echoing the previous call's SEQ arrives while the call waits (with a result
     * that is not the call's): dropped as a stray, the call's own reply is delivered */
    cli.plat.window[cli.sites[0].rep_off] = 999u;
    inject_off = (CLI_BASE - CLI_PS_BASE) / 4u + st_off;
    inject_word = PP_STATUS_OK | (cli.sites[0].seq ? PP_STATUS_ECHO : 0u);
    inject_pending = 1;
    check(cli_srv_add_i32(&cli, 2, 3, &r32) == PP_OK && r32 == 5 && cli.counters.strays == 3 && !inject_pending,
          "reply with the wrong SEQ echo is a stray", "a reply echoing the other SEQ was delivered");

    /* duplicate into a static slot: the last call's words stored again */
    cep_off = (cli.sites[0].cep_addr - SRV_BASE) / 4u;
    {
        uint32_t words[3];
        words[0] = 2;
        words[1] = 2;
        words[2] = (CLI_BASE + 4u * cli.sites[0].rep_off) | (cli.sites[0].seq ? PP_TRIGGER_SEQ : 0u);
        status_before = srv.counters.duplicates;
        mem_write(NULL, cli.sites[0].cep_addr, words, 3);
        pp_poll(&srv);
        check(srv.counters.duplicates == status_before + 1 && cli.plat.window[st_off] == 0 &&
              srv.plat.window[cep_off + 2] == 0, "static duplicate dropped", "duplicate ran or was not counted");
    }
    check(cli_srv_add_i32(&cli, 3, 4, &r32) == PP_OK && r32 == 7, "after a duplicate", "add after duplicate");

    /* duplicate into a dynamic (lent) slot while its call runs: srv_twice re-stores the
     * trigger of the call it is running, then sweeps */
    {
        uint32_t rep_off = cli.runtime_off + cli.runtime_words - 2u; /* an unused corner */
        uint32_t trig = (CLI_BASE + 4u * rep_off) | PP_TRIGGER_SEQ;
        uint32_t words[2];
        words[0] = 8;
        words[1] = trig;
        cli.plat.window[rep_off + 1u] = 0;
        status_before = srv.counters.duplicates;
        dup_off = (tw.addr - SRV_BASE) / 4u + 1u;
        dup_trig = trig;
        mem_write(NULL, tw.addr, words, 2);
        pp_poll(&srv);
        dup_off = 0;
        check(srv.counters.duplicates == status_before + 1 && cli.plat.window[rep_off] == 16 &&
              cli.plat.window[rep_off + 1u] == (PP_STATUS_OK | PP_STATUS_ECHO), "dynamic duplicate dropped",
              "the re-stored trigger of a running call ran again or was not counted");
        cli.plat.window[rep_off + 1u] = 0;
    }

    /* collisions: refused writes are retried (counted), then PP_ECOLLISION at the timeout
     * (through pp_platform.write: a direct store cannot be refused) */
    saved_cep = cli.sites[0].cep;
    if (direct_mode) {
        cli.sites[0].cep = NULL;
        cli.sites[0].fast = 0;
    }
    refuse_writes = 3;
    check(cli_srv_add_i32(&cli, 1, 2, &r32) == PP_OK && r32 == 3 && cli.counters.collisions == 3,
          "collision retried", "refused writes");
    refuse_writes = -1;
    check(cli_srv_add_i32(&cli, 1, 2, &r32) == PP_ECOLLISION && cli.counters.write_errors == 1, "collision timeout",
          "no PP_ECOLLISION");
    refuse_writes = 0;
    check(cli_srv_add_i32(&cli, 10, -20, &r32) == PP_OK && r32 == -10, "after a collision", "add");
    cli.sites[0].cep = saved_cep;

    /* SEQ alternates per target slot, echoes match */
    {
        int i;
        for (i = 0; i < 1000; i++)
            if (cli_srv_add_i32(&cli, i, i, &r32) != PP_OK || r32 != 2 * i)
                break;
        check(i == 1000, "1000 calls", "a call failed");
    }
    check(cli.counters.duplicates == 0 && srv.counters.strays == 0 && srv.counters.write_errors == 0,
          "counters", "unexpected counts");
    printf("counters cli c%u d%u s%u w%u srv c%u d%u s%u w%u\n", cli.counters.collisions, cli.counters.duplicates,
           cli.counters.strays, cli.counters.write_errors, srv.counters.collisions, srv.counters.duplicates,
           srv.counters.strays, srv.counters.write_errors);
    printf("ALL OK\n");
    return 0;
}
