"""The wire decoder on recorded wire records (no simulator): which written words make a call,
which its return, which module handshakes it took and gave, how calls nest, what a channel
send and a DMA transfer become, and the system map's view the monitor is told to watch.

The records are of the kinds :mod:`pushpush.trace.monitor` writes, for a small system:
``host`` (software, with a run-time area), ``fir`` (rtl, calls ``host.coeff`` and a function
parameter ``cb``) and ``sink`` (rtl, the receiving side of channel ``ch``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pushpush.trace import Span, Trace
from pushpush.trace.c_events import CEvent, merge
from pushpush.trace.decode import SystemView, decode

HOST, FIR, SINK = 0x4000_0000, 0x4001_0000, 0x4002_0000
PS, FIR_ENGINE, SINK_ENGINE, OTHER = 0, 1, 2, 3       # masters
SLAVE = {HOST: 0, FIR: 1, SINK: 2}


def slot(kind: str, function: str, address: int, trigger: int, **more: str) -> dict[str, Any]:
    return {"kind": kind, "function": function, "address": hex(address), "trigger_address": trigger,
            "signature": "", **more}


SYSMAP: dict[str, Any] = {
    "system": "demo",
    "clock_mhz": 125,
    "components": [
        {"name": "host", "kind": "python", "window": {"base": hex(HOST), "end": hex(HOST + 0x1000)},
         "runtime": {"address": hex(HOST + 0x800), "words": 16},
         "exports": [{"name": "coeff", "signature": "(i: u32) -> u32"}],
         "slots": [slot("cep_static", "coeff", HOST, HOST + 4),
                   slot("rep_import", "fir.fir", HOST + 0x100, HOST + 0x104)]},
        {"name": "fir", "kind": "rtl", "window": {"base": FIR, "end": FIR + 0x1000},
         "exports": [{"name": "fir", "signature": "(n: u32) -> u32"},
                     {"name": "go", "signature": "() -> u32"}],
         "slots": [slot("cep_static", "fir", FIR, FIR + 4), slot("cep_static", "go", FIR + 0x10, FIR + 0x10),
                   slot("rep_import", "host.coeff", FIR + 0x100, FIR + 0x104),
                   slot("rep_callback", "fir", FIR + 0x200, FIR + 0x204, param="cb")]},
        {"name": "sink", "kind": "rtl", "window": {"base": hex(SINK), "end": hex(SINK + 0x1000)},
         "exports": [{"name": "ch_rx",
                      "signature": "(tag: u64, data: in u16[], k: u32, more: in u32[]) -> u32"}],
         "slots": [slot("cep_static", "ch_rx", SINK, SINK + 0x1C)]},
    ],
    "channels": [{"component": "sink", "rx": "ch_rx", "name": "ch"}],
}


def burst(cycle: int, master: int, address: int, words: list[int]) -> list[list[Any]]:
    """An engine's burst: one word a cycle, first and last marked."""
    comp = max(b for b in SLAVE if b <= address)
    return [["w", cycle + k, SLAVE[comp], master, address + 4 * k, w, k == 0, k == len(words) - 1]
            for k, w in enumerate(words)]


def stores(cycle: int, address: int, words: list[int]) -> list[list[Any]]:
    """The ARM's single stores (each its own one-beat burst), two cycles apart."""
    comp = max(b for b in SLAVE if b <= address)
    return [["w", cycle + 2 * k, SLAVE[comp], PS, address + 4 * k, w, True, True]
            for k, w in enumerate(words)]


def u(cycle: int, comp: str, what: str, port: str) -> list[Any]:
    return ["u", cycle, comp, what, port]


def fir_with_a_callback() -> list[list[Any]]:
    """host calls fir.fir(7); fir (its module) calls host.coeff(3) meanwhile."""
    return [*stores(10, FIR, [7, HOST + 0x100 + 2]),           # the trigger: host's rep, SEQ 1
            u(14, "fir", "take", "fir"),
            u(15, "fir", "call", "host_coeff"),
            *burst(17, FIR_ENGINE, HOST, [3, FIR + 0x100]),
            *stores(25, FIR + 0x100, [9, 0x1]),                # host's return: result, status
            u(28, "fir", "reply", "host_coeff"),
            u(30, "fir", "result", "fir"),
            *burst(33, FIR_ENGINE, HOST + 0x100, [49, 0x2])]


