"""The ``.hwh`` (hardware handoff) of a system, made from the linked model without Vivado.

PYNQ reads an overlay's ``.hwh`` (next to its ``.bit``) to find the addressable IP and the PS
clock settings. On the board that file comes from Vivado; for the simulated board (and for
checking the board flow on a machine without Vivado) :func:`render_hwh` writes the same
structure Vivado writes for the block design of ``vivado/<system>_bd.tcl``
(:mod:`pushpush.codegen.vivado`):

* ``processing_system7_0`` (``MODTYPE="processing_system7"``, ``IS_PL="FALSE"``, which the
  PYNQ 3.x metadata parser needs to find the PS) with the PYNQ-Z1 clock settings: FCLK0 at
  the system's ``clock_mhz`` as IO-PLL divisors (PYNQ 3.x programs the divisors on
  ``Overlay.download``; PYNQ 4.0 programs a frequency in MHz, which the simulated device
  derives from the divisors);
* the system top as module reference ``system_top_0`` with VLNV
  ``xilinx.com:module_ref:<system>_top:1.0`` (what Vivado gives a module reference), so a
  PYNQ driver can bind to it by VLNV (:mod:`pushpush.pynq.driver`);
* the address map: ``M_AXI_GP0`` -> ``system_top_0/s_axi`` over the block holding every rtl
  window (:func:`pushpush.codegen.vivado.pl_address_block`), and ``system_top_0/m_axi`` ->
  ``S_AXI_GP0`` over the whole PS segment that holds the ``ps`` region, as Vivado assigns it
  (``GP0_HIGH_OCM``: 0xFFFC0000, 256 KiB; :data:`GP0_SEGMENTS`); with ``software_windows:
  ddr``, ``S_AXI_HP0`` (at the top's data width) and its ``HP0_DDR_LOWOCM`` segment
  (0x00000000, 512 MiB; :data:`HP0_SEGMENT`) instead, and the top's block includes the
  windows' base register;
* the cells between them as the block design has them: the SmartConnects that convert the
  PS's AXI3 GP0 ports to the top's AXI4 ports (``axi_gp0_to_pl``, ``axi_pl_to_ps``; AXI3 on
  the PS side, AXI4 on the top's, ports named as Vivado names them) and the reset block
  ``rst_fclk0`` (the top's ``rst`` is its active-high ``peripheral_reset``);
* the interrupt lines (:func:`pushpush.codegen.vivado.interrupt_sources`: the top's ``irq``
  when it has one, :attr:`pushpush.link.LinkedSystem.irq`, then each AXI DMA's
  ``mm2s_introut`` and ``s2mm_introut``): one straight into ``axi_intc_0/intr``, several
  into ``xlconcat_0/In<i>`` (``MODTYPE="xlconcat"``, ``NUM_PORTS``) whose ``dout`` is the
  controller's ``intr[N-1:0]`` (``C_NUM_INTR_INPUTS`` = N), ``axi_intc_0/irq`` into the PS's
  ``IRQ_F2P`` (so PYNQ lists ``system_top_0/irq`` at index 0 and
  ``axi_dma_0/mm2s_introut``/``s2mm_introut`` after it in ``interrupt_pins``, the DMA's
  ``ip_dict`` entry has both in ``interrupts``, and ``axi_intc_0`` is in
  ``interrupt_controllers``, raw IRQ 61), the controller's AXI4-Lite registers on the GP0
  SmartConnect's ``M01_AXI`` (:func:`pushpush.codegen.vivado.intc_address_block`).

``tests/pynq/test_hwh.py`` compares what PYNQ's parser makes of it with what it makes of a
real Vivado ``.hwh`` of a 7z020 design (``resizer.hwh``, shipped by pynqmetadata).

So ``Overlay("<system>.bit").ip_dict["system_top_0"]`` has ``phys_addr``/``addr_range`` of
the rtl windows' block and ``type`` the top's VLNV, on PYNQ 3.1 and 4.0.

Example::

    from pushpush.codegen.hwh import render_hwh
    text = render_hwh(linked)            # deterministic: same model, same text
"""

from __future__ import annotations

from typing import Any, Optional

from pushpush import __version__
from pushpush.link import LinkedSystem

from . import fabric as _fabric
from .ip_registers import DMA_REGISTERS, intc_registers, trace_registers
from .render import generated_header, render_template
from .vivado import IO_PLL_MHZ, Fclk, fclk_divisors

__all__ = [
    "IO_PLL_MHZ",
    "Fclk",
    "fclk_divisors",
    "module_ref_vlnv",
    "render_hwh",
    "system_top_instance",
]

#: Name of the processing system cell (as the block-design tcl creates it).
PS_INSTANCE = "processing_system7_0"
#: The PYNQ-Z1's IO PLL (50 MHz crystal x 20), the source of the FCLKs.

