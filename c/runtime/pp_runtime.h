/* pushpush's C runtime, c/runtime/pp_runtime.h: copied as is into every generated c/ folder; edit the original. */
/*
 * pushpush C runtime: the PushPush protocol (docs/architecture.md section 2) for one
 * software component, in C99, with no allocation anywhere (every table is a fixed array in
 * pp_rt; sizes are the PP_MAX_* macros below, override them with -D).
 *
 * A call   : argument words, store barrier, trigger word (bit 1 = SEQ, flipped per call
 *            per target slot; bit 0 = one-way), then wait for the status word of the own
 *            rep slot (bit 30 = echo of SEQ; 1 = ok, bit 31 = error code), with a timeout.
 * Serving  : sweep the own window's cep triggers, take the arguments, re-arm, drop
 *            duplicates (static slot: same SEQ as the last call taken; dynamic slot: same
 *            trigger as the call still executing), run the handler, reply (result words
 *            then status with the echo) in one write.
 * Faults   : strays (a status nobody waits for, or with the wrong echo) are cleared and
 *            counted; counters collisions/duplicates/strays/write_errors are in pp_rt.
 *
 * Error convention (every generated proxy, call helper, export and lent function):
 *   int f(pp_rt *rt, <arguments>, <result type> *result)   (no result pointer for void)
 * returns PP_OK (0) or a negative PP_E* code; *result is written only on PP_OK. A callee's
 * error status 0x8000000k becomes -k (PP_ECALLEE .. PP_EBUS); the caller's own failures are
 * PP_ETIMEOUT, PP_ENOSLOT, PP_EINVAL, PP_EPLATFORM. An export or lent function returning
 * non-zero answers the caller with status 0x80000001 (callee raised).
 *
 * Threads: a pp_rt belongs to one thread (co-operative, as the paper's bare-metal
 * runtime): while a call waits for its reply the runtime keeps serving the component's own
 * functions, so hardware can call back a C function it was handed during the call.
 *
 * Platform: three layers implement pp_platform (pp_platform_linux.c: /dev/mem or a shared
 * memory file; pp_platform_baremetal.c: direct pointers; pp_platform_simboard.c: the
 * simulated board). See docs/c.md.
 */
#ifndef PP_RUNTIME_H
#define PP_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ sizes (override with -D) */
#ifndef PP_MAX_SERVED
#define PP_MAX_SERVED 32   /* cep slots served: static + dynamic export slots + lent functions */
#endif
#ifndef PP_MAX_SITES
#define PP_MAX_SITES 32    /* import sites (one per import of the component) */
#endif
#ifndef PP_MAX_ALLOCS
#define PP_MAX_ALLOCS 32   /* run-time slots in use at once (reps of function-value calls, lent ceps) */
#endif
#ifndef PP_MAX_FNSEQ
#define PP_MAX_FNSEQ 32    /* function-value targets whose SEQ bit is remembered */
#endif
#ifndef PP_MAX_WORDS
#define PP_MAX_WORDS 64    /* words of the largest cep or rep slot */
#endif
#ifndef PP_SPIN_ROUNDS
#define PP_SPIN_ROUNDS 16u /* rounds of a wait that look only at the awaited word (see below) */
#endif
#ifndef PP_DIRECT
#define PP_DIRECT 1        /* 0: no direct stores (pp_platform.direct unused) and no fast paths:
                            * the smallest code, for a platform without direct (the RISC-V core) */
#endif
#ifndef PP_DEFAULT_TIMEOUT_US
#define PP_DEFAULT_TIMEOUT_US 5000000u  /* 5 s, as the Python runtime */
#endif

/* ------------------------------------------------------------------ protocol words */
/* PP_TRIGGER_* (IDLE, ONEWAY, SEQ, REP_MASK), PP_STATUS_* (OK, ECHO, ERROR_BIT, CODE_MASK and
 * the error statuses CALLEE_RAISED, BAD_FUNCTION, BAD_RESULT, COLLISION, BUS_ERROR, BUFFER)
 * and the interrupt block's PP_IRQ_ENABLE_SET/CLEAR: generated from the Python runtime's
 * constants (pushpush/protocol.py), written once there. */
#include "pp_protocol.h"

/* ------------------------------------------------------------------ return codes */
#define PP_OK 0
#define PP_ECALLEE (-1)      /* the callee failed (status 0x80000001) */
#define PP_EBADFN (-2)       /* no function at that address (0x80000002, or DECERR) */
#define PP_EBADRESULT (-3)   /* the callee's result did not fit (0x80000003) */
#define PP_ECOLLISION (-4)   /* the callee's slot stayed busy until the timeout (SLVERR) */
#define PP_EBUS (-5)         /* the call's write failed on the bus */
#define PP_EBUFFER (-6)      /* a buffer's DMA transfer failed (0x80000006): last_error_status
                              * bits 15..8 the parameter, 18..16 the cause (1 timeout, 2 SLVERR,
                              * 3 DECERR, 4 too long) */
