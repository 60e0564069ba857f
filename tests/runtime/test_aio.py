"""AsyncRuntime: two Python components calling each other over the in-memory test bus.

Each test runs its own event loop with ``asyncio.run`` (no pytest plugin needed).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import struct
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from runtime_systems import ECHO_TYPES, ECHO_VALUES, echo_rows, echo_system, exact, two_py

from pushpush.link import LinkedSystem
from pushpush.protocol import CallError, CallTimeout, ErrorCode
from pushpush.runtime import AsyncRuntime, MemoryBus, RemoteFunction
from pushpush.types import parse_signature

F32_ONE_THIRD = struct.unpack("<f", struct.pack("<f", 1 / 3))[0]


@dataclass
class Pair:
    linked: LinkedSystem
    bus: MemoryBus
    a: AsyncRuntime
    b: AsyncRuntime
    notes: list[int] = field(default_factory=list)
    kept: list[Any] = field(default_factory=list)
    mixes: list[tuple[Any, ...]] = field(default_factory=list)


def make_pair() -> Pair:
    linked = two_py()
    bus = MemoryBus(linked)
    a = AsyncRuntime(linked, "a", bus.async_backend("a"), timeout=5.0)
    b = AsyncRuntime(linked, "b", bus.async_backend("b"), timeout=5.0)
    p = Pair(linked, bus, a, b)

    a.export("inc", lambda x: x + 1)

    @a.export("twice")
    async def twice(f: RemoteFunction, x: int) -> int:
        return await f(await f(x))

    a.export("neg64", lambda x: -x)
    b.export("add", lambda x, y: x + y)

    @b.export("apply")
    async def apply(f: RemoteFunction, x: int) -> int:
        p.kept.append(f)
        return (await f(x)) * 2

    @b.export("mix")
    def mix(a_: int, b_: int, c: float, d: float, e: bool, g: int, h: int) -> float:
        p.mixes.append((a_, b_, c, d, e, g, h))  # the sum below rounds c..h away: see them here
        return float(a_) + float(b_) + c + d + (1000.0 if e else 0.0) + g + h

    @b.export("boom")
    async def boom(x: int) -> int:
        await asyncio.sleep(0)
        if x == 7:
            raise ValueError(f"seven is bad ({x})")
        return x

    triple = b.export("triple", lambda x: 3 * x)
    b.export("get_scale", lambda: triple)
    b.export("flip", lambda x: not x)

    @b.export("sum_cb")
    async def sum_cb(f: RemoteFunction, n: int) -> float:
        return sum([await f(i) for i in range(n)])

    b.export("note", lambda x: p.notes.append(x))
    b.export("pause", lambda timeout: timeout + 1)
    return p


def with_pair(test: Callable[[Pair], Awaitable[None]]) -> Callable[[], None]:
    """Run ``async def test(pair)`` in a fresh event loop with both runtimes serving."""

    @functools.wraps(test)
    def run() -> None:
        async def main() -> None:
            p = make_pair()
            async with p.a, p.b:
                await asyncio.wait_for(test(p), 20)

        asyncio.run(main())

    run.__signature__ = None  # type: ignore[attr-defined]  # hide the pair parameter from pytest
    del run.__wrapped__
    return run


@with_pair
async def test_calls_both_ways(p: Pair) -> None:
    assert await p.a.b.add(2, 3) == 5
    assert await p.a.imports["b.add"](a=-5, b=1) == -4
    assert await p.b.a.inc(41) == 42
    assert await p.b.imports["a.inc"](x=-1) == 0


@with_pair
async def test_values_both_ways(p: Pair) -> None:
    for v in (0, -1, 2**63 - 1, -2**63 + 1, 123456789012345):
        assert await p.b.a.neg64(v) == -v
    got = await p.a.b.mix(-2**40, 2**64 - 1, 1 / 3, -0.1, True, -128, 65535)
    assert got == float(-2**40) + float(2**64 - 1) + F32_ONE_THIRD + -0.1 + 1000.0 - 128 + 65535
    assert math.isnan(await p.a.b.mix(0, 0, math.nan, 0.0, False, 0, 0))
    # Each argument exactly (the sums above cannot tell g=+128 from g=-128, nor see c..h).
    sent = [(-2**40, 2**64 - 1, 1 / 3, -0.1, True, -128, 65535), (2**63 - 1, 2**63, -0.0, -0.0, True, 127, 0x8000),
            (-2**63, 0, math.inf, -math.inf, False, -1, 1), (1, 1, 1.0, 5e-324, True, 1, 0x7FFF)]
    p.mixes.clear()
    for args in sent:
        await p.a.b.mix(*args)
    want = [(x, y, struct.unpack("<f", struct.pack("<f", c))[0], d, e, g, h) for x, y, c, d, e, g, h in sent]
    assert [[exact(v) for v in m] for m in p.mixes] == [[exact(v) for v in m] for m in want]
    assert await p.a.b.flip(True) is False
    assert await p.a.b.add(-2**31, 2**31 - 1) == -1


def test_every_type_round_trips_exactly() -> None:
    """Each scalar type's edge values come back bit for bit, as a result (one echo export per
    type, half of them async) and as an argument among all the others (``every`` records)."""
    async def main() -> None:
        linked = echo_system()
        bus = MemoryBus(linked)
        caller = AsyncRuntime(linked, "caller", bus.async_backend("caller"), timeout=5.0)
        callee = AsyncRuntime(linked, "callee", bus.async_backend("callee"), timeout=5.0)

        async def echo_async(x: object) -> object:
            await asyncio.sleep(0)
            return x

        for i, t in enumerate(ECHO_TYPES):
            callee.export(f"echo_{t}", echo_async if i % 2 else (lambda x: x))
        got: list[tuple[object, ...]] = []
        callee.export("every", lambda *args: got.append(args) or len(got))
        async with caller, callee:
            for t in ECHO_TYPES:
                echo = caller.imports[f"callee.echo_{t}"]
                for v in ECHO_VALUES[t]:
                    assert exact(await echo(v)) == exact(v), (t, v)
            rows = echo_rows()
            for i, row in enumerate(rows):
                assert await caller.callee.every(*row) == i + 1
            assert [[exact(v) for v in r] for r in got] == [[exact(v) for v in r] for r in rows]

    asyncio.run(asyncio.wait_for(main(), 60))


@with_pair
async def test_higher_order_both_ways(p: Pair) -> None:
    seen: list[int] = []

    def plus_ten(x: int) -> int:
        seen.append(x)
        return x + 10

    async def async_neg(x: int) -> int:
        await asyncio.sleep(0)
        return -x

    assert await p.a.b.apply(plus_ten, 5) == 30 and seen == [5]
    assert await p.a.b.apply(f=async_neg, x=4) == -8
    assert await p.a.b.sum_cb(lambda i: i / 2, 5) == 5.0
    assert await p.b.a.twice(lambda x: x * 3, 2) == 18
    assert p.a.allocator.in_use == [] and p.b.allocator.in_use == []
    # b hands one of its functions to a; a calls it and passes it on
    f = await p.a.b.get_scale()
    assert isinstance(f, RemoteFunction) and f.name == "b.triple"
    assert f.signature == parse_signature("(x: i32) -> i32")
    assert await f(14) == 42
    assert await p.a.b.apply(f, 5) == 30 and p.kept[-1].address == f.address
    # a callback kept after its call answers BAD_FUNCTION
    await p.a.b.apply(lambda x: x, 1)
    with pytest.raises(CallError) as info:
        await p.kept[-1](3)
    assert info.value.code is ErrorCode.BAD_FUNCTION


@with_pair
async def test_concurrent_tasks(p: Pair) -> None:
    jobs = [p.a.b.add(i, t) for t in range(3) for i in range(20)]
    jobs += [p.a.b.apply(lambda x, i=i: x + i, i) for i in range(10)]
    jobs += [p.b.a.twice(lambda x: x - 1, i) for i in range(10)]
    jobs += [p.b.a.inc(i) for i in range(20)]
    got = await asyncio.gather(*jobs)
    want = [i + t for t in range(3) for i in range(20)] + [4 * i for i in range(10)]
    want += [i - 2 for i in range(10)] + [i + 1 for i in range(20)]
    assert got == want
    assert p.a.allocator.in_use == [] and p.b.allocator.in_use == []
    assert p.bus.collisions == 0


@with_pair
async def test_callee_raises(p: Pair) -> None:
    with pytest.raises(CallError) as info:
        await p.a.b.boom(7)
    e = info.value
    assert e.code is ErrorCode.CALLEE_RAISED and e.function == "b.boom"
    assert e.address == p.linked.component("a").import_("b.boom").cep_address
    assert isinstance(p.b.errors[-1][1], ValueError)
    assert await p.a.b.boom(3) == 3


@with_pair
async def test_timeout_then_system_keeps_working(p: Pair) -> None:
    info_ = p.linked.component("a").import_("b.nobody")
    t0 = time.monotonic()
    with pytest.raises(CallTimeout) as info:
        await p.a.b.nobody(timeout=0.2)
    assert 0.2 <= time.monotonic() - t0 < 1.5
    assert f"b.nobody at 0x{info_.cep_address:08X} timed out after 0.2 s" in str(info.value)
    assert await p.a.b.add(2, 2) == 4
    calls: list[int] = []
    p.b.export("nobody", lambda: calls.append(1))
    assert await p.a.b.nobody() is None
    assert len(calls) == 2
    await p.a.b.add(0, 0)
    assert p.a._quarantine == [] and p.a.allocator.in_use == []


@with_pair
async def test_wrong_arguments_write_nothing(p: Pair) -> None:
    before = p.bus.bursts
    with pytest.raises(TypeError, match="argument 'a'.*str"):
        await p.a.b.add("1", 2)
    with pytest.raises(OverflowError, match="argument 'b'.*out of range for i32"):
        await p.a.b.add(1, -2**31 - 1)
    with pytest.raises(OverflowError, match="argument 'g'.*-128..127"):
        await p.a.b.mix(0, 0, 0.0, 0.0, False, 128, 0)
    with pytest.raises(TypeError, match="missing 1 required argument: 'x'"):
        await p.a.b.apply(lambda x: x)
    assert p.bus.bursts == before and p.a.allocator.in_use == []


@with_pair
async def test_one_way_and_idle(p: Pair) -> None:
    await p.a.b.note.post(9)
    for _ in range(200):
        if p.notes:
            break
        await asyncio.sleep(0.005)
    assert p.notes == [9]
    before = p.bus.bursts
    await asyncio.sleep(0.1)
    assert p.bus.bursts == before  # idle serve loops put nothing on the bus


def test_async_export_in_sync_callers_view() -> None:
    """An AsyncRuntime serves a SyncRuntime caller on the same test bus (mixed drivers)."""
    from pushpush.runtime import SyncRuntime

    linked = two_py()
    bus = MemoryBus(linked)
    a = SyncRuntime(linked, "a", bus.sync_backend("a"), timeout=2.0)

    async def main() -> None:
        b = AsyncRuntime(linked, "b", bus.async_backend("b"))

        @b.export("apply")
        async def apply(f: RemoteFunction, x: int) -> int:
            return 2 * await f(x)

        async with b:
            loop = asyncio.get_running_loop()
            with a:
                got = await loop.run_in_executor(None, lambda: a.b.apply(lambda x: x + 1, 20))
            assert got == 42

    asyncio.run(main())


def test_logs_callee_errors(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="pushpush.runtime"):
        test_callee_raises()
    assert "b.boom raised ValueError: seven is bad" in caplog.text
