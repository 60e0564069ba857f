/* pushpush's C runtime, c/runtime/pp_firewall.c: copied as is into every generated c/ folder; edit the original. */
/*
 * pushpush C runtime: the memory firewall's table (see pp_firewall.h). Freestanding-clean:
 * includes only the runtime's header, calls no library function, allocates nothing.
 */
#include "pp_firewall.h"

/* The ranges one call opened: the entries (indexes into the table), the call's engines. */
typedef struct {
    unsigned n;
    uint8_t entry[PP_FW_MAX_ARGS];
    const pp_fw_slot *slot;   /* the cep slot called (NULL: not an export with buffers) */
    const pp_fw_arg *bufs;
    unsigned nbufs;
    int why[PP_FW_MAX_ARGS];
    uint32_t call;
    uint32_t target;
} pp_fw_grant;

static int pp_fw_store(pp_rt *rt, uint32_t off, uint32_t value)
{
    return rt->plat.write(rt->plat.ctx, rt->fw->base + off, &value, 1u);
}

static int pp_fw_load(pp_rt *rt, uint32_t off, uint32_t *value)
{
    return rt->plat.read(rt->plat.ctx, rt->fw->base + off, value);
}

static int pp_fw_chnl_call(pp_rt *rt, pp_fn f, const uint32_t *args, unsigned arg_words, uint32_t *result,
                           unsigned result_words, pp_buf buf, int write)
{
    pp_fw_arg a = pp_fw_arg_of(buf, 4u, write); /* a channel's buffer: u32 words */
    return pp_fw_call_fn(rt, f, args, arg_words, result, result_words, &a, 1u);
}

int pp_fw_attach(pp_rt *rt, pp_fw *fw, uint32_t base, unsigned entries, unsigned first, unsigned count,
                 unsigned engines, const pp_fw_slot *slots, unsigned nslots, const char *const *names)
{
    uint32_t info = 0;
    unsigned i;
    int r;
    if (rt == NULL || fw == NULL || count > 64u || first + count > entries)
        return PP_EINVAL;
    if (rt->plat.read == NULL)
        return PP_EPLATFORM; /* the latch (which engine, which address) is read over GP0 */
    fw->base = base;
    fw->entries = entries;
    fw->first = first;
    fw->count = count;
    fw->engines = engines;
    fw->busy = 0;
    fw->slots = slots;
    fw->nslots = nslots;
    fw->names = names;
    fw->calls = 0;
    fw->refused = 0;
    fw->owned = 0;
    rt->fw = fw;
    if ((r = pp_fw_load(rt, PP_FW_INFO, &info)) != PP_OK || (info & 0xFFu) != entries) {
        rt->fw = NULL; /* not this system's bitstream (or nothing answers at base) */
        return r != PP_OK ? r : PP_EINVAL;
    }
    fw->tag_bits = (info >> 8) & 0xFFu;
    fw->tag_lsb = (info >> 16) & 0xFFu;
    for (i = 0; i < count; i++) /* the own entries: empty (a predecessor may have left one open) */
        if ((r = pp_fw_store(rt, PP_FW_ENTRY0 + 16u * (first + i) + 8u, 0u)) != PP_OK)
            break;
    if (r == PP_OK)
        r = pp_fw_store(rt, PP_FW_CTRL, 1u);
    if (r == PP_OK)
        r = pp_fw_store(rt, PP_FW_BAD_INFO, 0x80000000u);
    if (r != PP_OK) {
        rt->fw = NULL;
        return r;
    }
    rt->fw_chnl = pp_fw_chnl_call;
    return PP_OK;
}

