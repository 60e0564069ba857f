"""The AsyncRuntime over cocotbext-axi (CocotbBackend) under cocotb's scheduler.

Two Python components' windows live in an AxiRam (the ARM's on-chip memory); their calls
and returns are AXI bursts from an AxiMaster (the ARM's GP0) through a wire-through fixture
(pp_rt_loopback.v). This checks the backend and that the async driver needs no asyncio
event loop. Timeouts are simulated seconds (100 MHz clock: 10 ns per cycle).
"""

from __future__ import annotations

from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiBus, AxiMaster, AxiRam

HERE = Path(__file__).resolve().parent


@cocotb.test()
async def runtime_over_axi(dut) -> None:  # type: ignore[no-untyped-def]
    from runtime_systems import exact, two_py

    from pushpush.protocol import CallError, CallTimeout, ErrorCode
    from pushpush.runtime import AsyncRuntime
    from pushpush.runtime.cocotb_backend import CocotbBackend

    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())  # type: ignore[arg-type]
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)

    linked = two_py()
    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=linked.ps.size)

    def backend() -> CocotbBackend:
        return CocotbBackend(master, ram, ram_base=linked.ps.base, clock=dut.clk, poll_cycles=4)

    a = AsyncRuntime(linked, "a", backend(), timeout=200e-6)
    b = AsyncRuntime(linked, "b", backend(), timeout=200e-6)
    a.export("inc", lambda x: x + 1)
    b.export("add", lambda x, y: x + y)

    @b.export("apply")
    async def apply(f, x):  # type: ignore[no-untyped-def]
        return 2 * await f(x)

    @b.export("boom")
    def boom(x):  # type: ignore[no-untyped-def]
        raise ValueError("boom")

    mixes: list[tuple[object, ...]] = []
    b.export("mix", lambda *args: mixes.append(args) or float(args[0]) + float(args[1]) + sum(args[2:]))

    async with a, b:
        assert await a.b.add(2, 3) == 5
        assert await b.a.inc(-1) == 0
        assert await a.b.apply(lambda x: x * 7, 3) == 42
        assert await a.b.mix(-2**40, 2**64 - 1, 0.5, -0.25, True, -1, 1) == float(-2**40) + float(2**64 - 1) + 1.25
        # each argument exactly (the sum rounds c..h away under b's 2**64 - 1)
        for args in [(-2**40, 2**64 - 1, 0.5, -0.25, True, -1, 1), (2**63 - 1, 2**63, -0.0, 5e-324, False, -128, 0x8000),
                     (-2**63, 1, float("inf"), -0.0, True, 127, 65535)]:
            mixes.clear()
            await a.b.mix(*args)
            assert [exact(v) for v in mixes[0]] == [exact(v) for v in args], (mixes, args)
        try:
            await a.b.boom(1)
            raise AssertionError("no CallError")
        except CallError as e:
            assert e.code is ErrorCode.CALLEE_RAISED and e.function == "b.boom"
        t0 = backend().now()
        try:
            await a.b.nobody(timeout=20e-6)
            raise AssertionError("no CallTimeout")
        except CallTimeout as e:
            assert "b.nobody" in str(e)
        assert 20e-6 <= backend().now() - t0 < 25e-6
        # concurrent callers: several tasks through the same import and a callback each
        tasks = [cocotb.start_soon(a.b.add(i, 100)) for i in range(5)]
        tasks += [cocotb.start_soon(a.b.apply(lambda x, i=i: x + i, i)) for i in range(3)]
        got = [await t for t in tasks]
        assert got == [i + 100 for i in range(5)] + [4 * i for i in range(3)]
        assert a.allocator.in_use == [] and b.allocator.in_use == []
        # one call's cost in clock cycles over this zero-latency fixture (informative)
        t0 = backend().now()
        await a.b.add(1, 1)
        dut._log.info("a.b.add round trip: %.0f cycles", (backend().now() - t0) / 10e-9)


@cocotb.test()
async def every_type_over_axi(dut) -> None:  # type: ignore[no-untyped-def]
    """Each scalar type's edge values through AXI bursts, bit for bit: as a result (one echo
    export per type) and as an argument among all the others (``every`` records)."""
    from runtime_systems import ECHO_TYPES, ECHO_VALUES, echo_rows, echo_system, exact

    from pushpush.runtime import AsyncRuntime
    from pushpush.runtime.cocotb_backend import CocotbBackend

    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())  # type: ignore[arg-type]
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)

    linked = echo_system()
    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=linked.ps.size)

    def backend() -> CocotbBackend:
        return CocotbBackend(master, ram, ram_base=linked.ps.base, clock=dut.clk, poll_cycles=4)

    caller = AsyncRuntime(linked, "caller", backend(), timeout=200e-6)
    callee = AsyncRuntime(linked, "callee", backend(), timeout=200e-6)
    for t in ECHO_TYPES:
        callee.export(f"echo_{t}", lambda x: x)
    got: list[tuple[object, ...]] = []
    callee.export("every", lambda *args: got.append(args) or len(got))
    async with caller, callee:
        for t in ECHO_TYPES:
            echo = caller.imports[f"callee.echo_{t}"]
            for v in ECHO_VALUES[t]:
                assert exact(await echo(v)) == exact(v), (t, v)
        rows = echo_rows()
        for i, row in enumerate(rows):
            assert await caller.callee.every(*row) == i + 1
        assert [[exact(v) for v in r] for r in got] == [[exact(v) for v in r] for r in rows]


@pytest.mark.parametrize("simulator", ["icarus"])
def test_cocotb_backend(simulator: str) -> None:
    from pushpush.build.sim import run_cocotb
    from pushpush.testing import selected_simulators

    if simulator not in selected_simulators():
        pytest.skip(f"{simulator} not available")
    run_cocotb(toplevel="pp_rt_loopback", sources=[HERE / "pp_rt_loopback.v"],
               test_module="test_cocotb_backend", test_dir=HERE, simulator=simulator)
