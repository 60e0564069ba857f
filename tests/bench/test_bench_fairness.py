"""The ABE paper's fairness experiment (Table 1 / Fig. 2): ``pushpush bench fairness --quick``.

Runs the benchmark through the CLI (pushpush/cli/bench.py -> pushpush/bench/experiments/fairness/fairness.py,
harness pushpush/bench/rtl/pp_fairness_top.v) on the quick subset (1 and 3 interferers, interferer
bursts 16, 64, 256; a 16-beat victim; every master 4 bursts in flight) and asserts the
issue's targets on every point:

- round robin: the victim's share of the data within 1 percentage point of Eq. 1 (the
  values of the paper's Table 1: 16 / (16 + N * burst));
- with an ABE per master (nominal 16, 4 outstanding) and with fair arbitration (deficit
  round robin over beats, no ABEs): within 1 percentage point of the fair share 1/(N+1);
- no data or response errors (the generators check every beat against the pattern);
- the ABE adds exactly 1 cycle to a read burst (16 and 256 beats, measured alone);
- the table is printed, fairness.json and fairness.png are written.

The full sweep (N = 1..7, bursts 16..256) is ``test_bench_fairness_full`` (``-m long``).
"""

from __future__ import annotations

import json

import pytest

from pushpush.cli import main
from pushpush.testing import sim_matrix


# Icarus only by default (about 60 s); the Verilator builds alone take about 2.5 min
@pytest.mark.parametrize("simulator,params", sim_matrix([{}], verilator_sets=0))
def test_bench_fairness_quick(simulator, params, tmp_path, capsys):
    out = tmp_path / "bench"
    status = main(["bench", "fairness", "--quick", "--sim", simulator, "-o", str(out), "--check"])
    text = capsys.readouterr().out
    with capsys.disabled():
        print("\n" + text)
    result = json.loads((out / "fairness.json").read_text())
    assert result["targets_missed"] == [], result["targets_missed"]
    assert status == 0
    assert "victim share" in text and "Eq. 1" in text
    assert len(result["rows"]) == 6 and set(result["configs"]) == {"round_robin", "abe", "fair"}
    for r in result["rows"]:
        assert abs(r["round_robin"] - r["eq1"]) <= 0.01
        assert abs(r["abe"] - r["fair_share"]) <= 0.01
        assert abs(r["fair"] - r["fair_share"]) <= 0.01
        assert r["round_robin_errors"] == r["abe_errors"] == r["fair_errors"] == 0
        # the bus stays saturated in every configuration
        for c in result["configs"]:
            assert r[f"{c}_utilisation"] > 0.99
    assert [lat["added_cycles"] for lat in result["latency"]] == [1, 1]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert (out / "fairness.png").stat().st_size > 1000


@pytest.mark.long
def test_bench_fairness_full(tmp_path, capsys):
    """The full sweep (N = 1..7, bursts 16..256): about 3 min on Verilator incl. builds,
    about 10 min on Icarus."""
    from pushpush.build.sim import available_simulators

    sim = "verilator" if "verilator" in available_simulators() else "icarus"
    out = tmp_path / "bench"
    status = main(["bench", "fairness", "--sim", sim, "-o", str(out), "--check"])
    text = capsys.readouterr().out
    with capsys.disabled():
        print("\n" + text)
    result = json.loads((out / "fairness.json").read_text())
    assert len(result["rows"]) == 35
    assert result["targets_missed"] == [] and status == 0