#: The PS7 address segments S_AXI_GP0 offers, as Vivado assigns them to a PL master
#: (name, base, size): the whole high on-chip memory (256 KiB), or DDR and the low OCM
#: over the PYNQ-Z1's 512 MiB of DDR (as in a Vivado .hwh of a 7z020 board design:
#: ``HP0_DDR_LOWOCM`` 0x00000000..0x1FFFFFFF).
GP0_SEGMENTS = {
    "HIGH_OCM": ("GP0_HIGH_OCM", 0xFFFC_0000, 0x0004_0000),
    "DDR_LOWOCM": ("GP0_DDR_LOWOCM", 0x0000_0000, 0x2000_0000),
}
#: The segment S_AXI_HP0 offers for DDR (``software_windows: ddr``), as Vivado assigns it.
HP0_SEGMENT = ("HP0_DDR_LOWOCM", 0x0000_0000, 0x2000_0000)
#: The SmartConnects between the GP0 ports (AXI3) and the top's ports (AXI4), as the
#: block-design tcl names them: (cell, PS interface, top interface).
CONVERTERS = (("axi_gp0_to_pl", "M_AXI_GP0", "s_axi"), ("axi_pl_to_ps", "S_AXI_GP0", "m_axi"))
#: The SmartConnect between the top's buffer engines (``buf_axi``) and their HP port.
BUF_CONVERTER = "axi_buf_to_ps"
#: The reset block of the block design.
RESET_INSTANCE = "rst_fclk0"

#: AXI3 signals of the Zynq GP0 ports: (logical name, width key, driven by the master).
_AXI3 = [
    ("AWID", "ID", True), ("AWADDR", 32, True), ("AWLEN", 4, True), ("AWSIZE", 3, True),
    ("AWBURST", 2, True), ("AWLOCK", 2, True), ("AWCACHE", 4, True), ("AWPROT", 3, True),
    ("AWQOS", 4, True), ("AWVALID", 1, True), ("AWREADY", 1, False),
    ("WID", "ID", True), ("WDATA", 32, True), ("WSTRB", 4, True), ("WLAST", 1, True),
    ("WVALID", 1, True), ("WREADY", 1, False),
    ("BID", "ID", False), ("BRESP", 2, False), ("BVALID", 1, False), ("BREADY", 1, True),
    ("ARID", "ID", True), ("ARADDR", 32, True), ("ARLEN", 4, True), ("ARSIZE", 3, True),
    ("ARBURST", 2, True), ("ARLOCK", 2, True), ("ARCACHE", 4, True), ("ARPROT", 3, True),
    ("ARQOS", 4, True), ("ARVALID", 1, True), ("ARREADY", 1, False),
    ("RID", "ID", False), ("RDATA", 32, False), ("RRESP", 2, False), ("RLAST", 1, False),
    ("RVALID", 1, False), ("RREADY", 1, True),
]


#: The AXI4-Lite signals of the interrupt controller's register port (axi_intc: 9-bit
#: addresses): (logical name, width, driven by the master).
_AXI_LITE = [
    ("AWADDR", 9, True), ("AWVALID", 1, True), ("AWREADY", 1, False),
    ("WDATA", 32, True), ("WSTRB", 4, True), ("WVALID", 1, True), ("WREADY", 1, False),
    ("BRESP", 2, False), ("BVALID", 1, False), ("BREADY", 1, True),
    ("ARADDR", 9, True), ("ARVALID", 1, True), ("ARREADY", 1, False),
    ("RDATA", 32, False), ("RRESP", 2, False), ("RVALID", 1, False), ("RREADY", 1, True),
]


def system_top_instance() -> str:
    """The system top's cell name in the block design (``system_top_0``)."""
    from pushpush.codegen.vivado import TOP_INSTANCE
    return TOP_INSTANCE


def module_ref_vlnv(top: str) -> str:
    """The VLNV Vivado gives a module reference: ``xilinx.com:module_ref:<top>:1.0``."""
    return f"xilinx.com:module_ref:{top}:1.0"


def _bus(name: str, kind: str, busname: str, phys: dict[str, str], data_width: int,
         id_width: int, protocol: str, fclk: Fclk, clk_domain: str) -> dict[str, Any]:
    params = [
        ("DATA_WIDTH", str(data_width)), ("PROTOCOL", protocol), ("FREQ_HZ", str(fclk.hz)),
        ("ID_WIDTH", str(id_width)), ("ADDR_WIDTH", "32"), ("READ_WRITE_MODE", "READ_WRITE"),
        ("HAS_BURST", "1"), ("HAS_WSTRB", "1"), ("HAS_BRESP", "1"), ("HAS_RRESP", "1"),
        ("MAX_BURST_LENGTH", "16" if protocol == "AXI3" else "256"),
        ("CLK_DOMAIN", clk_domain),
    ]
    return {"name": name, "type": kind, "busname": busname, "data_width": data_width,
            "params": params, "portmaps": sorted(phys.items())}