def fields(c: Any) -> tuple[Any, ...]:
    return (c.id, c.caller, c.callee, c.function, c.issued, c.trigger, c.taken, c.result, c.returned,
            c.seen, c.status, c.one_way, c.parent, c.bytes)


def test_a_call_its_callback_and_their_returns() -> None:
    t = decode(fir_with_a_callback(), SYSMAP, start=5, end=40)
    assert (t.clock_mhz, t.start, t.end) == (125.0, 5, 40)
    assert t.components == {"host": "python", "fir": "rtl", "sink": "rtl"}
    assert t.meta == {"system": "demo", "source": "wire"}
    assert [fields(c) for c in t.calls] == [
        # id caller  callee  function    issued trig taken result returned seen status 1way parent bytes
        (1, "host", "fir", "fir.fir", 10, 12, 14, 30, 34, None, 2, False, None, 16),
        # issued: fir's module handshake on its call port, not the burst's first beat (17)
        (2, "fir", "host", "host.coeff", 15, 18, None, None, 27, 28, 1, False, 1, 16),
    ]
    assert t.spans == []


def test_records_are_taken_in_cycle_order_and_ids_start_at_first_id() -> None:
    records = fir_with_a_callback()
    random.Random(1).shuffle(records)
    t = decode(records, SYSMAP, start=0, end=40, first_id=7)
    assert [(c.id, c.function, c.returned, c.parent) for c in t.calls] == [
        (7, "fir.fir", 34, None), (8, "host.coeff", 27, 7)]


def test_handshakes_go_to_the_oldest_call_waiting_for_them() -> None:
    records = [*stores(10, FIR, [1, HOST + 0x100]), *stores(20, FIR, [2, HOST + 0x100]),
               u(30, "fir", "take", "fir"), u(31, "fir", "take", "fir"),
               u(32, "fir", "take", "fir"),               # no third call: nothing to take
               u(40, "fir", "result", "fir"), u(41, "fir", "result", "fir"),
               u(42, "fir", "result", "fir"),
               u(43, "fir", "reply", "host_coeff"),      # no call waits for this reply
               u(44, "sink", "take", "ch_rx"),
               *burst(50, FIR_ENGINE, HOST + 0x100, [1, 0]), *burst(60, FIR_ENGINE, HOST + 0x100, [4, 0])]
    t = decode(records, SYSMAP, start=0, end=70)
    assert [(c.issued, c.taken, c.result, c.returned, c.status) for c in t.calls] == [
        (10, 30, 40, 51, 0), (20, 31, 41, 61, 0)]


def test_module_calls_and_replies_pair_in_order() -> None:
    """Two calls from fir's port host_coeff: the first handshake issued the first call, the
    first reply handshake saw the first result."""
    records = [u(5, "fir", "call", "host_coeff"), u(6, "fir", "call", "host_coeff"),
               *burst(8, FIR_ENGINE, HOST, [1, FIR + 0x100]), *burst(12, FIR_ENGINE, HOST, [2, FIR + 0x100]),
               *stores(20, FIR + 0x100, [10, 0]), u(24, "fir", "reply", "host_coeff"),
               *stores(30, FIR + 0x100, [20, 0]), u(34, "fir", "reply", "host_coeff")]
    t = decode(records, SYSMAP, start=0, end=40)
    assert [(c.issued, c.trigger, c.returned, c.seen) for c in t.calls] == [(5, 9, 22, 24), (6, 13, 32, 34)]
    # no handshake on the port: the burst's first beat issued the call
    t = decode(burst(8, FIR_ENGINE, HOST, [1, FIR + 0x100]) + burst(12, FIR_ENGINE, HOST, [2, FIR + 0x100]),
               SYSMAP, start=0, end=40)
    assert [c.issued for c in t.calls] == [8, 12]


