"""The executors' decisions without a cluster, fast: the slurm executor against recorded
answers of Slurm's client commands (sbatch, squeue, scontrol, scancel: ``FakeSlurm``; its
tasks run in this process through :func:`pushpush.executor.job.run_point`, as a compute node
would run them), the job side, resource settings, point functions and the local executor.

The same behaviour on a real single-node Slurm: tests/cluster/test_slurm_executor.py (slow)."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

import cluster_points
from pushpush.executor import LocalExecutor, Resources, SweepFailed, default_jobs, resources_for
from pushpush.executor import slurm
from pushpush.executor.base import PointError, fn_ref, label_of, parse_resources, resolve_fn
from pushpush.executor.job import main as job_main, run_point, write_json_atomic
from pushpush.executor.slurm import SlurmError, SlurmExecutor, parse_job_id, parse_squeue, sbatch_command

JOB = "4242"
REAL_RUN = subprocess.run      # FakeSlurm replaces subprocess.run while a test runs
Answer = tuple[int, str, str]   # squeue's exit status, stdout, stderr


@pytest.fixture(autouse=True)
def _no_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """No slurm settings from the caller's environment."""
    for var in list(os.environ):
        if var.startswith(("PUSHPUSH_SLURM_", "PUSHPUSH_RESOURCES_", "PUSHPUSH_BENCH_JOBS", "SLURM_")):
            monkeypatch.delenv(var)


class FakeSlurm:
    """Slurm's client commands as recorded answers. ``sbatch`` answers ``sbatch``; each
    ``squeue`` takes the next of ``steps`` (the last one repeats): a function of the fake that
    may run tasks (``run``) and returns squeue's answer; ``scontrol show job`` answers
    ``scontrol[task]`` (else "Invalid job id", as for a job slurmctld forgot)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, steps: list[Callable[["FakeSlurm"], Answer]],
                 scontrol: Optional[dict[int, str]] = None, sbatch: Answer = (0, f"{JOB}\n", ""),
                 missing: tuple[str, ...] = (), scancel: Answer = (0, "", "")) -> None:
        self.steps = list(steps)
        self.scancel = scancel
        self.scontrol = scontrol or {}
        self.sbatch = sbatch
        self.commands: list[list[str]] = []
        self.batch: Optional[Path] = None
        monkeypatch.setattr(slurm.shutil, "which", lambda name: None if name in missing else f"/usr/bin/{name}")
        monkeypatch.setattr(slurm.subprocess, "run", self._run)

    def dirs(self) -> list[Path]:
        assert self.batch is not None
        return [Path(ln) for ln in (self.batch / "tasks.txt").read_text().splitlines()]

    def run(self, *tasks: int) -> None:
        """Run array tasks (all without arguments), their output into the task's log."""
        for t in tasks or range(len(self.dirs())):
            assert self.batch is not None
            with open(self.batch / f"{t}.log", "w") as log, contextlib.redirect_stdout(log), \
                    contextlib.redirect_stderr(log):
                run_point(self.dirs()[t])

    def _run(self, cmd: list[str], capture_output: bool, text: bool, timeout: float,
             check: bool) -> subprocess.CompletedProcess[str]:
        assert capture_output and text and timeout == 120 and check is False
        self.commands.append(cmd)
        if cmd[0] == "sbatch":
            self.batch = Path(cmd[-1]).parent
            rc, out, err = self.sbatch
        elif cmd[0] == "squeue":
            assert cmd == ["squeue", "-h", "-r", "-j", JOB, "-o", "%K|%T|%r"]
            step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
            rc, out, err = step(self)
        elif cmd[0] == "scontrol":
            job, _, task = cmd[-1].partition("_")
            assert cmd[:4] == ["scontrol", "-o", "show", "job"] and job == JOB
            out = self.scontrol.get(int(task), "")
            rc, err = (0, "") if out else (1, "slurm_load_jobs error: Invalid job id specified")
        else:
            assert cmd[0] == "scancel"
            rc, out, err = self.scancel
        return subprocess.CompletedProcess(cmd, rc, out, err)

    def named(self, name: str) -> list[list[str]]:
        return [c for c in self.commands if c[0] == name]


def queue(text: str) -> Callable[[FakeSlurm], Answer]:
    return lambda f: (0, text, "")


def run_then(text: str = "", *tasks: int) -> Callable[[FakeSlurm], Answer]:
    """The tasks finish (all of them without ``tasks``), then squeue shows ``text``."""
    def step(f: FakeSlurm) -> Answer:
        f.run(*tasks)
        return 0, text, ""
    return step


def no_answer(err: str = "slurm_load_jobs error: Socket timed out on send/recv operation"
              ) -> Callable[[FakeSlurm], Answer]:
    return lambda f: (1, "", err)


def pt(tmp_path: Path, n: int, **more: Any) -> dict[str, Any]:
    return {"n": n, "work": str(tmp_path / "work" / str(n)), "label": f"sq {n}", **more}


def runs(tmp_path: Path, n: int) -> int:
    f = tmp_path / "work" / str(n) / "runs"
    return len(f.read_text().splitlines()) if f.exists() else 0


def executor(tmp_path: Path, **kw: Any) -> SlurmExecutor:
    return SlurmExecutor(workdir=tmp_path / "w", poll_s=0, **kw)


