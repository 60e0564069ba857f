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
only typed valid/ready port groups (the contract in ``docs/rtl-ports.md``, computed by
:func:`pushpush.codegen.ports.user_ports`). The constants, module names, buffer engines and
AXI signal table these renderers share with the other generators are in
:mod:`pushpush.codegen.fabric`.

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
from typing import Optional

from pushpush.codegen.render import GenerateError, generated_header, render_template, skeleton_header
from pushpush.link import LinkedComponent, LinkedSystem

from .channel_shell import render_channel_shell
from .fabric import (ADDR_WIDTH, BUF_DATA_WIDTH, BUF_FIFO_LOG2, BUF_ID_WIDTH, BUF_MAX_BURST, BUFFER_TIMEOUT_CYCLES,
                     ENGINE_MAX_OUTSTANDING, PS_ID_WIDTH, PS_WINDOW_SIGNALS, TAG_FIFO_BITS, BufferEngine,
                     axi_signals, buf_id_width, buffer_engines, buffer_port, channel_shell_name, core_dependencies,
                     engine_split, rtl_components, system_buffers, top_id_widths, top_module_name,
                     wrapper_module_name)
from .ports import UserPort, check_names, user_ports
from .stub_model import stub_model
from .top_model import top_model, trace_pulses
from .wrapper_model import wrapper_model

#: The renderers, and the public names of docs/rtl-ports.md §7 (defined in
#: :mod:`pushpush.codegen.fabric` and :mod:`pushpush.codegen.ports`, importable from here).
__all__ = [
    "render_rtl", "render_wrapper", "render_top", "render_stub",
    "UserPort", "user_ports", "check_names",
    "PS_ID_WIDTH", "ADDR_WIDTH", "ENGINE_MAX_OUTSTANDING", "BUF_ID_WIDTH", "BUF_DATA_WIDTH",
    "BUFFER_TIMEOUT_CYCLES", "top_module_name", "wrapper_module_name", "channel_shell_name",
    "core_dependencies", "top_id_widths", "rtl_components", "BufferEngine", "buffer_engines",
    "system_buffers", "buffer_port", "buf_id_width",
]


# --------------------------------------------------------------------------- wrapper model


def render_wrapper(linked: LinkedSystem, comp: LinkedComponent,
                   present: Optional[set[str]] = None) -> str:
    """The wrapper of one rtl component (see :func:`render_rtl`): the typed model of
    :mod:`pushpush.codegen.wrapper_model` rendered by ``templates/verilog/wrapper.v.j2``."""
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
        trace_ev=trace_pulses(comp) if linked.trace is not None else (),
    )


# --------------------------------------------------------------------------- top


def render_top(linked: LinkedSystem) -> str:
    """The system top (see :func:`render_rtl`): the typed model of
    :mod:`pushpush.codegen.top_model` rendered by ``templates/verilog/top.v.j2``."""
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
    if not rtl and not any(c.kind == "hls" for c in linked.components):  # hls: a participant's IP
        return {}
    out: dict[str, str] = {}
    for c in rtl:
        present = None if present_ports is None else set(present_ports.get(c.name, set()))
        out[f"rtl/{wrapper_module_name(c)}.v"] = render_wrapper(linked, c, present)
        if linked.channels_of(c.name):
            out[f"rtl/{channel_shell_name(c)}.v"] = render_channel_shell(linked, c, present)
    out[f"rtl/{top_module_name(linked)}.v"] = render_top(linked)
    return out


# --------------------------------------------------------------------------- stub


def render_stub(linked: LinkedSystem, component: str) -> str:
    """A skeleton of ``component``'s module with exactly the ports the wrapper connects
    (optional ports left out): it accepts every call and completes it at once with a zero
    result, never calls out. It compiles and lints clean; fill in the behaviour. The typed
    model of :mod:`pushpush.codegen.stub_model` rendered by ``templates/verilog/stub.v.j2``."""
    return render_template(
        "verilog/stub.v.j2",
        header=skeleton_header("//", linked.source_file),
        m=stub_model(linked, component),
    )
