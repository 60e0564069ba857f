"""The boards a system can be built for (``board:`` in the YAML), one table of facts each.

Every fact carries where it comes from (:attr:`Board.sources`): PYNQ's own block designs and
board projects (``Xilinx/PYNQ`` ``boards/<board>/base/base.tcl``,
``boards/<board>/petalinux_bsp/hardware_project/*.tcl``), Kria-PYNQ's
(``Xilinx/Kria-PYNQ`` ``kv260/base/base.tcl``, ``install.sh``), PYNQ's runtime
(``pynq/ps.py``, ``pynq/pl_server/embedded_device.py``, ``pynq/pl_server/hwh_parser.py`` of
PYNQ 3.1.2) and Xilinx's manuals where no PYNQ source states it (UG585 for the Zynq-7000,
UG1085 for Zynq UltraScale+). docs/board.md lists them per board, with what CI checks
against a real file and what rests on documents only.

Two PS families:

* ``zynq`` (PYNQ-Z1, PYNQ-Z2; ``processing_system7``): the PL's registers behind
  ``M_AXI_GP0`` (0x40000000..0x7FFFFFFF), the PL's writes into the software windows through
  ``S_AXI_GP0`` (32-bit) or ``S_AXI_HP0`` (32/64-bit), fabric interrupts on ``IRQ_F2P``;
* ``zynqmp`` (ZCU104, KV260; ``zynq_ultra_ps_e``): the PL's registers behind
  ``M_AXI_HPM0_FPD`` (0xA0000000..0xAFFFFFFF), its writes through ``S_AXI_HP0_FPD``, fabric
  interrupts on ``pl_ps_irq0``; the windows in OCM through ``S_AXI_HPC0_FPD`` (Zynq's
  ``S_AXI_GP0``; the ZCU104 base design offers the HPC ports to the PL), the DMAs and buffer
  engines on ``S_AXI_HPn_FPD`` where a Zynq has ``S_AXI_HPn``. The PS's AXI ports are 128 bits wide by default; pushpush
  configures them at the fabric's width (32 or 64, which the PS accepts: UG1085 "PS-PL AXI
  Interfaces"), so no width converter sits in the fabric, and PYNQ programs the matching
  AFIFM/SLCR width registers at load from ``C_MAXIGP*``/``C_SAXIGP*_DATA_WIDTH`` in the ``.hwh``.

Example::

    from pushpush.boards import board
    b = board("zcu104")
    b.family, b.master_port, hex(b.pl_range[0])     # ('zynqmp', 'M_AXI_HPM0_FPD', '0xa0000000')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

__all__ = ["Board", "BOARDS", "BOARD_NAMES", "BOARD_TARGETS", "board", "pl_clock_divisors", "pl_clock_error",
           "pynq_version_error"]

_PYNQ = "Xilinx/PYNQ (v3.1, commit 19ed17d4)"
_KRIA = "Xilinx/Kria-PYNQ (commit 21bf5e1)"
#: Where PYNQ 4.0 left the Zynq-7000 boards out (checked 2026: the release page and the PR).
_PYNQ4 = ("Xilinx/PYNQ v4.0.0 release notes (github.com/Xilinx/PYNQ/releases/tag/v4.0.0, "
          "29 Sep 2026, d90670c), Deprecations: 'Support for Pynq-Z1 and Pynq-Z2 (Zynq-7000) "
          "boards is removed' (Xilinx/PYNQ#1577)")


@dataclass(frozen=True)
class Board:
    """One board's facts (see the module docstring); ``sources`` names where each comes from."""

    name: str
    title: str
    family: str                       # "zynq" | "zynqmp"
    part: str
    board_part_pattern: str
    ps_vlnv: str
    ps_instance: str
    master_port: str                  # the PS master the top's s_axi hangs on
    pl_range: tuple[int, int]         # [lo, hi) that master reaches
    default_pl: tuple[int, int]       # regions.pl when the YAML gives none (base, size)
    window_port: str                  # the PS slave the top's m_axi writes the windows through (OCM)
    ddr_port: str                     # ... for software_windows: ddr
    hp_ports: tuple[str, ...]         # the DMAs' and buffer engines' slave ports, in order
    slave_widths: tuple[int, ...]     # data widths those slave ports accept
    master_widths: tuple[int, ...]    # data widths the master port accepts
    ocm: tuple[int, int]              # the on-chip memory (base, size) the windows live in
    ddr_segment: tuple[str, int, int] # what Vivado assigns a PL master for DDR (name, base, size)
    ocm_segment: tuple[str, int, int] # ... for the OCM
    irq_port: str                     # the PS's fabric interrupt input
    irq_inputs: int
    raw_irq0: int                     # the GIC number of that input's bit 0
    ref_clk_mhz: float                # the PS reference clock
    pll_mhz: float                    # the PLL the PL clock 0 divides
    pl_clk: str                       # the PL clock 0's pin
    pl_rst: str                       # its reset's pin
    arch: str                         # the board's CPU (platform.machine() there)
    image: str                        # the PYNQ image
    os: str
    python: str
    pynq_majors: tuple[int, ...]      # the PYNQ major versions this board's images have (3: 3.x)
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_zynqmp(self) -> bool:
        return self.family == "zynqmp"

    @property
    def ps_modtype(self) -> str:
        return self.ps_vlnv.split(":")[2]

    def port(self, zynq_port: str) -> str:
        """This board's name of a PS port named as the link names it (the Zynq's):
        ``S_AXI_GP0`` (the windows in OCM) is ``S_AXI_HPC0_FPD`` on ZynqMP, ``S_AXI_HPn`` is
        ``S_AXI_HPn_FPD``, ``M_AXI_GP0`` is ``M_AXI_HPM0_FPD``; unchanged on a Zynq."""
        if not self.is_zynqmp:
            return zynq_port
        if zynq_port == "S_AXI_GP0":
            return self.window_port
        if zynq_port == "M_AXI_GP0":
            return self.master_port
        if zynq_port.startswith("S_AXI_HP"):
            return f"{zynq_port}_FPD"
        raise ValueError(f"no {self.title} port stands for the Zynq's {zynq_port}")

    @property
    def fuse_target(self) -> str:
        """The FuseSoC target (and ``pushpush build --target``) of this board: ``pynq_z1``..."""
        return self.name.replace("-", "_")


