"""The ``slurm`` executor: every point a task of a Slurm job array, results through a shared folder.

One :meth:`SlurmExecutor.map` is one ``sbatch --array`` of the points not done yet, each task
asking for the kind's :class:`~.base.Resources` (cores, memory, time limit). The work folder
(``workdir``, on a file system that the submitting machine and the compute nodes share) holds:

* ``points/<key>/``: one folder per (function, point), ``key`` a hash of both:
  ``call.json`` (what to run), then ``result.json`` or ``error.json`` (written by
  :mod:`pushpush.executor.job` on the compute node). A point whose ``result.json`` is there
  is not submitted again: a sweep that is run again skips the points already done.
* ``batches/<stamp>/``: the array's ``tasks.txt`` (a point folder per line), ``run.sh``,
  ``job_id`` and the tasks' logs ``<index>.log``.

The array is tracked with ``squeue`` (every ``poll_s`` seconds; the scheduler's state is the
event the wait looks at) until every task has left the queue; a task that leaves without a
result is looked up with ``scontrol show job`` (its state and exit code) and reported with
the tail of its log. Every failed point is reported (:class:`~.base.SweepFailed`) once the
others have finished. Ctrl-C (KeyboardInterrupt) cancels the array with ``scancel``.

Settings (constructor arguments, else the environment): ``partition``
(``$PUSHPUSH_SLURM_PARTITION``), ``account`` (``$PUSHPUSH_SLURM_ACCOUNT``), ``extra_args``
(``$PUSHPUSH_SLURM_ARGS``, more sbatch options, e.g. ``--qos=short``), ``max_parallel``
(``$PUSHPUSH_SLURM_MAX_PARALLEL``: at most that many tasks at once), ``workdir``
(``$PUSHPUSH_SLURM_DIR``, else the caller's default), ``poll_s`` (``$PUSHPUSH_SLURM_POLL``,
default 5), ``timeout_s`` (``$PUSHPUSH_SLURM_TIMEOUT``, default 7 days: the longest a map
waits), and per kind of work ``$PUSHPUSH_RESOURCES_<KIND>`` (see :func:`~.base.resources_for`).

Example::

    from pushpush.executor.slurm import SlurmExecutor
    ex = SlurmExecutor(workdir="/shared/me/pp-work", partition="fpga")
    rows = ex.map(simulate_chain, points, kind="sim")
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from pushpush.errors import PushPushError

from .base import (Executor, Log, PointError, PointFn, Resources, SweepFailed, fn_ref, label_of,
                   point_key, resources_for)
from .job import write_json_atomic

__all__ = ["SlurmExecutor", "SlurmError", "sbatch_command", "parse_squeue", "parse_job_id",
           "parse_scontrol", "TaskState"]

#: pending reasons that never resolve by waiting: the array is cancelled and reported
PERMANENT_REASONS = ("PartitionNodeLimit", "PartitionTimeLimit", "PartitionConfig", "BadConstraints",
                     "InvalidAccount", "InvalidQOS", "QOSMaxCpuPerJobLimit", "QOSMaxMemoryPerJob",
                     "AssocMaxCpuPerJobLimit", "AssocMaxMemPerJobLimit", "DependencyNeverSatisfied")


class SlurmError(PushPushError):
    """Slurm refused or could not be reached (sbatch, squeue, scancel failed)."""


@dataclass(frozen=True)
class TaskState:
    """One array task as squeue shows it."""

    state: str
    reason: str


def sbatch_command(script: Path, n: int, res: Resources, log_pattern: Path, job_name: str,
                   chdir: Path, partition: Optional[str] = None, account: Optional[str] = None,
                   max_parallel: Optional[int] = None, extra: Sequence[str] = ()) -> list[str]:
    """The ``sbatch`` command line of an array of ``n`` tasks (indices 0..n-1)."""
    if n < 1:
        raise ValueError("an array needs at least one task")
    array = f"0-{n - 1}" + (f"%{max_parallel}" if max_parallel else "")
    cmd = ["sbatch", "--parsable", f"--array={array}", f"--job-name={job_name}",
           "--ntasks=1", f"--cpus-per-task={res.cpus}", f"--mem={res.mem_mb}M",
           f"--time={res.time_min}", f"--output={log_pattern}", f"--chdir={chdir}"]
    if partition:
        cmd.append(f"--partition={partition}")
    if account:
        cmd.append(f"--account={account}")
    return cmd + list(extra) + [str(script)]


def parse_job_id(out: str) -> str:
    """The job id in ``sbatch --parsable``'s output (``ID`` or ``ID;CLUSTER``)."""
    first = out.strip().splitlines()[-1] if out.strip() else ""
    jid = first.split(";")[0].strip()
    if not jid.isdigit():
        raise SlurmError(f"sbatch printed {out.strip()!r}, not a job id")
    return jid


