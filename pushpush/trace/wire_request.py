"""The trace area: how the PYNQ process asks the simulated board's wire monitor to record.

Five u64 fields (:data:`AREA`, :data:`AREA_SIZE` bytes reserved), at an offset the simulated
board chooses in its control page (:data:`pushpush.simboard.ipc.CTL_TRACE`): ``request``
(written by the PYNQ process, :class:`pushpush.trace.session.BoardTrace`: a session number to
record, 0 to stop), ``ack`` (written by the simulator's hook,
:mod:`pushpush.simboard.tracehook`: the session it records, or that number with :data:`DONE`
set once it stopped and wrote its records), ``armed_cycle``, ``stopped_cycle``, ``error`` (1:
the monitor could not start or write; the reason is in :data:`ERROR_FILE` in the run folder).
The format is the trace layer's; where it sits is the simulated board's.

Files in the simulator's run folder: :data:`REQUEST_FILE` (the PYNQ process: the rtl
components' exports to watch), :data:`RECORDS_FILE` (the simulator: the records,
:mod:`.monitor`), :data:`ERROR_FILE`.
"""

from __future__ import annotations

import struct

__all__ = ["AREA", "AREA_SIZE", "REQUEST", "ACK", "ARMED", "STOPPED", "ERROR", "DONE",
           "REQUEST_FILE", "RECORDS_FILE", "ERROR_FILE"]

#: The five fields, from the area's start.
AREA = struct.Struct("<5Q")
#: Bytes the area takes (the fields and room to grow).
AREA_SIZE = 64
#: Each field's offset in the area.
REQUEST, ACK, ARMED, STOPPED, ERROR = 0, 8, 16, 24, 32
#: Set in ``ack`` when the session stopped and its records are written.
DONE = 1 << 63
REQUEST_FILE = "trace-request.json"
RECORDS_FILE = "trace-records.json"
ERROR_FILE = "trace-error.txt"
