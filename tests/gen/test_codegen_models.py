"""The typed models of the system top, the stub, the DMA shell and the channel shell
(issue 12: codegen hands the templates typed data, not Verilog strings), on the examples
and seeded random systems (no simulation, no lint).

- Every model holds data only: every string in it is a name (of a component, port, signal,
  Zynq port), every other leaf an integer, a flag or None; never a Verilog expression.
- The top's template formats what the model holds: ``M_CONNECT`` is the mask, the base
  address and address-bit vectors are the slaves' (high slave first).
- No Python module that renders Verilog builds Verilog text itself (a source scan).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from enum import Enum
from pathlib import Path

import pytest
from codegen_models import NAME, leaves, model_systems

from pushpush.codegen.channel_shell import ChannelShell, channel_shell
from pushpush.codegen.connect import connectivity
from pushpush.codegen.dma import ShellDma, _shell_dma
from pushpush.codegen.render import environment
from pushpush.codegen.fabric import rtl_components
from pushpush.codegen.rtl import render_top
from pushpush.codegen.stub_model import StubModel, stub_model
from pushpush.codegen.top_model import TopModel, top_model
from pushpush.codegen.wrapper_model import wrapper_model
from pushpush.link import DmaBlock, LinkedComponent, load

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def systems(tmp_path_factory):
    return model_systems(tmp_path_factory)


def _check_data_only(model, what: str) -> int:
    n = 0
    for where, leaf in leaves(model):
        n += 1
        if isinstance(leaf, str):
            assert NAME.match(leaf), f"{what}: {where} = {leaf!r} is not a name"
        else:
            assert leaf is None or isinstance(leaf, (bool, int)), f"{what}: {where} = {leaf!r}"
    return n


def test_top_model_holds_names_and_integers(systems):
    n = 0
    for linked in systems:
        if not rtl_components(linked):
            continue
        m = top_model(linked)
        assert isinstance(m, TopModel)
        n += _check_data_only(m, f"{linked.name} top")
        assert m.masters[0] == "ps" and m.slaves[-1].name == "ps" and m.ps_slave == m.m_count - 1
        conn = connectivity(linked, [s.name for s in m.slaves])
        assert m.connect_mask == conn.mask and m.connections == conn.connections
        for i, reached in enumerate(m.reach):
            assert {m.slaves[j].name for j in reached} == conn.reach[m.masters[i]]
    assert n > 1000


def test_top_template_formats_the_model(systems):
    for linked in systems:
        if not rtl_components(linked):
            continue
        m, text = top_model(linked), render_top(linked)
        bits = m.s_count * m.m_count
        assert f".M_CONNECT({bits}'h{m.connect_mask:x})" in text
        bases = ", ".join(f"32'h{s.base:08X}" for s in reversed(m.slaves))
        widths = ", ".join(f"32'd{s.bits}" for s in reversed(m.slaves))
        assert f".M_BASE_ADDR({{{bases}}})" in text and f".M_ADDR_WIDTH({{{widths}}})" in text
        if m.irq is not None:
            wins = ", ".join(f"32'h{b:08X}" for b in reversed(m.irq.window_bases))
            assert f".WIN_BASE({{{wins}}})" in text


def test_stub_dma_and_channel_models_hold_names_and_integers(systems):
    kinds = set()
    for linked in systems:
        for c in rtl_components(linked):
            if linked.channels_of(c.name):
                m = channel_shell(linked, c, {p for ch in linked.channels_of(c.name)
                                              for p in (f"{ch.name}_CHNL_RX_CLK",)})
                assert isinstance(m, ChannelShell)
                _check_data_only(m, f"{linked.name}.{c.name} channel shell")
                assert m.clk_sinks and set(m.clk_sinks) <= set(m.conns)
                kinds.add("chnl")
            else:
                m = stub_model(linked, c.name)
                assert isinstance(m, StubModel)
                _check_data_only(m, f"{linked.name}.{c.name} stub")
                assert set(m.unused_inputs) <= {p.name for p in m.ports}
                kinds.add("stub")
        for d in linked.dmas:
            m = _shell_dma(d)
            assert isinstance(m, ShellDma)
            _check_data_only(m, f"{linked.name}.{d.name} DMA shell")
            assert [p.top_port for p in m.streams][:2] == [f"{d.name}_mm2s_tdata", f"{d.name}_mm2s_tkeep"]
            kinds.add("dma")
    assert kinds == {"chnl", "stub", "dma"}


#: Verilog text built in Python: a sized literal from a value, a bit range from a width,
#: a declaration, an instance's port connection.
_VERILOG_IN_PYTHON = re.compile(r"""f["'][^"']*("""
                                r"""'[hdb]\{|\[\{[^}]*- ?1\}:0\]|\b(input|output) +wire\b|\b(wire|reg|assign) [\[{]|\.\{[^}]*\}\(\{)""")


