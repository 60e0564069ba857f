"""cocotb bench of cores/axi_gpio (pp_axi_gpio, PG144's registers), driven from pytest.

A cocotbext-axi ``AxiLiteMaster`` with random pauses on every channel drives the registers
against a model of PG144: GPIO_DATA reads the input pins where GPIO_TRI is 1 and the output
register where it is 0, writes go to the output register (byte strobes honoured), an
all-inputs channel drops data writes, an all-outputs one has no tri-state register (reads 0),
channel 2 exists only with IS_DUAL; an input change sets the channel's ISR bit, a write of 1
toggles it, ip2intc_irpt = GIER[31] & |(ISR & IER). Random register traffic and pin changes,
each read checked. Parameters (widths, dual, all-in/out, pause, seed) come in GPIO_PARAMS.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster


def _pause(p: float, rng: random.Random):
    while True:
        yield rng.random() < p


class Model:
    """PG144's registers, as software sees them."""

    def __init__(self, p: dict) -> None:
        self.p = p
        self.m1 = (1 << p["GPIO_WIDTH"]) - 1
        self.m2 = (1 << p["GPIO2_WIDTH"]) - 1
        self.data = [0, 0]
        self.tri = [0 if p["ALL_OUTPUTS"] else self.m1, self.m2]
        self.pins = [0, 0]
        self.gie, self.isr, self.ier = 0, 0, 0

    def read(self, off: int) -> int:
        dual = self.p["IS_DUAL"]
        if off in (0x0, 0x8):
            ch = off // 8
            if ch and not dual:
                return 0
            if (self.p["ALL_INPUTS"], self.p["ALL_INPUTS_2"])[ch]:
                return self.pins[ch]
            return (self.pins[ch] & self.tri[ch]) | (self.data[ch] & ~self.tri[ch] & (self.m1, self.m2)[ch])
        if off == 0x4:
            return self.tri[0]
        if off == 0xC:
            return self.tri[1] if dual else 0
        return {0x11C: self.gie << 31, 0x120: self.isr, 0x128: self.ier}.get(off, 0)

    def write(self, off: int, value: int, strb: int) -> None:
        mask = sum(0xFF << (8 * i) for i in range(4) if strb >> i & 1)
        merge = (lambda old, m: ((old & ~mask) | (value & mask)) & m)
        dual = self.p["IS_DUAL"]
        if off == 0x0 and not self.p["ALL_INPUTS"]:
            self.data[0] = merge(self.data[0], self.m1)
        elif off == 0x4 and not self.p["ALL_OUTPUTS"]:
            self.tri[0] = merge(self.tri[0], self.m1)
        elif off == 0x8 and dual and not self.p["ALL_INPUTS_2"]:
            self.data[1] = merge(self.data[1], self.m2)
        elif off == 0xC and dual:
            self.tri[1] = merge(self.tri[1], self.m2)
        elif off == 0x11C and strb & 8:
            self.gie = value >> 31 & 1
        elif off == 0x120 and strb & 1:
            self.isr ^= value & 3
        elif off == 0x128 and strb & 1:
            self.ier = value & 3

    @property
    def irq(self) -> int:
        return int(bool(self.gie and self.isr & self.ier))


@cocotb.test()
async def gpio_random(dut):
    p = json.loads(os.environ["GPIO_PARAMS"])
    rng = random.Random(p["seed"])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.gpio_io_i.value = 0
    dut.gpio2_io_i.value = 0
    master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
    for c in (master.write_if.aw_channel, master.write_if.w_channel, master.write_if.b_channel,
              master.read_if.ar_channel, master.read_if.r_channel):
        c.set_pause_generator(_pause(p["pause"], random.Random(rng.getrandbits(32))))
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    model = Model(p)
    offs = [0x0, 0x4, 0x8, 0xC, 0x11C, 0x120, 0x128, 0x10]
    for _ in range(300):
        what = rng.random()
        if what < 0.15:     # the pins change (the board's buttons)
            ch = rng.randrange(2)
            new = rng.getrandbits((p["GPIO_WIDTH"], p["GPIO2_WIDTH"])[ch])
            (dut.gpio_io_i, dut.gpio2_io_i)[ch].value = new
            if new != model.pins[ch] and (ch == 0 or p["IS_DUAL"]):
                model.isr |= 1 << ch
            model.pins[ch] = new
            await ClockCycles(dut.clk, 3)
        elif what < 0.6:
            off = rng.choice(offs)
            value = rng.getrandbits(32)
            strb = rng.choice([0xF, 0xF, 0x1, 0x3, 0xC, 0x8])
            if strb == 0xF:
                await master.write_dword(off, value)
            else:
                await _strobed(master, off, value, strb)
            model.write(off, value, strb)
        else:
            off = rng.choice(offs)
            got = await master.read_dword(off)
            assert got == model.read(off), (hex(off), hex(got), hex(model.read(off)))
        await RisingEdge(dut.clk)
        assert int(dut.ip2intc_irpt.value) == model.irq
        assert int(dut.gpio_io_o.value) == model.data[0]
        assert int(dut.gpio_io_t.value) == model.tri[0]


async def _strobed(master, off: int, value: int, strb: int) -> None:
    """A write of the bytes ``strb`` selects (cocotbext-axi sets WSTRB from the bytes)."""
    lanes = [i for i in range(4) if strb >> i & 1]
    lo, hi = lanes[0], lanes[-1]
    await master.write(off + lo, value.to_bytes(4, "little")[lo:hi + 1])


PARAM_SETS = [
    {"GPIO_WIDTH": 32, "GPIO2_WIDTH": 32, "IS_DUAL": 0, "ALL_INPUTS": 0, "ALL_INPUTS_2": 0,
     "ALL_OUTPUTS": 0, "ALL_OUTPUTS_2": 0, "pause": 0.0},
    {"GPIO_WIDTH": 4, "GPIO2_WIDTH": 4, "IS_DUAL": 1, "ALL_INPUTS": 0, "ALL_INPUTS_2": 1,
     "ALL_OUTPUTS": 1, "ALL_OUTPUTS_2": 0, "pause": 0.3},
    {"GPIO_WIDTH": 8, "GPIO2_WIDTH": 5, "IS_DUAL": 1, "ALL_INPUTS": 0, "ALL_INPUTS_2": 0,
     "ALL_OUTPUTS": 0, "ALL_OUTPUTS_2": 0, "pause": 0.5},
]


def _matrix():
    from pushpush.testing import sim_matrix
    return sim_matrix(PARAM_SETS)


@pytest.mark.parametrize("simulator,params", _matrix())
def test_axi_gpio(simulator, params):
    from pushpush.build.cores import cores_rtl
    from pushpush.build.sim import run_cocotb

    p = dict(params, seed=params["GPIO_WIDTH"] * 7 + int(params["pause"] * 10))
    hdl = {k: v for k, v in p.items() if k.isupper()}
    run_cocotb(toplevel="pp_axi_gpio", sources=cores_rtl(["axi_gpio"]),
               test_module="test_axi_gpio", test_dir=Path(__file__).parent,
               parameters=hdl, simulator=simulator, extra_env={"GPIO_PARAMS": json.dumps(p)})
