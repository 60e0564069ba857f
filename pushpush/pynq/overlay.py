"""The overlay of a pushpush system: :class:`PushPushOverlay` and :func:`load`.

A ``pynq.Overlay`` whose attributes fall through to the system's functions, on a PYNQ board
and on the simulated board alike (PYNQ picks the device; :mod:`.simulated.device` registers
the simulated one). After a download the software windows are zeroed (the on-chip memory
outlives bitstreams); ``free()`` stops the serve threads and, on the simulated board, the
simulator. A DMA of a system with ``firewall:`` comes with its channels guarded
(:mod:`.dma_guard`). :func:`overlay_trace` picks what ``ol.trace()`` records: the PL trace buffer
(:mod:`.pl_trace`, a board's default) or the simulated board's wire monitor
(:mod:`.simulated.trace`).

This module needs PYNQ (an optional dependency: ``pip install 'pushpush-fpga[pynq]'``);
:mod:`pushpush.pynq` imports it only where PYNQ is installed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional, Union

from pynq import Device, Overlay

from pushpush.boards import board
from pushpush.link import LinkedSystem
from pushpush.link import load as load_linked
from pushpush.sysmap import from_json
from pushpush.trace.session import TraceError

from ..codegen.hwh import system_top_instance
from .dma_guard import guard_dma
from .driver import PushPushIP, register_driver, top_vlnv_of_hwh
from .intcshare import install as keep_shared_input
from .ocm import check_ocm_mapping, read_ocm_cfg
from .overlay_files import check_board_pynq, check_overlay_files, find_overlay, map_path_for
from .pl_trace import pl_trace
from .simulated.bridge import SimBridge
from .simulated.device import SimDevice, sim_wanted
from .simulated.simbit import write_sim_overlay
from .simulated.trace import wire_trace

__all__ = ["PushPushOverlay", "load", "overlay_trace"]


def _clear_software_windows(device: Any, bitfile_name: str) -> None:
    """Zero the software components' windows in the ps region after a download: the
    on-chip memory outlives bitstreams (on the board and on the simulated board), and a
    previous system's words there would look like calls to the new one's runtime."""
    path = map_path_for(bitfile_name)
    if not path.exists():
        return
    linked = from_json(path.read_text(), base_dir=path.parent)
    if linked.software_windows == "ddr":
        return   # a fresh buffer, zeroed, allocated with the runtimes (pynq.windows)
    ps = linked.ps
    # the windows must be where the design expects them before anything is written there
    if not board(linked.board).is_zynqmp:   # OCM_CFG is the Zynq-7000's (SLCR 0xF8000910)
        check_ocm_mapping(read_ocm_cfg(device), ps.base, ps.size, linked.name)
    try:
        view = device.mmap(ps.base, ps.size)
    except Exception:  # pragma: no cover - a device without the ps region mapped
        return
    for comp in linked.components:
        if comp.is_software and ps.base <= comp.base and comp.end <= ps.base + ps.size:
            lo = (comp.base - ps.base) >> 2
            view[lo:lo + (comp.size >> 2)] = 0


class PushPushOverlay(Overlay):
    """A ``pynq.Overlay`` of a pushpush system (``.bit`` + ``.hwh`` + ``.map.json``).

    Attribute access falls through to the system's functions, as seen by software
    component ``component`` (default: the first python component): ``ol.callee.f(3)``,
    ``ol.export("log", fn)``, ``ol.runtime()``. ``free()`` stops the serve threads and,
    on the simulated board, the simulator."""

    def __init__(self, bitfile_name: str, component: Optional[str] = None,
                 download: bool = True, **kwargs: Any) -> None:
        device = kwargs.get("device") or Device.active_device
        if not isinstance(device, SimDevice) or not sim_wanted():
            # on a board: the running PYNQ must be one this board's images have (the
            # simulated board runs every board under PYNQ 3.x and 4.x)
            check_board_pynq(bitfile_name)
        hwh = Path(bitfile_name).with_suffix(".hwh")
        vlnv = top_vlnv_of_hwh(hwh) if hwh.exists() else None
        if vlnv:
            register_driver(vlnv)
        self._pp_component = component
        # PYNQ gives the top's axi_intc input back to C programs that sleep on it
        # (docs/architecture.md §2.3), on the board as on the simulated board
        keep_shared_input()
        super().__init__(str(bitfile_name), download=download, **kwargs)
        if download:
            _clear_software_windows(self.device, bitfile_name)
            if map_path_for(bitfile_name).exists() and self.system.linked.software_windows == "ddr":
                self.system.windows   # allocate the windows' buffer, tell the PL where

    @property
    def system(self) -> "PushPushIP":
        return getattr(self._ip_map, system_top_instance())

    def runtime(self, component: Optional[str] = None, **kwargs: Any) -> Any:
        return self.system.runtime(component or self._pp_component, **kwargs)

    def counters(self) -> dict[str, dict[str, int]]:
        """Faults dropped by every component (:meth:`PushPushIP.counters`)."""
        return self.system.counters()

    def window_guard(self) -> Any:
        """The window guard's refusals (:meth:`PushPushIP.window_guard`)."""
        return self.system.window_guard()

    def trace(self, path: Any, out: Any = None, source: Any = None) -> Any:
        """``with ol.trace("run.trace"):`` records every call into a Perfetto trace
        (docs/trace.md); ``out`` receives the summary. ``source``: ``"wire"`` (the
        simulated board's wire monitor, its default) or ``"pl"`` (the PL trace buffer of
        a system with ``trace: true``, the default on a board)."""
        return overlay_trace(self, path, out, source=source)

    def export(self, name: str, fn: Any = None) -> Any:
        rt = self.runtime()
        result = rt.export(name, fn)
        rt.start()
        return result

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            obj = super().__getattr__(key)
        except AttributeError:
            return getattr(self.runtime(), key)
        # a DMA of a system with firewall: its channels open the firewall's ranges
        return guard_dma(self, key, obj)

    def free(self) -> None:
        loaded = self.is_loaded()
        try:
            if system_top_instance() in self._ip_map.__dict__:
                self.system.close()
        finally:
            super().free()
            if loaded and isinstance(self.device, SimDevice):
                self.device.stop()

    def __enter__(self) -> "PushPushOverlay":
        return self

    def __exit__(self, *exc: object) -> None:
        self.free()

