"""The call routine's fast path (issue 45): its per-address CallPlan, the cep lock taken
without a step when free, one read of the rep per look, the sweep's arguments from its
one read.

The in-memory bus (:class:`MemoryBus`) with the callpath bench's instant callee (an RTL
``f(x) = x + 1`` answering within the call's write), so every call finds its reply at the
first look and the backend operations a call makes are exact.
"""

from __future__ import annotations

import threading
from typing import Any, Sequence

import pytest

from pushpush.bench.experiments.callpath import cpu as cp
from pushpush.protocol import CallTimeout
from pushpush.runtime import MemoryBus, SyncRuntime
from pushpush.runtime.caller import SLEEP, Acquire, CallPlan, Write


class Ops:
    """A backend wrapper that records the operations made through it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.ops: list[tuple[str, int, int]] = []

    def write(self, address: int, words: Sequence[int]) -> None:
        self.ops.append(("write", address, len(words)))
        self.inner.write(address, words)

    def read_local(self, address: int, count: int) -> list[int]:
        self.ops.append(("read_local", address, count))
        return self.inner.read_local(address, count)

    def write_local(self, address: int, words: Sequence[int]) -> None:
        self.ops.append(("write_local", address, len(words)))
        self.inner.write_local(address, words)

    def sleep(self) -> None:
        self.ops.append(("sleep", 0, 0))
        self.inner.sleep()


def instant_rig() -> tuple[Any, MemoryBus, SyncRuntime, Ops]:
    linked = cp._linked()
    bus = MemoryBus(linked)
    imp = linked.component("host").imports[0]
    backend = Ops(cp._InstantSync(bus.sync_backend("host"), cp._instant_callee(bus, imp.cep_address)))
    return linked, bus, SyncRuntime(linked, "host", backend), backend


def test_a_call_is_four_backend_operations_one_read_per_look() -> None:
    linked, bus, rt, ops = instant_rig()
    imp = linked.component("host").imports[0]
    assert rt.callee.f(41) == 42
    ops.ops.clear()
    assert rt.callee.f(-2) == -1
    status = imp.rep_address + 4
    # the stray check of the rep, the call (argument + trigger), one look at the rep (result
    # and status in one read: the status read first, backend.py), the status cleared
    assert ops.ops == [("read_local", status, 1), ("write", imp.cep_address, 2),
                       ("read_local", imp.rep_address, 2), ("write_local", status, 1)]


def test_the_plan_is_made_once_per_address_and_kept_on_the_import() -> None:
    _, _, rt, _ = instant_rig()
    f = rt.callee.f
    assert f._plan is None
    f(1)
    plan = f._plan
    assert isinstance(plan, CallPlan) and plan.owner is rt and plan.address == f.address
    f(2)
    assert f._plan is plan and rt._plans == {f.address: plan}
    # the same address as a function value shares the plan (one SEQ and one lock per address)
    g = rt.function(f.address, f.signature)
    assert g(5) == 6 and g._plan is plan
    # a copy bound to another runtime does not carry this one's plan nor its static rep
    other = SyncRuntime(rt.linked, "host", rt.backend)
    h = f.bind(other)
    assert h._plan is None and h._static_rep is None and h(7) == 8 and h._plan.owner is other


def test_a_free_cep_lock_is_taken_without_a_step_and_given_back() -> None:
    _, _, rt, _ = instant_rig()
    f = rt.callee.f
    gen = rt._remote_call(f, [1], 1.0, False, lambda: 0.0)
    step = next(gen)
    assert type(step) is Write                       # no Acquire: the lock was free
    lock = rt._cep_locks[f.address]
    assert lock.locked()
    rt.backend.write(step.address, step.words)      # (the driver's part; the callee answers)
    with pytest.raises(StopIteration) as done:
        gen.send(None)
    assert done.value.value == 2 and not lock.locked()
    # closed by its driver in the middle (a step raised): the lock comes back too
    gen = rt._remote_call(f, [1], 1.0, False, lambda: 0.0)
    assert type(next(gen)) is Write and lock.locked()
    gen.close()
    assert not lock.locked()


def test_a_held_cep_lock_is_asked_for_and_times_out_with_its_message() -> None:
    _, _, rt, _ = instant_rig()
    f = rt.callee.f
    lock = rt._cep_lock(f.address)
    assert lock.acquire(False)
    gen = rt._remote_call(f, [1], 1.0, False, lambda: 0.0)
    step = next(gen)
    assert type(step) is Acquire and step.fn is f
    with pytest.raises(CallTimeout, match="other calls through this cep address are in flight"):
        gen.send(False)
    assert lock.locked()                             # not the routine's: still the holder's
    # sent True (the driver took it for the routine): the routine does not give it back,
    # the driver does when the steps end (no window between taking and handing it over)
    gen = rt._remote_call(f, [1], 1.0, False, lambda: 0.0)
    assert type(next(gen)) is Acquire
    step = gen.send(True)
    assert type(step) is Write
    rt.backend.write(step.address, step.words)
    with pytest.raises(StopIteration):
        gen.send(None)
    assert lock.locked()
    lock.release()
    # through the driver: a second thread's call waits for the first one's end
    out: list[int] = []
    lock.acquire()
    t = threading.Thread(target=lambda: out.append(f(9)))
    t.start()
    t.join(0.05)
    assert t.is_alive() and not out
    lock.release()
    t.join(2)
    assert out == [10]


def test_the_sweep_takes_the_arguments_from_its_one_read() -> None:
    linked, bus, _, _ = instant_rig()
    callee = linked.component("callee")
    ops = Ops(bus.sync_backend("callee"))
    rt = SyncRuntime(linked, "callee", ops, workers=0)
    rt.export("f", lambda x: 2 * x)
    imp = linked.component("host").imports[0]
    bus.write(imp.cep_address, [21, imp.rep_address | 2])
    ops.ops.clear()
    assert rt.poll() == 1
    # one read of the window, the trigger re-armed, the reply: no second read of the arguments
    assert ops.ops == [("read_local", callee.base, callee.words_used),
                       ("write_local", imp.cep_address + 4, 1), ("write", imp.rep_address, 2)]
    assert bus.read(imp.rep_address, 2) == [42, 0x4000_0001]


def test_sleep_steps_still_come_when_the_reply_is_late() -> None:
    linked = cp._linked()
    bus = MemoryBus(linked)
    rt = SyncRuntime(linked, "host", bus.sync_backend("host"), timeout=1.0)
    f = rt.callee.f
    clock = [0.0]
    gen = rt._remote_call(f, [3], 1.0, False, lambda: clock[0])
    assert type(next(gen)) is Write
    assert gen.send(None) is SLEEP                   # nobody answered: wait
    clock[0] = 1.0
    with pytest.raises(CallTimeout):
        gen.send(None)
    assert not rt._cep_locks[f.address].locked() and rt._quarantine
