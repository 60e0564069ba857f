"""Typed callables of the runtime: remote functions, imports, exports, component namespaces.

* :class:`RemoteFunction`: a function value (a cep byte address and its
  :class:`~pushpush.types.FunctionType`), bound to a runtime that makes the calls. Calling it
  makes a PushPush call wherever it points (hardware or software). Passing it as a
  function-typed argument passes its address.
* :class:`ImportedFunction`: a statically linked import (``"callee.f"``), a RemoteFunction
  that also knows its static cep and rep slots.
* :class:`ExportedFunction`: a Python function registered as an export; calling it calls the
  Python function directly; its ``address`` (first dynamic slot) makes it passable.
* :class:`ComponentNamespace`: ``runtime.callee.f`` attribute access to imports.

Calls take positional or keyword arguments named as in the signature; ``timeout=`` (seconds)
overrides the runtime's default for one call unless the signature has a parameter called
``timeout`` (then use :meth:`RemoteFunction.with_timeout`). ``f.post(...)`` makes a one-way
call (no reply is written; nothing is returned).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional, Protocol

from ..errors import did_you_mean
from ..link import ImportInfo
from ..types import FunctionType, SignatureCodec, codec_of, format_type

__all__ = ["RemoteFunction", "ImportedFunction", "ExportedFunction", "ComponentNamespace", "Invoker"]


class Invoker(Protocol):
    """What a function value needs of the runtime that makes its calls
    (:class:`~pushpush.runtime.core.RuntimeCore` is one). Declared here, so that this module
    sits below the runtime's core, which imports it."""

    def describe_address(self, address: int) -> str: ...

    def _invoke(self, fn: "RemoteFunction", args: Sequence[Any], kwargs: Mapping[str, Any],
                timeout: Optional[float], one_way: bool) -> Any: ...


def _python_signature(ft: FunctionType) -> inspect.Signature:
    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ft.param_names()]
    return inspect.Signature(params)


