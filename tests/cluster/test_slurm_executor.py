"""The slurm executor against a real single-node Slurm (the ``slurm_env`` fixture): results in
order, the request per kind reaching the job, a second run skipping the points already done,
failures reported per point with the job's log, an impossible request refused with the fix,
and Ctrl-C cancelling the job array (scancel)."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cluster_points
from pushpush.executor import SweepFailed, get_executor
from pushpush.executor.slurm import SlurmError

HERE = Path(__file__).resolve().parent


def _points(tmp_path: Path, ns, **extra):
    return [{"n": n, "work": str(tmp_path / f"w{n}"), "label": f"square {n}", **extra} for n in ns]


def _runs(tmp_path: Path, n: int) -> int:
    f = tmp_path / f"w{n}" / "runs"
    return len(f.read_text().splitlines()) if f.exists() else 0


def test_map_in_order_then_skip_what_is_done(slurm_env, tmp_path):
    ex = get_executor("slurm", workdir=tmp_path / "jobs")
    lines: list[str] = []
    pts = _points(tmp_path, [4, 2, 3])
    rows = ex.map(cluster_points.square, pts, kind="sim", log=lines.append)
    assert [r["square"] for r in rows] == [16, 4, 9]
    assert sorted(ln for ln in lines if ln.startswith("  done:")) == \
        ["  done: square 2", "  done: square 3", "  done: square 4"]
    assert any("job array" in ln and "3 point(s) of kind 'sim'" in ln for ln in lines), lines
    # one job log per point, in the batch folder
    (batch,) = (tmp_path / "jobs" / "batches").iterdir()
    assert sorted(p.name for p in batch.glob("*.log")) == ["0.log", "1.log", "2.log"]
    # again, with one new point: only the new one is submitted
    lines.clear()
    rows = ex.map(cluster_points.square, pts + _points(tmp_path, [5]), kind="sim", log=lines.append)
    assert [r["square"] for r in rows] == [16, 4, 9, 25]
    assert [_runs(tmp_path, n) for n in (4, 2, 3, 5)] == [1, 1, 1, 1]
    assert any("3 of 4 point(s) already done" in ln for ln in lines), lines
    assert any("1 point(s) of kind 'sim'" in ln for ln in lines), lines
    # the same point twice in one sweep runs once
    twice = _points(tmp_path, [6])
    rows = ex.map(cluster_points.square, twice + twice, kind="sim", log=lines.append)
    assert [r["square"] for r in rows] == [36, 36] and _runs(tmp_path, 6) == 1
    # everything done: nothing is submitted at all
    batches = len(list((tmp_path / "jobs" / "batches").iterdir()))
    ex.map(cluster_points.square, pts, kind="sim", log=lines.append)
    assert len(list((tmp_path / "jobs" / "batches").iterdir())) == batches


def test_the_request_of_the_kind_reaches_the_job(slurm_env, tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHPUSH_RESOURCES_SYNTH", "cpus=2,mem=700M,time=7")
    ex = get_executor("slurm", workdir=tmp_path / "jobs")
    ex.map(cluster_points.square, _points(tmp_path, [1]), kind="synth", log=lambda m: None)
    (batch,) = (tmp_path / "jobs" / "batches").iterdir()
    job = (batch / "job_id").read_text().strip()
    info = slurm_env.run("scontrol", "-o", "show", "job", f"{job}_0").stdout
    assert "NumCPUs=2" in info and "MinMemoryNode=700M" in info and "TimeLimit=00:07:00" in info, info
    # the task wrote its result, so map() returned; slurmd may still be ending the task
    # (its epilog, its accounting): COMPLETING then, never a failure state
    assert "JobName=pushpush-synth" in info and "ExitCode=0:0" in info, info
    assert re.search(r"JobState=(COMPLETING|COMPLETED) ", info), info


def test_failures_are_reported_per_point_with_the_log(slurm_env, tmp_path):
    ex = get_executor("slurm", workdir=tmp_path / "jobs")
    pts = _points(tmp_path, [1]) + [{"n": 2, "work": str(tmp_path / "w2"), "label": "raises",
                                     "fail": True},
                                    {"n": 3, "work": str(tmp_path / "w3"), "label": "dies",
                                     "exit": True}]
    lines: list[str] = []
    with pytest.raises(SweepFailed) as info:
        ex.map(cluster_points.square, pts, kind="sim", log=lines.append)
    err = info.value
    assert len(err.errors) == 2 and str(err).startswith("2 of 3 point(s) failed")
    by = {e.label: e for e in err.errors}
    assert "ValueError: point 2 fails on purpose" in by["raises"].message
    assert "about to fail on point 2" in by["raises"].log_tail   # the job's own output
    assert by["raises"].log is not None and by["raises"].log.is_file()
    assert "ended (FAILED, exit code 3:0" in by["dies"].message and "without a result" in by["dies"].message
    assert "FAILED: raises" in "\n".join(lines) and "FAILED: dies" in "\n".join(lines)
    # the good point is kept: a second run (now fixed) redoes only the failed ones
    fixed = _points(tmp_path, [1, 2, 3])
    rows = ex.map(cluster_points.square, fixed, kind="sim", log=lambda m: None)
    assert [r["square"] for r in rows] == [1, 4, 9] and _runs(tmp_path, 1) == 1


def test_an_impossible_request_is_refused_with_the_fix(slurm_env, tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHPUSH_RESOURCES_VIVADO", "cpus=100000")
    ex = get_executor("slurm", workdir=tmp_path / "jobs")
    with pytest.raises(SlurmError, match=r"PUSHPUSH_RESOURCES_VIVADO=cpus=N") as info:
        ex.map(cluster_points.square, _points(tmp_path, [1]), kind="vivado", log=lambda m: None)
    assert "100000 CPU(s)" in str(info.value)
    # refused by sbatch, or pending for a reason that never resolves: nothing is left queued
    assert slurm_env.run("squeue", "-h", "--me", "-n", "pushpush-vivado", "-t", "PD,R").stdout.strip() == ""


def test_ctrl_c_cancels_the_job_array(slurm_env, tmp_path):
    # Ctrl-C as a terminal delivers it: the child takes SIGINT even when this test runs with
    # it ignored (started with '&' from a script, or under nohup: Python then leaves SIGINT
    # ignored in every child, and the SIGINT below would do nothing)
    script = (f"import signal, sys; sys.path.insert(0, {str(HERE)!r})\n"
              "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
              "import cluster_points\n"
              "from pushpush.executor import get_executor\n"
              f"ex = get_executor('slurm', workdir={str(tmp_path / 'jobs')!r})\n"
              f"pts = [{{'n': n, 'work': {str(tmp_path)!r} + f'/w{{n}}', 'sleep': 600}} for n in range(3)]\n"
              "ex.map(cluster_points.square, pts, log=lambda m: print(m, flush=True))\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=os.environ.copy())
    out = []
    try:
        deadline = time.monotonic() + 120
        # wait until a task runs (its first output line proves the job started)
        while not any(Path(tmp_path / f"w{n}" / "runs").exists() for n in range(3)):
            assert proc.poll() is None, "".join(out) + (proc.stdout.read() if proc.stdout else "")
            assert time.monotonic() < deadline, "no task started within 120 s:\n" + "".join(out)
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready and proc.stdout is not None:
                out.append(proc.stdout.readline())
        proc.send_signal(signal.SIGINT)
        try:
            rest, _ = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired as exc:
            late = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else exc.stdout or ""
            raise AssertionError(f"still running 120 s after SIGINT; it said:\n{''.join(out)}{late}") from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = "".join(out) + rest
    assert proc.returncode != 0 and "KeyboardInterrupt" in text, text
    assert "cancelled job array" in text, text
    (batch,) = (tmp_path / "jobs" / "batches").iterdir()
    job = (batch / "job_id").read_text().strip()
    # the array's tasks are cancelled (CANCELLED, or COMPLETING while their processes end),
    # then leave the queue
    deadline = time.monotonic() + 60
    while (q := slurm_env.run("squeue", "-h", "-j", job, "-o", "%T").stdout.split()):
        assert set(q) <= {"COMPLETING"}, q
        assert time.monotonic() < deadline, f"the cancelled tasks still in the queue: {q}"
        time.sleep(0.5)
    states = {slurm_env.run("scontrol", "-o", "show", "job", f"{job}_{t}").stdout.split("JobState=")[1].split()[0]
              for t in range(3)}
    assert states == {"CANCELLED"}, states
    assert not any((p / "result.json").exists() for p in (tmp_path / "jobs" / "points").iterdir())
    assert len((batch / "tasks.txt").read_text().splitlines()) == 3