def test_one_way_calls_idle_writes_and_foreign_addresses() -> None:
    records = [*stores(10, FIR, [1, HOST + 0x100 + 1]),       # one-way: no return expected
               *burst(20, FIR_ENGINE, HOST + 0x100, [5, 0]),   # so this is no return
               *stores(30, FIR, [1, 0]),                      # the trigger's idle value: no call
               ["w", 40, 9, PS, 0x5000_0000, 1, True, True],  # outside every window
               ["b", 41, 1, PS, 0],                           # write responses: not used
               *burst(42, OTHER, FIR, [2, HOST + 0x101])]     # the records after them count
    t = decode(records, SYSMAP, start=0, end=50)
    assert [fields(c) for c in t.calls] == [
        (1, "host", "fir", "fir.fir", 10, 12, None, None, None, None, None, True, None, 8),
        (2, "host", "fir", "fir.fir", 42, 43, None, None, None, None, None, True, None, 8)]


def test_caller_of_a_rep_outside_every_window() -> None:
    records = [*stores(10, FIR, [1, 0x6000_0000]), *burst(20, OTHER, FIR, [1, 0x6000_0010])]
    t = decode(records, SYSMAP, start=0, end=50)
    assert [(c.caller, c.issued) for c in t.calls] == [("ps", 10), ("master 3", 20)]


def test_a_burst_is_one_sequence_per_master() -> None:
    """The ARM's stores of a call's arguments and an engine's burst into the same window at
    the same time stay apart; an engine's next burst starts a new sequence."""
    records = [["w", 10, 1, PS, FIR, 1, True, True],
               *burst(11, OTHER, FIR, [2, HOST + 0x100 + 1]),
               ["w", 14, 1, PS, FIR + 4, HOST + 0x100 + 1, True, True],
               *burst(20, OTHER, FIR + 0x300, [9]),              # a lone word, no slot
               *burst(22, OTHER, FIR, [3, HOST + 0x101])]
    t = decode(records, SYSMAP, start=0, end=50)
    assert [(c.caller, c.issued, c.trigger, c.bytes) for c in t.calls] == [
        ("host", 11, 12, 8), ("host", 10, 14, 8), ("host", 22, 23, 8)]


def test_engine_burst_not_ending_on_a_trigger_is_dropped() -> None:
    """An engine's burst that ends on no trigger leaves nothing behind for the next burst."""
    records = [*burst(10, OTHER, FIR + 0x300, [5, 6]),          # ends elsewhere: dropped
               ["w", 20, 1, OTHER, FIR + 4, HOST + 0x101, False, True]]   # a trigger, not a first beat
    t = decode(records, SYSMAP, start=0, end=50)
    assert [(c.issued, c.bytes) for c in t.calls] == [(20, 4)]


def test_return_is_the_sequence_from_the_rep_to_its_status_word() -> None:
    records = [*stores(10, FIR, [1, HOST + 0x100]),
               *burst(20, FIR_ENGINE, HOST + 0x100, [5]),          # the result alone: not yet
               *burst(25, FIR_ENGINE, HOST + 0x104, [3])]          # not from the rep: no return
    t = decode(records, SYSMAP, start=0, end=50)
    assert t.calls[0].returned is None
    records += burst(30, FIR_ENGINE, HOST + 0x100, [5, 6])
    t = decode(records, SYSMAP, start=0, end=50)
    assert (t.calls[0].returned, t.calls[0].status, t.calls[0].bytes) == (31, 6, 16)


