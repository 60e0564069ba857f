"""Programs started again against one load, killed mid-call, and second runtimes
(docs/architecture.md §2.2, "Restarts and owners"; tests/c/data/restart.yaml).

* a C program (crestart.c) run 20 times in a row, and a Python program (pyrestart.py, its own
  process, attached to the simulated board) run twice, each making every call: Verilog through
  the static and a dynamic slot, a Python callee's static slot, lent slots (fir.fir calls its
  functions back). Each makes an odd number of calls per slot, so a runtime that started its
  SEQ bits afresh would have its first call dropped as a duplicate (and time out);
* kill -9 while a call waits for its reply, then start again: every call of the new process
  gets its own answer (the old call's late reply is a stray);
* a second runtime of a component refused, with the owner's PID in the message: same process
  and another, Python and C, either way round; a claim released by a crash;
* a callee killed mid-call: the caller's timeout names the dead process; started again, it
  serves the next call without a reload.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from cbuild import DATA, SANITIZE, SRC, compile_c  # noqa: E402
from pushpush.protocol import CallTimeout  # noqa: E402
from pushpush.pynq.board import PynqBackend  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402
from pushpush.runtime.claim import ClaimRefused  # noqa: E402
from test_c_simboard import one_chain, pairs, read_until  # noqa: E402

RUNTIME = ["pp_runtime.c", "pp_platform_linux.c", "pp_platform_simboard.c"]
PYPROG = [sys.executable, str(SRC / "pyrestart.py")]
CALL_S = 600          # a whole program's bound on a busy host (its calls time out after 60 s)


class Slow:
    """py.slow: x + 1 after ms milliseconds, or as soon as the test releases it."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, x: int, ms: int) -> int:
        if ms:
            self.entered.set()
            self.release.wait(ms / 1000)
        return x + 1


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    out = tmp_path_factory.mktemp("restart")
    ol = ppq.load(DATA / "restart.yaml", outdir=out)
    exe = compile_c(out / "c", [SRC / "crestart.c", "cprog_pp.c", *RUNTIME], out / "crestart",
                    flags=SANITIZE)
    slow = Slow()
    rt = ol.runtime("py")
    rt.export("slow", slow)
    rt.start()
    linked = ol.system.linked
    hw, py = linked.component("hw"), linked.component("py")
    dyn = hw.slots[hw.export("f").dynamic_slots[0]].address          # hw.f's dynamic slot
    sdyn = py.slots[py.export("slow").dynamic_slots[0]].address       # py.slow's
    with CAttach(ol.device) as att:
        yield ol, att, str(exe), f"0x{dyn:08X}", f"0x{sdyn:08X}", slow
    ol.free()


def wait_queued(rt, key: str) -> None:
    """Until a second call of ``key`` waits behind the one running (the serve loop took it)."""
    deadline = time.monotonic() + CALL_S
    while len(rt._queues.get(key, ())) < 2:
        assert time.monotonic() < deadline, f"no second call of {key} arrived"
        time.sleep(0.01)


def run_ok(att: CAttach, argv: list[str]) -> str:
    r = att.run(argv, timeout=CALL_S)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
    assert "d0 " in r.stdout, r.stdout          # no call of ours was taken for a duplicate
    return r.stdout


def test_c_program_twenty_times_in_a_row(board):
    ol, att, exe, dyn, sdyn, _ = board
    calls = []
    for _ in range(20):
        calls += pairs(run_ok(att, [exe, "calls", "3", dyn, sdyn]))
    assert len(calls) == 20 * 6 and one_chain(calls)   # every call of hw.f exactly once, in order


def test_python_program_twice_in_a_row(board):
    ol, att, exe, dyn, sdyn, _ = board
    calls = pairs(run_ok(att, PYPROG + ["calls", "3", dyn, sdyn]))
    calls += pairs(run_ok(att, PYPROG + ["calls", "3", dyn, sdyn]))
    assert len(calls) == 12 and one_chain(calls)


@pytest.mark.parametrize("slot", ["static", "dynamic"])
@pytest.mark.parametrize("lang", ["c", "python"])
def test_kill_mid_call_then_start_again(board, lang, slot):
    ol, att, exe, dyn, sdyn, slow = board
    prog = [exe] if lang == "c" else PYPROG
    slow.entered.clear()
    slow.release.clear()
    victim = att.popen(prog + ["hang", "60000"] + ([sdyn] if slot == "dynamic" else []))
    try:
        read_until(victim, "CALLING", CALL_S)
        assert slow.entered.wait(CALL_S), "py.slow was never called"
        # a software caller's call being answered does not hold the PL up (only calls whose
        # reply goes to the PL count as "being answered": the PL waits for those)
        assert ol.device.bridge._handling == 0
        victim.send_signal(signal.SIGKILL)       # mid-call: py.slow is running for it
        victim.wait(60)
        again = att.popen(prog + ["calls", "3", dyn, sdyn])
        # the killed call still runs when the new process calls py.slow through the same slot
        # (a dynamic slot: from a rep at the same place, with the same SEQ, unless the new
        # process knows its predecessor's rep is in flight): the new call must wait for it and
        # get its own answer; the killed call's reply is a stray
        first = read_until(again, "SLOW", CALL_S)
        wait_queued(ol.runtime("py"), "py.slow")
        slow.release.set()
        out, err = again.communicate(timeout=CALL_S)
        out = first + out
        assert again.returncode == 0 and "ALL OK" in out, out + err
        assert "d0 " in out, out
        calls = pairs(out)
        assert len(calls) == 6 and one_chain(calls)
    finally:
        slow.release.set()
        if victim.poll() is None:
            victim.kill()


