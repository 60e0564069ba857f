"""Edges of the codegen models (pushpush.codegen.{top,wrapper,stub}_model) that the
examples do not reach: a component with a single slot, a component without read ports,
a module declaring its handle port, a system without software (no interrupt block), a
RISC-V core on a 64-bit interconnect, the PL trace buffer's event limit, a stub asked for
a component with channels. No simulation: the models' fields the templates render."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pushpush.codegen import top_model as top_model_module
from pushpush.codegen.render import GenerateError
from pushpush.codegen.stub_model import stub_model
from pushpush.codegen.top_model import top_model, trace_events, trace_pulses
from pushpush.codegen.wrapper_model import ReadPort, wrapper_model
from pushpush.link import LinkedSystem, load

REPO = Path(__file__).resolve().parents[2]


def _system(tmp_path: Path, components: str, data_width: int = 32) -> LinkedSystem:
    text = (f"system: t\nboard: none\ninterconnect: {{data_width: {data_width}}}\ncomponents:\n"
            + textwrap.indent(textwrap.dedent(components), "  "))
    p = tmp_path / "system.yaml"
    p.write_text(text)
    return load(p)


@pytest.mark.parametrize("dw", [32, 64])
def test_one_slot_export_and_a_component_without_read_ports(tmp_path: Path, dw: int) -> None:
    linked = _system(tmp_path, """
        one:
          kind: rtl
          module: one
          sources: [one.v]
          exports: {f: {signature: "() -> void", dynamic_slots: 0}}
        caller:
          kind: rtl
          module: caller
          sources: [caller.v]
          imports: {one.f: "() -> void"}
        """, dw)
    one = wrapper_model(linked, linked.component("one"), None)
    (f,) = one.exports
    assert f.slots == (0,) and f.handle_address is None and not f.handle_connected
    assert one.dup_sources == (("f", 0),)
    assert one.dup_width == 1 and one.dup_single   # one source: no picking, at any width
    # no argument and no result word: the one unused read port at address 0
    assert one.rd_ports == (ReadPort(0, (0,), None, ()),)
    assert one.words <= 2 and one.rd_addr_width == 1
    caller = wrapper_model(linked, linked.component("caller"), None)
    assert caller.exports == () and caller.dup_sources == () and caller.dup_width == 1
    (call,) = caller.calls
    assert call.result is None and call.result_words == ()
    assert caller.rd_ports == (ReadPort(0, (0,), None, ()),)
    assert caller.max_words == max(1, call.nwords)


def test_a_component_without_exports_or_calls_has_one_word_requests(tmp_path: Path) -> None:
    linked = _system(tmp_path, """
        one:
          kind: rtl
          module: one
          sources: [one.v]
          exports: {f: "() -> void"}
        idle:
          kind: rtl
          module: idle
          sources: [idle.v]
        """)
    m = wrapper_model(linked, linked.component("idle"), None)
    assert m.exports == () and m.calls == () and m.max_words == 1 and m.nw_width == 1


def test_a_declared_handle_port_is_connected(tmp_path: Path) -> None:
    linked = _system(tmp_path, """
        sq:
          kind: rtl
          module: s
          sources: [s.v]
          exports:
            sq: {signature: "(x: i32) -> i32", dynamic_slots: 2}
            st: {signature: "(x: i32) -> i32", dynamic_slots: 0}
        caller:
          kind: rtl
          module: c
          sources: [c.v]
          imports: {sq.st: "(x: i32) -> i32"}
        """)
    c = linked.component("sq")
    sq, st = wrapper_model(linked, c, {"sq_handle", "st_handle"}).exports
    assert sq.handle_connected and sq.handle_address == c.slots[c.exports[0].dynamic_slots[0]].address
    assert not st.handle_connected and st.handle_address is None
    sq, _ = wrapper_model(linked, c, set()).exports
    assert not sq.handle_connected


def test_no_software_no_interrupt_block(tmp_path: Path) -> None:
    linked = _system(tmp_path, """
        one:
          kind: rtl
          module: one
          sources: [one.v]
          exports: {f: "() -> void"}
        """)
    assert linked.irq is None
    m = top_model(linked)
    assert m.irq is None and m.trace is None


def test_riscv_needs_a_32_bit_interconnect() -> None:
    path = REPO / "examples/riscv_pingpong/system.yaml"
    assert top_model(load(path)).components
    with pytest.raises(GenerateError, match="need a 32-bit interconnect"):
        top_model(load(path, {"data_width": 64}))


def test_trace_event_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The PL trace buffer takes exactly TRACE_MAX_EVENTS events: slots and handshakes."""
    linked = load(REPO / "tests/trace/pl_pingpong/system.yaml")
    slots = sum(len(c.slots) for c in linked.components)
    pulses = sum(len(trace_pulses(c)) for c in linked.components)
    assert slots and pulses
    monkeypatch.setattr(top_model_module, "TRACE_MAX_EVENTS", slots + pulses)
    assert len(trace_events(linked, {}, 0)) == slots
    monkeypatch.setattr(top_model_module, "TRACE_MAX_EVENTS", slots + pulses - 1)
    with pytest.raises(GenerateError, match="at most"):
        trace_events(linked, {}, 0)


def test_no_stub_for_a_component_with_channels() -> None:
    linked = load(REPO / "examples/channels/system.yaml")
    for c in linked.components:
        if c.kind == "rtl" and linked.channels_of(c.name):
            with pytest.raises(GenerateError, match="has channels"):
                stub_model(linked, c.name)
            break
    else:
        raise AssertionError("examples/channels has no rtl component with channels")


def test_trace_pulses_by_component() -> None:
    """The template takes each wrapper's pulses with pulses_of: that component's, in order."""
    m = top_model(load(REPO / "tests/trace/pl_pingpong/system.yaml"))
    assert m.trace is not None and m.trace.pulse_components
    for name in m.trace.pulse_components:
        assert m.trace.pulses_of(name) == tuple(p for p in m.trace.pulses if p.component == name)
        assert m.trace.pulses_of(name)
    assert m.trace.pulses_of("no_such_component") == ()


def test_connected_answers_the_mask() -> None:
    from pushpush.codegen.connect import connectivity

    linked = load(REPO / "examples/pingpong/system.yaml")
    conn = connectivity(linked, [c.name for c in linked.components if not c.is_software] + ["ps"])
    pairs = [(m, s) for m in conn.masters for s in conn.slaves]
    assert any(conn.connected(m, s) for m, s in pairs) and not all(conn.connected(m, s) for m, s in pairs)
    for i, m in enumerate(conn.masters):
        for j, s in enumerate(conn.slaves):
            assert conn.connected(m, s) == bool(conn.mask >> (j * len(conn.masters) + i) & 1)
