"""The PYNQ driver of a pushpush system top, bound by VLNV.

PYNQ gives every addressable IP of an overlay a driver: the ``DefaultIP`` subclass whose
``bindto`` lists the IP's VLNV. A system top is a module reference in the block design, so
its VLNV is ``xilinx.com:module_ref:<system>_top:1.0`` (:func:`pushpush.codegen.hwh.module_ref_vlnv`);
:func:`register_driver` makes and registers the driver class for one top (before the
``Overlay`` is made: PYNQ assigns drivers when it reads the ``.hwh``). Then
``overlay.system_top_0`` is a :class:`PushPushIP`, which offers the system's functions to
a software component (by default the system's first ``python`` component)::

    ol = pynq.Overlay("hof.bit")                   # after register_driver("hof_top")
    ol.system_top_0.mixer.mix(1, 2, 3, True)        # an import of 'host'
    ol.system_top_0.export("neg", lambda x: -x)     # serve an export of 'host'
    rt = ol.system_top_0.runtime("host")            # the SyncRuntime itself

The linked model comes from ``<system>.map.json`` next to the ``.bit``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Optional
from xml.etree import ElementTree

from pynq import DefaultIP

from pushpush.runtime import SyncRuntime
from pushpush.sysmap import from_json

from .board import PynqBackend
from ..codegen.hwh import module_ref_vlnv, system_top_instance
from .overlay_files import map_path_for

__all__ = ["PushPushIP", "register_driver", "top_vlnv_of_hwh"]

_drivers: dict[str, type] = {}
_lock = threading.Lock()


def top_vlnv_of_hwh(hwh: str | Path) -> Optional[str]:
    """The VLNV of the system top cell (``system_top_0``) in a ``.hwh``, or None."""
    root = ElementTree.parse(str(hwh)).getroot()
    for m in root.iter("MODULE"):
        if m.get("INSTANCE") == system_top_instance():
            return m.get("VLNV")
    return None


def register_driver(top_or_vlnv: str) -> type:
    """The :class:`PushPushIP` subclass bound to a system top (module name or VLNV)."""
    vlnv = top_or_vlnv if top_or_vlnv.count(":") == 3 else module_ref_vlnv(top_or_vlnv)
    with _lock:
        cls = _drivers.get(vlnv)
        if cls is None:
            name = "PushPush_" + vlnv.split(":")[2]
            cls = type(name, (PushPushIP,), {"bindto": [vlnv], "__module__": __name__})
            _drivers[vlnv] = cls
        return cls


class PushPushIP(DefaultIP):
    """Driver of a pushpush system top: runtimes of its software components over PYNQ."""

    def __init__(self, description: dict[str, Any]) -> None:
        super().__init__(description)
        self.description = description
        self._runtimes: dict[str, SyncRuntime] = {}
        self._linked = None
        self._windows: Any = None

    @property
    def windows(self) -> Any:
        """The ``ps`` region's memory, shared by this top's runtimes
        (:class:`~pushpush.pynq.windows.SoftwareWindows`; with ``software_windows: ddr``
        opening it allocates the buffer and writes the PL's base register)."""
        if self._windows is None:
            from .windows import SoftwareWindows
            self._windows = SoftwareWindows.open(self.linked, self.device)
        return self._windows

    @property
    def linked(self) -> Any:
        if self._linked is None:
            bit = getattr(self.device, "bitfile_name", "")
            path = map_path_for(bit) if bit else None
            if path is None or not path.exists():
                raise FileNotFoundError(
                    f"no system map next to the bitstream ('{path}'): copy <system>.map.json "
                    "(from pushpush generate) next to <system>.bit")
            self._linked = from_json(path.read_text(), base_dir=path.parent)
        return self._linked

    def default_component(self) -> str:
        sw = [c for c in self.linked.components if c.kind == "python"]
        if not sw:
            raise ValueError(f"system '{self.linked.name}' has no python component")
        return sw[0].name

    def runtime(self, component: Optional[str] = None, **kwargs: Any) -> SyncRuntime:
        """The :class:`SyncRuntime` of ``component``, made on the first call with a PYNQ
        backend and ``kwargs`` (``timeout``, ``workers``, ``poll_s``, ``wait``: the wait mode,
        default the component's YAML ``wait``). A later call with
        options that differ from the existing runtime's raises ``ValueError`` (they would
        otherwise be silently ignored); ``timeout`` may change (it is a plain setting)."""
        component = component or self.default_component()
        rt = self._runtimes.get(component)
        if rt is None:
            backend = PynqBackend(self.linked, component, self.device, pl=self.description,
                                  poll_s=kwargs.pop("poll_s", None), windows=self.windows,
                                  wait=kwargs.pop("wait", None))
            rt = self._runtimes[component] = SyncRuntime(self.linked, component, backend, **kwargs)
            return rt
        if "timeout" in kwargs:
            rt.timeout = float(kwargs.pop("timeout"))
        if kwargs.get("wait") is not None:   # a plain setting too (rt.wait = ...)
            rt.wait = kwargs.pop("wait")
        backend = rt.backend
        assert isinstance(backend, PynqBackend)   # (made above)
        current = {"workers": rt.workers, "poll_s": backend.poll_s}
        differ = {k: v for k, v in kwargs.items() if v is not None and current.get(k, object()) != v}
        if differ:
            raise ValueError(
                f"the runtime of '{component}' exists already with "
                + ", ".join(f"{k}={current.get(k)!r}" for k in differ)
                + f"; it cannot change to {', '.join(f'{k}={v!r}' for k, v in differ.items())} "
                "(pass the options on the first call, or free and load the overlay again)")
        return rt

    def counters(self) -> dict[str, dict[str, int]]:
        """Faults every component dropped (docs/architecture.md §2.2), by component:
        ``{"fir": {"collisions": 0, "duplicates": 0, "strays": 0, "write_errors": 0}, ...}``.
        rtl components' counters are read over AXI from their windows (the system map's
        ``counters`` offsets); software components' from their runtimes made here."""
        from pushpush.sysmap import COUNTERS

        pl_base = int(self.description.get("phys_addr", 0))
        out: dict[str, dict[str, int]] = {}
        for c in self.linked.components:
            if c.kind == "rtl":
                out[c.name] = {name: int(self.mmio.read(c.base - pl_base + off))
                               for name, off in COUNTERS.items()}
            elif c.name in self._runtimes:
                out[c.name] = self._runtimes[c.name].counters.as_dict()
        return out

    def window_guard(self) -> Any:
        """The window guard of a system with ``firewall:``
        (:class:`pushpush.runtime.window_guard.WindowGuardView`: ``refused()``,
        ``take_refusal()``), read over AXI; ValueError for a system without one."""
        from pushpush.runtime.window_guard import WindowGuardView

        g = self.linked.window_guard
        if g is None:
            raise ValueError(f"system '{self.linked.name}' has no window guard: add 'firewall: true' "
                             "to its YAML (it needs a PL component that writes into a software window)")
        at = g.base - int(self.description.get("phys_addr", 0))
        return WindowGuardView(self.linked, lambda o: int(self.mmio.read(at + o)),
                               lambda o, v: self.mmio.write(at + o, v))

    def cycles(self) -> int:
        """The PL's free-running 64-bit clock-cycle counter (the interrupt block's register
        page, 0x10 and 0x14: docs/trace.md), read over AXI (high, low, high: docs/c.md,
        "Tracing"); a system without an interrupt block has none (ValueError)."""
        irq = self.linked.irq
        if irq is None:
            raise ValueError(f"system '{self.linked.name}' has no interrupt block, so no cycle "
                             "counter (it needs an rtl and a software component)")
        at = irq.base - int(self.description.get("phys_addr", 0))
        # high, low, high until both highs agree, as the C runtime's pp_counter64 (docs/c.md,
        # "Tracing"): 0x14 is latched by any reader's read of 0x10, a C program's too
        hi = int(self.mmio.read(at + 0x14))
        for _ in range(4):
            low = int(self.mmio.read(at + 0x10))
            hi2 = int(self.mmio.read(at + 0x14))
            if hi2 == hi:
                break
            hi = hi2
        return (hi2 << 32) | low

    def export(self, name: str, fn: Any = None) -> Any:
        """Serve an export of the default component (starts its serve thread)."""
        rt = self.runtime()
        result = rt.export(name, fn)
        rt.start()
        return result

    def close(self) -> None:
        """Stop every runtime's serve thread; with ``software_windows: ddr`` close the PL's
        gate to the windows' buffer (its base register to 0)."""
        for rt in self._runtimes.values():
            rt.stop()
            backend = rt.backend
            assert isinstance(backend, PynqBackend)   # (made by runtime())
            backend.close()
        if self._windows is not None:
            self._windows.close()

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_") or key in ("description", "device", "mmio"):
            raise AttributeError(key)
        return getattr(self.runtime(), key)

    def __dir__(self) -> list[str]:
        names = set(super().__dir__())
        try:
            names |= {c.name for c in self.linked.components}
        except Exception:
            pass
        return sorted(names)
