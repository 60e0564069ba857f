"""The randomised system regression (tests/gen/test_random_systems.py: generate, lint,
simulate and check a random system per seed) through the real single-node Slurm, one job per
seed, against the local executor: the same checks pass and every seed's counts (driver steps,
ARM calls, calls of the ARM's functions, simulated cycles) are equal, cycle for cycle.
Two seeds in the default run, 24 under ``-m long``."""

from __future__ import annotations

import pytest

import cluster_points
from pushpush.executor import LocalExecutor, get_executor


def _points(tmp_path, seeds, where):
    return [{"seed": s, "work": str(tmp_path / where / f"seed{s}"), "label": f"random system {s}"}
            for s in seeds]


def _regression(tmp_path, seeds):
    slurm = get_executor("slurm", workdir=tmp_path / "jobs").map(
        cluster_points.regression_seed, _points(tmp_path, seeds, "slurm"), kind="sim", log=lambda m: None)
    local = LocalExecutor(jobs=2).map(
        cluster_points.regression_seed, _points(tmp_path, seeds, "local"), kind="sim", log=lambda m: None)
    assert [r["seed"] for r in slurm] == list(seeds)
    assert all(r["steps"] > 0 and r["cycles"] > 0 for r in slurm), slurm
    assert slurm == local


def test_random_systems_through_slurm_equal_local(slurm_env, tmp_path):
    _regression(tmp_path, [5, 7])


@pytest.mark.long
def test_random_systems_through_slurm_equal_local_long(slurm_env, tmp_path):
    _regression(tmp_path, list(range(100, 124)))
