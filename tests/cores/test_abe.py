"""Tests of the AXI burst equalizer, cores/abe/pp_abe.v.

A cocotbext-axi AxiMaster drives the ABE's slave port and an AxiRam (with an SLVERR and a
DECERR region) sits on its master port. Random back-pressure and idle cycles are put on all
ten channels (five per side). Every test runs `AbeChecker`, a cycle-exact reference model of
both ports: it predicts, cycle by cycle, ARREADY/AWREADY on the slave side, ARVALID/AWVALID
and every address field on the master side (first sub-request exactly one cycle after the
slave-side handshake, each further one the cycle after the previous was accepted, unless the
outstanding limit or the one-ID rule holds it), and the R, W and B channels (the same beat on
both sides in the same cycle: no added latency; RLAST/WLAST moved to sub-burst boundaries;
B responses merged, worst wins). A scoreboard checks every byte read back and every response
the master sees against a reference memory.

pytest runs the cocotb tests below through pushpush.build.sim.run_cocotb; the parameters
reach the cocotb side in the PP_PARAMS environment variable (JSON).
"""

from __future__ import annotations

import json
import logging
import os
import random
from collections import deque
from pathlib import Path

import pytest

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiBurstType, AxiBus, AxiLockType, AxiMaster, AxiRam, AxiResp

from pushpush.build.sim import run_cocotb
from pushpush.testing import sim_matrix

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "abe" / "pp_abe.v"]

MEM_SIZE = 0x10000
# in every 16 KiB window: 1 KiB answering SLVERR followed by 1 KiB answering DECERR (the page
# 0xC000-0xCFFF thus holds OKAY, SLVERR, DECERR, OKAY regions of 1 KiB each)
SLVERR_REGION = (0x0400, 0x0800)
DECERR_REGION = (0x0800, 0x0C00)

ADDR_FIELDS = ("id", "addr", "len", "size", "burst", "lock", "cache", "prot", "qos", "region", "user")


def _params() -> dict:
    p = {"DATA_WIDTH": 32, "NOMINAL_BURST": 16, "MAX_OUTSTANDING_R": 4, "MAX_OUTSTANDING_W": 4,
         "ID_WIDTH": 4, "ADDR_WIDTH": 32}
    p.update(json.loads(os.environ.get("PP_PARAMS", "{}")))
    return p


def region_of(addr: int) -> AxiResp:
    addr &= 0x3FFF
    if SLVERR_REGION[0] <= addr < SLVERR_REGION[1]:
        return AxiResp.SLVERR
    if DECERR_REGION[0] <= addr < DECERR_REGION[1]:
        return AxiResp.DECERR
    return AxiResp.OKAY


class _Sub:
    """One expected sub-request on the master port."""

    __slots__ = ("fields", "final", "beats")

    def __init__(self, fields: dict, final: bool):
        self.fields = fields
        self.final = final
        self.beats = fields["len"] + 1


