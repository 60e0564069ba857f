"""The window guard (``firewall:`` guarding the software windows): the rules the link derives
(which PL component may write which bytes of which software window, and why), the constant
table they make, the register page, the system map, the top's model, and the loader's and
linker's refusals of options that do not apply."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_link import link_errors, write  # this folder's helpers (pytest puts it on sys.path)

from pushpush.codegen.fabric import core_dependencies
from pushpush.codegen.rtl import render_top
from pushpush.codegen.top_model import top_model
from pushpush.link import GuardEntry, LinkedSystem, link, load
from pushpush.link.window_rules import guard_entries, window_rules
from pushpush.spec import load_system
from pushpush.sysmap import from_dict, to_dict

ROOT = Path(__file__).resolve().parents[2]

HOF = """\
system: t
{opt}components:
  mapper:
    kind: rtl
    module: m
    sources: [m.v]
    exports:
      apply: "(f: (x: i32) -> i32, x: i32) -> i32"
  mixer:
    kind: rtl
    module: x
    sources: [x.v]
    exports:
      load: "() -> u32"
    imports: [host.log]
  host:
    kind: python
    exports:
      neg: "(x: i32) -> i32"
      log: "(v: u32) -> void"
    imports: [mapper.apply, mixer.load]
  other:
    kind: python
    exports:
      put: "(v: u32) -> void"
    imports: [mixer.load]
