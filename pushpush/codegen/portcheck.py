"""Check a user's Verilog module against the ports its generated wrapper connects.

The module's ports are read from its sources with a real SystemVerilog front end
(`pyslang <https://pypi.org/project/pyslang/>`_, the Python binding of slang), never with
regular expressions: ANSI and non-ANSI port lists, parameterised widths (evaluated with the
parameters' default values, which is what the wrapper instantiates), `define`s and
`include`s (relative to the source's folder) all work as in a simulator.

Every problem is one line in the usual compiler format, pointing into the Verilog file for
ports that exist (``rtl/fir_core.v:12:16: port 'fir_taps' ...``) and at the module header
for ports that are missing. :func:`check_component` gives the lines for one component;
:func:`check_sources_exist` the lines for sources that do not exist.

pyslang is an extra (``pip install 'pushpush-fpga[check]'``; the ``sim`` and ``dev`` extras pull
it too): it has no wheel for the PYNQ-Z1's armv7l. Without it :func:`inspect_component`
checks only that the sources exist, logs one warning per component that the port check was
skipped and how to get it (:data:`SKIPPED_HINT`), and ``pushpush generate`` goes on.

Example::

    from pushpush.codegen.portcheck import read_module_ports
    ports = read_module_ports([Path("rtl/fir_core.v")], "fir_core")
    print([(p.name, p.direction, p.width) for p in ports.ports])
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from pushpush.errors import did_you_mean

__all__ = [
    "HdlPort",
    "ModulePorts",
    "PortCheckError",
    "read_module_ports",
    "compare_ports",
    "check_component",
    "inspect_component",
    "check_sources_exist",
    "port_decl",
    "pyslang_available",
    "SKIPPED_HINT",
]

log = logging.getLogger("pushpush.generate")

#: How to get the port check where pyslang is missing.
SKIPPED_HINT = "pip install 'pushpush-fpga[check]'"


class PortCheckError(RuntimeError):
    """The sources cannot be read or parsed (pyslang missing, syntax errors, no module)."""

    def __init__(self, problems: Sequence[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class HdlPort:
    """A port as the Verilog source declares it."""

    name: str
    #: ``"input"``, ``"output"`` or ``"inout"``.
    direction: str
    width: int
    #: ``file:line:column`` of the port's declaration (file as named in the sources list).
    where: str


@dataclass(frozen=True)
class ModulePorts:
    module: str
    #: ``file:line:column`` of the module's name in its declaration.
    where: str
    ports: tuple[HdlPort, ...]


def _direction(d: Any) -> str:
    text = str(d).rsplit(".", 1)[-1].lower()
    return {"in": "input", "out": "output", "inout": "inout", "ref": "ref"}.get(text, text)


def _norm_direction(d: str) -> str:
    d = str(d).lower()
    return {"in": "input", "out": "output"}.get(d, d)


def port_decl(direction: str, width: int, name: str) -> str:
    """``input [31:0] f_x`` / ``output f_ready`` (how messages show a port)."""
    rng = f" [{width - 1}:0]" if width != 1 else ""
    return f"{_norm_direction(direction)}{rng} {name}"


def read_module_ports(sources: Sequence[Path], module: str,
                      names: Optional[Sequence[str]] = None) -> ModulePorts:
    """Parse ``sources`` and return the ports of ``module``.

    ``names`` are how the files are shown in messages (default: the paths as given).
    Raises :class:`PortCheckError` for syntax errors and when no source defines ``module``.
    """
    try:
        import pyslang
    except ImportError:
        raise PortCheckError([
            f"checking the ports of a user module needs pyslang ({SKIPPED_HINT})"]) from None
    # pyslang >= 7 keeps these in submodules; older releases export them at the top
    syntax = getattr(pyslang, "syntax", pyslang)
    ast = getattr(pyslang, "ast", pyslang)
    shown = list(names) if names is not None else [str(p) for p in sources]
    sm = pyslang.SourceManager()
    for p in sources:
        sm.addUserDirectories(str(Path(p).parent))
    trees = []
    problems: list[str] = []
    for path, name in zip(sources, shown):
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        tree = syntax.SyntaxTree.fromText(text, sm, name, str(Path(path).absolute()))
        trees.append(tree)

    def where(loc: Any) -> str:
        return f"{sm.getFileName(loc)}:{sm.getLineNumber(loc)}:{sm.getColumnNumber(loc)}"

    engine = pyslang.DiagnosticEngine(sm)
    for tree in trees:
        for d in tree.diagnostics:
            if d.isError():
                problems.append(f"{where(d.location)}: error: {engine.formatMessage(d)}")
    if problems:
        raise PortCheckError(problems)

    opts = ast.CompilationOptions()
    opts.topModules = {module}
    comp = ast.Compilation(pyslang.Bag([opts]))
    for tree in trees:
        comp.addSyntaxTree(tree)
    defined = sorted({d.name for d in comp.getDefinitions()
                      if str(getattr(d, "definitionKind", "Module")).endswith("Module")})
    if module not in defined:
        files = ", ".join(shown)
        hint = did_you_mean(module, defined)
        have = f"; it defines {', '.join(defined)}" if defined and not hint else ""
        if not defined:
            have = "; it defines no module"
        raise PortCheckError([f"module '{module}' is not defined in {files}{hint}{have}"])
    root = comp.getRoot()
    insts = [i for i in root.topInstances if i.name == module]
    if not insts:  # pragma: no cover - defined but not elaborated
        raise PortCheckError([f"module '{module}' could not be elaborated"])
    body = insts[0].body
    ports = []
    for p in body.portList:
        ptype = getattr(p, "type", None)
        width = int(ptype.bitWidth) if ptype is not None else 0
        ports.append(HdlPort(p.name, _direction(p.direction), width, where(p.location)))
    return ModulePorts(module, where(insts[0].location), tuple(ports))


def pyslang_available() -> bool:
    """Whether the port check can run here (pyslang imports)."""
    try:
        import pyslang  # noqa: F401
    except ImportError:
        return False
    return True


def compare_ports(expected: Sequence[Any], actual: ModulePorts, component: str) -> list[str]:
    """Problems (one line each) where ``actual`` differs from ``expected``.

    ``expected`` are :class:`pushpush.codegen.ports.UserPort` (``name``, ``direction``,
    ``width``, ``optional``). Order: missing ports (in the wrapper's order), then extra,
    mis-directed and mis-sized ports (in the module's order)."""
    m = actual.module
    by_name = {p.name: p for p in actual.ports}
    want = {u.name: u for u in expected}
    problems: list[str] = []
    for u in expected:
        if u.name not in by_name and not getattr(u, "optional", False):
            problems.append(
                f"{actual.where}: module '{m}' of component '{component}' has no port "
                f"'{u.name}'; the wrapper connects '{port_decl(u.direction, u.width, u.name)}'")
    for p in actual.ports:
        u = want.get(p.name)
        if u is None:
            problems.append(
                f"{p.where}: module '{m}' of component '{component}' has an extra port "
                f"'{p.name}' that the wrapper does not connect; remove it")
            continue
        exp_dir = _norm_direction(u.direction)
        if p.direction != exp_dir:
            problems.append(
                f"{p.where}: port '{p.name}' of module '{m}' (component '{component}') is an "
                f"{p.direction}; the wrapper connects '{port_decl(exp_dir, u.width, u.name)}'")
        elif p.width != u.width:
            problems.append(
                f"{p.where}: port '{p.name}' of module '{m}' (component '{component}') is "
                f"{p.width} bit{'s' if p.width != 1 else ''} wide; the wrapper connects "
                f"'{port_decl(exp_dir, u.width, u.name)}'")
    return problems


def check_sources_exist(linked: Any, component: str, where: str,
                        source_where: Optional[Mapping[str, str]] = None) -> list[str]:
    """Lines for each source of ``component`` that is not a readable file.

    ``where`` is the ``file:line:column`` (or file) to point at, ideally the component in
    the YAML; ``source_where`` maps a source (as written) to the position of its entry."""
    comp = linked.component(component)
    problems: list[str] = []
    for rel in comp.sources:
        problems.extend(_source_missing(linked, component, rel, (source_where or {}).get(rel, where)))
    return problems


def check_component(linked: Any, component: str, expected: Sequence[Any],
                    where: str, source_where: Optional[Mapping[str, str]] = None) -> list[str]:
    """Every problem with one rtl component's sources and ports (empty: all good).

    ``where`` locates the component in the YAML (for "unknown module"); ``source_where``
    optionally maps each source (as written in ``sources``) to the position of its entry.
    """
    return inspect_component(linked, component, expected, where, source_where)[0]


def inspect_component(linked: Any, component: str, expected: Sequence[Any], where: str,
                      source_where: Optional[Mapping[str, str]] = None
                      ) -> tuple[list[str], Optional[ModulePorts]]:
    """Like :func:`check_component`, also returning the module's ports when they could be
    read (None when a source is missing or the module is not found).

    Without pyslang only the sources' existence is checked; the skipped port check is
    logged (warning, logger ``pushpush.generate``) and the ports are None."""
    comp = linked.component(component)
    missing = check_sources_exist(linked, component, where, source_where)
    if missing:
        return missing, None
    if not pyslang_available():
        optional = [u.name for u in expected if getattr(u, "optional", False)]
        also = (f"; its optional port{'s' if len(optional) > 1 else ''} "
                f"{', '.join(optional)} stay{'' if len(optional) > 1 else 's'} unconnected"
                if optional else "")
        log.warning("%s: component '%s': port check skipped: pyslang is not installed, so "
                    "the ports of module '%s' are not compared with what the wrapper "
                    "connects%s (to check them: %s)", where, component, comp.module, also,
                    SKIPPED_HINT)
        return [], None
    paths = linked.source_paths(component)
    try:
        actual = read_module_ports(paths, comp.module, names=list(comp.sources))
    except PortCheckError as e:
        return [p if _has_location(p) else f"{where}: component '{component}': {p}"
                for p in e.problems], None
    return compare_ports(expected, actual, component), actual


def _source_missing(linked: Any, component: str, rel: str, where: str) -> list[str]:
    base = linked.base_dir or Path.cwd()
    path = Path(os.path.normpath(Path(base) / rel))
    if path.is_file():
        return []
    why = "does not exist" if not path.exists() else "is not a file"
    return [f"{where}: source '{rel}' of component '{component}' {why} (looked for {path}); "
            f"fix the path, or write the module: 'pushpush generate --stub {component} "
            f"{linked.source_file} -o {rel}' writes a skeleton with the expected ports"]


def _has_location(line: str) -> bool:
    head = line.split(": ", 1)[0]
    parts = head.rsplit(":", 2)
    return len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit()
