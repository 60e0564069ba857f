"""The linked model: what :func:`~pushpush.link.link` returns and every later layer
(code generation, runtime, benchmarks) reads. Plain values: every address, slot, page and
port here was placed by the algorithm in :mod:`pushpush.link.linker`; nothing is computed
on access.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import Location, did_you_mean
from ..protocol import WordSpan
from ..spec import ARBITRATIONS, DATA_WIDTHS, TOPOLOGIES, Abe, Interconnect, Region
from ..spec.fields import DEFAULT_REPLY_TIMEOUT
from ..spec.model import ChannelExports
from ..types import WORD_BYTES, FunctionType

__all__ = [
    "firewall_engines",
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
    "DMA_FIREWALL_ENTRIES",
    "pl_block",
    "IRQ_BLOCK_BYTES",
    "TraceBlock",
    "FirewallBlock",
    "trace_pulses",
    "TRACE_CONTROL",
    "TRACE_INFO",
    "TRACE_WP",
    "TRACE_RP",
    "TRACE_OVERFLOW",
    "TRACE_CYCLES",
    "TRACE_RECORD_BYTES",
    "IRQ_MAX_BITS",
    "IRQ_PENDING_OFFSET", "IRQ_ENABLE_SET", "IRQ_ENABLE_CLEAR",
    "MAX_INTERCONNECT_PORTS",
    "MAX_GUARD_ENTRIES", "WindowRule", "GuardEntry", "WindowGuard",
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
    #: How a software component's runtime waits (``fields.WAIT_MODES``); "" for rtl.
    wait: str = ""
    #: A riscv component's local memory in bytes (0 for other kinds; docs/riscv.md).
    memory: int = 0
    #: A riscv component's soft core (picorv32 or vexriscv; "" for other kinds).
    cpu: str = ""
    #: PL cycles an rtl component's call waits for its reply (``reply_timeout``: every call
    #: site's REPLY_TIMEOUT, cores/call_site); the default for other kinds, unused there.
    reply_timeout: int = DEFAULT_REPLY_TIMEOUT
    #: Written ``kind: hls`` (docs/hls.md): the Vitis HLS top function's module that the
    #: generated adapter (:attr:`module`, ``<name>_hls_adapter``) wraps; None otherwise.
    hls_top: Optional[str] = None
    #: Its HLS C++ files (``hls_sources``), relative to the YAML file's directory, POSIX style.
    hls_sources: tuple[str, ...] = ()
    #: Where the component and each of its sources are written in the YAML (positions are
    #: not part of equality or the map; ``None`` for a model read back from a map).
    loc: Optional[Location] = field(default=None, compare=False, repr=False)
    source_locs: tuple[Optional[Location], ...] = field(default=(), compare=False, repr=False)
    memory_loc: Optional[Location] = field(default=None, compare=False, repr=False)

    @property
    def end(self) -> int:
        return self.base + self.size

    @property
    def window_bits(self) -> int:
        """The window's address bits: ``size == 1 << window_bits``. One concept, one name
        through the pipeline: the YAML's ``window`` (bytes), :attr:`base`/:attr:`size` here,
        ``window_bits`` in the generated Verilog's models (the wrapper's slave ADDR_WIDTH,
        the interrupt block's WIN_BITS)."""
        return self.size.bit_length() - 1

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


#: The PL trace buffer's registers (cores/trace/README.md): byte offsets in its page.
TRACE_CONTROL = 0x00
TRACE_INFO = 0x04
TRACE_WP = 0x08
TRACE_RP = 0x0C
TRACE_OVERFLOW = 0x10
TRACE_CYCLES = 0x18
TRACE_RECORD_BYTES = 16


@dataclass(frozen=True)
class TraceBlock:
    """The PL trace buffer (``trace:`` in the YAML, cores/trace): its register page at
    ``base`` in region ``pl`` (:attr:`size` bytes, size-aligned) and the ring's ``depth`` in
    records (see :attr:`LinkedSystem.trace`)."""

    base: int
    depth: int

    @property
    def ring_offset(self) -> int:
        """Byte offset of the ring's slot 0 in the page."""
        return max(0x100, TRACE_RECORD_BYTES * self.depth)

    @property
    def size(self) -> int:
        """The page's size in bytes: twice the ring's offset, at least 4 KiB."""
        return max(0x1000, 2 * self.ring_offset)


