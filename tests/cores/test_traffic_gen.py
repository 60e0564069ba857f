"""Tests of the AXI traffic generator, cores/traffic_gen/pp_traffic_gen.v.

The generator's master port drives a cocotbext-axi AxiRam that inserts random back-pressure
(AR/AW/W ready) and idle cycles (R/B valid) on all five channels; the generator itself keeps
RREADY/BREADY high. A cycle monitor checks every address (the burst address sequence with
its 4 KiB and window rules), every write beat (the address-derived pattern, WLAST), the
outstanding limit, VALID stability, and records handshake cycles so that the counters
(cycles, beats, bursts_done, resp_errors, data_errors) and `busy` are checked exactly.
After write runs the RAM content is compared with the pattern byte for byte.

pytest runs the cocotb tests through pushpush.build.sim.run_cocotb; the parameters reach the
cocotb side in the PP_PARAMS environment variable (JSON).
"""

from __future__ import annotations

import json
import logging
import os
import random
from pathlib import Path

import pytest

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Event, RisingEdge
from cocotbext.axi import AxiBus, AxiRam

from pushpush.build.sim import run_cocotb
from pushpush.testing import sim_matrix

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "traffic_gen" / "pp_traffic_gen.v"]
MEM_SIZE = 0x20000
ERROR_REGION = (0x1F000, 0x1F400)   # the RAM answers SLVERR here


def _params() -> dict:
    p = {"DATA_WIDTH": 32, "ADDR_WIDTH": 32, "ID_WIDTH": 1, "AXI_ID": 0, "COUNT_WIDTH": 32}
    p.update(json.loads(os.environ.get("PP_PARAMS", "{}")))
    return p


def pattern_bytes(addr: int, length: int, seed: int) -> bytes:
    """The generator's pattern for [addr, addr+length), addr and length multiples of 4."""
    out = bytearray()
    for a in range(addr, addr + length, 4):
        out += ((a & 0xFFFFFFFF) ^ seed).to_bytes(4, "little")
    return bytes(out)


def burst_addresses(base: int, nbytes: int, span: int, count: int) -> list[int]:
    """Start addresses of the first `count` bursts (mirrors the RTL's place/next_offset)."""
    def place(off):
        low = (base + off) & 0xFFF
        return off + (0x1000 - low) if low + nbytes > 0x1000 else off

    out, off = [], place(0)
    for _ in range(count):
        out.append(base + off)
        nxt = place(off + nbytes)
        if span and nxt + nbytes > span:
            nxt = place(0)
        off = nxt
    return out


