"""cocotb tests of cores/endpoint_mem (pp_endpoint_mem), driven from pytest.

The bench runs on cores/endpoint_mem/tb/pp_endpoint_mem_tb.v, which shows the whole window on `window`
as the owner sees it (trigger words from `trig_word`, every other word through a read port of
its own) and adds a probe read port whose address the monitor changes every cycle.

A cycle-level monitor samples every AXI handshake, `rearm`, `trig_pulse`, `trig_pending`,
the collision outputs, `window` and the probe in the ReadOnly phase of every clock cycle and
feeds them
to a reference model of the contract in cores/endpoint_mem/README.md. The model predicts, for
the same cycle, `trig_pulse`, and for the following cycles `window`, `trig_pending`,
`collisions`, `collision_flag`, and the B response (id and OKAY/SLVERR) of every burst; any
difference fails the test. Directed tests add hand-computed expectations on top.

The slot table and the window geometry come in the EPM_CFG environment variable (JSON), set by
the pytest wrapper at the bottom, which also turns it into the Verilog parameters. Without
EPM_CFG (the ``cocotb`` target of endpoint_mem.core, run through FuseSoC) the bench reads them
from the DUT's parameters.
"""

from __future__ import annotations

import json
import logging
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge
from cocotbext.axi import AxiBus, AxiBurstType, AxiMaster, AxiResp

OKAY = 0
SLVERR = 2
MASK32 = 0xFFFF_FFFF


def load_cfg(dut):
    """EPM_CFG (set by the pytest side), else the DUT's own parameters: the ``cocotb`` target
    of endpoint_mem.core, run through FuseSoC (``python -m pushpush.build.cocotb_fusesoc
    endpoint_mem``), passes the slot table as Verilog parameters only."""
    if "EPM_CFG" in os.environ:
        return json.loads(os.environ["EPM_CFG"])
    n = int(dut.NUM_SLOTS.value)
    first, trig = int(dut.SLOT_FIRST.value), int(dut.SLOT_TRIG.value)
    slots = [((first >> (16 * i)) & 0xFFFF, (trig >> (16 * i)) & 0xFFFF) for i in range(n)]
    cfg = dict(data_width=int(dut.DATA_WIDTH.value), addr_width=int(dut.ADDR_WIDTH.value),
               words=int(dut.WORDS.value), slots=slots, enable_read=int(dut.ENABLE_READ.value))
    dut._log.info("configuration from the DUT's parameters: %s", json.dumps(cfg))
    return cfg


# ---------------------------------------------------------------------------------------------
# reference model
# ---------------------------------------------------------------------------------------------


class Ctx:
    """The write burst in progress."""

    def __init__(self, awid, addr, length, size, burst, max_size):
        self.id = awid
        self.addr = addr
        self.cnt = length
        self.size = size
        self.bad = burst != 1 or size > max_size
        self.ovf = False
        self.err = self.bad
        self.coll = False


