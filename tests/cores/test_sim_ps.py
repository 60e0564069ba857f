"""cocotb tests of the simulated board's PS side (cores/sim_ps), driven by its real Python
side (:class:`pushpush.simboard.ps_model.HdlPS`), under random back-pressure.

``pp_sim_gp0`` (the ARM's GP0 master) writes into and reads from a cocotbext-axi AxiRam
that answers SLVERR inside one region, with pause generators on all five channels:

- burst writes of any length and alignment (split at 4 KiB and 256 beats, byte strobes for
  the partial words) and reads of any range come back as a byte model says;
- word writes (the board's 32-bit stores) are single-beat writes, AWLEN 0 and AWSIZE 2, at
  consecutive word addresses, the next AW only after the previous B; a word in the error
  region ends the command with SLVERR and the count of the words written before it.

``pp_sim_mem`` (the PS memory port) serves a cocotbext-axi AxiMaster doing random writes
and reads (unaligned, narrow, every length) into a byte model, DECERR outside the memory,
one notification per write burst; and (``mem_pipeline``) many bursts in flight: responses
in request order, never more than ACCEPT outstanding per direction (exactly ACCEPT while
the master holds BREADY/RREADY low), the beats of consecutive bursts back to back and a
lone burst's fixed timing without pauses, for ACCEPT 8 (the HP ports'), 2 and 4.
"""

from __future__ import annotations

import json
import os
import random
import zlib
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiMaster, AxiRam, AxiResp

from pushpush.build.cores import cores_rtl
from pushpush.build.sim import run_cocotb
from pushpush.simboard.ps_model import Handles, HdlPS
from pushpush.testing import sim_matrix

RAM_SIZE = 0x4000
ERR = (0x2F00, 0x3100)   # SLVERR for writes in [start, end)


def pause_gen(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


def set_pauses(port, p: float, rng: random.Random) -> None:
    chans = [port.write_if.aw_channel, port.write_if.w_channel, port.write_if.b_channel,
             port.read_if.ar_channel, port.read_if.r_channel]
    for c in chans:
        if p:
            c.set_pause_generator(pause_gen(p, random.Random(rng.getrandbits(32))))


class ErrRam(AxiRam):
    """AxiRam answering SLVERR (and not writing) for writes inside ERR."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._burst_resp = 0
        plain_send = self.write_if.b_channel.send

        async def send(b):
            b.bresp = max(int(b.bresp), self._burst_resp)
            self._burst_resp = 0
            await plain_send(b)

        self.write_if.b_channel.send = send
        plain_write = self.write_if._write

        async def write(address, data):
            if any(ERR[0] <= a < ERR[1] for a in range(address, address + len(data))):
                self._burst_resp = int(AxiResp.SLVERR)
                return
            await plain_write(address, data)

        self.write_if._write = write


async def start(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)


def _params(dut) -> dict:
    """pytest's parameters (SIMPS_PARAMS), else (FuseSoC's cocotb target) the DUT's."""
    if os.environ.get("SIMPS_PARAMS"):
        return json.loads(os.environ["SIMPS_PARAMS"])
    return {"DATA_WIDTH": int(dut.DATA_WIDTH.value), "pause": 0.3, "steps": 30,
            "TIMEOUT": int(dut.TIMEOUT.value) if hasattr(dut, "TIMEOUT") else 0, "seed": 1,
            "ACCEPT": int(dut.ACCEPT.value) if hasattr(dut, "ACCEPT") else 8}


def _bench_of(module: str):
    """``cocotb.test`` for a test of ``module``'s bench: registered only when ``module`` is the
    simulation's toplevel (this file benches both cores; FuseSoC's cocotb target runs it with
    one of them, so the other core's tests are not there to run, rather than skipped)."""
    def register(fn):
        return cocotb.test()(fn) if os.environ.get("COCOTB_TOPLEVEL", module) == module else fn
    return register


