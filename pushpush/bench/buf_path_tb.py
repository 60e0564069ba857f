"""The cocotb side of the buffer engines' path bench (``pushpush bench calls``' buffer rows,
tests/cores/test_buf_path.py): the path of a call's buffer arguments as a generated top has
it (cores/axi_dma/tb/pp_buf_path_tb.v): pp_buf_rd and pp_buf_wr on the top's 2 x 1 buffer
interconnect into the simulated board's PS memory port (``pp_sim_mem``, S_AXI_HP0), served
by its real Python side (:class:`pushpush.simboard.ps_model.HdlPS`), with a stream sink (rd) and
source (wr) at full speed; with ``FIREWALL=1`` the memory firewall (cores/mem_firewall) sits
between the interconnect and the memory port, its table allowing exactly the two buffers.

Every R and W beat at the memory port is stamped with its cycle, so each transfer is split
into data beats and the gaps between them (per burst); :data:`EXPECT_1024` holds the exact
cycle counts of a 4 KiB transfer (docs/runtime.md and cores/sim_ps/README.md quote them),
the same with the firewall.
"""


from __future__ import annotations

import json
import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge

from pushpush.build.cores import cores_rtl
from pushpush.build.sim import run_cocotb
from pushpush.simboard.ps_model import Handles, HdlPS
from pushpush.resources import cores_dir

BASE = 0x1000_0000
WORDS = 16384          # 64 KiB, the size of the channels bench's target


class Memory:
    """PS memory: ``size`` bytes at BASE."""

    def __init__(self, size: int) -> None:
        self.data = bytearray(size)

    def write(self, address: int, data: bytes) -> bool:
        off = address - BASE
        if off < 0 or off + len(data) > len(self.data):
            return False
        self.data[off:off + len(data)] = data
        return True

    def read(self, address: int, n: int):
        off = address - BASE
        if off < 0 or off + n > len(self.data):
            return None
        return bytes(self.data[off:off + n])


def _params() -> dict:
    return json.loads(os.environ.get("BUFPATH_PARAMS", '{"words": 1024}'))


