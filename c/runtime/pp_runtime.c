/* pushpush's C runtime, c/runtime/pp_runtime.c: copied as is into every generated c/ folder; edit the original. */
/*
 * pushpush C runtime: see pp_runtime.h. Freestanding-clean: includes only <stddef.h> and
 * <stdint.h> (through the header), calls no library function, allocates nothing.
 */
#include "pp_runtime.h"

/* A barrier needed on Normal memory only (pp_platform.strongly_ordered: none on a
 * Strongly-ordered window); without PP_DIRECT always (the smallest code). */
#if PP_DIRECT
#define PP_ORDER_BARRIER(rt) \
    do { \
        if (!(rt)->plat.strongly_ordered) \
            PP_BARRIER(); \
    } while (0)
#else
#define PP_ORDER_BARRIER(rt) PP_BARRIER()
#endif
/* PP_D(statement): the statement only with PP_DIRECT (the fast paths' bookkeeping) */
#if PP_DIRECT
#define PP_D(statement) statement
#else
#define PP_D(statement)
#endif
#if defined(__GNUC__) || defined(__clang__)
#define PP_NOINLINE __attribute__((noinline))
#else
#define PP_NOINLINE
#endif
#ifndef PP_HOT_WORDS
#define PP_HOT_WORDS 8u /* the largest argument and result words pp_take_hot takes */
#endif
#ifndef PP_MAX_DEPTH
#define PP_MAX_DEPTH 16  /* serve-while-waiting nesting limit (deeper waits do not serve) */
#endif

#ifdef PP_TRACE
static void pp_trace_note(pp_rt *rt, unsigned kind, uint32_t addr, uint32_t word, uint32_t status, int code,
                          const char *name);
/* One event, if a ring is attached (the only cost of PP_TRACE while no ring is: this test). */
#define PP_TRACE_EVENT(rt, kind, addr, word, status, code, name)                              \
    do {                                                                                       \
        if ((rt)->trace != NULL)                                                               \
            pp_trace_note((rt), (kind), (addr), (word), (status), (code), (name));            \
    } while (0)
#define PP_TRACE_SET_NAME(rt, n) ((rt)->trace_name = (n))
#else
#define PP_TRACE_EVENT(rt, kind, addr, word, status, code, name) ((void)0)
#define PP_TRACE_SET_NAME(rt, n) ((void)0)
#endif

static void pp_zero(uint32_t *w, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        w[i] = 0;
}

uint64_t pp_now_us(pp_rt *rt)
{
    if (rt->plat.now_us != NULL)
        return rt->plat.now_us(rt->plat.ctx);
    return rt->idle_ticks * (uint64_t)PP_IDLE_US;
}

/* PP_WAIT_INTERRUPT (docs/architecture.md section 2.3). Called, as every wait, after a
 * sweep of the window found nothing more to do. Phase 1 (the own bit not cleared since the
 * last wake): clear it and return, so the runtime sweeps once more; a write answered before
 * the clear is in memory for that sweep, one answered after it sets the bit again and the
 * line stays high. Phase 2 (that sweep is done): sleep until the interrupt. So a trigger
 * that lands while the runtime clears is never lost. Wakes after which the sweeps found
 * nothing PP_IRQ_HELD_WAKES times in a row mean another component's bit holds the line
 * high (its runtime has not cleared it yet, or it does not wait for interrupts): then
 * every other sleep is a pause of PP_IRQ_HELD_US instead, so the runtime does not spin. */
static void pp_irq_idle(pp_rt *rt, uint64_t deadline)
{
    uint64_t wait_us = PP_IRQ_WAIT_US, now;
    int r, pause;
    if (!rt->irq_cleared) {
        uint32_t bit = rt->irq_mask;
        if (rt->plat.write(rt->plat.ctx, rt->irq_pending, &bit, 1u) != PP_OK)
            rt->counters.write_errors++;
        rt->irq.clears++;
        rt->irq_cleared = 1;
        return;
    }
    if (rt->irq_fired && rt->work == rt->work_at_wake)
        rt->irq_streak++;
    else
        rt->irq_streak = 0;
    pause = rt->irq_streak >= PP_IRQ_HELD_WAKES && (rt->irq_streak & 1u) == 0;
    if (deadline != 0) {
        now = pp_now_us(rt);
        if (now >= deadline)
            return;
        if (deadline - now < wait_us)
            wait_us = deadline - now;
    }
    if (pause && wait_us > PP_IRQ_HELD_US)
        wait_us = PP_IRQ_HELD_US;
    r = rt->plat.irq_wait(rt->plat.ctx, wait_us, pause);
    rt->work_at_wake = rt->work;
    if (r < 0) {
        rt->irq.errors++;
        rt->irq_fired = 0;
        if (rt->plat.idle != NULL)
            rt->plat.idle(rt->plat.ctx);
        return;
    }
    if (pause) {
        rt->irq.pauses++;
        rt->irq_fired = 1; /* counts as a wake: a sweep, then the interrupt is tried again
                            * (a write for us during the pause is in memory for that sweep) */
    } else if (r > 0) {
        rt->irq.wakes++;
        rt->irq_fired = 1;
        /* clear again before the next sleep, unless the last wake found nothing either (the
         * line is held by another bit: the own bit was cleared after the last call found,
         * and a write since would have set it, so skipping the clear loses nothing) */
        rt->irq_cleared = rt->irq_streak > 0;
    } else {
        rt->irq.timeouts++; /* nothing fired: the bit stays clear, just sweep again */
        rt->irq_fired = 0;
    }
}

/* Wait between two sweeps, as the wait mode says; deadline: the caller's (0: none). */
static void pp_idle(pp_rt *rt, uint64_t deadline)
{
    rt->idle_ticks++;
    switch (rt->wait) {
    case PP_WAIT_POLL:
        return;
    case PP_WAIT_YIELD:
        if (rt->plat.yield != NULL)
            rt->plat.yield(rt->plat.ctx);
        return;
    case PP_WAIT_INTERRUPT:
        pp_irq_idle(rt, deadline);
        return;
    default:
        if (rt->plat.idle != NULL)
            rt->plat.idle(rt->plat.ctx);
    }
}

void pp_set_irq(pp_rt *rt, uint32_t pending_addr, unsigned bit, uint32_t intc_base, uint32_t raw_irq)
{
    rt->irq_pending = pending_addr;
    rt->irq_mask = bit < 32u ? (uint32_t)1u << bit : 0u;
    rt->intc_base = intc_base;
    rt->irq_raw = raw_irq;
#ifdef PP_TRACE
    rt->trace_counter = pending_addr != 0 ? pending_addr + PP_IRQ_COUNTER : 0u;
#endif
}

int pp_set_wait(pp_rt *rt, int mode)
{
    if (mode == PP_WAIT_INTERRUPT) {
        if (rt->irq_pending == 0 || rt->irq_mask == 0)
            return PP_EINVAL; /* the system's top has no interrupt block (section 2.3) */
        if (rt->plat.irq_open == NULL || rt->plat.irq_wait == NULL)
            return PP_EPLATFORM;
        if (!rt->irq_ready) {
            int r = rt->plat.irq_open(rt->plat.ctx, rt->intc_base, rt->irq_raw);
            if (r != PP_OK)
                return r;
            rt->irq_ready = 1;
        }
        if (rt->wait != PP_WAIT_INTERRUPT) {
            /* enable the own bit (write-1-to-set: no read-modify-write across processes), so
             * that it raises the line; the bits of components in other modes never do */
            uint32_t bit = rt->irq_mask;
            if (rt->plat.write(rt->plat.ctx, rt->irq_pending + PP_IRQ_ENABLE_SET, &bit, 1u) != PP_OK)
                rt->counters.write_errors++;
            rt->irq_cleared = 0; /* clear the own bit before the first sleep */
            rt->irq_fired = 0;
            rt->irq_streak = 0;
        }
    } else if (mode != PP_WAIT_SLEEP && mode != PP_WAIT_POLL && mode != PP_WAIT_YIELD) {
        return PP_EINVAL;
    } else if (rt->wait == PP_WAIT_INTERRUPT) {
        /* leaving interrupt mode: disable the own bit, then clear it, so that it does not
         * hold the shared line high for the others (e.g. a program that ends after its last
         * reply) */
        uint32_t bit = rt->irq_mask;
        if (rt->plat.write(rt->plat.ctx, rt->irq_pending + PP_IRQ_ENABLE_CLEAR, &bit, 1u) != PP_OK)
            rt->counters.write_errors++;
        if (rt->plat.write(rt->plat.ctx, rt->irq_pending, &bit, 1u) != PP_OK)
            rt->counters.write_errors++;
        rt->irq.clears++;
    }
    rt->wait = mode;
    return PP_OK;
}

