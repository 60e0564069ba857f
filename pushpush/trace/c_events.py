"""Events of C programs in a trace: the C runtime built with ``-DPP_TRACE`` notes call issued,
reply seen (or failed), callee entered and left into a ring (docs/c.md, "Tracing"); this
module reads those rings and merges their events into a :class:`~pushpush.trace.model.Trace`.

A ring is the memory ``pp_trace_ring`` of ``pp_runtime.h``: a 128-byte header (magic
``PPTRACE1``, sizes, ``head``: events noted so far, the clock, the component), then
``capacity`` events of 64 bytes. The Linux and simulated-board layers map it from the file
``$PUSHPUSH_TRACE_DIR/<component>-<pid>.ring``; on the simulated board
(:class:`~pushpush.pynq.simulated.c_programs.CAttach`) that folder is the simulator's run
folder's ``c-trace`` and the runtime notes events while ``with ol.trace()`` records (the
session word of the control page), stamped with the simulator's cycle.

An event is written whole before ``head`` counts it, so a ring read while its program runs,
or after it was killed, holds only whole events; a call cut by the kill (issued and never
seen, entered and never left) is left open: the wire's moments of that call stay, the C
side's missing moment is not invented.

Example::

    events = collect("run/c-trace", session=0x1234)
    merge(trace, events, sysmap)                 # after merge_software(trace, py_events)
    t = trace_from_rings("rings/", sysmap)       # a board: the C events alone
"""

from __future__ import annotations

import os
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

from .decode import SystemView
from .model import Call, Trace, nest

__all__ = ["CEvent", "Ring", "RingError", "read_ring", "collect", "prune", "merge",
           "trace_from_rings", "HEADER", "EVENT", "KINDS", "NO_CYCLE", "RING_DIR"]

#: The ring header (pp_trace_ring): magic, header bytes, event bytes, capacity, pid, head,
#: drained, clock, reserved, component.
HEADER = struct.Struct("<8sIIIIQQII32s48x")
#: One event (pp_trace_event): cycle, us, addr, word, status, session, kind, depth,
#: reserved, code, name.
EVENT = struct.Struct("<QQIIIIBBHi24s")
MAGIC = b"PPTRACE1"
#: Event kinds by their number in the ring (PP_TRACE_*).
KINDS = {1: "issued", 2: "seen", 3: "entered", 4: "left", 5: "failed"}
#: Where a ring's cycles come from (PP_TRACE_CLOCK_*).
CLOCKS = {0: "none", 1: "counter", 2: "simboard"}
#: A cycle the platform could not read (PP_TRACE_NO_CYCLE).
NO_CYCLE = (1 << 64) - 1
#: The folder of the simulated board's run folder where attached C programs put their rings.
RING_DIR = "c-trace"


class RingError(ValueError):
    """A ring file is not a ring of this format (the message names the file and why)."""


@dataclass
class CEvent:
    """One event of a C runtime. ``cycle`` is None when its platform had no cycle counter;
    ``addr`` the cep slot called (its first word), ``word`` the trigger word (the caller's
    rep, SEQ bit 1, one-way bit 0), ``status`` the status word seen or answered."""

    kind: str
    cycle: Optional[int]
    us: int
    component: str
    pid: int
    addr: int
    word: int
    status: int
    session: int
    depth: int
    code: int
    name: str

    @property
    def seq(self) -> int:
        return (self.word >> 1) & 1


@dataclass
class Ring:
    """A ring read back: its events (oldest first) and how many were overwritten before."""

    path: Path
    component: str
    pid: int
    clock: str
    capacity: int
    head: int
    lost: int
    events: list[CEvent] = field(default_factory=list)


def _pid_of(path: Path) -> int:
    tail = path.stem.rpartition("-")[2]
    return int(tail) if tail.isdigit() else 0


