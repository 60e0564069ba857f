"""cocotb side of the riscv rows (:mod:`pushpush.bench.experiments.calls.riscv_rows`): examples/riscv_pingpong.

Every result is checked against the pingpong callee's state machine
(rotl(state, 5) ^ x + 0x9E3779B9); the cycles per call go to ``$PP_RISCV_OUT`` (JSON):

- ``rtl_to_riscv``: ``caller.run(n)``, the Verilog caller's n chained calls of the C
  ``callee.f`` on the core (its return value: the exact cycles of the n calls);
- ``riscv_to_rtl``: ``callee.bench(n)``, n chained calls of the Verilog ``hw.f`` from C, timed
  by the core's cycle counter (exact), then ``callee.last()``, the last result;
- ``python_to_riscv``: Python on the cocotb ARM model calling ``callee.f`` (simulated cycles
  around each call: the ARM model's bus cycles, its computation none).
"""

from __future__ import annotations

import json
import os

import cocotb

from pushpush.bench.tb_helpers import MASK, CycleCounter, callee_model


def model_f(state: int, x: int) -> int:
    """pingpong_callee.v's state machine."""
    return callee_model(state, [x])


def chain(n: int, x0: int) -> int:
    """The state after n chained calls from state 0, the first argument x0."""
    s, x = 0, x0
    for _ in range(n):
        s = model_f(s, x)
        x = s
    return s


@cocotb.test()
async def riscv_pingpong(dut):
    from pushpush.sim import cocotb_system

    n = int(os.environ.get("PP_RISCV_N", "8"))
    out: dict[str, float] = {}
    clock = CycleCounter(dut)

    async with cocotb_system(dut, "host") as rt:
        cocotb.start_soon(clock.run())
        # python -> riscv
        state, x, spent = 0, 5, 0
        for _ in range(n):
            c0 = clock.cycle
            got = await rt.callee.f(x)
            spent += clock.cycle - c0
            state = model_f(state, x)
            assert got & MASK == state, f"callee.f({x}) = {got & MASK:#x}, the model says {state:#x}"
            x = got
        out["python_to_riscv"] = spent / n
        # rtl -> riscv: the Verilog caller's n chained calls of callee.f, the first with x = n
        cycles = await rt.caller.run(n)
        x = n
        for _ in range(n):
            state = model_f(state, x)
            x = state
        got = await rt.callee.f(1)
        state = model_f(state, 1)
        assert got & MASK == state, "callee.f's state after caller.run does not match the model"
        out["rtl_to_riscv"] = cycles / n
        # riscv -> rtl: n chained calls of hw.f from C, timed by the core
        cycles = await rt.callee.bench(n)
        assert cycles != MASK, "a call of hw.f from the core failed"
        last = await rt.callee.last()
        assert last & MASK == chain(n, 3), f"callee.last() = {last & MASK:#x}, the model says {chain(n, 3):#x}"
        out["riscv_to_rtl"] = cycles / n
        # Python calls hw.f too: hw's state went on from the core's calls
        got = await rt.hw.f(9)
        assert got & MASK == model_f(chain(n, 3), 9)
    dut._log.info("PP_RISCV %s", json.dumps(out))
    path = os.environ.get("PP_RISCV_OUT")
    if path:
        with open(path, "w") as f:
            json.dump(out, f)
