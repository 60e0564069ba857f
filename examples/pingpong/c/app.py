"""pingpong_c: the C rows of the calls table (PushPush paper, Table II), on the simulated board.

``main(ol)`` takes the loaded overlay of ``examples/pingpong/c/system.yaml``, compiles the C
component ``callee`` (callee.c) with the system's generated C files, attaches it to the
simulated board (:mod:`pushpush.pynq.simulated.c_programs`) and measures:

* **c -> rtl**: the C program calls ``hw.f`` (Verilog) n times in a chain; simulated cycles
  per call from the board's cycle counter, and the wall-clock rate;
* **rtl -> c**: ``caller.run(n)`` makes n chained calls of ``callee.f`` (C) in hardware;
  cycles per call = the slope between two values of n (simulated cycles: the simulator runs
  while the C process answers, so this is the simulation's turnaround, not a Cortex-A9's);
* **python -> c**: Python calls ``callee.f`` in a loop (wall clock);
* **c -> python**: the C program calls ``host.g`` (Python, the same state machine) n times in a
  chain (wall clock; both ends are processes on this host);
* **c -> c**: two C processes on this host, calls through a shared-memory file (the Linux
  layer) next to a pipe request/response between the same two processes, and the ratio.

Every result is checked against the pingpong callee's model (C's f is the same state
machine as pingpong_callee.v), so each call is known to have happened exactly once, in order.

Run: ``pushpush run examples/pingpong/c``.
"""

from __future__ import annotations

import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

MASK = 0xFFFF_FFFF
GOLDEN = 0x9E37_79B9
HERE = Path(__file__).resolve().parent