def read_ring(path: Union[str, Path]) -> Optional[Ring]:
    """The ring in file ``path``; None while its program has not set it up yet (no magic).
    :class:`RingError` for a file of another format."""
    p = Path(path)
    with open(p, "rb") as f:
        head1 = f.read(HEADER.size)
        if len(head1) < HEADER.size:
            if not head1.strip(b"\0"):
                return None
            raise RingError(f"{p}: {len(head1)} bytes, shorter than a ring header ({HEADER.size})")
        magic, hbytes, ebytes, cap, pid, h1, _drained, clock, _r, comp = HEADER.unpack(head1)
        if magic != MAGIC:
            if not magic.strip(b"\0"):
                return None
            raise RingError(f"{p}: not a pushpush trace ring (magic {magic!r}, expected {MAGIC!r})")
        if hbytes != HEADER.size or ebytes != EVENT.size or cap == 0:
            raise RingError(f"{p}: header of {hbytes} bytes, events of {ebytes} bytes, capacity "
                            f"{cap}: this reader knows {HEADER.size}/{EVENT.size}-byte rings (rebuild "
                            "the C program with this pushpush's generated runtime)")
        body = f.read(cap * EVENT.size)
        if len(body) < cap * EVENT.size:
            raise RingError(f"{p}: {len(body)} bytes of events, the header says {cap} events "
                            f"({cap * EVENT.size} bytes)")
        f.seek(0)
        h2 = HEADER.unpack(f.read(HEADER.size))[5]
    # events [h1 - cap, h1) were whole when head said h1; the writer may have overwritten
    # the oldest ones while we read (up to event h2, and it may be writing event h2 into the
    # slot of event h2 - cap now): keep those after it
    first = max(0, h1 - cap, h2 - cap + 1)
    component = comp.split(b"\0", 1)[0].decode("utf-8", "replace")
    pid = pid or _pid_of(p)
    ring = Ring(p, component, pid, CLOCKS.get(clock, f"clock {clock}"), cap, h1, first)
    for i in range(first, h1):
        cyc, us, addr, word, status, session, kind, depth, _res, code, name = \
            EVENT.unpack_from(body, (i % cap) * EVENT.size)
        ring.events.append(CEvent(KINDS.get(kind, f"kind {kind}"), None if cyc == NO_CYCLE else cyc,
                                  us, component, pid, addr, word, status, session, depth, code,
                                  name.split(b"\0", 1)[0].decode("utf-8", "replace")))
    return ring


def _rings(folder: Union[str, Path]) -> list[Path]:
    d = Path(folder)
    return sorted(d.glob("*.ring")) if d.is_dir() else []


def collect(folder: Union[str, Path], session: Optional[int] = None) -> list[CEvent]:
    """The events of every ring in ``folder`` (ring after ring, each oldest first); with
    ``session``, only those noted while the session word was ``session`` (its low 32 bits)."""
    out: list[CEvent] = []
    for p in _rings(folder):
        ring = read_ring(p)
        if ring is None:
            continue
        for e in ring.events:
            if session is None or e.session == session & 0xFFFF_FFFF:
                out.append(e)
    return out


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def prune(folder: Union[str, Path]) -> int:
    """Remove the rings of programs that ended (their events were read, or belong to an
    earlier trace); returns how many."""
    n = 0
    for p in _rings(folder):
        if not _alive(_pid_of(p)):
            p.unlink(missing_ok=True)
            n += 1
    return n


# ------------------------------------------------------------------ merging


@dataclass
class _Pair:
    """A call as one C runtime saw it: issued .. seen (caller) or entered .. left (callee)."""

    component: str
    function: str
    begin: int
    end: Optional[int]
    word: int
    ok: bool = True


def _function_of(view: SystemView, addr: int, slots: dict[int, Any]) -> str:
    slot = slots.get(addr)
    if slot is not None:
        return f"{slot.component}.{slot.function}"
    comp = view.component_at(addr)
    return f"{comp or '?'}.@{addr:#x}"


