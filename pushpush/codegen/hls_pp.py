"""The HLS side of a full HLS participant (docs/hls.md, "The full HLS participant").

A ``kind: hls`` component whose signatures have function types, or which has imports, is a
participant of the protocol itself, as the paper's VHLS components were: its C++ calls and
is called through the generated code rendered here, which is HLS C++ (synthesisable in
form; only Vitis HLS can confirm it synthesises):

- ``<component>_pp.hpp`` (``templates/hls/pp.hpp.j2``): ``pp::fn<R(A...)>``, the functor
  types standing for function values (the callee's call-endpoint address; ``operator()``
  writes the argument words and the trigger in one burst through the ``m_axi`` port, a
  ``memcpy``, then polls its return slot in the component's local memory), the typed proxies
  of the imports, the declarations of the user's exported functions, and ``pp::serve_one``,
  which takes one call from the local memory, runs the user's function and writes the return
  burst to the caller's return endpoint. The protocol's words come from ``pp_protocol.h``
  (pushpush.codegen.c_protocol, rendered from pushpush/protocol.py).
- ``<component>_top.cpp`` (``templates/hls/top.cpp.j2``): the Vitis HLS top function
  (``module:``), with the interface pragmas: ``m_axi`` (``offset=off``: pointer offsets are
  global byte addresses), ``bram`` for the local memory, ``ap_ctrl_none``.
- ``<component>_hls_place.v`` (``templates/verilog/hls_place.v.j2``): the Verilog placing the
  IP Vitis HLS exports in a system: its window and its master (:func:`render_place`).
- ``<component>_csim.cpp`` (``templates/hls/participant_csim.cpp.j2``): the C simulation
  program on the simulated board (the local memory is the component's window there, the
  ``m_axi`` bursts the board's writes), built by :func:`pushpush.c.hls_csim.build_csim`.

The window's layout is the linker's (a software window: cep slots of the exports, rep slots
of the imports); the return slot for calls through function values is the first words of
the run-time area (all of the component's outgoing calls are sequential: one suffices).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from pushpush.boards import board
from pushpush.link import LinkedComponent, LinkedSystem
from pushpush.link.model import SlotKind
from pushpush.types import FunctionType, Scalar

from .c_protocol import render_protocol_header
from .hls_tcl import C_TYPES, source_copies, tb_format, tb_values
from .render import GenerateError, generated_header, render_template

__all__ = ["cxx_type", "pp_header_path", "top_path", "render_pp_header", "render_top",
           "render_participant_csim", "is_participant", "value_rep_words", "participant_files",
           "place_module", "render_place", "place_files"]

#: reply polls before a call through a function value or an import gives up (HLS: one poll
#: is a few cycles; 2^30 as an rtl component's reply_timeout)
REPLY_POLLS = 1 << 30


def is_participant(c: LinkedComponent) -> bool:
    """A linked hls participant: in the PL (``kind: hls``, placed by ``<comp>_hls_place``) or
    its C simulation form (``kind: c``, :func:`pushpush.spec.hls.csim_spec`), which an
    ap_ctrl_hs top's C simulation form is too: a participant has imports or function types."""
    if c.hls_top is None:
        return False
    if c.kind == "hls":
        return True
    return c.kind == "c" and (bool(c.imports) or bool(_function_types(c)))


def pp_header_path(component: str) -> str:
    """``<component>_pp.hpp``: not ``_pp.h``, which is the C runtime's header of the same
    component in the C simulation's build folder."""
    return f"{component}_pp.hpp"


def top_path(component: str) -> str:
    return f"{component}_top.cpp"


def cxx_type(t: object) -> str:
    """The C++ type of a pushpush type in HLS code: ``int`` for i32, ..., ``pp::fn<R(A...)>``."""
    if isinstance(t, Scalar):
        return C_TYPES[t.name]
    if isinstance(t, FunctionType):
        return f"pp::fn<{_sig(t)}>"
    raise GenerateError(f"type {t} has no HLS C++ form (buffers are not supported in kind: hls)")


def _sig(ft: FunctionType) -> str:
    return f"{cxx_type(ft.result)}({', '.join(cxx_type(a.type) for a in ft.arg_layout())})"


def _function_types(c: LinkedComponent) -> list[FunctionType]:
    """Every function type in the component's signatures, inner ones first, each C++ form once."""
    out: dict[str, FunctionType] = {}

    def visit(t: object) -> None:
        if isinstance(t, FunctionType):
            for a in t.arg_layout():
                visit(a.type)
            visit(t.result)
            out.setdefault(_sig(t), t)

    for e in c.exports:
        for a in e.signature.arg_layout():
            visit(a.type)
        visit(e.signature.result)
    for i in c.imports:
        visit(i.signature)
    return list(out.values())


