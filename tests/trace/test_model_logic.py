"""The trace model's decisions without a file: a call's start, end and latency when only some
of its moments were seen, which open call a call nests under, the outstanding-calls curve,
and the summary's figures (latency statistics, bytes, busy share, the printed table)."""

from __future__ import annotations

import pytest

from pushpush.trace import Call, Counter, Span, Trace, summarize
from pushpush.trace.model import nest
from pushpush.trace.summary import nearest_rank


def call(i: int, caller: str = "a", callee: str = "b", function: str = "b.f", **cycles: int) -> Call:
    return Call(id=i, caller=caller, callee=callee, function=function, **cycles)


def test_start_end_and_latency_use_what_was_seen() -> None:
    full = call(1, issued=10, trigger=12, taken=13, result=20, returned=22, seen=25)
    assert (full.start, full.end, full.latency) == (10, 25, 15)
    # no module handshake: the trigger starts it; no reply seen: the return's status ends it
    wire = call(2, trigger=12, taken=13, result=20, returned=22)
    assert (wire.start, wire.end, wire.latency) == (12, 22, 10)
    # a call seen at cycle 0 is timed from 0 (0 is a cycle, not "not seen")
    zero = call(3, issued=0, trigger=4, returned=0, seen=9)
    assert (zero.start, zero.end, zero.latency) == (0, 9, 9)
    assert call(4, trigger=0, returned=0).latency == 0
    # open (no return yet) or never issued: not timed
    assert call(5, issued=10, trigger=12).latency is None
    assert call(6, returned=22, seen=25).latency is None
    assert call(7, issued=1).as_dict()["issued"] == 1
    assert Counter(track="x", name="faults", cycle=3, value=2).as_dict() == {
        "track": "x", "name": "faults", "cycle": 3, "value": 2}
    assert Span(track="x", name="n", kind="dma", start=1, end=2).as_dict() == {
        "track": "x", "name": "n", "kind": "dma", "start": 1, "end": 2, "bytes": 0, "call": None}


def test_trace_finds_calls_and_children() -> None:
    t = Trace(clock_mhz=100.0)
    t.calls += [call(1), call(2, parent=1), call(3, parent=1), call(4, parent=2)]
    assert t.call(3).id == 3
    assert [c.id for c in t.children(1)] == [2, 3]
    assert t.children(4) == []
    with pytest.raises(KeyError, match="no call 9"):
        t.call(9)


def test_outstanding_counts_open_calls_at_every_change() -> None:
    t = Trace(clock_mhz=100.0)
    t.calls += [call(4, issued=50),                       # never ended: left out
                call(5, returned=60),                     # never started: left out
                call(3, issued=30, returned=35),          # starts when call 1 ends
                call(1, issued=10, returned=30), call(2, trigger=20, seen=40),
                call(6, issued=25, returned=40),          # ends with call 2
                call(7, issued=10, returned=12)]          # starts with call 1
    assert t.outstanding() == [(10, 2), (12, 1), (20, 2), (25, 3), (30, 3), (35, 2), (40, 0)]
    assert Trace(clock_mhz=1.0).outstanding() == []


