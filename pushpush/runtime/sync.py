"""The synchronous driver: blocking calls from any thread, a serve loop in a thread."""

from __future__ import annotations

import threading
from collections import deque
from functools import partial
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional

from ..link import LinkedSystem
from ..protocol import BusWriteError
from .backend import SyncBackend, serve_thread
from .callee import Incoming
from .caller import SLEEP, Acquire, Write
from .core import DEFAULT_TIMEOUT, RuntimeCore, log
from .functions import RemoteFunction

__all__ = ["SyncRuntime"]

class SyncRuntime(RuntimeCore):
    """A software component's runtime for threads (scripts, notebooks, the board).

    >>> rt = SyncRuntime(linked, "host", backend)          # doctest: +SKIP
    >>> @rt.export("coeff")                                # doctest: +SKIP
    ... def coeff(i):
    ...     return [3, -1, 4][i]
    >>> with rt:                                           # starts the serve thread
    ...     rt.fir.fir(coeff, src, sink, taps=3)           # imports: rt.<component>.<function>
    ...     rt.imports["fir.fir"](coeff, src, sink, 3, timeout=10)

    Calls block until the reply (or ``timeout`` seconds: :class:`CallTimeout`); they are safe
    from several threads (see :mod:`pushpush.runtime.core` for slot use).

    The serve thread only sweeps the window and takes calls; the functions run on a pool
    of ``workers`` threads, **one call at a time per function** (per export, whatever slot
    the call came through, and per lent callable), different functions concurrently. So a
    function may itself make calls that lead back into this component (A's ``twice`` calling
    a callback of B while B's ``apply`` calls a callback of A) without deadlock; only a
    cycle back into the *same* function waits for itself (until the timeout). Calls to this
    runtime's own live functions are short-circuited (run directly, no bus).
    ``workers=0`` runs every function inline in the serve thread (a strict order, no pool).
    :meth:`poll` (one sweep, for programs without a serve thread) always runs inline.

    A thread blocked in a call serves meanwhile (``serve_while_waiting``, default on): the
    calls that come in while it waits (a callback of the hardware it called, e.g. ``fir``
    calling ``coeff``) run on that thread, which is awake anyway, instead of being handed
    from the serve thread to a pool thread: two thread wake-ups fewer per callback, which
    on a busy host are most of a callback's cost (the audio FIR cell). The rules stay: one
    call at a time per function, others go to the pool, and the serve thread takes over as
    soon as no caller waits.
    """

    def __init__(self, linked: LinkedSystem, component: str, backend: SyncBackend, *,
                 timeout: float = DEFAULT_TIMEOUT, workers: int = 8,
                 serve_while_waiting: bool = True) -> None:
        super().__init__(linked, component, backend, timeout=timeout)
        self.backend: SyncBackend = backend
        self.workers = workers
        self.serve_while_waiting = serve_while_waiting
        #: one sweep of the window at a time (the serve thread's, a waiting caller's)
        self._sweep_lock = threading.Lock()
        #: callers blocked in their wait that serve meanwhile (the serve thread stands down)
        self._serving_waiters = 0
        self._serving_over = threading.Condition(self._lock)
        self._tls = threading.local()
        self._pool: Optional[ThreadPoolExecutor] = None
        self._queues: dict[object, deque[Incoming]] = {}
        self._cep_locks: dict[int, threading.Lock] = {}
        self._thread: Optional[threading.Thread] = None
        self._stop = threading.Event()

    def export(self, name: str, fn: Optional[Callable[..., Any]] = None) -> Any:
        if fn is not None and _is_async(fn):
            raise TypeError(f"export '{name}': {fn!r} is a coroutine function; a SyncRuntime "
                            "runs plain functions (use AsyncRuntime for async ones)")
        return super().export(name, fn)

    # ------------------------------------------------------------------ calling

    def _cep_lock(self, address: int) -> threading.Lock:
        with self._lock:
            lock = self._cep_locks.get(address)
            if lock is None:
                lock = self._cep_locks[address] = threading.Lock()
            return lock

    def _cep_lock_of(self, address: int) -> tuple[Any, Any]:
        """A threading lock per cep address: taken at once by the routine if free
        (``acquire(False)``, in C), else waited for (and given back) in :meth:`_invoke`
        (:class:`Acquire`)."""
        lock = self._cep_lock(address)
        return partial(lock.acquire, False), lock.release

    def _invoke(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
                timeout: Optional[float], one_way: bool) -> Any:
        """Make the call: carry out the steps of :meth:`~.caller.Caller._call` (blocking);
        its result. (The driver loop is here, not in a method of its own: one Python frame
        less per call.)"""
        steps = self._call(fn, args, kwargs, timeout, one_way)
        send = steps.send
        sent: Any = None
        held: Optional[threading.Lock] = None
        slept = False
        served = False
        try:
            while True:
                try:
                    step = send(sent)
                except StopIteration as done:
                    return done.value
                sent = None
                kind = type(step)
                if kind is Write:
                    if not served and self._pool is not None and self.serve_while_waiting:
                        # from before the call is written (its callbacks cannot come before)
                        # to its end, but for the functions it runs (see _dispatch)
                        served = True
                        self._count_serving(1)
                    address, words = step
                    try:
                        self.backend.write(address, words)
                    except BusWriteError as e:
                        sent = e
                elif kind is Acquire:   # (the call plan found the lock taken: wait for it)
                    address = step[0].address
                    lock = self._cep_locks.get(address) or self._cep_lock(address)
                    sent = lock.acquire(timeout=max(0.0, step[1]))
                    if sent:
                        held = lock
                elif step is SLEEP:
                    slept = True
                    if self._pool is not None and self.serve_while_waiting:
                        if not served:   # (a call that waited before its first write)
                            served = True
                            self._count_serving(1)
                        if self._serve_waiting():
                            continue   # ran calls that came in: look for the reply again
                    self.backend.sleep()
                else:  # Await: a plain function's value, as it is
                    sent = step.value
        finally:
            steps.close()  # a step raised: the routine gives its slots (and lock) back now
            if held is not None:
                held.release()
            if slept:   # a polling caller waits no more (the simulated board counts it)
                self.hooks.wait_over()
            if served:   # the serve thread, standing down for us, takes over (notified)
                self._count_serving(-1)

    # ------------------------------------------------------------------ serving

    def poll(self) -> int:
        """One sweep: take the pending calls, run them, reply. Returns how many ran."""
        with self._sweep_lock:
            calls = self._take_calls()
        for c in calls:
            self._dispatch(c)
        return len(calls)

    def _sweep_to_pool(self, stand_down: bool = False) -> int:
        """One sweep of the serve thread: queue each call on its function's queue. With
        ``stand_down``: -1, and nothing taken, while a caller serves (checked under the
        sweep lock, which a caller takes to start serving: a call that came for it after
        its start is never taken here)."""
        pool = self._pool
        if pool is None:
            return self.poll()
        with self._sweep_lock:
            if stand_down and self._serving_waiters:
                return -1
            calls = self._take_calls()
        for key in self._queue_calls(calls):
            pool.submit(self._drain, key)
        return len(calls)

    def _queue_calls(self, calls: Sequence[Incoming]) -> list[object]:
        """Put each call on its function's queue; the functions whose queue is new (no
        call of them running: someone must drain it), in the calls' order."""
        fresh = []
        for c in calls:
            key = c.served.key
            with self._lock:
                q = self._queues.get(key)
                if q is not None:  # the function is running: its runner takes this next
                    q.append(c)
                    continue
                self._queues[key] = deque([c])
            fresh.append(key)
        return fresh

    def _stand_down(self) -> None:
        """(The serve thread.) Sleep until no caller serves while it waits (or stop): not
        woken by every write into the window meanwhile, nor spinning beside a polling
        caller for the interpreter's lock (wait mode poll). The backend is told first
        (its ``serve_paused()`` hook: the simulated board no longer waits for this
        thread to look at PS memory)."""
        self.hooks.serve_paused()
        with self._serving_over:
            while self._serving_waiters and not self._stop.is_set():
                self._serving_over.wait(0.05)

    def _count_serving(self, delta: int) -> None:
        """A caller starts (1) or ends (-1) serving while it waits: while any does, the
        serve thread stands down (the caller is awake anyway, and takes the calls)."""
        if delta > 0:   # under the sweep lock: see _sweep_to_pool
            with self._sweep_lock, self._lock:
                self._serving_waiters += delta
            return
        with self._lock:
            self._serving_waiters += delta
            if self._serving_waiters == 0:
                self._serving_over.notify_all()

    def _serve_waiting(self) -> bool:
        """A waiting caller's sweep: the first new function's calls run here, the others'
        go to the pool. Whether any call came in."""
        with self._sweep_lock:
            calls = self._take_calls()
        if not calls:
            return False
        fresh = self._queue_calls(calls)
        pool = self._pool
        for key in fresh[1:]:
            if pool is not None:
                pool.submit(self._drain, key)
            else:   # stopped meanwhile
                self._drain(key)
        if fresh:
            tls = self._tls
            before = getattr(tls, "inline", False)
            tls.inline = True
            try:
                self._drain(fresh[0])
            finally:
                tls.inline = before
        return True

    def _drain(self, key: object) -> None:
        """Run the queued calls of one function in order, then retire the queue."""
        while True:
            with self._lock:
                q = self._queues[key]
                if not q:
                    del self._queues[key]
                    return
                c = q[0]
            try:
                self._dispatch(c)
            except Exception:
                log.exception("%s: dispatch failed", c.served.name)
            finally:
                with self._lock:
                    q.popleft()

    def _dispatch(self, c: Incoming) -> None:
        try:
            if getattr(self._tls, "inline", False):
                # a waiting caller runs it: while the function runs (it may block, or
                # wait for another of this component's functions) the serve thread serves,
                # and the caller does not wait for the PL (the simulated board counts
                # callers: it is counted again at its next wait)
                self.hooks.wait_over()
                self._count_serving(-1)
                try:
                    words, _ = self._run(c)
                finally:
                    self._count_serving(1)
            else:
                words, _ = self._run(c)
            if c.trigger.one_way:
                return
            try:
                self.backend.write(c.trigger.rep_address, words)
            except BusWriteError as e:
                log.error("%s: cannot write the reply to 0x%08X: %s", c.served.name, c.trigger.rep_address, e)
        finally:
            self._finished(c)

    def serve_forever(self) -> None:
        """Serve in the calling thread until :meth:`stop` (from another thread)."""
        if threading.current_thread() is not self._thread:
            self._stop.clear()
        with self._lock:
            if self.workers > 0 and self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, f"pushpush-{self.component.name}")
        while not self._stop.is_set():
            if self._serving_waiters:   # a blocked caller serves: it is awake anyway
                self._stand_down()
                continue
            try:
                ran = self._sweep_to_pool(stand_down=True)
            except Exception:  # never let the loop die
                log.exception("%s: serve loop error", self.component.name)
                ran = 0
            if ran < 0:   # a caller started serving meanwhile
                continue
            if not ran:
                self.backend.sleep()

    def start(self) -> "SyncRuntime":
        """Start serving in a daemon thread (no-op if already serving)."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return self
            self._stop.clear()
            self.hooks.stopping = self._stop   # its sleep ends when this is set (wake)
            if self.workers > 0 and self._pool is None:   # before any call may need it
                self._pool = ThreadPoolExecutor(self.workers, f"pushpush-{self.component.name}")
            self._thread = threading.Thread(target=serve_thread(self.serve_forever), daemon=True,
                                            name=f"pushpush-serve-{self.component.name}")
            self._thread.start()
        return self

    @property
    def serving(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: Optional[float] = 5.0) -> None:
        """Stop the serve thread (waits for the call it is running, if any)."""
        self._stop.set()
        self.hooks.wake()   # a serve thread asleep in the backend (on an interrupt) stops now
        t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout)
        self._thread = None
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False)

    close = stop

    def __enter__(self) -> "SyncRuntime":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _is_async(fn: Callable[..., Any]) -> bool:
    import inspect
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None))