@_bench_of("pp_sim_gp0")
async def gp0_commands(dut):
    params = _params(dut)
    dw = params["DATA_WIDTH"]
    rng = random.Random(params.get("seed", 1))
    for name in ("cmd_toggle", "cmd_op", "cmd_addr", "cmd_len"):
        getattr(dut, name).value = 0
    ram = ErrRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=RAM_SIZE)
    set_pauses(ram, params["pause"], rng)
    await start(dut)
    ps = HdlPS(Handles(dut, None, dut.cmd_toggle, dut.cmd_op, dut.cmd_addr, dut.cmd_len),
               None, data_width=dw, timeout_cycles=params["TIMEOUT"])
    model = bytearray(RAM_SIZE)
    aws: list[tuple[int, int, int]] = []
    state = {"open": 0, "violations": 0}

    async def monitor():
        while True:
            await RisingEdge(dut.clk)
            if int(dut.m_axi_awvalid.value) and int(dut.m_axi_awready.value):
                aws.append((int(dut.m_axi_awaddr.value), int(dut.m_axi_awlen.value),
                            int(dut.m_axi_awsize.value)))
                if state["single"] and state["open"]:
                    state["violations"] += 1
                state["open"] += 1
            if int(dut.m_axi_bvalid.value) and int(dut.m_axi_bready.value):
                state["open"] -= 1

    state["single"] = False
    cocotb.start_soon(monitor())

    def in_err(a: int, n: int) -> bool:
        return any(ERR[0] <= x < ERR[1] for x in range(a, a + n))

    for step in range(params["steps"]):
        kind = rng.choice(("burst", "words", "words_err", "read"))
        if kind == "burst":
            n = rng.choice((1, 3, 4, 7, 64, 300, 1030))
            addr = rng.randrange(0, ERR[0] - n) if rng.random() < 0.5 else rng.randrange(ERR[1], RAM_SIZE - n)
            data = bytes(rng.getrandbits(8) for _ in range(n))
            state["single"] = False
            resp = await ps.write(addr, data)
            assert resp == 0, (kind, hex(addr), n, resp)
            model[addr:addr + n] = data
        elif kind in ("words", "words_err"):
            n = rng.randrange(1, 20)
            if kind == "words":
                addr = 4 * rng.randrange(0, (ERR[0] - 4 * n) // 4)
            else:
                addr = ERR[0] - 4 * rng.randrange(0, n)      # the error region within the words
            words = [rng.getrandbits(32) for _ in range(n)]
            data = b"".join(w.to_bytes(4, "little") for w in words)
            state["single"] = True
            aws.clear()
            resp, done = await ps.write_words(addr, data)
            state["single"] = False
            ok = 0
            while ok < n and not in_err(addr + 4 * ok, 4):
                ok += 1
            assert done == ok, (kind, hex(addr), n, done, ok)
            assert resp == (int(AxiResp.SLVERR) if ok < n else 0), (kind, resp)
            model[addr:addr + 4 * ok] = data[:4 * ok]
            expect = [(addr + 4 * i, 0, 2) for i in range(min(n, ok + 1))]
            assert aws == expect, (aws, expect)
            assert state["violations"] == 0, "an AW before the previous word's B"
        else:
            n = rng.choice((1, 4, 5, 63, 500, 1100))
            addr = rng.randrange(0, RAM_SIZE - n)
            resp, data = await ps.read(addr, n)
            assert resp == 0
            assert data == bytes(model[addr:addr + n]), (hex(addr), n)
    got = ram.read(0, RAM_SIZE)
    assert got == bytes(model)


class DictMemory:
    """A PS memory model: RAM_SIZE bytes at BASE, nothing elsewhere."""

    BASE = 0x1000_0000

    def __init__(self) -> None:
        self.data = bytearray(RAM_SIZE)
        self.writes = 0

    def write(self, address: int, data: bytes) -> bool:
        off = address - self.BASE
        if off < 0 or off + len(data) > RAM_SIZE:
            return False
        self.data[off:off + len(data)] = data
        return True

    def read(self, address: int, n: int):
        off = address - self.BASE
        if off < 0 or off + n > RAM_SIZE:
            return None
        return bytes(self.data[off:off + n])


@_bench_of("pp_sim_mem")
async def mem_port(dut):
    params = _params(dut)
    dw = params["DATA_WIDTH"]
    rng = random.Random(params.get("seed", 1))
    for name in ("wr_ack", "wr_resp", "rd_ack", "rd_resp"):
        getattr(dut, name).value = 0
    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    set_pauses(master, params["pause"], rng)
    await start(dut)
    memory = DictMemory()
    notes = {"n": 0}
    ps = HdlPS(Handles(None, dut, wr_ack=dut.wr_ack, wr_resp=dut.wr_resp, rd_ack=dut.rd_ack,
                       rd_resp=dut.rd_resp), memory, data_width=dw,
               notify=lambda: notes.__setitem__("n", notes["n"] + 1))
    ps.start()
    model = bytearray(RAM_SIZE)
    aw = {"n": 0}

    async def count_aw():
        while True:
            await RisingEdge(dut.clk)
            if int(dut.s_axi_awvalid.value) and int(dut.s_axi_awready.value):
                aw["n"] += 1

    cocotb.start_soon(count_aw())
    base = DictMemory.BASE
    for step in range(params["steps"]):
        kind = rng.choice(("write", "write", "read", "narrow", "unmapped"))
        if kind == "write":
            n = rng.choice((1, 2, 4, 5, 8, 33, 257, 1500))
            off = rng.randrange(0, RAM_SIZE - n)
            data = bytes(rng.getrandbits(8) for _ in range(n))
            await master.write(base + off, data)
            model[off:off + n] = data
        elif kind == "narrow":
            size = rng.choice((0, 1, 2))
            n = rng.choice((1, 2, 4, 8, 12))
            off = rng.randrange(0, RAM_SIZE - n)
            data = bytes(rng.getrandbits(8) for _ in range(n))
            await master.write(base + off, data, size=size)
            model[off:off + n] = data
            got = await master.read(base + off, n, size=size)
            assert bytes(got.data) == data
        elif kind == "read":
            n = rng.choice((1, 3, 4, 9, 100, 2000))
            off = rng.randrange(0, RAM_SIZE - n)
            got = await master.read(base + off, n)
            assert bytes(got.data) == bytes(model[off:off + n]), (hex(off), n)
        else:
            w = await master.write(base + RAM_SIZE + 64, b"\1\2\3\4")
            assert w.resp == AxiResp.DECERR
            r = await master.read(base - 64, 4)
            assert r.resp == AxiResp.DECERR
    await ClockCycles(dut.clk, 4)
    assert memory.data == model
    assert notes["n"] == aw["n"], (notes, aw)


@_bench_of("pp_sim_mem")
async def mem_pipeline(dut):
    """Bursts in flight: a master (bursts of 16 beats, several commands at once) keeps up
    to ACCEPT bursts outstanding per direction, never more; responses come in request
    order; with no pauses the W and R beats of consecutive bursts are back to back and a
    lone burst keeps its fixed timing; the data is right under pauses too."""
    params = _params(dut)
    dw = params["DATA_WIDTH"]
    bb = dw // 8
    accept = params.get("ACCEPT", 8)
    pause = params["pause"]
    rng = random.Random(params.get("seed", 1) + 7)
    for name in ("wr_ack", "wr_resp", "rd_ack", "rd_resp"):
        getattr(dut, name).value = 0
    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst, max_burst_len=16)
    set_pauses(master, pause, rng)
    await start(dut)
    memory = DictMemory()
    ps = HdlPS(Handles(None, dut, wr_ack=dut.wr_ack, wr_resp=dut.wr_resp, rd_ack=dut.rd_ack,
                       rd_resp=dut.rd_resp), memory, data_width=dw)
    ps.start()
    base = DictMemory.BASE
    mon = {"cycle": 0, "aw": [], "w": [], "b": [], "ar": [], "r": [], "wo": 0, "ro": 0,
           "wo_max": 0, "ro_max": 0}

    async def monitor():
        while True:
            await RisingEdge(dut.clk)
            mon["cycle"] += 1
            c = mon["cycle"]
            if int(dut.s_axi_awvalid.value) and int(dut.s_axi_awready.value):
                mon["aw"].append((c, int(dut.s_axi_awid.value)))
                mon["wo"] += 1
            if int(dut.s_axi_wvalid.value) and int(dut.s_axi_wready.value):
                mon["w"].append((c, int(dut.s_axi_wlast.value)))
            if int(dut.s_axi_bvalid.value) and int(dut.s_axi_bready.value):
                mon["b"].append((c, int(dut.s_axi_bid.value)))
                mon["wo"] -= 1
            if int(dut.s_axi_arvalid.value) and int(dut.s_axi_arready.value):
                mon["ar"].append((c, int(dut.s_axi_arid.value)))
                mon["ro"] += 1
            if int(dut.s_axi_rvalid.value) and int(dut.s_axi_rready.value):
                mon["r"].append((c, int(dut.s_axi_rlast.value), int(dut.s_axi_rid.value)))
                if int(dut.s_axi_rlast.value):
                    mon["ro"] -= 1
            mon["wo_max"] = max(mon["wo_max"], mon["wo"])
            mon["ro_max"] = max(mon["ro_max"], mon["ro"])

    def clear():
        for k in ("aw", "w", "b", "ar", "r"):
            mon[k].clear()

    cocotb.start_soon(monitor())
    model = bytearray(RAM_SIZE)

    # a lone one-beat write and read: the fixed timing (B and the R beat handshaken 2 cycles
    # after the last W beat and after AR)
    if pause == 0:
        clear()
        await master.write(base + 64, bytes(range(bb)))
        model[64:64 + bb] = bytes(range(bb))
        assert mon["b"][0][0] - mon["w"][-1][0] == 2, (mon["w"], mon["b"])
        await master.read(base + 64, bb)
        assert mon["r"][0][0] - mon["ar"][0][0] == 2, (mon["ar"], mon["r"])

    # many bursts at once, each direction alone, then both together
    nbursts = 3 * accept
    span = 16 * bb * nbursts
    for phase in ("write", "read", "both"):
        clear()
        mon["wo_max"] = mon["ro_max"] = 0
        jobs = []
        wdata = bytes(rng.getrandbits(8) for _ in range(span))
        if phase in ("write", "both"):
            jobs.append(cocotb.start_soon(master.write(base + 0x1000, wdata)))
        if phase in ("read", "both"):
            jobs.append(cocotb.start_soon(master.read(base + 0x2000, span)))
        results = [await j for j in jobs]
        if phase in ("write", "both"):
            model[0x1000:0x1000 + span] = wdata
        if phase in ("read", "both"):
            assert bytes(results[-1].data) == bytes(model[0x2000:0x2000 + span]), phase
        await ClockCycles(dut.clk, 4)
        if phase in ("write", "both"):
            assert len(mon["aw"]) == len(mon["b"]) == nbursts, phase
            assert [i for _, i in mon["b"]] == [i for _, i in mon["aw"]], "B out of order"
            assert 1 <= mon["wo_max"] <= accept, mon["wo_max"]
            if pause == 0:
                ws = [c for c, _ in mon["w"]]
                assert ws[-1] - ws[0] + 1 == len(ws) == 16 * nbursts, "gaps between W beats"
                assert mon["wo_max"] >= 2, "never more than one write in flight"
        if phase in ("read", "both"):
            rs = mon["r"]
            assert sum(last for _, last, _ in rs) == len(mon["ar"]) == nbursts, phase
            ids = [i for _, last, i in rs if last]
            assert ids == [i for _, i in mon["ar"]], "R out of order"
            assert 1 <= mon["ro_max"] <= accept, mon["ro_max"]
            if pause == 0:
                assert rs[-1][0] - rs[0][0] + 1 == len(rs) == 16 * nbursts, "gaps between R beats"
                assert mon["ro_max"] >= 2, "never more than one read in flight"

    # responses held back (BREADY/RREADY mostly low): exactly ACCEPT bursts are accepted
    master.write_if.b_channel.set_pause_generator(pause_gen(0.97, random.Random(3)))
    master.read_if.r_channel.set_pause_generator(pause_gen(0.97, random.Random(4)))
    master.write_if.max_burst_len = 2
    master.read_if.max_burst_len = 2
    clear()
    mon["wo_max"] = mon["ro_max"] = 0
    n = 2 * bb * (accept + 6)
    wdata = bytes(rng.getrandbits(8) for _ in range(n))
    jw = cocotb.start_soon(master.write(base + 0x3000, wdata))
    jr = cocotb.start_soon(master.read(base + 0x1000, n))
    await jw
    r = await jr
    model[0x3000:0x3000 + n] = wdata
    assert bytes(r.data) == bytes(model[0x1000:0x1000 + n])
    assert mon["wo_max"] == accept, mon["wo_max"]
    assert mon["ro_max"] == accept, mon["ro_max"]
    await ClockCycles(dut.clk, 4)
    assert memory.data == model


