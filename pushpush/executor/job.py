"""The job side of a cluster executor: ``python -m pushpush.executor.job POINT_DIR``.

Reads ``POINT_DIR/call.json`` (``{"fn": {"module", "name", "path"}, "point": {...},
"label": ...}``), runs the point function and writes ``POINT_DIR/result.json`` (written to a
temporary name and renamed, so a reader never sees half a file); on an exception it writes
``POINT_DIR/error.json`` (type, message, traceback), prints the traceback and exits 1.
The job's own output (its log) is what the scheduler captures.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import traceback
from pathlib import Path

from .base import resolve_fn

__all__ = ["run_point", "write_json_atomic", "main"]


def write_json_atomic(path: Path, obj: object) -> None:
    """``path`` appears whole or not at all (same folder, then rename)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(obj, indent=1))
    os.replace(tmp, path)


def run_point(pdir: Path) -> int:
    """Run the point in ``pdir``; 0 on success, 1 on failure (``error.json`` written)."""
    call = json.loads((pdir / "call.json").read_text())
    job = os.environ.get("SLURM_ARRAY_JOB_ID") or os.environ.get("SLURM_JOB_ID") or "-"
    task = os.environ.get("SLURM_ARRAY_TASK_ID")
    print(f"pushpush job: {call.get('label')} on {socket.gethostname()}, job {job}"
          + (f"_{task}" if task else "") + f", folder {pdir}", flush=True)
    try:
        fn = resolve_fn(call["fn"])
        result = fn(call["point"])
        write_json_atomic(pdir / "result.json", result)
    except BaseException as exc:  # noqa: BLE001 - every failure is reported, then the job fails
        tb = traceback.format_exc()
        print(tb, file=sys.stderr, flush=True)
        write_json_atomic(pdir / "error.json", {"type": type(exc).__name__, "message": str(exc),
                                                "traceback": tb})
        return 1
    print("pushpush job: done", flush=True)
    return 0


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m pushpush.executor.job POINT_DIR", file=sys.stderr)
        return 2
    return run_point(Path(argv[0]))


if __name__ == "__main__":
    # Spawned, not typed: a cluster job runs 'python -m pushpush.executor.job POINT_DIR'
    # (the job script of pushpush.executor.slurm; docs/cluster.md).
    sys.exit(main(sys.argv[1:]))