_ZYNQ_COMMON = dict(
    family="zynq", part="xc7z020clg400-1", ps_vlnv="xilinx.com:ip:processing_system7:5.5",
    ps_instance="processing_system7_0", master_port="M_AXI_GP0",
    pl_range=(0x4000_0000, 0x8000_0000), default_pl=(0x43C0_0000, 0x0040_0000),
    window_port="S_AXI_GP0", ddr_port="S_AXI_HP0",
    hp_ports=("S_AXI_HP0", "S_AXI_HP1", "S_AXI_HP2", "S_AXI_HP3"), slave_widths=(32, 64),
    master_widths=(32,), ocm=(0xFFFC_0000, 0x4_0000),
    ddr_segment=("HP0_DDR_LOWOCM", 0x0000_0000, 0x2000_0000),
    ocm_segment=("GP0_HIGH_OCM", 0xFFFC_0000, 0x4_0000),
    irq_port="IRQ_F2P", irq_inputs=16, raw_irq0=61, ref_clk_mhz=50.0, pll_mhz=1000.0,
    pl_clk="FCLK_CLK0", pl_rst="FCLK_RESET0_N", arch="armv7l", image="PYNQ v3.0.1",
    os="Ubuntu 22.04", python="3.10", pynq_majors=(3,),
)

