"""Shared pytest configuration.

cocotb tests run on Icarus always and on Verilator when a recent one is installed (see
``pushpush.testing.sim_matrix``; ``PUSHPUSH_SIMS=icarus`` restricts). Long randomised runs
carry the ``long`` marker and benchmarks the ``bench`` marker; both are deselected by
default (``pytest -m long`` runs them). Simulation builds go to ``sim_build/``.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("PUSHPUSH_SIM_BUILD", str(REPO / "sim_build"))
# The simulated board's "auto" simulator choice depends on what the build cache holds;
# tests pin Icarus (tests of Verilator and of "auto" itself say so explicitly).
os.environ.setdefault("PUSHPUSH_SIM", "icarus")