def value_rep_words(c: LinkedComponent) -> int:
    """Words of the run-time area's return slot for calls through function values."""
    return max([ft.rep_words for ft in _function_types(c)] or [0])


@dataclass(frozen=True)
class _Arg:
    name: str
    ctype: str
    offset: int
    words: int


def _args(ft: FunctionType) -> list[_Arg]:
    return [_Arg(a.name, cxx_type(a.type), a.offset, a.words) for a in ft.arg_layout()]


def _model(linked: LinkedSystem, component: str) -> dict[str, object]:
    c = linked.component(component)
    if not is_participant(c):
        raise GenerateError(f"component '{component}' is not an hls participant (a kind: hls "
                            f"component with function types or imports, docs/hls.md)")
    rep_words = value_rep_words(c)
    if rep_words > c.runtime_words:
        raise GenerateError(f"component '{component}': the return slot for function values needs "
                            f"{rep_words} words, the run-time area has {c.runtime_words}")
    types = [{"sig": _sig(ft), "args": _args(ft), "result": cxx_type(ft.result),
              "void": isinstance(ft.result, Scalar) and ft.result.is_void,
              "arg_words": ft.arg_words, "result_words": ft.result_words} for ft in _function_types(c)]
    statics = [s for s in c.slots if s.kind == SlotKind.CEP_STATIC]
    names = [e.name for e in c.exports]
    ceps = [{"which": names.index(s.function), "offset": s.offset, "trig": s.offset + s.words - 1,
             "static": statics.index(s) if s.kind == SlotKind.CEP_STATIC else -1}
            for s in c.slots if s.is_cep]
    exports = [{"name": e.name, "args": _args(e.signature), "result": cxx_type(e.signature.result),
                "void": isinstance(e.signature.result, Scalar) and e.signature.result.is_void,
                "arg_words": e.signature.arg_words, "result_words": e.signature.result_words}
               for e in c.exports]
    imports = [{"proxy": f"{i.component}_{i.function}", "target": i.target, "cep": i.cep_address,
                "rep": (i.rep_address - c.base) // 4, "site": 1 + k, "sig": _sig(i.signature),
                "args": _args(i.signature), "result": cxx_type(i.signature.result),
                "void": isinstance(i.signature.result, Scalar) and i.signature.result.is_void,
                "arg_words": i.signature.arg_words, "result_words": i.signature.result_words}
               for k, i in enumerate(c.imports)]
    return {"component": c.name, "guard": f"PP_{c.name.upper()}_PP_HPP", "top": c.hls_top,
            "base": c.base, "words": c.size // 4, "value_rep": c.runtime_offset,
            "value_rep_words": rep_words, "types": types, "ceps": ceps, "statics": len(statics),
            "exports": exports, "imports": imports, "sites": 1 + len(c.imports),
            "polls": REPLY_POLLS, "header_name": pp_header_path(c.name),
            "pl_base": linked.pl.base, "pl_size": linked.pl.size}


def render_pp_header(linked: LinkedSystem, component: str) -> str:
    """``<component>_pp.hpp`` of an hls participant."""
    return render_template("hls/pp.hpp.j2", header=generated_header("//", linked.source_file),
                           **_model(linked, component))


def render_top(linked: LinkedSystem, component: str) -> str:
    """``<component>_top.cpp``: the Vitis HLS top function with its interface pragmas."""
    return render_template("hls/top.cpp.j2", header=generated_header("//", linked.source_file),
                           **_model(linked, component))


def render_participant_csim(linked: LinkedSystem, component: str) -> str:
    """The C simulation program of an hls participant on the simulated board."""
    return render_template("hls/participant_csim.cpp.j2",
                           header=generated_header("//", linked.source_file),
                           **_model(linked, component))


#: where the participant testbench's stand-in callees of function values are (byte addresses)
TB_FN_BASE = 0x1000
TB_FN_STEP = 64


