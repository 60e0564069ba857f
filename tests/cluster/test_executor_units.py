"""The executors' logic without a cluster: sbatch command lines, squeue/scontrol parsing,
resources per kind of work and their overrides, choosing an executor, what a point function
may be, and the local executor's order and progress."""

from __future__ import annotations

from pathlib import Path

import pytest

import cluster_points
from pushpush.executor import (DEFAULT_RESOURCES, LocalExecutor, Resources, executor_name,
                               get_executor, resources_for)
from pushpush.executor.base import fn_ref, parse_resources, point_key, resolve_fn
from pushpush.executor.slurm import (SlurmError, TaskState, parse_job_id, parse_scontrol,
                                     parse_squeue, sbatch_command)


def test_sbatch_command_carries_the_request(tmp_path):
    res = Resources(cpus=4, mem_mb=16384, time_min=360)
    cmd = sbatch_command(tmp_path / "run.sh", 12, res, tmp_path / "%a.log", "pushpush-vivado",
                         tmp_path, partition="fpga", account="lab", max_parallel=3,
                         extra=["--qos=short"])
    assert cmd[0] == "sbatch" and cmd[-1] == str(tmp_path / "run.sh")
    for opt in ("--parsable", "--array=0-11%3", "--job-name=pushpush-vivado", "--cpus-per-task=4",
                "--mem=16384M", "--time=360", f"--output={tmp_path}/%a.log", f"--chdir={tmp_path}",
                "--partition=fpga", "--account=lab", "--qos=short"):
        assert opt in cmd, opt
    bare = sbatch_command(tmp_path / "run.sh", 1, res, tmp_path / "%a.log", "x", tmp_path)
    assert "--array=0-0" in bare and not any(a.startswith(("--partition", "--account")) for a in bare)
    with pytest.raises(ValueError):
        sbatch_command(tmp_path / "run.sh", 0, res, tmp_path, "x", tmp_path)


def test_parse_job_id():
    assert parse_job_id("1234\n") == "1234"
    assert parse_job_id("77;cluster2\n") == "77"
    with pytest.raises(SlurmError, match="not a job id"):
        parse_job_id("sbatch: error: nope\n")


def test_parse_squeue_expands_array_tasks():
    out = "3|RUNNING|None\n4|RUNNING|None\n[5-7,9%2]|PENDING|Resources\nN/A|PENDING|Priority\n\n"
    tasks, other = parse_squeue(out)
    assert tasks == {3: TaskState("RUNNING", "None"), 4: TaskState("RUNNING", "None"),
                     5: TaskState("PENDING", "Resources"), 6: TaskState("PENDING", "Resources"),
                     7: TaskState("PENDING", "Resources"), 9: TaskState("PENDING", "Resources")}
    assert other == [TaskState("PENDING", "Priority")]
    assert parse_squeue("") == ({}, [])


def test_parse_scontrol():
    f = parse_scontrol("JobId=9 ArrayJobId=8 ArrayTaskId=1 JobName=pushpush-sim JobState=TIMEOUT "
                       "Reason=TimeLimit Dependency=(null) ExitCode=0:15\n")
    assert f["JobState"] == "TIMEOUT" and f["ExitCode"] == "0:15" and f["Reason"] == "TimeLimit"
    assert parse_scontrol("") == {}


