"""The callee side of a software component's runtime: the slots it serves.

:class:`Callee` holds what serving does in :class:`~.core.RuntimeCore`: the watched cep
slots (:class:`Served`), one sweep of the window that takes the pending calls
(:meth:`Callee._take_calls`, accept-once by ``seq`` or trigger word), running a taken call's
function and encoding its outcome as reply words, and the short-circuit of calls to this
runtime's own functions. Writing the reply and threads/tasks are the drivers' job
(:mod:`.sync`, :mod:`.aio`).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..link import SlotKind
from ..protocol import (
    ECHO_BIT,
    STATUS_OK,
    TRIGGER_IDLE,
    WORD_BYTES,
    Allocation,
    CallError,
    ErrorCode,
    SlotsExhausted,
    Trigger,
    WordSpan,
    decode_return,
    encode_error,
    parse_trigger,
)
from ..trace import software as _trace
from ..types import FunctionType, SignatureCodec, codec_of, format_type
from .functions import RemoteFunction

__all__ = ["Callee", "Served", "Incoming"]

log = logging.getLogger("pushpush.runtime")


@dataclass
class Served(WordSpan):
    """A cep slot the serve loop watches: a linked export slot, or a run-time cep lent to a
    Python callable (``allocation`` set), with the function that answers it."""

    offset: int
    words: int
    address: int
    signature: FunctionType
    name: str
    #: The Python function; ``None`` for a dead run-time callback (answers BAD_FUNCTION).
    handler: Optional[Callable[..., Any]]
    allocation: Optional[Allocation] = None
    #: Calls with the same key run one at a time (an export's slots share its name).
    key: object = None
    #: ``CEP_STATIC`` (one importer: duplicates recognised by ``seq`` alone) or
    #: ``CEP_DYNAMIC`` (any caller: lent callables too).
    kind: SlotKind = SlotKind.CEP_DYNAMIC
    #: Precomputed (the span never changes): the signature's codec, the trigger word's offset
    #: and address, whether duplicates are recognised by ``seq`` alone (a static slot).
    codec: SignatureCodec = field(init=False, repr=False, compare=False)
    trig_offset: int = field(init=False, repr=False, compare=False)
    trig_address: int = field(init=False, repr=False, compare=False)
    static: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.key is None:
            self.key = self.name if self.allocation is None else ("lent", self.address)
        self.codec = codec_of(self.signature)
        self.trig_offset = self.offset + self.words - 1
        self.trig_address = self.address + WORD_BYTES * (self.words - 1)
        self.static = self.kind == SlotKind.CEP_STATIC


@dataclass(slots=True)
class Incoming:
    """A call taken from a cep slot: decoded arguments, where to reply, its trigger word."""

    served: Served
    args: list[Any]
    trigger: Trigger
    word: int = 0
    #: the caller waits in the PL (its reply goes to a hardware window): software answering
    #: it holds the PL up (``handling``); a software caller's call does not
    pl: bool = True


#: What re-arms a trigger word (``write_local``'s words; never changed).
_IDLE = (TRIGGER_IDLE,)

#: Results that are certainly not awaitable (no need to ask :func:`inspect.isawaitable`).
_PLAIN = frozenset({int, float, bool, type(None), str, list, tuple})


class Callee:
    """The callee side of :class:`~.core.RuntimeCore` (its state is set up there)."""

    def _served_changed(self) -> None:
        """Recompute what is derived from ``_served`` and ``_exports`` (call with the lock held)."""
        self._watch = tuple(self._served.values())
        self._live = {s.address: s for s in self._watch if s.handler is not None}
        comp = self.component
        self._unwarned = [(e.name, tuple(comp.slots[i].trigger_offset for i in e.static_slots + e.dynamic_slots))
                          for e in comp.exports
                          if e.name not in self._exports and e.name not in self._warned_unserved]

    def _check_handler(self, fn: Callable[..., Any], ft: FunctionType, what: str) -> None:
        """Raise TypeError early if ``fn`` cannot take the signature's arguments positionally."""
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            return
        try:
            sig.bind(*range(len(ft.params)))
        except TypeError as e:
            raise TypeError(f"{what} has signature {format_type(ft)} ({len(ft.params)} argument(s)) "
                            f"but {getattr(fn, '__name__', fn)!r} cannot take them: {e}") from None

    def _watched(self) -> Sequence[Served]:
        return self._watch  # rebuilt (under the lock) whenever the slots change

    def _take_calls(self) -> list[Incoming]:
        """One sweep of the window: take every pending call and re-arm its slot.

        The window is read once, from the highest address down (the backend's ``read_local``,
        :mod:`.backend`), so each slot's argument words, below its trigger, are read after
        it and are at least as new: a fired trigger's arguments come from the same read.
        The trigger is cleared before the function runs, so the next call can arrive while
        this one runs.
        """
        watched = self._watch
        comp = self.component
        if not watched and not comp.exports:
            return []
        backend = self.backend
        snapshot = backend.read_local(comp.base, comp.words_used)
        if self._unwarned:
            self._warn_unserved(snapshot)
        calls = []
        for s in watched:
            trig = snapshot[s.trig_offset]
            if trig == TRIGGER_IDLE:
                continue
            args_words = snapshot[s.offset:s.trig_offset]
            backend.write_local(s.trig_address, _IDLE)
            try:
                trigger = parse_trigger(trig)
            except ValueError as e:
                log.error("%s: ignoring a call with a bad trigger: %s", s.name, e)
                continue
            if self._is_duplicate(s, trig, trigger):
                continue
            try:
                args = self._decode_args(s, args_words)
            except Exception as e:  # decoding is total; guard anyway
                log.error("%s: cannot decode arguments: %s", s.name, e)
                args = []
            calls.append(Incoming(s, args, trigger, trig, pl=self._caller_in_pl(trigger)))
        if calls:
            of_pl = sum(1 for c in calls if c.pl)
            if of_pl:
                self._note_handling(of_pl)
        return calls

    def _caller_in_pl(self, trigger: Trigger) -> bool:
        """Whether the call's reply goes to the PL (a hardware caller waits for it) rather
        than into a software component's window (Python, C: the PL waits for nothing)."""
        if trigger.one_way:
            return False
        known = self._reply_in_pl
        pl = known.get(trigger.rep_address)
        if pl is None:
            where = self.linked.locate(trigger.rep_address)
            pl = known[trigger.rep_address] = not (where is not None and where[0].is_software)
        return pl

    def _note_handling(self, delta: int) -> None:
        """Tell the backend (its ``handling(delta)`` hook) that calls of the PL were taken
        (> 0) or answered (< 0): the simulated board need not run while software answers
        them (the PL waits for the answer, a request). Calls of software callers are not
        counted: the PL does not wait for those, and holding it up would slow every other
        call in flight (a C program's fir.fir crawled while Python answered another
        program's call)."""
        self.hooks.handling(delta)

    def _decode_args(self, s: Served, words: Sequence[int]) -> list[Any]:
        """A taken call's arguments; function values as bound RemoteFunctions."""
        codec = s.codec
        args = codec.decode_args(words)
        for a in codec.function_params:
            args[a.index] = self._wrap(a.type, args[a.index])
        return args

    def _is_duplicate(self, s: Served, word: int, trigger: Trigger) -> bool:
        """Accept-once (§2.2): whether this trigger repeats a call already taken; if not,
        remember it as taken (a dynamic slot's until :meth:`_finished`)."""
        off = s.trig_offset
        with self._lock:
            if s.static:
                dup = self._last_seq.get(off) == trigger.seq
                if not dup:
                    self._last_seq[off] = trigger.seq
            else:
                running = self._in_flight.setdefault(off, [])
                dup = word in running
                if not dup:
                    running.append(word)
            if dup:
                self.counters.duplicates += 1
        if dup:
            log.warning("%s: dropped a duplicate call (trigger 0x%08X repeats a call already taken)",
                        s.name, word)
        return dup

    def _finished(self, c: Incoming) -> None:
        """A taken call has been answered (or was one-way and has run)."""
        if c.pl:
            self._note_handling(-1)
        if c.served.static:  # only dynamic slots remember the calls running
            return
        with self._lock:
            running = self._in_flight.get(c.served.trig_offset)
            if running and c.word in running:
                running.remove(c.word)

    def _warn_unserved(self, snapshot: Sequence[int]) -> None:
        """Log once per export when a call waits for an export nobody registered."""
        comp = self.component
        for name, offsets in self._unwarned:
            if any(snapshot[off] != TRIGGER_IDLE for off in offsets):
                with self._lock:
                    if name in self._exports or name in self._warned_unserved:
                        continue
                    self._warned_unserved.add(name)
                    self._served_changed()
                log.warning("%s.%s is being called but no Python function serves it; the call waits "
                            "until one is registered: rt.export(%r, fn)", comp.name, name, name)

    def _encode_outcome(self, s: Served, value: Any = None, exc: Optional[BaseException] = None,
                        seq: int = 0) -> list[int]:
        """Reply words for a finished call: the result and status 1, or an error status
        (echoing ``seq``, the sequence bit of the call answered)."""
        ft = s.signature
        if exc is not None:
            if isinstance(exc, (StopIteration, StopAsyncIteration)):
                # The ordinary end of a stream (a source function with nothing left, as
                # audio_fir's src): the caller still gets CALLEE_RAISED, but it is no fault.
                log.debug("%s: end of stream (%s)", s.name, type(exc).__name__)
                return encode_error(ft, ErrorCode.CALLEE_RAISED, seq)
            self.errors.append((s.name, exc))
            log.error("%s raised %s: %s", s.name, type(exc).__name__, exc,
                      exc_info=(type(exc), exc, exc.__traceback__))
            return encode_error(ft, ErrorCode.CALLEE_RAISED, seq)
        codec = s.codec
        try:
            if codec.result_is_function and self._needs_lending(value):
                # (a callable that cannot take the result type's arguments: TypeError)
                value = self._lend_permanent(value, ft.result).address
            words = codec.encode_result(value)
            words.append(STATUS_OK | ECHO_BIT if seq & 1 else STATUS_OK)  # as encode_return
            return words
        except (TypeError, ValueError, OverflowError) as e:
            self.errors.append((s.name, e))
            log.error("%s returned a bad result: %s", s.name, e)
            return encode_error(ft, ErrorCode.BAD_RESULT, seq)
        except SlotsExhausted as e:   # no room to lend the function it returned
            self.errors.append((s.name, e))
            log.error("%s returned a function this runtime has no slot for: %s", s.name, e)
            return encode_error(ft, ErrorCode.CALLEE_RAISED, seq)

    def _run(self, c: Incoming) -> tuple[list[int], Optional[Any]]:
        """Run a taken call's function: (reply words, ``None``) or, for an ``async``
        function, ``([], awaitable)`` whose outcome goes through :meth:`_encode_outcome`."""
        s = c.served
        if s.handler is None:
            return self._dead_reply(s, c.trigger.seq), None
        _trace.ACTIVE and _trace.note("entered", self.component.name, s.name, s.address)
        try:
            value = s.handler(*c.args)
        except Exception as e:
            return self._encode_outcome(s, exc=e, seq=c.trigger.seq), None
        finally:
            _trace.ACTIVE and _trace.note("left", self.component.name, s.name, s.address)
        if type(value) not in _PLAIN and inspect.isawaitable(value):
            return [], value
        return self._encode_outcome(s, value, seq=c.trigger.seq), None

    @staticmethod
    def _dead_reply(s: Served, seq: int = 0) -> list[int]:
        log.warning("%s: call to a callback whose call has ended (slot 0x%08X); answering BAD_FUNCTION",
                    s.name, s.address)
        return encode_error(s.signature, ErrorCode.BAD_FUNCTION, seq)

    def _local_served(self, address: int) -> Optional[Served]:
        s = self._live.get(address)  # rebuilt (under the lock) whenever the slots change
        return s if s is not None and s.handler is not None else None

    def _local_args(self, fn: RemoteFunction, s: Served, words: list[int]) -> list[Any]:
        """Arguments of a short-circuited local call, marshalled as a remote call would be."""
        return self._decode_args(s, words)

    def _local_result(self, fn: RemoteFunction, s: Served, value: Any = None,
                      exc: Optional[BaseException] = None) -> Any:
        words = self._encode_outcome(s, value, exc)
        reply = decode_return(fn.signature, words)
        if not reply.ok:
            err = CallError(fn.name, fn.address, reply.status,
                            f"{type(exc).__name__}: {exc}" if exc is not None else None)
            raise err from exc
        return self._wrap(fn.signature.result, reply.value)
