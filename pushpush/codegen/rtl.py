"""Verilog generation: one wrapper per ``rtl`` component and the system top.

The wrapper (``templates/verilog/wrapper.v.j2``) puts a user's Verilog module on the
PushPush fabric. It instantiates the component's endpoint window (``pp_endpoint_mem``, slot
tables from the linked model), one call engine (``pp_call_engine``, the component's only AXI
master, behind ``pp_req_arbiter``), a ``pp_export`` per export and a ``pp_call_site`` per
import and function-typed parameter (they turn triggers into valid/ready calls and results
into requests), and the user module; what remains in the template is wiring (argument and
result words from the window's read ports), the fault counters and the buffer engines. The
template gets a typed model (:mod:`pushpush.codegen.wrapper_model`), no Verilog text: its
expressions are macros of ``templates/verilog/wrapper_macros.v.j2``. The user module sees
only typed valid/ready port groups (the contract in ``docs/rtl-ports.md``, computed here by
:func:`user_ports`).

The system top (``templates/verilog/top.v.j2``) instantiates every wrapper and one
``pp_axi_interconnect``: masters are the PS-to-PL port (the ARM's GP0) then every rtl
component's engine; slaves are every rtl window then one port covering the whole ``ps``
region (the ARM's windows in on-chip memory, reached through the top's ``m_axi_*`` port).
Its ``M_CONNECT`` (which master may address which slave) comes from
:mod:`pushpush.codegen.connect`: the ARM reaches every slave, an engine only the windows
it may call or return to. The top's template gets a typed model too
(:mod:`pushpush.codegen.top_model`), and so does the stub's (:mod:`pushpush.codegen.stub_model`):
names and integers, written as Verilog by the macros of ``wrapper_macros.v.j2``.
``interconnect: {arbitration: fair}`` selects its deficit round robin over beats
(``ARBITRATION=1``); a component with ``abe: {nominal_burst, max_outstanding}`` gets a
``pp_abe`` (AXI burst equalizer) between its call engine and its interconnect port.

Everything is read from the linked model (:mod:`pushpush.link`); nothing here recomputes an
address. Output is deterministic (same model, same text).

Example::

    from pushpush.codegen.rtl import render_rtl
    from pushpush.codegen.render import write_tree
    write_tree(render_rtl(linked), "out/")   # out/rtl/<comp>_wrapper.v, out/rtl/<system>_top.v
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Optional

from pushpush.codegen.render import GenerateError, generated_header, render_template
from pushpush.link import WORD_BYTES, DmaBlock, LinkedComponent, LinkedSystem
from pushpush.types import BufferType, FunctionType, Scalar, Type

__all__ = [
    "UserPort",
    "PS_ID_WIDTH",
    "ADDR_WIDTH",
    "ENGINE_MAX_OUTSTANDING",
    "user_ports",
    "check_names",
    "render_rtl",
    "render_wrapper",
    "render_top",
    "render_stub",
    "top_module_name",
    "wrapper_module_name",
    "channel_shell_name",
    "core_dependencies",
    "top_id_widths",
    "rtl_components",
    "BufferEngine",
    "buffer_engines",
    "system_buffers",
    "buffer_port",
    "BUF_ID_WIDTH",
    "BUF_DATA_WIDTH",
    "BUFFER_TIMEOUT_CYCLES",
    "buf_id_width",
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

_CORES = ["call_engine", "endpoint_mem", "req_arbiter", "call_site", "export", "interconnect", "abe", "ps_window", "irq",
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
_ARBITRATION = {"round_robin": 0, "fair": 1}
#: Parameter names that would collide with a group's control ports.
_RESERVED_PARAMS = frozenset({"valid", "ready", "result", "handle", "result_valid",
                              "result_ready", "result_error"})


@dataclass(frozen=True)
class UserPort:
    """One port of a user's rtl module, as the generated wrapper connects it.

    ``direction`` is seen from the user module (``"input"`` or ``"output"``); ``group`` is the
    port group (an export name, ``<export>_<param>`` for a function-typed parameter's calls,
    ``<component>_<function>`` for an import; ``""`` for clk and rst). ``optional`` ports are
    connected only when the module declares them. Templates declare it with the
    ``port_decl`` macro of ``templates/verilog/wrapper_macros.v.j2``
    (``input  wire [31:0] f_x``).
    """

    name: str
    direction: str
    width: int
    group: str
    optional: bool = False


# --------------------------------------------------------------------------- names


def top_module_name(linked: LinkedSystem) -> str:
    """``<system>_top``."""
    return f"{linked.name}_top"


def wrapper_module_name(comp: LinkedComponent) -> str:
    """``<component>_wrapper``."""
    return f"{comp.name}_wrapper"


def channel_shell_name(comp: LinkedComponent) -> str:
    """``<component>_chnl_shell``: the module between the wrapper and the user's module of a
    component with ``channels:`` (:mod:`pushpush.codegen.chnl`)."""
    return f"{comp.name}_chnl_shell"


def core_dependencies() -> list[str]:
    """The ``cores/`` folders whose modules the generated RTL may instantiate (``abe`` only
    for components with an ``abe:`` entry; listing it always keeps the file lists
    independent of the system)."""
    return list(_CORES)


def rtl_components(linked: LinkedSystem) -> list[LinkedComponent]:
    """The rtl components, in declaration order (the order of wrappers, engines, windows)."""
    return [c for c in linked.components if c.kind == "rtl"]


def _clog2(n: int) -> int:
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
    s_count = 1 + len([c for c in linked.components if c.kind in ("rtl", "riscv")])
    return PS_ID_WIDTH, PS_ID_WIDTH + _clog2(s_count)


# --------------------------------------------------------------------------- port contract


def type_width(t: Type) -> int:
    """Port width of a value of type ``t`` (0 for void)."""
    if isinstance(t, (FunctionType, BufferType)):
        return 32
    assert isinstance(t, Scalar)
    return t.bits


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
    return BUF_ID_WIDTH + _clog2(max(1, len(system_buffers(linked))))


def _stream_ports(b: BufferEngine) -> list[UserPort]:
    """The user's stream of a buffer: ``in``: the module takes elements; ``out``: it gives."""
    g = b.group
    i, o = ("input", "output") if b.type.is_in else ("output", "input")
    return [UserPort(f"{g}_tdata", i, b.type.element.bits, g), UserPort(f"{g}_tvalid", i, 1, g),
            UserPort(f"{g}_tready", o, 1, g), UserPort(f"{g}_tlast", i, 1, g)]


