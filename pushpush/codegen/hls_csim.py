"""The C simulation program of a ``kind: hls`` component on the simulated board (docs/hls.md,
"C simulation on the simulated board").

In the system :func:`pushpush.spec.hls.csim_spec` makes, the hls component is a ``kind: c``
component (same exports); this renders ``<component>_csim.cpp``
(``templates/hls/csim.cpp.j2``): the export's handler, which calls the HLS top function (the
user's C++, declared with the C types of :data:`pushpush.codegen.hls_tcl.C_TYPES`), and a
``main`` that attaches to the simulated board and serves until SIGTERM. The C++ runs as
``csim_design`` runs it: plain C++ (g++ ignores the HLS pragmas), one call at a time.
:func:`pushpush.c.hls_csim.build_csim` compiles it with the C runtime.
"""

from __future__ import annotations

from pushpush.link import LinkedSystem
from pushpush.types import Scalar

from .c import c_type
from .hls_tcl import C_TYPES
from .render import GenerateError, generated_header, render_template

__all__ = ["render_csim_main", "csim_main_path"]


def csim_main_path(component: str) -> str:
    return f"{component}_csim.cpp"


def render_csim_main(linked: LinkedSystem, component: str) -> str:
    """The C++ of ``component``'s C simulation program (the component must be the ``kind: c``
    form of an hls component)."""
    c = linked.component(component)
    if c.hls_top is None or c.kind != "c":
        raise GenerateError(f"component '{component}' is not the C simulation form of a kind: hls "
                            f"component (pushpush.spec.hls.csim_spec makes it)")
    e = c.exports[0]
    sig = e.signature
    params = []
    for a in sig.arg_layout():
        assert isinstance(a.type, Scalar)
        params.append({"name": a.name, "ctype": C_TYPES[a.type.name], "pptype": c_type(a.type)})
    res = sig.result
    assert isinstance(res, Scalar)
    return render_template("hls/csim.cpp.j2", header=generated_header("//", linked.source_file),
                           component=c.name, export=e.name, top=c.hls_top, params=params,
                           rtype=C_TYPES[res.name], pprtype=None if res.is_void else c_type(res),
                           base=f"{c.name.upper()}_BASE")