class Clock:
    """The slurm executor's clock: each poll's sleep moves it ``step`` seconds on."""

    strftime = staticmethod(time.strftime)
    monotonic_ns = staticmethod(time.monotonic_ns)

    def __init__(self, monkeypatch: pytest.MonkeyPatch, now: float = 0.0, step: float = 10.0) -> None:
        self.now, self.step = now, step
        self.slept: list[float] = []
        monkeypatch.setattr(slurm, "time", self)

    def monotonic(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.slept.append(s)
        self.now += self.step


def double(point: dict[str, Any]) -> dict[str, Any]:
    """A point function whose points need no label or work folder."""
    return {"d": 2 * point["n"]}


def where(point: dict[str, Any]) -> dict[str, Any]:
    """The pushpush that runs the point."""
    import pushpush
    return {"pushpush": str(Path(pushpush.__file__).resolve())}


# ------------------------------------------------------------------ slurm: a map


def test_map_submits_the_points_and_returns_their_results_in_order(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [queue("0|PENDING|Priority\n1|PENDING|Priority\n"),
                                   queue("0|RUNNING|None\n1|PENDING|Resources\n"),
                                   queue("0|RUNNING|None\n1|PENDING|Resources\n"),
                                   queue("1|PENDING|None\n"), run_then()])
    ex = executor(tmp_path, partition="fpga", account="lab", max_parallel=2, extra_args=["--qos=short"])
    pts = [pt(tmp_path, 3), pt(tmp_path, 3), pt(tmp_path, 1)]     # the same point twice runs once
    lines: list[str] = []
    assert [r["square"] for r in ex.map(cluster_points.square, pts, kind="sim", log=lines.append)] == [9, 9, 1]
    assert runs(tmp_path, 3) == runs(tmp_path, 1) == 1
    batch = fake.batch
    assert batch is not None and batch.parent == ex.workdir / "batches"
    (cmd,) = fake.named("sbatch")
    assert cmd == ["sbatch", "--parsable", "--array=0-1%2", "--job-name=pushpush-sim", "--ntasks=1",
                   "--cpus-per-task=1", "--mem=2048M", "--time=60", f"--output={batch}/%a.log",
                   f"--chdir={Path.cwd()}", "--partition=fpga", "--account=lab", "--qos=short",
                   str(batch / "run.sh")]
    assert (batch / "sbatch.txt").read_text().split() == cmd
    assert (batch / "job_id").read_text() == f"{JOB}\n"
    assert fake.dirs() == [ex.workdir / "points" / d.name for d in fake.dirs()]
    assert [json.loads((d / "call.json").read_text())["label"] for d in fake.dirs()] == ["sq 3", "sq 1"]
    assert lines == [
        f"slurm: job array {JOB}: 2 point(s) of kind 'sim' (1 CPU(s), 2048 MiB, 60 min each); logs in {batch}",
        f"slurm {JOB}: 2 pending (Priority), 0 done",
        f"slurm {JOB}: 1 pending (Resources), 1 running, 0 done",
        f"slurm {JOB}: 1 pending, 0 done",
        "  done: sq 3", "  done: sq 1"]
    assert fake.named("scancel") == []


def test_a_second_map_reuses_the_results_kept(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [run_then()])
    ex = executor(tmp_path)
    pts = [pt(tmp_path, 2), pt(tmp_path, 5)]
    ex.map(cluster_points.square, pts, log=lambda s: None)
    lines: list[str] = []
    again = [pt(tmp_path, 5), pt(tmp_path, 2), pt(tmp_path, 2)]
    assert [r["square"] for r in ex.map(cluster_points.square, again, log=lines.append)] == [25, 4, 4]
    assert lines == [f"slurm: 2 of 3 point(s) already done in {ex.workdir}"]
    assert len(fake.named("sbatch")) == 1 and runs(tmp_path, 2) == 1
    # one new point: only it is submitted
    lines.clear()
    ex.map(cluster_points.square, [pt(tmp_path, 2), pt(tmp_path, 7)], log=lines.append)
    assert len(fake.named("sbatch")) == 2 and fake.named("sbatch")[1][2] == "--array=0-0"
    assert lines[0] == f"slurm: 1 of 2 point(s) already done in {ex.workdir}"
    assert (runs(tmp_path, 2), runs(tmp_path, 7)) == (1, 1)
    # reuse=False: every point runs again (builds whose sources changed); the old results are
    # gone first, so the map waits for the new ones
    fake.steps = [queue("0|PENDING|Priority\n1|PENDING|Priority\n"), run_then()]
    lines.clear()
    assert [r["square"] for r in ex.map(cluster_points.square, pts, log=lines.append, reuse=False)] == [4, 25]
    assert (runs(tmp_path, 2), runs(tmp_path, 5)) == (2, 2)
    assert not any("already done" in ln for ln in lines)


def test_the_array_script_runs_each_task_s_point(tmp_path, monkeypatch) -> None:
    """run.sh, as Slurm runs it on a compute node: the task's index picks its point folder."""
    def run_script(f: FakeSlurm) -> Answer:
        assert f.batch is not None
        (chdir,) = [a.partition("=")[2] for a in f.named("sbatch")[-1] if a.startswith("--chdir=")]
        for t in range(len(f.dirs())):
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            env.update(SLURM_ARRAY_TASK_ID=str(t), SLURM_ARRAY_JOB_ID=JOB)
            with open(f.batch / f"{t}.log", "w") as log:
                REAL_RUN([str(f.batch / "run.sh")], env=env, stdout=log, stderr=log, check=True,
                         cwd=chdir)
        return 0, "", ""
    fake = FakeSlurm(monkeypatch, [run_script])
    pts = [pt(tmp_path, 4), pt(tmp_path, 6)]
    assert executor(tmp_path).map(cluster_points.square, pts, log=lambda s: None) == [
        {"n": 4, "square": 16}, {"n": 6, "square": 36}]
    assert fake.batch is not None
    # the log holds the job's own lines only (the script itself says nothing)
    assert (fake.batch / "1.log").read_text() == (
        f"pushpush job: sq 6 on {socket.gethostname()}, job {JOB}_1, folder {fake.dirs()[1]}\n"
        "pushpush job: done\n")
    assert (fake.batch / "run.sh").stat().st_mode & 0o777 == 0o755    # nobody else may change it
    # it puts the submitting pushpush's tree first on the job's PYTHONPATH
    tree = shlex.quote(str(Path(slurm.__file__).resolve().parents[2]))
    assert f"export PYTHONPATH={tree}${{PYTHONPATH:+:$PYTHONPATH}}\n" in (fake.batch / "run.sh").read_text()
    # the job runs the pushpush that submitted it (not another one installed on the node)
    assert executor(tmp_path).map(where, [{"n": 1}], log=lambda s: None) == [
        {"pushpush": str(Path(slurm.__file__).resolve().parents[1] / "__init__.py")}]


def test_failed_points_are_reported_after_the_others_finish(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [queue("0|RUNNING|None\n1|RUNNING|None\n2|RUNNING|None\n"),
                                   run_then("2|RUNNING|None\n", 0, 1), run_then("", 2)])
    ex = executor(tmp_path)
    pts = [pt(tmp_path, 1), pt(tmp_path, 2, fail=True), pt(tmp_path, 3)]
    lines: list[str] = []
    with pytest.raises(SweepFailed) as e:
        ex.map(cluster_points.square, pts, log=lines.append)
    assert fake.batch is not None
    log = fake.batch / "1.log"
    assert [(x.label, x.message, x.log) for x in e.value.errors] == [
        ("sq 2", "ValueError: point 2 fails on purpose", log)]
    assert "about to fail on point 2" in e.value.errors[0].log_tail
    assert str(e.value).startswith(
        f"1 of 3 point(s) failed (job array {JOB}; the other points' results are kept in {ex.workdir}, "
        "a second run redoes only these):\n  sq 2: ValueError: point 2 fails on purpose\n"
        f"    log: {log}\n    | pushpush job: sq 2 on ")
    assert f"  FAILED: sq 2 (log: {log})" in lines and "  done: sq 3" in lines
    assert fake.named("scancel") == []
    # a second run submits only the failed point (its old error is gone first)
    fake.steps = [queue("0|RUNNING|None\n"), run_then()]
    with pytest.raises(SweepFailed):
        ex.map(cluster_points.square, pts, log=lines.append)
    assert fake.named("sbatch")[1][2] == "--array=0-0" and len(fake.dirs()) == 1
    assert (runs(tmp_path, 1), runs(tmp_path, 2), runs(tmp_path, 3)) == (1, 2, 1)


@pytest.mark.parametrize("record, message", [
    ("JobId=9 ArrayJobId=4242 ArrayTaskId=1 JobState=TIMEOUT Reason=TimeLimit ExitCode=0:15",
     "job 4242_1 ended (TIMEOUT, exit code 0:15, TimeLimit) without a result: raise the time limit "
     "with $PUSHPUSH_RESOURCES_<KIND>=time=MINUTES"),
    ("JobId=9 JobState=OUT_OF_MEMORY Reason=None ExitCode=0:125",
     "job 4242_1 ended (OUT_OF_MEMORY, exit code 0:125) without a result: raise the memory with "
     "$PUSHPUSH_RESOURCES_<KIND>=mem=SIZE"),
    ("JobId=9 JobState=FAILED ExitCode=3:0", "job 4242_1 ended (FAILED, exit code 3:0) without a result"),
    ("JobId=9 JobState=NODE_FAIL ExitCode= Reason=NodeDown",
     "job 4242_1 ended (NODE_FAIL, NodeDown) without a result"),
    ("", "job 4242_1 ended (unknown (no longer known to slurmctld)) without a result"),
])
def test_a_task_that_leaves_without_a_result(tmp_path, monkeypatch, record: str, message: str) -> None:
    def killed(f: FakeSlurm) -> Answer:
        assert f.batch is not None
        (f.batch / "1.log").write_text("pushpush job: sq 2\nslurmstepd: error: *** JOB 4243 ON n1 CANCELLED ***\n")
        return run_then("", 0)(f)
    fake = FakeSlurm(monkeypatch, [queue("0|RUNNING|None\n1|RUNNING|None\n"), killed],
                     scontrol={1: record + "\n"} if record else {})
    ex = executor(tmp_path, nfs_grace_s=0)
    lines: list[str] = []
    with pytest.raises(SweepFailed) as e:
        ex.map(cluster_points.square, [pt(tmp_path, 1), pt(tmp_path, 2)], log=lines.append)
    assert fake.batch is not None
    (err,) = e.value.errors
    assert (err.label, err.message, err.log, err.log_tail) == (
        "sq 2", message, fake.batch / "1.log", "pushpush job: sq 2\nslurmstepd: error: *** JOB 4243 ON n1 CANCELLED ***")
    assert lines[-1] == f"  FAILED: sq 2 (log: {fake.batch / '1.log'})"
    assert ["scontrol", "-o", "show", "job", f"{JOB}_1"] in fake.commands


def test_a_result_on_its_way_is_waited_for(tmp_path, monkeypatch) -> None:
    """The task left the queue COMPLETED but its result is not in the (network) folder yet:
    the map looks again instead of reporting the point lost."""
    fake = FakeSlurm(monkeypatch, [queue("0|RUNNING|None\n"), queue(""), queue(""), run_then()],
                     scontrol={0: "JobId=5 JobState=COMPLETED ExitCode=0:0\n"})
    assert executor(tmp_path, nfs_grace_s=1000).map(cluster_points.square, [pt(tmp_path, 3)],
                                                    log=lambda s: None) == [{"n": 3, "square": 9}]
    assert len(fake.named("squeue")) == 4


def test_a_task_forgotten_by_slurmctld_is_waited_for_until_the_grace_ends(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [queue(""), queue(""), run_then()])
    assert executor(tmp_path, nfs_grace_s=1000).map(cluster_points.square, [pt(tmp_path, 3)],
                                                    log=lambda s: None) == [{"n": 3, "square": 9}]
    assert len(fake.named("squeue")) == 3


@pytest.mark.parametrize("state", ["FAILED", "CANCELLED"])
def test_a_task_that_ended_without_success_is_not_waited_for(tmp_path, monkeypatch, state: str) -> None:
    fake = FakeSlurm(monkeypatch, [queue(""), run_then()],
                     scontrol={0: f"JobId=5 JobState={state} ExitCode=1:0\n"})
    with pytest.raises(SweepFailed, match=f"ended \\({state}, exit code 1:0\\) without a result"):
        executor(tmp_path, nfs_grace_s=1000).map(cluster_points.square, [pt(tmp_path, 3)], log=lambda s: None)
    assert len(fake.named("squeue")) == 1


def test_every_remaining_task_must_have_ended_before_none_is_waited_for(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [queue(""), run_then()],
                     scontrol={0: "JobId=5 JobState=FAILED ExitCode=1:0\n",
                               1: "JobId=6 JobState=COMPLETED ExitCode=0:0\n"})
    rows = executor(tmp_path, nfs_grace_s=1000).map(cluster_points.square, [pt(tmp_path, 1), pt(tmp_path, 2)],
                                                    log=lambda s: None)
    assert [r["n"] for r in rows] == [1, 2] and len(fake.named("squeue")) == 2


def test_a_task_back_in_the_queue_starts_the_grace_again(tmp_path, monkeypatch) -> None:
    Clock(monkeypatch)
    fake = FakeSlurm(monkeypatch, [queue(""), queue("0|PENDING|BeginTime\n"), queue(""), queue(""),
                                   run_then()])
    # gone at 0; back at 10; gone at 20 and at 30 (within 15 s); the result at 40
    assert executor(tmp_path, nfs_grace_s=15).map(cluster_points.square, [pt(tmp_path, 3)],
                                                  log=lambda s: None) == [{"n": 3, "square": 9}]
    assert len(fake.named("squeue")) == 5


def test_grace_ends(tmp_path, monkeypatch) -> None:
    Clock(monkeypatch)
    fake = FakeSlurm(monkeypatch, [queue("")])
    with pytest.raises(SweepFailed, match="without a result"):
        executor(tmp_path, nfs_grace_s=20).map(cluster_points.square, [pt(tmp_path, 3)], log=lambda s: None)
    # gone at 0, 10; at 20 the grace of 20 s is over
    assert len(fake.named("squeue")) == 3


def test_poll_waits_poll_s_between_looks(tmp_path, monkeypatch) -> None:
    clock = Clock(monkeypatch)
    FakeSlurm(monkeypatch, [queue("0|RUNNING|None\n"), queue("0|RUNNING|None\n"), run_then()])
    SlurmExecutor(workdir=tmp_path / "w", poll_s=2.5).map(cluster_points.square, [pt(tmp_path, 3)],
                                                          log=lambda s: None)
    assert clock.slept == [2.5, 2.5]


def test_a_request_that_can_never_start_is_cancelled(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [queue("0|PENDING|Resources\n1|RUNNING|PartitionTimeLimit\n"),
                                   queue("0|PENDING|PartitionTimeLimit\n1|PENDING|QOSMaxMemoryPerJob\n")])
    ex = executor(tmp_path)
    lines: list[str] = []
    with pytest.raises(SlurmError) as e:
        ex.map(cluster_points.square, [pt(tmp_path, 1), pt(tmp_path, 2)], kind="synth", log=lines.append)
    assert str(e.value) == (
        f"job array {JOB} can never start here: PartitionTimeLimit, QOSMaxMemoryPerJob: the request exceeds "
        "what the partition, account or QOS allows\n  (the request per point: 1 CPU(s), 4096 MiB, 120 min, "
        "kind 'synth'; change it with $PUSHPUSH_RESOURCES_SYNTH=cpus=N,mem=SIZE,time=MIN, the partition "
        "with $PUSHPUSH_SLURM_PARTITION)")
    assert fake.named("scancel") == [["scancel", JOB]]
    assert lines[-1] == (f"slurm: cancelled job array {JOB} (scancel); 0 finished point(s) are kept in "
                         f"{ex.workdir}: run again to do the rest")


@pytest.mark.parametrize("reason", ["PartitionNodeLimit", "PartitionTimeLimit", "PartitionConfig",
                                    "BadConstraints", "InvalidAccount", "InvalidQOS", "QOSMaxCpuPerJobLimit",
                                    "QOSMaxMemoryPerJob", "AssocMaxCpuPerJobLimit", "AssocMaxMemPerJobLimit",
                                    "DependencyNeverSatisfied"])
def test_every_reason_that_never_resolves_cancels(tmp_path, monkeypatch, reason: str) -> None:
    fake = FakeSlurm(monkeypatch, [queue(f"0|PENDING|{reason}\n")])
    with pytest.raises(SlurmError, match=f"can never start here: {reason}: "):
        executor(tmp_path).map(cluster_points.square, [pt(tmp_path, 1)], log=lambda s: None)
    assert fake.named("scancel") == [["scancel", JOB]]


def test_progress_names_pending_reasons_only_when_there_is_one(tmp_path, monkeypatch) -> None:
    FakeSlurm(monkeypatch, [queue("0|PENDING|\n1|PENDING|None\n2|CONFIGURING|x\n"), run_then()])
    lines: list[str] = []
    executor(tmp_path).map(cluster_points.square, [pt(tmp_path, 1), pt(tmp_path, 2), pt(tmp_path, 3)],
                           log=lines.append)
    assert lines[1] == f"slurm {JOB}: 1 configuring, 2 pending, 0 done"


def test_squeue_not_answering_is_waited_out(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [no_answer(), no_answer(), queue("0|RUNNING|None\n"), no_answer(),
                                   run_then("", 0), no_answer(), run_then("", 1)])
    lines: list[str] = []
    executor(tmp_path, nfs_grace_s=1000).map(cluster_points.square, [pt(tmp_path, 1), pt(tmp_path, 2)],
                                          log=lines.append)
    said = (f"slurm {JOB}: squeue does not answer now; still waiting (results are collected from the work "
            "folder meanwhile)")
    assert lines[1:] == [said, f"slurm {JOB}: 1 running, 0 done", said, "  done: sq 1", "  done: sq 2"]
    assert len(fake.named("squeue")) == 7


def test_a_job_purged_from_the_controller_has_left_the_queue(tmp_path, monkeypatch) -> None:
    FakeSlurm(monkeypatch, [no_answer("slurm_load_jobs error: Invalid job id specified")])
    with pytest.raises(SweepFailed, match="without a result"):
        executor(tmp_path, nfs_grace_s=0).map(cluster_points.square, [pt(tmp_path, 1)], log=lambda s: None)


def test_a_map_waits_at_most_timeout_s(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [queue("0|RUNNING|None\n1|RUNNING|None\n")])
    with pytest.raises(SlurmError, match=rf"job array {JOB}: 2 point\(s\) not done after 0 s "
                                         r"\(\$PUSHPUSH_SLURM_TIMEOUT\)"):
        executor(tmp_path, timeout_s=0).map(cluster_points.square, [pt(tmp_path, 1), pt(tmp_path, 2)],
                                            log=lambda s: None)
    assert fake.named("scancel") == [["scancel", JOB]]


def test_timeout_counts_from_the_submission(tmp_path, monkeypatch) -> None:
    Clock(monkeypatch, now=100.0)
    fake = FakeSlurm(monkeypatch, [queue("0|RUNNING|None\n")])
    with pytest.raises(SlurmError, match="not done after 30 s"):
        executor(tmp_path, timeout_s=30).map(cluster_points.square, [pt(tmp_path, 1)], log=lambda s: None)
    # looks at 100, 110, 120, 130 (not past the deadline yet), 140
    assert len(fake.named("squeue")) == 5


@pytest.mark.parametrize("scancel", [(0, "", ""), (1, "", "scancel: error: Kill job error on job id 4242: "
                                                             "Invalid job id specified\n")])
def test_ctrl_c_cancels_the_array(tmp_path, monkeypatch, scancel: Answer) -> None:
    """Ctrl-C cancels the array (scancel failing, the job gone already, changes nothing)."""
    def interrupt(f: FakeSlurm) -> Answer:
        raise KeyboardInterrupt
    fake = FakeSlurm(monkeypatch, [run_then("1|RUNNING|None\n", 0), interrupt], scancel=scancel)
    ex = executor(tmp_path)
    lines: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        ex.map(cluster_points.square, [pt(tmp_path, 1), pt(tmp_path, 2)], log=lines.append)
    assert fake.named("scancel") == [["scancel", JOB]]
    assert lines[-1] == (f"slurm: cancelled job array {JOB} (scancel); 1 finished point(s) are kept in "
                         f"{ex.workdir}: run again to do the rest")


@pytest.mark.parametrize("answer, message", [
    ((1, "", "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"),
     "failed (exit 1): sbatch: error: Batch job submission failed: Requested node configuration is not "
     "available\n  (the request per point: 4 CPU(s), 16384 MiB, 360 min, kind 'vivado';"),
    ((1, "sbatch: error: invalid partition\n", ""), "failed (exit 1): sbatch: error: invalid partition\n"),
    ((0, "Submitted batch job 12\n", ""), "sbatch printed 'Submitted batch job 12', not a job id\n  (the request"),
])
def test_sbatch_refusing_says_what_was_asked(tmp_path, monkeypatch, answer: Answer, message: str) -> None:
    fake = FakeSlurm(monkeypatch, [queue("")], sbatch=answer)
    with pytest.raises(SlurmError) as e:
        executor(tmp_path).map(cluster_points.square, [pt(tmp_path, 1)], kind="vivado", log=lambda s: None)
    assert message in str(e.value)
    if answer[0]:
        assert str(e.value).startswith("sbatch --parsable --array=0-0 --job-name=pushpush-vivado ")
    assert fake.named("squeue") == [] and fake.named("scancel") == []


def test_slurm_commands_missing_or_hanging(tmp_path, monkeypatch) -> None:
    FakeSlurm(monkeypatch, [queue("")], missing=("sbatch",))
    with pytest.raises(SlurmError, match=r"^sbatch not found: .*apt-get install slurm-client"):
        executor(tmp_path).map(cluster_points.square, [pt(tmp_path, 1)], log=lambda s: None)

    def hang(*a: Any, **kw: Any) -> Any:
        raise subprocess.TimeoutExpired(a[0], 120)
    FakeSlurm(monkeypatch, [queue("")])
    monkeypatch.setattr(slurm.subprocess, "run", hang)
    with pytest.raises(SlurmError, match=r"^sbatch --parsable .* did not answer within 120 s: is slurmctld"):
        executor(tmp_path).map(cluster_points.square, [pt(tmp_path, 1)], log=lambda s: None)


def test_points_must_be_json(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [run_then()])
    with pytest.raises(ValueError, match=r"^point 1: a point must be JSON-able: .*set"):
        executor(tmp_path).map(cluster_points.square, [{"n": 1}, {"n": {1}}], log=lambda s: None)
    assert fake.named("sbatch") == []


def test_a_point_without_a_label_is_named_by_its_place(tmp_path, monkeypatch) -> None:
    """The same point at another place in a sweep: its call names it by the new place."""
    fake = FakeSlurm(monkeypatch, [run_then()])
    ex = executor(tmp_path)
    assert ex.map(double, [{"n": 3}], log=lambda s: None) == [{"d": 6}]
    (d,) = fake.dirs()
    assert json.loads((d / "call.json").read_text())["label"] == "point 0"
    assert ex.map(double, [{"n": 5}, {"n": 3}], log=lambda s: None, reuse=False) == [{"d": 10}, {"d": 6}]
    assert fake.dirs()[1] == d and json.loads((d / "call.json").read_text())["label"] == "point 1"
    assert label_of({"n": 1, "work": "/w/1"}, 4) == "/w/1"


def test_points_without_a_label_are_named_by_their_place_in_every_line(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [run_then("2|RUNNING|None\n", 0, 1), queue("")])
    lines: list[str] = []
    with pytest.raises(SweepFailed) as e:
        executor(tmp_path, nfs_grace_s=0).map(double, [{"n": 1}, {"m": 2}, {"n": 3}], log=lines.append)
    assert [(x.label, x.message.split(" ")[0]) for x in e.value.errors] == [("point 1", "KeyError:"),
                                                                             ("point 2", "job")]
    assert fake.batch is not None
    assert lines[1:] == ["  done: point 0", f"  FAILED: point 1 (log: {fake.batch / '1.log'})",
                         f"slurm {JOB}: 1 running, 1 done", f"  FAILED: point 2 (log: {fake.batch / '2.log'})"]


def test_settings_from_the_environment(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PUSHPUSH_SLURM_PARTITION", "short")
    monkeypatch.setenv("PUSHPUSH_SLURM_ACCOUNT", "lab")
    monkeypatch.setenv("PUSHPUSH_SLURM_ARGS", "--qos=high '--comment=a b'")
    monkeypatch.setenv("PUSHPUSH_SLURM_MAX_PARALLEL", "4")
    monkeypatch.setenv("PUSHPUSH_SLURM_POLL", "0.25")
    monkeypatch.setenv("PUSHPUSH_SLURM_TIMEOUT", "60")
    ex = SlurmExecutor(workdir=tmp_path)
    assert (ex.partition, ex.account, ex.extra_args, ex.max_parallel, ex.poll_s, ex.timeout_s) == (
        "short", "lab", ["--qos=high", "--comment=a b"], 4, 0.25, 60.0)
    # arguments win over the environment
    ex = SlurmExecutor(workdir=tmp_path, partition="p", account="a", extra_args=[], max_parallel=2,
                       poll_s=1, timeout_s=2)
    assert (ex.partition, ex.account, ex.extra_args, ex.max_parallel, ex.poll_s, ex.timeout_s) == (
        "p", "a", [], 2, 1, 2)
    for var in ("PUSHPUSH_SLURM_PARTITION", "PUSHPUSH_SLURM_ACCOUNT", "PUSHPUSH_SLURM_ARGS",
                "PUSHPUSH_SLURM_MAX_PARALLEL", "PUSHPUSH_SLURM_POLL", "PUSHPUSH_SLURM_TIMEOUT"):
        monkeypatch.setenv(var, "")
    monkeypatch.delenv("PUSHPUSH_SLURM_POLL")
    monkeypatch.delenv("PUSHPUSH_SLURM_TIMEOUT")
    ex = SlurmExecutor(workdir=tmp_path / "~x")
    assert (ex.partition, ex.account, ex.extra_args, ex.max_parallel, ex.poll_s, ex.timeout_s) == (
        None, None, [], None, 5.0, 7 * 24 * 3600.0)
    assert ex.nfs_grace_s == 60.0 and ex.resources == {}
    monkeypatch.delenv("PUSHPUSH_SLURM_ARGS")
    assert SlurmExecutor(workdir=tmp_path).extra_args == []
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert SlurmExecutor(workdir="~/pp").workdir == tmp_path / "home" / "pp"
    monkeypatch.setenv("PUSHPUSH_SLURM_MAX_PARALLEL", "many")
    with pytest.raises(ValueError, match=r"^\$PUSHPUSH_SLURM_MAX_PARALLEL='many': give a whole number$"):
        SlurmExecutor(workdir=tmp_path)


def test_resources_given_to_the_executor(tmp_path, monkeypatch) -> None:
    fake = FakeSlurm(monkeypatch, [run_then()])
    ex = executor(tmp_path, resources={"sim": "cpus=2,mem=3G,time=1:30:00"})
    ex.map(cluster_points.square, [pt(tmp_path, 1)], log=lambda s: None)
    (cmd,) = fake.named("sbatch")
    assert {"--cpus-per-task=2", "--mem=3072M", "--time=90"} <= set(cmd)


# ------------------------------------------------------------------ slurm: parsing and commands


def test_sbatch_command_in_full(tmp_path) -> None:
    res = Resources(cpus=2, mem_mb=100, time_min=7)
    assert sbatch_command(tmp_path / "r.sh", 3, res, tmp_path / "%a.log", "j", tmp_path) == [
        "sbatch", "--parsable", "--array=0-2", "--job-name=j", "--ntasks=1", "--cpus-per-task=2",
        "--mem=100M", "--time=7", f"--output={tmp_path}/%a.log", f"--chdir={tmp_path}", str(tmp_path / "r.sh")]
    assert sbatch_command(tmp_path / "r.sh", 1, res, tmp_path / "%a.log", "j", tmp_path, max_parallel=0,
                          extra=("--x",))[2:3] == ["--array=0-0"]


def test_parse_job_id_takes_the_last_line() -> None:
    assert parse_job_id("sbatch: warning: something\n  99;c1  \n") == "99"
    for bad in ("", "\n", "x;99"):
        with pytest.raises(SlurmError, match="not a job id"):
            parse_job_id(bad)


def test_parse_squeue_spaces_and_ranges() -> None:
    tasks, other = parse_squeue("  7 | RUNNING | None \n \n[0-2]|PENDING|Priority\n8|COMPLETING\n")
    assert tasks == {7: slurm.TaskState("RUNNING", "None"), 0: slurm.TaskState("PENDING", "Priority"),
                     1: slurm.TaskState("PENDING", "Priority"), 2: slurm.TaskState("PENDING", "Priority"),
                     8: slurm.TaskState("COMPLETING", "")}
    assert other == []
    tasks, other = parse_squeue("4_[1]|PENDING|x\n[10-11%4]|PENDING|JobArrayTaskLimit\n")
    assert sorted(tasks) == [10, 11] and other == [slurm.TaskState("PENDING", "x")]


def test_parse_scontrol_first_record() -> None:
    assert slurm.parse_scontrol("\nJobId=9 JobState=FAILED Comment Reason=a=b\nJobId=10 JobState=RUNNING\n") == {
        "JobId": "9", "JobState": "FAILED", "Reason": "a=b"}


def test_log_tail_is_the_last_25_lines(tmp_path) -> None:
    log = tmp_path / "0.log"
    log.write_text("".join(f"line {i}\n" for i in range(40)))
    assert slurm._tail(log) == "\n".join(f"line {i}" for i in range(15, 40))
    assert slurm._tail(tmp_path / "none.log") == ""
    # a log with bytes that are not UTF-8 (a tool's output) still shows its tail
    log.write_bytes(b"ok\n\xff\xfe bad\nend\n")
    assert slurm._tail(log) == "ok\n\ufffd\ufffd bad\nend"


# ------------------------------------------------------------------ the job side


def test_run_point_writes_the_result(tmp_path, monkeypatch, capsys) -> None:
    d = tmp_path / "p"
    d.mkdir()
    call = {"fn": fn_ref(cluster_points.square), "point": pt(tmp_path, 4), "label": "sq 4"}
    (d / "call.json").write_text(json.dumps(call))
    monkeypatch.setenv("SLURM_ARRAY_JOB_ID", "77")
    monkeypatch.setenv("SLURM_ARRAY_TASK_ID", "3")
    monkeypatch.setenv("SLURM_JOB_ID", "80")
    assert run_point(d) == 0
    assert json.loads((d / "result.json").read_text()) == {"n": 4, "square": 16}
    assert sorted(p.name for p in d.iterdir()) == ["call.json", "result.json"]
    out = capsys.readouterr().out
    assert out == f"pushpush job: sq 4 on {socket.gethostname()}, job 77_3, folder {d}\npushpush job: done\n"
    monkeypatch.delenv("SLURM_ARRAY_JOB_ID")
    monkeypatch.delenv("SLURM_ARRAY_TASK_ID")
    assert job_main([str(d)]) == 0
    assert f", job 80, folder {d}\n" in capsys.readouterr().out
    monkeypatch.delenv("SLURM_JOB_ID")
    assert run_point(d) == 0
    assert f", job -, folder {d}\n" in capsys.readouterr().out


def test_run_point_reports_a_failure(tmp_path, capsys) -> None:
    d = tmp_path / "p"
    d.mkdir()
    call = {"fn": fn_ref(cluster_points.square), "point": pt(tmp_path, 2, fail=True), "label": "sq 2"}
    (d / "call.json").write_text(json.dumps(call))
    assert run_point(d) == 1
    err = json.loads((d / "error.json").read_text())
    assert (err["type"], err["message"]) == ("ValueError", "point 2 fails on purpose")
    assert err["traceback"].startswith("Traceback") and "fails on purpose" in err["traceback"]
    assert not (d / "result.json").exists()
    cap = capsys.readouterr()
    assert err["traceback"] in cap.err and "pushpush job: done" not in cap.out
    # a function that cannot be found fails the same way
    (d / "call.json").write_text(json.dumps(dict(call, fn={"module": "cluster_points", "name": "nope",
                                                            "path": ""})))
    assert run_point(d) == 1
    assert json.loads((d / "error.json").read_text())["type"] == "AttributeError"


def test_a_job_that_dies_still_names_its_point_in_its_log(tmp_path) -> None:
    """The job's first line is written before the point runs: a point that kills its
    process (no result, no error file) still shows in its log which point it was."""
    ok = tmp_path / "ok"
    ok.mkdir()
    (ok / "call.json").write_text(json.dumps({"fn": fn_ref(cluster_points.square), "point": pt(tmp_path, 1),
                                              "label": "sq 1"}))
    assert run_point(ok) == 0                     # (in this process: a point that finishes)
    d = tmp_path / "p"
    d.mkdir()
    call = {"fn": fn_ref(cluster_points.square), "point": pt(tmp_path, 2, exit=True), "label": "sq 2"}
    (d / "call.json").write_text(json.dumps(call))
    log = tmp_path / "0.log"
    from pushpush.executor import job
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}    # as in a Slurm job
    env["PYTHONPATH"] = str(Path(job.__file__).resolve().parents[2])           # this pushpush
    with open(log, "w") as f:
        # (job.main imported, not run as __main__: the same function, and mutmut's mutants of it apply)
        p = REAL_RUN([sys.executable, "-c", "import sys; from pushpush.executor.job import main; "
                      "sys.exit(main(sys.argv[1:]))", str(d)], stdout=f, stderr=f, env=env)
    assert p.returncode == 3
    assert log.read_text().startswith(f"pushpush job: sq 2 on {socket.gethostname()}, job -, folder {d}\n")
    assert sorted(x.name for x in d.iterdir()) == ["call.json"]


def test_job_main_usage(capsys) -> None:
    assert job_main([]) == 2 and job_main(["a", "b"]) == 2
    assert capsys.readouterr().err == "usage: python -m pushpush.executor.job POINT_DIR\n" * 2


def test_write_json_atomic_replaces_whole(tmp_path) -> None:
    f = tmp_path / "r.json"
    write_json_atomic(f, {"a": 1})
    write_json_atomic(f, [1, 2])
    assert json.loads(f.read_text()) == [1, 2] and [p.name for p in tmp_path.iterdir()] == ["r.json"]


# ------------------------------------------------------------------ base: resources, points, errors


def test_resources_must_be_positive() -> None:
    assert Resources(1, 1, 1).cpus == 1
    for bad in ((0, 1, 1), (1, 0, 1), (1, 1, 0)):
        with pytest.raises(ValueError, match="resources must be positive"):
            Resources(*bad)


@pytest.mark.parametrize("text, want", [
    ("", (1, 100, 10)), (" , ", (1, 100, 10)),
    ("CPUS=3", (3, 100, 10)), ("cpus=1", (1, 100, 10)), ("cpus = 3", (3, 100, 10)),
    ("mem=2048", (1, 2048, 10)), ("mem=2048k", (1, 2, 10)), ("mem=1536K", (1, 1, 10)), ("mem=100K", (1, 1, 10)),
    ("mem=3M", (1, 3, 10)), ("mem=2G", (1, 2048, 10)), ("mem=1T", (1, 1024 * 1024, 10)),
    ("time=5", (1, 100, 5)), ("time=2:05", (1, 100, 125)), ("time=1:00:00", (1, 100, 60)),
    ("time=0:10:01", (1, 100, 11)), ("time=0:00:30", (1, 100, 1)), ("time=10:00", (1, 100, 600)),
    ("time=45:00:00", (1, 100, 2700)),
])
def test_parse_resources(text: str, want: tuple[int, int, int]) -> None:
    assert parse_resources(text, Resources(1, 100, 10), "X") == Resources(*want)


@pytest.mark.parametrize("text", ["cpus=-1", "cpus=two", "mem=0", "mem=0G", "mem=4X", "time=", "time=1:2:3:4",
                                  "cpus", "=3"])
def test_parse_resources_refuses(text: str) -> None:
    with pytest.raises(ValueError) as e:
        parse_resources(text, Resources(1, 100, 10), "WHERE")
    assert str(e.value) == (f"WHERE: '{text.strip()}' is not cpus=N, mem=SIZE (e.g. 4G) or time=MINUTES "
                            "(or H:MM:SS); e.g. WHERE=cpus=2,mem=8G,time=90")


@pytest.mark.parametrize("text", ["time=0", "time=0:00", "time=0:00:00"])
def test_parse_resources_refuses_no_time(text: str) -> None:
    with pytest.raises(ValueError, match=f"^WHERE: {text}: at least one minute$"):
        parse_resources(text, Resources(1, 100, 10), "WHERE")


def test_what_each_kind_of_work_asks_for() -> None:
    assert {k: resources_for(k) for k in ("sim", "synth", "build", "vivado")} == {
        "sim": Resources(1, 2048, 60), "synth": Resources(1, 4096, 120), "build": Resources(1, 4096, 120),
        "vivado": Resources(4, 16384, 360)}


def test_resources_env_and_overrides_by_kind(monkeypatch) -> None:
    monkeypatch.setenv("PUSHPUSH_RESOURCES_SIM", "cpus=3")
    assert resources_for("sim") == Resources(3, 2048, 60)
    assert resources_for("sim", {"sim": ""}) == Resources(3, 2048, 60)
    assert resources_for("sim", {"synth": "cpus=9"}) == Resources(3, 2048, 60)
    monkeypatch.setenv("PUSHPUSH_RESOURCES_SIM", "cpus=x")
    with pytest.raises(ValueError, match="^PUSHPUSH_RESOURCES_SIM: 'cpus=x'"):
        resources_for("sim")
    with pytest.raises(ValueError, match="^resources for 'synth': 'cpus=x'"):
        resources_for("synth", {"synth": "cpus=x"})


def test_point_error_and_sweep_failed_text() -> None:
    assert str(PointError("p", "boom")) == "p: boom"
    e = PointError("p", "boom", Path("/w/0.log"), "a\nb")
    assert str(e) == "p: boom\n    log: /w/0.log\n    | a\n    | b"
    s = SweepFailed([PointError("p", "boom"), PointError("q", "bang")], 5)
    assert str(s) == "2 of 5 point(s) failed:\n  p: boom\n  q: bang"
    assert str(SweepFailed([PointError("p", "boom")], 1, "why")) == "1 of 1 point(s) failed (why):\n  p: boom"


def test_choosing_by_name_and_jobs(monkeypatch) -> None:
    with pytest.raises(ValueError, match="^--executor pbs: unknown executor"):
        from pushpush.executor import executor_name, get_executor
        executor_name("pbs")
    from pushpush.executor import get_executor
    assert get_executor("local", jobs=3).jobs == 3


def test_label_of() -> None:
    assert label_of({"label": "L", "work": "W"}, 3) == "L"
    assert label_of({"label": "", "work": "W"}, 3) == "W"
    assert label_of({"n": 1}, 3) == "point 3"


def test_point_functions_of_packages_and_classes(tmp_path, monkeypatch) -> None:
    pkg = tmp_path / "src" / "pp_fake_pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("def top(p):\n    return {'top': p}\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "mod.py").write_text("class K:\n    @staticmethod\n    def f(p):\n        return {'k': p}\n")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    import importlib
    top = importlib.import_module("pp_fake_pkg")
    mod = importlib.import_module("pp_fake_pkg.sub.mod")
    src = str((tmp_path / "src").resolve())
    assert fn_ref(top.top) == {"module": "pp_fake_pkg", "name": "top", "path": src}
    assert fn_ref(mod.K.f) == {"module": "pp_fake_pkg.sub.mod", "name": "K.f", "path": src}
    # another process (a job) finds them from the reference alone: the path goes on sys.path
    for name in ("pp_fake_pkg", "pp_fake_pkg.sub", "pp_fake_pkg.sub.mod"):
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in (str(tmp_path / "src"), src)])
    assert resolve_fn(fn_ref_of(src, "pp_fake_pkg.sub.mod", "K.f"))({"x": 1}) == {"k": {"x": 1}}
    assert sys.path[-1] == src
    n = len(sys.path)
    resolve_fn(fn_ref_of(src, "pp_fake_pkg", "top"))
    assert len(sys.path) == n          # already there: not added again
    with pytest.raises(ValueError, match="not __main__"):
        fn_ref(lambda p: p)

    def nested(p: Any) -> Any:
        return p
    with pytest.raises(ValueError, match="nested function"):
        fn_ref(nested)
    nested.__module__ = "__main__"
    nested.__qualname__ = "nested"
    with pytest.raises(ValueError, match="cannot run in another process"):
        fn_ref(nested)
    nested.__module__ = None  # type: ignore[assignment]
    with pytest.raises(ValueError, match="cannot run in another process"):
        fn_ref(nested)


