"""The typed model of an rtl component's stub, which ``templates/verilog/stub.v.j2`` turns into
Verilog: a skeleton of the user's module with exactly the ports the wrapper connects.

Everything here is data: the ports (:class:`~pushpush.codegen.ports.UserPort`: name,
direction, width), the exports with their result widths, the calls out with their
arguments' names and widths, the buffer streams. Port declarations and literals are
macros of ``templates/verilog/wrapper_macros.v.j2``.

Example::

    from pushpush.codegen.stub_model import stub_model
    m = stub_model(load("examples/pingpong/system.yaml"), "callee")
    [p.name for p in m.ports][:3]        # ['clk', 'rst', 'f_valid']
    m.exports                            # (StubExport(name='f', result_width=32),)
"""

from __future__ import annotations

from dataclasses import dataclass

from pushpush.link import LinkedSystem

from .render import GenerateError
from .fabric import buffer_engines
from .ports import UserPort, stream_ports, type_width, user_ports

__all__ = ["StubExport", "StubCall", "StubStream", "StubModel", "stub_model"]


@dataclass(frozen=True)
class StubExport:
    """An export the stub answers (``result_width`` 0: void)."""

    name: str
    result_width: int


@dataclass(frozen=True)
class StubCall:
    """A call group the stub never issues (an import or a function-typed parameter):
    ``args`` are (argument port suffix, width)."""

    name: str
    args: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class StubStream:
    """A buffer parameter's stream (``is_in``: the module takes elements)."""

    name: str
    is_in: bool
    width: int


@dataclass(frozen=True)
class StubModel:
    """The stub of rtl component ``component`` (module ``module``): its ports in the
    wrapper's order (optional ones left out), what it answers, the inputs it leaves unread,
    and whether it passes a DMA's stream through (``stream``)."""

    component: str
    module: str
    ports: tuple[UserPort, ...]
    exports: tuple[StubExport, ...]
    calls: tuple[StubCall, ...]
    streams: tuple[StubStream, ...]
    unused_inputs: tuple[str, ...]
    stream: bool


def stub_model(linked: LinkedSystem, component: str) -> StubModel:
    """The model of ``component``'s stub (see :func:`pushpush.codegen.rtl.render_stub`);
    :class:`~pushpush.codegen.render.GenerateError` for a component that has none."""
    comp = linked.component(component)
    if comp.kind != "rtl":
        raise GenerateError(f"component '{component}' is {comp.kind}, not rtl: no Verilog stub")
    if comp.hls_top is not None:
        raise GenerateError(
            f"component '{component}' is kind: hls: its module is the Verilog Vitis HLS exports "
            f"for '{comp.hls_top}' (pushpush generates the adapter around it); with hls_sources, "
            f"run hls/{component}/script.tcl of the generated folder in Vitis HLS (docs/hls.md)")
    if linked.channels_of(component):
        raise GenerateError(
            f"component '{component}' has channels: no generated stub for RIFFA's CHNL_* ports "
            f"yet; start from examples/channels/chnl_demo.v (docs/rtl-ports.md, \"Channels\", "
            f"lists the ports)")
    assert comp.module is not None
    ports = [p for p in user_ports(comp, linked.dma_of(comp.name)) if not p.optional]
    exports = [StubExport(e.name, type_width(e.signature.result)) for e in comp.exports]
    sigs = [(f"{e.name}_{cb.param}", cb.signature) for e in comp.exports for cb in e.callbacks]
    sigs += [(f"{imp.component}_{imp.function}", imp.signature) for imp in comp.imports]
    calls = [StubCall(name, tuple((a.name, type_width(a.type)) for a in sig.arg_layout()))
             for name, sig in sigs]
    streams = [StubStream(b.group, b.type.is_in, b.type.element.bits) for b in buffer_engines(comp)]
    used = {f"{e.name}_{n}" for e in exports for n in ("valid", "result_ready")}
    if exports:
        used |= {"clk", "rst"}
    stream = linked.dma_of(component) is not None
    if stream:   # the stub passes the DMA's stream through (stub.v.j2)
        used |= {p.name for p in stream_ports(8) if p.direction == "input"}
    unused = [p.name for p in ports if p.direction == "input" and p.name not in used]
    return StubModel(comp.name, comp.module, tuple(ports), tuple(exports), tuple(calls), tuple(streams),
                     tuple(unused), stream)
