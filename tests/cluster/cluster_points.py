"""Point functions for the cluster tests (importable by the jobs: the executor puts this
folder on the job's ``sys.path``)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

GEN = Path(__file__).resolve().parents[1] / "gen"


def square(point: dict[str, Any]) -> dict[str, Any]:
    """``n*n``; counts its runs in ``point['work']/runs`` (to see what a rerun skips);
    ``fail`` raises, ``sleep`` waits that many seconds first."""
    work = Path(point["work"])
    work.mkdir(parents=True, exist_ok=True)
    with open(work / "runs", "a") as f:
        f.write(f"{os.getpid()}\n")
    if point.get("sleep"):
        time.sleep(point["sleep"])
    if point.get("fail"):
        print(f"about to fail on point {point['n']}", flush=True)
        raise ValueError(f"point {point['n']} fails on purpose")
    if point.get("exit"):
        os._exit(3)  # dies without a word: no result, no error file
    return {"n": point["n"], "square": point["n"] ** 2}


def regression_seed(point: dict[str, Any]) -> dict[str, Any]:
    """One seed of the randomised system regression (tests/gen/test_random_systems.py):
    generate, lint, simulate, check; returns its counts (cycles exact)."""
    if str(GEN) not in sys.path:
        sys.path.insert(0, str(GEN))
    from test_random_systems import run_seed

    return run_seed(point["seed"], Path(point["work"]), point.get("simulator", "icarus"))
