"""The README's "Testing your own system in cocotb" example, verbatim but for the
simulator matrix (Icarus only here: test_runtime_sim.py covers Verilator)."""

import cocotb
import pytest

from pushpush.sim import cocotb_system, simulate_system
from pushpush.testing import sim_matrix


@cocotb.test()
async def smoke(dut):
    async with cocotb_system(dut, "host") as rt:            # clock, reset, ARM model, serving runtime
        rt.export("take", lambda a, b, c, d, e: a + 1)       # hardware calls this (dev.relay -> host.take)
        assert await rt.dev.neg64(5) == -5                   # Python calls hardware
        assert await rt.dev.relay(41, 0, 0.0, 0.0, False) == 42
        assert await rt.dev.apply(lambda x: 2 * x, 20) == 41  # hardware calls a Python function
        neg = await rt.dev.get_neg()                         # a hardware function, called from Python
        assert await neg(7) == -7


@pytest.mark.parametrize("simulator,params", sim_matrix([{}], verilator_sets=0))
def test_readme_example(simulator, params):
    simulate_system("rtsys/system.yaml", simulator=simulator)
