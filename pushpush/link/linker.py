"""The linker: a validated :class:`~pushpush.spec.SystemSpec` in, a :class:`LinkedSystem` out.

Pure and deterministic: it resolves every import to its export, checks the signatures
structurally, lays out each component's endpoint window and places the windows in the
global endpoint address space. Later layers (code generation, runtime, benchmarks) read
the result and never recompute an address.

Window layout (word offsets from the window base, in this order):

1. for each export, in declaration order: one ``cep_static`` slot per static importer
   (importers in component declaration order), then ``dynamic_slots`` ``cep_dynamic``
   slots (for function values passed at run time and ad-hoc software callers);
2. one ``rep_import`` slot per import of the component (declaration order);
3. rtl components only: one ``rep_callback`` slot per function-typed parameter of each
   export (the hardware calls the function value it was handed and needs a rep for the
   result);
4. software components only: ``runtime_words`` free words (run-time reps and ceps).

A cep slot is the argument words then the trigger word (``cep_words``); a rep slot is the
result words then the status/trigger word (``rep_words``). Slots are contiguous. Each
slot's ``index`` (0..n-1 in window order) is the index the RTL endpoint memory uses.

Windows are power-of-two sized (the ``window`` given, else the smallest power of two of
at least 4096 bytes that holds the layout) and size-aligned; rtl windows go in region
``pl``, python and c windows in region ``ps``, placed first-fit, largest first, then in
declaration order.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple, Optional, Sequence

from ..errors import Diagnostic, LinkError
from ..spec import MIN_WINDOW, ComponentSpec, Dma, Region, SystemSpec, check_references
from ..spec.fields import DEFAULT_REPLY_TIMEOUT
from ..types import WORD_BYTES, FunctionType, nested_buffer
from .model import (
    DMA_FIRST_PAGE, DMA_HP_PORTS, DMA_PAGE_BYTES, IRQ_BLOCK_BYTES, IRQ_MAX_BITS,
    MAX_INTERCONNECT_PORTS, CallbackInfo, ChannelInfo, DmaBlock, ExportInfo, ImportInfo, IrqBlock, TraceBlock, FirewallBlock, WindowGuard,
    LinkedComponent, LinkedSystem, Slot, SlotKind, pl_block,
)
from .window_rules import guard_entries, window_rules

__all__ = ["link", "load", "window_size_for", "place_ps_window_register", "place_irq", "place_trace",
           "place_firewall", "place_window_guard", "place_dma_firewalls"]


def load(path: "str | os.PathLike[str]", interconnect: Optional[dict[str, Any]] = None,
         board: Optional[str] = None) -> LinkedSystem:
    """Read, check and link a ``system.yaml``: the one loader every command and API uses.

    ``interconnect`` overrides (``{"topology": "shared"}``) are applied to the linked model,
    so every diagnostic still points at the user's own line. Raises ``OSError`` (unreadable
    file), :class:`~pushpush.errors.SpecError`/:class:`~pushpush.errors.LinkError` (an
    invalid system, with positions) and ``ValueError`` (a bad override). ``board`` replaces
    the file's ``board:`` (``pushpush run --board zcu104``), checked as if the file said it.

    >>> load("examples/pingpong/system.yaml", {"topology": "shared"}).interconnect.topology  # doctest: +SKIP
    'shared'
    """
    from ..spec import load_system

    return link(load_system(path, board=board)).with_interconnect(**dict(interconnect or {}))


def load_csim(path: "str | os.PathLike[str]") -> LinkedSystem:
    """Read, check and link a ``system.yaml`` for the C simulation of its hls components
    (docs/hls.md: :func:`pushpush.spec.hls.csim_spec`, each hls component with ``hls_sources``
    served by its C++ in the ARM's memory). ValueError if none can be simulated so."""
    from ..spec import load_system
    from ..spec.hls import csim_spec

    return link(csim_spec(load_system(path)))


def window_size_for(words: int) -> int:
    """The smallest power-of-two window of at least 4096 bytes holding ``words`` words."""
    need = max(MIN_WINDOW, words * WORD_BYTES)
    return 1 << (need - 1).bit_length()


# --------------------------------------------------------------------------- linking


class _Draft(NamedTuple):
    """A slot before placement: everything but its address."""

    kind: str
    function: str
    signature: FunctionType
    offset: int
    words: int
    importer: Optional[str]
    param: Optional[str]


@dataclass
class _Layout:
    """A component's slots before placement (offsets known, addresses not)."""

    spec: ComponentSpec
    slots: list[_Draft]
    static_index: dict[tuple[str, str], int]  # (export, importer) -> slot index
    dynamic_index: dict[str, list[int]]
    import_index: dict[str, int]  # import target -> slot index
    callback_index: dict[str, list[tuple[int, str, FunctionType, int]]]
    slot_words: int
    size: int = 0
    base: int = 0


def link(spec: SystemSpec) -> LinkedSystem:
    """Link a validated system; raises :class:`LinkError` listing every problem."""
    problems = check_references(spec)
    if problems:
        raise LinkError(problems)
    diags: list[Diagnostic] = []

    importers: dict[tuple[str, str], list[str]] = {}
    for comp in spec.components:
        for imp in comp.imports:
            importers.setdefault((imp.component, imp.function), []).append(comp.name)

    diags.extend(_check_ports(spec))
    diags.extend(_check_buffers(spec))
    layouts = [_layout(spec, comp, importers) for comp in spec.components]
    for lay in layouts:
        comp = lay.spec
        words = lay.slot_words + (comp.runtime_words if comp.has_runtime else 0)
        if comp.window is not None:
            if comp.window < words * WORD_BYTES:
                need = window_size_for(words)
                what = "slots and run-time area need" if comp.has_runtime else "slots need"
                diags.append(Diagnostic.at(
                    spec.where(comp.window_loc or comp.loc),
                    f"window of component '{comp.name}' is {comp.window} (0x{comp.window:X}) bytes "
                    f"but its {what} {words} words ({words * WORD_BYTES} bytes); set window to at "
                    f"least 0x{need:X} or remove it"))
            lay.size = comp.window
        else:
            lay.size = window_size_for(words)

    for rname in ("pl", "ps"):
        members = [lay for lay in layouts if lay.spec.region == rname]
        diags.extend(_place(spec, rname, members))

    if spec.software_windows == "ddr" and not diags:
        diags.extend(_check_window_register(spec, [lay for lay in layouts if lay.spec.region == "pl"]))

    dmas, dma_diags = _place_dmas(spec)
    diags.extend(dma_diags)

    if diags:
        raise LinkError(sorted(diags, key=lambda d: (d.line, d.column)))

    by_name = {lay.spec.name: lay for lay in layouts}
    components = tuple(_finish(spec, lay, by_name) for lay in layouts)
    ps_window_register = place_ps_window_register(spec.software_windows, components)
    irq = place_irq(spec.pl, components, ps_window_register)
    trace = place_trace(spec, components, ps_window_register, irq)
    firewall = place_firewall(spec, components, ps_window_register, irq, trace, bool(dmas))
    window_guard = place_window_guard(spec, components, ps_window_register, irq, trace, firewall)
    dmas = place_dma_firewalls(spec, components, dmas, ps_window_register, irq, trace, firewall, window_guard)
    return LinkedSystem(
        name=spec.name, board=spec.board, clock_mhz=spec.clock_mhz,
        interconnect=spec.interconnect, pl=spec.pl, ps=spec.ps, components=components,
        source_file=os.path.basename(spec.file), base_dir=spec.base_dir, loc=spec.loc,
        software_windows=spec.software_windows, dmas=tuple(dmas),
        channels=tuple(ChannelInfo(c.name, ch.name, ch.index) for c in spec.components
                       for ch in c.channels),
        ps_window_register=ps_window_register,
        irq=irq, trace=trace, firewall=firewall, window_guard=window_guard,
    )


def place_ps_window_register(software_windows: str,
                             components: Sequence[LinkedComponent]) -> Optional[int]:
    """With ``software_windows: ddr`` and an rtl component: the register block's page, right
    after the last rtl window (:attr:`LinkedSystem.ps_window_register`); None otherwise.
    :func:`_check_window_register` has made sure it fits in region ``pl``."""
    rtl = [c for c in components if not c.is_software]
    if software_windows != "ddr" or not rtl:
        return None
    return max(c.end for c in rtl)


def place_irq(pl: Region, components: Sequence[LinkedComponent],
              ps_window_register: Optional[int]) -> Optional[IrqBlock]:
    """The interrupt block (:attr:`LinkedSystem.irq`): the first 4 KiB page of ``pl`` that no
    rtl window and no ps_window register block uses, and the software components' pending
    bits in declaration order (at most :data:`IRQ_MAX_BITS`); None without an rtl component
    or a software one, without a free page or without a free interconnect port.

    >>> linked.irq.bit("host"), hex(linked.irq.base)   # doctest: +SKIP
    (0, '0x43C01000')
    """
    rtl = [c for c in components if not c.is_software]
    sw = [c.name for c in components if c.is_software][:IRQ_MAX_BITS]
    reg = ps_window_register
    extra = 0 if reg is None else 1   # the DDR windows' register block has a port too
    if not rtl or not sw or len(rtl) > MAX_INTERCONNECT_PORTS - 2 - extra:
        return None
    used = sorted([(c.base, c.end) for c in rtl]
                  + ([] if reg is None else [(reg, reg + IRQ_BLOCK_BYTES)]))
    page = pl.base
    for lo, hi in used:
        if page + IRQ_BLOCK_BYTES <= lo:
            break
        page = max(page, hi)
    if page + IRQ_BLOCK_BYTES > pl.end:
        return None
    return IrqBlock(page, tuple(sw))


def place_trace(spec: SystemSpec, components: Sequence[LinkedComponent],
                ps_window_register: Optional[int], irq: Optional[IrqBlock]) -> Optional[TraceBlock]:
    """The PL trace buffer's page (:attr:`LinkedSystem.trace`): the first free page of its
    size (size-aligned) in ``pl`` after the rtl windows, the windows' register block and the
    interrupt block; None without ``trace:``. Raises :class:`LinkError` (at the system's
    first line) when the system has no rtl component (no top to hold it), or no free page
    or interconnect port is left.

    >>> hex(linked.trace.base), linked.trace.depth   # doctest: +SKIP
    ('0x43C08000', 1024)
    """
    if not spec.trace_depth:
        return None
    where = spec.where(spec.loc)
    rtl = [c for c in components if not c.is_software]
    if not rtl:
        raise LinkError([Diagnostic.at(where, "trace: the PL trace buffer lives in the system "
                                              "top, which only a system with an rtl component "
                                              "has; remove 'trace:' or add an rtl component")])
    ports = len(rtl) + 1 + (ps_window_register is not None) + (irq is not None) + 1
    if ports > MAX_INTERCONNECT_PORTS:
        raise LinkError([Diagnostic.at(where, f"trace: the interconnect has no free port for the "
                                              f"trace buffer ({MAX_INTERCONNECT_PORTS} at most); "
                                              f"remove 'trace:' or merge components")])
    block = TraceBlock(0, spec.trace_depth)
    size = block.size
    used = sorted([(c.base, c.end) for c in rtl]
                  + ([] if ps_window_register is None
                     else [(ps_window_register, ps_window_register + IRQ_BLOCK_BYTES)])
                  + ([] if irq is None else [(irq.base, irq.base + IRQ_BLOCK_BYTES)]))
    page = -(-spec.pl.base // size) * size
    for lo, hi in used:
        if page + size <= lo:
            break
        page = max(page, -(-hi // size) * size)
    if page + size > spec.pl.end:
        raise LinkError([Diagnostic.at(where, f"trace: no free {size:#x}-byte page for the trace "
                                              f"buffer in region pl ({spec.pl.base:#x}..{spec.pl.end:#x}); "
                                              f"use a smaller trace depth or a larger regions.pl")])
    return TraceBlock(page, spec.trace_depth)


def _free_pl_page(spec: SystemSpec, used: Sequence[tuple[int, int]], what: str) -> int:
    """The first free 4 KiB page of ``pl`` after the ranges ``used``; raises
    :class:`LinkError` (at the system's first line) naming ``what`` when none is left."""
    size = IRQ_BLOCK_BYTES
    page = spec.pl.base
    for lo, hi in sorted(used):
        if page + size <= lo:
            break
        page = max(page, -(-hi // size) * size)
    if page + size > spec.pl.end:
        raise LinkError([Diagnostic.at(spec.where(spec.loc), f"firewall: no free 4 KiB page for {what} "
                                                             f"in region pl ({spec.pl.base:#x}.."
                                                             f"{spec.pl.end:#x}); use a larger regions.pl")])
    return page


def _pl_used(components: Sequence[LinkedComponent], ps_window_register: Optional[int],
             irq: Optional[IrqBlock], trace: Optional[TraceBlock]) -> list[tuple[int, int]]:
    """The ranges of ``pl`` taken by the PL windows and the top's register pages."""
    return ([(c.base, c.end) for c in components if not c.is_software]
            + ([] if ps_window_register is None
               else [(ps_window_register, ps_window_register + IRQ_BLOCK_BYTES)])
            + ([] if irq is None else [(irq.base, irq.base + IRQ_BLOCK_BYTES)])
            + ([] if trace is None else [(trace.base, trace.base + trace.size)]))


def _check_port(spec: SystemSpec, components: Sequence[LinkedComponent], pages: int, what: str) -> None:
    """Raises :class:`LinkError` when the top's interconnect has no port left for ``pages``
    register pages besides the PL windows, the ARM's windows and ``pages`` before."""
    rtl = [c for c in components if not c.is_software]
    if len(rtl) + 1 + pages > MAX_INTERCONNECT_PORTS:
        raise LinkError([Diagnostic.at(spec.where(spec.loc), f"firewall: the interconnect has no free port "
                                                             f"for {what} ({MAX_INTERCONNECT_PORTS} at "
                                                             f"most); remove 'firewall:' or merge components")])


def place_firewall(spec: SystemSpec, components: Sequence[LinkedComponent],
                   ps_window_register: Optional[int], irq: Optional[IrqBlock],
                   trace: Optional[TraceBlock], has_dmas: bool = False) -> Optional[FirewallBlock]:
    """The buffer engines' memory firewall's register page (:attr:`LinkedSystem.firewall`):
    the first free 4 KiB page of ``pl`` after the rtl windows and the other register pages;
    None without ``firewall:`` or without buffer parameters (the window guard, placed by
    :func:`place_window_guard`, and the DMAs' own firewalls, :func:`place_dma_firewalls`,
    may still be there). Raises :class:`LinkError` when ``entries`` is written for a system
    without buffer parameters (it does not apply), when ``firewall:`` guards nothing (no
    buffer parameter, no DMA, no PL write into a software window guarded), when a riscv
    component calls buffer functions, or when no free page or interconnect port is left."""
    if not spec.firewall_entries:
        return None
    where = spec.where(spec.loc)
    rtl = [c for c in components if not c.is_software]
    if not any(e.signature.buffer_params() for c in rtl for e in c.exports):
        if spec.firewall_entries_loc is not None:   # entries size the buffer path's table
            raise LinkError([Diagnostic.at(spec.where(spec.firewall_entries_loc), (
                "firewall: entries sizes the buffer engines' table, and this system has no buffer "
                "parameter (in T[] / out T[]) on an rtl export"
                + (" (its AXI DMAs' firewalls have 2 entries each, one per channel)" if has_dmas else "")
                + "; remove 'entries' (write 'firewall: true')"))])
        if not has_dmas and not (spec.firewall_windows and window_rules(components)):
            raise LinkError([Diagnostic.at(where, "firewall: nothing to guard: this system has no buffer "
                                                  "parameter (in T[] / out T[]) on an rtl export, no dma: and "
                                                  "no PL component that writes into a software window"
                                                  + ("" if spec.firewall_windows else " guarded (windows: false)")
                                                  + "; remove 'firewall:'")])
        return None
    soft_core = sorted({c.name for c in components if c.kind == "riscv"
                        for i in c.imports if i.signature.buffer_params()})
    if soft_core:
        raise LinkError([Diagnostic.at(where, f"firewall: riscv component(s) {', '.join(soft_core)} "
                                              "call functions with buffer parameters, and a soft core "
                                              "cannot open the firewall's ranges: its table belongs "
                                              "to the ARM (only GP0 reaches its register page; a PL "
                                              "master that could write it could open its own "
                                              "ranges), so their calls would all be refused; call "
                                              "those functions from a python or c component, or "
                                              "remove 'firewall:'")])
    _check_port(spec, components, (ps_window_register is not None) + (irq is not None)
                + (trace is not None) + 1, "the firewall's registers")
    page = _free_pl_page(spec, _pl_used(components, ps_window_register, irq, trace),
                         "the firewall's registers")
    return FirewallBlock(page, spec.firewall_entries)


def place_window_guard(spec: SystemSpec, components: Sequence[LinkedComponent],
                       ps_window_register: Optional[int], irq: Optional[IrqBlock],
                       trace: Optional[TraceBlock], firewall: Optional[FirewallBlock]) -> Optional[WindowGuard]:
    """The window guard (:attr:`LinkedSystem.window_guard`): its rules
    (:func:`pushpush.link.window_rules.window_rules`) and its register page, the first free
    4 KiB page of ``pl`` after the others; None without ``firewall:``, with ``windows:
    false``, or when no PL component writes into a software window."""
    if not (spec.firewall_entries and spec.firewall_windows):
        return None
    rules = window_rules(components)
    if not rules:
        return None
    try:
        guard_entries(rules)   # at most MAX_GUARD_ENTRIES (whole beats only merge more: codegen.top_model)
    except ValueError as e:
        raise LinkError([Diagnostic.at(spec.where(spec.loc), f"firewall: {e}; merge components, or "
                                                             "write 'firewall: {windows: false}'")]) from None
    pages = (ps_window_register is not None) + (irq is not None) + (trace is not None) + (firewall is not None)
    _check_port(spec, components, pages + 1, "the window guard's registers")
    used = _pl_used(components, ps_window_register, irq, trace)
    if firewall is not None:
        used.append((firewall.base, firewall.base + firewall.size))
    page = _free_pl_page(spec, used, "the window guard's registers")
    return WindowGuard(page, tuple(rules))


def place_dma_firewalls(spec: SystemSpec, components: Sequence[LinkedComponent],
                        dmas: Sequence[DmaBlock], ps_window_register: Optional[int],
                        irq: Optional[IrqBlock], trace: Optional[TraceBlock],
                        firewall: Optional[FirewallBlock],
                        window_guard: Optional[WindowGuard] = None) -> list[DmaBlock]:
    """With ``firewall:``, each DMA's firewall register page (:attr:`DmaBlock.firewall_base`):
    consecutive 4 KiB pages of ``pl`` from the end of the system top's address block
    (:func:`pushpush.link.model.pl_block` of every page placed in ``pl`` before: windows,
    register blocks), so the block design gives the top and each firewall a segment of its
    own. The pages are on the GP0 side beside the DMAs' register pages, not behind the
    top's interconnect (no port of it is used). Raises :class:`LinkError` when ``pl`` has no
    room left after the top's block."""
    if not spec.firewall_entries or not dmas:
        return list(dmas)
    pages = ([(c.base, c.end) for c in components if not c.is_software]
             + [(p, p + IRQ_BLOCK_BYTES) for p in (ps_window_register, irq and irq.base) if p is not None]
             + [(b.base, b.base + b.size) for b in (trace, firewall, window_guard) if b is not None])
    if pages:
        base, size = pl_block(min(lo for lo, _ in pages), max(hi for _, hi in pages))
        page = base + size
    else:
        page = spec.pl.base
    if page + IRQ_BLOCK_BYTES * len(dmas) > spec.pl.end:
        raise LinkError([Diagnostic.at(spec.where(spec.loc), (
            f"firewall: the memory firewalls of the {len(dmas)} dma(s) need {len(dmas)} 4 KiB "
            f"page(s) in region pl after the system top's block (from 0x{page:08X}), but pl ends at "
            f"0x{spec.pl.end:08X}; set a larger regions.pl.size"))])
    return [replace(d, firewall_base=page + IRQ_BLOCK_BYTES * k) for k, d in enumerate(dmas)]


def _place_dmas(spec: SystemSpec) -> tuple[list[DmaBlock], list[Diagnostic]]:
    """Each ``dma:`` gets the next free 64 KiB page from :data:`DMA_FIRST_PAGE` (pages that
    overlap region ``pl`` are skipped: its windows, the interrupt block and the windows'
    base register live there) and the next HP port of :data:`DMA_HP_PORTS`."""
    from ..boards import board

    facts = board(spec.board)
    out: list[DmaBlock] = []
    diags: list[Diagnostic] = []
    names = {c.name for c in spec.components}
    reserved = {"axi_intc_0": "the interrupt controller", "processing_system7_0": "the PS",
                "system_top_0": "the system top"}
    seen: dict[str, str] = {}
    # the board's first DMA page: 0x40400000 in a Zynq's GP0, 0xA0400000 in ZynqMP's HPM0_FPD
    page = DMA_FIRST_PAGE - 0x4000_0000 + facts.pl_range[0]
    # buffer parameters' engines take S_AXI_HP0, or HP1 when the windows are on HP0
    # (pushpush.codegen.fabric.buffer_port): a DMA never shares their port
    has_buffers = any(e.signature.buffer_params() for c in spec.components for e in c.exports)
    buf_port = ("S_AXI_HP1" if spec.software_windows == "ddr" else "S_AXI_HP0") if has_buffers else None
    hp_ports = [hp for hp in DMA_HP_PORTS if hp != buf_port]
    for comp in spec.components:
        dma: Optional[Dma] = comp.dma
        if dma is None:
            continue
        where = spec.where(dma.loc or comp.loc)
        if dma.name in seen:
            diags.append(Diagnostic.at(where, f"component '{comp.name}' has a dma named "
                                              f"'{dma.name}', as component '{seen[dma.name]}' has; "
                                              f"give it another name, e.g. name: axi_dma_{len(out)}"))
            continue
        if dma.name in names or dma.name in reserved:
            what = f"component '{dma.name}'" if dma.name in names else reserved[dma.name]
            diags.append(Diagnostic.at(where, f"the dma of component '{comp.name}' is named "
                                              f"'{dma.name}', the name of {what} in the overlay; "
                                              f"name it e.g. axi_dma_{len(out)}"))
            continue
        seen[dma.name] = comp.name
        if len(out) == len(hp_ports):
            taken = (f" ({buf_port} carries the buffer parameters' engines)" if buf_port in DMA_HP_PORTS
                     else "")
            diags.append(Diagnostic.at(where, f"component '{comp.name}' would be DMA "
                                              f"{len(out) + 1}, but the PS has "
                                              f"{len(hp_ports)} HP ports for DMAs "
                                              f"({', '.join(hp_ports)}){taken}; remove a dma"))
            continue
        while spec.pl.base < page + DMA_PAGE_BYTES and page < spec.pl.end:
            page += DMA_PAGE_BYTES
        if page + DMA_PAGE_BYTES > facts.pl_range[1]:
            diags.append(Diagnostic.at(where, f"no free 64 KiB page in {facts.master_port} for the dma of "
                                              f"component '{comp.name}'; move regions.pl"))
            continue
        out.append(DmaBlock(dma.name, comp.name, page, dma.data_width, dma.max_burst,
                            hp_ports[len(out)], loc=dma.loc))
        page += DMA_PAGE_BYTES
    return out, diags


def _check_window_register(spec: SystemSpec, rtl: Sequence[_Layout]) -> list[Diagnostic]:
    """``software_windows: ddr`` puts a 4 KiB register block right after the last rtl window
    (:func:`place_ps_window_register`): it must fit in region ``pl``."""
    if not rtl:
        return []
    end = max(lay.base + lay.size for lay in rtl)
    if end + MIN_WINDOW <= spec.pl.end:
        return []
    loc = spec.region_locs.get("pl.size") or spec.region_locs.get("pl") or spec.components_loc
    return [Diagnostic.at(
        spec.where(loc),
        f"software_windows: ddr needs a 4 KiB register block after the last rtl window (at "
        f"0x{end:08X}), but region 'pl' ends at 0x{spec.pl.end:08X}; set regions.pl.size to at "
        f"least 0x{end + MIN_WINDOW - spec.pl.base:X}")]


#: Buffer parameters of rtl exports a system may have in all (their DMA engines share the
#: top's S_AXI_HP0 port, whose AXI IDs are 6 bits wide on the Zynq-7000).
MAX_BUFFER_ENGINES = 32


def _check_buffers(spec: SystemSpec) -> list[Diagnostic]:
    """Buffer parameters (``in u32[]``) are carried end to end for an rtl export called from
    Python or C: everything else is reported at its line with what to do instead."""
    diags: list[Diagnostic] = []
    engines = 0
    for comp in spec.components:
        for e in comp.exports:
            sig = e.signature
            where = spec.where(e.loc or comp.loc)
            if nested_buffer(sig):
                diags.append(Diagnostic.at(where, (
                    f"export '{e.name}' of '{comp.name}': a buffer inside a function-typed parameter "
                    f"or a result ({sig}) is not supported; buffers are parameters of the "
                    "export's own signature only: pass the buffer as a parameter of this export")))
            bufs = sig.buffer_params()
            if not bufs:
                continue
            if comp.kind != "rtl":
                diags.append(Diagnostic.at(where, (
                    f"export '{e.name}' of {comp.kind} component '{comp.name}' takes buffer "
                    f"parameter(s) {', '.join(repr(b.name) for b in bufs)}: buffers are supported "
                    "for rtl exports only (not yet for python or c exports); make the exporter an "
                    "rtl component, or pass the data as scalar parameters")))
            engines += len(bufs)
            if engines > MAX_BUFFER_ENGINES and engines - len(bufs) <= MAX_BUFFER_ENGINES:
                diags.append(Diagnostic.at(where, (
                    f"export '{e.name}' of '{comp.name}': the system has more than "
                    f"{MAX_BUFFER_ENGINES} buffer parameters in rtl exports (each has its own DMA "
                    f"engine on S_AXI_HP0, whose IDs are 6 bits); use at most {MAX_BUFFER_ENGINES}")))
        for imp in comp.imports:
            callee = spec.component(imp.component)
            export = callee.export(imp.function) if callee else None
            if export is None or not export.signature.buffer_params() or comp.kind != "rtl":
                continue
            diags.append(Diagnostic.at(spec.where(imp.loc or comp.loc), (
                f"import '{imp.target}' of rtl component '{comp.name}': its signature "
                f"({export.signature}) has buffer parameters, which only python and c components "
                "can pass so far (physically contiguous memory: a pynq.allocate buffer, or a "
                "pp_buf in C); call it from a python or c component")))
    return diags


def _check_ports(spec: SystemSpec) -> list[Diagnostic]:
    """The interconnect has one port per rtl component plus the ARM's on each side: the rtl
    component that would need port MAX_INTERCONNECT_PORTS + 1 is reported."""
    rtl = [c for c in spec.components if not c.is_software]
    # the ARM's port, and with software_windows: ddr the window register's slave
    limit = MAX_INTERCONNECT_PORTS - (2 if spec.software_windows == "ddr" else 1)
    if len(rtl) <= limit:
        return []
    first = rtl[limit]
    return [Diagnostic.at(
        spec.where(first.loc),
        f"component '{first.name}' is rtl component {limit + 1} of {len(rtl)}: the interconnect "
        f"has at most {MAX_INTERCONNECT_PORTS} ports per side (the ARM's and one per rtl "
        f"component), so a system holds at most {limit} rtl components; merge components into "
        f"fewer modules (one module may export several functions), or make some python or c")]


def _layout(spec: SystemSpec, comp: ComponentSpec,
            importers: dict[tuple[str, str], list[str]]) -> _Layout:
    slots: list[_Draft] = []
    offset = 0

    def add(kind: SlotKind, function: str, sig: FunctionType, words: int,
            importer: Optional[str] = None, param: Optional[str] = None) -> int:
        nonlocal offset
        slots.append(_Draft(kind, function, sig, offset, words, importer, param))
        offset += words
        return len(slots) - 1

    lay = _Layout(comp, slots, {}, {}, {}, {}, 0)
    for e in comp.exports:
        for who in importers.get((comp.name, e.name), []):
            lay.static_index[(e.name, who)] = add(SlotKind.CEP_STATIC, e.name, e.signature,
                                                  e.signature.cep_words, importer=who)
        lay.dynamic_index[e.name] = [add(SlotKind.CEP_DYNAMIC, e.name, e.signature, e.signature.cep_words)
                                     for _ in range(e.dynamic_slots)]
    for imp in comp.imports:
        callee = spec.component(imp.component)
        export = callee.export(imp.function) if callee else None
        assert export is not None  # check_references passed
        lay.import_index[imp.target] = add(SlotKind.REP_IMPORT, imp.target, export.signature,
                                           export.signature.rep_words)
    if comp.kind == "rtl":  # software and riscv call function values from their run-time area
        for e in comp.exports:
            entries = []
            for arg in e.signature.function_params():
                assert isinstance(arg.type, FunctionType)
                idx = add(SlotKind.REP_CALLBACK, e.name, arg.type, arg.type.rep_words, param=arg.name)
                entries.append((idx, arg.name, arg.type, arg.index))
            lay.callback_index[e.name] = entries
    lay.slot_words = offset
    return lay


def _place(spec: SystemSpec, rname: str, members: Sequence[_Layout]) -> list[Diagnostic]:
    """First-fit, largest window first then declaration order, size-aligned."""
    region = spec.region(rname)
    order = sorted(range(len(members)), key=lambda i: (-members[i].size, i))
    placed: list[tuple[int, int]] = []
    furthest = region.base
    overflow: list[str] = []
    for i in order:
        lay = members[i]
        addr = _align_up(region.base, lay.size)
        moved = True
        while moved:
            moved = False
            for lo, hi in placed:
                if addr < hi and lo < addr + lay.size:
                    addr = _align_up(hi, lay.size)
                    moved = True
        lay.base = addr
        placed.append((addr, addr + lay.size))
        furthest = max(furthest, addr + lay.size)
        if addr + lay.size > region.end:
            overflow.append(lay.spec.name)
    if not overflow:
        return []
    need = furthest - region.base
    kinds = "rtl" if rname == "pl" else "python and c"
    loc = (spec.region_locs.get(f"{rname}.size") or spec.region_locs.get(rname)
           or spec.components_loc)
    listing = ", ".join(f"'{m.spec.name}' 0x{m.size:X}" for m in members)
    return [Diagnostic.at(
        spec.where(loc),
        f"region '{rname}' (base 0x{region.base:08X}, size 0x{region.size:X}) is too small for "
        f"the {kinds} windows ({listing}): they need 0x{need:X} bytes from its base; set "
        f"regions.{rname}.size to at least 0x{need:X} or make the windows smaller")]


def _align_up(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def _finish(spec: SystemSpec, lay: _Layout, by_name: dict[str, _Layout]) -> LinkedComponent:
    comp = lay.spec

    def address(owner: _Layout, index: int) -> tuple[int, int]:
        draft = owner.slots[index]
        first = owner.base + WORD_BYTES * draft.offset
        return first, first + WORD_BYTES * (draft.words - 1)

    slots = tuple(
        Slot(index=i, kind=d.kind, function=d.function, signature=d.signature, offset=d.offset,
             words=d.words, address=lay.base + WORD_BYTES * d.offset, importer=d.importer,
             param=d.param)
        for i, d in enumerate(lay.slots)
    )
    exports = []
    for e in comp.exports:
        whos = tuple(who for (fn, who) in lay.static_index if fn == e.name)
        callbacks = []
        for idx, pname, sig, pindex in lay.callback_index.get(e.name, []):
            first, trig = address(lay, idx)
            callbacks.append(CallbackInfo(pname, pindex, sig, idx, first, trig))
        exports.append(ExportInfo(
            name=e.name, signature=e.signature, importers=whos,
            static_slots=tuple(lay.static_index[(e.name, w)] for w in whos),
            dynamic_slots=tuple(lay.dynamic_index[e.name]), callbacks=tuple(callbacks), loc=e.loc))
    imports = []
    for imp in comp.imports:
        callee = by_name[imp.component]
        cep = callee.static_index[(imp.function, comp.name)]
        rep = lay.import_index[imp.target]
        cep_first, cep_trig = address(callee, cep)
        rep_first, rep_trig = address(lay, rep)
        imports.append(ImportInfo(
            component=imp.component, function=imp.function,
            signature=callee.slots[cep].signature, cep_slot=cep, cep_address=cep_first,
            cep_trigger_address=cep_trig, rep_slot=rep, rep_address=rep_first,
            rep_trigger_address=rep_trig, loc=imp.loc))
    return LinkedComponent(
        name=comp.name, kind=comp.kind, region=comp.region, module=comp.module,
        sources=tuple(_relative(s, spec.base_dir) for s in comp.sources),
        base=lay.base, size=lay.size, slot_words=lay.slot_words,
        runtime_words=comp.runtime_words if comp.has_runtime else 0, abe=comp.abe,
        exports=tuple(exports), imports=tuple(imports), slots=slots,
        wait=comp.wait if comp.is_software else "",
        loc=comp.loc, source_locs=tuple(comp.source_locs),
        memory=comp.memory, memory_loc=comp.memory_loc, cpu=comp.cpu,
        reply_timeout=comp.reply_timeout if comp.kind == "rtl" else DEFAULT_REPLY_TIMEOUT,
        hls_top=comp.hls_top,
        hls_sources=tuple(_relative(s, spec.base_dir) for s in comp.hls_sources),
    )


def _relative(path: Path, base: Optional[Path]) -> str:
    if base is None or not path.is_absolute():
        return Path(path).as_posix()
    return Path(os.path.relpath(path, base)).as_posix()
