"""The trace model, its Chrome trace-event file (written, read back, validated) and the
summary (its figures equal those computed from the file's events)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from pushpush.trace import Call, Counter, Span, Trace, TraceFormatError, read_trace, summarize, write_trace
from pushpush.trace.model import nest
from pushpush.trace.summary import nearest_rank


def fir_like() -> Trace:
    t = Trace(clock_mhz=100.0, start=0, end=200, components={"fir": "rtl", "host": "python"},
              meta={"system": "audio_fir"})
    t.calls.append(Call(id=1, caller="host", callee="fir", function="fir.fir", issued=5, trigger=8,
                        taken=10, result=150, returned=156, bytes=40))
    for i in range(5):
        b = 20 + 20 * i
        t.calls.append(Call(id=2 + i, caller="fir", callee="host", function="host.coeff",
                            issued=b, trigger=b + 1, taken=b + 3, result=b + 6 + i,
                            returned=b + 8 + i, bytes=16))
    # two calls of one caller that overlap without nesting: pipelined
    t.calls.append(Call(id=10, caller="host", callee="fir", function="fir.fir", issued=160,
                        trigger=161, taken=163, result=170, returned=175))
    t.calls.append(Call(id=11, caller="host", callee="fir", function="fir.fir", issued=165,
                        trigger=166, taken=171, result=180, returned=185))
    t.spans.append(Span(track="fir", name="dma read", kind="dma", start=30, end=60, bytes=256, call=1))
    t.counters.append(Counter(track="fir", name="collisions", cycle=0, value=0))
    t.counters.append(Counter(track="fir", name="collisions", cycle=200, value=2))
    nest(t)
    return t


def test_nesting_puts_callbacks_under_the_call_that_caused_them() -> None:
    t = fir_like()
    assert [c.id for c in t.children(1)] == [2, 3, 4, 5, 6]
    assert t.call(10).parent is None and t.call(11).parent is None


def test_written_file_is_read_back_the_same(tmp_path: Path) -> None:
    t = fir_like()
    p = write_trace(t, tmp_path / "run.trace")
    r = read_trace(p)
    assert [c.as_dict() for c in r.calls] == [c.as_dict() for c in t.calls]
    assert r.spans == t.spans and r.counters == t.counters
    assert (r.start, r.end, r.clock_mhz, r.components) == (t.start, t.end, t.clock_mhz, t.components)


def test_file_layout_slices_flows_counters(tmp_path: Path) -> None:
    p = write_trace(fir_like(), tmp_path / "run.trace")
    doc = json.loads(p.read_text())
    ev = doc["traceEvents"]
    calls = [e for e in ev if e["ph"] == "X" and e["cat"] == "call"]
    execs = [e for e in ev if e["ph"] == "X" and e["cat"] == "exec"]
    assert len(calls) == 8 and len(execs) == 8
    threads = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    # the coeff() calls are on fir's own track, inside fir.fir's slice there
    fir_exec = next(e for e in execs if e["args"]["call_id"] == 1)
    for c in calls:
        if c["args"]["call"]["parent"] == 1:
            assert threads[c["tid"]] == "fir" and c["tid"] == fir_exec["tid"]
            assert fir_exec["ts"] <= c["ts"] and c["ts"] + c["dur"] <= fir_exec["ts"] + fir_exec["dur"]
    # the overlapping pipelined calls went to a second lane of host
    lanes = {threads[c["tid"]] for c in calls if c["args"]["call"]["id"] in (10, 11)}
    assert lanes == {"host", "host (2)"}
    starts = [e for e in ev if e["ph"] == "s"]
    finishes = [e for e in ev if e["ph"] == "f"]
    assert len(starts) == len(finishes) == 16   # call -> taken and result -> return, per call
    assert all(f["bp"] == "e" for f in finishes)
    assert [e["args"] for e in ev if e["ph"] == "C" and e["name"] == "fir.collisions"] == [
        {"collisions": 0}, {"collisions": 2}]
    outstanding = [e["args"]["calls"] for e in ev if e["name"] == "outstanding calls"]
    assert max(outstanding) == 2 and outstanding[-1] == 0


def test_summary_equals_figures_computed_from_the_file(tmp_path: Path) -> None:
    p = write_trace(fir_like(), tmp_path / "run.trace")
    doc = json.loads(p.read_text())
    mhz = doc["otherData"]["clock_mhz"]
    lat: dict[str, list[int]] = {}
    nbytes: dict[str, int] = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "X" and e["cat"] == "call":
            lat.setdefault(e["name"][3:], []).append(round(e["dur"] * mhz))
            nbytes[e["name"][3:]] = nbytes.get(e["name"][3:], 0) + e["args"]["call"]["bytes"]
    s = summarize(read_trace(p))
    for name, v in lat.items():
        f = s.functions[name]
        v.sort()
        assert (f.count, f.min, f.max, f.bytes) == (len(v), v[0], v[-1], nbytes[name])
        assert f.median == statistics.median_low(v)
        assert f.p99 == v[-(-99 * len(v) // 100) - 1]
    # fir executes fir.fir 10..150 and the pipelined calls 163..170, 171..180 (the DMA span
    # inside): 140 + 7 + 9 = 156 of 200 cycles
    assert s.busy["fir"] == pytest.approx(156 / 200)
    assert s.busy["host"] == pytest.approx(sum(3 + i for i in range(5)) / 200)
    assert s.span_bytes == {"dma": 256}
    assert "host.coeff" in s.text()


def test_nearest_rank() -> None:
    assert nearest_rank(list(range(1, 101)), 0.99) == 99
    assert nearest_rank([7], 0.99) == 7
    with pytest.raises(ValueError):
        nearest_rank([], 0.5)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop("traceEvents"), "traceEvents"),
    (lambda d: d["otherData"].update(format="x"), "format"),
    (lambda d: d["traceEvents"].append({"ph": "Q", "name": "x", "pid": 1}), "unknown phase"),
    (lambda d: d["traceEvents"].append({"ph": "X", "name": "x", "pid": 1, "tid": 1, "ts": 0}), "dur"),
    (lambda d: d["traceEvents"].append({"ph": "s", "name": "x", "pid": 1, "tid": 1, "ts": 0, "cat": "call", "id": 999}), "flow"),
    (lambda d: d["traceEvents"].append({"ph": "X", "name": "x", "pid": 1, "tid": 1, "ts": 0.0, "dur": 0.3}), "overlaps"),
    (lambda d: d["traceEvents"].append({"ph": "X", "name": "x", "pid": 1, "tid": 9999, "ts": 0.0, "dur": 0.3}), "thread_name"),
])
def test_invalid_files_are_refused_with_the_place(tmp_path: Path, mutate, message: str) -> None:
    p = write_trace(fir_like(), tmp_path / "run.trace")
    doc = json.loads(p.read_text())
    mutate(doc)
    p.write_text(json.dumps(doc))
    with pytest.raises(TraceFormatError, match=message) as e:
        read_trace(p)
    assert str(p) in str(e.value)


def test_not_json(tmp_path: Path) -> None:
    p = tmp_path / "bad.trace"
    p.write_text("{\n nope")
    with pytest.raises(TraceFormatError, match=r"bad.trace:2:2: not JSON"):
        read_trace(p)
