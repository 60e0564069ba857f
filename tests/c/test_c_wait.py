"""Wait modes of C components on the simulated board (docs/c.md, "Waiting").

tests/c/data/cboard.yaml through PYNQ's API: the C program tests/c/src/cwait_callee.c is
the component ``callee`` (attached through pushpush.pynq.simulated.c_programs, compiled -Wall -Wextra
-Werror -pedantic, ASan + UBSan). Hardware calls it (``caller.run(n)``: Verilog calls
``callee.f`` n times, each argument the previous result) and it calls hardware (``hw.f``).
In ``interrupt`` mode it sleeps on the stand-in of ``/dev/uioN`` that pushpush.pynq.simulated.c_programs serves, fed by
the simulated top's ``irq`` through the modelled ``axi_intc_0`` (the same line PYNQ's
``pynq.Interrupt`` waits on). Checked:

- every mode serves and calls, switching modes at run time (``pp_set_wait``);
- ``interrupt`` mode built with a 30 s fallback sweep (a lost wake-up would time a call
  out): many randomized back-to-back calls both ways, none lost, woken by the interrupt,
  while a second C process (``c2``, ``wait: interrupt`` in the YAML) and Python (PYNQ's
  ``pynq.Interrupt``) wait on the same controller;
- an idle ``interrupt``-mode C process uses almost no CPU (its CPU time over one second);
- a component in another mode (Python in ``sleep`` mode, its pending bit set and never
  cleared) does not hold the line: its bit is not enabled;
- a line held high by an enabled bit that stays set makes it pause between checks, not
  spin, and it still serves;
- the UIO device is found as PYNQ finds it (a PYNQ-Z1's /proc/interrupts and sysfs);
- ``interrupt`` in a system without the interrupt block is refused (PP_EINVAL).
"""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
psutil = pytest.importorskip("psutil")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from cbuild import DATA, SANITIZE, SRC, compile_c, generate_c, linked_of  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402

MASK = 0xFFFF_FFFF
GOLDEN = 0x9E37_79B9
RUNTIME = ["pp_runtime.c", "pp_platform_linux.c", "pp_platform_simboard.c"]
MODES = ("sleep", "poll", "yield", "interrupt")


def model(state: int, x: int) -> int:
    rot = ((state << 5) | (state >> 27)) & MASK
    return ((rot ^ (x & MASK)) + GOLDEN) & MASK


