"""The Vivado block-design tcl ``vivado/<system>_bd.tcl`` for the system's board.

On the PYNQ-Z1/Z2 (below); on the ZCU104/KV260 the same design with ``zynq_ultra_ps_e``
(:func:`zu_ps_settings`, :func:`ps_slave`): the board preset (board files required),
``M_AXI_HPM0_FPD`` into the top, the windows through ``S_AXI_HPC0_FPD`` (OCM) or
``S_AXI_HP0_FPD`` (DDR), every PS port at the fabric's width, ``pl_clk0``/``pl_resetn0``, the
interrupt controller's ``irq`` on ``pl_ps_irq0`` (docs/board.md, "The ZCU104/KV260 block
design").

The design: ``processing_system7`` with the PYNQ-Z1 preset (the board files' preset when
the project has the board part, else the board's values set explicitly), FCLK_CLK0 at the
system's ``clock_mhz``, the generated system top as a module reference, M_AXI_GP0 (AXI3)
through a SmartConnect into the top's ``s_axi``, the top's ``m_axi`` through a SmartConnect
into S_AXI_GP0 toward the on-chip memory that holds the software windows, the top's
interrupt (when it has the interrupt block, ``LinkedSystem.irq``) and the AXI DMAs'
``mm2s_introut``/``s2mm_introut`` through an ``xlconcat`` into ``axi_intc_0`` to ``IRQ_F2P``
(what PYNQ's ``pynq.Interrupt`` needs; :func:`interrupt_sources` numbers its inputs), and
the address map of the linked model
(``assign_bd_address``). The block design's HDL wrapper
(``<system>_bd_wrapper``) is made the project's top. The top's clock and reset are declared
by ``X_INTERFACE_INFO``/``X_INTERFACE_PARAMETER`` attributes in its Verilog
(``templates/verilog/top.v.j2``), so nothing here sets interface properties. Every Vivado
command the tcl uses is checked without Vivado by ``tests/board/test_bd_tcl.py`` (tclsh with
stand-ins that know each command's options, ``tests/board/vivado_standin.tcl``).

Every number comes from the linked model; nothing is recomputed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pushpush.link import IRQ_BLOCK_BYTES, LinkedSystem, pl_block

from .render import GenerateError, generated_header, render_template
from .fabric import (BUF_DATA_WIDTH, buffer_port, dma_firewall_name, pl_components, rtl_components,
                     top_module_name)

__all__ = [
    "PYNQ_Z1_BOARD_PART_PATTERN",
    "PYNQ_Z1_PART",
    "PYNQ_Z1_PS7_PRESET",
    "bd_design_name",
    "bd_tcl_path",
    "bd_wrapper_name",
    "dma_cells",
    "DMA_VLNV",
    "intc_address_block",
    "interrupt_sources",
    "INTC_CONCAT",
    "INTC_INSTANCE",
    "INTC_VLNV",
    "pl_address_block",
    "ps_pl_settings",
    "ps_port",
    "render_bd_tcl",
    "has_block_design",
    "top_clock_hz",
    "TOP_INSTANCE",
]

PYNQ_Z1_PART = "xc7z020clg400-1"
#: Name of the system top's cell in the block design.
TOP_INSTANCE = "system_top_0"

#: The PYNQ-Z1's board part (Digilent's board files). The block-design tcl sets it on the
#: project when Vivado has those board files installed and then applies the board's preset.
PYNQ_Z1_BOARD_PART_PATTERN = "*:pynq-z1:part0:*"

#: PS7 settings of the PYNQ-Z1 (used when the board files are not installed). Every value is
#: the one PYNQ's own PYNQ-Z1 PetaLinux hardware project sets (Xilinx/PYNQ,
#: boards/Pynq-Z1/petalinux_bsp/hardware_project/pynqz1.tcl): the project that makes the
#: image's FSBL, so the one the board boots with; docs/board.md lists each value with its
#: line there and in the base overlay (boards/Pynq-Z1/base/base.tcl).
PYNQ_Z1_PS7_PRESET: tuple[tuple[str, str], ...] = (
    ("PCW_PRESET_BANK0_VOLTAGE", "LVCMOS 3.3V"),
    ("PCW_PRESET_BANK1_VOLTAGE", "LVCMOS 1.8V"),
    ("PCW_CRYSTAL_PERIPHERAL_FREQMHZ", "50"),
    ("PCW_APU_PERIPHERAL_FREQMHZ", "650"),
    ("PCW_UIPARAM_DDR_MEMORY_TYPE", "DDR 3"),
    ("PCW_UIPARAM_DDR_PARTNO", "MT41J256M16 RE-125"),
    ("PCW_UIPARAM_DDR_BUS_WIDTH", "16 Bit"),
    ("PCW_UIPARAM_DDR_FREQ_MHZ", "525"),
    ("PCW_UIPARAM_DDR_TRAIN_WRITE_LEVEL", "1"),
    ("PCW_UIPARAM_DDR_TRAIN_READ_GATE", "1"),
    ("PCW_UIPARAM_DDR_TRAIN_DATA_EYE", "1"),
    ("PCW_UIPARAM_DDR_BOARD_DELAY0", "0.223"),
    ("PCW_UIPARAM_DDR_BOARD_DELAY1", "0.212"),
    ("PCW_UIPARAM_DDR_BOARD_DELAY2", "0.085"),
    ("PCW_UIPARAM_DDR_BOARD_DELAY3", "0.092"),
    ("PCW_UIPARAM_DDR_DQS_TO_CLK_DELAY_0", "0.040"),
    ("PCW_UIPARAM_DDR_DQS_TO_CLK_DELAY_1", "0.058"),
    ("PCW_UIPARAM_DDR_DQS_TO_CLK_DELAY_2", "-0.009"),
    ("PCW_UIPARAM_DDR_DQS_TO_CLK_DELAY_3", "-0.033"),
    ("PCW_QSPI_PERIPHERAL_ENABLE", "1"),
    ("PCW_QSPI_GRP_SINGLE_SS_ENABLE", "1"),
    ("PCW_QSPI_GRP_FBCLK_ENABLE", "1"),
    ("PCW_QSPI_GRP_FBCLK_IO", "MIO 8"),
    ("PCW_ENET0_PERIPHERAL_ENABLE", "1"),
    ("PCW_ENET0_ENET0_IO", "MIO 16 .. 27"),
    ("PCW_ENET0_GRP_MDIO_ENABLE", "1"),
    ("PCW_ENET0_GRP_MDIO_IO", "MIO 52 .. 53"),
    ("PCW_ENET0_RESET_ENABLE", "1"),
    ("PCW_ENET0_RESET_IO", "MIO 9"),
    ("PCW_SD0_PERIPHERAL_ENABLE", "1"),
    ("PCW_SD0_SD0_IO", "MIO 40 .. 45"),
    ("PCW_SD0_GRP_CD_ENABLE", "1"),
    ("PCW_SD0_GRP_CD_IO", "MIO 47"),
    ("PCW_UART0_PERIPHERAL_ENABLE", "1"),
    ("PCW_UART0_UART0_IO", "MIO 14 .. 15"),
    ("PCW_UART0_BAUD_RATE", "115200"),
    ("PCW_USB0_PERIPHERAL_ENABLE", "1"),
    ("PCW_USB0_USB0_IO", "MIO 28 .. 39"),
    ("PCW_USB0_RESET_ENABLE", "1"),
    ("PCW_USB0_RESET_IO", "MIO 46"),
    ("PCW_GPIO_MIO_GPIO_ENABLE", "1"),
)

#: Zynq-7000 address ranges the PL can reach through S_AXI_GP0.
_HIGH_OCM = (0xFFFC_0000, 0x1_0000_0000)
_DDR = (0x0000_0000, 0x4000_0000)


def bd_design_name(linked: LinkedSystem) -> str:
    return f"{linked.name}_bd"


def bd_wrapper_name(linked: LinkedSystem) -> str:
    """The HDL wrapper Vivado makes of the block design: the bitstream's top."""
    return f"{bd_design_name(linked)}_wrapper"


