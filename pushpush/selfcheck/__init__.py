"""The board self-check (``pushpush selfcheck``, like PYNQ's ``pynq-selftest``).

:func:`run_selfcheck` (:mod:`.checks`) checks the image (Python, PYNQ, access to the PL),
loads the shipped overlays (the board's builds, or the simulated board where there is no
board), makes calls every way (Python, C and Verilog, both directions), one DMA transfer and
one interrupt wait, and returns a :class:`Report` (:mod:`.report`): pass, fail or skipped
with why, per check, as markdown and JSON for a bug report.

>>> from pushpush.selfcheck import run_selfcheck        # doctest: +SKIP
>>> report = run_selfcheck(["image", "pingpong"])       # doctest: +SKIP
>>> print(report.summary())                             # doctest: +SKIP
selfcheck: 9 passed, 0 failed, 0 skipped: all passed
"""

from .checks import GROUPS, run_selfcheck
from .report import Check, Report, Skip

__all__ = ["GROUPS", "run_selfcheck", "Check", "Report", "Skip"]
