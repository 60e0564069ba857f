"""The cocotb side: the ARM of a simulated system, and a runtime on it.

The top of a generated system has a PS-to-PL AXI slave port ``s_axi`` (the ARM's GP0) and a
PL-to-PS AXI master port ``m_axi`` (into the ARM's on-chip memory, where the software
components' endpoint windows live). :class:`SimulatedPS` models the ARM with cocotbext-axi:
an ``AxiMaster`` on ``s_axi`` (the runtime's call and return writes) and an ``AxiRam`` on
``m_axi`` covering the linked ``ps`` region (the hardware's writes into software windows),
which the runtime polls directly, without bus traffic, as the ARM polls its OCM.

Usual use, in a cocotb test::

    from pushpush.sim import cocotb_system

    @cocotb.test()
    async def smoke(dut):
        async with cocotb_system(dut, "host") as rt:    # clock, reset, ARM, serving runtime
            rt.export("coeff", lambda i: i + 1)          # hardware may call it from now on
            assert await rt.dev.neg64(5) == -5           # call an import
            f = await rt.dev.get_neg()                   # a hardware function value
            assert await f(7) == -7

With several software components, or to look at the ARM model::

    ps = SimulatedPS(dut, pause=0.3)
    await ps.start()                                     # clock and reset
    a, b = ps.runtime("a"), ps.runtime("b")
    async with a, b:
        ...
    ps.cycles                                            # clock cycles since reset

The linked system comes from the map that :func:`pushpush.sim.simulate_system` generated
(its path in ``$PUSHPUSH_SYSTEM_MAP``), unless given.
"""

from __future__ import annotations

import logging
import os
import random
from pathlib import Path
from typing import Any, Optional

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiMaster, AxiRam

from pushpush.link import LinkedSystem
from pushpush.runtime import AsyncRuntime
from pushpush.runtime.cocotb_backend import CocotbBackend

from .runner import COMPONENT_ENV, MAP_ENV, PAUSE_ENV, SEED_ENV

__all__ = ["DEFAULT_SIM_TIMEOUT", "SimulatedPS", "CocotbSystem", "cocotb_system", "system_from_env"]

#: Default per-call timeout in simulated seconds (100 000 cycles at 100 MHz).
DEFAULT_SIM_TIMEOUT = 1e-3


def system_from_env() -> LinkedSystem:
    """The linked system whose map ``$PUSHPUSH_SYSTEM_MAP`` names."""
    from pushpush.sysmap import from_json

    path = os.environ.get(MAP_ENV)
    if not path:
        raise RuntimeError(f"${MAP_ENV} is not set: run this cocotb test with "
                           "pushpush.sim.simulate_system(...), or pass linked= (a LinkedSystem)")
    return from_json(Path(path).read_text())