def bd_tcl_path(linked: LinkedSystem) -> str:
    return f"vivado/{bd_design_name(linked)}.tcl"


def pl_address_block(linked: LinkedSystem) -> tuple[int, int]:
    """(base, size) of the smallest power-of-two sized, size-aligned block holding every PL
    window, rtl and riscv (and, with ``software_windows: ddr``, the windows' base register
    after them): what the top's ``s_axi`` takes in the ARM's GP0 address map."""
    rtl = pl_components(linked)
    lo = min(c.base for c in rtl)
    hi = max(c.end for c in rtl)
    if linked.ps_window_register is not None:
        hi = max(hi, linked.ps_window_register + 4096)
    irq = linked.irq
    if irq is not None:   # the top's interrupt block is in the same address block
        lo, hi = min(lo, irq.base), max(hi, irq.base + IRQ_BLOCK_BYTES)
    if linked.trace is not None:   # and its PL trace buffer's page
        lo, hi = min(lo, linked.trace.base), max(hi, linked.trace.base + linked.trace.size)
    if linked.firewall is not None:   # and its memory firewall's register page
        lo, hi = min(lo, linked.firewall.base), max(hi, linked.firewall.base + linked.firewall.size)
    if linked.window_guard is not None:   # and its window guard's
        g = linked.window_guard
        lo, hi = min(lo, g.base), max(hi, g.base + g.size)
    # (the DMAs' firewall pages are not the top's: the linker places them after this block)
    return pl_block(lo, hi)