class Monitor:
    """Cycle monitor of the generator's AXI port and status outputs."""

    def __init__(self, dut, nb: int):
        self.dut = dut
        self.nb = nb
        self.cycle = 0
        self.done = Event()
        self.run = None

    def begin(self, cfg: dict):
        self.run = dict(cfg=cfg, start=None, last_done=None, issued=[], completed=0, beats=0,
                        resp_errors=0, peak=0, busy_cycles=0, w_beat=0, w_burst=0, d_beat=0,
                        d_burst=0)
        nbytes = (cfg["len"] + 1) * self.nb
        self.run["addrs"] = burst_addresses(cfg["addr"] - cfg["addr"] % self.nb, nbytes,
                                            cfg["span"], (cfg["count"] or 100000) + 1)
        self.done = Event()
        self.prev_a = None
        self.prev_w = None

    def start(self):
        cocotb.start_soon(self._loop())

    async def _loop(self):
        dut = self.dut
        while True:
            await RisingEdge(dut.clk)
            if not int(dut.rst.value) and self.run is not None:
                self._step()
            self.cycle += 1

    def _step(self):
        dut, run, c = self.dut, self.run, self.cycle
        cfg = run["cfg"]
        busy = int(dut.busy.value)
        if run["start"] is None:
            if int(dut.start.value) and not busy:
                run["start"] = c
            return
        if run["last_done"] is not None and not busy:
            if not self.done.is_set():
                assert c == run["last_done"] + 1, "busy fell late"
                self.done.set()
            return
        assert busy, f"cycle {c}: busy low before the last response"
        run["busy_cycles"] += 1
        write = cfg["write"]
        p = "aw" if write else "ar"
        valid = int(getattr(dut, f"m_axi_{p}valid").value)
        other = int(getattr(dut, f"m_axi_{'ar' if write else 'aw'}valid").value)
        assert not other, "valid on the other direction's address channel"
        inflight = len(run["issued"]) - run["completed"]
        if valid:
            fields = tuple(int(getattr(dut, f"m_axi_{p}{f}").value)
                           for f in ("addr", "len", "size", "burst", "id", "lock", "cache"))
            k = len(run["issued"])
            exp = (run["addrs"][k], cfg["len"], (self.nb - 1).bit_length(), 1,
                   self.params_id, 0, 3)
            assert fields == exp, f"cycle {c}: burst {k}: {fields}, expected {exp}"
            assert inflight < max(1, cfg["outstanding"]), "outstanding limit exceeded"
            if self.prev_a is not None:
                assert self.prev_a == fields, "address payload changed while waiting"
            if int(getattr(dut, f"m_axi_{p}ready").value):
                run["issued"].append(c)
                run["peak"] = max(run["peak"], inflight + 1)
                self.prev_a = None
            else:
                self.prev_a = fields
        else:
            assert self.prev_a is None, "address valid dropped before the handshake"

        if write:
            wv = int(dut.m_axi_wvalid.value)
            if wv:
                assert run["w_burst"] < len(run["issued"]), "write data ahead of its address"
                addr = run["addrs"][run["w_burst"]] + run["w_beat"] * self.nb
                data = int(dut.m_axi_wdata.value)
                exp = int.from_bytes(pattern_bytes(addr, self.nb, cfg["seed"]), "little")
                assert data == exp, f"cycle {c}: wdata 0x{data:x}, expected 0x{exp:x}"
                assert int(dut.m_axi_wstrb.value) == (1 << self.nb) - 1
                last = int(dut.m_axi_wlast.value)
                assert last == (run["w_beat"] == cfg["len"]), "wlast misplaced"
                cur = (data, last)
                if self.prev_w is not None:
                    assert self.prev_w == cur, "W payload changed while waiting"
                if int(dut.m_axi_wready.value):
                    self.prev_w = None
                    run["beats"] += 1
                    run["w_beat"] += 1
                    if last:
                        run["w_beat"] = 0
                        run["w_burst"] += 1
                else:
                    self.prev_w = cur
            else:
                assert self.prev_w is None, "wvalid dropped before the handshake"
            if int(dut.m_axi_bvalid.value):
                assert int(dut.m_axi_bready.value)
                assert run["completed"] < run["w_burst"], "B before the write data"
                if int(dut.m_axi_bresp.value):
                    run["resp_errors"] += 1
                run["completed"] += 1
                run["last_done"] = c
        else:
            if int(dut.m_axi_rvalid.value):
                assert int(dut.m_axi_rready.value)
                run["beats"] += 1
                if int(dut.m_axi_rresp.value):
                    run["resp_errors"] += 1
                if int(dut.m_axi_rlast.value):
                    run["completed"] += 1
                    run["last_done"] = c


