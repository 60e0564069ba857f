"""The simulated board's side of tracing: the wire monitor, started and stopped by the PYNQ
process through the trace area of the control page.

The control page (:mod:`.ipc`) keeps its last bytes for tracing (:data:`~.ipc.CTL_TRACE`),
in the trace layer's format (:mod:`pushpush.trace.wire_request`: request, ack, the cycles the
monitor armed and stopped at, an error flag). The simulator looks at ``request`` once per
turn of its loop (:meth:`SimTraceHook.look`, one 8-byte read): with tracing never asked for,
that is all it costs, and the monitor (:mod:`pushpush.trace.monitor`) only reads signals, so
cycle counts never change. Was ``pushpush.trace.simhook``, which wrote the control page's
offset a second time.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import Any, Callable, Optional

from pushpush.trace.wire_request import (ACK, AREA, DONE, ERROR, ERROR_FILE, RECORDS_FILE, REQUEST,
                                         REQUEST_FILE, STOPPED)

from .ipc import CTL_TRACE

__all__ = ["SimTraceHook", "rundir_of_config"]


class SimTraceHook:
    """Made by the simulator's loop (:mod:`.hdl`): ``dut`` the harness, ``ctl`` the
    control page (or None: no tracing), ``rundir`` the run folder, ``sim_ps()`` the
    simulated time since the cycle count's zero (ps), ``period_ps`` the clock period,
    ``mem_ports`` the config's PS memory ports (``name``, ``prefix``, ``data_width``)."""

    def __init__(self, dut: Any, ctl: Any, rundir: Optional[Path], sim_ps: Callable[[], int],
                 period_ps: int, mem_ports: Optional[list[dict[str, Any]]] = None) -> None:
        self.dut = dut
        self.ctl = ctl
        self.rundir = rundir
        self.sim_ps = sim_ps
        self.period_ps = period_ps
        self.mem_ports = mem_ports or []
        self.session = 0
        self.monitor: Any = None

    def next_edge(self) -> int:
        """The cycle number of the next rising edge (edges at half a period past the zero,
        which is a falling edge)."""
        return int((int(self.sim_ps()) - self.period_ps // 2) // self.period_ps + 1)

    def look(self) -> None:
        """Start or stop the monitor as the PYNQ process asks (see the module docstring)."""
        if self.ctl is None or self.rundir is None:
            return
        request = struct.unpack_from("<Q", self.ctl, CTL_TRACE + REQUEST)[0]
        if request == self.session:
            return
        if self.session:
            self._stop()
        if request:
            self._start(request)

    def _start(self, session: int) -> None:
        from pushpush.trace.monitor import WireMonitor
        assert self.rundir is not None
        self.session = session
        try:
            req = json.loads((self.rundir / REQUEST_FILE).read_text())
            mems = {p["name"]: (p["prefix"], int(p["data_width"])) for p in self.mem_ports}
            self.monitor = WireMonitor.attach(self.dut, self.next_edge,
                                              components=req.get("components", {}),
                                              mem_ports=mems)
            self.monitor.start()
        except Exception as e:   # reported to the PYNQ process, which raises it
            (self.rundir / ERROR_FILE).write_text(f"{type(e).__name__}: {e}")
            self.monitor = None
            AREA.pack_into(self.ctl, CTL_TRACE, session, session | DONE, 0, 0, 1)
            return
        struct.pack_into("<QQQ", self.ctl, CTL_TRACE + ACK, session, self.next_edge(), 0)

    def _stop(self) -> None:
        assert self.rundir is not None
        session, self.session = self.session, 0
        if self.monitor is None:
            return
        records = self.monitor.stop()
        self.monitor = None
        path = self.rundir / RECORDS_FILE
        tmp = path.with_name(path.name + ".tmp")
        failed = 0
        try:   # a full disk must not stop the simulated board: the PYNQ side reports it
            tmp.write_text(json.dumps(records, separators=(",", ":")))
            os.replace(tmp, path)
        except OSError as e:
            (self.rundir / ERROR_FILE).write_text(f"writing {path}: {e}")
            failed = 1
        struct.pack_into("<Q", self.ctl, CTL_TRACE + STOPPED, self.next_edge())
        struct.pack_into("<Q", self.ctl, CTL_TRACE + ERROR, failed)
        struct.pack_into("<Q", self.ctl, CTL_TRACE + ACK, session | DONE)


def rundir_of_config() -> Optional[Path]:
    """The simulator's run folder (the folder of ``$PUSHPUSH_SIM_CONFIG``), or None."""
    p = os.environ.get("PUSHPUSH_SIM_CONFIG")
    return Path(p).resolve().parent if p else None
