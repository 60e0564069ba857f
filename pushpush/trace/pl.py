"""The PL trace buffer's software side (``trace:`` in the YAML, cores/trace): drain its ring
through the overlay's MMIO and turn its records into the trace model's calls (docs/trace.md,
"The PL trace buffer").

A record is a cycle in which events happened: its 64-bit timestamp (the buffer's cycle
counter, which starts with the interrupt block's at reset) and a mask whose bit k is event k
of the system map's ``trace.events``: every slot of every component, then every rtl user
module's handshakes. A cep slot's event is a call arriving (its ``trigger``), a rep slot's
the status word of a return into its component (its ``returned``); an export's ``take`` and
``result`` are the callee module taking the oldest call not yet taken and giving its result;
a call port's ``call`` is the caller module issuing the call its next trigger carries
(``issued``), ``reply`` the module taking the oldest returned result (``seen``). Calls
through a static cep slot name their caller (the slot's importer); a return into importer
X's rep slot of ``callee.f`` closes X's oldest open call of ``callee.f`` (else the oldest
open call of ``callee.f`` through a dynamic slot, whose caller it then names). Events of one
record are taken in bit order (slots before handshakes: a module takes a call in the cycle
its trigger is written at the earliest, and its reply in the cycle of the status word).

Example (a board or the simulated board, a system with ``trace: true``)::

    buf = PlTraceBuffer(read, write, sysmap)    # read(offset) / write(offset, value)
    buf.start()
    ...                                          # calls
    records = buf.drain()                        # [(cycle, mask), ...]
    trace = decode_pl(records, sysmap, start=0, end=records[-1][0])
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Union

from .chrome import write_trace
from .model import Call, Trace, nest
from .summary import Summary, summarize

__all__ = ["PlTraceBuffer", "PlTrace", "PlEvent", "decode_pl", "pl_events", "PlTraceError",
           "CONTROL", "INFO", "WP", "RP", "OVERFLOW", "CYCLES", "INFO_MAGIC"]

#: Register byte offsets of the page (cores/trace/README.md).
CONTROL, INFO, WP, RP, OVERFLOW, CYCLES = 0x00, 0x04, 0x08, 0x0C, 0x10, 0x18
#: Bits 31..16 of the info register.
INFO_MAGIC = 0x7071
ENABLE, CLEAR = 1, 2


class PlTraceError(RuntimeError):
    """The PL trace buffer is absent, not the one the map describes, or dropped records
    (the message says which and what to do)."""


def _int(v: Any) -> int:
    return int(v, 0) if isinstance(v, str) else int(v)


@dataclass(frozen=True)
class PlEvent:
    """Event k of the buffer: the trigger word of ``component``'s slot ``slot``."""

    component: str
    slot: int
    kind: str
    function: str
    address: int
    importer: Optional[str] = None
    param: Optional[str] = None     #: a rep_callback slot's function-typed parameter


def pl_events(sysmap: dict[str, Any]) -> list[PlEvent]:
    """The buffer's events, bit order, from a system map (JSON data) with a ``trace`` entry."""
    tr = sysmap.get("trace")
    if not tr:
        raise PlTraceError(f"system '{sysmap.get('system')}' has no PL trace buffer: add "
                           "'trace: true' to its YAML and rebuild it")
    importer = {(c["name"], s["index"]): s.get("importer")
                for c in sysmap.get("components", []) for s in c.get("slots", [])}
    param = {(c["name"], s["index"]): s.get("param")
             for c in sysmap.get("components", []) for s in c.get("slots", [])}
    out = []
    for e in tr["events"]:
        if "slot" in e:
            key = (e["component"], int(e["slot"]))
            out.append(PlEvent(e["component"], int(e["slot"]), e["kind"], e["function"],
                               _int(e["address"]), importer.get(key), param.get(key)))
        else:   # a module's handshake: take/result of an export, call/reply of a call port
            out.append(PlEvent(e["component"], -1, e["kind"], e["port"], 0))
    return out


