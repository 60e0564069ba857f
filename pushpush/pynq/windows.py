"""Where the software components' windows live on a loaded overlay: the ``ps`` region.

``software_windows: ocm`` (the default): the ARM's on-chip memory at the ``ps`` region's own
addresses (0xFFFC0000..), mapped with ``device.mmap`` (``/dev/mem`` on the board, shared
memory on the simulated board) after :func:`~pushpush.pynq.ocm.check_ocm_mapping` has read
``OCM_CFG``. The PL reaches it through ``S_AXI_GP0``.

``software_windows: ddr``: a ``pynq.allocate`` buffer of the ``ps`` region's size, in DDR
(XRT/CMA on the board, the simulated DDR on the simulated board), which the PL reaches
through ``S_AXI_HP0``. The ``ps`` region's addresses are then *link* addresses: the system
top's ``pp_ps_window`` (cores/ps_window) adds ``BASE - ps.base`` to every PL-to-PS address,
and :class:`SoftwareWindows` writes ``BASE`` (the buffer's physical address, with ENABLE) into
that register through GP0 when it allocates the buffer, and 0 before the buffer is freed.
Until then the PL's writes toward software wait (ENABLE is 0) instead of landing anywhere.

Cache coherence: the buffer is allocated ``cacheable=0`` (PYNQ's default; an uncached
mapping on the board), like the OCM window, so the ARM's loads see what the PL stored through
HP0 and nothing is held in the ARM's caches: no ``flush``/``invalidate`` is needed on the
polling path. The PL never reads a software window (only its owner does, §2), so there is
nothing to flush for it. ``pynq.allocate(..., cacheable=1)`` buffers of the user's are a
different matter: on the simulated board they behave as on the board (flush before the PL
reads, invalidate before the ARM reads what the PL wrote; docs/pynq.md).

Example::

    windows = SoftwareWindows.open(linked, ol.device)
    windows.view[:4]          # the first words of the ps region (a numpy uint32 view)
    windows.physical(linked.ps.base)   # where the PL's writes to that link address land
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pushpush.boards import board
from pushpush.link import LinkedSystem

from .ocm import check_ocm_mapping, read_ocm_cfg

__all__ = ["SoftwareWindows", "WindowRegisterError"]


class WindowRegisterError(RuntimeError):
    """The PL's software-window base register did not take the buffer's address."""


class SoftwareWindows:
    """The memory of the ``ps`` region of one loaded overlay (see the module docstring).

    ``view`` is a uint32 numpy array over the whole region; ``physical(addr)`` maps a link
    address of the region to the physical address the PL's writes reach."""

    def __init__(self, linked: LinkedSystem, device: Any, view: np.ndarray, phys_base: int,
                 buffer: Any = None, register: Any = None) -> None:
        self.linked = linked
        self.device = device
        self.view = view
        self.phys_base = phys_base
        self.buffer = buffer
        self._register = register

    @classmethod
    def open(cls, linked: LinkedSystem, device: Any) -> "SoftwareWindows":
        """The windows of ``linked`` on ``device``; for ``ddr``, allocates the buffer and
        writes the base register (its GP0 address comes from the linked model:
        ``linked.ps_window_register``)."""
        ps = linked.ps
        if linked.software_windows != "ddr":
            if not board(linked.board).is_zynqmp:   # ZynqMP's OCM is always at 0xFFFC0000
                check_ocm_mapping(read_ocm_cfg(device), ps.base, ps.size, f"system '{linked.name}'")
            return cls(linked, device, device.mmap(ps.base, ps.size), ps.base)
        import pynq

        buf = pynq.allocate((ps.size // 4,), np.uint32, target=device, cacheable=0)
        buf[:] = 0
        phys = int(buf.physical_address)
        if phys % 4096:
            raise WindowRegisterError(
                f"system '{linked.name}': pynq.allocate gave the software windows' buffer the "
                f"physical address 0x{phys:08X}, which is not 4 KiB aligned as the PL's base "
                "register (cores/ps_window) needs")
        reg_addr = linked.ps_window_register
        register = None
        if reg_addr is not None:
            register = pynq.MMIO(reg_addr, 0x1000, device=device)
            register.write(0x0, phys | 1)
            got = int(register.read(0x0))
            link, size = int(register.read(0x4)), int(register.read(0x8))
            if got != (phys | 1) or (link, size) != (ps.base, ps.size):
                raise WindowRegisterError(
                    f"system '{linked.name}': the software windows' base register at "
                    f"0x{reg_addr:08X} reads BASE 0x{got:08X} (wrote 0x{phys | 1:08X}), LINK "
                    f"0x{link:08X}, SIZE 0x{size:X} (expected 0x{ps.base:08X}, 0x{ps.size:X}): "
                    "the bitstream is not this system's build with software_windows: ddr; "
                    "rebuild it from the same system.yaml")
        return cls(linked, device, buf, phys, buffer=buf, register=register)

    @property
    def memory(self) -> str:
        return self.linked.software_windows

    def physical(self, address: int) -> int:
        """The physical address the PL's write to link ``address`` (in ``ps``) reaches."""
        return self.phys_base + (address - self.linked.ps.base)

    def clear(self) -> None:
        """Zero the software components' windows (a previous system's words there would
        look like calls to this one's runtime)."""
        ps = self.linked.ps
        for comp in self.linked.components:
            if comp.is_software and ps.base <= comp.base and comp.end <= ps.end:
                lo = (comp.base - ps.base) >> 2
                self.view[lo:lo + (comp.size >> 2)] = 0

    def close(self) -> None:
        """``ddr``: close the PL's gate (BASE = 0) before the buffer may be freed."""
        if self._register is not None:
            try:
                self._register.write(0x0, 0)
            except Exception:  # the overlay is gone already: nothing can write any more
                pass
            self._register = None