def _pairs(events: Sequence[CEvent], view: SystemView) -> tuple[list[_Pair], list[_Pair], int]:
    """Caller pairs and callee pairs of ``events`` (per program, the events nest as its
    stack does: a call made while serving inside another call's wait ends first), and the
    events without a cycle."""
    slots = {s.address: s for s in view.by_trigger.values() if s.kind.startswith("cep")}
    calls: list[_Pair] = []
    execs: list[_Pair] = []
    stacks: dict[tuple[int, str, str], list[_Pair]] = {}
    no_cycle = 0
    for e in events:
        if e.cycle is None:
            no_cycle += 1
            continue
        fn = _function_of(view, e.addr, slots)
        if e.kind in ("issued", "entered"):
            p = _Pair(e.component, fn, e.cycle, None, e.word)
            stacks.setdefault((e.pid, e.component, e.kind), []).append(p)
            (calls if e.kind == "issued" else execs).append(p)
        else:
            st = stacks.get((e.pid, e.component, "entered" if e.kind == "left" else "issued"), [])
            for i in range(len(st) - 1, -1, -1):
                if st[i].function == fn and st[i].word == e.word:
                    p = st.pop(i)
                    p.end = max(e.cycle, p.begin)
                    p.ok = e.kind != "failed"
                    break
    return calls, execs, no_cycle


def merge(trace: Trace, events: Sequence[CEvent], sysmap: dict[str, Any],
          py_events: Iterable[Sequence[Any]] = ()) -> dict[str, int]:
    """Put C runtimes' ``events`` into ``trace`` (after
    :func:`pushpush.trace.session.merge_software` merged the Python runtime's): a C caller's
    issued/seen become the ``issued``/``seen`` of its wire call (``issued``: the runtime's
    event, at or before the first beat), a C callee's entered/left the ``taken``/``result``
    of the wire call into it; a C call with no wire call (into Python or C: shared memory)
    becomes a call of its own (``source: "software"``), and a software callee's entered/left
    (C, and Python's ``py_events``) fill the ``taken``/``result`` of such calls. Returns
    counts (events, matched, unmatched, no cycle), also put in ``trace.meta["c_events"]``."""
    view = SystemView(sysmap)
    calls, execs, no_cycle = _pairs(events, view)
    stats = {"events": len(events), "calls": 0, "execs": 0, "software_calls": 0, "unmatched": 0,
             "no_cycle": no_cycle}
    by_caller: dict[tuple[str, str], list[Call]] = {}
    by_callee: dict[tuple[str, str], list[Call]] = {}
    for c in sorted(trace.calls, key=lambda c: (c.trigger if c.trigger is not None else c.start or 0)):
        if c.source == "wire":
            by_caller.setdefault((c.caller, c.function), []).append(c)
            if c.taken is None:
                by_callee.setdefault((c.callee, c.function), []).append(c)
    used: set[int] = set()
    next_id = max((c.id for c in trace.calls), default=0) + 1
    for p in sorted(calls, key=lambda p: p.begin):
        if p.end is None or not p.ok:
            stats["unmatched"] += 1    # failed, or cut by the end of the trace or a kill
            continue
        match = next((c for c in by_caller.get((p.component, p.function), ())
                      if c.id not in used and (c.returned is None or c.returned >= p.begin)
                      and (c.trigger is None or c.trigger <= p.end)), None)
        if match is not None:
            used.add(match.id)
            first = match.start
            match.issued = p.begin if first is None else min(p.begin, first)
            match.seen = max(p.end, match.returned or 0)
            stats["calls"] += 1
        else:
            trace.calls.append(Call(id=next_id, caller=p.component, callee=p.function.split(".")[0],
                                    function=p.function, issued=p.begin, seen=p.end,
                                    one_way=bool(p.word & 1), source="software"))
            next_id += 1
            stats["software_calls"] += 1
    taken: set[int] = set()
    leftover: list[_Pair] = []
    for p in sorted(execs, key=lambda p: p.begin):
        match = next((c for c in by_callee.get((p.component, p.function), ())
                      if c.id not in taken and c.taken is None
                      and (c.returned is None or c.returned >= p.begin)), None)
        if match is None:
            leftover.append(p)
            continue
        taken.add(match.id)
        lo = match.trigger if match.trigger is not None else match.start or 0
        match.taken = max(p.begin, lo)
        if p.end is not None:
            match.result = max(p.end, match.taken)
            if match.returned is not None:
                match.result = min(match.result, match.returned)
                match.taken = min(match.taken, match.result)
        stats["execs"] += 1
    # calls between software components: their callee's entered/left, C's and Python's
    for kind, cyc, comp, name, _ns, address in py_events:
        if kind in ("entered", "left"):
            fn = f"{comp}.{str(name).split('.')[-1]}"
            if kind == "entered":
                leftover.append(_Pair(comp, fn, int(cyc), None, 0))
            else:
                open_ = [q for q in leftover if q.component == comp and q.function == fn and q.end is None
                         and q.word == 0]
                if open_:
                    open_[0].end = max(int(cyc), open_[0].begin)
    soft = sorted((c for c in trace.calls if c.source == "software" and c.taken is None),
                  key=lambda c: c.start or 0)
    for p in sorted(leftover, key=lambda p: p.begin):
        match = next((c for c in soft if c.taken is None and c.callee == p.component
                      and c.function == p.function and (c.start or 0) <= (p.end if p.end is not None else p.begin)
                      and (c.end is None or p.begin <= c.end)), None)
        if match is None:
            if p.word != 0:
                stats["unmatched"] += 1
            continue
        match.taken = max(p.begin, match.start or 0)
        if p.end is not None:
            match.result = max(p.end, match.taken)
            if match.seen is not None:
                match.result = min(match.result, match.seen)
                match.taken = min(match.taken, match.result)
        if p.word != 0:
            stats["execs"] += 1
    trace.meta["c_events"] = stats
    return stats