_ZYNQ_SOURCES = {
    "part": "{p} boards/{b}/base/base.tcl: create_project ... -part xc7z020clg400-1",
    "ps_vlnv": "{p} boards/{b}/base/base.tcl: xilinx.com:ip:processing_system7:5.5",
    "pl_range": "UG585 table 4-1 (M_AXI_GP0: 0x4000_0000..0x7FFF_FFFF); PYNQ's base overlays place their IP there",
    "ocm": "UG585 4.1 (high OCM 0xFFFC_0000, 256 KiB); pynq/ps.py has no OCM fact",
    "ddr_segment": "resizer.hwh (Vivado 2019.2, 7z020): HP0_DDR_LOWOCM 0x00000000..0x1FFFFFFF",
    "irq_port": "{p} boards/{b}/base/base.tcl: xlconcat_0/dout -> ps7_0/IRQ_F2P, PCW_IRQ_F2P_INTR 1",
    "raw_irq0": "pynq/pl_server/hwh_parser.py (_HWHZynq: IRQ_F2P bit 0 is GIC 61); UG585 table 7-4",
    "ref_clk_mhz": "{p} boards/{b}/petalinux_bsp/hardware_project/{t}.tcl: PCW_CRYSTAL_PERIPHERAL_FREQMHZ {{50}}",
    "pll_mhz": "pynq/ps.py _ClocksZynq (IO PLL = 50 MHz x FBDIV 20 as the image's FSBL sets it); PCW_IO_IO_PLL_FREQMHZ 1000 in PYNQ-Z1 designs",
    "arch": "pynq/ps.py: ZYNQ_ARCH = 'armv7l'",
    "image": "{p} sdbuild (jammy): Ubuntu 22.04, Python 3.10 in /usr/local/share/pynq-venv",
    "pynq_majors": "3.x only: " + _PYNQ4 + "; the last images for this board are PYNQ 3.x",
}


def _zynq(name: str, title: str, board_part: str, bdir: str, tcl: str, extra: dict[str, str]) -> Board:
    src = {k: v.format(p=_PYNQ, b=bdir, t=tcl) for k, v in _ZYNQ_SOURCES.items()}
    src.update(extra)
    return Board(name=name, title=title, board_part_pattern=board_part, sources=src,
                 **_ZYNQ_COMMON)  # type: ignore[arg-type]


_ZU_COMMON = dict(
    family="zynqmp", ps_instance="zynq_ultra_ps_e_0", master_port="M_AXI_HPM0_FPD",
    pl_range=(0xA000_0000, 0xB000_0000), default_pl=(0xA000_0000, 0x0040_0000),
    window_port="S_AXI_HPC0_FPD", ddr_port="S_AXI_HP0_FPD",
    hp_ports=("S_AXI_HP0_FPD", "S_AXI_HP1_FPD", "S_AXI_HP2_FPD", "S_AXI_HP3_FPD"),
    slave_widths=(32, 64, 128), master_widths=(32, 64, 128), ocm=(0xFFFC_0000, 0x4_0000),
    ddr_segment=("HP0_DDR_LOW", 0x0000_0000, 0x8000_0000),
    ocm_segment=("HP0_LPS_OCM", 0xFF00_0000, 0x0100_0000),
    irq_port="pl_ps_irq0", irq_inputs=8, raw_irq0=121, ref_clk_mhz=33.333, pl_clk="pl_clk0",
    pl_rst="pl_resetn0", arch="aarch64", os="Ubuntu 22.04", python="3.10", pynq_majors=(3, 4),
)

_ZU_SOURCES = {
    "pl_range": "UG1085 table 10-1 (M_AXI_HPM0_FPD: 0xA000_0000, 256 MiB); documents only",
    "ocm": "UG1085 table 10-1 (OCM 0xFFFC_0000, 256 KiB), reached from S_AXI_HP*_FPD through the LPS_OCM segment",
    "ddr_segment": "{p} boards/ZCU104/base/base.tcl: assign_bd_address ... ps_e_0/SAXIGP2/HP0_DDR_LOW 0x0 range 0x80000000",
    "ocm_segment": "{p} boards/ZCU104/base/base.tcl: ... ps_e_0/SAXIGP2/HP0_LPS_OCM 0xFF000000 range 0x01000000",
    "irq_port": "{p} boards/ZCU104/base/base.tcl: xlconcat_0/dout -> ps_e_0/pl_ps_irq0 (PSU__USE__IRQ0 1)",
    "raw_irq0": "pynq/pl_server/hwh_parser.py (_HWHUltrascale: pl_ps_irq0 bit 0 is GIC 121)",
    "ref_clk_mhz": "pynq/ps.py _ClocksUltrascale.DEFAULT_SRC_CLK_MHZ = 33.333; PSU__PSS_REF_CLK__FREQMHZ {{33.333}} in kv260/base/base.tcl",
    "master_widths": "pynq/pl_server/embedded_device.py ZU_FPD_SLCR_VALUE/ZU_AXIFM_VALUE: 32, 64, 128",
    "arch": "pynq/ps.py: ZU_ARCH = 'aarch64'",
}

