/*
 * Component 'callee' of tests/c/data/cboard.yaml on the simulated board, driven by
 * tests/c/test_c_wait.py to check the wait modes (docs/c.md, "Waiting").
 *
 * It serves its export f (called by Verilog: caller.run(n) calls callee.f n times, each
 * argument the previous result) until SIGUSR1, then reads one command from stdin:
 *   mode <sleep|poll|yield|interrupt>   pp_set_wait -> "MODE <name> <rc>"
 *   call <n> <seed>                     n calls of hw.f (Verilog), gaps of 0..2 ms from seed
 *                                       -> "pair <x> <r>" per call, then "CALLED <n>"
 *   served                              -> "served <x> <r>" per call of f since the last
 *                                       "served", then "SERVED <count>"
 *   lat                                 -> "lat <ns> <stored ns>" per call of f since the last
 *                                       "lat" (CLOCK_MONOTONIC of its first line, and of the
 *                                       simulator's stamp of the PL's last write into PS
 *                                       memory: pp_simboard_pl_write_ns), then "LAT <count>"
 *   stats                               -> "STATS <mode> <wakes> <timeouts> <pauses> <clears>
 *                                       <errors> <c> <d> <s> <w>"
 *   quit                                -> "BYE", exit 0
 * argv[1]: the first mode ("default": the header's CALLEE_WAIT, i.e. the YAML's). Prints
 * "READY <mode>" once serving. Any failure prints "FAIL ..." and exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "callee_pp.h"

#define GOLDEN 0x9E3779B9u
#define MAX_LOG 4096

static pp_simboard sb;
static pp_rt rt;
static volatile sig_atomic_t command = 0;
static uint32_t state = 0;
static int32_t log_x[MAX_LOG], log_r[MAX_LOG];
static unsigned nlog = 0;

static void on_usr1(int sig)
{
    (void)sig;
    command = 1;
}

/* per call of f: its first line and the simulator's stamp of its last PL write into PS
 * memory, CLOCK_MONOTONIC ns (pushpush bench wait reads them with "lat") */
static uint64_t lat_now[MAX_LOG], lat_stored[MAX_LOG];
static unsigned nlat = 0;

int callee_f(pp_rt *r, int32_t x, int32_t *result)
{
    struct timespec ts;
    uint64_t now, stored;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    stored = pp_simboard_pl_write_ns(&sb);
    if (nlat < MAX_LOG) {
        lat_now[nlat] = now;
        lat_stored[nlat] = stored;
        nlat++;
    }
    (void)r;
    state = (((state << 5) | (state >> 27)) ^ (uint32_t)x) + GOLDEN;
    *result = (int32_t)state;
    if (nlog < MAX_LOG) {
        log_x[nlog] = x;
        log_r[nlog] = *result;
        nlog++;
    }
    return PP_OK;
}

int callee_wide(pp_rt *r, int64_t a, uint64_t b, double c, float d, int8_t e, uint16_t g, bool h, double *result)
{
    (void)r;
    *result = (double)a + (double)b + c + (double)d + (double)e + (double)g + (h ? 1.0 : 0.0);
    return PP_OK;
}

/* The next command line from stdin if one is there (1), none yet (0), or stdin closed (-1):
 * a stray SIGUSR1 must not leave the program blocked on stdin instead of serving. */
static char inbuf[4096];
static size_t inlen = 0;

static int next_line(char *out, size_t size)
{
    for (;;) {
        char *nl = memchr(inbuf, '\n', inlen);
        struct pollfd p;
        ssize_t k;
        if (nl != NULL) {
            size_t n = (size_t)(nl - inbuf) + 1u;
            size_t c = n < size ? n : size - 1u;
            memcpy(out, inbuf, c);
            out[c] = '\0';
            memmove(inbuf, inbuf + n, inlen - n);
            inlen -= n;
            return 1;
        }
        p.fd = 0;
        p.events = POLLIN;
        p.revents = 0;
        if (poll(&p, 1, 0) <= 0)
            return 0;
        k = read(0, inbuf + inlen, sizeof inbuf - inlen);
        if (k <= 0)
            return -1;
        inlen += (size_t)k;
    }
}

