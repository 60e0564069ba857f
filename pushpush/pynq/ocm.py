"""The on-chip memory's mapping on a Zynq-7000: whether the ``ps`` region is where the PL writes.

The software windows (``software_windows: ocm``) live in the ARM's on-chip memory at its high
addresses (0xFFFC0000..). Each 64 KiB bank is mapped high or low by the SLCR's ``OCM_CFG``
(UG585); a boot loader may leave a bank low, and the PL's writes there would reach no memory.
:func:`check_ocm_mapping` says so (:class:`OcmMappingError`, with the fix) before anything is
mapped; :func:`read_ocm_cfg` reads the register through PYNQ (``/dev/mem`` on the board, the
simulated SLCR on the simulated board). Used by :mod:`.windows` when it opens the windows and
by the overlay after a download (docs/board.md).
"""

from __future__ import annotations

from typing import Any

__all__ = ["OcmMappingError", "check_ocm_mapping", "read_ocm_cfg", "SLCR_BASE", "OCM_CFG_OFFSET",
           "OCM_HIGH_BASE", "OCM_BANK_BYTES"]


class OcmMappingError(RuntimeError):
    """The software windows' on-chip memory is not where the design expects it."""


#: The Zynq-7000 SLCR and its OCM_CFG register (UG585: RAM_HI, bits 3:0, one per 64 KiB
#: bank of the on-chip memory; a set bit maps the bank at 0xFFFC0000 + bank * 64 KiB).
SLCR_BASE = 0xF800_0000
OCM_CFG_OFFSET = 0x910
OCM_HIGH_BASE = 0xFFFC_0000
OCM_BANK_BYTES = 0x1_0000


def read_ocm_cfg(device: Any) -> int:
    """``OCM_CFG`` as the ARM reads it (through PYNQ's MMIO: ``/dev/mem`` on the board, the
    simulated SLCR on the simulated board)."""
    from pynq import MMIO   # PYNQ is optional: imported where the register is read
    return int(MMIO(SLCR_BASE, 0x1000, device=device).read(OCM_CFG_OFFSET))


def check_ocm_mapping(ocm_cfg: int, base: int, size: int, system: str = "the system") -> None:
    """Raise :class:`OcmMappingError` unless every 64 KiB OCM bank that ``[base, base+size)``
    touches in the high range is mapped high by ``ocm_cfg``. Regions below 0xFFFC0000 (DDR)
    are not in the OCM's high range and pass.

    >>> check_ocm_mapping(0x1F, 0xFFFC0000, 0x4000)
    >>> check_ocm_mapping(0x18, 0xFFFF0000, 0x4000)
    """
    end = base + size
    if end <= OCM_HIGH_BASE:
        return
    first = (max(base, OCM_HIGH_BASE) - OCM_HIGH_BASE) // OCM_BANK_BYTES
    last = (end - 1 - OCM_HIGH_BASE) // OCM_BANK_BYTES
    missing = [b for b in range(first, last + 1) if not (ocm_cfg >> b) & 1]
    if not missing:
        return
    high = [b for b in range(4) if (ocm_cfg >> b) & 1]

    def span(b: int) -> str:
        lo = OCM_HIGH_BASE + b * OCM_BANK_BYTES
        return f"bank {b} (0x{lo:08X}..0x{lo + OCM_BANK_BYTES - 1:08X})"

    have = ", ".join(span(b) for b in high) if high else "no bank"
    raise OcmMappingError(
        f"{system}: the software windows are at 0x{base:08X}..0x{end - 1:08X} in the on-chip "
        f"memory's high range, but OCM_CFG (SLCR 0x{SLCR_BASE + OCM_CFG_OFFSET:08X}) = "
        f"0x{ocm_cfg:02X} maps {have} high and leaves "
        f"{', '.join(span(b) for b in missing)} low, so the PL's writes there would reach no "
        f"memory. Fix: move regions.ps into a bank that is mapped high (e.g. base: "
        f"0x{OCM_HIGH_BASE + high[-1] * OCM_BANK_BYTES:08X}) and rebuild, or have the boot "
        f"loader map the banks high (OCM_CFG = 0x1F, as U-Boot's Zynq SPL does); see docs/board.md"
        if high else
        f"{system}: the software windows are at 0x{base:08X}..0x{end - 1:08X} in the on-chip "
        f"memory's high range, but OCM_CFG (SLCR 0x{SLCR_BASE + OCM_CFG_OFFSET:08X}) = "
        f"0x{ocm_cfg:02X} maps no bank high; have the boot loader map them (OCM_CFG = 0x1F, "
        f"as U-Boot's Zynq SPL does); see docs/board.md")
