"""``pushpush generate``: every file of a system, from the linked model only.

Output folder layout (``<out>``, for system ``<sys>``)::

    <sys>.core                  FuseSoC CAPI2 core (targets lint, sim, synth, pynq_z1)
    <sys>.map.json              the system map (pushpush.sysmap)
    c/<sys>_map.h               C99 header: windows, slots, triggers, argument layouts
    c/pp_*.h, c/pp_*.c          the C runtime and its platform layers (only with c components)
    c/<comp>_pp.h, _pp.c        per c component: proxies, call helpers, serve registration
    rtl/<comp>_wrapper.v        one wrapper per rtl component     (pushpush.codegen.rtl)
    rtl/<comp>_hls_adapter.v    the ap_ctrl_hs adapter of a kind: hls component (codegen.hls)
    hls/<comp>/                 its Vitis HLS script, C testbench, C++ copies (codegen.hls_tcl)
    rtl/<sys>_top.v             the system top
    rtl/<sys>_dma_firewall.v    the AXI DMAs' memory firewall (firewall: and dma:; codegen.dma)
    src/<comp>/<file>.v         copies of the rtl components' sources (the YAML's 'sources')
    vivado/<sys>_bd.tcl         the board's block design (processing_system7 or zynq_ultra_ps_e + the top)
    .pushpush-generated.json    which system's output the folder holds, and its files: a
                                folder of another system's output is refused, and files a
                                regeneration no longer writes are removed

A system without rtl components gets only the map and the C header. Before anything is
rendered, every rtl component's sources must exist and its module's ports (read with a
Verilog parser, :mod:`pushpush.codegen.portcheck`) must match the ports the wrapper
connects; otherwise :class:`GenerateError` lists every problem and nothing is written.
Output is deterministic: the same linked model and the same sources give byte-identical
files wherever the folder is.

Example::

    from pushpush.spec import load_system
    from pushpush.link import link
    from pushpush.codegen.generate import generate
    written = generate(link(load_system("examples/pingpong/system.yaml")), "build/pingpong")
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

from pushpush.link import LinkedSystem
from pushpush.sysmap import to_json

from .fabric import rtl_components
from .ports import check_names
from .rtl import render_rtl, render_stub
from .c import render_c
from .c_map_header import header_path, render_c_header
from .hls import check_hls_sources, render_hls_adapters
from .hls_pp import participant_files, place_files
from .hls_tcl import hls_script_files
from .dma import dma_firewall_files
from .fusesoc import core_path, render_system_core, system_vlnv, user_source_copies
from .channel_shell import module_ports
from .portcheck import check_sources_exist, inspect_component
from .render import GenerateError, write_tree
from .vivado import bd_tcl_path, has_block_design, render_bd_tcl

__all__ = ["GenerateError", "generate", "generate_files", "map_path", "write_stub",
           "component_where", "stub_module_path"]


def map_path(linked: LinkedSystem) -> str:
    return f"{linked.name}.map.json"


def component_where(linked: LinkedSystem, component: str) -> tuple[str, dict[str, str]]:
    """(where the component is in the YAML, {source as written: where its entry is}):
    ``file:line:column`` from the linked model, or the YAML file's name when the model
    carries no positions (one read back from a system map)."""
    comp = linked.component(component)
    sources = {rel: str(loc) for rel, loc in zip(comp.sources, comp.source_locs) if loc is not None}
    return linked.where(component), sources


def check_sources(linked: LinkedSystem, hls_tops: Optional[dict[str, set[str]]] = None
                  ) -> tuple[list[str], dict[str, set[str]]]:
    """(problems, {component: port names its module declares}) for every rtl component;
    ``hls_tops`` gets {component: its HLS top's port names} of the kind: hls components
    whose Verilog was read."""
    problems: list[str] = []
    present: dict[str, set[str]] = {}
    for c in rtl_components(linked):
        where, src_where = component_where(linked, c.name)
        if c.hls_top is not None:  # kind: hls: the HLS top's ports; the adapter is generated
            found, present[c.name], top = check_hls_sources(linked, c, where, src_where)
            problems.extend(found)
            if top is not None and hls_tops is not None:
                hls_tops[c.name] = top
            continue
        found, ports = inspect_component(linked, c.name, module_ports(linked, c), where, src_where)
        problems.extend(found)
        if ports is not None:
            present[c.name] = {p.name for p in ports.ports}
    for c in linked.components:  # hls participants: the IP's Verilog must be there
        if c.kind == "hls":
            where, src_where = component_where(linked, c.name)
            problems.extend(check_sources_exist(linked, c.name, where, src_where))
    return problems, present


def _read_source(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def generate_files(linked: LinkedSystem, check_ports: bool = True) -> dict[str, str]:
    """Every output file as ``{relative POSIX path: text}`` (nothing is written).

    Messages carry the YAML positions the linked model holds. Raises
    :class:`GenerateError` listing every problem (one per line)."""
    problems = list(check_names(linked))
    present: Optional[dict[str, set[str]]] = None
    hls_tops: dict[str, set[str]] = {}
    if not problems:
        if check_ports:
            port_problems, present = check_sources(linked, hls_tops)
            problems += port_problems
        else:
            for c in rtl_components(linked):
                where, src_where = component_where(linked, c.name)
                problems += check_sources_exist(linked, c.name, where, src_where)
    if problems:
        raise GenerateError("\n".join(problems))

    files: dict[str, str] = {}
    rtl_files = render_rtl(linked, present)
    rtl_files.update(render_hls_adapters(linked, hls_tops))  # kind: hls (codegen.hls)
    rtl_files.update(place_files(linked))  # hls participants: their IP's placement (codegen.hls_pp)
    if rtl_files:
        rtl_files.update(dma_firewall_files(linked))  # firewall: + dma: (codegen.dma)
    files.update(rtl_files)
    files[map_path(linked)] = to_json(linked)
    files[header_path(linked)] = render_c_header(linked)
    files.update(render_c(linked))  # c components: runtime, proxies, stubs (codegen.c)
    files.update(hls_script_files(linked))  # kind: hls with hls_sources (codegen.hls_tcl)
    files.update(participant_files(linked))  # kind: hls participants (codegen.hls_pp)
    if rtl_files:
        copies = user_source_copies(linked)
        for dest, src in copies.items():
            files[dest] = _read_source(src)
        if has_block_design(linked):
            files[bd_tcl_path(linked)] = render_bd_tcl(linked, system_vlnv(linked))
        files[core_path(linked)] = render_system_core(linked, list(copies), list(rtl_files))
    return dict(sorted(files.items()))


def generate(linked: LinkedSystem, outdir: str | os.PathLike[str],
             check_ports: bool = True) -> list[Path]:
    """Generate every file into ``outdir`` atomically; returns the written paths (sorted).

    Raises :class:`GenerateError` (and writes nothing) when the system cannot be generated.
    """
    files = generate_files(linked, check_ports=check_ports)
    out = Path(outdir)
    previous = _owner_check(linked, out)
    manifest = {"system": linked.name, "source": linked.source_file, "files": sorted(files)}
    try:
        written = write_tree({**files, MANIFEST: json.dumps(manifest, indent=1) + "\n"}, out)
    except OSError as e:
        raise GenerateError(f"cannot write into '{outdir}': {e.strerror or e}") from None
    # files the previous generation of this system wrote that this one does not (a removed
    # component's wrapper, a renamed source): stale, so removed
    for rel in sorted(set(previous) - set(files)):
        stale = out / rel
        if stale.is_file():
            stale.unlink()
    return [p for p in written if p.name != MANIFEST]


#: The file in an output folder that says which system's output it holds.
MANIFEST = ".pushpush-generated.json"


def _owner_check(linked: LinkedSystem, out: Path) -> list[str]:
    """The files the last ``generate`` of this system wrote into ``out``; a
    :class:`GenerateError` if ``out`` holds another system's output (two systems' files
    would mix: wrappers, tops and cores of both side by side)."""
    if not out.is_dir():
        return []
    owner: Optional[str] = None
    previous: list[str] = []
    mf = out / MANIFEST
    if mf.is_file():
        try:
            data = json.loads(mf.read_text(encoding="utf-8"))
            owner, previous = str(data["system"]), [str(f) for f in data.get("files", [])]
        except (ValueError, KeyError, TypeError):
            owner = None
    if owner is None:  # output of an older pushpush, or none: the system maps tell
        maps = sorted(p.name[:-len(".map.json")] for p in out.glob("*.map.json"))
        owner = next((m for m in maps if m != linked.name), None)
    if owner is not None and owner != linked.name:
        raise GenerateError(
            f"'{out}' holds the generated output of system '{owner}'; generating "
            f"'{linked.name}' there would mix the two systems' files: choose another output "
            f"folder (-o build/{linked.name}) or delete '{out}' first")
    return previous


def stub_module_path(linked: LinkedSystem, component: str) -> str:
    """``<module>.v``: the file name of a component's stub."""
    comp = linked.component(component)
    return f"{comp.module}.v"


def write_stub(linked: LinkedSystem, component: str, target: str | os.PathLike[str],
               force: bool = False) -> Path:
    """Write ``component``'s skeleton module. ``target`` is a ``.v`` file or a folder (then
    ``<folder>/<module>.v``). An existing file is kept unless ``force``."""
    names = [c.name for c in linked.components]
    if component not in names:
        from pushpush.errors import did_you_mean
        rtl = [c.name for c in rtl_components(linked)]
        hint = did_you_mean(component, names) or (
            f"; rtl components: {', '.join(rtl)}" if rtl else "; the system has no rtl component")
        raise GenerateError(f"{linked.source_file}: no component '{component}'{hint}")
    text = render_stub(linked, component)
    t = Path(target)
    path = t if t.suffix in (".v", ".sv") else t / stub_module_path(linked, component)
    if path.exists() and not force:
        raise GenerateError(f"'{path}' exists; not overwriting your module (use --force to replace it)")
    write_tree({path.name: text}, path.parent)
    return path
