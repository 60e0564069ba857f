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

from typing import Any

from pushpush.link import DmaBlock, LinkedSystem

from .render import generated_header, render_template
from .rtl import (BUF_DATA_WIDTH, buf_id_width, system_buffers, _clog2, _vrange, axi_port_decls, axi_signals, dma_top_ports, top_id_widths,
                  top_module_name)
from .simboard import PsMemPort

__all__ = ["DMA_CORES", "DMA_ID_WIDTH", "DMA_LEN_WIDTH", "dma_shell_name", "dma_mem_ports",
           "render_dma_shell", "shell_interrupt_ports"]

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
    return max(6, _clog2(2 * d.max_burst))


def _dma_ctx(d: DmaBlock) -> dict[str, Any]:
    mem = axi_port_decls(f"{d.name}_axi", axi_signals(d.data_width, DMA_ID_WIDTH), master=True)
    streams = [f"{_vrange(w)}{top_port}" for top_port, _, w in dma_top_ports(d)]
    return {"name": d.name, "component": d.component, "base": d.base, "hp_port": d.hp_port,
            "data_width": d.data_width, "max_burst": d.max_burst, "fifo_log2": _fifo_log2(d),
            "mem_decls": mem, "stream_wires": streams,
            "stream_names": [top_port for top_port, _, _ in dma_top_ports(d)]}


def render_dma_shell(linked: LinkedSystem) -> str:
    """The shell module (Verilog text) of a system with DMAs (ValueError without any)."""
    if not linked.dmas:
        raise ValueError(f"system '{linked.name}' has no dma: no DMA shell")
    dw = linked.interconnect.data_width
    s_id, m_id = top_id_widths(linked)
    # buffer parameters' engines (the top's buf_axi): the shell passes the port through
    buf_sig = (axi_signals(BUF_DATA_WIDTH, buf_id_width(linked)) if system_buffers(linked)
               else [])
    slaves = [(d.base, 16) for d in linked.dmas] + [(0x4000_0000, 30)]
    return render_template(
        "verilog/dma_shell.v.j2",
        header=generated_header("//", linked.source_file),
        module=dma_shell_name(linked),
        top=top_module_name(linked),
        linked=linked,
        dmas=[_dma_ctx(d) for d in linked.dmas],
        irq=linked.irq is not None,
        data_width=dw,
        s_id=s_id,
        m_count=len(slaves),
        base_addr="{" + ", ".join(f"32'h{b:08X}" for b, _ in reversed(slaves)) + "}",
        addr_bits="{" + ", ".join(f"32'd{w}" for _, w in reversed(slaves)) + "}",
        s_sig=axi_signals(dw, s_id),
        m_sig=axi_signals(dw, m_id),
        s_decls=axi_port_decls("s_axi", axi_signals(dw, s_id), master=False),
        m_decls=axi_port_decls("m_axi", axi_signals(dw, m_id), master=True),
        buf_sig=buf_sig,
        buf_decls=axi_port_decls("buf_axi", buf_sig, master=True) if buf_sig else [],
        dma_axi=_DMA_AXI,
        dma_id=DMA_ID_WIDTH,
        len_width=DMA_LEN_WIDTH,
        sl=_sl,
    )


def _sl(i: int, w: int) -> str:
    return f"[{i}]" if w == 1 else f"[{(i + 1) * w - 1}:{i * w}]"
