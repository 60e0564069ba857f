"""Bench of cores/trace (pp_trace): the PL trace buffer.

One lock-step cocotb loop (decisions at each falling edge, a model of README.md updated
with the handshakes of each cycle) drives at random:

- NP watched write ports: AW handshakes (INCR and FIXED bursts of 1..4 beats, at addresses
  around the match addresses; at most two bursts whose AW was taken before their last
  beat, as the core documents), W beats with random strobes and gaps, sometimes in the AW's
  own cycle; the pulse events ``ev`` at random, bursts of them included;
- the register slave, with random valid/ready back-pressure on every channel, as software
  drains it: enable on, read the write pointer, read the records between the read pointer
  and it (single beats and INCR bursts, 32- and 64-bit), write the read pointer; now and
  then disable, clear, or let the ring fill up.

It checks: every record read equals the model's (timestamp = the cycle counter, mask = the
events of that cycle: address matches and pulses), in order, across wrap-arounds of the
ring; the write pointer and the overflow counter equal the model at the read (records
written only while enabled and not full; every record refused by a full ring counted); the
info word; the cycle counter; R carries the request's ID and the right ``rlast``.

Parameter sets: depths 16..1024, 1..4 ports, 32/64-bit data on both sides, matches only,
pulses only, 64 events. Icarus, the first set on Verilator too.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge
except ImportError:  # collected by pytest outside a simulator
    cocotb = None

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "trace" / "pp_trace.v"]

CONFIGS = [
    dict(DEPTH_LOG2=4, NP=2, NM=3, NE=2, DATA_WIDTH=32, MON_DATA_WIDTH=32, seed=1, p=0.5),
    dict(DEPTH_LOG2=5, NP=1, NM=2, NE=0, DATA_WIDTH=64, MON_DATA_WIDTH=32, seed=2, p=0.3),
    dict(DEPTH_LOG2=4, NP=3, NM=5, NE=3, DATA_WIDTH=32, MON_DATA_WIDTH=64, seed=3, p=0.8),
    dict(DEPTH_LOG2=10, NP=1, NM=0, NE=6, DATA_WIDTH=64, MON_DATA_WIDTH=64, seed=4, p=0.5),
    dict(DEPTH_LOG2=6, NP=4, NM=40, NE=24, DATA_WIDTH=32, MON_DATA_WIDTH=32, seed=5, p=0.6),
]


def _matches(cfg: dict) -> list[tuple[int, int]]:
    """(word address, port) of each match: words in a 64-byte region per port."""
    rnd = random.Random(cfg["seed"] * 7)
    return [(0x4000_0000 + 0x1000 * (k % cfg["NP"]) + 4 * rnd.randrange(16), k % cfg["NP"])
            for k in range(cfg["NM"])]


def _hdl_params(cfg: dict) -> dict:
    nm = max(cfg["NM"], 1)
    addr = port = 0
    for k, (a, p) in enumerate(_matches(cfg)):
        addr |= a << (32 * k)
        port |= p << (8 * k)
    out = {k: cfg[k] for k in ("DEPTH_LOG2", "NP", "NM", "NE", "DATA_WIDTH", "MON_DATA_WIDTH")}
    out["MATCH_ADDR"] = f"{32 * nm}'h{addr:0{8 * nm}X}"
    out["MATCH_PORT"] = f"{8 * nm}'h{port:0{2 * nm}X}"
    return out


if cocotb is not None:

    def _u(sig) -> int:
        return int(sig.value)

    class _Port:
        """A watched write port's driver and its model of beat addresses."""

        def __init__(self, i: int, cfg: dict, rnd: random.Random) -> None:
            self.i, self.rnd = i, rnd
            self.mbb = cfg["MON_DATA_WIDTH"] // 8
            self.queue: list[list] = []     # [address, fixed, beats left] AW taken
            self.pending_aw = None          # [address, burst, beats] being offered
            self.w_on = False
            self.w_strb = 0

    @cocotb.test()
    async def trace_buffer(dut):
        cfg = json.loads(os.environ["TRACE_CFG"])
        rnd = random.Random(cfg["seed"])
        p_bp = cfg["p"]
        np_, nm, ne = cfg["NP"], cfg["NM"], cfg["NE"]
        dw, mdw = cfg["DATA_WIDTH"], cfg["MON_DATA_WIDTH"]
        bb, mbb = dw // 8, mdw // 8
        depth = 1 << cfg["DEPTH_LOG2"]
        ring_bytes = max(256, 16 * depth)
        matches = _matches(cfg)

        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        for n in ("mon_awaddr", "mon_awburst", "mon_awvalid", "mon_awready", "mon_wstrb",
                  "mon_wlast", "mon_wvalid", "mon_wready", "ev", "s_axi_awvalid", "s_axi_wvalid",
                  "s_axi_bready", "s_axi_arvalid", "s_axi_rready", "s_axi_awid", "s_axi_awaddr",
                  "s_axi_awlen", "s_axi_awsize", "s_axi_awburst", "s_axi_awlock",
                  "s_axi_awcache", "s_axi_awprot", "s_axi_wdata", "s_axi_wstrb", "s_axi_wlast",
                  "s_axi_arid", "s_axi_araddr", "s_axi_arlen", "s_axi_arsize", "s_axi_arburst",
                  "s_axi_arlock", "s_axi_arcache", "s_axi_arprot"):
            getattr(dut, n).value = 0
        dut.rst.value = 1
        for _ in range(3):
            await FallingEdge(dut.clk)
        dut.rst.value = 0

        ports = [_Port(i, cfg, rnd) for i in range(np_)]
        # the model
        m = dict(en=0, wp=0, rp=0, ovf=0, cyc=1)   # the loop starts one cycle after reset
        records: list[tuple[int, int]] = []     # every record written since the last clear
        hist: list[dict] = []                   # register values per cycle (reads check)
        # the software side: a list of operations the slave master performs in order
        ops: list[tuple] = []
        cur = None                              # the operation under way
        reads_done: list[tuple] = []
        sw = dict(rp=0, expect=0, checked=0, lost=0)
        phase = 0
        n_cycles = 6000 if depth <= 64 else 12000
        ev_burst = 0

        def addr_for(port: int) -> int:
            cands = [a for a, p in matches if p == port]
            if cands and rnd.random() < 0.7:
                a = rnd.choice(cands) - 4 * rnd.randrange(3)
            else:
                a = 0x4000_0000 + 0x1000 * port + 4 * rnd.randrange(20)
            return a - a % 4

        def plan() -> None:
            """The next drain step of software."""
            nonlocal phase
            phase += 1
            r = rnd.random()
            if phase == 1 or r < 0.03:
                ops.append(("w", 0x0, 1))                       # enable
            elif r < 0.05:
                ops.append(("w", 0x0, 3))                       # clear (stays enabled)
            elif r < 0.07:
                ops.append(("w", 0x0, 0))                       # disable
            elif r < 0.09:
                ops.append(("r", 0x4, 1, "info"))
                ops.append(("r", 0x18, 1, "cyc"))
            elif r < 0.15:
                ops.append(("idle", rnd.randrange(20, 40 * depth)))   # let it fill up
            ops.append(("r", 0x8, 1, "wp"))
            ops.append(("r", 0x10, 1, "ovf"))
            ops.append(("drain",))

        def start_op():
            nonlocal cur
            if not ops:
                plan()
            op = ops.pop(0)
            if op[0] == "drain":
                # the records [sw.rp, wp seen) - at most 8 per step, in bursts
                n = min(sw["expect"] - sw["rp"], rnd.randrange(1, 9))
                if n <= 0:
                    return start_op()
                for k in range(n):
                    ops.insert(k, ("rec", sw["rp"] + k))
                ops.insert(n, ("w", 0xC, sw["rp"] + n))
                return start_op()
            if op[0] == "rec":
                i = op[1]
                base = ring_bytes + 16 * (i % depth)
                if rnd.random() < 0.5:
                    cur = dict(kind="r", addr=base, beats=16 // bb, what=("rec", i),
                               id=rnd.randrange(1 << 4), got=[])
                else:   # word by word, FIXED bursts of one beat
                    for w in range(16 // bb - 1, 0, -1):
                        ops.insert(0, ("rp1", base + bb * w, i, w))
                    cur = dict(kind="r", addr=base, beats=1, what=("rec1", i, 0),
                               id=rnd.randrange(1 << 4), got=[])
                return
            if op[0] == "rp1":
                cur = dict(kind="r", addr=op[1], beats=1, what=("rec1", op[2], op[3]),
                           id=rnd.randrange(1 << 4), got=[])
                return
            if op[0] == "idle":
                cur = dict(kind="idle", left=op[1])
                return
            if op[0] == "w":
                cur = dict(kind="w", addr=op[1], data=op[2], id=rnd.randrange(1 << 4),
                           aw=False, w=False)
                return
            cur = dict(kind="r", addr=op[1], beats=op[2], what=(op[3],),
                       id=rnd.randrange(1 << 4), got=[])

        rec_words: dict[int, list[int]] = {}

        def check_read(c: dict, t_ar: int, t_r: int) -> None:
            what = c["what"]
            words = []
            for d in c["got"]:
                for lane in range(bb // 4):
                    words.append((d >> (32 * lane)) & 0xFFFF_FFFF)
            lane0 = (c["addr"] % bb) // 4 if bb == 8 else 0
            if what[0] in ("wp", "ovf", "cyc", "info"):
                v = words[lane0]
                if what[0] == "info":
                    assert v == (0x7071 << 16) | ((nm + ne) << 8) | cfg["DEPTH_LOG2"], hex(v)
                    return
                if what[0] == "cyc":
                    lo = [h["cyc"] & 0xFFFF_FFFF for h in hist[t_ar:t_r + 1]]
                    assert v in lo, (v, lo[:3])
                    return
                vals = [h[what[0]] for h in hist[t_ar:t_r + 1]]
                assert v in vals, f"{what[0]} read {v}, model {vals[0]}..{vals[-1]}"
                if what[0] == "wp":
                    sw["expect"] = v
                    if sw["rp"] > v:     # a clear happened
                        sw["rp"] = 0
                if what[0] == "ovf":
                    sw["ovf"] = v
                return
            i = what[1]
            if what[0] == "rec":
                rec_words[i] = words[:4]
            else:
                w = what[2]
                rec_words.setdefault(i, [None] * 4)
                for k in range(bb // 4):
                    rec_words[i][w * (bb // 4) + k] = words[k]
            got = rec_words[i]
            if None in got:
                return
            del rec_words[i]
            ts = got[0] | (got[1] << 32)
            mask = got[2] | (got[3] << 32)
            assert i < len(records), f"record {i} read, only {len(records)} written"
            exp_ts, exp_mask = records[i]
            assert (ts, mask) == (exp_ts, exp_mask), \
                f"record {i}: read ts {ts} mask {mask:#x}, model ts {exp_ts} mask {exp_mask:#x}"
            sw["checked"] += 1

        t = 0
        t_ar = 0
        ar_on = aw_on = w_on = False
        r_ready = b_ready = False
        while t < n_cycles or cur is not None:
            await FallingEdge(dut.clk)
            # ---- the slave master's drives for this cycle
            awready, wready, bvalid = _u(dut.s_axi_awready), _u(dut.s_axi_wready), _u(dut.s_axi_bvalid)
            arready, rvalid = _u(dut.s_axi_arready), _u(dut.s_axi_rvalid)
            if cur is None and t < n_cycles:
                start_op()
            if cur is not None and cur["kind"] == "idle":
                cur["left"] -= 1
                if cur["left"] <= 0:
                    cur = None
            ar_on = aw_on = w_on = False
            if cur is not None and cur["kind"] == "r" and not cur.get("ar"):
                ar_on = rnd.random() >= p_bp / 2
            if cur is not None and cur["kind"] == "w":
                aw_on = not cur["aw"] and rnd.random() >= p_bp / 2
                w_on = not cur["w"] and rnd.random() >= p_bp / 2
            r_ready = rnd.random() >= p_bp / 2
            b_ready = rnd.random() >= p_bp / 2
            if ar_on:
                dut.s_axi_arvalid.value = 1
                dut.s_axi_araddr.value = cur["addr"]
                dut.s_axi_arlen.value = cur["beats"] - 1
                dut.s_axi_arburst.value = 1 if cur["beats"] > 1 else rnd.choice((0, 1))
                dut.s_axi_arid.value = cur["id"]
                dut.s_axi_arsize.value = 3 if bb == 8 else 2
            else:
                dut.s_axi_arvalid.value = 0
            dut.s_axi_awvalid.value = int(aw_on)
            dut.s_axi_wvalid.value = int(w_on)
            if aw_on:
                dut.s_axi_awaddr.value = cur["addr"]
                dut.s_axi_awlen.value = 0
                dut.s_axi_awburst.value = 1
                dut.s_axi_awid.value = cur["id"]
            if w_on:
                lane = (cur["addr"] % bb) // 4
                dut.s_axi_wdata.value = (cur["data"] << (32 * lane)) | (
                    rnd.getrandbits(32) << (32 * (1 - lane)) if bb == 8 else 0)
                dut.s_axi_wstrb.value = 0xF << (4 * lane)
                dut.s_axi_wlast.value = 1
            dut.s_axi_rready.value = int(r_ready)
            dut.s_axi_bready.value = int(b_ready)

            # ---- the watched ports and pulses
            mask = 0
            for p in ports:
                aw_hs = False
                if p.pending_aw is None and len(p.queue) < 2 and rnd.random() < 0.3:
                    burst = rnd.choice((0, 1, 1))
                    p.pending_aw = [addr_for(p.i), burst, rnd.randrange(1, 5)]
                if p.pending_aw is not None and len(p.queue) < 2:
                    aw_valid = rnd.random() < 0.7
                    aw_ready = rnd.random() >= p_bp
                    aw_hs = aw_valid and aw_ready
                else:
                    aw_valid = aw_ready = False
                a = p.pending_aw
                # a W beat: of the head burst, or of this cycle's AW when none is queued
                head = p.queue[0] if p.queue else ([a[0], a[1] == 0, a[2]] if aw_hs else None)
                w_valid = head is not None and rnd.random() < 0.7
                w_ready = rnd.random() >= p_bp
                w_hs = w_valid and w_ready
                strb = rnd.choice((0, (1 << mbb) - 1, (1 << mbb) - 1, rnd.randrange(1 << mbb)))
                last = head is not None and head[2] == 1
                sh = p.i
                aw_bits = dict(mon_awaddr=(a[0] if a else 0, 32), mon_awburst=(a[1] if a else 0, 2),
                               mon_awvalid=(int(aw_valid), 1), mon_awready=(int(aw_ready), 1),
                               mon_wstrb=(strb, mbb), mon_wlast=(int(last), 1),
                               mon_wvalid=(int(w_valid), 1), mon_wready=(int(w_ready), 1))
                p.drive = aw_bits
                if aw_hs:
                    entry = [a[0], a[1] == 0, a[2]]
                    if p.queue:
                        p.queue.append(entry)
                    else:
                        p.queue.append(entry)
                    p.pending_aw = None
                if w_hs:
                    h = p.queue[0]
                    beat = h[0] - h[0] % mbb
                    for k, (ma, mp) in enumerate(matches):
                        if mp == p.i and ma - ma % mbb == beat:
                            lane = (ma % mbb) // 4
                            if (strb >> (4 * lane)) & 0xF:
                                mask |= 1 << k
                    h[2] -= 1
                    if not h[1]:
                        h[0] = beat + mbb
                    if h[2] == 0:
                        p.queue.pop(0)
            for name in ("mon_awaddr", "mon_awburst", "mon_awvalid", "mon_awready", "mon_wstrb",
                         "mon_wlast", "mon_wvalid", "mon_wready"):
                v = 0
                for p in ports:
                    val, w = p.drive[name]
                    v |= val << (w * p.i)
                getattr(dut, name).value = v
            if ne:
                if ev_burst == 0 and rnd.random() < 0.01:
                    ev_burst = rnd.randrange(1, 3 * depth)
                if ev_burst:
                    ev_burst -= 1
                    ev = rnd.getrandbits(ne) | 1
                else:
                    ev = rnd.getrandbits(ne) if rnd.random() < 0.15 else 0
                dut.ev.value = ev
                mask |= ev << nm
            if t >= n_cycles:
                mask = 0
                for n in ("mon_awvalid", "mon_wvalid", "ev"):
                    getattr(dut, n).value = 0

            # ---- the model: this cycle's register slave handshakes, then the ring
            hist.append(dict(m))
            clear = False
            rp_w = None
            en_w = None
            if cur is not None and cur["kind"] == "w":
                if aw_on and awready:
                    cur["aw"] = True
                if w_on and wready:
                    cur["w"] = True
                    if cur["addr"] == 0x0:
                        en_w = cur["data"] & 1
                        clear = bool(cur["data"] & 2)
                    elif cur["addr"] == 0xC:
                        rp_w = cur["data"]
                if cur["w"] and bvalid and b_ready:
                    assert _u(dut.s_axi_bid) == cur["id"]
                    cur = None
            if cur is not None and cur["kind"] == "r":
                if ar_on and arready:
                    cur["ar"] = True
                    t_ar = t
                elif cur.get("ar") and rvalid and r_ready:
                    assert _u(dut.s_axi_rid) == cur["id"]
                    cur["got"].append(_u(dut.s_axi_rdata))
                    assert _u(dut.s_axi_rlast) == int(len(cur["got"]) == cur["beats"])
                    if len(cur["got"]) == cur["beats"]:
                        check_read(cur, t_ar, t)
                        cur = None
            any_ev = mask != 0
            full = m["wp"] - m["rp"] >= depth
            if any_ev and m["en"] and not full and not clear:
                records.append((m["cyc"], mask))
                m["wp"] += 1
            if any_ev and m["en"] and full and not clear:
                m["ovf"] += 1
            if en_w is not None:
                m["en"] = en_w
            if clear:
                m["wp"] = m["rp"] = m["ovf"] = 0
                records.clear()
                sw["rp"] = sw["expect"] = 0
                rec_words.clear()
            if rp_w is not None:
                m["rp"] = rp_w
                sw["rp"] = rp_w
            m["cyc"] += 1
            t += 1
        assert sw["checked"] > 50, f"only {sw['checked']} records checked"
        dut._log.info("records checked %d, written %d, overflow %d",
                      sw["checked"], len(records), m["ovf"])
        assert m["ovf"] > 0, "the bench never filled the ring"


def _matrix():
    from pushpush.testing import sim_matrix

    return sim_matrix([{"cfg": i} for i in range(len(CONFIGS))], verilator_sets=1)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_trace_buffer(simulator, params):
    from pushpush.build.sim import run_cocotb

    cfg = CONFIGS[params["cfg"]]
    run_cocotb(toplevel="pp_trace", sources=SOURCES, test_module="test_trace_buffer",
               test_dir=Path(__file__).parent, parameters=_hdl_params(cfg), simulator=simulator,
               extra_env={"TRACE_CFG": json.dumps(cfg)})