def ps_port(linked: LinkedSystem) -> str:
    """The PS7 slave port the top's ``m_axi`` (the PL's writes into the software windows)
    is wired to: ``S_AXI_GP0`` toward the on-chip memory, ``S_AXI_HP0`` toward a DDR buffer
    (``software_windows: ddr``; docs/board.md says why HP0 and not the ACP)."""
    return "S_AXI_HP0" if linked.software_windows == "ddr" else "S_AXI_GP0"
#: The AXI interrupt controller between the PL's interrupt lines and the PS's IRQ_F2P[0]
#: (PYNQ's ``pynq.Interrupt`` finds interrupts through an ``axi_intc``): cell, VLNV, preferred
#: base (Vivado's default for it), and its 64 KiB register block.
INTC_INSTANCE = "axi_intc_0"
INTC_VLNV = "xilinx.com:ip:axi_intc:4.1"
INTC_BASE = 0x4180_0000
INTC_SIZE = 0x1_0000
#: The concat cell in front of the controller's ``intr`` when it has more than one input
#: (as PYNQ's base overlay gathers its interrupt sources), and its VLNV.
INTC_CONCAT = "xlconcat_0"
CONCAT_VLNV = "xilinx.com:ip:xlconcat:2.1"
#: The AXI DMA's interrupt outputs (PG021), in the order they enter the controller.
DMA_INTERRUPTS = ("mm2s_introut", "s2mm_introut")


def interrupt_sources(linked: LinkedSystem) -> list[tuple[str, str]]:
    """The interrupt lines into ``axi_intc_0``, as (cell, pin) in the order of its inputs:
    input 0 is the system top's ``irq`` (when it has the interrupt block,
    :attr:`LinkedSystem.irq`), then every AXI DMA's ``mm2s_introut`` and ``s2mm_introut`` in
    the order of :attr:`LinkedSystem.dmas`. Empty: the design has no interrupt controller.

    >>> interrupt_sources(linked)           # doctest: +SKIP
    [('system_top_0', 'irq'), ('axi_dma_0', 'mm2s_introut'), ('axi_dma_0', 's2mm_introut')]
    """
    out = [(TOP_INSTANCE, "irq")] if linked.irq is not None else []
    for d in linked.dmas:
        out += [(d.name, pin) for pin in DMA_INTERRUPTS]
    return out


def intc_address_block(linked: LinkedSystem) -> Optional[tuple[int, int]]:
    """(base, size) of the interrupt controller's registers in the GP0 map (0x41800000, or
    the first 64 KiB block above the top's block if that overlaps it or, on ZynqMP, lies
    outside M_AXI_HPM0_FPD's range, and past the DMAs' pages and their firewalls'); None when the design has no
    interrupt line (:func:`interrupt_sources`)."""
    if not interrupt_sources(linked):
        return None
    from pushpush.boards import board
    pb, ps = pl_address_block(linked)
    base = INTC_BASE
    lo, hi = board(linked.board).pl_range
    if not lo <= base < hi:
        # outside what the board's PS master reaches (ZynqMP's M_AXI_HPM0_FPD starts at
        # 0xA0000000): the first 64 KiB block above the top's block
        base = (pb + ps + INTC_SIZE - 1) // INTC_SIZE * INTC_SIZE
    if base < pb + ps and pb < base + INTC_SIZE:
        base = (pb + ps + INTC_SIZE - 1) // INTC_SIZE * INTC_SIZE
    pages = [(d.base, d.end) for d in linked.dmas] + [
        (d.firewall.base, d.firewall.base + d.firewall.size) for d in linked.dmas if d.firewall is not None]
    while any(base < hi and lo < base + INTC_SIZE for lo, hi in pages):
        base += INTC_SIZE       # past the AXI DMAs' register pages and their firewalls' pages
    return base, INTC_SIZE


