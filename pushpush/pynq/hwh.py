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
  ``S_AXI_GP0`` over the ``ps`` region (the on-chip memory holding the software windows).

So ``Overlay("<system>.bit").ip_dict["system_top_0"]`` has ``phys_addr``/``addr_range`` of
the rtl windows' block and ``type`` the top's VLNV, on PYNQ 3.1 and 4.0.

Example::

    from pushpush.pynq.hwh import render_hwh
    text = render_hwh(linked)            # deterministic: same model, same text
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from pushpush import __version__
from pushpush.codegen.render import generated_header, render_template
from pushpush.link import LinkedSystem

__all__ = [
    "PS_INSTANCE",
    "IO_PLL_MHZ",
    "Fclk",
    "fclk_divisors",
    "hwh_path",
    "module_ref_vlnv",
    "render_hwh",
    "system_top_instance",
]

#: Name of the processing system cell (as the block-design tcl creates it).
PS_INSTANCE = "processing_system7_0"
#: The PYNQ-Z1's IO PLL (50 MHz crystal x 20), the source of the FCLKs.
IO_PLL_MHZ = 1000.0

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


def fclk_divisors(mhz: float, pll_mhz: float = IO_PLL_MHZ) -> Fclk:
    """The two 6-bit FCLK divisors of ``pll_mhz`` closest to ``mhz`` (smallest product, then
    smallest second divisor, on a tie).

    >>> f = fclk_divisors(100); (f.div0, f.div1, f.actual_mhz)
    (10, 1, 100.0)
    >>> fclk_divisors(142.86).div0 * fclk_divisors(142.86).div1
    7
    """
    if mhz <= 0:
        raise ValueError(f"clock_mhz must be positive, not {mhz}")
    best: Optional[tuple[float, int, int, int]] = None
    for d1 in range(1, 64):
        for d0 in range(1, 64):
            err = abs(pll_mhz / (d0 * d1) - mhz)
            key = (round(err, 9), d0 * d1, d1, d0)
            if best is None or key < best:
                best = key
    assert best is not None
    _, _, d1, d0 = best
    return Fclk(mhz=f"{mhz:g}", div0=d0, div1=d1, pll_mhz=f"{pll_mhz:g}",
                actual_mhz=round(pll_mhz / (d0 * d1), 6))


def hwh_path(linked: LinkedSystem) -> str:
    """``<system>.hwh`` (PYNQ looks for it next to ``<system>.bit``)."""
    return f"{linked.name}.hwh"


def system_top_instance() -> str:
    """The system top's cell name in the block design (``system_top_0``)."""
    from pushpush.codegen.vivado import TOP_INSTANCE
    return TOP_INSTANCE


def module_ref_vlnv(top: str) -> str:
    """The VLNV Vivado gives a module reference: ``xilinx.com:module_ref:<top>:1.0``."""
    return f"xilinx.com:module_ref:{top}:1.0"


def _bus(name: str, kind: str, busname: str, prefix: str, logical: list[str], data_width: int,
         id_width: int, protocol: str, fclk: Fclk) -> dict[str, Any]:
    params = [
        ("DATA_WIDTH", str(data_width)), ("PROTOCOL", protocol), ("FREQ_HZ", str(fclk.hz)),
        ("ID_WIDTH", str(id_width)), ("ADDR_WIDTH", "32"), ("READ_WRITE_MODE", "READ_WRITE"),
        ("HAS_BURST", "1"), ("HAS_WSTRB", "1"), ("HAS_BRESP", "1"), ("HAS_RRESP", "1"),
        ("MAX_BURST_LENGTH", "16" if protocol == "AXI3" else "256"),
        ("CLK_DOMAIN", "processing_system7_0_FCLK_CLK0"),
    ]
    return {"name": name, "type": kind, "busname": busname, "data_width": data_width,
            "params": params, "portmaps": [(lg, prefix + lg.lower() if prefix.islower()
                                            else prefix + lg) for lg in logical]}


