"""Where the benchmarks find their files, wherever the module asking sits below ``pushpush/bench``.

- :data:`RTL_DIR`: the benchmarks' own Verilog (``pushpush/bench/rtl``: the fairness harness,
  the dma and channels benches' user modules), shipped in the package;
- :data:`CHECKOUT`: the folder holding the ``pushpush`` package, in a checkout its root (the
  benchmarks that measure a test system read it from ``tests/`` there; ``git`` runs there).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["RTL_DIR", "CHECKOUT"]

RTL_DIR = Path(__file__).resolve().parent / "rtl"
CHECKOUT = Path(__file__).resolve().parents[2]