def test_lent_function_calls_in_the_run_time_area() -> None:
    rt = HOST + 0x800
    records = [*burst(10, FIR_ENGINE, rt + 0x10, [4, FIR + 0x300]),     # a call of a lent function
               *stores(14, FIR + 0x300, [7, 7]),                         # the ARM's stores: no return
               *burst(20, FIR_ENGINE, FIR + 0x300, [8, 0x5]),            # its return (no rep slot)
               *burst(30, FIR_ENGINE, rt + 0x20, [4, 0x5]),             # last word: no component's
               *burst(40, FIR_ENGINE, HOST + 0x200, [4, FIR + 0x300]),  # outside the run-time area
               *burst(50, FIR_ENGINE, rt + 0x40, [FIR + 0x300]),        # just past its end
               *burst(60, FIR_ENGINE, rt + 0x3C, [FIR + 0x301]),        # its last word; one-way
               *burst(70, FIR_ENGINE, rt, [0]),                         # idle
               *burst(72, FIR_ENGINE, rt, [FIR + 0x301]),               # its first word; one-way
               *burst(80, FIR_ENGINE, FIR + 0x300, [1, 2])]             # one-way: not its return
    t = decode(records, SYSMAP, start=0, end=90)
    assert [fields(c) for c in t.calls] == [
        (1, "fir", "host", f"host.@{rt + 0x10:#x}", 10, 11, None, None, 21, None, 5, False, None, 16),
        (2, "fir", "host", f"host.@{rt + 0x3c:#x}", 60, 60, None, None, None, None, None, True, None, 4),
        (3, "fir", "host", f"host.@{rt:#x}", 72, 72, None, None, None, None, None, True, None, 4)]


def test_lent_call_needs_an_engine_burst_into_a_software_run_time_area() -> None:
    rt = HOST + 0x800
    records = [*stores(10, rt, [4, FIR + 0x300]),                    # the ARM's stores: not a lent call
               ["w", 20, 0, OTHER, rt + 8, FIR + 0x300, True, False],  # not the burst's last beat
               *burst(30, OTHER, FIR + 0x800, [FIR + 0x300])]           # fir has no run-time area
    assert decode(records, SYSMAP, start=0, end=90).calls == []


def test_channel_send_is_a_span_with_its_buffers_bytes() -> None:
    args = [5, 0, 0x1000, 8, 77, 0x2000, 3]      # tag (u64), data (8 u16), k, more (3 u32)
    records = [u(48, "fir", "call", "fir_cb"),     # fir's module issued it on its port cb
               *burst(50, FIR_ENGINE, SINK, [*args, FIR + 0x200]),
               *burst(70, SINK_ENGINE, FIR + 0x200, [1, 0]),
               u(73, "fir", "reply", "fir_cb")]
    t = decode(records, SYSMAP, start=0, end=90)
    (c,) = t.calls
    assert (c.function, c.caller, c.issued, c.trigger, c.returned, c.seen, c.bytes) == (
        "sink.ch_rx", "fir", 48, 57, 71, 73, 40)
    assert t.spans == [Span(track="sink", name="send sink.ch", kind="send", start=48, end=71,
                            bytes=8 * 2 + 3 * 4, call=1)]


def test_channel_send_at_cycle_0() -> None:
    records = [*burst(0, FIR_ENGINE, SINK, [5, 0, 0x1000, 8, 77, 0x2000, 3, FIR + 0x200]),
               *burst(20, SINK_ENGINE, FIR + 0x200, [1, 0])]
    (s,) = decode(records, SYSMAP, start=0, end=90).spans
    assert (s.start, s.end) == (0, 21)


def m(cycle: int, port: str, d: str, n: int, edge: str) -> list[Any]:
    return ["m", cycle, port, d, 0x1000_0000, n, edge]


def test_dma_bursts_become_transfers() -> None:
    records = [m(90, "HP0", "r", 64, "start"), m(95, "HP0", "r", 0, "end"),
               m(111, "HP0", "r", 32, "start"),        # 16 cycles after the last end: the same
               m(115, "HP0", "r", 64, "start"),        # while one is open: the same
               m(120, "HP0", "r", 0, "end"), m(125, "HP0", "r", 0, "end"),
               m(142, "HP0", "r", 16, "start"),        # 17 cycles after: a new transfer
               m(150, "HP0", "r", 0, "end"),
               m(151, "HP0", "r", 0, "end"),           # no burst open: ignored
               m(92, "HP0", "w", 8, "start"), m(99, "HP0", "w", 0, "end"),
               m(200, "HP2", "r", 4, "start"),         # never ends
               m(210, "HP3", "w", 0, "end")]           # ends, never started
    t = decode(records, SYSMAP, start=0, end=300)
    assert sorted((s.track, s.name, s.start, s.end, s.bytes, s.kind, s.call) for s in t.spans) == [
        ("dma HP0", "read 16 B", 142, 150, 16, "dma", None),
        ("dma HP0", "read 160 B", 90, 125, 160, "dma", None),
        ("dma HP0", "write 8 B", 92, 99, 8, "dma", None),
        ("dma HP2", "read 4 B", 200, 200, 4, "dma", None)]


