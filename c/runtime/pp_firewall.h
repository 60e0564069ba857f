/* pushpush's C runtime, c/runtime/pp_firewall.h: copied as is into every generated c/ folder; edit the original. */
/*
 * pushpush C runtime: the memory firewall's table (cores/mem_firewall; docs/c.md "The memory
 * firewall"), as the Python runtime keeps it (pushpush/runtime/firewall.py).
 *
 * A system with `firewall:` has pp_mem_firewall between its buffer engines and PS memory: an
 * engine's burst passes only inside a range an entry of the table allows to that engine, in
 * that direction. For each buffer argument (pp_buf) of a call the runtime opens one entry
 * (the elements passed: phys .. phys + len * element bytes; read for an in buffer, write for
 * an out buffer; that argument's engine only) just before the call and closes it when the
 * call returned, failed or timed out. A transfer outside is refused before memory; the call
 * then returns PP_EFIREWALL and pp_fw_refused tells which engine, address, direction and
 * call, and why no range covered it.
 *
 * What gets a range: a pp_buf that lies inside memory the program declared as its own DMA
 * memory (pp_fw_own: the buffers it allocated, e.g. from its udmabuf/CMA allocator, or the
 * pynq.allocate buffers a Python process handed it), as the Python runtime opens ranges only
 * for live pynq.allocate buffers. A pp_buf that runs past the end of its declared memory,
 * names memory that is not declared (or no longer: pp_fw_disown, the C "free") gets none:
 * its transfer is refused.
 *
 * The generated <comp>_open attaches the firewall (pp_fw_attach, with the system map's
 * constants <COMP>_FW_*: the register page, the component's share of the entries) and the
 * generated proxies of functions with buffer parameters go through pp_fw_call_site /
 * pp_fw_call_fn; channel calls (pp_chnl_send/recv) through the runtime's hook. Freestanding
 * (no library call), like pp_runtime.c; the platform must read the PL (pp_platform.read).
 */
#ifndef PP_FIREWALL_H
#define PP_FIREWALL_H

#include "pp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef PP_FW_MAX_OWNED
#define PP_FW_MAX_OWNED 32 /* memory ranges a program declares at once (pp_fw_own; at most 32) */
#endif
#if PP_FW_MAX_OWNED > 32
#error "PP_FW_MAX_OWNED is at most 32"
#endif
#ifndef PP_FW_MAX_ARGS
#define PP_FW_MAX_ARGS 16  /* buffer arguments of one call */
#endif

/* The firewall's registers (cores/mem_firewall/README.md), byte offsets in its page. */
#define PP_FW_CTRL 0x000u
#define PP_FW_INFO 0x004u
#define PP_FW_REFUSED 0x008u
#define PP_FW_BAD_ADDR 0x00Cu
#define PP_FW_BAD_INFO 0x010u
#define PP_FW_ENTRY0 0x100u
#define PP_FW_ATTR_READ 1u
#define PP_FW_ATTR_WRITE 2u
#define PP_FW_ATTR_ANY 4u
/* The buffer engines' beat (pushpush.codegen.fabric.BUF_DATA_WIDTH / 8; FirewallBlock.BEAT_BYTES):
 * a range is rounded out to whole beats. */
#define PP_FW_BEAT_BYTES 4u

/* Why a buffer argument got no range (pp_fw_refusal.why). */
#define PP_FW_OPEN 0          /* a range was open for it (the engine went outside it) */
#define PP_FW_NOT_OWNED 1     /* it is not inside memory the program declared (pp_fw_own) */
#define PP_FW_PAST_END 2      /* it starts in declared memory but runs past its end */
#define PP_FW_NO_ENGINE 3     /* no buffer engine serves the function called with it */
#define PP_FW_NOT_AN_ARG 4    /* the engine refused serves no buffer argument of this call */

/* A cep slot of an rtl export with buffer parameters: its buffer engines are first_engine,
 * first_engine + 1, ... (one per buffer parameter, in order). Generated (<comp>_pp.c). */
typedef struct {
    uint32_t cep;
    uint8_t first_engine;
    uint8_t nbufs;
} pp_fw_slot;

/* One buffer argument of a call, for pp_fw_call_site / pp_fw_call_fn (generated code). */
typedef struct {
    uint32_t phys;
    uint32_t len;          /* elements */
    uint8_t elem_bytes;
    uint8_t write;         /* out buffer: the engine writes it */
} pp_fw_arg;

/* The refusal of the last call that returned PP_EFIREWALL. */
typedef struct {
    uint32_t addr;         /* the refused burst's first address (AxADDR) */
    uint32_t bytes;        /* the bytes it covered: beats x beat bytes */
    int write;             /* 1: a write (an out buffer), 0: a read */
    unsigned engine;       /* the engine's index (pp_fw.names[engine]: "comp.export.param") */
    uint32_t call;         /* the call's number in this runtime (1, 2, ...) */
    uint32_t target;       /* the cep slot called */
    int param;             /* the buffer argument the engine serves (0, 1, ...), -1: none */
    int why;               /* PP_FW_*: the range that was open, or why none was */
    uint32_t lo, hi;       /* PP_FW_OPEN: the range open for it, [lo, hi) */
} pp_fw_refusal;