#: How zynq_ultra_ps_e names its AXI ports' signals and clocks (as rfsoc_sam.hwh has them):
#: interface -> (signal prefix, clock pin).
ZU_PORT_PINS = {
    "M_AXI_HPM0_FPD": ("maxigp0", "maxihpm0_fpd_aclk"),
    "S_AXI_HPC0_FPD": ("saxigp0", "saxihpc0_fpd_aclk"),
    **{f"S_AXI_HP{n}_FPD": (f"saxigp{n + 2}", f"saxihp{n}_fpd_aclk") for n in range(4)},
}


def _port_name(inst_kind: str, intf: str, sig: str) -> str:
    """How each kind of cell names an AXI signal port: the PS7 ``M_AXI_GP0_AWADDR``, the
    ZynqMP PS ``maxigp0_awaddr``, a SmartConnect ``S00_AXI_awaddr``, the top ``s_axi_awaddr``."""
    if inst_kind == "ps":
        return f"{intf}_{sig.upper()}"
    if inst_kind == "psu":
        return f"{ZU_PORT_PINS[intf][0]}_{sig.lower()}"
    return f"{intf}_{sig.lower()}"


def _aclk(b: Any, port: str) -> str:
    """The clock pin of PS port ``port``: ``M_AXI_GP0_ACLK``, ``maxihpm0_fpd_aclk``."""
    return ZU_PORT_PINS[port][1] if b.is_zynqmp else f"{port}_ACLK"


class _Design:
    """Modules of the .hwh with their ports, connections and bus interfaces."""

    def __init__(self, clk_domain: str = "processing_system7_0_FCLK_CLK0") -> None:
        self.ports: dict[str, list[dict[str, Any]]] = {}
        self.buses: dict[str, list[dict[str, Any]]] = {}
        self.clk_domain = clk_domain

    def port(self, inst: str, name: str, direction: str, width: int, signame: str,
             peers: list[tuple[str, str]], **extra: Any) -> None:
        self.ports.setdefault(inst, []).append(
            {"name": name, "dir": direction, "width": width, "signame": signame,
             "peers": peers, "sigis": None, "clkfrequency": None, "polarity": None,
             "sensitivity": None, "vector": False, **extra})

    def link(self, busname: str, master: tuple[str, str, str], slave: tuple[str, str, str],
             sigs: list[tuple[str, int, bool]], fclk: Fclk,
             master_bus: tuple[int, int, str], slave_bus: tuple[int, int, str]) -> None:
        """An AXI connection: ``master``/``slave`` are (instance, kind, interface); ``sigs``
        (name, width, driven by the master); ``*_bus`` (data width, ID width, protocol)."""
        (mi, mk, mif), (si, sk, sif) = master, slave
        mphys, sphys = {}, {}
        for n, w, by_master in sigs:
            mp, sp = _port_name(mk, mif, n), _port_name(sk, sif, n)
            net = f"{busname}_{n.upper()}"
            self.port(mi, mp, "O" if by_master else "I", w, net, [(si, sp)])
            self.port(si, sp, "I" if by_master else "O", w, net, [(mi, mp)])
            mphys[n.upper()] = mp
            sphys[n.upper()] = sp
        self.buses.setdefault(mi, []).append(_bus(mif, "MASTER", busname, mphys, *master_bus[:2],
                                                  master_bus[2], fclk, self.clk_domain))
        self.buses.setdefault(si, []).append(_bus(sif, "SLAVE", busname, sphys, *slave_bus[:2],
                                                  slave_bus[2], fclk, self.clk_domain))


