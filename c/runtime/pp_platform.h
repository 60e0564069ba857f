/* pushpush's C runtime, c/runtime/pp_platform.h: copied as is into every generated c/ folder; edit the original. */
/*
 * pushpush C runtime: the three platform layers (each fills a pp_platform).
 *
 *  - Linux user space (pp_platform_linux.c): the ps region (on-chip memory holding the
 *    software windows) and the PL region mapped from /dev/mem (O_SYNC, uncached), as the
 *    PushPush paper's ARM client does (no kernel module); sched_yield between sweeps. The
 *    ps region may instead be a shared-memory file (two processes on one host: C <-> C).
 *    Wait mode interrupt: the PS interrupt's UIO device (uio_pdrv_genirq, found as PYNQ
 *    finds it) and the axi_intc's registers mapped from /dev/mem.
 *  - bare metal (pp_platform_baremetal.c): every address is a pointer; you give the clock
 *    and (optionally) an idle hook. Compiles with -ffreestanding -nostdlib.
 *  - simulated board (pp_platform_simboard.c, needs the Linux layer): attaches to a running
 *    simulated board (pushpush.pynq.simulated.c_programs): the ps region is the board's shared memory,
 *    PL writes go over a Unix socket to the process holding the simulator.
 */
#ifndef PP_PLATFORM_H
#define PP_PLATFORM_H

#include "pp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ Linux user space */
#ifndef PP_LINUX_MAX_CLAIMS
#define PP_LINUX_MAX_CLAIMS 8  /* components one pp_linux may open (one claim each) */
#endif
typedef struct {
    volatile uint32_t *ps;  /* the ps region, mapped */
    uint32_t ps_base, ps_size;
    volatile uint32_t *pl;  /* the PL region (M_AXI_GP0), mapped; NULL: none */
    uint32_t pl_base, pl_size;
    int ps_fd, pl_fd;
    unsigned spin;   /* PP_WAIT_SLEEP: sweeps between two sched_yield calls (default 1: yield
                      * every sweep, as the paper's ARM client; more: lower latency when a
                      * core is free) */
    unsigned spun;
    unsigned sleep_us; /* PP_WAIT_SLEEP: > 0: sleep this long instead (default 0) */
    /* PP_WAIT_INTERRUPT (pp_linux_irq_open, called by pp_set_wait): */
    const char *uio_path; /* the UIO device; NULL (default): found as PYNQ finds it */
    int uio_fd;           /* the open UIO device, or -1 */
    uint32_t uio_count;   /* the event count its last read returned */
    uint32_t intc_base;   /* the axi_intc's registers (0: not set up) */
    volatile uint32_t *intc; /* ... mapped from /dev/mem (NULL: reached through reg_write) */
    /* how the axi_intc's registers are written (default pp_linux_write on this pp_linux; the
     * simulated board's layer writes them over its socket) */
    int (*reg_write)(void *ctx, uint32_t addr, const uint32_t *words, unsigned n);
    void *reg_ctx;
    /* the components' claims (pp_linux_claim): lock files held open, their mappings */
    int claim_fd[PP_LINUX_MAX_CLAIMS];
    volatile uint8_t *claim_map[PP_LINUX_MAX_CLAIMS];
    int devmem;      /* mapped from /dev/mem (pp_linux_open), not a file */
} pp_linux;

/* Map the ps and PL regions from /dev/mem (pl_size 0: no PL). Returns PP_OK or
 * PP_EPLATFORM (errno tells why: run as root, or /dev/mem is not there). */
int pp_linux_open(pp_linux *lx, uint32_t ps_base, uint32_t ps_size, uint32_t pl_base, uint32_t pl_size);
/* Map the ps region from a shared-memory file (offset 0 = ps_base): the host's C <-> C
 * case, or the simulated board's on-chip memory. No PL. */
int pp_linux_open_file(pp_linux *lx, const char *path, uint32_t ps_base, uint32_t ps_size);
/* The platform of the component whose window starts at window_base (in the ps region). */
int pp_linux_platform(pp_linux *lx, uint32_t window_base, pp_platform *out);
void pp_linux_close(pp_linux *lx);
/* A word of the mapped PL region (the platform's read): PP_OK, or PP_EBADFN outside it. */
int pp_linux_read(void *ctx, uint32_t addr, uint32_t *value);
/* The Linux layer's write/idle/clock (the simulated board layer reuses them). */
int pp_linux_write(void *ctx, uint32_t addr, const uint32_t *words, unsigned n);
void pp_linux_idle(void *ctx);
void pp_linux_yield(void *ctx);
uint64_t pp_linux_now_us(void *ctx);
/* Interrupts through UIO (the platform's irq_open/irq_wait; pp_set_wait calls them).
 * irq_open: open lx->uio_path, or the UIO device of PS interrupt raw_irq found as PYNQ
 * does (the /proc/interrupts line whose third-last column is raw_irq names the device;
 * /sys/class/uio/uioN/name equal to that name is /dev/uioN), and map the axi_intc's
 * registers at intc_base from /dev/mem. irq_wait: acknowledge the controller's input 0
 * (IAR), enable it (SIE) and the controller (MER = ME | HIE), write 1 (int32) to the UIO
 * device (re-enables the interrupt), then poll(2) it and read the 4-byte event count. */
