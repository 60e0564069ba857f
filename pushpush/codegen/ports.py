"""The user-port contract of an rtl component (``docs/rtl-ports.md``): every port the
generated wrapper connects on the user's module (:func:`user_ports`), the widths of values
(:func:`type_width`), a ``dma:``'s stream ports (:func:`stream_ports`), and the name checks
that stop RTL generation (:func:`check_names`: port names that collide, module names that
clash with generated or core modules, windows too large).

Example::

    from pushpush.codegen.ports import user_ports
    [p.name for p in user_ports(linked.component("hw"))][:2]    # ["clk", "rst"]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pushpush.link import DmaBlock, LinkedComponent, LinkedSystem
from pushpush.types import BufferType, FunctionType, Scalar, Type

from .fabric import (MAX_WINDOW_BITS, BufferEngine, buffer_engines, channel_shell_name, rtl_components,
                     top_module_name, wrapper_module_name)

__all__ = ["UserPort", "DMA_GROUP", "type_width", "stream_ports", "user_ports", "check_names"]


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



# --------------------------------------------------------------------------- port contract


def type_width(t: Type) -> int:
    """Port width of a value of type ``t`` (0 for void)."""
    if isinstance(t, (FunctionType, BufferType)):
        return 32
    assert isinstance(t, Scalar)
    return t.bits



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
