"""cocotb side of ``pushpush bench scaling`` (driven by :mod:`pushpush.bench.experiments.scaling.scaling`).

``$PP_BENCH`` (JSON ``{"pairs", "calls"}``) says how many caller/callee pairs the generated
top has and how many calls each caller makes; the results go to ``$PP_BENCH_OUT`` (JSON).
The ARM starts ``caller<k>.run(calls)`` on every pair at once; a monitor records the cycle of
every result handshake at every caller module (``caller<k>_inst.pp_user_inst``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cocotb

from pushpush.bench.tb_helpers import ResultMonitor
from pushpush.sim import cocotb_system


@cocotb.test()
async def scaling(dut):
    cfg = json.loads(os.environ["PP_BENCH"])
    pairs, calls = int(cfg["pairs"]), int(cfg["calls"])
    async with cocotb_system(dut, "host", timeout=5e-3) as rt:
        mon = ResultMonitor(dut, pairs)
        cocotb.start_soon(mon.run())
        tasks = [cocotb.start_soon(getattr(rt, f"caller{k}").run(calls)) for k in range(pairs)]
        run_cycles = [int(await t) for t in tasks]
    for k in range(pairs):
        caller = getattr(dut, f"caller{k}_inst").pp_user_inst.caller_inst
        callee = getattr(dut, f"callee{k}_inst").pp_user_inst
        assert len(mon.results[k]) == calls, f"pair {k}: {len(mon.results[k])} results, not {calls}"
        assert int(caller.errors_reg.value) == 0, f"caller{k}: results with an error"
        assert int(callee.calls_reg.value) == calls, (
            f"callee{k} served {int(callee.calls_reg.value)} calls, caller{k} made {calls}")
    window, per_pair = mon.busy_window(min_cycles=4 * pairs)
    Path(os.environ["PP_BENCH_OUT"]).write_text(json.dumps({
        "pairs": pairs, "calls": calls, "window": window, "window_calls": sum(per_pair),
        "per_pair_calls": per_pair, "run_cycles": run_cycles}))