def ps_target(linked: LinkedSystem) -> tuple[str, str]:
    """(Vivado address-segment pattern, description) of the PS memory the ``ps`` region
    (the ARM's windows) lies in, as the PL-to-PS port reaches it."""
    ps = linked.ps
    from pushpush.boards import board
    if board(linked.board).is_zynqmp:
        return _zu_ps_target(linked)
    if linked.software_windows == "ddr":
        return ("*DDR_LOWOCM*", "DDR, 0x00000000 .. 0x1FFFFFFF (the software windows' "
                "pynq.allocate buffer; the top's pp_ps_window translates their link addresses)")
    if _HIGH_OCM[0] <= ps.base and ps.end <= _HIGH_OCM[1]:
        return "*HIGH_OCM*", "the high on-chip memory, 0xFFFC0000 .. 0xFFFFFFFF"
    if _DDR[0] <= ps.base and ps.end <= _DDR[1]:
        return "*DDR_LOWOCM*", "DDR and low on-chip memory, 0x00000000 .. 0x3FFFFFFF"
    raise GenerateError(
        f"{linked.source_file}: regions.ps (0x{ps.base:08X}, size 0x{ps.size:X}) is neither in the "
        f"Zynq's high on-chip memory (0xFFFC0000..0xFFFFFFFF) nor in DDR (below 0x40000000), so "
        f"the PL cannot reach it through S_AXI_GP0; move regions.ps")


def _zu_ps_target(linked: LinkedSystem) -> tuple[str, str]:
    """:func:`ps_target` on zynq_ultra_ps_e: the segments its slave ports offer are
    ``<port>_LPS_OCM`` (0xFF000000, 16 MiB, holding the OCM at 0xFFFC0000) and
    ``<port>_DDR_LOW`` (0x00000000, 2 GiB), as PYNQ's ZCU104 base.tcl and Kria-PYNQ's
    kv260 base.tcl assign them (``SAXIGP2/HP0_LPS_OCM``, ``SAXIGP3/HP1_DDR_LOW``)."""
    from pushpush.boards import board
    b = board(linked.board)
    ps = linked.ps
    if linked.software_windows == "ddr":
        return ("*DDR_LOW*", "DDR, 0x00000000 .. 0x7FFFFFFF (the software windows' pynq.allocate "
                "buffer; the top's pp_ps_window translates their link addresses)")
    lo, size = b.ocm
    if lo <= ps.base and ps.end <= lo + size:
        return "*LPS_OCM*", (f"the on-chip memory, 0x{lo:08X} .. 0x{lo + size - 1:08X}, in the "
                             f"LPS_OCM segment (0xFF000000 .. 0xFFFFFFFF)")
    raise GenerateError(
        f"{linked.source_file}: regions.ps (0x{ps.base:08X}, size 0x{ps.size:X}) is not in the "
        f"{b.title}'s on-chip memory (0x{lo:08X}..0x{lo + size - 1:08X}), so the PL cannot reach "
        f"it through {b.window_port}; move regions.ps or use software_windows: ddr")


#: The PYNQ-Z1's IO PLL, which FCLK0 divides (MHz).
IO_PLL_MHZ = 1000.0


@dataclass(frozen=True)
class Fclk:
    """FCLK0: the requested rate, the divisors that come closest and the rate they give."""

    mhz: str
    div0: int
    div1: int
    pll_mhz: str
    actual_mhz: float

    @property
    def hz(self) -> int:
        return int(round(self.actual_mhz * 1e6))


def fclk_divisors(mhz: float, pll_mhz: float = IO_PLL_MHZ, family: str = "zynq") -> Fclk:
    """The two 6-bit FCLK divisors of ``pll_mhz`` closest to ``mhz``, split as Vivado splits
    them: of the pairs with that product, the smallest sum, then the larger first divisor.
    Vivado-written .hwh files show 100 MHz of a 1000 MHz IO PLL as 5 x 2 (PYNQ-Z1 designs,
    issue 30) and of a 1600 MHz one as 4 x 4 (``resizer.hwh``, tests/pynq/hwhs/), not 10 x 1
    or 16 x 1; the rule is fitted to those two, Vivado's own is not documented. On ZynqMP
    (``family="zynqmp"``) Vivado writes 100 MHz of a 1500 MHz IOPLL as 15 x 1
    (``rfsoc_sam.hwh``): the first divisor takes the product while it fits.

    >>> f = fclk_divisors(100); (f.div0, f.div1, f.actual_mhz)
    (5, 2, 100.0)
    >>> f = fclk_divisors(100, 1600); (f.div0, f.div1)
    (4, 4)
    >>> fclk_divisors(142.86).div0 * fclk_divisors(142.86).div1
    7
    """
    from pushpush.boards import pl_clock_divisors
    d0, d1 = pl_clock_divisors(pll_mhz, mhz, family)
    return Fclk(mhz=f"{mhz:g}", div0=d0, div1=d1, pll_mhz=f"{pll_mhz:g}",
                actual_mhz=round(pll_mhz / (d0 * d1), 6))


