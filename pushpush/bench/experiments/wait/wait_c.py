"""The C rows of ``pushpush bench wait``: how fast a waiting C component wakes, per wait mode.

On the simulated board: tests/c/data/cboard.yaml, whose component ``callee`` is the C
program tests/c/src/cwait_callee.c (compiled with :func:`pushpush.c.compile_program`,
attached through :mod:`pushpush.pynq.simulated.c_programs`). Python calls the Verilog
``caller.run(1)``, which calls the C export ``callee.f`` once (hardware -> C). The
**wake-up latency** is, as for the Python rows, from the simulator's store of that call's
words in the C component's window (its host ``CLOCK_MONOTONIC`` stamp, which the C program
asks for over its socket: ``pp_simboard_pl_write_ns``) to the first line of the C handler
(``CLOCK_MONOTONIC``). The simulator takes the stamp just before it stores the words
(:mod:`pushpush.simboard.hdl`), so the handler, which sees the words, reads this call's
stamp. (Stamped after the store, as before, a handler polling the shared memory on the other
core often saw the words first and read the previous write's stamp: at 300 calls per row on
a loaded host 82 to 206 samples per mode were left out, the fast ones, which biased the
rows.) A sample whose stamp is not between the start of the call and the handler's first
line is still left out and counted (``late_stamps``; none expected). The handler keeps its
stamps in a table of 4096; they are collected every :data:`CHUNK` calls, outside the time
and CPU counted for the calls. The CPU use is the C process's (user + system time, psutil)
while the calls run and over an idle second. The Python component ``py`` (whose runtime
makes the calls of ``caller.run`` and gets their replies by PL writes) waits in ``sleep``
mode: on the simulated board's PL-write notification, which makes about 3 times more calls
a second than its ``interrupt`` mode, and a component not in ``interrupt`` mode has its
interrupt bit disabled, so it cannot hold the shared line high (docs/c.md, "Interrupts
through UIO"). In ``interrupt`` mode the C runtime sleeps in ``poll(2)`` on the stand-in of
``/dev/uioN`` (docs/c.md).

Example::

    from pushpush.bench.experiments.wait.wait_c import run_c_wait
    rows = run_c_wait(calls=20, modes=("poll", "interrupt"), loads=("idle",),
                      start_hogs=lambda load: [], stop_hogs=lambda hogs: None, budget_s=30)
"""

from __future__ import annotations

import queue
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pushpush.bench.experiments.wait.measure import (CALL_TIMEOUT_S, Measured, idle_share, measure_calls,
                                                     row_line, row_of)
from pushpush.bench.paths import CHECKOUT

__all__ = ["run_c_wait", "CProgram"]