int pp_get_wait(const pp_rt *rt)
{
    return rt->wait;
}

static const char *const pp_wait_names[] = {"sleep", "poll", "yield", "interrupt"};

const char *pp_wait_name(int mode)
{
    return mode >= 0 && mode < 4 ? pp_wait_names[mode] : "?";
}

int pp_wait_mode(const char *name)
{
    int m;
    if (name == NULL)
        return PP_EINVAL;
    for (m = 0; m < 4; m++) {
        const char *a = pp_wait_names[m], *b = name;
        while (*a != '\0' && *a == *b) {
            a++;
            b++;
        }
        if (*a == '\0' && *b == '\0')
            return m;
    }
    return PP_EINVAL;
}

static int pp_in_window(const pp_rt *rt, uint32_t off, uint32_t words)
{
    return off < rt->size_words && words <= rt->size_words - off;
}

static int pp_add_served(pp_rt *rt, uint32_t slot_off, unsigned arg_words, unsigned result_words, int kind,
                         pp_adapter adapter, pp_anyfn fn, const char *name, int alloc);

/* The list of served entries in use, in table order (after every change of a kind to or
 * from PP_SLOT_FREE): a sweep reads only their triggers, not the whole fixed table. */
static void pp_relist(pp_rt *rt)
{
    unsigned i, n = 0;
    for (i = 0; i < PP_MAX_SERVED; i++)
        if (rt->served[i].kind != PP_SLOT_FREE)
            rt->live[n++] = (uint8_t)i;
    rt->nlive = n;
    if (rt->hot >= 0 && rt->served[rt->hot].kind == PP_SLOT_FREE)
        rt->hot = -1;
}

/* The journal entry of run-time word off (docs/architecture.md section 2.2), or NULL. */
static volatile uint8_t *pp_journal(pp_rt *rt, uint32_t off)
{
    if (rt->record == NULL || off < rt->runtime_off || off - rt->runtime_off >= PP_JOURNAL_WORDS)
        return NULL;
    return rt->record + PP_RECORD_JOURNAL + 2u * (off - rt->runtime_off);
}

static void pp_journal_set(pp_rt *rt, uint32_t off, unsigned words, unsigned flags)
{
    volatile uint8_t *j = pp_journal(rt, off);
    if (j != NULL) {
        j[1] = (uint8_t)flags;
        j[0] = (uint8_t)words;
    }
}

/* What a predecessor left in the run-time area (its journal): the reps of its calls in flight
 * stay quarantined until their late replies land; its lent slots answer BAD_FUNCTION until
 * their words are reused (next-fit goes on after them). Nothing else of the area is anyone's:
 * it is cleared. */
static void pp_inherit(pp_rt *rt)
{
    uint32_t i = 0, n = rt->runtime_words < PP_JOURNAL_WORDS ? rt->runtime_words : PP_JOURNAL_WORDS;
    while (i < n) {
        volatile uint8_t *j = pp_journal(rt, rt->runtime_off + i);
        unsigned words = j[0], flags = j[1], k;
        int a = -1;
        if (words == 0 || i + words > n) {
            if (words != 0)
                j[0] = j[1] = 0;
            rt->plat.window[rt->runtime_off + i] = 0;
            i++;
            continue;
        }
        if ((flags & PP_JOURNAL_LENT) != 0) {
            int s = pp_add_served(rt, rt->runtime_off + i, words - 1u, flags & 3u, PP_SLOT_DEAD, NULL, NULL,
                                  "a lent function of a previous owner", -1);
            j[0] = j[1] = 0;
            if (s >= 0)
                rt->alloc_next = rt->runtime_off + i + words;
        } else {
            for (k = 0; k < PP_MAX_ALLOCS; k++)
                if (rt->allocs[k].state == 0) {
                    a = (int)k;
                    break;
                }
            if (a >= 0) {
                rt->allocs[a].off = rt->runtime_off + i;
                rt->allocs[a].words = (uint16_t)words;
                rt->allocs[a].state = 2; /* a late reply is expected */
            } else {
                j[0] = j[1] = 0;
            }
        }
        i += words;
    }
}

int pp_init(pp_rt *rt, const pp_platform *plat, const char *name, uint32_t base, uint32_t size_bytes,
            uint32_t runtime_off, uint32_t runtime_words)
{
    unsigned i;
    if (rt == NULL || plat == NULL || plat->write == NULL || plat->window == NULL)
        return PP_EINVAL;
    if ((base & 3u) != 0 || size_bytes < 4 || (size_bytes & 3u) != 0)
        return PP_EINVAL;
    rt->claim_handle = -1;
    rt->record = NULL;
    rt->fw = NULL; /* the memory firewall: pp_fw_attach (pp_firewall.h) */
    rt->fw_chnl = NULL;
    if (plat->claim != NULL) { /* before anything touches the window: it may be another's */
        int r = plat->claim(plat->ctx, base, name, &rt->claim_handle, &rt->record);
        if (r != PP_OK) {
            rt->claim_handle = -1;
            rt->record = NULL;
            return r;
        }
    }
    {
        /* byte by byte through a volatile pointer, not a struct assignment: the compiler turns
         * a copy this size (or a plain loop) into a call of memcpy, which a freestanding build
         * (the bare-metal layer, -nostdlib) does not have */
        const unsigned char *from = (const unsigned char *)plat;
        volatile unsigned char *to = (volatile unsigned char *)&rt->plat;
        size_t i;
        for (i = 0; i < sizeof *plat; i++)
            to[i] = from[i];
    }
    rt->base = base;
    rt->size_words = size_bytes / 4u;
    if (!pp_in_window(rt, runtime_off, runtime_words)) {
        pp_close(rt);
        return PP_EINVAL;
    }
    rt->runtime_off = runtime_off;
    rt->runtime_words = runtime_words;
    rt->timeout_us = PP_DEFAULT_TIMEOUT_US;
    rt->name = name;
    rt->counters.collisions = rt->counters.duplicates = 0;
    rt->counters.strays = rt->counters.write_errors = 0;
    for (i = 0; i < PP_MAX_SERVED; i++) {
        rt->served[i].kind = PP_SLOT_FREE;
        rt->served[i].busy = 0;
        PP_D(rt->served[i].hot_key = 0;)
    }
    rt->nlive = 0;
    rt->hot = -1;
    for (i = 0; i < PP_MAX_ALLOCS; i++)
        rt->allocs[i].state = 0;
    for (i = 0; i < PP_MAX_FNSEQ; i++)
        rt->fnseq[i].used = 0;
    for (i = 0; i < PP_MAX_SITES; i++)
        PP_D(rt->sites[i].fast = 0;) /* (pp_call reads it before it checks the site) */
    rt->nsites = 0;
    rt->fnseq_next = 0;
    rt->depth = 0;
    rt->idle_ticks = 0;
    rt->alloc_next = runtime_off;
    rt->last_error = PP_OK;
    rt->last_error_addr = 0;
    rt->last_error_status = 0;
    rt->wait = PP_WAIT_SLEEP;
    rt->irq_pending = rt->irq_mask = rt->intc_base = rt->irq_raw = 0;
    rt->irq_ready = rt->irq_cleared = rt->irq_fired = 0;
    rt->irq_streak = 0;
    rt->work = rt->work_at_wake = 0;
    rt->irq.wakes = rt->irq.timeouts = rt->irq.pauses = rt->irq.clears = rt->irq.errors = 0;
#ifdef PP_TRACE
    rt->trace = NULL;
    rt->trace_session = NULL;
    rt->trace_name = NULL;
    rt->trace_counter = 0;
    if (plat->trace_open != NULL) {
        void *mem = NULL;
        size_t bytes = 0;
        volatile const uint32_t *session = NULL;
        uint32_t clock = PP_TRACE_CLOCK_NONE;
        int r = plat->trace_open(plat->ctx, name, &mem, &bytes, &session, &clock);
        if (r == PP_OK && mem != NULL && (r = pp_trace_attach(rt, mem, bytes, session)) == PP_OK)
            rt->trace->clock = clock;
        if (r != PP_OK) {
            rt->trace = NULL;
            pp_close(rt);
            return r;
        }
    }
#endif
    if (rt->record != NULL) {
        pp_inherit(rt);
        return PP_OK;
    }
    /* the run-time area is ours alone: nothing in it is a call yet */
    for (i = 0; i < runtime_words; i++)
        rt->plat.window[runtime_off + i] = 0;
    return PP_OK;
}