#define PP_EUNKNOWN (-99)    /* an error status this runtime does not know (0x80000000, or >= 99) */
#define PP_ETIMEOUT (-100)   /* no reply within the timeout */
#define PP_ENOSLOT (-101)    /* a fixed table or the run-time area is full */
#define PP_EINVAL (-102)     /* bad argument (address not a slot, too many words, ...) */
#define PP_EPLATFORM (-103)  /* the platform failed (simulated board gone, mapping failed) */
#define PP_EBUSY (-104)      /* another live runtime owns the component (its claim) */
#define PP_EFIREWALL (-105)  /* the memory firewall refused a buffer's transfer (pp_firewall.h:
                              * pp_fw_refused says which engine, address and call) */

/* The caller's memory of an import site and the journal of the run-time area, kept by the
 * platform's claim across processes (PP_RECORD_*, PP_JOURNAL_*): in pp_protocol.h. */

/* A function value: the byte address of a cep slot (0 = none). Typed call helpers are
 * generated per function type; this handle is what travels in one argument word. */
typedef struct {
    uint32_t addr;
} pp_fn;

/* The function value at cep byte address addr. */
static inline pp_fn pp_fn_at(uint32_t addr)
{
    pp_fn f;
    f.addr = addr;
    return f;
}

/* A buffer argument (in T[] / out T[], docs/c.md "Buffer parameters"): the physical byte
 * address of its first element and its length in elements. The memory must be physically
 * contiguous, reachable by the PL's DMA, and coherent when the call is made (an in buffer
 * written back from the caches before, an out buffer invalidated after the result). */
typedef struct {
    uint32_t phys;
    uint32_t len;
} pp_buf;

/* The buffer of len elements at physical byte address phys. */
static inline pp_buf pp_buf_at(uint32_t phys, uint32_t len)
{
    pp_buf b;
    b.phys = phys;
    b.len = len;
    return b;
}

/* ------------------------------------------------------------------ wait modes */
/* How a runtime waits between two sweeps of its window (docs/runtime.md, "Waiting"; the
 * component's YAML `wait` is the generated default <COMP>_WAIT, pp_set_wait changes it):
 *   PP_WAIT_SLEEP      the platform's pause (pp_platform.idle)
 *   PP_WAIT_POLL       nothing: sweep again at once (spin)
 *   PP_WAIT_YIELD      give the CPU away once (pp_platform.yield: sched_yield), the paper's way
 *   PP_WAIT_INTERRUPT  sleep until the system top's interrupt says the PL wrote into the
 *                      window (docs/architecture.md section 2.3): clear the own pending
 *                      bit, sweep once more, then sleep (pp_platform.irq_wait) */
#define PP_WAIT_SLEEP 0
#define PP_WAIT_POLL 1
#define PP_WAIT_YIELD 2
#define PP_WAIT_INTERRUPT 3
/* The interrupt block's registers, as byte offsets from the pending register: enable
 * set and enable clear (PP_IRQ_ENABLE_SET, PP_IRQ_ENABLE_CLEAR of pp_protocol.h). Only enabled
 * pending bits raise the interrupt; a runtime enables its own bit in PP_WAIT_INTERRUPT. */
/* In every mode a wait first spins PP_SPIN_ROUNDS rounds that read only the word it waits
 * for: a call the status of its own rep, the serve loop the trigger of the slot that took
 * the last call (the "hot" slot). Then a full round: the whole window swept (every served
 * slot, serve-while-waiting), the clock read for the timeout, and the mode's wait above.
 * So a reply (or the next call of the same caller) that comes within a few microseconds
 * costs one uncached read per round and no clock read or system call, while every slot is
 * still swept at least every PP_SPIN_ROUNDS + 1 rounds, and never a sleep without a full
 * sweep just before it (section 2.3's order in PP_WAIT_INTERRUPT). A call's timeout runs
 * from its first clock read, PP_SPIN_ROUNDS rounds after its trigger. */
#ifndef PP_IRQ_WAIT_US
#define PP_IRQ_WAIT_US 100000u  /* longest interrupt sleep before a sweep anyway (as Python's 0.1 s) */
#endif
#ifndef PP_IRQ_HELD_US
#define PP_IRQ_HELD_US 1000u    /* pause while another component's pending bit holds the line */
#endif
#ifndef PP_IRQ_HELD_WAKES
#define PP_IRQ_HELD_WAKES 2u    /* wakes in a row that find nothing: the line is held by another */
#endif

/* ------------------------------------------------------------------ platform interface */
/* Fill every member you do not use with 0 (memset the struct first): members added later
 * (yield, irq_open, irq_wait) are optional and NULL means "not available". */