def test_dma_transfer_belongs_to_the_innermost_rtl_call_around_it() -> None:
    records = [*stores(10, FIR, [1, HOST + 0x100]), u(20, "fir", "take", "fir"),
               m(30, "HP0", "r", 64, "start"), m(40, "HP0", "r", 0, "end"),      # inside the call
               m(70, "HP0", "w", 32, "start"), m(79, "HP0", "w", 0, "end"),      # ends at its return
               m(90, "HP2", "w", 8, "start"), m(95, "HP2", "w", 0, "end"),       # after it
               m(5, "HP1", "r", 4, "start"), m(19, "HP1", "r", 0, "end"),        # before it
               m(20, "HP1", "w", 4, "start"), m(21, "HP1", "w", 0, "end"),       # from its taking
               u(60, "fir", "result", "fir"), *burst(78, FIR_ENGINE, HOST + 0x100, [1, 0]),
               # a software callee's call around a transfer: not its transfer
               *burst(100, FIR_ENGINE, HOST, [3, FIR + 0x100]),
               m(110, "HP0", "r", 4, "start"), m(111, "HP0", "r", 0, "end"),
               *stores(120, FIR + 0x100, [1, 0])]
    t = decode(records, SYSMAP, start=0, end=300)
    by = {(s.track, s.start): s.call for s in t.spans}
    assert by == {("dma HP0", 30): 1, ("dma HP0", 70): 1, ("dma HP2", 90): None, ("dma HP1", 5): None,
                  ("dma HP1", 20): 1, ("dma HP0", 110): None}
    # the call's bytes: its words on the wire and what its transfers moved
    assert t.calls[0].bytes == 8 + 8 + 64 + 32 + 4


def test_nested_rtl_calls_take_the_inner_transfer() -> None:
    """fir.fir (rtl) is taken; while it runs, a call of sink (rtl) is taken: a transfer
    inside both belongs to the sink's call, one inside fir's only to fir's."""
    records = [*stores(10, FIR, [1, HOST + 0x100]), u(14, "fir", "take", "fir"),
               *burst(20, SINK_ENGINE, SINK, [0, 0, 0, 0, 0, 0, 0, HOST + 0x300]),   # a rep without a slot
               u(30, "sink", "take", "ch_rx"),
               m(40, "HP0", "r", 4, "start"), m(41, "HP0", "r", 0, "end"),
               u(50, "sink", "result", "ch_rx"), *burst(55, SINK_ENGINE, HOST + 0x300, [0, 0]),
               m(60, "HP1", "r", 8, "start"), m(61, "HP1", "r", 0, "end"),
               u(70, "fir", "result", "fir"), *burst(75, FIR_ENGINE, HOST + 0x100, [0, 0])]
    t = decode(records, SYSMAP, start=0, end=100)
    assert {s.track: s.call for s in t.spans if s.kind == "dma"} == {"dma HP0": 2, "dma HP1": 1}
    assert [c.returned for c in t.calls] == [76, 56]


def test_the_innermost_call_is_the_one_taken_last() -> None:
    """A call into sink triggered first but taken after a later call into fir was: a
    transfer inside both belongs to the sink's call (taken last), whatever their order."""
    records = [*burst(10, SINK_ENGINE, SINK, [0, 0, 0, 0, 0, 0, 0, HOST + 0x300]),
               *stores(20, FIR, [1, HOST + 0x100]), u(23, "fir", "take", "fir"),
               u(40, "sink", "take", "ch_rx"),
               m(50, "HP0", "r", 4, "start"), m(51, "HP0", "r", 0, "end"),
               *burst(60, SINK_ENGINE, HOST + 0x300, [0, 0]), *burst(70, FIR_ENGINE, HOST + 0x100, [0, 0])]
    t = decode(records, SYSMAP, start=0, end=100)
    assert [(c.function, c.taken) for c in t.calls] == [("sink.ch_rx", 40), ("fir.fir", 23)]
    assert [s.call for s in t.spans if s.kind == "dma"] == [1]