def parse_squeue(out: str) -> tuple[dict[int, TaskState], list[TaskState]]:
    """``squeue -h -r -o '%K|%T|%r'`` lines -> (tasks by array index, entries without an index).
    ``-r`` lists every task of an array on its own line; a pending range can still show as
    ``[3-9]`` (it is expanded)."""
    tasks: dict[int, TaskState] = {}
    other: list[TaskState] = []
    for line in out.splitlines():
        if not line.strip():
            continue
        idx, _, rest = line.strip().partition("|")
        state, _, reason = rest.partition("|")
        st = TaskState(state.strip(), reason.strip())
        idx = idx.strip()
        m = re.fullmatch(r"\[?([0-9,\-]+)(?:%\d+)?\]?", idx)
        if not m:
            other.append(st)
            continue
        for part in m.group(1).split(","):
            if "-" in part:
                a, b = part.split("-", 1)
                for i in range(int(a), int(b) + 1):
                    tasks[i] = st
            elif part:
                tasks[int(part)] = st
    return tasks, other


def parse_scontrol(out: str) -> dict[str, str]:
    """``scontrol -o show job`` output -> its ``Key=Value`` fields (first record)."""
    line = next((ln for ln in out.splitlines() if ln.strip()), "")
    fields: dict[str, str] = {}
    for tok in line.split():
        k, eq, v = tok.partition("=")
        if eq:
            fields[k] = v
    return fields


def _tail(path: Path, lines: int = 25) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def _request_hint(kind: str, res: Resources) -> str:
    return (f"(the request per point: {res.cpus} CPU(s), {res.mem_mb} MiB, {res.time_min} min, "
            f"kind '{kind}'; change it with $PUSHPUSH_RESOURCES_{kind.upper()}=cpus=N,mem=SIZE,"
            "time=MIN, the partition with $PUSHPUSH_SLURM_PARTITION)")


def _env_int(name: str) -> Optional[int]:
    val = os.environ.get(name)
    if not val:
        return None
    try:
        return int(val)
    except ValueError:
        raise ValueError(f"${name}={val!r}: give a whole number") from None


