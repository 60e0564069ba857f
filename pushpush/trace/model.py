"""The trace model: calls joined to their returns, nested under the call that caused them.

Times are clock cycles of the PL (exact on the simulated board). A :class:`Call` is one
PushPush call seen end to end: its call burst (first beat, trigger), the moment the callee
took it (an RTL module's valid and ready, a software callee entering its function), the
result (the module's result valid and ready, the software callee leaving), the return burst
(its status word) and, for a software caller, the moment it saw the reply. A :class:`Span`
is any other activity with a duration (a DMA transfer, a channel send) and bytes moved; a
:class:`Counter` is one sample of a named value (outstanding calls, fault counters).

Nesting (:func:`nest`): a call issued by component X while a call *into* X is open (between
its taking and its return) nests under that call: the FIR's ``coeff()`` calls under
``fir.fir``.

Example::

    t = Trace(clock_mhz=100.0, start=0, end=40)
    t.calls.append(Call(id=1, caller="caller", callee="callee", function="callee.f",
                        issued=10, trigger=11, taken=13, result=14, returned=16))
    nest(t)
"""

from __future__ import annotations

from dataclasses import dataclass, field, asdict
from typing import Any, Optional

__all__ = ["Call", "Span", "Counter", "Trace", "nest", "CALL_FIELDS"]

#: The cycle fields of a call, in the order they happen.
CALL_FIELDS = ("issued", "trigger", "taken", "result", "returned", "seen")


@dataclass
class Call:
    """One call. ``function`` is ``callee.export`` (or ``callee.@<trigger address>`` for a
    function value whose export is unknown); ``caller`` and ``callee`` are component names
    (tracks). Cycle fields that were not observed are None: ``issued`` is an RTL caller's
    module handshake (its call port's valid and ready) or the call burst's first beat,
    ``seen`` an RTL caller's module taking the result or a software caller seeing the reply.
    ``bytes`` counts the words on the wire (arguments, trigger, result, status) and the
    bytes its buffer parameters' DMA engine moved."""

    id: int
    caller: str
    callee: str
    function: str
    issued: Optional[int] = None
    trigger: Optional[int] = None
    taken: Optional[int] = None
    result: Optional[int] = None
    returned: Optional[int] = None
    seen: Optional[int] = None
    status: Optional[int] = None
    one_way: bool = False
    parent: Optional[int] = None
    bytes: int = 0
    source: str = "wire"       # "wire" (the simulated board's monitor) or "software"

    @property
    def start(self) -> Optional[int]:
        """The first cycle of the call (issued, else the trigger)."""
        return self.issued if self.issued is not None else self.trigger

    @property
    def end(self) -> Optional[int]:
        """The last cycle of the call: the caller has the result (an RTL caller's module
        took it, a software caller saw the reply), else its return burst's status word."""
        return self.seen if self.seen is not None else self.returned

    @property
    def latency(self) -> Optional[int]:
        """Cycles from :attr:`start` to :attr:`end`: the call as its caller sees it (None if
        either was not observed)."""
        s, e = self.start, self.end
        return None if s is None or e is None else e - s

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Span:
    """An activity with a duration on a track: ``kind`` "dma" (a transfer of an engine),
    "send" (a channel send), "busy" (a callee's module busy) ...; ``call`` the call it
    belongs to, if known."""

    track: str
    name: str
    kind: str
    start: int
    end: int
    bytes: int = 0
    call: Optional[int] = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Counter:
    """One sample of counter ``name`` (of ``track``, a component or "system") at ``cycle``."""

    track: str
    name: str
    cycle: int
    value: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Trace:
    """A recording: calls, spans and counter samples between cycles ``start`` and ``end``,
    at ``clock_mhz``; ``components`` in track order (name -> kind); ``meta`` free notes (the
    system, how it was recorded)."""

    clock_mhz: float
    start: int = 0
    end: int = 0
    components: dict[str, str] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    counters: list[Counter] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def call(self, call_id: int) -> Call:
        for c in self.calls:
            if c.id == call_id:
                return c
        raise KeyError(f"no call {call_id} in the trace")

    def children(self, call_id: int) -> list[Call]:
        """The calls nested directly under call ``call_id``."""
        return [c for c in self.calls if c.parent == call_id]

    def outstanding(self) -> list[tuple[int, int]]:
        """(cycle, calls open after it) at every change: a call is open from its start to
        its end (calls without both are left out)."""
        steps: dict[int, int] = {}
        for c in self.calls:
            if c.start is None or c.end is None:
                continue
            steps[c.start] = steps.get(c.start, 0) + 1
            steps[c.end] = steps.get(c.end, 0) - 1
        out, n = [], 0
        for cyc in sorted(steps):
            n += steps[cyc]
            out.append((cyc, n))
        return out


def _open_interval(c: Call) -> Optional[tuple[int, int]]:
    """The cycles during which call ``c`` is open at its callee (taken, else trigger, to
    the return, else the result, else the reply seen)."""
    lo = c.taken if c.taken is not None else c.trigger
    if lo is None:
        lo = c.issued
    hi = next((v for v in (c.returned, c.result, c.seen) if v is not None), None)
    if lo is None or hi is None:
        return None
    return lo, hi


def nest(trace: Trace) -> None:
    """Set every call's ``parent``: the innermost call into the call's caller that is open
    when the call is issued (see the module docstring). Calls keep a parent already set."""
    by_callee: dict[str, list[tuple[int, int, Call]]] = {}
    for c in trace.calls:
        iv = _open_interval(c)
        if iv is not None:
            by_callee.setdefault(c.callee, []).append((iv[0], iv[1], c))
    for c in trace.calls:
        if c.parent is not None or c.start is None:
            continue
        best: Optional[tuple[int, int, Call]] = None
        for lo, hi, p in by_callee.get(c.caller, ()):
            if p is c or not (lo <= c.start and (c.end is None or c.end <= hi)):
                continue
            if best is None or lo >= best[0]:
                best = (lo, hi, p)
        if best is not None:
            c.parent = best[2].id
