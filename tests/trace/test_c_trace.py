"""C runtime events in the trace (issue 31, docs/c.md "Tracing"): a C program built with
``-DPP_TRACE`` attached to the simulated board (examples/pingpong/c: C -> Verilog, Verilog ->
C, C -> Python, Python -> C), traced by ``ol.trace()``; its events merged with the wire's and
Python's, nested and ordered; tracing off changes nothing on the wire; a killed program
leaves a trace that loads; the ring reader (wrap-around, torn events, other formats) and the
64-bit counter read (hi, lo, hi)."""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

from pushpush.trace import read_trace  # noqa: E402
from pushpush.trace.c_events import (EVENT, HEADER, MAGIC, RING_DIR, RingError, collect,  # noqa: E402
                                     read_ring, trace_from_rings)

ROOT = Path(__file__).resolve().parents[2]
CALLEE_C = ROOT / "examples" / "pingpong" / "c" / "callee.c"


class Board:
    def __init__(self, ol: Any, traced: Path, plain: Path) -> None:
        self.ol = ol
        self.traced = traced
        self.plain = plain
        self.gate: threading.Event | None = None     # set: host.g blocks until it is set
        self.in_g = threading.Event()

    def g(self, x: int) -> int:
        self.in_g.set()
        gate = self.gate
        if gate is not None:
            assert gate.wait(60), "the test never released host.g"
        return (x + 1) & 0x7FFF_FFFF

    def ring_dir(self) -> Path:
        return Path(self.ol.device.bridge.rundir) / RING_DIR


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    from pushpush.apps import open_system
    from pushpush.c import compile_program

    ol = open_system(ROOT / "examples" / "pingpong" / "c", simulator="icarus")
    out = tmp_path_factory.mktemp("cprog")
    cdir = Path(ol.bitfile_name).resolve().parent / "c"
    exes = {t: compile_program(cdir, [CALLEE_C], components=["callee"], platform="simboard",
                               output=out / f"callee_{'traced' if t else 'plain'}", trace=t)
            for t in (True, False)}
    b = Board(ol, exes[True], exes[False])
    ol.export("g", b.g)
    yield b
    ol.free()


def _start(att: Any, exe: Path, *args: str) -> tuple[subprocess.Popen, list[str]]:
    proc = att.popen([str(exe), *args])
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.strip())
        if "SERVING" in line or line.startswith("error"):
            break
    assert lines and lines[-1] == "SERVING", (lines, proc.poll())
    return proc, lines


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)