typedef struct pp_platform {
    /* Write n words at global byte address addr, in one burst where the platform can burst;
     * the LAST word (the trigger or status) must become visible last, after every store the
     * runtime made before this call too (a slot's re-arm before its reply, the caller's
     * memory before the trigger: the runtime has no barrier of its own for them), and the
     * write must be complete (in effect at the slave) when it returns (the interrupt
     * block's clear before the sweep after it, section 2.3). Returns PP_OK,
     * PP_ECOLLISION (the slave refused: SLVERR), PP_EBADFN (nothing there: DECERR),
     * PP_EBUS or PP_EPLATFORM. */
    int (*write)(void *ctx, uint32_t addr, const uint32_t *words, unsigned n);
    /* PP_WAIT_SLEEP: pause between two sweeps (sched_yield, a short sleep, your hook); NULL: none. */
    void (*idle)(void *ctx);
    /* Monotonic microseconds (timeouts). NULL: the runtime counts idle calls instead, one
     * idle call = PP_IDLE_US microseconds. */
    uint64_t (*now_us)(void *ctx);
    void *ctx;
    /* The component's own window, readable and writable locally (never bus traffic). */
    volatile uint32_t *window;
    /* PP_WAIT_YIELD: give the CPU away once (sched_yield). NULL: nothing (as PP_WAIT_POLL). */
    void (*yield)(void *ctx);
    /* PP_WAIT_INTERRUPT, set up: reach the interrupt controller at intc_base (axi_intc)
     * and the PS interrupt raw_irq (GIC number; Linux: its UIO device). PP_OK or an error.
     * NULL: this platform cannot wait for interrupts. */
    int (*irq_open)(void *ctx, uint32_t intc_base, uint32_t raw_irq);
    /* PP_WAIT_INTERRUPT, sleep: acknowledge and enable the controller's input, then sleep
     * until the interrupt fires or timeout_us passed. pause_only: just pause timeout_us (the
     * line is held high by another component's pending bit). Returns 1 (it fired), 0 (time
     * out or pause) or a negative PP_E* code. */
    int (*irq_wait)(void *ctx, uint64_t timeout_us, int pause_only);
    /* One owner per component (docs/architecture.md section 2.2, "Restarts and owners"):
     * claim the window at window_base for component name (pp_init calls it first). PP_OK:
     * *handle identifies the claim for unclaim, *record points at the caller's memory (one
     * byte per import site, kept across processes; NULL: none). PP_EBUSY: another live
     * runtime owns it (the Linux layer names it on stderr). NULL: no claim (bare metal:
     * one program owns the CPU). */
    int (*claim)(void *ctx, uint32_t window_base, const char *name, int *handle,
                 volatile uint8_t **record);
    /* Release a claim (pp_close calls it). NULL: nothing to release. */
    void (*unclaim)(void *ctx, int handle);
    /* Whether the word at addr, the trigger of a cep slot in a software window, holds a
     * call not taken yet: such a window cannot refuse a write as an RTL window does, so a
     * call waits (retries) as if refused with SLVERR. NULL: never. */
    int (*pending)(void *ctx, uint32_t addr);
    /* A call into addr failed after waited_us of waiting (refused = 1: its write was refused
     * with SLVERR all along; 0: no reply came): say on stderr what the platform knows of the
     * other side meanwhile (the simulated board: the clock cycles that passed and what the
     * simulator was doing, so a slow host and a stall can be told apart). NULL: nothing. */
    void (*timed_out)(void *ctx, uint32_t addr, uint64_t waited_us, int refused);
#if PP_DIRECT /* (-DPP_DIRECT=0: neither member) */
    /* Where plain volatile 32-bit stores are all a write of the n words at global byte
     * address addr takes (no error the platform must see, no system call): a pointer to
     * them, and *soft set when they are a cep slot in a software window (the runtime then
     * reads its trigger first: pending). The runtime then stores a call's words (the
     * trigger last) or a reply's (the status last) itself. NULL (the member, or its
     * answer): through write. */
    volatile uint32_t *(*direct)(void *ctx, uint32_t addr, unsigned n, int *soft);
    /* Non-zero: the window and every direct pointer are Strongly-ordered memory (ARMv7: the
     * MMU off, or mapped Strongly-ordered, as 32-bit ARM Linux maps /dev/mem outside its
     * RAM): their accesses are observed by everyone in program order, each store complete
     * before the next access, so the runtime puts no barrier between its direct accesses.
     * 0: a Normal-memory mapping (a shared-memory file): barriers as pp_platform.write's. */
    int strongly_ordered;
#endif
    /* Read the PL word at global byte address addr (a GP0 read) into *value: PP_OK, or a
     * PP_E* code. NULL: this platform cannot read the PL (the memory firewall's registers,
     * pp_firewall.h, need it). */
    int (*read)(void *ctx, uint32_t addr, uint32_t *value);
#ifdef PP_TRACE
    /* The system's clock cycle now; counter_addr: the PL's cycle counter (the interrupt
     * block's page + PP_IRQ_COUNTER, 0: the system has none). PP_TRACE_NO_CYCLE: unknown.
     * NULL: no cycles. */
    uint64_t (*cycles)(void *ctx, uint32_t counter_addr);
    /* pp_init calls it for component name: memory for the ring (*mem, *bytes; pp_init
     * formats it with pp_trace_attach), the word that says whether to note events
     * (*session: non-zero = on; NULL = always on) and where cycles come from (*clock,
     * PP_TRACE_CLOCK_*). PP_OK with *mem NULL: not traced; an error fails pp_init (the
     * platform says why on stderr). NULL: never traced (pp_trace_attach still works). */
    int (*trace_open)(void *ctx, const char *name, void **mem, size_t *bytes, volatile const uint32_t **session,
                      uint32_t *clock);
#endif
} pp_platform;

#ifndef PP_IDLE_US
#define PP_IDLE_US 1u
#endif