def _pauses(probability: float, seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    while True:
        yield rng.random() < probability


class SimulatedPS:
    """The ARM of a simulated system top: an AxiMaster on ``s_axi``, an AxiRam on ``m_axi``.

    - ``linked``: the system (default: :func:`system_from_env`).
    - ``pause``: probability of an idle cycle on every AXI channel of both ports (AW, W, B,
      AR, R), from cocotbext-axi pause generators (default ``$PUSHPUSH_SIM_PAUSE`` or 0);
      ``seed`` seeds them (default ``$PUSHPUSH_SIM_SEED`` or 1).
    - ``clk``/``rst``: the names of the top's clock and reset.
    - ``poll_cycles``: clock cycles between two polls of the window by the runtimes.
    """

    def __init__(self, dut: Any, linked: Optional[LinkedSystem] = None, *, pause: Optional[float] = None,
                 seed: Optional[int] = None, clk: str = "clk", rst: str = "rst", poll_cycles: int = 4) -> None:
        self.dut = dut
        self.linked = linked if linked is not None else system_from_env()
        self.clk = getattr(dut, clk)
        self.rst = getattr(dut, rst)
        self.poll_cycles = poll_cycles
        self.master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), self.clk, self.rst)
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), self.clk, self.rst, size=self.linked.ps.size)
        for port in (self.master, self.ram):
            for lg in (port.write_if.log, port.read_if.log):
                lg.setLevel(logging.WARNING)
        if pause is None:
            pause = float(os.environ.get(PAUSE_ENV, "0") or 0)
        if seed is None:
            seed = int(os.environ.get(SEED_ENV, "1") or 1)
        self.pause = pause
        self.seed = seed
        if pause:
            self.set_pause(pause, seed)
        self.cycles = 0
        self._started = False

    def channels(self) -> list[Any]:
        """Every AXI channel object of both ports (for ``set_pause_generator``)."""
        out = []
        for p in (self.master, self.ram):
            out += [p.write_if.aw_channel, p.write_if.w_channel, p.write_if.b_channel,
                    p.read_if.ar_channel, p.read_if.r_channel]
        return out

    def set_pause(self, probability: float, seed: int = 1) -> None:
        """Random idle cycles (``probability`` per cycle) on every channel; 0 removes them."""
        rng = random.Random(seed)
        for c in self.channels():
            if probability:
                c.set_pause_generator(_pauses(probability, rng.getrandbits(32)))
            else:
                c.clear_pause_generator()

    async def start(self, period_ns: float = 10.0, reset_cycles: int = 5, clock: bool = True) -> "SimulatedPS":
        """Start the clock (unless ``clock=False``: the test drives it), hold reset for
        ``reset_cycles`` cycles, release it, wait one more cycle; then count cycles."""
        if clock:
            Clock(self.clk, period_ns, unit="ns").start()
        self.rst.value = 1
        await ClockCycles(self.clk, reset_cycles)
        self.rst.value = 0
        await RisingEdge(self.clk)
        if not self._started:
            self._started = True
            cocotb.start_soon(self._count())
        return self

    async def _count(self) -> None:
        while True:
            await RisingEdge(self.clk)
            self.cycles += 1

    def default_component(self) -> str:
        """``$PUSHPUSH_COMPONENT``, else the system's only python component."""
        name = os.environ.get(COMPONENT_ENV)
        if name:
            return name
        py = [c.name for c in self.linked.components if c.kind == "python"]
        if len(py) != 1:
            raise ValueError(f"system '{self.linked.name}' has {len(py)} python components "
                             f"({', '.join(py) or 'none'}); say which one: component=...")
        return py[0]

    def backend(self) -> CocotbBackend:
        """A backend for one runtime (calls through the master, window in the RAM)."""
        return CocotbBackend(self.master, self.ram, ram_base=self.linked.ps.base, clock=self.clk,
                             poll_cycles=self.poll_cycles)

    def runtime(self, component: Optional[str] = None, timeout: float = DEFAULT_SIM_TIMEOUT) -> AsyncRuntime:
        """An (unstarted) AsyncRuntime for a software component; ``async with`` it to serve."""
        return AsyncRuntime(self.linked, component or self.default_component(), self.backend(),
                            timeout=timeout)

    def now(self) -> float:
        """Simulated time in seconds."""
        from cocotb.utils import get_sim_time
        return float(get_sim_time(unit="sec"))


class CocotbSystem:
    """``async with CocotbSystem(dut, "host") as rt``: the ARM started, ``rt`` serving.

    Keyword arguments: ``linked``, ``pause``, ``seed``, ``poll_cycles`` (see
    :class:`SimulatedPS`); ``timeout`` (simulated seconds per call, default
    :data:`DEFAULT_SIM_TIMEOUT`); ``period_ns``, ``reset_cycles``, ``clock`` (see
    :meth:`SimulatedPS.start`); ``check_errors`` (default True: leaving the block raises if
    an exported Python function raised while serving hardware, unless the block itself
    raised; read ``rt.errors`` and clear it to accept expected ones).
    After entering, ``.ps`` is the :class:`SimulatedPS` and ``.runtime`` the runtime.
    """

    def __init__(self, dut: Any, component: Optional[str] = None, *, linked: Optional[LinkedSystem] = None,
                 timeout: float = DEFAULT_SIM_TIMEOUT, pause: Optional[float] = None,
                 seed: Optional[int] = None, poll_cycles: int = 4, period_ns: float = 10.0,
                 reset_cycles: int = 5, clock: bool = True, check_errors: bool = True) -> None:
        self.ps = SimulatedPS(dut, linked, pause=pause, seed=seed, poll_cycles=poll_cycles)
        self.component = component
        self.timeout = timeout
        self._start = dict(period_ns=period_ns, reset_cycles=reset_cycles, clock=clock)
        self.check_errors = check_errors
        self.runtime: Optional[AsyncRuntime] = None

    async def __aenter__(self) -> AsyncRuntime:
        await self.ps.start(**self._start)  # type: ignore[arg-type]
        self.runtime = self.ps.runtime(self.component, self.timeout)
        await self.runtime.__aenter__()
        return self.runtime

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        assert self.runtime is not None
        await self.runtime.__aexit__(exc_type, exc, tb)
        if exc_type is None and self.check_errors and self.runtime.errors:
            errs = "; ".join(f"{name}: {type(e).__name__}: {e}" for name, e in self.runtime.errors)
            raise AssertionError(f"exported functions of '{self.runtime.component.name}' raised while "
                                 f"serving: {errs} (clear rt.errors to accept expected errors)")


def cocotb_system(dut: Any, component: Optional[str] = None, **kwargs: Any) -> CocotbSystem:
    """``async with cocotb_system(dut, "host") as rt:`` (see :class:`CocotbSystem`)."""
    return CocotbSystem(dut, component, **kwargs)


