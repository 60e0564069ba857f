"""``kind: hls``: the rules of a Vitis HLS top function, and what it becomes after loading.

A ``kind: hls`` component (docs/hls.md) names the Verilog that Vitis HLS exported
(``sources``) and the top function's module (``module``). It is one of two things:

- **an ap_ctrl_hs top function** (no imports, scalars only): its one export is the top
  function's signature. Vitis HLS's ``ap_ctrl_hs`` block protocol (UG1399, "Block-Level
  Control Protocols") starts the function with ``ap_start``, reads scalar arguments from
  plain input ports (``ap_none``) and returns the value on ``ap_return``, valid with
  ``ap_done``. After these checks it is an **rtl** component whose module is the generated
  adapter ``<component>_hls_adapter`` (pushpush.codegen.hls), which remembers the HLS top in
  :attr:`ComponentSpec.hls_top`.
- **a full participant** (:func:`is_participant`: imports, or a function type in an
  export): the paper's VHLS component, its exports the user's C++ functions (``hls_sources``),
  served and calling through generated HLS C++ (pushpush.codegen.hls_pp) whose top function
  is ``module``. It stays ``kind: hls``, placed in the PL by the generated
  ``<component>_hls_place`` (:func:`as_loaded`); :func:`csim_spec` makes it a software
  component served by its C simulation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..errors import Location
from ..types import FunctionType, Scalar
from .fields import DEFAULT_RUNTIME_WORDS, DEFAULT_WAIT
from .model import ComponentSpec, SystemSpec

__all__ = ["adapter_module", "place_module", "hls_problems", "as_rtl", "as_loaded", "is_participant",
           "csim_spec"]


def adapter_module(component: str) -> str:
    """The generated adapter's module name: ``<component>_hls_adapter``."""
    return f"{component}_hls_adapter"


def _has_function(t: object) -> bool:
    return isinstance(t, FunctionType)


def is_participant(comp: ComponentSpec) -> bool:
    """A full HLS participant (docs/hls.md, "The full HLS participant"): a ``kind: hls``
    component with imports, or with a function-typed parameter or result in an export; its
    C++ calls and is called through the generated ``pp::`` code (pushpush.codegen.hls_pp)."""
    if comp.imports:
        return True
    for e in comp.exports:
        sig = e.signature
        if _has_function(sig.result) or any(_has_function(a.type) for a in sig.arg_layout()):
            return True
    return False


def _participant_problems(comp: ComponentSpec, error: Callable[[Location, str], None]) -> None:
    what = f"hls component '{comp.name}'"
    if comp.loc is not None and not comp.hls_sources:
        error(comp.loc, f"{what} calls or takes functions (a full HLS participant, docs/hls.md), so "
                        f"pushpush generates its C++ side around your functions: name their C++ in "
                        f"'hls_sources: [hls/{comp.name}.cpp]'")
    for e in comp.exports:
        where = e.loc or comp.loc
        for slot in e.signature.arg_layout():
            if not isinstance(slot.type, (Scalar, FunctionType)) and where is not None:
                error(where, f"{what}: parameter '{slot.name}' of '{e.name}' is a buffer; an HLS "
                             f"participant takes scalars and functions; pass the data through "
                             f"calls, or make the component kind: rtl")


def hls_problems(comp: ComponentSpec, error: Callable[[Location, str], None]) -> None:
    """Report (through ``error``) everything a ``kind: hls`` component may not have: an
    ap_ctrl_hs top (scalars only, one export) or a full participant (its C++ named)."""
    if is_participant(comp):
        _participant_problems(comp, error)
        return
    cloc = comp.loc
    what = f"hls component '{comp.name}'"
    if len(comp.exports) != 1:
        where = cloc if not comp.exports else (comp.exports[1].loc or cloc)
        if where is not None:
            error(where, f"{what} must export exactly one function, the HLS top function "
                         f"'{comp.module}' with its C signature (has {len(comp.exports)}); "
                         f"write e.g. 'exports: {{{comp.module or 'f'}: \"(a: i32, b: i32) -> i32\"}}'")
        return
    export = comp.exports[0]
    where = export.loc or cloc
    if where is None:
        return
    sig = export.signature
    for slot in sig.arg_layout():
        if not isinstance(slot.type, Scalar):
            kind = "function" if isinstance(slot.type, FunctionType) else "buffer"
            error(where, f"{what}: parameter '{slot.name}' of '{export.name}' is a {kind}; an "
                         f"ap_ctrl_hs top function takes scalar arguments (ap_none ports: bool, "
                         f"i8..u64, f32, f64); pass a scalar, or make the component kind: rtl")
    if not isinstance(sig.result, Scalar):
        error(where, f"{what}: '{export.name}' returns a function; an ap_ctrl_hs top function "
                     f"returns a scalar on ap_return or nothing (void)")


def as_rtl(comp: ComponentSpec) -> ComponentSpec:
    """The rtl component the hls component is in the PL: the generated adapter as its
    module, the HLS top remembered in ``hls_top``."""
    return replace(comp, kind="rtl", module=adapter_module(comp.name), hls_top=comp.module)


def place_module(component: str) -> str:
    """A full participant's placement module: ``<component>_hls_place``."""
    return f"{component}_hls_place"


def as_loaded(comp: ComponentSpec) -> ComponentSpec:
    """What a checked ``kind: hls`` component is after loading: an ap_ctrl_hs top is the rtl
    component of :func:`as_rtl`; a full participant stays ``kind: hls`` in the PL: its module
    the generated placement ``<component>_hls_place`` around the exported IP (``sources``), its
    window laid out like a software window (with a run-time area), ``hls_top`` the generated
    top function (``module:``). :func:`csim_spec` makes it a software component instead."""
    if not is_participant(comp):
        return as_rtl(comp)
    return replace(comp, module=place_module(comp.name), hls_top=comp.module,
                   runtime_words=DEFAULT_RUNTIME_WORDS)


def csim_spec(spec: SystemSpec) -> SystemSpec:
    """The system for the C simulation of its hls components (docs/hls.md, "C simulation on
    the simulated board"): every hls component with ``hls_sources`` becomes a ``kind: c``
    component with the same exports (its window in the ARM's memory, served by a program of
    its C++ compiled with g++, :mod:`pushpush.c.hls_csim`); ``hls_top`` and ``hls_sources``
    stay on it. Everything else is unchanged. ValueError if no component can be simulated so."""
    comps = []
    for c in spec.components:
        if c.hls_top is not None and c.hls_sources and c.kind != "c":
            c = replace(c, kind="c", module=None, sources=(), source_locs=(),
                        runtime_words=DEFAULT_RUNTIME_WORDS, wait=DEFAULT_WAIT, window=None)
        comps.append(c)
    if not any(c.hls_top is not None and c.hls_sources for c in comps):
        raise ValueError(f"{spec.file}: no kind: hls component with hls_sources: nothing to "
                         f"simulate as C (add hls_sources: [<the top function's C++>])")
    return replace(spec, components=tuple(comps))
