"""The caller side of a software component's runtime: one call, sans-IO.

:class:`Caller` holds what a call of a remote function does in :class:`~.core.RuntimeCore`:
the rep slot it waits on (an import's static rep, or a run-time one; quarantined after a
timeout until its late reply lands), and :meth:`Caller._remote_call`, the sans-IO generator
of one call that yields :class:`Write` and :data:`SLEEP` requests; the sync and asyncio
drivers (:mod:`.sync`, :mod:`.aio`) only carry them out. See :mod:`.core` for slot use.
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, NamedTuple, Optional, Union

from ..protocol import (
    ECHO_BIT,
    ONE_WAY_BIT,
    SEQ_BIT,
    STATUS_OK,
    TRIGGER_IDLE,
    WORD_BYTES,
    Allocation,
    BusWriteError,
    CallError,
    CallTimeout,
    ErrorCode,
    WordSpan,
    buffer_error,
    make_trigger,
    status_echo,
)
from ..trace import software as _trace
from ..types import SignatureCodec, structurally_equal
from .buffers import prepare_buffers
from .firewall import explain, guard_buffers
from .callee import Served
from .claim import RECORD_VALID, RECORD_WRITING
from .functions import ImportedFunction, RemoteFunction

__all__ = ["Caller", "CallPlan", "RepSlot", "Write", "SLEEP", "Acquire", "Await", "CallStep"]

log = logging.getLogger("pushpush.runtime")


@dataclass
class RepSlot(WordSpan):
    """A return endpoint one call waits on: an import's static rep, or a run-time one
    (``allocation`` set). Only its span matters; ``offset`` is relative to the window."""

    offset: int
    words: int
    address: int
    allocation: Optional[Allocation] = None
    #: Precomputed: the status word's address, and the trigger word of a call replying here
    #: (``seq`` 0; :data:`SEQ_BIT` is or-ed in for ``seq`` 1).
    status_address: int = field(init=False, repr=False, compare=False)
    trigger_base: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.status_address = self.address + WORD_BYTES * (self.words - 1)
        self.trigger_base = make_trigger(self.address)


class Write(NamedTuple):
    """A request of :meth:`RuntimeCore._remote_call`: write ``words`` at ``address`` (one
    burst) and send back ``None``, or the :class:`BusWriteError` it raised."""

    address: int
    words: list[int]


#: ``Write(address, words)`` without the Python-level ``__new__`` of a NamedTuple.
_new_write = tuple.__new__

#: What clears a status word (``write_local``'s words; never changed).
_IDLE = (TRIGGER_IDLE,)


class _Sleep:
    def __repr__(self) -> str:
        return "SLEEP"


#: A request of :meth:`RuntimeCore._remote_call`: wait a little (the backend's sleep).
SLEEP = _Sleep()



class Acquire(NamedTuple):
    """A request of :meth:`Caller._remote_call`, its first when the driver's
    :class:`CallPlan` did not take it at once: take the lock of ``fn``'s cep address (one
    call at a time per cep address and runtime) within ``timeout`` seconds; send back
    whether it was taken. The driver gives it back when the steps end."""

    fn: RemoteFunction
    timeout: float


#: ``Acquire(fn, timeout)`` without the Python-level ``__new__`` of a NamedTuple.
_new_acquire = tuple.__new__


class Await(NamedTuple):
    """A request of :meth:`Caller._call`: a local function returned an awaitable; send back
    its result (the asyncio driver awaits it and throws its exception in; the sync driver
    sends the value back as it is)."""

    value: Any


#: What :meth:`RuntimeCore._remote_call` yields (:meth:`Caller._call`: also :class:`Await`).
CallStep = Union[Write, _Sleep, Acquire]


class CallPlan:
    """What every call through one cep address of one runtime reads, prepared once.

    The call routine takes its per-call state from here, reached from the function object
    (``fn._plan``): the runtime's containers it updates (the SEQ bits, the busy static reps,
    the quarantine), the backend, the import's byte in the caller's memory, whether the
    callee's window is a software one to check before writing, and the driver's lock of the
    address. So a call makes no dict look-up for them and no attribute look-up on the
    runtime, which is slow: the runtime's class has a ``__getattr__`` (``rt.<component>``),
    so Python cannot specialise its attribute loads."""

    __slots__ = ("owner", "address", "backend", "seqs", "busy", "quarantine", "record",
                 "record_slot", "pending", "take", "give")

    def __init__(self, owner: "Caller", address: int, take: Optional[Callable[[], bool]],
                 give: Callable[[], None]) -> None:
        rt: Any = owner
        self.owner = owner
        self.address = address
        self.backend = rt.backend
        #: the runtime's own containers (updated in place, never replaced)
        self.seqs: dict[int, int] = rt._seq
        self.busy: set[int] = rt._static_reps_busy
        self.quarantine: list[RepSlot] = rt._quarantine
        #: the caller's memory (claim file) and this address's byte in it, or None
        self.record = rt._record
        self.record_slot: Optional[int] = rt._record_index.get(address) if rt._record_index else None
        lo, hi = rt._ps_span
        #: a software callee's window: whether its trigger is still pending (§2.2), or None
        self.pending: Optional[Callable[[int], bool]] = rt._pending if lo <= address < hi else None
        #: the driver's lock of the address: take it if free (None: always ask with Acquire),
        #: and give back what ``take`` took (a lock taken for an Acquire the driver gives back)
        self.take = take
        self.give = give


class Caller:
    """The caller side of :class:`~.core.RuntimeCore` (its state is set up there)."""

    #: The clock of :meth:`_remote_call`'s timeouts (the asyncio driver: the backend's).
    _clock: Callable[[], float] = time.monotonic
    #: The clock cycles within which the hardware answers every call (``RuntimeCore.cycles``).
    _cycles: Optional[float] = None

    # ------------------------------------------------------------------ the drivers' one call routine

    def _call(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
              timeout: Optional[float], one_way: bool, unpacked: bool = False) -> Generator[Any, Any, Any]:
        """One call of ``fn`` from Python, as both drivers make it: buffer arguments, the
        short-circuit to this runtime's own live functions, callables lent for the call, and
        :meth:`_remote_call`. Returns the steps to carry out: a generator that yields what
        :meth:`_remote_call` yields (:class:`Acquire`, :class:`Write`, :data:`SLEEP`) and
        :class:`Await`, and returns the result. A driver carries them out
        (:meth:`pushpush.runtime.sync.SyncRuntime._invoke`, blocking;
        :meth:`pushpush.runtime.aio.AsyncRuntime._drive`, awaiting), gives back the lock an
        :class:`Acquire` took when the steps end, and closes them when a step raises, so
        slots (and a lock the routine took) are given back at once. The common call (no buffers, nothing lent, not local)
        is :meth:`_remote_call` itself. ``unpacked``: the buffer arguments are already
        (address, length) pairs."""
        codec = fn._codec or fn.codec
        if codec.buffer_params and not unpacked:  # buffers: arrays into (address, length)
            return self._call_buffers(fn, args, kwargs, timeout, one_way)
        if timeout is None:
            timeout = self.timeout
        if self._live:
            local = self._local_served(fn.address)
            if local is not None and structurally_equal(local.signature, fn.signature):
                return self._call_local(fn, local, args, kwargs, one_way)
        if not codec.function_params:  # nothing to lend, nothing handed out (the common case)
            now = self._clock if fn._cycles is None and self._cycles is None else self._clock_of(fn)
            return self._remote_call(fn, codec.encode_args(args, kwargs), timeout, one_way, now)
        return self._call_lending(fn, args, kwargs, timeout, one_way, codec)

    def _clock_of(self, fn: RemoteFunction) -> Callable[[], float]:
        """The clock of one call of ``fn``, which the hardware answers within ``fn._cycles``
        clock cycles (:meth:`RemoteFunction.with_cycles`; a channel's calls), else within the
        runtime's ``cycles``: the backend's clock of the PL's progress (its ``progress_clock``
        hook: on the simulated board the seconds without progress, endless once the cycles
        passed), or the runtime's wall clock where the backend has none (a board)."""
        cycles = fn._cycles if fn._cycles is not None else self._cycles
        clock = self.hooks.progress_clock(cycles) if cycles is not None else None
        return self._clock if clock is None else clock

    def _call_buffers(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
                      timeout: Optional[float], one_way: bool) -> Generator[Any, Any, Any]:
        args, kwargs, after, grant = self._buffer_args(fn, args, kwargs, one_way)
        ok = False
        try:
            value = yield from self._call(fn, args, kwargs, timeout, one_way, True)
            ok = True
            return value
        except CallError as e:
            raise explain(grant, self._buffer_error(fn, e)) from None
        finally:
            after(ok)

    def _call_lending(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
                      timeout: float, one_way: bool, codec: SignatureCodec) -> Generator[Any, Any, Any]:
        """A call with function-typed parameters: Python callables get run-time cep slots
        (retired after the call), and this runtime serves while the call may come back."""
        words, lent = self._prepare_args(fn.signature, args, kwargs, codec)
        try:
            if self._needs_server(fn.signature, words, lent, codec):
                self.start()
            now = self._clock if fn._cycles is None and self._cycles is None else self._clock_of(fn)
            return (yield from self._remote_call(fn, words, timeout, one_way, now, lent))
        finally:
            for s in lent:
                if s.trig_offset not in self._held_lent:  # held: see _quarantine_rep
                    self._retire(s)

    def _call_local(self, fn: RemoteFunction, s: Served, args: Sequence[Any],
                    kwargs: Mapping[str, Any], one_way: bool) -> Generator[Any, Any, Any]:
        """A call of this runtime's own live function ``s``: run directly, no bus, its
        arguments and result marshalled as a remote call's would be."""
        words, lent = self._prepare_args(fn.signature, args, kwargs, fn.codec)
        try:
            assert s.handler is not None
            try:
                value = s.handler(*self._local_args(fn, s, words))
                if inspect.isawaitable(value):
                    value = yield Await(value)
            except Exception as e:
                if one_way:
                    self._encode_outcome(s, exc=e)
                    return None
                return self._local_result(fn, s, exc=e)
            return None if one_way else self._local_result(fn, s, value)
        finally:
            for x in lent:
                self._retire(x)

    # ------------------------------------------------------------------ the call plans

    def _plan_of(self, fn: RemoteFunction) -> CallPlan:
        """The :class:`CallPlan` of ``fn``'s cep address (one per address; kept on ``fn`` when
        it is bound to this runtime)."""
        address = fn.address
        with self._lock:
            plan = self._plans.get(address)
            if plan is None:
                take, give = self._cep_lock_of(address)
                plan = self._plans[address] = CallPlan(self, address, take, give)
        if fn._runtime is self:
            fn._plan = plan
        return plan

    def _cep_lock_of(self, address: int) -> tuple[Optional[Callable[[], bool]], Callable[[], None]]:
        """(A driver's) The lock of a cep address as two callables: take it if it is free,
        without waiting (whether it was taken; None: every call asks with :class:`Acquire`),
        and give back what that took."""
        raise NotImplementedError

    # ------------------------------------------------------------------ what a call needs

    def _callee_detail(self, address: int) -> Optional[str]:
        """A timed-out call into a software component whose runtime is gone: say so (its
        claim names the last owner), so a dead callee is told from a slow one."""
        found = self.linked.locate(address)
        if found is None:
            return None
        comp = found[0]
        if not comp.is_software or comp.name == self.component.name:
            return None
        try:
            state = self.hooks.owner_of(comp.name)
        except Exception:   # a diagnostic only (LookupError: the backend keeps no claims)
            return None
        if state is None:
            return (f"callee '{comp.name}' has no runtime: no process has claimed it on this "
                    "board; start its program (the call waits in its slot until then)")
        live, owner = state
        if live:
            return None
        who = f"PID {owner.pid}" if owner.pid is not None else "an unknown process"
        return (f"callee '{comp.name}''s process ({who}, {owner.runtime} runtime, program "
                f"{owner.program}, claimed since {owner.since}) exited; start it again: "
                "calls resume without a reload")

    def _invoke(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
                timeout: Optional[float], one_way: bool) -> Any:
        """Make a call of ``fn`` (the drivers: blocking, or returning an awaitable)."""
        raise NotImplementedError

    def _buffer_args(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
                     one_way: bool) -> tuple[list[Any], dict[str, Any], Callable[[bool], None], Any]:
        """A call with buffer parameters: arrays into (address, length) pairs, what to do
        after the reply (:func:`pushpush.runtime.buffers.prepare_buffers`), and the memory
        firewall's grant for the call (None without one: :mod:`pushpush.runtime.firewall`)."""
        if one_way:
            raise ValueError(f"{fn.name} takes buffers: a one-way call (post) has no reply to say "
                             "when the DMA is done with them; call it and wait for the result")
        codec = fn._codec or fn.codec
        prepared = prepare_buffers(codec, fn.name, args, kwargs, self.hooks.allocate, self.copy_buffers)
        # the memory firewall (issue 46): a range per buffer argument, for this call only
        return guard_buffers(self.hooks.firewall(), self.linked, fn.address, codec, args, kwargs,
                             prepared)

    @staticmethod
    def _buffer_error(fn: RemoteFunction, e: CallError) -> CallError:
        """A ``BUFFER`` error status, with the buffer and its engine named."""
        code = int(e.code) if not isinstance(e, CallTimeout) else 0
        which = buffer_error(code) if code else None
        if which is None:
            return e
        index, cause = which
        sig = fn.signature
        names = sig.param_names()
        if index >= len(names):
            return e
        t = sig.params[index].type
        engine = "pp_buf_rd (reads it into the module's stream)" if getattr(t, "is_in", True) \
            else "pp_buf_wr (writes the module's stream into it)"
        info = getattr(fn, "info", None)
        group = f"{info.function}_{names[index]}" if info is not None else names[index]
        where = f" of component '{info.component}'" if info is not None else ""
        detail = (f"buffer '{names[index]}' ({t}); engine {engine}{where}, stream "
                  f"{group}_tdata/_tvalid/_tready/_tlast")
        return CallError(e.function, e.address, code, detail)

    def _take_rep(self, fn: RemoteFunction) -> RepSlot:
        """A free rep slot for a call of ``fn`` (static if it is an import's and free)."""
        if self._quarantine:
            self._sweep_quarantine()
        if fn._runtime is self and isinstance(fn, ImportedFunction):
            static = self._static_reps.get(fn.address)
            # No lock for this test-and-set: the caller holds the lock of the import's cep
            # address, so no other call of this import (the only user of its static rep) runs;
            # a concurrent quarantine sweep only ever removes the rep from the set.
            if static is not None and static.address not in self._static_reps_busy:
                self._static_reps_busy.add(static.address)
                return self._clear_rep(static)
        a = self._allocate(fn.signature.rep_words, f"rep of a call to {fn.name}")
        rep = self._clear_rep(RepSlot(a.offset, a.words, a.address, a))
        self._journal_note(a)
        return rep

    def _clear_rep(self, rep: RepSlot) -> RepSlot:
        """Empty a rep before a call waits on it; anything found there is a stray."""
        if self.backend.read_local(rep.status_address, 1)[0] != TRIGGER_IDLE:
            self._count_stray(rep, "left in the slot before the call")
            self.backend.write_local(rep.status_address, [TRIGGER_IDLE])
        return rep

    def _count_stray(self, rep: RepSlot, why: str) -> None:
        with self._lock:
            self.counters.strays += 1
        log.warning("%s: dropped a stray reply at 0x%08X (%s)", self.component.name, rep.address, why)

    def _release_rep(self, rep: RepSlot) -> None:
        if rep.allocation is not None:
            self._journal_clear(rep.allocation)
            self._free_words(rep.allocation)
        else:  # a static rep (see _take_rep: set operations are atomic)
            self._static_reps_busy.discard(rep.address)

    def _quarantine_rep(self, rep: RepSlot, lent: Sequence[Served] = ()) -> None:
        """Keep a timed-out call's rep until its late reply lands; and the slots lent for the
        call with it: the call may still wait in the callee's slot (an RTL callee busy with
        another caller's call), and the callee calls them back when it takes it. Dead
        (answering BAD_FUNCTION) but not freed, their words are not reused meanwhile: a
        callback landing in reused words is answered by nobody, and an RTL caller has no
        reply timeout (the soak lost fir that way: tests/pynq/test_lent_after_timeout.py)."""
        with self._lock:
            self._quarantine.append(rep)
            for s in lent:
                s.handler = None
                self._held_lent[s.trig_offset] = rep.address
            if lent:
                self._served_changed()

    def _sweep_quarantine(self) -> None:
        """Release quarantined reps whose late reply has arrived."""
        with self._lock:
            keep = []
            for rep in self._quarantine:
                if self.backend.read_local(rep.status_address, 1)[0] != TRIGGER_IDLE:
                    # the late reply of a call that timed out: nobody takes it
                    self.backend.write_local(rep.status_address, [TRIGGER_IDLE])
                    self._count_stray(rep, "the reply of a call that had timed out")
                    self._release_rep(rep)
                    self._release_held(rep)
                else:
                    keep.append(rep)
            self._quarantine[:] = keep   # (in place: the call plans hold the list)

    def _release_held(self, rep: RepSlot) -> None:
        """The late reply of a timed-out call landed: the callee is done with its lent slots."""
        with self._lock:
            held = [s for s in self._served.values()
                    if self._held_lent.get(s.trig_offset) == rep.address and s.allocation is not None]
            for s in held:
                del self._held_lent[s.trig_offset]
                self._retire(s)

    def _drop_reply(self, fn: RemoteFunction, rep: RepSlot, status: int, seq: int) -> None:
        """A status with another echo than the call's ``seq`` is a stray: cleared, counted."""
        self.backend.write_local(rep.status_address, [TRIGGER_IDLE])
        self._count_stray(rep, f"echo {status_echo(status)}, the call to {fn.name} waits for {seq}")

    def _remote_call(self, fn: RemoteFunction, words: list[int], timeout: float, one_way: bool,
                     now: Callable[[], float], lent: Sequence[Served] = ()
                     ) -> Generator[CallStep, Optional[BusWriteError], Any]:
        """One call of ``fn`` with argument ``words``: the protocol's steps, no I/O.

        Its state comes from the address's :class:`CallPlan`. One call at a time per cep
        address and runtime: the routine takes the address's lock first, through the plan
        (the driver's lock, without waiting), and gives it back when it ends or is closed;
        when that fails (or the driver has no such lock) it yields :class:`Acquire` (send
        back whether the driver took it within the timeout; the driver gives it back when
        the steps end). Then it yields :class:`Write` (send back ``None`` or the
        :class:`BusWriteError`) and :data:`SLEEP` (send back ``None``); returns the result.
        """
        plan = fn._plan
        if plan is None or plan.owner is not self:
            plan = self._plan_of(fn)
        take = plan.take
        taken = take is not None and take()
        if not taken and not (yield _new_acquire(Acquire, (fn, timeout))):
            raise CallTimeout(fn.name, fn.address, timeout,
                              "waiting for the slot (other calls through this cep address are in flight)")
        try:   # (a lock it took is given back when it ends, or is closed by its driver)
            start = now()
            deadline = start + timeout
            address = plan.address
            backend = plan.backend
            read_local = backend.read_local
            if one_way:
                rep = None
            else:  # _take_rep, its common case inline: the import's own static rep is free
                if plan.quarantine:
                    self._sweep_quarantine()
                rep = fn._static_rep if fn._runtime is self else None  # (set on this runtime's imports)
                busy = plan.busy
                if rep is not None and rep.address not in busy:
                    busy.add(rep.address)  # no lock needed: see _take_rep
                    if read_local(rep.status_address, 1)[0]:
                        self._clear_rep(rep)
                else:
                    rep = self._take_rep(fn)
            seqs = plan.seqs
            seq = seqs.get(address, 1)
            slot = plan.record_slot
            if slot is not None:  # the caller's memory: this SEQ is being written
                record = plan.record
                before = record[slot]
                record[slot] = RECORD_VALID | RECORD_WRITING | seq
            try:
                # the call's words: the arguments, then the trigger (``words`` is the routine's own)
                if rep is None:
                    words.append(ONE_WAY_BIT | SEQ_BIT if seq else ONE_WAY_BIT)
                else:
                    words.append(rep.trigger_base | SEQ_BIT if seq else rep.trigger_base)
                pending = plan.pending   # a software callee's window: look before writing
                _trace.ACTIVE and _trace.note("issued", self.component.name, fn.name)
                while True:
                    if pending is not None and pending(address + WORD_BYTES * (len(words) - 1)):
                        err = BusWriteError(address, len(words), "SLVERR")  # a pending call there
                    else:
                        err = yield _new_write(Write, (address, words))
                    if err is None:
                        break
                    if err.resp != "SLVERR" or now() >= deadline:
                        with self._lock:
                            self.counters.write_errors += 1
                        if slot is not None:  # never reached the slot: as before the call
                            record[slot] = before
                        raise self._write_error(fn, err, now() - start) from err
                    yield SLEEP
                seqs[address] = seq ^ 1  # delivered: the next call carries the other bit
                if slot is not None:
                    record[slot] = RECORD_VALID | seq
                if rep is None:
                    return None
                # the reply: the rep's words in one read, which a backend reads from the highest
                # address down (backend.py): the status word (echoing seq) first, so the result
                # words read with it are at least as new as the status
                rep_address, rep_words = rep.address, rep.words
                echo = ECHO_BIT if seq else 0
                while True:
                    reply = read_local(rep_address, rep_words)
                    status = reply[-1]
                    if status:  # not TRIGGER_IDLE
                        if status & ECHO_BIT == echo:
                            _trace.ACTIVE and _trace.note("seen", self.component.name, fn.name)
                            break
                        self._drop_reply(fn, rep, status, seq)
                    if now() >= deadline:
                        self._quarantine_rep(rep, lent)
                        rep = None
                        # (a clock of progress reads infinite once the call's cycles passed)
                        detail = self._timeout_detail(min(now() - start, timeout))
                        measured = getattr(now, "report", None)  # a clock of progress: what it saw
                        if measured is not None:
                            detail = f"{measured()}; {detail or 'no reply (is the callee running and serving?)'}"
                        gone = self._callee_detail(address)
                        if gone is not None:
                            detail = gone if detail is None else f"{gone}; {detail}"
                        raise CallTimeout(fn.name, fn.address, timeout, detail)
                    yield SLEEP
                backend.write_local(rep.status_address, _IDLE)
                if status != STATUS_OK | echo:
                    raise CallError(fn.name, address, status & ~ECHO_BIT)
                del reply[-1]  # the result words
                codec = fn._codec or fn.codec
                value = codec.decode_result(reply)
            except BaseException:
                if rep is not None:
                    self._release_rep(rep)
                raise
            if rep.allocation is None:  # _release_rep of a static rep
                plan.busy.discard(rep.address)
            else:
                self._release_rep(rep)
            if codec.result_is_function:
                return self._wrap(fn.signature.result, value)
            return value
        finally:
            if taken:
                plan.give()

    def _timeout_detail(self, waited: float = 0.0) -> Optional[str]:
        """What a timed-out call's message adds: calls waiting here for unserved exports,
        and what the backend saw during the ``waited`` seconds (its optional
        ``wait_report(waited)``: the simulated board's cycles and state)."""
        waiting = self.unserved_calls()
        seen = self.hooks.wait_report(waited)
        refused = self._guard_detail()
        if refused is not None:   # a reply the window guard kept out says more than "no reply"
            seen = refused if seen is None else f"{refused}; {seen}"
        if not waiting:
            return f"no reply (is the callee running and serving?); {seen}" if seen else None
        return ("no reply: while it waited, " + ", ".join(waiting) + " called this component's "
                "export(s) that no Python function serves; register them with rt.export(name, fn)"
                + (f"; {seen}" if seen else ""))

    def _guard_detail(self) -> Optional[str]:
        """What the window guard latched (a PL write into the software windows it refused:
        a reply written to the wrong place never arrives), or None."""
        try:
            guard = self.hooks.window_guard()
            refusal = guard.take_refusal() if guard is not None else None
        except Exception:   # a diagnostic only
            return None
        return None if refusal is None else refusal.describe()

    @staticmethod
    def _write_error(fn: RemoteFunction, exc: Exception, waited: float) -> CallError:
        resp = getattr(exc, "resp", None)
        if resp == "DECERR":
            return CallError(fn.name, fn.address, ErrorCode.BAD_FUNCTION,
                             "nothing is mapped at this address (DECERR)")
        if resp == "SLVERR":
            return CallError(fn.name, fn.address, ErrorCode.COLLISION,
                             f"the write was refused with SLVERR for {waited:.3g} s "
                             "(the slot holds a pending call, or the address is not a slot)")
        return CallError(fn.name, fn.address, ErrorCode.BUS_ERROR, str(exc))