def test_nest_under_the_innermost_open_call_into_the_caller() -> None:
    t = Trace(clock_mhz=100.0)
    t.calls += [
        # an earlier call into x, over before the others: no parent of theirs
        call(12, caller="host", callee="x", function="x.f", issued=0, taken=1, returned=3),
        call(1, caller="host", callee="x", function="x.f", issued=0, taken=10, returned=100),
        call(2, caller="host", callee="x", function="x.g", issued=0, taken=20, returned=90),
        # x calls y while both calls into x are open: the inner one (taken later) is its parent
        call(3, caller="x", callee="y", function="y.h", issued=30, returned=40),
        # y calls z inside call 3, whose taking was not seen (open from its trigger)
        call(4, caller="y", callee="z", function="z.k", issued=35, returned=38),
        # issued before any call into x was taken: no parent
        call(5, caller="x", callee="y", function="y.h", issued=5, returned=8),
        # runs past the end of call 2 (90) but inside call 1 (100)
        call(6, caller="x", callee="y", function="y.h", issued=50, returned=95),
        # still open at the end of the trace: nests by its start
        call(7, caller="x", callee="y", function="y.h", issued=60),
        # the issue cycle equals the taking of call 2 and the return equals its return
        call(8, caller="x", callee="y", function="y.h", issued=20, returned=90),
        # a parent set already is kept
        call(9, caller="x", callee="y", function="y.h", issued=30, returned=40, parent=1),
        # never started: left alone
        call(10, caller="x", callee="y", function="y.h", returned=40),
        # a call of x's own into x is not nested under itself
        call(11, caller="x", callee="x", function="x.f", issued=70, taken=70, returned=80),
    ]
    t.call(4).trigger = 33
    t.call(3).trigger = 31
    nest(t)
    parents = {c.id: c.parent for c in t.calls}
    assert parents == {1: None, 2: None, 3: 2, 4: 3, 5: None, 6: 1, 7: 2, 8: 2, 9: 1, 10: None,
                       11: 2, 12: None}


def test_of_calls_taken_in_the_same_cycle_the_later_one_is_the_inner() -> None:
    """Two calls into x taken in the same cycle, the second ending first: a call x makes
    inside both nests under the second (the inner one)."""
    t = Trace(clock_mhz=100.0)
    t.calls += [call(1, caller="host", callee="x", issued=0, taken=10, returned=100),
                call(2, caller="host", callee="x", issued=5, taken=10, returned=50),
                call(3, caller="x", callee="y", issued=20, returned=30)]
    nest(t)
    assert t.call(3).parent == 2


def test_a_callee_is_open_from_its_trigger_issue_or_to_its_result_or_reply() -> None:
    # which moments bound the call into x that the later calls of x nest under
    def parent_of(outer: Call, inner_issue: int, inner_end: int) -> object:
        t = Trace(clock_mhz=1.0)
        t.calls += [outer, call(2, caller="x", callee="y", issued=inner_issue, returned=inner_end)]
        nest(t)
        return t.call(2).parent

    only_issued = dict(caller="h", callee="x", issued=10)
    assert parent_of(call(1, **only_issued, returned=50), 10, 50) == 1
    assert parent_of(call(1, **only_issued, returned=50), 9, 20) is None
    assert parent_of(call(1, **only_issued, result=40), 20, 40) == 1
    assert parent_of(call(1, **only_issued, result=40), 20, 41) is None
    assert parent_of(call(1, **only_issued, seen=30), 20, 30) == 1
    assert parent_of(call(1, **only_issued, seen=30), 20, 31) is None
    # the return bounds it before the result, the result before the reply seen
    assert parent_of(call(1, **only_issued, returned=50, result=40, seen=60), 20, 50) == 1
    assert parent_of(call(1, **only_issued, result=40, seen=60), 20, 41) is None
    # the trigger bounds it before the issue, the taking before the trigger
    assert parent_of(call(1, caller="h", callee="x", issued=5, trigger=15, returned=50), 10, 20) is None
    assert parent_of(call(1, caller="h", callee="x", issued=5, trigger=15, returned=50), 15, 20) == 1
    assert parent_of(call(1, caller="h", callee="x", trigger=5, taken=15, returned=50), 10, 20) is None
    assert parent_of(call(1, caller="h", callee="x", trigger=5, taken=0, returned=50), 1, 20) == 1
    # never ended at the callee, or never started: nothing nests under it
    assert parent_of(call(1, caller="h", callee="x", issued=5), 10, 20) is None
    assert parent_of(call(1, caller="h", callee="x", returned=50), 10, 20) is None