"""


def linked(tmp_path: Path, opt: str = "firewall: true\n") -> LinkedSystem:
    return link(load_system(write(tmp_path, HOF.format(opt=opt))))


def _slot(s: LinkedSystem, comp: str, kind: str, function: str):
    return next(x for x in s.component(comp).slots if str(x.kind) == kind and x.function == function)


def test_rules_are_the_slots_of_the_calls_each_component_makes_and_serves(tmp_path: Path) -> None:
    s = linked(tmp_path)
    g = s.window_guard
    assert g is not None and s.firewall is None   # no buffer parameter: the guard only
    host, other = s.component("host"), s.component("other")
    got = {(r.master, r.window, r.first, r.last) for r in g.rules}

    def span(slot):   # noqa: ANN001, ANN202
        return slot.address, slot.address + 4 * slot.words - 1

    rt = lambda c: (c.runtime_address, c.runtime_address + 4 * c.runtime_words - 1)   # noqa: E731
    want = {
        # mapper: returns of apply to host, calls of host.neg as a function value (its type),
        # host's and other's run-time areas (lent slots, run-time reps)
        ("mapper", "host", *span(_slot(s, "host", "rep_import", "mapper.apply"))),
        *{("mapper", "host", *span(x)) for x in host.slots if str(x.kind) == "cep_dynamic" and x.function == "neg"},
        ("mapper", "host", *rt(host)), ("mapper", "other", *rt(other)),
        # mixer: its static slot of host.log, returns of load to host and to other, run-time areas
        ("mixer", "host", *span(_slot(s, "host", "cep_static", "log"))),
        ("mixer", "host", *span(_slot(s, "host", "rep_import", "mixer.load"))),
        ("mixer", "other", *span(_slot(s, "other", "rep_import", "mixer.load"))),
        ("mixer", "host", *rt(host)), ("mixer", "other", *rt(other)),
    }
    assert got == want
    # what mapper may not write: the slots of host.log (mixer's), other's put, mixer's returns
    for no in (_slot(s, "host", "cep_static", "log"), _slot(s, "host", "rep_import", "mixer.load"),
               _slot(s, "other", "rep_import", "mixer.load")):
        assert not [r for r in g.rules if r.master == "mapper" and r.first <= no.address <= r.last]
    assert not [r for r in g.rules if r.window == "other" and r.first <= _slot(s, "other", "cep_dynamic", "put").address <= r.last]
    assert all(r.what for r in g.rules)


def test_entries_merge_adjacent_ranges_of_one_master() -> None:
    from pushpush.link import WindowRule
    rules = [WindowRule("a", 1, "h", 0x10, 0x17, "x"), WindowRule("a", 1, "h", 0x18, 0x1F, "y"),
             WindowRule("a", 1, "h", 0x40, 0x4F, "z"), WindowRule("b", 2, "h", 0x18, 0x1F, "w")]
    assert guard_entries(rules) == [GuardEntry(1, 0x10, 0x1F), GuardEntry(1, 0x40, 0x4F),
                                    GuardEntry(2, 0x18, 0x1F)]
    # a 64-bit interconnect: whole 8-byte beats (the guard checks from the address aligned down)
    odd = [WindowRule("a", 1, "h", 0x14, 0x1B, "x"), WindowRule("a", 1, "h", 0x2C, 0x2F, "y")]
    assert guard_entries(odd, 8) == [GuardEntry(1, 0x10, 0x1F), GuardEntry(1, 0x28, 0x2F)]


def test_page_map_top_and_cores(tmp_path: Path) -> None:
    s = linked(tmp_path)
    g = s.window_guard
    assert g is not None and g.base % 0x1000 == 0 and s.pl.base <= g.base < s.pl.end
    taken = [(c.base, c.end) for c in s.components if not c.is_software] + [(s.irq.base, s.irq.base + 0x1000)]
    assert all(g.base + g.size <= lo or hi <= g.base for lo, hi in taken)
    assert from_dict(to_dict(s)) == s
    m = top_model(s)
    assert m.window_guard is not None and m.slaves[m.window_guard.slave].name == "window_guard"
    assert [i for i, r in enumerate(m.reach) if m.window_guard.slave in r] == [0]   # the ARM only
    assert (m.window_guard.tag_lsb, m.window_guard.tag_bits) == (12, 2)
    assert m.window_guard.entries[0] == (0, s.ps.base, s.ps.end - 1)   # the ARM's own: not checked
    assert all(a & 0xFF == 0b10 for a in m.window_guard.attrs)   # writes only, the ARM's too
    assert len(m.window_guard.entries) == 1 + len(guard_entries(g.rules))
    assert "mem_firewall" in core_dependencies(s)
    v = render_top(s)
    assert "pp_window_guard_inst" in v and f".STATIC_ENTRIES({1 + len(guard_entries(g.rules))})" in v


@pytest.mark.parametrize("opt", ["", "firewall: false\n", "firewall: {windows: false}\n"])
def test_off(tmp_path: Path, opt: str) -> None:
    if "windows: false" in opt:   # windows off and no buffer parameter: nothing left to guard
        errs = link_errors(tmp_path, HOF.format(opt=opt))
        assert len(errs) == 1 and "nothing to guard" in errs[0] and "windows: false" in errs[0]
        return
    s = linked(tmp_path, opt)
    assert s.window_guard is None and top_model(s).window_guard is None
    assert "pp_window_guard_inst" not in render_top(s)


def test_entries_without_buffer_parameters_are_refused_where_written(tmp_path: Path) -> None:
    errs = link_errors(tmp_path, HOF.format(opt="firewall:\n  entries: 4\n"))
    assert len(errs) == 1 and "no buffer parameter" in errs[0] and "remove 'entries'" in errs[0]
    assert errs[0].startswith(str(tmp_path / "system.yaml") + ":3:")


def test_examples_rules_cover_every_slot_the_pl_writes() -> None:
    """Every example: each software window's rep slot of an import is writable by exactly its
    callee; each static cep slot by exactly its importer (when in the PL)."""
    for ex in ("pingpong", "bufargs", "audio_fir", "channels", "riscv_pingpong", "hls_callback"):
        s = load(ROOT / "examples" / ex / "system.yaml")
        rules = window_rules(s.components)
        for w in (c for c in s.components if c.is_software):
            for slot in w.slots:
                who = {r.master for r in rules if r.window == w.name and r.first <= slot.address <= r.last}
                if str(slot.kind) == "rep_import":
                    callee = slot.function.split(".")[0]
                    assert who == ({callee} if not s.component(callee).is_software else set()), (ex, slot)
                elif str(slot.kind) == "cep_static" and slot.importer is not None:
                    imp = s.component(slot.importer)
                    assert (slot.importer in who) == (not imp.is_software), (ex, slot, who)


def test_the_top_rounds_ranges_to_its_beats(tmp_path: Path) -> None:
    """A 64-bit interconnect's bursts are checked from their address aligned down to 8 bytes:
    the top's table holds whole beats (a slot starting mid-beat would be refused otherwise)."""
    s = linked(tmp_path)
    for width, beat in ((32, 4), (64, 8)):
        m = top_model(s.with_interconnect(data_width=width))
        assert m.window_guard is not None
        for tag, first, last in m.window_guard.entries[1:]:
            assert first % beat == 0 and (last + 1) % beat == 0, (width, hex(first), hex(last))
        covered = lambda a, t: any(e[0] == t and e[1] <= a <= e[2] for e in m.window_guard.entries)   # noqa: E731
        for r in s.window_guard.rules:   # every byte a rule allows is still allowed
            assert covered(r.first, r.tag) and covered(r.last, r.tag)
