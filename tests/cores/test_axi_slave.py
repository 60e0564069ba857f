"""cocotb bench of cores/axi_slave (pp_axi_slave, the AXI4 slave front end), driven from pytest.

The front end runs in its harness cores/axi_slave/tb/pp_axi_slave_tb.v: a small byte-strobed
memory behind it that refuses the beats of bad bursts, beats at or past 2**AB and beats with
strobes in one word, answers DECERR (WR_RESP_WAIT = 1) for bursts through another word, and
reads 0 at a third. A cocotbext-axi ``AxiMaster`` under random pause generators on all five
channels (and random hold-back of write beats and of the harness's late answer) writes and
reads random INCR bursts (full and narrow sizes, unaligned starts, some past the memory),
FIXED bursts, with random IDs; everything is compared to a byte model of the same rules.
``latency`` checks the exact cycle counts each mode promises (README.md) without pauses.
Parameters come in AXS_CFG (pytest side), the parameter sets in CONFIGS below.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from cocotbext.axi import AxiBurstType, AxiBus, AxiMaster, AxiResp

REFUSE_WORD = 5
DEC_WORD = 8
ZERO_WORD = 12


def _cfg() -> dict:
    return json.loads(os.environ["AXS_CFG"])


def _pause(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


class Model:
    """The harness's memory and its rules, byte by byte."""

    def __init__(self, cfg: dict) -> None:
        self.cfg = cfg
        self.mem: dict[int, int] = {}
        self.bus = cfg["DATA_WIDTH"] // 8
        self.top = 1 << cfg["AB"]

    def _bad(self, burst: AxiBurstType, size: int) -> bool:
        return bool(self.cfg["USE_BAD"]) and (burst != AxiBurstType.INCR
                                              or not self.cfg["SIZE_MIN"] <= size <= self.cfg["SIZE_MAX"])

    def _beats(self, addr: int, length: int, size: int, burst: AxiBurstType) -> list[tuple[int, list[int]]]:
        """(beat address, its byte addresses) as the master splits the burst."""
        if burst == AxiBurstType.FIXED:
            n = length // (1 << size)
            return [(addr, list(range(addr, addr + (1 << size))))] * n
        beats: dict[int, list[int]] = {}
        for x in range(addr, addr + length):
            beats.setdefault((x >> size) - (addr >> size), []).append(x)
        return [(addr if k == 0 else ((addr >> size) + k) << size, xs) for k, xs in sorted(beats.items())]

    def _lane0_word(self, beat_addr: int) -> int:
        nw = self.bus // 4
        return ((beat_addr % self.top) >> 2) & ~(nw - 1)

    def write(self, addr: int, data: bytes, size: int, burst: AxiBurstType) -> AxiResp:
        bad = self._bad(burst, size)
        err = dec = False
        pos = 0
        for beat_addr, xs in self._beats(addr, len(data), size, burst):
            chunk = data[pos:pos + len(xs)]
            pos += len(xs)
            refused = bad or beat_addr >= self.top or any(x >> 2 == REFUSE_WORD for x in xs)
            dec |= self._lane0_word(beat_addr) == DEC_WORD
            err |= refused
            if not refused:
                for x, v in zip(xs, chunk):
                    self.mem[x] = v
        if self.cfg["WR_RESP_WAIT"] and dec:
            return AxiResp.DECERR
        return AxiResp.SLVERR if err else AxiResp.OKAY

    def read(self, addr: int, length: int, size: int, burst: AxiBurstType) -> tuple[bytes, AxiResp]:
        bad = self._bad(burst, size)
        out = bytearray()
        err = False
        for beat_addr, xs in self._beats(addr, length, size, burst):
            if bad or beat_addr >= self.top:
                err = True
                out += bytes(len(xs))
            elif self._lane0_word(beat_addr) == ZERO_WORD:
                out += bytes(len(xs))
            else:
                out += bytes(self.mem.get(x, 0) for x in xs)
        return bytes(out), (AxiResp.SLVERR if err else AxiResp.OKAY)