def trace_from_rings(folder: Union[str, Path], sysmap: dict[str, Any], *,
                     session: Optional[int] = None) -> Trace:
    """A trace of the C programs' events alone (a C program traced on a board, where no wire
    is recorded): their calls (issued to seen) and what their callees did (entered to left),
    joined where both sides are C. Cycles are the PL counter's (a ring without cycles is
    refused: build with the interrupt block in the system, which holds the counter)."""
    events = collect(folder, session)
    missing = sorted({e.component for e in events if e.cycle is None})
    if missing:
        raise RingError(f"the rings of {', '.join(missing)} in {folder} have no cycles (their "
                        "platform could not read the PL's cycle counter: the system needs the "
                        "interrupt block, and the program the PL mapped, pp_linux_open with a pl size)")
    view = SystemView(sysmap)
    cycles = [e.cycle for e in events if e.cycle is not None]
    trace = Trace(clock_mhz=view.clock_mhz, start=min(cycles, default=0), end=max(cycles, default=0),
                  components=dict(view.kinds), meta={"system": view.system, "source": "c runtime events",
                                                     "recorded": f"C runtime rings in {folder}"})
    merge(trace, events, sysmap)
    # a callee's execution with no traced caller (an RTL or Python caller): a call of its own
    calls, execs, _ = _pairs(events, view)
    joined = {(c.callee, c.function, c.taken) for c in trace.calls}
    next_id = max((c.id for c in trace.calls), default=0) + 1
    for p in execs:
        if p.end is None or (p.component, p.function, p.begin) in joined:
            continue
        caller = view.component_at(p.word & ~3) or "?"
        trace.calls.append(Call(id=next_id, caller=caller, callee=p.component, function=p.function,
                                trigger=p.begin, taken=p.begin, result=p.end, returned=p.end,
                                one_way=bool(p.word & 1), source="software"))
        next_id += 1
    nest(trace)
    return trace


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m pushpush.trace.c_events RINGS_DIR SYSTEM_MAP.json OUT.trace``: the trace
    of C programs traced on a board (``PUSHPUSH_TRACE_DIR=RINGS_DIR``), with its summary."""
    import argparse
    import json

    from .chrome import write_trace
    from .summary import summarize

    ap = argparse.ArgumentParser(prog="python -m pushpush.trace.c_events",
                                 description="trace file of C programs' trace rings (docs/c.md)")
    ap.add_argument("rings", help="the folder PUSHPUSH_TRACE_DIR named")
    ap.add_argument("sysmap", help="the system map (JSON) of the system the programs ran on")
    ap.add_argument("out", help="the trace file to write (Chrome trace-event JSON)")
    a = ap.parse_args(argv)
    try:
        trace = trace_from_rings(a.rings, json.loads(Path(a.sysmap).read_text()))
    except (RingError, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    write_trace(trace, a.out)
    print(summarize(trace).text())
    return 0


if __name__ == "__main__":
    # The documented command (docs/c.md, "Tracing"; docs/trace.md): the pushpush command has
    # no trace subcommand.
    raise SystemExit(main())