@dataclass(frozen=True)
class FirewallBlock:
    """The memory firewall (``firewall:`` in the YAML, cores/mem_firewall): its register
    page at ``base`` in region ``pl`` (4 KiB) and the table's ``entries`` (see
    :attr:`LinkedSystem.firewall`). It guards the buffer engines' path (``buf_axi``): a
    burst's master is its engine's index (system map order of the buffer parameters)."""

    base: int
    entries: int

    #: register offsets (cores/mem_firewall/README.md)
    CTRL = 0x000
    INFO = 0x004
    REFUSED = 0x008
    BAD_ADDR = 0x00C
    BAD_INFO = 0x010
    ENTRY0 = 0x100
    #: the buffer engines' beat (:data:`pushpush.codegen.fabric.BUF_DATA_WIDTH` / 8): an
    #: engine reads and writes whole beats (writes with strobes: never a byte outside its
    #: buffer), and the firewall checks every byte a burst may touch from its address aligned
    #: down, so an entry's range is its buffer rounded out to whole beats
    BEAT_BYTES = 4

    @property
    def size(self) -> int:
        return 0x1000

    def rounded(self, first: int, nbytes: int) -> tuple[int, int]:
        """(first byte, last byte) of the entry for ``nbytes`` bytes at ``first``: whole beats."""
        b = self.BEAT_BYTES
        return first & ~(b - 1), ((first + nbytes + b - 1) & ~(b - 1)) - 1

    def share(self, software: Sequence[str], component: str) -> range:
        """The entries of the table that software component ``component``'s runtime uses:
        the entries split between the software components (``software``, in declaration
        order), so runtimes in different processes never write the same entry."""
        k, n = list(software).index(component), len(software)
        return range(self.entries * k // n, self.entries * (k + 1) // n)


#: Constant entries the window guard holds (cores/mem_firewall ``STATIC_ENTRIES``).
MAX_GUARD_ENTRIES = 64


@dataclass(frozen=True)
class WindowRule:
    """PL component ``master`` (its index ``tag`` on the top's interconnect) may write the
    bytes ``first`` .. ``last`` of software component ``window``'s window, for ``what``."""

    master: str
    tag: int
    window: str
    first: int
    last: int
    what: str


@dataclass(frozen=True)
class GuardEntry:
    """One constant entry of the window guard: master ``tag`` may write ``first`` .. ``last``."""

    tag: int
    first: int
    last: int


@dataclass(frozen=True)
class WindowGuard:
    """The window guard (``firewall:`` with ``windows: true``; docs/architecture.md §2.4): a
    memory firewall (cores/mem_firewall) on the system top's ``m_axi``, between the
    interconnect and the software windows, whose table is fixed at link time
    (:mod:`pushpush.link.window_rules`): its register page at ``base`` in region ``pl``
    (4 KiB: the refusal counter and latch, the table read back) and the ``rules`` its table
    is made of (its entries: :func:`~pushpush.link.window_rules.guard_entries` of them at
    the interconnect's beat). A burst's master is its index on the top's interconnect (ID bits above the
    ARM's 12), the ARM's own (master 0) unchecked."""

    base: int
    rules: tuple[WindowRule, ...]

    @property
    def size(self) -> int:
        return 0x1000



def firewall_engines(components: Sequence["LinkedComponent"]) -> list[tuple[str, str, str]]:
    """(component, export, parameter) of every buffer engine, in the order of the top's
    buffer interconnect (its index is the engine's tag in the AXI ID, which the memory
    firewall's entries name): rtl components in declaration order, exports and buffer
    parameters in declaration order (as :func:`pushpush.codegen.fabric.system_buffers`)."""
    return [(c.name, e.name, p.name) for c in components if c.kind == "rtl"
            for e in c.exports for p in e.signature.buffer_params()]


def trace_pulses(comp: "LinkedComponent") -> tuple[tuple[str, str], ...]:
    """The PL trace buffer's pulse events of a component, ``(kind, port)``: for an rtl
    component per export its module taking a call (``take``) and giving the result
    (``result``), per call port (an import ``callee_f``, a function parameter ``f_param``)
    the module issuing a call (``call``) and taking the reply (``reply``); none for another
    kind."""
    if comp.kind != "rtl":
        return ()
    out = [(k, e.name) for e in comp.exports for k in ("take", "result")]
    for s in comp.slots:
        if s.kind == SlotKind.REP_IMPORT:
            port = s.function.replace(".", "_")
        elif s.kind == SlotKind.REP_CALLBACK:
            port = f"{s.function}_{s.param}"
        else:
            continue
        out += [(k, port) for k in ("call", "reply")]
    return tuple(out)


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
#: Entries of a DMA's own memory firewall (``firewall:``): one per channel, as PYNQ's driver
#: has at most one transfer under way on each (0: MM2S reads, 1: S2MM writes).
DMA_FIREWALL_ENTRIES = 2


def pl_block(lo: int, hi: int) -> tuple[int, int]:
    """(base, size) of the smallest power-of-two sized, size-aligned block (4 KiB at least)
    holding the bytes ``lo .. hi - 1``: the system top's address block in the GP0 map
    (:func:`pushpush.codegen.vivado.pl_address_block`); the DMAs' firewall pages are placed
    after it (:func:`pushpush.link.linker.place_dma_firewalls`).

    >>> [hex(x) for x in pl_block(0x43C00000, 0x43C03000)]
    ['0x43c00000', '0x4000']
    """
    size = 4096
    while True:
        base = lo // size * size
        if base + size >= hi:
            return base, size
        size *= 2


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
    #: With ``firewall:``: the register page (4 KiB in region ``pl``) of the memory firewall
    #: in front of its memory master (``pp_mem_firewall``, :data:`DMA_FIREWALL_ENTRIES`
    #: entries, its own table); None without. Placed by
    #: :func:`pushpush.link.linker.place_dma_firewalls`.
    firewall_base: Optional[int] = None

    @property
    def firewall(self) -> Optional["FirewallBlock"]:
        """The memory firewall of this DMA's memory master (None without ``firewall:``):
        entry 0 is the MM2S channel's read range, entry 1 the S2MM channel's write range."""
        if self.firewall_base is None:
            return None
        return FirewallBlock(self.firewall_base, DMA_FIREWALL_ENTRIES)

    @property
    def size(self) -> int:
        return DMA_PAGE_BYTES

    @property
    def end(self) -> int:
        return self.base + DMA_PAGE_BYTES


@dataclass(frozen=True)
class ChannelInfo(ChannelExports):
    """A RIFFA-style channel (``channels:`` of an rtl component; docs/rtl-ports.md,
    "Channels"): software sends with one call of export ``<name>_rx`` and receives with
    calls of ``<name>_tx`` (:class:`~pushpush.spec.model.ChannelExports`); ``index`` is
    RIFFA's channel number (0..11)."""

    component: str
    name: str
    index: int


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
    #: With ``software_windows: ddr`` and an rtl component: the PL address of the 4 KiB
    #: register block (``cores/ps_window``) right after the last rtl window, whose word 0 the
    #: runtime writes with the buffer's physical address at load; the top's ``m_axi`` adds
    #: (that base - ``ps.base``) to every address. None otherwise. Placed by
    #: :func:`pushpush.link.linker.place_ps_window_register`.
    ps_window_register: Optional[int] = None
    #: The system top's interrupt block (docs/architecture.md §2.3): its 4 KiB page in ``pl``
    #: and each software component's pending bit; None when the system has no top (no rtl
    #: component), no software component, no free page in ``pl`` or no free interconnect
    #: port. Placed by :func:`pushpush.link.linker.place_irq`.
    irq: Optional[IrqBlock] = None
    #: The PL trace buffer (``trace:`` in the YAML; docs/trace.md): its register page in
    #: ``pl`` and the ring's depth; None without ``trace:``. Placed by
    #: :func:`pushpush.link.linker.place_trace`.
    trace: Optional[TraceBlock] = None
    #: The memory firewall of the buffer engines' path (``firewall:`` in the YAML; issue 46):
    #: its register page in ``pl`` and its table's size; None without ``firewall:``. Placed
    #: by :func:`pushpush.link.linker.place_firewall`.
    firewall: Optional[FirewallBlock] = None
    #: The window guard on the PL's writes into the software windows (``firewall:`` with
    #: ``windows: true``): its register page and rules; None without. Placed by
    #: :func:`pushpush.link.linker.place_window_guard`.
    window_guard: Optional[WindowGuard] = None

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