class Stamps:
    """The cycle of every R and W beat at the memory port, and of every AR and AW."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.cycle = 0
        self.r: list[tuple[int, int]] = []   # (cycle, last)
        self.w: list[tuple[int, int]] = []
        self.ar: list[int] = []
        self.aw: list[int] = []

    async def run(self) -> None:
        m = self.dut.mem
        while True:
            await RisingEdge(self.dut.clk)
            self.cycle += 1
            if int(m.s_axi_rvalid.value) and int(m.s_axi_rready.value):
                self.r.append((self.cycle, int(m.s_axi_rlast.value)))
            if int(m.s_axi_wvalid.value) and int(m.s_axi_wready.value):
                self.w.append((self.cycle, int(m.s_axi_wlast.value)))
            if int(m.s_axi_arvalid.value) and int(m.s_axi_arready.value):
                self.ar.append(self.cycle)
            if int(m.s_axi_awvalid.value) and int(m.s_axi_awready.value):
                self.aw.append(self.cycle)


def breakdown(beats: list[tuple[int, int]]) -> dict:
    """Beats, the cycles from the first beat to the last, and the gap cycles inside that
    span (between bursts and inside them)."""
    if not beats:
        return {"beats": 0, "span": 0, "gaps_between": 0, "gaps_inside": 0, "bursts": 0}
    between = inside = 0
    for (c0, last0), (c1, _) in zip(beats, beats[1:]):
        if last0:
            between += c1 - c0 - 1
        else:
            inside += c1 - c0 - 1
    return {"beats": len(beats), "span": beats[-1][0] - beats[0][0] + 1,
            "gaps_between": between, "gaps_inside": inside,
            "bursts": sum(last for _, last in beats)}


async def setup(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    for name in ("rd_start", "rd_addr", "rd_count", "rd_tready", "wr_start", "wr_addr",
                 "wr_count", "wr_tdata", "wr_tvalid", "wr_tlast", "mem_wr_ack", "mem_wr_resp",
                 "mem_rd_ack", "mem_rd_resp"):
        getattr(dut, name).value = 0
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)


async def transfer(dut, stamps: Stamps, words: int, rd: bool, wr: bool, rd_addr: int,
                   wr_addr: int) -> dict:
    """Start the engines in one cycle; the sink takes every element the cycle it is valid,
    the source offers one every cycle; returns the cycles from start to each done and the
    elements read."""
    got: list[int] = []
    res: dict = {"start": stamps.cycle + 1}
    dut.rd_start.value = int(rd)
    dut.rd_addr.value = rd_addr
    dut.rd_count.value = words
    dut.wr_start.value = int(wr)
    dut.wr_addr.value = wr_addr
    dut.wr_count.value = words
    dut.rd_tready.value = 1
    sent = 0
    dut.wr_tvalid.value = 0
    await RisingEdge(dut.clk)
    dut.rd_start.value = 0
    dut.wr_start.value = 0
    rd_busy, wr_busy = rd, wr
    for _ in range(20 * words + 1000):
        if wr_busy and sent < words:
            dut.wr_tvalid.value = 1
            dut.wr_tdata.value = (sent * 2654435761) & 0xFFFF_FFFF
            dut.wr_tlast.value = int(sent == words - 1)
        else:
            dut.wr_tvalid.value = 0
        await ReadOnly()
        if int(dut.rd_tvalid.value):
            got.append(int(dut.rd_tdata.value))
        if int(dut.wr_tvalid.value) and int(dut.wr_tready.value):
            sent += 1
        rd_done, wr_done = int(dut.rd_done.value), int(dut.wr_done.value)
        if rd_done:
            assert int(dut.rd_code.value) == 0
            res["rd_cycles"] = stamps.cycle + 1 - res["start"]
            rd_busy = False
        if wr_done:
            assert int(dut.wr_code.value) == 0
            assert int(dut.wr_done_count.value) == words
            res["wr_cycles"] = stamps.cycle + 1 - res["start"]
            wr_busy = False
        await RisingEdge(dut.clk)
        if not rd_busy and not wr_busy:
            res["got"] = got
            return res
    raise AssertionError("no done")


@cocotb.test()
async def buf_path(dut):
    p = _params()
    words = p["words"]
    await setup(dut)
    memory = Memory(8 * words + 4096)
    src = bytes((i * 7 + (i >> 8)) & 0xFF for i in range(4 * words))
    memory.write(BASE, src)
    ps = HdlPS(Handles(None, dut.mem, wr_ack=dut.mem_wr_ack, wr_resp=dut.mem_wr_resp,
                       rd_ack=dut.mem_rd_ack, rd_resp=dut.mem_rd_resp), memory)
    ps.start()
    stamps = Stamps(dut)
    cocotb.start_soon(stamps.run())
    if p.get("firewall"):   # allow pp_buf_rd (engine 0) to read src, pp_buf_wr (1) to write dst
        from cocotbext.axi import AxiBus, AxiMaster
        regs = AxiMaster(AxiBus.from_prefix(dut, "fw_axi"), dut.clk, dut.rst)
        dst = BASE + 4 * words + 4096
        for i, (lo, attr) in enumerate(((BASE, 0x001), (dst, 0x102))):
            for off, v in ((8, 0), (0, lo), (4, lo + 4 * words - 1), (8, attr)):
                await regs.write(0x100 + 16 * i + off, v.to_bytes(4, "little"))
        await ClockCycles(dut.clk, 2)
    out = {}
    for kind, rd, wr in (("rd", True, False), ("wr", False, True), ("both", True, True)):
        stamps.r.clear()
        stamps.w.clear()
        stamps.ar.clear()
        stamps.aw.clear()
        dst = BASE + 4 * words + 4096
        res = await transfer(dut, stamps, words, rd, wr, BASE, dst)
        if rd:
            expect = [int.from_bytes(src[i:i + 4], "little") for i in range(0, 4 * words, 4)]
            assert res["got"] == expect, kind
        if wr:
            expect = b"".join(((i * 2654435761) & 0xFFFF_FFFF).to_bytes(4, "little")
                              for i in range(words))
            assert memory.read(dst, 4 * words) == expect, kind
            memory.write(dst, bytes(4 * words))
        row = {"rd_cycles": res.get("rd_cycles"), "wr_cycles": res.get("wr_cycles"),
               "R": breakdown(stamps.r), "W": breakdown(stamps.w),
               "first_ar": stamps.ar[0] - res["start"] if stamps.ar else None,
               "first_r": stamps.r[0][0] - res["start"] if stamps.r else None,
               "first_aw": stamps.aw[0] - res["start"] if stamps.aw else None,
               "first_w": stamps.w[0][0] - res["start"] if stamps.w else None}
        out[kind] = row
        dut._log.info("%s: %s", kind, json.dumps(row))
    Path(os.environ.get("BUFPATH_OUT", "buf_path.json")).write_text(json.dumps(out, indent=1))
    expect = p.get("expect")
    if expect:
        for kind, want in expect.items():
            for key, value in want.items():
                got = out[kind][key]
                if isinstance(value, dict):
                    got = {k: got[k] for k in value}
                assert got == value, (kind, key, got, value)


def run_path(simulator: str, params: dict, hdl: dict, out: Path) -> dict:
    """Build and run the bench; the breakdown per kind (rd, wr, both)."""
    sources = cores_rtl(["axi_dma", "interconnect", "sim_ps", "mem_firewall"])
    sources.append(cores_dir() / "axi_dma" / "tb" / "pp_buf_path_tb.v")
    run_cocotb(toplevel="pp_buf_path_tb", sources=sources, test_module="buf_path_tb",
               test_dir=Path(__file__).parent, parameters=hdl, simulator=simulator,
               extra_env={"BUFPATH_PARAMS": json.dumps(params), "BUFPATH_OUT": str(out)})
    return json.loads(out.read_text())


#: (testbench parameters, expected breakdown for 1024 words): the exact cycles of a 4 KiB
#: transfer each way and both at once. Before the memory port kept several bursts in flight
#: (one burst at a time: 2 idle cycles between R bursts, 3 between W bursts) the same
#: transfers took 1159 (rd) and 1240 (wr) cycles, 16 beats in 18 and 19 cycles.
EXPECT_1024 = {
    "rd": {"rd_cycles": 1033, "first_ar": 3, "first_r": 5,
           "R": {"beats": 1024, "span": 1024, "gaps_between": 0, "gaps_inside": 0, "bursts": 64}},
    "wr": {"wr_cycles": 1050, "first_aw": 21, "first_w": 21,
           "W": {"beats": 1024, "span": 1024, "gaps_between": 0, "gaps_inside": 0, "bursts": 64}},
    "both": {"rd_cycles": 1033, "wr_cycles": 1050,
             "R": {"span": 1024, "gaps_between": 0}, "W": {"span": 1024, "gaps_between": 0}},
}

