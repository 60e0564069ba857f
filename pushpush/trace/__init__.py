"""Traces of a pushpush system: every call, from the wire and from the runtimes (issue 31).

* :mod:`.model`: the trace (calls joined to their returns, nesting, spans, counters);
* :mod:`.chrome`: the Chrome trace-event JSON that Perfetto's UI opens, written and read back
  (validated);
* :mod:`.summary`: per-function latency statistics, bytes moved, busy share per component;
* :mod:`.decode`: wire records (call and return bursts, valid/ready handshakes) into a trace;
* :mod:`.monitor`: the cocotb monitor that records those wire records in simulated cycles;
* :mod:`.wire_request`: the trace area through which the PYNQ process starts and stops the
  monitor on the simulated board (its hook: :mod:`pushpush.simboard.tracehook`);
* :mod:`.software`: events of the Python runtime (call issued, reply seen, callee
  entered/left);
* :mod:`.c_events`: the same events of C programs built with ``-DPP_TRACE`` (their trace
  rings), merged into a trace, or a trace of their own (a board);
* :mod:`.session`: ``with ol.trace("run.trace"):`` on the simulated board.

Example::

    from pushpush.trace import read_trace, summarize
    t = read_trace("run.trace")
    print(summarize(t).text())
"""

from .chrome import TraceFormatError, read_trace, to_chrome, write_trace
from .model import Call, Counter, Span, Trace
from .summary import Summary, summarize

__all__ = ["Call", "Counter", "Span", "Trace", "TraceFormatError", "read_trace", "to_chrome",
           "write_trace", "Summary", "summarize"]