class PlTraceBuffer:
    """The buffer's register page. ``read(offset)``/``write(offset, value)``: 32-bit
    accesses at byte offsets of the page (an overlay's MMIO, shifted to the page)."""

    def __init__(self, read: Callable[[int], int], write: Callable[[int, int], None],
                 sysmap: dict[str, Any]) -> None:
        self.read = read
        self.write = write
        self.events = pl_events(sysmap)
        tr = sysmap["trace"]
        self.depth = int(tr["depth"])
        self.ring = max(0x100, 16 * self.depth)
        self.rp = 0
        self.overflow = 0

    def check(self) -> None:
        """The page holds the buffer the map describes (its info register)."""
        info = int(self.read(INFO))
        want = (INFO_MAGIC << 16) | (len(self.events) << 8) | (self.depth.bit_length() - 1)
        if info != want:
            raise PlTraceError(f"the PL trace buffer's info register reads {info:#010x}, the "
                               f"system map describes {want:#010x} ({len(self.events)} events, "
                               f"{self.depth} records): the bitstream is not the one of this "
                               "map; rebuild and load it")

    def start(self) -> None:
        """Clear the pointers and the overflow count, then record."""
        self.check()
        self.write(CONTROL, CLEAR)
        self.write(CONTROL, ENABLE)
        self.rp = 0
        self.overflow = 0

    def stop(self) -> None:
        self.write(CONTROL, 0)

    def cycles(self) -> int:
        """The buffer's cycle counter (low word first: it latches the high word)."""
        low = int(self.read(CYCLES))
        return (int(self.read(CYCLES + 4)) << 32) | low

    def drain(self) -> list[tuple[int, int]]:
        """The records written since the last drain, oldest first, as ``(cycle, mask)``; the
        read pointer advances past them (the ring takes new records meanwhile).
        :attr:`overflow` is the count of records the full ring refused so far."""
        wp = int(self.read(WP))
        self.overflow = int(self.read(OVERFLOW))
        out = []
        for i in range(self.rp, wp):
            at = self.ring + 16 * (i % self.depth)
            w = [int(self.read(at + 4 * k)) for k in range(4)]
            out.append((w[0] | (w[1] << 32), w[2] | (w[3] << 32)))
        self.rp = wp
        self.write(RP, wp)
        return out


def decode_pl(records: list[tuple[int, int]], sysmap: dict[str, Any], *, start: int, end: int,
              offset: int = 0, overflow: int = 0) -> Trace:
    """The trace of the buffer's ``records`` (see the module docstring); ``offset`` is added
    to every cycle (to put them in another clock's numbering)."""
    events = pl_events(sysmap)
    kinds = {c["name"]: c["kind"] for c in sysmap.get("components", [])}
    trace = Trace(clock_mhz=float(sysmap.get("clock_mhz", 100)), start=start + offset,
                  end=end + offset, components=dict(kinds),
                  meta={"system": sysmap.get("system", "system"), "source": "pl",
                        "overflow": overflow})
    open_calls: dict[tuple[str, str], deque[Call]] = {}   # (caller, callee.f) -> calls
    open_dynamic: dict[str, deque[Call]] = {}              # callee.f -> calls, caller unknown
    untaken: dict[tuple[str, str], deque[Call]] = {}      # (callee, export) -> calls
    unresulted: dict[tuple[str, str], deque[Call]] = {}
    issued: dict[tuple[str, str], deque[int]] = {}        # (rtl caller, call port) -> cycles
    unseen: dict[tuple[str, str], deque[Call]] = {}       # (rtl caller, call port) -> calls
    # calls of function values (an rtl export's function-typed parameters): the call port
    # ``<export>_<param>`` of each, its issues not yet seen as a trigger, the calls waiting
    # for their status in the parameter's rep_callback slot
    cb_ports = {(e.component, f"{e.function}_{e.param}") for e in events if e.kind == "rep_callback"}
    cb_issued: deque[tuple[str, str, int]] = deque()      # (rtl caller, port, cycle), oldest first
    cb_open: dict[tuple[str, str], deque[Call]] = {}      # (rtl caller, port) -> calls
    next_id = 1

    def owner(comp: str, export: str) -> str:
        """Who lent a function value to ``comp``'s ``export``: the caller of its call being
        served (taken, no result yet), the usual lender; '?' if unknown."""
        q = unresulted.get((comp, export))
        return q[0].caller if q and q[0].caller != "?" else "?"

    for cyc, mask in records:
        cyc += offset
        k = 0
        while mask:
            if mask & 1:
                e = events[k]
                if e.kind.startswith("cep"):
                    function = f"{e.component}.{e.function}"
                    caller = e.importer if e.kind == "cep_static" and e.importer else "?"
                    c = Call(id=next_id, caller=caller, callee=e.component, function=function,
                             trigger=cyc, source="pl")
                    next_id += 1
                    trace.calls.append(c)
                    untaken.setdefault((e.component, e.function), deque()).append(c)
                    q_issued = issued.get((caller, function.replace(".", "_")))
                    if q_issued:   # the caller module's own handshake started the call
                        c.issued = q_issued.popleft()
                    if caller == "?" and e.kind == "cep_dynamic" and cb_issued:
                        # a function value an rtl module called (the oldest issue without its
                        # trigger yet): its caller is that module, its return comes back in
                        # the parameter's rep_callback slot
                        c.caller, port, c.issued = cb_issued.popleft()
                        cb_open.setdefault((c.caller, port), deque()).append(c)
                    elif caller == "?":
                        open_dynamic.setdefault(function, deque()).append(c)
                    else:
                        open_calls.setdefault((caller, function), deque()).append(c)
                elif e.kind == "rep_import":
                    q = open_calls.get((e.component, e.function))
                    got = q.popleft() if q else None
                    if got is None:
                        d = open_dynamic.get(e.function)
                        if d:
                            got = d.popleft()
                            got.caller = e.component
                    if got is not None:
                        got.returned = cyc
                        unseen.setdefault((e.component, e.function.replace(".", "_")),
                                          deque()).append(got)
                elif e.kind == "rep_callback":
                    port = f"{e.function}_{e.param}"
                    q = cb_open.get((e.component, port))
                    got = q.popleft() if q else None
                    if got is None:
                        # a function value whose trigger the buffer cannot see (a callable
                        # lent into a software run-time area): the call from the module's issue
                        # to this status word, named by the parameter
                        cyc0 = None
                        for i, (comp, p, t) in enumerate(cb_issued):
                            if (comp, p) == (e.component, port):
                                cyc0 = t
                                del cb_issued[i]
                                break
                        if cyc0 is not None:
                            who = owner(e.component, e.function)
                            got = Call(id=next_id, caller=e.component, callee=who,
                                       function=f"{who}.@{e.param}", issued=cyc0, source="pl")
                            next_id += 1
                            trace.calls.append(got)
                    if got is not None:
                        got.returned = cyc
                        unseen.setdefault((e.component, port), deque()).append(got)
                elif e.kind == "take":
                    q = untaken.get((e.component, e.function))
                    if q:
                        c = q.popleft()
                        c.taken = cyc
                        unresulted.setdefault((e.component, e.function), deque()).append(c)
                elif e.kind == "result":
                    q = unresulted.get((e.component, e.function))
                    if q:
                        q.popleft().result = cyc
                elif e.kind == "call" and (e.component, e.function) in cb_ports:
                    cb_issued.append((e.component, e.function, cyc))
                elif e.kind == "call":
                    issued.setdefault((e.component, e.function), deque()).append(cyc)
                elif e.kind == "reply":
                    q = unseen.get((e.component, e.function))
                    if q:
                        q.popleft().seen = cyc
            mask >>= 1
            k += 1
    # calls decoded at their return (a function value seen only by its status) go where
    # they started
    trace.calls.sort(key=lambda c: (c.start if c.start is not None else c.returned or 0, c.id))
    nest(trace)
    return trace


