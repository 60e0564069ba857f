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

import enum
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple, Optional, Sequence

from .errors import Diagnostic, LinkError, Location, did_you_mean
from .spec import WAIT_MODES  # noqa: F401  (re-exported: the runtime's wait modes)
from .spec import (
    ARBITRATIONS,
    DATA_WIDTHS,
    MIN_WINDOW,
    TOPOLOGIES,
    Abe,
    ComponentSpec,
    Dma,
    Interconnect,
    Region,
    SystemSpec,
    check_references,
)
from .protocol import WordSpan
from .types import WORD_BYTES, FunctionType, nested_buffer

__all__ = [
    "ChannelInfo",
    "WORD_BYTES",
    "SLOT_KINDS",
    "SlotKind",
    "WordSpan",
    "Slot",
    "CallbackInfo",
    "ExportInfo",
    "ImportInfo",
    "LinkedComponent",
    "LinkedSystem",
    "IrqBlock",
    "DmaBlock",
    "DMA_PAGE_BYTES",
    "DMA_FIRST_PAGE",
    "DMA_HP_PORTS",
    "IRQ_BLOCK_BYTES",
    "IRQ_MAX_BITS",
    "IRQ_PENDING_OFFSET", "IRQ_ENABLE_SET", "IRQ_ENABLE_CLEAR",
    "link",
    "load",
    "window_size_for",
]

class SlotKind(str, enum.Enum):
    """What a slot of a window is for (docs/architecture.md §2.1).

    A ``str`` enum: ``SlotKind.CEP_STATIC == "cep_static"``, and it prints as its value.
    """

    #: A call endpoint reserved for one statically linked importer.
    CEP_STATIC = "cep_static"
    #: A call endpoint for callers holding the function as a value (any caller).
    CEP_DYNAMIC = "cep_dynamic"
    #: The return endpoint of one import of the component.
    REP_IMPORT = "rep_import"
    #: The return endpoint for calling a function-typed parameter (rtl exports).
    REP_CALLBACK = "rep_callback"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def is_cep(self) -> bool:
        return self in (SlotKind.CEP_STATIC, SlotKind.CEP_DYNAMIC)


#: Every slot kind's name, in layout order.
SLOT_KINDS = tuple(k.value for k in SlotKind)

#: Ports per side of the generated interconnect (``pp_axi_interconnect`` S_COUNT/M_COUNT):
#: the ARM's port plus one per rtl component on each side.
MAX_INTERCONNECT_PORTS = 64


@dataclass(frozen=True)
class Slot(WordSpan):
    """One endpoint slot in a component's window.

    ``function`` is, by kind: ``cep_static``/``cep_dynamic``: the exported function's name;
    ``rep_import``: the import target ``component.function``; ``rep_callback``: the export
    whose function-typed parameter ``param`` this rep serves. ``signature`` is the type of
    the function whose call endpoint or whose result this slot holds.
    """

    index: int
    kind: SlotKind
    function: str
    signature: FunctionType
    #: Word offset of the slot's first word from the window base.
    offset: int
    words: int
    #: Global byte address of the first word.
    address: int
    #: The component this static cep is reserved for (``cep_static`` only).
    importer: Optional[str] = None
    #: The function-typed parameter (``rep_callback`` only).
    param: Optional[str] = None

    @property
    def is_cep(self) -> bool:
        return SlotKind(self.kind).is_cep


@dataclass(frozen=True)
class CallbackInfo:
    """A function-typed parameter of an rtl export and the rep slot for calling it."""

    param: str
    param_index: int
    signature: FunctionType
    rep_slot: int
    rep_address: int
    rep_trigger_address: int


@dataclass(frozen=True)
class ExportInfo:
    name: str
    signature: FunctionType
    #: Components with a static cep slot, in the same order as ``static_slots``.
    importers: tuple[str, ...]
    static_slots: tuple[int, ...]
    dynamic_slots: tuple[int, ...]
    #: rtl only: one entry per function-typed parameter.
    callbacks: tuple[CallbackInfo, ...] = ()
    #: Where the export is declared in the YAML (not part of equality or the map).
    loc: Optional[Location] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ImportInfo:
    """One import site: where to write the call and where the result comes back."""

    component: str
    function: str
    #: The callee's signature (the export's, which the expected one matched).
    signature: FunctionType
    #: Index of this importer's static cep slot in the callee's window.
    cep_slot: int
    cep_address: int
    cep_trigger_address: int
    #: Index of the rep slot in the importer's own window.
    rep_slot: int
    rep_address: int
    rep_trigger_address: int
    #: Where the import is written in the YAML (not part of equality or the map).
    loc: Optional[Location] = field(default=None, compare=False, repr=False)

    @property
    def target(self) -> str:
        return f"{self.component}.{self.function}"


