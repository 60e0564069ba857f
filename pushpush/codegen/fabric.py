"""The fabric's shared definitions for code generation: the constants of the generated
Verilog (ID, address and data widths, the call engine's and buffer engines' parameters, the
interconnect's settings), the names of generated modules, the buffer engines of a system and
the AXI4 signal table of a port.

Every generator of :mod:`pushpush.codegen` (the wrapper, top and stub models, the channel and
DMA shells, the Vivado block design, the hardware handoff, the simulated board's harness)
reads these from here, so one number has one place. Nothing here renders text.

Example::

    from pushpush.codegen.fabric import axi_signals, top_module_name
    top_module_name(linked)          # "<system>_top"
    axi_signals(32, 12)[0]           # ("awid", 12, "out")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pushpush.link import WORD_BYTES, LinkedComponent, LinkedSystem
from pushpush.types import BufferType

__all__ = [
    "PS_ID_WIDTH", "ADDR_WIDTH", "ENGINE_MAX_OUTSTANDING", "MAX_WINDOW_BITS", "TAG_FIFO_BITS",
    "BUF_ID_WIDTH", "BUF_DATA_WIDTH", "BUF_MAX_BURST", "BUF_FIFO_LOG2", "BUFFER_TIMEOUT_CYCLES",
    "CROSSBAR_READ_TOPOLOGY", "CROSSBAR_SKID_BUFFERS", "ARBITRATION", "PAGE_BYTES",
    "PS_WINDOW_SIGNALS",
    "top_module_name", "wrapper_module_name", "channel_shell_name", "core_dependencies",
    "rtl_components", "pl_components", "clog2", "engine_split", "top_id_widths",
    "BufferEngine", "buffer_engines", "system_buffers", "buffer_port", "buf_id_width",
    "axi_signals",
]

#: ID width of the top's ``s_axi`` port (the Zynq M_AXI_GP0 master has 12-bit IDs); every
#: interconnect slave port (the engines' too) uses it.
PS_ID_WIDTH = 12
#: Global address width.
ADDR_WIDTH = 32
#: Bursts a component's call engine may have awaiting their B response.
ENGINE_MAX_OUTSTANDING = 4
#: pp_endpoint_mem takes at most 18 window address bits (16-bit word offsets).
MAX_WINDOW_BITS = 18
#: Words of the engine's done-tag FIFO (>= ENGINE_MAX_OUTSTANDING + 1, a power of two).
TAG_FIFO_BITS = 3

_CORES = ["axi_slave", "call_engine", "endpoint_mem", "req_arbiter", "call_site", "export", "interconnect", "abe", "ps_window", "irq",
          "axi_dma", "chnl"]

#: Buffer engines (cores/axi_dma): AXI ID width of each engine's port, data width of the
#: engines and of the top's ``buf_axi`` port (S_AXI_HP0), beats per burst, log2 FIFO words,
#: and the cycles without a stream element after which a transfer is aborted.
BUF_ID_WIDTH = 1
BUF_DATA_WIDTH = 32
BUF_MAX_BURST = 16
BUF_FIFO_LOG2 = 5
BUFFER_TIMEOUT_CYCLES = 65536
#: The crossbar's read path (pp_axi_interconnect READ_TOPOLOGY): PushPush's calls and returns
#: are writes; reads are only the windows' counters and register pages, rare and never on
#: a call's path, so one shared AR/R path serves them (a fraction of a crossbar's area).
CROSSBAR_READ_TOPOLOGY = 1
#: The crossbar's register stages (pp_axi_interconnect SKID_BUFFERS): single registers (same
#: latency and throughput, half the flip-flops; each ready passes the downstream ready on).
CROSSBAR_SKID_BUFFERS = 0
#: ``interconnect: {arbitration: ...}`` -> pp_axi_interconnect's ARBITRATION parameter.
ARBITRATION = {"round_robin": 0, "fair": 1}


# --------------------------------------------------------------------------- names


def top_module_name(linked: LinkedSystem) -> str:
    """``<system>_top``."""
    return f"{linked.name}_top"


def wrapper_module_name(comp: LinkedComponent) -> str:
    """``<component>_wrapper``."""
    return f"{comp.name}_wrapper"


def channel_shell_name(comp: LinkedComponent) -> str:
    """``<component>_chnl_shell``: the module between the wrapper and the user's module of a
    component with ``channels:`` (:mod:`pushpush.codegen.channel_shell`)."""
    return f"{comp.name}_chnl_shell"


def dma_firewall_name(linked: LinkedSystem) -> str:
    """``<system>_dma_firewall``: the module between an AXI DMA's memory master and PS
    memory in a system with ``firewall:`` (:mod:`pushpush.codegen.dma`)."""
    return f"{linked.name}_dma_firewall"


def core_dependencies(linked: Optional[LinkedSystem] = None) -> list[str]:
    """The ``cores/`` folders whose modules the generated RTL may instantiate (``abe`` only
    for components with an ``abe:`` entry; listing it always keeps the file lists
    independent of the system), and ``trace`` for a system with ``trace:`` (the PL trace
    buffer: only there, so a system without it lists exactly what it did before), and
    ``mem_firewall`` for a system with ``firewall:`` (likewise: the buffer engines', the
    AXI DMAs' firewall or the window guard)."""
    fw = linked is not None and (linked.firewall is not None or linked.window_guard is not None
                                 or any(d.firewall is not None for d in linked.dmas))
    return (list(_CORES) + (["trace"] if linked is not None and linked.trace is not None else [])
            + (["mem_firewall"] if fw else []))


def rtl_components(linked: LinkedSystem) -> list[LinkedComponent]:
    """The rtl components, in declaration order (the order of wrappers, engines, windows)."""
    return [c for c in linked.components if c.kind == "rtl"]


def pl_components(linked: LinkedSystem) -> list[LinkedComponent]:
    """The components whose window is in the PL, in declaration order: rtl (a wrapper),
    riscv (a soft core, cores/riscv) and hls participants (their IP's placement), as the
    top's interconnect has them."""
    return [c for c in linked.components if c.kind in ("rtl", "riscv", "hls")]


def clog2(n: int) -> int:
    return max(0, (n - 1).bit_length())


#: AXI's burst boundary: no burst may cross a 4 KiB page.
PAGE_BYTES = 4096


def engine_split(linked: LinkedSystem, max_words: int) -> bool:
    """Whether a call engine of ``linked`` must split requests (``pp_call_engine`` SPLIT).

    An engine writes a call into a cep slot and a result into a rep slot; the rep address
    comes from the trigger at run time and may be any rep slot of the system, including the
    run-time area of a software window. When no slot and no run-time area crosses a 4 KiB
    page and ``max_words`` words fit one burst of 256 beats from any start lane, every
    request is one burst, and the engine needs no splitter."""
    lanes = linked.interconnect.data_width // 32
    if (max_words + 2 * (lanes - 1)) // lanes > 256:
        return True
    spans = [(s.address, s.words) for c in linked.components for s in c.slots]
    spans += [(c.runtime_address, c.runtime_words) for c in linked.components
              if c.runtime_words]
    return any(a // PAGE_BYTES != (a + WORD_BYTES * max(1, n) - 1) // PAGE_BYTES for a, n in spans)


def top_id_widths(linked: LinkedSystem) -> tuple[int, int]:
    """(ID width of the top's ``s_axi`` port and of every engine, ID width of the top's
    ``m_axi`` port and of every window): the interconnect extends IDs by the master index."""
    s_count = 1 + len(pl_components(linked))
    return PS_ID_WIDTH, PS_ID_WIDTH + clog2(s_count)


# --------------------------------------------------------------------------- buffer engines


@dataclass(frozen=True)
class BufferEngine:
    """A buffer parameter of an rtl export and the DMA engine (cores/axi_dma) that serves it:
    ``group`` is the port group ``<export>_<param>``, ``local`` its index among the
    component's engines (its wrapper port ``b<local>_axi_*``), ``param_index`` the
    parameter's position (in the error status)."""

    export: str
    param: str
    param_index: int
    type: BufferType
    local: int

    @property
    def group(self) -> str:
        return f"{self.export}_{self.param}"


def buffer_engines(comp: LinkedComponent) -> list[BufferEngine]:
    """The buffer engines of an rtl component, exports and parameters in declaration order."""
    out: list[BufferEngine] = []
    for e in comp.exports:
        for a in e.signature.buffer_params():
            assert isinstance(a.type, BufferType)
            out.append(BufferEngine(e.name, a.name, a.index, a.type, len(out)))
    return out


def system_buffers(linked: LinkedSystem) -> list[tuple[LinkedComponent, BufferEngine]]:
    """Every buffer engine of the system, in the order of the top's buffer interconnect."""
    return [(c, b) for c in rtl_components(linked) for b in buffer_engines(c)]


def buffer_port(linked: LinkedSystem) -> Optional[str]:
    """The Zynq port the top's ``buf_axi`` master stands for: ``S_AXI_HP0``, or ``S_AXI_HP1``
    when ``m_axi`` is on HP0 (``software_windows: ddr``); None without buffer engines."""
    if not system_buffers(linked):
        return None
    return "S_AXI_HP1" if linked.software_windows == "ddr" else "S_AXI_HP0"


def buf_id_width(linked: LinkedSystem) -> int:
    """ID width of the top's ``buf_axi`` port (the engines' IDs plus the engine index)."""
    return BUF_ID_WIDTH + clog2(max(1, len(system_buffers(linked))))


# --------------------------------------------------------------------------- AXI signals

#: (signal, width expression, direction from the master's point of view)
_AXI = [
    ("awid", "ID", "out"), ("awaddr", "A", "out"), ("awlen", 8, "out"), ("awsize", 3, "out"),
    ("awburst", 2, "out"), ("awlock", 1, "out"), ("awcache", 4, "out"), ("awprot", 3, "out"),
    ("awvalid", 1, "out"), ("awready", 1, "in"),
    ("wdata", "D", "out"), ("wstrb", "S", "out"), ("wlast", 1, "out"), ("wvalid", 1, "out"),
    ("wready", 1, "in"),
    ("bid", "ID", "in"), ("bresp", 2, "in"), ("bvalid", 1, "in"), ("bready", 1, "out"),
    ("arid", "ID", "out"), ("araddr", "A", "out"), ("arlen", 8, "out"), ("arsize", 3, "out"),
    ("arburst", 2, "out"), ("arlock", 1, "out"), ("arcache", 4, "out"), ("arprot", 3, "out"),
    ("arvalid", 1, "out"), ("arready", 1, "in"),
    ("rid", "ID", "in"), ("rdata", "D", "in"), ("rresp", 2, "in"), ("rlast", 1, "in"),
    ("rvalid", 1, "in"), ("rready", 1, "out"),
]


def axi_signals(data_width: int, id_width: int) -> list[tuple[str, int, str]]:
    """The AXI4 signals of a port: (name without prefix, width, "out"/"in" seen from the
    master)."""
    w = {"ID": id_width, "A": ADDR_WIDTH, "D": data_width, "S": data_width // 8}
    return [(n, w[x] if isinstance(x, str) else x, d) for n, x, d in _AXI]


#: The m_axi signals that go through ``pp_ps_window`` with ``software_windows: ddr``.
PS_WINDOW_SIGNALS = ("awaddr", "awvalid", "awready", "araddr", "arvalid", "arready")