def top_clock_hz(linked: LinkedSystem) -> int:
    """``clock_mhz`` in Hz: what the top's ``clk`` declares as ``FREQ_HZ``
    (``templates/verilog/top.v.j2``)."""
    return int(round(float(linked.clock_mhz) * 1_000_000))


def check_fclk(linked: LinkedSystem) -> None:
    """FCLK0 (the PYNQ-Z1's 1000 MHz IO PLL over two 6-bit divisors) must make ``clock_mhz``
    exactly: the top's ``clk`` declares that rate, and Vivado's ``validate_bd_design``
    refuses AXI connections whose clocks' ``FREQ_HZ`` differ."""
    f = fclk_divisors(float(linked.clock_mhz))
    if f.hz != top_clock_hz(linked):
        raise GenerateError(
            f"{linked.source_file}: clock_mhz: {linked.clock_mhz:g} cannot be made by the "
            f"PYNQ-Z1's FCLK0 (1000 MHz / {f.div0} / {f.div1} = {f.actual_mhz:g} MHz is the "
            f"nearest); use a rate 1000 MHz divides into whole Hz, e.g. 50, 100, 125, 200 or 250")


def ps_pl_settings(linked: LinkedSystem) -> tuple[tuple[str, str], ...]:
    """The PS7 settings of the PS-PL side: FCLK0, its reset, GP0 master, the PL-to-PS port
    (GP0 slave, with ``PCW_USE_HIGH_OCM`` for windows in the high on-chip memory: without it
    the PS7 offers S_AXI_GP0 no high-OCM address segment, see docs/board.md; or HP0 for
    ``software_windows: ddr``) and, with an interrupt line (:func:`interrupt_sources`), the fabric interrupt."""
    seg, _ = ps_target(linked)
    settings = [
        ("PCW_FPGA0_PERIPHERAL_FREQMHZ", f"{linked.clock_mhz:g}"),
        ("PCW_EN_CLK0_PORT", "1"),
        ("PCW_EN_RST0_PORT", "1"),
        ("PCW_USE_M_AXI_GP0", "1"),
    ]
    if ps_port(linked) == "S_AXI_HP0":
        # HP0 at the interconnect's width (32 or 64; the PS7's default is 64)
        settings += [("PCW_USE_S_AXI_HP0", "1"),
                     ("PCW_S_AXI_HP0_DATA_WIDTH", str(linked.interconnect.data_width))]
    else:
        settings.append(("PCW_USE_S_AXI_GP0", "1"))
        if "HIGH_OCM" in seg:
            settings.append(("PCW_USE_HIGH_OCM", "1"))
    settings += buffer_port_settings(linked)
    if interrupt_sources(linked):   # the PL's interrupts, through axi_intc_0, on IRQ_F2P[0]
        settings += [("PCW_USE_FABRIC_INTERRUPT", "1"), ("PCW_IRQ_F2P_INTR", "1")]
    for d in linked.dmas:        # the AXI DMAs' memory masters, each on its HP port
        hp = d.hp_port.replace("S_AXI_", "")
        settings += [(f"PCW_USE_S_AXI_{hp}", "1"), (f"PCW_S_AXI_{hp}_DATA_WIDTH", str(d.data_width))]
    return tuple(settings)


def buffer_port_settings(linked: LinkedSystem) -> list[tuple[str, str]]:
    """The PS7 settings of the buffer engines' port (the top's ``buf_axi``,
    docs/rtl-ports.md): ``S_AXI_HP0`` (``HP1`` when ``m_axi`` already uses HP0) at 32 bits;
    none without buffer parameters."""
    port = buffer_port(linked)
    if port is None:
        return []
    n = port[-1]
    return [(f"PCW_USE_S_AXI_HP{n}", "1"), (f"PCW_S_AXI_HP{n}_DATA_WIDTH", str(BUF_DATA_WIDTH))]


#: The Xilinx AXI DMA that takes pp_axi_dma's place in the block design (PG021).
DMA_VLNV = "xilinx.com:ip:axi_dma:7.1"