@dataclass(frozen=True)
class LinkedComponent:
    name: str
    kind: str
    #: ``"pl"`` (rtl) or ``"ps"`` (python, c).
    region: str
    module: Optional[str]
    #: Verilog sources relative to the YAML file's directory, POSIX style.
    sources: tuple[str, ...]
    #: Window base byte address and size in bytes (power of two, base size-aligned).
    base: int
    size: int
    #: Words taken by the slots (the run-time area follows them).
    slot_words: int
    runtime_words: int
    abe: Optional[Abe]
    exports: tuple[ExportInfo, ...]
    imports: tuple[ImportInfo, ...]
    slots: tuple[Slot, ...]
    #: How a software component's runtime waits (``spec_fields.WAIT_MODES``); "" for rtl.
    wait: str = ""
    #: A riscv component's local memory in bytes (0 for other kinds; docs/riscv.md).
    memory: int = 0
    #: Where the component and each of its sources are written in the YAML (positions are
    #: not part of equality or the map; ``None`` for a model read back from a map).
    loc: Optional[Location] = field(default=None, compare=False, repr=False)
    source_locs: tuple[Optional[Location], ...] = field(default=(), compare=False, repr=False)
    memory_loc: Optional[Location] = field(default=None, compare=False, repr=False)

    @property
    def end(self) -> int:
        return self.base + self.size

    @property
    def is_software(self) -> bool:
        return self.region == "ps"

    @property
    def words_used(self) -> int:
        return self.slot_words + self.runtime_words

    @property
    def runtime_offset(self) -> int:
        """Word offset of the run-time area (equals ``slot_words``)."""
        return self.slot_words

    @property
    def runtime_address(self) -> int:
        return self.base + WORD_BYTES * self.slot_words

    @property
    def slot_first(self) -> tuple[int, ...]:
        """First-word offset of every slot (the RTL endpoint memory's SLOT_FIRST table)."""
        return tuple(s.offset for s in self.slots)

    @property
    def slot_trig(self) -> tuple[int, ...]:
        """Trigger-word offset of every slot (the RTL endpoint memory's SLOT_TRIG table)."""
        return tuple(s.trigger_offset for s in self.slots)

    def export(self, name: str) -> ExportInfo:
        for e in self.exports:
            if e.name == name:
                return e
        raise KeyError(f"component '{self.name}' has no export '{name}'")

    def import_(self, target: str) -> ImportInfo:
        for i in self.imports:
            if i.target == target:
                return i
        raise KeyError(f"component '{self.name}' has no import '{target}'")


#: The interrupt block: one 4 KiB page, a pending bit per software component (at most 32).
IRQ_BLOCK_BYTES = 0x1000
IRQ_MAX_BITS = 32
#: Byte offset of the pending register in the interrupt block (read: the bits; write:
#: write-1-to-clear).
IRQ_PENDING_OFFSET = 0x0
#: Byte offsets of the enable bits (0 after reset; the interrupt is the OR of the pending bits
#: that are enabled): a write sets the bits written as 1 at IRQ_ENABLE_SET (a read there
#: returns the enable bits), clears them at IRQ_ENABLE_CLEAR.
IRQ_ENABLE_SET = 0x4
IRQ_ENABLE_CLEAR = 0x8


@dataclass(frozen=True)
class IrqBlock:
    """Where the system top's pending register is and whose bit is which (see
    :attr:`LinkedSystem.irq`)."""

    base: int
    #: Software components in bit order (bit i is ``components[i]``).
    components: tuple[str, ...]

    @property
    def pending_address(self) -> int:
        return self.base + IRQ_PENDING_OFFSET

    @property
    def enable_set_address(self) -> int:
        return self.base + IRQ_ENABLE_SET

    @property
    def enable_clear_address(self) -> int:
        return self.base + IRQ_ENABLE_CLEAR

    def bit(self, component: str) -> int:
        """The pending bit of a software component (ValueError if it has none)."""
        try:
            return self.components.index(component)
        except ValueError:
            raise ValueError(f"component '{component}' has no pending bit (only the first "
                             f"{IRQ_MAX_BITS} software components have one)") from None


#: An AXI DMA's register page in GP0: 64 KiB, as Vivado assigns an AXI DMA (PG021's 10-bit
#: register space, the rest of the page reads 0); the first page Vivado gives one.
DMA_PAGE_BYTES = 0x1_0000
DMA_FIRST_PAGE = 0x4040_0000
#: The PS ports the DMAs' memory masters use, in order (docs/board.md: HP0 is the PL-to-PS
#: port of ``software_windows: ddr`` and of the buffer-argument engine; HP0/HP1 share one
#: DDR controller port, HP2/HP3 the other, so the first DMA gets HP2 to itself).
DMA_HP_PORTS = ("S_AXI_HP2", "S_AXI_HP3", "S_AXI_HP1")


