"""``pushpush init``: scaffold a new system folder that runs at once.

:func:`scaffold` writes, into a new or empty folder::

    system.yaml            one Verilog component (adder) and one Python host; its first
                           line points editors at system.schema.json beside it
    system.schema.json     the JSON Schema of system.yaml (pushpush schema), a copy in the
                           project so that the reference survives a commit and works offline
    rtl/<name>_adder.v     the stub generator's skeleton (pushpush generate --stub)
                           filled in to an adder
    app.py                 main(overlay) for 'pushpush run .'
    tests/test_<name>.py   the cocotb test of the whole system, for 'pytest'
    <name>.core            a FuseSoC core that is the system (the generator 'pushpush'),
                           for 'fusesoc run --target lint|sim|synth local:<name>:system'
    .github/workflows/test.yml
                           CI for the user's own repository: the Debian/Ubuntu packages, the
                           install of pushpush-fpga (from wheels/ while it is not on PyPI),
                           pushpush validate, pytest, the lint target
    wheels/README.md       where the pushpush-fpga wheel goes for CI until it is on PyPI
    pytest.ini, README.md, .gitignore

Every file is rendered from ``templates/init/`` and names its template in its first line.

Example::

    from pushpush.scaffold import scaffold
    written = scaffold("demo")      # then: cd demo && pushpush run . && pytest
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

from . import __version__
from .codegen.ports import type_width
from .codegen.rtl import render_stub
from .codegen.render import environment, render_template, write_tree
from .errors import PushPushError
from .link import link
from .resources import PROJECT_URLS
from .schema import schema_text
from .spec import is_identifier, parse_system

__all__ = ["InitError", "scaffold", "system_name_for", "scaffold_files"]

STUB_TEMPLATE = "templates/verilog/stub.v.j2"
#: the schema's file in the project, beside system.yaml: a relative ``$schema=`` survives a
#: commit and a clone elsewhere, works offline and matches the pushpush that wrote it
#: (``pushpush schema -o system.schema.json`` refreshes it after an upgrade)
SCHEMA_FILE = "system.schema.json"
#: the Debian/Ubuntu packages the scaffolded CI installs: Icarus for pytest, Verilator for
#: the lint target (Ubuntu's is new enough to lint; simulating on it needs >= 5.036)
CI_APT_PACKAGES = ("iverilog", "verilator")


class InitError(PushPushError):
    """The folder cannot be scaffolded (it is not empty, or the name is not usable)."""


def system_name_for(folder: str | os.PathLike[str]) -> str:
    """A system name from a folder name: ``my-demo`` -> ``my_demo``, ``2x`` -> ``sys_2x``."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", Path(folder).resolve().name) or "system"
    if name[0].isdigit():
        name = "sys_" + name
    if not is_identifier(name):
        name += "_"
    return name


def _fill_adder(stub: str, module: str, component: str, exports: dict[str, int]) -> str:
    """The stub with its comment replaced and each export's constant result made a sum."""
    macros = environment().get_template("init/adder.v.j2").module
    start = stub.index("/*")
    end = stub.index("*/", start) + len("*/\n\n")
    text = str(macros.header(__version__, STUB_TEMPLATE, module, component)) + stub[end:]  # type: ignore[attr-defined]
    used: list[str] = []
    for e, width in exports.items():
        anchor = f"assign {e}_result = {width}'d0;"
        if anchor not in text:  # the stub template changed: fail loudly, not silently
            raise InitError(f"the stub of '{component}' has no line {anchor!r}; "
                            f"update pushpush.scaffold for {STUB_TEMPLATE}")
        text = text.replace(anchor, str(macros.result(e, width)))  # type: ignore[attr-defined]
        used += [f"{e}_a", f"{e}_b"]
    m = re.search(r"wire unused = &\{1'b0((?:, \w+)*)\};", text)
    if m is None:
        raise InitError(f"the stub of '{component}' has no 'wire unused' line; "
                        f"update pushpush.scaffold for {STUB_TEMPLATE}")
    left = [n for n in m.group(1).split(", ")[1:] if n not in used]
    return text.replace(m.group(0), "wire unused = &{1'b0" + "".join(f", {n}" for n in left) + "};")


def scaffold_files(name: str) -> dict[str, str]:
    """Every scaffolded file as ``{relative path: text}`` for the system ``name``."""
    if not is_identifier(name):
        raise InitError(f"'{name}' is not a usable system name; use letters, digits and '_', "
                        f"not starting with a digit and not a keyword (e.g. '{system_name_for(name)}')")
    module = f"{name}_adder"
    ctx = {"system": name, "module": module, "version": __version__, "schema": SCHEMA_FILE,
           "homepage": PROJECT_URLS["Homepage"], "apt_packages": " ".join(CI_APT_PACKAGES)}
    files = {"system.yaml": render_template("init/system.yaml.j2", **ctx), SCHEMA_FILE: schema_text()}
    # the Verilog: the stub generator's skeleton of the component, filled in
    linked = link(parse_system(files["system.yaml"], file="system.yaml", base_dir=Path("/")))
    comp = linked.component("adder")
    widths = {e.name: type_width(e.signature.result) for e in comp.exports}
    stub = render_stub(linked, "adder")
    files[f"rtl/{module}.v"] = _fill_adder(stub, module, "adder", widths)
    files["app.py"] = render_template("init/app.py.j2", **ctx)
    files[f"tests/test_{name}.py"] = render_template("init/test_system.py.j2", **ctx)
    files["pytest.ini"] = render_template("init/pytest.ini.j2", **ctx)
    files[f"{name}.core"] = render_template("init/system.core.j2", **ctx)
    files["README.md"] = render_template("init/README.md.j2", **ctx)
    files[".gitignore"] = render_template("init/gitignore.j2", **ctx)
    files[".github/workflows/test.yml"] = render_template("init/ci.yml.j2", **ctx)
    files["wheels/README.md"] = render_template("init/wheels_README.md.j2", **ctx)
    return files


def scaffold(folder: str | os.PathLike[str], name: Optional[str] = None) -> list[Path]:
    """Scaffold a system into ``folder`` (created if missing; it must be empty).

    ``name`` defaults to :func:`system_name_for` the folder. Returns the written paths.
    Raises :class:`InitError` if the folder is not empty or is a file (nothing is written).
    """
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise InitError(f"'{out}' exists and is not a folder; give a new or empty folder")
    if out.is_dir():
        present = sorted(p.name for p in out.iterdir())
        if present:
            shown = ", ".join(present[:5]) + (", ..." if len(present) > 5 else "")
            raise InitError(f"'{out}' is not empty ({shown}); pushpush init writes only into a new "
                            f"or empty folder, so nothing of yours is overwritten: give another "
                            f"folder name")
    files = scaffold_files(name or system_name_for(out))
    return write_tree(files, out)
