"""``pushpush bench callpath --board``: a Python call's uncached accesses on the board path.

On a PYNQ-Z1 a Python call's cost is, to first order, its Python-level uncached accesses
(:mod:`pushpush.pynq.accesses`: about 30 us each). This counts them on the simulated board,
where :class:`~pushpush.pynq.board.PynqBackend` runs the board's code against PYNQ's own
MMIO and numpy views of shared memory, for one call of each kind a Python component takes
part in, ``int f(int)`` each (the system :data:`SYSTEM`, Icarus):

- **python -> rtl**: ``host`` calls ``rtlf.f`` (the caller's accesses);
- **rtl -> python**: ``caller0`` (Verilog) calls ``callee0.f``, served by ``callee0``'s runtime
  (the callee's accesses; ``host`` starts the chain with ``caller0.run(n)``);
- **python -> python**: ``host`` calls ``peer.f``, served by ``peer``'s runtime (both sides);
- **python -> c**: the Python side of a call into a C component's window, the same accesses as
  the caller's side of python -> python (the C side is the C runtime's, modelled by
  ``pushpush bench calls``' Cortex-A9 estimate).

Each is counted over ``calls`` calls, split into a fixed part per call and the wake-ups: a
waiting caller's polls (one access each) and a serving runtime's sweeps of its window (one
access each; its idle sweeps between calls depend on this host's timing). The estimate
takes one poll or one sweep per call (the reply or the call found at the first look) and
:data:`pushpush.pynq.accesses.ACCESS_US` per access; calls/s = 1e6 / (accesses x 30 us),
the accesses only (an upper bound: the runtime's own Python work comes on top).
"""

from __future__ import annotations

import os
import textwrap
import threading
import time
from pathlib import Path
from typing import Any, Callable

__all__ = ["SYSTEM", "count_accesses", "format_accesses"]

#: The counted system: Python calls Verilog and Python, Verilog calls Python.
SYSTEM = """
system: pyaccess
board: pynq-z1
clock_mhz: 100
components:
  caller0:
    kind: rtl
    module: bench_caller0_a1
    sources: [bench_caller0_a1.v]
    exports: {run: "(n: u32) -> u32"}
    imports: {callee0.f: "(x0: i32) -> i32"}
  rtlf:
    kind: rtl
    module: bench_callee_a1_k0
    sources: [bench_callee_a1_k0.v]
    exports: {f: "(x0: i32) -> i32"}
  callee0:
    kind: python
    exports: {f: "(x0: i32) -> i32"}
  peer:
    kind: python
    exports: {f: "(x0: i32) -> i32"}
  host:
    kind: python
    imports: [rtlf.f, caller0.run, peer.f]
"""


def _write_system(folder: Path) -> Path:
    from pushpush.bench.pairs_system import callee_verilog, caller_verilog

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bench_caller0_a1.v").write_text(caller_verilog(0, 1))
    (folder / "bench_callee_a1_k0.v").write_text(callee_verilog(1, 0))
    yaml = folder / "system.yaml"
    yaml.write_text(textwrap.dedent(SYSTEM))
    return yaml


def _side(log: Any, calls: int, wakes: int) -> dict[str, Any]:
    """One runtime's counts per call: every access, the ``wakes`` (one access each: a
    caller's polls or a server's sweeps) and the rest (fixed per call)."""
    total = log.accesses()
    fixed = total - wakes
    return {"accesses_per_call": round(total / calls, 2), "wakes_per_call": round(wakes / calls, 2),
            "fixed_per_call": round(fixed / calls, 2),
            "gp0_reads": round(log.accesses("gp0", "r") / calls, 2),
            "gp0_writes": round(log.accesses("gp0", "w") / calls, 2),
            "ps_reads": round(log.accesses("ps", "r") / calls, 2),
            "ps_writes": round(log.accesses("ps", "w") / calls, 2),
            "words_per_call": round(log.words() / calls, 2)}


