"""The soak (issue 28 item 5; docs/pynq.md, "The soak"): mixed traffic on the simulated board
for minutes, beside one busy loop per core, while software components are killed (kill -9)
and started again. System: tests/soak/soak.yaml.

Traffic, each in its own thread or process until the time is up:

* the test's process (component ``py``, never killed): calls Verilog (``hw.f``, a running
  state), an RTL caller (``caller.run(n)``: n calls of ``callee.f`` from hardware),
  higher-order (``fir.fir`` calls back three Python functions, each delayed 0-3 ms at
  random), PYNQ's DMA driver (``axi_dma_0`` through ``scaler``) and buffer parameters
  (``scaler.scale``), RIFFA-style channels (``chn.loop``, ``chn.acc``) and ``chn.add``, and a C
  callee (``csrv.f``, killed and started again by the test); serves ``py.slow`` (delayed 0-4 ms
  at random) to the programs below;
* ``cprog``: tests/c/src/crestart.c (C) run again and again: Python callee (``py.slow``,
  static and dynamic slot), Verilog (``hw.f``, static and dynamic slot), higher-order
  (``fir.fir`` with three lent C functions); killed at a random moment in half of its runs,
  also while ``fir`` calls it back (``fir``'s calls then end after its ``reply_timeout``);
* ``pyprog``: tests/c/src/pyrestart.py, the same from a separate Python process;
* ``csrv``: tests/soak/csrv.c, a C callee, alive for 1-15 s, then killed (or, one time in
  five, stopped with SIGTERM), dead for 0-4 s, started again.

Invariants (each violation is collected and reported with the seed):

* every completed call's result equals the Python model of its callee (soak_model.py); the
  ``hw.f`` calls of every caller form one chain of states, cut only by calls whose result
  nobody saw (a caller killed mid-call);
* every failed call raised a named error (``CallError`` and its ``CallTimeout``,
  ``ChannelTimeout``, ``DmaTimeoutError``, ``SimulatorError``, ``ClaimRefused``) within its
  timeout + ``MARGIN_S``; a program that failed names the failed call;
* the counters account for every fault (``check_counters`` states the rules);
* after ``free()``: no file descriptor, /dev/shm entry, child process, thread or claim file
  more than before the load.

Environment: ``PUSHPUSH_SOAK_SECONDS`` (default 600), ``PUSHPUSH_SOAK_SEED`` (default: random,
printed), ``PUSHPUSH_SOAK_BUSY`` (busy loops; default one per core, ``0`` for none).
Run: ``pytest -m long -s tests/soak`` (the numbers are printed).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import numpy as np  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from cbuild import SANITIZE, SRC, compile_c  # noqa: E402
from pushpush.protocol import CallError  # noqa: E402
from pushpush.pynq.simulated.bridge import SimulatorError  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402
from pushpush.pynq.simulated.dma import DmaTimeoutError  # noqa: E402
from pushpush.runtime.channels import ChannelTimeout  # noqa: E402
from pushpush.runtime.claim import ClaimRefused  # noqa: E402
from soak_model import (chain_segments, csrv_model, fir_model, pingpong_step,  # noqa: E402
                        run_model, s32, scale_model)
from test_c_simboard import pairs  # noqa: E402

pytestmark = pytest.mark.long

HERE = Path(__file__).resolve().parent
YAML = HERE / "soak.yaml"
RUNTIME = ["pp_runtime.c", "pp_platform_linux.c", "pp_platform_simboard.c"]
PYPROG = [sys.executable, str(SRC / "pyrestart.py")]

SECONDS = float(os.environ.get("PUSHPUSH_SOAK_SECONDS", "600"))
SEED = int(os.environ.get("PUSHPUSH_SOAK_SEED", str(int.from_bytes(os.urandom(4), "little"))))
BUSY = int(os.environ.get("PUSHPUSH_SOAK_BUSY", str(os.cpu_count() or 1)))
CALL_S = 60.0     # the timeout of a call to a callee that stays alive (a busy host is slow)
# the timeout of the test's fir.fir: fir serves one call at a time, each tens of seconds on a
# busy host (dozens of callbacks through a simulator that gets a few percent of a CPU), and
# the test's call may wait behind both programs' calls (each up to their 60 s timeout) and a
# callback into a program killed meanwhile (fir's reply_timeout: 20,000 cycles, 10-100 s of
# the simulated board at load 20-26; seed 2812 at 150 s: 12,415 cycles in 60 s, the test's
# fir.fir timed out at 60 s behind cprog's, and fir answered at once after the traffic)
FIR_S = 240.0
DEAD_S = 5.0      # the timeout of a call to csrv (which may be dead)
MARGIN_S = 5.0    # a failed call raises within its timeout + this
PROG_S = 600.0    # a program's run, to its end (its own calls time out after 60 s)
FIR_LOG: list = []  # the test process's fir.fir calls: (start s, end s, taps, samples, ok), printed
NAMED = (CallError, ChannelTimeout, DmaTimeoutError, SimulatorError, ClaimRefused)


@dataclass
class Stats:
    """What the soak saw, from every thread (under ``lock``)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    calls: Counter = field(default_factory=Counter)        # completed calls by kind
    failures: Counter = field(default_factory=Counter)     # (kind, error) of named failures
    violations: list[str] = field(default_factory=list)
    hw_calls: list[tuple[int, int]] = field(default_factory=list)   # (x, result) of hw.f
    hw_unseen: int = 0            # hw.f calls whose result nobody saw (killed callers)
    kills: Counter = field(default_factory=Counter)        # kill -9 by component
    terms: Counter = field(default_factory=Counter)        # SIGTERM (clean stops) by component
    starts: Counter = field(default_factory=Counter)       # program starts by component
    runs_ok: Counter = field(default_factory=Counter)      # program runs that printed ALL OK
    prog_failed: Counter = field(default_factory=Counter)  # program runs that reported FAIL
    prog_counters: Counter = field(default_factory=Counter)  # sums of the programs' counters
    py_timeouts: int = 0          # calls of the test's process that timed out
    py_collisions: int = 0        # calls of the test's process that failed with COLLISION
    first_failure: dict = field(default_factory=dict)      # kind -> (s into the soak, message)
    slow_served: int = 0

    def ok(self, kind: str, n: int = 1) -> None:
        with self.lock:
            self.calls[kind] += n

    def bad(self, what: str) -> None:
        with self.lock:
            self.violations.append(what)