void pp_close(pp_rt *rt)
{
    if (rt->claim_handle >= 0 && rt->plat.unclaim != NULL)
        rt->plat.unclaim(rt->plat.ctx, rt->claim_handle);
    rt->claim_handle = -1;
    rt->record = NULL;
}

void pp_set_timeout(pp_rt *rt, uint64_t timeout_us)
{
    if (timeout_us > 0)
        rt->timeout_us = timeout_us;
}

const char *pp_strerror(int code)
{
    switch (code) {
    case PP_OK: return "ok";
    case PP_ECALLEE: return "the callee failed (status 0x80000001)";
    case PP_EBADFN: return "there is no function at this address";
    case PP_EBADRESULT: return "the callee's result does not fit the result type";
    case PP_ECOLLISION: return "the callee's slot stayed busy until the timeout (collision)";
    case PP_EBUS: return "the call's write failed on the bus";
    case PP_EBUFFER: return "a buffer's DMA transfer failed (see last_error_status)";
    case PP_ETIMEOUT: return "no reply within the timeout (is the callee running and serving?)";
    case PP_ENOSLOT: return "a runtime table or the run-time area is full (raise PP_MAX_* or runtime_words)";
    case PP_EINVAL: return "invalid argument";
    case PP_EPLATFORM: return "the platform failed (simulated board gone or mapping failed)";
    case PP_EBUSY: return "another live runtime owns this component (see stderr: end it first)";
    case PP_EFIREWALL: return "the memory firewall refused a buffer's transfer (see pp_fw_refused)";
    case PP_EUNKNOWN: return "the callee answered an unknown error status";
    default: return code < 0 ? "error status from the callee" : "not an error code";
    }
}

/* ------------------------------------------------------------------ run-time area */

static void pp_sweep_quarantine(pp_rt *rt)
{
    unsigned i;
    volatile uint32_t *w = rt->plat.window;
    for (i = 0; i < PP_MAX_ALLOCS; i++) {
        pp_alloc *a = &rt->allocs[i];
        if (a->state == 2 && w[a->off + a->words - 1u] != 0) {
            /* the late reply of a timed-out call: never delivered */
            w[a->off + a->words - 1u] = 0;
            rt->counters.strays++;
            a->state = 0;
            pp_journal_set(rt, a->off, 0u, 0u);
        }
    }
}

static int pp_overlaps(uint32_t a, uint32_t an, uint32_t b, uint32_t bn)
{
    return a < b + bn && b < a + an;
}

/* Next-fit allocation of `words` words of the run-time area; the index or PP_ENOSLOT.
 * Dead lent slots (ours retired, or a previous owner's) are passed over while other words
 * are free: hardware may still call them (a call that timed out can wait in an RTL callee's
 * slot and be taken later), and only while they are watched is that call answered
 * (BAD_FUNCTION); a callback landing in reused words is answered by nobody, and an RTL caller
 * has no reply timeout (docs/architecture.md section 2.2). */
static int pp_alloc_words(pp_rt *rt, unsigned words)
{
    unsigned i, slot = PP_MAX_ALLOCS, tries, pass;
    uint32_t lo = rt->runtime_off, hi = rt->runtime_off + rt->runtime_words;
    uint32_t start;
    pp_sweep_quarantine(rt);
    if (words == 0 || words > rt->runtime_words)
        return PP_ENOSLOT;
    for (i = 0; i < PP_MAX_ALLOCS; i++)
        if (rt->allocs[i].state == 0) {
            slot = i;
            break;
        }
    if (slot == PP_MAX_ALLOCS)
        return PP_ENOSLOT;
    for (pass = 0; pass < 2u; pass++) {
    start = rt->alloc_next;
    for (tries = 0; tries < 2u * (PP_MAX_ALLOCS + PP_MAX_SERVED) + 2u; tries++) {
        int moved = 0;
        if (start < lo || start + words > hi) {
            start = lo;
        }
        for (i = 0; i < PP_MAX_ALLOCS; i++) {
            const pp_alloc *a = &rt->allocs[i];
            if (a->state != 0 && pp_overlaps(start, words, a->off, a->words)) {
                start = a->off + a->words;
                moved = 1;
                break;
            }
        }
        for (i = 0; pass == 0 && !moved && i < PP_MAX_SERVED; i++) {
            const pp_served *d = &rt->served[i];
            if (d->kind == PP_SLOT_DEAD &&
                pp_overlaps(start, words, d->trigger_off - d->arg_words, d->arg_words + 1u)) {
                start = d->trigger_off + 1u;
                moved = 1;
            }
        }
        if (moved)
            continue;
        if (start + words > hi)
            continue;
        rt->allocs[slot].off = start;
        rt->allocs[slot].words = (uint16_t)words;
        rt->allocs[slot].state = 1;
        pp_journal_set(rt, start, words, 0u); /* a rep in flight (pp_lend marks its own) */
        rt->alloc_next = start + words;
        /* a dead lent function whose words are reused is no longer watched */
        for (i = 0; i < PP_MAX_SERVED; i++) {
            pp_served *s = &rt->served[i];
            if (s->kind == PP_SLOT_DEAD &&
                pp_overlaps(start, words, s->trigger_off - s->arg_words, s->arg_words + 1u)) {
                s->kind = PP_SLOT_FREE;
                PP_D(s->hot_key = 0;)
            }
        }
        pp_relist(rt);
        for (i = 0; i < words; i++)
            rt->plat.window[start + i] = 0;
        return (int)slot;
    }
    }
    return PP_ENOSLOT;
}

static void pp_free_alloc(pp_rt *rt, int idx)
{
    if (idx >= 0 && idx < PP_MAX_ALLOCS) {
        rt->allocs[idx].state = 0;
        pp_journal_set(rt, rt->allocs[idx].off, 0u, 0u);
    }
}

/* ------------------------------------------------------------------ registration */