int pp_fw_own(pp_rt *rt, uint32_t phys, uint32_t bytes)
{
    pp_fw *fw = rt->fw;
    unsigned i;
    if (fw == NULL)
        return PP_OK;
    if (bytes == 0 || (uint64_t)phys + bytes > 0x100000000ull)
        return PP_EINVAL;
    for (i = 0; i < PP_FW_MAX_OWNED; i++)
        if (((fw->owned >> i) & 1u) == 0u) {
            fw->owned |= (uint32_t)1u << i;
            fw->owned_lo[i] = phys;
            fw->owned_hi[i] = (uint32_t)((uint64_t)phys + bytes - 1u); /* inclusive: may end at 2^32 - 1 */
            return PP_OK;
        }
    return PP_ENOSLOT;
}

int pp_fw_disown(pp_rt *rt, uint32_t phys)
{
    pp_fw *fw = rt->fw;
    unsigned i;
    if (fw == NULL)
        return PP_OK;
    for (i = 0; i < PP_FW_MAX_OWNED; i++)
        if (((fw->owned >> i) & 1u) != 0u && fw->owned_lo[i] == phys) {
            fw->owned &= ~((uint32_t)1u << i);
            return PP_OK;
        }
    return PP_EINVAL;
}

const pp_fw_refusal *pp_fw_refused(const pp_rt *rt)
{
    return rt->fw != NULL && rt->fw->refused ? &rt->fw->refusal : NULL;
}

const char *pp_fw_engine_name(const pp_rt *rt, unsigned e)
{
    return rt->fw != NULL && rt->fw->names != NULL && e < rt->fw->engines ? rt->fw->names[e] : "?";
}

const char *pp_fw_why(int why)
{
    switch (why) {
    case PP_FW_OPEN: return "a range was open for that buffer, and the engine went outside it";
    case PP_FW_NOT_OWNED: return "no range was open: the buffer is not in memory the program declared (pp_fw_own)";
    case PP_FW_PAST_END: return "no range was open: the buffer runs past the end of the memory declared for it";
    case PP_FW_NO_ENGINE: return "no range was open: no buffer engine serves the function called";
    case PP_FW_NOT_AN_ARG: return "no range was open for that engine in this call";
    default: return "?";
    }
}

uint32_t pp_fw_count(pp_rt *rt)
{
    uint32_t v = 0;
    if (rt->fw == NULL || pp_fw_load(rt, PP_FW_REFUSED, &v) != PP_OK)
        return 0;
    return v;
}

int pp_wg_take(pp_rt *rt, uint32_t base, pp_wg_refusal *out)
{
    uint32_t info = 0, addr = 0, layout = 0, tag = 0, clear = 1u << 31;
    int r;
    if (rt->plat.read == NULL)
        return PP_EPLATFORM;
    r = rt->plat.read(rt->plat.ctx, base + PP_FW_BAD_INFO, &info);
    if (r != PP_OK)
        return r;
    if (!(info >> 31))
        return 0;
    r = rt->plat.read(rt->plat.ctx, base + PP_FW_BAD_ADDR, &addr);
    if (r == PP_OK)
        r = rt->plat.read(rt->plat.ctx, base + PP_FW_INFO, &layout);
    if (r == PP_OK) {
        uint32_t bits = (layout >> 8) & 0xFFu, lsb = (layout >> 16) & 0xFFu;
        if (lsb + bits <= 16u && bits < 16u)   /* the master's index is in the latched ID's 16 bits */
            tag = ((info & 0xFFFFu) >> lsb) & ((1u << bits) - 1u);
        else                                   /* wider IDs (over 16 masters): BAD_TAG */
            r = rt->plat.read(rt->plat.ctx, base + PP_WG_BAD_TAG, &tag);
    }
    if (r == PP_OK)
        r = rt->plat.write(rt->plat.ctx, base + PP_FW_BAD_INFO, &clear, 1u);
    if (r != PP_OK)
        return r;
    out->addr = addr;
    out->bytes = (((info >> 17) & 0xFFu) + 1u) << ((info >> 25) & 7u);
    out->write = (int)((info >> 30) & 1u);
    out->master = tag & 0xFFu;
    return 1;
}

