"""cocotb bench of the buffer engines in cores/axi_dma: pp_buf_rd (memory -> element stream) and pp_buf_wr
(element stream -> memory), each on a cocotbext-axi AxiRamRead/AxiRamWrite with random
pauses on its AXI channels, and random back-pressure (rd: tready) or gaps (wr: tvalid) on
the user's stream, for 8-, 16- and 32-bit elements.

- rd: random counts (0 .. a few hundred) from any byte address: the elements in order, tlast
  on the last only, done_code 0; a stream nobody reads: done_code 1 after TIMEOUT cycles,
  and the next transfer is whole; a module that stops reading past TIMEOUT and reads on gets
  the rest as zeros with tlast on the count-th (owed zeros are dropped at the next start); count too long: code 4, nothing read.
- wr: random counts to any byte address, streams ending at the count or earlier with tlast:
  exactly those elements written (WSTRB), bytes around untouched, done_count; elements
  beyond the count are dropped while idle (never in the next buffer); a stream that never
  comes: code 1 after TIMEOUT cycles, then a whole transfer again.
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
from cocotbext.axi import AxiRamRead, AxiRamWrite, AxiReadBus, AxiWriteBus

from pushpush.build.cores import cores_rtl
from pushpush.build.sim import run_cocotb
from pushpush.testing import sim_matrix

RAM = 0x10000


def pause_gen(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


def pruned(bus):
    """The bus without the optional AXI signals these cores do not have (cocotb_bus leaves
    them as None attributes, which cocotbext-axi's channel setup does not expect)."""
    for ch in vars(bus).values():
        for name in [n for n, v in list(vars(ch).items()) if v is None and not n.startswith("_")]:
            delattr(ch, name)
    return bus


def params(dut) -> dict:
    """The pytest driver's parameters (BUFDMA_PARAMS), or, run through FuseSoC's cocotb
    target, the DUT's own parameters with moderate pauses."""
    if "BUFDMA_PARAMS" in os.environ:
        return json.loads(os.environ["BUFDMA_PARAMS"])
    p = {k: int(getattr(dut, k).value) for k in ("ELEM_BITS", "MAX_BURST", "FIFO_LOG2", "LEN_WIDTH")}
    p.update(pause=0.3, stall=0.3, steps=10, seed=1)
    dut._log.info("configuration from the DUT's parameters: %s", json.dumps(p, sort_keys=True))
    return p


def is_top(dut, name: str) -> bool:
    """FuseSoC's cocotb target runs this module's tests on one toplevel (pp_buf_rd): the
    other engine's test says so and stops."""
    if dut._name != name:
        dut._log.info("this test is for %s, the DUT is %s: nothing to do", name, dut._name)
        return False
    return True


async def setup(dut, p, rng, write: bool):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.start.value = 0
    dut.start_addr.value = 0
    dut.start_count.value = 0
    if write:
        dut.s_axis_tvalid.value = 0
        dut.s_axis_tdata.value = 0
        dut.s_axis_tlast.value = 0
        ram = AxiRamWrite(pruned(AxiWriteBus.from_prefix(dut, "m_axi")), dut.clk, dut.rst, size=RAM)
        if p["pause"]:
            ram.aw_channel.set_pause_generator(pause_gen(p["pause"], rng))
            ram.w_channel.set_pause_generator(pause_gen(p["pause"], rng))
            ram.b_channel.set_pause_generator(pause_gen(p["pause"], rng))
    else:
        dut.m_axis_tready.value = 0
        ram = AxiRamRead(pruned(AxiReadBus.from_prefix(dut, "m_axi")), dut.clk, dut.rst, size=RAM)
        if p["pause"]:
            ram.ar_channel.set_pause_generator(pause_gen(p["pause"], rng))
            ram.r_channel.set_pause_generator(pause_gen(p["pause"], rng))
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    return ram


async def start(dut, addr, count):
    dut.start_addr.value = addr
    dut.start_count.value = count
    dut.start.value = 1
    await RisingEdge(dut.clk)
    dut.start.value = 0


async def read_transfer(dut, rng, p, addr, count, ready_p=0.5, limit=200000):
    """Start, take elements with random tready until done; (elements, tlasts, code)."""
    await start(dut, addr, count)
    got, lasts = [], []
    for _ in range(limit):
        ready = rng.random() >= p["stall"] if ready_p else 0
        dut.m_axis_tready.value = int(ready)
        await ReadOnly()
        if int(dut.m_axis_tvalid.value) and ready:
            got.append(int(dut.m_axis_tdata.value))
            lasts.append(int(dut.m_axis_tlast.value))
        done = int(dut.done.value)
        code = int(dut.done_code.value)
        await RisingEdge(dut.clk)
        if done:
            dut.m_axis_tready.value = 0
            return got, lasts, code
    raise AssertionError(f"no done after {limit} cycles")


def elements(data: bytes, eb: int) -> list[int]:
    return [int.from_bytes(data[i:i + eb], "little") for i in range(0, len(data), eb)]


@cocotb.test()
async def rd_transfers(dut):
    if not is_top(dut, "pp_buf_rd"):
        return
    p = params(dut)
    rng = random.Random(p["seed"])
    eb = p["ELEM_BITS"] // 8
    ram = await setup(dut, p, rng, write=False)
    ram.write(0, bytes(rng.getrandbits(8) for _ in range(RAM)))
    for step in range(p["steps"]):
        count = rng.choice([0, 1, 2, 3, 5, rng.randrange(1, 400)])
        addr = rng.randrange(0, RAM - count * eb - 8)
        if step % 3 == 0:
            addr -= addr % eb   # element aligned, the usual case
        got, lasts, code = await read_transfer(dut, rng, p, addr, count)
        assert code == 0, (step, code)
        assert got == elements(ram.read(addr, count * eb), eb), (step, addr, count)
        assert lasts == [0] * (count - 1) + [1] if count else lasts == []
    if not p["pause"] and not p["stall"] and "rd_cycles" in p:
        # latency and rate with no pauses: start -> first element, start -> done (exact)
        n = 256 // eb
        dut.start_addr.value = 0x1000
        dut.start_count.value = n
        dut.start.value = 1
        dut.m_axis_tready.value = 1
        await RisingEdge(dut.clk)
        dut.start.value = 0
        cycles, first, taken = 1, None, 0
        while True:
            await ReadOnly()
            if int(dut.m_axis_tvalid.value):
                taken += 1
                if first is None:
                    first = cycles
            if int(dut.done.value):
                break
            await RisingEdge(dut.clk)
            cycles += 1
        await RisingEdge(dut.clk)
        dut.m_axis_tready.value = 0
        dut._log.info("pp_buf_rd ELEM_BITS=%d MAX_BURST=%d: %d elements, first after %d cycles, "
                      "done after %d", p["ELEM_BITS"], p["MAX_BURST"], n, first, cycles)
        assert taken == n
        assert (first, cycles) == tuple(p["rd_cycles"]), (first, cycles)
    # nobody reads: timeout, then a whole transfer
    got, _, code = await read_transfer(dut, rng, p, 0x100, 64, ready_p=0)
    assert code == 1 and got == []
    got, lasts, code = await read_transfer(dut, rng, p, 0x203, 40)
    assert code == 0 and got == elements(ram.read(0x203, 40 * eb), eb) and lasts[-1] == 1
    # the module stops reading after 7 of 30 elements, long enough for the timeout, then
    # reads on: the stream still ends cleanly, the 23 elements left as zeros with tlast on
    # the 30th (so a module counting elements or waiting for tlast finishes its call), then
    # nothing more; the next transfer is whole
    await start(dut, 0x300, 30)
    taken, code, cycles = [], None, 0
    while code is None:
        dut.m_axis_tready.value = int(len(taken) < 7)
        await ReadOnly()
        if len(taken) < 7 and int(dut.m_axis_tvalid.value):
            taken.append((int(dut.m_axis_tdata.value), int(dut.m_axis_tlast.value)))
        if int(dut.done.value):
            code = int(dut.done_code.value)
        await RisingEdge(dut.clk)
        cycles += 1
        assert cycles < 200000, "no done"
    assert code == 1
    assert [v for v, _ in taken] == elements(ram.read(0x300, 7 * eb), eb)
    rest = []
    dut.m_axis_tready.value = 1
    for _ in range(200):
        await ReadOnly()
        if int(dut.m_axis_tvalid.value):
            rest.append((int(dut.m_axis_tdata.value), int(dut.m_axis_tlast.value)))
        await RisingEdge(dut.clk)
    dut.m_axis_tready.value = 0
    assert rest == [(0, 0)] * 22 + [(0, 1)], rest
    # owed zeros not taken when the next call starts are dropped: it is whole
    got, _, code = await read_transfer(dut, rng, p, 0x100, 12, ready_p=0)
    assert code == 1 and got == []
    got, lasts, code = await read_transfer(dut, rng, p, 0x207, 33)
    assert code == 0 and got == elements(ram.read(0x207, 33 * eb), eb)
    assert lasts == [0] * 32 + [1]
    # too long for LEN_WIDTH
    got, _, code = await read_transfer(dut, rng, p, 0, (1 << p["LEN_WIDTH"]) // eb)
    assert code == 4 and got == []


async def write_transfer(dut, rng, p, addr, count, stream, limit=200000):
    """Start, offer ``stream`` [(value, tlast)] with random gaps until done; (code, count)."""
    await start(dut, addr, count)
    i = 0
    for _ in range(limit):
        offer = i < len(stream) and rng.random() >= p["stall"]
        if offer:
            dut.s_axis_tdata.value = stream[i][0]
            dut.s_axis_tlast.value = stream[i][1]
        dut.s_axis_tvalid.value = int(offer)
        await ReadOnly()
        if offer and int(dut.s_axis_tready.value):
            i += 1
        done = int(dut.done.value)
        code, n = int(dut.done_code.value), int(dut.done_count.value)
        await RisingEdge(dut.clk)
        if done:
            dut.s_axis_tvalid.value = 0
            return code, n, i
    raise AssertionError(f"no done after {limit} cycles")


@cocotb.test()
async def wr_transfers(dut):
    if not is_top(dut, "pp_buf_wr"):
        return
    p = params(dut)
    rng = random.Random(p["seed"])
    bits = p["ELEM_BITS"]
    eb = bits // 8
    ram = await setup(dut, p, rng, write=True)
    for step in range(p["steps"]):
        count = rng.choice([1, 2, 3, 5, rng.randrange(1, 400)])
        addr = rng.randrange(8, RAM - count * eb - 8)
        if step % 3 == 0:
            addr -= addr % eb
        early = rng.random() < 0.3 and count > 1
        n = rng.randrange(1, count) if early else count
        values = [rng.getrandbits(bits) for _ in range(n)]
        stream = [(v, int(early and k == n - 1)) for k, v in enumerate(values)]
        fill = bytes([0xA5]) * (count * eb + 16)
        ram.write(addr - 8, fill)
        code, written, _ = await write_transfer(dut, rng, p, addr, count, stream)
        assert (code, written) == (0, n), (step, code, written, n)
        data = ram.read(addr - 8, count * eb + 16)
        assert data[:8] == fill[:8]
        assert elements(data[8:8 + n * eb], eb) == values, (step, addr, count, n)
        assert data[8 + n * eb:] == fill[8 + n * eb:]
    # elements beyond the count: dropped while idle, never in the next buffer
    stream = [(k + 1, 0) for k in range(10)]
    code, written, taken = await write_transfer(dut, rng, p, 0x400, 4, stream)
    assert (code, written) == (0, 4)
    for _ in range(20):       # the module goes on offering the rest: dropped
        dut.s_axis_tvalid.value = 1
        dut.s_axis_tdata.value = 0x7F
        await RisingEdge(dut.clk)
    dut.s_axis_tvalid.value = 0
    code, written, _ = await write_transfer(dut, rng, p, 0x800, 2, [(0x11, 0), (0x22, 1)])
    assert (code, written) == (0, 2) and elements(ram.read(0x800, 2 * eb), eb) == [0x11, 0x22]
    # a stream that never comes: timeout, then a whole transfer
    code, written, _ = await write_transfer(dut, rng, p, 0x900, 8, [])
    assert (code, written) == (1, 0)
    code, written, _ = await write_transfer(dut, rng, p, 0x901, 3, [(5, 0), (6, 0), (7, 0)])
    assert (code, written) == (0, 3) and elements(ram.read(0x901, 3 * eb), eb) == [5, 6, 7]
    # too long for LEN_WIDTH
    code, written, _ = await write_transfer(dut, rng, p, 0, (1 << p["LEN_WIDTH"]) // eb, [])
    assert (code, written) == (4, 0)


PARAM_SETS = [
    {"ELEM_BITS": 32, "MAX_BURST": 16, "FIFO_LOG2": 5, "pause": 0.3, "stall": 0.5},
    {"ELEM_BITS": 8, "MAX_BURST": 16, "FIFO_LOG2": 5, "pause": 0.5, "stall": 0.3},
    {"ELEM_BITS": 16, "MAX_BURST": 4, "FIFO_LOG2": 3, "pause": 0.0, "stall": 0.0,
     "rd_cycles": [7, 135]},
]


@pytest.mark.parametrize("simulator,params", sim_matrix(PARAM_SETS))
@pytest.mark.parametrize("top", ["pp_buf_rd", "pp_buf_wr"])
def test_buf_engines(top, simulator, params):
    hdl = {k: v for k, v in params.items() if k.isupper()}
    hdl.update(TIMEOUT=300, LEN_WIDTH=16)
    p = dict(params, LEN_WIDTH=16, steps=25, seed=hash(json.dumps(params, sort_keys=True)) % 1000)
    run_cocotb(toplevel=top, sources=cores_rtl(["axi_dma"]), test_module="test_buf_engines",
               test_dir=Path(__file__).parent, parameters=hdl, simulator=simulator,
               extra_env={"BUFDMA_PARAMS": json.dumps(p)},
               testcase="rd_transfers" if top == "pp_buf_rd" else "wr_transfers")
