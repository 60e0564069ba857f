"""Freed run-time slots are zeroed (pushpush/runtime/core.py ``_free_words``).

The soak (tests/soak) found it: a rep allocated over words a lent slot had used (the
arguments hardware wrote there) found them in its status word and counted a stray reply
that never was one (137 false strays in 20 s of fir.fir beside calls through dynamic reps).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from runtime_systems import two_py

from pushpush.runtime import MemoryBus, SyncRuntime


@pytest.fixture
def sys2() -> Iterator[tuple[MemoryBus, SyncRuntime, SyncRuntime]]:
    linked = two_py()
    bus = MemoryBus(linked)
    a = SyncRuntime(linked, "a", bus.sync_backend("a"), timeout=3.0, workers=0)
    b = SyncRuntime(linked, "b", bus.sync_backend("b"), timeout=3.0, workers=0)
    b.export("apply", lambda f, x: f(x))
    b.export("scale_by", lambda k, x: k * x)
    with a, b:
        yield bus, a, b


def _runtime_area(bus: MemoryBus, rt: SyncRuntime) -> list[int]:
    c = rt.component
    return bus.read(c.base + 4 * c.runtime_offset, c.runtime_words)


def test_a_lent_slot_and_a_dynamic_rep_leave_zeros(sys2) -> None:  # type: ignore[no-untyped-def]
    bus, a, b = sys2
    assert not any(_runtime_area(bus, a))
    # a lent slot: b calls it back with 123 (its argument word lands in a's run-time area)
    assert a.b.apply(lambda x: x * 1000 + 7, 123) == 123007
    # a call through a function value: a rep from a's run-time area, with a result word
    comp = a.linked.component("b")
    dyn = comp.slots[comp.export("scale_by").dynamic_slots[0]].address
    assert a.function(dyn, "(k: i32, x: i32) -> i32")(6, 7) == 42
    assert _runtime_area(bus, a) == [0] * a.component.runtime_words
    assert a.counters.strays == 0