class AbeChecker:
    """Cycle-exact reference model of pp_abe's two ports (see the module docstring)."""

    def __init__(self, dut, params: dict):
        self.dut = dut
        self.n = params["NOMINAL_BURST"]
        self.max_r = params["MAX_OUTSTANDING_R"]
        self.max_w = params["MAX_OUTSTANDING_W"]
        self.cycle = 0
        self.s = {}
        self.m = {}
        for ch in ("ar", "aw"):
            for f in ADDR_FIELDS + ("valid", "ready"):
                self.s[ch + f] = getattr(dut, f"s_axi_{ch}{f}")
                self.m[ch + f] = getattr(dut, f"m_axi_{ch}{f}")
        for f in ("rid", "rdata", "rresp", "rlast", "ruser", "rvalid", "rready",
                  "wdata", "wstrb", "wlast", "wuser", "wvalid", "wready",
                  "bid", "bresp", "buser", "bvalid", "bready"):
            self.s[f] = getattr(dut, f"s_axi_{f}")
            self.m[f] = getattr(dut, f"m_axi_{f}")
        self.reset_state()
        # statistics
        self.peak = {"ar": 0, "aw": 0}
        self.latencies = []          # (channel, cycles from slave handshake to first master valid)
        self.split_requests = 0
        self.sub_requests = 0
        self.beats = {"r": 0, "w": 0}
        self.b_merged = {}           # merged response -> count
        self._task = None

    def reset_state(self):
        self.pend = {"ar": deque(), "aw": deque()}  # sub-requests of the request held
        self.ready_at = {"ar": 0, "aw": 0}          # first cycle the head may be presented
        self.s_cycle = {"ar": None, "aw": None}     # slave-side handshake cycle of the held request
        self.last_id = {"ar": 0, "aw": 0}
        self.r_inflight = deque()                   # final flags of read sub-bursts in flight
        self.w_queue = deque()                      # write sub-bursts whose W is not complete
        self.b_queue = deque()                      # write sub-bursts whose B is not received
        self.w_beat = 0
        self.b_acc = 0

    def start(self):
        self._task = cocotb.start_soon(self._run())

    def stop(self):
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _fail(self, msg):
        raise AssertionError(f"cycle {self.cycle}: {msg}")

    def _check(self, cond, msg):
        if not cond:
            self._fail(msg)

    def expected_subs(self, f: dict) -> list[_Sub]:
        beats = f["len"] + 1
        if f["burst"] != int(AxiBurstType.INCR) or f["lock"] or beats <= self.n:
            return [_Sub(dict(f), True)]
        nb = 1 << f["size"]
        aligned = f["addr"] & ~(nb - 1)
        count = -(-beats // self.n)
        subs = []
        for k in range(count):
            sub_beats = min(self.n, beats - k * self.n)
            sf = dict(f)
            sf["addr"] = f["addr"] if k == 0 else aligned + k * self.n * nb
            sf["len"] = sub_beats - 1
            start = sf["addr"] & ~(nb - 1)
            assert (start & 0xFFF) + sub_beats * nb <= 0x1000, "sub-burst would cross 4 KiB"
            subs.append(_Sub(sf, k == count - 1))
        return subs

    async def _run(self):
        dut = self.dut
        while True:
            await RisingEdge(dut.clk)
            if int(dut.rst.value):
                self.reset_state()
            else:
                self._step()
            self.cycle += 1

    def _addr_channel(self, ch: str, inflight: int, limit: int):
        s, m, c = self.s, self.m, self.cycle
        s_valid = int(s[ch + "valid"].value)
        s_ready = int(s[ch + "ready"].value)
        m_valid = int(m[ch + "valid"].value)
        m_ready = int(m[ch + "ready"].value)
        pend = self.pend[ch]
        head = pend[0] if pend else None
        m_hs = m_valid and m_ready
        exp_s_ready = head is None or (m_hs and head.final)
        self._check(s_ready == exp_s_ready, f"s_axi_{ch}ready={s_ready}, expected {int(exp_s_ready)}")
        exp_m_valid = (head is not None and c >= self.ready_at[ch] and inflight < limit
                       and (inflight == 0 or head.fields["id"] == self.last_id[ch]))
        self._check(m_valid == exp_m_valid, f"m_axi_{ch}valid={m_valid}, expected {int(exp_m_valid)}"
                    f" (held {len(pend)}, in flight {inflight}/{limit})")
        popped = None
        if m_valid:
            for f in ADDR_FIELDS:
                got = int(m[ch + f].value)
                self._check(got == head.fields[f],
                            f"m_axi_{ch}{f}=0x{got:x}, expected 0x{head.fields[f]:x}")
            if self.s_cycle[ch] is not None:
                self.latencies.append((ch, c - self.s_cycle[ch]))
                self.s_cycle[ch] = None
        if m_hs:
            popped = pend.popleft()
            self.last_id[ch] = popped.fields["id"]
            self.ready_at[ch] = c + 1
            self.sub_requests += 1
        if s_valid and s_ready:
            fields = {f: int(s[ch + f].value) for f in ADDR_FIELDS}
            subs = self.expected_subs(fields)
            if len(subs) > 1:
                self.split_requests += 1
            pend.extend(subs)
            self.ready_at[ch] = c + 1
            self.s_cycle[ch] = c
        return popped

    def _step(self):
        s, m = self.s, self.m

        # read address, then read data
        popped = self._addr_channel("ar", len(self.r_inflight), self.max_r)
        if popped is not None:
            self.r_inflight.append(popped.final)
            self.peak["ar"] = max(self.peak["ar"], len(self.r_inflight))

        m_rvalid = int(m["rvalid"].value)
        self._check(int(s["rvalid"].value) == m_rvalid, "s_axi_rvalid != m_axi_rvalid")
        s_rready = int(s["rready"].value)
        self._check(int(m["rready"].value) == s_rready, "m_axi_rready != s_axi_rready")
        if m_rvalid:
            self._check(len(self.r_inflight) > 0, "R beat with no read in flight")
            for f in ("rid", "rdata", "rresp", "ruser"):
                self._check(int(s[f].value) == int(m[f].value), f"s_axi_{f} != m_axi_{f}")
            m_rlast = int(m["rlast"].value)
            exp_last = m_rlast and self.r_inflight[0]
            self._check(int(s["rlast"].value) == exp_last, f"s_axi_rlast expected {int(exp_last)}")
            if s_rready:
                self.beats["r"] += 1
                if m_rlast:
                    self.r_inflight.popleft()

        # write address (the W/B bookkeeping is updated after W and B of this cycle)
        popped = self._addr_channel("aw", len(self.b_queue), self.max_w)

        # write data
        w_en = len(self.w_queue) > 0
        s_wvalid = int(s["wvalid"].value)
        m_wready = int(m["wready"].value)
        m_wvalid = int(m["wvalid"].value)
        self._check(m_wvalid == (s_wvalid and w_en), f"m_axi_wvalid={m_wvalid} (w enabled {w_en})")
        self._check(int(s["wready"].value) == (m_wready and w_en), f"s_axi_wready wrong (w enabled {w_en})")
        if m_wvalid:
            for f in ("wdata", "wstrb", "wuser"):
                self._check(int(s[f].value) == int(m[f].value), f"m_axi_{f} != s_axi_{f}")
            sub = self.w_queue[0]
            exp_last = self.w_beat == sub.beats - 1
            self._check(int(m["wlast"].value) == exp_last,
                        f"m_axi_wlast expected {int(exp_last)} (beat {self.w_beat} of {sub.beats})")
            if sub.final:
                self._check(int(s["wlast"].value) == exp_last, "master's WLAST misplaced")
            if m_wready:
                self.beats["w"] += 1
                self.w_beat += 1
                if exp_last:
                    self.w_queue.popleft()
                    self.w_beat = 0

        # write response
        m_bvalid = int(m["bvalid"].value)
        s_bvalid = int(s["bvalid"].value)
        if self.b_queue:
            final = self.b_queue[0]
            s_bready = int(s["bready"].value)
            m_bready = int(m["bready"].value)
            self._check(s_bvalid == (m_bvalid and final), "s_axi_bvalid wrong")
            self._check(m_bready == (s_bready if final else 1), "m_axi_bready wrong")
            if m_bvalid:
                merged = max(self.b_acc, int(m["bresp"].value))
                if final:
                    self._check(int(s["bresp"].value) == merged,
                                f"s_axi_bresp={int(s['bresp'].value)}, expected {merged}")
                    self._check(int(s["bid"].value) == int(m["bid"].value), "s_axi_bid != m_axi_bid")
                if m_bready:
                    self.b_queue.popleft()
                    if final:
                        self.b_merged[merged] = self.b_merged.get(merged, 0) + 1
                        self.b_acc = 0
                    else:
                        self.b_acc = merged
        else:
            self._check(not m_bvalid and not s_bvalid, "B response with no write in flight")

        if popped is not None:
            self.w_queue.append(popped)
            self.b_queue.append(popped.final)
            self.peak["aw"] = max(self.peak["aw"], len(self.b_queue))

    def assert_idle(self):
        assert not self.pend["ar"] and not self.pend["aw"], "requests still held"
        assert not self.r_inflight and not self.w_queue and not self.b_queue, "transactions in flight"


def add_error_regions(ram: AxiRam):
    """Make ram answer SLVERR in SLVERR_REGION and DECERR in DECERR_REGION."""
    rd, wr = ram.read_if, ram.write_if
    rd.decerr = False
    wr.decerr = False

    async def read(address, length):
        kind = region_of(address)
        if kind == AxiResp.DECERR:
            rd.decerr = True
        if kind != AxiResp.OKAY:
            raise IOError("error region")
        return ram.read(address % ram.size, length)

    async def write(address, data):
        kind = region_of(address)
        if kind == AxiResp.DECERR:
            wr.decerr = True
        if kind != AxiResp.OKAY:
            raise IOError("error region")
        ram.write(address % ram.size, data)

    r_send, b_send = rd.r_channel.send, wr.b_channel.send

    async def send_r(r):
        if rd.decerr:
            r.rresp = AxiResp.DECERR
            rd.decerr = False
        await r_send(r)

    async def send_b(b):
        if wr.decerr:
            b.bresp = AxiResp.DECERR
            wr.decerr = False
        await b_send(b)

    rd._read = read
    wr._write = write
    rd.r_channel.send = send_r
    wr.b_channel.send = send_b


def pauser(rng: random.Random, p: float):
    while True:
        yield rng.random() < p


class Bench:
    def __init__(self, dut, seed: int):
        self.dut = dut
        self.p = _params()
        self.nb = self.p["DATA_WIDTH"] // 8
        self.rng = random.Random(seed)
        self.master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM_SIZE)
        add_error_regions(self.ram)
        init = bytes(self.rng.getrandbits(8) for _ in range(MEM_SIZE))
        self.ram.write(0, init)
        self.ref = bytearray(init)     # reference memory (error regions never written)
        self.checker = AbeChecker(dut, self.p)
        for side in ("s_axi", "m_axi"):
            logging.getLogger(f"cocotb.{dut._name}.{side}").setLevel(logging.WARNING)

    def channels(self):
        m, r = self.master, self.ram
        return [m.write_if.aw_channel, m.write_if.w_channel, m.write_if.b_channel,
                m.read_if.ar_channel, m.read_if.r_channel,
                r.write_if.aw_channel, r.write_if.w_channel, r.write_if.b_channel,
                r.read_if.ar_channel, r.read_if.r_channel]

    def set_backpressure(self, p_master=0.3, p_slave=0.3):
        chans = self.channels()
        for i, ch in enumerate(chans):
            p = p_master if i < 5 else p_slave
            if p:
                ch.set_pause_generator(pauser(random.Random(self.rng.getrandbits(32)), p))
            else:
                ch.clear_pause_generator()
                ch.pause = False    # clearing the generator leaves the last value

    def deepen_slave_queues(self, depth=16):
        """Let the RAM accept many address requests ahead (so the outstanding limit binds)."""
        self.ram.read_if.ar_channel.queue_occupancy_limit = depth
        self.ram.write_if.aw_channel.queue_occupancy_limit = depth

    async def reset(self):
        dut = self.dut
        Clock(dut.clk, 10, unit="ns").start()
        dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        self.checker.start()
        for _ in range(2):
            await RisingEdge(dut.clk)

    async def drain(self):
        await self.master.wait()
        for _ in range(10):
            await RisingEdge(self.dut.clk)
        self.checker.assert_idle()

    # -- operations checked against the reference memory --------------------------------

    @staticmethod
    def expected_resp(addrs) -> set:
        kinds = {region_of(a) for a in addrs} - {AxiResp.OKAY}
        if not kinds:
            return {AxiResp.OKAY}
        if len(kinds) == 1:
            return kinds
        return {AxiResp.SLVERR, AxiResp.DECERR}

    def beat_map(self, addr, length, burst, size):
        """Byte address of each byte of an operation (INCR/FIXED/WRAP as issued by AxiMaster)."""
        nb = 1 << size
        if burst == AxiBurstType.INCR:
            return list(range(addr, addr + length))
        if burst == AxiBurstType.FIXED:
            return [addr + (i % nb) for i in range(length)]
        total = length
        lower = addr - addr % total
        return [lower + ((addr - lower + i) % total) for i in range(length)]

    async def do_write(self, addr, length, burst=AxiBurstType.INCR, size=None, lock=AxiLockType.NORMAL,
                       awid=None):
        data = bytes(self.rng.getrandbits(8) for _ in range(length))
        size = size if size is not None else (self.nb - 1).bit_length()
        resp = await self.master.write(addr, data, awid=awid, burst=burst, size=size, lock=lock)
        amap = self.beat_map(addr, length, burst, size)
        for a, d in zip(amap, data):
            if region_of(a) == AxiResp.OKAY:
                self.ref[a] = d
        exp = self.expected_resp(amap)
        assert resp.resp in exp, f"write 0x{addr:x}+{length}: resp {resp.resp}, expected {exp}"
        return resp

    async def do_read(self, addr, length, burst=AxiBurstType.INCR, size=None, lock=AxiLockType.NORMAL,
                      arid=None):
        size = size if size is not None else (self.nb - 1).bit_length()
        resp = await self.master.read(addr, length, arid=arid, burst=burst, size=size, lock=lock)
        amap = self.beat_map(addr, length, burst, size)
        expect = bytes(0 if region_of(a) != AxiResp.OKAY else self.ref[a] for a in amap)
        assert resp.data == expect, (
            f"read 0x{addr:x}+{length} ({burst.name}, size {size}): data mismatch at byte "
            f"{next(i for i in range(length) if resp.data[i] != expect[i])}")
        exp = self.expected_resp(amap)
        assert resp.resp in exp, f"read 0x{addr:x}+{length}: resp {resp.resp}, expected {exp}"
        return resp

    def random_op(self, lo, hi):
        """A random operation inside [lo, hi): returns (is_write, kwargs)."""
        rng, nb, n = self.rng, self.nb, self.p["NOMINAL_BURST"]
        max_size = (nb - 1).bit_length()
        kind = rng.random()
        if kind < 0.08:     # FIXED, full width, <= 16 beats
            beats = rng.randint(1, 16)
            addr = rng.randrange(lo, hi - nb, nb)
            kw = dict(addr=addr, length=beats * nb, burst=AxiBurstType.FIXED, size=max_size)
        elif kind < 0.16:   # WRAP, full width, 2/4/8/16 beats, not crossing 4 KiB
            beats = rng.choice((2, 4, 8, 16))
            total = beats * nb
            while True:
                addr = rng.randrange(lo, hi - total, nb)
                if (addr & 0xFFF) + total <= 0x1000:
                    break
            kw = dict(addr=addr, length=total, burst=AxiBurstType.WRAP, size=max_size)
        elif kind < 0.22:   # exclusive INCR (never split), up to 16 beats
            beats = rng.randint(1, 16)
            addr = rng.randrange(lo, hi - beats * nb, nb)
            kw = dict(addr=addr, length=beats * nb, lock=AxiLockType.EXCLUSIVE, size=max_size)
        else:               # INCR, any size and alignment, lengths around and above the nominal
            size = max_size if rng.random() < 0.7 else rng.randint(0, max_size)
            sb = 1 << size
            r = rng.random()
            if r < 0.25:
                beats = rng.randint(1, n)
            elif r < 0.5:
                beats = rng.randint(n, min(256, 3 * n + 1))
            else:
                beats = rng.randint(1, 256)
            length = beats * sb
            addr = rng.randrange(lo, hi - length - sb)
            if rng.random() < 0.7:
                addr -= addr % sb
            length -= addr % sb
            kw = dict(addr=addr, length=max(1, length), size=size)
        return rng.random() < 0.5, kw

    async def worker(self, lo, hi, ops):
        for _ in range(ops):
            is_write, kw = self.random_op(lo, hi)
            if is_write:
                await self.do_write(**kw)
            else:
                await self.do_read(**kw)