static int pp_free_served(pp_rt *rt)
{
    unsigned i;
    for (i = 0; i < PP_MAX_SERVED; i++)
        if (rt->served[i].kind == PP_SLOT_FREE)
            return (int)i;
    /* reuse a dead lent slot's entry (it then stops answering BAD_FUNCTION) */
    for (i = 0; i < PP_MAX_SERVED; i++)
        if (rt->served[i].kind == PP_SLOT_DEAD) {
            rt->served[i].kind = PP_SLOT_FREE;
            PP_D(rt->served[i].hot_key = 0;)
            return (int)i;
        }
    return PP_ENOSLOT;
}

static int pp_add_served(pp_rt *rt, uint32_t slot_off, unsigned arg_words, unsigned result_words, int kind,
                         pp_adapter adapter, pp_anyfn fn, const char *name, int alloc)
{
    int i;
    pp_served *s;
    if (arg_words + 1u > PP_MAX_WORDS || result_words + 1u > PP_MAX_WORDS ||
        !pp_in_window(rt, slot_off, arg_words + 1u))
        return PP_EINVAL;
    i = pp_free_served(rt);
    if (i < 0)
        return i;
    s = &rt->served[i];
    s->trigger_off = slot_off + arg_words;
    s->arg_words = (uint16_t)arg_words;
    s->result_words = (uint16_t)result_words;
    s->kind = (uint8_t)kind;
    s->busy = 0;
    s->taken_any = 0;
    s->last_seq = 0;
    s->exec_trigger = 0;
    s->adapter = adapter;
    s->fn = fn;
    s->name = name;
    s->alloc = alloc;
    PP_D(s->rep_addr = 0;)
    PP_D(s->rep = NULL;)
    PP_D(s->hot_key = 0;)
    PP_D(s->trigger = rt->plat.window + s->trigger_off;)
    pp_relist(rt);
    return i;
}

int pp_serve_slot(pp_rt *rt, uint32_t slot_addr, unsigned arg_words, unsigned result_words, int kind,
                  pp_adapter adapter, pp_anyfn fn, const char *name)
{
    int r;
    if (slot_addr < rt->base || ((slot_addr - rt->base) & 3u) != 0 || adapter == NULL ||
        (kind != PP_SLOT_STATIC && kind != PP_SLOT_DYNAMIC))
        return PP_EINVAL;
    r = pp_add_served(rt, (slot_addr - rt->base) / 4u, arg_words, result_words, kind, adapter, fn, name, -1);
    return r < 0 ? r : PP_OK;
}

/* Whether the site's next call may take pp_call's fast path. */
#if PP_DIRECT
static void pp_site_fast(pp_site *s)
{
    s->fast = (uint8_t)(s->clean && s->cep != NULL && !s->soft && !s->busy ? 1u | (s->rec != &s->rec_none ? 2u : 0u)
                                                                          : 0u);
    s->next = s->trigger | ((uint32_t)(s->seq ^ 1u) & 1u) << 1;
}
#endif

int pp_add_site(pp_rt *rt, uint32_t cep_addr, uint32_t rep_addr, unsigned arg_words, unsigned result_words,
                const char *name)
{
    pp_site *s;
    uint32_t rep_off;
    PP_D(int soft = 0;)
    if (rt->nsites >= PP_MAX_SITES)
        return PP_ENOSLOT;
    if (rep_addr < rt->base || ((rep_addr - rt->base) & 3u) != 0 || (cep_addr & 3u) != 0)
        return PP_EINVAL;
    rep_off = (rep_addr - rt->base) / 4u;
    if (!pp_in_window(rt, rep_off, result_words + 1u) || arg_words + 1u > PP_MAX_WORDS ||
        result_words + 1u > PP_MAX_WORDS)
        return PP_EINVAL;
    s = &rt->sites[rt->nsites];
    s->cep_addr = cep_addr;
    s->rep_off = rep_off;
    s->arg_words = (uint16_t)arg_words;
    s->result_words = (uint16_t)result_words;
    s->seq = 0;
    if (rt->record != NULL && (rt->record[rt->nsites] & PP_RECORD_VALID) != 0)
        s->seq = (uint8_t)(rt->record[rt->nsites] & PP_RECORD_SEQ); /* a program started again:
                           * go on from the last owner's SEQ (section 2.2) */
    s->busy = 0;
    PP_D(s->clean = 0;) /* the first call looks for anything left in the rep (a predecessor's reply) */
    s->name = name;
    /* (no record: pp_call's stores go to a byte of the site's own) */
#if PP_DIRECT
    s->rec = rt->record != NULL ? rt->record + rt->nsites : &s->rec_none;
    s->cep = rt->plat.direct != NULL ? rt->plat.direct(rt->plat.ctx, cep_addr, arg_words + 1u, &soft) : NULL;
#else
    s->rec = rt->record != NULL ? rt->record + rt->nsites : NULL;
#endif
    PP_D(s->soft = (uint8_t)(soft != 0);)
    PP_D(s->trigger = rep_addr;)
    PP_D(s->status = rt->plat.window + rep_off + result_words;)
    PP_D(pp_site_fast(s);)
    rt->plat.window[rep_off + result_words] = 0;
    return (int)rt->nsites++;
}

/* ------------------------------------------------------------------ serving */

/* Take the call whose trigger trig was read in served entry i (non-zero): drop a duplicate,
 * else re-arm the slot, run the handler (or answer BAD_FUNCTION for a dead slot) and reply.
 * Returns 1 when a call ran, 0 for a duplicate or a call that must wait (its function runs). */
static int pp_take(pp_rt *rt, unsigned i, uint32_t trig)
{
    volatile uint32_t *w = rt->plat.window;
    pp_served *s = &rt->served[i];
    uint32_t args[PP_MAX_WORDS];
    uint32_t reply[PP_MAX_WORDS];
    uint32_t seq, status, rep;
    unsigned k, na, nr;
    /* Needed on a Normal-memory window: the arguments must be read after the trigger (at
     * least as new as it); the writer stored them first, but a weakly-ordered reader (the
     * simulated board's shared memory on an ARM host) may read them early. Strongly-ordered:
     * the reads are in program order already. */
    PP_ORDER_BARRIER(rt);
    seq = (trig >> 1) & 1u;
    if (s->busy) {
        /* the function runs now (we are serving while its handler waits): a repeat of
         * its call is a duplicate, anything else waits in the slot until it returns */
        int dup = s->kind == PP_SLOT_STATIC ? (s->taken_any && seq == s->last_seq)
                                             : (trig == s->exec_trigger);
        if (dup) {
            w[s->trigger_off] = PP_TRIGGER_IDLE;
            rt->counters.duplicates++;
        }
        return 0;
    }
    na = s->arg_words;
    nr = s->result_words;
    for (k = 0; k < na; k++)
        args[k] = w[s->trigger_off - na + k];
    /* re-arm: the next call may arrive now. No barrier: the reply's write makes every
     * earlier store visible before its status (pp_platform.write), so the caller cannot
     * call again before this store is in the slot */
    w[s->trigger_off] = PP_TRIGGER_IDLE;
    if (s->kind == PP_SLOT_STATIC) {
        if (s->taken_any && seq == s->last_seq) {
            rt->counters.duplicates++;
            return 0;
        }
        s->taken_any = 1;
        s->last_seq = (uint8_t)seq;
    }
    rt->hot = (int)i;
    rep = trig & PP_TRIGGER_REP_MASK;
    if (s->kind == PP_SLOT_DEAD || s->adapter == NULL) {
        status = PP_STATUS_BAD_FUNCTION;
        pp_zero(reply, nr);
    } else {
        s->busy = 1;
        PP_D(s->hot_key = 0;) /* (until it replied: pp_take_hot never while it runs) */
        s->exec_trigger = trig;
        PP_TRACE_EVENT(rt, PP_TRACE_ENTERED, rt->base + 4u * (s->trigger_off - na), trig, 0u, 0, s->name);
        rt->depth++;
        status = s->adapter(rt, s->fn, args, reply);
        rt->depth--;
        s = &rt->served[i]; /* (entries never move; re-read for clarity) */
        s->busy = 0;
        s->exec_trigger = 0;
        if (status != PP_STATUS_OK)
            pp_zero(reply, nr);
        PP_TRACE_EVENT(rt, PP_TRACE_LEFT, rt->base + 4u * (s->trigger_off - na), trig,
                       status | (seq ? PP_STATUS_ECHO : 0u), 0, s->name);
    }
    rt->work++;
    if ((trig & PP_TRIGGER_ONEWAY) != 0 || rep == 0)
        return 1;
    reply[nr] = status | (seq ? PP_STATUS_ECHO : 0u);
#if PP_DIRECT
    if (rep != s->rep_addr) { /* (a static slot's caller answers to the same rep every time) */
        int soft;
        s->rep_addr = rep;
        s->rep = rt->plat.direct != NULL ? rt->plat.direct(rt->plat.ctx, rep, nr + 1u, &soft) : NULL;
    }
    if (s->rep != NULL) {
        volatile uint32_t *d = s->rep;
        for (k = 0; k < nr; k++)
            d[k] = reply[k];
        /* Needed on Normal memory: the status after the result words and after the slot's
         * re-arm above (the caller may call again as soon as it sees the status).
         * Strongly-ordered: program order is the order everyone sees. */
        if (!rt->plat.strongly_ordered)
            PP_BARRIER();
        d[nr] = reply[nr];
        /* the next call of the same caller: pp_take_hot's */
        if (s->kind != PP_SLOT_DEAD && s->adapter != NULL && na <= PP_HOT_WORDS && nr <= PP_HOT_WORDS)
            s->hot_key = trig ^ PP_TRIGGER_SEQ;
        return 1;
    }
#endif
    if (rt->plat.write(rt->plat.ctx, rep, reply, nr + 1u) != PP_OK)
        rt->counters.write_errors++;
    return 1;
}

