"""tests/gen/hof (higher-order calls both ways) driven by the real runtime instead of the
hand-written ARM model (tests/gen/ps_model.py): the same calls as tests/gen/test_hof.py,
made and served by AsyncRuntime through pushpush.sim.cocotb_system.

- ``mixer.mix(a: i8, b: u16, c: i64, d: bool) -> i64``; ``mixer.store(v)`` calls
  ``host.log(v)`` (a Python export) before completing; ``mixer.load()`` reads it back.
- ``mapper.apply(f, x) = f(f(x)) + 1`` with f: both dynamic slots of the rtl ``sq``, the
  Python export ``host.neg`` (by its address), a Python lambda (lent for the call), and an
  unmapped address (the hardware's call fails: 0xDEAD0000).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pushpush.testing import sim_matrix

HERE = Path(__file__).resolve().parent
HOF = HERE.parent / "gen" / "hof" / "system.yaml"


def i32(v: int) -> int:
    v &= 0xFFFF_FFFF
    return v - (1 << 32) if v >> 31 else v


def i64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


try:
    import cocotb
except ImportError:
    cocotb = None

if cocotb is not None:
    from pushpush.sim import cocotb_system

    @cocotb.test()
    async def hof_with_runtime(dut):
        rng = random.Random(5)
        logged: list[int] = []
        async with cocotb_system(dut, "host") as rt:
            linked = rt.linked
            rt.export("neg", lambda x: i32(-x))
            rt.export("log", logged.append)

            cases = [(-1, 0xFFFF, 0, True), (-128, 1, -(1 << 63), True), (127, 0xFFFF, (1 << 63) - 1, False)]
            cases += [(rng.randint(-128, 127), rng.randint(0, 0xFFFF), rng.randint(-(1 << 63), (1 << 63) - 1),
                       rng.random() < 0.5) for _ in range(6)]
            for a, b, c, d in cases:
                assert await rt.mixer.mix(a, b, c, d) == i64(c + a if d else c - b), (a, b, c, d)

            for v in (0, 1, 0xFFFF_FFFF, 0x1234_5678):
                assert await rt.mixer.store(v) is None
                assert logged[-1] == v                      # hardware called Python first
                assert await rt.mixer.load() == v

            sq = linked.component("sq")
            for slot in sq.export("sq").dynamic_slots:
                addr = sq.slots[slot].address
                for x in (3, -7, 1000):
                    assert await rt.mapper.apply(addr, x) == i32(i32(x * x) ** 2 + 1)
            assert await rt.mapper.apply(rt.exports["neg"], 5) == 6           # hardware -> Python
            assert await rt.mapper.apply(lambda x: 3 * x, 2) == 19            # a lent lambda
            unmapped = linked.pl.base + linked.pl.size - 0x1000
            assert await rt.mapper.apply(unmapped, 1) == i32(0xDEAD0000)

            async def mixes():
                for _ in range(6):
                    a, b, c, d = (rng.randint(-128, 127), rng.randint(0, 0xFFFF),
                                  rng.randint(-(1 << 63), (1 << 63) - 1), rng.random() < 0.5)
                    assert await rt.mixer.mix(a, b, c, d) == i64(c + a if d else c - b)

            async def loads():
                for _ in range(6):
                    assert await rt.mixer.load() == 0x1234_5678

            async def applies(k):
                for x in range(4):
                    assert await rt.mapper.apply(lambda y: y + k, x) == x + 2 * k + 1

            tasks = [cocotb.start_soon(t) for t in (mixes(), loads(), applies(1), applies(10))]
            for t in tasks:
                await t
            assert rt.allocator.in_use == []
        for comp in ("mapper", "sq", "mixer"):
            assert int(getattr(dut, f"{comp}_inst").pp_collisions.value) == 0, comp
        assert int(dut.mapper_inst.pp_err_count.value) == 1


@pytest.mark.parametrize("simulator,params", sim_matrix([
    {"topology": "crossbar", "data_width": 32, "pause": 0.0},
    {"topology": "shared", "data_width": 64, "pause": 0.3},
], verilator_sets=0))
def test_hof_runtime(simulator, params, tmp_path):
    from pushpush.sim import simulate_system

    simulate_system(HOF, simulator=simulator, build_dir=tmp_path, pause=params["pause"], seed=3,
                    interconnect={"topology": params["topology"], "data_width": params["data_width"]})
