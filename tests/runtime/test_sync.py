"""SyncRuntime: two Python components calling each other over the in-memory test bus."""

from __future__ import annotations

import logging
import math
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from runtime_systems import ECHO_TYPES, ECHO_VALUES, echo_rows, echo_system, exact, two_py

from pushpush.link import LinkedSystem
from pushpush.protocol import CallError, CallTimeout, ErrorCode, SlotsExhausted
from pushpush.runtime import ExportedFunction, MemoryBus, RemoteFunction, SyncRuntime
from pushpush.types import parse_signature

F32_ONE_THIRD = struct.unpack("<f", struct.pack("<f", 1 / 3))[0]


@dataclass
class Pair:
    linked: LinkedSystem
    bus: MemoryBus
    a: SyncRuntime
    b: SyncRuntime
    notes: list[int] = field(default_factory=list)
    kept: list[Any] = field(default_factory=list)
    mixes: list[tuple[Any, ...]] = field(default_factory=list)


@pytest.fixture
def pair() -> Iterator[Pair]:
    linked = two_py()
    bus = MemoryBus(linked)
    a = SyncRuntime(linked, "a", bus.sync_backend("a"), timeout=5.0)
    b = SyncRuntime(linked, "b", bus.sync_backend("b"), timeout=5.0)
    p = Pair(linked, bus, a, b)

    @a.export("inc")
    def inc(x: int) -> int:
        return x + 1

    @a.export("twice")
    def twice(f: RemoteFunction, x: int) -> int:
        return f(f(x))

    a.export("neg64", lambda x: -x)

    b.export("add", lambda x, y: x + y)

    @b.export("apply")
    def apply(f: RemoteFunction, x: int) -> int:
        p.kept.append(f)
        return f(x) * 2

    @b.export("mix")
    def mix(a_: int, b_: int, c: float, d: float, e: bool, g: int, h: int) -> float:
        p.mixes.append((a_, b_, c, d, e, g, h))  # the sum below rounds c..h away: see them here
        return float(a_) + float(b_) + c + d + (1000.0 if e else 0.0) + g + h

    @b.export("boom")
    def boom(x: int) -> int:
        if x == 7:
            raise ValueError(f"seven is bad ({x})")
        return x

    triple = b.export("triple", lambda x: 3 * x)
    b.export("get_scale", lambda: triple)
    b.export("scale_by", lambda k, x: k * x)
    b.export("flip", lambda x: not x)
    b.export("sum_cb", lambda f, n: sum(f(i) for i in range(n)))
    b.export("note", lambda x: p.notes.append(x))
    b.export("pause", lambda timeout: timeout + 1)
    # b.nobody is never registered: its calls time out
    with a, b:
        yield p


# ---------------------------------------------------------------------------- calls


def test_calls_both_ways(pair: Pair) -> None:
    a, b = pair.a, pair.b
    assert a.b.add(2, 3) == 5
    assert a.imports["b.add"](a=-5, b=1) == -4
    assert a.imports["b.add"](7, b=-10) == -3
    assert b.a.inc(41) == 42
    assert b.imports["a.inc"](x=-1) == 0


