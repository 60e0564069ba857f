"""The C rows of ``pushpush bench wait``: how fast a waiting C component wakes, per wait mode.

On the simulated board: tests/c/data/cboard.yaml, whose component ``callee`` is the C
program tests/c/src/cwait_callee.c (compiled with :func:`pushpush.c.compile_program`,
attached through :mod:`pushpush.pynq.simulated.c_programs`). Python calls the Verilog ``caller.run(1)``,
which calls the C export ``callee.f`` once (hardware -> C). The **wake-up latency** is, as
for the Python rows, from the simulator's store of that call's words in the C component's
window (its host ``CLOCK_MONOTONIC`` stamp, which the C program asks for over its socket:
``pp_simboard_pl_write_ns``) to the first line of the C handler (``CLOCK_MONOTONIC``). The
simulator stamps a write just after storing it; when its process is descheduled in between
(a loaded host), a C handler polling the shared memory sees the words before the stamp and
would read the stamp of an older write or one after its own start: such a sample (stamp
before the call was made, or after the handler started) is left out and counted
(``late_stamps``). The
CPU use is the C process's (user + system time, psutil) while the calls run and over an
idle second. The Python component ``py`` (whose runtime makes the calls of ``caller.run``
and gets their replies by PL writes) waits in ``interrupt`` mode too, so that its pending
bit does not hold the shared line high (docs/c.md, "Interrupts through UIO"). In ``interrupt`` mode the C runtime sleeps in ``poll(2)`` on the stand-in of
``/dev/uioN`` (docs/c.md).

Example::

    from pushpush.bench.wait_c import run_c_wait
    rows = run_c_wait(calls=20, modes=("poll", "interrupt"), loads=("idle",))
"""

from __future__ import annotations

import queue
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

__all__ = ["run_c_wait", "CProgram"]

_ROOT = Path(__file__).resolve().parents[2]
CBOARD = _ROOT / "tests" / "c" / "data" / "cboard.yaml"
CSOURCE = _ROOT / "tests" / "c" / "src" / "cwait_callee.c"


class CProgram:
    """tests/c/src/cwait_callee.c running: a command on stdin, delivered with SIGUSR1 (the
    program serves until one arrives), answered on stdout."""

    def __init__(self, proc: "subprocess.Popen[str]") -> None:
        self.proc = proc
        self.lines: "queue.Queue[str]" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")

    def expect(self, prefix: str, timeout: float, out: Optional[list[str]] = None,
               nudge: Optional[Callable[[], None]] = None) -> str:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the C program did not answer '{prefix}' within {timeout} s")
            try:
                line = self.lines.get(timeout=min(left, 0.3))
            except queue.Empty:
                if nudge is not None:
                    nudge()
                continue
            if line == "" or line.startswith("FAIL"):
                err = self.proc.stderr.read() if line == "" and self.proc.stderr else ""
                raise RuntimeError(f"the C program: {line.strip() or 'ended'} {err}".strip())
            if line.startswith(prefix):
                return line[len(prefix):].strip()
            if out is not None:
                out.append(line)

    def command(self, text: str, reply: str, timeout: float = 120) -> tuple[str, list[str]]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        got: list[str] = []

        def nudge() -> None:   # a signal that lands just before it sleeps is missed: repeat
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGUSR1)

        nudge()
        return self.expect(reply, timeout, got, nudge), got

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.command("quit", "BYE", timeout=30)
                self.proc.wait(10)
            except (RuntimeError, TimeoutError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(10)


def _cpu(proc: Any) -> float:
    t = proc.cpu_times()
    return float(t.user + t.system)


def run_c_wait(calls: int = 200, *, modes: Sequence[str], loads: Sequence[str], warmup: int = 5,
               idle_s: float = 1.0, simulator: str = "auto", outdir: Optional[str] = None,
               start_hogs: Callable[[str], list[Any]], stop_hogs: Callable[[list[Any]], None],
               summarize: Callable[[Sequence[float]], dict[str, float]]) -> list[dict[str, Any]]:
    """One row per load and mode, as :func:`pushpush.bench.wait.run_wait`'s (``lang`` "c")."""
    import tempfile

    import psutil

    import pushpush.pynq as ppq
    from pushpush.c import compile_program
    from pushpush.pynq.simulated.c_programs import CAttach

    if not CBOARD.exists() or not CSOURCE.exists():
        raise FileNotFoundError(f"{CBOARD} / {CSOURCE}: the C rows' system and program come with "
                                "the pushpush source tree (tests/c); run it from a checkout")
    out = Path(outdir) if outdir else Path(tempfile.mkdtemp(prefix="pushpush-bench-wait-c-"))
    ol = ppq.load(CBOARD, outdir=out / "cboard", simulator=simulator)
    rows: list[dict[str, Any]] = []
    prog: Optional[CProgram] = None
    att = CAttach(ol.device)
    try:
        exe = compile_program(out / "cboard" / "c", [CSOURCE], components=["callee"],
                              platform="simboard", output=out / "cwait_callee")
        rt = ol.runtime("py")
        rt.export("g", lambda x, y: x * y)
        rt.start()
        rt.wait = "interrupt"     # its bit would hold the line high otherwise (docs/c.md)
        prog = CProgram(att.popen([str(exe), "sleep"], stdin=subprocess.PIPE))
        prog.expect("READY", 300)
        ps = psutil.Process(prog.proc.pid)
        for load in loads:
            hogs = start_hogs(load)
            try:
                for mode in modes:
                    v, _ = prog.command(f"mode {mode}", "MODE")
                    if v != f"{mode} 0":
                        raise RuntimeError(f"C wait mode {mode}: pp_set_wait answered {v}")
                    for _ in range(warmup):
                        ol.caller.run(1, timeout=60)
                    prog.command("lat", "LAT")
                    starts = []
                    c0, t0 = _cpu(ps), time.monotonic()
                    for _ in range(calls):
                        starts.append(time.monotonic_ns())
                        ol.caller.run(1, timeout=60)
                    wall = time.monotonic() - t0
                    cpu = _cpu(ps) - c0
                    n, lines = prog.command("lat", "LAT")
                    stamps = [(int(ln.split()[1]), int(ln.split()[2])) for ln in lines
                              if ln.startswith("lat ")]
                    if int(n) != calls or len(stamps) != calls:
                        raise RuntimeError(f"C wait mode {mode}: the handler ran {n} times for "
                                           f"{calls} calls")
                    lat = [(now - stored) / 1000.0 for t, (now, stored) in zip(starts, stamps)
                           if t <= stored <= now]
                    time.sleep(0.2)
                    i0, w0 = _cpu(ps), time.monotonic()
                    time.sleep(idle_s)
                    idle = (_cpu(ps) - i0) / (time.monotonic() - w0)
                    rows.append({"lang": "c", "mode": mode, "load": load, "calls": calls,
                                 "wall_s": wall, "calls_per_s": calls / wall,
                                 "cpu_share_busy": cpu / wall, "cpu_share_idle": idle,
                                 "latency_us": summarize(lat), "samples_us": lat,
                                 "late_stamps": calls - len(lat), "trigger_cycles": []})
            finally:
                stop_hogs(hogs)
    finally:
        if prog is not None:
            prog.close()
        att.close()
        ol.free()
    return rows
