"""cocotb side of the riscv <-> riscv and riscv -> python rows of ``pushpush bench calls``
(:func:`pushpush.bench.experiments.calls.riscv_rows.run_riscv_pair_rows`, the system in ``riscv_pairs/``).

Every result is checked against the pingpong state machine; cycles per call go to
``$PP_RISCV_OUT`` (JSON):

- ``riscv_to_riscv``: ``a.to_rv(n)``, n chained calls of ``b.g`` (C on a second core), timed by
  a's cycle counter: exact, both cores' software time included;
- ``riscv_to_python``: ``a.to_py(n)``, n chained calls of Python's ``host.p`` (the cocotb ARM
  model: its bus cycles, its computation none), timed by a's cycle counter.
"""

from __future__ import annotations

import json
import os

import cocotb

from pushpush.bench.experiments.calls.riscv_tb import MASK, chain, model_f


def _i32(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


@cocotb.test()
async def riscv_pairs_bench(dut):
    from pushpush.sim import cocotb_system

    n = int(os.environ.get("PP_RISCV_N", "8"))
    out: dict[str, float] = {}
    py_state = [0]

    async def p(x: int) -> int:
        py_state[0] = model_f(py_state[0], x)
        return _i32(py_state[0])

    async with cocotb_system(dut, "host") as rt:
        rt.export("p", p)
        cycles = await rt.a.to_rv(n)
        assert cycles != MASK, "a call of b.g from core a failed"
        assert (await rt.a.last()) & MASK == chain(n, 3), "a.to_rv's last result does not match the model"
        out["riscv_to_riscv"] = cycles / n
        cycles = await rt.a.to_py(n)
        assert cycles != MASK, "a call of host.p from core a failed"
        assert (await rt.a.last()) & MASK == chain(n, 5), "a.to_py's last result does not match the model"
        assert py_state[0] == chain(n, 5)
        out["riscv_to_python"] = cycles / n
        # b's state went on from a's calls
        assert (await rt.b.g(9)) & MASK == model_f(chain(n, 3), 9)
    dut._log.info("PP_RISCV %s", json.dumps(out))
    path = os.environ.get("PP_RISCV_OUT")
    if path:
        with open(path, "w") as f:
            json.dump(out, f)
