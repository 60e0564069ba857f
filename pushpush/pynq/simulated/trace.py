"""``ol.trace(path)``: the overlay's side of tracing (docs/trace.md).

On the simulated board it hands :class:`pushpush.trace.session.BoardTrace` the bridge's
control page and run folder, INFO requests (each turns the simulator's loop), the system map,
the simulator's cycle (from the control page) and the overlay's fault counters. With
``source="pl"`` (the default on a board) it drains the PL trace buffer of a system with
``trace: true`` (:mod:`pushpush.trace.pl`) through the top's MMIO; on a board without one it
refuses, saying how to add it.

Example::

    with ol.trace("run.trace") as t:
        ol.callee.f(3)
    print(t.summary.text())
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Union

from pushpush.simboard.ipc import read_status
from pushpush.sysmap import to_dict
from pushpush.trace.session import BoardTrace, TraceError

__all__ = ["overlay_trace", "TraceError"]


def pl_trace(ol: Any, path: Union[str, Path], out: Optional[Callable[[str], None]] = None) -> Any:
    """A :class:`pushpush.trace.pl.PlTrace` of overlay ``ol``'s PL trace buffer (its page
    read and written through the system top's MMIO), into ``path``."""
    from pushpush.trace.pl import PlTrace, PlTraceBuffer, PlTraceError
    linked = ol.system.linked
    if linked.trace is None:
        raise PlTraceError(f"system '{linked.name}' has no PL trace buffer: add 'trace: true' "
                           "to its YAML and rebuild the bitstream"
                           + ("; or trace it from the wire: ol.trace(path)"
                              if _bridge(ol) is not None else ""))
    mmio = ol.system.mmio
    at = linked.trace.base - int(ol.system.description.get("phys_addr", 0))
    buf = PlTraceBuffer(lambda off: int(mmio.read(at + off)),
                        lambda off, v: mmio.write(at + off, int(v)), to_dict(linked))
    return PlTrace(buf, to_dict(linked), path, out=out)


def _bridge(ol: Any) -> Any:
    bridge = getattr(getattr(ol, "device", None), "bridge", None)
    return bridge if bridge is not None and getattr(bridge, "rundir", None) is not None else None


def overlay_trace(ol: Any, path: Union[str, Path],
                  out: Optional[Callable[[str], None]] = None, *,
                  source: Optional[str] = None) -> Any:
    """A :class:`BoardTrace` (``source="wire"``, the simulated board's default) or a
    :class:`pushpush.trace.pl.PlTrace` (``source="pl"``, a board's default) of overlay
    ``ol`` into ``path`` (use it in a ``with`` block)."""
    if source not in (None, "wire", "pl"):
        raise ValueError(f"ol.trace(source={source!r}): use 'wire' (the simulated board's "
                         "wire monitor) or 'pl' (the PL trace buffer, 'trace: true')")
    bridge = _bridge(ol)
    if source == "pl" or (source is None and bridge is None):
        if bridge is None and ol.system.linked.trace is None:
            raise TraceError("ol.trace() on a PYNQ board reads the PL trace buffer, which system "
                             f"'{ol.system.linked.name}' has not: add 'trace: true' to its YAML "
                             "and rebuild the bitstream, or run the system on the simulated "
                             "board to trace it from the wire")
        return pl_trace(ol, path, out)
    if bridge is None:
        raise TraceError("ol.trace(source='wire') records on the simulated board only (its "
                         "wire monitor); on a PYNQ board use the PL trace buffer "
                         "(source='pl', 'trace: true' in the YAML)")
    ctl = bridge.ctl.mem
    return BoardTrace(ctl, bridge.rundir, bridge.info, to_dict(ol.system.linked), path,
                      cycle=lambda: int(read_status(ctl)["cycle"]), counters=ol.counters,
                      out=out)