int pp_linux_irq_open(void *ctx, uint32_t intc_base, uint32_t raw_irq);
int pp_linux_irq_wait(void *ctx, uint64_t timeout_us, int pause_only);
/* Find the UIO device of PS interrupt raw_irq as PYNQ does; PP_OK and "/dev/uioN" in out. */
int pp_linux_find_uio(uint32_t raw_irq, char *out, unsigned size);
/* The claim (the platform's claim/unclaim, which pp_init and pp_close call): an exclusive
 * flock on the component's claim file, $PUSHPUSH_CLAIM_DIR (else /tmp/pushpush-claims-<uid>)
 * /m<dev>-<ino>-w<base>.claim, dev/ino those of the mapped memory file (/dev/mem, or the
 * simulated board's), as Python's pushpush.runtime.claim: Python and C refuse each other.
 * PP_EBUSY (the owner's PID, program and since when on stderr) while another runtime holds
 * it; the kernel releases it when the process ends, also by a crash. The file keeps the
 * caller's memory (*record). */
int pp_linux_claim(void *ctx, uint32_t window_base, const char *name, int *handle, volatile uint8_t **record);
void pp_linux_unclaim(void *ctx, int handle);
/* Whether a cep trigger word at addr in the ps region holds a call not taken yet. */
int pp_linux_pending(void *ctx, uint32_t addr);
/* The platform's direct: the mapped words at addr in the ps region (*soft = 1) or the PL
 * region, else NULL. */
volatile uint32_t *pp_linux_direct(void *ctx, uint32_t addr, unsigned n, int *soft);
#ifdef PP_TRACE
/* Tracing (-DPP_TRACE, docs/c.md "Tracing"): the PL's cycle counter at counter_addr read
 * over GP0 (pp_counter64: hi, lo, hi; PP_TRACE_NO_CYCLE without a PL mapping), and the
 * ring file $PUSHPUSH_TRACE_DIR/<name>-<pid>.ring of $PUSHPUSH_TRACE_EVENTS events (a power
 * of two, default 65536: 4 MiB), mapped shared (*mem NULL: PUSHPUSH_TRACE_DIR is not set, not traced). The
 * Linux layer notes events from pp_init to the program's end. */
uint64_t pp_linux_cycles(void *ctx, uint32_t counter_addr);
int pp_linux_trace_ring(const char *name, void **mem, size_t *bytes);
#endif

/* ------------------------------------------------------------------ bare metal */
/* window_base is the component's window (a plain pointer); now_us must be given (e.g. the
 * Cortex-A9 global timer); idle may be NULL. */
int pp_baremetal_platform(uint32_t window_base, uint64_t (*now_us)(void *), void (*idle)(void *), void *ctx,
                          pp_platform *out);
int pp_baremetal_write(void *ctx, uint32_t addr, const uint32_t *words, unsigned n);
/* The bare-metal layer's direct: the address itself (every address is a pointer). */
volatile uint32_t *pp_baremetal_direct(void *ctx, uint32_t addr, unsigned n, int *soft);
int pp_baremetal_read(void *ctx, uint32_t addr, uint32_t *value);

/* ------------------------------------------------------------------ simulated board */
typedef struct {
    pp_linux lx;   /* the board's ps region (shared memory); lx.uio_fd: the stand-in UIO */
    int sock;      /* the Unix socket to pushpush.pynq.simulated.c_programs */
    uint64_t idle_ns;
#ifdef PP_TRACE
    volatile const uint8_t *ctl; /* the simulator's control page (PUSHPUSH_SIMBOARD_CTL), read only */
#endif
} pp_simboard;

/* Attach through the environment the Python side sets (pushpush.pynq.simulated.c_programs):
 * PUSHPUSH_SIMBOARD_PS (shared-memory file), PUSHPUSH_SIMBOARD_PS_BASE, _PS_SIZE (hex or
 * decimal) and PUSHPUSH_SIMBOARD_SOCK (socket path). Returns PP_OK, or PP_EPLATFORM with
 * a message on stderr naming the variable that is missing or what failed. */
int pp_simboard_attach(pp_simboard *sb);
int pp_simboard_platform(pp_simboard *sb, uint32_t window_base, pp_platform *out);
/* Wait mode interrupt on the simulated board: the Linux layer's code on a stand-in for
 * /dev/uioN, a Unix socket to pushpush.pynq.simulated.c_programs (PUSHPUSH_SIMBOARD_UIO) that behaves as
 * the UIO device (read: 4-byte event count once the interrupt fired; write of a non-zero
 * int32: re-enable); the axi_intc's registers are written over the board's socket. */
int pp_simboard_irq_open(void *ctx, uint32_t intc_base, uint32_t raw_irq);
int pp_simboard_irq_wait(void *ctx, uint64_t timeout_us, int pause_only);
/* The simulated board's clock cycle now (for cycle counts), or 0 on failure. */
uint64_t pp_simboard_cycle(pp_simboard *sb);
/* CLOCK_MONOTONIC nanoseconds of the simulator's store of the PL's last write into PS
 * memory (0 before the first, or on failure): wake-up latencies (pushpush bench wait). */
uint64_t pp_simboard_pl_write_ns(pp_simboard *sb);
#ifdef PP_TRACE
/* The PL's cycle counter at counter_addr (<COMP>_IRQ_PENDING + PP_IRQ_COUNTER) read as on a
 * board, by pp_counter64 (hi, lo, hi), each word a GP0 read through the simulator (a request:
 * it moves simulated time, so trace events use the control page's cycle instead). */
uint64_t pp_simboard_counter(pp_simboard *sb, uint32_t counter_addr);
#endif
void pp_simboard_close(pp_simboard *sb);

#ifdef __cplusplus
}
#endif

#endif /* PP_PLATFORM_H */
