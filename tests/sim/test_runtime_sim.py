"""The Python runtime driving a generated system in cocotb (pushpush.sim).

The system (rtsys/system.yaml): rtl component ``dev`` (rtsys/rtl/rtsim_dev.v) and python
component ``host``, generated and simulated whole; the ARM is cocotbext-axi (AxiMaster on
the top's ``s_axi``, AxiRam on ``m_axi`` holding host's window), the runtime is
AsyncRuntime over CocotbBackend, all set up by ``pushpush.sim.cocotb_system``.

- Python calls hardware with every scalar type (i64/u64/f32/f64/bool, negative values and
  the extremes), hardware calls Python with them (``relay`` -> ``host.take``).
- Function values both ways: a Python callable passed to hardware (``apply``), hardware's
  own function returned to Python (``get_neg``) and passed to Python as an argument
  (``offer`` -> ``host.use_neg(neg64, x)``), and passed back to hardware.
- A Python callee that raises: hardware sees ``result_error``; a Python caller gets a
  CallError naming ``host.boom``.
- Several concurrent callers (cocotb tasks), with hardware calling Python meanwhile.
- A call that times out (``hang`` completes only after ``grant``), then the late reply and
  a system that keeps serving.
- Bad argument types and out-of-range values: TypeError/OverflowError naming the
  parameter, and no AXI write at all.
"""

from __future__ import annotations

import math
import os
import random
import struct
from pathlib import Path

import pytest

from pushpush.testing import sim_matrix

HERE = Path(__file__).resolve().parent
ERR = 0x0BAD_0BAD_0BAD_0BAD


def wrap64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


try:
    import cocotb
    from cocotb.triggers import RisingEdge
except ImportError:  # collected by pytest without cocotb
    cocotb = None