def fn_ref_of(path: str, module: str, name: str) -> dict[str, str]:
    return {"module": module, "name": name, "path": path}


def test_fn_ref_of_a_module_without_a_file() -> None:
    assert fn_ref(sys.getsizeof) == {"module": "sys", "name": "getsizeof", "path": ""}


# ------------------------------------------------------------------ local


def test_default_jobs_from_the_cores(monkeypatch) -> None:
    from pushpush.executor import local
    monkeypatch.setattr(local.os, "sched_getaffinity", lambda pid: {0})
    assert default_jobs() == 1
    monkeypatch.delattr(local.os, "sched_getaffinity")       # not Linux: the cores of the machine
    monkeypatch.setattr(local.os, "cpu_count", lambda: 3)
    assert default_jobs() == 3
    monkeypatch.setattr(local.os, "cpu_count", lambda: None)
    assert default_jobs() == 1


def test_default_jobs(monkeypatch) -> None:
    monkeypatch.setenv("PUSHPUSH_BENCH_JOBS", "3")
    assert default_jobs() == 3
    monkeypatch.setenv("PUSHPUSH_BENCH_JOBS", "0")
    assert default_jobs() == 1
    monkeypatch.setenv("PUSHPUSH_BENCH_JOBS", "")
    assert default_jobs() == len(os.sched_getaffinity(0))