def test_c_caller_and_c_callee_events_nest_with_the_wire(board: Board, tmp_path: Path) -> None:
    from pushpush.pynq.simulated.c_programs import CAttach

    ol = board.ol
    path = tmp_path / "c.trace"
    with CAttach(ol.device) as att:
        with ol.trace(path) as t:
            proc, _ = _start(att, board.traced, "3", "2")   # 3 calls of hw.f, 2 of host.g
            assert int(ol.caller.run(3)) > 0                # 3 calls of C's callee.f
            ol.callee.f(5)                                   # Python -> C
        rings = collect(board.ring_dir(), t.session)
        _stop(proc)
    assert t.trace is not None
    # 3 x hw.f and 2 x host.g issued/seen, 4 x callee.f entered/left
    assert t.trace.meta["c_events"] == {"events": 2 * 3 + 2 * 2 + 2 * 4, "calls": 3, "execs": 4,
                                        "software_calls": 2, "unmatched": 0, "no_cycle": 0}
    trace = read_trace(path)   # validated
    calls = trace.calls
    # C -> Verilog: the runtime's issued before the call's first beat, its seen after the return
    hw = [c for c in calls if c.caller == "callee" and c.function == "hw.f"]
    assert len(hw) == 3 and all(c.source == "wire" for c in hw)
    for c in hw:
        assert c.issued < c.trigger <= c.taken <= c.result <= c.returned <= c.seen
    assert [b.issued >= a.seen for a, b in zip(hw, hw[1:])] == [True, True]   # one after the other
    # Verilog -> C: C's entered/left inside the wire call, nested under caller.run
    run = [c for c in calls if c.function == "caller.run"]
    cf = [c for c in calls if c.caller == "caller" and c.function == "callee.f"]
    assert len(run) == 1 and len(cf) == 3
    for c in cf:
        assert c.parent == run[0].id
        assert c.issued <= c.trigger <= c.taken <= c.result <= c.returned <= c.seen
        assert run[0].taken <= c.issued and c.seen <= run[0].result
    # between software components (shared memory, no wire): calls of their own, both ends seen
    g = [c for c in calls if c.caller == "callee" and c.function == "host.g"]
    pf = [c for c in calls if c.caller == "host" and c.function == "callee.f"]
    assert len(g) == 2 and len(pf) == 1
    for c in g + pf:
        assert c.source == "software"
        assert c.issued <= c.taken <= c.result <= c.seen
    # cycle order: C's calls of hw.f, then of host.g, then Verilog's of C, then Python's
    assert hw[-1].seen <= g[0].issued and g[-1].seen <= run[0].issued <= pf[0].issued
    # the events themselves: component, function, slot, SEQ alternating per target slot
    issued = [e for e in rings if e.kind == "issued" and e.name == "hw.f"]
    seqs = [e.seq for e in issued]
    assert len(seqs) == 3 and seqs[0] != seqs[1] != seqs[2] and {e.component for e in rings} == {"callee"}
    entered = [e for e in rings if e.kind == "entered"]
    assert [e.name for e in entered] == ["callee.f"] * 4
    # one static slot per importer: caller's three calls in one, Python's in the other
    assert sorted([e.addr for e in entered].count(a) for a in {e.addr for e in entered}) == [1, 3]
    # the rings alone (as on a board, no wire): the C side of the same calls
    alone = trace_from_rings(board.ring_dir(), t.sysmap, session=t.session)
    assert len([c for c in alone.calls if c.function == "hw.f"]) == 3
    assert len([c for c in alone.calls if c.callee == "callee" and c.taken is not None]) == 4
    # ... and as the command a board's user runs (every session of the rings: only this one)
    from pushpush.sysmap import to_json
    from pushpush.trace.c_events import main
    (tmp_path / "map.json").write_text(to_json(ol.system.linked))
    assert main([str(board.ring_dir()), str(tmp_path / "map.json"), str(tmp_path / "rings.trace")]) == 0
    assert len(read_trace(tmp_path / "rings.trace").calls) == len(alone.calls)


def test_tracing_off_changes_nothing_on_the_wire(board: Board, tmp_path: Path) -> None:
    """The same C program built without and with PP_TRACE, both run inside ol.trace(): the
    same calls and results, the same exact RTL-side cycles of every call (the cycles
    between calls depend on when the C process answers: the simulator runs while it polls,
    traced or not)."""
    from pushpush.pynq.simulated.c_programs import CAttach

    ol = board.ol
    seen: dict[bool, Any] = {}
    for traced in (False, True):
        with CAttach(ol.device) as att:
            with ol.trace(tmp_path / f"{traced}.trace") as t:
                proc, lines = _start(att, board.traced if traced else board.plain, "4", "0")
                runs = [int(ol.caller.run(n)) for n in (2, 3)]
            _stop(proc)
        assert t.trace is not None
        calls = t.trace.calls
        hw = [c for c in calls if c.function == "hw.f"]
        cf = [c for c in calls if c.function == "callee.f"]
        seen[traced] = {
            "calls": sorted((c.caller, c.function) for c in calls),
            "hw": [(c.taken - c.trigger, c.result - c.taken, c.returned - c.result) for c in hw],
            "cf": [c.trigger - c.issued for c in cf],
            "events": t.trace.meta["c_events"]["events"],
        }
        assert len(runs) == 2
    assert seen[False]["events"] == 0 and seen[True]["events"] == 2 * 4 + 2 * 5
    for k in ("calls", "hw", "cf"):
        assert seen[False][k] == seen[True][k], k


