"""The committed results files are what ``pushpush bench summary`` writes from the committed
JSON: benchmarks/results/summary.md and the results section of benchmarks/README.md are
generated, never edited by hand (after a new run: ``pushpush bench summary``, then commit)."""

from __future__ import annotations

import shutil
from pathlib import Path

from pushpush.bench.experiments.suite import summarise

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def test_summary_and_readme_are_what_bench_summary_writes(tmp_path: Path) -> None:
    copy = tmp_path / "benchmarks"
    shutil.copytree(BENCH / "results", copy / "results")
    shutil.copy2(BENCH / "README.md", copy / "README.md")
    summarise(copy / "results", "pushpush bench summary", log=lambda _m: None)
    for rel in ("results/summary.md", "README.md"):
        assert (copy / rel).read_text() == (BENCH / rel).read_text(), (
            f"benchmarks/{rel} differs from what 'pushpush bench summary' writes from the JSON "
            "in benchmarks/results: run it and commit the result")
