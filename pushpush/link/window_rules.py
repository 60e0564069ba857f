"""Which PL master may write which words of the software windows: the window guard's table.

The software components' windows (region ``ps``: the ARM's on-chip memory, or a DDR buffer)
sit behind one port of the system top's interconnect, so the interconnect's ``M_CONNECT``
can only say *whether* a PL component reaches them. With ``firewall:`` (``windows: true``,
the default there) a second memory firewall (cores/mem_firewall, its table fixed at link
time) sits on that port and lets a PL component's write through only into the words the
protocol lets it write (docs/architecture.md §2.4):

- **calls of its imports**: its own static cep slot of each software export it imports;
- **returns of its exports**: the rep slots of the software components' imports of them;
- **calls through function values** of the types its exports' function-typed parameters
  take: the dynamic cep slots of software exports of those types (parameter names aside);
- **the run-time area** of every software window, for a component that may be handed a
  function value (the slots a runtime lends to a Python or C callable) or that exports
  anything (the run-time reps of calls made through handles and function values).

Everything else of a software window (the other components' static slots and the rep slots
of the calls it does not serve, the unused words, the other software windows) is refused.
The ARM's own master (GP0, master 0) is not checked.

Adjacent ranges of one master are merged into one entry of the table (:func:`guard_entries`).

>>> from pushpush.link import load
>>> s = load("examples/pingpong/system.yaml")
>>> [(r.master, r.what) for r in window_rules(s.components)][:2]
[('caller', 'returns of caller.run to host (its rep slot)'), ('caller', "run-time reps of host's run-time area")]
"""

from __future__ import annotations

from collections.abc import Sequence
from ..types import FunctionType, Type, erase_names
from .model import MAX_GUARD_ENTRIES, GuardEntry, LinkedComponent, Slot, SlotKind, WindowRule, WORD_BYTES

__all__ = ["window_rules", "guard_entries", "callback_types",
           "pl_masters", "MAX_GUARD_ENTRIES"]

def pl_masters(components: Sequence[LinkedComponent]) -> list[LinkedComponent]:
    """The PL components in the top's master order (master i + 1 is the i-th; master 0 is
    the ARM): rtl, riscv and hls, in declaration order."""
    return [c for c in components if not c.is_software]


def callback_types(comp: LinkedComponent) -> set[Type]:
    """The types (names erased) of the function values ``comp`` may be handed and call: its
    exports' function-typed parameters."""
    out: set[Type] = set()
    for e in comp.exports:
        for p in e.signature.function_params():
            assert isinstance(p.type, FunctionType)
            out.add(erase_names(p.type))
    return out


def _span(slot: Slot) -> tuple[int, int]:
    return slot.address, slot.address + WORD_BYTES * slot.words - 1


def _rules_into(master: LinkedComponent, tag: int, w: LinkedComponent) -> list[WindowRule]:
    out: list[WindowRule] = []

    def add(first: int, last: int, what: str) -> None:
        out.append(WindowRule(master.name, tag, w.name, first, last, what))

    for imp in master.imports:
        if imp.component == w.name:
            add(*_span(w.slots[imp.cep_slot]), f"calls of {imp.target} (its static slot)")
    held = callback_types(master)
    for s in w.slots:
        if s.kind == SlotKind.REP_IMPORT and s.function.split(".", 1)[0] == master.name:
            add(*_span(s), f"returns of {s.function} to {w.name} (its rep slot)")
        elif s.kind == SlotKind.CEP_DYNAMIC and erase_names(s.signature) in held:
            add(*_span(s), f"calls of {w.name}.{s.function} as a function value (a dynamic slot)")
    if w.runtime_words and (held or master.exports):
        why = " and ".join(x for x, on in (("lent slots", bool(held)), ("run-time reps", bool(master.exports))) if on)
        add(w.runtime_address, w.runtime_address + WORD_BYTES * w.runtime_words - 1,
            f"{why} of {w.name}'s run-time area")
    return out


def window_rules(components: Sequence[LinkedComponent]) -> list[WindowRule]:
    """Every (PL master, software window, range) the protocol lets the PL write, by master
    (the top's order) then window (declaration order) then address."""
    software = [c for c in components if c.is_software]
    out: list[WindowRule] = []
    for i, m in enumerate(pl_masters(components)):
        for w in software:
            out.extend(sorted(_rules_into(m, 1 + i, w), key=lambda r: r.first))
    return out


def guard_entries(rules: Sequence[WindowRule], beat_bytes: int = 4) -> list[GuardEntry]:
    """The window guard's constant table: each master's ranges rounded out to whole beats of
    the interconnect (``beat_bytes``: the guard checks every byte a burst may touch from its
    address aligned down to its beat, as it cannot trust the write strobes, so on a 64-bit
    interconnect a slot that starts or ends in the middle of a beat takes the whole beat),
    adjacent or overlapping ones merged (in master then address order). Raises ValueError
    past :data:`MAX_GUARD_ENTRIES`."""
    out: list[GuardEntry] = []
    lo = ~(beat_bytes - 1)
    for tag in sorted({r.tag for r in rules}):
        spans = sorted((r.first & lo, r.last | (beat_bytes - 1)) for r in rules if r.tag == tag)
        first, last = spans[0]
        for f, l in spans[1:]:
            if f <= last + 1:
                last = max(last, l)
            else:
                out.append(GuardEntry(tag, first, last))
                first, last = f, l
        out.append(GuardEntry(tag, first, last))
    if len(out) > MAX_GUARD_ENTRIES:
        raise ValueError(f"the software windows need {len(out)} ranges in the window guard's table, "
                         f"more than the {MAX_GUARD_ENTRIES} it holds")
    return out