class Bench:
    def __init__(self, dut, seed):
        self.dut = dut
        self.p = _params()
        self.nb = self.p["DATA_WIDTH"] // 8
        self.rng = random.Random(seed)
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM_SIZE)
        logging.getLogger(f"cocotb.{dut._name}.m_axi").setLevel(logging.WARNING)
        self._add_error_region()
        self.mon = Monitor(dut, self.nb)
        self.mon.params_id = self.p["AXI_ID"]

    def _add_error_region(self):
        ram = self.ram

        async def read(address, length):
            if ERROR_REGION[0] <= address < ERROR_REGION[1]:
                raise IOError("error region")
            return ram.read(address, length)

        async def write(address, data):
            if ERROR_REGION[0] <= address < ERROR_REGION[1]:
                raise IOError("error region")
            ram.write(address, data)

        ram.read_if._read = read
        ram.write_if._write = write

    def backpressure(self, p=0.3, depth=2):
        r = self.ram
        chans = [r.write_if.aw_channel, r.write_if.w_channel, r.write_if.b_channel,
                 r.read_if.ar_channel, r.read_if.r_channel]
        for ch in chans:
            if p:
                g = random.Random(self.rng.getrandbits(32))
                ch.set_pause_generator(iter(lambda g=g: g.random() < p, None))
            else:
                ch.clear_pause_generator()
                ch.pause = False    # clearing the generator leaves the last value
        r.read_if.ar_channel.queue_occupancy_limit = depth
        r.write_if.aw_channel.queue_occupancy_limit = depth

    async def reset(self):
        dut = self.dut
        Clock(dut.clk, 10, unit="ns").start()
        for s in ("start", "stop", "cfg_write", "cfg_addr", "cfg_len", "cfg_count",
                  "cfg_outstanding", "cfg_span", "cfg_seed"):
            getattr(dut, s).value = 0
        dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        self.mon.start()
        await RisingEdge(dut.clk)

    async def run(self, write, addr, len_, count, outstanding, span=0, seed=None, stop_after=None):
        dut = self.dut
        seed = self.rng.getrandbits(32) if seed is None else seed
        cfg = dict(write=write, addr=addr, len=len_, count=count, outstanding=outstanding,
                   span=span, seed=seed)
        self.mon.begin(cfg)
        dut.cfg_write.value = int(write)
        dut.cfg_addr.value = addr
        dut.cfg_len.value = len_
        dut.cfg_count.value = count
        dut.cfg_outstanding.value = outstanding
        dut.cfg_span.value = span
        dut.cfg_seed.value = seed
        dut.start.value = 1
        await RisingEdge(dut.clk)
        dut.start.value = 0
        if stop_after is not None:
            for _ in range(stop_after):
                await RisingEdge(dut.clk)
            dut.stop.value = 1
            await RisingEdge(dut.clk)
            dut.stop.value = 0
        await self.mon.done.wait()
        run = self.mon.run
        status = {s: int(getattr(dut, s).value)
                  for s in ("cycles", "beats", "bursts_done", "resp_errors", "data_errors")}
        bursts = len(run["issued"])
        if count:
            assert bursts == count, f"{bursts} bursts issued, expected {count}"
        assert run["completed"] == bursts
        expect = {"cycles": run["last_done"] - run["start"], "beats": bursts * (len_ + 1),
                  "bursts_done": bursts, "resp_errors": run["resp_errors"]}
        assert run["busy_cycles"] == expect["cycles"]
        assert run["beats"] == expect["beats"]
        for k, v in expect.items():
            assert status[k] == v, f"{k} = {status[k]}, expected {v} (run {cfg})"
        dut._log.info("%s run %s: %s, peak in flight %d", "write" if write else "read",
                      {k: (hex(v) if k in ("addr", "span") else v) for k, v in cfg.items()
                       if k != "seed"}, status, run["peak"])
        return status, run

    def check_memory(self, run):
        """Every byte of every burst of a write run holds the pattern."""
        cfg = run["cfg"]
        nbytes = (cfg["len"] + 1) * self.nb
        final = {}
        for a in run["addrs"][:len(run["issued"])]:
            final[a] = a    # later bursts to the same address write the same pattern
        for a in final:
            got = self.ram.read(a, nbytes)
            if ERROR_REGION[0] <= a < ERROR_REGION[1]:
                continue
            assert got == pattern_bytes(a, nbytes, cfg["seed"]), f"pattern wrong at 0x{a:x}"

    def fill_pattern(self, addr, length, seed):
        self.ram.write(addr, pattern_bytes(addr, length, seed))