def dma_cells(linked: LinkedSystem) -> list[dict[str, object]]:
    """The block design's AXI DMAs: name, its GP0 SmartConnect master port, its HP port,
    register page and the IP's CONFIG values (simple mode, as pp_axi_dma is configured on
    the simulated board and as the .hwh describes it) and, with ``firewall:``, its memory
    firewall (``firewall``: the ``<sys>_dma_firewall`` module reference between the DMA's
    SmartConnect and its HP port, its register page's GP0 master port and address)."""
    first = 2 if interrupt_sources(linked) else 1
    from pushpush.boards import board
    out = []
    fw_mi = first + len(linked.dmas)     # the firewalls' pages: after the DMAs' on GP0
    for k, d in enumerate(linked.dmas):
        w = str(d.data_width)
        config = [("c_include_sg", "0"), ("c_sg_length_width", "26"),
                  ("c_m_axi_mm2s_data_width", w), ("c_m_axis_mm2s_tdata_width", w),
                  ("c_m_axi_s2mm_data_width", w), ("c_s_axis_s2mm_tdata_width", w),
                  ("c_mm2s_burst_size", str(d.max_burst)), ("c_s2mm_burst_size", str(d.max_burst)),
                  ("c_include_mm2s_dre", "1"), ("c_include_s2mm_dre", "1")]
        fw = None
        if d.firewall is not None:   # firewall: its memory masters through <sys>_dma_firewall
            fw = {"cell": f"{d.name}_firewall", "module": dma_firewall_name(linked),
                  "mi": f"M{fw_mi:02d}_AXI", "base": d.firewall.base, "size": d.firewall.size,
                  "data_width": d.data_width,
                  # what the DMA's masters see through it: DDR, as the HP port offers it
                  "ddr": 0x8000_0000 if board(linked.board).is_zynqmp else 0x2000_0000}
            fw_mi += 1
        out.append({"name": d.name, "component": d.component, "mi": f"M{first + k:02d}_AXI",
                    "hp_port": d.hp_port, "hp_seg": f"{d.hp_port.replace('S_AXI_', '')}_DDR_LOWOCM",
                    "base": d.base, "size": d.size, "config": config, "vlnv": DMA_VLNV,
                    "firewall": fw})
    return out


def _intc_cell(linked: LinkedSystem) -> Optional[dict[str, object]]:
    """The interrupt controller of the block design (None without interrupt lines): its
    sources in input order and, with more than one, the concat in front of it."""
    sources = interrupt_sources(linked)
    block = intc_address_block(linked)
    if not sources or block is None:
        return None
    return {"instance": INTC_INSTANCE, "vlnv": INTC_VLNV, "base": block[0], "size": block[1],
            "sources": [f"{cell}/{pin}" for cell, pin in sources],
            "concat": INTC_CONCAT if len(sources) > 1 else None, "concat_vlnv": CONCAT_VLNV}


def has_block_design(linked: LinkedSystem) -> bool:
    """Whether pushpush writes a Vivado block design for ``linked``'s board: every board
    (processing_system7 on the PYNQ-Z1/Z2 and ``board: none``, zynq_ultra_ps_e on the ZCU104
    and KV260)."""
    return True


#: zynq_ultra_ps_e's numbers of its PL-facing slave ports: ``PSU__USE__S_AXI_GP<n>``,
#: ``PSU__SAXIGP<n>__DATA_WIDTH`` and the address-segment folder ``SAXIGP<n>`` (PYNQ's ZCU104
#: base.tcl: ``S_AXI_HP0_FPD`` is ``PSU__USE__S_AXI_GP2`` and ``ps_e_0/SAXIGP2/HP0_DDR_LOW``;
#: Kria-PYNQ's kv260 base.tcl: ``S_AXI_HP1_FPD``, ``S_AXI_GP3``, ``SAXIGP3/HP1_DDR_LOW``). The
#: same numbering as :data:`pushpush.codegen.hwh.ZU_SAXIGP` (a test keeps them equal).
ZU_SAXIGP = {"S_AXI_HPC0_FPD": 0, "S_AXI_HPC1_FPD": 1, "S_AXI_HP0_FPD": 2, "S_AXI_HP1_FPD": 3,
             "S_AXI_HP2_FPD": 4, "S_AXI_HP3_FPD": 5, "S_AXI_LPD": 6}


@dataclass(frozen=True)
class PsSlave:
    """A PS slave port as the block design uses it: its interface pin, its clock pin, the
    folder its address segments are under and their name prefix."""

    port: str
    aclk: str
    segs: str
    prefix: str