/* pp_take's usual case, for the serve loop's spin rounds: the trigger is the one the hot
 * slot expects next (hot_key: the rep its last reply went to, the other SEQ; 0 while its
 * handler runs or when the rep cannot be stored into directly), so it is no duplicate, the
 * handler is not running and the reply goes straight into the rep. Anything else: pp_take. */
#if PP_DIRECT && !defined(PP_TRACE)
static PP_NOINLINE int pp_take_hot(pp_rt *rt, pp_served *s, uint32_t trig)
{
    volatile uint32_t *tp = s->trigger, *d = s->rep;
    uint32_t args[PP_HOT_WORDS], reply[PP_HOT_WORDS], status;
    unsigned k, na = s->arg_words, nr = s->result_words;
    int so = rt->plat.strongly_ordered;
    if (!so)
        PP_BARRIER(); /* Normal memory: the arguments after the trigger (pp_take) */
    if (na == 1u) /* (the usual one word: no loop) */
        args[0] = tp[-1];
    else
        for (k = 0; k < na; k++)
            args[k] = tp[(int)k - (int)na];
    *tp = PP_TRIGGER_IDLE; /* re-arm (before the reply: program order, or the barrier below) */
    PP_D(s->hot_key = 0;)
    s->busy = 1;
    s->exec_trigger = trig;
    s->last_seq = (uint8_t)((trig >> 1) & 1u);
    status = s->adapter(rt, s->fn, args, reply);
    s->busy = 0;
    rt->work++;
    if (status != PP_STATUS_OK)
        pp_zero(reply, nr);
    if (nr == 1u)
        d[0] = reply[0];
    else
        for (k = 0; k < nr; k++)
            d[k] = reply[k];
    if (!so)
        PP_BARRIER(); /* Normal memory: the status after the result words and the re-arm */
    d[nr] = status | ((trig & PP_TRIGGER_SEQ) << 29); /* the echo (bit 30) of SEQ (bit 1) */
    s->hot_key = trig ^ PP_TRIGGER_SEQ;
    return 1;
}
#endif

int pp_poll(pp_rt *rt)
{
    unsigned j;
    int ran = 0;
    volatile uint32_t *w = rt->plat.window;
    if (rt->depth > PP_MAX_DEPTH)
        return 0;
    /* the served slots in use only (a handler may lend or release functions meanwhile: the
     * list is re-read, an entry added or removed now is swept next time) */
    for (j = 0; j < rt->nlive; j++) {
        unsigned i = rt->live[j];
        uint32_t trig = w[rt->served[i].trigger_off];
        if (trig != PP_TRIGGER_IDLE)
            ran += pp_take(rt, i, trig);
    }
    return ran;
}

/* what the spin rounds look at when no slot took a call yet */
#if PP_DIRECT
static volatile const uint32_t pp_idle_word = PP_TRIGGER_IDLE;
#endif

long pp_serve(pp_rt *rt, volatile const int *stop, uint64_t timeout_us)
{
    long n = 0, mark = -1;
    uint64_t t0 = pp_now_us(rt);
#if PP_DIRECT
    volatile const uint32_t *hot;
    pp_served *hs;
    int h;
#else
    volatile uint32_t *w = rt->plat.window;
#endif
    unsigned k;
    for (;;) {
        n += pp_poll(rt); /* a full sweep: every served slot */
        if (stop != NULL && *stop)
            break;
        if (timeout_us > 0 && pp_now_us(rt) - t0 >= timeout_us)
            break;
        /* the mode's wait only when the spin rounds and the full sweep after them found
         * nothing (so never without a full sweep just before it: section 2.3's order) */
        if (n == mark)
            pp_idle(rt, timeout_us > 0 ? t0 + timeout_us : 0);
        mark = n;
        /* spin rounds: only the slot that took the last call (the same caller's next call
         * comes there); k is never reset, so the other slots are swept at least every
         * PP_SPIN_ROUNDS + 1 rounds however busy this one is */
#if PP_DIRECT
        h = rt->depth <= PP_MAX_DEPTH ? rt->hot : -1;
        hs = h >= 0 ? &rt->served[h] : NULL;
        hot = hs != NULL ? hs->trigger : &pp_idle_word;
        for (k = 0; k < PP_SPIN_ROUNDS; k++) {
            uint32_t trig = *hot;
            if (trig != PP_TRIGGER_IDLE) {
#if PP_DIRECT && !defined(PP_TRACE)
                if (trig == hs->hot_key)
                    n += pp_take_hot(rt, hs, trig);
                else
#endif
                    n += pp_take(rt, (unsigned)h, trig);
                if (rt->hot != h) { /* (another slot took it, or the handler released this one) */
                    h = rt->hot;
                    hs = h >= 0 ? &rt->served[h] : NULL;
                    hot = hs != NULL ? hs->trigger : &pp_idle_word;
                }
            }
            if (stop != NULL && *stop)
                return n;
        }
#else
        for (k = 0; k < PP_SPIN_ROUNDS; k++) { /* (the smallest code: the hot entry looked up each round) */
            int hh = rt->hot;
            uint32_t trig;
            if (hh >= 0 && rt->depth <= PP_MAX_DEPTH && (trig = w[rt->served[hh].trigger_off]) != PP_TRIGGER_IDLE)
                n += pp_take(rt, (unsigned)hh, trig);
            if (stop != NULL && *stop)
                return n;
        }
#endif
    }
    return n;
}

/* ------------------------------------------------------------------ calling */

static int pp_fail(pp_rt *rt, int code, uint32_t addr)
{
    rt->last_error = code;
    rt->last_error_addr = addr;
    return code;
}