if cocotb is not None:
    from pushpush.protocol import CallError, CallTimeout, ErrorCode
    from pushpush.runtime import RemoteFunction
    from pushpush.sim import cocotb_system

    async def count_writes(dut, box: list[int]) -> None:
        """Count AW handshakes on the ARM's port (every call or return the runtime writes)."""
        while True:
            await RisingEdge(dut.clk)
            if int(dut.s_axi_awvalid.value) and int(dut.s_axi_awready.value):
                box[0] += 1

    @cocotb.test()
    async def types_and_function_values(dut):
        rng = random.Random(11)
        taken: list[tuple] = []
        async with cocotb_system(dut, "host") as rt:
            @rt.export("take")
            def take(a, b, c, d, e):
                taken.append((a, b, c, d, e))
                if a == 13:
                    raise ValueError("unlucky 13")
                return wrap64(a + (b if e else -b))

            @rt.export("use_neg")
            async def use_neg(f, x):
                assert isinstance(f, RemoteFunction)
                return 2 * await f(x)          # calls back into hardware (dev.neg64)

            @rt.export("boom")
            def boom(x):
                raise RuntimeError(f"boom {x}")

            # Python calls hardware: every type, negative values and extremes
            for x in [0, 1, -1, 5, -(1 << 63), (1 << 63) - 1] + [rng.randint(-(1 << 63), (1 << 63) - 1) for _ in range(4)]:
                assert await rt.dev.neg64(x) == wrap64(-x), x
            for x in [0, 1, (1 << 32) - 1, (1 << 64) - 1] + [rng.randrange(1 << 64) for _ in range(3)]:
                assert await rt.dev.inc64(x) == (x + 1) % (1 << 64), x
            for x in [0.0, 1.5, -2.25, 1e300, -5e-324, math.inf, rng.uniform(-1e6, 1e6)]:
                got = await rt.dev.fneg(x)
                assert got == -x and math.copysign(1, got) == -math.copysign(1, x), (x, got)
            assert math.isnan(await rt.dev.fneg(math.nan))
            for x in [0.0, 1.5, -0.25, 3.0e38, 0.1, rng.uniform(-1e3, 1e3)]:
                assert await rt.dev.fneg32(x) == -f32(x), x
            assert await rt.dev.inv(True) is False
            assert await rt.dev.inv(False) is True

            # hardware calls Python with every type (relay -> host.take)
            cases = [(-1, (1 << 64) - 1, 1.5, -2.5, True), (-(1 << 63), 0, -0.0, math.inf, False),
                     ((1 << 63) - 1, 1 << 63, 3.0e38, 1e-300, True), (7, 5, 0.1, 0.2, False)]
            for a, b, c, d, e in cases:
                got = await rt.dev.relay(a, b, c, d, e)
                assert got == wrap64(a + (b if e else -b)), (a, b, c, d, e, got)
                ta, tb, tc, td, te = taken[-1]
                assert (ta, tb, tc, td, te) == (a, b, f32(c), d, e), taken[-1]
                assert type(te) is bool and type(tc) is float and type(ta) is int
                assert math.copysign(1, tc) == math.copysign(1, c)

            # a Python callee that raises: the hardware caller sees result_error
            assert await rt.dev.relay(13, 1, 0.0, 0.0, True) == ERR
            assert [n for n, _ in rt.errors] == ["host.take"]
            assert "unlucky 13" in str(rt.errors[0][1])
            rt.errors.clear()

            # Python passes Python functions to hardware, which calls them back
            assert await rt.dev.apply(lambda x: 3 * x, 5) == 16
            assert await rt.dev.apply(lambda x: x - 10, 3) == -6
            assert await rt.dev.apply(f=lambda x: x, x=(1 << 63) - 2) == (1 << 63) - 1

            async def slow_square(x):
                await RisingEdge(dut.clk)
                return x * x
            assert await rt.dev.apply(slow_square, -9) == 82
            assert await rt.dev.apply(lambda x: 1 // 0, 1) == ERR           # callback raises
            assert len(rt.errors) == 1 and rt.errors[0][0].startswith("host.<")   # a lent callback
            assert isinstance(rt.errors[0][1], ZeroDivisionError)
            rt.errors.clear()
            # an export with a dynamic slot, passed by address: hardware calls host.boom
            assert await rt.dev.apply(rt.exports["boom"], 4) == ERR
            assert [n for n, _ in rt.errors] == ["host.boom"]
            rt.errors.clear()
            # a Python caller of a raising function gets a CallError naming it
            try:
                await rt.function(rt.exports["boom"].address, "(x: i64) -> i64")(7)
                raise AssertionError("no CallError")
            except CallError as e:
                assert e.code is ErrorCode.CALLEE_RAISED and e.function == "host.boom", e
                assert "boom 7" in str(e)
            rt.errors.clear()

            # hardware's own function, returned to Python, called, passed back to hardware
            neg = await rt.dev.get_neg()
            assert isinstance(neg, RemoteFunction)
            assert neg.address == rt.linked.component("dev").slots[
                rt.linked.component("dev").export("neg64").dynamic_slots[0]].address
            assert await neg(9) == -9
            assert await neg(x=-(1 << 62)) == 1 << 62
            assert await rt.dev.apply(neg, 4) == -3                           # hardware -> hardware
            # hardware passes its function to Python as an argument (offer -> host.use_neg)
            assert await rt.dev.offer(21) == -42
            assert await rt.dev.offer(-(1 << 40)) == 1 << 41

            assert rt.allocator.in_use == []
        assert int(dut.dev_inst.pp_collisions.value) == 0

    @cocotb.test()
    async def concurrent_callers(dut):
        async with cocotb_system(dut, "host") as rt:
            taken = []

            @rt.export("take")
            def take(a, b, c, d, e):
                taken.append(a)
                return a * 2

            @rt.export("use_neg")
            async def use_neg(f, x):
                return await f(x) - 1

            rt.export("boom", lambda x: x)

            async def negs(k):
                out = []
                for i in range(4):
                    out.append(await rt.dev.neg64(100 * k + i))
                return out

            async def applies(k):
                return [await rt.dev.apply(lambda x, k=k: x * k, i) for i in range(3)]

            tasks = [cocotb.start_soon(negs(k)) for k in range(3)]
            tasks += [cocotb.start_soon(applies(k)) for k in (2, 3)]
            tasks += [cocotb.start_soon(rt.dev.relay(i, 0, 0.0, 0.0, False)) for i in range(3)]
            tasks += [cocotb.start_soon(rt.dev.offer(i)) for i in (5, 6)]
            tasks += [cocotb.start_soon(rt.dev.inc64(i)) for i in range(3)]
            got = [await t for t in tasks]
            assert got[:3] == [[-(100 * k + i) for i in range(4)] for k in range(3)]
            assert got[3:5] == [[i * k + 1 for i in range(3)] for k in (2, 3)]
            assert got[5:8] == [0, 2, 4] and sorted(taken) == [0, 1, 2]
            assert got[8:10] == [-6, -7]
            assert got[10:] == [1, 2, 3]
            assert rt.allocator.in_use == []
        assert int(dut.dev_inst.pp_collisions.value) == 0

    @cocotb.test()
    async def timeout_then_keeps_serving(dut):
        sim = cocotb_system(dut, "host", timeout=200e-6)
        assert sim.ps.pause == float(os.environ.get("PUSHPUSH_SIM_PAUSE", "0"))
        async with sim as rt:
            rt.export("take", lambda a, b, c, d, e: -a)
            rt.export("use_neg", lambda f, x: 0)
            rt.export("boom", lambda x: x)
            t0 = sim.ps.now()
            try:
                await rt.dev.hang(7, timeout=20e-6)
                raise AssertionError("no CallTimeout")
            except CallTimeout as e:
                assert isinstance(e, TimeoutError) and e.function == "dev.hang" and "dev.hang" in str(e)
            waited = sim.ps.now() - t0
            assert 20e-6 <= waited < 21e-6, waited
            # the rest of the system still works, both ways
            assert await rt.dev.neg64(3) == -3
            assert await rt.dev.relay(5, 0, 0.0, 0.0, True) == -5
            # the hung call is released: its late reply lands in the quarantined rep
            await rt.dev.grant(2)
            assert await rt.dev.hang(8) == 9         # (a run-time rep if the late reply is not in yet)
            assert await rt.dev.neg64(1) == -1       # every call first sweeps the quarantine
            assert rt.allocator.in_use == [] and not rt._quarantine
            # a second timeout while the first's slot is still taken
            try:
                await rt.dev.hang(10, timeout=5e-6)
                raise AssertionError("no CallTimeout")
            except CallTimeout:
                pass
            await rt.dev.grant(1)
            assert await rt.dev.neg64(-4) == 4

    @cocotb.test()
    async def bad_arguments_write_nothing(dut):
        async with cocotb_system(dut, "host") as rt:
            rt.export("take", lambda a, b, c, d, e: 0)
            rt.export("use_neg", lambda f, x: 0)
            rt.export("boom", lambda x: x)
            assert await rt.dev.neg64(1) == -1
            writes = [0]
            cocotb.start_soon(count_writes(dut, writes))
            bad = [
                (TypeError, "x", lambda: rt.dev.neg64("12")),
                (TypeError, "x", lambda: rt.dev.neg64(1.0)),
                (TypeError, "x", lambda: rt.dev.neg64(True)),
                (OverflowError, "x", lambda: rt.dev.neg64(1 << 63)),
                (OverflowError, "x", lambda: rt.dev.inc64(-1)),
                (OverflowError, "x", lambda: rt.dev.inc64(1 << 64)),
                (OverflowError, "x", lambda: rt.dev.fneg32(1e39)),
                (TypeError, "x", lambda: rt.dev.fneg("1.0")),
                (OverflowError, "x", lambda: rt.dev.inv(2)),
                (TypeError, "x", lambda: rt.dev.inv("yes")),
                (OverflowError, "b", lambda: rt.dev.relay(0, -5, 0.0, 0.0, False)),
                (TypeError, "e", lambda: rt.dev.relay(0, 0, 0.0, 0.0, None)),
                (TypeError, "f", lambda: rt.dev.apply("nope", 1)),
                (TypeError, "x", lambda: rt.dev.apply(lambda x: x)),
                (TypeError, "y", lambda: rt.dev.neg64(1, y=2)),
            ]
            for exc, name, make in bad:
                try:
                    await make()
                except exc as e:
                    assert f"'{name}'" in str(e) or name in str(e), (name, str(e))
                else:
                    raise AssertionError(f"no {exc.__name__} for parameter {name}")
            await RisingEdge(dut.clk)
            assert writes[0] == 0, f"{writes[0]} writes for bad calls"
            assert rt.allocator.in_use == []
            assert await rt.dev.neg64(2) == -2       # and calls still work
            assert writes[0] == 1


    @cocotb.test()
    async def export_errors_fail_the_block(dut):
        """An exported function that raised while serving fails the test at the block's end
        (check_errors), naming it, unless the test cleared rt.errors."""
        try:
            async with cocotb_system(dut, "host") as rt:
                rt.export("take", lambda a, b, c, d, e: 1 // 0)
                assert await rt.dev.relay(1, 2, 0.0, 0.0, True) == ERR
        except AssertionError as e:
            assert "host.take" in str(e) and "ZeroDivisionError" in str(e), str(e)
        else:
            raise AssertionError("the block did not report host.take's exception")


VARIANTS = [
    {"topology": "crossbar", "data_width": 32, "pause": 0.0},
    {"topology": "shared", "data_width": 64, "pause": 0.3},
]


@pytest.mark.parametrize("simulator,params", sim_matrix(VARIANTS))
def test_runtime_sim(simulator, params, tmp_path):
    from pushpush.sim import simulate_system

    simulate_system("rtsys/system.yaml", simulator=simulator, build_dir=tmp_path,
                    interconnect={"topology": params["topology"], "data_width": params["data_width"]},
                    pause=params["pause"], seed=7)
