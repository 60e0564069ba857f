"""``wait:`` of a software component: parsed, checked with positioned errors, linked, in the
system map, in the JSON Schema; and the interrupt block's place (``LinkedSystem.irq``)."""

from __future__ import annotations

import json

import pytest

from pushpush.errors import SpecError
from pushpush.link import IRQ_BLOCK_BYTES, link
from pushpush.schema import schema_text
from pushpush.spec import parse_system
from pushpush.sysmap import from_json, to_json

TEXT = """\
system: w
board: none
components:
  c:
    kind: rtl
    module: m
    sources: [m.v]
    exports: {f: "(x: i32) -> i32"}
  host:
    kind: python
    wait: interrupt
    imports: [c.f]
  other:
    kind: c
    exports: {g: "() -> void"}
"""


def test_wait_is_parsed_linked_and_mapped():
    linked = link(parse_system(TEXT, file="w.yaml"))
    assert linked.component("host").wait == "interrupt"
    assert linked.component("other").wait == "sleep"      # the default
    assert linked.component("c").wait == ""
    text = to_json(linked)
    comps = {c["name"]: c for c in json.loads(text)["components"]}
    assert comps["host"]["wait"] == "interrupt" and "wait" not in comps["other"]
    assert from_json(text) == linked


@pytest.mark.parametrize("bad,where,what", [
    (TEXT.replace("wait: interrupt", "wait: intrupt"), "w.yaml:11:11",
     "wait of component 'host' must be one of sleep, poll, yield, interrupt, not 'intrupt'; "
     "did you mean 'interrupt'?"),
    (TEXT.replace("    sources: [m.v]\n", "    sources: [m.v]\n    wait: poll\n"), "w.yaml:8:5",
     "rtl component 'c' cannot have 'wait'"),
])
def test_wait_errors_name_file_and_line(bad, where, what):
    with pytest.raises(SpecError) as e:
        parse_system(bad, file="w.yaml")
    assert f"{where}: {what}" in str(e.value)


def test_schema_has_wait():
    comp = json.loads(schema_text())["$defs"]["component"]
    assert comp["properties"]["wait"]["enum"] == ["sleep", "poll", "yield", "interrupt"]


def test_irq_block_is_the_first_free_pl_page():
    linked = link(parse_system(TEXT, file="w.yaml"))
    irq = linked.irq
    assert irq is not None and irq.components == ("host", "other")
    c = linked.component("c")
    assert irq.base == c.end and irq.base % IRQ_BLOCK_BYTES == 0
    assert irq.bit("other") == 1
    with pytest.raises(ValueError, match="no pending bit"):
        irq.bit("c")
    # no rtl component, or no software component: no block
    sw_only = TEXT.split("  c:\n")[0] + "  host:\n    kind: python\n"
    assert link(parse_system(sw_only, file="s.yaml")).irq is None
    hw_only = TEXT.split("  host:\n")[0]
    assert link(parse_system(hw_only, file="h.yaml")).irq is None