#ifdef PP_TRACE
#define PP_TNAME_PARAM , const char *tname
#define PP_TNAME_ARG , tname
#else
#define PP_TNAME_PARAM
#define PP_TNAME_ARG
#endif

/* The call's write was refused (r: PP_ECOLLISION, or the platform's error): retry while the
 * slot holds a pending call, serving meanwhile, until the timeout (*deadline: set at the
 * first refusal). PP_OK once the write went through (c->seq and the caller's memory then
 * say so), else the error (the memory as before the call). Out of pp_call_raw's line: the
 * usual call is never refused. */
static int pp_write_refused(pp_rt *rt, pp_site *c, const uint32_t *words, uint32_t seq, uint8_t before, int r,
                            uint64_t *deadline PP_TNAME_PARAM)
{
    unsigned na = c->arg_words;
    uint64_t now = 0;
    for (;;) {
        if (r == PP_OK) {
            c->seq = (uint8_t)seq;
            if (c->rec != NULL)
                *c->rec = (uint8_t)(PP_RECORD_VALID | seq);
            return PP_OK;
        }
        if (r == PP_ECOLLISION) {
            now = pp_now_us(rt);
            if (*deadline == 0)
                *deadline = now + rt->timeout_us;
        }
        if (r != PP_ECOLLISION || now >= *deadline) {
            if (r == PP_ECOLLISION && rt->plat.timed_out != NULL)
                rt->plat.timed_out(rt->plat.ctx, c->cep_addr, rt->timeout_us, 1);
            rt->counters.write_errors++;
            if (c->rec != NULL) /* it never reached the slot: as before the call */
                *c->rec = before;
            PP_TRACE_EVENT(rt, PP_TRACE_FAILED, c->cep_addr, words[na], 0u, r, tname);
            return pp_fail(rt, r, c->cep_addr);
        }
        rt->counters.collisions++; /* refused: the slot holds a pending call; retry */
        rt->depth++;
        pp_poll(rt);
        rt->depth--;
        pp_idle(rt, *deadline);
        if (rt->plat.pending != NULL && rt->plat.pending(rt->plat.ctx, c->cep_addr + 4u * na))
            r = PP_ECOLLISION; /* a call still waits in that software slot: as refused */
        else
            r = rt->plat.write(rt->plat.ctx, c->cep_addr, words, na + 1u);
    }
}

/* Wait for the reply to the call c just wrote (SEQ seq, trigger word trig): spin rounds that
 * read the status alone, then a full round (the clock for the timeout from deadline, or
 * from now if 0; the own window swept; the wait mode's pause), and again. */
static int pp_await(pp_rt *rt, pp_site *c, uint32_t seq, uint32_t trig, uint32_t *result,
                    uint64_t deadline, unsigned spun PP_TNAME_PARAM)
{
    volatile uint32_t *w = rt->plat.window;
    uint32_t rep_off = c->rep_off, cep_addr = c->cep_addr;
    unsigned k, nres = c->result_words, spin = spun;
    uint32_t st_off = rep_off + nres;
    uint64_t now;
    (void)trig; /* (the trace's) */
    for (;;) {
        uint32_t st = w[st_off];
        if (st != 0) {
            /* Needed on Normal memory: the result words must be read after the status (at
             * least as new as it), as the arguments after a trigger (pp_take) */
            PP_ORDER_BARRIER(rt);
            if (st == (PP_STATUS_OK | (seq ? PP_STATUS_ECHO : 0u))) { /* ok, ours: the usual case */
                for (k = 0; k < nres; k++)
                    result[k] = w[rep_off + k];
                w[st_off] = 0;
                rt->work++;
                PP_D(c->clean = 1;)
                PP_TRACE_EVENT(rt, PP_TRACE_SEEN, cep_addr, trig, st, 0, tname);
                return PP_OK;
            }
            if (((st >> 30) & 1u) != seq ||
                ((st & PP_STATUS_ERROR_BIT) == 0 && (st & PP_STATUS_CODE_MASK) != PP_STATUS_OK)) {
                w[st_off] = 0; /* an answer to another call (or garbage): never delivered */
                rt->counters.strays++;
                PP_D(c->clean = 0;) /* (more may come: look before the next call too) */
                continue;
            }
            for (k = 0; k < nres; k++)
                result[k] = w[rep_off + k];
            w[st_off] = 0;
            rt->work++;
            PP_D(c->clean = 1;)
            PP_TRACE_EVENT(rt, PP_TRACE_SEEN, cep_addr, trig, st, 0, tname);
            if ((st & PP_STATUS_ERROR_BIT) == 0)
                return PP_OK;
            st &= PP_STATUS_CODE_MASK;
            rt->last_error_status = st | PP_STATUS_ERROR_BIT;
            if ((st & 0xFFu) == 6u && (st & 0x3FF80000u) == 0u && ((st >> 16) & 7u) != 0u)
                return pp_fail(rt, PP_EBUFFER, cep_addr); /* a buffer's DMA failed */
            return pp_fail(rt, st == 0 || st > 98u ? PP_EUNKNOWN : -(int)st, cep_addr);
        }
        if (spin < PP_SPIN_ROUNDS) { /* a spin round: the status alone */
            spin++;
            continue;
        }
        spin = 0; /* a full round: the clock, the own window swept, the mode's wait */
        now = pp_now_us(rt);
        if (deadline == 0)
            deadline = now + rt->timeout_us;
        else if (now >= deadline) {
            if (rt->plat.timed_out != NULL)
                rt->plat.timed_out(rt->plat.ctx, cep_addr, rt->timeout_us, 0);
            PP_TRACE_EVENT(rt, PP_TRACE_FAILED, cep_addr, trig, 0u, PP_ETIMEOUT, tname);
            PP_D(c->clean = 0;) /* its reply may still come */
            return pp_fail(rt, PP_ETIMEOUT, cep_addr);
        }
        rt->depth++;
        pp_poll(rt); /* serve while waiting: the callee may call us back */
        rt->depth--;
        pp_idle(rt, deadline);
    }
}

/* One call as c says: into c->cep_addr (c->arg_words argument words), replying to the rep at
 * word c->rep_off (c->result_words result words), the caller's memory at c->rec (NULL: none).
 * c->seq is the SEQ of the last call into that slot: this call uses the other value, and
 * keeps it only when its write went through (a refused call never reached the slot, so the
 * next call must still differ from the last one the callee took). */
