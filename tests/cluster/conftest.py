"""Fixtures of the cluster tests: a real single-node Slurm (tests/cluster/slurm_node.py).

``slurm_cluster`` starts munged, slurmctld and slurmd once per test session (per xdist
worker) in a temporary folder and stops them by their PIDs at the end; while it runs,
``SLURM_CONF`` points Slurm's commands (and pushpush's slurm executor) at it. If Slurm cannot
start, the test fails with the daemons' log tails (never skips: ./bootstrap.sh setup installs
the packages, so a skip would hide a broken setup).

``PUSHPUSH_TEST_SLURM=existing`` runs the same tests on the cluster Slurm's commands already
reach (a login node) instead: the partition, account and sbatch options come from
``$PUSHPUSH_SLURM_*``, and ``--basetemp`` must be a folder the compute nodes share, e.g.

    PUSHPUSH_TEST_SLURM=existing PUSHPUSH_SLURM_PARTITION=short \
        pytest --basetemp=$HOME/pp-tmp -m "long or not long" tests/cluster
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


EXISTING = os.environ.get("PUSHPUSH_TEST_SLURM") == "existing"


@pytest.fixture(scope="session")
def slurm_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    if EXISTING:
        cl = Cluster(Path(), Path(os.environ.get("SLURM_CONF", "")), node="", cpus=0, mem_mb=0)
        ping = cl.run("scontrol", "ping")
        if "UP" not in ping.stdout:
            pytest.fail("PUSHPUSH_TEST_SLURM=existing: scontrol ping does not see a controller "
                        f"that is UP:\n{ping.stdout}{ping.stderr}", pytrace=False)
        yield cl
        return
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
        if var.startswith(("PUSHPUSH_SLURM_", "PUSHPUSH_RESOURCES_", "SBATCH_")) and not EXISTING:
            monkeypatch.delenv(var)
    monkeypatch.delenv("PUSHPUSH_SLURM_DIR", raising=False)  # the tests give their own
    monkeypatch.setenv("PUSHPUSH_SLURM_POLL", "0.5" if not EXISTING else "5")
    # the test node's memory is the machine's: a sweep's points ask for little
    monkeypatch.setenv("PUSHPUSH_RESOURCES_SIM", "mem=1G")
    monkeypatch.setenv("PUSHPUSH_RESOURCES_SYNTH", "mem=1G")
    monkeypatch.setenv("PUSHPUSH_RESOURCES_BUILD", "mem=1G")
    return slurm_cluster
