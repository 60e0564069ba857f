"""cocotb bench of cores/axil_bridge (pp_axi_axil_bridge), driven from pytest.

A cocotbext-axi ``AxiMaster`` on the AXI4 side, an ``AxiLiteRam`` on the AXI4-Lite side,
random pause generators on every channel of both: 32-bit single writes and reads at random
word addresses, byte writes, multi-beat INCR bursts (full-width beats: two AXI4-Lite
accesses per beat on a 64-bit bus), each checked against a byte model of the memory, and
every AXI4-Lite address word aligned. A write and a read run at the same time. Parameters
(DATA_WIDTH, pause, seed) come in AXB_PARAMS (pytest side), else from the DUT.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Combine, RisingEdge
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteRam, AxiMaster

MEM = 0x1000


def _params(dut) -> dict:
    if "AXB_PARAMS" in os.environ:
        return json.loads(os.environ["AXB_PARAMS"])
    return {"DATA_WIDTH": int(dut.DATA_WIDTH.value), "pause": 0.3, "seed": 1}


def _pause(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


@cocotb.test()
async def bridge_random(dut):
    p = _params(dut)
    rng = random.Random(p["seed"])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    ram = AxiLiteRam(AxiLiteBus.from_prefix(dut, "m_axil"), dut.clk, dut.rst, size=MEM)
    if p["pause"]:
        chans = [master.write_if.aw_channel, master.write_if.w_channel, master.write_if.b_channel,
                 master.read_if.ar_channel, master.read_if.r_channel,
                 ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
                 ram.read_if.ar_channel, ram.read_if.r_channel]
        for c in chans:
            c.set_pause_generator(_pause(p["pause"], random.Random(rng.getrandbits(32))))
    addrs: list[int] = []

    async def watch():
        while True:
            await RisingEdge(dut.clk)
            for v, a in ((dut.m_axil_awvalid, dut.m_axil_awaddr), (dut.m_axil_arvalid, dut.m_axil_araddr)):
                if int(v.value):
                    addrs.append(int(a.value))

    cocotb.start_soon(watch())
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)

    model = bytearray(MEM)
    nb = p["DATA_WIDTH"] // 8
    for i in range(60):
        kind = rng.choice(["word", "byte", "burst", "burst"])
        if kind == "word":
            addr = rng.randrange(0, MEM // 4) * 4
            data = rng.randbytes(4)
            await master.write(addr, data, size=2)
        elif kind == "byte":
            addr = rng.randrange(0, MEM)
            data = rng.randbytes(1)
            await master.write(addr, data, size=0)
        else:
            beats = rng.randint(2, 12)
            addr = rng.randrange(0, MEM // nb - beats) * nb
            data = rng.randbytes(beats * nb)
            await master.write(addr, data)
        model[addr:addr + len(data)] = data
        # read back a random aligned range (single 32-bit or a burst) and check it
        if rng.random() < 0.5:
            raddr = rng.randrange(0, MEM // 4) * 4
            got = await master.read(raddr, 4, size=2)
            assert got.data == bytes(model[raddr:raddr + 4]), (i, hex(raddr))
        else:
            beats = rng.randint(1, 10)
            raddr = rng.randrange(0, MEM // nb - beats) * nb
            got = await master.read(raddr, beats * nb)
            assert got.data == bytes(model[raddr:raddr + beats * nb]), (i, hex(raddr), beats)
        assert got.resp == 0

    # a write and a read at the same time
    waddr, raddr = 0x100, 0x800
    wdata = rng.randbytes(8 * nb)
    await Combine(cocotb.start_soon(master.write(waddr, wdata)),
                  cocotb.start_soon(master.read(raddr, 8 * nb)))
    model[waddr:waddr + len(wdata)] = wdata
    assert ram.read(0, MEM) == bytes(model)
    got = await master.read(0, MEM // 2)
    assert got.data == bytes(model[:MEM // 2])
    assert addrs and all(a % 4 == 0 for a in addrs)


PARAM_SETS = [
    {"DATA_WIDTH": 32, "pause": 0.0},
    {"DATA_WIDTH": 32, "pause": 0.4},
    {"DATA_WIDTH": 64, "pause": 0.3},
]


def _matrix():
    from pushpush.testing import sim_matrix
    return sim_matrix(PARAM_SETS)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_axil_bridge(simulator, params):
    from pushpush.build.cores import cores_rtl
    from pushpush.build.sim import run_cocotb

    p = dict(params, seed=params["DATA_WIDTH"] * 3 + int(params["pause"] * 10))
    run_cocotb(toplevel="pp_axi_axil_bridge", sources=cores_rtl(["axil_bridge"]),
               test_module="test_axil_bridge", test_dir=Path(__file__).parent,
               parameters={"DATA_WIDTH": p["DATA_WIDTH"], "ID_WIDTH": 4},
               simulator=simulator, extra_env={"AXB_PARAMS": json.dumps(p)})