class SlurmExecutor(Executor):
    """Points as Slurm array tasks; see the module's documentation."""

    name = "slurm"

    def __init__(self, workdir: Optional[str | os.PathLike[str]] = None,
                 partition: Optional[str] = None, account: Optional[str] = None,
                 extra_args: Optional[Sequence[str]] = None, max_parallel: Optional[int] = None,
                 resources: Optional[dict[str, str]] = None, poll_s: Optional[float] = None,
                 timeout_s: Optional[float] = None, nfs_grace_s: float = 60.0) -> None:
        wd = os.environ.get("PUSHPUSH_SLURM_DIR") or workdir
        if not wd:
            raise ValueError("the slurm executor needs a work folder on a file system the compute "
                             "nodes share: set $PUSHPUSH_SLURM_DIR (e.g. a folder in your home or "
                             "on the cluster's scratch)")
        self.workdir = Path(wd).expanduser().resolve()
        self.partition = partition or os.environ.get("PUSHPUSH_SLURM_PARTITION") or None
        self.account = account or os.environ.get("PUSHPUSH_SLURM_ACCOUNT") or None
        self.extra_args = list(extra_args) if extra_args is not None else \
            shlex.split(os.environ.get("PUSHPUSH_SLURM_ARGS", ""))
        self.max_parallel = max_parallel or _env_int("PUSHPUSH_SLURM_MAX_PARALLEL")
        self.resources = dict(resources or {})
        self.poll_s = poll_s if poll_s is not None else float(os.environ.get("PUSHPUSH_SLURM_POLL", "5"))
        self.timeout_s = timeout_s if timeout_s is not None else \
            float(os.environ.get("PUSHPUSH_SLURM_TIMEOUT", str(7 * 24 * 3600)))
        self.nfs_grace_s = nfs_grace_s

    # ------------------------------------------------------------------ commands

    def _run(self, cmd: list[str], check: bool = True) -> subprocess.CompletedProcess[str]:
        if shutil.which(cmd[0]) is None:
            raise SlurmError(f"{cmd[0]} not found: the slurm executor runs where Slurm's client "
                             "commands are (a login node; Debian: apt-get install slurm-client), "
                             "or use --executor local")
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        except subprocess.TimeoutExpired:
            raise SlurmError(f"{shlex.join(cmd)} did not answer within 120 s: is slurmctld "
                             "reachable (scontrol ping)?") from None
        if check and proc.returncode != 0:
            raise SlurmError(f"{shlex.join(cmd)} failed (exit {proc.returncode}): "
                             f"{(proc.stderr or proc.stdout).strip()}")
        return proc

    def squeue(self, job_id: str) -> Optional[tuple[dict[int, TaskState], list[TaskState]]]:
        """The array's tasks still in the queue; None when squeue could not answer now."""
        proc = self._run(["squeue", "-h", "-r", "-j", job_id, "-o", "%K|%T|%r"], check=False)
        if proc.returncode != 0:
            if "Invalid job id" in proc.stderr:  # already purged from the controller
                return {}, []
            return None
        return parse_squeue(proc.stdout)

    def scancel(self, job_id: str) -> None:
        self._run(["scancel", job_id], check=False)

    def task_info(self, job_id: str, index: int) -> dict[str, str]:
        proc = self._run(["scontrol", "-o", "show", "job", f"{job_id}_{index}"], check=False)
        return parse_scontrol(proc.stdout) if proc.returncode == 0 else {}

    # ------------------------------------------------------------------ map

    def _prepare(self, ref: dict[str, str], points: Sequence[dict[str, Any]]) -> list[Path]:
        dirs = []
        for i, p in enumerate(points):
            try:
                json.dumps(p)
            except TypeError as exc:
                raise ValueError(f"{label_of(p, i)}: a point must be JSON-able: {exc}") from None
            d = self.workdir / "points" / point_key(ref, p)
            d.mkdir(parents=True, exist_ok=True)
            call = {"fn": ref, "point": p, "label": label_of(p, i)}
            f = d / "call.json"
            if not f.is_file() or json.loads(f.read_text()) != call:
                write_json_atomic(f, call)
            dirs.append(d)
        return dirs

    def _submit(self, dirs: list[Path], kind: str, res: Resources) -> tuple[str, Path]:
        stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}-{time.monotonic_ns() % 10**6}"
        batch = self.workdir / "batches" / stamp
        batch.mkdir(parents=True)
        (batch / "tasks.txt").write_text("".join(f"{d}\n" for d in dirs))
        root = Path(__file__).resolve().parents[2]  # the pushpush tree this process runs
        script = batch / "run.sh"
        script.write_text(
            "#!/bin/sh\n"
            "# pushpush: one point per array task (pushpush.executor.slurm)\n"
            f"dir=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {shlex.quote(str(batch / 'tasks.txt'))})\n"
            f"export PYTHONPATH={shlex.quote(str(root))}${{PYTHONPATH:+:$PYTHONPATH}}\n"
            f"exec {shlex.quote(sys.executable)} -m pushpush.executor.job \"$dir\"\n")
        script.chmod(0o755)
        cmd = sbatch_command(script, len(dirs), res, batch / "%a.log", f"pushpush-{kind}",
                             Path.cwd(), self.partition, self.account, self.max_parallel,
                             self.extra_args)
        (batch / "sbatch.txt").write_text(shlex.join(cmd) + "\n")
        try:
            job_id = parse_job_id(self._run(cmd).stdout)
        except SlurmError as exc:
            raise SlurmError(f"{exc}\n  {_request_hint(kind, res)}") from None
        (batch / "job_id").write_text(job_id + "\n")
        return job_id, batch

    def map(self, fn: PointFn, points: Sequence[dict[str, Any]], kind: str = "sim",
            log: Log = print, reuse: bool = True) -> list[dict[str, Any]]:
        res = resources_for(kind, self.resources)
        ref = fn_ref(fn)
        dirs = self._prepare(ref, points)
        results: dict[int, dict[str, Any]] = {}
        todo: list[int] = []
        first: dict[Path, int] = {}  # the same point twice runs once
        for i, d in enumerate(dirs):
            if d in first:
                continue
            first[d] = i
            if reuse and (d / "result.json").is_file():
                results[i] = json.loads((d / "result.json").read_text())
            else:
                (d / "result.json").unlink(missing_ok=True)
                (d / "error.json").unlink(missing_ok=True)
                todo.append(i)
        if results:
            log(f"slurm: {len(results)} of {len(points)} point(s) already done in {self.workdir}")
        if not todo:
            return [results[first[d]] for d in dirs]
        job_id, batch = self._submit([dirs[i] for i in todo], kind, res)
        log(f"slurm: job array {job_id}: {len(todo)} point(s) of kind '{kind}' ({res.cpus} CPU(s), "
            f"{res.mem_mb} MiB, {res.time_min} min each); logs in {batch}")
        try:
            errors = self._track(job_id, batch, todo, dirs, points, results, log,
                                 _request_hint(kind, res))
        except BaseException:  # Ctrl-C, or the tracking failed: nothing is left running
            self.scancel(job_id)
            log(f"slurm: cancelled job array {job_id} (scancel); {len(results)} finished point(s) "
                f"are kept in {self.workdir}: run again to do the rest")
            raise
        if errors:
            raise SweepFailed(errors, len(points), f"job array {job_id}; the other points' results "
                              f"are kept in {self.workdir}, a second run redoes only these")
        return [results[first[d]] for d in dirs]

    def _track(self, job_id: str, batch: Path, todo: list[int], dirs: list[Path],
               points: Sequence[dict[str, Any]], results: dict[int, dict[str, Any]],
               log: Log, hint: str) -> list[PointError]:
        remaining = {t: i for t, i in enumerate(todo)}  # array index -> point index
        errors: list[PointError] = []
        deadline = time.monotonic() + self.timeout_s
        shown = ""
        gone_since: Optional[float] = None
        while True:
            q = self.squeue(job_id)  # first the queue, then the files (a task writes, then leaves)
            for t, i in list(remaining.items()):
                d = dirs[i]
                if (d / "result.json").is_file():
                    results[i] = json.loads((d / "result.json").read_text())
                    del remaining[t]
                    log(f"  done: {label_of(points[i], i)}")
                elif (d / "error.json").is_file():
                    err = json.loads((d / "error.json").read_text())
                    errors.append(PointError(label_of(points[i], i),
                                             f"{err['type']}: {err['message']}".strip(),
                                             batch / f"{t}.log", _tail(batch / f"{t}.log")))
                    del remaining[t]
                    log(f"  FAILED: {label_of(points[i], i)} (log: {batch / f'{t}.log'})")
            if not remaining:
                return errors
            if q is None and shown != "no answer":
                log(f"slurm {job_id}: squeue does not answer now; still waiting (results are "
                    "collected from the work folder meanwhile)")
                shown = "no answer"
            if q is not None:
                tasks, _ = q
                queued = {t: s for t, s in tasks.items() if t in remaining}
                if not queued:
                    # every task left the queue; a result written just before may still be on
                    # its way through a network file system: look again for nfs_grace_s
                    gone_since = gone_since if gone_since is not None else time.monotonic()
                    if time.monotonic() - gone_since >= self.nfs_grace_s or self._all_final(job_id, remaining):
                        errors += self._lost(job_id, batch, remaining, points, log)
                        return errors
                else:
                    gone_since = None
                    summary = self._summary(queued, len(results))
                    if summary != shown:
                        log(f"slurm {job_id}: {summary}")
                        shown = summary
                    bad = sorted({s.reason for s in queued.values() if s.state == "PENDING"
                                  and s.reason.startswith(PERMANENT_REASONS)})
                    if bad:
                        raise SlurmError(f"job array {job_id} can never start here: {', '.join(bad)}: "
                                         "the request exceeds what the partition, account or QOS "
                                         f"allows\n  {hint}")
            if time.monotonic() > deadline:
                raise SlurmError(f"job array {job_id}: {len(remaining)} point(s) not done after "
                                 f"{self.timeout_s:.0f} s ($PUSHPUSH_SLURM_TIMEOUT)")
            time.sleep(self.poll_s)

    @staticmethod
    def _summary(queued: dict[int, TaskState], done: int) -> str:
        counts: dict[str, int] = {}
        for s in queued.values():
            key = s.state.lower() + (f" ({s.reason})" if s.state == "PENDING" and s.reason not in ("", "None") else "")
            counts[key] = counts.get(key, 0) + 1
        return ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) + f", {done} done"

    def _all_final(self, job_id: str, remaining: dict[int, int]) -> bool:
        """Every remaining task ended without success (so no result can be on its way)."""
        for t in remaining:
            st = self.task_info(job_id, t).get("JobState", "")
            if not st or st == "COMPLETED":
                return False
        return True

    def _lost(self, job_id: str, batch: Path, remaining: dict[int, int],
              points: Sequence[dict[str, Any]], log: Log) -> list[PointError]:
        out = []
        for t, i in remaining.items():
            info = self.task_info(job_id, t)
            state = info.get("JobState", "unknown (no longer known to slurmctld)")
            what = f"job {job_id}_{t} ended ({state}"
            if info.get("ExitCode"):
                what += f", exit code {info['ExitCode']}"
            if info.get("Reason") not in (None, "None"):
                what += f", {info['Reason']}"
            what += ") without a result"
            if state == "TIMEOUT":
                what += ": raise the time limit with $PUSHPUSH_RESOURCES_<KIND>=time=MINUTES"
            elif state == "OUT_OF_MEMORY":
                what += ": raise the memory with $PUSHPUSH_RESOURCES_<KIND>=mem=SIZE"
            path = batch / f"{t}.log"
            out.append(PointError(label_of(points[i], i), what, path, _tail(path)))
            log(f"  FAILED: {label_of(points[i], i)} (log: {path})")
        return out