def busy_loops(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def leak_snapshot(claim_dir: Path) -> dict[str, Any]:
    import psutil
    with open("/proc/self/maps") as f:
        maps = sum(1 for line in f if "pushpush-" in line)
    return {"fds": len(os.listdir("/proc/self/fd")),
            "shm": sorted(os.listdir("/dev/shm")),
            "children": sorted(p.pid for p in psutil.Process().children(recursive=True)),
            "threads": sorted(t.name for t in threading.enumerate()),
            "maps": maps,
            "claims": sorted(os.listdir(claim_dir)) if claim_dir.exists() else []}


class Soak:
    def __init__(self, ol: Any, att: CAttach, exe: str, csrv: str, stats: Stats, deadline: float):
        self.ol, self.att, self.exe, self.csrv_exe = ol, att, exe, csrv
        self.rt = ol.runtime("py")
        self.stats = stats
        self.deadline = deadline
        linked = ol.system.linked
        hw, py = linked.component("hw"), linked.component("py")
        hdyn = hw.export("f").dynamic_slots
        sdyn = py.export("slow").dynamic_slots
        # one dynamic slot per program: two callers racing into one software slot is not
        # what this soak is about
        self.dyn = {"cprog": (hw.slots[hdyn[0]].address, py.slots[sdyn[0]].address),
                    "pyprog": (hw.slots[hdyn[-1]].address, py.slots[sdyn[-1]].address)}
        self.csrv_alive = threading.Event()
        self.t0 = time.monotonic()

    def running(self) -> bool:
        return time.monotonic() < self.deadline

    # -------------------------------------------------------------- one call, checked
    def call(self, kind: str, timeout: float, fn: Callable[[], Any], check: Callable[[Any], Optional[str]]) -> bool:
        t0 = time.monotonic()
        try:
            r = fn()
        except NAMED as e:
            took = time.monotonic() - t0
            name = type(e).__name__
            code = getattr(e, "code", None)
            if code is not None and name == "CallError":
                name = f"CallError({getattr(code, 'name', code)})"
            with self.stats.lock:
                self.stats.failures[(kind, name)] += 1
                if name == "CallTimeout":
                    self.stats.py_timeouts += 1
                if name == "CallError(COLLISION)":
                    self.stats.py_collisions += 1
                self.stats.first_failure.setdefault(kind, (round(time.monotonic() - self.t0), str(e)[:300]))
            if not kind.startswith("py csrv.f"):
                # every other callee of the test's process lives for the whole soak, and no
                # program is killed while fir calls it back: such a failure is a finding
                self.stats.bad(f"{kind}: {name} after {took:.1f} s from a callee that never dies: {e}")
            if took > timeout + MARGIN_S:
                self.stats.bad(f"{kind}: {name} after {took:.1f} s, timeout {timeout} s: {e}")
            return False
        except Exception as e:  # noqa: BLE001 - an unnamed error is what we look for
            self.stats.bad(f"{kind}: unnamed error {type(e).__name__}: {e}")
            return False
        why = check(r)
        if why:
            self.stats.bad(f"{kind}: wrong result: {why}")
            return False
        self.stats.ok(kind)
        return True

    # -------------------------------------------------------------- the test's threads
    def t_hw(self, rng: random.Random) -> None:
        while self.running():
            x = s32(rng.getrandbits(32))
            out: list[int] = []

            def go() -> int:
                out.append(self.rt.hw.f(x, timeout=CALL_S))
                return out[0]
            if not self.call("py hw.f", CALL_S, go, lambda r: None):
                with self.stats.lock:
                    self.stats.hw_unseen += 1     # it may have run
            else:
                with self.stats.lock:
                    self.stats.hw_calls.append((x, out[0]))

    def t_rtl_caller(self, rng: random.Random) -> None:
        state = 0                                  # callee's state after reset
        while self.running():
            n = rng.randrange(0, 17)
            if not self.call("py caller.run (rtl -> rtl)", CALL_S,
                             lambda: self.rt.caller.run(n, timeout=CALL_S),
                             lambda c: None if (c > 0) == (n > 0) else f"run({n}) took {c} cycles"):
                return                             # callee's state is unknown from here on
            state = run_model(state, n)
            with self.stats.lock:
                self.stats.calls["callee.f from rtl caller"] += n
            y = s32(rng.getrandbits(32))
            want = s32(pingpong_step(state, y))
            if not self.call("py callee.f", CALL_S, lambda: self.rt.callee.f(y, timeout=CALL_S),
                             lambda r: None if r == want else f"callee.f({y}) = {r}, model {want}"):
                return
            state = pingpong_step(state, y)

    def t_fir(self, rng: random.Random) -> None:
        lock = threading.Lock()

        def delay() -> None:
            with lock:
                ms = rng.random() * 3.0
            time.sleep(ms / 1000)

        while self.running():
            taps = rng.randrange(1, 9)
            coeffs = [rng.randrange(-100, 101) for _ in range(taps)]
            xs = [rng.randrange(-1000, 1001) for _ in range(rng.randrange(1, 25))]
            src, ys = iter(xs), []

            def coeff(i: int) -> int:
                delay()
                return coeffs[i]

            def source() -> int:
                delay()
                return next(src)

            def sink(y: int) -> None:
                delay()
                ys.append(y)
            want = fir_model(coeffs, xs)
            t0 = time.monotonic() - self.t0
            ok = self.call("py fir.fir (higher-order)", FIR_S,
                           lambda: self.rt.fir.fir(coeff, source, sink, taps, timeout=FIR_S),
                           lambda r: None if ys == want else f"fir {coeffs} {xs}: {ys}, model {want}")
            FIR_LOG.append((round(t0), round(time.monotonic() - self.t0), taps, len(xs), ok))
            if ok:
                with self.stats.lock:
                    self.stats.calls["fir callbacks into py"] += taps + 2 * len(xs)

    def t_dma(self, rng: random.Random) -> None:
        import pynq
        dma = self.ol.axi_dma_0
        while self.running():
            gain, offset = rng.randrange(-50, 51), rng.randrange(-10**6, 10**6)
            if not self.call("py scaler.set_gain", CALL_S,
                             lambda: self.rt.scaler.set_gain(gain, offset, timeout=CALL_S), lambda r: None):
                return                             # the gain is unknown from here on
            n = rng.randrange(1, 257)
            src = pynq.allocate((n,), np.int32)
            dst = pynq.allocate((n,), np.int32)
            try:
                src[:] = np.array([rng.randrange(-2**31, 2**31) for _ in range(n)], dtype=np.int32)
                want = np.array(scale_model(src, gain, offset), dtype=np.int32)

                def transfer() -> None:
                    dst[:] = 0
                    dma.sendchannel.transfer(src)
                    dma.recvchannel.transfer(dst)
                    dma.sendchannel.wait()
                    dma.recvchannel.wait()
                self.call("py DMA (pynq.lib.dma)", CALL_S, transfer,
                          lambda r: None if np.array_equal(dst, want) else f"DMA {n} words wrong")

                def buffers() -> int:
                    dst[:] = 0
                    return self.rt.scaler.scale(src, dst, timeout=CALL_S)
                self.call("py scaler.scale (buffers)", CALL_S, buffers,
                          lambda c: None if c == n and np.array_equal(dst, want) else f"scale: count {c} of {n}")
            finally:
                src.freebuffer()
                dst.freebuffer()

    def t_chn(self, rng: random.Random) -> None:
        loop, acc = self.rt.channel("chn.loop"), self.rt.channel("chn.acc")
        while self.running():
            data = np.array([rng.getrandbits(32) for _ in range(rng.randrange(1, 200))], dtype=np.uint32)

            def roundtrip() -> Any:
                n = loop.send(data, last=True)
                return n, loop.recv()
            self.call("py channel chn.loop", CALL_S, roundtrip,
                      lambda r: None if r[0] == len(data) and np.array_equal(r[1], data) else "loop: wrong data")
            groups = [[rng.randrange(0, 1000) for _ in range(rng.randrange(1, 6))] for _ in range(rng.randrange(1, 4))]

            def accumulate() -> list[int]:
                for g in groups[:-1]:
                    acc.send(g, last=False)
                acc.send(groups[-1], last=True)
                return acc.recv().tolist()
            total = [sum(map(sum, groups)), sum(map(len, groups))]
            self.call("py channel chn.acc", CALL_S, accumulate,
                      lambda r: None if r == total else f"acc {groups}: {r}, model {total}")
            a, b = s32(rng.getrandbits(32)), s32(rng.getrandbits(32))
            self.call("py chn.add", CALL_S, lambda: self.rt.chn.add(a, b, timeout=CALL_S),
                      lambda r: None if r == s32(a + b) else f"add({a}, {b}) = {r}")

    def t_csrv_calls(self, rng: random.Random) -> None:
        while self.running():
            x, ms = s32(rng.getrandbits(32)), rng.randrange(0, 6)
            alive_before = self.csrv_alive.is_set()
            ok = self.call("py csrv.f (C callee)", DEAD_S, lambda: self.rt.csrv.f(x, ms, timeout=DEAD_S),
                           lambda r: None if r == csrv_model(x) else f"csrv.f({x}) = {r}")
            if not ok and not alive_before and not self.csrv_alive.is_set():
                time.sleep(0.2)            # dead and known dead: do not spin on timeouts
            time.sleep(rng.uniform(0.0, 0.01))   # leave the CPU to the other traffic too

    # -------------------------------------------------------------- programs, killed
    def t_program(self, comp: str, rng: random.Random) -> None:
        """Run ``comp``'s program again and again; in half of the runs kill it (kill -9) 0-20 ms
        after a random one of its ``hw.f`` results, while it still has calls to make: in the
        middle of a call, or between two; or 0-3 s after its last one, in ``py.slow`` or in
        ``fir.fir``, maybe while ``fir`` calls it back. Before the RTL call site had a reply
        timeout, a process killed there left ``fir`` waiting for ever (the first 600 s run,
        which killed at any moment, lost fir that way, and the soak then killed only before
        ``fir.fir``); now ``fir``'s callback ends with an error after ``reply_timeout`` cycles
        (soak.yaml) and ``fir`` serves on."""
        argv0 = [self.exe] if comp == "cprog" else list(PYPROG)
        dyn, sdyn = self.dyn[comp]
        prev_killed = False
        while self.running():
            if comp == "pyprog" and rng.random() < 0.15:   # a second runtime of py: refused
                r = self.att.run(PYPROG + ["claim", "py"], timeout=PROG_S)
                if f"REFUSED component 'py' already has a live runtime: PID {os.getpid()} " in r.stdout:
                    with self.stats.lock:
                        self.stats.failures[("second py runtime", "ClaimRefused (owner named)")] += 1
                else:
                    self.stats.bad(f"a second py runtime was not refused: {r.stdout[-1000:]}{r.stderr[-1000:]}")
            n = rng.randrange(3, 31)
            kill_at = rng.randrange(0, 2 * n + 1) if rng.random() < 0.5 else None   # after that many pairs
            # after the last pair: in py.slow or fir.fir (which takes seconds on a busy host)
            kill_delay = rng.uniform(0.0, 3.0) if kill_at == 2 * n else rng.uniform(0.0, 0.02)
            p = self.att.popen(argv0 + ["calls", str(n), f"0x{dyn:08X}", f"0x{sdyn:08X}"])
            with self.stats.lock:
                self.stats.starts[comp] += 1
            out_lines: list[str] = []
            err_lines: list[str] = []
            reached = threading.Event()

            def pump_out() -> None:
                k = 0
                for line in p.stdout:
                    out_lines.append(line)
                    if line.startswith("pair "):
                        k += 1
                        if kill_at is not None and k >= min(kill_at + 1, 2 * n):
                            reached.set()
                reached.set()

            def pump_err() -> None:
                for line in p.stderr:
                    err_lines.append(line)
            pumps = [threading.Thread(target=pump_out, daemon=True), threading.Thread(target=pump_err, daemon=True)]
            for t in pumps:
                t.start()
            killed = False
            if kill_at is not None:
                reached.wait(PROG_S)
                time.sleep(kill_delay)
                if p.poll() is None and not any(line.startswith(("counters", "FAIL")) for line in out_lines):
                    p.send_signal(signal.SIGKILL)
                    killed = True
            try:
                p.wait(PROG_S)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(60)
                self.stats.bad(f"{comp}: no end within {PROG_S} s:\n{''.join(out_lines)[-2000:]}{''.join(err_lines)[-2000:]}")
            for t in pumps:
                t.join(60)
            p.stdout.close()
            p.stderr.close()
            out, err = "".join(out_lines), "".join(err_lines)
            seen = pairs(out)
            with self.stats.lock:
                self.stats.hw_calls.extend(seen)
                self.stats.calls[f"{comp} hw.f"] += len(seen)
            after_kill = " (predecessor killed)" if prev_killed else ""
            prev_killed = killed
            if killed:
                with self.stats.lock:
                    self.stats.kills[comp] += 1
                    self.stats.hw_unseen += 1      # at most one call in flight, maybe hw.f
                continue
            m = re.search(r"counters c(\d+) d(\d+) s(\d+) w(\d+)", out)
            if p.returncode == 0 and "ALL OK" in out and m:
                with self.stats.lock:
                    self.stats.runs_ok[comp] += 1
                    # py.slow twice, fir.fir once with its callbacks (4 taps, 12 samples)
                    self.stats.calls[f"{comp} py.slow"] += 2
                    self.stats.calls[f"{comp} fir.fir (higher-order)"] += 1
                    for k, v in zip("cdsw", m.groups()):
                        self.stats.prog_counters[(comp, k)] += int(v)
                continue
            # a Python program's last exception line, if it is one of pushpush's named errors
            last = [line for line in err.splitlines()
                    if re.match(r"^[\w.]*\b(CallError|CallTimeout|ChannelTimeout|DmaTimeoutError|SimulatorError|"
                                r"ClaimRefused):", line)]
            if not last and any(re.match(r"^\w+(Error|Exception)\b", line) for line in err.splitlines()):
                self.stats.bad(f"{comp}: an unnamed error (exit {p.returncode}):\n{err[-3000:]}")
                continue
            fail = re.search(r"^FAIL (.*)$", out, re.M)
            what = fail.group(1) if fail else (last[-1] if last else None)
            if what is None:
                self.stats.bad(f"{comp}: exit {p.returncode} without a named failure:\n{out[-2000:]}{err[-3000:]}")
                continue
            with self.stats.lock:
                self.stats.prog_failed[comp] += 1
                self.stats.failures[(comp, re.sub(r"0x[0-9A-Fa-f]+|\d+", "N", what)[:110] + after_kill)] += 1
                self.stats.first_failure.setdefault(comp, (round(time.monotonic() - self.t0), what[:300]))
                self.stats.hw_unseen += 1          # the failed call may have been hw.f

    def t_csrv(self, rng: random.Random) -> None:
        while self.running():
            p = self.att.popen([self.csrv_exe])
            with self.stats.lock:
                self.stats.starts["csrv"] += 1
            try:
                line = p.stdout.readline() if p.stdout else ""
                if "SERVING" not in line:
                    out, err = p.communicate(timeout=60)
                    self.stats.bad(f"csrv did not start: {line}{out}{err}")
                    time.sleep(1)
                    continue
                self.csrv_alive.set()
                if rng.random() < 0.2:         # a second runtime of csrv: refused, owner named
                    r = self.att.run([self.csrv_exe], timeout=PROG_S)
                    if r.returncode == 1 and "FAIL open" in r.stdout and \
                            f"already has a live runtime: pid={p.pid} " in r.stderr:
                        with self.stats.lock:
                            self.stats.failures[("second csrv runtime", "PP_EBUSY (refused, owner named)")] += 1
                    else:
                        self.stats.bad(f"a second csrv runtime was not refused ({r.returncode}): "
                                       f"{r.stdout[-1000:]}{r.stderr[-1000:]}")
                time.sleep(min(rng.uniform(1.0, 15.0), max(0.0, self.deadline - time.monotonic())))
                if rng.random() < 0.8:
                    p.send_signal(signal.SIGKILL)
                    p.wait(60)
                    self.csrv_alive.clear()
                    with self.stats.lock:
                        self.stats.kills["csrv"] += 1
                else:
                    p.send_signal(signal.SIGTERM)
                    out, err = p.communicate(timeout=60)
                    self.csrv_alive.clear()
                    m = re.search(r"counters c(\d+) d(\d+) s(\d+) w(\d+)", out)
                    if p.returncode != 0 or "ALL OK" not in out or not m:
                        self.stats.bad(f"csrv stopped badly ({p.returncode}): {out}{err}")
                    else:
                        with self.stats.lock:
                            self.stats.terms["csrv"] += 1
                            for k, v in zip("cdsw", m.groups()):
                                self.stats.prog_counters[("csrv", k)] += int(v)
            finally:
                if p.poll() is None:
                    p.kill()
                    p.wait(60)
                if p.stdout:
                    p.stdout.close()
                if p.stderr:
                    p.stderr.close()
            if self.running():
                time.sleep(rng.uniform(0.0, 4.0))


def check_counters(counters: dict[str, dict[str, int]], st: Stats) -> list[str]:
    """The counters against what the soak caused (docs/pynq.md, "The soak").

    * ``callee``, ``caller``, ``scaler``, ``chn``: called only by the test's process, which is
      never killed, one call at a time per slot: every counter is exactly 0. Any fault there
      is one the soak did not cause.
    * RTL strays are exactly 0 at ``hw``, ``callee``, ``caller``, ``scaler``, ``chn``: their
      callers' replies come in time (``caller``'s callee never dies). At ``fir``, a callback
      into a program killed (or gone after its call timed out) ends after ``fir``'s
      ``reply_timeout``; the dead program's successor answers the call still in its lent slot
      later (``BAD_FUNCTION``): a stray. ``fir`` has at most two callbacks in flight (src and
      sink), so strays(fir) <= 2 * (kills and failed runs of cprog and pyprog, and fir.fir
      calls of the test's process that failed).
    * ``duplicates`` of ``hw`` and ``fir``, and of ``py`` (the callee of ``py.slow``): a
      duplicate is a trigger with the SEQ of the last call taken from its static slot; only a
      successor of a program killed while its call's write was under way can write one (its
      first call through that import), so each is at most the number of kills of the programs
      that import it (cprog and pyprog import all three).
    * ``py``'s ``strays``: a reply to ``py`` that no call waits for is the late reply to one
      of ``py``'s timed-out calls (its rep is quarantined, never reused before the reply), so
      at most one per timeout: strays(py) <= py's CallTimeouts.
    * ``py``'s ``write_errors`` equal its calls that failed with ``COLLISION``: the runtime
      counts one exactly when it gives up a refused write and raises that error.
    * the programs' own strays (printed at a clean exit): a late reply to a predecessor's
      call, killed or timed out (a call that timed out waiting in ``fir``'s slot is taken
      later: docs/architecture.md §2.2), at most one per kill or failed run of that program.
    """
    bad = []
    for c in ("callee", "caller", "scaler", "chn"):
        if any(counters[c].values()):
            bad.append(f"{c}: counters {counters[c]}, want all 0")
    for c in ("hw", "callee", "caller", "scaler", "chn"):
        if counters[c]["strays"]:
            bad.append(f"{c}: {counters[c]['strays']} strays at an RTL component")
    dead = (st.kills["cprog"] + st.kills["pyprog"] + st.prog_failed["cprog"] + st.prog_failed["pyprog"]
            + sum(n for (kind, _), n in st.failures.items() if kind == "py fir.fir (higher-order)"))
    if counters["fir"]["strays"] > 2 * dead:
        bad.append(f"fir: {counters['fir']['strays']} strays > 2 * {dead} dead fir.fir callers")
    kills = st.kills["cprog"] + st.kills["pyprog"]
    for c in ("hw", "fir", "py"):
        if counters[c]["duplicates"] > kills:
            bad.append(f"{c}: {counters[c]['duplicates']} duplicates > {kills} kills of its callers")
    if counters["py"]["write_errors"] != st.py_collisions:
        bad.append(f"py: {counters['py']['write_errors']} write errors != {st.py_collisions} calls failed "
                   "with COLLISION")
    if counters["py"]["strays"] > st.py_timeouts:
        bad.append(f"py: {counters['py']['strays']} strays > {st.py_timeouts} timed-out calls")
    for comp in ("cprog", "pyprog", "csrv"):
        s = st.prog_counters[(comp, "s")]
        if s > st.kills[comp] + st.prog_failed[comp]:
            bad.append(f"{comp}: {s} strays in clean runs > {st.kills[comp]} kills + "
                       f"{st.prog_failed[comp]} failed runs")
    return bad


@pytest.fixture(scope="module")
def exes(tmp_path_factory):
    out = tmp_path_factory.mktemp("soak_c")
    from cbuild import generate_c, linked_of
    cdir = generate_c(linked_of(YAML), out)
    cprog = compile_c(cdir, [SRC / "crestart.c", "cprog_pp.c", *RUNTIME], out / "crestart", flags=SANITIZE)
    csrv = compile_c(cdir, [HERE / "csrv.c", "csrv_pp.c", *RUNTIME], out / "csrv", flags=SANITIZE)
    return str(cprog), str(csrv)


def test_soak(exes, tmp_path, monkeypatch):
    import gc
    claim_dir = tmp_path / "claims"
    monkeypatch.setenv("PUSHPUSH_CLAIM_DIR", str(claim_dir))
    print(f"\nsoak: seed {SEED} (PUSHPUSH_SOAK_SEED), {SECONDS:.0f} s (PUSHPUSH_SOAK_SECONDS), "
          f"{BUSY} busy loops (PUSHPUSH_SOAK_BUSY), load {os.getloadavg()}")
    outdir = tmp_path / "build"
    # one load and free first: the device's shared memories are made on first use and kept
    # (memory outlives bitstreams), and PYNQ starts its own helpers once
    ppq.load(YAML, outdir=outdir).free()
    gc.collect()
    before = leak_snapshot(claim_dir)
    master = random.Random(SEED)
    seeds = [master.getrandbits(64) for _ in range(10)]
    st = Stats()
    busy = busy_loops(BUSY)
    t_start = time.monotonic()
    try:
        ol = ppq.load(YAML, outdir=outdir)
        try:
            rt = ol.runtime("py")
            slow_rng, slow_lock = random.Random(seeds[0]), threading.Lock()

            def slow(x: int, ms: int) -> int:
                with slow_lock:
                    d = slow_rng.random() * 4.0
                    st.slow_served += 1
                time.sleep((ms + d) / 1000)
                return x + 1
            rt.export("slow", slow)
            rt.start()
            rt.timeout = CALL_S
            with CAttach(ol.device) as att:
                soak = Soak(ol, att, exes[0], exes[1], st, time.monotonic() + SECONDS)
                jobs = [("hw", soak.t_hw), ("rtl-caller", soak.t_rtl_caller), ("fir", soak.t_fir),
                        ("dma", soak.t_dma), ("chn", soak.t_chn), ("csrv-calls", soak.t_csrv_calls),
                        ("csrv", soak.t_csrv)]
                threads = [threading.Thread(target=fn, args=(random.Random(seeds[1 + i]),),
                                            name=f"soak-{name}", daemon=True)
                           for i, (name, fn) in enumerate(jobs)]
                threads += [threading.Thread(target=soak.t_program, args=(comp, random.Random(seeds[8 + i])),
                                             name=f"soak-{comp}", daemon=True)
                            for i, comp in enumerate(("cprog", "pyprog"))]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(SECONDS + PROG_S + 120)
                    if t.is_alive():
                        st.bad(f"thread {t.name} still running {PROG_S + 120:.0f} s after the end")
                # after the traffic: does fir serve again (a lost fir, or only a slow one)?
                probe_src, probe_ys = iter([1, 2, 3]), []
                t_probe = time.monotonic()
                try:
                    rt.fir.fir(lambda i: 1, lambda: next(probe_src), probe_ys.append, 1, timeout=CALL_S)
                    probe = f"answered {probe_ys} in {time.monotonic() - t_probe:.1f} s"
                except NAMED as e:
                    probe = f"{type(e).__name__} {e} after {time.monotonic() - t_probe:.1f} s"[:400]
                    if getattr(getattr(e, "code", None), "name", None) == "COLLISION":
                        st.py_collisions += 1     # its write error is counted too
                print(f"py fir.fir calls (start s, end s, taps, samples, ok): {FIR_LOG}")
                print(f"one fir.fir after the traffic stopped: {probe}")
                counters = ol.counters()
        finally:
            ol.free()
    finally:
        for b in busy:
            b.kill()
            b.wait(60)
    wall = time.monotonic() - t_start
    gc.collect()
    after = leak_snapshot(claim_dir)

    pieces, problems = chain_segments(st.hw_calls)
    for p in problems:
        st.bad(f"hw.f chain: {p}")
    if pieces > st.hw_unseen + 1:
        st.bad(f"hw.f chain: {pieces} pieces > {st.hw_unseen} unseen calls + 1")
    st.violations += check_counters(counters, st)
    leaks = []
    for k in ("fds", "maps"):
        if after[k] > before[k]:
            leaks.append(f"{k}: {before[k]} before the load, {after[k]} after free()")
    for k in ("shm", "children", "threads", "claims"):
        more = sorted(set(after[k]) - set(before[k]))
        if more:
            leaks.append(f"{k}: {more} left after free()")
    st.violations += [f"leak: {x}" for x in leaks]

    print(f"soak: seed {SEED}, {wall:.0f} s wall, load {os.getloadavg()}")
    print("completed calls by kind:")
    for k, v in sorted(st.calls.items()):
        print(f"  {k}: {v}")
    print(f"  py.slow served: {st.slow_served}")
    print("named failures by kind:")
    for (k, e), v in sorted(st.failures.items()):
        print(f"  {k}: {e}: {v}")
    print(f"kill -9: {dict(st.kills)}; SIGTERM: {dict(st.terms)}; starts: {dict(st.starts)}; "
          f"clean runs: {dict(st.runs_ok)}; runs that failed a call: {dict(st.prog_failed)}")
    print("first failure of each kind (s into the soak, message):")
    for k, v in sorted(st.first_failure.items()):
        print(f"  {k}: {v}")
    print(f"hw.f chain: {len(st.hw_calls)} calls seen, {pieces} pieces, {st.hw_unseen} unseen")
    print(f"counters: {counters}")
    print(f"program counters (clean runs): {dict(st.prog_counters)}")
    print(f"leaks checked: fds {before['fds']}->{after['fds']}, /dev/shm {len(before['shm'])}->"
          f"{len(after['shm'])}, children {len(before['children'])}->{len(after['children'])}, "
          f"threads {len(before['threads'])}->{len(after['threads'])}, claim files "
          f"{len(before['claims'])}->{len(after['claims'])}, pushpush maps {before['maps']}->{after['maps']}")
    assert not st.violations, f"seed {SEED}: {len(st.violations)} violations:\n" + "\n".join(st.violations[:50])
    assert sum(st.calls.values()) > 0