def test_a_killed_c_program_leaves_a_trace_that_loads(board: Board, tmp_path: Path) -> None:
    from pushpush.pynq.simulated.c_programs import CAttach

    ol = board.ol
    path = tmp_path / "killed.trace"
    board.gate, board.in_g = threading.Event(), threading.Event()
    try:
        with CAttach(ol.device) as att:
            with ol.trace(path) as t:
                proc = att.popen([str(board.traced), "2", "1"])    # 2 x hw.f, then host.g blocks
                assert board.in_g.wait(120), "the C program never called host.g"
                proc.kill()
                proc.communicate(timeout=60)
                board.gate.set()     # host.g answers a program that is gone
    finally:
        board.gate.set()
        board.gate = None
    assert proc.returncode == -signal.SIGKILL
    trace = read_trace(path)
    hw = [c for c in trace.calls if c.caller == "callee" and c.function == "hw.f"]
    assert len(hw) == 2 and all(c.issued < c.trigger and c.seen >= c.returned for c in hw)
    # the call cut by the kill: issued and never seen, dropped (not invented)
    assert not [c for c in trace.calls if c.caller == "callee" and c.function == "host.g"]
    assert t.trace is not None and t.trace.meta["c_events"]["unmatched"] == 1


# ------------------------------------------------------------------ the ring, without a board


def _ring(path: Path, capacity: int, events: list[tuple[int, int]], head: int) -> None:
    """A ring file of ``capacity`` events; ``events``: (index, cycle) written at their slots."""
    data = bytearray(HEADER.size + capacity * EVENT.size)
    HEADER.pack_into(data, 0, MAGIC, HEADER.size, EVENT.size, capacity, 4242, head, 0, 2, 0, b"comp")
    for i, cyc in events:
        EVENT.pack_into(data, HEADER.size + (i % capacity) * EVENT.size, cyc, 0, 0x4000_0000, 2, 0, 7,
                        1, 0, 0, 0, b"hw.f")
    path.write_bytes(bytes(data))


def test_ring_wraps_around_and_counts_what_it_lost(tmp_path: Path) -> None:
    p = tmp_path / "comp-4242.ring"
    _ring(p, 4, [(i, 100 + i) for i in range(10)], head=10)
    r = read_ring(p)
    # the oldest slot of a full ring is where its writer writes next (maybe now): not read
    assert r is not None and r.lost == 7 and [e.cycle for e in r.events] == [107, 108, 109]
    assert r.component == "comp" and r.pid == 4242 and r.clock == "simboard"
    assert all(e.kind == "issued" and e.name == "hw.f" and e.seq == 1 for e in r.events)


def test_an_event_not_counted_by_head_is_dropped(tmp_path: Path) -> None:
    """A program killed while it wrote an event: head does not count it (the runtime
    increments head after the whole event, with a barrier), so it is not read."""
    p = tmp_path / "comp-1.ring"
    _ring(p, 8, [(0, 10), (1, 11), (2, 0xDEAD)], head=2)   # slot 2 half-written
    r = read_ring(p)
    assert r is not None and [e.cycle for e in r.events] == [10, 11]
    assert [e.cycle for e in collect(tmp_path, session=7)] == [10, 11]
    assert collect(tmp_path, session=8) == []


def test_files_that_are_not_rings_are_refused_or_skipped(tmp_path: Path) -> None:
    fresh = tmp_path / "a-1.ring"
    fresh.write_bytes(bytes(HEADER.size + EVENT.size))       # created, not set up yet
    assert read_ring(fresh) is None
    other = tmp_path / "b-1.ring"
    other.write_bytes(b"NOTARING" + bytes(200))
    with pytest.raises(RingError, match="not a pushpush trace ring"):
        read_ring(other)
    short = tmp_path / "c-1.ring"
    _ring(short, 16, [], head=0)
    short.write_bytes(short.read_bytes()[:HEADER.size + EVENT.size])
    with pytest.raises(RingError, match="the header says 16 events"):
        read_ring(short)


