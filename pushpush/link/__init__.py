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
from .linker import link, load, window_size_for
from .model import (
    DMA_FIRST_PAGE, DMA_HP_PORTS, DMA_PAGE_BYTES, IRQ_BLOCK_BYTES, IRQ_ENABLE_CLEAR,
    IRQ_ENABLE_SET, IRQ_MAX_BITS, IRQ_PENDING_OFFSET, MAX_INTERCONNECT_PORTS, SLOT_KINDS,
    WORD_BYTES, CallbackInfo, ChannelInfo, DmaBlock, ExportInfo, ImportInfo, IrqBlock,
    LinkedComponent, LinkedSystem, Slot, SlotKind, WordSpan,
)

__all__ = [
    "ChannelInfo",
    "WORD_BYTES",
    "SLOT_KINDS",
    "SlotKind",
    "WordSpan",
    "Slot",
    "CallbackInfo",
    "ExportInfo",
    "ImportInfo",
    "LinkedComponent",
    "LinkedSystem",
    "IrqBlock",
    "DmaBlock",
    "DMA_PAGE_BYTES",
    "DMA_FIRST_PAGE",
    "DMA_HP_PORTS",
    "IRQ_BLOCK_BYTES",
    "IRQ_MAX_BITS",
    "IRQ_PENDING_OFFSET", "IRQ_ENABLE_SET", "IRQ_ENABLE_CLEAR",
    "MAX_INTERCONNECT_PORTS",
    "link",
    "load",
    "window_size_for",
]
