"""``pushpush bench callpath``: what a Python call costs.

Two parts: :mod:`.cpu`, the Python runtime's CPU time per call against the in-memory bus
(sync, asyncio, served; the runtime's share beside the bus's), and :mod:`.board`
(``--board``), the uncached accesses of each kind of Python call on the simulated board and
the PYNQ-Z1 estimate they give.
"""

from .cpu import (COLUMNS, SYSTEM, TARGET_US, best_rows, check_target, format_table, run, run_callpath,
                  run_rounds, run_tree)

__all__ = ["COLUMNS", "SYSTEM", "TARGET_US", "best_rows", "check_target", "format_table", "run",
           "run_callpath", "run_rounds", "run_tree"]
