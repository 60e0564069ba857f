"""The asyncio driver: awaitable calls, a serve loop as a task.

It uses no asyncio primitive of its own except where the backend does not say otherwise,
so it also runs under cocotb's scheduler: waiting is ``await backend.sleep()``, the serve
loop and async handlers are started with the backend's ``spawn(coroutine)`` hook (by default
``asyncio.ensure_future``), and time is its ``now()`` in seconds (by default
``time.monotonic()``; :class:`~.backend.Backend`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Awaitable, Generator, Optional

from ..link import LinkedSystem
from ..protocol import BusWriteError
from .backend import AsyncBackend
from .callee import Incoming
from .caller import SLEEP, Acquire, Write
from .core import DEFAULT_TIMEOUT, RuntimeCore, log
from .functions import RemoteFunction

__all__ = ["AsyncRuntime"]


class AsyncRuntime(RuntimeCore):
    """A software component's runtime for asyncio (and cocotb) code.

    >>> rt = AsyncRuntime(linked, "host", backend)      # doctest: +SKIP
    >>> @rt.export("coeff")                             # doctest: +SKIP
    ... async def coeff(i):                             # plain functions work too
    ...     return [3, -1, 4][i]
    >>> async with rt:                                  # starts the serve task
    ...     y = await rt.callee.f(3)
    ...     y = await rt.imports["callee.f"](x=3, timeout=1.0)

    Calling an import or a :class:`RemoteFunction` returns an awaitable. Plain exported
    functions run inside the serve loop one at a time; ``async`` ones run as their own
    tasks, so they may await calls that need this same serve loop. A function-typed
    argument arrives as a RemoteFunction whose calls must be awaited (so a handler that
    calls one must be ``async``).
    """

    def __init__(self, linked: LinkedSystem, component: str, backend: AsyncBackend, *,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        super().__init__(linked, component, backend, timeout=timeout)
        self.backend: AsyncBackend = backend
        self._busy_ceps: set[int] = set()
        self._asyncio_locks: dict[int, asyncio.Lock] = {}
        self._running = False
        self._stopping = False
        self._task: Any = None
        self._tasks: list[Any] = []
        self._backend_now = self.hooks.now
        self._clock = self._now  # the call routine's timeouts in the backend's time

    def _now(self) -> float:
        return float(self._backend_now())

    def _spawn(self, coro: Awaitable[Any]) -> Any:
        task = self.hooks.spawn(coro)
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(task)
        return task

    # ------------------------------------------------------------------ calling

    async def _invoke(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
                      timeout: Optional[float], one_way: bool) -> Any:
        return await self._drive(self._call(fn, args, kwargs, timeout, one_way))

    async def _drive(self, steps: Generator[Any, Any, Any]) -> Any:
        """Carry out the steps of :meth:`~.caller.Caller._call` (awaiting); its result."""
        backend = self.backend
        sent: Any = None
        exc: Optional[Exception] = None
        held: Optional[RemoteFunction] = None
        try:
            while True:
                try:
                    step = steps.send(sent) if exc is None else steps.throw(exc)
                except StopIteration as done:
                    return done.value
                sent = exc = None
                if type(step) is Write:
                    try:
                        await backend.write(step.address, step.words)
                    except BusWriteError as e:
                        sent = e
                elif step is SLEEP:
                    await backend.sleep()
                elif type(step) is Acquire:
                    sent = await self._acquire(step.fn, self._now() + step.timeout, step.timeout)
                    if sent:
                        held = step.fn
                else:  # Await: an async function's value (its exception goes to the routine)
                    try:
                        sent = await step.value
                    except Exception as e:
                        exc = e
        finally:
            steps.close()  # a step raised (or the task was cancelled): its slots back now
            if held is not None:
                self._release_at(held.address)

    async def _acquire(self, fn: RemoteFunction, deadline: float, timeout: float) -> bool:
        """One call at a time per cep address: whether the lock was taken by ``deadline``.

        Under asyncio an ``asyncio.Lock`` per address (FIFO, woken on release); under another
        scheduler (cocotb) a polling lock that sleeps with the backend between checks.
        """
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            lock = self._asyncio_locks.get(fn.address)
            if lock is None:
                lock = self._asyncio_locks[fn.address] = asyncio.Lock()
            if not lock.locked() and not getattr(lock, "_waiters", True):
                # free and nobody queued: acquire() returns without suspending (no timeout
                # needed, and no task for wait_for). Unknown asyncio internals: the slow path.
                await lock.acquire()
                return True
            try:
                await asyncio.wait_for(lock.acquire(), max(0.0, deadline - self._now()))
            except asyncio.TimeoutError:
                return False
            return True
        while fn.address in self._busy_ceps:
            if self._now() >= deadline:
                return False
            await self.backend.sleep()
        self._busy_ceps.add(fn.address)
        return True

    def _cep_lock_of(self, address: int) -> tuple[Any, Any]:
        """Every call asks for the lock (:class:`~.caller.Acquire`: taking an asyncio lock is a
        coroutine); :meth:`_drive` gives it back when the steps end."""
        return None, partial(self._release_at, address)

    def _release_at(self, address: int) -> None:
        lock = self._asyncio_locks.get(address)
        if lock is not None and lock.locked():
            lock.release()
        else:
            self._busy_ceps.discard(address)

    # ------------------------------------------------------------------ serving

    async def poll(self) -> int:
        """One sweep: take the pending calls and run them (async handlers as tasks)."""
        calls = self._take_calls()
        for c in calls:
            await self._dispatch(c)
        return len(calls)

    async def _dispatch(self, c: Incoming) -> None:
        words, pending = self._run(c)
        if pending is not None:
            self._spawn(self._finish(c, pending))
        else:
            await self._reply(c, words)

    async def _finish(self, c: Incoming, pending: Awaitable[Any]) -> None:
        try:
            value = await pending
        except Exception as e:
            words = self._encode_outcome(c.served, exc=e, seq=c.trigger.seq)
        else:
            words = self._encode_outcome(c.served, value, seq=c.trigger.seq)
        await self._reply(c, words)

    async def _reply(self, c: Incoming, words: list[int]) -> None:
        try:
            if c.trigger.one_way:
                return
            try:
                await self.backend.write(c.trigger.rep_address, words)
            except BusWriteError as e:
                log.error("%s: cannot write the reply to 0x%08X: %s", c.served.name, c.trigger.rep_address, e)
        finally:
            self._finished(c)

    async def serve_forever(self) -> None:
        """Serve until :meth:`stop`; sweeps locally and sleeps between sweeps."""
        self._running = True
        self._stopping = False
        try:
            while not self._stopping:
                try:
                    ran = await self.poll()
                except Exception:
                    log.exception("%s: serve loop error", self.component.name)
                    ran = 0
                if not ran:
                    await self.backend.sleep()
        finally:
            self._running = False

    def start(self) -> "AsyncRuntime":
        """Start the serve loop as a task (no-op if it runs); needs a running event loop."""
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = self._spawn(self.serve_forever())
        return self

    @property
    def serving(self) -> bool:
        return self._task is not None and not self._task.done()

    async def stop(self) -> None:
        """Stop the serve loop after its current sweep."""
        self._stopping = True
        while self._task is not None and not self._task.done():
            await self.backend.sleep()
        self._task = None

    close = stop

    async def __aenter__(self) -> "AsyncRuntime":
        return self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