def ps_slave(linked: LinkedSystem, zynq_port: str) -> PsSlave:
    """The PS slave port the link calls ``zynq_port`` (``S_AXI_GP0``, ``S_AXI_HPn``) on
    ``linked``'s board: on a Zynq itself (``S_AXI_HP0_ACLK``, segments
    ``processing_system7_0/S_AXI_HP0/HP0_*``); on ZynqMP :meth:`Board.port`'s name
    (``S_AXI_HP0_FPD``, clock ``saxihp0_fpd_aclk``, segments
    ``zynq_ultra_ps_e_0/SAXIGP2/HP0_*``)."""
    from pushpush.boards import board
    b = board(linked.board)
    if not b.is_zynqmp:
        return PsSlave(zynq_port, f"{zynq_port}_ACLK", f"{b.ps_instance}/{zynq_port}",
                       zynq_port.replace("S_AXI_", ""))
    name = b.port(zynq_port)
    prefix = name.replace("S_AXI_", "").replace("_FPD", "")
    return PsSlave(name, f"saxi{prefix.lower()}_fpd_aclk", f"{b.ps_instance}/SAXIGP{ZU_SAXIGP[name]}",
                   prefix)


def zu_ps_settings(linked: LinkedSystem) -> tuple[tuple[str, str], ...]:
    """The zynq_ultra_ps_e settings of the PS-PL side, set after the board preset: only
    ``M_AXI_HPM0_FPD`` of the three masters (a board preset may switch on HPM1_FPD, whose
    clock pin Vivado's validation then wants driven), at the fabric's width; each slave port
    the design uses switched on at the width of what drives it (the top's ``m_axi`` at the
    interconnect's width, the buffer engines at 32 bits, each AXI DMA at its own) and the
    others off; PL clock 0 from the IOPLL with the divisors the ``.hwh`` states; the fabric
    reset; ``pl_ps_irq0`` when there is an interrupt line. Every name is one PYNQ's ZCU104
    or Kria-PYNQ's KV260 base.tcl sets (tests/board/psu/README.md), checked by the Tcl
    stand-in; PYNQ programs the AFIFM/SLCR width registers from the widths at load."""
    from pushpush.boards import board
    b = board(linked.board)
    dw = linked.interconnect.data_width
    widths: dict[str, int] = {}

    def use(zynq_port: str, width: int) -> None:
        name = ps_slave(linked, zynq_port).port
        if widths.get(name, width) != width:
            raise GenerateError(f"{linked.source_file}: {name} is asked for at {widths[name]} "
                                f"and {width} bits by two masters of the design")
        widths[name] = width

    use(ps_port(linked), dw)
    buf = buffer_port(linked)
    if buf is not None:
        use(buf, BUF_DATA_WIDTH)
    for d in linked.dmas:
        use(d.hp_port, d.data_width)
    fclk = fclk_divisors(float(linked.clock_mhz), b.pll_mhz, b.family)
    out = [("PSU__USE__M_AXI_GP0", "1"), ("PSU__MAXIGP0__DATA_WIDTH", str(dw)),
           ("PSU__USE__M_AXI_GP1", "0"), ("PSU__USE__M_AXI_GP2", "0")]
    for name, n in ZU_SAXIGP.items():
        out.append((f"PSU__USE__S_AXI_GP{n}", "1" if name in widths else "0"))
        if name in widths:
            out.append((f"PSU__SAXIGP{n}__DATA_WIDTH", str(widths[name])))
    out += [("PSU__FPGA_PL0_ENABLE", "1"),
            ("PSU__CRL_APB__PL0_REF_CTRL__SRCSEL", "IOPLL"),
            ("PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ", fclk.mhz),
            ("PSU__CRL_APB__PL0_REF_CTRL__DIVISOR0", str(fclk.div0)),
            ("PSU__CRL_APB__PL0_REF_CTRL__DIVISOR1", str(fclk.div1)),
            ("PSU__USE__FABRIC__RST", "1"), ("PSU__NUM_FABRIC_RESETS", "1"),
            ("PSU__USE__IRQ0", "1" if interrupt_sources(linked) else "0")]
    return tuple(out)


