"""The DMA-driver form on the simulated board: the PL around the system top.

A system with a ``dma:`` (:attr:`pushpush.link.LinkedSystem.dmas`) has, in the Vivado block
design, a Xilinx AXI DMA 7.1 beside the system top: its registers on the GP0 SmartConnect,
its memory masters on an HP port, its streams on the top's ``<dma>_mm2s_*`` and
``<dma>_s2mm_*`` ports. The simulated board runs the same structure:
:func:`render_dma_shell` renders ``templates/verilog/dma_shell.v.j2``, the module
``<system>_dma_shell`` holding the top, one ``pp_axi_dma`` per DMA (behind
``pp_axi_axil_bridge``) and a 1 x (DMAs + 1) ``pp_axi_interconnect`` standing for the GP0
SmartConnect. The harness serves each DMA's memory master with its own ``pp_sim_mem``
(:func:`dma_mem_ports`).

>>> dma_shell_name(linked)          # doctest: +SKIP
'dmademo_dma_shell'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pushpush.link import DmaBlock, LinkedSystem

from .render import generated_header, render_template
from .fabric import (BUF_DATA_WIDTH, BUFFER_TIMEOUT_CYCLES, axi_signals, buf_id_width, clog2,
                     dma_firewall_name, system_buffers, top_id_widths, top_module_name)
from .simboard import PsMemPort
from .top_model import AxiSignal, Slave, StreamPort, dma_stream_ports

__all__ = ["DMA_CORES", "DMA_ID_WIDTH", "DMA_LEN_WIDTH", "ShellDma", "dma_shell_name", "dma_mem_ports",
           "render_dma_shell", "shell_interrupt_ports", "dma_firewall_name", "render_dma_firewall",
           "dma_firewall_files", "dma_cores"]

#: The cores the shell instantiates (besides the top's).
DMA_CORES = ("interconnect", "axil_bridge", "axi_dma")
#: ID width of a DMA's memory master (the Zynq-7000 HP ports' 6 bits).
DMA_ID_WIDTH = 6
#: The LENGTH registers' width (PG021's maximum, c_sg_length_width = 26: up to 64 MiB - 1).
DMA_LEN_WIDTH = 26
#: The signals pp_axi_dma's m_axi has (no AxLOCK: the shell ties those to 0).
_DMA_AXI = ("awid", "awaddr", "awlen", "awsize", "awburst", "awcache", "awprot", "awvalid",
            "awready", "wdata", "wstrb", "wlast", "wvalid", "wready", "bid", "bresp", "bvalid",
            "bready", "arid", "araddr", "arlen", "arsize", "arburst", "arcache", "arprot",
            "arvalid", "arready", "rid", "rdata", "rresp", "rlast", "rvalid", "rready")


def dma_shell_name(linked: LinkedSystem) -> str:
    return f"{linked.name}_dma_shell"


def dma_cores(linked: LinkedSystem) -> tuple[str, ...]:
    """The cores the shell instantiates: :data:`DMA_CORES`, and ``mem_firewall`` when the
    DMAs have firewalls."""
    return DMA_CORES + (("mem_firewall",) if _has_firewalls(linked) else ())


def _has_firewalls(linked: LinkedSystem) -> bool:
    return any(d.firewall is not None for d in linked.dmas)


def _symbolic_axi() -> list[tuple[str, "int | str", str]]:
    """The AXI4 signals (:func:`~.fabric.axi_signals`) with the widths of IDs, data and
    strobes as the module's parameters (``ID_WIDTH``, ``DATA_WIDTH``, ``DATA_WIDTH/8``; the
    template prefixes ``REG_`` for the register page's)."""
    sym = {"awid": "ID_WIDTH", "bid": "ID_WIDTH", "arid": "ID_WIDTH", "rid": "ID_WIDTH",
           "wdata": "DATA_WIDTH", "rdata": "DATA_WIDTH", "wstrb": "DATA_WIDTH/8"}
    return [(n, sym.get(n, w), d) for n, w, d in axi_signals(32, 1)]


def render_dma_firewall(linked: LinkedSystem) -> str:
    """The ``<system>_dma_firewall`` module (Verilog text): ``pp_mem_firewall`` with
    :data:`~pushpush.link.DMA_FIREWALL_ENTRIES` entries and the clock/reset declarations a
    Vivado module reference needs (ValueError when no DMA has a firewall)."""
    if not _has_firewalls(linked):
        raise ValueError(f"system '{linked.name}' has no DMA with a memory firewall (dma: and firewall:)")
    from pushpush.link import DMA_FIREWALL_ENTRIES
    from .vivado import top_clock_hz
    s_id, _ = top_id_widths(linked)
    return render_template(
        "verilog/dma_firewall.v.j2",
        header=generated_header("//", linked.source_file),
        module=dma_firewall_name(linked),
        linked=linked,
        entries=DMA_FIREWALL_ENTRIES,
        id_width=DMA_ID_WIDTH,
        reg_data_width=linked.interconnect.data_width,
        reg_id_width=s_id,
        freq_hz=top_clock_hz(linked),
        sig=_symbolic_axi(),
    )


