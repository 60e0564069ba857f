"""The PS registers PYNQ touches on a Zynq UltraScale+ board, for the simulated board.

On a ZynqMP board PYNQ programs, through ``/dev/mem``:

* the PL clocks (``pynq.ps._ClocksUltrascale``): ``CRL_APB`` (0xFF5E0000: ``IOPLL_CTRL``
  0x20, ``RPLL_CTRL`` 0x30, ``PL0..3_REF_CTRL`` 0xC0..0xCC) and ``CRF_APB`` (0xFD1A0000:
  ``APLL/DPLL/VPLL_CTRL``, ``ACPU_CTRL`` 0x60);
* the PS-PL AXI port widths at load (``EmbeddedDevice.set_axi_port_width`` from the
  ``.hwh``'s ``C_MAXIGP*``/``C_SAXIGP*_DATA_WIDTH``): ``FPD_SLCR`` 0xFD615000,
  ``LPD_SLCR`` 0xFF419000 and the AFIFM blocks 0xFD360000..0xFD3B0000, 0xFF9B0000.

:class:`ZynqMpRegs` holds those 4 KiB pages as plain memory with the reset values a PYNQ
image's FSBL leaves (the board's IOPLL, PL0 from it, the CPU at 1.2 GHz), so PYNQ's own
``Clocks`` and ``set_axi_port_width`` run unchanged on the simulated ZCU104/KV260, and
:meth:`ZynqMpRegs.pl_clk_mhz`/:meth:`ZynqMpRegs.port_width` read back what PYNQ wrote.

Example::

    regs = ZynqMpRegs(pll_mhz=1500.0)
    regs.pl_clk_mhz(0)          # 100.0 (IOPLL 1500 / 15 / 1 at reset)
"""

from __future__ import annotations

import struct
from typing import Optional

__all__ = ["ZynqMpRegs", "CRL_APB", "CRF_APB", "FPD_SLCR", "LPD_SLCR", "AFIFM"]

CRL_APB, CRF_APB = 0xFF5E_0000, 0xFD1A_0000
FPD_SLCR, LPD_SLCR = 0xFD61_5000, 0xFF41_9000
#: The AFIFM blocks of S_AXI_HPC0_FPD .. S_AXI_HP3_FPD (SAXIGP0..5) and S_AXI_LPD (SAXIGP6).
AFIFM = (0xFD36_0000, 0xFD37_0000, 0xFD38_0000, 0xFD39_0000, 0xFD3A_0000, 0xFD3B_0000,
         0xFF9B_0000)
_PAGE = 0x1000
#: PYNQ's encodings (embedded_device.py ZU_FPD_SLCR_VALUE, ZU_AXIFM_VALUE), inverted.
_DW_SS = {0: 32, 1: 64, 2: 128}
_FABRIC_WIDTH = {2: 32, 1: 64, 0: 128}


class ZynqMpRegs:
    """The ZynqMP PS register pages PYNQ reads and writes (see the module docstring)."""

    def __init__(self, pll_mhz: float, ref_mhz: float = 33.333) -> None:
        self.ref_mhz = ref_mhz
        self.pll_mhz = pll_mhz
        self.pages: dict[int, bytearray] = {
            base: bytearray(_PAGE) for base in (CRL_APB, CRF_APB, FPD_SLCR, LPD_SLCR, *AFIFM)}
        fbdiv = int(round(pll_mhz * 2 / ref_mhz))
        pll = (1 << 16) | (fbdiv << 8)                      # DIV2, FBDIV, PRE_SRC 0
        self._put(CRL_APB + 0x20, pll)                      # IOPLL_CTRL
        self._put(CRL_APB + 0x30, pll)                      # RPLL_CTRL
        for i in range(4):                                  # PL<i>_REF_CTRL: off, IOPLL
            self._put(CRL_APB + 0xC0 + 4 * i, (1 << 16) | (1 << 8))
        self._put(CRF_APB + 0x20, (1 << 16) | (72 << 8))    # APLL 33.333 x 72 / 2 = 1.2 GHz
        self._put(CRF_APB + 0x2C, pll)
        self._put(CRF_APB + 0x38, pll)
        self._put(CRF_APB + 0x60, 1 << 8)                   # ACPU_CTRL: APLL / 1

    def _put(self, address: int, value: int) -> None:
        page, off = self._where(address, 4)
        struct.pack_into("<I", page, off, value)

    def _get(self, address: int) -> int:
        page, off = self._where(address, 4)
        return struct.unpack_from("<I", page, off)[0]

    def _where(self, address: int, length: int) -> tuple[bytearray, int]:
        base = address & ~(_PAGE - 1)
        page = self.pages.get(base)
        if page is None or (address - base) + length > _PAGE:
            raise KeyError(address)
        return page, address - base

    def contains(self, address: int, length: int) -> bool:
        base = address & ~(_PAGE - 1)
        return base in self.pages and (address - base) + length <= _PAGE

    def read(self, address: int, length: int) -> bytes:
        page, off = self._where(address, length)
        return bytes(page[off:off + length])

    def write(self, address: int, data: bytes) -> None:
        page, off = self._where(address, len(data))
        page[off:off + len(data)] = data

    def pl_clk_mhz(self, idx: int) -> Optional[float]:
        """PL clock ``idx``'s rate as the registers set it (None: off or not from IOPLL)."""
        ctrl = self._get(CRL_APB + 0xC0 + 4 * idx)
        if not (ctrl >> 24) & 1 or ctrl & 7:
            return None
        d0, d1 = (ctrl >> 8) & 0x3F, (ctrl >> 16) & 0x3F
        pll = self._get(CRL_APB + 0x20)
        fbdiv, div2 = (pll >> 8) & 0x7F, (pll >> 16) & 1
        if not (d0 and d1 and fbdiv):
            return None
        return round(self.ref_mhz * fbdiv / (2 if div2 else 1) / (d0 * d1), 6)

    def port_width(self, port: str) -> int:
        """The width PYNQ programmed for ``port``: ``"MAXIGP0"`` (FPD_SLCR DW_SS0_SEL) or
        ``"SAXIGP<n>"`` (AFIFM<n> write-channel FABRIC_WIDTH)."""
        if port == "MAXIGP0":
            return _DW_SS[(self._get(FPD_SLCR) >> 8) & 3]
        if port.startswith("SAXIGP"):
            return _FABRIC_WIDTH[self._get(AFIFM[int(port[6:])] + 0x14) & 3]
        raise ValueError(f"no width register for {port}")