/* Keeps the compiler from moving memory accesses across it (no instruction). */
#if defined(__GNUC__) || defined(__clang__)
#define PP_COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")
#else
#define PP_COMPILER_BARRIER() ((void)0)
#endif

/* Store/load barrier between argument words and trigger (and status and result). */
#if defined(__GNUC__) || defined(__clang__)
#define PP_BARRIER() __sync_synchronize()
#else
#ifndef PP_BARRIER
#error "define PP_BARRIER() as your compiler's full memory barrier"
#endif
#endif

struct pp_rt;

/* A type-erased C function (the user's typed function is stored as this and cast back by
 * its adapter; C allows the round trip between function pointer types). */
typedef void (*pp_anyfn)(void);
/* Generated per function type: decode args, call fn, encode the result (every result word,
 * when it returns PP_STATUS_OK; on an error status the runtime answers zeros). Returns the
 * status word to answer (PP_STATUS_OK or an error status). */
typedef uint32_t (*pp_adapter)(struct pp_rt *rt, pp_anyfn fn, const uint32_t *args, uint32_t *result);

typedef struct {
    uint32_t trigger_off;  /* word offset of the trigger in the own window */
    uint16_t arg_words;
    uint16_t result_words;
    uint8_t kind;          /* PP_SLOT_STATIC, PP_SLOT_DYNAMIC, PP_SLOT_LENT, PP_SLOT_DEAD */
    uint8_t busy;          /* running now (its handler is on the stack) */
    uint8_t taken_any;     /* static: a call has been taken since reset */
    uint8_t last_seq;      /* static: SEQ of the last call taken */
    uint32_t exec_trigger; /* dynamic/lent: trigger of the call running now */
    pp_adapter adapter;
    pp_anyfn fn;
    const char *name;
    int alloc;             /* lent: index of its run-time allocation, else -1 */
#if PP_DIRECT
    volatile uint32_t *trigger; /* its trigger word in the window (trigger_off) */
    uint32_t rep_addr;     /* the rep its last reply went to, and a direct pointer to it */
    volatile uint32_t *rep; /* (pp_platform.direct; NULL: through pp_platform.write) */
    uint32_t hot_key;      /* the trigger the next call of that caller brings (its rep, the
                            * other SEQ) when the serve loop may take it in pp_take_hot; 0: not */
#endif
} pp_served;

#define PP_SLOT_FREE 0
#define PP_SLOT_STATIC 1
#define PP_SLOT_DYNAMIC 2
#define PP_SLOT_LENT 3
#define PP_SLOT_DEAD 4

typedef struct {
    uint32_t cep_addr;     /* callee's static cep slot for this component */
    uint32_t rep_off;      /* word offset of the own static rep slot */
    uint16_t arg_words;
    uint16_t result_words;
    uint8_t seq;           /* SEQ of the last call made through it */
    uint8_t busy;          /* its static rep holds a call in flight */
    const char *name;
    volatile uint8_t *rec; /* its byte of the caller's memory (NULL: none; with PP_DIRECT
                            * rec_none's address) */
#if PP_DIRECT
    uint8_t clean;         /* the last call through it took its own reply and met no stray:
                            * nothing can be left in its rep (no stray check before the next) */
    uint8_t soft;          /* cep is a software slot: read its trigger before a call */
    uint8_t fast;          /* non-zero: the next call may take pp_call's fast path (cep
                            * direct, not soft, clean, not busy); bit 1: rec is a record */
    uint8_t rec_none;      /* rec's byte when there is no caller's memory */
    volatile uint32_t *cep; /* the callee's slot for direct stores (pp_platform.direct; NULL:
                            * through pp_platform.write) */
    uint32_t trigger;      /* the trigger word without SEQ: the own rep's byte address */
    uint32_t next;         /* pp_call's next trigger word: trigger | the other SEQ than seq's */
    volatile uint32_t *status; /* the own rep's status word (its result words before it) */
#endif
} pp_site;

typedef struct {
    uint32_t off;          /* word offset in the window */
    uint16_t words;
    uint8_t state;         /* 0 free, 1 in use, 2 quarantined (late reply expected) */
} pp_alloc;

typedef struct {
    uint32_t addr;
    uint8_t seq;
    uint8_t used;
} pp_fnseq;

typedef struct {
    uint32_t collisions;   /* own call writes refused (SLVERR) and retried */
    uint32_t duplicates;   /* duplicate calls dropped by the serve sweep */
    uint32_t strays;       /* stray statuses cleared in own rep slots */
    uint32_t write_errors; /* own calls or replies whose writes failed */
} pp_counters;

typedef struct {
    uint32_t wakes;        /* interrupt sleeps ended by the interrupt */
    uint32_t timeouts;     /* interrupt sleeps that timed out (a sweep anyway) */
    uint32_t pauses;       /* pauses while another component's bit held the line */
    uint32_t clears;       /* writes of the own pending bit (write-1-to-clear) */
    uint32_t errors;       /* failed interrupt sleeps (the platform's pause instead) */
} pp_irq_stats;