def render_hwh(linked: LinkedSystem, *, top: Optional[str] = None,
               s_id_width: Optional[int] = None, m_id_width: Optional[int] = None,
               data_width: Optional[int] = None) -> str:
    """The ``.hwh`` text of ``linked`` (see the module docstring).

    ``top`` (the system top's module name, default ``<system>_top``), the ID widths and
    the data width of its AXI ports default to what :mod:`pushpush.codegen.rtl` generates;
    give them for a hand-written top (test fixtures).
    """
    from pushpush.codegen import rtl as _rtl
    from pushpush.codegen.vivado import (PYNQ_Z1_PART, ps_target, bd_design_name,
                                         pl_address_block)

    top = top or _rtl.top_module_name(linked)
    s_id, m_id = _rtl.top_id_widths(linked)
    s_id = s_id_width if s_id_width is not None else s_id
    m_id = m_id_width if m_id_width is not None else m_id
    dw = data_width or linked.interconnect.data_width
    instance = system_top_instance()
    fclk = fclk_divisors(float(linked.clock_mhz))
    base, size = pl_address_block(linked)
    seg_pattern, _ = ps_target(linked)
    ps_seg = "GP0_HIGH_OCM" if "HIGH_OCM" in seg_pattern else "GP0_DDR_LOWOCM"

    # the top's AXI4 ports, as rtl.py generates them
    top_sigs = {"s_axi": _rtl.axi_signals(dw, s_id), "m_axi": _rtl.axi_signals(dw, m_id)}
    top_ports: list[dict[str, Any]] = []
    ps_ports: list[dict[str, Any]] = []
    ps_of = {"s_axi": "M_AXI_GP0", "m_axi": "S_AXI_GP0"}
    for bus, sigs in top_sigs.items():
        names = {n for n, _, _ in sigs}
        master_is_ps = bus == "s_axi"
        for n, w, d in sigs:
            # d: "out" = driven by the master of this port
            driven_by_top = (d == "out") != master_is_ps
            ps_name = f"{ps_of[bus]}_{n.upper()}"
            peer_ok = any(lg.lower() == n for lg, _, _ in _AXI3)
            top_ports.append({"name": f"{bus}_{n}", "dir": "O" if driven_by_top else "I",
                              "width": w, "signame": f"{instance}_{bus}_{n}",
                              "peer": ps_name if peer_ok else ""})
        for lg, wk, by_master in _AXI3:
            w = (12 if master_is_ps else 6) if wk == "ID" else (dw if lg == "WDATA" or lg == "RDATA"
                                                                else dw // 8 if lg == "WSTRB"
                                                                else wk)
            ps_drives = by_master == master_is_ps
            peer = f"{bus}_{lg.lower()}" if lg.lower() in names else ""
            ps_ports.append({"name": f"{ps_of[bus]}_{lg}", "dir": "O" if ps_drives else "I",
                             "width": int(w), "signame": f"{instance}_{bus}_{lg.lower()}",
                             "peer": peer})
    s_logical = [n.upper() for n, _, _ in top_sigs["s_axi"]]
    m_logical = [n.upper() for n, _, _ in top_sigs["m_axi"]]
    ps_buses = [
        _bus("M_AXI_GP0", "MASTER", "processing_system7_0_M_AXI_GP0", "M_AXI_GP0_",
             [lg for lg, _, _ in _AXI3], 32, 12, "AXI3", fclk),
        _bus("S_AXI_GP0", "SLAVE", f"{instance}_m_axi", "S_AXI_GP0_",
             [lg for lg, _, _ in _AXI3], 32, 6, "AXI3", fclk),
    ]
    top_buses = [
        _bus("s_axi", "SLAVE", "processing_system7_0_M_AXI_GP0", "s_axi_", s_logical, dw, s_id,
             "AXI4", fclk),
        _bus("m_axi", "MASTER", f"{instance}_m_axi", "m_axi_", m_logical, dw, m_id, "AXI4", fclk),
    ]

    ps_params: list[tuple[str, str]] = [
        ("C_FCLK_CLK0_BUF", "TRUE"),
        ("PCW_CRYSTAL_PERIPHERAL_FREQMHZ", "50"),
        ("PCW_APU_PERIPHERAL_FREQMHZ", "650"),
        ("PCW_UIPARAM_DDR_FREQ_MHZ", "525"),
        ("PCW_USE_M_AXI_GP0", "1"),
        ("PCW_USE_S_AXI_GP0", "1"),
        ("PCW_EN_CLK0_PORT", "1"),
        ("PCW_EN_RST0_PORT", "1"),
        ("PCW_FPGA0_PERIPHERAL_FREQMHZ", fclk.mhz),
        ("PCW_ACT_FPGA0_PERIPHERAL_FREQMHZ", f"{fclk.actual_mhz:.6f}"),
    ]
    for i in range(4):
        d0, d1 = (fclk.div0, fclk.div1) if i == 0 else (1, 1)
        ps_params += [
            (f"PCW_FCLK{i}_PERIPHERAL_CLKSRC", "IO PLL"),
            (f"PCW_FCLK{i}_PERIPHERAL_DIVISOR0", str(d0)),
            (f"PCW_FCLK{i}_PERIPHERAL_DIVISOR1", str(d1)),
            (f"PCW_FPGA_FCLK{i}_ENABLE", "1" if i == 0 else "0"),
        ]
    header = generated_header("", linked.source_file).strip()
    return render_template(
        "pynq/system.hwh.j2",
        header=header.replace("--", "- -"),
        generator=f"pushpush {__version__}",
        sys=linked,
        part=PYNQ_Z1_PART,
        design=bd_design_name(linked),
        top=top,
        vlnv=module_ref_vlnv(top),
        instance=instance,
        fclk=fclk,
        pl_block={"base": base, "size": size},
        ps_block={"base": linked.ps.base, "size": linked.ps.size},
        ps_seg=ps_seg,
        ps_params=ps_params,
        ps_ports=ps_ports,
        ps_buses=ps_buses,
        top_ports=top_ports,
        top_buses=top_buses,
    )
