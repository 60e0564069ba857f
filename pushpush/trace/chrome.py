"""The trace as Chrome trace-event JSON (what Perfetto's UI and chrome://tracing open), and
back.

Why this format and not the ``perfetto`` package's protobuf: it needs no dependency, it is
text a test (or a user) can read, Perfetto's UI opens it as it is (slices, flows, counters,
named tracks), and the figures a PushPush trace has (integer cycles, a few thousand calls)
are far from the sizes where the protobuf's compactness matters.

Layout (one process, the system; one thread per component, more "lanes" of a component
where its slices overlap without nesting, e.g. pipelined calls):

* ``X`` slices, category ``call``, on the caller's track: ``-> callee.f`` from the call's
  first beat to its return's status word; args ``call`` holds the whole :class:`Call`
  (cycles exact);
* ``X`` slices, category ``exec``, on the callee's track: ``callee.f`` from the moment the
  callee took the call to its result;
* ``X`` slices of :class:`Span` (category = the span's kind: ``dma``, ``send``);
* flows (``s``/``f``, ``bp: e``): category ``call`` from the call to its taking at the
  callee, category ``return`` from the result back to the caller's return; the flow id is
  the call id;
* counters (``C``): ``outstanding calls`` at every change, and every :class:`Counter`
  sample (fault counters);
* ``otherData.pushpush``: clock, window, components, notes: what :func:`read_trace` needs.

Times: ``ts``/``dur`` in microseconds (cycle / clock MHz), the cycles themselves in args.

Example::

    write_trace(trace, "run.trace")
    again = read_trace("run.trace")    # validated; the same calls, spans and counters
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Union

from .model import Call, Counter, Span, Trace

__all__ = ["to_chrome", "write_trace", "read_trace", "from_chrome", "validate",
           "TraceFormatError", "FORMAT"]

#: The format tag in ``otherData``.
FORMAT = "pushpush-trace/1"
_PID = 1
_PHASES = {"X", "B", "E", "i", "I", "C", "M", "s", "t", "f", "b", "e", "n"}
_LANES = 64   # tids per track: track i's lane j is tid 1 + i * _LANES + j


class TraceFormatError(ValueError):
    """A trace file that is not a valid pushpush Chrome trace (the message names the file
    and the event)."""


def _us(cycle: int, mhz: float) -> float:
    return cycle / mhz


def _lanes(intervals: list[tuple[int, int, int]]) -> dict[int, int]:
    """Lane of every (start, end, key): slices in one lane nest or are disjoint."""
    lanes: list[list[tuple[int, int]]] = []   # per lane: the stack of open intervals
    out: dict[int, int] = {}
    for s, e, key in sorted(intervals, key=lambda x: (x[0], -x[1], x[2])):
        for i, stack in enumerate(lanes):
            while stack and stack[-1][1] <= s:
                stack.pop()
            if not stack or stack[-1][1] >= e:
                stack.append((s, e))
                out[key] = i
                break
        else:
            lanes.append([(s, e)])
            out[key] = len(lanes) - 1
    return out


def to_chrome(trace: Trace) -> dict[str, Any]:
    """The trace-event document of ``trace`` (see the module docstring)."""
    mhz = trace.clock_mhz
    tracks = list(trace.components)
    for c in trace.calls:
        for t in (c.caller, c.callee):
            if t not in tracks:
                tracks.append(t)
    for s in trace.spans:
        if s.track not in tracks:
            tracks.append(s.track)
    # the slices per track, then their lanes
    slices: dict[str, list[tuple[int, int, int]]] = {t: [] for t in tracks}
    items: list[tuple[str, str, int, int, str, dict[str, Any]]] = []   # track, cat, s, e, name, args
    for c in trace.calls:
        if c.start is not None:
            end = c.end if c.end is not None else c.start
            items.append((c.caller, "call", c.start, end, f"-> {c.function}",
                          {"call": c.as_dict(), "cycles": end - c.start,
                           "open": c.end is None}))
        if c.taken is not None and c.result is not None:
            items.append((c.callee, "exec", c.taken, c.result, c.function,
                          {"call_id": c.id, "cycles": c.result - c.taken}))
    for s in trace.spans:
        items.append((s.track, s.kind, s.start, s.end, s.name,
                      {"span": s.as_dict(), "cycles": s.end - s.start, "bytes": s.bytes}))
    for k, (track, _, s, e, _, _) in enumerate(items):
        slices[track].append((s, e, k))
    lane_of: dict[int, int] = {}
    for track, ivs in slices.items():
        lane_of.update(_lanes(ivs))
    used: dict[tuple[int, int], str] = {}

    def tid(track: str, lane: int = 0) -> int:
        i = tracks.index(track)
        if lane >= _LANES:
            raise ValueError(f"more than {_LANES} overlapping slices on track {track!r}")
        t = 1 + i * _LANES + lane
        used[(i, lane)] = track if lane == 0 else f"{track} ({lane + 1})"
        return t

    events: list[dict[str, Any]] = []
    for k, (track, cat, s, e, name, args) in enumerate(items):
        events.append({"ph": "X", "cat": cat, "name": name, "pid": _PID,
                       "tid": tid(track, lane_of[k]), "ts": _us(s, mhz),
                       "dur": _us(e, mhz) - _us(s, mhz), "args": args})
    # flows: call -> taken, result -> return (bound to the enclosing slices)
    lane_by_call: dict[tuple[str, int], int] = {}
    for k, (track, cat, s, e, name, args) in enumerate(items):
        if cat == "call":
            lane_by_call[("call", args["call"]["id"])] = lane_of[k]
        elif cat == "exec":
            lane_by_call[("exec", args["call_id"])] = lane_of[k]
    for c in trace.calls:
        if c.start is None or ("exec", c.id) not in lane_by_call:
            continue
        caller_tid = tid(c.caller, lane_by_call[("call", c.id)])
        callee_tid = tid(c.callee, lane_by_call[("exec", c.id)])
        assert c.taken is not None and c.result is not None
        events.append({"ph": "s", "cat": "call", "name": "call", "id": c.id, "pid": _PID,
                       "tid": caller_tid, "ts": _us(c.start, mhz)})
        events.append({"ph": "f", "bp": "e", "cat": "call", "name": "call", "id": c.id,
                       "pid": _PID, "tid": callee_tid, "ts": _us(c.taken, mhz)})
        if c.end is not None and c.end >= c.result:
            events.append({"ph": "s", "cat": "return", "name": "return", "id": c.id,
                           "pid": _PID, "tid": callee_tid, "ts": _us(c.result, mhz)})
            events.append({"ph": "f", "bp": "e", "cat": "return", "name": "return",
                           "id": c.id, "pid": _PID, "tid": caller_tid, "ts": _us(c.end, mhz)})
    for cyc, n in trace.outstanding():
        events.append({"ph": "C", "name": "outstanding calls", "pid": _PID, "ts": _us(cyc, mhz),
                       "args": {"calls": n}})
    for cn in trace.counters:
        events.append({"ph": "C", "name": f"{cn.track}.{cn.name}", "pid": _PID,
                       "ts": _us(cn.cycle, mhz), "args": {cn.name: cn.value},
                       "cat": "counter"})
    meta = [{"ph": "M", "name": "process_name", "pid": _PID,
             "args": {"name": f"pushpush {trace.meta.get('system', 'system')}"}}]
    for (i, lane), name in sorted(used.items()):
        t = 1 + i * _LANES + lane
        meta.append({"ph": "M", "name": "thread_name", "pid": _PID, "tid": t,
                     "args": {"name": name}})
        meta.append({"ph": "M", "name": "thread_sort_index", "pid": _PID, "tid": t,
                     "args": {"sort_index": t}})
    return {"traceEvents": meta + events, "displayTimeUnit": "ns",
            "otherData": {"format": FORMAT, "clock_mhz": mhz, "start": trace.start,
                          "end": trace.end, "components": dict(trace.components),
                          "meta": trace.meta}}


def write_trace(trace: Trace, path: Union[str, Path]) -> Path:
    """Write ``trace`` to ``path`` (Chrome trace-event JSON); written to a temporary file
    first, so a failure leaves no half-written trace. Returns the path."""
    p = Path(path)
    doc = to_chrome(trace)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
    tmp.replace(p)
    return p


def _fail(where: str, what: str) -> "TraceFormatError":
    return TraceFormatError(f"{where}: {what}")


def validate(doc: Any, where: str = "trace") -> None:
    """Check ``doc`` against the trace-event format as Perfetto reads it (JSON object form)
    and against this module's layout; raises :class:`TraceFormatError` naming the event."""
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise _fail(where, "not a trace-event document: expected an object with a "
                           "'traceEvents' list")
    other = doc.get("otherData")
    if not isinstance(other, dict) or other.get("format") != FORMAT:
        raise _fail(where, f"otherData.format is not {FORMAT!r}: not written by pushpush.trace")
    mhz = other.get("clock_mhz")
    if not isinstance(mhz, (int, float)) or mhz <= 0:
        raise _fail(where, "otherData.clock_mhz must be a positive number")
    flows: dict[tuple[str, Any], list[str]] = {}
    per_tid: dict[int, list[tuple[float, float, int]]] = {}
    names: set[int] = set()
    for i, e in enumerate(doc["traceEvents"]):
        at = f"{where}: traceEvents[{i}]"
        if not isinstance(e, dict):
            raise TraceFormatError(f"{at}: not an object")
        ph = e.get("ph")
        if ph not in _PHASES:
            raise TraceFormatError(f"{at}: unknown phase {ph!r}")
        if not isinstance(e.get("name"), str):
            raise TraceFormatError(f"{at}: 'name' must be a string")
        if not isinstance(e.get("pid"), int):
            raise TraceFormatError(f"{at}: 'pid' must be an integer")
        if ph == "M":
            if not isinstance(e.get("args"), dict):
                raise TraceFormatError(f"{at}: metadata without args")
            if e["name"] == "thread_name":
                names.add(e.get("tid"))
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or not math.isfinite(ts) or ts < 0:
            raise TraceFormatError(f"{at}: 'ts' must be a finite number >= 0")
        if ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not all(isinstance(v, (int, float)) for v in args.values()):
                raise TraceFormatError(f"{at}: a counter needs numeric args")
            continue
        if not isinstance(e.get("tid"), int):
            raise TraceFormatError(f"{at}: 'tid' must be an integer")
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                raise TraceFormatError(f"{at}: a complete event needs 'dur' >= 0")
            per_tid.setdefault(e["tid"], []).append((ts, ts + dur, i))
        if ph in ("s", "t", "f"):
            if "id" not in e:
                raise TraceFormatError(f"{at}: a flow event needs an 'id'")
            flows.setdefault((e.get("cat", ""), e["id"]), []).append(ph)
    for key, phases in flows.items():
        if phases.count("s") != 1 or phases.count("f") != 1:
            raise _fail(where, f"flow {key}: needs exactly one start and one finish, has "
                               f"{phases}")
    eps = 1e-9
    for t, ivs in per_tid.items():
        if t not in names:
            raise _fail(where, f"thread {t} has slices but no thread_name")
        stack: list[tuple[float, float, int]] = []
        for s, e, i in sorted(ivs, key=lambda x: (x[0], -x[1])):
            while stack and stack[-1][1] <= s + eps:
                stack.pop()
            if stack and e > stack[-1][1] + eps:
                raise _fail(where, f"traceEvents[{i}] overlaps traceEvents[{stack[-1][2]}] on "
                                   f"thread {t} without nesting (Perfetto would cut it)")
            stack.append((s, e, i))