/* The firewall of one runtime: its share of the table and the memory it may open. */
typedef struct pp_fw {
    uint32_t base;         /* the register page (global byte address, GP0) */
    unsigned entries;      /* the table's size */
    unsigned first, count; /* this component's entries: first .. first + count - 1 */
    unsigned engines;      /* buffer engines of the system (one: entries allow ANY) */
    uint64_t busy;         /* own entries in use (bit i: entry first + i) */
    const pp_fw_slot *slots;
    unsigned nslots;
    const char *const *names; /* engine names, "comp.export.param" */
    uint32_t owned_lo[PP_FW_MAX_OWNED], owned_hi[PP_FW_MAX_OWNED]; /* declared memory, [lo, hi] */
    uint32_t owned;        /* bit i: owned_lo[i] .. owned_hi[i] is in use */
    uint32_t calls;        /* calls with buffer arguments made (their numbers) */
    uint32_t tag_lsb, tag_bits;
    pp_fw_refusal refusal;
    int refused;           /* refusal holds the last PP_EFIREWALL's */
} pp_fw;

/* Attach the firewall at base (entries: the table's size; first, count: this component's
 * share; engines: the system's buffer engines; slots, names: generated tables) to rt:
 * checks the bitstream's table size (INFO; PP_EINVAL when it differs: a bitstream of another
 * build), empties the own entries, enables the check, clears the latch. PP_EPLATFORM when the
 * platform cannot read the PL (pp_platform.read NULL). Generated <comp>_open calls it. */
int pp_fw_attach(pp_rt *rt, pp_fw *fw, uint32_t base, unsigned entries, unsigned first, unsigned count,
                 unsigned engines, const pp_fw_slot *slots, unsigned nslots, const char *const *names);
/* Declare bytes of memory at phys as this program's DMA memory: buffer arguments inside it
 * get a range for their calls. PP_ENOSLOT when PP_FW_MAX_OWNED are declared, PP_EINVAL for 0
 * bytes or a range past 4 GiB. Without a firewall (rt->fw NULL) it does nothing (PP_OK),
 * so a program runs with and without one. */
int pp_fw_own(pp_rt *rt, uint32_t phys, uint32_t bytes);
/* The memory declared at phys is no longer the program's (freed): PP_OK, PP_EINVAL if none
 * was declared there (PP_OK without a firewall). */
int pp_fw_disown(pp_rt *rt, uint32_t phys);
/* The refusal of the last call that returned PP_EFIREWALL, or NULL. */
const pp_fw_refusal *pp_fw_refused(const pp_rt *rt);
/* "comp.export.param" of engine index e ("?" if unknown). */
const char *pp_fw_engine_name(const pp_rt *rt, unsigned e);
/* A short English text for pp_fw_refusal.why. */
const char *pp_fw_why(int why);
/* Bursts the firewall refused since the PL's reset (the REFUSED register), or 0. */
uint32_t pp_fw_count(pp_rt *rt);

/* The window guard (firewall: in the YAML, guarding the PL's writes into the software
 * windows with a table fixed at link time; docs/architecture.md 2.4): a PL component's write
 * outside the slots of the calls it makes and serves is refused (it never reaches a window),
 * counted and latched. Nobody waits for such a write, but a reply written to the wrong place
 * shows as a call that times out: after PP_ETIMEOUT, pp_wg_take says whether the guard
 * refused a write, whose and where. base: <SYS>_WINDOW_GUARD_BASE (c/<sys>_map.h); the
 * master's name: <SYS>_PL_MASTERS[master] ("ps" is the ARM, then the PL components). */
#define PP_WG_STATIC_INFO 0x014u
#define PP_WG_BAD_TAG 0x018u
typedef struct {
    uint32_t addr;         /* the refused burst's first address (AxADDR) */
    uint32_t bytes;        /* the bytes it covered: beats x beat bytes */
    int write;             /* 1: a write */
    unsigned master;       /* its master's index on the top's interconnect */
} pp_wg_refusal;
/* 1 and *out filled when a refusal was latched (then the latch is cleared), 0 when none,
 * a negative PP_E* when the PL cannot be read (PP_EPLATFORM: pp_platform.read NULL). */
int pp_wg_take(pp_rt *rt, uint32_t base, pp_wg_refusal *out);
/* Bursts the window guard refused since the PL's reset, or 0. */
uint32_t pp_wg_count(pp_rt *rt, uint32_t base);

/* pp_call_site / pp_call_fn with the ranges of the call's buffer arguments open (generated
 * proxies; bufs: the buffer arguments in parameter order). Without a firewall: the call.
 * PP_ENOSLOT (before the call) when the component's entries are all in use. */
int pp_fw_call_site(pp_rt *rt, unsigned site, uint32_t cep, const uint32_t *args, uint32_t *result,
                    const pp_fw_arg *bufs, unsigned nbufs);
int pp_fw_call_fn(pp_rt *rt, pp_fn f, const uint32_t *args, unsigned arg_words, uint32_t *result,
                  unsigned result_words, const pp_fw_arg *bufs, unsigned nbufs);

static inline pp_fw_arg pp_fw_arg_of(pp_buf b, unsigned elem_bytes, int write)
{
    pp_fw_arg a;
    a.phys = b.phys;
    a.len = b.len;
    a.elem_bytes = (uint8_t)elem_bytes;
    a.write = (uint8_t)(write != 0);
    return a;
}

#ifdef __cplusplus
}
#endif

#endif /* PP_FIREWALL_H */
