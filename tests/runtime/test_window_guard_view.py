"""The runtime's view of the window guard (pushpush.runtime.window_guard) over a register page
kept in a dict: the bitstream check, the refusal's fields and text (which component, which
address, whose window and what lives there, what the component may write there), the latch's
clear, and the timeout message of a call whose reply the guard kept out."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.link import LinkedSystem, link
from pushpush.link.window_rules import guard_entries
from pushpush.runtime.window_guard import (BAD_ADDR, BAD_INFO, INFO, REFUSED, STATIC_INFO, WindowGuardView,
                                           describe_place)

HOF = Path(__file__).resolve().parents[1] / "gen" / "hof" / "system.yaml"


@pytest.fixture(scope="module")
def hof() -> LinkedSystem:
    text = HOF.read_text().replace("system: hof\n", "system: hof\nfirewall: true\n")
    from pushpush.spec import parse_system
    return link(parse_system(text, file=str(HOF), base_dir=HOF.parent))


class Page:
    def __init__(self, linked: LinkedSystem) -> None:
        g = linked.window_guard
        assert g is not None
        masters = 1 + sum(not c.is_software for c in linked.components)
        self.regs = {INFO: (12 << 16) | (max(1, (masters - 1).bit_length()) << 8),
                     STATIC_INFO: len(guard_entries(g.rules)) + 1, REFUSED: 0, BAD_ADDR: 0, BAD_INFO: 0}

    def read(self, off: int) -> int:
        return self.regs.get(off, 0)

    def write(self, off: int, v: int) -> None:
        assert off == BAD_INFO
        if v >> 31:
            self.regs[BAD_INFO] &= 0x7FFFFFFF

    def refuse(self, addr: int, tag: int, beats: int = 2) -> None:
        self.regs[REFUSED] += 1
        self.regs[BAD_ADDR] = addr
        self.regs[BAD_INFO] = (1 << 31) | (1 << 30) | (1 << 28) | (2 << 25) | ((beats - 1) << 17) | (tag << 12) | 5


def _slot(s: LinkedSystem, comp: str, kind: str, fn: str):
    return next(x for x in s.component(comp).slots if str(x.kind) == kind and x.function == fn)


def test_refusal_names_who_where_and_what_it_may_write(hof: LinkedSystem) -> None:
    page = Page(hof)
    v = WindowGuardView(hof, page.read, page.write)
    assert v.take_refusal() is None and v.refused() == 0
    mix = _slot(hof, "host", "rep_import", "mixer.mix")
    mapper = 1 + [c.name for c in hof.components if not c.is_software].index("mapper")
    page.refuse(mix.address, mapper)
    r = v.take_refusal()
    assert r is not None and (r.master, r.window, r.address, r.beats, r.beat_bytes, r.write) == \
        ("mapper", "host", mix.address, 2, 4, True)
    text = r.describe()
    assert text.startswith(f"the window guard refused mapper's write of 2 x 4 bytes at 0x{mix.address:08X}")
    assert "(host's window: the rep slot of host's import mixer.mix)" in text
    assert "returns of mapper.apply to host (its rep slot)" in text   # what it may write there
    assert v.take_refusal() is None and v.refused() == 1            # the latch was cleared


def test_places(hof: LinkedSystem) -> None:
    host = hof.component("host")
    assert describe_place(hof, _slot(hof, "host", "cep_static", "log").address) == \
        ("host", "the static slot of host.log reserved for mixer")
    assert describe_place(hof, host.runtime_address)[1].startswith("its run-time area")
    assert describe_place(hof, host.end - 4) == ("host", "words no slot uses")
    assert describe_place(hof, 0x1000_0000) == (None, "in no software window")


def test_another_builds_bitstream_is_refused(hof: LinkedSystem) -> None:
    page = Page(hof)
    page.regs[STATIC_INFO] += 1
    with pytest.raises(RuntimeError, match="not this system's build"):
        WindowGuardView(hof, page.read, page.write)


def test_a_timed_out_call_says_what_the_guard_kept_out(hof: LinkedSystem) -> None:
    """Caller._timeout_detail adds the latched refusal (a reply written elsewhere)."""
    from pushpush.runtime.caller import Caller

    page = Page(hof)
    view = WindowGuardView(hof, page.read, page.write)
    mixer = 1 + [c.name for c in hof.components if not c.is_software].index("mixer")
    page.refuse(_slot(hof, "host", "cep_static", "log").address, mixer)

    class Hooks:
        def window_guard(self):   # noqa: ANN202
            return view

        def wait_report(self, waited: float) -> str:
            return "the simulator ran 100 cycles"

    class C(Caller):  # only what _timeout_detail reads
        def __init__(self) -> None:
            self.hooks = Hooks()

        def unserved_calls(self) -> list[str]:
            return []

    detail = C()._timeout_detail(1.0)
    assert detail is not None and "the window guard refused mixer's write" in detail
    assert "the simulator ran 100 cycles" in detail