def load(target: Any, *, component: Optional[str] = None, outdir: Optional[str] = None,
         simulator: Optional[str] = None, download: bool = True, **kwargs: Any) -> PushPushOverlay:
    """Load a pushpush system through PYNQ and return its overlay.

    ``target`` is a ``<system>.bit`` (built with Vivado for the board, or a simulation
    bitstream from :func:`write_sim_overlay`), a system YAML file or a linked system.
    From YAML/a linked system: on a board, the system's Vivado build, found by
    :func:`~.overlay_files.find_overlay` (the system's folder, where ``pushpush build``
    writes it, then the current folder, then the installed overlays); on the simulated
    board, its overlay generated into ``outdir`` (default: a fresh temporary folder).
    On a board the running PYNQ must be one the board's images have
    (:func:`~.overlay_files.check_board_pynq`).
    """
    found = isinstance(target, (str, os.PathLike)) and Path(target).suffix == ".bit"
    if found:
        bit = Path(target)
        check_overlay_files(bit)   # a missing Vivado build: say how to make it
    else:
        linked = target if isinstance(target, LinkedSystem) else load_linked(str(target))
        if not sim_wanted():
            folder = Path(linked.base_dir) if linked.base_dir else None
            yaml = folder / linked.source_file if folder and linked.source_file else folder
            bit = find_overlay(linked.name, folder, system_yaml=yaml)
            found = True
        else:
            out = Path(outdir) if outdir else Path(tempfile.mkdtemp(prefix=f"pushpush-{linked.name}-"))
            bit = write_sim_overlay(linked, out, simulator=simulator or "auto")
    if found:
        device = kwargs.get("device") or Device.active_device
        if isinstance(device, SimDevice):   # read at this bitstream's download only
            device.request_simulator(bit, simulator)
    return PushPushOverlay(str(bit), component=component, download=download, **kwargs)


def _wire(ol: Any) -> Optional[SimBridge]:
    """The simulator's bridge when overlay ``ol`` is loaded on the simulated board, else None."""
    device = ol.device
    bridge = device.bridge if isinstance(device, SimDevice) else None
    return bridge if bridge is not None and bridge.rundir is not None else None


def overlay_trace(ol: Any, path: Union[str, Path],
                  out: Optional[Callable[[str], None]] = None, *,
                  source: Optional[str] = None) -> Any:
    """A :class:`pushpush.trace.session.BoardTrace` (``source="wire"``, the simulated board's
    default) or a :class:`pushpush.trace.pl.PlTrace` (``source="pl"``, a board's default) of
    overlay ``ol`` into ``path`` (use it in a ``with`` block)."""
    if source not in (None, "wire", "pl"):
        raise ValueError(f"ol.trace(source={source!r}): use 'wire' (the simulated board's "
                         "wire monitor) or 'pl' (the PL trace buffer, 'trace: true')")
    bridge = _wire(ol)
    if source == "pl" or (source is None and bridge is None):
        if bridge is None and ol.system.linked.trace is None:
            raise TraceError("ol.trace() on a PYNQ board reads the PL trace buffer, which system "
                             f"'{ol.system.linked.name}' has not: add 'trace: true' to its YAML "
                             "and rebuild the bitstream, or run the system on the simulated "
                             "board to trace it from the wire")
        return pl_trace(ol, path, out, wire=bridge is not None)
    if bridge is None:
        raise TraceError("ol.trace(source='wire') records on the simulated board only (its "
                         "wire monitor); on a PYNQ board use the PL trace buffer "
                         "(source='pl', 'trace: true' in the YAML)")
    return wire_trace(ol, bridge, path, out)