uint32_t pp_wg_count(pp_rt *rt, uint32_t base)
{
    uint32_t v = 0;
    if (rt->plat.read == NULL || rt->plat.read(rt->plat.ctx, base + PP_FW_REFUSED, &v) != PP_OK)
        return 0;
    return v;
}

/* Why buffer argument a gets no range (PP_FW_OPEN: it gets one). */
static int pp_fw_vouch(const pp_fw *fw, const pp_fw_arg *a, uint64_t bytes)
{
    unsigned i;
    for (i = 0; i < PP_FW_MAX_OWNED; i++) {
        if (((fw->owned >> i) & 1u) == 0u)
            continue;
        if (a->phys >= fw->owned_lo[i] && a->phys <= fw->owned_hi[i])
            return (uint64_t)a->phys + bytes - 1u <= fw->owned_hi[i] ? PP_FW_OPEN : PP_FW_PAST_END;
    }
    return PP_FW_NOT_OWNED;
}

static void pp_fw_close(pp_rt *rt, pp_fw_grant *g)
{
    pp_fw *fw = rt->fw;
    unsigned k;
    for (k = 0; k < g->n; k++) {
        if (pp_fw_store(rt, PP_FW_ENTRY0 + 16u * g->entry[k] + 8u, 0u) != PP_OK)
            rt->counters.write_errors++;
        fw->busy &= ~((uint64_t)1u << (g->entry[k] - fw->first));
    }
    g->n = 0;
}

/* Open the ranges of the call into target with buffer arguments bufs (BASE, LIMIT, ATTR
 * stored in that order: an own entry's ATTR is 0 whenever it is free, as attach and close
 * leave it, so no half-written entry ever allows a range). */
static int pp_fw_open(pp_rt *rt, uint32_t target, const pp_fw_arg *bufs, unsigned nbufs, pp_fw_grant *g)
{
    pp_fw *fw = rt->fw;
    unsigned k, i;
    g->n = 0;
    g->slot = NULL;
    g->bufs = bufs;
    g->nbufs = nbufs;
    g->call = ++fw->calls;
    g->target = target;
    if (nbufs > PP_FW_MAX_ARGS)
        return PP_EINVAL;
    for (i = 0; i < fw->nslots; i++)
        if (fw->slots[i].cep == target) {
            g->slot = &fw->slots[i];
            break;
        }
    for (k = 0; k < nbufs; k++) {
        const pp_fw_arg *a = &bufs[k];
        uint64_t bytes = (uint64_t)a->len * a->elem_bytes;
        uint32_t attr, w[3];
        int r;
        if (g->slot == NULL || k >= g->slot->nbufs) {
            g->why[k] = PP_FW_NO_ENGINE;
            continue;
        }
        if (bytes == 0) { /* nothing to transfer: nothing to allow */
            g->why[k] = PP_FW_OPEN;
            continue;
        }
        if ((g->why[k] = pp_fw_vouch(fw, a, bytes)) != PP_FW_OPEN)
            continue;
        for (i = 0; i < fw->count && ((fw->busy >> i) & 1u) != 0u; i++)
            ;
        if (i == fw->count) { /* every own entry holds a range of a call under way */
            pp_fw_close(rt, g);
            return PP_ENOSLOT;
        }
        fw->busy |= (uint64_t)1u << i;
        g->entry[g->n++] = (uint8_t)(fw->first + i);
        attr = a->write ? PP_FW_ATTR_WRITE : PP_FW_ATTR_READ;
        attr |= fw->engines <= 1u ? PP_FW_ATTR_ANY : ((uint32_t)(g->slot->first_engine + k) << 8);
        /* rounded out to the engines' beats: an engine reads and writes whole words (with
         * strobes: it never writes a byte outside the buffer), and the firewall checks every
         * byte a burst may touch from its address aligned down */
        w[0] = a->phys & ~(PP_FW_BEAT_BYTES - 1u);
        w[1] = (uint32_t)((((uint64_t)a->phys + bytes + PP_FW_BEAT_BYTES - 1u) & ~(uint64_t)(PP_FW_BEAT_BYTES - 1u)) - 1u);
        w[2] = attr;
        /* one write of the three words, ATTR last (pp_platform.write: the last word visible
         * last): three stores on the board, one request on the simulated board */
        r = rt->plat.write(rt->plat.ctx, fw->base + PP_FW_ENTRY0 + 16u * g->entry[g->n - 1u], w, 3u);
        if (r != PP_OK) {
            pp_fw_close(rt, g);
            return r;
        }
    }
    return PP_OK;
}

