"""The PL trace buffer of a loaded overlay, read through the system top's MMIO (a board's
trace: ``ol.trace(path, source="pl")``, the default on a board; docs/trace.md).

A system with ``trace: true`` has a trace buffer page in its top (:mod:`pushpush.trace.pl`);
:func:`pl_trace` reads and writes that page through the overlay's MMIO, on a PYNQ-Z1 as on
the simulated board.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Union

from pushpush.sysmap import to_dict

__all__ = ["pl_trace"]


def pl_trace(ol: Any, path: Union[str, Path], out: Optional[Callable[[str], None]] = None, *,
             wire: bool = False) -> Any:
    """A :class:`pushpush.trace.pl.PlTrace` of overlay ``ol``'s PL trace buffer (its page
    read and written through the system top's MMIO), into ``path``. ``wire``: the overlay
    can also be traced from the wire (the simulated board; said when there is no buffer)."""
    from pushpush.trace.pl import PlTrace, PlTraceBuffer, PlTraceError
    linked = ol.system.linked
    if linked.trace is None:
        raise PlTraceError(f"system '{linked.name}' has no PL trace buffer: add 'trace: true' "
                           "to its YAML and rebuild the bitstream"
                           + ("; or trace it from the wire: ol.trace(path)" if wire else ""))
    mmio = ol.system.mmio
    at = linked.trace.base - int(ol.system.description.get("phys_addr", 0))
    buf = PlTraceBuffer(lambda off: int(mmio.read(at + off)),
                        lambda off, v: mmio.write(at + off, int(v)), to_dict(linked))
    return PlTrace(buf, to_dict(linked), path, out=out)