class Model:
    def __init__(self, cfg, data_width):
        self.slots = [tuple(s) for s in cfg["slots"]]
        self.words_n = cfg["words"]
        self.addr_width = cfg["addr_width"]
        self.enable_read = cfg["enable_read"]
        self.dw = data_width
        self.nw = data_width // 32
        self.max_size = (data_width // 8).bit_length() - 1
        self.slot_of = {}
        for i, (first, trig) in enumerate(self.slots):
            for w in range(first, trig + 1):
                self.slot_of[w] = i
        self.reset()

    def reset(self, stored=None):
        """`rst`: trigger words, pending bits, counters and bursts clear; the argument/result
        words (distributed RAM, no reset) keep their values: `stored` (word -> value), or 0
        as after configuration."""
        trigs = {trig for _first, trig in self.slots}
        self.words = [stored[k] if stored is not None and k in self.slot_of and k not in trigs
                      else 0 for k in range(self.words_n)]
        self.pend = [0] * len(self.slots)
        self.collisions = 0
        self.flag = 0
        self.ctx = None
        self.bq = []  # expected (bid, bresp) in order

    def pending_vec(self):
        return sum(p << i for i, p in enumerate(self.pend))

    def step(self, s):
        """Advance one clock cycle given the sampled handshakes `s`; returns the expected
        trig_pulse vector of this cycle and the (bid, bresp) pushed, if any."""
        rearm = s["rearm"]
        ctx = self.ctx
        if s["aw"] is not None:
            assert ctx is None, "AW accepted during a burst"
            awid, addr, length, size, burst = s["aw"]
            ctx = Ctx(awid, addr, length, size, burst, self.max_size)
        trig_next = {}
        for i, (_first, trig) in enumerate(self.slots):
            trig_next[i] = 0 if (rearm >> i) & 1 else self.words[trig]
        pulse = 0
        pushed = None
        if s["w"] is not None:
            assert ctx is not None, "W accepted without an address"
            wdata, wstrb = s["w"]
            word0 = (ctx.addr >> 2) & ~(self.nw - 1)
            reject = False
            coll = False
            lanes = []
            for j in range(self.nw):
                strb = (wstrb >> (4 * j)) & 0xF
                if not strb:
                    continue
                w = word0 + j
                slot = self.slot_of.get(w)
                if ctx.bad or ctx.ovf or w >= self.words_n or slot is None:
                    reject = True
                    continue
                if self.pend[slot] and not (rearm >> slot) & 1:
                    coll = True
                    reject = True
                lanes.append((w, slot, strb, (wdata >> (32 * j)) & MASK32))
            if not reject:
                for w, slot, strb, d in lanes:
                    trig = self.slots[slot][1]
                    old = trig_next[slot] if w == trig else self.words[w]
                    new = merge(old, d, strb)
                    if w == trig:
                        trig_next[slot] = new
                        if new:
                            pulse |= 1 << slot
                    else:
                        self.words[w] = new
            if coll and not ctx.coll:
                self.collisions = min(self.collisions + 1, MASK32)
                self.flag = 1
            ctx.coll = ctx.coll or coll
            ctx.err = ctx.err or reject
            ctx.addr += 1 << ctx.size
            if ctx.addr >= 1 << self.addr_width:
                ctx.ovf = True
                ctx.addr &= (1 << self.addr_width) - 1
            if ctx.cnt == 0:
                pushed = (ctx.id, SLVERR if ctx.err else OKAY)
                self.bq.append(pushed)
                ctx = None
            else:
                ctx.cnt -= 1
        for i, (_first, trig) in enumerate(self.slots):
            self.words[trig] = trig_next[i]
            self.pend[i] = 1 if trig_next[i] else 0
        self.ctx = ctx
        return pulse, pushed

    def window_int(self):
        return sum(w << (32 * k) for k, w in enumerate(self.words))


def merge(old, d, strb):
    for b in range(4):
        if (strb >> b) & 1:
            old = (old & ~(0xFF << (8 * b))) | (d & (0xFF << (8 * b)))
    return old


# ---------------------------------------------------------------------------------------------
# testbench
# ---------------------------------------------------------------------------------------------


def u(sig):
    return int(sig.value)


class TB:
    def __init__(self, dut, use_master=True):
        self.dut = dut
        self.cfg = load_cfg(dut)
        self.dw = len(dut.s_axi_wdata)
        self.nslots = len(self.cfg["slots"])
        self.model = Model(self.cfg, self.dw)
        self.cycle = 0
        self.w_cycles = []  # cycles of accepted W beats
        self.aw_cycles = []
        self.b_cycles = []
        self.pulses = []  # (cycle, slot) seen on trig_pulse
        self.check_window = "every"  # or "sparse" for big windows
        self.errors = []
        self.probe_rng = random.Random(int(os.environ.get("EPM_SEED", "1")) * 7 + 3)
        self.trig_words = {trig for _first, trig in self.cfg["slots"]}
        self.probes = 0
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rearm.value = 0
        dut.probe_addr.value = 0
        self.axi = None
        if use_master:
            self.axi = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
            for top in ("pp_endpoint_mem", "pp_endpoint_mem_tb"):
                logging.getLogger(f"cocotb.{top}.s_axi").setLevel(logging.WARNING)
        else:
            for name in ("awvalid", "wvalid", "arvalid"):
                getattr(dut, "s_axi_" + name).value = 0
            for name in ("bready", "rready"):
                getattr(dut, "s_axi_" + name).value = 1
            for name, val in (("awid", 0), ("awaddr", 0), ("awlen", 0), ("awsize", 2 if self.dw == 32 else 3),
                              ("awburst", 1), ("awlock", 0), ("awcache", 3), ("awprot", 0),
                              ("wdata", 0), ("wstrb", 0), ("wlast", 0), ("arid", 0), ("araddr", 0),
                              ("arlen", 0), ("arsize", 2), ("arburst", 1), ("arlock", 0),
                              ("arcache", 3), ("arprot", 0)):
                getattr(dut, "s_axi_" + name).value = val
        self.big = self.cfg["words"] > 128

    def set_pauses(self, seed):
        rng = random.Random(seed)

        def gen(p):
            while True:
                yield rng.random() < p

        w = self.axi.write_if
        r = self.axi.read_if
        w.aw_channel.set_pause_generator(gen(0.3))
        w.w_channel.set_pause_generator(gen(0.3))
        w.b_channel.set_pause_generator(gen(0.4))
        r.ar_channel.set_pause_generator(gen(0.3))
        r.r_channel.set_pause_generator(gen(0.4))

    def clear_pauses(self):
        for ch in (self.axi.write_if.aw_channel, self.axi.write_if.w_channel,
                   self.axi.write_if.b_channel, self.axi.read_if.ar_channel,
                   self.axi.read_if.r_channel):
            ch.clear_pause_generator()

    async def reset(self):
        dut = self.dut
        dut.counters.value = COUNTERS_IN
        dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        await RisingEdge(dut.clk)
        # argument/result words survive rst (earlier tests of this simulation wrote them):
        # the model starts from what the window holds; trigger words must read 0
        await ReadOnly()
        win = u(dut.window)
        self.model.reset({k: (win >> (32 * k)) & MASK32 for k in range(self.model.words_n)})
        self.check_state("after reset", window=True)
        cocotb.start_soon(self._monitor())
        await RisingEdge(dut.clk)

    def fail(self, msg):
        self.errors.append(msg)
        raise AssertionError(msg)

    def check_state(self, when, window):
        dut = self.dut
        m = self.model
        if u(dut.trig_pending) != m.pending_vec():
            self.fail(f"{when}: trig_pending {u(dut.trig_pending):#x} != {m.pending_vec():#x}")
        if u(dut.collisions) != m.collisions:
            self.fail(f"{when}: collisions {u(dut.collisions)} != {m.collisions}")
        if u(dut.collision_flag) != m.flag:
            self.fail(f"{when}: collision_flag {u(dut.collision_flag)} != {m.flag}")
        # every slot's trigger word, read from the memory under trig_bytes, is trig_word
        # (pp_export's TRIG_MEM = 1 reads it so)
        ok = u(dut.trig_mem_ok)
        if ok != (1 << len(m.slots)) - 1:
            self.fail(f"{when}: trigger word in memory under trig_bytes differs from trig_word "
                      f"(trig_mem_ok {ok:#x})")
        if window:
            got = u(dut.window)
            exp = m.window_int()
            if got != exp:
                diff = [k for k in range(m.words_n)
                        if (got >> (32 * k)) & MASK32 != m.words[k]]
                self.fail(f"{when}: window differs at words {diff[:8]}: "
                          f"got {[hex((got >> (32 * k)) & MASK32) for k in diff[:8]]} "
                          f"exp {[hex(m.words[k]) for k in diff[:8]]}")

    async def _monitor(self):
        dut = self.dut
        changed = True
        words = self.cfg["words"]
        while True:
            await RisingEdge(dut.clk)
            # a new probe address every cycle (argument/result and gap words: a read port
            # at a trigger word's offset is not the trigger word)
            probe = self.probe_rng.randrange(words)
            dut.probe_addr.value = probe
            await ReadOnly()
            self.cycle += 1
            c = self.cycle
            pulse = u(dut.trig_pulse)
            # outputs registered at the last edge must match the model's current state
            self.check_state(f"cycle {c}", window=changed or (pulse != 0 and not self.big))
            if u(dut.rst):
                # (only test_reset_keeps_args resets while the monitor runs, with the bus idle)
                self.model.reset(dict(enumerate(self.model.words)))
                changed = True
                continue
            if probe not in self.trig_words:
                self.probes += 1
                if u(dut.probe_data) != self.model.words[probe]:
                    self.fail(f"cycle {c}: read port at word {probe}: {u(dut.probe_data):#x} "
                              f"!= {self.model.words[probe]:#x}")
            s = {"rearm": u(dut.rearm), "aw": None, "w": None}
            if u(dut.s_axi_awvalid) and u(dut.s_axi_awready):
                s["aw"] = (u(dut.s_axi_awid), u(dut.s_axi_awaddr), u(dut.s_axi_awlen),
                           u(dut.s_axi_awsize), u(dut.s_axi_awburst))
                self.aw_cycles.append(c)
            if u(dut.s_axi_wvalid) and u(dut.s_axi_wready):
                s["w"] = (u(dut.s_axi_wdata), u(dut.s_axi_wstrb))
                self.w_cycles.append(c)
            if u(dut.s_axi_bvalid) and u(dut.s_axi_bready):
                self.b_cycles.append(c)
                if not self.model.bq:
                    self.fail(f"cycle {c}: B response without a finished burst")
                exp = self.model.bq.pop(0)
                got = (u(dut.s_axi_bid), u(dut.s_axi_bresp))
                if got != exp:
                    self.fail(f"cycle {c}: B (id, resp) {got} != expected {exp}")
            exp_pulse, _ = self.model.step(s)
            if pulse != exp_pulse:
                self.fail(f"cycle {c}: trig_pulse {pulse:#x} != expected {exp_pulse:#x}")
            for i in range(self.nslots):
                if (pulse >> i) & 1:
                    self.pulses.append((c, i))
            big_change = s["w"] is not None or s["rearm"] != 0
            changed = big_change if not self.big else (s["w"] is not None and self.model.ctx is None)

    async def cycles(self, n):
        for _ in range(n):
            await RisingEdge(self.dut.clk)

    async def rearm(self, slot):
        await RisingEdge(self.dut.clk)
        self.dut.rearm.value = 1 << slot
        await RisingEdge(self.dut.clk)
        self.dut.rearm.value = 0

    async def settle(self):
        await self.axi.wait()
        await self.cycles(3)

    async def final_check(self):
        await self.cycles(2)
        await ReadOnly()
        self.check_state("final", window=True)
        assert not self.model.bq, f"B responses never seen: {self.model.bq}"
        assert not self.errors, self.errors
        await RisingEdge(self.dut.clk)

    def slot_addr(self, i):
        return 4 * self.cfg["slots"][i][0]

    def window_word(self, k):
        return (u(self.dut.window) >> (32 * k)) & MASK32


def words_bytes(words):
    return b"".join((w & MASK32).to_bytes(4, "little") for w in words)


def rand_trigger(rng):
    return rng.randrange(1, 1 << 32)


def gaps(cfg, limit):
    """Word offsets < limit that are in no slot."""
    used = set()
    for first, trig in cfg["slots"]:
        used.update(range(first, trig + 1))
    return [w for w in range(limit) if w not in used]


# ---------------------------------------------------------------------------------------------
# directed tests
# ---------------------------------------------------------------------------------------------


@cocotb.test()
async def test_calls_and_rearm(dut):
    """A call into every slot: args visible, one pulse in the trigger beat's cycle, pending
    until rearm, then a second call into the re-armed slot."""
    tb = TB(dut)
    await tb.reset()
    rng = random.Random(1)
    for rnd in range(2):
        for i, (first, trig) in enumerate(tb.cfg["slots"]):
            args = [rng.randrange(1 << 32) for _ in range(trig - first)]
            trigger = rand_trigger(rng)
            start = tb.cycle
            npulse = len(tb.pulses)
            resp = await tb.axi.write(tb.slot_addr(i), words_bytes(args + [trigger]))
            await tb.cycles(2)
            assert resp.resp == AxiResp.OKAY, f"slot {i}: {resp}"
            got = [tb.window_word(k) for k in range(first, trig + 1)]
            assert got == args + [trigger], f"slot {i}: window {got}"
            assert (u(dut.trig_pending) >> i) & 1
            new = tb.pulses[npulse:]
            assert [p[1] for p in new] == [i], f"slot {i}: pulses {new}"
            # the pulse is in the cycle the beat holding the trigger word was accepted:
            # with the trigger last, that is the last W beat of the burst
            beats = [c for c in tb.w_cycles if c > start]
            assert new[0][0] == beats[-1], f"pulse at {new[0][0]}, beats {beats}"
            await tb.rearm(i)
            await tb.cycles(2)
            assert not (u(dut.trig_pending) >> i) & 1
            assert tb.window_word(trig) == 0
            assert [tb.window_word(k) for k in range(first, trig)] == args
    await tb.final_check()


@cocotb.test()
async def test_reset_keeps_args(dut):
    """rst clears trigger words and pending bits; argument/result words (distributed RAM,
    no reset) keep their values; the slots take new calls right after."""
    tb = TB(dut)
    await tb.reset()
    rng = random.Random(5)
    for i, (first, trig) in enumerate(tb.cfg["slots"]):
        args = [rng.randrange(1 << 32) for _ in range(trig - first)]
        resp = await tb.axi.write(4 * first, words_bytes(args + [rand_trigger(rng)]))
        assert resp.resp == AxiResp.OKAY
    await tb.cycles(2)
    await ReadOnly()
    assert u(dut.trig_pending) == (1 << tb.nslots) - 1
    before = [tb.window_word(k) for k in range(tb.cfg["words"])]
    await RisingEdge(dut.clk)
    dut.rst.value = 1
    await tb.cycles(2)
    dut.rst.value = 0
    await tb.cycles(2)
    await ReadOnly()
    assert u(dut.trig_pending) == 0
    trigs = {trig for _first, trig in tb.cfg["slots"]}
    after = [tb.window_word(k) for k in range(tb.cfg["words"])]
    assert after == [0 if k in trigs else w for k, w in enumerate(before)], after
    await RisingEdge(dut.clk)
    first, trig = tb.cfg["slots"][0]
    resp = await tb.axi.write(4 * first, words_bytes([7] * (trig - first) + [0x104]))
    assert resp.resp == AxiResp.OKAY
    await tb.final_check()


@cocotb.test()
async def test_collisions(dut):
    """Writing into a pending slot: SLVERR, counted once per burst, flag, nothing changes."""
    tb = TB(dut)
    await tb.reset()
    rng = random.Random(2)
    expected = 0
    for i, (first, trig) in enumerate(tb.cfg["slots"]):
        args = [rng.randrange(1 << 32) for _ in range(trig - first)]
        trigger = rand_trigger(rng)
        resp = await tb.axi.write(tb.slot_addr(i), words_bytes(args + [trigger]))
        assert resp.resp == AxiResp.OKAY
        before = [tb.window_word(k) for k in range(first, trig + 1)]
        npulse = len(tb.pulses)
        # a whole second call, then a write of 0 to the trigger alone, then one arg byte
        resp = await tb.axi.write(tb.slot_addr(i),
                                  words_bytes([x ^ 0x5A5A5A5A for x in args] + [trigger ^ 1]))
        assert resp.resp == AxiResp.SLVERR
        expected += 1
        resp = await tb.axi.write(4 * trig, words_bytes([0]))
        assert resp.resp == AxiResp.SLVERR
        expected += 1
        if trig > first:
            resp = await tb.axi.write(4 * first + 1, b"\x77")
            assert resp.resp == AxiResp.SLVERR
            expected += 1
        await tb.cycles(2)
        assert u(dut.collisions) == expected
        assert u(dut.collision_flag) == 1
        assert [tb.window_word(k) for k in range(first, trig + 1)] == before
        assert len(tb.pulses) == npulse
        await tb.rearm(i)
        resp = await tb.axi.write(tb.slot_addr(i), words_bytes(args + [trigger]))
        assert resp.resp == AxiResp.OKAY
        await tb.rearm(i)
    await tb.final_check()
    assert u(dut.collision_flag) == 1


@cocotb.test()
async def test_out_of_slot(dut):
    """Writes into gaps, beyond WORDS, and bursts running from a slot into a gap."""
    tb = TB(dut)
    await tb.reset()
    cfg = tb.cfg
    nw = tb.dw // 32
    window_words = 1 << (cfg["addr_width"] - 2)
    targets = gaps(cfg, cfg["words"])[:6] + list(range(cfg["words"], window_words))[:3]
    targets += [window_words - 1]
    before = u(dut.window)
    for w in targets:
        if w in tb.model.slot_of:
            continue
        resp = await tb.axi.write(4 * w, words_bytes([0xDEADBEEF]))
        assert resp.resp == AxiResp.SLVERR, f"word {w}: {resp}"
        resp = await tb.axi.write(4 * w + 3, b"\x01")
        assert resp.resp == AxiResp.SLVERR, f"word {w}: {resp}"
    await tb.cycles(2)
    assert u(dut.window) == before
    assert not tb.pulses
    # slot then gap: the slot's beats land, the gap's do not, the burst answers SLVERR
    for i, (first, trig) in enumerate(cfg["slots"]):
        if trig + 1 < window_words and (trig + 1) not in tb.model.slot_of:
            args = list(range(1, trig - first + 1))
            resp = await tb.axi.write(4 * first, words_bytes(args + [0x100 + i, 0xBAD]))
            assert resp.resp == AxiResp.SLVERR
            await tb.cycles(2)
            if trig % nw == nw - 1:
                # the trigger and the gap word are in different beats: only the gap's is dropped
                assert [tb.window_word(k) for k in range(first, trig + 1)] == args + [0x100 + i]
            # (otherwise the beat holding both is dropped whole; the monitor checks that)
            if (u(dut.trig_pending) >> i) & 1:
                await tb.rearm(i)
    assert u(dut.collisions) == 0
    await tb.final_check()


@cocotb.test()
async def test_partial_strobes(dut):
    """Byte writes merge into words; a trigger written byte by byte pulses on the first
    non-zero byte, a zero byte does not pulse."""
    tb = TB(dut)
    await tb.reset()
    rng = random.Random(4)
    for i, (first, trig) in enumerate(tb.cfg["slots"]):
        exp = {k: 0 for k in range(first, trig + 1)}
        for k in range(first, trig):
            for off, ln in ((1, 2), (0, 1), (3, 1), (2, 2)):
                data = bytes(rng.randrange(256) for _ in range(ln))
                resp = await tb.axi.write(4 * k + off, data)
                assert resp.resp == AxiResp.OKAY
                v = exp[k]
                for n, b in enumerate(data):
                    v = (v & ~(0xFF << (8 * (off + n)))) | (b << (8 * (off + n)))
                exp[k] = v
        npulse = len(tb.pulses)
        resp = await tb.axi.write(4 * trig + 2, b"\x00")
        assert resp.resp == AxiResp.OKAY
        await tb.cycles(2)
        assert len(tb.pulses) == npulse and not (u(dut.trig_pending) >> i) & 1
        resp = await tb.axi.write(4 * trig + 2, b"\x5c")
        assert resp.resp == AxiResp.OKAY
        await tb.cycles(2)
        assert [p[1] for p in tb.pulses[npulse:]] == [i]
        exp[trig] = 0x5C << 16
        assert {k: tb.window_word(k) for k in exp} == exp
        await tb.rearm(i)
    await tb.final_check()


@cocotb.test()
async def test_back_to_back(dut):
    """Queued bursts without pauses: one W beat per cycle across bursts, B buffered."""
    tb = TB(dut)
    await tb.reset()
    rng = random.Random(5)
    # slots with the most words first
    order = sorted(range(tb.nslots), key=lambda i: tb.cfg["slots"][i][0] - tb.cfg["slots"][i][1])
    events = []
    start = tb.cycle
    for i in order:
        first, trig = tb.cfg["slots"][i]
        args = [rng.randrange(1 << 32) for _ in range(trig - first)]
        events.append(tb.axi.init_write(4 * first, words_bytes(args + [rand_trigger(rng)])))
        # a second write into a gap/outside word, if any
    for ev in events:
        await ev.wait()
        assert ev.data.resp == AxiResp.OKAY
    await tb.cycles(2)
    beats = [c for c in tb.w_cycles if c > start]
    span = beats[-1] - beats[0] + 1
    tb.dut._log.info("back-to-back: %d bursts, %d beats in %d cycles", len(events), len(beats), span)
    assert span == len(beats), f"W beats not back to back: {beats}"
    assert u(dut.trig_pending) == (1 << tb.nslots) - 1
    await tb.final_check()


@cocotb.test()
async def test_read(dut):
    """AXI reads of the window (ENABLE_READ=1), of the counters (ENABLE_READ=2: collisions
    and the `counters` input at byte offsets 0x0..0xF, 0 elsewhere), or SLVERR for every read
    (ENABLE_READ=0)."""
    tb = TB(dut)
    tb.set_pauses(6)
    await tb.reset()
    rng = random.Random(6)
    for i, (first, trig) in enumerate(tb.cfg["slots"]):
        args = [rng.randrange(1 << 32) for _ in range(trig - first)]
        resp = await tb.axi.write(4 * first, words_bytes(args + [rand_trigger(rng)]))
        assert resp.resp == AxiResp.OKAY
    await tb.settle()
    nbytes = min(1 << tb.cfg["addr_width"], 4 * tb.cfg["words"] + 64)
    reads = [(0, nbytes), (4, 8), (3, 6), (4 * tb.cfg["slots"][-1][0], 4)]
    window_words = 1 << (tb.cfg["addr_width"] - 2)
    for addr, ln in reads:
        ln = min(ln, 4 * window_words - addr)
        resp = await tb.axi.read(addr, ln)
        if tb.cfg["enable_read"] == 2:
            assert resp.resp == AxiResp.OKAY, resp
            cnt = [tb.model.collisions] + [(COUNTERS_IN >> (32 * j)) & 0xFFFFFFFF for j in range(3)]
            exp = words_bytes(cnt + [0] * (window_words - 4))[addr:addr + ln]
            assert resp.data == exp, f"counter read {addr:#x}+{ln}"
        elif tb.cfg["enable_read"]:
            assert resp.resp == AxiResp.OKAY, resp
            words = tb.model.words + [0] * (window_words - tb.cfg["words"])
            exp = words_bytes(words)[addr:addr + ln]
            assert resp.data == exp, f"read {addr:#x}+{ln}"
        else:
            assert resp.resp == AxiResp.SLVERR, resp
    await tb.final_check()


@cocotb.test()
async def test_random(dut):
    """Scoreboard over a random mix of calls, collisions, stray writes, partial strobes,
    narrow and FIXED bursts, with random pauses on all five channels and a random owner."""
    await run_random(dut, int(os.environ.get("EPM_RANDOM_OPS", "400")),
                     seed=int(os.environ.get("EPM_SEED", "7")))


async def run_random(dut, nops, seed):
    tb = TB(dut)
    tb.set_pauses(seed)
    await tb.reset()
    rng = random.Random(seed)
    cfg = tb.cfg
    window_bytes = 1 << cfg["addr_width"]
    nw = tb.dw // 32
    stop = False

    async def owner():
        while not stop:
            await RisingEdge(dut.clk)
            pend = u(dut.trig_pending)
            v = 0
            for i in range(tb.nslots):
                if (pend >> i) & 1 and rng.random() < 0.08:
                    v |= 1 << i
                elif rng.random() < 0.01:
                    v |= 1 << i  # rearm of an idle slot: harmless
            dut.rearm.value = v

    owner_task = cocotb.start_soon(owner())
    events = []
    for _ in range(nops):
        kind = rng.random()
        i = rng.randrange(tb.nslots)
        first, trig = cfg["slots"][i]
        if kind < 0.55:
            data = words_bytes([rng.randrange(1 << 32) for _ in range(trig - first)]
                               + [rng.choice([0, rand_trigger(rng)]) if rng.random() < 0.1
                                  else rand_trigger(rng)])
            addr = 4 * first
        elif kind < 0.7:
            addr = rng.randrange(4 * first, 4 * trig + 4)
            data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4 * trig + 4 - addr)))
        else:
            addr = rng.randrange(window_bytes - 1)
            data = bytes(rng.randrange(256) for _ in range(rng.randint(1, min(24, window_bytes - addr))))
        size = None
        burst = AxiBurstType.INCR
        r = rng.random()
        if r < 0.1 and nw == 2:
            size = 2
        elif r < 0.13:
            burst = AxiBurstType.FIXED
        events.append(tb.axi.init_write(addr, data, awid=rng.randrange(4), burst=burst, size=size))
        if len(events) > 6:
            await events.pop(0).wait()
        if rng.random() < 0.1:
            await tb.cycles(rng.randint(1, 20))
    for ev in events:
        await ev.wait()
    await tb.settle()
    stop = True
    await owner_task
    dut.rearm.value = 0
    dut._log.info("random: %d ops, %d cycles, %d pulses, %d collisions, %d W beats",
                  nops, tb.cycle, len(tb.pulses), u(dut.collisions), len(tb.w_cycles))
    assert tb.pulses, "no trigger fired"
    await tb.final_check()
    if cfg["enable_read"] == 2:
        resp = await tb.axi.read(0, 4)
        assert resp.resp == AxiResp.OKAY
        assert int.from_bytes(resp.data, "little") == tb.model.collisions
    elif cfg["enable_read"]:
        ln = min(window_bytes, 4 * cfg["words"])
        resp = await tb.axi.read(0, ln)
        assert resp.resp == AxiResp.OKAY
        assert resp.data == words_bytes(tb.model.words)[:ln]


