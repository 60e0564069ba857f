"""Shared pytest configuration.

Two tiers (docs/contributing.md, "The test suite"):

- the default tier, ``pytest -n 2`` (``./bootstrap.sh test``): every behaviour, at the
  sizes that check it; one simulator per test;
- the second tier, ``pytest -n 2 -m slow`` (``.ci/run`` runs it after the first): what is
  slow by nature at its full size (the 32-port interconnects, MiB transfers, the Verilator
  legs of the benches, which compile far more than they simulate: their Icarus legs run in
  the default tier). A cocotb test parametrized by ``sim_matrix`` gets ``slow`` on its
  Verilator leg here; a test about Verilator itself (the simulated board's automatic choice,
  Verilator's trace timing) carries ``@pytest.mark.verilator_tier1`` and stays in the default
  tier.

``long`` marks runs of many minutes to hours (the soak, hundreds of random systems), run by
hand (``pytest -m long``); the second tier runs a sample of them, the first case of each
long randomised test (``-m "slow or long" --long-sample``, leaving out LONG_BY_HAND);
``bench`` marks benchmarks. Simulation builds go to ``sim_build/``
and the content-addressed build cache.

Scheduling under xdist (``-n``): each test file is one unit of work (a ``tests/cluster``
file shares the folder's unit: one Slurm cluster per run), so module fixtures (a loaded
overlay, a built system) are made once; units go out longest first, by the times in
``tests/durations.json`` (``python scripts/test_durations.py`` writes it from a run's
``--junitxml``), so that the two workers end together.
"""

from __future__ import annotations

import importlib.util
import json
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

DURATIONS = Path(__file__).resolve().parent / "durations.json"
#: seconds assumed for a unit of work that tests/durations.json does not know (a new file)
UNKNOWN_UNIT_S = 5.0
#: test files that share one unit of work (and so one worker): the prefix is the unit
GROUPED = ("tests/cluster/",)


def work_unit(nodeid: str) -> str:
    """The unit of work a test belongs to under xdist: its file, or its GROUPED folder."""
    path = nodeid.split("::", 1)[0]
    for prefix in GROUPED:
        if path.startswith(prefix):
            return prefix.rstrip("/")
    return path


#: ``long`` tests that --long-sample leaves out: each runs many minutes by design, so it runs
#: by hand (the soak's length is PUSHPUSH_SOAK_SECONDS; the others say their own time)
LONG_BY_HAND = (
    "tests/soak/test_soak.py::test_soak",
    "tests/stress/test_fir_stress.py::test_fir_callbacks_under_load_long",
    "tests/bench/test_bench_fairness.py::test_bench_fairness_full",
    "tests/cluster/test_slurm_bench.py::test_bench_all_smoke_through_slurm_equals_local",
    "tests/cluster/test_slurm_regression.py::test_random_systems_through_slurm_equal_local_long",
    "tests/cores/test_interconnect.py::test_interconnect_32_ports_long",
    "tests/pynq/test_buffers.py::test_scale_mib",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long-sample", action="store_true",
                     help="of the tests marked long, run the first case of each test function (not "
                          "those in tests/conftest.py's LONG_BY_HAND): the second tier's sample of the "
                          "long randomised runs, so that none rots")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "verilator_tier1: a test about Verilator itself: its Verilator leg stays in the default tier")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # the Verilator legs of sim_matrix benches: second tier (their Icarus legs run here)
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if (params.get("simulator") == "verilator" and item.get_closest_marker("verilator_tier1") is None
                and item.get_closest_marker("long") is None):
            item.add_marker(pytest.mark.slow)
    if config.getoption("long_sample"):
        keep, drop, seen = [], [], set()
        for item in items:
            if item.get_closest_marker("long") is not None:
                function = item.nodeid.split("[", 1)[0]
                if function in seen or function.startswith(LONG_BY_HAND):
                    drop.append(item)
                    continue
                seen.add(function)
            keep.append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
    # longest unit first (stable: a file's tests keep their order)
    try:
        known = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        known = {}
    order = {}
    for item in items:
        unit = work_unit(item.nodeid)
        order.setdefault(unit, known.get(unit, UNKNOWN_UNIT_S))
    items.sort(key=lambda it: -order[work_unit(it.nodeid)])


if importlib.util.find_spec("xdist") is not None:
    def pytest_xdist_make_scheduler(config: pytest.Config, log):  # type: ignore[no-untyped-def]
        """Units of work as :func:`work_unit` says, in the collection's order (longest first),
        for the default distribution (``-n N`` without ``--dist``)."""
        if config.getoption("dist") != "load":
            return None
        from xdist.scheduler import LoadScopeScheduling

        class FileUnits(LoadScopeScheduling):
            def _split_scope(self, nodeid: str) -> str:
                return work_unit(nodeid)

        config.option.loadscopereorder = False
        return FileUnits(config, log)


@pytest.fixture
def yosys() -> str:
    """The Yosys on PATH. ./bootstrap.sh setup installs it (Debian's yosys package), so a
    missing one fails the test with the fix instead of skipping it."""
    exe = shutil.which("yosys")
    assert exe is not None, "yosys not found: ./bootstrap.sh setup installs it (apt-get install yosys)"
    return exe
