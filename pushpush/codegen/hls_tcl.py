"""The Vitis HLS side of a ``kind: hls`` component with ``hls_sources`` (docs/hls.md).

``pushpush generate`` writes, per such component, into ``hls/<component>/``:

- copies of the HLS C++ files (``hls_sources``, by file name);
- ``<component>_tb.cpp``: a C++ testbench that calls the top function with a few argument
  sets of its signature's types and prints each result (the function declared with the C
  types of :data:`C_TYPES`: ``int`` for i32, ``long long`` for i64, ...), so ``csim_design``
  runs the function as C, and g++ runs the same files here (tests/hls);
- ``script.tcl``: the Vitis HLS script, in the form of PYNQ's own HLS IP scripts
  (Xilinx/PYNQ boards/ip/hls/*/script.tcl): ``open_project``, ``set_top``, ``add_files``
  (the testbench with ``-tb``), ``open_solution -flow_target vivado`` (ap_ctrl_hs and ap_none
  scalars are that flow's defaults, UG1399 "Default Interfaces for Vivado IP Flow"),
  ``set_part`` (the board's part), ``create_clock -period`` (the system's clock),
  ``csim_design``, ``csynth_design``, ``export_design -format ip_catalog -rtl verilog``.

Run it in that folder (``vitis-run --mode hls --tcl script.tcl``; older releases:
``vitis_hls -f script.tcl``); the Verilog for ``sources:`` is then in
``<top>_prj/solution1/syn/verilog/``.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from pushpush.boards import board
from pushpush.link import LinkedComponent, LinkedSystem
from pushpush.types import Scalar

from .render import GenerateError, generated_header, render_template

__all__ = ["C_TYPES", "hls_script_files", "tb_values", "tb_format", "source_copies"]

#: The C type the testbench declares for each scalar type.
C_TYPES = {"bool": "bool", "i8": "signed char", "u8": "unsigned char", "i16": "short",
           "u16": "unsigned short", "i32": "int", "u32": "unsigned int", "i64": "long long",
           "u64": "unsigned long long", "f32": "float", "f64": "double", "void": "void"}

_PRINTF = {"bool": ("%d", "(int)"), "f32": ("%.9g", "(double)"), "f64": ("%.17g", "")}


def tb_values(t: Scalar) -> list[str]:
    """C literals of type ``t`` the testbench passes (four per parameter)."""
    if t.name == "bool":
        return ["true", "false", "true", "true"]
    if t.is_float:
        return ["0.0", "1.5", "-2.25", "1000.125"]
    vals = [0, 1, 12345, -5000] if t.signed else [0, 1, 12345, 5000]
    lo, hi = t.min_value, t.max_value
    assert lo is not None and hi is not None
    out = []
    for v in vals:
        v = max(lo, min(hi, v))
        suffix = "LL" if t.bits == 64 and t.signed else "ULL" if t.bits == 64 else ""
        out.append(f"{v}{suffix}" if v >= 0 or t.bits < 64 else f"({v}LL)")
    return out


def tb_format(t: Scalar) -> tuple[str, str]:
    """The printf format and the cast a testbench prints a result of type ``t`` with."""
    if t.name in _PRINTF:
        return _PRINTF[t.name]
    if t.bits == 64:
        return ("%lld", "(long long)") if t.signed else ("%llu", "(unsigned long long)")
    return ("%lld", "(long long)")


def hls_script_files(linked: LinkedSystem) -> dict[str, str]:
    """``{"hls/<component>/<file>": text}``: the script, the testbench and the C++ copies of
    every hls component with ``hls_sources``."""
    files: dict[str, str] = {}
    for c in linked.components:
        if c.hls_top is None or not c.hls_sources or c.kind != "rtl":
            continue
        files.update(_component_files(linked, c))
    return files


def source_copies(linked: LinkedSystem, c: LinkedComponent, reserved: set[str]) -> dict[str, str]:
    """``{file name: text}`` of ``c``'s hls_sources; GenerateError for a missing file or a
    name that repeats or is one of ``reserved`` (the generated files beside them)."""
    base = linked.base_dir
    copies: dict[str, str] = {}
    for rel in c.hls_sources:
        name = PurePosixPath(rel).name
        if name in copies or name in reserved:
            raise GenerateError(f"{linked.where(c.name)}: hls_sources of component '{c.name}' has "
                                f"two files named '{name}' (or one named like a generated file); "
                                f"rename one")
        path = (base / rel) if base is not None else None
        if path is None or not path.is_file():
            raise GenerateError(f"{linked.where(c.name)}: hls_sources entry '{rel}' of component "
                                f"'{c.name}' is not a file (looked for {path}); fix the path")
        copies[name] = path.read_bytes().decode("utf-8", errors="replace")
    return copies


def _component_files(linked: LinkedSystem, c: LinkedComponent) -> dict[str, str]:
    folder = PurePosixPath("hls", c.name)
    copies = source_copies(linked, c, {f"{c.name}_tb.cpp", "script.tcl"})
    e = c.exports[0]
    sig = e.signature
    params = []
    for a in sig.arg_layout():
        assert isinstance(a.type, Scalar)
        params.append({"name": a.name, "ctype": C_TYPES[a.type.name], "vals": tb_values(a.type)})
    result = sig.result
    assert isinstance(result, Scalar)
    fmt, cast = tb_format(result) if not result.is_void else ("", "")
    b = board(linked.board)
    header = generated_header("//", linked.source_file)
    tb = render_template("hls/tb.cpp.j2", header=header, top=c.hls_top, params=params,
                         rtype=C_TYPES[result.name], fmt=fmt, cast=cast, component=c.name,
                         calls=4)
    script = render_template("hls/script.tcl.j2", header=generated_header("#", linked.source_file),
                             top=c.hls_top, component=c.name, sources=list(copies),
                             tb=f"{c.name}_tb.cpp", part=b.part, board=b.title,
                             period=f"{1000.0 / float(linked.clock_mhz):g}",
                             clock_mhz=f"{float(linked.clock_mhz):g}", export=e.name,
                             signature=str(sig))
    out = {str(folder / n): t for n, t in copies.items()}
    out[str(folder / f"{c.name}_tb.cpp")] = tb
    out[str(folder / "script.tcl")] = script
    return out