static void gap(unsigned *seed)
{
    struct timespec ts;
    *seed = *seed * 1103515245u + 12345u;
    if ((*seed >> 16) % 2u == 0)
        return; /* back to back */
    ts.tv_sec = 0;
    ts.tv_nsec = (long)((*seed >> 8) % 2000u) * 1000L;
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    pp_platform plat;
    struct sigaction sa;
    char line[256];
    int e;

    setvbuf(stdout, NULL, _IOLBF, 0);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART: a sleeping poll(2) returns */
    if (pp_simboard_attach(&sb) != PP_OK || pp_simboard_platform(&sb, CALLEE_BASE, &plat) != PP_OK) {
        printf("FAIL attach\n");
        return 1;
    }
    if ((e = callee_open(&rt, &plat)) != PP_OK) {
        printf("FAIL open: %s (%d)\n", pp_strerror(e), e);
        return 1;
    }
    pp_set_timeout(&rt, 20000000u);
    if (argc > 1 && strcmp(argv[1], "default") != 0 && (e = pp_set_wait(&rt, pp_wait_mode(argv[1]))) != PP_OK) {
        printf("FAIL mode %s: %s (%d)\n", argv[1], pp_strerror(e), e);
        return 1;
    }
    printf("READY %s\n", pp_wait_name(pp_get_wait(&rt)));
    for (;;) {
        int got;
        pp_serve(&rt, &command, 0);
        command = 0;
        while ((got = next_line(line, sizeof line)) > 0) {
            if (strncmp(line, "mode ", 5) == 0) {
                line[strcspn(line, "\n")] = '\0';
                e = pp_set_wait(&rt, pp_wait_mode(line + 5));
                printf("MODE %s %d\n", pp_wait_name(pp_get_wait(&rt)), e);
            } else if (strncmp(line, "call ", 5) == 0) {
                unsigned n = 0, seed = 0, i;
                int32_t x = 1000, r = 0;
                if (sscanf(line + 5, "%u %u", &n, &seed) != 2) {
                    printf("FAIL bad command %s", line);
                    return 1;
                }
                for (i = 0; i < n; i++) {
                    if ((e = callee_hw_f(&rt, x, &r)) != PP_OK) {
                        printf("FAIL hw.f call %u: %s (%d)\n", i, pp_strerror(e), e);
                        return 1;
                    }
                    printf("pair %d %d\n", (int)x, (int)r);
                    x = (int32_t)((uint32_t)r + i);
                    gap(&seed);
                }
                printf("CALLED %u\n", n);
            } else if (strncmp(line, "served", 6) == 0) {
                unsigned i, n = nlog;
                for (i = 0; i < n; i++)
                    printf("served %d %d\n", (int)log_x[i], (int)log_r[i]);
                nlog = 0;
                printf("SERVED %u\n", n);
            } else if (strncmp(line, "lat", 3) == 0) {
                unsigned i, n = nlat;
                for (i = 0; i < n; i++)
                    printf("lat %llu %llu\n", (unsigned long long)lat_now[i],
                           (unsigned long long)lat_stored[i]);
                nlat = 0;
                printf("LAT %u\n", n);
            } else if (strncmp(line, "stats", 5) == 0) {
                printf("STATS %s %u %u %u %u %u %u %u %u %u\n", pp_wait_name(pp_get_wait(&rt)), rt.irq.wakes,
                       rt.irq.timeouts, rt.irq.pauses, rt.irq.clears, rt.irq.errors, rt.counters.collisions,
                       rt.counters.duplicates, rt.counters.strays, rt.counters.write_errors);
            } else if (strncmp(line, "quit", 4) == 0) {
                pp_set_wait(&rt, PP_WAIT_SLEEP); /* clears our pending bit (if interrupt) */
                printf("BYE\n");
                pp_simboard_close(&sb);
                return 0;
            } else {
                printf("FAIL unknown command %s", line);
                return 1;
            }
        }
        if (got < 0)
            return 0;
    }
}