async def _setup(dut, pause: float):
    cfg = _cfg()
    rng = random.Random(cfg["seed"])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.hold.value = 0
    dut.resp_go.value = 1
    dut.rst.value = 1
    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    if pause:
        for c in (master.write_if.aw_channel, master.write_if.w_channel, master.write_if.b_channel,
                  master.read_if.ar_channel, master.read_if.r_channel):
            c.set_pause_generator(_pause(pause, random.Random(rng.getrandbits(32))))
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    return cfg, rng, master


async def _wiggle(dut, rng: random.Random, p_hold: float, p_late: float) -> None:
    """Random hold-back of write beats and of the harness's answer (WR_RESP_WAIT)."""
    while True:
        await RisingEdge(dut.clk)
        dut.hold.value = int(rng.random() < p_hold)
        dut.resp_go.value = int(rng.random() >= p_late)


def _size_choices(cfg: dict) -> list[int]:
    full = 3 if cfg["DATA_WIDTH"] == 64 else 2
    # FULL_BEATS steps by the bus width: only whole-beat bursts are AXI there
    return [full] if cfg["FULL_BEATS"] else list(range(0, full + 1))


@cocotb.test()
async def random_traffic(dut):
    cfg, rng, master = await _setup(dut, _cfg()["pause"])
    cocotb.start_soon(_wiggle(dut, random.Random(rng.getrandbits(32)), cfg["hold"], cfg["late"]))
    model = Model(cfg)
    top = 1 << cfg["AB"]
    id_max = (1 << cfg["ID_WIDTH"]) - 1
    stats = {"writes": 0, "reads": 0, "slverr": 0, "decerr": 0, "fixed": 0}
    for _ in range(cfg["ops"]):
        size = rng.choice(_size_choices(cfg))
        op = rng.randrange(10)
        if op < 8:
            # INCR, mostly inside the memory, sometimes past its end
            addr = rng.randrange(0, top + 64 if rng.random() < 0.15 else top - 8)
            length = rng.randint(1, 40)
            burst = AxiBurstType.INCR
        else:
            # FIXED: aligned, whole beats of the bus width (cocotbext-axi moves the byte lane
            # of a narrow FIXED beat as if the burst were INCR)
            size = _size_choices(cfg)[-1]
            addr = rng.randrange(0, top - 16) & ~((1 << size) - 1)
            length = (1 << size) * rng.randint(1, 4)
            burst = AxiBurstType.FIXED
            stats["fixed"] += 1
        if rng.random() < 0.5:
            data = bytes(rng.getrandbits(8) for _ in range(length))
            want = model.write(addr, data, size, burst)
            got = await master.write(addr, data, awid=rng.randint(0, id_max), size=size, burst=burst)
            assert got.resp == want, (hex(addr), length, size, burst, got.resp, want)
            stats["writes"] += 1
            stats["slverr"] += want == AxiResp.SLVERR
            stats["decerr"] += want == AxiResp.DECERR
        else:
            want_data, want_resp = model.read(addr, length, size, burst)
            got = await master.read(addr, length, arid=rng.randint(0, id_max), size=size, burst=burst)
            assert got.resp == want_resp, (hex(addr), length, size, burst, got.resp, want_resp)
            assert got.data == want_data, (hex(addr), length, size, burst, got.data.hex(), want_data.hex())
            stats["reads"] += 1
    dut._log.info("stats %s", stats)
    assert stats["writes"] > 20 and stats["reads"] > 20 and stats["slverr"] > 2 and stats["fixed"] > 5, stats
    if cfg["WR_RESP_WAIT"]:
        assert stats["decerr"] > 0, stats


async def _handshakes(dut, log: list, stop: list) -> None:
    cycle = 0
    while not stop:
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycle += 1
        for ch in ("aw", "w", "b", "ar", "r"):
            valid = int(getattr(dut, f"s_axi_{ch}valid").value)
            ready = int(getattr(dut, f"s_axi_{ch}ready").value)
            if valid:
                log.append((cycle, ch, bool(ready)))


