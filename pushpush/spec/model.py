"""The checked system description: the dataclasses :func:`~pushpush.spec.load_system`
returns (:class:`SystemSpec` and its parts). Plain values; nothing here reads YAML or
assigns addresses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..errors import Location
from ..types import FunctionType
from .fields import DEFAULT_DYNAMIC_SLOTS, DEFAULT_REPLY_TIMEOUT, DEFAULT_RUNTIME_WORDS, DMA_DEFAULT_BURST, DMA_DEFAULT_NAME, SOFTWARE_KINDS

__all__ = [
    "Region", "DEFAULT_PL", "DEFAULT_PS", "Interconnect", "Abe", "Dma", "ExportSpec", "ImportSpec",
    "CHANNEL_RX_SIGNATURE", "CHANNEL_TX_SIGNATURE", "ChannelExports", "ChannelSpec", "ComponentSpec", "SystemSpec",
]


@dataclass(frozen=True)
class Region:
    """A range of the global endpoint address space: ``[base, base + size)`` in bytes."""

    base: int
    size: int

    @property
    def end(self) -> int:
        return self.base + self.size

    def contains(self, base: int, size: int) -> bool:
        return self.base <= base and base + size <= self.end


#: Where RTL windows go by default: the PYNQ overlay area of GP0.
DEFAULT_PL = Region(0x43C0_0000, 0x0040_0000)
#: Where software (ARM) windows go by default: the ARM's on-chip memory (high OCM).
DEFAULT_PS = Region(0xFFFC_0000, 0x0001_0000)


@dataclass(frozen=True)
class Interconnect:
    topology: str = "crossbar"
    data_width: int = 32
    arbitration: str = "round_robin"


@dataclass(frozen=True)
class Abe:
    """AXI burst equalizer settings of an rtl component's master port (carried, not used here)."""

    nominal_burst: int
    max_outstanding: int


@dataclass(frozen=True)
class Dma:
    """``dma:`` of an rtl component: an AXI DMA in simple mode between PS memory and the
    module's streams (``s_axis_*`` in from MM2S, ``m_axis_*`` out to S2MM)."""

    name: str = DMA_DEFAULT_NAME
    data_width: int = 32
    max_burst: int = DMA_DEFAULT_BURST
    loc: Optional[Location] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ExportSpec:
    """``exports: {name: signature}`` or ``{name: {signature: ..., dynamic_slots: n}}``."""

    name: str
    signature: FunctionType
    dynamic_slots: int = DEFAULT_DYNAMIC_SLOTS
    loc: Optional[Location] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ImportSpec:
    """``imports: [component.function]`` or ``{component.function: expected signature}``."""

    component: str
    function: str
    expected: Optional[FunctionType] = None
    loc: Optional[Location] = field(default=None, compare=False, repr=False)
    expected_loc: Optional[Location] = field(default=None, compare=False, repr=False)

    @property
    def target(self) -> str:
        return f"{self.component}.{self.function}"


#: The exports a channel ``c`` adds to its component (docs/rtl-ports.md, "Channels"): a
#: send (software to hardware) is one call of ``c_rx``; a receive posts a buffer with one
#: call of ``c_tx``, whose result packs the words written (bits 31..0), the hardware's
#: offset (bits 62..32) and ``last`` (bit 63).
CHANNEL_RX_SIGNATURE = "(data: in u32[], off: u32, last: bool) -> u32"
CHANNEL_TX_SIGNATURE = "(data: out u32[]) -> u64"


class ChannelExports:
    """The two exports a channel named :attr:`name` adds to its component; shared by
    :class:`ChannelSpec` and the linked model's ``ChannelInfo``."""

    name: str

    @property
    def rx(self) -> str:
        """The export software sends through (``<name>_rx``)."""
        return f"{self.name}_rx"

    @property
    def tx(self) -> str:
        """The export software receives through (``<name>_tx``)."""
        return f"{self.name}_tx"