BOARDS: dict[str, Board] = {b.name: b for b in (
    _zynq("pynq-z1", "PYNQ-Z1", "*:pynq-z1:part0:*", "Pynq-Z1", "pynqz1", {
        "board_part_pattern": "Digilent's board files (www.digilentinc.com:pynq-z1:part0:1.0)"}),
    _zynq("pynq-z2", "PYNQ-Z2", "*:pynq-z2:part0:*", "Pynq-Z2", "pynqz2", {
        "board_part_pattern": "TUL's board files (tul.com.tw:pynq-z2:part0:1.0); PYNQ's base.tcl sets none",
        "ps_preset": f"{_PYNQ} boards/Pynq-Z2/petalinux_bsp/hardware_project/pynqz2.tcl: every PS7 "
                     "preset value equal to pynqz1.tcl's (tests/board/test_boards.py keeps the list)"}),
    Board(name="zcu104", title="ZCU104", part="xczu7ev-ffvc1156-2-e",
          board_part_pattern="*:zcu104:part0:*", ps_vlnv="xilinx.com:ip:zynq_ultra_ps_e:3.5",
          pll_mhz=1500.0, image="PYNQ v3.0.1 (ZCU104 image)", **_ZU_COMMON,  # type: ignore[arg-type]
          sources={**{k: v.format(p=_PYNQ) for k, v in _ZU_SOURCES.items()},
                   "part": f"{_PYNQ} boards/ZCU104/base/base.tcl: create_project ... -part xczu7ev-ffvc1156-2-e",
                   "board_part_pattern": f"{_PYNQ} boards/ZCU104/base/base.tcl: BOARD_PART xilinx.com:zcu104:part0:1.1",
                   "ps_vlnv": f"{_PYNQ} boards/ZCU104/base/base.tcl: xilinx.com:ip:zynq_ultra_ps_e:3.5",
                   "pll_mhz": "assumed, no PYNQ source states it: the IOPLL at 1500 MHz (33.333 MHz x 90 / 2, "
                              "nominal) of Vivado's ZCU104 preset; PYNQ's base design clocks PL0 from RPLL "
                              "(PSU__CRL_APB__PL0_REF_CTRL__SRCSEL {RPLL}, 99.999001 MHz actual)",
                   "image": f"{_PYNQ} sdbuild: Ubuntu 22.04 (jammy), Python 3.10, aarch64",
                   "pynq_majors": "3.x (the v3.0.1/v3.1 ZCU104 images) and 4.x: Xilinx/PYNQ#1583 "
                                  "'boards/ZCU104: migrate to AMD EDF 2025.2, ... release 4.0.0'; "
                                  + _PYNQ4 + " (only the Zynq-7000 boards)"}),
    Board(name="kv260", title="Kria KV260", part="xck26-sfvc784-2LV-c",
          board_part_pattern="*:kv260_som:part0:*", ps_vlnv="xilinx.com:ip:zynq_ultra_ps_e:3.3",
          pll_mhz=1000.0, image="Kria-PYNQ v3.0 on Kria Ubuntu", **_ZU_COMMON,  # type: ignore[arg-type]
          sources={**{k: v.format(p=_PYNQ) for k, v in _ZU_SOURCES.items()},
                   "part": f"{_KRIA} kv260/base/base.tcl: create_project ... -part xck26-sfvc784-2LV-c",
                   "board_part_pattern": f"{_KRIA} kv260/base/base.tcl: get_board_parts \"*:kv260:*\"",
                   "ps_vlnv": f"{_KRIA} kv260/base/base.tcl: xilinx.com:ip:zynq_ultra_ps_e:3.3",
                   "pll_mhz": f"{_KRIA} kv260/base/base.tcl: IOPLL FBDIV 60, DIV2 1 (33.333 x 60 / 2 = 1000 MHz); PL0_REF_CTRL SRCSEL IOPLL, 100 MHz",
                   "irq_port": f"{_KRIA} kv260/base/base.tcl: axi_intc/irq -> zynq_ultra_ps_e_0/pl_ps_irq0",
                   "image": f"{_KRIA} install.sh: Ubuntu 22.04 only, python3.10-venv, /usr/local/share/pynq-venv",
                   "pynq_majors": f"3.x: {_KRIA} install.sh installs PYNQ v3.0.1 (Xilinx/Kria-PYNQ#25); "
                                  "4.x: allowed, as " + _PYNQ4 + " removes only the Zynq-7000 "
                                  "boards; no Kria-PYNQ 4.x install was found to cite (assumed)"}),
)}

