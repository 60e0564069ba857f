"""``with ol.trace("run.trace"):`` on the simulated board: start the wire monitor in the
simulator, record the Python runtime's events, and on leaving decode, merge and write the
trace (docs/trace.md).

:class:`BoardTrace` is given what it needs by the caller (:mod:`pushpush.pynq.simulated.trace`):
the control page and where its trace area is (``at``, :mod:`.wire_request`), the
simulator's run folder, a function that sends the simulator a request
(INFO: each request makes the simulator's loop turn, and a turn looks at the trace request),
the system map (JSON data), the clock (cycle) and the fault counters.

Example::

    with BoardTrace(ctl, rundir, info, sysmap, "run.trace", at=CTL_TRACE, cycle=...) as t:
        ol.callee.f(3)
    print(t.summary.text())
"""

from __future__ import annotations

import itertools
import json
import os
import struct
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Optional, Union

from . import c_events, software
from .chrome import write_trace
from .decode import SystemView, decode
from .model import Call, Counter, Trace, nest
from .wire_request import AREA, DONE, ERROR_FILE, RECORDS_FILE, REQUEST, REQUEST_FILE
from .summary import Summary, summarize

__all__ = ["BoardTrace", "TraceError", "merge_software"]

_sessions = itertools.count(1)
#: Requests (each a turn of the simulator's loop) within which the simulator must have
#: answered a trace request; two suffice (see :class:`BoardTrace`).
TURNS = 50


class TraceError(RuntimeError):
    """Tracing could not start or finish (the message says why and what to do)."""


def merge_software(trace: Trace, events: list[list[Any]]) -> None:
    """Put the runtime's events into ``trace``: a software callee's entered/left become the
    taken/result of its wire call (the oldest of that function not yet taken), a software
    caller's reply seen the ``seen`` of its call; issued/seen pairs with no wire call (a
    call between two software components) become calls of their own."""
    untaken: dict[tuple[str, str], deque[Call]] = {}
    unresulted: dict[tuple[str, str], deque[Call]] = {}
    unseen: dict[tuple[str, str], deque[Call]] = {}
    for c in sorted(trace.calls, key=lambda c: c.start or 0):
        fn = c.function.split(".")[-1]
        if trace.components.get(c.callee) != "rtl" and c.taken is None:
            untaken.setdefault((c.callee, fn), deque()).append(c)
        if trace.components.get(c.caller) not in (None, "rtl"):
            unseen.setdefault((c.caller, c.function), deque()).append(c)
    issued: dict[tuple[str, str], deque[list[Any]]] = {}
    next_id = max((c.id for c in trace.calls), default=0) + 1
    for kind, cyc, comp, name, _ns, address in events:
        fn = name.split(".")[-1]
        if kind == "entered":
            q = untaken.get((comp, fn))
            if not q:   # a lent function: its wire calls are named by the slot's address
                q = untaken.get((comp, f"@{address:#x}"))
                if q:   # named by the runtime (a lambda also by its slot)
                    q[0].function = f"{comp}.{fn}" + (f"@{address:#x}" if fn == "<lambda>" else "")
            if q:
                c = q.popleft()
                c.taken = max(cyc, c.trigger or 0)
                unresulted.setdefault((comp, fn), deque()).append(c)
        elif kind == "left":
            q = unresulted.get((comp, fn))
            if q:
                c = q.popleft()
                assert c.taken is not None
                c.result = max(cyc, c.taken)
                if c.returned is not None:
                    c.result = min(c.result, c.returned)
                    c.taken = min(c.taken, c.result)
        elif kind == "issued":
            issued.setdefault((comp, name), deque()).append([cyc])
        elif kind == "seen":
            q = unseen.get((comp, name))
            pending = issued.get((comp, name))
            began = pending.popleft()[0] if pending else None
            if q:
                c = q.popleft()
                c.seen = max(cyc, c.returned or 0)
            elif began is not None:   # no wire call: between software components
                trace.calls.append(Call(id=next_id, caller=comp, callee=name.split(".")[0],
                                        function=name, issued=began, seen=max(cyc, began),
                                        source="software"))
                next_id += 1