def _seed():
    return int(os.environ.get("PP_SEED", cocotb.RANDOM_SEED))


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def tg_write_read(dut):
    """Write runs land the pattern in RAM, read runs of it count no data errors; counters exact."""
    tb = Bench(dut, _seed())
    await tb.reset()
    tb.backpressure(0.3)
    nb = tb.nb
    for len_, count, out in ((0, 5, 1), (15, 8, 4), (255, 3, 2), (6, 40, 3)):
        status, run = await tb.run(True, 0x1000 + 4 * nb, len_, count, out)
        tb.check_memory(run)
        seed = run["cfg"]["seed"]
        status, _ = await tb.run(False, 0x1000 + 4 * nb, len_, count, out, seed=seed)
        assert status["data_errors"] == 0
        assert status["resp_errors"] == 0
    # a read with another seed mismatches on every beat
    status, _ = await tb.run(False, 0x1000 + 4 * nb, 3, 4, 2, seed=seed ^ 1)
    assert status["data_errors"] == 16


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def tg_boundaries(dut):
    """Bursts never cross 4 KiB, the window wraps, errors and corrupt words are counted."""
    tb = Bench(dut, _seed())
    await tb.reset()
    tb.backpressure(0.2)
    nb = tb.nb
    # 7-beat bursts starting below a page end (one must move to the page start instead of
    # crossing), walking a 6 KiB window (wraps back to the base)
    nbytes = 7 * nb
    status, run = await tb.run(True, 0x2F00, 6, 300, 4, span=0x1800)
    tb.check_memory(run)
    addrs = run["addrs"][:300]
    assert all((a & 0xFFF) + nbytes <= 0x1000 for a in addrs), "a burst crosses 4 KiB"
    assert any(b - a not in (nbytes,) and b & 0xFFF == 0 and b > a
               for a, b in zip(addrs, addrs[1:])), "no burst moved to a page start"
    assert addrs.count(addrs[0]) > 1, "window did not wrap"
    # corrupt one word and read it back: exactly one data error
    seed = run["cfg"]["seed"]
    tb.fill_pattern(0x8000, 0x400, seed)
    tb.ram.write(0x8000 + 0x104, b"\xde\xad\xbe\xef")
    status, _ = await tb.run(False, 0x8000, 15, 0x400 // (16 * nb), 4, seed=seed)
    assert status["data_errors"] == 1 and status["resp_errors"] == 0
    # the SLVERR region: every read beat and every write response there is an error
    status, _ = await tb.run(False, ERROR_REGION[0], 7, 4, 2)
    assert status["resp_errors"] == 32
    status, _ = await tb.run(True, ERROR_REGION[0], 7, 4, 2)
    assert status["resp_errors"] == 4


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def tg_outstanding_and_stop(dut):
    """The outstanding limit is reached and respected; continuous mode runs until stop."""
    tb = Bench(dut, _seed())
    await tb.reset()
    tb.backpressure(0.1, depth=16)
    for write in (False, True):
        for out in (1, 4):
            _, run = await tb.run(write, 0x4000, 15, 12, out)
            assert run["peak"] == out, f"peak {run['peak']} with limit {out}"
    # continuous: stop after a while; everything issued completes
    # (the window is small enough for the write run to cover it before the stop)
    status, run = await tb.run(True, 0x6000, 3, 0, 3, span=0x100, stop_after=300)
    assert status["bursts_done"] > 10
    status, run = await tb.run(False, 0x6000, 3, 0, 3, span=0x100, stop_after=300,
                               seed=run["cfg"]["seed"])
    assert status["bursts_done"] > 10 and status["data_errors"] == 0


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def tg_random(dut):
    """Random configurations under random back-pressure."""
    tb = Bench(dut, _seed())
    await tb.reset()
    nb = tb.nb
    runs = int(os.environ.get("PP_RUNS", "4"))
    max_beats = int(os.environ.get("PP_RUN_BEATS", "512"))
    for _ in range(runs):
        tb.backpressure(tb.rng.choice((0.0, 0.2, 0.5)), depth=tb.rng.choice((1, 2, 8)))
        len_ = tb.rng.choice((0, 1, 15, 16, tb.rng.randint(0, 255)))
        count = tb.rng.randint(1, max(1, max_beats // (len_ + 1)))
        out = tb.rng.randint(0, 8)
        addr = tb.rng.randrange(0, 0x10000, nb)
        span = tb.rng.choice((0, 0x4000))
        _, run = await tb.run(True, addr, len_, count, out, span=span)
        tb.check_memory(run)
        status, _ = await tb.run(False, addr, len_, count, out, span=span, seed=run["cfg"]["seed"])
        assert status["data_errors"] == 0


# ---------------------------------------------------------------------------------------
# pytest wrappers

PARAM_SETS = [
    {"DATA_WIDTH": 32},
    {"DATA_WIDTH": 64, "ID_WIDTH": 4, "AXI_ID": 5},
]


def _run(simulator, params, testcase=None, env=None):
    run_cocotb(toplevel="pp_traffic_gen", sources=SOURCES, test_module="test_traffic_gen",
               test_dir=Path(__file__).parent, parameters=params, simulator=simulator,
               testcase=testcase, extra_env={"PP_PARAMS": json.dumps(params), **(env or {})})


@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS))
def test_traffic_gen(simulator, params):
    _run(simulator, params)


@pytest.mark.long
@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS, verilator_sets=len(PARAM_SETS)))
def test_traffic_gen_long(simulator, params):
    _run(simulator, params, testcase="tg_random", env={"PP_RUNS": "40", "PP_RUN_BEATS": "2048"})
