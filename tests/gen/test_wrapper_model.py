"""The wrapper's typed model (pushpush.codegen.wrapper_model) and the origin markers of the
generated wrapper, on the examples and seeded random systems (no simulation, no lint).

- The model holds data only: every string in it is a name (of a port group, a port, a
  signal the template declares), never a Verilog expression.
- Every block of a generated wrapper names where it comes from (docs/rtl-ports.md,
  "Finding a line's origin"): its ``from templates/verilog/wrapper.v.j2 [tag]`` line names
  a tag written once in the template, the core file of every module the block
  instantiates, and macros that exist.
- Structural facts the model gives the template: read ports numbered in order, one per
  argument word of each export and result word of each call; requesters in arbiter order.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from codegen_models import NAME, leaves, model_systems

from pushpush.codegen.fabric import rtl_components
from pushpush.codegen.rtl import render_wrapper
from pushpush.codegen.wrapper_model import CodecKind, ReadPort, WrapperModel, wrapper_model

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = (REPO / "templates/verilog/wrapper.v.j2").read_text()
MACROS = (REPO / "templates/verilog/wrapper_macros.v.j2").read_text()
ORIGIN = re.compile(r"from templates/verilog/wrapper\.v\.j2 \[([a-z-]+)\](.*)$")


@pytest.fixture(scope="module")
def systems(tmp_path_factory):
    return model_systems(tmp_path_factory)


def test_model_holds_names_not_verilog(systems):
    n = 0
    for linked in systems:
        for c in rtl_components(linked):
            m = wrapper_model(linked, c, None)
            assert isinstance(m, WrapperModel)
            for where, s in ((w, x) for w, x in leaves(m) if isinstance(x, str)):
                n += 1
                assert NAME.match(s), f"{linked.name}.{c.name}: {where} = {s!r} is not a name"
    assert n > 100


def test_read_ports_and_requesters_in_order(systems):
    for linked in systems:
        for c in rtl_components(linked):
            m = wrapper_model(linked, c, None)
            assert [p.index for p in m.rd_ports] == list(range(len(m.rd_ports)))
            used: list[ReadPort] = [w.port for e in m.exports for w in e.arg_words]
            used += [p for call in m.calls for p in call.result_words]
            # an export of 2+ slots reads its pending trigger word through a port of its own,
            # after every other (pp_export TRIG_MEM), at each slot's trigger word
            trig = [e.trig_port for e in m.exports if e.trig_port is not None]
            assert [e.n >= 2 for e in m.exports] == [e.trig_port is not None for e in m.exports]
            for e in m.exports:
                if e.trig_port is not None:
                    assert list(e.trig_port.offsets) == [c.slots[s].trigger_offset for s in e.slots]
            used += trig
            assert sorted(p.index for p in used) == list(range(len(used)))
            assert all(p.index > q.index for p in trig for q in used if q not in trig)
            assert len(m.rd_ports) == max(1, len(used))
            for p in used:
                assert (p.select is None) == (len(p.offsets) == 1)
                assert all(0 <= o < m.words for o in p.offsets)
                for s in p.snoops:
                    assert 0 <= s.lane < m.lanes and (s.pick is None) == (p.select is None)
            assert [r.req_index for r in m.reqs] == list(range(m.nreq))
            assert m.max_words == max(r.nwords for r in m.reqs)
            for e in m.exports:
                words = sum(a.words for a in e.args)
                assert [w.word for w in e.arg_words] == list(range(words))
                for a in e.args:
                    assert a.codec is None or a.words == (2 if a.codec.kind is CodecKind.PAIR else 1)


def test_every_block_names_its_origin(systems):
    tags = set()
    for linked in systems:
        for c in rtl_components(linked):
            text = render_wrapper(linked, c)
            assert text.splitlines()[0].endswith("with templates/verilog/wrapper.v.j2. Do not edit: regenerate.")
            origin = None
            for line in text.splitlines()[1:]:
                found = ORIGIN.search(line)
                if found:
                    tag, rest = found.groups()
                    tags.add(tag)
                    assert TEMPLATE.count(f"[{tag}]") == 1, f"tag [{tag}] not once in wrapper.v.j2"
                    for core in re.findall(r"core (\S+\.v)", rest):
                        assert (REPO / core).is_file(), core
                    for macro in re.findall(r"macros? ([a-z_, ]+) \(", rest):
                        for name in macro.split(", "):
                            src = TEMPLATE if "in wrapper.v.j2" in rest else MACROS
                            assert f"{{% macro {name}(" in src, f"no macro {name}"
                    origin = rest
                    continue
                inst = re.match(r"(pp_\w+)( #\(| \w+ \()", line)
                if inst:   # a core's instance: its block's origin names the core's file
                    assert origin is not None and f"/{inst.group(1)}.v" in origin, (
                        f"{linked.name}.{c.name}: {line!r} under origin {origin!r}")
    assert {"about", "window", "engine", "arbiter", "export", "call-site", "buffer", "counters",
            "user", "unused", "ports-stream", "export-buffers"} <= tags