class BoardTrace:
    """See the module docstring. Leaving the block writes the trace to ``path`` even when
    the block raised (the trace then shows where it stood); ``summary`` and ``trace`` are
    set after it."""

    def __init__(self, ctl: Any, rundir: Path, request: Callable[[], Any], sysmap: dict[str, Any],
                 path: Union[str, Path], *, at: int, cycle: Callable[[], int],
                 counters: Optional[Callable[[], dict[str, dict[str, int]]]] = None,
                 out: Optional[Callable[[str], None]] = None) -> None:
        self.ctl = ctl
        self.at = at
        self.rundir = Path(rundir)
        self.request = request
        self.sysmap = sysmap
        self.path = Path(path)
        self.cycle = cycle
        self.counters_of = counters
        self.out = out
        self.session = 0
        self.trace: Optional[Trace] = None
        self.summary: Optional[Summary] = None
        self.wall_s = 0.0
        self._counters: list[Counter] = []
        if not self.path.parent.is_dir():
            raise TraceError(f"{self.path}: its folder does not exist; create it or give "
                             "another path")

    def _area(self) -> tuple[int, int, int, int, int]:
        return AREA.unpack_from(self.ctl, self.at)

    def _turn_until(self, done: Callable[[], bool], what: str) -> None:
        for _ in range(TURNS):
            if done():
                return
            self.request()
        if not done():
            raise TraceError(f"the simulator did not {what} within {TURNS} turns of its loop "
                             f"(control page trace area {self._area()}); its log: "
                             f"{self.rundir / 'sim.log'}")

    def _sample_counters(self, cyc: int) -> None:
        if self.counters_of is None:
            return
        for comp, cs in self.counters_of().items():
            for name, v in cs.items():
                self._counters.append(Counter(track=comp, name=name, cycle=cyc, value=int(v)))

    def __enter__(self) -> "BoardTrace":
        if self._area()[0]:
            raise TraceError("a trace is already recording on this simulated board: end its "
                             "'with ol.trace(...)' block first")
        for f in (RECORDS_FILE, ERROR_FILE):
            (self.rundir / f).unlink(missing_ok=True)
        view = SystemView(self.sysmap)
        (self.rundir / REQUEST_FILE).write_text(json.dumps({"components": view.rtl_ports()}))
        self.session = (os.getpid() << 20) | next(_sessions)
        struct.pack_into("<Q", self.ctl, self.at + REQUEST, self.session)
        self._turn_until(lambda: self._area()[1] in (self.session, self.session | DONE),
                         "start its wire monitor")
        if self._area()[4]:
            reason = (self.rundir / ERROR_FILE).read_text() if (self.rundir / ERROR_FILE).exists() else "?"
            struct.pack_into("<Q", self.ctl, self.at + REQUEST, 0)
            self.request()
            AREA.pack_into(self.ctl, self.at, 0, 0, 0, 0, 0)
            raise TraceError(f"the simulated board cannot trace: {reason}")
        self._t0 = time.perf_counter()
        self._sample_counters(self._area()[2])
        c_events.prune(self.rundir / c_events.RING_DIR)   # rings of C programs that ended
        software.start(self.cycle)
        return self

    def __exit__(self, *exc: Any) -> bool:
        events = software.stop()
        try:
            end_guess = self.cycle()
        except Exception:
            end_guess = self._area()[2]
        self._sample_counters(end_guess)
        struct.pack_into("<Q", self.ctl, self.at + REQUEST, 0)
        self._turn_until(lambda: self._area()[1] == self.session | DONE,
                         "stop its wire monitor and write its records")
        self.wall_s = time.perf_counter() - self._t0
        _, _, armed, stopped, failed = self._area()
        AREA.pack_into(self.ctl, self.at, 0, 0, 0, 0, 0)
        if failed:
            raise TraceError(f"the simulated board could not write the trace records: "
                             f"{(self.rundir / ERROR_FILE).read_text()}")
        records = json.loads((self.rundir / RECORDS_FILE).read_text())
        trace = decode(records, self.sysmap, start=armed, end=max(armed, stopped))
        trace.meta.update(recorded="simulated board, wire monitor + Python runtime events",
                          wall_s=round(self.wall_s, 3))
        merge_software(trace, events)
        c_events.merge(trace, c_events.collect(self.rundir / c_events.RING_DIR, self.session),
                       self.sysmap, events)   # C programs built with -DPP_TRACE (docs/c.md)
        for c in self._counters:
            c.cycle = min(max(c.cycle, trace.start), trace.end)
        trace.counters.extend(self._counters)
        nest(trace)
        write_trace(trace, self.path)
        self.trace = trace
        self.summary = summarize(trace)
        if self.out is not None:
            self.out(self.summary.text())
        return False