#: The names ``board:`` takes (and ``none``: simulation only).
BOARD_NAMES: tuple[str, ...] = tuple(BOARDS)
#: The ``pushpush build --target`` of each board's bitstream (Vivado), in the same order.
BOARD_TARGETS: tuple[str, ...] = tuple(name.replace("-", "_") for name in BOARD_NAMES)


def board(name: Optional[str]) -> Board:
    """The board called ``name``; ``none`` (simulation only) and None give the PYNQ-Z1, whose
    addresses a board-less system has always had."""
    if name in (None, "none"):
        return BOARDS["pynq-z1"]
    try:
        return BOARDS[name]      # type: ignore[index]
    except KeyError:
        raise ValueError(f"unknown board {name!r}: use one of {', '.join(BOARD_NAMES)}") from None


def pynq_version_error(b: Board, version: str) -> Optional[str]:
    """Why PYNQ ``version`` (e.g. ``"4.0.0"``) cannot drive board ``b`` (its images have
    other PYNQ majors, :attr:`Board.pynq_majors`), with the fix; None when it can (or when
    ``version`` does not start with a number: nothing to judge)."""
    m = re.match(r"\s*v?(\d+)", version)
    if m is None or int(m.group(1)) in b.pynq_majors:
        return None
    major = int(m.group(1))
    has = " and ".join(f"{n}.x" for n in b.pynq_majors)
    dropped = (f"PYNQ {major}.0 dropped it (PYNQ v4.0.0 release notes, Deprecations)"
               if major > max(b.pynq_majors) else f"PYNQ {major}.x is older than pushpush supports")
    wanted = f"pynq>={min(b.pynq_majors)}.0,<{max(b.pynq_majors) + 1}"
    return (f"the {b.title} has PYNQ {has} images; this board runs PYNQ {version}, and "
            f"{dropped}: flash {b.image} onto its SD card, or put a PYNQ it runs back into this "
            f"environment (pip install '{wanted}'; a pip install of pushpush-fpga[pynq] or of "
            f"another package may have replaced the image's PYNQ)")


def pl_clock_divisors(pll_mhz: float, mhz: float, family: str = "zynq") -> tuple[int, int]:
    """The two 6-bit divisors of ``pll_mhz`` nearest ``mhz``, split as Vivado splits them:
    on a Zynq (processing_system7) of the pairs with that product the smallest sum, then the
    larger first divisor (100 of 1000 MHz: 5 x 2; of 1600: 4 x 4); on ZynqMP
    (zynq_ultra_ps_e) the whole product in the first while it fits (100 of 1500 MHz: 15 x 1,
    as rfsoc_sam.hwh has it). :func:`pushpush.codegen.vivado.fclk_divisors` cites both."""
    if mhz <= 0:
        raise ValueError(f"clock_mhz must be positive, not {mhz}")
    best: Optional[tuple[float, int, int, int, int]] = None
    for d1 in range(1, 64):
        for d0 in range(1, 64):
            split = d0 + d1 if family == "zynq" else d1
            key = (round(abs(pll_mhz / (d0 * d1) - mhz), 9), d0 * d1, split, d1, d0)
            if best is None or key < best:
                best = key
    assert best is not None
    return best[4], best[3]


def pl_clock_error(b: Board, mhz: float) -> Optional[str]:
    """Why ``b``'s PL clock 0 cannot run at ``mhz`` (its PLL over two 6-bit divisors must
    make it to the Hz: the top's clock declares that rate), or None when it can."""
    d0, d1 = pl_clock_divisors(b.pll_mhz, mhz, b.family)
    got = round(b.pll_mhz / (d0 * d1), 6)
    if int(round(got * 1e6)) == int(round(mhz * 1e6)):
        return None
    return (f"clock_mhz: {mhz:g} cannot be made by the {b.title}'s {b.pl_clk} ({b.pll_mhz:g} MHz / "
            f"{d0} / {d1} = {got:g} MHz is the nearest); use a rate {b.pll_mhz:g} MHz divides "
            f"into whole Hz, e.g. 50, 100, 125 or 250")
