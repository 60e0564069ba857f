"""The suite's two tiers and its xdist units (tests/conftest.py, docs/contributing.md, "The test suite"): what each
tier selects, checked by collecting real test files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import importlib.util

REPO = Path(__file__).resolve().parent.parent


def _suite_conftest():  # tests/conftest.py by its path: "conftest" may name another folder's
    spec = importlib.util.spec_from_file_location("pp_suite_conftest", REPO / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_conftest = _suite_conftest()
DURATIONS, LONG_BY_HAND, work_unit = _conftest.DURATIONS, _conftest.LONG_BY_HAND, _conftest.work_unit


def collect(*args: str) -> list[str]:
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                       cwd=REPO, capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 5), p.stdout + p.stderr
    return [ln for ln in p.stdout.splitlines() if "::" in ln]


def test_verilator_legs_are_second_tier_icarus_legs_default() -> None:
    default = collect("tests/cores/test_axil_bridge.py")
    slow = collect("-m", "slow", "tests/cores/test_axil_bridge.py")
    assert default and all("icarus" in t for t in default), default
    assert slow and all("verilator" in t for t in slow), slow


def test_a_test_about_verilator_stays_in_the_default_tier() -> None:
    assert "tests/pynq/test_simboard.py::test_hof_on_verilator" in collect("tests/pynq/test_simboard.py")


def test_deeper_proofs_second_tier_smaller_ones_default() -> None:
    default = collect("tests/cores/test_ic_xbar_equiv.py", "-k", "held_payloads")
    slow = collect("-m", "slow", "tests/cores/test_ic_xbar_equiv.py", "-k", "held_payloads")
    assert sorted(t.rsplit("-", 1)[1] for t in default) == ["4]", "4]"]
    assert sorted(t.rsplit("-", 1)[1] for t in slow) == ["5]", "6]"]


def test_long_sample_takes_the_first_case_of_each_long_test() -> None:
    every = collect("-m", "long", "tests/cores/test_endpoint_mem.py", "tests/soak/test_soak.py")
    sample = collect("-m", "long", "--long-sample", "tests/cores/test_endpoint_mem.py", "tests/soak/test_soak.py")
    assert len(every) > len(sample) == 1
    assert sample[0] == next(t for t in every if "test_endpoint_mem_long" in t)
    assert not any(t.startswith(LONG_BY_HAND) for t in sample)   # the soak runs by hand


def test_work_units_are_files_and_the_cluster_folder() -> None:
    assert work_unit("tests/cores/test_abe.py::test_abe[icarus-x]") == "tests/cores/test_abe.py"
    assert work_unit("tests/cluster/test_slurm_bench.py::test_x") == "tests/cluster"
    assert work_unit("tests/cluster/test_executor_units.py::test_y") == "tests/cluster"


def test_durations_name_existing_units() -> None:
    """tests/durations.json names files and folders that exist (a stale entry only costs
    balance, but a renamed file's entry would never be used)."""
    gone = [unit for unit in json.loads(DURATIONS.read_text()) if not (REPO / unit).exists()]
    assert not gone, f"{gone}: regenerate tests/durations.json (scripts/test_durations.py)"