def test_values_both_ways(pair: Pair) -> None:
    a, b = pair.a, pair.b
    for v in (0, 1, -1, 2**63 - 1, -2**63, 123456789012345):
        assert b.a.neg64(v if v != -2**63 else -2**63 + 1) == -(v if v != -2**63 else -2**63 + 1)
    got = a.b.mix(-2**40, 2**64 - 1, 1 / 3, -0.1, True, -128, 65535)
    assert got == float(-2**40) + float(2**64 - 1) + F32_ONE_THIRD + -0.1 + 1000.0 - 128 + 65535
    assert a.b.mix(0, 0, -0.0, 2.5, False, 0, 0) == 2.5
    assert math.isinf(a.b.mix(0, 0, 0.0, math.inf, False, 0, 0))
    assert math.isnan(a.b.mix(0, 0, math.nan, 0.0, False, 0, 0))
    assert a.b.flip(True) is False and a.b.flip(False) is True
    # Each argument exactly (the sums above cannot tell g=+128 from g=-128, nor see c..h).
    sent = [(-2**40, 2**64 - 1, 1 / 3, -0.1, True, -128, 65535), (2**63 - 1, 2**63, -0.0, -0.0, True, 127, 0x8000),
            (-2**63, 0, math.inf, -math.inf, False, -1, 1), (1, 1, 1.0, 5e-324, True, 1, 0x7FFF)]
    pair.mixes.clear()
    for args in sent:
        a.b.mix(*args)
    want = [(x, y, struct.unpack("<f", struct.pack("<f", c))[0], d, e, g, h) for x, y, c, d, e, g, h in sent]
    assert [[exact(v) for v in m] for m in pair.mixes] == [[exact(v) for v in m] for m in want]
    assert a.b.add(-2**31, 2**31 - 1) == -1


def test_every_type_round_trips_exactly() -> None:
    """Each scalar type's edge values come back bit for bit, as a result (one echo export per
    type) and as an argument among all the others (``every`` records what it received)."""
    linked = echo_system()
    bus = MemoryBus(linked)
    caller = SyncRuntime(linked, "caller", bus.sync_backend("caller"), timeout=5.0)
    callee = SyncRuntime(linked, "callee", bus.sync_backend("callee"), timeout=5.0)
    for t in ECHO_TYPES:
        callee.export(f"echo_{t}", lambda x: x)
    got: list[tuple[object, ...]] = []
    callee.export("every", lambda *args: got.append(args) or len(got))
    with caller, callee:
        for t in ECHO_TYPES:
            echo = caller.imports[f"callee.echo_{t}"]
            for v in ECHO_VALUES[t]:
                assert exact(echo(v)) == exact(v), (t, v)
        rows = echo_rows()
        for i, row in enumerate(rows):
            assert caller.callee.every(*row) == i + 1
        assert [[exact(v) for v in r] for r in got] == [[exact(v) for v in r] for r in rows]


def test_bad_result(pair: Pair) -> None:
    # 2**31 does not fit the i32 result: the callee answers BAD_RESULT and keeps serving
    with pytest.raises(CallError) as info:
        pair.a.b.add(2**31 - 1, 1)
    assert info.value.code is ErrorCode.BAD_RESULT and info.value.function == "b.add"
    assert "does not fit the result type" in str(info.value)
    assert pair.a.b.add(1, 1) == 2


# ---------------------------------------------------------------------------- higher order


def test_python_callable_passed_and_called_back(pair: Pair) -> None:
    a = pair.a
    seen: list[int] = []

    def plus_ten(x: int) -> int:
        seen.append(x)
        return x + 10

    assert a.b.apply(plus_ten, 5) == 30
    assert a.b.apply(f=lambda x: -x, x=4) == -8
    assert seen == [5]
    assert a.b.sum_cb(lambda i: i / 2, 5) == 5.0
    # the lent slots were freed after each call
    assert a.allocator.in_use == []


def test_callback_both_directions(pair: Pair) -> None:
    # b passes its Python callable to a's export, which calls it back twice
    assert pair.b.a.twice(lambda x: x * 3, 2) == 18
    assert pair.b.allocator.in_use == []


def test_b_hands_its_function_to_a(pair: Pair) -> None:
    a = pair.a
    f = a.b.get_scale()
    assert isinstance(f, RemoteFunction) and f.runtime is a
    triple_slot = pair.linked.component("b").slots[pair.linked.component("b").export("triple").dynamic_slots[0]]
    assert f.address == triple_slot.address
    assert f.name == "b.triple" and f.signature == parse_signature("(x: i32) -> i32")
    assert f(14) == 42 and f(x=-1) == -3
    # passing the RemoteFunction on passes its address: b then calls its own function
    assert a.b.apply(f, 5) == 30
    assert pair.kept[-1].address == f.address