@pytest.mark.parametrize("lang", ["c", "python"])
def test_a_timeout_says_what_the_board_did_meanwhile(board, lang):
    """A call that times out in an attached program (C: on stderr; Python: its CallTimeout)
    says how many clock cycles passed while it waited and what the simulator was doing,
    so a slow host and a stall can be told apart (issue 28)."""
    ol, att, exe, dyn, sdyn, slow = board
    prog = [exe] if lang == "c" else PYPROG
    slow.entered.clear()
    slow.release.clear()
    try:
        r = att.run(prog + ["hang", "600000"], timeout=CALL_S, env={"RESTART_TIMEOUT_MS": "1500"})
    finally:
        slow.release.set()          # py.slow answers the gone program: a stray for its successor
    words = r.stdout + r.stderr
    assert r.returncode == 0, words
    if lang == "c":
        assert "returned -100" in r.stdout, words      # PP_ETIMEOUT
        assert "pushpush: the call into 0x" in r.stderr and "failed after 1.5 s" in r.stderr, words
    else:
        assert "TIMEOUT call to py.slow" in r.stdout and "timed out after 1.5 s" in r.stdout, words
    assert "clock cycles passed" in words and "the simulator is " in words, words
    assert "callers the simulator runs for: " in words, words
    assert slow.entered.is_set()


def test_second_runtime_refused(board):
    ol, att, exe, dyn, sdyn, _ = board
    me = os.getpid()
    # the same process: a second backend (another overlay object's runtime) for py
    with pytest.raises(ClaimRefused, match=rf"component 'py' already has a live runtime: PID {me} "):
        PynqBackend(ol.system.linked, "py", ol.device, pl=ol.system.description,
                    windows=ol.system.windows)
    # another process, Python, against this (Python) owner
    r = att.run(PYPROG + ["claim", "py"], timeout=CALL_S)
    assert r.returncode == 0 and f"REFUSED component 'py' already has a live runtime: PID {me} " in r.stdout, \
        r.stdout + r.stderr
    # C in one process: the second open is refused; released by pp_close, it opens
    r = att.run([exe, "second"], timeout=CALL_S)
    assert r.returncode == 0 and "second -104 refused" in r.stdout and "after close 0" in r.stdout, \
        r.stdout + r.stderr
    assert "component 'cprog' already has a live runtime: pid=" in r.stderr, r.stderr
    # a C owner: refused to C and to Python in other processes, with its PID
    owner = att.popen([exe, "serve"])
    try:
        read_until(owner, "SERVING", CALL_S)
        r = att.run([exe, "calls", "1", dyn, sdyn], timeout=CALL_S)
        assert r.returncode == 1 and "FAIL open" in r.stdout, r.stdout + r.stderr
        assert f"already has a live runtime: pid={owner.pid} " in r.stderr and "runtime=c" in r.stderr, r.stderr
        r = att.run(PYPROG + ["claim", "cprog"], timeout=CALL_S)
        assert f"REFUSED component 'cprog' already has a live runtime: PID {owner.pid} (c runtime" in r.stdout, \
            r.stdout + r.stderr
        # a Python owner (this process) refuses C
        owner.send_signal(signal.SIGKILL)        # the crash releases the claim
        owner.wait(60)
        mine = PynqBackend(ol.system.linked, "cprog", ol.device, pl=ol.system.description,
                           windows=ol.system.windows)
        try:
            r = att.run([exe, "calls", "1", dyn, sdyn], timeout=CALL_S)
            assert r.returncode == 1 and f"already has a live runtime: pid={me} " in r.stderr, \
                r.stdout + r.stderr
        finally:
            mine.close()
        run_ok(att, [exe, "calls", "1", dyn, sdyn])    # released: the program runs again
    finally:
        if owner.poll() is None:
            owner.kill()


def test_killed_callee_named_error_then_service_resumes(board):
    ol, att, exe, dyn, sdyn, _ = board
    rt = ol.runtime("py")
    callee = att.popen([exe, "serve"])
    try:
        read_until(callee, "SERVING", CALL_S)
        assert rt.cprog.f(5, 0, timeout=CALL_S) == 16
        killer = threading.Timer(1.0, callee.send_signal, (signal.SIGKILL,))
        killer.start()
        t0 = time.monotonic()
        with pytest.raises(CallTimeout) as e:
            rt.cprog.f(6, 60000, timeout=8.0)   # the callee dies while it runs
        assert time.monotonic() - t0 < 8.0 + 5.0
        assert f"callee 'cprog''s process (PID {callee.pid}, c runtime" in str(e.value)
        assert "exited" in str(e.value)
        callee.wait(60)
    finally:
        if callee.poll() is None:
            callee.kill()
    again = att.popen([exe, "serve"])            # back: service resumes, no reload
    try:
        read_until(again, "SERVING", CALL_S)
        assert rt.cprog.f(7, 0, timeout=CALL_S) == 22
        assert rt.cprog.f(8, 0, timeout=CALL_S) == 25
    finally:
        again.send_signal(signal.SIGTERM)
        out, err = again.communicate(timeout=60)
    assert "ALL OK" in out, out + err