def test_summary_figures() -> None:
    t = Trace(clock_mhz=50.0, start=100, end=300, components={"b": "rtl", "idle": "python"})
    lat = [7, 3, 9, 5]                                  # lower median 5, p99 9
    for i, n in enumerate(lat):
        t.calls.append(call(i + 1, issued=100 + 10 * i, returned=100 + 10 * i + n, bytes=8))
    t.calls.append(call(9, issued=200, bytes=4))         # open: counted, not timed
    t.calls.append(call(10, function="b.g", issued=0, returned=4, bytes=12))
    t.spans += [Span(track="dma HP0", name="read", kind="dma", start=110, end=130, bytes=64),
                Span(track="dma HP0", name="read", kind="dma", start=120, end=140, bytes=32),
                Span(track="b", name="send", kind="send", start=10, end=20, bytes=5)]
    s = summarize(t)
    f = s.functions["b.f"]
    assert (f.count, f.timed, f.min, f.median, f.p99, f.max, f.bytes) == (5, 4, 3, 5, 9, 9, 36)
    g = s.functions["b.g"]
    assert (g.count, g.timed, g.min, g.median, g.p99, g.max, g.bytes) == (1, 1, 4, 4, 4, 4, 12)
    assert s.window == 200 and s.clock_mhz == 50.0
    assert s.span_bytes == {"dma": 96, "send": 5}
    # the two DMA spans overlap: 110..140; the send span lies before the window
    assert s.busy == {"b": 0.0, "idle": 0.0, "dma HP0": pytest.approx(30 / 200)}
    assert s.text().splitlines() == [
        "trace: 200 cycles (4.00 us at 50 MHz)",
        "  function                  calls    min  median    p99    max     bytes   (latency in cycles)",
        "  b.f                           5      3       5      9      9        36",
        "  b.g                           1      4       4      4      4        12",
        "  dma transfers                                                       96",
        "  send transfers                                                       5",
        "  busy: b 0.0%, idle 0.0%, dma HP0 15.0%",
    ]


def test_summary_untimed_function_and_empty_window() -> None:
    t = Trace(clock_mhz=100.0, start=50, end=40)
    t.calls.append(call(1, issued=45, taken=46, result=48))
    s = summarize(t)
    f = s.functions["b.f"]
    assert (f.count, f.timed, f.min, f.median, f.p99, f.max) == (1, 0, None, None, None, None)
    assert s.window == 0 and s.busy == {"b": 0.0}
    assert "  b.f                           1      -       -      -      -         0" in s.text()


def test_busy_share_is_the_union_of_execution_and_spans_inside_the_window() -> None:
    t = Trace(clock_mhz=100.0, start=100, end=200, components={"x": "rtl"})
    t.calls += [call(11, callee="x", taken=50, result=80),        # before the window: 0
                call(1, callee="x", taken=90, result=110),        # 100..110 inside the window
                call(2, callee="x", taken=105, result=120),       # overlaps: 100..120
                call(3, callee="x", taken=120, result=130),       # touches: 100..130
                call(4, callee="x", taken=150, result=160),       # apart: +10
                call(5, callee="x", taken=155, result=158),       # inside call 4
                call(6, callee="x", taken=190, result=250),       # clipped at 200: +10
                call(7, callee="x", taken=170),                   # no result: not busy
                call(8, callee="x", result=175),                  # not taken: not busy
                call(9, callee="y", taken=0, result=100),         # before the window: 0
                call(10, callee="z", taken=200, result=230)]      # after it: 0
    t.spans.append(Span(track="x", name="dma", kind="dma", start=158, end=165))   # +5
    s = summarize(t)
    assert s.busy == {"x": pytest.approx(55 / 100), "y": 0.0, "z": 0.0}
    assert list(s.busy) == ["x", "y", "z"]


def test_median_is_the_lower_one_and_p99_the_nearest_rank() -> None:
    t = Trace(clock_mhz=1.0, start=0, end=1000)
    lat = list(range(1, 201))                   # 200 latencies: p99 is the 198th
    for i, n in enumerate(lat):
        t.calls.append(call(i, issued=0, returned=n))
    f = summarize(t).functions["b.f"]
    assert (f.min, f.median, f.p99, f.max) == (1, 100, 198, 200)
    assert nearest_rank([1, 2, 3], 0.01) == 1
    assert nearest_rank([1, 2, 3], 0.5) == 2
    assert nearest_rank([1, 2, 3], 1.0) == 3
    with pytest.raises(ValueError, match="no values"):
        nearest_rank([], 0.5)