@dataclass(frozen=True)
class ChannelSpec(ChannelExports):
    """One RIFFA-style channel of an rtl component (``channels:``): its name and number
    (RIFFA's ``chnl``, 0..11, in declaration order)."""

    name: str
    index: int
    loc: Optional[Location] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ComponentSpec:
    name: str
    kind: str
    module: Optional[str] = None
    #: Absolute, normalised paths of the Verilog sources (rtl only); may not exist yet.
    sources: tuple[Path, ...] = ()
    exports: tuple[ExportSpec, ...] = ()
    imports: tuple[ImportSpec, ...] = ()
    #: Window size in bytes if the user fixed it, else None (the linker picks one).
    window: Optional[int] = None
    abe: Optional[Abe] = None
    #: An AXI DMA on the module's streams (rtl only).
    dma: Optional[Dma] = None
    #: RIFFA-style channels (rtl only); their exports are in ``exports`` too.
    channels: tuple[ChannelSpec, ...] = ()
    #: Free words at the end of a software component's window (run-time reps and ceps);
    #: ignored for rtl components (the loader sets 0 for them).
    runtime_words: int = DEFAULT_RUNTIME_WORDS
    #: How a software component's runtime waits (fields.WAIT_MODES); "" for rtl.
    wait: str = ""
    #: PL cycles an rtl component's call waits for its reply (``reply_timeout``; the
    #: call site's REPLY_TIMEOUT); the default for other kinds, where it means nothing.
    reply_timeout: int = DEFAULT_REPLY_TIMEOUT
    loc: Optional[Location] = field(default=None, compare=False, repr=False)
    window_loc: Optional[Location] = field(default=None, compare=False, repr=False)
    #: A riscv component's local memory in bytes (0 for other kinds), and where it is written.
    memory: int = 0
    memory_loc: Optional[Location] = field(default=None, compare=False, repr=False)
    #: A riscv component's soft core (``fields.RISCV_CPUS``; "" for other kinds).
    cpu: str = ""
    #: Where each entry of ``sources`` stands in the YAML (same order).
    source_locs: tuple[Location, ...] = field(default=(), compare=False, repr=False)
    #: Written ``kind: hls`` (docs/hls.md): the Vitis HLS top function's module, which the
    #: generated adapter ``module`` (``<name>_hls_adapter``) wraps; the component is then
    #: ``kind`` rtl. None for every other component.
    hls_top: Optional[str] = None
    #: The HLS C++ files (``hls_sources``) of a ``kind: hls`` component: absolute paths.
    hls_sources: tuple[Path, ...] = ()

    @property
    def is_software(self) -> bool:
        return self.kind in SOFTWARE_KINDS

    @property
    def has_runtime(self) -> bool:
        """Its window has a run-time area: software, C on a soft core (riscv), and a full HLS
        participant (kind hls still after loading: its calls through function values return
        there)."""
        return self.is_software or self.kind in ("riscv", "hls")

    @property
    def region(self) -> str:
        """``"pl"`` for rtl components, ``"ps"`` for software ones."""
        return "ps" if self.is_software else "pl"

    def export(self, name: str) -> Optional[ExportSpec]:
        for e in self.exports:
            if e.name == name:
                return e
        return None


@dataclass(frozen=True)
class SystemSpec:
    name: str
    components: tuple[ComponentSpec, ...]
    board: str = "pynq-z1"
    clock_mhz: float = 100
    #: "ocm" or "ddr" (fields.SOFTWARE_WINDOWS).
    software_windows: str = "ocm"
    interconnect: Interconnect = Interconnect()
    pl: Region = DEFAULT_PL
    ps: Region = DEFAULT_PS
    #: ``trace:``: the PL trace buffer's depth in records (cores/trace); 0 without one.
    trace_depth: int = 0
    #: ``firewall:``: entries of the memory firewall's table (cores/mem_firewall); 0 without.
    firewall_entries: int = 0
    #: The YAML file as the user named it (used in diagnostics).
    file: str = "<system>"
    #: Absolute directory of the YAML file; source paths are relative to it.
    base_dir: Optional[Path] = field(default=None, compare=False)
    loc: Optional[Location] = field(default=None, compare=False, repr=False)
    components_loc: Optional[Location] = field(default=None, compare=False, repr=False)
    region_locs: dict[str, Location] = field(default_factory=dict, compare=False, repr=False)
    #: Where ``firewall: {entries: N}`` gives N (None: ``firewall: true`` or no firewall).
    firewall_entries_loc: Optional[Location] = field(default=None, compare=False, repr=False)

    def component(self, name: str) -> Optional[ComponentSpec]:
        for c in self.components:
            if c.name == name:
                return c
        return None

    def region(self, name: str) -> Region:
        return self.pl if name == "pl" else self.ps

    def where(self, loc: Optional[Location]) -> Location:
        """``loc``, or the start of the file when a model was built without positions."""
        return loc if loc is not None else Location(self.file, 1, 1)

