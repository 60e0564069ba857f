/* pushpush's C runtime, c/runtime/pp_platform_linux.c: copied as is into every generated c/ folder; edit the original. */
/*
 * pushpush C runtime, Linux user space layer (see pp_platform.h): /dev/mem (or a shared
 * memory file) mapped with mmap; every write is volatile 32-bit stores with a barrier
 * before the last word (the trigger or the status), so it is seen last. Words into the PL
 * are single-beat writes on M_AXI_GP0 (an uncached mapping does not merge them); an AXI
 * error response there is an external abort (SIGBUS), not a return code, on Linux.
 */
#define _POSIX_C_SOURCE 200809L
#include "pp_platform.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* axi_intc v4.1 registers (PG099): acknowledge, set-enable, master enable */
#define PP_INTC_IAR 0x0Cu
#define PP_INTC_SIE 0x10u
#define PP_INTC_MER 0x1Cu
#define PP_INTC_SPAN 0x1000u

/* where PYNQ looks (-D to point the lookup elsewhere, as the tests do) */
#ifndef PP_PROC_INTERRUPTS
#define PP_PROC_INTERRUPTS "/proc/interrupts"
#endif
#ifndef PP_SYS_CLASS_UIO
#define PP_SYS_CLASS_UIO "/sys/class/uio"
#endif

static volatile uint32_t *pp_map(int fd, off_t offset, uint32_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    off_t aligned = offset - (offset % page);
    size_t len = (size_t)(offset - aligned) + size;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, aligned);
    if (p == MAP_FAILED)
        return NULL;
    return (volatile uint32_t *)((volatile char *)p + (offset - aligned));
}

static void pp_unmap(volatile uint32_t *p, uint32_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)p;
    uintptr_t lo = a - (a % (uintptr_t)page);
    if (p != NULL)
        munmap((void *)lo, (size_t)(a - lo) + size);
}

static void pp_linux_claims_init(pp_linux *lx)
{
    unsigned i;
    for (i = 0; i < PP_LINUX_MAX_CLAIMS; i++) {
        lx->claim_fd[i] = -1;
        lx->claim_map[i] = NULL;
    }
}

static void pp_linux_init(pp_linux *lx)
{
    lx->ps = lx->pl = NULL;
    lx->ps_fd = lx->pl_fd = -1;
    lx->spin = 1;
    lx->spun = 0;
    lx->sleep_us = 0;
    lx->uio_path = NULL;
    lx->uio_fd = -1;
    lx->uio_count = 0;
    lx->intc_base = 0;
    lx->intc = NULL;
    lx->reg_write = pp_linux_write;
    lx->reg_ctx = lx;
    lx->devmem = 0;
    pp_linux_claims_init(lx);
}

int pp_linux_open(pp_linux *lx, uint32_t ps_base, uint32_t ps_size, uint32_t pl_base, uint32_t pl_size)
{
    pp_linux_init(lx);
    lx->ps_base = ps_base;
    lx->ps_size = ps_size;
    lx->pl_base = pl_base;
    lx->pl_size = pl_size;
    lx->ps_fd = open("/dev/mem", O_RDWR | O_SYNC);
    if (lx->ps_fd < 0)
        return PP_EPLATFORM;
    lx->devmem = 1;
    lx->ps = pp_map(lx->ps_fd, (off_t)ps_base, ps_size);
    if (lx->ps == NULL) {
        pp_linux_close(lx);
        return PP_EPLATFORM;
    }
    if (pl_size > 0) {
        lx->pl = pp_map(lx->ps_fd, (off_t)pl_base, pl_size);
        if (lx->pl == NULL) {
            pp_linux_close(lx);
            return PP_EPLATFORM;
        }
    }
    return PP_OK;
}

int pp_linux_open_file(pp_linux *lx, const char *path, uint32_t ps_base, uint32_t ps_size)
{
    pp_linux_init(lx);
    lx->ps_base = ps_base;
    lx->ps_size = ps_size;
    lx->pl_base = lx->pl_size = 0;
    lx->ps_fd = open(path, O_RDWR);
    if (lx->ps_fd < 0)
        return PP_EPLATFORM;
    lx->ps = pp_map(lx->ps_fd, 0, ps_size);
    if (lx->ps == NULL) {
        pp_linux_close(lx);
        return PP_EPLATFORM;
    }
    return PP_OK;
}