/* After the call (r: its result): the ranges closed; a failed buffer transfer that the
 * firewall refused (its latch names one of the call's engines) becomes PP_EFIREWALL. */
static int pp_fw_done(pp_rt *rt, pp_fw_grant *g, int r)
{
    pp_fw *fw = rt->fw;
    pp_fw_refusal *x = &fw->refusal;
    uint32_t info = 0, addr = 0;
    unsigned engine = 0, k;
    pp_fw_close(rt, g);
    if (r != PP_EBUFFER || g->slot == NULL)
        return r;
    if (pp_fw_load(rt, PP_FW_BAD_INFO, &info) != PP_OK || (info >> 31) == 0u)
        return r;
    if (fw->engines > 1u)
        engine = ((info & 0xFFFFu) >> fw->tag_lsb) & ((1u << fw->tag_bits) - 1u);
    if (engine < g->slot->first_engine || engine >= (unsigned)g->slot->first_engine + g->slot->nbufs)
        return r; /* another engine's: another runtime's call */
    if (pp_fw_load(rt, PP_FW_BAD_ADDR, &addr) != PP_OK)
        return r;
    (void)pp_fw_store(rt, PP_FW_BAD_INFO, 0x80000000u); /* the next refusal is latched */
    x->addr = addr;
    x->bytes = (((info >> 17) & 0xFFu) + 1u) << ((info >> 25) & 7u);
    x->write = (int)((info >> 30) & 1u);
    x->engine = engine;
    x->call = g->call;
    x->target = g->target;
    k = engine - g->slot->first_engine;
    x->param = k < g->nbufs ? (int)k : -1;
    x->why = k < g->nbufs ? g->why[k] : PP_FW_NOT_AN_ARG;
    x->lo = x->hi = 0;
    if (k < g->nbufs && x->why == PP_FW_OPEN) {
        x->lo = g->bufs[k].phys;
        x->hi = g->bufs[k].phys + g->bufs[k].len * g->bufs[k].elem_bytes;
    }
    fw->refused = 1;
    rt->last_error = PP_EFIREWALL;
    return PP_EFIREWALL;
}

int pp_fw_call_site(pp_rt *rt, unsigned site, uint32_t cep, const uint32_t *args, uint32_t *result,
                    const pp_fw_arg *bufs, unsigned nbufs)
{
    pp_fw_grant g;
    int r;
    if (rt->fw == NULL)
        return pp_call_site(rt, site, args, result);
    if ((r = pp_fw_open(rt, cep, bufs, nbufs, &g)) != PP_OK) {
        rt->last_error = r;
        rt->last_error_addr = cep;
        return r;
    }
    return pp_fw_done(rt, &g, pp_call_site(rt, site, args, result));
}

int pp_fw_call_fn(pp_rt *rt, pp_fn f, const uint32_t *args, unsigned arg_words, uint32_t *result,
                  unsigned result_words, const pp_fw_arg *bufs, unsigned nbufs)
{
    pp_fw_grant g;
    int r;
    if (rt->fw == NULL)
        return pp_call_fn(rt, f, args, arg_words, result, result_words);
    if ((r = pp_fw_open(rt, f.addr, bufs, nbufs, &g)) != PP_OK) {
        rt->last_error = r;
        rt->last_error_addr = f.addr;
        return r;
    }
    return pp_fw_done(rt, &g, pp_call_fn(rt, f, args, arg_words, result, result_words));
}
