"""A generated system with function-typed parameters, imports into the ARM's window, void
results and mixed-width types (tests/gen/hof/system.yaml), simulated whole.

- ``mixer.mix(a: i8, b: u16, c: i64, d: bool) -> i64``: sign/zero extension, 64-bit values
  split over two words, bool.
- ``mixer.store(v)``: a void export whose module first calls ``host.log(v)`` (an rtl import
  served by the ARM in on-chip memory), then ``mixer.load()`` reads the value back.
- ``mapper.apply(f, x) = f(f(x)) + 1`` with ``f`` a function value: both dynamic slots of the
  rtl ``sq`` (which answers a cycle after the call), the ARM's own ``neg`` (so the hardware
  calls software), and an unmapped address (the write fails: result_error, 0xDEAD0000).

Runs on the crossbar and the shared bus, 32- and 64-bit data, with back-pressure on the ARM's
ports in one variant.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from pushpush.build.sim import run_cocotb
from pushpush.testing import sim_matrix

MASK = 0xFFFF_FFFF
HERE = Path(__file__).resolve().parent


def i32(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


def i64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import RisingEdge, with_timeout
except ImportError:
    cocotb = None

if cocotb is not None:

    @cocotb.test()
    async def hof(dut):
        from ps_model import Arm

        from pushpush.sysmap import from_json

        linked = from_json(Path(os.environ["PP_MAP"]).read_text())
        pause = float(os.environ.get("PP_PAUSE", "0"))
        rng = random.Random(5)
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        arm = Arm(dut, linked, pause, seed=3)
        dut.rst.value = 1
        for _ in range(5):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        await RisingEdge(dut.clk)
        log: list = []
        cocotb.start_soon(arm.serve({"neg": lambda x: i32(-x), "log": lambda v: None}, log=log))

        async def call(target, *args):
            res, status = await with_timeout(arm.call(target, *args), 50, "us")
            return res, status

        # mixed types
        cases = [(-1, 0xFFFF, 0, True), (-128, 1, -(1 << 63), True), (127, 0xFFFF, (1 << 63) - 1, False),
                 (5, 7, 0x1_0000_0000, False), (-3, 0, -1, True)]
        cases += [(rng.randint(-128, 127), rng.randint(0, 0xFFFF),
                   rng.randint(-(1 << 63), (1 << 63) - 1), rng.random() < 0.5) for _ in range(10)]
        for a, b, c, d in cases:
            res, status = await call("mixer.mix", a, b, c, d)
            want = i64(c + a if d else c - b)
            assert status == 1 and res == want, f"mix{(a, b, c, d)} = {res}, want {want}"

        # void export that calls the ARM first
        for v in (0, 1, MASK, 0x1234_5678):
            res, status = await call("mixer.store", v)
            assert status == 1 and res is None
            name, args, trig = log[-1]
            mixer = linked.component("mixer")
            assert (name, args) == ("log", [v])
            assert trig & ~3 == mixer.import_("host.log").rep_address
            res, status = await call("mixer.load")
            assert status == 1 and res == v

        # function values: rtl sq through both of its dynamic slots
        sq = linked.component("sq")
        for slot in sq.export("sq").dynamic_slots:
            addr = sq.slots[slot].address
            for x in (3, -7, 1000, rng.randint(-(1 << 31), (1 << 31) - 1)):
                res, status = await call("mapper.apply", addr, x)
                want = i32(i32(x * x) ** 2 + 1)
                assert status == 1 and res == want, f"apply(sq, {x}) = {res}, want {want}"

        # a function value in the ARM's window: hardware calls software
        host = linked.component("host")
        neg = host.slots[host.export("neg").dynamic_slots[0]].address
        before = len(log)
        res, status = await call("mapper.apply", neg, 5)
        assert status == 1 and res == 6
        assert [(n, a) for n, a, _ in log[before:]] == [("neg", [5]), ("neg", [-5])]
        mapper = linked.component("mapper")
        assert all(t & ~3 == mapper.export("apply").callbacks[0].rep_address for _, _, t in log[before:])

        # an address nobody answers: the call's write fails, the module sees result_error
        res, status = await call("mapper.apply", linked.pl.base + linked.pl.size - 0x1000, 1)
        assert status == 1 and res == i32(0xDEAD0000)
        # ... and mapper counts it: its counters over AXI (collisions, duplicates, strays,
        # write_errors), at byte offsets 0x0..0xC of its window
        resp = await arm.master.read(mapper.base, 16)
        counters = [int.from_bytes(resp.data[4 * k:4 * k + 4], "little") for k in range(4)]
        assert counters == [0, 0, 0, 1], f"mapper counters {counters}"

        # everything at once: one task per import (each import has one static slot)
        async def mixes():
            for _ in range(8):
                a, b, c, d = (rng.randint(-128, 127), rng.randint(0, 0xFFFF),
                              rng.randint(-(1 << 63), (1 << 63) - 1), rng.random() < 0.5)
                res, status = await call("mixer.mix", a, b, c, d)
                assert status == 1 and res == i64(c + a if d else c - b)

        async def loads(v):
            for _ in range(8):
                res, status = await call("mixer.load")
                assert status == 1 and res == v

        async def applies():
            addr = sq.slots[sq.export("sq").dynamic_slots[0]].address
            for x in range(8):
                res, status = await call("mapper.apply", addr, x)
                assert status == 1 and res == i32(x ** 4 + 1)

        tasks = [cocotb.start_soon(t) for t in (mixes(), loads(0x1234_5678), applies())]
        for t in tasks:
            await t

        for comp in ("mapper", "sq", "mixer"):
            wrap = getattr(dut, f"{comp}_inst")
            assert int(wrap.pp_collisions.value) == 0, f"{comp}: collisions"
        assert int(dut.mapper_inst.pp_err_count.value) == 1
        assert int(dut.mixer_inst.pp_user_inst.log_errors_reg.value) == 0


VARIANTS = [
    {"topology": "crossbar", "data_width": 32, "pause": 0.0},
    {"topology": "crossbar", "data_width": 64, "pause": 0.3},
    {"topology": "shared", "data_width": 32, "pause": 0.3},
]


@pytest.mark.parametrize("simulator,params", sim_matrix(VARIANTS))
def test_hof(simulator, params, tmp_path):
    import yaml
    from gensim import generate_system, lint

    from pushpush.link import link
    from pushpush.spec import parse_system

    src = HERE / "hof" / "system.yaml"
    data = yaml.safe_load(src.read_text())
    data["interconnect"].update(topology=params["topology"], data_width=params["data_width"])
    linked = link(parse_system(yaml.safe_dump(data, sort_keys=False), file="system.yaml",
                               base_dir=src.parent))
    gen = generate_system(linked, tmp_path / "gen")
    assert lint(gen.sources, gen.top) == []
    run_cocotb(toplevel=gen.top, sources=gen.sources, test_module="test_hof", test_dir=HERE,
               simulator=simulator, build_dir=tmp_path / "sim",
               extra_env={"PP_MAP": str(gen.map_path), "PP_PAUSE": str(params["pause"])})