static void pp_linux_unclaim_all(pp_linux *lx);

void pp_linux_close(pp_linux *lx)
{
    if (lx->ps != NULL)
        pp_unmap(lx->ps, lx->ps_size);
    if (lx->pl != NULL)
        pp_unmap(lx->pl, lx->pl_size);
    if (lx->intc != NULL)
        pp_unmap(lx->intc, PP_INTC_SPAN);
    if (lx->uio_fd >= 0)
        close(lx->uio_fd);
    pp_linux_unclaim_all(lx);
    if (lx->ps_fd >= 0)
        close(lx->ps_fd);
    lx->ps = lx->pl = lx->intc = NULL;
    lx->ps_fd = lx->uio_fd = -1;
}

static void pp_store(volatile uint32_t *dst, const uint32_t *words, unsigned n)
{
    unsigned k;
    for (k = 0; k + 1u < n; k++)
        dst[k] = words[k];
    PP_BARRIER(); /* needed: the trigger (or status) word last, after every earlier store of the
                   * runtime too (a slot's re-arm before its reply) */
    dst[n - 1u] = words[n - 1u];
    PP_BARRIER(); /* needed: in effect before the runtime reads on (the interrupt block's clear
                   * before the sweep after it, docs/architecture.md section 2.3) */
}

int pp_linux_write(void *ctx, uint32_t addr, const uint32_t *words, unsigned n)
{
    pp_linux *lx = (pp_linux *)ctx;
    uint64_t end = (uint64_t)addr + 4u * (uint64_t)n;
    if (n == 0)
        return PP_OK;
    if ((addr & 3u) != 0)
        return PP_EINVAL;
    if (addr >= lx->ps_base && end <= (uint64_t)lx->ps_base + lx->ps_size) {
        pp_store(lx->ps + (addr - lx->ps_base) / 4u, words, n);
        return PP_OK;
    }
    if (lx->pl != NULL && addr >= lx->pl_base && end <= (uint64_t)lx->pl_base + lx->pl_size) {
        pp_store(lx->pl + (addr - lx->pl_base) / 4u, words, n);
        return PP_OK;
    }
    if (lx->intc != NULL && addr >= lx->intc_base && end <= (uint64_t)lx->intc_base + PP_INTC_SPAN) {
        pp_store(lx->intc + (addr - lx->intc_base) / 4u, words, n);
        return PP_OK;
    }
    return PP_EBADFN; /* nothing mapped there (DECERR) */
}

int pp_linux_read(void *ctx, uint32_t addr, uint32_t *value)
{
    pp_linux *lx = (pp_linux *)ctx;
    if ((addr & 3u) != 0)
        return PP_EINVAL;
    if (lx->pl == NULL || addr < lx->pl_base || addr - lx->pl_base + 4u > lx->pl_size)
        return PP_EBADFN; /* nothing mapped there */
    *value = lx->pl[(addr - lx->pl_base) / 4u];
    return PP_OK;
}

static void pp_sleep_us(uint64_t us)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(us / 1000000u);
    ts.tv_nsec = (long)(us % 1000000u) * 1000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

void pp_linux_yield(void *ctx)
{
    (void)ctx;
    sched_yield();
}

void pp_linux_idle(void *ctx)
{
    pp_linux *lx = (pp_linux *)ctx;
    if (lx != NULL && lx->sleep_us > 0) {
        pp_sleep_us(lx->sleep_us);
        return;
    }
    if (lx != NULL && ++lx->spun < lx->spin)
        return;
    if (lx != NULL)
        lx->spun = 0;
    sched_yield();
}