def from_chrome(doc: dict[str, Any], where: str = "trace") -> Trace:
    """The :class:`Trace` in a validated document (:func:`validate` first)."""
    validate(doc, where)
    other = doc["otherData"]
    mhz = float(other["clock_mhz"])
    t = Trace(clock_mhz=mhz, start=int(other.get("start", 0)), end=int(other.get("end", 0)),
              components=dict(other.get("components", {})), meta=dict(other.get("meta", {})))
    for i, e in enumerate(doc["traceEvents"]):
        args = e.get("args") or {}
        if e["ph"] == "X" and e.get("cat") == "call":
            try:
                c = Call(**args["call"])
            except (KeyError, TypeError) as exc:
                raise _fail(where, f"traceEvents[{i}]: a call slice without a valid args.call "
                                   f"({exc})") from None
            if c.start is None or abs(e["ts"] * mhz - c.start) > 1e-3:
                raise _fail(where, f"traceEvents[{i}]: ts {e['ts']} does not match the call's "
                                   f"first cycle {c.start} at {mhz} MHz")
            t.calls.append(c)
        elif e["ph"] == "X" and "span" in args:
            t.spans.append(Span(**args["span"]))
        elif e["ph"] == "C" and e.get("cat") == "counter":
            (name, value), = args.items()
            track = e["name"][:-len(name) - 1]
            t.counters.append(Counter(track=track, name=name, cycle=round(e["ts"] * mhz),
                                      value=int(value)))
    t.calls.sort(key=lambda c: c.id)
    return t


def read_trace(path: Union[str, Path]) -> Trace:
    """Load and validate the trace file ``path``: the :class:`Trace` it holds."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TraceFormatError(f"{p}: no such trace file") from None
    except json.JSONDecodeError as e:
        raise TraceFormatError(f"{p}:{e.lineno}:{e.colno}: not JSON: {e.msg}") from None
    return from_chrome(doc, str(p))