PARAM_SETS = [
    {"DATA_WIDTH": 32, "pause": 0.0},
    {"DATA_WIDTH": 32, "pause": 0.3},
    {"DATA_WIDTH": 64, "pause": 0.3},
    {"DATA_WIDTH": 64, "pause": 0.0},
]
#: pp_sim_mem's acceptance (default 8, the Zynq-7000 HP ports') at other depths
MEM_SETS = [
    {"DATA_WIDTH": 32, "pause": 0.0, "ACCEPT": 2},
    {"DATA_WIDTH": 64, "pause": 0.3, "ACCEPT": 4},
]


@pytest.mark.parametrize("simulator,params,core",
                         [pytest.param(*p.values, core, id=f"{core}-{p.id}")
                          for core in ("pp_sim_gp0", "pp_sim_mem")
                          for p in sim_matrix(PARAM_SETS)]
                         + [pytest.param(*p.values, "pp_sim_mem", id=f"pp_sim_mem-{p.id}")
                            for p in sim_matrix(MEM_SETS, verilator_sets=0)])
def test_sim_ps(simulator, params, core):
    p = dict(params, steps=40, TIMEOUT=10000, seed=zlib.crc32(json.dumps(params, sort_keys=True).encode()))
    hdl = {"DATA_WIDTH": p["DATA_WIDTH"]}
    if core == "pp_sim_gp0":
        hdl["TIMEOUT"] = p["TIMEOUT"]
    if "ACCEPT" in p:
        hdl["ACCEPT"] = p["ACCEPT"]
    run_cocotb(toplevel=core, sources=cores_rtl(["sim_ps"]), test_module="test_sim_ps",
               test_dir=Path(__file__).parent, parameters=hdl, simulator=simulator,
               extra_env={"SIMPS_PARAMS": json.dumps(p)},
               testcase="gp0_commands" if core == "pp_sim_gp0" else ["mem_port", "mem_pipeline"])