uint64_t pp_linux_now_us(void *ctx)
{
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

#ifdef PP_TRACE
static uint32_t pp_linux_read32(void *ctx, uint32_t addr)
{
    pp_linux *lx = (pp_linux *)ctx;
    return lx->pl[(addr - lx->pl_base) / 4u];
}

uint64_t pp_linux_cycles(void *ctx, uint32_t counter_addr)
{
    pp_linux *lx = (pp_linux *)ctx;
    if (lx->pl == NULL || counter_addr < lx->pl_base || counter_addr - lx->pl_base + 8u > lx->pl_size)
        return PP_TRACE_NO_CYCLE;
    return pp_counter64(pp_linux_read32, lx, counter_addr);
}

int pp_linux_trace_ring(const char *name, void **mem, size_t *bytes)
{
    const char *dir = getenv("PUSHPUSH_TRACE_DIR"), *n = getenv("PUSHPUSH_TRACE_EVENTS");
    char path[4096];
    unsigned long events = n != NULL && *n != '\0' ? strtoul(n, NULL, 0) : 65536ul;
    size_t size;
    void *p;
    int fd;
    *mem = NULL;
    *bytes = 0;
    if (dir == NULL || *dir == '\0')
        return PP_OK; /* not traced */
    if (events == 0 || events > (1ul << 24) || (events & (events - 1u)) != 0) {
        fprintf(stderr, "pushpush: PUSHPUSH_TRACE_EVENTS=%s: give a power of two, 1 .. 16777216 events\n", n);
        return PP_EINVAL;
    }
    size = PP_TRACE_HEADER + events * sizeof(pp_trace_event);
    if ((size_t)snprintf(path, sizeof path, "%s/%s-%ld.ring", dir, name, (long)getpid()) >= sizeof path) {
        fprintf(stderr, "pushpush: PUSHPUSH_TRACE_DIR is too long: %s\n", dir);
        return PP_EINVAL;
    }
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
        fprintf(stderr, "pushpush: cannot create the trace ring %s (PUSHPUSH_TRACE_DIR): %s\n", path,
                strerror(errno));
        if (fd >= 0)
            close(fd);
        return PP_EPLATFORM;
    }
    p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        fprintf(stderr, "pushpush: cannot map the trace ring %s: %s\n", path, strerror(errno));
        return PP_EPLATFORM;
    }
    *mem = p;
    *bytes = size;
    return PP_OK;
}

static int pp_linux_trace_open(void *ctx, const char *name, void **mem, size_t *bytes,
                               volatile const uint32_t **session, uint32_t *clock)
{
    pp_linux *lx = (pp_linux *)ctx;
    *session = NULL; /* noted from the start to the end of the program */
    *clock = lx->pl != NULL ? PP_TRACE_CLOCK_COUNTER : PP_TRACE_CLOCK_NONE;
    return pp_linux_trace_ring(name, mem, bytes);
}
#endif

int pp_linux_platform(pp_linux *lx, uint32_t window_base, pp_platform *out)
{
    if (lx->ps == NULL || window_base < lx->ps_base || window_base - lx->ps_base >= lx->ps_size ||
        (window_base & 3u) != 0)
        return PP_EINVAL;
    out->write = pp_linux_write;
    out->idle = pp_linux_idle;
    out->now_us = pp_linux_now_us;
    out->ctx = lx;
    out->window = lx->ps + (window_base - lx->ps_base) / 4u;
    out->yield = pp_linux_yield;
    out->irq_open = lx->pl != NULL ? pp_linux_irq_open : NULL; /* /dev/mem only */
    out->irq_wait = pp_linux_irq_wait;
    out->claim = pp_linux_claim;
    out->unclaim = pp_linux_unclaim;
    out->pending = pp_linux_pending;
    out->timed_out = NULL;    /* (the board says nothing more than the error) */
#if PP_DIRECT
    out->direct = pp_linux_direct;
#if defined(__arm__)
    /* 32-bit ARM Linux maps /dev/mem outside its RAM (the OCM, the PL) Strongly-ordered
     * (pgprot_noncached: MT_UNCACHED); a shared-memory file is Normal memory */
    out->strongly_ordered = lx->devmem;
#else
    out->strongly_ordered = 0;
#endif
#endif
    out->read = lx->pl != NULL ? pp_linux_read : NULL; /* the PL mapped from /dev/mem only */
#ifdef PP_TRACE
    out->cycles = pp_linux_cycles;
    out->trace_open = pp_linux_trace_open;
#endif
    return PP_OK;
}

