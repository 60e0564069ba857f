"""Simulate a generated pushpush system and drive it from Python, in cocotb.

Two halves, one on each side of the simulator:

* **pytest side** (:mod:`.runner`): :func:`simulate_system` links a ``system.yaml``,
  generates its RTL into a build folder, collects the Verilog (the pushpush cores, the
  generated wrappers and top, your modules) and runs a cocotb test module against the
  system's top with :func:`pushpush.build.sim.run_cocotb`; the system map's path reaches
  the cocotb test in the environment (``PUSHPUSH_SYSTEM_MAP``).
* **cocotb side** (:mod:`.ps`): :func:`cocotb_system` is an ``async with`` that starts the
  clock, resets, models the ARM with cocotbext-axi (an ``AxiMaster`` on the top's PS-to-PL
  port ``s_axi``; an ``AxiRam`` on the PL-to-PS port ``m_axi`` holding the ARM's endpoint
  window, which the runtime reads directly, as the ARM reads its on-chip memory) and gives
  you a started :class:`~pushpush.runtime.AsyncRuntime` for a software component.

A whole CI test (``tests/test_mysys.py`` next to ``system.yaml``)::

    import cocotb, pytest
    from pushpush.sim import cocotb_system, simulate_system
    from pushpush.testing import sim_matrix

    @cocotb.test()
    async def fir_works(dut):
        async with cocotb_system(dut, "host") as rt:      # clock, reset, ARM model, runtime
            rt.export("coeff", lambda i: [3, -1, 4][i])   # hardware calls this
            assert await rt.fir.fir(3) == 6                # Python calls hardware

    @pytest.mark.parametrize("simulator,params", sim_matrix([{}]))
    def test_mysys(simulator, params):
        simulate_system("system.yaml", simulator=simulator)   # test_module: this file

Timeouts under cocotb are simulated seconds (:data:`DEFAULT_SIM_TIMEOUT` = 1 ms, 100 000
cycles of the default 100 MHz clock). ``pause=0.3`` (or ``simulate_system(..., pause=0.3)``)
inserts random idle cycles on every AXI channel of the ARM model.
"""

from __future__ import annotations

from typing import Any

__all__ = ["simulate_system", "build_system", "SystemBuild", "load_linked",
           "cocotb_system", "CocotbSystem", "SimulatedPS", "DEFAULT_SIM_TIMEOUT",
           "MAP_ENV", "COMPONENT_ENV", "PAUSE_ENV", "SEED_ENV"]

from .runner import (COMPONENT_ENV, MAP_ENV, PAUSE_ENV, SEED_ENV, SystemBuild, build_system,
                     load_linked, simulate_system)

_PS_NAMES = {"cocotb_system", "CocotbSystem", "SimulatedPS", "DEFAULT_SIM_TIMEOUT"}


def __getattr__(name: str) -> Any:
    # the cocotb side imports cocotb and cocotbext-axi: only when asked for
    if name in _PS_NAMES:
        from . import ps
        return getattr(ps, name)
    raise AttributeError(f"module 'pushpush.sim' has no attribute '{name}'")
