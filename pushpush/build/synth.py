"""Resource estimates for Xilinx 7-series (the PYNQ-Z1's xc7z020) with Yosys ``synth_xilinx``.

No Vivado needed. The numbers are estimates: Vivado's own synthesis usually lands within
a few tens of percent, and cross-boundary optimisation differs.

Command line, per core under ``cores/`` (parameters overridable)::

    python -m pushpush.build.synth endpoint_mem -P DATA_WIDTH=32
    python -m pushpush.build.synth interconnect -P S_COUNT=4 -P M_COUNT=4 --json

A system's components (each wrapper once flat, as Vivado flattens, with only its user module
kept apart, and once with the hierarchy kept, for the attribution per core) are measured by
``pushpush build <system> --target synth`` (:func:`pushpush.build.fusesoc.build`, which calls
this module), not here.

Library::

    from pushpush.build.synth import synth_resources
    res = synth_resources(["cores/abe/pp_abe.v"], top="pp_abe", parameters={"NOMINAL_BURST": 16})
    print(res.luts, res.ffs, res.bram36)
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

from pushpush.build.cores import core_sources
from pushpush.build.depth import Depth, DepthError, netlist_depth

LUT_CELLS = ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6", "INV")
FF_CELLS = ("FDRE", "FDSE", "FDCE", "FDPE", "FDRE_1", "FDSE_1", "FDCE_1", "FDPE_1", "LDCE", "LDPE")
LUTRAM_CELLS = ("RAM16X1D", "RAM32X1D", "RAM64X1D", "RAM128X1D", "RAM32M", "RAM64M", "RAM32X1S",
                "RAM64X1S", "RAM128X1S", "RAM256X1S", "SRL16E", "SRLC32E")


class SynthError(RuntimeError):
    """Yosys is missing or failed on the design."""


@dataclass
class Resources:
    """Cell counts after ``synth_xilinx -family xc7`` (LUTs include INV, which Vivado
    folds into LUT1s; BRAM counted in RAMB36 equivalents)."""

    luts: int = 0
    ffs: int = 0
    lutram: int = 0
    bram36: float = 0.0
    dsp: int = 0
    carry4: int = 0
    cells: dict[str, int] = field(default_factory=dict)
    #: longest register-to-register path in LUT levels (pushpush.build.depth), when analysed
    lut_levels: int | None = None
    #: that path's cells by type, e.g. "5 LUT levels (1 CARRY4, 5 LUT6)"
    depth_path: str | None = None

    def __add__(self, other: Resources) -> Resources:
        cells = dict(self.cells)
        for k, v in other.cells.items():
            cells[k] = cells.get(k, 0) + v
        return Resources(self.luts + other.luts, self.ffs + other.ffs, self.lutram + other.lutram,
                         self.bram36 + other.bram36, self.dsp + other.dsp,
                         self.carry4 + other.carry4, cells)

    def with_depth(self, depth: Depth) -> Resources:
        self.lut_levels = depth.lut_levels
        self.depth_path = depth.describe()
        return self

    def summary(self) -> str:
        depth = f"  depth {self.lut_levels} LUT levels" if self.lut_levels is not None else ""
        return (f"LUT {self.luts}  FF {self.ffs}  LUTRAM {self.lutram}  BRAM36 {self.bram36:g}  "
                f"DSP {self.dsp}  CARRY4 {self.carry4}{depth}")

    @classmethod
    def from_cells(cls, cells: Mapping[str, int]) -> Resources:
        count = lambda names: sum(cells.get(n, 0) for n in names)  # noqa: E731
        return cls(
            luts=count(LUT_CELLS),
            ffs=count(FF_CELLS),
            lutram=count(LUTRAM_CELLS),
            bram36=cells.get("RAMB36E1", 0) + cells.get("RAMB18E1", 0) / 2,
            dsp=cells.get("DSP48E1", 0),
            carry4=cells.get("CARRY4", 0),
            cells=dict(sorted(cells.items())),
        )


def _param_value(value: object) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if text.startswith('"'):
        return text
    # Verilog sized literals (32'h1234) and plain numbers pass through; other text is a string.
    if text.replace("'", "").replace("_", "").isalnum() and (text[0].isdigit() or text[0] == "'"):
        return text
    return json.dumps(text)


def synth_resources(
    sources: Sequence[str | Path],
    top: str,
    parameters: Mapping[str, object] | None = None,
    yosys: str | None = None,
    timeout_s: float = 600,
) -> Resources:
    """Synthesise ``top`` from ``sources`` for xc7, count the cells and measure the logic
    depth (:mod:`pushpush.build.depth`)."""
    exe = yosys or shutil.which("yosys")
    if exe is None:
        raise SynthError("yosys not found: install it (Debian: apt-get install yosys)")
    chparams = " ".join(f"-set {k} {_param_value(v)}" for k, v in (parameters or {}).items())
    reads = "; ".join(f"read_verilog -defer {Path(s).resolve()}" for s in sources)
    with tempfile.TemporaryDirectory(prefix="pp-synth-") as tmp:
        stat_file = Path(tmp) / "stat.json"
        net_file = Path(tmp) / "net.json"
        script = (
            f"{reads}; "
            + (f"chparam {chparams} {top}; " if chparams else "")
            + f"synth_xilinx -top {top} -family xc7 -flatten -noiopad -noclkbuf; "
            f"tee -q -o {stat_file} stat -json; write_json {net_file}"
        )
        try:
            proc = subprocess.run([exe, "-q", "-p", script], capture_output=True, text=True,
                                  timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired:
            raise SynthError(f"yosys did not finish synthesising {top} within {timeout_s:.0f} s") from None
        if proc.returncode != 0 or not stat_file.exists():
            tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
            raise SynthError(f"yosys failed on {top}:\n{tail}")
        stat = json.loads(stat_file.read_text())
        netlist = json.loads(net_file.read_text())
    cells = stat.get("design", {}).get("num_cells_by_type", {})
    try:
        depth = netlist_depth(netlist, top)
    except DepthError as exc:
        raise SynthError(f"{top}: {exc}") from None
    return Resources.from_cells(cells).with_depth(depth)


def flat_netlist_depths(netlist: Path, tops: Sequence[str], yosys: str | None = None,
                        timeout_s: float = 600) -> dict[str, Depth]:
    """The logic depth of each module in ``tops`` of a hierarchical Yosys JSON netlist (each
    flattened first; a name may be a module's base name, as in :func:`netlist_resources`)."""
    exe = yosys or shutil.which("yosys")
    if exe is None:
        raise SynthError("yosys not found: install it (Debian: apt-get install yosys)")
    with tempfile.TemporaryDirectory(prefix="pp-depth-") as tmp:
        source = json.loads(Path(netlist).read_text()).get("modules", {})
        by_base = {_base_module(m): m for m in source}
        names = [by_base.get(t, t) for t in tops]
        missing = [t for t, n in zip(tops, names) if n not in source]
        if missing:
            raise SynthError(f"the synthesised netlist {netlist} has no module '{missing[0]}'")
        # one Yosys session: each module flattened on its own copy of the design
        steps = [f"read_json {Path(netlist).resolve()}", "design -save pp_orig"]
        for i, name in enumerate(names):
            esc = name.replace("\\", "\\\\").replace("$", "\\$")
            steps += ["design -load pp_orig", f"hierarchy -top {esc}", "flatten",
                      f"write_json {Path(tmp) / f'flat{i}.json'}"]
        try:
            proc = subprocess.run([exe, "-q", "-p", "; ".join(steps)],
                                  capture_output=True, text=True, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired:
            raise SynthError(f"yosys did not flatten {netlist} within {timeout_s:.0f} s") from None
        flats = [Path(tmp) / f"flat{i}.json" for i in range(len(names))]
        if proc.returncode != 0 or not all(f.exists() for f in flats):
            tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
            raise SynthError(f"yosys could not flatten {netlist}:\n{tail}")
        datas = [json.loads(f.read_text()) for f in flats]
    out = {}
    for top, name, data in zip(tops, names, datas):
        try:
            out[top] = netlist_depth(data, name)
        except DepthError as exc:
            raise SynthError(f"{top}: {exc}") from None
    return out


#: Row names of :func:`netlist_resources` besides the components.
INFRA = "interconnect"
TOTAL = "total"


# --------------------------------------------------------------------------- netlists


def _leaf_counts(modules: Mapping[str, Any], name: str, memo: dict[str, dict[str, int]]) -> dict[str, int]:
    if name in memo:
        return memo[name]
    counts: dict[str, int] = {}
    for cell in modules[name].get("cells", {}).values():
        t = cell["type"]
        sub = modules.get(t)
        if sub is not None and not _is_blackbox(sub):
            for k, v in _leaf_counts(modules, t, memo).items():
                counts[k] = counts.get(k, 0) + v
        else:
            counts[t] = counts.get(t, 0) + 1
    memo[name] = counts
    return counts


def _is_blackbox(module: Mapping[str, Any]) -> bool:
    attrs = module.get("attributes", {})
    return any(str(attrs.get(k, "0")).strip("0") for k in ("blackbox", "whitebox"))


def _base_module(type_name: str) -> str:
    """``$paramod$<hash>\\pp_x`` / ``$paramod\\pp_x\\P=..`` -> ``pp_x``; others unchanged."""
    if not type_name.startswith("$paramod"):
        return type_name.lstrip("\\")
    parts = type_name.split("\\")
    return parts[1] if len(parts) > 1 else type_name


def netlist_resources(netlist: Path | Mapping[str, Any], top: str,
                      components: Mapping[str, str], depth: bool = False,
                      instances: Optional[Mapping[str, str]] = None) -> dict[str, Resources]:
    """Resources per component from a Yosys JSON netlist with hierarchy.

    ``components`` maps a module name (a wrapper) to the component it belongs to. Every
    instance in ``top`` of such a module counts for the component; ``instances`` maps an
    instance name of ``top`` to its component (a riscv component's ``pp_riscv``, a module
    several components share); every other cell of ``top`` (the interconnect, ...) counts
    for :data:`INFRA`. The result also has :data:`TOTAL`.
    With ``depth`` (``netlist`` a file), the total and every component also get their logic
    depth (:mod:`pushpush.build.depth`; the interconnect's shows in the total's)."""
    data = json.loads(Path(netlist).read_text()) if isinstance(netlist, (str, Path)) else netlist
    modules = data["modules"]
    if top not in modules:
        raise SynthError(f"the synthesised netlist has no module '{top}'")
    memo: dict[str, dict[str, int]] = {}
    by_instance = dict(instances or {})
    rows: dict[str, dict[str, int]] = {c: {} for c in [*components.values(), *by_instance.values()]}
    rows[INFRA] = {}

    def add(row: str, counts: Mapping[str, int]) -> None:
        for k, v in counts.items():
            rows[row][k] = rows[row].get(k, 0) + v

    for name, cell in modules[top].get("cells", {}).items():
        t = cell["type"]
        comp = by_instance.get(name.lstrip("\\")) or components.get(_base_module(t))
        sub = modules.get(t)
        counts = _leaf_counts(modules, t, memo) if sub is not None and not _is_blackbox(sub) else {t: 1}
        add(comp if comp is not None else INFRA, counts)
    out = {name: Resources.from_cells(c) for name, c in rows.items()}
    out[TOTAL] = Resources.from_cells(_leaf_counts(modules, top, memo))
    if depth and isinstance(netlist, (str, Path)):
        wrappers = {comp: mod for mod, comp in components.items()}
        depths = flat_netlist_depths(Path(netlist), [top, *wrappers.values()])
        out[TOTAL].with_depth(depths[top])
        for comp, mod in wrappers.items():
            out[comp].with_depth(depths[mod])
    return out


def resources_table(res: Mapping[str, Resources]) -> str:
    """A table: one row per component, the interconnect and the total."""
    levels = any(r.lut_levels is not None for r in res.values())
    rows = [("", "LUT", "FF", "LUTRAM", "BRAM36", "DSP") + (("depth",) if levels else ())]
    for name, r in res.items():
        rows.append((name, str(r.luts), str(r.ffs), str(r.lutram), f"{r.bram36:g}", str(r.dsp))
                    + ((str(r.lut_levels) if r.lut_levels is not None else "-",) if levels else ()))
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for i, r in enumerate(rows):
        if i == len(rows) - 1:
            lines.append("  " + "-" * (sum(w) + 2 * (len(w) - 1)))
        lines.append("  " + "  ".join(r[0].ljust(w[0]) if j == 0 else r[j].rjust(w[j])
                                      for j in range(len(r))))
    return "\n".join(lines)


# --------------------------------------------------------------------------- flattened


#: Row of :attr:`ComponentCost.cores` for the wrapper's own cells (counters, wiring).
WRAPPER_OWN = "wrapper"


@dataclass
class ComponentCost:
    """One rtl component's cost, measured twice.

    ``pushpush`` is the figure to compare with a target: the wrapper synthesised flat, as
    Vivado does by default (``flatten_hierarchy rebuilt``), with only the user module kept
    as its own hierarchy, minus that user module; its depth is the longest path through the
    flat wrapper, user module included. ``cores`` is the attribution: the same wrapper with
    the hierarchy kept (no constant crosses a module boundary), per core module and the
    wrapper's own cells (:data:`WRAPPER_OWN`), each core's depth alone."""

    pushpush: Resources
    user: Resources
    user_module: str
    cores: dict[str, Resources] = field(default_factory=dict)

    @property
    def cores_total(self) -> Resources:
        """The hierarchy-kept PushPush logic (sum of :attr:`cores`)."""
        total = Resources()
        for r in self.cores.values():
            total = total + r
        return total


def _keep_patterns(module: str) -> str:
    r"""Yosys selection of ``module`` after ``hierarchy``: the plain name and its
    parametrised copies (``$paramod\m\P=..`` and ``$paramod$<hash>\m``), Tcl-quoted."""
    return " ".join("{" + p + "}" for p in (module, f"$paramod*\\{module}\\*", f"$paramod*\\{module}"))


def flat_synth_script(top: str, wrappers: Sequence[str], users: Sequence[str],
                      out: Mapping[str, Path]) -> str:
    """The Yosys Tcl script of the flattened measurement, run in an Edalize Yosys work root
    (it sources Edalize's ``edalize_yosys_procs.tcl`` for the files and parameters).

    Every wrapper and user module is kept as its own hierarchy, everything else is
    flattened into them (``synth_xilinx -flatten``). Writes ``out["kept"]`` (that netlist),
    then ``out["wrappers"]``: the same with the user modules flattened into their wrappers
    (cell for cell: no new optimisation), for the depth through each wrapper."""
    keep_w = " ".join(_keep_patterns(m) for m in wrappers)
    keep_u = " ".join(_keep_patterns(m) for m in users)
    return "\n".join([
        "yosys -import",
        "source edalize_yosys_procs.tcl",
        "verilog_defaults -push",
        "verilog_defaults -add -defer",
        "set_defines", "set_incdirs", "read_files", "set_params",
        "verilog_defaults -pop",
        f"hierarchy -top {top}",
        f"setattr -mod -set keep_hierarchy 1 {keep_w} {keep_u}",
        f"synth_xilinx -family xc7 -top {top} -flatten",
        f"write_json {{{out['kept']}}}",
        f"setattr -mod -unset keep_hierarchy {keep_u}",
        "flatten",
        f"write_json {{{out['wrappers']}}}",
        "",
    ])


def flat_component_costs(work_root: Path, top: str, hier_netlist: Path | Mapping[str, Any],
                         components: Mapping[str, str], users: Mapping[str, str],
                         yosys: str | None = None, timeout_s: float = 600) -> dict[str, ComponentCost]:
    """Synthesise the system of an Edalize Yosys work root again with each wrapper flat and
    only its user module kept (:func:`flat_synth_script`), and attribute the hierarchy-kept
    ``hier_netlist`` (the Edalize run's) per core.

    ``components`` maps a wrapper module to its component, ``users`` a wrapper module to the
    user module it instantiates. Yosys runs behind ``$EDALIZE_LAUNCHER`` when it is set, as
    Edalize's own runs do."""
    exe = yosys or shutil.which("yosys")
    if exe is None:
        raise SynthError("yosys not found: install it (Debian: apt-get install yosys)")
    if not (Path(work_root) / "edalize_yosys_procs.tcl").is_file():
        raise SynthError(f"{work_root} is not an Edalize Yosys work root (no edalize_yosys_procs.tcl)")
    with tempfile.TemporaryDirectory(prefix="pp-flat-") as tmp:
        out = {"kept": Path(tmp) / "kept.json", "wrappers": Path(tmp) / "wrappers.json"}
        script = Path(tmp) / "flat.tcl"
        script.write_text(flat_synth_script(top, list(components), list(users.values()), out))
        try:
            # as Edalize's Makefile runs its Yosys: behind $EDALIZE_LAUNCHER when set (srun, ...)
            launcher = shlex.split(os.environ.get("EDALIZE_LAUNCHER", ""))
            proc = subprocess.run([*launcher, exe, "-q", "-c", str(script)], cwd=work_root,
                                  capture_output=True, text=True, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired:
            raise SynthError(f"yosys did not finish the flattened synthesis of {top} within "
                             f"{timeout_s:.0f} s") from None
        if proc.returncode != 0 or not all(p.exists() for p in out.values()):
            tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
            raise SynthError(f"yosys failed on the flattened synthesis of {top}:\n{tail}")
        kept = json.loads(out["kept"].read_text())
        flat = json.loads(out["wrappers"].read_text())
    hier = (json.loads(Path(hier_netlist).read_text()) if isinstance(hier_netlist, (str, Path))
            else hier_netlist)
    costs: dict[str, ComponentCost] = {}
    for wrapper, comp in components.items():
        user = users[wrapper]
        costs[comp] = _component_cost(kept, flat, hier, wrapper, user)
    return costs


def _module(modules: Mapping[str, Any], base: str, what: str) -> str:
    names = [m for m in modules if _base_module(m) == base]
    if len(names) != 1:
        raise SynthError(f"the {what} netlist has {len(names) or 'no'} module(s) '{base}'"
                         + (f": {', '.join(names)}" if names else ""))
    return names[0]


def _component_cost(kept: Mapping[str, Any], flat: Mapping[str, Any], hier: Mapping[str, Any],
                    wrapper: str, user: str) -> ComponentCost:
    kmods = kept["modules"]
    wname = _module(kmods, wrapper, "flattened")
    # the wrapper must hold its user module exactly once, and nothing else but leaf cells
    subs = [c["type"] for c in kmods[wname].get("cells", {}).values()
            if c["type"] in kmods and not _is_blackbox(kmods[c["type"]])]
    if len(subs) != 1 or _base_module(subs[0]) != user:
        raise SynthError(f"the flattened {wrapper} holds {[_base_module(t) for t in subs]}, "
                         f"expected only its user module {user}")
    memo: dict[str, dict[str, int]] = {}
    whole = _leaf_counts(kmods, wname, memo)
    ucounts = _leaf_counts(kmods, subs[0], memo)
    own = {k: whole.get(k, 0) - ucounts.get(k, 0) for k in whole}
    fmods = flat["modules"]
    try:
        depth = netlist_depth(flat, _module(fmods, wrapper, "flattened"))
    except DepthError as exc:
        raise SynthError(f"{wrapper}: {exc}") from None
    pushpush = Resources.from_cells({k: v for k, v in own.items() if v}).with_depth(depth)
    return ComponentCost(pushpush, Resources.from_cells(ucounts), user,
                         _core_attribution(hier, wrapper, user))


def _core_attribution(hier: Mapping[str, Any], wrapper: str, user: str) -> dict[str, Resources]:
    """The hierarchy-kept wrapper's cells per core module (base name), without the user
    module, plus :data:`WRAPPER_OWN`; each core's depth alone when its module is flat."""
    modules = hier["modules"]
    wname = _module(modules, wrapper, "synthesised")
    memo: dict[str, dict[str, int]] = {}
    rows: dict[str, dict[str, int]] = {}
    types: dict[str, str] = {}
    for cell in modules[wname].get("cells", {}).values():
        t = cell["type"]
        sub = modules.get(t)
        if sub is not None and not _is_blackbox(sub):
            base = _base_module(t)
            if base == user:
                continue
            counts = _leaf_counts(modules, t, memo)
            types.setdefault(base, t)
        else:
            base, counts = WRAPPER_OWN, {t: 1}
        row = rows.setdefault(base, {})
        for k, v in counts.items():
            row[k] = row.get(k, 0) + v
    out = {}
    for base, counts in sorted(rows.items(), key=lambda kv: kv[0] == WRAPPER_OWN):
        res = Resources.from_cells(counts)
        t = types.get(base)
        if t is not None:
            try:
                res.with_depth(netlist_depth(hier, t))
            except DepthError:
                pass                     # a core with its own submodules: no depth of its own
        out[base] = res
    return out


def costs_table(costs: Mapping[str, ComponentCost]) -> str:
    """Per component: the flattened PushPush logic (the figure for a target), its user
    module, then the hierarchy-kept attribution per core."""
    rows: list[tuple[str, ...]] = [("", "LUT", "FF", "LUTRAM", "depth")]

    def row(name: str, r: Resources) -> tuple[str, ...]:
        return (name, str(r.luts), str(r.ffs), str(r.lutram),
                str(r.lut_levels) if r.lut_levels is not None else "-")

    for comp, c in costs.items():
        rows.append(row(f"{comp}: PushPush logic, flattened", c.pushpush))
        rows.append(row(f"  user module {c.user_module} (kept apart)", c.user))
        rows.append(row("  hierarchy kept (attribution):", c.cores_total))
        for name, r in c.cores.items():
            rows.append(row(f"    {name}", r))
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  " + "  ".join(r[0].ljust(w[0]) if j == 0 else r[j].rjust(w[j])
                                      for j in range(len(r))) for r in rows)


def _res_json(r: Resources) -> dict[str, Any]:
    return {f: v for f, v in asdict(r).items() if f != "cells"}


def resources_json(resources: Mapping[str, Resources],
                   costs: Mapping[str, ComponentCost]) -> dict[str, Any]:
    """What ``pushpush build --target synth --json`` prints: ``flattened`` (per component,
    the PushPush logic compared with a target, its user module and the per-core
    attribution) and ``hierarchy_kept`` (:func:`netlist_resources`' rows)."""
    return {
        "flattened": {comp: {"pushpush": _res_json(c.pushpush), "user_module": c.user_module,
                             "user": _res_json(c.user),
                             "cores": {k: _res_json(r) for k, r in c.cores.items()}}
                      for comp, c in costs.items()},
        "hierarchy_kept": {k: _res_json(r) for k, r in resources.items()},
    }


def resources_text(system: str, resources: Mapping[str, Resources],
                   costs: Mapping[str, ComponentCost]) -> str:
    """What ``pushpush build --target synth`` prints: the flattened figures per component
    first (the ones to compare with a target), then the hierarchy-kept system table."""
    lines = [f"resources of '{system}' (Yosys synth_xilinx, xc7; estimates):"]
    if costs:
        lines += ["flattened, as Vivado does, each wrapper with only its user module kept apart "
                  "(PushPush logic = wrapper - user module; depth through the whole wrapper):",
                  costs_table(costs)]
        lines += [f"  {comp}'s longest path, flattened: {c.pushpush.depth_path}"
                  for comp, c in costs.items() if c.pushpush.depth_path]
        lines.append("")
        lines.append("hierarchy kept (no constant crosses a module boundary):")
    lines.append(resources_table(resources))
    total = resources.get(TOTAL)
    if total is not None and total.depth_path:
        lines.append(f"depth: the longest register-to-register path, in LUT levels (whole system: "
                     f"{total.depth_path}; pushpush.build.depth says what counts)")
    return "\n".join(lines)


def _system_file(arg: str) -> Path | None:
    p = Path(arg)
    if p.is_dir() and (p / "system.yaml").is_file():
        return p / "system.yaml"
    if p.suffix in (".yaml", ".yml") and p.is_file():
        return p
    return None


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m pushpush.build.synth",
        description="Yosys synth_xilinx (xc7) resource estimate of pushpush cores (a system's "
                    "components: 'pushpush build SYSTEM --target synth').",
        epilog="examples: python -m pushpush.build.synth interconnect -P S_COUNT=4 -P M_COUNT=4\n"
               "          python -m pushpush.build.synth abe call_engine --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("core", nargs="+", help="core folder name(s) under cores/")
    ap.add_argument("-P", "--param", action="append", default=[], metavar="NAME=VALUE",
                    help="override a top-level parameter of a core (repeatable)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
    system = _system_file(args.core[0]) if len(args.core) == 1 else None
    if system is not None:
        ap.error(f"{args.core[0]} is a system: measure its components with "
                 f"'pushpush build {args.core[0]} --target synth' (--json for JSON)")
    params: dict[str, object] = {}
    for p in args.param:
        name, sep, value = p.partition("=")
        if not sep:
            ap.error(f"-P {p}: expected NAME=VALUE")
        params[name] = value
    results = {}
    try:
        for core in args.core:
            sources, top = core_sources(core)
            results[core] = synth_resources(sources, top, params)
    except SynthError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({k: asdict(v) for k, v in results.items()}, indent=2))
    else:
        shown = " ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
        for core, res in results.items():
            print(f"{core:<16} ({shown}): {res.summary()}")
    return 0


if __name__ == "__main__":
    # The documented command for synthesising a core alone (docs/cores.md, cores/*/README.md): the
    # pushpush command builds systems; a system's synth is 'pushpush build --target synth'.
    sys.exit(main())