volatile uint32_t *pp_linux_direct(void *ctx, uint32_t addr, unsigned n, int *soft)
{
    pp_linux *lx = (pp_linux *)ctx;
    uint64_t end = (uint64_t)addr + 4u * (uint64_t)n;
    *soft = 0;
    if ((addr & 3u) != 0)
        return NULL;
    if (addr >= lx->ps_base && end <= (uint64_t)lx->ps_base + lx->ps_size) {
        *soft = 1; /* a software window: a call looks at the slot's trigger first (pending) */
        return lx->ps + (addr - lx->ps_base) / 4u;
    }
    if (lx->pl != NULL && addr >= lx->pl_base && end <= (uint64_t)lx->pl_base + lx->pl_size)
        return lx->pl + (addr - lx->pl_base) / 4u;
    return NULL;
}

int pp_linux_pending(void *ctx, uint32_t addr)
{
    pp_linux *lx = (pp_linux *)ctx;
    if (addr < lx->ps_base || addr - lx->ps_base >= lx->ps_size || (addr & 3u) != 0)
        return 0;
    return lx->ps[(addr - lx->ps_base) / 4u] != 0u;
}

/* ------------------------------------------------------------------ claims (one owner) */

/* The claim file, as pushpush.runtime.claim lays it out (PP_CLAIM_BYTES, pp_protocol.h): the
 * owner's line (PP_CLAIM_OWNER bytes), then "PPRS" and one byte per import site (the record),
 * then the run-time journal, 2 bytes for each of up to PP_JOURNAL_WORDS run-time words
 * (pp_runtime.c's pp_journal): mapped whole. */