def _seed() -> int:
    return int(os.environ.get("PP_SEED", cocotb.RANDOM_SEED))


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def abe_latency(dut):
    """No back-pressure: address path exactly 1 cycle, sub-requests back to back, data 0."""
    tb = Bench(dut, _seed())
    tb.deepen_slave_queues(64)
    await tb.reset()
    n = tb.p["NOMINAL_BURST"]
    nb = tb.nb
    for beats in sorted({1, n, n + 1, min(256, 3 * n + 2), 256}):
        await tb.do_write(0x1000, beats * nb)
        await tb.do_read(0x1000, beats * nb)
    await tb.drain()
    lat = {c: sorted({v for ch, v in tb.checker.latencies if ch == c}) for c in ("ar", "aw")}
    dut._log.info("address latency (cycles, slave handshake -> master valid): %s", lat)
    assert lat == {"ar": [1], "aw": [1]}, lat

    # a lone split write: total time to the merged B is one cycle more than ideal
    c0 = tb.checker.cycle
    beats = min(256, 4 * n)
    await tb.do_write(0x2000, beats * nb)
    dut._log.info("lone %d-beat write through the ABE: %d cycles from call to response",
                  beats, tb.checker.cycle - c0)
    await tb.drain()


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def abe_errors(dut):
    """SLVERR/DECERR regions: responses propagated per beat (R) and merged worst-wins (B)."""
    tb = Bench(dut, _seed())
    await tb.reset()
    tb.set_backpressure(0.2, 0.2)
    # 0x400 bytes: 256 (32-bit) or 128 (64-bit) beats, always split
    cases = [(0xC000, AxiResp.OKAY),     # all OKAY
             (0xC200, AxiResp.SLVERR),   # OKAY then SLVERR sub-bursts
             (0xC600, AxiResp.DECERR),   # SLVERR then DECERR
             (0xCA00, AxiResp.DECERR),   # DECERR then OKAY: the merge must keep the worst
             (0xC500, AxiResp.SLVERR)]   # inside the SLVERR region
    for addr, want in cases:
        w = await tb.do_write(addr, 0x200 if addr == 0xC500 else 0x400)
        assert w.resp == want, f"write 0x{addr:x}: {w.resp}, expected {want}"
        r = await tb.do_read(addr, 0x200 if addr == 0xC500 else 0x400)
        # AxiMaster reports the last non-OKAY beat of a read
        assert r.resp == want, f"read 0x{addr:x}: {r.resp}, expected {want}"
    await tb.drain()
    dut._log.info("merged B responses seen: %s", tb.checker.b_merged)
    assert tb.checker.b_merged.get(int(AxiResp.DECERR), 0) >= 2
    assert tb.checker.b_merged.get(int(AxiResp.SLVERR), 0) >= 2


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def abe_outstanding(dut):
    """Long bursts against a slave that queues many requests: the limit is reached, never passed."""
    tb = Bench(dut, _seed())
    tb.deepen_slave_queues(32)
    await tb.reset()
    tb.set_backpressure(0.0, 0.1)
    nb = tb.nb
    # one ID, so that whole requests may overlap too (not only the sub-requests of one)
    tasks = [cocotb.start_soon(tb.do_read(0x0000, 256 * nb, arid=0)),
             cocotb.start_soon(tb.do_write(0x4000, 256 * nb, awid=0)),
             cocotb.start_soon(tb.do_read(0x8000, 256 * nb, arid=0)),
             cocotb.start_soon(tb.do_write(0x2000, 256 * nb, awid=0))]
    for t in tasks:
        await t
    await tb.drain()
    p = tb.p
    dut._log.info("peak sub-transactions in flight: %s (limits R %d, W %d)", tb.checker.peak,
                  p["MAX_OUTSTANDING_R"], p["MAX_OUTSTANDING_W"])
    assert tb.checker.peak["ar"] == p["MAX_OUTSTANDING_R"]
    assert tb.checker.peak["aw"] == p["MAX_OUTSTANDING_W"]


