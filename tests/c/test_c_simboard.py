"""C components on the simulated board (tests/c/data/cboard.yaml), through PYNQ's API and
pushpush.pynq.simulated.c_programs: C calls Verilog and Verilog calls C, C <-> Python both ways,
higher-order (C hands its functions to hardware, which calls them back), a callee that
never answers (the timeout code, the system keeps serving), and two C callers of one
Verilog function at once. The C programs are compiled from the system's generated files
with -Wall -Wextra -Werror -pedantic and run under ASan + UBSan."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from cbuild import DATA, SANITIZE, SRC, compile_c  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402

MASK = 0xFFFF_FFFF
GOLDEN = 0x9E37_79B9
RUNTIME = ["pp_runtime.c", "pp_platform_linux.c", "pp_platform_simboard.c"]


def model(state: int, x: int) -> int:
    rot = ((state << 5) | (state >> 27)) & MASK
    return ((rot ^ (x & MASK)) + GOLDEN) & MASK


def state_before(result: int, x: int) -> int:
    rot = ((result - GOLDEN) & MASK) ^ (x & MASK)
    return ((rot >> 5) | (rot << 27)) & MASK


def pairs(out: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for line in out.splitlines() if line.startswith("pair ")
            for a, b in [line.split()[1:3]]]


def one_chain(calls: list[tuple[int, int]]) -> bool:
    """Whether the calls of hw.f, from every caller, are one chain of states: each call
    happened exactly once, one after the other."""
    after = {}
    for x, r in calls:
        before = state_before(r & MASK, x)
        if before in after:
            return False
        after[before] = r & MASK
    starts = set(after) - set(after.values())
    if len(starts) != 1:
        return False
    s, n = starts.pop(), 0
    while s in after:
        s, n = after[s], n + 1
    return n == len(calls)


def read_until(proc: subprocess.Popen, marker: str, timeout: float) -> str:
    """The program's output up to the line holding ``marker`` (a reader thread: a select
    on a buffered pipe misses lines the buffer holds already)."""
    lines: "queue.Queue[str]" = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:
            lines.put(line)
            if marker in line:
                return
        lines.put("")

    threading.Thread(target=pump, daemon=True).start()
    out = ""
    deadline = time.monotonic() + timeout
    while marker not in out:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no '{marker}' within {timeout} s; output so far:\n{out}") from None
        if line == "":
            break
        out += line
    return out


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    out = tmp_path_factory.mktemp("cboard")
    ol = ppq.load(DATA / "cboard.yaml", outdir=out)
    cdir = out / "c"
    exes = {name: compile_c(cdir, [SRC / f"cboard_{name}.c", f"{name}_pp.c", *RUNTIME], out / name,
                            flags=SANITIZE)
            for name in ("callee", "c2")}
    yield ol, exes
    ol.free()


def test_c_on_the_simulated_board(board):
    ol, exes = board
    rt = ol.runtime("py")
    rt.export("g", lambda x, y: x * y)      # py.hang is never served
    rt.start()
    with CAttach(ol.device) as att:
        callee = att.popen([str(exes["callee"]), "12"])
        c2 = att.popen([str(exes["c2"]), "12"])
        try:
            out = read_until(callee, "SERVING", 600)
            assert "SERVING" in out, out + callee.stderr.read()
            for check in ("C -> Verilog", "C -> Python", "higher-order C -> Verilog -> C", "timeout"):
                assert f"ok {check}\n" in out
            out2, err2 = c2.communicate(timeout=600)
            assert c2.returncode == 0 and "ALL OK" in out2, out2 + err2
            # c2's YAML says wait: interrupt, and it ran in that mode beside callee polling
            # and Python. Whether a reply from hw.f wakes it through the (stand-in) UIO
            # device or is already in memory for the sweep after it clears its pending bit
            # (that clear is a GP0 round trip, while the simulated PL runs on) depends on
            # the host's timing: since the simulated PS memory pipelines bursts the reply
            # is there first on a quiet host. The wakes themselves are tested where they are
            # certain: tests/c/test_c_wait.py (Verilog calling a sleeping C runtime).
            assert "wait interrupt wakes " in out2, out2
            # two C callers of hw.f at once: every call exactly once, one after the other
            calls = pairs(out) + pairs(out2)
            assert len(calls) == 12 + 1 + 12 and one_chain(calls)

            # Python -> C, every scalar type
            assert ol.callee.wide(-(1 << 40), 1 << 60, -0.5, 1.5, -128, 65535, True) == \
                float(-(1 << 40) + (1 << 60) - 0.5 + 1.5 - 128 + 65535 + 1)
            # Python -> C and Verilog -> C: the C state model is followed by every call
            r = ol.callee.f(1) & MASK
            state = model(state_before(r, 1), 1)
            n = 5
            ol.caller.run(n, timeout=600)
            x = n
            for _ in range(n):                      # caller.run chains x = previous result
                state = model(state, x)
                x = state - (1 << 32) if state >> 31 else state
            assert ol.callee.f(12345) & MASK == model(state, 12345)
        finally:
            for p in (callee, c2):
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
        rest, err = callee.communicate(timeout=60)
        assert callee.returncode == 0 and "ALL OK" in rest, rest + err
        # the late reply of py.hang never came (nobody serves it); nothing else went astray
        assert "counters c0 d0 s0 w0" in rest
