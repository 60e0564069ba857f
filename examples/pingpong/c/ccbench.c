/*
 * pingpong_c, the C -> C row: N calls of srv.f from process cli to process srv through a
 * shared-memory file (the Linux platform layer, as two components on the ARM share the
 * on-chip memory), then N request/response round trips over two pipes between the same
 * two processes. Prints "cc <calls> <shm seconds> <pipe seconds>".
 *
 *   ccbench <shared memory file of 64 KiB> N
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_pp.h"
#include "srv_pp.h"

#define STOP_OFF (CLI_PS_SIZE / 4u - 1u)

int srv_f(pp_rt *rt, int32_t x, int32_t *result)
{
    (void)rt;
    *result = (int32_t)((uint32_t)x + 1u);
    return PP_OK;
}

static int attach(const char *path, pp_linux *lx, pp_rt *rt, int is_srv)
{
    pp_platform plat;
    if (pp_linux_open_file(lx, path, CLI_PS_BASE, CLI_PS_SIZE) != PP_OK ||
        pp_linux_platform(lx, is_srv ? SRV_BASE : CLI_BASE, &plat) != PP_OK)
        return PP_EPLATFORM;
    return is_srv ? srv_open(rt, &plat) : cli_open(rt, &plat);
}

int main(int argc, char **argv)
{
    static pp_rt rt;
    pp_linux lx;
    int down[2], up[2], status;
    long n, i;
    pid_t child;
    uint32_t msg;
    int32_t r = 0;
    uint64_t t0, t1, t2;
    if (argc < 3 || pipe(down) != 0 || pipe(up) != 0)
        return 2;
    n = atol(argv[2]);
    child = fork();
    if (child == 0) {
        close(down[1]);
        close(up[0]);
        if (attach(argv[1], &lx, &rt, 1) != PP_OK)
            _exit(3);
        pp_serve(&rt, (volatile const int *)&lx.ps[STOP_OFF], 0);
        while (read(down[0], &msg, sizeof msg) == (ssize_t)sizeof msg) {
            msg += 1u;
            if (write(up[1], &msg, sizeof msg) != (ssize_t)sizeof msg)
                break;
        }
        _exit(0);
    }
    close(down[0]);
    close(up[1]);
    if (attach(argv[1], &lx, &rt, 0) != PP_OK)
        return 3;
    t0 = pp_linux_now_us(NULL);
    for (i = 0; i < n; i++)
        if (cli_srv_f(&rt, (int32_t)i, &r) != PP_OK || r != (int32_t)i + 1)
            break;
    t1 = pp_linux_now_us(NULL);
    lx.ps[STOP_OFF] = 1;
    if (i < n) {
        printf("error: call %ld of srv.f failed\n", i);
        return 1;
    }
    for (i = 0; i < n; i++) {
        msg = (uint32_t)i;
        if (write(down[1], &msg, sizeof msg) != (ssize_t)sizeof msg ||
            read(up[0], &msg, sizeof msg) != (ssize_t)sizeof msg || msg != (uint32_t)i + 1u)
            return 1;
    }
    t2 = pp_linux_now_us(NULL);
    close(down[1]);
    waitpid(child, &status, 0);
    printf("cc %ld %.6f %.6f\n", n, (double)(t1 - t0) / 1e6, (double)(t2 - t1) / 1e6);
    return 0;
}
