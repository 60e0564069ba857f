"""Where pushpush runs the work it fans out: bench sweep points, the randomised system
regression, builds of many systems. One interface (:class:`~.base.Executor`: ``map(fn,
points, kind)``), two executors:

* ``local``: a process pool on this machine (:mod:`.local`), the default;
* ``slurm``: a Slurm job array, results through a shared work folder (:mod:`.slurm`).

The executor is chosen by ``--executor`` or ``$PUSHPUSH_EXECUTOR``. LSF would be a third
module with the same shape (``bsub -J name[1-N]`` for the array, ``bjobs`` to track,
``bkill`` to cancel, ``-n``/``-R rusage[mem=]``/``-W`` for the resources): docs/cluster.md.

Example::

    from pushpush.executor import get_executor
    ex = get_executor("slurm", workdir="/shared/me/pp-work")
    rows = ex.map(simulate_chain, points, kind="sim")
"""

from __future__ import annotations

import os
from typing import Any, Optional

from .base import (DEFAULT_RESOURCES, KINDS, Executor, PointError, Resources, SweepFailed,
                   resources_for)
from .local import LocalExecutor, default_jobs

__all__ = ["Executor", "LocalExecutor", "Resources", "SweepFailed", "PointError", "KINDS",
           "DEFAULT_RESOURCES", "EXECUTORS", "ENV_EXECUTOR", "get_executor", "executor_name",
           "default_jobs", "resources_for"]

EXECUTORS = ("local", "slurm")
ENV_EXECUTOR = "PUSHPUSH_EXECUTOR"


def executor_name(name: Optional[str] = None) -> str:
    """``name``, else ``$PUSHPUSH_EXECUTOR``, else ``local``; an unknown name is refused."""
    chosen = name or os.environ.get(ENV_EXECUTOR) or "local"
    if chosen == "lsf":
        raise ValueError("executor 'lsf' is not built yet: docs/cluster.md says what it needs "
                         "(bsub job arrays, bjobs, bkill); use local or slurm")
    if chosen not in EXECUTORS:
        src = "--executor" if name else f"${ENV_EXECUTOR}"
        raise ValueError(f"{src} {chosen}: unknown executor (known: {', '.join(EXECUTORS)})")
    return chosen


def get_executor(name: Optional[str] = None, jobs: Optional[int] = None,
                 workdir: Optional[str | os.PathLike[str]] = None, **slurm: Any) -> Executor:
    """The executor ``name`` (see :func:`executor_name`). ``jobs``: the local pool's size
    (refused for slurm, where the cluster decides); ``workdir``: the slurm work folder's
    default ($PUSHPUSH_SLURM_DIR wins); ``slurm``: more :class:`~.slurm.SlurmExecutor`
    settings."""
    chosen = executor_name(name)
    if chosen == "local":
        if slurm:
            raise ValueError(f"{', '.join(sorted(slurm))}: only for the slurm executor")
        return LocalExecutor(jobs)
    if jobs is not None:
        raise ValueError("--jobs does not apply to the slurm executor (every point is a job; "
                         "limit how many run at once with $PUSHPUSH_SLURM_MAX_PARALLEL)")
    from .slurm import SlurmExecutor
    return SlurmExecutor(workdir=workdir, **slurm)