class Program:
    """The C program: commands on stdin, each delivered with SIGUSR1 (it serves until one)."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.lines: "queue.Queue[str]" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")

    def expect(self, prefix: str, timeout: float, out: list[str] | None = None) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no '{prefix}' from the C program within {timeout} s") from None
            if line == "" or line.startswith("FAIL"):
                err = self.proc.stderr.read() if line == "" and self.proc.stderr else ""
                raise AssertionError(f"C program: {line or 'ended'} {err}")
            if line.startswith(prefix):
                return line.split(None, 1)[1].strip() if " " in line.strip() else ""
            if out is not None:
                out.append(line)

    def command(self, text: str, reply: str, timeout: float = 120) -> tuple[str, list[str]]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        got: list[str] = []
        result: list[str] = []
        done = threading.Event()

        errors: list[BaseException] = []

        def wait() -> None:
            try:
                result.append(self.expect(reply, timeout, got))
            except BaseException as e:  # noqa: BLE001 - re-raised below
                errors.append(e)
            finally:
                done.set()

        threading.Thread(target=wait, daemon=True).start()
        # a signal that lands just before the program sleeps is missed: repeat it until the
        # program answers (a late one only makes it look at stdin once more)
        while not done.wait(0.3):
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGUSR1)
        if errors:
            raise errors[0]
        return result[0], got

    def stats(self) -> dict[str, int | str]:
        v, _ = self.command("stats", "STATS")
        f = v.split()
        keys = ("wakes", "timeouts", "pauses", "clears", "errors", "c", "d", "s", "w")
        return {"mode": f[0], **{k: int(x) for k, x in zip(keys, f[1:])}}

    def served(self) -> list[tuple[int, int]]:
        _, lines = self.command("served", "SERVED")
        return [(int(a), int(b)) for ln in lines if ln.startswith("served ")
                for a, b in [ln.split()[1:3]]]

    def calls(self, n: int, seed: int) -> list[tuple[int, int]]:
        _, lines = self.command(f"call {n} {seed}", "CALLED", timeout=300)
        return [(int(a), int(b)) for ln in lines if ln.startswith("pair ")
                for a, b in [ln.split()[1:3]]]

    def quit(self) -> None:
        self.command("quit", "BYE")
        self.proc.wait(30)
        assert self.proc.returncode == 0, self.proc.stderr.read() if self.proc.stderr else ""


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    out = tmp_path_factory.mktemp("cwait")
    ol = ppq.load(DATA / "cboard.yaml", outdir=out)
    cdir = out / "c"
    exes = {
        # a lost wake-up must show: the fallback sweep of interrupt mode after 30 s, not 0.1 s
        "callee": compile_c(cdir, [SRC / "cwait_callee.c", "callee_pp.c", *RUNTIME], out / "cwait_callee",
                            flags=[*SANITIZE, "-DPP_IRQ_WAIT_US=30000000u"]),
        "c2": compile_c(cdir, [SRC / "cboard_c2.c", "c2_pp.c", *RUNTIME], out / "c2",
                        flags=[*SANITIZE, "-DPP_IRQ_WAIT_US=30000000u"]),
    }
    att = CAttach(ol.device)
    # one callee process for the module: a restarted C program starts its SEQ bits afresh,
    # so its first call of hw.f could be taken for a duplicate of the last one (docs/c.md)
    prog = start(att, exes["callee"], "default")
    yield ol, att, exes, cdir, prog
    try:
        if prog.proc.poll() is None:
            prog.quit()
    finally:
        if prog.proc.poll() is None:
            prog.proc.kill()
        att.close()
        ol.free()


def start(att: CAttach, exe: Path, mode: str) -> Program:
    p = Program(att.popen([str(exe), mode], stdin=subprocess.PIPE))
    assert p.expect("READY", 300) == (mode if mode != "default" else "sleep")
    return p


#: The state of the callee's f so far: every test continues the one process's chain.
_chain = {"state": 0}


def check_served(served: list[tuple[int, int]], n: int) -> None:
    """caller.run(n): n calls, the first with x = n, each later x the previous result."""
    assert len(served) == n, served
    state, x = _chain["state"], n
    for sx, sr in served:
        assert sx & MASK == x & MASK
        state = model(state, sx)
        assert sr & MASK == state
        x = sr
    _chain["state"] = state


def set_mode(p: Program, mode: str) -> None:
    v, _ = p.command(f"mode {mode}", "MODE")
    assert v == f"{mode} 0", v


def test_the_header_has_the_wait_mode_and_the_interrupt(board):
    cdir = board[3]
    c2 = (cdir / "c2_pp.h").read_text()
    assert "#define C2_WAIT PP_WAIT_INTERRUPT" in c2          # the YAML's wait: interrupt
    assert "#define C2_IRQ_RAW 61u" in c2 and "#define C2_INTC_BASE 0x41800000u" in c2
    callee = (cdir / "callee_pp.h").read_text()
    assert "#define CALLEE_WAIT PP_WAIT_SLEEP" in callee      # the YAML says nothing


def test_every_mode_serves_and_calls_switching_at_run_time(board):
    ol, p = board[0], board[4]
    for i, mode in enumerate(MODES + ("sleep", "interrupt", "poll", "yield", "interrupt")):
        set_mode(p, mode)
        n = 2 + i % 3
        ol.caller.run(n, timeout=120)                         # Verilog -> C, n times
        check_served(p.served(), n)
        assert len(p.calls(3, i)) == 3                        # C -> Verilog
        assert p.stats()["mode"] == mode
    v, _ = p.command("mode spin", "MODE")
    assert v == "interrupt -102"                              # unknown: PP_EINVAL, unchanged
    st = p.stats()
    assert st["wakes"] > 0 and st["errors"] == 0
    assert (st["c"], st["d"], st["s"], st["w"]) == (0, 0, 0, 0)


def test_interrupt_mode_loses_no_trigger(board):
    ol, att, exes, _, p = board
    rt = ol.runtime("py")                    # Python waits on the same axi_intc through PYNQ
    rt.export("g", lambda x, y: x * y)
    rt.start()
    rt.wait = "interrupt"
    set_mode(p, "interrupt")
    c2 = att.popen([str(exes["c2"]), "40"])  # a second C process in interrupt mode (YAML)
    try:
        rng = random.Random(16)
        before = p.stats()
        for rnd in range(16):
            n = rng.randrange(1, 12)
            if rng.random() < 0.5:
                ol.caller.run(n, timeout=60)                  # back-to-back triggers into C
                check_served(p.served(), n)
            else:
                assert len(p.calls(n, rnd)) == n              # replies wake C; random gaps
            if rng.random() < 0.5:
                time.sleep(rng.random() * 2e-3)
        out2, err2 = c2.communicate(timeout=300)
        assert c2.returncode == 0 and "ALL OK" in out2, out2 + err2
        assert "wait interrupt" in out2 and "counters c0 d0 s0 w0" in out2
        st = p.stats()
        assert st["mode"] == "interrupt" and st["errors"] == 0
        assert st["wakes"] > before["wakes"]                   # the interrupt did the waking
        assert (st["c"], st["d"], st["s"], st["w"]) == (0, 0, 0, 0)
    finally:
        if c2.poll() is None:
            c2.kill()
        rt.wait = "sleep"
        rt.stop()


def test_interrupt_mode_idles_without_cpu(board):
    ol, p = board[0], board[4]
    set_mode(p, "interrupt")
    rt = ol.runtime("py")          # makes the calls of caller.run: its replies are PL writes
    rt.start()
    rt.wait = "interrupt"          # so it clears its bit too: the line really goes quiet
    try:
        ol.caller.run(2, timeout=60)                          # serving, and warmed up
        check_served(p.served(), 2)
        time.sleep(0.3)
        proc = psutil.Process(p.proc.pid)
        c0, t0 = proc.cpu_times(), time.monotonic()
        time.sleep(1.0)
        c1, wall = proc.cpu_times(), time.monotonic() - t0
        cpu = (c1.user + c1.system) - (c0.user + c0.system)
        # a polling C runtime uses a whole core; the interrupt-mode one sleeps in poll(2)
        assert cpu < 0.05 * wall, f"{cpu:.3f} s of CPU in {wall:.3f} s idle"
        ol.caller.run(1, timeout=60)                          # and it still wakes for a call
        check_served(p.served(), 1)
    finally:
        rt.wait = "sleep"


def test_a_component_in_another_mode_does_not_hold_the_line(board):
    # py waits in sleep mode and never clears its pending bit: after its call into hardware
    # the bit stays set. It is not enabled (only runtimes in interrupt mode enable theirs),
    # so the line stays low and the C runtime in interrupt mode is not woken by it
    ol, p = board[0], board[4]
    set_mode(p, "interrupt")
    rt = ol.runtime("py")
    assert rt.wait == "sleep"
    ol.caller.run(1, timeout=60)                              # py's bit is set, and stays
    check_served(p.served(), 1)
    backend = rt.backend
    irq = backend.linked.irq
    assert backend.pending() >> irq.bit("py") & 1
    assert not int(backend.pl_mmio.read(irq.enable_set_address - backend.pl_base)) >> irq.bit("py") & 1
    time.sleep(0.3)
    s0 = p.stats()
    time.sleep(1.0)
    s1 = p.stats()
    assert s1["pauses"] == s0["pauses"], (s0, s1)
    # the stats command itself is a PL write into C's window (a wake each), nothing else
    assert s1["wakes"] - s0["wakes"] <= 3, (s0, s1)
    ol.caller.run(2, timeout=60)
    check_served(p.served(), 2)


def test_interrupt_mode_does_not_spin_on_a_held_line(board):
    # an enabled bit that stays set (a runtime in interrupt mode that died without leaving
    # it, here: py's bit enabled by hand while py, in sleep mode, never clears it) holds the
    # line high. The C runtime sees wakes that find nothing, and then pauses PP_IRQ_HELD_US
    # (1 ms) between checks instead of spinning (docs/c.md)
    ol, p = board[0], board[4]
    set_mode(p, "interrupt")
    rt = ol.runtime("py")
    ol.caller.run(1, timeout=60)                              # py's bit is set, and stays
    check_served(p.served(), 1)
    backend = rt.backend
    irq = backend.linked.irq
    bit = 1 << irq.bit("py")
    backend.pl_mmio.write(irq.enable_set_address - backend.pl_base, bit)
    try:
        time.sleep(0.3)
        s0, t0 = p.stats(), time.monotonic()
        time.sleep(1.0)
        s1, wall = p.stats(), time.monotonic() - t0
        pauses, wakes = s1["pauses"] - s0["pauses"], s1["wakes"] - s0["wakes"]
        assert pauses > 0, (s0, s1)
        # every check is a pause of >= 1 ms and one wake: at most ~1000 of each per second
        assert pauses <= 1000 * wall + 5 and wakes <= 1000 * wall + 5, (wall, s0, s1)
        ol.caller.run(3, timeout=60)                          # and it serves meanwhile
        check_served(p.served(), 3)
    finally:
        backend.pl_mmio.write(irq.enable_clear_address - backend.pl_base, bit)


def test_no_interrupt_without_the_block(tmp_path):
    # two C components and no rtl: no top, no interrupt block; the platform would allow it
    cdir = generate_c(linked_of(DATA / "cc.yaml"), tmp_path)
    assert "_IRQ_PENDING" not in (cdir / "cli_pp.h").read_text()
    src = tmp_path / "noirq.c"
    src.write_text(
        '#include <stdio.h>\n#include <string.h>\n#include "cli_pp.h"\n'
        "static int no_irq(void *c, uint32_t a, uint32_t b) { (void)c; (void)a; (void)b; return PP_OK; }\n"
        "static int no_wait(void *c, uint64_t t, int p) { (void)c; (void)t; (void)p; return 0; }\n"
        "static int wr(void *c, uint32_t a, const uint32_t *w, unsigned n)"
        " { (void)c; (void)a; (void)w; (void)n; return PP_OK; }\n"
        "int cli_cb(pp_rt *rt, int32_t x, int32_t *result) { (void)rt; *result = x; return PP_OK; }\n"
        "static uint32_t win[0x4000];\n"
        "int main(void) { static pp_rt rt; pp_platform p; memset(&p, 0, sizeof p);\n"
        "  p.write = wr; p.window = win; p.irq_open = no_irq; p.irq_wait = no_wait;\n"
        "  if (cli_open(&rt, &p) != PP_OK) return 1;\n"
        "  { int a = pp_set_wait(&rt, PP_WAIT_INTERRUPT), b = pp_set_wait(&rt, PP_WAIT_YIELD);\n"
        "    printf(\"%d %d %s\\n\", a, b, pp_wait_name(pp_get_wait(&rt))); }\n"
        "  p.irq_open = NULL; return 0; }\n")
    exe = compile_c(cdir, [src, "cli_pp.c", "pp_runtime.c"], tmp_path / "noirq", flags=SANITIZE)
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.split() == ["-102", "0", "yield"], r.stdout + r.stderr


def test_uio_device_found_as_pynq_finds_it(tmp_path):
    # a PYNQ-Z1's /proc/interrupts and /sys/class/uio, in a folder (the lookup's paths are
    # -D macros): the line whose third-last column is 61 names the device, whose uioN has it
    cdir = generate_c(linked_of(DATA / "cboard.yaml"), tmp_path)
    (tmp_path / "interrupts").write_text(
        "           CPU0       CPU1       \n"
        " 16:          1          0     GIC-0  27 Edge      gt\n"
        " 17:          0          0     GIC-0  43 Level     ttc_clockevent\n"
        " 25:         61          0     GIC-0  82 Level     xuartps\n"
        " 45:          3          0     GIC-0  61 Level     fabric\n"
        "IPI0:          0          0  CPU wakeup interrupts\n")
    for dev, name in (("uio0", "audio-codec-ctrl"), ("uio1", "fabric")):
        (tmp_path / "uio" / dev).mkdir(parents=True)
        (tmp_path / "uio" / dev / "name").write_text(name + "\n")
    src = tmp_path / "finduio.c"
    src.write_text('#include <stdio.h>\n#include "pp_platform.h"\n'
                   "int main(void) { char p[64] = \"\"; int a = pp_linux_find_uio(61u, p, sizeof p);\n"
                   "  char q[64] = \"\"; int b = pp_linux_find_uio(62u, q, sizeof q);\n"
                   "  printf(\"%d %s %d\\n\", a, p, b); return 0; }\n")
    exe = compile_c(cdir, [src, "pp_platform_linux.c"], tmp_path / "finduio",
                    flags=[*SANITIZE, f'-DPP_PROC_INTERRUPTS="{tmp_path / "interrupts"}"',
                           f'-DPP_SYS_CLASS_UIO="{tmp_path / "uio"}"'])
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.split() == ["0", "/dev/uio1", "-103"], r.stdout + r.stderr
