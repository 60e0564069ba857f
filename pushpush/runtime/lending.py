"""Lending: run-time slots of a software component's runtime.

:class:`Lending` holds the run-time area's allocations in :class:`~.core.RuntimeCore`: a
Python callable passed where a function is expected gets a run-time cep slot (lent for the
call, or for the runtime's life when returned as a result), retired afterwards as a dead
slot that answers ``BAD_FUNCTION``; a call's arguments are encoded with the callables lent;
and the journal a backend keeps of the run-time slots in use (docs/architecture.md §2.2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional

from ..link import SlotKind
from ..protocol import TRIGGER_IDLE, Allocation
from ..types import FunctionType, SignatureCodec, codec_of, format_type
from .callee import Served
from .claim import JOURNAL_LENT
from .functions import ImportedFunction, RemoteFunction

__all__ = ["Lending"]


class Lending:
    """Run-time slots of :class:`~.core.RuntimeCore` (its state is set up there)."""

    def _journal_note(self, a: Allocation, flags: int = 0) -> None:
        j = self._journal
        if j is not None:
            i = 2 * (a.offset - self.component.runtime_offset)
            j[i + 1] = flags
            j[i] = a.words

    def _journal_clear(self, a: Allocation) -> None:
        j = self._journal
        if j is not None:
            i = 2 * (a.offset - self.component.runtime_offset)
            j[i] = j[i + 1] = 0

    def _free_words(self, a: Allocation) -> None:
        """Zero a run-time slot's words, then free them: a rep allocated over them later must
        find an empty status word, or it counts the old arguments of a lent slot (or the
        result of an old rep) as a stray reply (the soak found that: tests/soak)."""
        self.backend.write_local(a.address, [TRIGGER_IDLE] * a.words)
        self.allocator.free(a)

    def _allocate(self, words: int, purpose: str) -> Allocation:
        # dead callbacks' words are passed over while others are free: hardware may still
        # call them (a timed-out call taken late), and only while watched are they answered
        with self._lock:
            avoid = [(s.offset, s.words) for s in self._served.values()
                     if s.handler is None and s.allocation is None]
        a = self.allocator.allocate(words, purpose, avoid)
        with self._lock:  # a dead callback whose words are reused is no longer watched
            dead = [off for off, s in self._served.items() if s.handler is None and a.offset <= off < a.end]
            if dead:
                for off in dead:
                    del self._served[off]
                self._served_changed()
        return a

    def _lend(self, fn: Callable[..., Any], ft: FunctionType, purpose: str) -> Served:
        """Give a Python callable a run-time cep slot and watch it."""
        self._check_handler(fn, ft, purpose)
        a = self._allocate(ft.cep_words, purpose)
        self.backend.write_local(a.trigger_address, [TRIGGER_IDLE])
        self._journal_note(a, JOURNAL_LENT | min(ft.rep_words - 1, 3))
        label = f"{self.component.name}.{getattr(fn, '__name__', '<callable>')}"
        s = Served(a.offset, a.words, a.address, ft, label, fn, a, kind=SlotKind.CEP_DYNAMIC)
        with self._lock:
            self._served[s.trigger_offset] = s
            self._served_changed()
        return s

    def _retire(self, s: Served) -> None:
        """End a lent slot: free its words; it answers BAD_FUNCTION until they are reused."""
        with self._lock:
            s.handler = None
            if s.allocation is not None:
                self._journal_clear(s.allocation)
                self._free_words(s.allocation)
                s.allocation = None
            self._served_changed()

    def _lend_permanent(self, fn: Callable[..., Any], ft: FunctionType) -> Served:
        """A run-time cep for a callable returned as a result: kept for the runtime's life."""
        key = (id(fn), ft)
        with self._lock:
            found = self._permanent.get(key)
            if found is not None and found[0] is fn:
                return found[1]
            s = self._lend(fn, ft, f"callable {getattr(fn, '__name__', fn)!r} returned as {format_type(ft)}")
            self._permanent[key] = (fn, s)
            return s

    @staticmethod
    def _needs_lending(value: Any) -> bool:
        if isinstance(value, (int, RemoteFunction)):
            return False
        if not callable(value):
            return False
        try:
            getattr(value, "address")
        except AttributeError:
            return True
        return False

    def _prepare_args(self, ft: FunctionType, args: Sequence[Any], kwargs: Mapping[str, Any],
                      codec: Optional[SignatureCodec] = None) -> tuple[list[int], Sequence[Served]]:
        """Encode a call's arguments, lending run-time ceps to Python callables.

        Returns the argument words and the lent slots (retire them after the call).
        """
        if codec is None:
            codec = codec_of(ft)
        if not codec.function_params:  # nothing to lend: the words are the arguments'
            return codec.encode_args(args, kwargs), ()
        names = codec.names
        args = list(args)
        kwargs = dict(kwargs)
        lent: list[Served] = []
        try:
            for i, p in enumerate(ft.params):
                if not isinstance(p.type, FunctionType):
                    continue
                if i < len(args) and isinstance(args[i], ImportedFunction):
                    args[i] = self._value_address(args[i])
                elif isinstance(kwargs.get(names[i]), ImportedFunction):
                    kwargs[names[i]] = self._value_address(kwargs[names[i]])
                if i < len(args) and self._needs_lending(args[i]):
                    lent.append(self._lend(args[i], p.type, f"callback for argument '{names[i]}'"))
                    args[i] = lent[-1].address
                elif names[i] in kwargs and self._needs_lending(kwargs[names[i]]):
                    lent.append(self._lend(kwargs[names[i]], p.type, f"callback for argument '{names[i]}'"))
                    kwargs[names[i]] = lent[-1].address
            return codec.encode_args(args, kwargs), lent
        except BaseException:
            for s in lent:
                self._retire(s)
            raise

    def _value_address(self, fn: "ImportedFunction") -> int:
        """Where holders of an import passed as a function value call it: the export's first
        dynamic slot (the import's own static slot has one caller, this runtime: §2.1)."""
        info = self.linked.component(fn.info.component).export(fn.info.function)
        if not info.dynamic_slots:
            raise ValueError(
                f"{fn.name} cannot be passed as a function value: its export has no dynamic slots; "
                f"set dynamic_slots of export '{fn.info.function}' of '{fn.info.component}' to 1 or more "
                "in the system description")
        return self.linked.component(fn.info.component).slots[info.dynamic_slots[0]].address

    def _needs_server(self, ft: FunctionType, words: Sequence[int], lent: Sequence[Served],
                      codec: Optional[SignatureCodec] = None) -> bool:
        """Whether a call hands out one of this component's functions (so it must serve)."""
        if lent:
            return True
        fps = (codec_of(ft) if codec is None else codec).function_params
        if not fps:
            return False
        comp = self.component
        return any(comp.base <= words[s.offset] < comp.end for s in fps)
