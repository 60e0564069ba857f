"""cocotb side of the paper-evaluation benchmarks (driven by :mod:`pushpush.bench.sweep`).

``$PP_BENCH`` (JSON) says what to measure in the generated system of :mod:`pushpush.bench.pairs_system`:

- ``mode``: ``rtl`` (every ``caller<p>`` (Verilog) calls ``callee<p>.f``, started together
  by the ARM with ``caller<p>.run(calls)``), ``rtl2py`` (``caller0`` calls a Python
  ``callee0.f`` served by the simulated ARM), ``py2rtl`` (Python on the ARM calls
  ``callee0.f`` (Verilog) in a chain), ``py2py`` (Python ``host`` calls Python ``callee0.f``
  through the simulated ARM's memory);
- ``pairs``, ``calls``, ``nargs``.

For Verilog callers a monitor records the cycle of every result handshake at every caller
module; the window runs from the cycle by which every pair has received its first result to
the cycle the first pair received its last (all pairs busy throughout). For Python callers
the window is the ARM model's cycle count from the first call's start to the last's return.
Results go to ``$PP_BENCH_OUT`` (JSON): ``window`` (cycles), ``per_pair_calls`` (results
per pair in the window), ``run_cycles``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import cocotb

from pushpush.bench.tb_helpers import MASK, ResultMonitor
from pushpush.bench.tb_helpers import callee_model as _model
from pushpush.bench.tb_helpers import signed as _signed
from pushpush.sim.ps import SimulatedPS

async def _rtl_callers(dut: Any, host: Any, pairs: int, calls: int) -> dict[str, Any]:
    mon = ResultMonitor(dut, pairs)
    cocotb.start_soon(mon.run())
    tasks = [cocotb.start_soon(getattr(host, f"caller{p}").run(calls)) for p in range(pairs)]
    run_cycles = [int(await t) for t in tasks]
    for p in range(pairs):
        user = getattr(dut, f"caller{p}_inst").pp_user_inst
        assert len(mon.results[p]) == calls, f"pair {p}: {len(mon.results[p])} results, not {calls}"
        assert int(user.errors_reg.value) == 0, f"caller{p}: results with an error"
    window, per_pair = mon.busy_window(min_cycles=1)
    return {"window": window, "per_pair_calls": per_pair, "run_cycles": run_cycles}


@cocotb.test()
async def chain(dut: Any) -> None:
    cfg = json.loads(os.environ["PP_BENCH"])
    mode, pairs, calls, nargs = cfg["mode"], int(cfg["pairs"]), int(cfg["calls"]), int(cfg["nargs"])
    timeout = float(cfg.get("timeout", 5e-3))
    ps = SimulatedPS(dut)
    await ps.start()
    out: dict[str, Any]
    if mode in ("rtl", "rtl2py"):
        host = ps.runtime("host", timeout)
        if mode == "rtl2py":
            sw = ps.runtime("callee0", timeout)
            state = [0]

            def f(*args: int) -> int:
                state[0] = _model(state[0], list(args))
                return _signed(state[0])

            async with host, sw:
                sw.export("f", f)
                out = await _rtl_callers(dut, host, pairs, calls)
            assert not sw.errors, f"the Python callee raised: {sw.errors}"
        else:
            async with host:
                out = await _rtl_callers(dut, host, pairs, calls)
            for p in range(pairs):
                callee = getattr(dut, f"callee{p}_inst").pp_user_inst
                assert int(callee.calls_reg.value) == calls, (
                    f"callee{p} served {int(callee.calls_reg.value)} calls, caller{p} made {calls}")
    elif mode in ("py2rtl", "py2py"):
        host = ps.runtime("host", timeout)
        state = [0]
        if mode == "py2py":
            sw = ps.runtime("callee0", timeout)

            def f(*args: int) -> int:
                state[0] = _model(state[0], list(args))
                return _signed(state[0])
        async with host:
            if mode == "py2py":
                await sw.__aenter__()
                sw.export("f", f)
            x, expect = calls, 0
            c0 = ps.cycles
            for _ in range(calls):
                args = [(x + i) & MASK for i in range(nargs)]
                x = int(await host.callee0.f(*[_signed(a) for a in args])) & MASK
                if mode == "py2rtl":
                    expect = _model(expect, args)
                    assert x == expect, f"call result {x:#x}, expected {expect:#x}"
            window = ps.cycles - c0
            if mode == "py2py":
                await sw.__aexit__(None, None, None)
        out = {"window": window, "per_pair_calls": [calls], "run_cycles": [window]}
    else:
        raise ValueError(f"unknown mode {mode}")
    out.update({"mode": mode, "pairs": pairs, "calls": calls, "nargs": nargs})
    Path(os.environ["PP_BENCH_OUT"]).write_text(json.dumps(out))
