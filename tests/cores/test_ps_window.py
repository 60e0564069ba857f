"""cocotb bench of cores/ps_window (pp_ps_window), driven from pytest.

The register slave is driven by a cocotbext-axi ``AxiMaster`` with random pause generators
on all five channels: word and byte writes of BASE (bits 31:12 and ENABLE), bursts across the
register block (only word 0 is writable, every response OKAY), reads of BASE, LINK and SIZE
and of the zero words, single and burst. The master path is driven directly: link addresses
come out as BASE + offset only while ENABLE is set, a presented address is held (valid
stays up) until its handshake even if ENABLE is cleared meanwhile, and nothing passes while
ENABLE is 0. Parameters (DATA_WIDTH, LINK_BITS, pause) come in PSW_PARAMS (pytest side),
else from the DUT (the core's ``cocotb`` target).
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
from cocotbext.axi import AxiBus, AxiMaster

LINK_BASE = 0xFFFC0000


def _params(dut) -> dict:
    if "PSW_PARAMS" in os.environ:
        return json.loads(os.environ["PSW_PARAMS"])
    return {"DATA_WIDTH": int(dut.DATA_WIDTH.value), "LINK_BITS": int(dut.LINK_BITS.value),
            "pause": 0.3, "seed": 1}


def _pause(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


async def _setup(dut):
    p = _params(dut)
    rng = random.Random(p["seed"])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.in_awvalid, dut.in_arvalid, dut.out_awready, dut.out_arready):
        sig.value = 0
    dut.in_awaddr.value = 0
    dut.in_araddr.value = 0
    dut.rst.value = 1
    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    if p["pause"]:
        for c in (master.write_if.aw_channel, master.write_if.w_channel, master.write_if.b_channel,
                  master.read_if.ar_channel, master.read_if.r_channel):
            c.set_pause_generator(_pause(p["pause"], random.Random(rng.getrandbits(32))))
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    return p, rng, master


async def _read_word(master, off: int) -> int:
    return int.from_bytes((await master.read(off, 4)).data, "little")


@cocotb.test()
async def registers(dut):
    p, rng, master = await _setup(dut)
    size = 1 << p["LINK_BITS"]
    assert await _read_word(master, 0x0) == 0
    assert await _read_word(master, 0x4) == LINK_BASE
    assert await _read_word(master, 0x8) == size
    for off in (0xC, 0x10, 0xFFC):
        assert await _read_word(master, off) == 0
    model = 0
    for _ in range(40):
        op = rng.randrange(4)
        if op == 0:                       # a word write of BASE | ENABLE
            v = rng.getrandbits(32)
            await master.write(0x0, v.to_bytes(4, "little"))
            model = v & 0xFFFFF001
        elif op == 1:                     # one byte of it
            lane = rng.randrange(4)
            b = rng.getrandbits(8)
            await master.write(lane, bytes([b]))
            v = model.to_bytes(4, "little")
            model = int.from_bytes(v[:lane] + bytes([b]) + v[lane + 1:], "little") & 0xFFFFF001
        elif op == 2:                     # a burst over the block: only word 0 changes
            start = rng.randrange(0, 64) * 4
            data = bytes(rng.getrandbits(8) for _ in range(4 * rng.randrange(1, 20)))
            await master.write(start, data)
            if start == 0:
                model = int.from_bytes(data[:4], "little") & 0xFFFFF001
        else:                             # a burst read of the first words
            n = rng.randrange(1, 8)
            got = (await master.read(0, 4 * n)).data
            want = (model.to_bytes(4, "little") + LINK_BASE.to_bytes(4, "little")
                    + size.to_bytes(4, "little") + bytes(4 * 8))[:4 * n]
            assert got == want, (got.hex(), want.hex())
        got = await _read_word(master, 0x0)
        assert got == model, (op, hex(got), hex(model))


async def _present(dut, kind: str, addr: int, rng: random.Random, ready_p: float) -> int:
    """Present ``addr`` on in_<kind>addr until taken (out_<kind>ready random); returns the
    translated address seen on the handshake and checks valid and address stay stable."""
    in_valid, in_addr, in_ready = (getattr(dut, f"in_{kind}{s}") for s in ("valid", "addr", "ready"))
    out_valid, out_addr, out_ready = (getattr(dut, f"out_{kind}{s}") for s in ("valid", "addr", "ready"))
    in_valid.value = 1
    in_addr.value = addr
    seen = None
    while True:
        out_ready.value = int(rng.random() < ready_p)
        await ReadOnly()
        if int(out_valid.value):
            a = int(out_addr.value)
            assert seen is None or seen == a, "address changed while presented"
            seen = a
        elif seen is not None:
            raise AssertionError("valid dropped before its handshake")
        done = int(in_ready.value) and int(in_valid.value)
        assert done == (int(out_valid.value) and int(out_ready.value))
        await RisingEdge(dut.clk)
        if done:
            in_valid.value = 0
            out_ready.value = 0
            return seen


@cocotb.test()
async def master_path(dut):
    p, rng, master = await _setup(dut)
    size = 1 << p["LINK_BITS"]
    # disabled: nothing passes
    dut.in_awvalid.value = 1
    dut.in_arvalid.value = 1
    dut.out_awready.value = 1
    dut.out_arready.value = 1
    for _ in range(10):
        await ReadOnly()
        assert not int(dut.out_awvalid.value) and not int(dut.out_arvalid.value)
        assert not int(dut.in_awready.value) and not int(dut.in_arready.value)
        await RisingEdge(dut.clk)
    dut.in_awvalid.value = 0
    dut.in_arvalid.value = 0
    for _ in range(6):
        base = rng.randrange(0x100, 0x3FFFF) << 12
        await master.write(0, (base | 1).to_bytes(4, "little"))
        for _ in range(20):
            kind = rng.choice(["aw", "ar"])
            off = rng.randrange(size // 4) * 4
            got = await _present(dut, kind, LINK_BASE + off, rng, 0.5)
            assert got == (base + off) & 0xFFFFFFFF
    # ENABLE cleared while an address waits for ready: it is held until taken, then the gate closes
    dut.in_awvalid.value = 1
    dut.in_awaddr.value = LINK_BASE + 8
    dut.out_awready.value = 0
    await ReadOnly()
    assert int(dut.out_awvalid.value)
    await RisingEdge(dut.clk)
    write = cocotb.start_soon(master.write(0, bytes(4)))
    for _ in range(30):
        await ReadOnly()
        assert int(dut.out_awvalid.value), "a presented address was dropped when ENABLE cleared"
        await RisingEdge(dut.clk)
    await write
    dut.out_awready.value = 1
    await RisingEdge(dut.clk)
    await ReadOnly()
    assert not int(dut.out_awvalid.value)   # the next one waits for ENABLE
    await RisingEdge(dut.clk)
    dut.in_awvalid.value = 0


# --------------------------------------------------------------------------------- pytest

PARAM_SETS = [
    {"DATA_WIDTH": 32, "LINK_BITS": 16, "pause": 0.0},
    {"DATA_WIDTH": 32, "LINK_BITS": 12, "pause": 0.3},
    {"DATA_WIDTH": 64, "LINK_BITS": 18, "pause": 0.3},
]


def _matrix():
    from pushpush.testing import sim_matrix
    return sim_matrix(PARAM_SETS)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_ps_window(simulator, params):
    from pushpush.build.cores import cores_rtl
    from pushpush.build.sim import run_cocotb

    p = dict(params, seed=sum(params.values()) * 7 + params["LINK_BITS"])
    run_cocotb(toplevel="pp_ps_window", sources=cores_rtl(["ps_window"]), test_module="test_ps_window",
               test_dir=Path(__file__).parent,
               parameters={"DATA_WIDTH": p["DATA_WIDTH"], "LINK_BITS": p["LINK_BITS"], "ID_WIDTH": 4},
               simulator=simulator, extra_env={"PSW_PARAMS": json.dumps(p)})
