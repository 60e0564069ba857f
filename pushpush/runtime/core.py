"""What the synchronous and the asyncio driver share: tables, slots, marshalling.

:class:`RuntimeCore` holds a software component's state: its imports, the Python functions
registered as exports, the cep slots the serve loop watches, the run-time slot allocator and
the rep slots in use. It performs only *local* accesses to the own window (through the
backend's synchronous ``read_local``/``write_local``); bus writes, waiting and threads/tasks
are the drivers' job (:mod:`.sync`, :mod:`.aio`).

Slot use (the design, see also the package docstring):

* **cep side** (where a call's arguments go): an import always uses the static cep slot the
  linker reserved for this component in the callee's window; a function value uses the
  address it holds. A slot holds one call at a time and the caller cannot see the callee's
  window, so calls through one cep address are *serialized* per runtime: a call holds the
  address's lock from its write until its reply (or its timeout). Different functions are
  called concurrently.
* **rep side** (where the reply comes back): an import's call uses the import's static
  ``rep_import`` slot when it is free; any other call (function values, or an import whose
  static rep is quarantined) gets a run-time rep from the run-time area, freed when the
  reply has been taken.
* **timeouts**: the rep of a call that timed out is *quarantined*: a late reply may still
  land there. It is released when that reply arrives (checked before each new call), and
  never handed to another call before.
* **lent callables**: a Python callable passed where a function is expected gets a run-time
  cep slot (``cep_words`` of the parameter's type) that the serve loop watches during the
  call; afterwards the slot is freed but stays watched as a *dead* slot (answering
  ``BAD_FUNCTION``) until its words are allocated again, so a late call to a callback gets
  an error instead of hanging.
* **faults** (docs/architecture.md §2.2): every call carries a sequence bit, flipped per
  target cep address once its write went through; a repeated trigger is taken once
  (static slots: same ``seq`` as the last call taken; dynamic and lent slots: the same
  trigger word as a call still running), a reply with the wrong echo or for nobody is
  dropped. Both are counted in :attr:`RuntimeCore.counters`, never delivered.

The call itself (write with retries on a refused slot, wait for the reply, timeout) is one
sans-IO generator, :meth:`RuntimeCore._remote_call`, that yields :class:`Write` and
:data:`SLEEP` requests; the sync and asyncio drivers only carry them out.
"""

from __future__ import annotations

import inspect
import logging
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, NamedTuple, Optional, Union

from ..errors import did_you_mean
from ..trace import software as _trace
from ..link import WAIT_MODES, LinkedComponent, LinkedSystem, SlotKind
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
    Counters,
    ErrorCode,
    SlotAllocator,
    Trigger,
    WordSpan,
    buffer_error,
    decode_return,
    encode_error,
    make_trigger,
    parse_trigger,
    status_echo,
)
from ..types import FunctionType, SignatureCodec, codec_of, format_type, parse_signature
from .buffers import prepare_buffers
from .claim import JOURNAL_LENT, RECORD_SEQ, RECORD_VALID, RECORD_WRITING
from .functions import ComponentNamespace, ExportedFunction, ImportedFunction, RemoteFunction

__all__ = ["DEFAULT_TIMEOUT", "RuntimeCore", "Served", "RepSlot", "Incoming", "Write", "SLEEP"]

#: Seconds a call waits for its reply unless told otherwise.
DEFAULT_TIMEOUT = 5.0

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


@dataclass(slots=True)
class Incoming:
    """A call taken from a cep slot: decoded arguments, where to reply, its trigger word."""

    served: Served
    args: list[Any]
    trigger: Trigger
    word: int = 0


class Write(NamedTuple):
    """A request of :meth:`RuntimeCore._remote_call`: write ``words`` at ``address`` (one
    burst) and send back ``None``, or the :class:`BusWriteError` it raised."""

    address: int
    words: list[int]


#: ``Write(address, words)`` without the Python-level ``__new__`` of a NamedTuple.
_new_write = tuple.__new__


class _Sleep:
    def __repr__(self) -> str:
        return "SLEEP"


#: A request of :meth:`RuntimeCore._remote_call`: wait a little (the backend's sleep).
SLEEP = _Sleep()

#: What :meth:`RuntimeCore._remote_call` yields.
CallStep = Union[Write, _Sleep]


#: Results that are certainly not awaitable (no need to ask :func:`inspect.isawaitable`).
_PLAIN = frozenset({int, float, bool, type(None), str, list, tuple})


