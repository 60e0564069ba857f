"""What the synchronous and the asyncio driver share: tables, slots, marshalling.

:class:`RuntimeCore` holds a software component's state: its imports, the Python functions
registered as exports, the cep slots the serve loop watches, the run-time slot allocator and
the rep slots in use. It is the public class (``rt.export``, ``rt.function``, ``rt.channel``,
``rt.wait``, ``rt.<component>.<function>``), composed of three sides in modules of their own:
the caller side (:mod:`.caller`: one call, its rep slot, the sans-IO call routine), the callee
side (:mod:`.callee`: the watched slots, taking calls, running functions, encoding replies) and
lending (:mod:`.lending`: run-time cep slots for Python callables, the journal). It performs only *local* accesses to the own window (through the
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
sans-IO generator, :meth:`.caller.Caller._remote_call`, that yields :class:`Write` and
:data:`SLEEP` requests; the sync and asyncio drivers only carry them out.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any, Callable, Optional, Union

from ..errors import did_you_mean
from ..link import WAIT_MODES, LinkedComponent, LinkedSystem, SlotKind
from ..protocol import TRIGGER_IDLE, WORD_BYTES, Counters, SlotAllocator
from ..types import FunctionType, parse_signature
from .callee import Callee, Incoming, Served
from .backend import Backend, hooks_of
from .caller import SLEEP, CallPlan, Caller, RepSlot, Write
from .claim import JOURNAL_LENT, RECORD_SEQ, RECORD_VALID, RECORD_WRITING
from .functions import ComponentNamespace, ExportedFunction, ImportedFunction, RemoteFunction
from .lending import Lending

__all__ = ["DEFAULT_TIMEOUT", "RuntimeCore", "Served", "RepSlot", "Incoming", "Write", "SLEEP"]

#: Seconds a call waits for its reply unless told otherwise.
DEFAULT_TIMEOUT = 5.0

log = logging.getLogger("pushpush.runtime")


class RuntimeCore(Caller, Callee, Lending):
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
        #: The backend's hooks (:class:`~.backend.Backend`): the backend itself, or the
        #: defaults for an object with only the four methods
        self.hooks: Backend = hooks_of(backend)
        self.timeout = timeout
        self._cycles: Optional[float] = None
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
        #: Slots lent for a call that timed out, by trigger offset: the address of the call's
        #: quarantined rep (they are freed with it: caller.py, _quarantine_rep).
        self._held_lent: dict[int, int] = {}
        self._permanent: dict[tuple[int, FunctionType], tuple[Callable[..., Any], Served]] = {}
        #: Faults dropped by this runtime (docs/architecture.md §2.2).
        self.counters = Counters()
        #: Caller side: the sequence bit of the next call into each cep address.
        self._seq: dict[int, int] = {}
        #: Caller side: the call plan of each cep address called (:class:`~.caller.CallPlan`).
        self._plans: dict[int, CallPlan] = {}
        #: Callee side: the ``seq`` of the last call taken from each static slot.
        self._last_seq: dict[int, int] = {}
        #: Callee side: trigger words of the calls running from each dynamic/lent slot.
        self._in_flight: dict[int, list[int]] = {}
        #: Callee side: whether a reply address is in the PL (a hardware caller waits there).
        self._reply_in_pl: dict[int, bool] = {}
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
        for i in comp.imports:   # (the call routine takes it from the function: no look-up)
            self.imports[i.target]._static_rep = self._static_reps[i.cep_address]
        self._served_changed()
        self._restore_seq(self.hooks.restart_record)
        self._inherit(self.hooks.restart_journal)
        #: A software window cannot refuse a write into a pending slot as an RTL window does
        #: (SLVERR): a backend that can see the ``ps`` region says whether a cep's trigger
        #: is pending there, and a call waits (retries) as if refused (§2.2, "Collision").
        #: (None: the backend cannot see them, :meth:`Backend.slot_pending`'s default.)
        hook = self.hooks.slot_pending
        self._pending: Optional[Callable[[int], bool]] = (
            None if getattr(hook, "__func__", None) is Backend.slot_pending else hook)
        ps = linked.ps
        self._ps_span = (ps.base, ps.end) if ps is not None else (0, 0)
        by_comp: dict[str, dict[str, ImportedFunction]] = {}
        for i in comp.imports:
            by_comp.setdefault(i.component, {})[i.function] = self.imports[i.target]
        for ch in linked.channels:   # rt.<comp>.channel("name") for components with channels
            by_comp.setdefault(ch.component, {})
        self._namespaces = {c: ComponentNamespace(c, fs, channel=self.channel)
                            for c, fs in by_comp.items()}

    # ------------------------------------------------------------------ restarts


    @property
    def cycles(self) -> Optional[float]:
        """The clock cycles within which the hardware answers every call of this runtime, or
        None (the default: unknown). Set, each call is made as ``f.with_cycles(cycles)``
        (a function's own bound first): on the simulated board it waits until those cycles
        passed or ``timeout`` seconds without simulated progress, not ``timeout`` seconds of
        wall time, which a loaded host stretches; on a board the timeout stays wall time."""
        return self._cycles

    @cycles.setter
    def cycles(self, value: Optional[float]) -> None:
        if value is not None and not value > 0:
            raise ValueError(f"runtime of '{self.component.name}': cycles must be a positive "
                             f"number of clock cycles or None, not {value!r}")
        self._cycles = None if value is None else float(value)
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

    # ------------------------------------------------------------------ driver hooks

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
        return str(self.hooks.wait)

    @wait.setter
    def wait(self, mode: str) -> None:
        if mode not in WAIT_MODES:
            raise ValueError(f"wait mode {mode!r}{did_you_mean(str(mode), WAIT_MODES)}: use one "
                             f"of {', '.join(WAIT_MODES)}")
        self.hooks.set_wait(mode)

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