def _ps_cell(linked: LinkedSystem) -> dict[str, object]:
    """The PS's names for the template: cell, VLNV, clock/reset/interrupt pins, the master
    port and its clock pin, and its settings."""
    from pushpush.boards import board
    b = board(linked.board)
    if b.is_zynqmp:
        return {"zynqmp": True, "instance": b.ps_instance, "vlnv": b.ps_vlnv, "clk": b.pl_clk,
                "rst": b.pl_rst, "irq": b.irq_port, "master": b.master_port,
                "master_aclk": "maxihpm0_fpd_aclk", "settings": zu_ps_settings(linked),
                "title": b.title}
    return {"zynqmp": False, "instance": b.ps_instance, "vlnv": b.ps_vlnv, "clk": b.pl_clk,
            "rst": b.pl_rst, "irq": b.irq_port, "master": b.master_port,
            "master_aclk": f"{b.master_port}_ACLK", "settings": ps_pl_settings(linked),
            "title": b.title}


def render_bd_tcl(linked: LinkedSystem, vlnv: str) -> str:
    """The block-design tcl text (``vlnv``: the system core's name, for the comments)."""
    from pushpush.boards import board
    b = board(linked.board)
    rtl = rtl_components(linked)
    if not rtl and not any(c.kind == "hls" for c in linked.components):  # hls: a participant's IP
        raise GenerateError(f"{linked.source_file}: system '{linked.name}' has no rtl component, "
                            f"so there is no PL design to build")
    if linked.board in ("pynq-z1", "pynq-z2"):
        check_fclk(linked)
    elif b.is_zynqmp:
        from pushpush.boards import pl_clock_error
        err = pl_clock_error(b, float(linked.clock_mhz))
        if err is not None:
            raise GenerateError(f"{linked.source_file}: {err}")
    base, size = pl_address_block(linked)
    for d in linked.dmas:   # the linker places them after the top's block (place_dma_firewalls)
        if d.firewall_base is not None and base <= d.firewall_base < base + size:
            raise GenerateError(f"{linked.source_file}: the memory firewall page of {d.name} "
                                f"(0x{d.firewall_base:08X}) lies in the top's address block "
                                f"(0x{base:08X}, 0x{size:X} bytes); link the system again")
    lo, hi = b.pl_range
    block = intc_address_block(linked)
    for what, (wb, ws) in [("the PL windows' block", (base, size))] + (
            [("the interrupt controller", block)] if block else []):
        if not (lo <= wb and wb + ws <= hi):
            raise GenerateError(
                f"{linked.source_file}: {what} (0x{wb:08X}, 0x{ws:X} bytes) is outside what the "
                f"{b.title}'s {b.master_port} reaches (0x{lo:08X}..0x{hi - 1:08X}); move regions.pl")
    seg, target = ps_target(linked)
    sw = [c for c in linked.components if c.is_software]
    names = [c.name for c in linked.components]
    fclk = f"{linked.clock_mhz:g}"
    win = ps_slave(linked, ps_port(linked))
    bport = buffer_port(linked)
    buf = None if bport is None else ps_slave(linked, bport)
    dmas_ = dma_cells(linked)
    for d in dmas_:
        slave = ps_slave(linked, str(d["hp_port"]))
        d.update(hp_port=slave.port, ps=slave,
                 hp_seg=f"{slave.prefix}_DDR_LOW" if b.is_zynqmp else d["hp_seg"])
    return render_template(
        "vivado/bd.tcl.j2",
        header=generated_header("#", linked.source_file),
        sys=linked,
        part=b.part,
        board_title=b.title,
        board_target=b.fuse_target,
        vlnv=vlnv,
        design=bd_design_name(linked),
        top=top_module_name(linked),
        instance=TOP_INSTANCE,
        fclk_mhz=fclk,
        fclk_hz=str(top_clock_hz(linked)),
        board_part_pattern=b.board_part_pattern,
        pl_block={"base": base, "size": size},
        pl_windows=pl_components(linked),
        has_riscv=any(c.kind == "riscv" for c in linked.components),
        ps_windows=sw,
        name_width=max(len(n) for n in names),
        ps_seg_pattern=seg,
        ps_target=target,
        ps_port=win.port,
        win=win,
        ps_pl_width=linked.interconnect.data_width,
        ps=_ps_cell(linked),
        ps_window_register=linked.ps_window_register,
        ps_preset=PYNQ_Z1_PS7_PRESET,
        ps_pl=_ps_cell(linked)["settings"],
        buf=None if buf is None else {"port": buf.port, "ps": buf,
                                      "seg": "*DDR_LOW*" if b.is_zynqmp else "*DDR_LOWOCM*"},
        intc=_intc_cell(linked),
        dmas=dmas_,
    )
