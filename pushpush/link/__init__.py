"""The linker: a checked :class:`~pushpush.spec.SystemSpec` in, a :class:`LinkedSystem` out.

- :mod:`~pushpush.link.model`: the linked model (windows, slots, addresses, the interrupt
  block, DMA pages, channels), plain values that every later layer reads;
- :mod:`~pushpush.link.linker`: the algorithm that places all of it (:func:`link`) and
  :func:`load` (read, check and link a ``system.yaml``).

>>> from pushpush.link import link
>>> from pushpush.spec import parse_system
>>> linked = link(parse_system("system: s\\ncomponents:\\n  a: {kind: python}\\n"))
>>> hex(linked.component("a").base)
'0xfffc0000'
"""

from __future__ import annotations

from ..spec import WAIT_MODES  # noqa: F401  (re-exported: the runtime's wait modes)
from .linker import link, load, load_csim, window_size_for
from .model import *  # noqa: F401,F403  (the linked model's public names)
from .model import __all__ as _MODEL_NAMES

__all__ = [*_MODEL_NAMES, "link", "load", "load_csim", "window_size_for"]
