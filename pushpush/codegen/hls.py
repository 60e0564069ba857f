"""The ``ap_ctrl_hs`` adapter of a ``kind: hls`` component (docs/hls.md).

A ``kind: hls`` component is, after loading, an rtl component whose module is the adapter
``<component>_hls_adapter`` generated here (``rtl/<component>_hls_adapter.v``, from
``templates/verilog/hls_adapter.v.j2``). The adapter has the rtl port contract of the one
export ``f`` (docs/rtl-ports.md: ``f_valid``/``f_ready``, the arguments, ``f_result_*``)
and instantiates the Verilog that Vitis HLS exported for the top function, driving its
block protocol ``ap_ctrl_hs`` as UG1399 ("Block-Level Control Protocols") describes it:

- ``ap_start`` is raised with a presented call and held until ``ap_ready`` (the call is taken
  in that cycle: the function has read every input then); the arguments go straight from the
  call group to the function's ``ap_none`` input ports, which the wrapper holds stable
  until the call is taken;
- ``ap_done`` (one cycle; ``ap_return`` valid with it) completes the call: the result is
  offered in that cycle, and held in a register when the wrapper does not take it at once;
- ``ap_ready`` before ``ap_done`` (a pipelined function) takes the call, ``ap_start`` falls
  and the adapter waits for ``ap_done``; with both in one cycle (any sequential function)
  the call is taken and completed together. ``ap_idle`` is connected and not needed.

So the adapter adds no cycle: a function with latency L completes a call L cycles after
it was presented. The HLS top's ports (``ap_clk``, ``ap_rst``, the block protocol, one port
per argument named after the parameter, ``ap_return``) are checked against the Verilog
(:func:`hls_ports`, through :mod:`pushpush.codegen.portcheck`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional

from pushpush.link import LinkedComponent, LinkedSystem

from .portcheck import (PortCheckError, check_sources_exist, compare_ports, pyslang_available,
                        read_module_ports)
from .ports import UserPort, type_width, user_ports
from .render import generated_header, render_template

__all__ = ["HlsAdapter", "hls_components", "hls_ports", "adapter_model", "render_hls_adapters",
           "adapter_path", "check_hls_sources", "missing_hls_sources"]


def hls_components(linked: LinkedSystem) -> list[LinkedComponent]:
    """The components written ``kind: hls`` (rtl components with an HLS top; not their C
    simulation's ``kind: c`` form, :func:`pushpush.spec.hls.csim_spec`)."""
    return [c for c in linked.components if c.hls_top is not None and c.kind == "rtl"]


def adapter_path(comp: LinkedComponent) -> str:
    return f"rtl/{comp.module}.v"


def hls_ports(comp: LinkedComponent) -> list[UserPort]:
    """The ports of the HLS top module under ``ap_ctrl_hs`` (seen from that module), as Vitis
    HLS names them: ``ap_clk``, ``ap_rst``, ``ap_start``, ``ap_done``, ``ap_idle``,
    ``ap_ready``, one ``ap_none`` input per argument named after the parameter, its C type's
    width, and ``ap_return`` unless the function returns void."""
    e = comp.exports[0]
    g = "hls"
    # a combinational top (latency 0) has no clock and reset ports: Vitis HLS leaves them out
    ports = [UserPort("ap_clk", "input", 1, g, optional=True),
             UserPort("ap_rst", "input", 1, g, optional=True),
             UserPort("ap_start", "input", 1, g), UserPort("ap_done", "output", 1, g),
             UserPort("ap_idle", "output", 1, g), UserPort("ap_ready", "output", 1, g)]
    ports += [UserPort(a.name, "input", type_width(a.type), g) for a in e.signature.arg_layout()]
    rw = type_width(e.signature.result)
    if rw:
        ports.append(UserPort("ap_return", "output", rw, g))
    return ports


@dataclass(frozen=True)
class HlsAdapter:
    """What ``hls_adapter.v.j2`` needs: names and widths only."""

    component: str
    module: str
    top: str
    group: str
    #: the adapter's ports (the rtl contract of the export, without the optional handle)
    ports: tuple[UserPort, ...]
    #: (HLS port, adapter port) of every argument
    args: tuple[tuple[str, str], ...]
    result_width: int
    #: whether the HLS top has ap_clk and ap_rst (a combinational one has neither)
    clocked: bool = True


def adapter_model(comp: LinkedComponent, top_ports: Optional[set[str]] = None) -> HlsAdapter:
    """``top_ports``: the HLS top's port names when they were read (None: assume a clocked
    top, the usual case)."""
    assert comp.hls_top is not None and comp.module is not None and len(comp.exports) == 1
    e = comp.exports[0]
    ports = tuple(p for p in user_ports(comp) if not p.optional)
    args = tuple((a.name, f"{e.name}_{a.name}") for a in e.signature.arg_layout())
    return HlsAdapter(component=comp.name, module=comp.module, top=comp.hls_top, group=e.name,
                      ports=ports, args=args, result_width=type_width(e.signature.result),
                      clocked=top_ports is None or "ap_clk" in top_ports)


def render_hls_adapters(linked: LinkedSystem,
                        top_ports: Optional[Mapping[str, set[str]]] = None) -> dict[str, str]:
    """``{"rtl/<component>_hls_adapter.v": text}`` for every hls component; ``top_ports``:
    component -> its HLS top's port names, where they were read (:func:`check_hls_sources`)."""
    return {adapter_path(c): render_template("verilog/hls_adapter.v.j2",
                                             header=generated_header("//", linked.source_file),
                                             m=adapter_model(c, (top_ports or {}).get(c.name)))
            for c in hls_components(linked)}


def missing_hls_sources(linked: LinkedSystem, comp: LinkedComponent, where: str,
                        source_where: Optional[Mapping[str, str]] = None) -> list[str]:
    """A line per source of an hls component that is not a file, saying what it should be."""
    return [m.split("; fix the path")[0] + "; fix the path: sources of a kind: hls component are "
            "the Verilog Vitis HLS exported (with hls_sources, pushpush generate writes the "
            f"script that exports it: hls/{comp.name}/script.tcl; docs/hls.md)"
            for m in check_sources_exist(linked, comp.name, where, source_where)]


def check_hls_sources(linked: LinkedSystem, comp: LinkedComponent, where: str,
                      source_where: Optional[Mapping[str, str]] = None
                      ) -> tuple[list[str], set[str], Optional[set[str]]]:
    """(problems, the adapter's port names, the HLS top's port names or None when not read)
    of an hls component: its sources exist and the HLS top module has the ports
    :func:`hls_ports` lists (when pyslang is installed)."""
    names = {p.name for p in adapter_model(comp).ports}
    missing = missing_hls_sources(linked, comp, where, source_where)
    if missing or not pyslang_available():
        return missing, names, None
    assert comp.hls_top is not None
    try:
        actual: Any = read_module_ports(linked.source_paths(comp.name), comp.hls_top,
                                        names=list(comp.sources))
    except PortCheckError as e:
        return [f"{where}: component '{comp.name}' (kind: hls): {p}" for p in e.problems], names, None
    problems = [p.replace("the wrapper connects", "the ap_ctrl_hs adapter connects")
                 .replace("that the wrapper does not connect",
                          "that the ap_ctrl_hs adapter does not connect (only scalar ap_none "
                          "arguments, ap_ctrl_hs and ap_return are supported)")
                for p in compare_ports(hls_ports(comp), actual, comp.name)]
    top = {p.name for p in actual.ports}
    if ("ap_clk" in top) != ("ap_rst" in top):
        problems.append(f"{actual.where}: module '{comp.hls_top}' of component '{comp.name}' has "
                        f"{'ap_clk' if 'ap_clk' in top else 'ap_rst'} without "
                        f"{'ap_rst' if 'ap_clk' in top else 'ap_clk'}; the adapter connects both "
                        f"(a clocked top) or neither (a combinational one); an active-low reset "
                        f"(ap_rst_n, config_rtl -reset_level low) is not supported")
    return problems, names, top