def test_returned_plain_callable_gets_a_slot(pair: Pair) -> None:
    k = 5
    pair.b.export("get_scale", lambda: (lambda x: k * x))
    f = pair.a.b.get_scale()
    assert f(3) == 15 and f.name == f"function at 0x{f.address:08X}"
    used = len(pair.b.allocator.in_use)
    assert used == 1


def test_stale_callback_answers_bad_function(pair: Pair) -> None:
    a = pair.a
    assert a.b.apply(lambda x: x, 1) == 2
    stale = pair.kept[-1]  # b kept the function value after the call returned
    with pytest.raises(CallError) as info:
        stale(3)
    assert info.value.code is ErrorCode.BAD_FUNCTION


def test_unmapped_address_is_bad_function(pair: Pair) -> None:
    f = pair.a.function(0x1000_0000, "(x: i32) -> i32")
    with pytest.raises(CallError) as info:
        f(1)
    assert info.value.code is ErrorCode.BAD_FUNCTION and "DECERR" in str(info.value)
    assert "0x10000000" in str(info.value)


# ---------------------------------------------------------------------------- concurrency


def test_concurrent_callers(pair: Pair) -> None:
    a, b = pair.a, pair.b
    errors: list[BaseException] = []
    results: dict[str, list[Any]] = {}

    def run(name: str, fn: Any, n: int) -> None:
        try:
            results[name] = [fn(i) for i in range(n)]
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    jobs: list[tuple[str, Any, int]] = []
    for t in range(4):
        jobs.append((f"add{t}", lambda i, t=t: a.b.add(i, t), 25))
    jobs.append(("apply", lambda i: a.b.apply(lambda x: x + i, i), 20))
    jobs.append(("inc", lambda i: b.a.inc(i), 25))
    jobs.append(("twice", lambda i: b.a.twice(lambda x: x - 1, i), 15))
    jobs.append(("neg", lambda i: b.a.neg64(i << 40), 25))
    threads = [threading.Thread(target=run, args=job) for job in jobs]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert not errors
    for t in range(4):
        assert results[f"add{t}"] == [i + t for i in range(25)]
    assert results["apply"] == [4 * i for i in range(20)]
    assert results["inc"] == [i + 1 for i in range(25)]
    assert results["twice"] == [i - 2 for i in range(15)]
    assert results["neg"] == [-(i << 40) for i in range(25)]
    assert a.allocator.in_use == [] and b.allocator.in_use == []
    assert pair.bus.collisions == 0


def test_no_bus_traffic_while_idle(pair: Pair) -> None:
    pair.a.b.add(1, 2)
    before = pair.bus.bursts
    time.sleep(0.2)
    assert pair.bus.bursts == before
    assert pair.a.serving and pair.b.serving


# ---------------------------------------------------------------------------- errors


def test_callee_raises(pair: Pair, caplog: pytest.LogCaptureFixture) -> None:
    a, b = pair.a, pair.b
    with caplog.at_level(logging.ERROR, logger="pushpush.runtime"):
        with pytest.raises(CallError) as info:
            a.b.boom(7)
    e = info.value
    assert e.code is ErrorCode.CALLEE_RAISED and e.function == "b.boom"
    assert e.address == pair.linked.component("a").import_("b.boom").cep_address
    assert "b.boom at 0x" in str(e)
    assert "seven is bad" in caplog.text
    assert isinstance(b.errors[-1][1], ValueError)
    # the server keeps serving
    assert a.b.boom(3) == 3
    assert a.b.add(1, 1) == 2


def test_callback_raises(pair: Pair) -> None:
    def bad(x: int) -> int:
        raise RuntimeError("callback failed")

    with pytest.raises(CallError) as info:
        pair.a.b.apply(bad, 1)
    # a's callback raised inside b's call: b's function raised the CallError in turn
    assert info.value.function == "b.apply" and info.value.code is ErrorCode.CALLEE_RAISED
    assert pair.a.b.apply(lambda x: x, 2) == 4