COUNTER_C = r"""
#include <stdio.h>
#include "pp_runtime.h"
/* the interrupt block's counter (cores/irq): reading the low word latches the high word;
 * the counter advances by step at every read; with `others`, another reader reads the low
 * word (latches) just before every other high-word read of ours */
static uint64_t now, latch, step, at_lo;
static unsigned others, his;
static uint32_t rd(void *ctx, uint32_t addr)
{
    uint32_t v;
    (void)ctx;
    if (addr == 0x10u) {
        v = (uint32_t)now;
        latch = now >> 32;
        at_lo = now;
    } else {
        if (others && (his++ & 1u))
            latch = (now - 1u) >> 32;  /* the other reader's low-word read, a cycle ago */
        v = (uint32_t)latch;
    }
    now += step;
    return v;
}
static uint64_t lo_then_hi(void)  /* the naive read: low word, then its latched high word */
{
    uint32_t lo = rd(NULL, 0x10u);
    return ((uint64_t)rd(NULL, 0x14u) << 32) | lo;
}
int main(void)
{
    /* cycles between two reads: a GP0 read takes tens of cycles; up to 2^28 (2.7 s at 100 MHz,
     * a reader descheduled between its reads) */
    static const uint64_t steps[] = {1u, 7u, 100u, 100000u, 0x10000000u};
    unsigned i, k, bad = 0, naive_bad = 0, n = 0;
    for (others = 0; others < 2u; others++)
        for (i = 0; i < sizeof steps / sizeof steps[0]; i++)
            for (k = 0; k < 4000u; k++) {
                uint64_t got;
                step = steps[i];
                now = ((uint64_t)(k + 1u) << 32) - 2u * step + (k % 5u);   /* near a carry */
                latch = 0;                                                 /* a stale latch */
                his = k;
                got = pp_counter64(rd, NULL, 0x10u);
                n++;
                if (got != at_lo)
                    bad++;
                now = ((uint64_t)(k + 1u) << 32) - step + (k % 2u);
                his = 1;
                got = lo_then_hi();
                if (got != at_lo)
                    naive_bad++;
            }
    printf("%u %u %u\n", n, bad, naive_bad);
    return 0;
}
"""