def _call_group_ports(group: str, sig: FunctionType, issue: bool) -> list[UserPort]:
    """A call group: ``issue`` (import / callback: the module calls) or not (export: the
    module is called)."""
    i, o = ("output", "input") if issue else ("input", "output")
    ports = [UserPort(f"{group}_valid", i, 1, group), UserPort(f"{group}_ready", o, 1, group)]
    for a in sig.arg_layout():
        suffix = "_len" if isinstance(a.type, BufferType) else ""
        ports.append(UserPort(f"{group}_{a.name}{suffix}", i, type_width(a.type), group))
    ports.append(UserPort(f"{group}_result_valid", o, 1, group))
    ports.append(UserPort(f"{group}_result_ready", i, 1, group))
    rw = type_width(sig.result)
    if rw:
        ports.append(UserPort(f"{group}_result", o, rw, group))
    if issue:
        ports.append(UserPort(f"{group}_result_error", o, 1, group))
    return ports


#: The group name of a DMA's stream ports (``dma:`` of an rtl component).
DMA_GROUP = "dma"


def stream_ports(width: int) -> list[UserPort]:
    """The AXI4-Stream ports of a module with a ``dma:`` (seen from the module): ``s_axis_*``
    in from the DMA's MM2S channel, ``m_axis_*`` out to its S2MM channel, ``width`` bits of
    data (TKEEP: a bit per byte, all ones but possibly on the TLAST beat)."""
    out = []
    for prefix, into in (("s_axis", True), ("m_axis", False)):
        i, o = ("input", "output") if into else ("output", "input")
        out += [UserPort(f"{prefix}_tdata", i, width, DMA_GROUP),
                UserPort(f"{prefix}_tkeep", i, width // 8, DMA_GROUP),
                UserPort(f"{prefix}_tlast", i, 1, DMA_GROUP),
                UserPort(f"{prefix}_tvalid", i, 1, DMA_GROUP),
                UserPort(f"{prefix}_tready", o, 1, DMA_GROUP)]
    return out


def user_ports(comp: LinkedComponent, dma: Optional[DmaBlock] = None) -> list[UserPort]:
    """Every port the wrapper connects on ``comp``'s module, in order: ``clk``, ``rst``, then
    per export its group, the optional ``<f>_handle``, one stream per buffer parameter
    (``<f>_<buf>_tdata/_tvalid/_tready/_tlast``) and one group per function-typed
    parameter, then per import its group (declaration order throughout), then with a ``dma``
    (:meth:`LinkedSystem.dma_of`) its stream ports (:func:`stream_ports`)."""
    ports = [UserPort("clk", "input", 1, ""), UserPort("rst", "input", 1, "")]
    engines = buffer_engines(comp)
    for e in comp.exports:
        ports += _call_group_ports(e.name, e.signature, issue=False)
        for b in engines:
            if b.export == e.name:
                ports += _stream_ports(b)
        if e.dynamic_slots:
            ports.append(UserPort(f"{e.name}_handle", "input", 32, e.name, optional=True))
        for cb in e.callbacks:
            ports += _call_group_ports(f"{e.name}_{cb.param}", cb.signature, issue=True)
    for imp in comp.imports:
        ports += _call_group_ports(f"{imp.component}_{imp.function}", imp.signature, issue=True)
    if dma is not None:
        ports += stream_ports(dma.data_width)
    return ports


def _group_kinds(comp: LinkedComponent) -> list[tuple[str, str]]:
    """(group name, what it is) for every call group of ``comp``."""
    out = []
    for e in comp.exports:
        out.append((e.name, f"export '{e.name}'"))
        for cb in e.callbacks:
            out.append((f"{e.name}_{cb.param}",
                         f"function-typed parameter '{cb.param}' of export '{e.name}'"))
    for imp in comp.imports:
        out.append((f"{imp.component}_{imp.function}", f"import '{imp.target}'"))
    return out


def check_names(linked: LinkedSystem) -> list[str]:
    """Problems that stop RTL generation, each naming the file, the place and the fix (empty:
    fine): port names that collide, module names that clash with generated or core modules,
    windows the endpoint memory cannot hold, a ps region the interconnect cannot map."""
    src = linked.source_file
    msgs: list[str] = []
    rtl = rtl_components(linked)
    generated = {top_module_name(linked): "the system top"}
    for c in rtl:
        if linked.channels_of(c.name):
            generated[channel_shell_name(c)] = f"the channel shell of component '{c.name}'"
        generated[wrapper_module_name(c)] = f"the wrapper of component '{c.name}'"
    for c in rtl:
        where = f"{src}: component '{c.name}'"
        mine: list[str] = []
        if c.module in generated:
            mine.append(f"{where}: module '{c.module}' has the name of {generated[c.module]}, "
                        f"which pushpush generates; rename the module")
        if c.module and c.module.startswith("pp_"):
            mine.append(f"{where}: module '{c.module}': names starting with 'pp_' are reserved for "
                        f"pushpush cores; rename the module")
        if not c.slots:
            mine.append(f"{where}: an rtl component with no exports and no imports has nothing to "
                        f"connect; give it an export or an import, or remove it")
        if c.size > (1 << MAX_WINDOW_BITS):
            mine.append(f"{where}: window of 0x{c.size:X} bytes is larger than an rtl window can be "
                        f"(0x{1 << MAX_WINDOW_BITS:X}); set window to at most 0x{1 << MAX_WINDOW_BITS:X}")
        # groups with the same name
        seen_groups: dict[str, str] = {}
        for g, what in _group_kinds(c):
            if g in seen_groups:
                mine.append(f"{where}: {seen_groups[g]} and {what} both need the port group '{g}'; "
                            f"rename one of them")
            else:
                seen_groups[g] = what
        # parameters named like the group's control ports
        for g, what in _group_kinds(c):
            sig = _group_signature(c, g)
            if sig is None:
                continue
            for a in sig.arg_layout():
                if a.name in _RESERVED_PARAMS:
                    mine.append(f"{where}: parameter '{a.name}' of {what} would be port "
                                f"'{g}_{a.name}', which the group's control ports use; rename the "
                                f"parameter")
        # any other duplicate port (e.g. a parameter 'p_valid' beside a function parameter 'p')
        if not mine:
            seen: dict[str, str] = {}
            for p in user_ports(c):
                if p.name in seen:
                    mine.append(f"{where}: two ports would be called '{p.name}' (port groups "
                                f"'{seen[p.name]}' and '{p.group}'); rename a function or parameter")
                    break
                seen[p.name] = p.group
        msgs += mine
    ps = linked.ps
    if ps.size & (ps.size - 1) or ps.base % ps.size:
        msgs.append(f"{src}: regions.ps (base 0x{ps.base:08X}, size 0x{ps.size:X}) must be a power of "
                    f"two in size and aligned to it for the interconnect to map it; adjust regions.ps")
    return msgs


def _group_signature(comp: LinkedComponent, group: str) -> Optional[FunctionType]:
    for e in comp.exports:
        if e.name == group:
            return e.signature
        for cb in e.callbacks:
            if f"{e.name}_{cb.param}" == group:
                return cb.signature
    for imp in comp.imports:
        if f"{imp.component}_{imp.function}" == group:
            return imp.signature
    return None


# --------------------------------------------------------------------------- wrapper model


def render_wrapper(linked: LinkedSystem, comp: LinkedComponent,
                   present: Optional[set[str]] = None) -> str:
    """The wrapper of one rtl component (see :func:`render_rtl`): the typed model of
    :mod:`pushpush.codegen.wrapper_model` rendered by ``templates/verilog/wrapper.v.j2``."""
    from .wrapper_model import wrapper_model  # it builds on this module

    m = wrapper_model(linked, comp, present)
    return render_template(
        "verilog/wrapper.v.j2",
        header=generated_header("//", linked.source_file),
        module=wrapper_module_name(comp),
        user_module=(channel_shell_name(comp) if linked.channels_of(comp.name) else comp.module),
        m=m,
        comp=comp,
        linked=linked,
        s_sig=axi_signals(m.data_width, m.s_id_width),
        m_sig=axi_signals(m.data_width, m.m_id_width),
        tag_bits=TAG_FIFO_BITS,
        max_outstanding=ENGINE_MAX_OUTSTANDING,
        engine_split=1 if engine_split(linked, m.max_words) else 0,
        b_sig=axi_signals(BUF_DATA_WIDTH, BUF_ID_WIDTH),
        buf_params={"max_burst": BUF_MAX_BURST, "fifo_log2": BUF_FIFO_LOG2,
                    "timeout": BUFFER_TIMEOUT_CYCLES},
    )


# --------------------------------------------------------------------------- top

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


def render_top(linked: LinkedSystem) -> str:
    """The system top (see :func:`render_rtl`): the typed model of
    :mod:`pushpush.codegen.top_model` rendered by ``templates/verilog/top.v.j2``."""
    from .top_model import top_model  # it builds on this module

    return render_template(
        "verilog/top.v.j2",
        header=generated_header("//", linked.source_file),
        linked=linked,
        m=top_model(linked),
        ps_window_signals=PS_WINDOW_SIGNALS,
    )


def render_rtl(linked: LinkedSystem,
               present_ports: Optional[Mapping[str, set[str]]] = None) -> dict[str, str]:
    """``{"rtl/<comp>_wrapper.v": text, ..., "rtl/<system>_top.v": text}``.

    ``present_ports`` (component name -> the port names its module declares, e.g. from a
    Verilog parser) decides which optional ports (``<f>_handle``) are connected; by default
    none are. Raises :class:`~pushpush.codegen.render.GenerateError` listing the problems of
    :func:`check_names`. A system without rtl components has no RTL: ``{}``.
    """
    problems = check_names(linked)
    if problems:
        raise GenerateError("cannot generate RTL:\n  " + "\n  ".join(problems))
    rtl = rtl_components(linked)
    if not rtl:
        return {}
    out: dict[str, str] = {}
    for c in rtl:
        present = None if present_ports is None else set(present_ports.get(c.name, set()))
        out[f"rtl/{wrapper_module_name(c)}.v"] = render_wrapper(linked, c, present)
        if linked.channels_of(c.name):
            from .chnl import render_channel_shell  # chnl builds on this module
            out[f"rtl/{channel_shell_name(c)}.v"] = render_channel_shell(linked, c, present)
    out[f"rtl/{top_module_name(linked)}.v"] = render_top(linked)
    return out


# --------------------------------------------------------------------------- stub


def render_stub(linked: LinkedSystem, component: str) -> str:
    """A skeleton of ``component``'s module with exactly the ports the wrapper connects
    (optional ports left out): it accepts every call and completes it at once with a zero
    result, never calls out. It compiles and lints clean; fill in the behaviour. The typed
    model of :mod:`pushpush.codegen.stub_model` rendered by ``templates/verilog/stub.v.j2``."""
    from .stub_model import stub_model  # it builds on this module

    return render_template(
        "verilog/stub.v.j2",
        header=generated_header("//", linked.source_file),
        m=stub_model(linked, component),
    )
