"""``ol.trace(path)`` on the simulated board: the wire monitor's trace (docs/trace.md).

:func:`wire_trace` hands :class:`pushpush.trace.session.BoardTrace` the bridge's control page
and where its trace area is (:data:`pushpush.simboard.ipc.CTL_TRACE`), the run folder, INFO
requests (each turns the simulator's loop), the system map, the simulator's cycle (from the
control page) and the overlay's fault counters. Which trace an overlay records (this, or the
PL trace buffer of :mod:`pushpush.pynq.pl_trace`) is the overlay's choice
(:func:`pushpush.pynq.overlay.overlay_trace`).

Example::

    with ol.trace("run.trace") as t:
        ol.callee.f(3)
    print(t.summary.text())
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Union

from pushpush.simboard.ipc import CTL_TRACE, read_status
from pushpush.sysmap import to_dict
from pushpush.trace.session import BoardTrace

from .bridge import SimBridge

__all__ = ["wire_trace"]


def wire_trace(ol: Any, bridge: SimBridge, path: Union[str, Path],
               out: Optional[Callable[[str], None]] = None) -> BoardTrace:
    """A :class:`BoardTrace` of overlay ``ol`` (on the simulated board ``bridge`` runs) into
    ``path`` (use it in a ``with`` block)."""
    ctl = bridge.ctl.mem
    assert bridge.rundir is not None
    return BoardTrace(ctl, bridge.rundir, bridge.info, to_dict(ol.system.linked), path,
                      at=CTL_TRACE, cycle=lambda: int(read_status(ctl)["cycle"]),
                      counters=ol.counters, out=out)
