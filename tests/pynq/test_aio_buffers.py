"""The asyncio runtime's buffer path (``AsyncRuntime._invoke`` with buffer parameters,
docs/runtime.md "Buffers") against the real engines: examples/bufargs on the simulated board
(``BUFFER_TIMEOUT`` shortened to 3000 cycles), called from an :class:`AsyncRuntime`.

pushpush has no asyncio backend for PYNQ (its async backends are the in-memory bus and
cocotb, neither of which has memory for the engines), so the test wraps the board's
:class:`PynqBackend` in a small adapter: ``write`` as is, ``sleep`` in a worker thread. The
overlay's own SyncRuntime is never made, and one AsyncRuntime does everything: two runtimes
of one component would share its static slots, each with its own sequence bit, and the
wrapper drops a call whose bit equals the last one taken from the slot (a duplicate)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.link import load  # noqa: E402
from pushpush.protocol import CallError, ErrorCode  # noqa: E402
from pushpush.pynq.board import PynqBackend  # noqa: E402
from pushpush.codegen.hwh import system_top_instance  # noqa: E402
from pushpush.runtime import AsyncBackend, AsyncRuntime  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bufargs"


class AsyncPynq(AsyncBackend):
    """The board's blocking backend as an AsyncBackend (a test adapter)."""

    def __init__(self, sync: PynqBackend) -> None:
        self.sync = sync
        self.allocate = sync.allocate       # numpy arrays are copied into these

    async def write(self, address: int, words: Sequence[int]) -> None:
        self.sync.write(address, words)

    def read_local(self, address: int, count: int) -> list[int]:
        return self.sync.read_local(address, count)

    def write_local(self, address: int, words: Sequence[int]) -> None:
        self.sync.write_local(address, words)

    async def sleep(self) -> None:
        await asyncio.to_thread(self.sync.sleep)


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    linked = load(EXAMPLE / "system.yaml")
    bit = ppq.write_sim_overlay(linked, tmp_path_factory.mktemp("aio_buffers"),
                                parameters={"BUFFER_TIMEOUT": 3000})
    ol = ppq.load(str(bit))
    sync = PynqBackend(linked, "host", ol.device, pl=ol.ip_dict[system_top_instance()],
                       windows=ol.system.windows)
    yield linked, AsyncPynq(sync)
    sync.close()
    ol.free()


def _run(board: Any, test: Any) -> None:
    linked, backend = board

    async def main() -> None:
        rt = AsyncRuntime(linked, "host", backend, timeout=120.0)
        async with rt:
            await asyncio.wait_for(test(rt), 300)

    asyncio.run(main())


def test_buffers_from_asyncio(board):
    async def test(rt: AsyncRuntime) -> None:
        n = 1000
        src = pynq.allocate((n,), np.uint32)
        dst = pynq.allocate((n,), np.uint32)
        src[:] = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
        assert await rt.hw.scale(src, dst, 5) == n
        assert np.array_equal(dst, src * np.uint32(5))
        # numpy arrays: copied into buffers from the backend's allocate, and back
        a = np.arange(300, dtype=np.uint8)
        b = np.zeros(300, np.int16)
        assert await rt.hw.widen(a, b) == 300
        assert np.array_equal(b, a.astype(np.int16) - 128)
        # a buffer call and a plain call of the same component at the same time
        dst[:] = 0
        got = await asyncio.gather(rt.hw.scale((src, 500), dst, 2), rt.hw.add(20, 22))
        assert got == [500, 42] and np.array_equal(dst[:500], src[:500] * np.uint32(2))
        assert (dst[500:] == 0).all()
        with pytest.raises(ValueError, match="one-way"):
            await rt.hw.scale.post(src, dst, 1)

        # a buffer timeout (the module never reads its stream), then all still serves
        src = pynq.allocate((64,), np.uint32)
        src[:] = 7
        with pytest.raises(CallError) as info:
            await rt.hw.stuck(src)
        assert int(info.value.code) & 0xFF == ErrorCode.BUFFER & 0xFF
        msg = str(info.value)
        assert "buffer 'src' (in u32[])" in msg and "timed out" in msg and "pp_buf_rd" in msg
        assert await rt.hw.add(1, 2) == 3
        dst = pynq.allocate((64,), np.uint32)
        assert await rt.hw.scale(src, dst, 3) == 64 and (dst == 21).all()
    _run(board, test)
