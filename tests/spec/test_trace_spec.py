"""``trace:`` of a system (the PL trace buffer, cores/trace): parsed, bad values refused at
their line with the fix, the page placed by the linker, in the system map (and read back),
absent by default."""

from __future__ import annotations

import pytest

from pushpush.errors import LinkError, SpecError
from pushpush.link import IRQ_BLOCK_BYTES, link
from pushpush.spec import parse_system
from pushpush.sysmap import from_json, to_json

TEXT = """\
system: t
board: none
{trace}
components:
  c:
    kind: rtl
    module: m
    sources: [m.v]
    exports: {{f: "(x: i32) -> i32"}}
  host:
    kind: python
    imports: [c.f]
"""


def _linked(line: str):
    return link(parse_system(TEXT.format(trace=line), file="t.yaml"))


@pytest.mark.parametrize("line,depth", [("", 0), ("trace: false", 0), ("trace: true", 1024),
                                        ("trace: {depth: 16}", 16), ("trace: {depth: 0x1000}", 4096),
                                        ("trace: {}", 1024)])
def test_trace_is_parsed(line: str, depth: int) -> None:
    linked = _linked(line)
    assert (linked.trace.depth if linked.trace else 0) == depth


@pytest.mark.parametrize("line,message", [
    ("trace: yes please", "t.yaml:3:8: trace must be true, false or a mapping such as {depth: 4096}"),
    ("trace: {depth: 100}", "t.yaml:3:16: trace depth must be a power of two (records in the ring), "
                            "not 100; use 64 or 128"),
    ("trace: {depth: 8}", "t.yaml:3:16: trace depth must be at least 16, not 8"),
    ("trace: {depth: 0x200000}", "t.yaml:3:16: trace depth is 2097152 but the ring holds at most 1048576"),
    ("trace: {deep: 64}", "t.yaml:3:9: unknown key 'deep' in 'trace'; did you mean 'depth'?"),
    ("trace: [1]", "t.yaml:3:8: trace must be true, false or a mapping"),
])
def test_bad_trace_values_are_refused_at_their_line(line: str, message: str) -> None:
    with pytest.raises(SpecError) as e:
        _linked(line)
    assert message in str(e.value)


def test_the_page_is_placed_after_the_windows_and_the_irq_page_size_aligned() -> None:
    small = _linked("trace: {depth: 64}")
    assert small.trace.size == 0x1000
    assert small.trace.base == small.irq.base + IRQ_BLOCK_BYTES
    big = _linked("trace: {depth: 4096}")
    assert big.trace.size == 0x20000 and big.trace.ring_offset == 0x10000
    assert big.trace.base % big.trace.size == 0 and big.trace.base >= big.irq.base + IRQ_BLOCK_BYTES
    windows = [(c.base, c.end) for c in big.components if not c.is_software]
    assert all(big.trace.base >= hi or big.trace.base + big.trace.size <= lo for lo, hi in windows)


def test_the_map_names_the_page_and_its_events_and_reads_back() -> None:
    linked = _linked("trace: true")
    text = to_json(linked)
    back = from_json(text)
    assert back.trace == linked.trace
    import json
    tr = json.loads(text)["trace"]
    assert (int(tr["base"], 16), tr["depth"]) == (linked.trace.base, 1024)
    # every slot's trigger word, then the rtl module's handshakes
    assert [(e["component"], e["kind"]) for e in tr["events"]][-2:] == [("c", "take"), ("c", "result")]
    assert len(tr["events"]) == sum(len(c.slots) for c in linked.components) + 2
    assert "trace" not in json.loads(to_json(_linked("")))


def test_a_system_without_rtl_component_is_refused() -> None:
    text = "system: s\nboard: none\ntrace: true\ncomponents:\n  a:\n    kind: python\n"
    with pytest.raises(LinkError, match="only a system with an rtl component has; remove 'trace:'"):
        link(parse_system(text, file="s.yaml"))
