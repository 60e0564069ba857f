"""pushpush.testing.trace_calls in a cocotb test of a generated top (tests/sim/rtsys): calls
from Python into Verilog, Verilog calling a Python function lent for the call (nested under
it), and Verilog calling Python's export; the trace file read back."""

from __future__ import annotations

import os
from pathlib import Path

import cocotb
import pytest

from pushpush.sim import cocotb_system, simulate_system
from pushpush.testing import trace_calls
from pushpush.trace import read_trace

TRACE_ENV = "PUSHPUSH_TEST_TRACE_FILE"


@cocotb.test()
async def traced_calls(dut):
    async with cocotb_system(dut, "host") as rt:
        rt.export("take", lambda a, b, c, d, e: a + 1)
        async with trace_calls(dut, os.environ[TRACE_ENV]) as tracer:
            assert await rt.dev.neg64(5) == -5
            assert await rt.dev.apply(lambda x: 2 * x, 20) == 41
            assert await rt.dev.relay(41, 0, 0.0, 0.0, False) == 42
        t = tracer.trace
        names = [c.function for c in t.calls]
        assert names[0] == "dev.neg64" and "dev.apply" in names and "dev.relay" in names
        apply = next(c for c in t.calls if c.function == "dev.apply")
        lent = t.children(apply.id)
        assert len(lent) == 1 and lent[0].caller == "dev" and lent[0].callee == "host"
        relay = next(c for c in t.calls if c.function == "dev.relay")
        take, = t.children(relay.id)
        assert take.function == "host.take" and take.taken is not None
        for c in t.calls:
            assert c.issued is not None and c.returned is not None and c.latency > 0


@pytest.mark.parametrize("simulator", ["icarus"])
def test_trace_calls_in_cocotb(simulator: str, tmp_path: Path) -> None:
    path = tmp_path / "bench.trace"
    simulate_system(Path(__file__).parents[1] / "sim" / "rtsys" / "system.yaml",
                    simulator=simulator, extra_env={TRACE_ENV: str(path)})
    t = read_trace(path)
    assert [c.function for c in t.calls if c.parent is None] == ["dev.neg64", "dev.apply", "dev.relay"]
