"""``reply_timeout:`` of an rtl component (issue 28): parsed, checked where it is written,
linked, in the system map, in the JSON Schema, and in every call site of the wrapper
(cores/call_site REPLY_TIMEOUT)."""

from __future__ import annotations

import json

import pytest

from pushpush.codegen.rtl import render_wrapper
from pushpush.errors import SpecError
from pushpush.link import link
from pushpush.schema import schema_text
from pushpush.spec import parse_system
from pushpush.spec.fields import DEFAULT_REPLY_TIMEOUT
from pushpush.sysmap import from_json, to_json

TEXT = """\
system: r
board: none
components:
  callee:
    kind: rtl
    module: m
    sources: [m.v]
    exports: {f: "(x: i32) -> i32"}
  caller:
    kind: rtl
    module: k
    sources: [k.v]
    reply_timeout: 5000
    imports: [callee.f, host.g]
    exports: {h: "(cb: (i32) -> i32) -> i32"}
  host:
    kind: python
    exports: {g: "() -> void"}
    imports: [caller.h]
"""


def test_reply_timeout_is_parsed_linked_and_mapped():
    linked = link(parse_system(TEXT, file="r.yaml"))
    assert linked.component("caller").reply_timeout == 5000
    assert linked.component("callee").reply_timeout == DEFAULT_REPLY_TIMEOUT == 1 << 30
    text = to_json(linked)
    comps = {c["name"]: c for c in json.loads(text)["components"]}
    assert comps["caller"]["reply_timeout"] == 5000
    assert "reply_timeout" not in comps["callee"] and "reply_timeout" not in comps["host"]
    assert from_json(text) == linked


def test_every_call_site_of_the_wrapper_gets_it():
    linked = link(parse_system(TEXT, file="r.yaml"))
    v = render_wrapper(linked, linked.component("caller"))
    # two imports and one function-typed parameter: three call sites
    assert v.count("pp_call_site #(") == 3
    assert v.count(".REPLY_TIMEOUT(5000)") == 3
    v = render_wrapper(linked, linked.component("callee"))
    assert "pp_call_site #(" not in v and "REPLY_TIMEOUT" not in v


@pytest.mark.parametrize("bad,where,what", [
    (TEXT.replace("reply_timeout: 5000", "reply_timeout: 0"), "r.yaml:13:20",
     "reply_timeout of component 'caller'"),
    (TEXT.replace("reply_timeout: 5000", "reply_timeout: 0x80000000"), "r.yaml:13:20",
     "reply_timeout of component 'caller'"),
    (TEXT.replace("reply_timeout: 5000", "reply_timeout: soon"), "r.yaml:13:20",
     "reply_timeout of component 'caller'"),
    (TEXT.replace("    exports: {g: \"() -> void\"}\n",
                  "    exports: {g: \"() -> void\"}\n    reply_timeout: 100\n"), "r.yaml:19:5",
     "python component 'host' cannot have 'reply_timeout' (only rtl components' calls wait "
     "for replies in the PL"),
])
def test_reply_timeout_errors_name_file_and_line(bad, where, what):
    with pytest.raises(SpecError) as e:
        parse_system(bad, file="r.yaml")
    assert f"{where}: {what}" in str(e.value)


def test_schema_has_reply_timeout():
    comp = json.loads(schema_text())["$defs"]["component"]
    field = comp["properties"]["reply_timeout"]
    assert {"type": "integer", "minimum": 1, "maximum": (1 << 31) - 1} in field["anyOf"]
    assert field["default"] == DEFAULT_REPLY_TIMEOUT