/* ------------------------------------------------------------------ tracing (-DPP_TRACE) */
/* Compiled with -DPP_TRACE (every file of the program: it changes pp_rt and pp_platform),
 * the runtime notes four events per call (docs/c.md, "Tracing"): a caller's call ISSUED
 * (before its first write) and its reply SEEN (or FAILED: timed out, refused), a callee's
 * function ENTERED (after its arguments were taken) and LEFT (before the reply is written),
 * each stamped with the system's clock cycle (pp_platform.cycles: the PL's 64-bit counter
 * read over the bus on a board, the simulator's cycle on the simulated board) and the
 * platform's microseconds, into a ring in memory (pp_trace_ring) while the session word is
 * non-zero. Without PP_TRACE none of this exists: the runtime's code is the same as
 * without tracing. The ring's memory is the program's (pp_trace_attach: a static array on
 * bare metal) or the platform's (pp_platform.trace_open: the Linux and simulated-board
 * layers map a file in $PUSHPUSH_TRACE_DIR that pushpush.trace.c_events reads). */
#define PP_TRACE_ISSUED 1u
#define PP_TRACE_SEEN 2u
#define PP_TRACE_ENTERED 3u
#define PP_TRACE_LEFT 4u
#define PP_TRACE_FAILED 5u   /* the call ended without a reply (code: its PP_E*) */
#define PP_TRACE_NAME 24u
#define PP_TRACE_NO_CYCLE 0xFFFFFFFFFFFFFFFFull  /* the platform has no cycle counter */
/* One event, 64 bytes (the layout pushpush.trace.c_events reads; little-endian). */
typedef struct {
    uint64_t cycle;        /* the system's clock cycle, or PP_TRACE_NO_CYCLE */
    uint64_t us;           /* the platform's monotonic microseconds (pp_now_us) */
    uint32_t addr;         /* the cep slot (its first word) called: a caller's target, a callee's own */
    uint32_t word;         /* the trigger word: the caller's rep | SEQ (bit 1) | one-way (bit 0) */
    uint32_t status;       /* SEEN: the status word; LEFT: the status answered; else 0 */
    uint32_t session;      /* the session word when the event was noted */
    uint8_t kind;          /* PP_TRACE_* */
    uint8_t depth;         /* nesting of serve-while-waiting */
    uint16_t reserved;
    int32_t code;          /* FAILED: the PP_E* code; else 0 */
    char name[PP_TRACE_NAME]; /* the import or export ("hw.f", "callee.f"), "" for a function value */
} pp_trace_event;
/* The ring: this header, then capacity events. An event is written whole, then head is
 * incremented (a store barrier between): a reader (another process, after this one was
 * killed too) takes the events [head - capacity, head), all whole. */
#define PP_TRACE_MAGIC "PPTRACE1"
#define PP_TRACE_HEADER 128u
typedef struct {
    char magic[8];         /* PP_TRACE_MAGIC */
    uint32_t header_bytes; /* PP_TRACE_HEADER */
    uint32_t event_bytes;  /* sizeof(pp_trace_event) = 64 */
    uint32_t capacity;     /* events in the ring (a power of two) */
    uint32_t pid;          /* the writer's process (0: bare metal) */
    volatile uint64_t head;   /* events noted so far (the newest is head - 1) */
    uint64_t drained;      /* pp_trace_drain's position */
    uint32_t clock;        /* where cycles come from: PP_TRACE_CLOCK_* */
    uint32_t reserved;
    char component[32];    /* the component's name */
    uint8_t pad[PP_TRACE_HEADER - 80u];
} pp_trace_ring;
#define PP_TRACE_CLOCK_NONE 0u     /* no cycles (PP_TRACE_NO_CYCLE): microseconds only */
#define PP_TRACE_CLOCK_COUNTER 1u  /* the PL's 64-bit counter, read over the bus */
#define PP_TRACE_CLOCK_SIMBOARD 2u /* the simulated board's cycle (its control page) */
/* The PL's cycle counter in the interrupt block's page (cores/irq): byte offset from the
 * pending register of its low word; the high word follows. */
#define PP_IRQ_COUNTER 0x10u

/* A 64-bit counter read as two 32-bit words, consistently: hi, lo, hi again, until both
 * high words agree (read32(ctx, addr) reads one word; the low word at addr, the high word at
 * addr + 4). If they agree the high word did not change between them (it only grows), so
 * it is the high word of the low word read in between. The interrupt block's high word is
 * latched by a read of the low word (cores/irq/README.md): the first high word read is
 * then the latch of an earlier read (another reader's too), the second one that of this
 * low word or of another reader's later one; the argument holds for both. One more round
 * when the high word changed (every 2^32 cycles: 43 s at 100 MHz); at most 4 rounds (only
 * reads 2^31 cycles apart, 21 s, could need more): then the last low word with the high
 * word read right after it (the latch of that read unless another reader came between). */
static inline uint64_t pp_counter64(uint32_t (*read32)(void *ctx, uint32_t addr), void *ctx, uint32_t addr)
{
    uint32_t hi, lo, hi2;
    unsigned round;
    hi = read32(ctx, addr + 4u);
    for (round = 0;; round++) {
        lo = read32(ctx, addr);
        hi2 = read32(ctx, addr + 4u);
        if (hi2 == hi || round == 3u)
            return ((uint64_t)hi2 << 32) | lo;
        hi = hi2;
    }
}