def i32(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


def model(state: int, x: int) -> int:
    rot = ((state << 5) | (state >> 27)) & MASK
    return ((rot ^ (x & MASK)) + GOLDEN) & MASK


def state_before(result: int, x: int) -> int:
    rot = ((result - GOLDEN) & MASK) ^ (x & MASK)
    return ((rot >> 5) | (rot << 27)) & MASK


def _lines_until(proc: subprocess.Popen, marker: str, timeout: float) -> list[str]:
    got: list[str] = []
    done = threading.Event()

    def pump() -> None:
        for line in proc.stdout:
            got.append(line.rstrip("\n"))
            if marker in line:
                break
        done.set()

    threading.Thread(target=pump, daemon=True).start()
    if not done.wait(timeout):
        raise TimeoutError(f"the C program printed no '{marker}' within {timeout:g} s: {got}")
    return got


def c_to_c(n: int, out_dir: Path) -> dict[str, float]:
    """The C -> C row: ccbench (shared memory vs pipe) built from ccbench.yaml."""
    from pushpush.c import compile_program
    from pushpush.codegen.c import render_c
    from pushpush.codegen.render import write_tree
    from pushpush.link import load

    write_tree(render_c(load(HERE / "ccbench.yaml")), out_dir)
    exe = compile_program(out_dir / "c", [HERE / "ccbench.c"], components=["cli", "srv"],
                          platform="linux", output=out_dir / "ccbench",
                          trace=False)   # host only: never traced (not on the board)
    shm = out_dir / "ccbench.mem"
    shm.write_bytes(bytes(0x10000))
    r = subprocess.run([str(exe), str(shm), str(n)], capture_output=True, text=True, timeout=600)
    words = r.stdout.split()
    if r.returncode != 0 or not words or words[0] != "cc":
        raise RuntimeError(f"ccbench failed: {r.stdout}{r.stderr}")
    calls, shm_s, pipe_s = int(words[1]), float(words[2]), float(words[3])
    return {"calls": calls, "shm_calls_per_s": calls / shm_s, "pipe_calls_per_s": calls / pipe_s,
            "ratio": pipe_s / shm_s}


def main(ol: Any, *, c_calls: int = 100, hw_n: tuple[int, int] = (10, 60), py_calls: int = 100,
         cc_calls: int = 20000, cpy_calls: int | None = None,
         out: Callable[[str], None] = print) -> dict[str, Any]:
    from pushpush.c import compile_program
    from pushpush.pynq.simulated.c_programs import CAttach

    clock = float(ol.system.linked.clock_mhz)
    bridge = getattr(ol.device, "bridge", None)
    if bridge is None:
        raise RuntimeError("pingpong_c runs on the simulated board (on a PYNQ-Z1 build callee.c "
                           "with the Linux layer: docs/c.md)")
    cycle = lambda: int(bridge.info()["cycle"])  # noqa: E731
    cdir = Path(ol.bitfile_name).resolve().parent / "c"
    work = Path(tempfile.mkdtemp(prefix="pushpush-pingpong-c-"))
    exe = compile_program(cdir, [HERE / "callee.c"], components=["callee"], platform="simboard",
                          output=work / "callee")
    problems: list[str] = []
    rows: list[dict[str, Any]] = []
    cpy_calls = c_calls if cpy_calls is None else cpy_calls
    g_state = [0]

    def g(x: int) -> int:   # host.g: the pingpong callee's state machine, in Python
        g_state[0] = model(g_state[0], x)
        return i32(g_state[0])

    ol.export("g", g)
    with CAttach(ol.device) as att:
        proc = att.popen([str(exe), str(c_calls), str(cpy_calls)])
        try:
            lines = _lines_until(proc, "SERVING", 900)
            head = [ln for ln in lines if ln.startswith("c_to_rtl ")]
            if not head:
                raise RuntimeError(f"the C program failed: {lines} {proc.stderr.read() if proc.poll() is not None else ''}")
            _, n, cycles, wall, _x0, last = head[0].split()
            c_cpc = int(cycles) / int(n)
            rows.append({"caller": "c", "callee": "rtl", "cycles_per_call": c_cpc,
                         "wall_calls_per_s": int(n) / float(wall)})
            # C's last result is hw.f's state now: the C calls all happened
            r = ol.hw.f(1) & MASK
            if state_before(r, 1) != int(last) & MASK:
                problems.append("hw.f's state after the C calls is not C's last result")

            # c -> python: every one of C's calls ran g once, in order
            tail = [ln for ln in lines if ln.startswith("c_to_py ")]
            if cpy_calls > 0:
                if not tail:
                    raise RuntimeError(f"the C program made no c_to_py calls: {lines}")
                _, m, wall_py, x0, last_py = tail[0].split()
                st, x = 0, int(x0)
                for _ in range(int(m)):
                    st = model(st, x)
                    x = i32(st)
                if st != int(last_py) & MASK or g_state[0] != st:
                    problems.append(f"host.g after {m} C calls: C saw {int(last_py) & MASK:#010x}, "
                                    f"Python's state {g_state[0]:#010x}, model {st:#010x}")
                rows.append({"caller": "c", "callee": "python", "cycles_per_call": None,
                             "wall_calls_per_s": int(m) / float(wall_py)})

            # python -> c (and the C callee's state is followed from here on)
            r = ol.callee.f(1) & MASK
            state = model(state_before(r, 1), 1)
            c0, t0 = cycle(), time.perf_counter()
            for i in range(py_calls):
                got = ol.callee.f(i * 7919) & MASK
                state = model(state, i * 7919)
                if got != state and len(problems) < 5:
                    problems.append(f"callee.f({i * 7919}) = {got:#010x}, model {state:#010x}")
            wall = time.perf_counter() - t0
            rows.append({"caller": "python", "callee": "c",
                         "cycles_per_call": (cycle() - c0) / py_calls,
                         "wall_calls_per_s": py_calls / wall})

            # rtl -> c
            runs = {}
            for n_ in hw_n:
                runs[n_] = int(ol.caller.run(n_, timeout=900)) & MASK
                x = n_
                for _ in range(n_):
                    state = model(state, x)
                    x = i32(state)
                got = ol.callee.f(12345) & MASK
                state = model(state, 12345)
                if got != state:
                    problems.append(f"after caller.run({n_}): callee.f(12345) = {got:#010x}, model {state:#010x}")
            (n1, k1), (n2, k2) = sorted(runs.items())[:2]
            rtl_cpc = (k2 - k1) / (n2 - n1)
            rows.append({"caller": "rtl", "callee": "c", "cycles_per_call": rtl_cpc,
                         "wall_calls_per_s": None})
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            rest, err = proc.communicate(timeout=60)
        if proc.returncode != 0:
            problems.append(f"the C program exited with {proc.returncode}: {rest} {err}")
    cc = c_to_c(cc_calls, work)
    rows.append({"caller": "c", "callee": "c", "cycles_per_call": None,
                 "wall_calls_per_s": cc["shm_calls_per_s"]})

    out(f"pingpong_c: calls with a C component, system clock {clock:g} MHz, SIMULATED board")
    out("")
    out(f"  {'caller -> callee':<17} {'cycles/call':>11} {'wall calls/s':>13}  note")
    out(f"  {'-' * 17} {'-' * 11} {'-' * 13}  {'-' * 4}")
    notes = {("c", "rtl"): "[1]", ("rtl", "c"): "[2]", ("python", "c"): "[3]", ("c", "c"): "[4]",
             ("c", "python"): "[5]"}
    for row in rows:
        cpc = f"{row['cycles_per_call']:.1f}" if row["cycles_per_call"] is not None else "-"
        wcs = f"{row['wall_calls_per_s']:,.0f}" if row["wall_calls_per_s"] else "-"
        out(f"  {row['caller'] + ' -> ' + row['callee']:<17} {cpc:>11} {wcs:>13}  "
            f"{notes[(row['caller'], row['callee'])]}")
    out("")
    out(f"  [1] {c_calls} chained calls of hw.f from the C process; simulated cycles per call "
        "(the simulator runs while the socket round trip happens)")
    out(f"  [2] caller.run(n) calling C's callee.f: ({k2} - {k1}) cycles / ({n2} - {n1}) calls, "
        "simulated cycles while the C process polls its window")
    out(f"  [3] {py_calls} calls of callee.f from Python (wall clock of this machine)")
    out(f"  [4] {cc['calls']} calls between two C processes through shared memory: "
        f"{cc['shm_calls_per_s']:,.0f} calls/s; pipe request/response between the same two "
        f"processes: {cc['pipe_calls_per_s']:,.0f} calls/s; ratio {cc['ratio']:.2f}x")
    if cpy_calls > 0:
        out(f"  [5] {cpy_calls} chained calls of host.g (Python) from the C process (wall clock of "
            "this machine; both ends are processes here)")
    ok = not problems
    out(f"  checks: {'all results match the callee model' if ok else 'FAILED'}")
    for p in problems:
        out(f"    {p}")
    return {"ok": ok, "rows": rows, "c_to_c": cc, "clock_mhz": clock, "problems": problems}