@pytest.mark.parametrize("module", ["rtl", "top_model", "stub_model", "wrapper_model", "dma", "channel_shell",
                                    "connect", "simboard"])
def test_codegen_builds_no_verilog_text(module):
    src = (REPO / "pushpush" / "codegen" / f"{module}.py").read_text()
    bad = [(i + 1, line.strip()) for i, line in enumerate(src.splitlines())
           if _VERILOG_IN_PYTHON.search(line)]
    assert not bad, f"pushpush/codegen/{module}.py builds Verilog text: {bad}"


def test_every_verilog_template_imports_the_shared_macros():
    env = environment()
    for t in ("top", "stub", "wrapper", "dma_shell", "chnl_shell", "simboard"):
        src = (REPO / "templates" / "verilog" / f"{t}.v.j2").read_text()
        assert src.startswith('{% import "verilog/wrapper_macros.v.j2" as vm %}\n'), t
        env.get_template(f"verilog/{t}.v.j2")   # parses


#: Every field the templates render, of every model (top, wrapper, stub) of every system of
#: model_systems, as written by the code when the snapshot was taken: a change in what the
#: templates get shows here as the differing fields. After an intended change, write it
#: again with PUSHPUSH_UPDATE_SNAPSHOT=1 and review the diff of the file.
SNAPSHOT = Path(__file__).with_name("fixtures") / "codegen_models.json"
#: Systems of the snapshot besides model_systems: a soft RISC-V core, the PL trace buffer,
#: software windows in DDR (the ps_window register block), ABEs, dynamic slots.
SNAPSHOT_EXTRA = ("examples/riscv_pingpong", "tests/trace/pl_pingpong", "tests/trace/pl_audio_fir",
                  "tests/board/fixtures/pingpong_ddr", "tests/gen/fixtures/pingpong_fair",
                  "tests/gen/fixtures/faults")


def _plain(obj):
    """A model as JSON data: dataclasses as objects, tuples as lists, enums as their value;
    the linked-model objects a model carries for the template are left out (as leaves() does)."""
    if isinstance(obj, (LinkedComponent, DmaBlock)):
        return "linked"
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [_plain(x) for x in obj]
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    assert obj is None or isinstance(obj, (int, str)), repr(obj)
    return obj


def test_models_match_their_snapshot(systems):
    got: dict[str, object] = {}
    for i, linked in enumerate(systems + [load(REPO / p / "system.yaml") for p in SNAPSHOT_EXTRA]):
        key = f"{i}:{linked.name}"
        got[f"{key} top"] = _plain(top_model(linked))
        for c in rtl_components(linked):
            got[f"{key} wrapper {c.name}"] = _plain(wrapper_model(linked, c, None))
            if not linked.channels_of(c.name):
                stub = stub_model(linked, c.name)
                got[f"{key} stub {c.name}"] = _plain(stub)
                if any(e.dynamic_slots for e in c.exports):
                    # a module that declares every port the stub lists, the optional ones
                    # (the handle of an export with dynamic slots) too
                    got[f"{key} wrapper {c.name} all ports"] = _plain(
                        wrapper_model(linked, c, {p.name for p in stub.ports}))
    if os.environ.get("PUSHPUSH_UPDATE_SNAPSHOT"):
        SNAPSHOT.write_text(json.dumps(got, indent=0, sort_keys=True, separators=(",", ":")) + "\n")
    want = json.loads(SNAPSHOT.read_text())
    assert sorted(got) == sorted(want)
    for model, fields in want.items():
        assert got[model] == fields, model