@dataclass(frozen=True)
class DmaBlock:
    """An AXI DMA in simple mode on an rtl component's streams (``dma:`` in the YAML): the
    Xilinx AXI DMA 7.1 in the block design, ``pp_axi_dma`` on the simulated board. Its MM2S
    stream feeds the module's ``s_axis_*``, its S2MM channel takes ``m_axis_*``.

    >>> linked.dmas[0].name, hex(linked.dmas[0].base), linked.dmas[0].hp_port  # doctest: +SKIP
    ('axi_dma_0', '0x40400000', 'S_AXI_HP2')
    """

    name: str
    component: str
    #: The register page (GP0 byte address, :data:`DMA_PAGE_BYTES` long).
    base: int
    data_width: int
    max_burst: int
    #: The Zynq slave port its memory master uses (:data:`DMA_HP_PORTS`).
    hp_port: str
    loc: Optional[Location] = field(default=None, compare=False, repr=False)

    @property
    def size(self) -> int:
        return DMA_PAGE_BYTES

    @property
    def end(self) -> int:
        return self.base + DMA_PAGE_BYTES


@dataclass(frozen=True)
class ChannelInfo:
    """A RIFFA-style channel (``channels:`` of an rtl component; docs/rtl-ports.md,
    "Channels"): software sends with one call of export ``<name>_rx`` and receives with
    calls of ``<name>_tx``; ``index`` is RIFFA's channel number (0..11)."""

    component: str
    name: str
    index: int

    @property
    def rx(self) -> str:
        return f"{self.name}_rx"

    @property
    def tx(self) -> str:
        return f"{self.name}_tx"


