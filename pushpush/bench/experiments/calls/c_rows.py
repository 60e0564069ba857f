"""The C rows of ``pushpush bench calls``: the pingpong C example on the simulated board.

C components run as processes attached to the simulated board (:mod:`pushpush.pynq.simulated.c_programs`);
``examples/pingpong/c/app.py`` measures C -> Verilog, Verilog -> C, Python -> C (simulated
cycles per call where they exist), C -> Python and C -> C (processes on this host, wall clock). This
module runs that application in a fresh Python process (PYNQ picks its device once per
process) and returns its rows::

    from pushpush.bench.experiments.calls.c_rows import run_c_rows
    rows = run_c_rows(work=Path("/tmp/c"), c_calls=50)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["run_c_rows"]

_SCRIPT = """
import json, sys
from pushpush import apps
ol = apps.open_system({example!r}, outdir={outdir!r}, simulator="icarus",
                      progress=lambda m: print(m, file=sys.stderr, flush=True))
try:
    res = apps.load_app({example!r}).main(ol, c_calls={c_calls}, hw_n=({n1}, {n2}),
                                          py_calls={py_calls}, cc_calls={cc_calls},
                                          cpy_calls={cpy_calls},
                                          out=lambda m: print(m, file=sys.stderr, flush=True))
finally:
    close = getattr(ol, "close", None) or getattr(getattr(ol, "device", None), "close", None)
    if close is not None:
        close()
print("PP_C_ROWS " + json.dumps({{"ok": res["ok"], "rows": res["rows"], "problems": res["problems"],
                                  "c_to_c": res.get("c_to_c")}}), flush=True)
"""


def run_c_rows(work: Path, c_calls: int = 100, hw_n: tuple[int, int] = (10, 60), py_calls: int = 50,
               cc_calls: int = 20000, cpy_calls: int = 50, timeout_s: float = 1500,
               log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run ``examples/pingpong/c`` on the simulated board; returns ``{"ok", "rows",
    "problems", "c_to_c"}`` (rows: ``caller``, ``callee``, ``cycles_per_call``,
    ``wall_calls_per_s``). Raises RuntimeError with the process's last output on failure."""
    from pushpush.resources import examples_dir

    work = work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    script = _SCRIPT.format(example=str(examples_dir() / "pingpong" / "c"), outdir=str(work / "board"),
                            c_calls=c_calls, n1=hw_n[0], n2=hw_n[1], py_calls=py_calls,
                            cc_calls=cc_calls, cpy_calls=cpy_calls)
    log(f"calls: the C rows (examples/pingpong/c on the simulated board, {c_calls} C calls)")
    try:
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=timeout_s, cwd=work)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"the C rows did not finish within {timeout_s:.0f} s "
                           f"(examples/pingpong/c on the simulated board)") from None
    (work / "c_rows.log").write_text(proc.stdout + "\n--- stderr ---\n" + proc.stderr)
    for line in proc.stdout.splitlines():
        if line.startswith("PP_C_ROWS "):
            return json.loads(line[len("PP_C_ROWS "):])
    tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-12:])
    raise RuntimeError(f"the C rows failed (exit {proc.returncode}; log {work / 'c_rows.log'}):\n{tail}")
