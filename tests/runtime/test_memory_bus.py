"""The in-memory test bus (a test double, not a hardware model)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from runtime_systems import two_py

from pushpush.protocol import BusWriteError
from pushpush.runtime import AsyncBackend, MemoryBus, SyncBackend


def test_windows_and_rules() -> None:
    linked = two_py()
    bus = MemoryBus(linked)
    a, b = linked.component("a"), linked.component("b")
    ba = bus.sync_backend("a")
    assert isinstance(ba, SyncBackend) and isinstance(bus.async_backend("a"), AsyncBackend)
    ba.write(b.base, [1, 2, 3])
    assert bus.read(b.base, 3) == [1, 2, 3] and bus.bursts == 1
    with pytest.raises(BusWriteError) as info:  # trigger word already non-zero
        ba.write(b.base + 4, [9, 9])
    assert info.value.resp == "SLVERR" and bus.collisions == 1
    assert bus.read(b.base, 3) == [1, 2, 3]  # refused whole
    with pytest.raises(BusWriteError, match="DECERR"):
        ba.write(0x1000_0000, [1])
    with pytest.raises(BusWriteError, match="DECERR"):  # crosses the end of a window
        ba.write(a.base + a.size - 4, [1, 2])
    # local access reaches only the own window
    ba.write_local(a.base, [5])
    assert ba.read_local(a.base, 1) == [5]
    with pytest.raises(ValueError, match="outside the window of 'a'"):
        ba.read_local(b.base, 1)
    with pytest.raises(ValueError):
        bus.add_window("x", a.base + 16, 64)
    with pytest.raises(ValueError, match="32-bit"):
        ba.write(b.base + 64, [1 << 32])


def test_sync_sleep_wakes_on_write() -> None:
    bus = MemoryBus()
    bus.add_window("a", 0x1000, 0x100)
    be = bus.sync_backend("a", poll_interval=5.0)
    be.sleep()  # the first sleep returns at once (nothing seen yet)
    threading.Timer(0.05, lambda: bus.write(0x1000, [1])).start()
    t0 = time.monotonic()
    be.sleep()
    assert time.monotonic() - t0 < 2.0


def test_async_sleep_wakes_on_write() -> None:
    async def main() -> None:
        bus = MemoryBus()
        bus.add_window("a", 0x1000, 0x100)
        be = bus.async_backend("a", poll_interval=5.0)
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, lambda: bus.write(0x1000, [1]))
        t0 = time.monotonic()
        await be.sleep()
        assert time.monotonic() - t0 < 2.0
        t0 = time.monotonic()
        await bus.async_backend("a", poll_interval=0.01).sleep()  # times out quietly
        assert time.monotonic() - t0 < 2.0

    asyncio.run(main())