class RemoteFunction:
    """A function value: call endpoint ``address`` with type ``signature``.

    ``runtime`` makes the calls (a :class:`~pushpush.runtime.SyncRuntime` returns the
    result, an :class:`~pushpush.runtime.AsyncRuntime` returns an awaitable); ``name``
    labels it in errors (default: what the linked system says lives at the address).

    >>> from pushpush.types import parse_signature
    >>> f = RemoteFunction(0x43C0_0010, parse_signature("(x: i32) -> i32"))
    >>> f
    <RemoteFunction function at 0x43C00010: (x: i32) -> i32>
    >>> f(1)
    Traceback (most recent call last):
    ...
    RuntimeError: function at 0x43C00010 is not bound to a runtime; use runtime.function(address, signature)
    """

    def __init__(
        self,
        address: int,
        signature: FunctionType,
        runtime: Optional["Invoker"] = None,
        *,
        name: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> None:
        if not isinstance(signature, FunctionType):
            raise TypeError(f"signature must be a FunctionType, not {type(signature).__name__}")
        if not isinstance(address, int) or isinstance(address, bool) or not 0 < address <= 0xFFFF_FFFF or address % 4:
            raise ValueError(f"{address!r} is not a valid function address (non-zero, 32-bit, word aligned)")
        self.address = address
        self.signature = signature
        self._runtime = runtime
        self._name = name
        self._timeout = timeout
        self._codec: Optional[SignatureCodec] = None

    #: The rep slot of this runtime's import at this address (set by the runtime on its
    #: imports, :class:`ImportedFunction`; a call takes it when free): none here.
    _static_rep: Any = None
    #: The call plan of this address in the runtime it is bound to (set by the runtime at its
    #: first call: :class:`pushpush.runtime.caller.CallPlan`).
    _plan: Any = None
    #: The clock cycles within which the hardware answers a call (:meth:`with_cycles`), or
    #: None: unknown, the timeout is wall time.
    _cycles: Optional[float] = None

    @property
    def codec(self) -> SignatureCodec:
        """The marshalling of :attr:`signature`, prepared once (see :func:`pushpush.types.codec_of`)."""
        c = self._codec
        if c is None:
            c = self._codec = codec_of(self.signature)
        return c

    @property
    def name(self) -> str:
        if self._name is not None:
            return self._name
        if self._runtime is not None:
            return self._runtime.describe_address(self.address)
        return f"function at 0x{self.address:08X}"

    @property
    def __signature__(self) -> inspect.Signature:  # for help() and notebooks' tab completion
        return _python_signature(self.signature)

    @property
    def runtime(self) -> Optional["Invoker"]:
        return self._runtime

    def _split_timeout(self, kwargs: dict[str, Any]) -> Optional[float]:
        if "timeout" in kwargs and "timeout" not in self.signature.param_names():
            t = kwargs.pop("timeout")
            return None if t is None else float(t)
        return self._timeout

    def _bound(self) -> "Invoker":
        if self._runtime is None:
            raise RuntimeError(
                f"{self.name} is not bound to a runtime; use runtime.function(address, signature)")
        return self._runtime

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the function; see the module docstring for ``timeout=``."""
        timeout = self._split_timeout(kwargs) if kwargs else self._timeout
        runtime = self._runtime
        if runtime is None:
            runtime = self._bound()
        return runtime._invoke(self, args, kwargs, timeout, False)

    def post(self, *args: Any, **kwargs: Any) -> Any:
        """One-way call: write the call with bit 0 of the trigger set; no reply, no result.

        Errors of the callee are not reported. Back-to-back one-way calls through one slot
        can collide (hardware refuses them with SLVERR and the runtime retries until the
        timeout; a software callee's window cannot refuse).
        """
        timeout = self._split_timeout(kwargs)
        return self._bound()._invoke(self, args, kwargs, timeout, True)

    def with_timeout(self, timeout: Optional[float]) -> "RemoteFunction":
        """A copy whose calls use ``timeout`` seconds (``None``: the runtime's default)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._timeout = timeout
        return clone

    def with_cycles(self, cycles: float, timeout: Optional[float] = None) -> "RemoteFunction":
        """A copy for calls the hardware answers within ``cycles`` clock cycles (``math.inf``:
        within its own limit of cycles without progress, as a channel's adapter does) while
        the PL runs. Where the backend sees the PL's progress (the simulated board, its
        ``progress_clock`` hook) such a call waits for its reply until ``cycles`` cycles
        passed, or ``timeout`` seconds (``None``: the runtime's) in which the PL made no
        progress: a host that runs the simulator slowly stretches the call's wall time, not
        its cycles, and never ends it. Elsewhere (a board) the timeout is ``timeout`` seconds.
        """
        if not cycles > 0:
            raise ValueError(f"{self.name}: with_cycles needs a positive number of clock cycles, not {cycles!r}")
        clone = self.with_timeout(timeout)
        clone._cycles = float(cycles)
        return clone

    def bind(self, runtime: "Invoker") -> "RemoteFunction":
        """A copy whose calls go through ``runtime``."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._runtime = runtime
        clone.__dict__.pop("_static_rep", None)  # the other runtime's rep slots are its own
        clone.__dict__.pop("_plan", None)
        return clone

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, RemoteFunction) and other.address == self.address
                and other.signature == self.signature)

    def __hash__(self) -> int:
        return hash((self.address, self.signature))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}: {format_type(self.signature)}>"


class ImportedFunction(RemoteFunction):
    """A statically linked import; ``info`` holds its cep (in the callee) and rep (own) slots."""

    def __init__(self, info: ImportInfo, runtime: "Invoker") -> None:
        super().__init__(info.cep_address, info.signature, runtime, name=info.target)
        self.info = info

    def __repr__(self) -> str:
        return f"<ImportedFunction {self.name} at 0x{self.address:08X}: {format_type(self.signature)}>"


class ExportedFunction:
    """A Python function registered as an export of the runtime's component.

    Calling it calls the Python function directly (no bus). ``address`` is the export's
    first dynamic cep slot, so it can be passed where a function value is expected (an
    ``AttributeError`` when the export has no dynamic slots: the runtime then lends a
    run-time slot instead).
    """

    def __init__(self, name: str, signature: FunctionType, fn: Callable[..., Any],
                 dynamic_addresses: tuple[int, ...]) -> None:
        self.name = name
        self.signature = signature
        self.fn = fn
        self.dynamic_addresses = dynamic_addresses
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn

    @property
    def address(self) -> int:
        if not self.dynamic_addresses:
            raise AttributeError(
                f"export '{self.name}' has no dynamic slots, so it has no address of its own; "
                "give it dynamic_slots: 1 in the system description")
        return self.dynamic_addresses[0]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<ExportedFunction {self.name}: {format_type(self.signature)} -> {self.fn!r}>"


class ComponentNamespace:
    """``runtime.<component>``: the imports of one component as attributes."""

    def __init__(self, component: str, functions: dict[str, ImportedFunction],
                 channel: Optional[Callable[..., Any]] = None) -> None:
        self._component = component
        self._functions = functions
        if channel is not None and "channel" not in functions:
            # rt.hw.channel("audio") = rt.channel("hw.audio") (docs/runtime.md, "Channels");
            # an import called 'channel' keeps its name
            def _chan(name: str, capacity: Optional[int] = None) -> Any:
                return channel(f"{component}.{name}", capacity)
            self.channel = _chan

    def __getattr__(self, name: str) -> ImportedFunction:
        try:
            return self._functions[name]
        except KeyError:
            hint = did_you_mean(name, self._functions)
            raise AttributeError(
                f"'{self._component}.{name}' is not imported{hint} (imported from "
                f"'{self._component}': {', '.join(sorted(self._functions)) or 'nothing'})") from None

    def __dir__(self) -> list[str]:
        return sorted(self._functions)

    def __repr__(self) -> str:
        return f"<imports from {self._component}: {', '.join(sorted(self._functions))}>"