def test_timeout_then_system_keeps_working(pair: Pair) -> None:
    a, b = pair.a, pair.b
    info_ = pair.linked.component("a").import_("b.nobody")
    t0 = time.monotonic()
    with pytest.raises(CallTimeout) as info:
        a.b.nobody(timeout=0.2)
    assert 0.2 <= time.monotonic() - t0 < 1.5
    e = info.value
    assert isinstance(e, TimeoutError) and e.function == "b.nobody" and e.address == info_.cep_address
    assert f"b.nobody at 0x{info_.cep_address:08X} timed out after 0.2 s" in str(e)
    assert a.b.add(2, 2) == 4  # other functions still work
    # the static rep of the timed-out call is quarantined: a second call uses a run-time rep
    # and is refused (SLVERR, the old call still pends in b's slot) until b serves it
    with pytest.raises(CallError) as info2:
        a.b.nobody(timeout=0.2)
    assert info2.value.code is ErrorCode.COLLISION
    calls: list[int] = []
    b.export("nobody", lambda: calls.append(1))
    assert a.b.nobody() is None
    assert len(calls) == 2  # the stale call and this one
    a.b.add(0, 0)  # the late reply released the quarantined rep
    assert a._quarantine == [] and a.allocator.in_use == []


def test_per_runtime_and_per_call_timeout(pair: Pair) -> None:
    pair.a.timeout = 0.1
    with pytest.raises(CallTimeout, match="after 0.1 s"):
        pair.a.b.nobody()
    pair.b.stop()
    with pytest.raises(CallTimeout, match="b.add at 0x.* after 0.15 s"):
        pair.a.b.add.with_timeout(0.15)(1, 2)
    with pytest.raises(CallTimeout, match="b.flip at 0x.* after 0.05 s"):
        pair.a.b.flip(True, timeout=0.05)
    pair.b.start()  # serves the two stale calls; their replies free the quarantined reps
    pair.a.timeout = 2.0
    assert pair.a.b.add(3, 4) == 7 and pair.a.b.flip(x=True) is False


def test_parameter_named_timeout(pair: Pair) -> None:
    assert pair.a.b.pause(timeout=4) == 5  # an argument, not the call's timeout
    assert pair.a.b.pause.with_timeout(1.0)(6) == 7