def test_counter64_reads_are_consistent_across_carries(tmp_path: Path) -> None:
    """pp_counter64 (hi, lo, hi) against a model of the interrupt block's counter whose low
    word read latches the high word, started just before a carry of the low word, alone and
    with another reader relatching between our reads: the value returned is always the
    counter at our low-word read, whatever the latch held before."""
    from pushpush.c import CFLAGS, compiler
    from pushpush.codegen.c import render_c
    from pushpush.codegen.render import write_tree
    from pushpush.link import load

    write_tree(render_c(load(ROOT / "examples" / "pingpong" / "c" / "system.yaml")), tmp_path)
    src = tmp_path / "counter.c"
    src.write_text(COUNTER_C)
    exe = tmp_path / "counter"
    subprocess.run([*compiler().split(), *CFLAGS, "-DPP_TRACE", f"-I{tmp_path / 'c'}", str(src), "-o",
                    str(exe)], check=True, capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    n, bad, naive_bad = (int(v) for v in out)
    assert (n, bad) == (40000, 0)
    assert naive_bad > 0     # the model has teeth: low then high alone goes wrong with another reader


def test_ring_layout_matches_the_c_structs(tmp_path: Path) -> None:
    """HEADER and EVENT are the C runtime's pp_trace_ring and pp_trace_event (sizes and the
    offsets the reader uses), on this host's compiler."""
    from pushpush.c import CFLAGS, compiler
    from pushpush.codegen.c import render_c
    from pushpush.codegen.render import write_tree
    from pushpush.link import load

    write_tree(render_c(load(ROOT / "examples" / "pingpong" / "c" / "system.yaml")), tmp_path)
    src = tmp_path / "layout.c"
    src.write_text("""
#include <stdio.h>
#include <stddef.h>
#include "pp_runtime.h"
int main(void)
{
    printf("%u %u %u %u %u %u %u %u %u\\n", (unsigned)sizeof(pp_trace_ring), (unsigned)sizeof(pp_trace_event),
           (unsigned)offsetof(pp_trace_ring, head), (unsigned)offsetof(pp_trace_ring, clock),
           (unsigned)offsetof(pp_trace_ring, component), (unsigned)offsetof(pp_trace_event, session),
           (unsigned)offsetof(pp_trace_event, kind), (unsigned)offsetof(pp_trace_event, code),
           (unsigned)offsetof(pp_trace_event, name));
    return 0;
}
""")
    exe = tmp_path / "layout"
    subprocess.run([*compiler().split(), *CFLAGS, "-DPP_TRACE", f"-I{tmp_path / 'c'}", str(src), "-o",
                    str(exe)], check=True, capture_output=True, text=True)
    got = [int(v) for v in subprocess.run([str(exe)], check=True, capture_output=True,
                                          text=True).stdout.split()]
    assert got == [HEADER.size, EVENT.size, 24, 40, 48, 28, 32, 36, 40]
    assert struct.calcsize("<8sIIIIQ") == 32 and struct.calcsize("<QQIIII") == 32


def test_every_generated_file_compiles_with_pp_trace(tmp_path: Path) -> None:
    """-DPP_TRACE with the project's flags (-Wall -Wextra -Werror -pedantic): every file of
    the generated C; the runtime and the bare-metal layer stay freestanding (no memset or
    memcpy, no 64-bit division helper on ARM); the ARM cross compiler when installed."""
    import shutil

    from pushpush.c import CFLAGS, compiler
    from pushpush.codegen.c import render_c
    from pushpush.codegen.render import write_tree
    from pushpush.link import load

    write_tree(render_c(load(ROOT / "tests" / "c" / "data" / "cboard.yaml")), tmp_path)
    c = tmp_path / "c"
    ccs = [compiler()] + (["arm-linux-gnueabihf-gcc"] if shutil.which("arm-linux-gnueabihf-gcc") else [])
    for cc in ccs:
        for src in sorted(c.glob("*.c")):
            subprocess.run([*cc.split(), *CFLAGS, "-DPP_TRACE", f"-I{c}", "-c", str(src), "-o",
                            str(tmp_path / (src.stem + ".o"))], check=True, capture_output=True, text=True)
        free = ["-ffreestanding", "-nostdlib"] + (["-mcpu=cortex-a9"] if "arm" in cc else [])
        objs = []
        for src in ("pp_runtime.c", "pp_platform_baremetal.c"):
            objs.append(str(tmp_path / (src + ".bm.o")))
            subprocess.run([*cc.split(), *CFLAGS, *free, "-DPP_TRACE", f"-I{c}", "-c", str(c / src), "-o",
                            objs[-1]], check=True, capture_output=True, text=True)
        nm = subprocess.run(["nm", "-u", *objs], capture_output=True, text=True, check=True).stdout
        undefined = {ln.split()[-1] for ln in nm.splitlines() if ln.strip() and ":" not in ln}
        assert undefined <= {"__sync_synchronize"}, (cc, undefined)


COUNTER_READ_C = r"""
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include "callee_pp.h"
int callee_f(pp_rt *rt, int32_t x, int32_t *result)   /* the export (not served here) */
{
    (void)rt;
    *result = x;
    return PP_OK;
}
int main(void)
{
    pp_simboard sb;
    int i;
    if (pp_simboard_attach(&sb) != PP_OK)
        return 1;
    for (i = 0; i < 5; i++) {
        uint64_t c0 = pp_simboard_cycle(&sb);
        uint64_t v = pp_simboard_counter(&sb, CALLEE_IRQ_PENDING + PP_IRQ_COUNTER);
        uint64_t c1 = pp_simboard_cycle(&sb);
        printf("%llu %llu %llu\n", (unsigned long long)c0, (unsigned long long)v, (unsigned long long)c1);
    }
    pp_simboard_close(&sb);
    return 0;
}
"""


def test_c_reads_the_pl_cycle_counter_as_on_a_board(board: Board, tmp_path: Path) -> None:
    """pp_counter64 over GP0 (hi, lo, hi), the way the Linux layer reads it on a board,
    against the interrupt block's real counter on the simulated board: each value lies
    between the simulator's cycle before and after the read (plus the few reset cycles the
    counter counts), and they grow; Python reads the same counter meanwhile."""
    from pushpush.c import compile_program
    from pushpush.pynq.simulated.c_programs import CAttach

    ol = board.ol
    cdir = Path(ol.bitfile_name).resolve().parent / "c"
    src = tmp_path / "counter_read.c"
    src.write_text(COUNTER_READ_C)
    exe = compile_program(cdir, [src], components=["callee"], platform="simboard",
                          output=tmp_path / "counter_read", trace=True)
    with CAttach(ol.device) as att:
        r = att.run([str(exe)], timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [[int(v) for v in line.split()] for line in r.stdout.splitlines()]
    assert len(rows) == 5
    for c0, v, c1 in rows:
        assert 0 < c0 <= v <= c1 + 8, (c0, v, c1)
    assert [b[1] > a[1] for a, b in zip(rows, rows[1:])] == [True] * 4
    assert ol.system.cycles() > rows[-1][1]
