"""The hostile-input run of the software windows' path: the window guard on the simulated board.

The generated ``hof`` system (tests/gen/hof: ``mapper.apply(f, x) = f(f(x)) + 1``, calling
the function value ``f`` wherever it points, ``0xDEAD0000`` when a call of it failed) plus a
second python component ``other``, loaded twice: with ``firewall: true`` (the window guard,
cores/mem_firewall with the link's constant table, on the top's ``m_axi``) and without.
The host passes ``mapper`` a forged function value (``rt.function(address, type)``: an
address that is not a function of that type), so the mapper's call engine writes a call (an
argument and a trigger) where the protocol does not let it write:

- ``other_window``: the rep slot of ``other``'s import ``mixer.load`` (another program's
  window: mapper makes no call into it and serves none of its calls);
- ``slot_table``: the rep slot of the host's import ``mixer.mix`` (the host's slot table: a
  reply only mixer may write);
- ``static_slot``: the host's static cep slot of ``log``, reserved for ``mixer`` (a forged
  call of an export: without the guard, the host's serve loop would run it);
- ``unused``: words of the host's window past its run-time area, which no slot uses.

With the guard every case is refused: the mapper's call ends with a bus error (so ``apply``
answers ``0xDEAD0000``), the guard latches the refusal (``ol.window_guard()`` names the
component, the address, the window and the slot, and what the mapper may write there),
both windows are unchanged byte for byte, and a correct call follows. Without it, the same
cases change the windows (the corruption the guard prevents); ``HOSTILE_REPORT`` (a path)
gets the table. The run-time area is not a case: a component that may be handed function
values may write every lent slot there (docs/architecture.md §2.4).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from pushpush.link import load  # noqa: E402

pytestmark = pytest.mark.slow   # two Icarus builds of the system and ~15 calls on each

HOF = Path(__file__).resolve().parents[1] / "gen" / "hof"
CASES = ["other_window", "slot_table", "static_slot", "unused"]
FAILED = 0xDEAD0000 - (1 << 32)    # apply's answer when a call of f failed, as an i32
F_TYPE = "(x: i32) -> i32"


def _yaml(tmp: Path, firewall: bool) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    text = (HOF / "system.yaml").read_text()
    text = text.replace("sources: [rtl/", f"sources: [{HOF / 'rtl'}/")
    # the mapper's calls of f give up after 20,000 cycles (a forged slot nobody answers)
    text = text.replace("    module: hof_mapper\n", "    module: hof_mapper\n    reply_timeout: 20000\n")
    text += ("  other:\n    kind: python\n    exports:\n      put: \"(v: u32) -> void\"\n"
             "    imports: [mixer.load]\n")
    if firewall:
        text = text.replace("system: hof\n", "system: hof\nfirewall: true\n")
    path = tmp / "system.yaml"
    path.write_text(text)
    return path


def _slot(linked, comp: str, kind: str, function: str):
    return next(s for s in linked.component(comp).slots if str(s.kind) == kind and s.function == function)


def _target(case: str, linked) -> int:
    host = linked.component("host")
    if case == "other_window":
        return _slot(linked, "other", "rep_import", "mixer.load").address
    if case == "slot_table":
        return _slot(linked, "host", "rep_import", "mixer.mix").address
    if case == "static_slot":
        return _slot(linked, "host", "cep_static", "log").address
    if case == "unused":
        used = host.base + 4 * host.words_used
        assert used + 8 <= host.end, "the host's window has no unused words to aim at"
        return host.end - 8
    raise AssertionError(case)


class Windows:
    """Snapshots of the software windows: every word but the rep slot of mapper.apply (the
    hostile calls' own replies) and the host's run-time area (its own reps and lent slots)."""

    def __init__(self, ol, linked) -> None:
        import pynq
        self.views = {c.name: (c, pynq.MMIO(c.base, c.size)) for c in linked.components if c.is_software}
        skip = _slot(linked, "host", "rep_import", "mapper.apply")
        host = linked.component("host")
        self.skip = set(range(skip.address, skip.address + 4 * skip.words, 4))
        self.skip |= set(range(host.runtime_address, host.runtime_address + 4 * host.runtime_words, 4))

    def snapshot(self) -> dict[str, bytes]:
        out = {}
        for name, (c, mmio) in self.views.items():
            out[name] = b"".join(int(mmio.read(a - c.base)).to_bytes(4, "little")
                                 for a in range(c.base, c.end, 4) if a not in self.skip)
        return out


def test_forged_function_values_with_and_without_the_window_guard(tmp_path):
    report = {}
    for firewall in (True, False):
        out = tmp_path / ("fw" if firewall else "nofw")
        path = _yaml(out, firewall)
        linked = load(path)
        assert (linked.window_guard is not None) == firewall
        ol = ppq.load(path, outdir=out / "out")
        try:
            rt = ol.runtime()
            rt.timeout = 60.0
            logs: list[int] = []
            rt.export("log", logs.append)
            rt.export("neg", lambda x: -x)
            rt.start()
            mem = Windows(ol, linked)
            guard = ol.window_guard() if firewall else None
            assert rt.mapper.apply(rt.exports["neg"], 5) == 6          # a correct call first
            rows = {}
            for case in CASES:
                addr = _target(case, linked)
                before = mem.snapshot()
                refused_before = guard.refused() if guard else 0
                result = rt.mapper.apply(rt.function(addr, F_TYPE), 5)
                after = mem.snapshot()
                changed = [k for k in before if before[k] != after[k]]
                rows[case] = {"address": f"0x{addr:08X}", "result": result, "changed": changed,
                              "forged calls served": list(logs)}
                if firewall:
                    assert result == FAILED, (case, hex(result & 0xFFFFFFFF))
                    assert changed == [], (case, changed)
                    assert logs == [], (case, logs)
                    assert guard.refused() > refused_before
                    r = guard.take_refusal()
                    assert r is not None and r.master == "mapper" and r.write, (case, r)
                    assert r.address == addr, (case, hex(r.address))
                    assert r.window == ("other" if case == "other_window" else "host"), r
                    text = r.describe()
                    assert "the window guard refused mapper's write" in text and f"0x{addr:08X}" in text
                    rows[case]["refusal"] = text
                logs.clear()
                assert rt.mapper.apply(rt.exports["neg"], 7) == 8       # the calls after it are still correct
            report["with the window guard" if firewall else "without it"] = rows
        finally:
            ol.free()
    off = report["without it"]
    for case in CASES:
        assert off[case]["changed"], f"{case}: without the guard the windows should have changed: {off[case]}"
    if os.environ.get("HOSTILE_REPORT"):
        Path(os.environ["HOSTILE_REPORT"]).write_text(json.dumps(report, indent=1))