@cocotb.test()
async def latency(dut):
    """Without pauses: B the cycle after the last W beat (after the core's answer with
    WR_RESP_WAIT); the first R beat 1 (R_REG 0) or 2
    (R_REG 1) cycles after AR, then one beat per cycle; W with AW (W_WITH_AW 1) or after."""
    cfg, rng, master = await _setup(dut, 0.0)
    log: list = []
    stop: list = []
    cocotb.start_soon(_handshakes(dut, log, stop))
    bus = cfg["DATA_WIDTH"] // 8
    await master.write(0x40, bytes(range(bus)), awid=1)
    await master.read(0x40, bus * 4, arid=2)
    await ClockCycles(dut.clk, 2)
    stop.append(1)

    def first(ch, taken=True):
        return next(c for c, name, r in log if name == ch and (r or not taken))

    aw, w, b = first("aw"), first("w"), first("b", taken=False)
    # WR_RESP_WAIT: the harness answers in the cycle after the last beat, B follows one later
    assert b - w == 1 + cfg["WR_RESP_WAIT"], log
    assert w >= aw + (0 if cfg["W_WITH_AW"] else 1), log
    ar = first("ar")
    r_cycles = [c for c, name, r in log if name == "r" and r]
    assert r_cycles[0] - ar == 1 + cfg["R_REG"], log
    assert r_cycles == list(range(r_cycles[0], r_cycles[0] + 4)), log


# -------------------------------------------------------------------------------------
# pytest side

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "cores" / "axi_slave" / "pp_axi_slave.v", REPO / "cores" / "axi_slave" / "tb" / "pp_axi_slave_tb.v"]

_BASE = dict(ADDR_WIDTH=12, AB=8, W_WITH_AW=0, B_DEPTH=1, WR_RESP_WAIT=0, R_REG=0, AR_EARLY=0,
             SIZE_MIN=0, SIZE_MAX=7, INCR_ONLY=0, FULL_BEATS=0, USE_BAD=1, ops=160, pause=0.3, hold=0.0, late=0.0)
CONFIGS = [
    # as ps_window uses it: every burst accepted, RDATA straight from the core
    dict(_BASE, DATA_WIDTH=32, ID_WIDTH=4, USE_BAD=0, seed=1),
    # as irq: the same, whole beats of 64 bits (FULL_BEATS)
    dict(_BASE, DATA_WIDTH=64, ID_WIDTH=5, USE_BAD=0, FULL_BEATS=1, seed=5),
    # as endpoint_mem: W with AW, 4 B entries, output register with early AR, INCR only, 64-bit
    dict(_BASE, DATA_WIDTH=64, ID_WIDTH=2, W_WITH_AW=1, B_DEPTH=4, R_REG=1, AR_EARLY=1, SIZE_MAX=3, INCR_ONLY=1,
         seed=2, pause=0.5),
    # as riscv's window: 32-bit beats only, output register, write beats held back
    dict(_BASE, DATA_WIDTH=32, ID_WIDTH=6, R_REG=1, SIZE_MIN=2, SIZE_MAX=2, hold=0.3, seed=3),
    # a core that answers late (WR_RESP_WAIT) with DECERR, held-back beats, 64-bit, 2 B entries
    dict(_BASE, DATA_WIDTH=64, ID_WIDTH=8, B_DEPTH=2, WR_RESP_WAIT=1, AB=10, hold=0.4, late=0.6,
         seed=4, pause=0.2),
]

HDL = ("DATA_WIDTH", "ADDR_WIDTH", "ID_WIDTH", "AB", "W_WITH_AW", "B_DEPTH", "WR_RESP_WAIT", "R_REG",
       "AR_EARLY", "SIZE_MIN", "SIZE_MAX", "INCR_ONLY", "FULL_BEATS", "USE_BAD")


def _matrix():
    from pushpush.testing import sim_matrix

    return sim_matrix([{"cfg": i} for i in range(len(CONFIGS))], verilator_sets=3)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_axi_slave(simulator, params):
    from pushpush.build.sim import run_cocotb

    cfg = CONFIGS[params["cfg"]]
    run_cocotb(toplevel="pp_axi_slave_tb", sources=SOURCES, test_module="test_axi_slave",
               test_dir=Path(__file__).parent, parameters={k: cfg[k] for k in HDL}, simulator=simulator,
               extra_env={"AXS_CFG": json.dumps(cfg)})
