"""The structure of ``system.yaml``, declared once.

Every key the loader (:mod:`pushpush.spec.loader`) accepts, with its value's shape (type, choices,
minimum, pattern), whether it is required, which component kinds may have it, and a
one-line description, with the example and fix the loader's messages show. The loader
checks every value against this tree through one routine (keys, required keys, types,
ranges, choices; ``_Loader.record``), and :mod:`pushpush.schema` turns the same tree into
the JSON Schema that editors use (``pushpush schema``), so the two cannot drift apart.

The tree: a :class:`Record` (a mapping with fixed keys, each a :class:`Field`) for the
document, ``interconnect``, each region, each component, an export in mapping form and
``abe``; :class:`MapOf` for mappings with free keys (``components``, ``exports``, the
mapping form of ``imports``); :class:`ListOf`, :class:`Str`, :class:`Int`, :class:`Num`,
:class:`Choice` and :class:`Signature` for values; :class:`AnyOf` where several forms are
allowed. Rules that need more than one value (imports name exports, windows do not
overlap, signatures agree, ...) live in the loader and the linker only.

>>> [f.name for f in SYSTEM.fields][:3]
['system', 'board', 'clock_mhz']
>>> COMPONENT.field("abe").kinds
('rtl',)
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from ..boards import BOARD_NAMES

__all__ = [
    "KINDS", "SOFTWARE_KINDS", "RISCV_KINDS", "HLS_KINDS", "RISCV_MEMORY_MIN", "RISCV_MEMORY_MAX", "RISCV_MEMORY_DEFAULT", "BOARDS", "SOFTWARE_WINDOWS", "TOPOLOGIES", "DATA_WIDTHS", "ARBITRATIONS",
    "GP0_RANGE", "MIN_WINDOW", "DEFAULT_DYNAMIC_SLOTS", "DEFAULT_RUNTIME_WORDS", "MAX_BURST",
    "CLOCK_MHZ_MAX", "DEFAULT_REPLY_TIMEOUT", "MAX_REPLY_TIMEOUT", "WAIT_MODES", "DEFAULT_WAIT", "MAX_DYNAMIC_SLOTS", "MAX_RUNTIME_WORDS", "MAX_WINDOW", "MAX_CHANNELS", "IDENT", "VERILOG_IDENT", "IMPORT_TARGET",
    "VERILOG_KEYWORDS", "C_KEYWORDS", "RESERVED", "IDENT_RE", "is_identifier",
    "Value", "Str", "Int", "Num", "Choice", "Signature", "ListOf", "MapOf", "AnyOf", "Record",
    "Field", "SYSTEM", "INTERCONNECT", "REGION", "REGIONS", "COMPONENT", "EXPORT", "ABE",
    "DMA", "DMA_DEFAULT_NAME", "DMA_DATA_WIDTHS", "DMA_MAX_BURSTS", "DMA_DEFAULT_BURST",
    "TRACE", "TRACE_DEFAULT_DEPTH", "TRACE_MIN_DEPTH", "TRACE_MAX_DEPTH",
]

# --------------------------------------------------------------------------- constants

KINDS = ("rtl", "python", "c", "riscv", "hls")
SOFTWARE_KINDS = ("python", "c")
#: A Vitis HLS top function under ap_ctrl_hs (docs/hls.md): its exported Verilog
#: (``sources``, top module ``module``) wrapped as a callee by a generated adapter; after
#: loading it is an rtl component whose module is that adapter (ComponentSpec.hls_top).
HLS_KINDS = ("hls",)
#: C on a soft RISC-V core in the PL (docs/riscv.md): a window in the PL like rtl, a run-time
#: area like software, and the program's local memory (``memory``: bytes, a power of two).
RISCV_KINDS = ("riscv",)
RISCV_MEMORY_MIN = 4096
RISCV_MEMORY_MAX = 1 << 18
RISCV_MEMORY_DEFAULT = 16384
#: A riscv component's soft core (cores/riscv's parameter CPU, docs/riscv.md): PicoRV32
#: (RV32I, ~4 cycles per instruction) or VexRiscv_Lite (RV32IM, 5-stage pipeline)
RISCV_CPUS = ("picorv32", "vexriscv")
RISCV_CPU_DEFAULT = "picorv32"
BOARDS = (*BOARD_NAMES, "none")
#: Where the software components' windows live (docs/board.md): ``ocm``, the ARM's on-chip
#: memory at regions.ps (the PL reaches it through S_AXI_GP0); ``ddr``, a ``pynq.allocate``
#: buffer in DDR that the PL reaches through S_AXI_HP0, regions.ps then being the windows'
#: link addresses, which the top translates to the buffer (its base register is written at load).
SOFTWARE_WINDOWS = ("ocm", "ddr")
TOPOLOGIES = ("crossbar", "shared")
DATA_WIDTHS = (32, 64)
ARBITRATIONS = ("round_robin", "fair")
#: The Zynq-7000 M_AXI_GP0 address range (inclusive start, exclusive end).
GP0_RANGE = (0x4000_0000, 0x8000_0000)
#: How a software component waits for calls and replies (docs/runtime.md, "Waiting"):
#: sleep (a short pause between sweeps), poll (sweep back to back), yield (sched_yield
#: between sweeps, the PushPush paper's ARM client), interrupt (sleep until the PL's
#: interrupt says something was written into the window).
WAIT_MODES = ("sleep", "poll", "yield", "interrupt")
DEFAULT_WAIT = "sleep"
MIN_WINDOW = 4096
DEFAULT_DYNAMIC_SLOTS = 1
DEFAULT_RUNTIME_WORDS = 256
#: AXI4 INCR bursts have at most 256 beats.
MAX_BURST = 256
#: clock_mhz lies in (0, CLOCK_MHZ_MAX].
CLOCK_MHZ_MAX = 1000
#: What one window can hold: dynamic slots per export, run-time words, window bytes (the
#: whole GP0 range is 1 GiB; no window comes near these, they stop runaway values early).
MAX_DYNAMIC_SLOTS = 1024
MAX_RUNTIME_WORDS = 1 << 16
MAX_WINDOW = 1 << 28
#: RIFFA 2.1's limit: at most 12 channels per component (``channels:``).
MAX_CHANNELS = 12
#: ``reply_timeout`` of an rtl component (cores/call_site REPLY_TIMEOUT): cycles a call of
#: one of its imports or function-typed parameters waits for its reply before it ends with
#: an error. The default, 2**30 (10.7 s at 100 MHz), is far above any call that is answered
#: at all, and still ends the wait for a callee that died (issue 28); at most 2**31 - 1.
DEFAULT_REPLY_TIMEOUT = 1 << 30
MAX_REPLY_TIMEOUT = (1 << 31) - 1

#: Regular expressions (unanchored) of names: Verilog/C/Python identifiers, Verilog module
#: names, and ``component.function`` import targets.
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
VERILOG_IDENT = r"[A-Za-z_][A-Za-z0-9_$]*"
IMPORT_TARGET = r"([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)"

#: Names become Verilog ports, C identifiers and Python attributes, so none of these.
VERILOG_KEYWORDS = frozenset(
    """always and assign automatic begin buf bufif0 bufif1 case casex casez cell cmos config
    deassign default defparam design disable edge else end endcase endconfig endfunction
    endgenerate endmodule endprimitive endspecify endtable endtask event for force forever fork
    function generate genvar highz0 highz1 if ifnone incdir include initial inout input instance
    integer join large liblist library localparam macromodule medium module nand negedge nmos nor
    noshowcancelled not notif0 notif1 or output parameter pmos posedge primitive pull0 pull1
    pulldown pullup pulsestyle_onevent pulsestyle_ondetect rcmos real realtime reg release repeat
    rnmos rpmos rtran rtranif0 rtranif1 scalared showcancelled signed small specify specparam
    strong0 strong1 supply0 supply1 table task time tran tranif0 tranif1 tri tri0 tri1 triand
    trior trireg unsigned use uwire vectored wait wand weak0 weak1 while wire wor xnor xor
    logic bit byte int""".split()
)
C_KEYWORDS = frozenset(
    """auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while""".split()
)
RESERVED = VERILOG_KEYWORDS | C_KEYWORDS | frozenset(keyword.kwlist)
IDENT_RE = re.compile(IDENT + r"\Z")


def is_identifier(name: str) -> bool:
    """A name usable in Verilog, C and Python alike: ``[A-Za-z_][A-Za-z0-9_]*``, no keyword
    (what ``pushpush init`` accepts as a system name)."""
    return bool(IDENT_RE.match(name)) and name not in RESERVED


# --------------------------------------------------------------------------- value shapes


@dataclass(frozen=True)
class Str:
    """A non-empty string, optionally matching ``pattern`` (unanchored; the whole string
    must match) and not one of ``reserved``."""

    pattern: Optional[str] = None
    reserved: frozenset[str] = frozenset()
    #: Name under the schema's ``$defs`` (None: inlined).
    ref: Optional[str] = None


@dataclass(frozen=True)
class Int:
    """An integer (YAML ``4096``/``0x1000``, or a string such as ``"0x1000"``)."""

    minimum: Optional[int] = None
    maximum: Optional[int] = None
    multiple_of: Optional[int] = None
    power_of_two: bool = False
    #: Why ``maximum`` and the fix, after "<what> is <value> but " in the loader's message
    #: (``{maximum}`` and ``{example}`` are filled in).
    over: str = "it is at most {maximum}; use at most {maximum}"


@dataclass(frozen=True)
class Num:
    """A number (integer or decimal) with ``exclusive_minimum < value <= maximum``."""

    exclusive_minimum: Optional[float] = None
    maximum: Optional[float] = None
    #: What the number counts, in messages ("a number of MHz").
    unit: str = ""


@dataclass(frozen=True)
class Choice:
    """One of ``choices``; ``null_is`` (if set) is what an empty value means."""

    choices: tuple[Any, ...]
    null_is: Optional[Any] = None


@dataclass(frozen=True)
class Signature:
    """A function signature string such as ``"(x: i32) -> i32"`` (see :mod:`pushpush.types`)."""


@dataclass(frozen=True)
class ListOf:
    item: "Value"
    min_items: int = 0
    nullable: bool = False


@dataclass(frozen=True)
class MapOf:
    """A mapping with free keys (each matching ``key``) to values of one shape."""

    key: Str
    value: "Value"
    min_items: int = 0
    nullable: bool = False
    #: What one entry is called (the schema's key description).
    entry: str = "entry"


@dataclass(frozen=True)
class AnyOf:
    options: tuple["Value", ...]
    nullable: bool = False


@dataclass(frozen=True)
class Field:
    name: str
    value: "Value"
    description: str
    required: bool = False
    #: The component kinds that may have this key (None: all).
    kinds: Optional[tuple[str, ...]] = None
    #: The component kinds that must have it.
    required_for: tuple[str, ...] = ()
    default: Any = None
    #: A YAML line with a good value, shown in the loader's messages (e.g. ``window: 0x1000``).
    example: str = ""
    #: The fix when a required key is missing (default: "add e.g. <example>").
    missing: str = ""


@dataclass(frozen=True)
class Record:
    """A mapping with the keys ``fields`` and no others."""

    name: str
    description: str
    fields: tuple[Field, ...]
    #: Name under the schema's ``$defs`` (None: inlined).
    ref: Optional[str] = None

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)


Value = Union[Str, Int, Num, Choice, Signature, ListOf, MapOf, AnyOf, Record]

#: What a window can hold: the fix for a value above one of the MAX_* limits of a window.
_WINDOW_OVER = "one window holds at most {maximum}; use a smaller value, e.g. {example}"

# --------------------------------------------------------------------------- the tree

_NAME = Str(IDENT, RESERVED, ref="name")

INTERCONNECT = Record("interconnect", "How the components' AXI ports are connected.", (
    Field("topology", Choice(TOPOLOGIES), "crossbar: one path per master; shared: one bus, arbitrated.",
          default=TOPOLOGIES[0]),
    Field("data_width", Choice(DATA_WIDTHS), "AXI data width in bits.", default=DATA_WIDTHS[0]),
    Field("arbitration", Choice(ARBITRATIONS), "How masters share a slave.", default=ARBITRATIONS[0]),
))

REGION = Record("region", "An address range: [base, base + size), multiples of 4096 bytes.", (
    Field("base", Int(minimum=0, multiple_of=MIN_WINDOW), "First byte address (a multiple of 0x1000)."),
    Field("size", Int(minimum=MIN_WINDOW, multiple_of=MIN_WINDOW), "Size in bytes (a multiple of 0x1000)."),
), ref="region")

REGIONS = Record("regions", "Where the linker places the components' endpoint windows.", (
    Field("pl", REGION, "Windows of rtl components; must lie inside the board's PS master range "
                        "(PYNQ-Z1/Z2 GP0 0x40000000-0x7FFFFFFF, default base 0x43C00000; ZCU104/KV260 "
                        "HPM0_FPD 0xA0000000-0xAFFFFFFF, default base 0xA0000000). Default size 0x400000."),
    Field("ps", REGION, "Windows of python and c components (the ARM's memory). "
                        "Default: base 0xFFFC0000, size 0x10000."),
))

EXPORT = Record("export", "An exported function with options.", (
    Field("signature", Signature(), "The function's signature, e.g. \"(x: i32) -> i32\".", required=True,
          example='signature: "(x: i32) -> i32"'),
    Field("dynamic_slots", Int(minimum=0, maximum=MAX_DYNAMIC_SLOTS, over=_WINDOW_OVER), "Call-endpoint slots for callers known only at run time.",
          default=DEFAULT_DYNAMIC_SLOTS, example="dynamic_slots: 1"),
), ref="export")

ABE = Record("abe", "AXI burst equalizer settings of an rtl component's master port.", (
    Field("nominal_burst", Int(minimum=1, maximum=MAX_BURST, over="AXI4 bursts have at most {maximum} beats; "
                                                                "use at most {maximum}"),
          "Burst length in beats (1-256).", required=True, example="nominal_burst: 16"),
    Field("max_outstanding", Int(minimum=1), "Outstanding bursts at most.", required=True,
          example="max_outstanding: 4"),
))

_RTL = ("rtl",)

#: An AXI DMA in simple mode between PS memory and an rtl component's streams (issue 17,
#: the DMA-driver form; docs/pynq.md): PYNQ's ``pynq.lib.dma.DMA`` drives it by its name.
DMA_DEFAULT_NAME = "axi_dma_0"
DMA_DATA_WIDTHS = (32, 64)
DMA_MAX_BURSTS = (2, 4, 8, 16, 32, 64, 128, 256)
DMA_DEFAULT_BURST = 16

DMA = Record("dma", "An AXI DMA (Xilinx AXI DMA 7.1 in simple mode; pushpush's pp_axi_dma on the "
                    "simulated board) whose MM2S stream feeds the module's s_axis_* ports and whose "
                    "S2MM channel takes its m_axis_* ports; PYNQ's DMA driver runs it.", (
    Field("name", _NAME, "The DMA's name in the block design and the overlay (ol.<name>).",
          default=DMA_DEFAULT_NAME, example="name: axi_dma_0"),
    Field("data_width", Choice(DMA_DATA_WIDTHS), "Stream and memory data width in bits.",
          default=DMA_DATA_WIDTHS[0]),
    Field("max_burst", Choice(DMA_MAX_BURSTS), "Beats per AXI burst into PS memory.",
          default=DMA_DEFAULT_BURST),
), ref="dma")

COMPONENT = Record("component", "One component: a Verilog module (rtl) or software on the ARM "
                                "(python, c).", (
    Field("kind", Choice(KINDS), "rtl (Verilog), python or c (on the ARM), riscv (C on a soft "
                                 "RISC-V core in the PL), hls (a Vitis HLS function under "
                                 "ap_ctrl_hs).", required=True,
          missing="add 'kind: rtl', 'kind: python' or 'kind: c'"),
    Field("module", Str(VERILOG_IDENT, VERILOG_KEYWORDS), "The Verilog module's name (rtl), or "
                                                          "the HLS top function's (hls).",
          kinds=_RTL + HLS_KINDS, required_for=_RTL + HLS_KINDS, example="module: fir_core",
          missing="add 'module: <Verilog module name>'"),
    Field("sources", ListOf(Str(), min_items=1), "The Verilog files defining the module (rtl), "
                                                 "the C files of the program (riscv), or the "
                                                 "Verilog Vitis HLS exported (hls), relative to "
                                                 "this file.", kinds=_RTL + RISCV_KINDS + HLS_KINDS,
          required_for=_RTL + RISCV_KINDS + HLS_KINDS),
    Field("hls_sources", ListOf(Str(), min_items=1),
          "The HLS C++ files of the top function (hls), relative to this file: pushpush generate "
          "writes a Vitis HLS script (hls/<component>/script.tcl) that synthesises them and "
          "exports the IP (docs/hls.md).", kinds=HLS_KINDS, example="hls_sources: [hls/f.cpp]"),
    Field("memory", AnyOf((Int(minimum=RISCV_MEMORY_MIN, maximum=RISCV_MEMORY_MAX, power_of_two=True),
                           Str(r"[0-9]+ ?KiB"))),
          "The soft core's local memory (program, data, stack) in bytes, a power of two of 4096 "
          "to 262144, or e.g. 16KiB (riscv).", kinds=RISCV_KINDS, default=RISCV_MEMORY_DEFAULT),
    Field("cpu", Choice(RISCV_CPUS), "The soft core (riscv): picorv32 (PicoRV32, RV32I, the "
          "smallest) or vexriscv (VexRiscv_Lite, RV32IM, pipelined: fewer cycles per call).",
          kinds=RISCV_KINDS, default=RISCV_CPU_DEFAULT, example="cpu: vexriscv"),
    Field("exports", MapOf(_NAME, AnyOf((Signature(), EXPORT)), nullable=True, entry="function"),
          "The functions other components may call: name: \"(x: i32) -> i32\"."),
    Field("imports", AnyOf((ListOf(Str(IMPORT_TARGET)),
                            MapOf(Str(IMPORT_TARGET), Signature(), entry="import")), nullable=True),
          "The functions this component calls: [component.function], or "
          "{component.function: expected signature}."),
    Field("window", Int(minimum=MIN_WINDOW, maximum=MAX_WINDOW, power_of_two=True, over=_WINDOW_OVER),
          "Endpoint window size in bytes, a power of two of at least 0x1000 (default: the linker's).",
          example="window: 0x1000"),
    Field("abe", ABE, "AXI burst equalizer settings.", kinds=_RTL),
    Field("reply_timeout", Int(minimum=1, maximum=MAX_REPLY_TIMEOUT),
          "PL clock cycles a call of the module (an import or a function-typed parameter) "
          "waits for its reply; then it ends with <g>_result_error (default 2**30: 10.7 s at "
          "100 MHz).", kinds=_RTL, default=DEFAULT_REPLY_TIMEOUT,
          example="reply_timeout: 100000000"),
    Field("dma", DMA, "An AXI DMA feeding the module's s_axis_* stream and taking its m_axis_* "
                      "stream (PYNQ's DMA driver).", kinds=_RTL),
    Field("channels", AnyOf((Int(minimum=1, maximum=MAX_CHANNELS), ListOf(_NAME, min_items=1))),
          "RIFFA-style channels (docs/rtl-ports.md, \"Channels\"): a count (channels ch0, ch1, "
          "...) or a list of names, at most 12; each adds the exports <c>_rx and <c>_tx and gives "
          "the module RIFFA's CHNL_RX*/CHNL_TX* ports, prefixed <c>_.", kinds=_RTL),
    Field("runtime_words", Int(minimum=0, maximum=MAX_RUNTIME_WORDS, over=_WINDOW_OVER), "Free words at the end of the window for run-time callers.",
          kinds=SOFTWARE_KINDS + RISCV_KINDS, default=DEFAULT_RUNTIME_WORDS, example="runtime_words: 256"),
    Field("wait", Choice(WAIT_MODES), "How the runtime waits for calls and replies: sleep (short "
                                      "pauses), poll (spin), yield (spin with sched_yield) or "
                                      "interrupt (the PL's interrupt).",
          kinds=SOFTWARE_KINDS, default=DEFAULT_WAIT),
), ref="component")

#: ``trace: true``: the PL trace buffer's default depth in records (cores/trace)
TRACE_DEFAULT_DEPTH = 1024
TRACE_MIN_DEPTH = 16
TRACE_MAX_DEPTH = 1 << 20

TRACE = Record("trace", "The PL trace buffer (cores/trace, docs/trace.md): a core that "
                        "timestamps call and return events into a BRAM ring software drains.", (
    Field("depth", Int(minimum=TRACE_MIN_DEPTH, maximum=TRACE_MAX_DEPTH,
                       over="the ring holds at most {maximum} records; use at most {maximum}"),
          "Ring depth in records (a power of two, 16..1048576; 16 bytes each).",
          default=TRACE_DEFAULT_DEPTH, example="depth: 4096"),
))

#: ``firewall: true``: the memory firewall's default table size (cores/mem_firewall)
FIREWALL_DEFAULT_ENTRIES = 8
FIREWALL_MAX_ENTRIES = 48

FIREWALL = Record("firewall", "The memory firewall (cores/mem_firewall): the buffer engines' "
                              "bursts into PS memory pass only inside the ranges the runtime "
                              "allowed for the call under way, each AXI DMA's (dma:) only inside "
                              "the buffer of the transfer under way, and the PL's writes into the "
                              "software windows only into the slots the link gave each component.", (
    Field("entries", Int(minimum=1, maximum=FIREWALL_MAX_ENTRIES,
                         over="the table holds at most {maximum} ranges; use at most {maximum}"),
          "Ranges the buffer engines' table holds at once (1..48): buffer parameters of calls "
          "in flight (a system with buffer parameters only).",
          default=FIREWALL_DEFAULT_ENTRIES, example="entries: 8"),
    Field("windows", Choice((True, False)),
          "Guard the PL's writes into the software windows too (a table fixed at link time: "
          "each PL component writes only the slots of the calls it makes and serves).",
          default=True, example="windows: true"),
))

SYSTEM = Record("system", "A pushpush system description (system.yaml).", (
    Field("system", _NAME, "The system's name (letters, digits, '_').", required=True,
          example="system: audio", missing="add a line 'system: <name>' at the top"),
    Field("board", Choice(BOARDS, null_is="none"), "The board a bitstream is built for; none for "
                                                   "simulation only.", default=BOARDS[0]),
    Field("clock_mhz", Num(exclusive_minimum=0, maximum=CLOCK_MHZ_MAX, unit="MHz"), "The PL clock in MHz.",
          default=100, example="clock_mhz: 100"),
    Field("software_windows", Choice(SOFTWARE_WINDOWS), "Where the software components' windows "
          "live: ocm (the ARM's on-chip memory at regions.ps, reached through S_AXI_GP0) or ddr "
          "(a pynq.allocate buffer reached through S_AXI_HP0; regions.ps are link addresses).",
          default=SOFTWARE_WINDOWS[0]),
    Field("interconnect", INTERCONNECT, INTERCONNECT.description),
    Field("regions", REGIONS, REGIONS.description),
    Field("trace", AnyOf((Choice((True, False)), TRACE)),
          "The PL trace buffer: true (1024 records), false (none, the default) or "
          "{depth: N}.", default=False, example="trace: true"),
    Field("firewall", AnyOf((Choice((True, False)), FIREWALL)),
          "The memory firewall in front of the PL's paths into PS memory (the buffer engines', "
          "every AXI DMA's and the writes into the software windows): true (8 entries), false "
          "(none, the default) or {entries: N, windows: B} (N: the buffer path's table; a DMA's "
          "has 2).", default=False,
          example="firewall: true"),
    Field("components", MapOf(_NAME, COMPONENT, min_items=1, entry="component"),
          "The components, by name.", required=True,
          missing="add 'components:' with one entry per component"),
))