typedef struct pp_rt {
    pp_platform plat;
    uint32_t base;         /* global byte address of the window */
    uint32_t size_words;
    uint32_t runtime_off;  /* run-time area: word offset and words */
    uint32_t runtime_words;
    uint64_t timeout_us;
    const char *name;
    pp_counters counters;
    pp_served served[PP_MAX_SERVED];
    uint8_t live[PP_MAX_SERVED]; /* indexes of the served entries in use (kind not FREE), in
                            * table order: what a sweep reads (pp_relist keeps it) */
    unsigned nlive;
    int hot;               /* the served entry that took the last call (-1: none): the serve
                            * loop's spin rounds look at its trigger only */
    pp_site sites[PP_MAX_SITES];
    pp_alloc allocs[PP_MAX_ALLOCS];
    pp_fnseq fnseq[PP_MAX_FNSEQ];
    unsigned nsites;
    unsigned fnseq_next;
    unsigned depth;        /* nesting of serve-while-waiting */
    uint64_t idle_ticks;   /* idle calls so far (the clock when the platform has none) */
    unsigned alloc_next;   /* next-fit cursor of the run-time area (word offset) */
    int last_error;        /* the last PP_E* returned by a call (diagnostics) */
    uint32_t last_error_addr;
    uint32_t last_error_status; /* the error status word of the last failed call (0: none) */
    int wait;              /* PP_WAIT_*: how the runtime waits between sweeps */
    uint32_t irq_pending;  /* global byte address of the top's pending register (0: none) */
    uint32_t irq_mask;     /* this component's bit in it */
    uint32_t intc_base;    /* the axi_intc's registers */
    uint32_t irq_raw;      /* the PS interrupt (GIC number) */
    uint8_t irq_ready;     /* the platform's irq_open succeeded */
    uint8_t irq_cleared;   /* the own bit was cleared since the last wake (a sweep follows) */
    uint8_t irq_fired;     /* the last interrupt sleep ended by the interrupt (or a pause) */
    unsigned irq_streak;   /* wakes in a row after which the sweeps found nothing */
    uint32_t work;         /* calls served and replies taken so far (wake bookkeeping) */
    uint32_t work_at_wake;
    pp_irq_stats irq;
    int claim_handle;      /* the platform's claim of the window (-1: none) */
    volatile uint8_t *record; /* the caller's memory, one byte per site (NULL: none) */
#ifdef PP_TRACE
    pp_trace_ring *trace;  /* events go here (NULL: not traced) */
    volatile const uint32_t *trace_session; /* non-zero: note events (NULL: always) */
    const char *trace_name; /* the import of the call being made (NULL: a function value) */
    uint32_t trace_counter; /* the PL's cycle counter (0: none) */
#endif
    /* The memory firewall (pp_firewall.h; NULL: none): its state, and the hook the channel
     * calls (pp_chnl_send/recv) go through to open their buffer's range. */
    struct pp_fw *fw;
    int (*fw_chnl)(struct pp_rt *rt, pp_fn f, const uint32_t *args, unsigned arg_words, uint32_t *result,
                   unsigned result_words, pp_buf buf, int write);
} pp_rt;

/* ------------------------------------------------------------------ API */

/* Bind a runtime to its window (generated <comp>_open calls this). First claims the
 * component through the platform (one live runtime per component, in any process: a
 * second gets PP_EBUSY, and the Linux layer names the owner on stderr); then clears the
 * run-time area (ours alone); calls already waiting in the export slots are served once
 * registered. Returns PP_OK, PP_EINVAL or PP_EBUSY. */
int pp_init(pp_rt *rt, const pp_platform *plat, const char *name, uint32_t base, uint32_t size_bytes,
            uint32_t runtime_off, uint32_t runtime_words);
/* Release the component's claim (also done by the process's end, a crash included), so
 * that another runtime may own it; the rt is unusable afterwards. */
void pp_close(pp_rt *rt);

/* Register a cep slot of an export (generated code). kind: PP_SLOT_STATIC/PP_SLOT_DYNAMIC. */
int pp_serve_slot(pp_rt *rt, uint32_t slot_addr, unsigned arg_words, unsigned result_words, int kind,
                  pp_adapter adapter, pp_anyfn fn, const char *name);
/* Register an import site; returns its index (>= 0) or PP_ENOSLOT. */
int pp_add_site(pp_rt *rt, uint32_t cep_addr, uint32_t rep_addr, unsigned arg_words, unsigned result_words,
                const char *name);

/* Call through import site `site` (static slots). args: arg_words words; result:
 * result_words words (may be NULL when 0). */