def test_of_calls_taken_in_the_same_cycle_the_later_takes_the_transfer() -> None:
    """Two calls of fir.go (no arguments: the trigger alone) taken at cycle 0: a transfer
    inside both belongs to the later one."""
    records = [["w", 0, 1, PS, FIR + 0x10, HOST + 0x100, True, True],
               *burst(0, OTHER, FIR + 0x10, [HOST + 0x300]),
               u(0, "fir", "take", "go"), u(0, "fir", "take", "go"),
               m(10, "HP0", "r", 4, "start"), m(11, "HP0", "r", 0, "end"),
               *burst(60, SINK_ENGINE, HOST + 0x300, [0, 0]), *burst(70, FIR_ENGINE, HOST + 0x100, [0, 0])]
    t = decode(records, SYSMAP, start=0, end=100)
    assert [(c.function, c.taken, c.returned) for c in t.calls] == [("fir.go", 0, 71), ("fir.go", 0, 61)]
    assert [s.call for s in t.spans if s.kind == "dma"] == [2]


def test_c_events_name_a_slot_s_function_through_the_view() -> None:
    """The C runtimes' events (pushpush.trace.c_events) name a call by the cep slot's
    component and export, which the view gives."""
    def ev(kind: str, cycle: int) -> CEvent:
        return CEvent(kind=kind, cycle=cycle, us=0, component="host", pid=1, addr=FIR,
                      word=HOST + 0x100 + 2, status=0, session=1, depth=0, code=0, name="")
    t = Trace(clock_mhz=125.0, start=0, end=100)
    merge(t, [ev("issued", 10), ev("seen", 30)], SYSMAP)
    assert [(c.function, c.callee, c.issued, c.seen, c.source) for c in t.calls] == [
        ("fir.fir", "fir", 10, 30, "software")]


def test_system_view_windows_ports_and_buffers() -> None:
    v = SystemView(SYSMAP)
    assert v.component_at(HOST) == "host" and v.component_at(HOST + 0xFFF) == "host"
    assert v.component_at(HOST + 0x1000) is None and v.component_at(HOST - 1) is None
    assert v.component_at(FIR + 0x10) == "fir"
    assert v.runtime == {"host": (HOST + 0x800, HOST + 0x840)}
    assert v.rtl_ports() == {"fir": {"exports": ["fir", "go"], "calls": ["fir_cb", "host_coeff"]},
                             "sink": {"exports": ["ch_rx"], "calls": []}}
    assert v.buffer_bytes("sink.ch_rx", [5, 0, 0x1000, 8, 77, 0x2000, 3]) == 8 * 2 + 3 * 4
    # a missing count (a short call) counts nothing for that buffer
    assert v.buffer_bytes("sink.ch_rx", [5, 0, 0x1000, 8, 77, 0x2000]) == 16
    assert v.buffer_bytes("sink.ch_rx", [5, 0, 0x1000]) == 0
    assert v.buffer_bytes("fir.fir", [1]) == 0          # no buffers
    assert v.buffer_bytes("fir.nope", [1]) == 0 and v.buffer_bytes("nobody.f", [1]) == 0
    bare = SystemView({})
    assert (bare.system, bare.clock_mhz, bare.kinds, bare.channels) == ("system", 100.0, {}, {})
    assert SystemView({"components": [], "channels": None}).channels == {}
    # a component without exports or slots (a map of a component that has none)
    lone = SystemView({"components": [{"name": "io", "kind": "rtl", "window": {"base": 0, "end": 4096}}]})
    assert lone.component_at(8) == "io" and lone.rtl_ports() == {"io": {"exports": [], "calls": []}}


@pytest.mark.parametrize("words", [0, None])
def test_run_time_area_without_words_is_none(words: Any) -> None:
    comp = dict(SYSMAP["components"][0], runtime={"address": hex(HOST + 0x800), "words": words})
    assert SystemView({"components": [comp]}).runtime == {}
    assert SystemView({"components": [dict(comp, runtime=None)]}).runtime == {}