@cocotb.test(timeout_time=1000, timeout_unit="ms")
async def abe_random(dut):
    """Random mixed traffic from several concurrent workers under random back-pressure."""
    seed = _seed()
    tb = Bench(dut, seed)
    tb.deepen_slave_queues(int(os.environ.get("PP_SLAVE_QUEUE", "4")))
    await tb.reset()
    tb.set_backpressure(0.3, 0.3)
    ops = int(os.environ.get("PP_OPS", "40"))
    workers = 4
    win = MEM_SIZE // workers
    tasks = [cocotb.start_soon(tb.worker(k * win, (k + 1) * win, ops)) for k in range(workers)]
    for t in tasks:
        await t
    await tb.drain()
    c = tb.checker
    dut._log.info("seed %d: %d cycles, %d split requests, %d sub-requests, beats %s, peak %s, "
                  "merged B %s", seed, c.cycle, c.split_requests, c.sub_requests, c.beats, c.peak,
                  c.b_merged)
    assert c.split_requests > 0 or tb.p["NOMINAL_BURST"] == 256


# ---------------------------------------------------------------------------------------
# pytest wrappers

PARAM_SETS = [
    {"DATA_WIDTH": 32, "NOMINAL_BURST": 16, "MAX_OUTSTANDING_R": 4, "MAX_OUTSTANDING_W": 4},
    {"DATA_WIDTH": 64, "NOMINAL_BURST": 4, "MAX_OUTSTANDING_R": 1, "MAX_OUTSTANDING_W": 1},
    {"DATA_WIDTH": 32, "NOMINAL_BURST": 4, "MAX_OUTSTANDING_R": 4, "MAX_OUTSTANDING_W": 1},
    {"DATA_WIDTH": 64, "NOMINAL_BURST": 16, "MAX_OUTSTANDING_R": 1, "MAX_OUTSTANDING_W": 4},
]


def _run(simulator, params, testcase=None, env=None):
    run_cocotb(toplevel="pp_abe", sources=SOURCES, test_module="test_abe",
               test_dir=Path(__file__).parent, parameters=params, simulator=simulator,
               testcase=testcase,
               extra_env={"PP_PARAMS": json.dumps(params), **(env or {})})


@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS))
def test_abe(simulator, params):
    _run(simulator, params)


@pytest.mark.long
@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS, verilator_sets=len(PARAM_SETS)))
def test_abe_long(simulator, params):
    _run(simulator, params, testcase="abe_random", env={"PP_OPS": "400", "PP_SLAVE_QUEUE": "16"})
