"""The overlay's AXI DMAs behind their memory firewalls (``dma:`` and ``firewall:``).

:func:`guard_dma` is called by :class:`pushpush.pynq.overlay.PushPushOverlay` for every
attribute PYNQ's ``Overlay`` gives: for a DMA of a system whose DMAs have firewalls
(:attr:`pushpush.link.DmaBlock.firewall`) it replaces that instance's ``sendchannel`` and
``recvchannel`` by :class:`pushpush.runtime.dma_firewall.GuardedChannel` (once; the
instance stays PYNQ's ``pynq.lib.dma.DMA``, and PYNQ's driver is not changed for anything
else), over the firewall's register page mapped with ``pynq.MMIO`` (GP0), on a board and on
the simulated board alike. :func:`reset_dma` makes a DMA usable after a refusal.
"""

from __future__ import annotations

import time
from typing import Any

from pynq import MMIO
from pynq.lib.dma import DMA

from pushpush.runtime.dma_firewall import CHANNELS, DmaFirewall, GuardedChannel

__all__ = ["guard_dma", "reset_dma"]

#: How long :func:`reset_dma` waits for the DMA's soft reset (its outstanding bursts end).
RESET_TIMEOUT_S = 5.0


def guard_dma(ol: Any, key: str, obj: Any) -> Any:
    """``obj`` (overlay ``ol``'s attribute ``key``), its channels guarded when it is a DMA
    with a memory firewall."""
    if not isinstance(obj, DMA):   # (never getattr on others: the top's driver would start a runtime)
        return obj
    if all(isinstance(getattr(obj, c), (GuardedChannel, type(None))) for c in CHANNELS):
        return obj
    from .overlay_files import map_path_for
    if not map_path_for(ol.bitfile_name).exists():
        return obj
    dma = next((d for d in ol.system.linked.dmas if d.name == key), None)
    if dma is None or dma.firewall is None:
        return obj
    regs = MMIO(dma.firewall.base, dma.firewall.size, device=ol.device)
    fw = DmaFirewall(dma, lambda o: int(regs.read(o)), lambda o, v: regs.write(o, int(v)))
    for c in CHANNELS:
        inner = getattr(obj, c)
        if inner is not None:
            setattr(obj, c, GuardedChannel(inner, c, fw))
    obj.firewall = fw
    return obj


def reset_dma(dma: Any, timeout: float = RESET_TIMEOUT_S) -> None:
    """Soft-reset ``dma`` (DMACR.Reset: both channels stop, their error bits clear) and start
    both channels again (PYNQ's ``start()``); their firewall entries close. Raises
    TimeoutError when the reset has not completed within ``timeout`` seconds."""
    dma.mmio.write(0x0, 0x4)
    end = time.monotonic() + timeout
    while int(dma.mmio.read(0x0)) & 0x4:
        if time.monotonic() > end:
            raise TimeoutError(f"the DMA at 0x{int(dma.mmio.base_addr):08X} is still resetting after "
                               f"{timeout} s (DMACR.Reset reads 1: a burst of it has not been "
                               "answered by memory)")
        time.sleep(0.001)
    for c in CHANNELS:
        ch = getattr(dma, c, None)
        if ch is None:
            continue
        if isinstance(ch, GuardedChannel):
            ch.stop()   # halted already: closes its entry
        ch.start()
