"""Duplicates and strays (docs/architecture.md §2.2): one glitch never corrupts a later call.

A repeated trigger is taken once; a reply nobody waits for, or one with the wrong echo, is
dropped; each is counted in ``runtime.counters``; the next call still gets its own answer.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from runtime_systems import two_py

from pushpush.protocol import ECHO_BIT, STATUS_OK, parse_trigger
from pushpush.runtime import MemoryBus, SyncRuntime


@pytest.fixture
def sys2() -> Iterator[tuple[MemoryBus, SyncRuntime, SyncRuntime, list[int]]]:
    linked = two_py()
    bus = MemoryBus(linked)
    a = SyncRuntime(linked, "a", bus.sync_backend("a"), timeout=3.0, workers=0)
    b = SyncRuntime(linked, "b", bus.sync_backend("b"), timeout=3.0, workers=0)
    notes: list[int] = []
    b.export("add", lambda x, y: x + y)
    b.export("note", notes.append)
    b.export("triple", lambda x: 3 * x)
    with b:
        yield bus, a, b, notes


def _slot(a: SyncRuntime, target: str) -> tuple[int, int]:
    """(cep address, trigger address) of a's static slot for ``target``."""
    info = a.imports[target].info
    return info.cep_address, info.cep_trigger_address


def test_seq_bit_alternates_per_target(sys2) -> None:  # type: ignore[no-untyped-def]
    bus, a, b, _ = sys2
    seen: list[int] = []
    _, trig = _slot(a, "b.add")
    orig = bus.write

    def spy(address: int, words):  # type: ignore[no-untyped-def]
        if address + 4 * (len(words) - 1) == trig:
            seen.append(parse_trigger(words[-1]).seq)
        orig(address, words)

    bus.write = spy  # type: ignore[method-assign]
    assert [a.b.add(i, 1) for i in range(4)] == [1, 2, 3, 4]
    assert seen == [1, 0, 1, 0]


def test_duplicate_static_trigger_runs_once(sys2) -> None:  # type: ignore[no-untyped-def]
    """A trigger re-stored after the callee took it (the simulated board's old memcpy bug)."""
    bus, a, b, notes = sys2
    addr, trig = _slot(a, "b.note")
    a.b.note(7)
    assert notes == [7]
    # replay the exact burst the call wrote: same arguments, same trigger word
    bus.write(addr, [7, _spied[addr]])
    assert _wait(lambda: b.counters.duplicates == 1)
    a.b.note(8)
    assert notes == [7, 8]
    assert b.counters.duplicates == 1


def test_duplicate_dynamic_trigger_while_running(sys2) -> None:  # type: ignore[no-untyped-def]
    """A dynamic slot: the same trigger word again while its call still runs is dropped."""
    bus, a, b, _ = sys2
    started, release = threading.Event(), threading.Event()
    runs: list[int] = []

    def slow(k: int, x: int) -> int:
        runs.append(x)
        started.set()
        release.wait(2)
        return k * x

    b.export("scale_by", slow)
    info = b.component.export("scale_by")
    dyn = b.component.slots[info.dynamic_slots[0]]
    fn = a.function(dyn.address, info.signature)
    out: list[int] = []
    t = threading.Thread(target=lambda: out.append(fn(3, 5)))
    b.stop()
    b.workers = 2
    b.start()
    t.start()
    assert started.wait(2)
    # the trigger a wrote, written again while slow() runs
    word = bus.read(dyn.trigger_address, 1)[0]
    assert word == 0  # taken and re-armed
    rep_word = _last_trigger(bus, a, dyn.address)
    bus.write(dyn.address, [3, 5, rep_word])
    assert _wait(lambda: b.counters.duplicates == 1)
    release.set()
    t.join(3)
    assert out == [15] and runs == [5]


def test_stray_reply_never_answers_a_later_call(sys2) -> None:  # type: ignore[no-untyped-def]
    bus, a, b, _ = sys2
    info = a.imports["b.add"].info
    # a reply for nobody, with each echo, lands in the import's rep slot
    bus.write(info.rep_address, [999, STATUS_OK | ECHO_BIT])
    assert a.b.add(1, 2) == 3
    assert a.counters.strays == 1
    bus.write(info.rep_address, [999, STATUS_OK])
    assert a.b.add(2, 2) == 4
    assert a.counters.strays == 2


def test_reply_with_wrong_echo_is_dropped_while_waiting(sys2) -> None:  # type: ignore[no-untyped-def]
    """A stale reply arriving while a call waits does not answer it."""
    bus, a, b, _ = sys2
    info = a.imports["b.add"].info
    b.stop()  # nobody answers for now
    out: list[int] = []
    t = threading.Thread(target=lambda: out.append(a.b.add(20, 22)))
    t.start()
    assert _wait(lambda: bus.read(info.cep_trigger_address, 1)[0] != 0)
    seq = parse_trigger(bus.read(info.cep_trigger_address, 1)[0]).seq
    wrong = STATUS_OK | (0 if seq else ECHO_BIT)
    bus.write(info.rep_address, [666, wrong])  # stale: the other echo
    assert _wait(lambda: a.counters.strays == 1)
    b.start()
    t.join(3)
    assert out == [42]


def test_late_reply_after_timeout_is_a_stray(sys2) -> None:  # type: ignore[no-untyped-def]
    bus, a, b, _ = sys2
    b.stop()
    with pytest.raises(TimeoutError):
        a.b.add(1, 1, timeout=0.2)
    info = a.imports["b.add"].info
    b.start()  # now b answers the old call into the quarantined rep
    assert _wait(lambda: bus.read(info.rep_trigger_address, 1)[0] != 0)
    assert a.b.add(5, 6) == 11  # its rep is swept first: the late reply is dropped
    assert a.counters.strays == 1
    assert a.b.add(1, 2) == 3


def _last_trigger(bus: MemoryBus, a: SyncRuntime, address: int) -> int:
    """The trigger word a's last call to ``address`` carried (rep address not known here)."""
    return _spied[address]


_spied: dict[int, int] = {}


@pytest.fixture(autouse=True)
def _spy_triggers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Record the last trigger word written into each slot (for replaying it)."""
    orig = MemoryBus.write

    def write(self, address, words):  # type: ignore[no-untyped-def]
        _spied[address] = words[-1]
        orig(self, address, words)

    monkeypatch.setattr(MemoryBus, "write", write)


def _wait(cond, timeout: float = 3.0) -> bool:  # type: ignore[no-untyped-def]
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.005)
    return cond()