def _tb_model(linked: LinkedSystem, c: LinkedComponent) -> dict[str, object]:
    fakes: list[dict[str, int]] = []
    calls: list[dict[str, object]] = []
    fn_of: dict[tuple[str, str], int] = {}
    for e in c.exports:
        for a in e.signature.function_params():
            assert isinstance(a.type, FunctionType)
            fn_of[(e.name, a.name)] = TB_FN_BASE + TB_FN_STEP * len(fakes)
            fakes.append({"cep": fn_of[(e.name, a.name)], "result_words": a.type.result_words})
    for i in c.imports:
        fakes.append({"cep": i.cep_address, "result_words": i.signature.result_words})
    for e in c.exports:
        slots = [s for s in c.slots if s.is_cep and s.function == e.name]
        slot = next((s for s in slots if s.kind == SlotKind.CEP_DYNAMIC), slots[0])
        res = e.signature.result
        for k in range(4):
            puts = []
            for a in e.signature.arg_layout():
                if isinstance(a.type, FunctionType):
                    puts.append(f"a[{a.offset}] = {'0x%08Xu' % fn_of[(e.name, a.name)]}")
                else:
                    assert isinstance(a.type, Scalar)
                    puts.append(f"pp::put(a + {a.offset}, ({C_TYPES[a.type.name]})({tb_values(a.type)[k]}))")
            if isinstance(res, FunctionType):
                fmt, cast = "0x%08X", "(unsigned)r.cep"
            elif res.is_void:
                fmt, cast = "", ""
            else:
                f, cc = tb_format(res)
                fmt, cast = f, f"{cc}r"
            calls.append({"name": e.name, "i": k, "first": slot.offset, "trig": slot.offset + slot.words - 1,
                          "arg_words": e.signature.arg_words, "puts": puts, "seq": k & 1,
                          "void": isinstance(res, Scalar) and res.is_void, "rtype": cxx_type(res),
                          "result_words": e.signature.result_words, "fmt": fmt, "cast": cast})
    return {"fakes": fakes, "calls": calls}


def participant_files(linked: LinkedSystem) -> dict[str, str]:
    """``{"hls/<component>/<file>": text}`` of every hls participant: the C++ copies, the
    generated header and top, pp_protocol.h, the testbench and the Vitis HLS script."""
    files: dict[str, str] = {}
    for c in linked.components:
        if not is_participant(c):
            continue
        folder = PurePosixPath("hls", c.name)
        model = _model(linked, c.name)
        generated = {pp_header_path(c.name): render_pp_header(linked, c.name),
                     top_path(c.name): render_top(linked, c.name),
                     "pp_protocol.h": render_protocol_header()}
        tb = f"{c.name}_tb.cpp"
        generated[tb] = render_template("hls/participant_tb.cpp.j2",
                                        header=generated_header("//", linked.source_file),
                                        **model, **_tb_model(linked, c))
        copies = source_copies(linked, c, set(generated) | {"script.tcl"})
        b = board(linked.board)
        script = render_template("hls/participant_script.tcl.j2",
                                 header=generated_header("#", linked.source_file), top=c.hls_top,
                                 component=c.name, sources=[*copies, top_path(c.name)],
                                 headers=[pp_header_path(c.name), "pp_protocol.h"], tb=tb,
                                 part=b.part, board=b.title,
                                 period=f"{1000.0 / float(linked.clock_mhz):g}",
                                 clock_mhz=f"{float(linked.clock_mhz):g}", words=c.size // 4)
        for name, text in {**copies, **generated, "script.tcl": script}.items():
            files[str(folder / name)] = text
    return files


def place_files(linked: LinkedSystem) -> dict[str, str]:
    """``{"rtl/<component>_hls_place.v": text}`` of every hls participant in the PL."""
    return {f"rtl/{place_module(c.name)}.v": render_place(linked, c.name)
            for c in linked.components if c.kind == "hls" and is_participant(c)}


def place_module(component: str) -> str:
    """The placement module's name: ``<component>_hls_place``."""
    return f"{component}_hls_place"


def render_place(linked: LinkedSystem, component: str, bundle: str = "gmem") -> str:
    """``<component>_hls_place.v`` (``templates/verilog/hls_place.v.j2``): the exported IP of
    an hls participant with its window (a dual-ported RAM behind the AXI4 slave front end,
    the IP's ap_memory port on the other side) and its m_axi master as the system's master
    port: the ports of cores/riscv's ``pp_riscv``, the soft core's place in a system top."""
    c = linked.component(component)
    if not is_participant(c):
        raise GenerateError(f"component '{component}' is not an hls participant")
    return render_template("verilog/hls_place.v.j2", header=generated_header("//", linked.source_file),
                           module=place_module(c.name), component=c.name, top=c.hls_top,
                           bundle=bundle, win_bytes=c.size, win_aw=c.window_bits)
