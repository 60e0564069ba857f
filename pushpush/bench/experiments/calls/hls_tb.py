"""cocotb side of the hls rows (:mod:`pushpush.bench.experiments.calls.hls_rows`):
examples/hls_pingpong, a Vitis HLS function (kind: hls, ``int pingpong_step(int x)`` under
ap_ctrl_hs behind the generated adapter) called by the Verilog pingpong caller and by Python.

Every result is checked against the function's model (rotl(state, 5) ^ x + 0x9E3779B9, the
pingpong callee's); the cycles per call go to ``$PP_HLS_OUT`` (JSON):

- ``rtl_to_hls``: ``caller.run(n)``, the Verilog caller's n chained calls of ``callee.f``
  (its return value: the exact cycles of the n calls);
- ``python_to_hls``: Python on the cocotb ARM model calling ``callee.f`` (simulated cycles
  around each call: the ARM model's bus cycles, its computation none).
"""

from __future__ import annotations

import json
import os

import cocotb

from pushpush.bench.tb_helpers import MASK, CycleCounter, callee_model


def model_f(state: int, x: int) -> int:
    """pingpong_step's state (examples/hls_pingpong/hls/pingpong_step.cpp)."""
    return callee_model(state, [x])


@cocotb.test()
async def hls_pingpong(dut):
    from pushpush.sim import cocotb_system

    n = int(os.environ.get("PP_HLS_N", "8"))
    out: dict[str, float] = {}
    clock = CycleCounter(dut)

    async with cocotb_system(dut, "host") as rt:
        cocotb.start_soon(clock.run())
        state, x, spent = 0, 5, 0
        for _ in range(n):
            c0 = clock.cycle
            got = await rt.callee.f(x)
            spent += clock.cycle - c0
            state = model_f(state, x)
            assert got & MASK == state, f"callee.f({x}) = {got & MASK:#x}, the model says {state:#x}"
            x = got
        out["python_to_hls"] = spent / n
        cycles = await rt.caller.run(n)
        x = n
        for _ in range(n):
            state = model_f(state, x)
            x = state
        got = await rt.callee.f(1)
        state = model_f(state, 1)
        assert got & MASK == state, "callee.f's state after caller.run does not match the model"
        out["rtl_to_hls"] = cycles / n
    dut._log.info("PP_HLS %s", json.dumps(out))
    path = os.environ.get("PP_HLS_OUT")
    if path:
        with open(path, "w") as f:
            json.dump(out, f)