@dataclass(frozen=True)
class LinkedSystem:
    name: str
    board: str
    clock_mhz: float
    interconnect: Interconnect
    pl: Region
    ps: Region
    components: tuple[LinkedComponent, ...]
    #: The YAML file's name (no directory), as recorded in the system map.
    source_file: str
    #: Absolute directory of the YAML file, when known (not part of equality or the map).
    base_dir: Optional[Path] = field(default=None, compare=False)
    #: Where the description starts (file:line:column of ``system:``), when known.
    loc: Optional[Location] = field(default=None, compare=False, repr=False)
    #: Where the software windows live: "ocm" (the on-chip memory at ``ps``) or "ddr" (a
    #: ``pynq.allocate`` buffer; ``ps`` are then link addresses, see :attr:`ps_window_register`).
    software_windows: str = "ocm"
    #: The AXI DMAs on rtl components' streams, in component declaration order.
    dmas: tuple[DmaBlock, ...] = ()
    #: The RIFFA-style channels, by component (declaration order) then channel number.
    channels: tuple[ChannelInfo, ...] = ()

    def channels_of(self, component: str) -> tuple[ChannelInfo, ...]:
        """A component's channels (empty without ``channels:``)."""
        return tuple(c for c in self.channels if c.component == component)

    def channel(self, component: str, name: str) -> ChannelInfo:
        """The channel ``name`` (or RIFFA number, as a string) of ``component``; KeyError
        naming the channels there are."""
        chans = self.channels_of(component)
        for c in chans:
            if c.name == name or str(c.index) == name:
                return c
        have = ", ".join(c.name for c in chans) or "none"
        raise KeyError(f"component '{component}' has no channel '{name}' (its channels: {have})")

    def dma_of(self, component: str) -> Optional[DmaBlock]:
        """The DMA on a component's streams, or None."""
        for d in self.dmas:
            if d.component == component:
                return d
        return None

    @property
    def ps_window_register(self) -> Optional[int]:
        """With ``software_windows: ddr`` and an rtl component: the GP0 address of the 4 KiB
        register block (``cores/ps_window``) right after the last rtl window, whose word 0 the
        runtime writes with the buffer's physical address at load; the top's ``m_axi`` adds
        (that base - ``ps.base``) to every address. None otherwise.

        >>> linked.ps_window_register  # doctest: +SKIP
        1136660480
        """
        rtl = [c for c in self.components if not c.is_software]
        if self.software_windows != "ddr" or not rtl:
            return None
        return max(c.end for c in rtl)

    def with_interconnect(self, **overrides: Any) -> "LinkedSystem":
        """This system on another interconnect: ``topology``, ``data_width``, ``arbitration``
        (the address map does not depend on it, so nothing is linked again).

        >>> linked.with_interconnect(topology="shared").interconnect.topology  # doctest: +SKIP
        'shared'
        """
        allowed = {"topology": TOPOLOGIES, "data_width": DATA_WIDTHS, "arbitration": ARBITRATIONS}
        for key, value in overrides.items():
            if key not in allowed:
                raise ValueError(f"interconnect has no setting '{key}'{did_you_mean(key, allowed)}; "
                                 f"settings: {', '.join(allowed)}")
            if value not in allowed[key] or isinstance(value, bool):
                raise ValueError(f"interconnect {key} must be one of "
                                 f"{', '.join(str(v) for v in allowed[key])}, not {value!r}")
        if not overrides:
            return self
        return replace(self, interconnect=replace(self.interconnect, **overrides))

    def where(self, component: Optional[str] = None) -> str:
        """``file:line:column`` of a component's declaration (or of the description), or
        the YAML file's name when the model carries no positions."""
        loc = self.loc if component is None else self.component(component).loc
        return str(loc) if loc is not None else self.source_file

    def component(self, name: str) -> LinkedComponent:
        for c in self.components:
            if c.name == name:
                return c
        raise KeyError(f"no component '{name}'")

    def region(self, name: str) -> Region:
        return self.pl if name == "pl" else self.ps

    def source_paths(self, component: str) -> list[Path]:
        """Absolute paths of a component's Verilog sources (needs ``base_dir``)."""
        base = self.base_dir or Path.cwd()
        return [Path(os.path.normpath(base / s)) for s in self.component(component).sources]

    @property
    def irq(self) -> Optional["IrqBlock"]:
        """The system top's interrupt block (docs/architecture.md §2.3): its 4 KiB page in
        the ``pl`` region (the first one no rtl window and no :attr:`ps_window_register`
        uses) and each software component's
        pending bit; None when the system has no top (no rtl component), no software
        component, no free page in ``pl`` or no free interconnect port.

        >>> linked.irq.bit("host"), hex(linked.irq.base)   # doctest: +SKIP
        (0, '0x43C01000')
        """
        rtl = [c for c in self.components if not c.is_software]
        sw = [c.name for c in self.components if c.is_software][:IRQ_MAX_BITS]
        reg = self.ps_window_register
        extra = 0 if reg is None else 1   # the DDR windows' register block has a port too
        if not rtl or not sw or len(rtl) > MAX_INTERCONNECT_PORTS - 2 - extra:
            return None
        used = sorted([(c.base, c.end) for c in rtl]
                      + ([] if reg is None else [(reg, reg + IRQ_BLOCK_BYTES)]))
        page = self.pl.base
        for lo, hi in used:
            if page + IRQ_BLOCK_BYTES <= lo:
                break
            page = max(page, hi)
        if page + IRQ_BLOCK_BYTES > self.pl.end:
            return None
        return IrqBlock(page, tuple(sw))

    def locate(self, address: int) -> Optional[tuple[LinkedComponent, Optional[Slot]]]:
        """The window containing a byte address and the slot there (None in free space)."""
        for c in self.components:
            if c.base <= address < c.end:
                word = (address - c.base) // WORD_BYTES
                for s in c.slots:
                    if s.offset <= word < s.offset + s.words:
                        return c, s
                return c, None
        return None


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
    from .spec import load_system

    return link(load_system(path, board=board)).with_interconnect(**dict(interconnect or {}))


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
    return LinkedSystem(
        name=spec.name, board=spec.board, clock_mhz=spec.clock_mhz,
        interconnect=spec.interconnect, pl=spec.pl, ps=spec.ps, components=components,
        source_file=os.path.basename(spec.file), base_dir=spec.base_dir, loc=spec.loc,
        software_windows=spec.software_windows, dmas=tuple(dmas),
        channels=tuple(ChannelInfo(c.name, ch.name, ch.index) for c in spec.components
                       for ch in c.channels),
    )


def _place_dmas(spec: SystemSpec) -> tuple[list[DmaBlock], list[Diagnostic]]:
    """Each ``dma:`` gets the next free 64 KiB page from :data:`DMA_FIRST_PAGE` (pages that
    overlap region ``pl`` are skipped: its windows, the interrupt block and the windows'
    base register live there) and the next HP port of :data:`DMA_HP_PORTS`."""
    from .boards import board

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
    (LinkedSystem.ps_window_register): it must fit in region ``pl``."""
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
        memory=comp.memory, memory_loc=comp.memory_loc,
    )


def _relative(path: Path, base: Optional[Path]) -> str:
    if base is None or not path.is_absolute():
        return Path(path).as_posix()
    return Path(os.path.relpath(path, base)).as_posix()
