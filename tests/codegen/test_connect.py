"""The interconnect's connectivity (M_CONNECT) derived from the linked model
(pushpush.codegen.connect): exact masks of the examples and of hand-written systems with
function values, and soundness properties on every example."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pushpush.codegen.connect import Connectivity, connectivity
from pushpush.codegen.rtl import render_top
from pushpush.link import LinkedSystem, link
from pushpush.spec import load_system

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.parent.name for p in (REPO / "examples").glob("*/system.yaml"))


def _load(path: Path) -> LinkedSystem:
    return link(load_system(path))


def _system(tmp_path: Path, components: str, topology: str = "crossbar") -> LinkedSystem:
    text = f"system: t\nboard: none\ninterconnect: {{topology: {topology}}}\ncomponents:\n"
    text += textwrap.indent(textwrap.dedent(components), "  ")
    p = tmp_path / "system.yaml"
    p.write_text(text)
    return _load(p)


def _slaves(linked: LinkedSystem) -> list[str]:
    return [c.name for c in linked.components if not c.is_software] + ["ps"]


def _conn(linked: LinkedSystem) -> Connectivity:
    return connectivity(linked, _slaves(linked))


def test_pingpong() -> None:
    linked = _load(REPO / "examples" / "pingpong" / "system.yaml")
    c = connectivity(linked, ["caller", "callee", "irq", "ps"])
    assert c.masters == ("ps", "caller", "callee")
    assert c.reach == {"ps": {"caller", "callee", "irq", "ps"},
                       "caller": {"callee", "ps"},    # its import; its export's return to ps
                       "callee": {"caller", "ps"}}    # returns to its importers
    # bit j * S_COUNT + i: master i reaches slave j
    assert c.mask == sum(1 << (j * 3 + i) for i, j in
                         [(0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 3), (2, 0), (2, 3)])
    assert c.mask == 0xe5d and c.connections == 8


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_are_sound(name: str) -> None:
    """Every import's callee and every static importer (the return) is reached; every rtl
    engine with an export reaches the ARM's windows; the ARM reaches everything."""
    linked = _load(REPO / "examples" / name / "system.yaml")
    c = _conn(linked)
    assert c.reach["ps"] == set(c.slaves)

    def slave(n: str) -> str:
        return "ps" if linked.component(n).is_software else n

    for comp in linked.components:
        if comp.is_software:
            continue
        for imp in comp.imports:
            assert slave(imp.component) in c.reach[comp.name]
        for e in comp.exports:
            assert "ps" in c.reach[comp.name]
            for who in e.importers:
                assert slave(who) in c.reach[comp.name]


def test_generated_top_passes_the_mask(tmp_path: Path) -> None:
    linked = _load(REPO / "examples" / "pingpong" / "system.yaml")
    top = render_top(linked)
    assert ".M_CONNECT(12'he5d)" in top
    assert " *     1 caller -> 1 callee, 3 ps" in top
    assert " *     2 callee -> 0 caller, 3 ps" in top


def test_function_values_reach_every_export_of_their_type(tmp_path: Path) -> None:
    """A component that may be handed a function value of type T calls it: it reaches every
    window exporting a function of type T (parameter names do not matter) and the ARM's
    (a software runtime lends slots there), and those exporters reach it back."""
    linked = _system(tmp_path, """
        mapper:
          kind: rtl
          module: m
          sources: [m.v]
          exports: {apply: "(f: (x: i32) -> i32, x: i32) -> i32"}
        sq:
          kind: rtl
          module: s
          sources: [s.v]
          exports: {sq: {signature: "(x: i32) -> i32", dynamic_slots: 2}}
        neg:
          kind: rtl
          module: n
          sources: [n.v]
          exports: {neg: "(y: i32) -> i32"}
        other:
          kind: rtl
          module: o
          sources: [o.v]
          exports: {h: "(x: u32) -> u32"}
          imports: [sq.sq]
        host:
          kind: python
          exports: {pneg: "(x: i32) -> i32"}
          imports: [mapper.apply]
    """)
    c = _conn(linked)
    assert c.reach["mapper"] == {"sq", "neg", "ps"}        # not other.h: another type
    assert c.reach["sq"] == {"mapper", "other", "ps"}       # returns: holder of (i32)->i32, importer
    assert c.reach["neg"] == {"mapper", "ps"}
    assert c.reach["other"] == {"sq", "ps"}
    # unconnected pairs are really absent from the mask
    s_count = len(c.masters)
    j_other, i_mapper = c.slaves.index("other"), c.masters.index("mapper")
    assert not (c.mask >> (j_other * s_count + i_mapper)) & 1


def test_higher_order_values_nest(tmp_path: Path) -> None:
    """A function value whose own parameter is a function: the holder of the outer type
    reaches its exporters; those exporters hold the inner type and reach its exporters."""
    linked = _system(tmp_path, """
        outer:
          kind: rtl
          module: a
          sources: [a.v]
          exports: {run: "(g: (f: (i32) -> i32, x: i32) -> i32) -> i32"}
        applier:
          kind: rtl
          module: b
          sources: [b.v]
          exports: {apply: "(f: (i32) -> i32, x: i32) -> i32"}
        leaf:
          kind: rtl
          module: c
          sources: [c.v]
          exports: {inc: "(i32) -> i32"}
        lonely:
          kind: rtl
          module: d
          sources: [d.v]
          exports: {z: "() -> void"}
    """)
    c = _conn(linked)
    assert c.reach["outer"] == {"applier", "ps"}
    assert c.reach["applier"] == {"outer", "leaf", "ps"}
    assert c.reach["leaf"] == {"applier", "ps"}
    assert c.reach["lonely"] == {"ps"}


def test_software_callees_and_self_calls(tmp_path: Path) -> None:
    linked = _system(tmp_path, """
        a:
          kind: rtl
          module: a
          sources: [a.v]
          imports: [host.log, a.f]
          exports: {f: "(i32) -> i32"}
        b:
          kind: rtl
          module: b
          sources: [b.v]
          imports: [a.f]
        host:
          kind: python
          exports: {log: "(v: u32) -> void"}
    """)
    c = _conn(linked)
    assert c.reach["a"] == {"a", "b", "ps"}   # itself (import and return), b (return), host
    assert c.reach["b"] == {"a"}               # a caller without exports: never the ARM


def test_unknown_slave_is_an_error(tmp_path: Path) -> None:
    linked = _load(REPO / "examples" / "pingpong" / "system.yaml")
    with pytest.raises(ValueError, match="caller.*no slave port"):
        connectivity(linked, ["callee", "ps"])