def count_accesses(work: Path, calls: int = 50, simulator: str = "icarus",
                   log: Callable[[str], None] = lambda m: None) -> list[dict[str, Any]]:
    """Load :data:`SYSTEM` on the simulated board and count each call kind's accesses over
    ``calls`` calls (see the module docstring). Rows: ``kind``, ``side`` and the counts."""
    os.environ.setdefault("PUSHPUSH_BOARD", "sim")
    import pushpush.pynq as ppq
    from pushpush.pynq.accesses import counting
    from pushpush.runtime.backend import serve_thread

    yaml = _write_system(work / "system")
    log(f"callpath --board: loading {yaml} on the simulated board ({simulator})")
    ol = ppq.load(yaml, outdir=str(work / "overlay"), simulator=simulator)
    rows: list[dict[str, Any]] = []
    try:
        top = ol.system_top_0
        host = top.runtime("host", workers=0)
        linked = host.linked
        for kind, target, server in (("python -> rtl", "rtlf.f", None),
                                     ("python -> python", "peer.f", "peer")):
            srv = None
            if server is not None:
                srv = top.runtime(server, workers=0)
                srv.export("f", lambda x: x + 1)
            fn = host.imports[target]
            stop = threading.Event()
            with counting(host.backend) as hlog:
                if srv is not None:
                    with counting(srv.backend) as slog:
                        t = threading.Thread(target=serve_thread(lambda: _serve(srv, stop)), daemon=True)
                        t.start()
                        time.sleep(0.05)
                        slog.clear()
                        hlog.clear()
                        for i in range(calls):
                            fn(i)
                        stop.set()
                        t.join(10)
                        sweeps = _sweeps(slog, linked.component(server))
                else:
                    for i in range(calls):
                        fn(i)
            polls = calls + hlog.wakes   # one look per call, one more after each wait
            rows.append({"kind": kind, "side": "caller (python)", **_side(hlog, calls, polls)})
            if srv is not None:
                rows.append({"kind": kind, "side": "callee (python)", **_side(slog, calls, sweeps)})
                rows.append({"kind": "python -> c", "side": "caller (python)", **_side(hlog, calls, polls),
                             "note": "as python -> python's caller side (the C side: bench calls' A9 model)"})
        callee = top.runtime("callee0", workers=0)
        callee.export("f", lambda x: x + 1)
        run = host.imports["caller0.run"]
        stop = threading.Event()
        with counting(callee.backend) as clog:
            t = threading.Thread(target=serve_thread(lambda: _serve(callee, stop)), daemon=True)
            t.start()
            run(2)
            clog.clear()
            run(calls)
            stop.set()
            t.join(10)
            sweeps = _sweeps(clog, linked.component("callee0"))
        rows.append({"kind": "rtl -> python", "side": "callee (python)", **_side(clog, calls, sweeps)})
    finally:
        ol.free()
    return rows


def _serve(rt: Any, stop: threading.Event) -> None:
    """A serve loop of the counted runtime in this thread: sweep, then wait (the backend's
    sleep: its wake-ups are counted)."""
    while not stop.is_set():
        if not rt.poll():
            rt.backend.sleep()


def _sweeps(log: Any, comp: Any) -> int:
    """A serving runtime's sweeps: reads of its whole window."""
    return sum(1 for a in log.log if a.op == "r" and a.address == comp.base and a.words == comp.words_used)


def board_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per call kind: the accesses of one call at one wake-up per side, and the estimate."""
    from pushpush.pynq.accesses import estimate_calls_per_s

    out = []
    for kind in ("python -> rtl", "rtl -> python", "python -> python", "python -> c"):
        sides = [r for r in rows if r["kind"] == kind]
        if not sides:
            continue
        n = sum(r["fixed_per_call"] + 1 for r in sides)
        c, lo, hi = estimate_calls_per_s(n)
        out.append({"kind": kind, "accesses": round(n, 2),
                    "detail": "; ".join(f"{r['side']}: {r['fixed_per_call']:g} + 1 wake" for r in sides),
                    "calls_per_s": round(c), "calls_per_s_low": round(lo), "calls_per_s_high": round(hi)})
    return out


def format_accesses(rows: list[dict[str, Any]]) -> str:
    """The counts and the estimate as text tables."""
    from pushpush.pynq.accesses import ACCESS_SOURCE, ACCESS_US, ACCESS_US_RANGE

    head = ("kind", "side", "accesses/call", "wakes/call", "fixed/call", "gp0 r", "gp0 w", "ps r",
            "ps w", "words/call")
    keys = ("kind", "side", "accesses_per_call", "wakes_per_call", "fixed_per_call", "gp0_reads",
            "gp0_writes", "ps_reads", "ps_writes", "words_per_call")
    est = board_rows(rows)
    ehead = ("kind", "accesses/call (1 wake/side)", "per side", "est. calls/s on a PYNQ-Z1 (range)")
    ebody = [(r["kind"], str(r["accesses"]), r["detail"],
              f"{r['calls_per_s']:,} ({r['calls_per_s_low']:,}-{r['calls_per_s_high']:,})") for r in est]
    lo, hi = ACCESS_US_RANGE
    return "\n".join([
        "Python on the board: uncached accesses per int f(int) call (simulated board, the board's "
        "PynqBackend code against PYNQ's MMIO; one access = one Python-level load or store)",
        _table(head, [[str(r.get(k, "")) for k in keys] for r in rows]),
        "",
        f"PYNQ-Z1 estimate: {ACCESS_US:g} us per access ({lo:g}-{hi:g} us: 5,600 MMIO.write in "
        f"150-200 ms, {ACCESS_SOURCE}); the accesses only, so an upper bound (the runtime's "
        "other Python work per call comes on top)",
        _table(ehead, ebody)])


def _table(head: Any, body: Any) -> str:
    body = [list(map(str, b)) for b in body]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    return "\n".join([fmt.format(*head), fmt.format(*("-" * w for w in widths))] + [fmt.format(*b) for b in body])
