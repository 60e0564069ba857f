"""C functions lent to hardware, traced (issue 31, docs/c.md "Tracing"): tests/c/data/
cboard.yaml's C program built with ``-DPP_TRACE`` hands three of its functions to the FIR;
their runs nest under ``fir.fir``. A module of its own: it loads another system on the
simulated board (one per process) than tests/trace/test_c_trace.py's pingpong_c."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

from pushpush.trace import read_trace  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _start(att: Any, exe: Path, *args: str) -> tuple[subprocess.Popen, list[str]]:
    proc = att.popen([str(exe), *args])
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.strip())
        if "SERVING" in line or line.startswith("error") or line.startswith("FAIL"):
            break
    return proc, lines


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)



def test_c_functions_lent_to_hardware_nest_under_its_call(tmp_path: Path) -> None:
    """tests/c/data/cboard.yaml's C program (tests/c/src/cboard_callee.c) built with
    PP_TRACE: it hands three of its functions to the FIR (fir.fir(coeff, src, sink, 8)),
    whose calls of them (lent functions: run-time slots) show C's entered/left and nest
    under fir.fir; C -> Python calls get Python's entered/left; the call of py.hang, which
    nobody serves, ends FAILED (timeout) and is not in the trace."""
    import pushpush.pynq as ppq
    from pushpush.c import compile_program
    from pushpush.pynq.simulated.c_programs import CAttach

    ol = ppq.load(ROOT / "tests" / "c" / "data" / "cboard.yaml", outdir=tmp_path / "cboard")
    try:
        exe = compile_program(tmp_path / "cboard" / "c", [ROOT / "tests" / "c" / "src" / "cboard_callee.c"],
                              components=["callee"], platform="simboard", output=tmp_path / "callee",
                              trace=True)
        rt = ol.runtime("py")
        rt.export("g", lambda x, y: x * y)      # py.hang is never served
        rt.start()
        path = tmp_path / "fir.trace"
        with CAttach(ol.device) as att:
            with ol.trace(path) as t:
                proc, lines = _start(att, exe, "2")
            _stop(proc)
        assert "ok higher-order C -> Verilog -> C" in lines and "ok timeout" in lines, lines
    finally:
        ol.free()
    assert t.trace is not None
    stats = t.trace.meta["c_events"]
    assert (stats["unmatched"], stats["no_cycle"]) == (1, 0)            # py.hang: failed
    trace = read_trace(path)
    fir = [c for c in trace.calls if c.function == "fir.fir"]
    assert len(fir) == 1 and fir[0].caller == "callee"
    assert fir[0].issued < fir[0].trigger <= fir[0].taken < fir[0].result <= fir[0].returned <= fir[0].seen
    lent = [c for c in trace.calls if c.caller == "fir" and c.callee == "callee"]
    by_fn: dict[str, int] = {}
    for c in lent:
        by_fn[c.function] = by_fn.get(c.function, 0) + 1
        assert c.parent == fir[0].id
        assert c.issued <= c.trigger <= c.taken <= c.result <= c.returned
        assert fir[0].taken <= c.issued and c.returned <= fir[0].result
    # coeff() 8 times, sink() 40 times, src() 41 times (the 41st raises: the end of the
    # stream), each lent function one run-time slot
    assert sorted(by_fn.values()) == [8, 40, 41] and all("@0x" in f for f in by_fn)
    src = [c for c in lent if by_fn[c.function] == 41]
    assert [c.status & 0xBFFF_FFFF for c in src] == [1] * 40 + [0x8000_0001]
    g = [c for c in trace.calls if c.function == "py.g"]
    assert len(g) == 2 and all(c.source == "software" and c.issued <= c.taken <= c.result <= c.seen
                               for c in g)
    assert not [c for c in trace.calls if c.function == "py.hang"]
    hw = [c for c in trace.calls if c.function == "hw.f"]
    assert len(hw) == 3 and all(c.issued < c.trigger and c.returned <= c.seen for c in hw)

