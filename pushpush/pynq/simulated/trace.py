"""``ol.trace(path)``: the overlay's side of tracing (docs/trace.md).

On the simulated board it hands :class:`pushpush.trace.session.BoardTrace` the bridge's
control page and run folder, INFO requests (each turns the simulator's loop), the system map,
the simulator's cycle (from the control page) and the overlay's fault counters. On a board it
refuses: the wire monitor needs the simulator, and the PL trace buffer (``trace: true``) is
not built yet.

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


def overlay_trace(ol: Any, path: Union[str, Path],
                  out: Optional[Callable[[str], None]] = None) -> BoardTrace:
    """A :class:`BoardTrace` of overlay ``ol`` into ``path`` (use it in a ``with`` block)."""
    bridge = getattr(getattr(ol, "device", None), "bridge", None)
    if bridge is None or getattr(bridge, "rundir", None) is None:
        raise TraceError("ol.trace() records on the simulated board only (its wire monitor): "
                         "on a PYNQ board there is no trace buffer in the PL yet (issue 31, "
                         "'trace: true'); run the system on the simulated board to trace it")
    ctl = bridge.ctl.mem
    return BoardTrace(ctl, bridge.rundir, bridge.info, to_dict(ol.system.linked), path,
                      cycle=lambda: int(read_status(ctl)["cycle"]), counters=ol.counters,
                      out=out)