int pp_linux_claim(void *ctx, uint32_t window_base, const char *name, int *handle, volatile uint8_t **record)
{
    pp_linux *lx = (pp_linux *)ctx;
    const char *dir = getenv("PUSHPUSH_CLAIM_DIR");
    char dbuf[64], path[512], line[PP_CLAIM_OWNER], prog[128], when[32];
    struct stat mem, a, b;
    unsigned i, slot = PP_LINUX_MAX_CLAIMS;
    int fd = -1;
    volatile uint8_t *m;
    for (i = 0; i < PP_LINUX_MAX_CLAIMS; i++)
        if (lx->claim_fd[i] < 0) {
            slot = i;
            break;
        }
    if (slot == PP_LINUX_MAX_CLAIMS || lx->ps_fd < 0 || fstat(lx->ps_fd, &mem) != 0)
        return PP_EPLATFORM;
    if (dir == NULL || *dir == '\0') {
        snprintf(dbuf, sizeof dbuf, "/tmp/pushpush-claims-%u", (unsigned)getuid());
        dir = dbuf;
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "pushpush: cannot make the claim directory %s: %s\n", dir, strerror(errno));
        return PP_EPLATFORM;
    }
    snprintf(path, sizeof path, "%s/m%lx-%lx-w%08x.claim", dir, (unsigned long)mem.st_dev,
             (unsigned long)mem.st_ino, (unsigned)window_base);
    for (;;) {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) {
            fprintf(stderr, "pushpush: cannot open the claim %s: %s\n", path, strerror(errno));
            return PP_EPLATFORM;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            ssize_t n = pread(fd, line, sizeof line - 1, 0);
            line[n > 0 ? (size_t)n : 0] = '\0';
            close(fd);
            fprintf(stderr, "pushpush: component '%s' already has a live runtime: %s (claim %s). A "
                            "software component has one runtime at a time; end that one first (Python: "
                            "ol.free() or exit; C: pp_close()/pp_linux_close() or exit, or kill its PID). "
                            "The claim is released when its owner exits, also by a crash.\n",
                    name != NULL ? name : "?", line[0] != '\0' ? line : "an unknown process", path);
            return PP_EBUSY;
        }
        /* the name may point at a newer file meanwhile: the lock must be on the current one */
        if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
            break;
        close(fd);
    }
    if ((a.st_size < PP_CLAIM_BYTES && ftruncate(fd, PP_CLAIM_BYTES) != 0) ||
        (m = (volatile uint8_t *)mmap(NULL, PP_CLAIM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
            (volatile uint8_t *)MAP_FAILED) {
        fprintf(stderr, "pushpush: cannot map the claim %s: %s\n", path, strerror(errno));
        close(fd);
        return PP_EPLATFORM;
    }
    {
        time_t t = time(NULL);
        struct tm tm;
        FILE *f = fopen("/proc/self/cmdline", "r");
        size_t k, n = 0;
        if (f != NULL) {
            n = fread(prog, 1, sizeof prog - 1, f);
            fclose(f);
        }
        for (k = 0; k + 1 < n; k++)
            if (prog[k] == '\0')
                prog[k] = ' ';
        prog[n] = '\0';
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        snprintf(line, sizeof line, "pid=%ld since=%s runtime=c component=%s program=%s", (long)getpid(), when,
                 name != NULL ? name : "?", n > 0 ? prog : "?");
        for (k = 0; k < PP_CLAIM_OWNER; k++)
            m[k] = (uint8_t)(k < strlen(line) ? line[k] : '\0');
        if (m[PP_CLAIM_OWNER] != 'P' || m[PP_CLAIM_OWNER + 1] != 'P' || m[PP_CLAIM_OWNER + 2] != 'R' ||
            m[PP_CLAIM_OWNER + 3] != 'S') {
            for (k = PP_CLAIM_OWNER; k < PP_CLAIM_BYTES; k++)
                m[k] = 0;
            m[PP_CLAIM_OWNER] = 'P';
            m[PP_CLAIM_OWNER + 1] = 'P';
            m[PP_CLAIM_OWNER + 2] = 'R';
            m[PP_CLAIM_OWNER + 3] = 'S';
        }
    }
    lx->claim_fd[slot] = fd;
    lx->claim_map[slot] = m;
    *handle = (int)slot;
    *record = m + PP_CLAIM_OWNER + 4;
    return PP_OK;
}

void pp_linux_unclaim(void *ctx, int handle)
{
    pp_linux *lx = (pp_linux *)ctx;
    if (handle < 0 || handle >= PP_LINUX_MAX_CLAIMS || lx->claim_fd[handle] < 0)
        return;
    munmap((void *)lx->claim_map[handle], PP_CLAIM_BYTES);
    close(lx->claim_fd[handle]); /* the lock goes with the last descriptor */
    lx->claim_fd[handle] = -1;
    lx->claim_map[handle] = NULL;
}

static void pp_linux_unclaim_all(pp_linux *lx)
{
    int i;
    for (i = 0; i < PP_LINUX_MAX_CLAIMS; i++)
        pp_linux_unclaim(lx, i);
}

/* ------------------------------------------------------------------ interrupts (UIO) */

int pp_linux_find_uio(uint32_t raw_irq, char *out, unsigned size)
{
    /* As PYNQ (pynq/interrupt.py get_uio_irq, pynq/uio.py get_uio_device): the line of
     * /proc/interrupts whose third-last column is the raw IRQ names the device in its last
     * column ("fabric" on the PYNQ-Z1 image); /sys/class/uio/<uioN>/name holds that name. */
    char line[512], want[16], name[128], path[sizeof PP_SYS_CLASS_UIO + 270], got[128];
    FILE *f = fopen(PP_PROC_INTERRUPTS, "r");
    DIR *d;
    struct dirent *e;
    int found = 0;
    snprintf(want, sizeof want, "%u", (unsigned)raw_irq);
    name[0] = '\0';
    if (f == NULL)
        return PP_EPLATFORM;
    while (fgets(line, sizeof line, f) != NULL) {
        char *tok[64];
        int n = 0;
        char *p = line;
        while (n < 64) {
            while (*p == ' ' || *p == '\t' || *p == '\n')
                *p++ = '\0';
            if (*p == '\0')
                break;
            tok[n++] = p;
            while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n')
                p++;
        }
        if (n >= 7 && strcmp(tok[n - 3], want) == 0) {
            snprintf(name, sizeof name, "%s", tok[n - 1]);
            found = 1;
        }
    }
    fclose(f);
    if (!found || (d = opendir(PP_SYS_CLASS_UIO)) == NULL)
        return PP_EPLATFORM;
    found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        FILE *nf;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, PP_SYS_CLASS_UIO "/%s/name", e->d_name);
        if ((nf = fopen(path, "r")) == NULL)
            continue;
        if (fgets(got, sizeof got, nf) != NULL) {
            got[strcspn(got, "\r\n")] = '\0';
            if (strcmp(got, name) == 0) {
                snprintf(out, size, "/dev/%s", e->d_name);
                found = 1;
            }
        }
        fclose(nf);
    }
    closedir(d);
    return found ? PP_OK : PP_EPLATFORM;
}