static int pp_call_raw(pp_rt *rt, pp_site *c, const uint32_t *args, uint32_t *result)
{
    uint8_t before = 0;
    uint32_t seq = (uint32_t)(c->seq ^ 1u) & 1u;
    unsigned k, na = c->arg_words;
    volatile uint8_t *rec = c->rec;
    volatile uint32_t *w = rt->plat.window;
#if PP_DIRECT
    volatile uint32_t *d = c->cep;
#endif
    uint32_t words[PP_MAX_WORDS];
    uint32_t st_off = c->rep_off + c->result_words, trig;
    uint64_t deadline = 0; /* 0: no clock read yet (the timeout runs from the first) */
    int r;
#ifdef PP_TRACE
    const char *tname = rt->trace_name; /* the import (pp_call_site), NULL: a function value */
    rt->trace_name = NULL;
#endif
    /* Whatever is left in the rep is nobody's answer (section 2.2): cleared and counted.
     * (pp_call's fast path looks only after a call that did not take its own reply.) */
    if (w[st_off] != 0) {
        w[st_off] = 0;
        rt->counters.strays++;
    }
    PP_D(c->clean = 0;) /* until this call takes its reply (pp_await) */
    trig = (rt->base + 4u * c->rep_off) | (seq << 1); /* (PP_TRIGGER_SEQ is bit 1) */
    if (rec != NULL) { /* the caller's memory: this SEQ is being written (no barrier: only a
                        * later owner reads it, after this process ended) */
        before = *rec;
        *rec = (uint8_t)(PP_RECORD_VALID | PP_RECORD_WRITING | seq);
    }
    PP_TRACE_EVENT(rt, PP_TRACE_ISSUED, c->cep_addr, trig, 0u, 0, tname);
#if PP_DIRECT
    if (d != NULL && (!c->soft || d[na] == PP_TRIGGER_IDLE)) {
        /* the platform's direct stores: the arguments, then the trigger */
        for (k = 0; k < na; k++)
            d[k] = args[k];
        /* Needed on Normal memory: the trigger after the arguments. Strongly-ordered: the
         * stores land in program order (GP0's and the OCM's alike) */
        if (!rt->plat.strongly_ordered)
            PP_BARRIER();
        d[na] = trig;
        r = PP_OK;
    } else
#endif
    {
        for (k = 0; k < na; k++)
            words[k] = args[k];
        words[na] = trig;
        if (rt->plat.pending != NULL && rt->plat.pending(rt->plat.ctx, c->cep_addr + 4u * na))
            r = PP_ECOLLISION; /* a call still waits in that software slot: as refused */
        else
            r = rt->plat.write(rt->plat.ctx, c->cep_addr, words, na + 1u);
    }
    if (r == PP_OK) {
        c->seq = (uint8_t)seq;
        if (rec != NULL)
            *rec = (uint8_t)(PP_RECORD_VALID | seq);
    } else if ((r = pp_write_refused(rt, c, words, seq, before, r, &deadline PP_TNAME_ARG)) != PP_OK) {
        return r;
    }
    return pp_await(rt, c, seq, trig, result, deadline, 0 PP_TNAME_ARG);
}

int pp_call_site(pp_rt *rt, unsigned site, const uint32_t *args, uint32_t *result)
{
    pp_site *s;
    int r;
    if (site >= rt->nsites)
        return PP_EINVAL;
    s = &rt->sites[site];
    PP_TRACE_SET_NAME(rt, s->name);
    if (!s->busy) {
        s->busy = 1;
#if PP_DIRECT
        s->fast = 0;
#endif
        r = pp_call_raw(rt, s, args, result);
        s->busy = 0; /* after a timeout the next call clears (and counts) a late reply */
#if PP_DIRECT
        PP_D(pp_site_fast(s);)
#endif
        return r;
    } else {
        /* a nested call through the same import (from a function served while the first
         * waits): its reply needs a rep of its own; the SEQ is the slot's, shared */
        pp_site nested = *s;
        int a = pp_alloc_words(rt, s->result_words + 1u);
        if (a < 0)
            return pp_fail(rt, a, s->cep_addr);
        nested.rep_off = rt->allocs[a].off;
        PP_D(nested.clean = 0;) /* a run-time rep: look for anything left */
        r = pp_call_raw(rt, &nested, args, result);
        rt->sites[site].seq = nested.seq;
        if (r == PP_ETIMEOUT)
            rt->allocs[a].state = 2;
        else
            pp_free_alloc(rt, a);
        return r;
    }
}

#if PP_DIRECT
int pp_call_wait(pp_rt *rt, unsigned site, uint32_t *result)
{
    pp_site *s = &rt->sites[site];
    uint32_t seq = s->seq;
    int r;
#ifdef PP_TRACE
    const char *tname = s->name;
#endif
    rt->work--;   /* (pp_call counted the reply it did not take: pp_await counts it) */
    s->fast = 0;
    PP_D(s->clean = 0;) /* until it takes its own reply (pp_await) */
    s->busy = 1;  /* (pp_await serves: a nested call through this site needs a rep of its own) */
    /* (pp_call spun PP_SPIN_ROUNDS rounds already: a full round after this look) */
    r = pp_await(rt, s, seq, s->trigger | (seq << 1), result, 0, PP_SPIN_ROUNDS PP_TNAME_ARG);
    s->busy = 0;
    PP_D(pp_site_fast(s);)
    return r;
}
#endif

static uint8_t *pp_fn_seq(pp_rt *rt, uint32_t addr)
{
    unsigned i;
    pp_fnseq *e;
    for (i = 0; i < PP_MAX_FNSEQ; i++)
        if (rt->fnseq[i].used && rt->fnseq[i].addr == addr)
            return &rt->fnseq[i].seq;
    for (i = 0; i < PP_MAX_FNSEQ; i++)
        if (!rt->fnseq[i].used)
            break;
    if (i == PP_MAX_FNSEQ) { /* forget the oldest: function values go to dynamic slots,
                              * where SEQ does not decide duplicates */
        i = rt->fnseq_next;
        rt->fnseq_next = (rt->fnseq_next + 1u) % PP_MAX_FNSEQ;
    }
    e = &rt->fnseq[i];
    e->used = 1;
    e->addr = addr;
    e->seq = 0;
    return &e->seq;
}

int pp_call_fn(pp_rt *rt, pp_fn f, const uint32_t *args, unsigned arg_words, uint32_t *result,
               unsigned result_words)
{
    uint8_t *seq;
    pp_site c;
    int a, r;
    PP_TRACE_SET_NAME(rt, NULL);
    if (f.addr == 0 || (f.addr & 3u) != 0)
        return pp_fail(rt, PP_EBADFN, f.addr);
    if (arg_words + 1u > PP_MAX_WORDS || result_words + 1u > PP_MAX_WORDS)
        return pp_fail(rt, PP_EINVAL, f.addr);
    a = pp_alloc_words(rt, result_words + 1u);
    if (a < 0)
        return pp_fail(rt, a, f.addr);
    seq = pp_fn_seq(rt, f.addr);
    c.cep_addr = f.addr;
    c.rep_off = rt->allocs[a].off;
    c.arg_words = (uint16_t)arg_words;
    c.result_words = (uint16_t)result_words;
    c.seq = *seq;
    c.busy = 1;
    PP_D(c.clean = 0;) /* a run-time rep: look for anything left */
    PP_D(c.soft = 0;)
    c.name = NULL;
    c.rec = NULL;
    PP_D(c.cep = NULL;)
    PP_D(c.trigger = 0;)
    PP_D(c.fast = 0;)
    r = pp_call_raw(rt, &c, args, result);
    *seq = c.seq;
    if (r == PP_ETIMEOUT)
        rt->allocs[a].state = 2; /* quarantined until the late reply lands */
    else
        pp_free_alloc(rt, a);
    return r;
}

int pp_lend(pp_rt *rt, pp_adapter adapter, pp_anyfn fn, unsigned arg_words, unsigned result_words,
            const char *name, pp_fn *out)
{
    int a, s;
    if (adapter == NULL || out == NULL || arg_words + 1u > PP_MAX_WORDS || result_words + 1u > PP_MAX_WORDS)
        return PP_EINVAL;
    a = pp_alloc_words(rt, arg_words + 1u);
    if (a < 0)
        return a;
    s = pp_add_served(rt, rt->allocs[a].off, arg_words, result_words, PP_SLOT_LENT, adapter, fn, name, a);
    if (s < 0) {
        pp_free_alloc(rt, a);
        return s;
    }
    pp_journal_set(rt, rt->allocs[a].off, arg_words + 1u, PP_JOURNAL_LENT | (result_words < 3u ? result_words : 3u));
    out->addr = rt->base + 4u * rt->allocs[a].off;
    return PP_OK;
}