class PlTrace:
    """``with ol.trace(path):`` from the PL trace buffer: start it on entering; on leaving
    drain it, decode and write the trace (and ``summary``). Raises :class:`PlTraceError`
    when the ring overflowed (``overflow`` records lost: a larger ``trace: {depth: N}`` or a
    shorter block) after writing what it kept."""

    def __init__(self, buffer: PlTraceBuffer, sysmap: dict[str, Any], path: Union[str, Path],
                 *, out: Optional[Callable[[str], None]] = None, offset: int = 0) -> None:
        self.buffer = buffer
        self.sysmap = sysmap
        self.path = Path(path)
        self.out = out
        self.offset = offset
        self.trace: Optional[Trace] = None
        self.summary: Optional[Summary] = None
        self.records: list[tuple[int, int]] = []
        self.start_cycle = 0
        self.wall_s = 0.0
        if not self.path.parent.is_dir():
            raise PlTraceError(f"{self.path}: its folder does not exist; create it or give "
                               "another path")

    def __enter__(self) -> "PlTrace":
        self.buffer.start()
        self.start_cycle = self.buffer.cycles()
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: Any) -> bool:
        end = self.buffer.cycles()
        self.buffer.stop()
        self.records = self.buffer.drain()
        self.wall_s = time.perf_counter() - self._t0
        trace = decode_pl(self.records, self.sysmap, start=self.start_cycle, end=end,
                          offset=self.offset, overflow=self.buffer.overflow)
        trace.meta.update(recorded="PL trace buffer (cores/trace)", wall_s=round(self.wall_s, 3))
        write_trace(trace, self.path)
        self.trace = trace
        self.summary = summarize(trace)
        if self.out is not None:
            self.out(self.summary.text())
        if self.buffer.overflow and exc[0] is None:
            raise PlTraceError(f"the PL trace buffer dropped {self.buffer.overflow} records (its "
                               f"ring of {self.buffer.depth} was full); {len(self.records)} kept "
                               f"are in {self.path}; use a larger 'trace: {{depth: N}}' or trace "
                               "fewer calls at a time")
        return False
