/* pushpush's C runtime, c/runtime/pp_platform_simboard.c: copied as is into every generated c/ folder; edit the original. */
/*
 * pushpush C runtime, simulated-board layer (see pp_platform.h): a C program attached to
 * the simulated board that a Python process runs (pushpush.pynq.simulated.c_programs serves it).
 *
 * - the ps region (the on-chip memory holding the software windows) is the board's shared
 *   memory file, mapped here: polling the own window and writing into another software
 *   window are plain memory accesses, as on the board;
 * - a write into the PL is one request on the Unix socket, answered with the AXI response
 *   of the one burst the simulator made of it (SLVERR -> PP_ECOLLISION, DECERR ->
 *   PP_EBADFN). Framing (little-endian): request u32 op, u32 address, u32 nwords, then
 *   nwords words; reply u32 status, u32 0, u64 value. op 1 WRITE (status = AXI response,
 *   0xFF = the board failed), op 2 CYCLE (value = the simulated clock cycle), op 3
 *   PL_WRITE_NS (value = CLOCK_MONOTONIC ns of the simulator's store of the PL's last write
 *   into PS memory), op 4 READ (value = the PL word at address: a GP0 read), op 5
 *   WAIT_REPORT (one word: the milliseconds a call into address waited, | 1 << 31 when its
 *   write was refused all along; value = the length of the text that follows the reply:
 *   what the simulated board did meanwhile, for the timeout's message on stderr).
 * - wait mode interrupt: the Linux layer's UIO code (pp_linux_irq_wait) on a stand-in for
 *   /dev/uioN: a second Unix socket (PUSHPUSH_SIMBOARD_UIO), on which pushpush.pynq.simulated.c_programs behaves as
 *   uio_pdrv_genirq does for the PS interrupt that the simulated axi_intc drives: a 4-byte
 *   event count to read once the interrupt fired (then it is masked), a 4-byte write of a
 *   non-zero value re-enables it. The axi_intc's registers are PL writes like any other.
 */
#define _POSIX_C_SOURCE 200809L
#include "pp_platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#define PP_SB_WRITE 1u
#define PP_SB_CYCLE 2u
#define PP_SB_PL_WRITE_NS 3u
#define PP_SB_READ 4u
#define PP_SB_WAIT_REPORT 5u
#ifdef PP_TRACE
/* the simulator's control page (pushpush.simboard.ipc): its size, the trace area's session
 * word (pushpush.simboard.ipc.CTL_TRACE: non-zero while `with ol.trace()` records), the
 * cycle the simulator entered its state at and the cycle of its loop's last turn
 * (CTL_STATE + 8, + 40: Python's read_status takes the larger) */
#define PP_SB_CTL_SIZE 4096u
#define PP_SB_CTL_TRACE 4032u
#define PP_SB_CTL_CYCLE0 264u
#define PP_SB_CTL_LOOKED 296u
#endif

static const char *pp_env(const char *name)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') {
        fprintf(stderr, "pushpush: %s is not set: start this program from the Python side "
                        "(pushpush.pynq.simulated.c_programs) of a running simulated board\n", name);
        return NULL;
    }
    return v;
}