def test_resources_per_kind_and_overrides(monkeypatch):
    monkeypatch.delenv("PUSHPUSH_RESOURCES_VIVADO", raising=False)
    assert resources_for("vivado") == DEFAULT_RESOURCES["vivado"]
    assert DEFAULT_RESOURCES["vivado"].cpus > DEFAULT_RESOURCES["sim"].cpus
    assert DEFAULT_RESOURCES["vivado"].mem_mb > DEFAULT_RESOURCES["sim"].mem_mb
    monkeypatch.setenv("PUSHPUSH_RESOURCES_VIVADO", "cpus=8,mem=32G")
    assert resources_for("vivado") == Resources(8, 32768, DEFAULT_RESOURCES["vivado"].time_min)
    # an explicit override beats the environment, key by key
    assert resources_for("vivado", {"vivado": "time=8:00:00"}) == Resources(8, 32768, 480)
    base = Resources(1, 100, 10)
    assert parse_resources("time=90", base, "x") == Resources(1, 100, 90)
    assert parse_resources("time=1:30", base, "x") == Resources(1, 100, 90)
    assert parse_resources("mem=1536M, cpus=2", base, "x") == Resources(2, 1536, 10)
    for bad in ("cpus=0", "mem=lots", "gpus=1", "time=soon"):
        with pytest.raises(ValueError, match="cpus=N"):
            parse_resources(bad, base, "PUSHPUSH_RESOURCES_SIM")
    with pytest.raises(ValueError, match="unknown kind of work 'gpu'"):
        resources_for("gpu")


def test_choosing_an_executor(monkeypatch, tmp_path):
    monkeypatch.delenv("PUSHPUSH_EXECUTOR", raising=False)
    monkeypatch.delenv("PUSHPUSH_SLURM_DIR", raising=False)
    assert executor_name() == "local"
    monkeypatch.setenv("PUSHPUSH_EXECUTOR", "slurm")
    assert executor_name() == "slurm" and executor_name("local") == "local"
    monkeypatch.setenv("PUSHPUSH_EXECUTOR", "pbs")
    with pytest.raises(ValueError, match=r"\$PUSHPUSH_EXECUTOR pbs: unknown executor"):
        executor_name()
    with pytest.raises(ValueError, match="docs/cluster.md"):
        executor_name("lsf")
    assert isinstance(get_executor("local", jobs=2), LocalExecutor)
    with pytest.raises(ValueError, match="--jobs does not apply"):
        get_executor("slurm", jobs=2, workdir=tmp_path)
    with pytest.raises(ValueError, match="PUSHPUSH_SLURM_DIR"):
        get_executor("slurm")
    with pytest.raises(ValueError, match="only for the slurm executor"):
        get_executor("local", partition="fpga")
    ex = get_executor("slurm", workdir=tmp_path / "w", partition="fpga")
    assert ex.workdir == (tmp_path / "w").resolve() and ex.partition == "fpga"
    monkeypatch.setenv("PUSHPUSH_SLURM_DIR", str(tmp_path / "shared"))
    assert get_executor("slurm", workdir=tmp_path / "w").workdir == (tmp_path / "shared").resolve()


def test_point_functions_must_be_importable():
    ref = fn_ref(cluster_points.square)
    assert ref["module"] == "cluster_points" and ref["name"] == "square"
    assert Path(ref["path"]) == Path(cluster_points.__file__).resolve().parent
    assert resolve_fn(ref) is cluster_points.square
    with pytest.raises(ValueError, match="top level of an importable module"):
        fn_ref(lambda p: p)
    # the key names the function and the point, not their order in the sweep
    assert point_key(ref, {"a": 1, "b": 2}) == point_key(ref, {"b": 2, "a": 1})
    assert point_key(ref, {"a": 1}) != point_key(fn_ref(cluster_points.regression_seed), {"a": 1})


@pytest.mark.parametrize("jobs", [1, 2])
def test_local_executor_keeps_order_and_reports_progress(tmp_path, jobs):
    pts = [{"n": n, "work": str(tmp_path / str(n)), "label": f"sq {n}"} for n in (3, 1, 2)]
    lines: list[str] = []
    rows = LocalExecutor(jobs).map(cluster_points.square, pts, kind="sim", log=lines.append)
    assert [r["square"] for r in rows] == [9, 1, 4]
    assert lines == ["  done: sq 3", "  done: sq 1", "  done: sq 2"]
    with pytest.raises(ValueError, match="unknown kind"):
        LocalExecutor(jobs).map(cluster_points.square, pts, kind="gpu")
