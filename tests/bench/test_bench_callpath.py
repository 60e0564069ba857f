"""``pushpush bench callpath`` runs (a handful of calls; nothing here is timed or compared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pushpush.bench.experiments.callpath import COLUMNS, best_rows, check_target, format_table, run_callpath, run_tree
from pushpush.cli import main

PATHS = ["sync call", "async call", "served call"]


def test_run_callpath_rows() -> None:
    rows = run_callpath(calls=20)
    assert [r["path"] for r in rows] == PATHS
    for r in rows:
        assert r["calls"] == 20 and r["tree"] == "this tree"
        for key, _ in COLUMNS[4:]:
            assert isinstance(r[key], float), key
        assert r["mean_us"] > 0 and r["bus_mean_us"] > 0 and r["bus_ops"] >= 4
    table = format_table(rows)
    assert "runtime median" in table and table.count("\n") == 4
    assert isinstance(check_target(rows), list)


def test_best_rows_picks_the_least_disturbed_round() -> None:
    rows = [{"tree": "t", "path": "sync call", "round": 1, "runtime_median_us": 9.0},
            {"tree": "t", "path": "sync call", "round": 2, "runtime_median_us": 6.0},
            {"tree": "t", "path": "async call", "round": 1, "runtime_median_us": 20.0}]
    assert [r["round"] for r in best_rows(rows)] == [2, 1]


def test_check_target_names_the_sync_row() -> None:
    row = {"tree": "this tree", "path": "sync call", "runtime_median_us": 9.5, "runtime_mean_us": 10.0}
    assert check_target([row]) == ["sync call (this tree): median 9.5 µs (mean 10.0 µs) of runtime "
                                   "CPU per call, target 4 µs"]
    assert check_target([dict(row, runtime_median_us=3.0)]) == []
    assert check_target([dict(row, path="async call")]) == []


def test_cli_callpath_with_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --tree measures a checkout in a subprocess; this checkout itself stands in for an old one
    root = Path(__file__).resolve().parents[2]
    assert main(["bench", "callpath", "--calls", "12", "--rounds", "2", "--tree", str(root),
                 "--label", "other", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "runtime median" in out and "other" in out and "best of 2 round(s)" in out
    res = json.loads((tmp_path / "callpath.json").read_text())
    one_round = [("other", p) for p in PATHS] + [("this tree", p) for p in PATHS]
    assert [(r["tree"], r["path"]) for r in res["rounds"]] == one_round * 2
    assert [r["round"] for r in res["rounds"]] == [1] * 6 + [2] * 6
    assert [(r["tree"], r["path"]) for r in res["best"]] == one_round


def test_bad_tree_and_calls(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no pushpush/runtime there"):
        run_tree(str(tmp_path), calls=10)
    assert main(["bench", "callpath", "--calls", "3", "-o", str(tmp_path)]) != 0


def test_board_needs_pynq(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    """--board counts on the simulated board: without PYNQ it is refused, saying why."""
    import sys

    monkeypatch.setitem(sys.modules, "pynq.pl_server", None)   # (import fails)
    assert main(["bench", "callpath", "--calls", "10", "--rounds", "1", "--board",
                 "-o", str(tmp_path)]) == 2
    assert "--board counts on the simulated board, which needs PYNQ" in capsys.readouterr().err
