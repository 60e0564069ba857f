"""Imports against exports: the reference checks the loader runs after reading every
component, and the linker runs again for models built in code."""

from __future__ import annotations

from typing import Iterable

from ..errors import Diagnostic, did_you_mean
from ..types import format_type, structurally_equal
from .model import SystemSpec

__all__ = ["check_references"]


def check_references(spec: SystemSpec, declared: Iterable[str] = ()) -> list[Diagnostic]:
    """Imports against exports: unknown components/functions, signature mismatches,
    duplicate imports. Used by the loader and again by the linker (for models built in code).

    ``declared`` names components and ``component.function`` exports that exist in the
    input but were left out of ``spec`` because of their own errors: imports of them are
    not reported again."""
    skip = set(declared)
    diags: list[Diagnostic] = []
    targets = [f"{c.name}.{e.name}" for c in spec.components for e in c.exports]
    targets += sorted(t for t in skip if "." in t)
    names = sorted([c.name for c in spec.components] + [t for t in skip if "." not in t])
    imported = {(i.component, i.function) for c in spec.components for i in c.imports}
    for comp in spec.components:
        for e in comp.exports:
            if e.dynamic_slots == 0 and (comp.name, e.name) not in imported:
                diags.append(Diagnostic.at(
                    spec.where(e.loc or comp.loc),
                    f"export '{comp.name}.{e.name}' can never be called: no component imports it "
                    f"and it has dynamic_slots: 0; give it dynamic slots or remove it"))
        seen: set[str] = set()
        for imp in comp.imports:
            where = spec.where(imp.loc or comp.loc)
            if imp.target in seen:
                diags.append(Diagnostic.at(
                    where, f"component '{comp.name}' imports '{imp.target}' twice; remove one"))
                continue
            seen.add(imp.target)
            callee = spec.component(imp.component)
            if imp.component in skip or imp.target in skip:
                continue
            if callee is None:
                hint = did_you_mean(imp.target, targets)
                if not hint:
                    alt = did_you_mean(imp.component, names)
                    hint = alt or f"; components are: {', '.join(names)}"
                diags.append(Diagnostic.at(
                    where, f"import '{imp.target}' names no component '{imp.component}'{hint}"))
                continue
            export = callee.export(imp.function)
            if export is None:
                have = [t.split(".")[1] for t in targets if t.split(".")[0] == callee.name]
                hint = did_you_mean(imp.function, have).replace("'", f"'{callee.name}.", 1)
                if not hint:
                    same = [t for t in targets if t.split(".")[1] == imp.function]
                    hint = f"; did you mean '{same[0]}'?" if same else did_you_mean(
                        imp.target, [t for t in targets if not t.startswith(callee.name + ".")])
                if not hint:
                    hint = (f"; '{callee.name}' exports: {', '.join(have)}" if have
                            else f"; '{callee.name}' exports nothing")
                diags.append(Diagnostic.at(where, f"import '{imp.target}' names no export{hint}"))
                continue
            if imp.expected is not None and not structurally_equal(imp.expected, export.signature):
                diags.append(Diagnostic.at(
                    spec.where(imp.expected_loc or imp.loc or comp.loc),
                    f"import '{imp.target}' expects '{format_type(imp.expected)}' but "
                    f"'{imp.target}' is exported as '{format_type(export.signature)}'; make the "
                    f"signatures agree (parameter names may differ, types must not)"))
    return diags