def pids(tmp_path: Path, *ns: int) -> set[int]:
    return {int(x) for n in ns for x in (tmp_path / "work" / str(n) / "runs").read_text().split()}


def test_local_executor_runs_in_this_process_when_one_job_or_one_point(tmp_path, monkeypatch) -> None:
    me = os.getpid()
    assert LocalExecutor(1).map(cluster_points.square, [pt(tmp_path, 1), pt(tmp_path, 2)],
                                log=lambda s: None) == [{"n": 1, "square": 1}, {"n": 2, "square": 4}]
    assert pids(tmp_path, 1, 2) == {me}
    LocalExecutor(4).map(cluster_points.square, [pt(tmp_path, 3)], log=lambda s: None)
    assert pids(tmp_path, 3) == {me}
    monkeypatch.setenv("PUSHPUSH_BENCH_JOBS", "1")
    LocalExecutor().map(cluster_points.square, [pt(tmp_path, 4), pt(tmp_path, 5)], log=lambda s: None)
    assert pids(tmp_path, 4, 5) == {me}
    assert LocalExecutor(2).map(cluster_points.square, [], log=lambda s: None) == []
    lines: list[str] = []
    assert LocalExecutor(1).map(double, [{"n": 1}, {"n": 2}], log=lines.append) == [{"d": 2}, {"d": 4}]
    assert LocalExecutor(2).map(double, [{"n": 1}, {"n": 2}], log=lines.append) == [{"d": 2}, {"d": 4}]
    assert lines == ["  done: point 0", "  done: point 1"] * 2


def test_local_pool_runs_at_most_jobs_workers(tmp_path) -> None:
    LocalExecutor(2).map(cluster_points.square, [pt(tmp_path, n) for n in range(6)], log=lambda s: None)
    assert len(pids(tmp_path, *range(6))) <= 2


def test_local_executor_pool_and_failures(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PUSHPUSH_BENCH_JOBS", "2")
    lines: list[str] = []
    rows = LocalExecutor().map(cluster_points.square, [pt(tmp_path, 6), pt(tmp_path, 7)], log=lines.append)
    assert rows == [{"n": 6, "square": 36}, {"n": 7, "square": 49}]
    assert os.getpid() not in pids(tmp_path, 6, 7)
    assert lines == ["  done: sq 6", "  done: sq 7"]
    with pytest.raises(ValueError, match="point 9 fails on purpose"):
        LocalExecutor(2).map(cluster_points.square, [pt(tmp_path, 8), pt(tmp_path, 9, fail=True)],
                             log=lines.append)
    with pytest.raises(ValueError, match="point 10 fails on purpose"):
        LocalExecutor(1).map(cluster_points.square, [pt(tmp_path, 10, fail=True)], log=lines.append)