# ---------------------------------------------------------------------------------------------
# signal-level random driver: garbage in unstrobed byte lanes, random strobes, W ahead of AW,
# random bready, random stalls, FIXED/WRAP and narrow bursts
# ---------------------------------------------------------------------------------------------


class RawWriter:
    def __init__(self, tb, rng):
        self.tb = tb
        self.dut = tb.dut
        self.rng = rng
        self.aw_q = []
        self.w_q = []
        self.done = False

    def add(self, addr, nbeats, size, burst, awid, beats):
        self.aw_q.append((addr, nbeats, size, burst, awid))
        self.w_q.extend(beats)

    async def run_aw(self):
        dut = self.dut
        while self.aw_q:
            addr, nbeats, size, burst, awid = self.aw_q.pop(0)
            await RisingEdge(dut.clk)
            while self.rng.random() < 0.3:
                await RisingEdge(dut.clk)
            dut.s_axi_awaddr.value = addr
            dut.s_axi_awlen.value = nbeats - 1
            dut.s_axi_awsize.value = size
            dut.s_axi_awburst.value = burst
            dut.s_axi_awid.value = awid
            dut.s_axi_awvalid.value = 1
            while True:
                await ReadOnly()
                taken = u(dut.s_axi_awready)
                await RisingEdge(dut.clk)
                if taken:
                    break
            dut.s_axi_awvalid.value = 0

    async def run_w(self):
        dut = self.dut
        while self.w_q:
            data, strb, last = self.w_q.pop(0)
            if self.rng.random() < 0.3:
                dut.s_axi_wvalid.value = 0
                await RisingEdge(dut.clk)
            dut.s_axi_wdata.value = data
            dut.s_axi_wstrb.value = strb
            dut.s_axi_wlast.value = last
            dut.s_axi_wvalid.value = 1
            while True:
                await ReadOnly()
                taken = u(dut.s_axi_wready)
                await RisingEdge(dut.clk)
                if taken:
                    break
            dut.s_axi_wvalid.value = 0

    async def run_b(self):
        dut = self.dut
        while not self.done:
            dut.s_axi_bready.value = int(self.rng.random() < 0.6)
            await RisingEdge(dut.clk)
        dut.s_axi_bready.value = 1