static int pp_sb_io(int fd, void *buf, size_t n, int sending)
{
    char *p = (char *)buf;
    while (n > 0) {
        ssize_t k = sending ? send(fd, p, n, 0) : recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void pp_put32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
}

static uint32_t pp_get32(const unsigned char *b)
{
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static int pp_sb_request(pp_simboard *sb, uint32_t op, uint32_t addr, const uint32_t *words, unsigned n,
                         uint32_t *status, uint64_t *value)
{
    unsigned char msg[12 + 4 * PP_MAX_WORDS];
    unsigned char rep[16];
    unsigned k;
    if (sb->sock < 0 || n > PP_MAX_WORDS)
        return -1;
    pp_put32(msg, op);
    pp_put32(msg + 4, addr);
    pp_put32(msg + 8, n);
    for (k = 0; k < n; k++)
        pp_put32(msg + 12 + 4 * k, words[k]);
    if (pp_sb_io(sb->sock, msg, 12 + 4 * (size_t)n, 1) != 0 || pp_sb_io(sb->sock, rep, sizeof rep, 0) != 0)
        return -1;
    *status = pp_get32(rep);
    *value = (uint64_t)pp_get32(rep + 8) | ((uint64_t)pp_get32(rep + 12) << 32);
    return 0;
}

static int pp_simboard_write(void *ctx, uint32_t addr, const uint32_t *words, unsigned n)
{
    pp_simboard *sb = (pp_simboard *)ctx;
    uint32_t status;
    uint64_t value;
    int r = pp_linux_write(&sb->lx, addr, words, n);
    if (r != PP_EBADFN) /* the ps region: a store into the shared memory */
        return r;
    if (pp_sb_request(sb, PP_SB_WRITE, addr, words, n, &status, &value) != 0)
        return PP_EPLATFORM;
    switch (status) {
    case 0: case 1: return PP_OK;
    case 2: return PP_ECOLLISION;
    case 3: return PP_EBADFN;
    default: return PP_EPLATFORM;
    }
}

#if PP_DIRECT
static volatile uint32_t *pp_simboard_direct(void *ctx, uint32_t addr, unsigned n, int *soft)
{
    /* the ps region only: a PL address is the simulator's (its write goes over the socket) */
    return pp_linux_direct(&((pp_simboard *)ctx)->lx, addr, n, soft);
}
#endif

static void pp_simboard_idle(void *ctx)
{
    pp_simboard *sb = (pp_simboard *)ctx;
    struct timespec ts;
    ts.tv_sec = 0;
    ts.tv_nsec = (long)sb->idle_ns;
    nanosleep(&ts, NULL);
}

int pp_simboard_attach(pp_simboard *sb)
{
    const char *ps = pp_env("PUSHPUSH_SIMBOARD_PS");
    const char *base = pp_env("PUSHPUSH_SIMBOARD_PS_BASE");
    const char *size = pp_env("PUSHPUSH_SIMBOARD_PS_SIZE");
    const char *path = pp_env("PUSHPUSH_SIMBOARD_SOCK");
    const char *idle = getenv("PUSHPUSH_SIMBOARD_IDLE_US");
    struct sockaddr_un sa;
    unsigned i;
    sb->sock = -1;
#ifdef PP_TRACE
    sb->ctl = NULL;
#endif
    sb->lx.ps = sb->lx.pl = sb->lx.intc = NULL;
    sb->lx.ps_fd = sb->lx.uio_fd = -1;
    for (i = 0; i < PP_LINUX_MAX_CLAIMS; i++)
        sb->lx.claim_fd[i] = -1; /* nothing claimed yet (pp_simboard_close may follow) */
    sb->idle_ns = (idle != NULL && *idle != '\0' ? strtoull(idle, NULL, 0) : 50u) * 1000u;
    if (ps == NULL || base == NULL || size == NULL || path == NULL)
        return PP_EPLATFORM;
    if (pp_linux_open_file(&sb->lx, ps, (uint32_t)strtoul(base, NULL, 0), (uint32_t)strtoul(size, NULL, 0)) != PP_OK) {
        fprintf(stderr, "pushpush: cannot map the simulated board's memory %s: %s\n", ps, strerror(errno));
        return PP_EPLATFORM;
    }
    if (strlen(path) >= sizeof sa.sun_path) {
        fprintf(stderr, "pushpush: socket path too long: %s\n", path);
        pp_simboard_close(sb);
        return PP_EPLATFORM;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    strcpy(sa.sun_path, path);
    sb->sock = socket(AF_UNIX, SOCK_STREAM, 0);
    if (sb->sock < 0 || connect(sb->sock, (struct sockaddr *)&sa, sizeof sa) != 0) {
        fprintf(stderr, "pushpush: cannot connect to the simulated board at %s: %s\n", path, strerror(errno));
        pp_simboard_close(sb);
        return PP_EPLATFORM;
    }
    return PP_OK;
}

static void pp_simboard_yield(void *ctx)
{
    (void)ctx;
    sched_yield();
}

int pp_simboard_irq_open(void *ctx, uint32_t intc_base, uint32_t raw_irq)
{
    pp_simboard *sb = (pp_simboard *)ctx;
    const char *path;
    struct sockaddr_un sa;
    (void)raw_irq; /* the stand-in is the PS interrupt's device already */
    if (sb->lx.uio_fd >= 0) {
        sb->lx.intc_base = intc_base;
        return PP_OK;
    }
    path = getenv("PUSHPUSH_SIMBOARD_UIO");
    if (path == NULL || *path == '\0') {
        fprintf(stderr, "pushpush: PUSHPUSH_SIMBOARD_UIO is not set: the simulated board has no "
                        "interrupt (its top has no interrupt block, or it runs without the HDL PS "
                        "model), so wait mode interrupt is not available\n");
        return PP_EPLATFORM;
    }
    if (strlen(path) >= sizeof sa.sun_path) {
        fprintf(stderr, "pushpush: socket path too long: %s\n", path);
        return PP_EPLATFORM;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    strcpy(sa.sun_path, path);
    sb->lx.uio_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (sb->lx.uio_fd < 0 || connect(sb->lx.uio_fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        fprintf(stderr, "pushpush: cannot connect to the simulated board's interrupt at %s: %s\n", path,
                strerror(errno));
        if (sb->lx.uio_fd >= 0)
            close(sb->lx.uio_fd);
        sb->lx.uio_fd = -1;
        return PP_EPLATFORM;
    }
    sb->lx.intc_base = intc_base;
    sb->lx.reg_write = pp_simboard_write; /* the controller's registers: over the board's socket */
    sb->lx.reg_ctx = sb;
    return PP_OK;
}

int pp_simboard_irq_wait(void *ctx, uint64_t timeout_us, int pause_only)
{
    return pp_linux_irq_wait(&((pp_simboard *)ctx)->lx, timeout_us, pause_only);
}

static int pp_simboard_claim(void *ctx, uint32_t window_base, const char *name, int *handle,
                             volatile uint8_t **record)
{
    return pp_linux_claim(&((pp_simboard *)ctx)->lx, window_base, name, handle, record);
}

static void pp_simboard_unclaim(void *ctx, int handle)
{
    pp_linux_unclaim(&((pp_simboard *)ctx)->lx, handle);
}

static int pp_simboard_pending(void *ctx, uint32_t addr)
{
    return pp_linux_pending(&((pp_simboard *)ctx)->lx, addr);
}

/* A call timed out: the board's words on what it did meanwhile, on stderr (op 5). */
static void pp_simboard_timed_out(void *ctx, uint32_t addr, uint64_t waited_us, int refused)
{
    pp_simboard *sb = (pp_simboard *)ctx;
    uint32_t status, word;
    uint64_t value;
    char text[2048];
    size_t n;
    word = (uint32_t)(waited_us / 1000u > 0x7FFFFFFFu ? 0x7FFFFFFFu : waited_us / 1000u);
    if (refused)
        word |= 0x80000000u;
    if (pp_sb_request(sb, PP_SB_WAIT_REPORT, addr, &word, 1, &status, &value) != 0 || status != 0)
        return;
    while (value > 0) { /* the text follows the reply */
        n = value < sizeof text - 1u ? (size_t)value : sizeof text - 1u;
        if (pp_sb_io(sb->sock, text, n, 0) != 0)
            return;
        text[n] = '\0';
        fputs(text, stderr);
        value -= n;
    }
    fputc('\n', stderr);
}

#ifdef PP_TRACE
/* The simulated board's cycle as its control page says (the cycle of the simulator's last
 * turn, as the Python runtime's events): a plain load, no request, so tracing moves no
 * simulated cycle (reading the PL's counter would be a GP0 read through the simulator). */
static uint64_t pp_simboard_cycles(void *ctx, uint32_t counter_addr)
{
    pp_simboard *sb = (pp_simboard *)ctx;
    uint64_t a, b;
    (void)counter_addr;
    if (sb->ctl == NULL)
        return PP_TRACE_NO_CYCLE;
    a = *(volatile const uint64_t *)(sb->ctl + PP_SB_CTL_CYCLE0);
    b = *(volatile const uint64_t *)(sb->ctl + PP_SB_CTL_LOOKED);
    return a > b ? a : b;
}

static int pp_simboard_trace_open(void *ctx, const char *name, void **mem, size_t *bytes,
                                  volatile const uint32_t **session, uint32_t *clock)
{
    pp_simboard *sb = (pp_simboard *)ctx;
    const char *path;
    void *p;
    int fd, r = pp_linux_trace_ring(name, mem, bytes);
    if (r != PP_OK || *mem == NULL)
        return r;
    if (sb->ctl == NULL) {
        path = pp_env("PUSHPUSH_SIMBOARD_CTL");
        if (path == NULL)
            return PP_EPLATFORM;
        fd = open(path, O_RDONLY);
        p = fd >= 0 ? mmap(NULL, PP_SB_CTL_SIZE, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
        if (fd >= 0)
            close(fd);
        if (p == MAP_FAILED) {
            fprintf(stderr, "pushpush: cannot map the simulated board's control page %s: %s\n", path,
                    strerror(errno));
            return PP_EPLATFORM;
        }
        sb->ctl = (volatile const uint8_t *)p;
    }
    *session = (volatile const uint32_t *)(sb->ctl + PP_SB_CTL_TRACE); /* on while ol.trace() records */
    *clock = PP_TRACE_CLOCK_SIMBOARD;
    return PP_OK;
}
#endif

/* A GP0 read through the simulator (op READ): the memory firewall's registers. */
static int pp_simboard_read(void *ctx, uint32_t addr, uint32_t *value)
{
    uint32_t status;
    uint64_t v;
    if ((addr & 3u) != 0)
        return PP_EINVAL;
    if (pp_sb_request((pp_simboard *)ctx, PP_SB_READ, addr, NULL, 0, &status, &v) != 0 || status != 0)
        return PP_EPLATFORM;
    *value = (uint32_t)v;
    return PP_OK;
}

int pp_simboard_platform(pp_simboard *sb, uint32_t window_base, pp_platform *out)
{
    int r = pp_linux_platform(&sb->lx, window_base, out);
    if (r != PP_OK)
        return r;
    out->write = pp_simboard_write;
    out->idle = pp_simboard_idle;
    out->ctx = sb;
    out->yield = pp_simboard_yield;
    out->irq_open = pp_simboard_irq_open;
    out->irq_wait = pp_simboard_irq_wait;
    out->claim = pp_simboard_claim; /* the claim file is keyed by the board's memory file */
    out->unclaim = pp_simboard_unclaim;
    out->pending = pp_simboard_pending;
    out->timed_out = pp_simboard_timed_out;
#if PP_DIRECT
    out->direct = pp_simboard_direct; /* the ps region's shared memory (Normal memory: the
                                       * runtime keeps its barriers, strongly_ordered 0) */
#endif
    out->read = pp_simboard_read;
#ifdef PP_TRACE
    out->cycles = pp_simboard_cycles;
    out->trace_open = pp_simboard_trace_open;
#endif
    return PP_OK;
}

uint64_t pp_simboard_cycle(pp_simboard *sb)
{
    uint32_t status;
    uint64_t value;
    if (pp_sb_request(sb, PP_SB_CYCLE, 0, NULL, 0, &status, &value) != 0 || status != 0)
        return 0;
    return value;
}

uint64_t pp_simboard_pl_write_ns(pp_simboard *sb)
{
    uint32_t status;
    uint64_t value;
    if (pp_sb_request(sb, PP_SB_PL_WRITE_NS, 0, NULL, 0, &status, &value) != 0 || status != 0)
        return 0;
    return value;
}

#ifdef PP_TRACE
static uint32_t pp_simboard_read32(void *ctx, uint32_t addr)
{
    uint32_t status;
    uint64_t value;
    if (pp_sb_request((pp_simboard *)ctx, PP_SB_READ, addr, NULL, 0, &status, &value) != 0 || status != 0)
        return 0;
    return (uint32_t)value;
}

uint64_t pp_simboard_counter(pp_simboard *sb, uint32_t counter_addr)
{
    return pp_counter64(pp_simboard_read32, sb, counter_addr);
}
#endif

void pp_simboard_close(pp_simboard *sb)
{
    if (sb->sock >= 0)
        close(sb->sock);
    sb->sock = -1;
#ifdef PP_TRACE
    if (sb->ctl != NULL)
        munmap((void *)(uintptr_t)sb->ctl, PP_SB_CTL_SIZE);
    sb->ctl = NULL;
#endif
    pp_linux_close(&sb->lx);
}
