"""RIFFA-style channels from software (docs/runtime.md, "Channels").

A channel ``c`` of an rtl component (``channels:`` in the YAML) is two exports of that
component: ``c_rx(data: in u32[], off: u32, last: bool) -> u32`` and ``c_tx(data: out u32[])
-> u64`` (docs/rtl-ports.md, "Channels"). :class:`Channel` wraps them in RIFFA 2.1's API:

* :meth:`Channel.send` is ``fpga_send``: one call of ``c_rx``; it returns when the core has
  taken every word (the call's return), with the number of words taken;
* :meth:`Channel.recv` is ``fpga_recv``: it posts a buffer with calls of ``c_tx`` until a
  transaction ends with ``last``; each call's result says how many words were written and
  at which offset (chosen by the hardware) they belong in the receiver's array;
* :meth:`Channel.asend` / :meth:`Channel.arecv`: the same as coroutines, so one asyncio
  program streams in both directions at once (``await asyncio.gather(ch.asend(x),
  ch.arecv())``) without threads of its own; they run the blocking forms in the event
  loop's default executor. Channels belong to the thread-based runtime
  (:class:`~pushpush.runtime.SyncRuntime`, what ``ol.runtime()`` gives on PYNQ and the
  simulated board).

Thread safety: one send at a time and one receive at a time per channel (a lock per
direction); sends and receives of one channel, and every other channel, run concurrently.

Timeouts: the hardware adapter (cores/chnl) ends a transfer that makes no progress for
``CHNL_TIMEOUT`` cycles (default 16384) and reports the words moved so far; a
:class:`ChannelTimeout` then names the channel, the direction and that count (and for a
receive carries the data that arrived). So every call of a channel returns, and software
never abandons one: a call in flight owns its DMA buffer and its call slot (a second call
into a busy slot would be dropped by the wrapper). The ``timeout`` argument (seconds,
default the runtime's) is the deadline of a receive: it re-posts its buffer until a last
transaction or the deadline, so it returns at most one ``CHNL_TIMEOUT`` period after it.
A send returns when the core took every word or stopped taking them. The runtime's
``timeout`` (``rt.timeout``) stays the safety net of each call: past it (a stopped
simulation, a missing bitstream) a ``ChannelTimeout`` with ``words=None`` is raised, saying
what the machine did meanwhile. Since the adapter bounds a call in cycles, the net counts
only time in which the machine made no progress (the backend's ``progress_clock``): on the
simulated board, seconds in which its cycle count stood still although the simulator had a
CPU, never the wall time a loaded host stretches (a transfer of 200,000 words each way takes
40 s quiet, 150-366 s at load 9-12); on a board, where the PL always runs, wall time.

>>> ch = rt.channel("hw.loop")                      # doctest: +SKIP
>>> ch.send(np.arange(100, dtype=np.uint32), offset=0, last=True)  # doctest: +SKIP
100
>>> ch.recv()                                      # doctest: +SKIP
array([ 0,  1,  2, ..., 99], dtype=uint32)
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from typing import Any, Optional

from ..link import ChannelInfo, LinkedSystem
from ..protocol import CallTimeout
from ..types import parse_signature

__all__ = ["Channel", "ChannelTimeout", "RecvInfo", "RX_SIGNATURE", "TX_SIGNATURE",
           "DEFAULT_CAPACITY", "unpack_rx", "unpack_tx"]

RX_SIGNATURE = "(data: in u32[], off: u32, last: bool) -> u32"
TX_SIGNATURE = "(data: out u32[]) -> u64"
#: Words a receive posts by default (``Channel.capacity``).
DEFAULT_CAPACITY = 1 << 16
_TMO = 1 << 31


def unpack_rx(result: int) -> tuple[int, bool]:
    """``c_rx``'s result: (words the core took, timed out)."""
    return result & (_TMO - 1), bool(result & _TMO)


def unpack_tx(result: int) -> tuple[int, int, bool, bool]:
    """``c_tx``'s result: (words written, offset, last, timed out)."""
    low, high = result & 0xFFFF_FFFF, result >> 32
    return low & (_TMO - 1), high & (_TMO - 1), bool(high & _TMO), bool(low & _TMO)


class ChannelTimeout(TimeoutError):
    """A channel transfer did not finish: ``channel`` (``"hw.loop"``), ``direction``
    (``"send"`` or ``"recv"``), ``words`` (moved so far; None when unknown), ``data`` (a
    receive: the array of what arrived, else None)."""

    def __init__(self, channel: str, direction: str, words: Optional[int], message: str,
                 data: Any = None) -> None:
        self.channel = channel
        self.direction = direction
        self.words = words
        self.data = data
        super().__init__(f"channel '{channel}' {direction}: {message}")


