"""The runtime's caller and callee paths without a simulator (issue 35: the paths the
mutation run found untested): buffer calls and their errors, channels, the caller's memory
and journal a board backend keeps, a slot pending in a software window, the trace hooks,
the details of a timeout's message, the exact timing of the sans-IO call routine, local
calls and lent callables.

The rig: a python ``host`` importing from a python ``peer`` and an rtl ``hw`` on the
in-memory bus; the rtl side is played by the test (:class:`FakeHW` reads the call from
``hw``'s window and writes the reply), the optional backend features
(``allocate``, ``owner_of``, ``wait_report``, ``slot_pending``, ``restart_record``,
``restart_journal``, ``handling``) are added to the memory backend as a board's backend
has them.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import pytest

from pushpush.link import LinkedSystem, link
from pushpush.protocol import (
    ECHO_BIT,
    STATUS_OK,
    BusWriteError,
    CallError,
    CallTimeout,
    ErrorCode,
    encode_error,
)
from pushpush.runtime import MemoryBus, SyncRuntime
from pushpush.runtime.caller import SLEEP, Acquire, Write
from pushpush.runtime.claim import JOURNAL_LENT, RECORD_VALID, RECORD_WRITING, OwnerInfo
from pushpush.runtime.memory import MemorySyncBackend
from pushpush.spec import parse_system
from pushpush.trace import software as trace
from pushpush.types import parse_signature

PATHS = """
system: paths
board: none
components:
  host:
    kind: python
    runtime_words: 64
    exports:
      own: "(x: i32) -> i32"
      own_cb: "(f: (x: i32) -> i32, x: i32) -> i32"
      later: "(x: i32) -> i32"
    imports: [hw.f, hw.bufs, hw.cb, peer.add, peer.give, hw.cb2, hw.tick]
  peer:
    kind: python
    exports:
      add: {signature: "(a: i32, b: i32) -> i32", dynamic_slots: 1}
      give: {signature: "() -> (x: i32) -> i32", dynamic_slots: 0}
    imports: [host.own]
  hw:
    kind: rtl
    module: hw
    sources: [hw.v]
    exports:
      f: "(x: i32) -> i32"
      bufs: "(src: in u16[], dst: out u16[], k: u32) -> u32"
      cb: "(f: (x: i32) -> i32, x: i32) -> i32"
      cb2: "(x: i32, f: (x: i32) -> i32) -> i32"
      tick: "(f: () -> void) -> u32"
    channels: [loop]
