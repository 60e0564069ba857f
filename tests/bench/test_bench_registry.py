"""The registry of ``pushpush bench`` experiments (pushpush/bench/registry.py) through the CLI:
every experiment's ``--help`` lists its options only; an option it does not take is refused
(exit 2) with the options it does take, before anything runs; ``--executor`` only on the
experiments that fan out. Nothing here simulates."""

from __future__ import annotations

import re

import pytest

from pushpush.bench.registry import EXPERIMENTS, FANNED_OUT
from pushpush.cli import main


@pytest.mark.parametrize("name", list(EXPERIMENTS))
def test_help_lists_the_experiments_options_only(name, capsys):
    assert main(["bench", name, "--help"]) == 0
    text = capsys.readouterr().out
    exp = EXPERIMENTS[name]
    for opt in exp.options:
        if opt.name.startswith("-"):
            assert opt.name in text, f"{name} --help does not list {opt.name}"
    others = {o.name for e in EXPERIMENTS.values() for o in e.options} - set(exp.option_names())
    for other in others:
        if other.startswith("--"):
            assert not re.search(rf"(?<![\w-]){re.escape(other)}(?![\w-])", text), \
                f"{name} --help lists {other}, which {name} does not take"


def test_an_option_the_experiment_does_not_take_is_refused(tmp_path, capsys):
    # today's bug: 'bench dma --quick' ran the 18-minute grid
    assert main(["bench", "dma", "--quick", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "dma does not take --quick" in err
    assert "dma takes --smoke, --sim, --output, --check" in err
    assert not any(tmp_path.iterdir()), "nothing may run (or be written) before the refusal"
    assert main(["bench", "callpath", "--smoke", "--pairs", "4"]) == 2
    assert "callpath does not take --smoke, --pairs" in capsys.readouterr().err


@pytest.mark.parametrize("name", [n for n in EXPERIMENTS if n not in FANNED_OUT])
def test_executor_is_refused_where_nothing_fans_out(name, capsys):
    assert main(["bench", name, "--executor", "slurm"]) == 2
    assert "--executor applies to calls, scaling, area, args, all only" in capsys.readouterr().err


@pytest.mark.parametrize("name", FANNED_OUT)
def test_the_fanned_out_experiments_take_jobs_and_executor(name):
    assert {"--jobs", "--executor"} <= set(EXPERIMENTS[name].option_names())
    assert EXPERIMENTS[name].fans_out


def test_bad_values_are_refused_with_the_fix(tmp_path, capsys):
    out = str(tmp_path)
    assert main(["bench", "scaling", "--smoke", "--pairs", "4", "-o", out]) == 2
    assert "--pairs with --smoke" in capsys.readouterr().err
    assert main(["bench", "scaling", "--pairs", "0", "-o", out]) == 2
    assert "pair counts must be 1..15" in capsys.readouterr().err
    assert main(["bench", "args", "--args-grid", "1,2", "-o", out]) == 2
    assert "--args-grid 0,8,32:1,8" in capsys.readouterr().err
    assert main(["bench", "calls", "--jobs", "0", "-o", out]) == 2
    assert "--jobs 0: at least 1" in capsys.readouterr().err
    assert main(["bench", "simspeed", "--ic", "SKID", "-o", out]) == 2
    assert "--ic SKID: give NAME=VALUE" in capsys.readouterr().err
    assert main(["bench", "summary", "-o", out]) == 2
    assert "no results in" in capsys.readouterr().err


def test_every_experiment_runs_something():
    for exp in EXPERIMENTS.values():
        assert callable(exp.load_run()), exp.run
