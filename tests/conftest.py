"""Shared pytest configuration.

cocotb tests run on Icarus always and on Verilator when a recent one is installed (see
``pushpush.testing.sim_matrix``; ``PUSHPUSH_SIMS=icarus`` restricts). Long randomised runs
carry the ``long`` marker and benchmarks the ``bench`` marker; both are deselected by
default (``pytest -m long`` runs them). Simulation builds go to ``sim_build/``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("PUSHPUSH_SIM_BUILD", str(REPO / "sim_build"))
# The simulated board's "auto" simulator choice depends on what the build cache holds;
# tests pin Icarus (tests of Verilator and of "auto" itself say so explicitly).
os.environ.setdefault("PUSHPUSH_SIM", "icarus")
# ... and a test that asks for "auto" itself (the benchmarks' smoke runs) starts no background
# Verilator build that would outlive the test run (tests/pynq/test_autosim.py tests those).
os.environ.setdefault("PUSHPUSH_SIM_BACKGROUND", "0")


@pytest.fixture
def yosys() -> str:
    """The Yosys on PATH. ./bootstrap.sh setup installs it (Debian's yosys package), so a
    missing one fails the test with the fix instead of skipping it."""
    exe = shutil.which("yosys")
    assert exe is not None, "yosys not found: ./bootstrap.sh setup installs it (apt-get install yosys)"
    return exe
