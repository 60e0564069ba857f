/*
 * C <-> C between two processes through a shared-memory file (tests/c/data/cc.yaml), with
 * the Linux platform layer (pp_linux_open_file): the host's version of two components on
 * the ARM sharing the on-chip memory. The child is srv (serves), the parent is cli (calls).
 *
 *   cc_procs <shm file> test        checks results, higher-order calls and counters
 *   cc_procs <shm file> bench N     N calls through shared memory, then N request/response
 *                                   round trips over a pair of pipes between the same two
 *                                   processes; prints both rates and their ratio
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_pp.h"
#include "srv_pp.h"

#define STOP_OFF (CLI_PS_SIZE / 4u - 1u) /* last word of the ps region: "srv, stop" */

/* ------------------------------------------------------------------ srv (child) */
int srv_apply(pp_rt *rt, pp_fn f, int32_t x, int32_t *result)
{
    return srv_call_i32_ret_i32(rt, f, x, result);
}
int srv_twice(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
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
    *result = 0;
    return x == 0 ? PP_OK : -1;
}
int srv_poke(pp_rt *rt, uint32_t x)
{
    (void)rt;
    (void)x;
    return PP_OK;
}

/* ------------------------------------------------------------------ cli (parent) */
int cli_cb(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    *result = x + 1;
    return PP_OK;
}

static int cube(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    *result = x * x * x;
    return PP_OK;
}

static int open_rt(const char *path, pp_linux *lx, pp_rt *rt, int is_srv)
{
    pp_platform plat;
    if (pp_linux_open_file(lx, path, CLI_PS_BASE, CLI_PS_SIZE) != PP_OK) {
        perror(path);
        return -1;
    }
    if (getenv("PP_SPIN") != NULL)
        lx->spin = (unsigned)atoi(getenv("PP_SPIN"));
    if (pp_linux_platform(lx, is_srv ? SRV_BASE : CLI_BASE, &plat) != PP_OK)
        return -1;
    return is_srv ? srv_open(rt, &plat) : cli_open(rt, &plat);
}

static double now_s(void)
{
    return (double)pp_linux_now_us(NULL) / 1e6;
}

static pid_t child = -1;

static int fail(const char *what)
{
    printf("FAIL %s\n", what);
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    return 1;
}

int main(int argc, char **argv)
{
    static pp_rt srv, cli;
    pp_linux lx;
    int status, bench, to_child[2], to_parent[2];
    long n = 0, i;
    int32_t r = 0;
    if (argc < 3)
        return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    bench = strcmp(argv[2], "bench") == 0;
    if (bench)
        n = argc > 3 ? atol(argv[3]) : 100000;
    if (pipe(to_child) != 0 || pipe(to_parent) != 0)
        return 2;
    child = fork();
    if (child < 0)
        return 2;
    if (child == 0) {
        uint32_t msg;
        close(to_child[1]);
        close(to_parent[0]);
        if (open_rt(argv[1], &lx, &srv, 1) != PP_OK)
            _exit(3);
        pp_serve(&srv, (volatile const int *)&lx.ps[STOP_OFF], 0);
        /* then the pipe round trips: read a word, answer it plus one */
        while (read(to_child[0], &msg, sizeof msg) == (ssize_t)sizeof msg) {
            msg += 1;
            if (write(to_parent[1], &msg, sizeof msg) != (ssize_t)sizeof msg)
                break;
        }
        printf("srv counters c%u d%u s%u w%u\n", srv.counters.collisions, srv.counters.duplicates,
               srv.counters.strays, srv.counters.write_errors);
        _exit(srv.counters.duplicates || srv.counters.strays || srv.counters.write_errors ? 4 : 0);
    }
    close(to_child[0]);
    close(to_parent[1]);
    if (open_rt(argv[1], &lx, &cli, 0) != PP_OK)
        return fail("open");
    pp_set_timeout(&cli, 10000000);
    if (!bench) {
        pp_fn f, tw;
        int64_t r64 = 0;
        double rd = 0;
        for (i = 0; i < 2000; i++) {
            int e = cli_srv_add_i32(&cli, (int32_t)i, -3, &r);
            if (e != PP_OK || r != i - 3) {
                printf("call %ld: %s (%d), result %d\n", i, pp_strerror(e), e, (int)r);
                return fail("add_i32");
            }
        }
        if (cli_srv_neg64(&cli, -((int64_t)1 << 45), &r64) != PP_OK || r64 != ((int64_t)1 << 45))
            return fail("neg64");
        if (cli_srv_mix(&cli, false, -1, -2, 3, 4, 5, 0.5f, -6, 7, -0.125, &rd) != PP_OK || rd != 10.375)
            return fail("mix");
        if (cli_lend_i32_ret_i32(&cli, cube, &f) != PP_OK)
            return fail("lend");
        for (i = -50; i < 50; i++)
            if (cli_srv_apply(&cli, f, (int32_t)i, &r) != PP_OK || r != i * i * i)
                return fail("apply(cube)");
        if (cli_srv_get_twice(&cli, &tw) != PP_OK || cli_call_i32_ret_i32(&cli, tw, -11, &r) != PP_OK || r != -22)
            return fail("get_twice");
        if (cli_srv_fail(&cli, 3, &r) != PP_ECALLEE)
            return fail("fail");
        printf("ok two processes\n");
    } else {
        double t0, t_shm, t_pipe;
        uint32_t msg;
        t0 = now_s();
        for (i = 0; i < n; i++)
            if (cli_srv_add_i32(&cli, (int32_t)i, 1, &r) != PP_OK || r != i + 1)
                return fail("add_i32");
        t_shm = now_s() - t0;
        lx.ps[STOP_OFF] = 1;
        t0 = now_s();
        for (i = 0; i < n; i++) {
            msg = (uint32_t)i;
            if (write(to_child[1], &msg, sizeof msg) != (ssize_t)sizeof msg ||
                read(to_parent[0], &msg, sizeof msg) != (ssize_t)sizeof msg || msg != (uint32_t)i + 1u)
                return fail("pipe");
        }
        t_pipe = now_s() - t0;
        printf("shm_calls_per_s %.0f\npipe_calls_per_s %.0f\nratio %.2f\n", n / t_shm, n / t_pipe,
               (n / t_shm) / (n / t_pipe));
    }
    lx.ps[STOP_OFF] = 1;
    close(to_child[1]);
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return fail("srv process");
    printf("cli counters c%u d%u s%u w%u\nALL OK\n", cli.counters.collisions, cli.counters.duplicates,
           cli.counters.strays, cli.counters.write_errors);
    return 0;
}