def dma_firewall_files(linked: LinkedSystem) -> dict[str, str]:
    """``{"rtl/<system>_dma_firewall.v": text}`` for a system whose DMAs have firewalls (the
    block design's module reference; the simulated board renders it beside the shell), else
    ``{}``."""
    if not _has_firewalls(linked):
        return {}
    return {f"rtl/{dma_firewall_name(linked)}.v": render_dma_firewall(linked)}


def dma_mem_ports(linked: LinkedSystem) -> list[PsMemPort]:
    """One :class:`PsMemPort` per DMA: ``<dma>_mem`` serving the shell's ``<dma>_axi_*``."""
    return [PsMemPort(f"{d.name}_mem", f"{d.name}_axi", d.data_width, DMA_ID_WIDTH, d.hp_port)
            for d in linked.dmas]


def shell_interrupt_ports(linked: LinkedSystem) -> list[str]:
    """The shell's interrupt outputs in the order of the block design's ``axi_intc_0``
    inputs (:func:`pushpush.codegen.vivado.interrupt_sources`): ``irq`` (the top's, when it
    has one), then ``<dma>_mm2s_introut`` and ``<dma>_s2mm_introut`` of every DMA.

    >>> shell_interrupt_ports(linked)     # doctest: +SKIP
    ['irq', 'axi_dma_0_mm2s_introut', 'axi_dma_0_s2mm_introut']
    """
    from .vivado import TOP_INSTANCE, interrupt_sources
    return [pin if cell == TOP_INSTANCE else f"{cell}_{pin}"
            for cell, pin in interrupt_sources(linked)]


def _fifo_log2(d: DmaBlock) -> int:
    # two bursts of FIFO at least (one written while the next fills), 64 words at least
    return max(6, clog2(2 * d.max_burst))


@dataclass(frozen=True)
class ShellDma:
    """A DMA in the shell (``templates/verilog/dma_shell.v.j2``): its register page
    (``base``), its memory master's port (``<name>_axi_*``, signals ``mem_sig``), its FIFO
    (2^``fifo_log2`` words) and the top's stream ports it drives and takes (``streams``)."""

    name: str
    component: str
    base: int
    hp_port: str
    data_width: int
    max_burst: int
    fifo_log2: int
    mem_sig: tuple[AxiSignal, ...]
    streams: tuple[StreamPort, ...]
    #: with ``firewall:``: its firewall's register page and its GP0 slave index (the DMA's
    #: master then drives ``<name>_dm_axi_*`` into ``<system>_dma_firewall``)
    fw_base: Optional[int] = None
    fw_slave: Optional[int] = None

    @property
    def dm(self) -> str:
        """The prefix of the DMA's own memory master's signals."""
        return f"{self.name}_dm_axi" if self.fw_base is not None else f"{self.name}_axi"


def _shell_dma(d: DmaBlock, fw_slave: Optional[int] = None) -> ShellDma:
    return ShellDma(d.name, d.component, d.base, d.hp_port, d.data_width, d.max_burst, _fifo_log2(d),
                    tuple(axi_signals(d.data_width, DMA_ID_WIDTH)), dma_stream_ports(d),
                    d.firewall_base, fw_slave)


def render_dma_shell(linked: LinkedSystem) -> str:
    """The shell module (Verilog text) of a system with DMAs (ValueError without any)."""
    if not linked.dmas:
        raise ValueError(f"system '{linked.name}' has no dma: no DMA shell")
    dw = linked.interconnect.data_width
    s_id, m_id = top_id_widths(linked)
    # buffer parameters' engines (the top's buf_axi): the shell passes the port through
    buf_sig = (axi_signals(BUF_DATA_WIDTH, buf_id_width(linked)) if system_buffers(linked)
               else [])
    from pushpush.boards import board
    lo, hi = board(linked.board).pl_range      # the PS master's whole range: GP0, HPM0_FPD
    # the DMAs' pages, their firewalls' pages (in pl, so before the top: the lowest index wins)
    slaves = [Slave(d.name, d.base, 16) for d in linked.dmas]
    fw_slave: dict[str, int] = {}
    for d in linked.dmas:
        if d.firewall_base is not None:
            fw_slave[d.name] = len(slaves)
            slaves.append(Slave(f"{d.name}_firewall", d.firewall_base, 12))
    slaves.append(Slave("top", lo, (hi - lo).bit_length() - 1))
    return render_template(
        "verilog/dma_shell.v.j2",
        header=generated_header("//", linked.source_file),
        module=dma_shell_name(linked),
        top=top_module_name(linked),
        linked=linked,
        dmas=[_shell_dma(d, fw_slave.get(d.name)) for d in linked.dmas],
        firewall_module=dma_firewall_name(linked),
        irq=linked.irq is not None,
        data_width=dw,
        s_id=s_id,
        m_count=len(slaves),
        slaves=slaves,
        s_sig=axi_signals(dw, s_id),
        m_sig=axi_signals(dw, m_id),
        buf_sig=buf_sig,
        buffer_timeout=BUFFER_TIMEOUT_CYCLES,
        dma_axi=_DMA_AXI,
        dma_id=DMA_ID_WIDTH,
        len_width=DMA_LEN_WIDTH,
    )