int pp_release(pp_rt *rt, pp_fn f)
{
    unsigned i;
    for (i = 0; i < PP_MAX_SERVED; i++) {
        pp_served *s = &rt->served[i];
        if (s->kind == PP_SLOT_LENT && rt->base + 4u * (s->trigger_off - s->arg_words) == f.addr) {
            s->kind = PP_SLOT_DEAD; /* late calls get BAD_FUNCTION until the words are reused */
            PP_D(s->hot_key = 0;)
            pp_free_alloc(rt, s->alloc);
            s->alloc = -1;
            return PP_OK;
        }
    }
    return PP_EINVAL;
}

/* ------------------------------------------------------------------ tracing */
#ifdef PP_TRACE

int pp_trace_attach(pp_rt *rt, void *mem, size_t bytes, volatile const uint32_t *session)
{
    pp_trace_ring *g = (pp_trace_ring *)mem;
    static const char magic[8] = PP_TRACE_MAGIC;
    unsigned k;
    if (mem == NULL) {
        rt->trace = NULL;
        return PP_OK;
    }
    if (bytes < PP_TRACE_HEADER + sizeof(pp_trace_event) || ((uintptr_t)mem & 7u) != 0)
        return PP_EINVAL;
    rt->trace = NULL; /* not noted into while it is set up */
    for (k = 0; k < PP_TRACE_HEADER; k++)
        ((volatile uint8_t *)mem)[k] = 0;
    g->header_bytes = PP_TRACE_HEADER;
    g->event_bytes = (uint32_t)sizeof(pp_trace_event);
    g->capacity = 1u; /* a power of two: the slot is head's low bits (no 64-bit division on ARM) */
    while (g->capacity <= 0x40000000u && (uint64_t)g->capacity * 2u * sizeof(pp_trace_event) <= bytes - PP_TRACE_HEADER)
        g->capacity *= 2u;
    g->clock = rt->plat.cycles == NULL ? PP_TRACE_CLOCK_NONE : PP_TRACE_CLOCK_COUNTER;
    for (k = 0; rt->name != NULL && rt->name[k] != '\0' && k + 1u < sizeof g->component; k++)
        ((volatile char *)g->component)[k] = rt->name[k]; /* (volatile: no memcpy, freestanding) */
    PP_BARRIER();
    for (k = 0; k < 8u; k++) /* the magic last: a reader takes the ring only once it is set up */
        ((volatile char *)g->magic)[k] = magic[k];
    rt->trace_session = session;
    rt->trace = g;
    return PP_OK;
}

static void pp_trace_note(pp_rt *rt, unsigned kind, uint32_t addr, uint32_t word, uint32_t status, int code,
                          const char *name)
{
    pp_trace_ring *g = rt->trace;
    volatile pp_trace_event *e; /* volatile: stored as written (no memset/memcpy, freestanding) */
    uint32_t session = 1u;
    uint64_t head;
    unsigned k;
    if (rt->trace_session != NULL && (session = *rt->trace_session) == 0u)
        return;
    head = g->head;
    e = (volatile pp_trace_event *)((uint8_t *)g + PP_TRACE_HEADER) + ((uint32_t)head & (g->capacity - 1u));
    e->cycle = rt->plat.cycles != NULL ? rt->plat.cycles(rt->plat.ctx, rt->trace_counter) : PP_TRACE_NO_CYCLE;
    e->us = pp_now_us(rt);
    e->addr = addr;
    e->word = word;
    e->status = status;
    e->session = session;
    e->kind = (uint8_t)kind;
    e->depth = (uint8_t)(rt->depth < 255u ? rt->depth : 255u);
    e->reserved = 0;
    e->code = code;
    for (k = 0; name != NULL && name[k] != '\0' && k + 1u < PP_TRACE_NAME; k++)
        e->name[k] = name[k];
    for (; k < PP_TRACE_NAME; k++)
        e->name[k] = '\0';
    PP_BARRIER(); /* the event whole before it counts (a reader, a kill) */
    g->head = head + 1u;
}

unsigned long pp_trace_drain(pp_rt *rt, void (*fn)(void *ctx, const pp_trace_event *e), void *ctx,
                             unsigned long *lost)
{
    pp_trace_ring *g = rt->trace;
    uint64_t head, from;
    unsigned long n = 0;
    if (lost != NULL)
        *lost = 0;
    if (g == NULL || fn == NULL)
        return 0;
    head = g->head;
    from = g->drained;
    if (head - from > g->capacity) {
        if (lost != NULL)
            *lost = (unsigned long)(head - from - g->capacity);
        from = head - g->capacity;
    }
    for (; from < head; from++, n++)
        fn(ctx, (const pp_trace_event *)((const uint8_t *)g + PP_TRACE_HEADER) + ((uint32_t)from & (g->capacity - 1u)));
    g->drained = head;
    return n;
}

#endif /* PP_TRACE */

/* ------------------------------------------------------------------ channels */

int pp_chnl_send(pp_rt *rt, pp_chnl *ch, pp_buf data, uint32_t offset, int last)
{
    uint32_t args[4];
    uint32_t res = 0;
    int r;
    args[0] = data.phys;
    args[1] = data.len;
    args[2] = offset & 0x7FFFFFFFu;
    args[3] = last ? 1u : 0u;
    ch->words = 0;
    r = rt->fw_chnl != NULL ? rt->fw_chnl(rt, pp_fn_at(ch->rx), args, 4u, &res, 1u, data, 0)
                            : pp_call_fn(rt, pp_fn_at(ch->rx), args, 4u, &res, 1u);
    if (r != PP_OK)
        return r;
    ch->words = res & 0x7FFFFFFFu;
    if ((res >> 31) != 0u) {
        rt->last_error = PP_ETIMEOUT;
        rt->last_error_addr = ch->rx;
        return PP_ETIMEOUT;
    }
    return (int)ch->words;
}

int pp_chnl_recv(pp_rt *rt, pp_chnl *ch, pp_buf buf, uint64_t timeout_us)
{
    uint64_t deadline = pp_now_us(rt) + timeout_us;
    uint32_t total = 0;
    int first = 1;
    ch->words = 0;
    ch->offset = 0;
    ch->last = 0;
    while (total < buf.len) {
        uint32_t args[2];
        uint32_t res[2] = {0u, 0u};
        uint32_t n;
        int r;
        args[0] = buf.phys + 4u * total;
        args[1] = buf.len - total;
        r = rt->fw_chnl != NULL ? rt->fw_chnl(rt, pp_fn_at(ch->tx), args, 2u, res, 2u,
                                              pp_buf_at(args[0], args[1]), 1)
                                : pp_call_fn(rt, pp_fn_at(ch->tx), args, 2u, res, 2u);
        if (r != PP_OK)
            return r;
        n = res[0] & 0x7FFFFFFFu;                /* low word: {timed out, words} */
        if (first && (n != 0u || (res[1] >> 31) != 0u)) {
            ch->offset = res[1] & 0x7FFFFFFFu;   /* high word: {last, offset} */
            first = 0;
        }
        total += n;
        ch->words = total;
        if ((res[1] >> 31) != 0u) {
            ch->last = 1;
            return (int)total;
        }
        if (pp_now_us(rt) >= deadline) {
            rt->last_error = PP_ETIMEOUT;
            rt->last_error_addr = ch->tx;
            return PP_ETIMEOUT;
        }
    }
    return (int)total;                           /* the buffer is full before a last */
}

/* ------------------------------------------------------------------ value encoding */

uint32_t pp_f32_bits(float v)
{
    union { float f; uint32_t u; } x;
    x.f = v;
    return x.u;
}

float pp_bits_f32(uint32_t w)
{
    union { float f; uint32_t u; } x;
    x.u = w;
    return x.f;
}

uint64_t pp_f64_bits(double v)
{
    union { double f; uint64_t u; } x;
    x.f = v;
    return x.u;
}

double pp_bits_f64(uint64_t w)
{
    union { double f; uint64_t u; } x;
    x.u = w;
    return x.f;
}