"""

IMPORTS = ["hw.f", "hw.bufs", "hw.cb", "peer.add", "peer.give", "hw.cb2", "hw.tick"]


def paths() -> LinkedSystem:
    return link(parse_system(PATHS, file="paths.yaml"))


class Buffer(np.ndarray):
    """What ``pynq.allocate`` gives: an array with a physical address, flushed and freed."""

    def __new__(cls, n: int, dtype: Any, phys: int) -> "Buffer":
        self = np.zeros(n, dtype).view(cls)
        self.phys = phys
        self.freed = False
        return self

    def __array_finalize__(self, obj: Any) -> None:
        self.phys = getattr(obj, "phys", 0)
        self.freed = getattr(obj, "freed", False)

    @property
    def physical_address(self) -> int:
        return self.phys

    def flush(self) -> None:
        pass

    def invalidate(self) -> None:
        pass

    def freebuffer(self) -> None:
        self.freed = True


class Backend(MemorySyncBackend):
    """The memory backend with a board backend's hooks, each only when given (else the
    default of :class:`pushpush.runtime.backend.Backend`)."""

    def __init__(self, bus: MemoryBus, component: str, **features: Any) -> None:
        super().__init__(bus, component, 0.005)
        for k, v in features.items():
            setattr(self, k, v)


@dataclass
class Rig:
    linked: LinkedSystem
    bus: MemoryBus
    host: SyncRuntime
    peer: SyncRuntime

    def slot(self, comp: str, function: str, kind: str = "cep_static") -> Any:
        c = self.linked.component(comp)
        return next(s for s in c.slots if s.function == function and s.kind == kind)


def make_rig(timeout: float = 2.0, peer_serves: bool = True, **features: Any) -> Rig:
    linked = paths()
    bus = MemoryBus(linked)
    host = SyncRuntime(linked, "host", Backend(bus, "host", **features), timeout=timeout)
    peer = SyncRuntime(linked, "peer", bus.sync_backend("peer"), timeout=timeout)
    peer.export("add", lambda a, b: a + b)
    host.export("own", lambda x: x * 10)
    if peer_serves:
        peer.start()
    return Rig(linked, bus, host, peer)


@pytest.fixture
def rig() -> Iterator[Rig]:
    r = make_rig()
    yield r
    r.host.stop()
    r.peer.stop()


class FakeHW:
    """Plays the rtl callee of one cep slot: takes each call from ``hw``'s window (clears
    the trigger, as pp_endpoint_mem does) and writes ``reply(args, trigger)`` (the reply's
    words with the status last) to the trigger's rep, from a thread."""

    def __init__(self, rig: Rig, function: str, reply: Callable[[list[int], int], Optional[list[int]]],
                 kind: str = "cep_static") -> None:
        self.rig = rig
        self.slot = rig.slot("hw", function, kind)
        self.reply = reply
        self.calls: list[list[int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> "FakeHW":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    def _loop(self) -> None:
        bus, s = self.rig.bus, self.slot
        trig_addr = s.address + 4 * (s.words - 1)
        while not self._stop.is_set():
            words = bus.read(s.address, s.words)
            if words[-1]:
                bus.write_raw(trig_addr, [0])
                self.calls.append(words)
                out = self.reply(words[:-1], words[-1])
                if out is not None and not words[-1] & 1:
                    bus.write(words[-1] & ~3, out)
            time.sleep(0.001)


def ok(value: int, trigger: int) -> list[int]:
    """Reply words of a u32/i32 result for the call with ``trigger`` (its seq echoed)."""
    return [value & 0xFFFF_FFFF, STATUS_OK | (ECHO_BIT if trigger & 2 else 0)]


def status(code: int, trigger: int, words: int = 1) -> list[int]:
    return [0] * words + [code | (ECHO_BIT if trigger & 2 else 0)]


# ------------------------------------------------------------------------------ buffers


def buffer_rig(**features: Any) -> tuple[Rig, list[Buffer]]:
    made: list[Buffer] = []

    def allocate(n: int, dtype: Any) -> Buffer:
        made.append(Buffer(n, dtype, 0x1000_0000 + 0x1000 * len(made)))
        return made[-1]

    return make_rig(allocate=allocate, **features), made


def test_buffer_call_copies_in_and_back() -> None:
    rig, made = buffer_rig()

    def bufs(args: list[int], trigger: int) -> list[int]:
        src_addr, src_n, dst_addr, dst_n, k = args
        src = next(b for b in made if b.phys == src_addr)
        dst = next(b for b in made if b.phys == dst_addr)
        dst[:dst_n] = src[:src_n] * k      # what the module's stream would write
        return ok(int(src_n), trigger)

    with rig.host, rig.peer, FakeHW(rig, "bufs", bufs) as hw:
        dst = np.zeros(5, np.uint16)
        assert rig.host.hw.bufs(np.arange(5, dtype=np.uint16), dst, 3) == 5
        assert dst.tolist() == [0, 3, 6, 9, 12]
        assert hw.calls[0][:5] == [0x1000_0000, 5, 0x1000_1000, 5, 3]
        assert all(b.freed for b in made)
        # a second call: the same again, with new buffers (no state kept between calls)
        assert rig.host.hw.bufs(np.ones(2, dtype=np.uint16), np.zeros(2, np.uint16), 7) == 2


@pytest.mark.parametrize("index,cause,detail", [
    (0, 1, "buffer 'src' (in u16[]); engine pp_buf_rd (reads it into the module's stream) of component "
           "'hw', stream bufs_src_tdata/_tvalid/_tready/_tlast"),
    (1, 3, "buffer 'dst' (out u16[]); engine pp_buf_wr (writes the module's stream into it) of component "
           "'hw', stream bufs_dst_tdata/_tvalid/_tready/_tlast"),
])
def test_buffer_error_names_the_buffer_and_its_engine(index: int, cause: int, detail: str) -> None:
    rig, made = buffer_rig()
    code = ErrorCode.BUFFER | (index << 8) | (cause << 16)
    with rig.host, rig.peer, FakeHW(rig, "bufs", lambda a, t: status(code, t)):
        dst = np.full(3, 9, np.uint16)
        with pytest.raises(CallError) as info:
            rig.host.hw.bufs(np.arange(3, dtype=np.uint16), dst, 1)
    e = info.value
    assert type(e) is CallError and e.code == code and e.detail == detail
    assert e.function == "hw.bufs" and e.address == rig.slot("hw", "bufs").address
    assert str(e).endswith("; " + detail)
    assert dst.tolist() == [9, 9, 9]            # a failed call copies nothing back
    assert all(b.freed for b in made)


@pytest.mark.parametrize("code", [
    ErrorCode.CALLEE_RAISED,                          # not a BUFFER status: as it came
    ErrorCode.BUFFER | (5 << 8) | (1 << 16),          # names no parameter of bufs
    ErrorCode.BUFFER | (1 << 8),                      # BUFFER without a cause
])
def test_other_errors_of_a_buffer_call_pass_unchanged(code: int) -> None:
    rig, made = buffer_rig()
    with rig.host, rig.peer, FakeHW(rig, "bufs", lambda a, t: status(code, t)):
        with pytest.raises(CallError) as info:
            rig.host.hw.bufs(np.arange(3, dtype=np.uint16), np.zeros(3, np.uint16), 1)
    assert info.value.code == code and info.value.detail is None
    assert str(info.value) == (f"call to hw.bufs at 0x{rig.slot('hw', 'bufs').address:08X} failed: "
                               + str(info.value).split(" failed: ", 1)[1])


def test_buffer_call_timeout_stays_a_timeout() -> None:
    rig, made = buffer_rig(timeout=0.2)
    with rig.host, rig.peer:
        with pytest.raises(CallTimeout) as info:
            rig.host.hw.bufs(np.arange(3, dtype=np.uint16), np.zeros(3, np.uint16), 1)
    assert info.value.code == 0 and info.value.function == "hw.bufs"
    assert all(b.freed for b in made)


def test_buffer_call_cannot_be_posted() -> None:
    rig, made = buffer_rig()
    before = rig.bus.bursts
    with pytest.raises(ValueError, match="hw.bufs takes buffers: a one-way call"):
        rig.host.hw.bufs.post(np.arange(3, dtype=np.uint16), np.zeros(3, np.uint16), 1)
    assert rig.bus.bursts == before and made == []
    rig.peer.stop()


def test_buffer_call_without_allocate_refuses_arrays() -> None:
    rig = make_rig()
    try:
        with pytest.raises(ValueError, match="cannot allocate DMA buffers"):
            rig.host.hw.bufs(np.arange(3, dtype=np.uint16), np.zeros(3, np.uint16), 1)
        rig.host.copy_buffers = False
        with pytest.raises(ValueError, match="not physically contiguous"):
            rig.host.hw.bufs(np.arange(3, dtype=np.uint16), np.zeros(3, np.uint16), 1)
    finally:
        rig.peer.stop()


# ------------------------------------------------------------------------------ channels


def test_channel_is_made_once_per_name(rig: Rig) -> None:
    from pushpush.runtime.channels import DEFAULT_CAPACITY, Channel

    ch = rig.host.channel("hw.loop")
    assert isinstance(ch, Channel) and ch.name == "hw.loop" and ch.capacity == DEFAULT_CAPACITY
    assert rig.host.channel("hw.loop") is ch
    assert rig.host.channel("hw.loop", capacity=64) is ch and ch.capacity == 64
    assert rig.host.channel("hw.loop").capacity == 64          # kept when not given
    by_number = rig.host.channel("hw.0", capacity=8)            # by RIFFA number: its own cache entry
    assert by_number.name == "hw.loop" and by_number.capacity == 8 and ch.capacity == 64
    assert rig.host.hw.channel("loop") is ch                    # rt.<comp>.channel(name)
    assert ch._rx.address == rig.slot("hw", "loop_rx", "cep_dynamic").address
    assert ch._tx.address == rig.slot("hw", "loop_tx", "cep_dynamic").address


def test_channel_names_are_checked(rig: Rig) -> None:
    with pytest.raises(ValueError, match=r"channel 'loop': name it as 'component.channel', e.g. 'hw.loop'"):
        rig.host.channel("loop")
    with pytest.raises(KeyError) as info:
        rig.host.channel("hw.nope")
    assert info.value.args[0] == "component 'hw' has no channel 'nope' (its channels: loop)"
    with pytest.raises(KeyError) as info:
        rig.host.channel("peer.loop")
    assert info.value.args[0] == "component 'peer' has no channel 'loop' (its channels: none)"


# ------------------------------------------------------------------------------ the call routine, step by step


class Clock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def steps_of(rig: Rig, target: str, words: list[int], timeout: float, clock: Clock,
             one_way: bool = False) -> Any:
    fn = rig.host.imports[target]
    # the cep address's lock is held (as by another call of this runtime): the routine asks
    # for it with Acquire instead of taking it at once (its call plan); this test is its
    # driver, which takes it (here: has it) and gives it back when the steps end (here: now)
    lock = rig.host._cep_lock(fn.address)
    assert lock.acquire(False)
    gen = rig.host._remote_call(fn, words, timeout, one_way, clock)
    assert type(next(gen)) is Acquire
    lock.release()
    return fn, gen


def test_write_refused_until_exactly_the_deadline() -> None:
    rig = make_rig(peer_serves=False)
    clock = Clock()
    fn, gen = steps_of(rig, "hw.f", [5], 1.0, clock)
    step = gen.send(True)
    assert type(step) is Write and step.address == fn.address and step.words[0] == 5
    refused = BusWriteError(fn.address, 2, "SLVERR")
    clock.t = 100.75
    assert gen.send(refused) is SLEEP                    # refused before the deadline: retry
    assert type(gen.send(None)) is Write
    clock.t = 101.0                                       # at the deadline: the error
    with pytest.raises(CallError) as info:
        gen.send(refused)
    e = info.value
    assert e.code == ErrorCode.COLLISION and e.address == fn.address
    assert e.detail == ("the write was refused with SLVERR for 1 s (the slot holds a pending call, or the "
                        "address is not a slot)")
    assert rig.host.counters.write_errors == 1
    # the call never went out: the next call carries the same seq bit
    assert rig.host._seq.get(fn.address, 1) == 1
    rep = rig.host._static_reps[fn.address]
    assert rep.address not in rig.host._static_reps_busy


@pytest.mark.parametrize("resp,code,detail", [
    ("DECERR", ErrorCode.BAD_FUNCTION, "nothing is mapped at this address (DECERR)"),
    ("EXOKAY", ErrorCode.BUS_ERROR, "write of 2 word(s) to 0x43C00000 failed: EXOKAY"),
])
def test_other_write_errors_at_once(resp: str, code: int, detail: str) -> None:
    rig = make_rig(peer_serves=False)
    fn, gen = steps_of(rig, "hw.f", [5], 1.0, Clock())
    gen.send(True)
    with pytest.raises(CallError) as info:
        gen.send(BusWriteError(fn.address, 2, resp))
    assert info.value.code == code and info.value.detail == detail
    assert info.value.function == "hw.f" and info.value.address == 0x43C0_0000
    assert rig.host.counters.write_errors == 1
    fn, gen = steps_of(rig, "hw.f", [5], 1.0, Clock())
    gen.send(True)
    with pytest.raises(CallError):
        gen.send(BusWriteError(fn.address, 2, resp))
    assert rig.host.counters.write_errors == 2          # counted each time


def test_with_cycles_waits_on_the_backends_clock_of_progress() -> None:
    """A call of a ``with_cycles`` copy (a channel's calls; the hardware answers within its
    cycles while the PL runs) waits on the backend's ``progress_clock`` (the simulated board:
    seconds without progress; here a clock that counts its reads as seconds), whose report
    leads the timeout's message; other calls, and a backend without such a clock (the
    default: a board), keep the wall clock."""
    made: list[float] = []

    class Stalled:
        t = 0.0

        def __call__(self) -> float:
            self.t += 1.0
            return self.t

        def report(self) -> str:
            return f"no progress for {self.t:g} s at cycle 7"

    def progress_clock(cycles: float) -> Stalled:
        made.append(cycles)
        return Stalled()

    rig = make_rig(peer_serves=False, progress_clock=progress_clock)
    f = rig.host.imports["hw.f"]
    with pytest.raises(ValueError, match=r"hw.f: with_cycles needs a positive number of clock cycles, not 0"):
        f.with_cycles(0)
    with pytest.raises(CallTimeout) as info:
        f.with_cycles(5000, timeout=3.0)(5)
    assert made == [5000.0] and info.value.timeout == 3.0
    assert info.value.detail == "no progress for 5 s at cycle 7; no reply (is the callee running and serving?)"
    other = make_rig(peer_serves=False, progress_clock=progress_clock)
    with pytest.raises(CallTimeout) as info:
        other.host.imports["hw.f"](5, timeout=0.05)   # not with_cycles: the wall clock
    assert made == [5000.0] and info.value.detail is None
    # the runtime's own bound: every call as with_cycles (a function's bound first)
    with pytest.raises(ValueError, match=r"runtime of 'host': cycles must be a positive number of clock cycles or None, not -1"):
        other.host.cycles = -1
    third = make_rig(peer_serves=False, progress_clock=progress_clock)
    third.host.cycles = 777
    with pytest.raises(CallTimeout) as info:
        third.host.imports["hw.f"](5, timeout=3.0)
    assert made == [5000.0, 777.0] and third.host.cycles == 777.0
    assert info.value.detail.startswith("no progress for 5 s at cycle 7")
    plain = make_rig(peer_serves=False)            # no progress clock: the wall clock
    with pytest.raises(CallTimeout):
        plain.host.imports["hw.f"].with_cycles(math.inf, timeout=0.05)(5)


def test_reply_wait_times_out_exactly_at_the_deadline(caplog: pytest.LogCaptureFixture) -> None:
    reports: list[float] = []

    def wait_report(waited: float) -> str:
        reports.append(waited)
        return "the board ran 12 cycles"

    rig = make_rig(peer_serves=False, wait_report=wait_report)
    clock = Clock()
    fn, gen = steps_of(rig, "hw.f", [5], 2.0, clock)
    assert type(gen.send(True)) is Write
    assert gen.send(None) is SLEEP
    clock.t = 101.999
    assert gen.send(None) is SLEEP
    clock.t = 102.0
    with pytest.raises(CallTimeout) as info:
        gen.send(None)
    assert reports == [2.0]
    assert info.value.detail == "no reply (is the callee running and serving?); the board ran 12 cycles"
    assert info.value.timeout == 2.0 and info.value.function == "hw.f"
    # its rep is quarantined until the late reply lands, then released as a stray
    rep = rig.host._static_reps[fn.address]
    assert rig.host._quarantine == [rep]
    rig.bus.write(rep.address, [7, STATUS_OK | ECHO_BIT])
    with caplog.at_level(logging.WARNING, logger="pushpush.runtime"):
        rig.host._sweep_quarantine()
    assert (f"host: dropped a stray reply at 0x{rep.address:08X} (the reply of a call that had timed out)"
            in caplog.text)
    assert rig.host._quarantine == [] and rig.host.counters.strays == 1
    assert rep.address not in rig.host._static_reps_busy
    assert rig.bus.read(rep.status_address, 1) == [0]


def test_one_way_triggers_alternate_seq() -> None:
    rig = make_rig(peer_serves=False)
    s = rig.slot("hw", "f")
    triggers = []
    for x in (1, 2, 3):
        rig.host.hw.f.post(x)
        words = rig.bus.read(s.address, 2)
        triggers.append(words[1])
        assert words[0] == x
        rig.bus.write_raw(s.address + 4, [0])        # the callee took it
    assert triggers == [0x3, 0x1, 0x3]
    assert rig.host._static_reps_busy == set()


def test_wrong_echo_is_dropped_with_its_reason(caplog: pytest.LogCaptureFixture) -> None:
    rig = make_rig(peer_serves=False)
    clock = Clock()
    fn, gen = steps_of(rig, "hw.f", [5], 2.0, clock)
    gen.send(True)
    assert gen.send(None) is SLEEP
    rep = rig.host._static_reps[fn.address]
    rig.bus.write(rep.address, [1, STATUS_OK])          # echo 0: not this call's (seq 1)
    with caplog.at_level(logging.WARNING, logger="pushpush.runtime"):
        assert gen.send(None) is SLEEP
    assert "dropped a stray reply at 0x%08X (echo 0, the call to hw.f waits for 1)" % rep.address in caplog.text
    rig.bus.write(rep.address, [0xFFFF_FFF9, STATUS_OK | ECHO_BIT])
    with pytest.raises(StopIteration) as done:
        gen.send(None)
    assert done.value.value == -7 and rig.host.counters.strays == 1


def test_stray_in_a_static_rep_before_the_call(rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    rep = rig.host._static_reps[rig.slot("peer", "add").address]
    rig.host.backend.write_local(rep.status_address, [STATUS_OK])
    with caplog.at_level(logging.WARNING, logger="pushpush.runtime"):
        assert rig.host.peer.add(2, 3) == 5
    assert rig.host.counters.strays == 1
    assert f"dropped a stray reply at 0x{rep.address:08X} (left in the slot before the call)" in caplog.text


# ------------------------------------------------------------------------------ software windows: a pending slot


def test_pending_slot_in_a_software_window_is_waited_for() -> None:
    asked: list[int] = []
    answers = iter([True, True, False])

    def slot_pending(address: int) -> bool:
        asked.append(address)
        return next(answers, False)

    rig = make_rig(slot_pending=slot_pending)
    try:
        add = rig.slot("peer", "add")
        assert rig.host.peer.add(4, 5) == 9
        assert asked == [add.address + 8] * 3          # the trigger word of its slot
        asked.clear()
        with FakeHW(rig, "f", lambda a, t: ok(a[0] + 1, t)):
            assert rig.host.hw.f(1) == 2               # a pl slot: the bus refuses, nobody asks
        assert asked == []
        # the first word of the ps region (host's first slot) is a software window's too
        peer_asked: list[int] = []
        peer = SyncRuntime(rig.linked, "peer", Backend(rig.bus, "peer", slot_pending=peer_asked.append),
                           timeout=2.0)
        own = rig.slot("host", "own")
        assert own.address == rig.linked.ps.base
        rig.host.start()
        assert peer.host.own(4) == 40 and peer_asked == [own.address + 4]
    finally:
        rig.host.stop()
        rig.peer.stop()


def test_slot_pending_for_ever_is_a_collision() -> None:
    rig = make_rig(timeout=0.1, slot_pending=lambda address: True)
    try:
        before = rig.bus.bursts
        with pytest.raises(CallError) as info:
            rig.host.peer.add(1, 2)
        assert info.value.code == ErrorCode.COLLISION and rig.host.counters.write_errors == 1
        assert info.value.detail.startswith("the write was refused with SLVERR for ")
        add = rig.slot("peer", "add").address
        assert str(info.value.__cause__) == f"write of 3 word(s) to 0x{add:08X} failed: SLVERR"
        assert rig.bus.bursts == before                 # nothing written
    finally:
        rig.peer.stop()


# ------------------------------------------------------------------------------ the caller's memory, the journal


def test_record_keeps_each_imports_seq(caplog: pytest.LogCaptureFixture) -> None:
    record = bytearray(len(IMPORTS))
    rig = make_rig(restart_record=record)
    try:
        k = IMPORTS.index("peer.add")
        seen: list[int] = []
        rig.peer.export("add", lambda a, b: seen.append(record[k]) or a + b)
        assert rig.host.peer.add(1, 1) == 2
        assert record[k] == RECORD_VALID | 1 and seen == [RECORD_VALID | 1]
        assert rig.host.peer.add(1, 2) == 3
        assert record[k] == RECORD_VALID | 0 and seen[1] == RECORD_VALID
        assert [record[i] for i in range(len(IMPORTS)) if i != k] == [0] * (len(IMPORTS) - 1)
        # a runtime started again continues the alternation: its first call carries seq 1
        rig.host.stop()
        with caplog.at_level(logging.WARNING, logger="pushpush.runtime"):
            again = SyncRuntime(rig.linked, "host", Backend(rig.bus, "host", restart_record=record), timeout=2.0)
        assert "was being written" not in caplog.text          # the last call's write had ended
        assert again._seq == {rig.slot("peer", "add").address: 1}
        assert again.peer.add(2, 2) == 4 and record[k] == RECORD_VALID | 1
    finally:
        rig.peer.stop()


def test_record_while_writing_and_after_a_failed_write() -> None:
    record = bytearray(len(IMPORTS))
    k = IMPORTS.index("hw.f")
    record[k] = RECORD_VALID | 1                      # the last owner's last call carried seq 1
    rig = make_rig(peer_serves=False, restart_record=record)
    fn, gen = steps_of(rig, "hw.f", [5], 1.0, Clock())
    step = gen.send(True)
    assert step.words[-1] & 2 == 0                     # continues with seq 0
    assert record[k] == RECORD_VALID | RECORD_WRITING | 0
    with pytest.raises(CallError):
        gen.send(BusWriteError(fn.address, 2, "DECERR"))
    assert record[k] == RECORD_VALID | 1               # never reached the slot: as before


def test_record_with_a_write_under_way_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    record = bytearray(len(IMPORTS))
    record[IMPORTS.index("peer.add")] = RECORD_VALID | RECORD_WRITING | 0
    record[IMPORTS.index("hw.f")] = 1                  # not valid: ignored
    with caplog.at_level(logging.WARNING, logger="pushpush.runtime"):
        rig = make_rig(peer_serves=False, restart_record=record)
    assert rig.host._seq == {rig.slot("peer", "add").address: 1}
    assert "the last owner was ended while its call to peer.add was being written" in caplog.text


def test_journal_notes_run_time_slots_while_in_use() -> None:
    linked = paths()
    host_c = linked.component("host")
    journal = bytearray(2 * host_c.runtime_words)
    seen: list[bytes] = []
    rig = make_rig(restart_journal=journal)
    try:
        def add(a: int, b: int) -> int:
            seen.append(bytes(journal))
            return a + b
        rig.peer.export("add", add)
        # a function value's call takes a run-time rep: noted while the call runs
        dyn = rig.host.function(rig.slot("peer", "add", "cep_dynamic").address, "(a: i32, b: i32) -> i32")
        assert dyn(3, 4) == 7
        rep_words = dyn.signature.rep_words
        assert seen[0][0] == rep_words and seen[0][1] == 0 and not any(seen[0][2:])
        assert not any(journal)                          # cleared after the reply
        # a lent callable: noted with JOURNAL_LENT and its rep's words - 1 (hw.cb itself takes
        # the import's static rep: not in the journal)
        lent: list[bytes] = []

        def cb(args: list[int], trigger: int) -> list[int]:
            lent.append(bytes(journal))
            return ok(args[1], trigger)

        with FakeHW(rig, "cb", cb) as hw:
            rig.host.start()
            assert rig.host.hw.cb(lambda x: x, 9) == 9
        cep = parse_signature("(x: i32) -> i32").cep_words
        noted = [(j // 2, lent[0][j], lent[0][j + 1]) for j in range(0, len(lent[0]), 2) if lent[0][j]]
        word = (hw.calls[0][0] - rig.linked.component("host").base) // 4 - rig.linked.component("host").runtime_offset
        assert noted == [(word, cep, JOURNAL_LENT | 1)]
        assert not any(journal)
    finally:
        rig.host.stop()
        rig.peer.stop()


def test_inherited_journal_quarantines_reps_and_watches_lent_slots_as_dead() -> None:
    linked = paths()
    host_c = linked.component("host")
    journal = bytearray(2 * host_c.runtime_words)
    journal[0:2] = bytes([2, 0])                   # a rep of 2 words at run-time word 0
    journal[2 * 4:2 * 4 + 2] = bytes([2, JOURNAL_LENT | 1])   # a lent cep of 2 words at word 4, u32 result
    journal[2 * 8:2 * 8 + 2] = bytes([3, JOURNAL_LENT | 3])   # 3 words at word 8, u64 result
    rig = make_rig(restart_journal=journal)
    host = rig.host
    try:
        base = host_c.base + 4 * host_c.runtime_offset
        assert [r.address for r in host._quarantine] == [base]
        dead = {s.address: s for s in host._served.values() if s.handler is None}
        assert sorted(dead) == [base + 16, base + 32]
        assert str(dead[base + 16].signature.result) == "u32" and dead[base + 16].words == 2
        assert str(dead[base + 32].signature.result) == "u64" and dead[base + 32].words == 3
        assert journal[0:2] == bytes([2, 0]) and not any(journal[2:])   # lent entries forgotten
        assert host.allocator._next == host_c.runtime_offset + 11        # next-fit after them
        # a late call into a dead lent slot answers BAD_FUNCTION
        host.start()
        gone = rig.peer.function(base + 16, "(a0: u32) -> u32")
        with pytest.raises(CallError) as info:
            gone(1)
        assert info.value.code == ErrorCode.BAD_FUNCTION
        # the quarantined rep's late reply lands: a stray, its words freed
        rig.bus.write(base, [0, STATUS_OK])
        assert host.peer.add(1, 2) == 3
        assert host._quarantine == [] and host.counters.strays == 1
        assert journal[0:2] == bytes([0, 0])
    finally:
        rig.host.stop()
        rig.peer.stop()


def test_journal_of_another_layout_is_forgotten() -> None:
    linked = paths()
    host_c = linked.component("host")
    rw = host_c.runtime_words
    journal = bytearray(2 * rw + 8)
    journal[0:2] = bytes([2, 0])                         # a rep at word 0 ...
    journal[2:4] = bytes([2, 0x81])                      # ... overlapped by one at word 1: not ours
    journal[2 * 8:2 * 8 + 2] = bytes([2, 0])             # a rep at word 8: still taken
    journal[2 * (rw - 1):2 * rw] = bytes([5, 0x81])      # runs past the area's end: not ours
    journal[2 * rw] = 7                                   # past the area: not looked at
    rig = make_rig(peer_serves=False, restart_journal=journal)
    base = host_c.base + 4 * host_c.runtime_offset
    assert [r.address for r in rig.host._quarantine] == [base, base + 32]
    assert journal[0:4] == bytes([2, 0, 0, 0]) and journal[16:18] == bytes([2, 0])
    assert journal[2 * (rw - 1):2 * rw] == bytes([0, 0]) and journal[2 * rw] == 7


# ------------------------------------------------------------------------------ trace hooks


def test_trace_notes_issued_seen_entered_left(rig: Rig) -> None:
    trace.start(clock=lambda: 7)
    try:
        assert rig.host.peer.add(1, 2) == 3
    finally:
        events = trace.stop()
    add = rig.slot("peer", "add")
    got = [(e[0], e[1], e[2], e[3], e[5]) for e in events]
    assert got[0] == ("issued", 7, "host", "peer.add", 0)
    assert ("entered", 7, "peer", "peer.add", add.address) in got
    assert ("left", 7, "peer", "peer.add", add.address) in got
    assert got[-1] == ("seen", 7, "host", "peer.add", 0)
    assert [g[0] for g in got] == ["issued", "entered", "left", "seen"]


# ------------------------------------------------------------------------------ timeout details


def owner(pid: Optional[int]) -> OwnerInfo:
    return OwnerInfo(pid=pid, since="2026-11-28 03:00:00", runtime="python", component="peer",
                     program="peer.py")


@pytest.mark.parametrize("state,detail", [
    (None, "callee 'peer' has no runtime: no process has claimed it on this board; start its program "
           "(the call waits in its slot until then)"),
    ((False, owner(4242)), "callee 'peer''s process (PID 4242, python runtime, program peer.py, claimed "
                           "since 2026-11-28 03:00:00) exited; start it again: calls resume without a reload"),
    ((False, owner(None)), "callee 'peer''s process (an unknown process, python runtime, program peer.py, "
                           "claimed since 2026-11-28 03:00:00) exited; start it again: calls resume without a "
                           "reload"),
    ((True, owner(4242)), None),
    (LookupError("no claims"), None),
])
def test_timeout_names_a_dead_callee(state: Any, detail: Optional[str]) -> None:
    asked: list[str] = []

    def owner_of(component: str) -> Any:
        asked.append(component)
        if isinstance(state, Exception):
            raise state
        return state

    rig = make_rig(timeout=0.05, peer_serves=False, owner_of=owner_of)
    with pytest.raises(CallTimeout) as info:
        rig.host.peer.add(1, 2)
    assert info.value.detail == detail and asked == ["peer"]
    # a call into an rtl component or an unmapped address asks nobody
    asked.clear()
    with pytest.raises(CallTimeout) as info:
        rig.host.hw.f(1)
    assert info.value.detail is None and asked == []


def test_timeout_names_a_dead_callee_beside_the_boards_report() -> None:
    rig = make_rig(timeout=0.05, peer_serves=False, owner_of=lambda c: None,
                   wait_report=lambda waited: "cycles: 0")
    with pytest.raises(CallTimeout) as info:
        rig.host.peer.add(1, 2)
    assert info.value.detail == (
        "callee 'peer' has no runtime: no process has claimed it on this board; start its program (the call "
        "waits in its slot until then); no reply (is the callee running and serving?); cycles: 0")


def test_timeout_names_unserved_exports_waiting_here() -> None:
    rig = make_rig(timeout=0.05, peer_serves=False, wait_report=lambda waited: "cycles: 3")
    later = rig.slot("host", "later", "cep_dynamic")
    rig.bus.write(later.address, [1, 0x0001])   # someone called host.later: nobody serves it
    with pytest.raises(CallTimeout) as info:
        rig.host.hw.f(1)
    assert info.value.detail == (
        "no reply: while it waited, host.later called this component's export(s) that no Python function "
        "serves; register them with rt.export(name, fn); cycles: 3")
    assert rig.host.unserved_calls() == ["host.later"]
    own_cb = rig.slot("host", "own_cb", "cep_dynamic")
    rig.bus.write(own_cb.address, [0, 0, 0x0001])
    rig.host.backend.wait_report = lambda waited: None   # type: ignore[attr-defined]
    f = rig.slot("hw", "f")
    rig.bus.write_raw(f.address + 4, [0])                  # the first call was taken
    with pytest.raises(CallTimeout) as info:
        rig.host.hw.f(1)
    assert info.value.detail == (
        "no reply: while it waited, host.own_cb, host.later called this component's export(s) that no Python "
        "function serves; register them with rt.export(name, fn)")


def test_unserved_calls_lists_only_exports_with_a_call(rig: Rig) -> None:
    assert rig.host.unserved() == ["own_cb", "later"]
    assert rig.host.unserved_calls() == []
    own_cb = rig.slot("host", "own_cb", "cep_dynamic")
    rig.bus.write(own_cb.address, [0, 0, 0x0001])
    assert rig.host.unserved_calls() == ["host.own_cb"]
    rig.host.export("own_cb", lambda f, x: x)
    assert rig.host.unserved_calls() == []


# ------------------------------------------------------------------------------ local calls


def test_local_call_of_an_own_function(rig: Rig) -> None:
    own = rig.host.function(rig.slot("host", "own").address, "(x: i32) -> i32", name="mine")
    before = rig.bus.bursts
    assert own(4) == 40 and own(-3) == -30
    assert own.name == "mine"
    assert rig.bus.bursts == before                         # no bus traffic
    assert own.post(5) is None


def test_local_call_raising(rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    def own(x: int) -> int:
        raise ValueError(f"no {x}")

    rig.host.export("own", own)
    f = rig.host.function(rig.slot("host", "own").address, "(x: i32) -> i32")
    with caplog.at_level(logging.ERROR, logger="pushpush.runtime"):
        with pytest.raises(CallError) as info:
            f(3)
    e = info.value
    assert e.code == ErrorCode.CALLEE_RAISED and e.detail == "ValueError: no 3"
    assert e.function == f.name and e.address == f.address and isinstance(e.__cause__, ValueError)
    assert [(n, str(x)) for n, x in rig.host.errors] == [("host.own", "no 3")]
    assert f.post(4) is None                                # one-way: recorded, not raised
    assert [(n, str(x)) for n, x in rig.host.errors][-1] == ("host.own", "no 4")


def test_local_call_bad_result(rig: Rig) -> None:
    rig.host.export("own", lambda x: "not a number")
    f = rig.host.function(rig.slot("host", "own").address, "(x: i32) -> i32")
    with pytest.raises(CallError) as info:
        f(3)
    assert info.value.code == ErrorCode.BAD_RESULT and info.value.detail is None
    name, e = rig.host.errors[-1]
    assert name == "host.own" and isinstance(e, TypeError) and "not a number" in str(e)


def test_local_call_lends_and_retires_a_callable(rig: Rig) -> None:
    got: list[Any] = []

    def own_cb(f: Any, x: int) -> int:
        got.append(f)
        return f(x) + 1

    rig.host.export("own_cb", own_cb)
    rig.host.start()
    g = rig.host.function(rig.slot("host", "own_cb", "cep_dynamic").address,
                          "(f: (x: i32) -> i32, x: i32) -> i32")
    assert g(lambda x: x * 3, 5) == 16
    lent = got[0].address
    s = rig.host._served[(lent - rig.linked.component("host").base) // 4 + 1]
    assert s.handler is None and s.allocation is None        # retired after the call
    # the retired callback answers BAD_FUNCTION from the bus
    with pytest.raises(CallError) as info:
        rig.peer.function(lent, "(x: i32) -> i32")(1)
    assert info.value.code == ErrorCode.BAD_FUNCTION


def test_async_value_of_a_local_call_is_awaited() -> None:
    import asyncio

    from pushpush.runtime import AsyncRuntime

    async def main() -> None:
        linked = paths()
        bus = MemoryBus(linked)
        host = AsyncRuntime(linked, "host", bus.async_backend("host"), timeout=2.0)

        async def own(x: int) -> int:
            await asyncio.sleep(0)
            return x + 100

        host.export("own", own)
        f = host.function(linked.component("host").slots[0].address, "(x: i32) -> i32")
        assert await f(1) == 101

    asyncio.run(main())


# ------------------------------------------------------------------------------ function values


def test_import_passed_as_a_function_value_goes_to_its_dynamic_slot(rig: Rig) -> None:
    dyn = rig.slot("peer", "add", "cep_dynamic").address
    as_i32 = dyn - (1 << 32) if dyn >= 1 << 31 else dyn
    with FakeHW(rig, "cb", lambda a, t: ok(a[0], t)) as hw:
        assert rig.host.hw.cb(rig.host.peer.add, 1) == as_i32
        assert rig.host.hw.cb(f=rig.host.peer.add, x=1) == as_i32
    assert [c[0] for c in hw.calls] == [dyn, dyn]
    with pytest.raises(ValueError, match="peer.give cannot be passed as a function value"):
        rig.host.hw.cb(rig.host.peer.give, 1)


def test_returned_function_value_is_bound_or_none(rig: Rig) -> None:
    rig.peer.export("give", lambda: lambda x: 5 * x)
    f = rig.host.peer.give()
    assert f(3) == 15 and f.runtime is rig.host
    assert str(f.signature) == "(x: i32) -> i32"
    # a callee (RTL, C) may answer the null function: None, not a function at address 0
    rig.peer.stop()
    fn, gen = steps_of(rig, "peer.give", [], 1.0, Clock())
    gen.send(True)
    rep = rig.host._static_reps[fn.address]
    rig.bus.write(rep.address, [0, STATUS_OK])
    with pytest.raises(StopIteration) as done:
        gen.send(None)
    assert done.value.value is None


# ------------------------------------------------------------------------------ callee side


def peer_add_dynamic(linked: LinkedSystem) -> Any:
    """peer.add's dynamic slot: where the tests below write calls as any caller would."""
    return next(s for s in linked.component("peer").slots if s.function == "add" and s.kind == "cep_dynamic")


def test_callee_notes_handling_and_duplicates_of_dynamic_slots() -> None:
    marks: list[int] = []
    linked = paths()
    bus = MemoryBus(linked)
    peer = SyncRuntime(linked, "peer", Backend(bus, "peer", handling=marks.append), timeout=1.0, workers=0)
    peer.export("add", lambda a, b: a + b)
    host_c = linked.component("host")
    dyn = peer_add_dynamic(linked)
    soft_rep = host_c.base + 4 * host_c.runtime_offset
    # a software caller's call (its reply goes into host's window): the PL waits for nothing,
    # so it is not counted as being answered
    bus.write(dyn.address, [2, 3, soft_rep])
    soft = peer._take_calls()
    assert [c.args for c in soft] == [[2, 3]] and not soft[0].pl and marks == []
    peer._dispatch(soft[0])
    assert marks == [] and bus.read(soft_rep, 2) == [5, STATUS_OK]
    # a call of the PL (its reply goes into hw's window): counted while it is answered
    rep = linked.component("hw").base + 0x40
    bus.write(dyn.address, [2, 3, rep])
    calls = peer._take_calls()
    assert [c.args for c in calls] == [[2, 3]] and calls[0].pl and marks == [1]
    assert peer._in_flight[dyn.offset + 2] == [rep]
    bus.write(dyn.address, [2, 3, rep])               # the same trigger while it runs: a duplicate
    assert peer._take_calls() == [] and peer.counters.duplicates == 1
    bus.write(dyn.address, [2, 3, rep])               # and again: counted again
    assert peer._take_calls() == [] and peer.counters.duplicates == 2 and marks == [1]
    peer._dispatch(calls[0])
    assert marks == [1, -1] and peer._in_flight[dyn.offset + 2] == []
    assert bus.read(rep, 2) == [5, STATUS_OK]
    bus.write_raw(rep + 4, [0])
    bus.write(dyn.address, [4, 4, rep])               # done: the same trigger is a new call
    assert peer.poll() == 1 and bus.read(rep, 2) == [8, STATUS_OK]


def test_one_way_calls_are_never_counted_as_answered_to_the_pl() -> None:
    """A one-way call has no reply, so nobody in the PL waits for it, even when its trigger
    carries an address inside a hardware window."""
    marks: list[int] = []
    linked = paths()
    bus = MemoryBus(linked)
    peer = SyncRuntime(linked, "peer", Backend(bus, "peer", handling=marks.append), timeout=1.0, workers=0)
    got: list[int] = []
    peer.export("add", lambda a, b: got.append(a + b) or 0)
    dyn = peer_add_dynamic(linked)
    rep = linked.component("hw").base + 0x40
    bus.write(dyn.address, [2, 3, rep | 1])           # bit 0: one-way
    calls = peer._take_calls()
    assert [c.args for c in calls] == [[2, 3]] and not calls[0].pl and marks == []
    peer._dispatch(calls[0])
    assert got == [5] and marks == [] and bus.read(rep, 2) == [0, 0]


def test_a_backend_without_handling_answers_calls_of_the_pl() -> None:
    """``handling`` is a hook with a default that does nothing: a backend that keeps it (the
    in-memory bus, cocotb) answers a call whose reply goes to the PL like any other."""
    from pushpush.runtime.backend import Backend

    linked = paths()
    bus = MemoryBus(linked)
    backend = bus.sync_backend("peer")
    assert type(backend).handling is Backend.handling
    peer = SyncRuntime(linked, "peer", backend, timeout=1.0, workers=0)
    peer.export("add", lambda a, b: a + b)
    dyn = peer_add_dynamic(linked)
    rep = linked.component("hw").base + 0x40
    bus.write(dyn.address, [2, 3, rep])
    assert peer.poll() == 1 and bus.read(rep, 2) == [5, STATUS_OK]


def test_a_returned_function_with_no_slot_left_is_callee_raised(caplog: pytest.LogCaptureFixture) -> None:
    """An export returning a new function when its runtime has no run-time words left to lend
    it: the caller gets CALLEE_RAISED at once (not a timeout), the callee keeps the error."""
    from pushpush.protocol import SlotsExhausted

    rig = make_rig()
    try:
        peer = rig.peer
        peer.export("give", lambda: (lambda x: x + 1))
        taken = peer.allocator.allocate(peer.allocator.words, "the test")
        for _ in range(2):                            # both values of the call's seq bit
            with pytest.raises(CallError) as info:
                rig.host.peer.give()
            assert type(info.value) is CallError and info.value.code == ErrorCode.CALLEE_RAISED
        assert [name for name, _ in peer.errors] == ["peer.give", "peer.give"]
        assert all(isinstance(e, SlotsExhausted) for _, e in peer.errors)
        assert "peer.give returned a function this runtime has no slot for" in caplog.text
        peer.allocator.free(taken)
        assert rig.host.peer.give()(1) == 2         # room again: served
    finally:
        rig.peer.stop()


def test_dead_reply_echoes_the_calls_seq() -> None:
    s = type("S", (), {"signature": parse_signature("(x: i32) -> i32"), "name": "x.cb", "address": 0x10})()
    from pushpush.runtime.callee import Callee

    assert Callee._dead_reply(s) == encode_error(s.signature, ErrorCode.BAD_FUNCTION, 0)  # type: ignore[arg-type]
    assert Callee._dead_reply(s, 1) == encode_error(s.signature, ErrorCode.BAD_FUNCTION, 1)  # type: ignore[arg-type]
    assert Callee._dead_reply(s)[-1] == ErrorCode.BAD_FUNCTION  # type: ignore[arg-type]


def test_unserved_export_warned_once_per_export(caplog: pytest.LogCaptureFixture) -> None:
    linked = paths()
    bus = MemoryBus(linked)
    host = SyncRuntime(linked, "host", bus.sync_backend("host"), timeout=1.0, workers=0)
    later = next(s for s in linked.component("host").slots if s.function == "later")
    own_cb = next(s for s in linked.component("host").slots if s.function == "own_cb")
    with caplog.at_level(logging.WARNING, logger="pushpush.runtime"):
        host.poll()
        assert "no Python function serves it" not in caplog.text
        bus.write(later.address, [1, 0x0001])
        host.poll()
        host.poll()
        bus.write(own_cb.address, [0, 0, 0x0001])
        host.poll()
    warned = [r.getMessage() for r in caplog.records if "no Python function serves it" in r.getMessage()]
    assert warned == [
        "host.later is being called but no Python function serves it; the call waits until one is "
        "registered: rt.export('later', fn)",
        "host.own_cb is being called but no Python function serves it; the call waits until one is "
        "registered: rt.export('own_cb', fn)"]
    assert [name for name, _ in host._unwarned] == ["own"]


def test_dunder_and_unknown_attributes() -> None:
    linked = paths()
    rt = SyncRuntime(linked, "host", MemoryBus(linked).sync_backend("host"))
    with pytest.raises(AttributeError) as info:
        rt.__nope__
    assert str(info.value) == "__nope__"
    with pytest.raises(AttributeError) as info:
        rt.peeer
    assert str(info.value) == "component 'host' imports nothing from 'peeer'; did you mean 'peer'?"
    assert {"hw", "peer"} <= set(dir(rt)) and "export" in dir(rt)
    bare = SyncRuntime.__new__(SyncRuntime)       # before __init__ set the namespaces up
    with pytest.raises(AttributeError) as info:
        bare.hw
    assert str(info.value) == "hw"


# ------------------------------------------------------------------------------ lending, more


def test_sleep_step_reads_as_sleep() -> None:
    assert repr(SLEEP) == "SLEEP"


def test_buffer_call_keywords_and_its_own_timeout() -> None:
    rig, made = buffer_rig()
    with rig.host, rig.peer, FakeHW(rig, "bufs", lambda a, t: ok(a[4], t)):
        assert rig.host.hw.bufs(np.arange(2, dtype=np.uint16), dst=np.zeros(2, np.uint16), k=11) == 11
    with pytest.raises(CallTimeout) as info:
        rig.host.hw.bufs(np.arange(2, dtype=np.uint16), np.zeros(2, np.uint16), 1, timeout=0.05)
    assert info.value.timeout == 0.05
    with pytest.raises(TypeError) as info:
        rig.host.hw.bufs(np.arange(2, dtype=np.int16), np.zeros(2, np.uint16), 1)
    assert str(info.value).startswith("hw.bufs: argument 'src' (in u16[]) is an array of int16")


@pytest.mark.parametrize("index,detail", [
    (3, None),            # one past the last parameter: no buffer to name
    (2, "buffer 'k' (u32); engine pp_buf_rd (reads it into the module's stream) of component 'hw', "
        "stream bufs_k_tdata/_tvalid/_tready/_tlast"),   # a scalar: named as it is
])
def test_buffer_error_index_at_the_edges(index: int, detail: Optional[str]) -> None:
    rig, made = buffer_rig()
    code = ErrorCode.BUFFER | (index << 8) | (2 << 16)
    with rig.host, rig.peer, FakeHW(rig, "bufs", lambda a, t: status(code, t)):
        with pytest.raises(CallError) as info:
            rig.host.hw.bufs(np.arange(3, dtype=np.uint16), np.zeros(3, np.uint16), 1)
    assert info.value.code == code and info.value.detail == detail


def test_buffer_error_of_a_function_value_names_the_parameter_only() -> None:
    rig, made = buffer_rig()
    code = ErrorCode.BUFFER | (1 << 8) | (1 << 16)
    f = rig.host.function(rig.slot("hw", "bufs").address, "(src: in u16[], dst: out u16[], k: u32) -> u32")
    with rig.host, rig.peer, FakeHW(rig, "bufs", lambda a, t: status(code, t)):
        with pytest.raises(CallError) as info:
            f(np.arange(3, dtype=np.uint16), np.zeros(3, np.uint16), 1)
    assert info.value.detail == ("buffer 'dst' (out u16[]); engine pp_buf_wr (writes the module's stream into "
                                 "it), stream dst_tdata/_tvalid/_tready/_tlast")


def test_serving_starts_only_when_a_call_hands_out_an_own_function(rig: Rig) -> None:
    host_c = rig.linked.component("host")
    with FakeHW(rig, "cb", lambda a, t: ok(a[1], t)) as hw:
        # another component's functions: nothing to serve here
        assert rig.host.hw.cb(rig.host.peer.add, 1) == 1
        at_end = rig.host.function(host_c.end, "(x: i32) -> i32")      # the next window's first slot
        assert host_c.end == rig.slot("peer", "add").address
        assert rig.host.hw.cb(at_end, 2) == 2
        assert not rig.host.serving
        # this component's first slot: it must serve (the callee may call it)
        assert rig.host.hw.cb(rig.host.function(host_c.base, "(x: i32) -> i32"), 3) == 3
        assert rig.host.serving
    assert [c[0] for c in hw.calls] == [rig.slot("peer", "add", "cep_dynamic").address, host_c.end, host_c.base]


def test_posting_with_a_callable_is_one_way() -> None:
    rig = make_rig()
    try:
        with FakeHW(rig, "cb", lambda a, t: ok(a[1], t)) as hw:
            assert rig.host.hw.cb.post(lambda x: x, 5) is None
            deadline = time.monotonic() + 5
            while not hw.calls and time.monotonic() < deadline:
                time.sleep(0.001)
        assert hw.calls and hw.calls[0][-1] & 1 == 1 and hw.calls[0][1] == 5
    finally:
        rig.host.stop()
        rig.peer.stop()


def test_lent_slots_are_held_until_their_calls_late_reply() -> None:
    rig = make_rig(timeout=0.1)
    host = rig.host
    try:
        host.start()
        with FakeHW(rig, "cb", lambda a, t: None) as hw:      # takes the calls, answers later
            with pytest.raises(CallTimeout):
                host.hw.cb(lambda x: x + 1, 1)
            with pytest.raises(CallTimeout):
                host.hw.cb(lambda x: x + 2, 2)
        first, second = [c[0] for c in hw.calls]
        reps = [c[-1] & ~3 for c in hw.calls]
        held = {s.address: s for s in host._served.values() if s.allocation is not None}
        assert sorted(held) == sorted([first, second])
        assert all(s.handler is None for s in held.values())
        assert sorted(host._held_lent.values()) == sorted(reps)
        # meanwhile a late call of a held callback answers BAD_FUNCTION
        with pytest.raises(CallError) as info:
            rig.peer.function(first, "(x: i32) -> i32")(1)
        assert info.value.code == ErrorCode.BAD_FUNCTION
        # the first call's late reply lands: its lent slot is freed, the second's still held
        rig.bus.write(reps[0], [0, STATUS_OK | ECHO_BIT])
        assert host.peer.add(1, 2) == 3
        assert held[first].allocation is None and held[second].allocation is not None
        assert list(host._held_lent.values()) == [reps[1]]
        rig.bus.write(reps[1], [0, STATUS_OK])
        assert host.peer.add(1, 2) == 3
        assert held[second].allocation is None and host._held_lent == {}
        assert host.counters.strays == 2
    finally:
        rig.host.stop()
        rig.peer.stop()


def test_callbacks_are_named_after_their_function(rig: Rig) -> None:
    import functools

    names: list[str] = []

    def cb(args: list[int], trigger: int) -> list[int]:
        names.append(rig.host.describe_address(args[0]))
        return ok(0, trigger)

    def my_callback(x: int) -> int:
        return x

    rig.host.start()
    with FakeHW(rig, "cb", cb):
        rig.host.hw.cb(my_callback, 1)
        rig.host.hw.cb(lambda x: x, 1)
        rig.host.hw.cb(functools.partial(lambda k, x: k + x, 1), 1)
    assert names == ["host.my_callback", "host.<lambda>", "host.<callable>"]


def test_callback_errors_name_the_argument(rig: Rig) -> None:
    def two(a: int, b: int) -> int:
        return a + b

    before = rig.bus.bursts
    for call in (lambda: rig.host.hw.cb(two, 1), lambda: rig.host.hw.cb(f=two, x=1),
                 lambda: rig.host.hw.cb2(1, two), lambda: rig.host.hw.cb2(x=1, f=two)):
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value).startswith("callback for argument 'f' has signature (x: i32) -> i32 (1 argument(s)) "
                                          "but 'two' cannot take them: ")
    assert rig.bus.bursts == before
    assert not [s for s in rig.host._served.values() if s.allocation is not None]


def test_callable_after_a_scalar_is_lent(rig: Rig) -> None:
    rig.host.start()
    got: list[int] = []

    def cb2(args: list[int], trigger: int) -> list[int]:
        got.append(rig.peer.function(args[1], "(x: i32) -> i32")(args[0]))
        return ok(got[-1], trigger)

    with FakeHW(rig, "cb2", cb2):
        assert rig.host.hw.cb2(4, lambda x: x * x) == 16
        assert rig.host.hw.cb2(x=5, f=lambda x: -x) == -5
    assert got == [16, -5]


def test_lending_when_the_area_is_full_names_the_purpose(rig: Rig) -> None:
    from pushpush.protocol import SlotsExhausted

    host = rig.host
    taken = host.allocator.allocate(host.allocator.words, "the test")
    with pytest.raises(SlotsExhausted) as info:
        host.hw.cb(lambda x: x, 1)
    assert "callback for argument 'f' needs 2 word(s)" in str(info.value)
    fv = host.function(rig.slot("hw", "f", "cep_dynamic").address, "(x: i32) -> i32")
    with pytest.raises(SlotsExhausted) as info:
        fv(1)
    assert "rep of a call to hw.f needs 2 word(s)" in str(info.value)
    host.allocator.free(taken)


def test_returned_callables_get_one_slot_each() -> None:
    rig = make_rig()
    try:
        def f(x: int) -> int:
            return x + 1

        def g(x: int) -> int:
            return x + 2

        order = iter([f, f, g, f, g])
        rig.peer.export("give", lambda: next(order))
        got = [rig.host.peer.give() for _ in range(5)]
        a = [r.address for r in got]
        assert a[0] == a[1] == a[3] and a[2] == a[4] and a[0] != a[2]
        assert got[0](1) == 2 and got[2](1) == 3
        assert rig.peer.describe_address(a[0]) == "peer.f"
    finally:
        rig.peer.stop()


def test_returned_callable_that_cannot_take_the_arguments() -> None:
    rig = make_rig(peer_serves=False)

    def bad() -> int:
        return 1

    ft = parse_signature("(x: i32) -> i32")
    with pytest.raises(TypeError) as info:
        rig.peer._lend_permanent(bad, ft)
    assert str(info.value).startswith("callable 'bad' returned as (x: i32) -> i32 has signature (x: i32) -> i32 "
                                      "(1 argument(s)) but 'bad' cannot take them: ")
    assert not [s for s in rig.peer._served.values() if s.allocation is not None]


def test_local_calls_with_keywords_and_function_results() -> None:
    rig = make_rig(peer_serves=False)
    own = rig.host.function(rig.slot("host", "own").address, "(x: i32) -> i32")
    assert own(x=6) == 60
    rig.peer.export("give", lambda: lambda x: 7 * x)
    give = rig.peer.function(rig.slot("peer", "give").address, "() -> (x: i32) -> i32")
    f = give()                                   # local: a function value, bound to peer
    assert f.runtime is rig.peer and f(2) == 14


def test_stop_iteration_is_an_error_but_no_fault(rig: Rig) -> None:
    def add(a: int, b: int) -> int:
        raise StopIteration

    rig.peer.export("add", add)
    for _ in range(2):                               # seq 1, then 0: each echoed
        with pytest.raises(CallError) as info:
            rig.host.peer.add(1, 2)
        assert info.value.code == ErrorCode.CALLEE_RAISED
    assert list(rig.peer.errors) == [] and rig.host.counters.strays == 0


def test_cleared_handler_is_not_called_locally(rig: Rig) -> None:
    rig.host.start()
    own = rig.slot("host", "own")
    f = rig.host.function(own.address, "(x: i32) -> i32")
    assert f(2) == 20
    served = rig.host._served[own.offset + own.words - 1]
    served.handler = None             # as _retire does, an instant before _live is rebuilt
    with pytest.raises(CallError) as info:
        f(2)                          # over the bus: the dead slot answers
    assert info.value.code == ErrorCode.BAD_FUNCTION


def test_late_reply_during_the_calls_setup_frees_the_static_rep_for_it() -> None:
    rig = make_rig(timeout=0.1, peer_serves=False)
    host = rig.host
    f_slot = rig.slot("hw", "f")
    static = host._static_reps[f_slot.address]
    with pytest.raises(CallTimeout):
        host.hw.f(1)
    rig.bus.write_raw(f_slot.address + 4, [0])          # the callee took the call late
    assert host._quarantine == [static]
    reads = []
    plain = host.backend.read_local

    def read_local(address: int, count: int) -> list[int]:
        words = plain(address, count)
        if address == static.status_address:
            reads.append(words[0])
            if len(reads) == 1:                        # the late reply lands just after the first look
                rig.bus.write_raw(static.address, [0, STATUS_OK | ECHO_BIT])
        return words

    host.backend.read_local = read_local  # type: ignore[method-assign]
    busy = []

    def f(args: list[int], trigger: int) -> list[int]:
        busy.append(static.address in host._static_reps_busy)
        return ok(args[0] * 2, trigger)

    with FakeHW(rig, "f", f) as hw:
        assert host.hw.f(21) == 42
    assert hw.calls[0][-1] & ~3 == static.address and busy == [True]
    assert host.counters.strays == 1 and host._quarantine == []
    assert static.address not in host._static_reps_busy


def test_dead_callbacks_words_are_reused_last() -> None:
    rig = make_rig(peer_serves=False)
    host = rig.host
    c = rig.linked.component("host")
    ro = c.runtime_offset
    word = lambda off: c.base + 4 * off                # noqa: E731
    host.start()
    try:
        with FakeHW(rig, "tick", lambda a, t: ok(0, t)) as tick:
            for _ in range(3):
                host.hw.tick(lambda: None)
        assert [call[0] for call in tick.calls] == [word(ro), word(ro + 1), word(ro + 2)]
        dead = lambda: sorted(off for off, s in host._served.items() if s.handler is None)  # noqa: E731
        assert dead() == [ro, ro + 1, ro + 2]
        a = host.allocator.reserve(ro + 3, 30, "the test")
        host.allocator.reserve(ro + 33, c.runtime_words - 33, "the test")
        host.allocator.free(a)                         # free: the dead words and ro+3 .. ro+32
        fv = host.function(rig.slot("hw", "f", "cep_dynamic").address, "(x: i32) -> i32")
        with FakeHW(rig, "f", lambda a, t: ok(a[0] + 1, t), kind="cep_dynamic") as hw:
            assert fv(1) == 2                          # passes the dead words over
            assert hw.calls[-1][-1] & ~3 == word(ro + 3) and dead() == [ro, ro + 1, ro + 2]
            host.allocator.reserve(ro + 3, 30, "the test")
            assert fv(2) == 3                          # only dead words are free: reused, no longer watched
            assert hw.calls[-1][-1] & ~3 == word(ro) and dead() == [ro + 2]
    finally:
        host.stop()


# ------------------------------------------------------------------------------ reps that end the window


def _fullwin(host: str) -> tuple[Rig, Any]:
    linked = link(parse_system("system: fullwin\nboard: none\ncomponents:\n" + host + """
  hw:
    kind: rtl
    module: hw
    sources: [hw.v]
    exports:
      f: "(x: i32) -> i32"
      g: "(x: i32) -> i32"
""", file="fullwin.yaml"))
    bus = MemoryBus(linked)
    rt = SyncRuntime(linked, "host", bus.sync_backend("host"), timeout=2.0)
    c = linked.component("host")
    assert c.words_used * 4 == c.size                   # the window is full to its last word
    return Rig(linked, bus, rt, rt), c


def test_run_time_rep_ending_the_window() -> None:
    rig, c = _fullwin("""  host:
    kind: python
    runtime_words: 1022
    imports: [hw.f]
""")
    host = rig.host
    fill = host.allocator.reserve(c.runtime_offset, c.runtime_words - 2, "the test")
    last = c.base + c.size - 8                          # the only free run-time rep: the window's last 2 words
    fv = host.function(rig.slot("hw", "f", "cep_dynamic").address, "(x: i32) -> i32")
    with FakeHW(rig, "f", lambda a, t: ok(a[0] + 1, t), kind="cep_dynamic") as hw:
        assert fv(1) == 2
    assert hw.calls[0][-1] & ~3 == last
    with pytest.raises(CallTimeout):
        fv(5, timeout=0.05)                             # its rep is quarantined
    rig.bus.write_raw(rig.slot("hw", "f", "cep_dynamic").address + 4, [0])
    rig.bus.write_raw(last, [6, STATUS_OK])             # the late reply (seq 0)
    host.allocator.free(fill)
    with FakeHW(rig, "f", lambda a, t: ok(a[0] + 1, t), kind="cep_dynamic"):
        assert fv(7) == 8                               # the sweep released the quarantined rep
    assert host.counters.strays == 1 and host._quarantine == []


def test_static_rep_ending_the_window() -> None:
    params = ", ".join(f"a{i}: u32" for i in range(1019))
    rig, c = _fullwin(f"""  host:
    kind: python
    runtime_words: 0
    exports:
      big: "({params}) -> void"
    imports: [hw.f, hw.g]
""")
    static = rig.host._static_reps[rig.slot("hw", "g").address]
    assert static.status_address == c.base + c.size - 4
    rig.bus.write_raw(static.status_address, [STATUS_OK])   # a stray left there
    with FakeHW(rig, "g", lambda a, t: ok(a[0] * 3, t)):
        assert rig.host.hw.g(5) == 15 and rig.host.hw.g(6) == 18
    assert rig.host.counters.strays == 1


def test_export_registered_while_warning_is_not_warned() -> None:
    linked = paths()
    bus = MemoryBus(linked)
    host = SyncRuntime(linked, "host", bus.sync_backend("host"), timeout=1.0, workers=0)
    slots = {s.function: s for s in linked.component("host").slots if s.kind == "cep_dynamic"}
    for name in ("own", "own_cb", "later"):            # a call waits in each, none is served
        s = slots[name]
        bus.write(s.address, [0] * (s.words - 1) + [0x0001])
    warned: list[str] = []

    class Register(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            msg = record.getMessage()
            if "no Python function serves it" in msg:
                warned.append(msg.split(" ", 1)[0])
                if msg.startswith("host.own "):        # meanwhile another thread registers own_cb
                    host.export("own_cb", lambda f, x: x)

    handler = Register()
    log = logging.getLogger("pushpush.runtime")
    log.addHandler(handler)
    try:
        host._take_calls()
    finally:
        log.removeHandler(handler)
    assert warned == ["host.own", "host.later"]


def test_errors_keep_the_last_hundred(rig: Rig) -> None:
    def own(x: int) -> int:
        raise ValueError(str(x))

    rig.host.export("own", own)
    f = rig.host.function(rig.slot("host", "own").address, "(x: i32) -> i32")
    for i in range(102):
        f.post(i)
    assert [str(e) for _, e in rig.host.errors] == [str(i) for i in range(2, 102)]


def test_inherited_lent_slot_at_the_areas_end_and_void_ones() -> None:
    linked = paths()
    c = linked.component("host")
    rw, ro = c.runtime_words, c.runtime_offset
    journal = bytearray(2 * rw + 4)
    journal[2 * 2:2 * 2 + 2] = bytes([1, JOURNAL_LENT])              # a () -> void callback at word 2
    journal[2 * (rw - 2):2 * (rw - 2) + 2] = bytes([2, JOURNAL_LENT | 2])  # (a0: u32) -> u64 at the end
    journal[2 * rw] = 3                                                # past the area: not looked at
    rig = make_rig(peer_serves=False, restart_journal=journal)
    host = rig.host
    dead = {s.offset: s for s in host._served.values() if s.handler is None}
    assert sorted(dead) == [ro + 2, ro + rw - 2]
    assert str(dead[ro + 2].signature) == "() -> void" and str(dead[ro + rw - 2].signature) == "(a0: u32) -> u64"
    assert host.describe_address(dead[ro + 2].address) == "host.<a lent function of a previous owner>"
    assert host.allocator._next == ro                  # the last one ends the area: next-fit wraps
    assert host.allocator.free_words == rw and host._quarantine == []
    assert not any(journal[:2 * rw]) and journal[2 * rw] == 3


# ------------------------------------------------------------------------------ serving: keys, sweeps, exports


def test_lent_callables_of_one_name_run_concurrently(rig: Rig) -> None:
    """Calls of one function run one at a time; two lent callables are two functions, even
    with one __name__ (their key is their slot, not their name)."""
    started, b_ran = threading.Event(), threading.Event()
    seen: list[bool] = []

    def make(which: str) -> Callable[[int], int]:
        def f(x: int) -> int:
            if which == "a":
                started.set()
                seen.append(b_ran.wait(10))
            else:
                b_ran.set()
            return x
        return f

    def call_back(args: list[int], trigger: int, wait_first: bool = False) -> list[int]:
        if wait_first:
            started.wait(10)
        addr = args[0] if not wait_first else args[1]
        return ok(rig.peer.function(addr, "(x: i32) -> i32")(7), trigger)

    rig.host.start()
    with FakeHW(rig, "cb", call_back), FakeHW(rig, "cb2", lambda a, t: call_back(a, t, True)):
        t = threading.Thread(target=lambda: seen.append(rig.host.hw.cb(make("a"), 1) == 7))
        t.start()
        assert rig.host.hw.cb2(1, make("b")) == 7
        t.join(20)
    assert seen == [True, True]


def test_calls_through_an_exports_slots_run_one_at_a_time(rig: Rig) -> None:
    running, overlap = [0], []
    second = threading.Event()

    def add(a: int, b: int) -> int:
        running[0] += 1
        overlap.append(running[0])
        if a == 1:
            second.wait(0.3)          # the other call would start meanwhile if it could
        else:
            second.set()
        running[0] -= 1
        return a + b

    rig.peer.export("add", add)
    dyn = rig.host.function(rig.slot("peer", "add", "cep_dynamic").address, "(a: i32, b: i32) -> i32")
    t = threading.Thread(target=lambda: rig.host.peer.add(1, 1))
    t.start()
    deadline = time.monotonic() + 10
    while not overlap and time.monotonic() < deadline:
        time.sleep(0.001)
    assert overlap, "the first call never started"
    assert dyn(2, 2) == 4
    t.join(10)
    assert overlap == [1, 1]


def test_component_without_exports_serves_its_lent_callables() -> None:
    linked = link(parse_system("""
system: solo
board: none
components:
  solo:
    kind: python
    imports: [hw.cb]
  other:
    kind: python
    exports:
      x: "() -> void"
  hw:
    kind: rtl
    module: hw
    sources: [hw.v]
    exports:
      cb: "(f: (x: i32) -> i32, x: i32) -> i32"
""", file="solo.yaml"))
    bus = MemoryBus(linked)
    solo = SyncRuntime(linked, "solo", bus.sync_backend("solo"), timeout=2.0)
    other = SyncRuntime(linked, "other", bus.sync_backend("other"), timeout=2.0)
    rig = Rig(linked, bus, solo, other)
    with FakeHW(rig, "cb", lambda a, t: ok(other.function(a[0], "(x: i32) -> i32")(a[1]), t)):
        assert solo.hw.cb(lambda x: 3 * x, 5) == 15
    solo.stop()


def test_a_bad_trigger_is_skipped_and_the_sweep_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    linked = paths()
    bus = MemoryBus(linked)
    host = SyncRuntime(linked, "host", bus.sync_backend("host"), timeout=1.0, workers=0)
    host.export("own", lambda x: x)
    own = {s.kind: s for s in linked.component("host").slots if s.function == "own"}
    first = host._watch[0]
    assert first.address == own["cep_static"].address
    bus.write(own["cep_static"].address, [1, 0x2])               # a reply wanted, no rep address
    rep = linked.component("peer").base + 4 * linked.component("peer").runtime_offset
    bus.write(own["cep_dynamic"].address, [9, rep])
    with caplog.at_level(logging.ERROR, logger="pushpush.runtime"):
        calls = host._take_calls()
    assert [c.args for c in calls] == [[9]]
    assert "host.own: ignoring a call with a bad trigger: trigger word 0x00000002 asks for a reply" in caplog.text
    assert bus.read(own["cep_static"].address + 4, 1) == [0]     # cleared all the same


def test_arguments_that_cannot_be_decoded(caplog: pytest.LogCaptureFixture) -> None:
    linked = paths()
    bus = MemoryBus(linked)
    host = SyncRuntime(linked, "host", bus.sync_backend("host"), timeout=1.0, workers=0)
    host.export("own_cb", lambda f, x: x)
    s = next(s for s in linked.component("host").slots if s.function == "own_cb")
    rep = linked.component("peer").base + 4 * linked.component("peer").runtime_offset
    bus.write(s.address, [6, 1, rep])                             # a function address not word aligned
    with caplog.at_level(logging.ERROR, logger="pushpush.runtime"):
        assert host.poll() == 1
    assert "host.own_cb: cannot decode arguments:" in caplog.text
    assert bus.read(rep + 4, 1) == [ErrorCode.CALLEE_RAISED]     # run without arguments: it raised
    name, e = host.errors[-1]
    assert name == "host.own_cb" and isinstance(e, TypeError) and "missing 2 required positional" in str(e)


def test_export_returns_what_it_registered(rig: Rig) -> None:
    def own(x: int) -> int:
        return x - 1

    e = rig.host.export("own", own)
    assert e.name == "own" and str(e.signature) == "(x: i32) -> i32" and e.fn is own
    assert e.address == rig.slot("host", "own", "cep_dynamic").address
    assert rig.host.exports["own"] is e and e(5) == 4
    assert repr(e).startswith("<ExportedFunction own: (x: i32) -> i32 -> ")


def test_inherited_cursor_follows_the_last_lent_slot() -> None:
    linked = paths()
    c = linked.component("host")
    journal = bytearray(2 * c.runtime_words)
    journal[2 * 4:2 * 4 + 2] = bytes([2, JOURNAL_LENT | 1])    # a lent cep at word 4
    journal[2 * 20:2 * 20 + 2] = bytes([2, 0])                 # a rep in flight at word 20, after it
    rig = make_rig(peer_serves=False, restart_journal=journal)
    # next-fit goes on right after the lent slot: its words are reached last
    assert rig.host.allocator._next == c.runtime_offset + 6


def test_returned_callable_without_a_name_in_the_message() -> None:
    import functools

    rig = make_rig(peer_serves=False)
    bad = functools.partial(lambda a, b, c: 0, 1)
    with pytest.raises(TypeError) as info:
        rig.peer._lend_permanent(bad, parse_signature("(x: i32) -> i32"))
    assert str(info.value).startswith(f"callable {bad!r} returned as (x: i32) -> i32 has signature")


def test_a_duplicate_is_dropped_and_the_sweep_goes_on() -> None:
    linked = paths()
    bus = MemoryBus(linked)
    host = SyncRuntime(linked, "host", bus.sync_backend("host"), timeout=1.0, workers=0)
    host.export("own", lambda x: x)
    own = {s.kind: s for s in linked.component("host").slots if s.function == "own"}
    rep = linked.component("peer").base + 4 * linked.component("peer").runtime_offset
    bus.write(own["cep_static"].address, [1, rep | 2])
    assert [c.args for c in host._take_calls()] == [[1]]
    bus.write(own["cep_static"].address, [1, rep | 2])          # the same seq again: a duplicate
    bus.write(own["cep_dynamic"].address, [9, rep + 8])
    assert [c.args for c in host._take_calls()] == [[9]]
    assert host.counters.duplicates == 1
