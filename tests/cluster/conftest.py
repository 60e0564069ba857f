"""Fixtures of the cluster tests: a real single-node Slurm (tests/cluster/slurm_node.py).

``slurm_cluster`` starts munged, slurmctld and slurmd once per test session (per xdist
worker) in a temporary folder and stops them by their PIDs at the end; while it runs,
``SLURM_CONF`` points Slurm's commands (and pushpush's slurm executor) at it. If Slurm cannot
start, the test fails with the daemons' log tails (never skips: ./bootstrap.sh setup installs
the packages, so a skip would hide a broken setup).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from slurm_node import Cluster, ClusterError, start_cluster  # noqa: E402


@pytest.fixture(scope="session")
def slurm_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    try:
        cl = start_cluster(tmp_path_factory.mktemp("slurm"))
    except ClusterError as exc:
        pytest.fail(str(exc), pytrace=False)
    old = os.environ.get("SLURM_CONF")
    os.environ["SLURM_CONF"] = str(cl.conf)
    try:
        yield cl
    finally:
        cl.stop()
        if old is None:
            os.environ.pop("SLURM_CONF", None)
        else:
            os.environ["SLURM_CONF"] = old


@pytest.fixture
def slurm_env(slurm_cluster: Cluster, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Cluster:
    """The cluster, a quick poll, and no slurm settings from the caller's environment."""
    for var in list(os.environ):
        if var.startswith(("PUSHPUSH_SLURM_", "PUSHPUSH_RESOURCES_", "SBATCH_")):
            monkeypatch.delenv(var)
    monkeypatch.setenv("PUSHPUSH_SLURM_POLL", "0.5")
    # the test node's memory is the machine's: a sweep's points ask for little
    monkeypatch.setenv("PUSHPUSH_RESOURCES_SIM", "mem=1G")
    monkeypatch.setenv("PUSHPUSH_RESOURCES_SYNTH", "mem=1G")
    monkeypatch.setenv("PUSHPUSH_RESOURCES_BUILD", "mem=1G")
    return slurm_cluster
