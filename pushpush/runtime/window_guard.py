"""The window guard's refusals, read and explained by the runtime (cores/mem_firewall).

A system with ``firewall:`` (``windows: true``, the default there) has a memory firewall on
the PL's writes into the software windows whose table the link fixed
(:mod:`pushpush.link.window_rules`): a PL component's write passes only into the slots of the
calls it makes and serves. A refused write never reaches the window: the component's engine
gets SLVERR (its call reports a bus error), and the guard counts it and latches the first
one. Nobody in software is waiting for a write that should not happen, so the refusal shows
where a software caller waits in vain (a component that writes its reply to the wrong place):
a timed-out call's message adds what the guard latched. ``ol.window_guard`` (a
:class:`WindowGuardView`) reads it any time.

:class:`WindowGuardView` works over register accessors (``read(offset)``, ``write(offset,
value)``: the page's MMIO on PYNQ).

>>> r = WindowRefusal(0xFFFC0020, True, 2, 4, 1, "caller", "host", "the rep slot of callee.f", [])
>>> r.describe()
"the window guard refused caller's write of 2 x 4 bytes at 0xFFFC0020..0xFFFC0028 (host's window: the rep slot of callee.f); caller may write nothing of host's window"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Optional

from ..link import LinkedSystem, WindowGuard
from ..link.window_rules import guard_entries
from .firewall import not_this_build

__all__ = ["WindowGuardView", "WindowRefusal", "describe_place"]

#: register offsets (cores/mem_firewall/README.md)
CTRL, INFO, REFUSED, BAD_ADDR, BAD_INFO, STATIC_INFO, BAD_TAG = 0x000, 0x004, 0x008, 0x00C, 0x010, 0x014, 0x018


@dataclass(frozen=True)
class WindowRefusal:
    """A write into the software windows that the window guard refused (the first since its
    latch was cleared): where, by whom, and what that master may write there."""

    address: int
    write: bool
    beats: int
    beat_bytes: int
    tag: int
    #: the PL component of master ``tag`` ("ps" for the ARM, None for an index the system lacks)
    master: Optional[str]
    #: the software component whose window holds ``address`` (None: none does)
    window: Optional[str]
    #: what lives at ``address`` there (a slot, the run-time area, unused words)
    place: str
    #: (first, last, what) of the ranges ``master`` may write in ``window``
    allowed: list[tuple[int, int, str]]

    def describe(self) -> str:
        who = self.master or f"master #{self.tag}"
        end = self.address + self.beats * self.beat_bytes
        where = f"{self.window}'s window: {self.place}" if self.window else self.place
        text = (f"the window guard refused {who}'s {'write' if self.write else 'read'} of "
                f"{self.beats} x {self.beat_bytes} bytes at 0x{self.address:08X}..0x{end:08X} ({where})")
        if self.window is None:
            return text
        if not self.allowed:
            return f"{text}; {who} may write nothing of {self.window}'s window"
        spans = ", ".join(f"0x{a:08X}..0x{b:08X} ({w})" for a, b, w in self.allowed)
        return f"{text}; {who} may write there only {spans}"


def describe_place(linked: LinkedSystem, address: int) -> tuple[Optional[str], str]:
    """(the software component whose window holds ``address``, what lives there)."""
    found = linked.locate(address)
    if found is None or not found[0].is_software:
        return None, "in no software window"
    comp, slot = found
    if slot is not None:
        kind = {"cep_static": f"the static slot of {comp.name}.{slot.function}"
                              + (f" reserved for {slot.importer}" if slot.importer else ""),
                "cep_dynamic": f"a dynamic slot of {comp.name}.{slot.function}",
                "rep_import": f"the rep slot of {comp.name}'s import {slot.function}"}.get(
                    str(slot.kind), f"slot {slot.index}")
        return comp.name, kind
    if comp.runtime_words and comp.runtime_address <= address < comp.runtime_address + 4 * comp.runtime_words:
        return comp.name, "its run-time area (lent slots, run-time reps)"
    return comp.name, "words no slot uses"


class WindowGuardView:
    """The window guard of ``linked`` over its register page's accessors."""

    def __init__(self, linked: LinkedSystem, read: Callable[[int], int],
                 write: Callable[[int, int], None]) -> None:
        guard = linked.window_guard
        if guard is None:
            raise ValueError(f"system '{linked.name}' has no window guard (firewall: in its YAML, "
                             "with a PL component that writes into a software window)")
        self.guard: WindowGuard = guard
        self.linked = linked
        self._read, self._write = read, write
        n = read(STATIC_INFO) & 0xFF
        want = len(guard_entries(guard.rules, linked.interconnect.data_width // 8)) + 1   # + the ARM's
        if n != want:
            raise not_this_build(f"system '{linked.name}'", "window guard", guard.base, n, want)
        self.masters = ["ps", *(c.name for c in linked.components if not c.is_software)]
        info = read(INFO)
        self.tag_bits, self.tag_lsb = (info >> 8) & 0xFF, (info >> 16) & 0xFF

    def refused(self) -> int:
        """Writes (and reads) refused since the PL's reset."""
        return self._read(REFUSED)

    def take_refusal(self) -> Optional[WindowRefusal]:
        """The latched refusal, or None; cleared, so the next one is latched."""
        info = self._read(BAD_INFO)
        if not info >> 31:
            return None
        addr = self._read(BAD_ADDR)
        if self.tag_lsb + self.tag_bits <= 16:   # in the latched ID's 16 bits
            tag = (info >> self.tag_lsb) & ((1 << self.tag_bits) - 1)
        else:                                   # wider IDs (over 16 masters): BAD_TAG
            tag = self._read(BAD_TAG) & 0xFF
        self._write(BAD_INFO, 1 << 31)
        master = self.masters[tag] if tag < len(self.masters) else None
        window, place = describe_place(self.linked, addr)
        allowed = [(r.first, r.last, r.what) for r in self.guard.rules
                   if r.tag == tag and r.window == window]
        return WindowRefusal(addr, bool((info >> 30) & 1), ((info >> 17) & 0xFF) + 1,
                             1 << ((info >> 25) & 7), tag, master, window, place, allowed)