def _axi3(dw: int, id_width: int) -> list[tuple[str, int, bool]]:
    return [(lg, id_width if wk == "ID" else dw if lg in ("WDATA", "RDATA")
             else dw // 8 if lg == "WSTRB" else int(wk), by_master) for lg, wk, by_master in _AXI3]


def render_hwh(linked: LinkedSystem, *, top: Optional[str] = None,
               s_id_width: Optional[int] = None, m_id_width: Optional[int] = None,
               data_width: Optional[int] = None, irq: Optional[bool] = None) -> str:
    """The ``.hwh`` text of ``linked`` (see the module docstring).

    ``top`` (the system top's module name, default ``<system>_top``), the ID widths and
    the data width of its AXI ports default to what :mod:`pushpush.codegen.rtl` generates (:mod:`pushpush.codegen.fabric`);
    give them for a hand-written top (test fixtures), and ``irq`` (default: the generated
    top has one when :attr:`LinkedSystem.irq` is not None) whether it has the interrupt.
    """
    from pushpush.codegen.vivado import (PYNQ_Z1_PART, ps_target, bd_design_name,
                                         pl_address_block, ps_port)

    from pushpush.boards import board as _board

    b = _board(linked.board)
    PS = b.ps_instance
    zu = b.is_zynqmp
    psk = "psu" if zu else "ps"            # how the PS names its AXI signals (_port_name)
    clk_pin, rst_pin = ("pl_clk0", "pl_resetn0") if zu else ("FCLK_CLK0", "FCLK_RESET0_N")
    top = top or _fabric.top_module_name(linked)
    s_id, m_id = _fabric.top_id_widths(linked)
    s_id = s_id_width if s_id_width is not None else s_id
    m_id = m_id_width if m_id_width is not None else m_id
    dw = data_width or linked.interconnect.data_width
    instance = system_top_instance()
    fclk = fclk_divisors(float(linked.clock_mhz), b.pll_mhz, b.family)
    base, size = pl_address_block(linked)
    seg_pattern, _ = ps_target(linked)
    high = "HIGH_OCM" in seg_pattern
    ps_seg, seg_base, seg_size = GP0_SEGMENTS["HIGH_OCM" if high else "DDR_LOWOCM"]
    # the PS7 port of the top's m_axi: S_AXI_GP0 (32-bit), or S_AXI_HP0 at the top's width
    # for software windows in DDR (software_windows: ddr)
    pl_to_ps = ps_port(linked)
    hp = pl_to_ps == "S_AXI_HP0"
    if hp:
        high = False
        ps_seg, seg_base, seg_size = HP0_SEGMENT
    ps_dw = dw if hp or zu else 32     # ZynqMP's ports are set to the fabric's width
    if zu:   # the windows in OCM through S_AXI_HPC0_FPD's LPS_OCM segment, or DDR through HP0_FPD
        ps_seg, seg_base, seg_size = (b.ddr_segment if hp else
                                      ("HPC0_LPS_OCM",) + b.ocm_segment[1:])
        high = not hp
    m_port, pl_to_ps_name = b.port("M_AXI_GP0"), b.port(pl_to_ps)
    # the buffer engines' master (buffer parameters): buf_axi -> axi_buf_to_ps -> S_AXI_HP0
    # (HP1 when m_axi has HP0), 32 bits, over all of DDR
    buf_port = _fabric.buffer_port(linked)
    buf_sc = BUF_CONVERTER if buf_port else None

    buf_port_name = b.port(buf_port) if buf_port else None
    clk_net, ps_rst_net = f"{PS}_{clk_pin}", f"{PS}_{rst_pin}"
    d = _Design(clk_net)
    ic_rst_net, rst_net = f"{RESET_INSTANCE}_interconnect_aresetn", f"{RESET_INSTANCE}_peripheral_reset"
    (sc_in, _, _), (sc_out, _, _) = CONVERTERS
    clocked = [(PS, _aclk(b, m_port)), (PS, _aclk(b, pl_to_ps_name)),
               (RESET_INSTANCE, "slowest_sync_clk"), (sc_in, "aclk"), (sc_out, "aclk"),
               (instance, "clk")]
    if buf_sc:
        clocked[-1:-1] = [(PS, _aclk(b, buf_port_name)), (buf_sc, "aclk")]
    scs = (sc_in, sc_out) + ((buf_sc,) if buf_sc else ())
    d.port(PS, clk_pin, "O", 1, clk_net, clocked, sigis="clk", clkfrequency=fclk.hz)
    d.port(PS, rst_pin, "O", 1, ps_rst_net, [(RESET_INSTANCE, "ext_reset_in")],
           sigis="rst")
    for inst, pin in clocked:
        d.port(inst, pin, "I", 1, clk_net, [(PS, clk_pin)], sigis="clk",
               clkfrequency=fclk.hz)
    d.port(RESET_INSTANCE, "ext_reset_in", "I", 1, ps_rst_net, [(PS, rst_pin)],
           sigis="rst", polarity="ACTIVE_LOW")
    d.port(RESET_INSTANCE, "interconnect_aresetn", "O", 1, ic_rst_net,
           [(sc, "aresetn") for sc in scs], sigis="rst", polarity="ACTIVE_LOW")
    d.port(RESET_INSTANCE, "peripheral_reset", "O", 1, rst_net, [(instance, "rst")], sigis="rst",
           polarity="ACTIVE_HIGH")
    for sc in scs:
        d.port(sc, "aresetn", "I", 1, ic_rst_net, [(RESET_INSTANCE, "interconnect_aresetn")],
               sigis="rst", polarity="ACTIVE_LOW")
    d.port(instance, "rst", "I", 1, rst_net, [(RESET_INSTANCE, "peripheral_reset")], sigis="rst",
           polarity="ACTIVE_HIGH")

    # AXI: PS M_AXI_GP0 (AXI3) -> SmartConnect -> top s_axi (AXI4), and top m_axi (AXI4) ->
    # SmartConnect -> PS S_AXI_GP0 (AXI3), as the block-design tcl connects them
    def top_sigs(id_width: int) -> list[tuple[str, int, bool]]:
        return [(n.upper(), w, dr == "out") for n, w, dr in _fabric.axi_signals(dw, id_width)]

    def ps_sigs(width: int, id_width: int) -> list[tuple[str, int, bool]]:
        """The PS side of a PS port: AXI3 on a Zynq's GP/HP ports, AXI4 on ZynqMP's."""
        return top_sigs_w(width, id_width) if zu else _axi3(width, id_width)

    def top_sigs_w(width: int, id_width: int) -> list[tuple[str, int, bool]]:
        return [(n.upper(), w, dr == "out") for n, w, dr in _fabric.axi_signals(width, id_width)]

    proto = "AXI4" if zu else "AXI3"
    mdw, mid = (dw, 16) if zu else (32, 12)
    d.link(f"{PS}_{m_port}", (PS, psk, m_port), (sc_in, "sc", "S00_AXI"),
           ps_sigs(mdw, mid), fclk, (mdw, mid, proto), (mdw, mid, proto))
    d.link(f"{sc_in}_M00_AXI", (sc_in, "sc", "M00_AXI"), (instance, "top", "s_axi"),
           top_sigs(s_id), fclk, (dw, s_id, "AXI4"), (dw, s_id, "AXI4"))
    d.link(f"{instance}_m_axi", (instance, "top", "m_axi"), (sc_out, "sc", "S00_AXI"),
           top_sigs(m_id), fclk, (dw, m_id, "AXI4"), (dw, m_id, "AXI4"))
    d.link(f"{sc_out}_M00_AXI", (sc_out, "sc", "M00_AXI"), (PS, psk, pl_to_ps_name),
           ps_sigs(ps_dw, 6), fclk, (ps_dw, 6, proto), (ps_dw, 6, proto))
    if buf_sc:
        bid, bdw = _fabric.buf_id_width(linked), _fabric.BUF_DATA_WIDTH
        bsigs = [(n.upper(), w, dr == "out") for n, w, dr in _fabric.axi_signals(bdw, bid)]
        d.link(f"{instance}_buf_axi", (instance, "top", "buf_axi"), (buf_sc, "sc", "S00_AXI"),
               bsigs, fclk, (bdw, bid, "AXI4"), (bdw, bid, "AXI4"))
        d.link(f"{buf_sc}_M00_AXI", (buf_sc, "sc", "M00_AXI"), (PS, psk, buf_port_name),
               ps_sigs(bdw, 6), fclk, (bdw, 6, proto), (bdw, 6, proto))

    intc = None
    has_irq = (linked.irq is not None) if irq is None else irq
    from pushpush.codegen.vivado import (CONCAT_VLNV, INTC_CONCAT, INTC_INSTANCE, INTC_SIZE,
                                         INTC_VLNV, TOP_INSTANCE, interrupt_sources,
                                         intc_address_block)
    sources = [(instance if cell == TOP_INSTANCE else cell, pin)
               for cell, pin in interrupt_sources(linked) if cell != TOP_INSTANCE or has_irq]
    if has_irq and linked.irq is None:      # a hand-written top with an irq (test fixtures)
        sources.insert(0, (instance, "irq"))
    if sources:
        # the interrupt lines (the top's irq first, then each DMA's mm2s/s2mm_introut) ->
        # xlconcat_0/In<i> -> dout -> axi_intc_0/intr[i] (one line: straight into intr),
        # axi_intc_0/irq -> IRQ_F2P[0]; the controller's AXI4-Lite registers on the GP0
        # SmartConnect's second master port
        ib, isz = intc_address_block(linked) or (None, INTC_SIZE)
        if ib is None:   # only for a hand-written top's irq: the controller's default place
            from pushpush.codegen.vivado import INTC_BASE
            ib = INTC_BASE
        n = len(sources)
        concat = INTC_CONCAT if n > 1 else None
        intc = {"instance": INTC_INSTANCE, "vlnv": INTC_VLNV, "base": ib, "size": isz,
                "inputs": n, "kind_of_intr": f"0x{(0xFFFFFFFF << n) & 0xFFFFFFFF:08X}",
                "concat": concat, "concat_vlnv": CONCAT_VLNV,
                "sources": [f"{c}/{p}" for c, p in sources], "registers": intc_registers(n)}
        level = ":".join(["LEVEL_HIGH"] * n)
        into = f"{concat}_dout" if concat else f"{sources[0][0]}_{sources[0][1]}"
        intc_irq = f"{INTC_INSTANCE}_irq"
        for i, (cell, pin) in enumerate(sources):
            net = f"{cell}_{pin}"
            dest = (concat, f"In{i}") if concat else (INTC_INSTANCE, "intr")
            d.port(cell, pin, "O", 1, net, [dest], sigis="INTERRUPT", sensitivity="LEVEL_HIGH")
            if concat:
                d.port(concat, f"In{i}", "I", 1, net, [(cell, pin)], sigis="INTERRUPT",
                       sensitivity="LEVEL_HIGH", vector=True)
        if concat:
            d.port(concat, "dout", "O", n, into, [(INTC_INSTANCE, "intr")], sigis="INTERRUPT",
                   sensitivity=level, vector=True)
        d.port(INTC_INSTANCE, "intr", "I", n, into,
               [(concat, "dout")] if concat else [sources[0]], sigis="INTERRUPT",
               sensitivity=level, vector=True)
        d.port(INTC_INSTANCE, "irq", "O", 1, intc_irq, [(PS, b.irq_port)],
               sigis="INTERRUPT", sensitivity="LEVEL_HIGH")
        d.port(PS, b.irq_port, "I", 1, intc_irq, [(INTC_INSTANCE, "irq")],
               sigis="INTERRUPT", sensitivity="LEVEL_HIGH", vector=True)
        d.port(INTC_INSTANCE, "s_axi_aclk", "I", 1, clk_net, [(PS, clk_pin)],
               sigis="clk", clkfrequency=fclk.hz)
        for p in d.ports[PS]:
            if p["name"] == clk_pin:
                p["peers"].append((INTC_INSTANCE, "s_axi_aclk"))
        periph_rstn = f"{RESET_INSTANCE}_peripheral_aresetn"
        d.port(RESET_INSTANCE, "peripheral_aresetn", "O", 1, periph_rstn,
               [(INTC_INSTANCE, "s_axi_aresetn")], sigis="rst", polarity="ACTIVE_LOW")
        d.port(INTC_INSTANCE, "s_axi_aresetn", "I", 1, periph_rstn,
               [(RESET_INSTANCE, "peripheral_aresetn")], sigis="rst", polarity="ACTIVE_LOW")
        d.link(f"{sc_in}_M01_AXI", (sc_in, "sc", "M01_AXI"), (INTC_INSTANCE, "intc", "s_axi"),
               _AXI_LITE, fclk, (32, 0, "AXI4LITE"), (32, 0, "AXI4LITE"))

    dmas = _dma_modules(linked, d, fclk, sc_in, first_mi=2 if intc else 1, b=b)
    if zu:
        ps_params = _zu_ps_params(b, fclk, dw, intc is not None,
                                  [pl_to_ps_name] + ([buf_port_name] if buf_port_name else [])
                                  + [dm["hp_port"] for dm in dmas], dmas)

    else:
        ps_params = _ps7_params(fclk, hp, ps_dw, buf_port, high, intc is not None, dmas)
    return _render(linked, b, top, instance, fclk, base, size, seg_base, seg_size, ps_seg,
                   pl_to_ps_name, m_port, ps_params, d, intc, dmas, buf_sc, buf_port_name)


def _ps7_params(fclk: Fclk, hp: bool, ps_dw: int, buf_port: Optional[str], high: bool,
                has_intc: bool, dmas: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The processing_system7's parameters, as Vivado writes them (each once)."""
    intc = has_intc
    ps_params: list[tuple[str, str]] = [
        ("C_FCLK_CLK0_BUF", "TRUE"),
        ("PCW_CRYSTAL_PERIPHERAL_FREQMHZ", "50"),
        ("PCW_APU_PERIPHERAL_FREQMHZ", "650"),
        ("PCW_UIPARAM_DDR_FREQ_MHZ", "525"),
        ("PCW_USE_M_AXI_GP0", "1"),
        ("PCW_USE_S_AXI_GP0", "0" if hp else "1"),
        ("PCW_USE_S_AXI_HP0", "1" if hp else "0"),
        *((("PCW_S_AXI_HP0_DATA_WIDTH", str(ps_dw)),) if hp else ()),
        *(((f"PCW_USE_S_AXI_HP{buf_port[-1]}", "1"),
           (f"PCW_S_AXI_HP{buf_port[-1]}_DATA_WIDTH", str(_fabric.BUF_DATA_WIDTH))) if buf_port else ()),
        ("PCW_USE_HIGH_OCM", "1" if high else "0"),
        ("PCW_EN_CLK0_PORT", "1"),
        ("PCW_EN_RST0_PORT", "1"),
        ("PCW_FPGA0_PERIPHERAL_FREQMHZ", fclk.mhz),
        ("PCW_ACT_FPGA0_PERIPHERAL_FREQMHZ", f"{fclk.actual_mhz:.6f}"),
        ("PCW_CLK0_FREQ", str(fclk.hz)),
        ("PCW_IO_IO_PLL_FREQMHZ", f"{IO_PLL_MHZ:.3f}"),
        ("PCW_USE_FABRIC_INTERRUPT", "1" if intc else "0"),
        ("PCW_IRQ_F2P_INTR", "1" if intc else "0"),
        ("PCW_NUM_F2P_INTR_INPUTS", "1"),
        *[p for dma in dmas for p in dma["ps_params"]],
    ]
    ps_params = _merge_ps_params(ps_params)
    for i in range(4):
        d0, d1 = (fclk.div0, fclk.div1) if i == 0 else (1, 1)
        ps_params += [
            (f"PCW_FCLK{i}_PERIPHERAL_CLKSRC", "IO PLL"),
            (f"PCW_FCLK{i}_PERIPHERAL_DIVISOR0", str(d0)),
            (f"PCW_FCLK{i}_PERIPHERAL_DIVISOR1", str(d1)),
            (f"PCW_FPGA_FCLK{i}_ENABLE", "1" if i == 0 else "0"),
        ]
    return ps_params


def _render(linked: LinkedSystem, b: Any, top: str, instance: str, fclk: Fclk, base: int,
            size: int, seg_base: int, seg_size: int, ps_seg: str, pl_to_ps: str, m_port: str,
            ps_params: list[tuple[str, str]], d: "_Design", intc: Optional[dict[str, Any]],
            dmas: list[dict[str, Any]], buf_sc: Optional[str],
            buf_port: Optional[str]) -> str:
    from pushpush.codegen.vivado import bd_design_name
    PS = b.ps_instance
    header = generated_header("", linked.source_file).strip()
    return render_template(
        "pynq/system.hwh.j2",
        header=header.replace("--", "- -"),
        generator=f"pushpush {__version__}",
        sys=linked,
        part=b.part,
        board=b,
        ddr_hi=b.ddr_segment[1] + b.ddr_segment[2] - 1,
        design=bd_design_name(linked),
        top=top,
        vlnv=module_ref_vlnv(top),
        instance=instance,
        ps_instance=PS,
        reset_instance=RESET_INSTANCE,
        converters=[c for c, _, _ in CONVERTERS] + ([buf_sc] if buf_sc else []),
        buf=None if not buf_port else {"port": buf_port,
                                       "seg": _ddr_seg(b, buf_port),
                                       "base": b.ddr_segment[1], "size": b.ddr_segment[2]},
        m_port=m_port,
        fclk=fclk,
        pl_block={"base": base, "size": size},
        top_registers=(trace_registers(linked.trace.base - base) if linked.trace is not None else ()),
        ps_block={"base": seg_base, "size": seg_size},
        ps_seg=ps_seg,
        ps_port=pl_to_ps,
        ps_params=ps_params,
        ports=d.ports,
        buses=d.buses,
        intc=intc,
        dmas=dmas,
    )


def _ddr_seg(b: Any, port: str) -> str:
    """Vivado's name of the DDR segment a PS slave port offers: ``HP2_DDR_LOWOCM`` (Zynq),
    ``HP2_DDR_LOW`` (ZynqMP, ``S_AXI_HP2_FPD``)."""
    n = port.replace("S_AXI_", "").replace("_FPD", "")
    return f"{n}_DDR_LOW" if b.is_zynqmp else f"{n}_DDR_LOWOCM"


#: zynq_ultra_ps_e's numbering of its PL-facing AXI ports (UG1085; PYNQ's
#: embedded_device.py ZU_FPD_SLCR_REG/ZU_AXIFM_REG program them by these numbers).
ZU_SAXIGP = {"S_AXI_HPC0_FPD": 0, "S_AXI_HPC1_FPD": 1, "S_AXI_HP0_FPD": 2, "S_AXI_HP1_FPD": 3,
             "S_AXI_HP2_FPD": 4, "S_AXI_HP3_FPD": 5}


def _zu_ps_params(b: Any, fclk: Fclk, dw: int, has_intc: bool, slaves: list[str],
                  dmas: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The zynq_ultra_ps_e's parameters, named as Vivado writes them (rfsoc_sam.hwh): the
    HPM0_FPD master and every used slave port at the fabric's width (``PSU__*__DATA_WIDTH``
    and the ``C_*_DATA_WIDTH`` PYNQ programs the AFIFM/SLCR width registers from at load),
    PL clock 0 from the IOPLL, the fabric reset and pl_ps_irq0."""
    widths: dict[str, int] = {}
    for port in slaves:
        w = next((dm["data_width"] for dm in dmas if dm["hp_port"] == port), None)
        widths[port] = w if w is not None else (_fabric.BUF_DATA_WIDTH if port != slaves[0] else dw)
    fbdiv = int(round(b.pll_mhz * 2 / b.ref_clk_mhz))
    out: list[tuple[str, str]] = [
        ("PSU__PSS_REF_CLK__FREQMHZ", f"{b.ref_clk_mhz:g}"),
        ("PSU__CRL_APB__IOPLL_CTRL__FBDIV", str(fbdiv)),
        ("PSU__CRL_APB__IOPLL_CTRL__DIV2", "1"),
        ("PSU__USE__M_AXI_GP0", "1"), ("PSU__MAXIGP0__DATA_WIDTH", str(dw)),
        ("C_MAXIGP0_DATA_WIDTH", str(dw)),
    ]
    for port in sorted(widths, key=ZU_SAXIGP.__getitem__):
        n = ZU_SAXIGP[port]
        out += [(f"PSU__USE__S_AXI_GP{n}", "1"), (f"PSU__SAXIGP{n}__DATA_WIDTH", str(widths[port])),
                (f"C_SAXIGP{n}_DATA_WIDTH", str(widths[port]))]
    out += [
        ("PSU__USE__FABRIC__RST", "1"), ("PSU__NUM_FABRIC_RESETS", "1"),
        ("PSU__USE__IRQ0", "1" if has_intc else "0"),
        ("PSU__PL_CLK0_BUF", "TRUE"), ("C_PL_CLK0_BUF", "TRUE"),
    ]
    for i in range(4):
        d0, d1 = (fclk.div0, fclk.div1) if i == 0 else (1, 1)
        out += [
            (f"PSU__FPGA_PL{i}_ENABLE", "1" if i == 0 else "0"),
            (f"PSU__CRL_APB__PL{i}_REF_CTRL__SRCSEL", "IOPLL"),
            (f"PSU__CRL_APB__PL{i}_REF_CTRL__DIVISOR0", str(d0)),
            (f"PSU__CRL_APB__PL{i}_REF_CTRL__DIVISOR1", str(d1)),
        ]
        if i == 0:
            out += [(f"PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ", fclk.mhz),
                    (f"PSU__CRL_APB__PL0_REF_CTRL__ACT_FREQMHZ", f"{fclk.actual_mhz:.6f}")]
    return _merge_ps_params(out)


def _merge_ps_params(params: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each PS parameter once, in first-seen order: a port that any user switches on
    (``PCW_USE_*`` = "1") is on, and a data width given twice must agree. Vivado writes every
    parameter once; PYNQ's two parsers read the first (PYNQ 3.1's ``hwh_parser``) or the
    last (``pynqmetadata``) of a repeated name, so a repeat would split them."""
    out: dict[str, str] = {}
    for k, v in params:
        if k not in out:
            out[k] = v
        elif k.startswith(("PCW_USE_", "PSU__USE__")):
            out[k] = "1" if "1" in (out[k], v) else v
        elif out[k] != v:
            raise ValueError(f"the PS parameter {k} is asked for twice with different values "
                             f"({out[k]!r}, {v!r}): two ports of the design disagree")
    return list(out.items())


#: What the Xilinx AXI DMA 7.1 calls its AXI4-Lite register port, and its parameters that do
#: not depend on the system (simple mode: no scatter-gather, no micro DMA, one channel each
#: way, DRE on both channels as pp_axi_dma always realigns, 26-bit LENGTH).
DMA_VLNV = "xilinx.com:ip:axi_dma:7.1"
_DMA_FIXED = (("c_include_sg", "0"), ("c_micro_dma", "0"), ("c_enable_multi_channel", "0"),
              ("c_num_mm2s_channels", "1"), ("c_num_s2mm_channels", "1"),
              ("c_sg_include_stscntrl_strm", "0"), ("c_sg_use_stsapp_length", "0"),
              ("c_include_mm2s", "1"), ("c_include_s2mm", "1"), ("c_include_mm2s_dre", "1"),
              ("c_include_s2mm_dre", "1"), ("c_include_mm2s_sf", "1"), ("c_include_s2mm_sf", "1"),
              ("c_addr_width", "32"), ("c_single_interface", "0"), ("c_increase_throughput", "0"),
              ("c_prmry_is_aclk_async", "0"), ("c_dlytmr_resolution", "125"))
#: The AXI4-Lite signals of the DMA's register port (10-bit addresses, PG021).
_DMA_LITE = [(n, 10 if n.endswith("ADDR") else w, m) for n, w, m in _AXI_LITE]


def dma_parameters(dma: Any, len_width: int = 26) -> list[tuple[str, str]]:
    """The ``.hwh`` parameters of an AXI DMA (:class:`pushpush.link.DmaBlock`), lower-case as
    PYNQ's ``pynq.lib.dma.DMA`` reads them and upper-case as Vivado also writes them."""
    w = str(dma.data_width)
    burst = str(dma.max_burst)
    low = list(_DMA_FIXED) + [
        ("c_sg_length_width", str(len_width)), ("c_m_axi_mm2s_data_width", w),
        ("c_m_axis_mm2s_tdata_width", w), ("c_m_axi_s2mm_data_width", w),
        ("c_s_axis_s2mm_tdata_width", w), ("c_mm2s_burst_size", burst),
        ("c_s2mm_burst_size", burst)]
    return low + [(k.upper(), v) for k, v in low if k.upper() != k]


def _dma_modules(linked: LinkedSystem, d: "_Design", fclk: Fclk, sc_in: str,
                 first_mi: int, b: Any = None) -> list[dict[str, Any]]:
    """Each DMA of ``linked`` as the block design has it: its registers on the GP0
    SmartConnect's next master port, its memory masters on its HP port."""
    out = []
    for k, dma in enumerate(linked.dmas):
        mi = f"M{first_mi + k:02d}_AXI"
        d.link(f"{sc_in}_{mi}", (sc_in, "sc", mi), (dma.name, "sc", "S_AXI_LITE"), _DMA_LITE,
               fclk, (32, 0, "AXI4LITE"), (32, 0, "AXI4LITE"))
        hp = dma.hp_port.replace("S_AXI_", "")
        port = b.port(dma.hp_port) if b is not None else dma.hp_port
        out.append({
            "instance": dma.name, "base": dma.base, "size": dma.size, "hp_port": port,
            "data_width": dma.data_width,
            "hp_seg": _ddr_seg(b, port) if b is not None else f"{hp}_DDR_LOWOCM", "params": dma_parameters(dma), "registers": DMA_REGISTERS,
            "ps_params": [(f"PCW_USE_S_{hp.replace('HP', 'AXI_HP')}", "1"),
                          (f"PCW_S_{hp.replace('HP', 'AXI_HP')}_DATA_WIDTH", str(dma.data_width))],
        })
    return out