class RecvInfo:
    """What the last :meth:`Channel.recv` got: ``words`` (received in total), ``offset`` (of
    the first transaction), ``transactions``, ``last`` (ended by a last transaction)."""

    def __init__(self) -> None:
        self.words = 0
        self.offset = 0
        self.transactions = 0
        self.last = False

    def __repr__(self) -> str:
        return (f"RecvInfo(words={self.words}, offset={self.offset}, "
                f"transactions={self.transactions}, last={self.last})")


class Channel:
    """One channel of an rtl component, seen from a software component's runtime (made by
    ``runtime.channel("comp.name")``; see the module's documentation)."""

    def __init__(self, runtime: Any, linked: LinkedSystem, info: ChannelInfo,
                 capacity: int = DEFAULT_CAPACITY) -> None:
        if asyncio.iscoroutinefunction(getattr(runtime, "poll", None)):
            raise TypeError(f"channel '{info.component}.{info.name}': channels run on the "
                            "thread-based runtime (SyncRuntime, ol.runtime()); use its "
                            "asend/arecv from asyncio code")
        self.info = info
        self.name = f"{info.component}.{info.name}"
        self.capacity = capacity
        comp = linked.component(info.component)
        by_name = {e.name: e for e in comp.exports}
        self._rx = runtime.function(self._address(comp, by_name[info.rx]),
                                    parse_signature(RX_SIGNATURE), name=f"{info.component}.{info.rx}")
        self._tx = runtime.function(self._address(comp, by_name[info.tx]),
                                    parse_signature(TX_SIGNATURE), name=f"{info.component}.{info.tx}")
        # the adapter ends every call within CHNL_TIMEOUT cycles without progress: the safety
        # net waits on the machine's progress, not on wall time (see the module docstring)
        self._rx, self._tx = self._rx.with_cycles(math.inf), self._tx.with_cycles(math.inf)
        self._runtime = runtime
        self._send_lock = threading.Lock()
        self._recv_lock = threading.Lock()
        self._alloc = runtime.hooks.allocate
        self._sbuf: Any = None
        self._rbuf: Any = None
        #: Details of the last completed or timed-out receive.
        self.last_recv = RecvInfo()

    @staticmethod
    def _address(comp: Any, export: Any) -> int:
        if not export.dynamic_slots:
            raise ValueError(f"export '{comp.name}.{export.name}' has no dynamic slot for software")
        return int(comp.slots[export.dynamic_slots[0]].address)

    def __repr__(self) -> str:
        return f"<channel {self.name} (RIFFA channel {self.info.index})>"

    def _timeout(self, timeout: Optional[float]) -> float:
        return float(self._runtime.timeout if timeout is None else timeout)

    def _buffer(self, which: str, n: int) -> Any:
        """The channel's DMA buffer for a direction, grown to ``n`` words (a plain numpy
        array when the backend cannot allocate: the runtime copies it)."""
        import numpy as np

        cur = self._sbuf if which == "s" else self._rbuf
        if cur is None or cur.size < n:
            size = max(n, 1024)
            if cur is not None and hasattr(cur, "freebuffer"):
                cur.freebuffer()
            cur = self._alloc(size, "uint32")
            if cur is None:   # the backend has no memory the PL reaches: the runtime copies
                cur = np.zeros(size, np.uint32)
            if which == "s":
                self._sbuf = cur
            else:
                self._rbuf = cur
        return cur

    def _other(self, direction: str) -> str:
        """The channel's other direction, for a timeout's message."""
        lock = self._recv_lock if direction == "recv" else self._send_lock
        return f"this channel's {direction}: {'one in flight' if lock.locked() else 'none in flight'}"

    # ------------------------------------------------------------------ send

    def _send_args(self, data: Any) -> tuple[Any, int]:
        import numpy as np

        if hasattr(data, "physical_address") and getattr(data, "dtype", None) == np.uint32:
            return data, int(data.size)
        arr = np.ascontiguousarray(np.asarray(data).reshape(-1))
        if arr.dtype != np.uint32:
            if arr.size and arr.dtype.kind not in "iub":
                raise TypeError(f"channel '{self.name}' send: data must be 32-bit words "
                                f"(np.uint32), not {arr.dtype}")
            arr = arr.astype(np.uint32)
        buf = self._buffer("s", arr.size)
        buf[:arr.size] = arr
        if hasattr(buf, "flush"):
            buf.flush()
        return buf, int(arr.size)

    def _check_send(self, result: int, n: int) -> int:
        words, tmo = unpack_rx(int(result))
        if tmo:
            raise ChannelTimeout(self.name, "send", words,
                                 f"the core stopped taking words: {words} of {n} taken (no "
                                 f"progress for the adapter's CHNL_TIMEOUT cycles)")
        return words

    def send(self, data: Any, offset: int = 0, last: bool = True,
             timeout: Optional[float] = None) -> int:
        """Send ``data`` (32-bit words: a ``pynq.allocate`` u32 buffer is used in place,
        anything else is copied into the channel's buffer) with RIFFA's ``offset`` and
        ``last``; returns the number of words the core took (all of them), or raises
        :class:`ChannelTimeout` with the count when the core stopped taking them. The call
        waits at most ``max(timeout, rt.timeout)`` seconds (on the simulated board: seconds in
        which the simulator made no progress; see the module docstring)."""
        if not 0 <= int(offset) < (1 << 31):
            raise ValueError(f"channel '{self.name}' send: offset {offset} is not in 0..2**31-1")
        t = max(self._timeout(timeout), float(self._runtime.timeout))
        with self._send_lock:
            buf, n = self._send_args(data)
            try:
                result = self._rx((buf, n), int(offset), bool(last), timeout=t)
            except CallTimeout as e:
                raise ChannelTimeout(self.name, "send", None,
                                     f"no return of the send of {n} words (offset {offset}, "
                                     f"last={bool(last)}) within {t:g} s, though the hardware ends "
                                     f"a transfer after CHNL_TIMEOUT cycles without progress; "
                                     f"{self._other('recv')}; {e}") from None
            return self._check_send(result, n)

    async def asend(self, data: Any, offset: int = 0, last: bool = True,
                    timeout: Optional[float] = None) -> int:
        """:meth:`send` as a coroutine (run in the event loop's default executor)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: self.send(data, offset, last, timeout))

    # ------------------------------------------------------------------ receive

    def recv(self, capacity: Optional[int] = None, timeout: Optional[float] = None) -> Any:
        """Receive until a transaction with ``last`` (RIFFA's ``fpga_recv``): returns a u32
        array of ``max(offset + words)`` over the transactions, each placed at the offset the
        hardware chose (words never written are 0). At most ``capacity`` words (default
        :attr:`capacity`); words beyond it are dropped. :attr:`last_recv` tells the count."""
        import numpy as np

        cap = int(self.capacity if capacity is None else capacity)
        if cap < 1:
            raise ValueError(f"channel '{self.name}' recv: capacity must be at least 1 word")
        t = self._timeout(timeout)
        deadline = time.monotonic() + t
        with self._recv_lock:
            out = np.zeros(cap, np.uint32)
            info = RecvInfo()
            end = 0
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.last_recv = info
                    raise ChannelTimeout(self.name, "recv", info.words,
                                         f"no last transaction within {t:g} s; {info.words} "
                                         f"words arrived", data=out[:end].copy())
                buf = self._buffer("r", cap)
                try:
                    result = self._tx((buf, cap), timeout=max(left, float(self._runtime.timeout)))
                except CallTimeout as e:
                    self.last_recv = info
                    raise ChannelTimeout(self.name, "recv", info.words,
                                         f"no return of a receive call (capacity {cap} words) "
                                         f"within {t:g} s, though the hardware ends it after "
                                         f"CHNL_TIMEOUT cycles without progress; {info.words} "
                                         f"words arrived in {info.transactions} transaction(s); "
                                         f"{self._other('send')}; {e}", data=out[:end].copy()) from None
                end = self._place(out, buf, int(result), info, end, cap)
                if info.last:
                    self.last_recv = info
                    return out[:end]

    def _place(self, out: Any, buf: Any, result: int, info: RecvInfo, end: int, cap: int) -> int:
        n, off, last, _tmo = unpack_tx(result)
        if n or last:
            if info.transactions == 0:
                info.offset = off
            info.transactions += 1 if (n == 0 or off + n >= end or last) else 0
        if n:
            if hasattr(buf, "invalidate"):
                buf.invalidate()
            k = max(0, min(n, cap - off))
            out[off:off + k] = buf[:k]
            info.words += n
            end = max(end, off + k)
        info.last = last
        return end

    async def arecv(self, capacity: Optional[int] = None, timeout: Optional[float] = None) -> Any:
        """:meth:`recv` as a coroutine."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: self.recv(capacity, timeout))

    def close(self) -> None:
        """Free the channel's DMA buffers."""
        for b in (self._sbuf, self._rbuf):
            if b is not None and hasattr(b, "freebuffer"):
                b.freebuffer()
        self._sbuf = self._rbuf = None