int pp_call_site(pp_rt *rt, unsigned site, const uint32_t *args, uint32_t *result);
#if PP_DIRECT
/* The rest of a pp_call whose reply did not come in its spin rounds (out of line). */
int pp_call_wait(pp_rt *rt, unsigned site, uint32_t *result);
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PP_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define PP_ALWAYS_INLINE inline
#endif
#if PP_DIRECT && !defined(PP_TRACE)
/* pp_call's fast path (rec: the site keeps a caller's memory, s->rec). */
static PP_ALWAYS_INLINE int pp_call_fast(pp_rt *rt, unsigned site, pp_site *s, const uint32_t *args, unsigned na,
                                         uint32_t *result, unsigned nr, int rec)
{
    volatile uint32_t *d = s->cep, *st;
    uint32_t next = s->next, seq = (next >> 1) & 1u, want, v;
    int so = rt->plat.strongly_ordered;
    unsigned k, spin;
    /* (s->fast stays set: nothing here serves, so no nested call comes before pp_call_wait,
     * which clears it) */
    if (rec) /* the caller's memory: this SEQ is being written */
        *s->rec = (uint8_t)(PP_RECORD_VALID | PP_RECORD_WRITING | seq);
    for (k = 0; k < na; k++)
        d[k] = args[k];
    if (!so)
        PP_BARRIER(); /* Normal memory: the trigger after the arguments */
    d[na] = next;
    /* the rest while the call travels and the answer comes back (the compiler barrier keeps
     * it after the trigger's store) */
    PP_COMPILER_BARRIER();
    s->seq = (uint8_t)seq;
    s->next = next ^ PP_TRIGGER_SEQ;
    if (rec)
        *s->rec = (uint8_t)(PP_RECORD_VALID | seq);
    rt->work++; /* the reply taken (pp_call_wait undoes it when it is not taken here) */
    st = s->status;
    want = PP_STATUS_OK | (seq << 30);
    for (spin = 0; spin < PP_SPIN_ROUNDS; spin++) {
        if ((v = *st) == want) {
            if (!so)
                PP_BARRIER(); /* Normal memory: the result words after the status */
            for (k = 0; k < nr; k++)
                result[k] = st[(int)k - (int)nr];
            *st = 0;
            return PP_OK;
        }
        if (v != 0)
            break;
    }
    {
        /* (through a copy: result never leaves the caller's function, so a caller's array
         * of a word or two stays in registers) */
        uint32_t r2[PP_MAX_WORDS];
        int e = pp_call_wait(rt, site, r2);
        for (k = 0; k < nr; k++)
            result[k] = r2[k];
        return e;
    }
}
#endif

/* Call through import site `site` as pp_call_site does (the generated proxies call this
 * with constant word counts na and nr, the site's). The usual call, inline: a site whose
 * callee's slot the platform lets the runtime store into (pp_platform.direct) and whose last
 * call took its own reply stores the arguments and the trigger, with no look at its rep
 * first (section 2.2's stray check: a late reply can be left there only after a call that
 * did not take its own, and a callee answers its calls in order, so a reply to an earlier
 * call came before the last one's; pp_call_site looks before every call), then spins
 * PP_SPIN_ROUNDS rounds on its status alone; an ok status with this call's echo is taken
 * here (the result words, the status cleared). Anything else (another status, no reply yet)
 * goes on in pp_call_wait (the stray checks, the errors, full rounds with the clock,
 * serving, the wait mode), and every other case in pp_call_site. No barrier when the
 * platform is Strongly-ordered (pp_platform.strongly_ordered): the arguments then the
 * trigger, the status then the result words, are each in program order, which is the
 * order every observer sees. */
static PP_ALWAYS_INLINE int pp_call(pp_rt *rt, unsigned site, const uint32_t *args, unsigned na,
                                    uint32_t *result, unsigned nr)
{
#if PP_DIRECT && !defined(PP_TRACE)
    pp_site *s = &rt->sites[site];
    if (s->fast == 1u)
        return pp_call_fast(rt, site, s, args, na, result, nr, 0);
    if (s->fast == 3u)
        return pp_call_fast(rt, site, s, args, na, result, nr, 1);
#else
    (void)na;
    (void)nr;
    return pp_call_site(rt, site, args, result);
#endif
#if PP_DIRECT && !defined(PP_TRACE)
    {
        /* (through copies, as above) */
        uint32_t a2[PP_MAX_WORDS], r2[PP_MAX_WORDS];
        unsigned k;
        int e;
        a2[0] = 0; /* (no argument: never read) */
        for (k = 0; k < na && k < PP_MAX_WORDS; k++)
            a2[k] = args[k];
        e = pp_call_site(rt, site, a2, r2);
        for (k = 0; k < nr && k < PP_MAX_WORDS; k++)
            result[k] = r2[k];
        return e;
    }
#endif
}

/* Call a function value (a run-time rep is used). */
int pp_call_fn(pp_rt *rt, pp_fn f, const uint32_t *args, unsigned arg_words, uint32_t *result,
               unsigned result_words);

/* Lend a C function as a function value: a run-time cep slot served until pp_release.
 * The adapter is generated per function type (pp_lend_<type> wraps this). */
int pp_lend(pp_rt *rt, pp_adapter adapter, pp_anyfn fn, unsigned arg_words, unsigned result_words,
            const char *name, pp_fn *out);
/* End a lent function: its slot answers BAD_FUNCTION until its words are reused. */
int pp_release(pp_rt *rt, pp_fn f);

/* One sweep of the own window: take and run every pending call. Returns how many ran. */
int pp_poll(pp_rt *rt);
/* Serve until *stop becomes non-zero (stop may be NULL: forever) or, with timeout_us > 0,
 * until that many microseconds passed. Returns the number of calls served. */