@cocotb.test()
async def test_raw_random(dut):
    """Writes driven at signal level against the scoreboard (see RawWriter)."""
    tb = TB(dut, use_master=False)
    await tb.reset()
    rng = random.Random(int(os.environ.get("EPM_SEED", "7")) + 4)
    cfg = tb.cfg
    nw = tb.dw // 32
    full = 2 if nw == 1 else 3
    wb = RawWriter(tb, rng)
    window_bytes = 1 << cfg["addr_width"]
    for _ in range(int(os.environ.get("EPM_RAW_OPS", "300"))):
        i = rng.randrange(tb.nslots)
        first, trig = cfg["slots"][i]
        if rng.random() < 0.8:
            addr = 4 * rng.randrange(first, trig + 1)
        else:
            addr = rng.randrange(window_bytes)
        size = full if rng.random() < 0.8 else rng.randrange(full + 1)
        nbeats = rng.randint(1, 6)
        burst = 1 if rng.random() < 0.9 else rng.choice([0, 2, 3])
        beats = []
        for n in range(nbeats):
            data = rng.randrange(1 << tb.dw)
            strb = rng.choice([(1 << (tb.dw // 8)) - 1, rng.randrange(1 << (tb.dw // 8))])
            beats.append((data, strb, int(n == nbeats - 1)))
        wb.add(addr, nbeats, size, burst, rng.randrange(4), beats)

    stop = False

    async def owner():
        while not stop:
            await RisingEdge(dut.clk)
            pend = u(dut.trig_pending)
            v = 0
            for k in range(tb.nslots):
                if (pend >> k) & 1 and rng.random() < 0.15:
                    v |= 1 << k
            dut.rearm.value = v

    own = cocotb.start_soon(owner())
    b = cocotb.start_soon(wb.run_b())
    aw = cocotb.start_soon(wb.run_aw())
    await wb.run_w()
    await aw
    for _ in range(12):
        await RisingEdge(dut.clk)
    wb.done = True
    stop = True
    await b
    await own
    dut.rearm.value = 0
    dut._log.info("raw random: %d cycles, %d W beats, %d pulses, %d collisions",
                  tb.cycle, len(tb.w_cycles), len(tb.pulses), u(dut.collisions))
    await tb.final_check()


# ---------------------------------------------------------------------------------------------
# cycle-exact latency, with the AXI signals driven by hand
# ---------------------------------------------------------------------------------------------


@cocotb.test()
async def test_latency(dut):
    """AW and the first W beat taken in the same cycle when idle; one beat per cycle;
    trig_pulse in the cycle the trigger beat is taken; bvalid one cycle after the last beat;
    four writes in flight while B is held off."""
    tb = TB(dut, use_master=False)
    await tb.reset()
    cfg = tb.cfg
    nw = tb.dw // 32
    size = 2 if nw == 1 else 3
    # the slot with the most words
    i = max(range(tb.nslots), key=lambda s: cfg["slots"][s][1] - cfg["slots"][s][0])
    first, trig = cfg["slots"][i]
    # whole beats covering the slot
    b0 = first // nw
    b1 = trig // nw
    nbeats = b1 - b0 + 1
    words = {k: 0x1000 + k for k in range(first, trig)}
    words[trig] = 0xCAFE0001

    def beat(n):
        d = 0
        s = 0
        for j in range(nw):
            k = (b0 + n) * nw + j
            if k in words:
                d |= words[k] << (32 * j)
                s |= 0xF << (4 * j)
        return d, s

    await RisingEdge(dut.clk)
    # cycle A: AW and W0 together
    dut.s_axi_awid.value = 1
    dut.s_axi_awaddr.value = b0 * nw * 4
    dut.s_axi_awlen.value = nbeats - 1
    dut.s_axi_awsize.value = size
    dut.s_axi_awvalid.value = 1
    d, s = beat(0)
    dut.s_axi_wdata.value = d
    dut.s_axi_wstrb.value = s
    dut.s_axi_wlast.value = int(nbeats == 1)
    dut.s_axi_wvalid.value = 1
    dut.s_axi_bready.value = 1
    await ReadOnly()
    assert u(dut.s_axi_awready) == 1 and u(dut.s_axi_wready) == 1, "AW+W0 not taken together"
    for n in range(1, nbeats):
        await RisingEdge(dut.clk)
        dut.s_axi_awvalid.value = 0
        d, s = beat(n)
        dut.s_axi_wdata.value = d
        dut.s_axi_wstrb.value = s
        dut.s_axi_wlast.value = int(n == nbeats - 1)
        await ReadOnly()
        assert u(dut.s_axi_wready) == 1, f"W beat {n} stalled"
    await RisingEdge(dut.clk)
    dut.s_axi_awvalid.value = 0
    dut.s_axi_wvalid.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk)
    assert len(tb.aw_cycles) == 1
    aw_cycle = tb.aw_cycles[0]
    assert tb.w_cycles == list(range(aw_cycle, aw_cycle + nbeats)), tb.w_cycles
    assert tb.pulses == [(aw_cycle + nbeats - 1, i)], tb.pulses
    assert tb.b_cycles == [aw_cycle + nbeats], f"B at {tb.b_cycles}, AW at {aw_cycle}"
    dut._log.info("latency: AW+W0 cycle %d, %d beats, pulse %d, bvalid %d (AW->B %d cycles)",
                  aw_cycle, nbeats, tb.pulses[0][0], tb.b_cycles[0], tb.b_cycles[0] - aw_cycle)

    # rearm in the same cycle as a new trigger: the trigger wins
    await RisingEdge(dut.clk)
    dut.s_axi_awaddr.value = 4 * trig - (4 * trig) % (4 * nw)
    dut.s_axi_awlen.value = 0
    dut.s_axi_awvalid.value = 1
    lane = trig % nw
    dut.s_axi_wdata.value = 0xBEEF0003 << (32 * lane)
    dut.s_axi_wstrb.value = 0xF << (4 * lane)
    dut.s_axi_wlast.value = 1
    dut.s_axi_wvalid.value = 1
    dut.rearm.value = 1 << i
    await RisingEdge(dut.clk)
    dut.s_axi_awvalid.value = 0
    dut.s_axi_wvalid.value = 0
    dut.rearm.value = 0
    await RisingEdge(dut.clk)
    await ReadOnly()
    t = tb.w_cycles[-1]
    assert tb.aw_cycles[-1] == t
    assert tb.pulses[-1] == (t, i), tb.pulses
    assert tb.window_word(trig) == 0xBEEF0003 and (u(dut.trig_pending) >> i) & 1
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    assert u(dut.collisions) == 0
    assert tb.b_cycles[-1] == t + 1, (tb.b_cycles, t)

    # B held off: writes keep being taken until 4 responses wait (to gap/args: no trigger)
    dut.s_axi_bready.value = 0
    await RisingEdge(dut.clk)
    taken = 0
    dut.s_axi_awaddr.value = 4 * first - (4 * first) % (4 * nw)
    dut.s_axi_awvalid.value = 1
    dut.s_axi_wdata.value = 0
    dut.s_axi_wstrb.value = 0
    dut.s_axi_wvalid.value = 1
    for _ in range(8):
        await ReadOnly()
        if u(dut.s_axi_awready):
            taken += 1
        await RisingEdge(dut.clk)
    dut.s_axi_awvalid.value = 0
    dut.s_axi_wvalid.value = 0
    assert taken == 4, f"{taken} writes taken with B held off"
    dut.s_axi_bready.value = 1
    for _ in range(8):
        await RisingEdge(dut.clk)
    assert len(tb.b_cycles) == 2 + 4

    # read: AR taken at once when idle, first R beat valid 2 cycles later, one beat per cycle
    await RisingEdge(dut.clk)
    dut.s_axi_rready.value = 1
    dut.s_axi_araddr.value = 4 * first - (4 * first) % (4 * nw)
    dut.s_axi_arlen.value = 2
    dut.s_axi_arsize.value = size
    dut.s_axi_arburst.value = 1
    dut.s_axi_arid.value = 2
    dut.s_axi_arvalid.value = 1
    await ReadOnly()
    assert u(dut.s_axi_arready) == 1
    await RisingEdge(dut.clk)
    dut.s_axi_arvalid.value = 0
    r_at = []
    for n in range(1, 8):
        await ReadOnly()
        if u(dut.s_axi_rvalid):
            r_at.append((n, u(dut.s_axi_rlast), u(dut.s_axi_rresp), u(dut.s_axi_rid)))
        await RisingEdge(dut.clk)
    resp = OKAY if tb.cfg["enable_read"] else SLVERR
    assert r_at == [(2, 0, resp, 2), (3, 0, resp, 2), (4, 1, resp, 2)], r_at
    dut._log.info("read: AR accepted in cycle 0, R beats in cycles %s", [r[0] for r in r_at])
    await tb.final_check()


# ---------------------------------------------------------------------------------------------
# pytest wrapper
# ---------------------------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "axi_slave" / "pp_axi_slave.v", REPO / "cores" / "endpoint_mem" / "pp_endpoint_mem.v",
           REPO / "cores" / "endpoint_mem" / "tb" / "pp_endpoint_mem_tb.v"]

#: what the bench drives on the `counters` input (read at 0x4, 0x8, 0xC with ENABLE_READ=2)
COUNTERS_IN = 0x33333303_22222202_11111101

EIGHT_SLOTS = [(1, 3), (4, 4), (6, 9), (12, 12), (13, 17), (20, 27), (30, 31), (40, 41)]

CONFIGS = {
    # 8 slots with gaps (one of them empty: trigger only), 64-bit bus, 256-byte window
    "s8d64": dict(data_width=64, addr_width=8, words=48, slots=EIGHT_SLOTS, enable_read=1),
    # 1 slot, 32-bit bus, 64-byte window of which 4 words are stored
    "s1d32": dict(data_width=32, addr_width=6, words=4, slots=[(0, 3)], enable_read=1),
    # the 8-slot table on a 32-bit bus, read channel disabled
    "s8d32nr": dict(data_width=32, addr_width=8, words=42, slots=EIGHT_SLOTS, enable_read=0),
    # reads return the counters (ENABLE_READ=2), on both bus widths
    "s8d64cnt": dict(data_width=64, addr_width=8, words=48, slots=EIGHT_SLOTS, enable_read=2),
    "s1d32cnt": dict(data_width=32, addr_width=6, words=4, slots=[(0, 3)], enable_read=2),
    # counter reads of a 4 KiB window (the read path keeps 4 address bits), the pingpong
    # components' geometry: three slots of one argument word each
    "4kd32cnt": dict(data_width=32, addr_width=12, words=6, slots=[(0, 1), (2, 3), (4, 5)],
                     enable_read=2),
    # 4 KiB window, slots at both ends, 64-bit bus
    "4kd64": dict(data_width=64, addr_width=12, words=1024,
                  slots=[(0, 0), (3, 8), (500, 505), (1000, 1023)], enable_read=1),
    # 4 KiB window on a 32-bit bus, 1 KiB stored
    "4kd32": dict(data_width=32, addr_width=12, words=256,
                  slots=[(1, 2), (200, 255)], enable_read=1),
}


def params_of(cfg):
    n = len(cfg["slots"])
    first = 0
    trig = 0
    for i, (f, t) in enumerate(cfg["slots"]):
        first |= f << (16 * i)
        trig |= t << (16 * i)
    return {
        "DATA_WIDTH": cfg["data_width"],
        "ADDR_WIDTH": cfg["addr_width"],
        "ID_WIDTH": 2,
        "NUM_SLOTS": n,
        "SLOT_FIRST": f"{16 * n}'h{first:0{4 * n}x}",
        "SLOT_TRIG": f"{16 * n}'h{trig:0{4 * n}x}",
        "WORDS": cfg["words"],
        "ENABLE_READ": cfg["enable_read"],
    }


def _run(simulator, name, extra=None, testcase=None):
    from pushpush.build.sim import run_cocotb

    cfg = CONFIGS[name]
    env = {"EPM_CFG": json.dumps(cfg)}
    env.update(extra or {})
    run_cocotb(toplevel="pp_endpoint_mem_tb", sources=SOURCES, test_module="test_endpoint_mem",
               test_dir=Path(__file__).parent, parameters=params_of(cfg), simulator=simulator,
               extra_env=env, testcase=testcase)


#: second tier (-m slow): 26 s of Icarus; 4kd32 keeps the 4 KiB window with slots at its top
#: in the default tier and s8d64 the 64-bit bus
SLOW_CONFIGS = {"4kd64"}


def _matrix(tiered=False):
    from pushpush.testing import sim_matrix

    return [pytest.param(*p.values, marks=[*p.marks, pytest.mark.slow], id=p.id)
            if tiered and p.id.endswith(tuple(f"-cfg{c}" for c in SLOW_CONFIGS)) else p
            for p in sim_matrix([{"cfg": k} for k in CONFIGS], verilator_sets=1)]


@pytest.mark.parametrize("simulator,params", _matrix(tiered=True))
def test_endpoint_mem(simulator, params):
    _run(simulator, params["cfg"])


@pytest.mark.long
@pytest.mark.parametrize("seed", [101, 202])
@pytest.mark.parametrize("simulator,params", _matrix())
def test_endpoint_mem_long(simulator, params, seed):
    _run(simulator, params["cfg"],
         extra={"EPM_RANDOM_OPS": "4000", "EPM_RAW_OPS": "3000", "EPM_SEED": str(seed)},
         testcase=["test_random", "test_raw_random"])