CBOARD = CHECKOUT / "tests" / "c" / "data" / "cboard.yaml"
CSOURCE = CHECKOUT / "tests" / "c" / "src" / "cwait_callee.c"


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
    """The CPU seconds of ``proc`` (a psutil.Process), all its threads: from Linux's
    /proc/PID/task/*/schedstat (nanoseconds) where there is one, else psutil's user +
    system time (clock ticks, 10 ms: too coarse for a short row)."""
    total = 0
    try:
        for task in Path(f"/proc/{proc.pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        t = proc.cpu_times()
        return float(t.user + t.system)


#: Calls between two collections of the C handler's stamps (it keeps at most 4096).
CHUNK = 1000


def run_c_wait(calls: int = 200, *, modes: Sequence[str], loads: Sequence[str], warmup: int = 5,
               idle_s: float = 1.0, simulator: str = "auto", outdir: Optional[str] = None,
               start_hogs: Callable[[str], list[Any]], stop_hogs: Callable[[list[Any]], None],
               hogs: int = 0, budget_s: float = 60.0,
               progress: Optional[Callable[[str], None]] = None) -> list[dict[str, Any]]:
    """One row per load and mode, as :func:`.wait.run_wait`'s (``lang`` "c"),
    each at most ``budget_s`` seconds of calls (:func:`.measure.measure_calls`)."""
    import tempfile

    import psutil

    import pushpush.pynq as ppq
    from pushpush.c import compile_program
    from pushpush.pynq.simulated.c_programs import CAttach

    if not CBOARD.exists() or not CSOURCE.exists():
        raise FileNotFoundError(f"{CBOARD} / {CSOURCE}: the C rows' system and program come with "
                                "the pushpush source tree (tests/c); run it from a checkout")
    say = progress or (lambda text: None)
    out = Path(outdir) if outdir else Path(tempfile.mkdtemp(prefix="pushpush-bench-wait-c-"))
    t0 = time.monotonic()
    ol = ppq.load(CBOARD, outdir=out / "cboard", simulator=simulator)
    say(f"c: cboard loaded on {ol.device.simulator} in {time.monotonic() - t0:.1f} s")
    rows: list[dict[str, Any]] = []
    prog: Optional[CProgram] = None
    att = CAttach(ol.device)
    try:
        exe = compile_program(out / "cboard" / "c", [CSOURCE], components=["callee"],
                              platform="simboard", output=out / "cwait_callee")
        rt = ol.runtime("py")
        rt.export("g", lambda x, y: x * y)
        rt.start()
        # py only makes the calls; in sleep mode its wait for caller.run's reply is the
        # simulated board's PL-write notification (3x more calls/s than interrupt mode,
        # measured), and its interrupt bit stays disabled, so it does not hold the line
        # that the C interrupt rows wait on (docs/c.md, "Interrupts through UIO")
        rt.wait = "sleep"
        prog = CProgram(att.popen([str(exe), "sleep"], stdin=subprocess.PIPE))
        prog.expect("READY", 300)
        ps = psutil.Process(prog.proc.pid)
        cpu = lambda: _cpu(ps)   # noqa: E731
        for load in loads:
            started = start_hogs(load)
            try:
                for mode in modes:
                    v, _ = prog.command(f"mode {mode}", "MODE")
                    if v != f"{mode} 0":
                        raise RuntimeError(f"C wait mode {mode}: pp_set_wait answered {v}")
                    starts: list[int] = []
                    stamps: list[tuple[int, int]] = []

                    def call(i: int) -> None:
                        starts.append(time.monotonic_ns())
                        ol.caller.run(1, timeout=CALL_TIMEOUT_S)

                    def collect() -> None:
                        n, lines = prog.command("lat", "LAT")   # type: ignore[union-attr]
                        got = [(int(ln.split()[1]), int(ln.split()[2])) for ln in lines
                               if ln.startswith("lat ")]
                        if int(n) != len(got):
                            raise RuntimeError(f"C wait mode {mode}: 'lat' listed {len(got)} of "
                                               f"{n} stamps")
                        stamps.extend(got)

                    warm = measure_calls(call, warmup, CALL_TIMEOUT_S * max(1, warmup), cpu)
                    prog.command("lat", "LAT")     # the warm-up's stamps: dropped
                    del starts[:]
                    if warm.stopped is not None:
                        m = Measured(0, 0.0, 0.0, f"warm-up {warm.stopped}", warm.loadavg_start,
                                     warm.loadavg_end)
                    else:
                        m = measure_calls(call, calls, budget_s, cpu, chunk=CHUNK, between=collect)
                    if m.stopped is None and len(stamps) != m.calls:
                        raise RuntimeError(f"C wait mode {mode}: the handler ran {len(stamps)} "
                                           f"times for {m.calls} calls")
                    # a stamp not taken between the call's start and the handler's first
                    # line is not this call's: left out and counted (none expected: the
                    # simulator stamps before it stores, pushpush.simboard.hdl)
                    lat = [(now - stored) / 1000.0
                           for t, (now, stored) in zip(starts[:m.calls], stamps[:m.calls])
                           if t <= stored <= now]
                    share = idle_share(cpu, idle_s)
                    row = row_of("c", mode, load, hogs, calls, budget_s, m, lat, share,
                                 late_stamps=min(m.calls, len(stamps)) - len(lat),
                                 trigger_cycles=[], simulator=ol.device.simulator)
                    rows.append(row)
                    say(row_line(row))
            finally:
                stop_hogs(started)
    finally:
        if prog is not None:
            prog.close()
        att.close()
        ol.free()
    return rows
