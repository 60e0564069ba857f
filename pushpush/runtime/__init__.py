"""Python callers and callees of a PushPush system.

A software component (``kind: python``) of a linked system gets a runtime: its imports
become typed callables, Python functions become exports that hardware (or other software)
calls, and Python callables can be passed wherever a function is expected.

Two drivers share one sans-IO protocol core (:mod:`pushpush.protocol`) and one state core
(:mod:`.core`):

* :class:`SyncRuntime` (threads): scripts, notebooks, the board;
* :class:`AsyncRuntime` (asyncio; also cocotb): ``await rt.callee.f(3)``.

Each runs over a backend (:mod:`.backend`: four methods, ``write`` a burst to a global
address, ``read_local``/``write_local`` the own window, ``sleep`` between polling sweeps):
:class:`~.memory.MemoryBus` backends (a test double of the bus, for unit tests),
:class:`~.cocotb_backend.CocotbBackend` (the simulated PS), and later PYNQ.

Example (two Python components on the test bus)::

    from pushpush.spec import parse_system
    from pushpush.link import link
    from pushpush.runtime import SyncRuntime, MemoryBus

    linked = link(parse_system(YAML))           # a imports b.scale, b exports scale
    bus = MemoryBus(linked)
    a = SyncRuntime(linked, "a", bus.sync_backend("a"))
    b = SyncRuntime(linked, "b", bus.sync_backend("b"))

    @b.export("scale")                          # "(f: (x: i32) -> i32, x: i32) -> i32"
    def scale(f, x):
        return 2 * f(x)                         # f is a RemoteFunction: calls back into a

    with a, b:                                  # start both serve threads
        assert a.b.scale(lambda x: x + 1, 20) == 42     # the lambda is lent to the call
        a.imports["b.scale"](f=abs, x=-3, timeout=1.0)   # keywords, per-call timeout

Errors: bad arguments raise ``TypeError``/``OverflowError``/``ValueError`` naming the
parameter before anything is written; a callee that raises gives :class:`CallError`
(``code`` :attr:`ErrorCode.CALLEE_RAISED`, naming the callee and its address); no reply in
time gives :class:`CallTimeout` (also a ``TimeoutError``); a full run-time area gives
:class:`SlotsExhausted`. See :mod:`.core` for how slots are used under concurrency.
"""

from ..protocol import BusWriteError, CallError, CallTimeout, ErrorCode, SlotsExhausted
from .aio import AsyncRuntime
from .backend import AsyncBackend, SyncBackend
from .core import DEFAULT_TIMEOUT
from .functions import ComponentNamespace, ExportedFunction, ImportedFunction, RemoteFunction
from .memory import MemoryAsyncBackend, MemoryBus, MemorySyncBackend
from .sync import SyncRuntime

__all__ = [
    "SyncRuntime",
    "AsyncRuntime",
    "SyncBackend",
    "AsyncBackend",
    "RemoteFunction",
    "ImportedFunction",
    "ExportedFunction",
    "ComponentNamespace",
    "MemoryBus",
    "MemorySyncBackend",
    "MemoryAsyncBackend",
    "CallError",
    "CallTimeout",
    "BusWriteError",
    "SlotsExhausted",
    "ErrorCode",
    "DEFAULT_TIMEOUT",
]