long pp_serve(pp_rt *rt, volatile const int *stop, uint64_t timeout_us);

/* The system top's interrupt block (generated <comp>_open calls this when the system has
 * one): the pending register's global byte address, this component's bit, the axi_intc's
 * register base and the PS interrupt number (61 on a Zynq-7000: IRQ_F2P[0]). */
void pp_set_irq(pp_rt *rt, uint32_t pending_addr, unsigned bit, uint32_t intc_base, uint32_t raw_irq);
/* Change how the runtime waits (PP_WAIT_*), at any time, also from an export while it
 * serves. Leaving PP_WAIT_INTERRUPT clears the component's pending bit: do so before a
 * program in interrupt mode ends, so its bit does not hold the shared line high. Returns PP_OK; PP_EINVAL for an unknown mode, or PP_WAIT_INTERRUPT in a system
 * without the interrupt block; PP_EPLATFORM when the platform cannot wait for interrupts
 * (no irq_open, or it failed: the Linux layer says why on stderr). The mode is unchanged
 * on error. */
int pp_set_wait(pp_rt *rt, int mode);
/* The wait mode now (PP_WAIT_*). */
int pp_get_wait(const pp_rt *rt);
/* "sleep", "poll", "yield", "interrupt" (or "?"), and back (PP_EINVAL if unknown). */
const char *pp_wait_name(int mode);
int pp_wait_mode(const char *name);

/* Set the timeout of calls (microseconds, > 0). */
void pp_set_timeout(pp_rt *rt, uint64_t timeout_us);
/* A short English text for a PP_E* code. */
const char *pp_strerror(int code);
/* Microseconds now (the platform's clock, or the idle count). */
uint64_t pp_now_us(pp_rt *rt);

#ifdef PP_TRACE
/* Note this runtime's events into the ring at mem (bytes long, 8-byte aligned: a header
 * and the largest power of two of 64-byte events that fits), while *session is non-zero (session NULL:
 * always). mem NULL: stop tracing. pp_init already attached the platform's ring, if any.
 * Returns PP_OK, or PP_EINVAL (too small for one event). */
int pp_trace_attach(pp_rt *rt, void *mem, size_t bytes, volatile const uint32_t *session);
/* Hand the events noted since the last drain to fn, oldest first; returns how many, and
 * in *lost (may be NULL) how many were overwritten before they were drained. */
unsigned long pp_trace_drain(pp_rt *rt, void (*fn)(void *ctx, const pp_trace_event *e), void *ctx,
                             unsigned long *lost);
#endif

/* ------------------------------------------------------------------ channels */
/* A RIFFA-style channel of an rtl component (channels: in the YAML; docs/c.md "Channels"):
 * the dynamic cep slots of its two exports, <c>_rx and <c>_tx (the map header's
 * <SYS>_<COMP>_<C>_RX_DYNAMIC0_ADDR and ..._TX_DYNAMIC0_ADDR), and what the last transfer
 * did. One pp_rt serves one thread, as every call of this runtime. */
typedef struct {
    uint32_t rx;       /* cep address of <c>_rx */
    uint32_t tx;       /* cep address of <c>_tx */
    const char *name;  /* for messages: "hw.loop" */
    uint32_t words;    /* last send: words the core took; last receive: words received */
    uint32_t offset;   /* last receive: the hardware's offset (words) of its first word */
    int last;          /* last receive: ended by a transaction with CHNL_TX_LAST */
} pp_chnl;

static inline pp_chnl pp_chnl_at(uint32_t rx, uint32_t tx, const char *name)
{
    pp_chnl c;
    c.rx = rx;
    c.tx = tx;
    c.name = name;
    c.words = 0;
    c.offset = 0;
    c.last = 0;
    return c;
}

/* RIFFA's fpga_send: send data.len words at data.phys (DMA memory, see pp_buf) with offset
 * and last. Returns the words the core took (all of them), or PP_ETIMEOUT when the core
 * stopped taking words (the channel adapter's no-progress timeout; ch->words says how many
 * it took), or another PP_E* of the call. */
int pp_chnl_send(pp_rt *rt, pp_chnl *ch, pp_buf data, uint32_t offset, int last);
/* RIFFA's fpga_recv: receive into buf (buf.len words of DMA memory) until a transaction
 * with last, or timeout_us. The words land one after the other from buf's start, in
 * arrival order (RIFFA places them at the hardware's offset: here ch->offset gives it).
 * Returns the words received (ch->words, ch->last), or PP_ETIMEOUT when nothing with last
 * came in time (ch->words: what arrived), or another PP_E* of the calls. A call in flight
 * is never abandoned: it returns within the adapter's timeout (16384 cycles). */
int pp_chnl_recv(pp_rt *rt, pp_chnl *ch, pp_buf buf, uint64_t timeout_us);

/* ------------------------------------------------------------------ value encoding */
/* float <-> word bit patterns (IEEE-754), without aliasing problems. */
uint32_t pp_f32_bits(float v);
float pp_bits_f32(uint32_t w);
uint64_t pp_f64_bits(double v);
double pp_bits_f64(uint64_t w);

#ifdef __cplusplus
}
#endif

#endif /* PP_RUNTIME_H */