def test_wrong_arguments_write_nothing(pair: Pair) -> None:
    a = pair.a
    before = pair.bus.bursts
    with pytest.raises(TypeError, match="argument 'a'.*str"):
        a.b.add("1", 2)
    with pytest.raises(TypeError, match="argument 'b'.*bool"):
        a.b.add(1, True)
    with pytest.raises(TypeError, match="argument 'a'.*float"):
        a.b.add(1.0, 2)
    with pytest.raises(OverflowError, match="argument 'b'.*out of range for i32"):
        a.b.add(1, 2**31)
    with pytest.raises(OverflowError, match="argument 'h'.*0..65535"):
        a.b.mix(0, 0, 0.0, 0.0, False, 0, -1)
    with pytest.raises(OverflowError, match="argument 'b'.*u64"):
        a.b.mix(0, -1, 0.0, 0.0, False, 0, 0)
    with pytest.raises(OverflowError, match="argument 'c'.*f32"):
        a.b.mix(0, 0, 1e39, 0.0, False, 0, 0)
    with pytest.raises(TypeError, match="missing 1 required argument: 'b'"):
        a.b.add(1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        a.b.add(1, 2, c=3)
    with pytest.raises(TypeError, match="argument 'f'"):
        a.b.apply("not a function", 1)
    assert pair.bus.bursts == before
    assert a.allocator.in_use == []


def test_one_way_call(pair: Pair) -> None:
    assert pair.a.b.note.post(5) is None
    deadline = time.monotonic() + 2
    while not pair.notes and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pair.notes == [5]


def test_slots_exhausted(pair: Pair) -> None:
    b = pair.b
    filler = []
    while True:
        try:
            filler.append(b.allocator.allocate(1, "filler"))
        except SlotsExhausted:
            break
    before = pair.bus.bursts
    with pytest.raises(SlotsExhausted, match="run-time area of component 'b' is full.*runtime_words"):
        b.a.twice(lambda x: x, 1)
    assert pair.bus.bursts == before
    for x in filler:
        b.allocator.free(x)
    assert b.a.twice(lambda x: x + 1, 1) == 3


# ---------------------------------------------------------------------------- API errors


def test_export_errors(pair: Pair) -> None:
    a = pair.a
    with pytest.raises(KeyError, match="no export 'incc'; did you mean 'inc'"):
        a.export("incc", lambda x: x)
    with pytest.raises(TypeError, match=r"export 'inc' has signature \(x: i32\) -> i32"):
        a.export("inc", lambda: 1)
    with pytest.raises(TypeError, match="expected a callable"):
        a.export("inc", 5)  # type: ignore[arg-type]

    async def coro(x: int) -> int:
        return x

    with pytest.raises(TypeError, match="coroutine function"):
        a.export("inc", coro)
    e = a.export("inc", lambda x: x + 2)
    assert isinstance(e, ExportedFunction) and e(1) == 3 and pair.b.a.inc(1) == 3


def test_lookup_errors(pair: Pair) -> None:
    with pytest.raises(AttributeError, match="imports nothing from 'c'"):
        pair.a.c  # noqa: B018
    with pytest.raises(AttributeError, match="'b.ad' is not imported; did you mean 'add'"):
        pair.a.b.ad  # noqa: B018
    with pytest.raises(KeyError, match="no component 'x'"):
        SyncRuntime(pair.linked, "x", pair.bus.sync_backend("a"))
    with pytest.raises(ValueError, match="kind 'rtl'"):
        SyncRuntime(pair.linked, "hw", pair.bus.sync_backend("hw"))
    assert "add" in dir(pair.a.b) and "b" in dir(pair.a)
    assert repr(pair.a.b.add).startswith("<ImportedFunction b.add at 0x")
    unbound = RemoteFunction(0x1000, parse_signature("() -> void"))
    with pytest.raises(RuntimeError, match="not bound"):
        unbound()


def test_poll_without_thread() -> None:
    """A single-threaded program can serve with poll() between its own work."""
    linked = two_py()
    bus = MemoryBus(linked)
    b = SyncRuntime(linked, "b", bus.sync_backend("b"))
    b.export("add", lambda x, y: x + y)
    assert b.poll() == 0
    words = [3, 4, linked.component("a").import_("b.add").rep_address]
    bus.write(linked.component("a").import_("b.add").cep_address, words)
    assert b.poll() == 1
    rep = linked.component("a").import_("b.add").rep_address
    assert bus.read(rep, 2) == [7, 1]


def test_passing_own_export_starts_serving() -> None:
    linked = two_py()
    bus = MemoryBus(linked)
    a = SyncRuntime(linked, "a", bus.sync_backend("a"))
    b = SyncRuntime(linked, "b", bus.sync_backend("b"))
    inc = a.export("inc", lambda x: x + 1)
    b.export("apply", lambda f, x: f(x) * 2)
    with b:
        assert not a.serving
        assert a.b.apply(inc, 5) == 12  # b calls a's dynamic slot of inc: a must serve
        assert a.serving
        a.stop()


def test_inline_serving_without_pool() -> None:
    linked = two_py()
    bus = MemoryBus(linked)
    a = SyncRuntime(linked, "a", bus.sync_backend("a"), workers=0)
    b = SyncRuntime(linked, "b", bus.sync_backend("b"), workers=0)
    b.export("apply", lambda f, x: f(x) * 2)
    b.export("add", lambda x, y: x + y)
    with a, b:
        assert a.b.apply(lambda x: x - 1, 10) == 18
        assert [a.b.add(i, i) for i in range(10)] == [2 * i for i in range(10)]


def test_one_way_calls_in_a_row_each_run_once(pair: Pair) -> None:
    """Each one-way call carries the next SEQ like a two-way call: the callee runs every one
    (a repeated SEQ would be dropped as a duplicate) and counts no duplicate."""
    for n, x in enumerate((5, 6, 7, 8), start=1):
        assert pair.a.b.note.post(x) is None
        deadline = time.monotonic() + 5
        while len(pair.notes) < n and time.monotonic() < deadline:
            time.sleep(0.01)
    assert pair.notes == [5, 6, 7, 8]
    assert pair.b.counters.duplicates == 0 and pair.a.counters.strays == 0


# ------------------------------------------------------------ serving while waiting


def test_a_waiting_caller_runs_its_callbacks_on_its_own_thread(pair: Pair) -> None:
    """The callbacks of a call come back while its caller waits: they run on the caller's
    thread (awake anyway), not on a pool thread (serve_while_waiting, the default); with it
    off, on the pool as before. The results are the same either way."""
    a = pair.a
    where: list[str] = []

    def plus_one(x: int) -> int:
        where.append(threading.current_thread().name)
        return x + 1

    assert a.b.sum_cb(lambda i: where.append(threading.current_thread().name) or i, 4) == 6
    assert a.b.apply(plus_one, 1) == 4
    assert where and set(where) == {threading.current_thread().name}, where
    where.clear()
    a.serve_while_waiting = False
    try:
        assert a.b.apply(plus_one, 1) == 4
    finally:
        a.serve_while_waiting = True
    assert where and all(n.startswith("pushpush-a") for n in where), where


def test_a_callback_blocked_on_the_caller_thread_leaves_the_others_served(pair: Pair) -> None:
    """A callback running on the waiting caller's thread may block until another function
    of the component has run (here: ``gate`` waits for ``opener``, called by b meanwhile):
    the serve thread serves while the caller runs a function, so nothing deadlocks; one call
    at a time per function still holds."""
    a, b = pair.a, pair.b
    opened = threading.Event()
    order: list[str] = []
    a.export("inc", lambda x: (opened.set(), order.append("opener"), x + 1)[-1])

    def gate(x: int) -> int:
        order.append("gate entered")
        threading.Thread(target=lambda: b.a.inc(0), daemon=True).start()   # b calls a.inc
        assert opened.wait(5.0), "a.inc was never served while the callback blocked"
        order.append("gate left")
        return x

    assert a.b.apply(gate, 7) == 14
    assert order == ["gate entered", "opener", "gate left"]
    assert a._serving_waiters == 0 and a.allocator.in_use == []


def test_concurrent_callers_serving_while_waiting_each_get_their_own_answers(pair: Pair) -> None:
    """Several threads of one component wait at once, each with callbacks: every callback
    runs once with its own arguments, every caller gets its own result, no collision."""
    a = pair.a
    errors: list[BaseException] = []
    got: dict[int, list[int]] = {}

    def run(t: int) -> None:
        try:
            got[t] = [a.b.apply(lambda x, t=t: x * 10 + t, i) for i in range(15)]
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert not errors
    for t in range(4):
        assert got[t] == [2 * (i * 10 + t) for i in range(15)]
    assert a._serving_waiters == 0 and a.allocator.in_use == [] and pair.bus.collisions == 0


def test_an_export_returning_a_callable_of_the_wrong_shape_answers_bad_result(pair: Pair) -> None:
    """b.get_scale returns a function value (x: i32) -> i32; a Python callable that cannot
    take one argument is answered BAD_RESULT at once (before, the reply was never written
    and the caller waited out its timeout), and the component serves on."""
    pair.b.export("get_scale", lambda: (lambda: 0))
    with pytest.raises(CallError) as info:
        pair.a.b.get_scale(timeout=4.0)
    assert not isinstance(info.value, CallTimeout) and info.value.code == ErrorCode.BAD_RESULT
    assert "cannot take them" in str(pair.b.errors[-1][1])
    pair.b.export("get_scale", lambda: (lambda x: 2 * x))
    assert pair.a.b.get_scale()(21) == 42