int pp_linux_irq_open(void *ctx, uint32_t intc_base, uint32_t raw_irq)
{
    pp_linux *lx = (pp_linux *)ctx;
    char dev[300];
    const char *path = lx->uio_path;
    if (lx->uio_fd >= 0 && lx->intc_base == intc_base)
        return PP_OK;
    if (path == NULL) {
        if (pp_linux_find_uio(raw_irq, dev, sizeof dev) != PP_OK) {
            fprintf(stderr, "pushpush: no UIO device for interrupt %u (no /proc/interrupts line with "
                            "it, or no /sys/class/uio/*/name of its name): is the overlay loaded, and does "
                            "the image's device tree have the generic-uio node of the PL interrupt "
                            "(as the PYNQ images do)? Set pp_linux.uio_path to choose the device\n",
                    (unsigned)raw_irq);
            return PP_EPLATFORM;
        }
        path = dev;
    }
    if (lx->intc == NULL && lx->ps_fd >= 0 && lx->pl != NULL) {
        lx->intc = pp_map(lx->ps_fd, (off_t)intc_base, PP_INTC_SPAN);
        if (lx->intc == NULL) {
            fprintf(stderr, "pushpush: cannot map the interrupt controller at 0x%08X from /dev/mem: %s\n",
                    (unsigned)intc_base, strerror(errno));
            return PP_EPLATFORM;
        }
    }
    lx->intc_base = intc_base;
    lx->uio_fd = open(path, O_RDWR | O_CLOEXEC);
    if (lx->uio_fd < 0) {
        fprintf(stderr, "pushpush: cannot open the interrupt's UIO device %s: %s\n", path, strerror(errno));
        return PP_EPLATFORM;
    }
    return PP_OK;
}

int pp_linux_irq_wait(void *ctx, uint64_t timeout_us, int pause_only)
{
    pp_linux *lx = (pp_linux *)ctx;
    const uint32_t one = 1u, me_hie = 3u;
    uint32_t count;
    struct pollfd pfd;
    uint64_t ms;
    int r;
    if (pause_only) {
        pp_sleep_us(timeout_us);
        return 0;
    }
    if (lx->uio_fd < 0)
        return PP_EPLATFORM;
    /* the axi_intc, as PYNQ's _InterruptController drives it: acknowledge input 0 (a level
     * input still high is set again at once: nothing is lost), enable it, enable the
     * controller's output (ME) and hardware interrupts (HIE). Only bit 0 is touched (set-
     * enable, not IER itself), so PYNQ's and other processes' use of the one controller
     * keeps working (docs/c.md, "Interrupts"). */
    if (lx->reg_write(lx->reg_ctx, lx->intc_base + PP_INTC_IAR, &one, 1u) != PP_OK ||
        lx->reg_write(lx->reg_ctx, lx->intc_base + PP_INTC_SIE, &one, 1u) != PP_OK ||
        lx->reg_write(lx->reg_ctx, lx->intc_base + PP_INTC_MER, &me_hie, 1u) != PP_OK)
        return PP_EPLATFORM;
    /* uio_pdrv_genirq masks the interrupt when it fires; a write of 1 (int32) unmasks it */
    if (write(lx->uio_fd, &one, sizeof one) != (ssize_t)sizeof one)
        return PP_EPLATFORM;
    pfd.fd = lx->uio_fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    ms = (timeout_us + 999u) / 1000u;
    r = poll(&pfd, 1, ms > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)ms);
    if (r < 0)
        return errno == EINTR ? 0 : PP_EPLATFORM;
    if (r == 0)
        return 0;
    if ((pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0 && (pfd.revents & POLLIN) == 0)
        return PP_EPLATFORM;
    {
        unsigned char *b = (unsigned char *)&count;
        size_t got = 0;
        while (got < sizeof count) {
            ssize_t k = read(lx->uio_fd, b + got, sizeof count - got);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                return PP_EPLATFORM;
            got += (size_t)k;
        }
    }
    lx->uio_count = count;
    return 1;
}