class RuntimeCore:
    """Shared state of a software component's runtime (see the module docstring)."""

    def __init__(self, linked: LinkedSystem, component: str, backend: Any, *,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        try:
            comp = linked.component(component)
        except KeyError:
            names = [c.name for c in linked.components]
            raise KeyError(f"system '{linked.name}' has no component '{component}'"
                           f"{did_you_mean(component, names)}") from None
        if not comp.is_software:
            raise ValueError(f"component '{component}' is kind '{comp.kind}'; a Python runtime "
                             "runs a software component (kind python or c)")
        self.linked = linked
        self.component: LinkedComponent = comp
        self.backend = backend
        self.timeout = timeout
        #: Buffer arguments: copy plain numpy arrays into temporary ``pynq.allocate`` buffers
        #: (True, the default) or refuse them (docs/runtime.md, "Buffers").
        self.copy_buffers = True
        self.allocator = SlotAllocator(comp.base, comp.runtime_offset, comp.runtime_words, comp.name)
        self._lock = threading.RLock()
        self._served: dict[int, Served] = {}  # trigger offset -> slot
        #: Derived from ``_served`` by :meth:`_served_changed` (read without the lock): the
        #: slots a sweep looks at, and the live Python functions by cep address.
        self._watch: tuple[Served, ...] = ()
        self._live: dict[int, Served] = {}
        #: Exports nobody serves and nobody was warned about yet: (name, trigger offsets).
        self._unwarned: list[tuple[str, tuple[int, ...]]] = []
        self._exports: dict[str, ExportedFunction] = {}
        self._static_reps_busy: set[int] = set()
        self._quarantine: list[RepSlot] = []
        self._permanent: dict[tuple[int, FunctionType], tuple[Callable[..., Any], Served]] = {}
        #: Faults dropped by this runtime (docs/architecture.md §2.2).
        self.counters = Counters()
        #: Caller side: the sequence bit of the next call into each cep address.
        self._seq: dict[int, int] = {}
        #: Callee side: the ``seq`` of the last call taken from each static slot.
        self._last_seq: dict[int, int] = {}
        #: Callee side: trigger words of the calls running from each dynamic/lent slot.
        self._in_flight: dict[int, list[int]] = {}
        self._warned_unserved: set[str] = set()
        #: The last exceptions raised by exported functions: (function name, exception).
        self.errors: deque[tuple[str, BaseException]] = deque(maxlen=100)
        #: Imports by target (``"callee.f"``).
        self.imports: dict[str, ImportedFunction] = {
            i.target: ImportedFunction(i, self) for i in comp.imports}
        #: Each import's static rep slot, prepared once (an import's call takes it when free).
        self._static_reps: dict[int, RepSlot] = {
            i.cep_address: RepSlot((i.rep_address - comp.base) // WORD_BYTES, i.signature.rep_words,
                                   i.rep_address) for i in comp.imports}
        self._served_changed()
        self._restore_seq(getattr(backend, "restart_record", None))
        self._inherit(getattr(backend, "restart_journal", None))
        #: A software window cannot refuse a write into a pending slot as an RTL window does
        #: (SLVERR): a backend that can see the ``ps`` region says whether a cep's trigger
        #: is pending there, and a call waits (retries) as if refused (§2.2, "Collision").
        self._pending = getattr(backend, "slot_pending", None)
        ps = getattr(linked, "ps", None)
        self._ps_span = (ps.base, ps.end) if ps is not None and self._pending is not None else (0, 0)
        by_comp: dict[str, dict[str, ImportedFunction]] = {}
        for i in comp.imports:
            by_comp.setdefault(i.component, {})[i.function] = self.imports[i.target]
        for ch in linked.channels:   # rt.<comp>.channel("name") for components with channels
            by_comp.setdefault(ch.component, {})
        self._namespaces = {c: ComponentNamespace(c, fs, channel=self.channel)
                            for c, fs in by_comp.items()}

    # ------------------------------------------------------------------ restarts

    def _restore_seq(self, record: Any) -> None:
        """The caller's memory (docs/architecture.md §2.2, "Restarts and owners"): a backend
        that keeps one byte per import across processes (the component's claim file) lets a
        runtime started again continue each static slot's SEQ alternation where the last
        owner left it, so its first call is never taken for a duplicate of the last one."""
        #: cep address of each import -> its byte in the record (empty: nothing kept)
        self._record = record
        self._record_index: dict[int, int] = {}
        if record is None:
            return
        for k, i in enumerate(self.component.imports):
            self._record_index[i.cep_address] = k
            b = record[k]
            if b & RECORD_VALID:
                self._seq[i.cep_address] = (b & RECORD_SEQ) ^ 1
                if b & RECORD_WRITING:
                    log.warning("%s: the last owner was ended while its call to %s was being "
                                "written; if that write did not reach the callee, this first "
                                "call is taken for a duplicate and times out (the next one "
                                "goes through)", self.component.name, i.target)

    def _inherit(self, journal: Any) -> None:
        """The run-time slots a predecessor (a process that owned this component before) left
        in use, from the journal its backend keeps (docs/architecture.md §2.2): the reps of its
        calls in flight stay reserved and quarantined until their late replies land (strays,
        then freed); its lent cep slots are watched as dead (late calls of its functions, e.g.
        by hardware that still held them, answer ``BAD_FUNCTION``) until their words are
        allocated again, which next-fit does as late as possible."""
        #: 2 bytes per run-time word (empty when no backend keeps a journal)
        self._journal = journal
        if journal is None:
            return
        comp = self.component
        ro = comp.runtime_offset
        cursor = None
        for i in range(0, min(len(journal) // 2, comp.runtime_words)):
            words, flags = journal[2 * i], journal[2 * i + 1]
            if not words:
                continue
            try:
                a = self.allocator.reserve(ro + i, words, "left in use by the previous owner")
            except ValueError:   # not a slot of ours (a journal of another layout): forget it
                journal[2 * i] = journal[2 * i + 1] = 0
                continue
            if flags & JOURNAL_LENT:
                params = ", ".join(f"a{k}: u32" for k in range(words - 1))
                result = ("void", "u32", "u64")[min(flags & 0x3, 2)]
                ft = parse_signature(f"({params}) -> {result}")
                s = Served(a.offset, a.words, a.address, ft, f"{comp.name}.<a lent function of a "
                           "previous owner>", None, None, kind=SlotKind.CEP_DYNAMIC)
                self._served[s.trigger_offset] = s
                self.allocator.free(a)
                journal[2 * i] = journal[2 * i + 1] = 0
                cursor = a.end
            else:
                self._quarantine.append(RepSlot(a.offset, a.words, a.address, a))
        if cursor is not None:   # next-fit goes on after them
            self.allocator._next = cursor if cursor < ro + comp.runtime_words else ro
        self._served_changed()

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

    def _callee_detail(self, address: int) -> Optional[str]:
        """A timed-out call into a software component whose runtime is gone: say so (its
        claim names the last owner), so a dead callee is told from a slow one."""
        owner_of = getattr(self.backend, "owner_of", None)
        found = self.linked.locate(address) if owner_of is not None else None
        if found is None:
            return None
        comp = found[0]
        if not comp.is_software or comp.name == self.component.name:
            return None
        try:
            state = owner_of(comp.name)
        except Exception:   # a diagnostic only
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

    # ------------------------------------------------------------------ driver hooks

    def _invoke(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
                timeout: Optional[float], one_way: bool) -> Any:
        """Make a call of ``fn`` (the drivers: blocking, or returning an awaitable)."""
        raise NotImplementedError

    def _buffer_args(self, fn: RemoteFunction, args: Sequence[Any], kwargs: Mapping[str, Any],
                     one_way: bool) -> tuple[list[Any], dict[str, Any], Callable[[bool], None]]:
        """A call with buffer parameters: arrays into (address, length) pairs, and what to do
        after the reply (:func:`pushpush.runtime.buffers.prepare_buffers`)."""
        if one_way:
            raise ValueError(f"{fn.name} takes buffers: a one-way call (post) has no reply to say "
                             "when the DMA is done with them; call it and wait for the result")
        return prepare_buffers(fn._codec or fn.codec, fn.name, args, kwargs,
                               getattr(self.backend, "allocate", None), self.copy_buffers)

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

    def start(self) -> Any:
        """Start serving (the drivers: a thread, or a task)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ public helpers

    def __getattr__(self, name: str) -> ComponentNamespace:
        # only called for names that are not attributes: components this one imports from
        namespaces: Optional[dict[str, ComponentNamespace]] = self.__dict__.get("_namespaces")
        if namespaces is None or name.startswith("__"):
            raise AttributeError(name)
        try:
            return namespaces[name]
        except KeyError:
            raise AttributeError(
                f"component '{self.component.name}' imports nothing from '{name}'"
                f"{did_you_mean(name, namespaces)}") from None

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._namespaces))

    @property
    def exports(self) -> Mapping[str, ExportedFunction]:
        """The registered exports by name."""
        return dict(self._exports)

    def function(self, address: int, signature: Union[str, FunctionType], name: Optional[str] = None) -> RemoteFunction:
        """A callable for any function value: ``address`` of a cep slot of type ``signature``.

        >>> f = rt.function(0x43C0_0010, "(x: i32) -> i32")  # doctest: +SKIP
        """
        ft = parse_signature(signature) if isinstance(signature, str) else signature
        return RemoteFunction(address, ft, self, name=name)

    def channel(self, name: str, capacity: Optional[int] = None) -> Any:
        """The RIFFA-style channel ``"comp.name"`` (or ``"comp.3"``, by RIFFA number) of an
        rtl component with ``channels:`` (:class:`pushpush.runtime.channels.Channel`, made
        once per name; docs/runtime.md, "Channels").

        >>> ch = rt.channel("hw.loop")   # doctest: +SKIP
        >>> ch.send(words); ch.recv()    # doctest: +SKIP
        """
        from .channels import Channel

        comp, _, chan = name.partition(".")
        if not chan:
            raise ValueError(f"channel '{name}': name it as 'component.channel', e.g. 'hw.loop'")
        with self._lock:
            cache: dict[str, Any] = self.__dict__.setdefault("_channels", {})
            ch = cache.get(name)
            if ch is None:
                try:
                    info = self.linked.channel(comp, chan)
                except KeyError as e:
                    raise KeyError(e.args[0]) from None
                ch = cache[name] = Channel(self, self.linked, info)
            if capacity is not None:
                ch.capacity = int(capacity)
            return ch

    def describe_address(self, address: int) -> str:
        """What lives at a cep address: ``"comp.f"``, a lent callback, or ``"function at 0x.."``."""
        with self._lock:
            for s in self._served.values():
                if s.address == address:
                    return s.name
        found = self.linked.locate(address)
        if found is not None:
            comp, slot = found
            if slot is not None and slot.is_cep and slot.address == address:
                return f"{comp.name}.{slot.function}"
        return f"function at 0x{address:08X}"

    @property
    def wait(self) -> str:
        """How this runtime waits between sweeps of its window (docs/runtime.md, "Waiting"):
        ``sleep``, ``poll``, ``yield`` or ``interrupt``. The component's YAML ``wait`` is
        the default; assigning changes it at run time, also while serving::

            rt.wait = "interrupt"      # ValueError if the backend cannot (and why)
        """
        return str(getattr(self.backend, "wait", "sleep"))

    @wait.setter
    def wait(self, mode: str) -> None:
        if mode not in WAIT_MODES:
            raise ValueError(f"wait mode {mode!r}{did_you_mean(str(mode), WAIT_MODES)}: use one "
                             f"of {', '.join(WAIT_MODES)}")
        set_wait = getattr(self.backend, "set_wait", None)
        if set_wait is None:
            raise ValueError(f"the backend {type(self.backend).__name__} has no wait modes")
        set_wait(mode)

    def export(self, name: str, fn: Optional[Callable[..., Any]] = None) -> Any:
        """Register a Python function as the export ``name`` of this component.

        As a decorator ``@rt.export("coeff")`` or a call ``rt.export("coeff", fn)``; returns
        an :class:`ExportedFunction`. Registering again replaces the function (re-running a
        notebook cell). Calls arriving before registration wait in their slot.
        """
        if fn is None:
            return lambda f: self.export(name, f)
        try:
            info = self.component.export(name)
        except KeyError:
            names = [e.name for e in self.component.exports]
            raise KeyError(f"component '{self.component.name}' has no export '{name}'"
                           f"{did_you_mean(name, names)} (exports: {', '.join(names) or 'none'})") from None
        if not callable(fn):
            raise TypeError(f"export '{name}': expected a callable, got {type(fn).__name__}")
        self._check_handler(fn, info.signature, f"export '{name}'")
        ft = info.signature
        dyn = tuple(self.component.slots[i].address for i in info.dynamic_slots)
        exported = ExportedFunction(name, ft, fn, dyn)
        with self._lock:
            self._exports[name] = exported
            for idx in info.static_slots + info.dynamic_slots:
                slot = self.component.slots[idx]
                label = f"{self.component.name}.{name}"
                self._served[slot.trigger_offset] = Served(slot.offset, slot.words, slot.address, ft, label, fn,
                                                           kind=SlotKind(slot.kind))
            self._served_changed()
        return exported

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

    # ------------------------------------------------------------------ run-time slots

    def _allocate(self, words: int, purpose: str) -> Allocation:
        a = self.allocator.allocate(words, purpose)
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
                self.allocator.free(s.allocation)
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
            self.allocator.free(rep.allocation)
        else:  # a static rep (see _take_rep: set operations are atomic)
            self._static_reps_busy.discard(rep.address)

    def _quarantine_rep(self, rep: RepSlot) -> None:
        with self._lock:
            self._quarantine.append(rep)

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
                else:
                    keep.append(rep)
            self._quarantine = keep

    def _drop_reply(self, fn: RemoteFunction, rep: RepSlot, status: int, seq: int) -> None:
        """A status with another echo than the call's ``seq`` is a stray: cleared, counted."""
        self.backend.write_local(rep.status_address, [TRIGGER_IDLE])
        self._count_stray(rep, f"echo {status_echo(status)}, the call to {fn.name} waits for {seq}")

    # ------------------------------------------------------------------ one call, sans-IO

    def _remote_call(self, fn: RemoteFunction, words: list[int], timeout: float, one_way: bool,
                     now: Callable[[], float]) -> Generator[CallStep, Optional[BusWriteError], Any]:
        """One call of ``fn`` with argument ``words``: the protocol's steps, no I/O.

        Yields :class:`Write` (send back ``None`` or the :class:`BusWriteError`) and
        :data:`SLEEP` (send back ``None``); returns the result. The caller holds the cep
        address's lock around it (one call at a time per cep address and runtime).
        """
        start = now()
        deadline = start + timeout
        address = fn.address
        backend = self.backend
        read_local = backend.read_local
        codec = fn._codec or fn.codec
        if one_way:
            rep = None
        else:  # _take_rep, its common case inline: the import's own static rep is free
            if self._quarantine:
                self._sweep_quarantine()
            static = self._static_reps.get(address) if fn._runtime is self else None
            busy = self._static_reps_busy
            if static is not None and static.address not in busy and isinstance(fn, ImportedFunction):
                busy.add(static.address)  # no lock needed: see _take_rep
                rep = self._clear_rep(static) if read_local(static.status_address, 1)[0] else static
            else:
                rep = self._take_rep(fn)
        seq = self._seq.get(address, 1)
        slot = self._record_index.get(address) if self._record_index else None
        if slot is not None:  # the caller's memory: this SEQ is being written
            record = self._record
            before = record[slot]
            record[slot] = RECORD_VALID | RECORD_WRITING | seq
        try:
            if rep is None:
                payload = words + [ONE_WAY_BIT | SEQ_BIT if seq else ONE_WAY_BIT]
            else:
                payload = words + [rep.trigger_base | SEQ_BIT if seq else rep.trigger_base]
            lo, hi = self._ps_span
            refused = lo <= address < hi and self._pending is not None
            _trace.ACTIVE and _trace.note("issued", self.component.name, fn.name)
            while True:
                if refused and self._pending(address + WORD_BYTES * (len(payload) - 1)):
                    err = BusWriteError(address, len(payload), "SLVERR")  # a pending call there
                else:
                    err = yield _new_write(Write, (address, payload))
                if err is None:
                    break
                if err.resp != "SLVERR" or now() >= deadline:
                    with self._lock:
                        self.counters.write_errors += 1
                    if slot is not None:  # never reached the slot: as before the call
                        record[slot] = before
                    raise self._write_error(fn, err, now() - start) from err
                yield SLEEP
            self._seq[address] = seq ^ 1  # delivered: the next call carries the other bit
            if slot is not None:
                record[slot] = RECORD_VALID | seq
            if rep is None:
                return None
            # the reply: the status word (echoing seq) first, then the result words
            status_address = rep.status_address
            echo = ECHO_BIT if seq else 0
            while True:
                status = read_local(status_address, 1)[0]
                if status:  # not TRIGGER_IDLE
                    if status & ECHO_BIT == echo:
                        _trace.ACTIVE and _trace.note("seen", self.component.name, fn.name)
                        break
                    self._drop_reply(fn, rep, status, seq)
                if now() >= deadline:
                    self._quarantine_rep(rep)
                    rep = None
                    detail = self._timeout_detail(now() - start)
                    gone = self._callee_detail(address)
                    if gone is not None:
                        detail = gone if detail is None else f"{gone}; {detail}"
                    raise CallTimeout(fn.name, fn.address, timeout, detail)
                yield SLEEP
            # read the result after seeing the status: the words are then at least as new
            n = codec.result_words
            result = read_local(rep.address, n) if n else []
            backend.write_local(status_address, [TRIGGER_IDLE])
            if status != STATUS_OK | echo:
                raise CallError(fn.name, address, status & ~ECHO_BIT)
            value = codec.decode_result(result)
        except BaseException:
            if rep is not None:
                self._release_rep(rep)
            raise
        if rep.allocation is None:  # _release_rep of a static rep
            self._static_reps_busy.discard(rep.address)
        else:
            self._release_rep(rep)
        if codec.result_is_function:
            return self._wrap(fn.signature.result, value)
        return value

    def _timeout_detail(self, waited: float = 0.0) -> Optional[str]:
        """What a timed-out call's message adds: calls waiting here for unserved exports,
        and what the backend saw during the ``waited`` seconds (its optional
        ``wait_report(waited)``: the simulated board's cycles and state)."""
        waiting = self.unserved_calls()
        report = getattr(self.backend, "wait_report", None)
        seen = report(waited) if report is not None else None
        if not waiting:
            return f"no reply (is the callee running and serving?); {seen}" if seen else None
        return ("no reply: while it waited, " + ", ".join(waiting) + " called this component's "
                "export(s) that no Python function serves; register them with rt.export(name, fn)"
                + (f"; {seen}" if seen else ""))

    def unserved(self) -> list[str]:
        """Exports of this component that no function has been registered for."""
        with self._lock:
            return [e.name for e in self.component.exports if e.name not in self._exports]

    def unserved_calls(self) -> list[str]:
        """``"comp.f"`` of each unserved export with a call waiting in its slots now."""
        comp = self.component
        names = self.unserved()
        if not names:
            return []
        snapshot = self.backend.read_local(comp.base, comp.words_used)
        waiting = []
        for name in names:
            info = comp.export(name)
            if any(snapshot[comp.slots[i].trigger_offset] != TRIGGER_IDLE
                   for i in info.static_slots + info.dynamic_slots):
                waiting.append(f"{comp.name}.{name}")
        return waiting

    def _wrap(self, t: Any, value: Any) -> Any:
        """Function values come back as bound RemoteFunctions (``None`` for address 0)."""
        if isinstance(t, FunctionType):
            return RemoteFunction(value, t, self) if value else None
        return value

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

    # ------------------------------------------------------------------ serving

    def _watched(self) -> Sequence[Served]:
        return self._watch  # rebuilt (under the lock) whenever the slots change

    def _take_calls(self) -> list[Incoming]:
        """One sweep of the window: take every pending call and re-arm its slot.

        The window is read once; for each fired trigger the argument words are read again
        (so they are at least as new as the trigger) and the trigger is cleared before the
        function runs, so the next call can arrive while this one runs.
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
            args_words = backend.read_local(s.address, s.words - 1) if s.words > 1 else []
            backend.write_local(s.trig_address, [TRIGGER_IDLE])
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
            calls.append(Incoming(s, args, trigger, trig))
        if calls:
            self._note_handling(len(calls))
        return calls

    def _note_handling(self, delta: int) -> None:
        """Tell the backend (its optional ``handling(delta)``) that calls of the PL were taken
        (> 0) or answered (< 0): the simulated board need not run while software answers."""
        mark = getattr(self.backend, "handling", None)
        if mark is not None:
            mark(delta)

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
        if codec.result_is_function and self._needs_lending(value):
            value = self._lend_permanent(value, ft.result).address
        try:
            words = codec.encode_result(value)
            words.append(STATUS_OK | ECHO_BIT if seq & 1 else STATUS_OK)  # as encode_return
            return words
        except (TypeError, ValueError, OverflowError) as e:
            self.errors.append((s.name, e))
            log.error("%s returned a bad result: %s", s.name, e)
            return encode_error(ft, ErrorCode.BAD_RESULT, seq)

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
