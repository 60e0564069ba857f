"""The typed model of one rtl component's wrapper, which ``templates/verilog/wrapper.v.j2``
turns into Verilog.

Everything here is data: slot indices, word offsets, lanes, widths, addresses, flags, and
the names of the port groups (exports, call sites) whose signals the template declares
(``g_<group>_*``). No Verilog text is built in Python: how a word is read from the window
(:class:`ReadPort`), how a value becomes words and back (:class:`WordCodec`), the request
data, status words and triggers are macros of ``templates/verilog/wrapper_macros.v.j2``.

Example::

    from pushpush.codegen.wrapper_model import wrapper_model
    linked = load("examples/pingpong/system.yaml")
    m = wrapper_model(linked, linked.component("callee"), present=None)
    [(e.name, e.slots) for e in m.exports]   # [('f', (0, 1, 2))]
    m.exports[0].arg_words[0].port           # ReadPort(index=0, offsets=(0, 2, 4), select='f', snoops=())
    m.exports[0].args[0].codec               # WordCodec(kind=CodecKind.WORD, bits=32)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import ClassVar, Optional, Union

from pushpush.link import DmaBlock, LinkedComponent, LinkedSystem
from pushpush.types import BufferType, FunctionType, Scalar, Type

from .fabric import BufferEngine, buffer_engines, clog2, top_id_widths
from .ports import UserPort, stream_ports, type_width, user_ports

__all__ = ["CodecKind", "WordCodec", "Snoop", "ReadPort", "ArgWord", "ExportArg", "Callback",
           "ExportBuffer", "Export", "CallArg", "CallSite", "WrapperModel", "codec", "wrapper_model"]


class CodecKind(str, Enum):
    """How a value of a port sits in 32-bit window words (``wrapper_macros.v.j2``'s
    ``decode``/``encode``)."""

    #: one whole word (32-bit scalars, function values)
    WORD = "word"
    #: two words, low word first (64-bit scalars)
    PAIR = "pair"
    #: one bit: any set bit of the word is true; written zero-extended
    BOOL = "bool"
    #: the low ``bits`` of one word; written zero-extended
    UNSIGNED = "unsigned"
    #: the low ``bits`` of one word; written sign-extended
    SIGNED = "signed"


@dataclass(frozen=True)
class WordCodec:
    """A value of ``bits`` bits (the port width) and how it maps onto window words."""

    kind: CodecKind
    bits: int


def codec(t: Type) -> WordCodec:
    """The codec of a scalar or function-typed value (not a buffer, not void)."""
    if isinstance(t, FunctionType):
        return WordCodec(CodecKind.WORD, 32)
    assert isinstance(t, Scalar) and t.words, t
    if t.name == "bool":
        return WordCodec(CodecKind.BOOL, 1)
    if t.words == 2:
        return WordCodec(CodecKind.PAIR, t.bits)
    if t.bits == 32:
        return WordCodec(CodecKind.WORD, 32)
    return WordCodec(CodecKind.SIGNED if t.signed else CodecKind.UNSIGNED, t.bits)


@dataclass(frozen=True)
class Snoop:
    """A word of a read port that arrives in the same W beat as its slot's trigger: in the
    cycle of the slot's trigger pulse it is taken from lane ``lane`` of ``s_axi_wdata``
    (the window shows it one cycle later). ``whole_word``: it is the trigger word itself
    (no byte-strobe check); ``pick``: the bit of the port's one-hot select that must be
    set (None: the port serves one slot)."""

    slot: int
    lane: int
    whole_word: bool
    pick: Optional[int]


@dataclass(frozen=True)
class ReadPort:
    """Read port ``index`` of the window: word ``offsets[k]`` (window word offset) of the
    ``k``-th candidate slot, the candidate picked by export ``select``'s one-hot slot
    select ``g_<select>_sel`` (None: one candidate)."""

    index: int
    offsets: tuple[int, ...]
    select: Optional[str]
    snoops: tuple[Snoop, ...]


@dataclass(frozen=True)
class ArgWord:
    """Argument word ``word`` (offset in the cep slot) of an export, wire ``g_<export>_arg<word>``."""

    word: int
    port: ReadPort


@dataclass(frozen=True)
class ExportArg:
    """A parameter of an export as the module sees it: port ``usr_<port>`` from the
    argument words ``offset`` .. ``offset + words - 1``; ``codec`` None for a buffer (the
    port is its length, the second word)."""

    name: str
    port: str
    offset: int
    words: int
    codec: Optional[WordCodec]


@dataclass(frozen=True)
class Callback:
    """A function-typed parameter ``param`` of an export (call group ``name``), its value
    in argument word ``word``."""

    name: str
    param: str
    word: int


@dataclass(frozen=True)
class ExportBuffer:
    """A buffer parameter and its engine: address in argument word ``word``, element count
    in ``word + 1``; ``local`` is its wrapper port ``b<local>_axi_*``."""

    name: str
    local: int
    param_index: int
    is_in: bool
    elem_bits: int
    word: int


@dataclass(frozen=True)
class Export:
    """An export: its slots (static first), per slot whether it is static and the lane of
    its trigger word, the argument words and parameters, the result, the dynamic slot's
    address presented as ``<f>_handle`` (when the module has that port), and its requester
    index on the engine arbiter."""

    name: str
    slots: tuple[int, ...]
    static: tuple[bool, ...]
    lanes: tuple[int, ...]
    arg_words: tuple[ArgWord, ...]
    args: tuple[ExportArg, ...]
    result: Optional[WordCodec]
    result_width: int
    handle_address: Optional[int]
    handle_connected: bool
    callbacks: tuple[Callback, ...]
    buffers: tuple[ExportBuffer, ...]
    req_index: int
    #: the read port at the selected slot's trigger word (pp_export TRIG_MEM = 1: the
    #: memory multiplexes the pending trigger words); None: from the trigger flip-flops
    trig_port: Optional[ReadPort] = None

    kind: ClassVar[str] = "result"

    @property
    def n(self) -> int:
        return len(self.slots)

    @property
    def nwords(self) -> int:
        """Words of its result request: the result words and the status."""
        return (0 if self.result is None else _words(self.result)) + 1


@dataclass(frozen=True)
class CallArg:
    """An argument the module passes in a call: port ``usr_<port>``."""

    port: str
    codec: WordCodec


@dataclass(frozen=True)
class CallSite:
    """An import or a function-typed parameter's calls (``parent``: the export it belongs
    to): the callee's cep address (None: the function value, ``g_<name>_target``), the
    rep slot the result comes back to (its trigger lane, its global address), the result's
    read ports (``g_<name>_res<k>``)."""

    name: str
    target_address: Optional[int]
    rep_slot: int
    rep_lane: int
    rep_address: int
    args: tuple[CallArg, ...]
    result: Optional[WordCodec]
    result_width: int
    result_words: tuple[ReadPort, ...]
    parent: Optional[str]
    req_index: int

    kind: ClassVar[str] = "call"

    @property
    def nwords(self) -> int:
        """Words of its call request: the argument words and the trigger."""
        return sum(_words(a.codec) for a in self.args) + 1


Requester = Union[Export, CallSite]


def _words(c: WordCodec) -> int:
    return 2 if c.kind is CodecKind.PAIR else 1


@dataclass(frozen=True)
class WrapperModel:
    """Everything ``wrapper.v.j2`` needs for one rtl component."""

    comp: LinkedComponent
    engines: tuple[BufferEngine, ...]
    data_width: int
    lanes: int
    s_id_width: int
    m_id_width: int
    window_bits: int
    num_slots: int
    words: int
    slot_first: tuple[int, ...]
    slot_trig: tuple[int, ...]
    dma: Optional[DmaBlock]
    ports: tuple[UserPort, ...]
    stream_ports: tuple[UserPort, ...]
    rd_addr_width: int
    rd_ports: tuple[ReadPort, ...]
    exports: tuple[Export, ...]
    calls: tuple[CallSite, ...]
    max_words: int
    nw_width: int
    #: fault counter events: (export, bit of its dup vector) per cep slot; call site names
    dup_sources: tuple[tuple[str, int], ...]
    stray_sources: tuple[str, ...]
    dup_width: int
    stray_width: int
    #: a counter that sees at most one event per cycle counts by one (no adder of a sum):
    #: one source, or a 32-bit bus, where one W beat brings at most one trigger or status
    #: and a duplicate/stray is decided in the cycle it arrives (wrapper.v.j2)
    dup_single: bool
    stray_single: bool

    @property
    def reqs(self) -> tuple[Requester, ...]:
        """The engine's requesters in arbiter order: every export's result, then every call site."""
        return self.exports + self.calls

    @property
    def nreq(self) -> int:
        return len(self.exports) + len(self.calls)

    @property
    def tagged(self) -> bool:
        """Whether any request needs its done response tracked (calls do, results do not)."""
        return bool(self.calls)

    @property
    def handles(self) -> tuple[Export, ...]:
        """Exports whose ``<f>_handle`` port the module has."""
        return tuple(e for e in self.exports if e.handle_connected)


class _Builder:
    """Allocates the window's read ports in the order the wrapper has always used."""

    def __init__(self, comp: LinkedComponent, lanes: int) -> None:
        self.comp = comp
        self.lanes = lanes
        self.rd_ports: list[ReadPort] = []

    def read_port(self, select: Optional[str], slots: list[int], index: int) -> ReadPort:
        """A read port on word ``index`` of the slot ``select`` picks among ``slots``."""
        offsets = tuple(self.comp.slots[s].offset + index for s in slots)
        single = select is None or len(slots) == 1
        snoops = []
        for k, (s, o) in enumerate(zip(slots, offsets)):
            trig = self.comp.slots[s].trigger_offset
            if o // self.lanes == trig // self.lanes:
                snoops.append(Snoop(s, o % self.lanes, o == trig, None if single else k))
        port = ReadPort(len(self.rd_ports), offsets, None if single else select, tuple(snoops))
        self.rd_ports.append(port)
        return port

    def call(self, g: str, sig: FunctionType, rep_slot: int, rep_address: int,
             target_address: Optional[int], parent: Optional[str], req_index: int) -> CallSite:
        rw = type_width(sig.result)
        words = tuple(self.read_port(None, [rep_slot], k) for k in range(sig.result_words)) if rw else ()
        return CallSite(
            name=g, target_address=target_address, rep_slot=rep_slot,
            rep_lane=self.comp.slots[rep_slot].trigger_offset % self.lanes, rep_address=rep_address,
            args=tuple(CallArg(f"{g}_{a.name}", codec(a.type)) for a in sig.arg_layout()),
            result=codec(sig.result) if rw else None, result_width=rw, result_words=words,
            parent=parent, req_index=req_index)


def wrapper_model(linked: LinkedSystem, comp: LinkedComponent,
                  present: Optional[set[str]]) -> WrapperModel:
    """The wrapper model of rtl component ``comp``; ``present``: the ports its module
    declares (None: unknown, optional ports left unconnected)."""
    dw = linked.interconnect.data_width
    lanes = dw // 32
    b = _Builder(comp, lanes)
    engines = buffer_engines(comp)
    n_exports = len(comp.exports)
    exports: list[Export] = []
    calls: list[CallSite] = []   # callbacks (in their export's order), then imports
    for i, e in enumerate(comp.exports):
        sig = e.signature
        g = e.name
        slots = list(e.static_slots) + list(e.dynamic_slots)
        arg_words: list[ArgWord] = []
        args: list[ExportArg] = []
        for a in sig.arg_layout():
            for k in range(a.words):
                arg_words.append(ArgWord(a.offset + k, b.read_port(g, slots, a.offset + k)))
            if isinstance(a.type, BufferType):  # the module sees the length; the engine both
                args.append(ExportArg(a.name, f"{g}_{a.name}_len", a.offset, a.words, None))
            else:
                args.append(ExportArg(a.name, f"{g}_{a.name}", a.offset, a.words, codec(a.type)))
        word_of = {a.name: a.offset for a in args}
        callbacks = []
        for cb in e.callbacks:
            cg = f"{g}_{cb.param}"
            callbacks.append(Callback(cg, cb.param, word_of[cb.param]))
            calls.append(b.call(cg, cb.signature, cb.rep_slot, cb.rep_address, None, g,
                                n_exports + len(calls)))
        rw = type_width(sig.result)
        exports.append(Export(
            name=g, slots=tuple(slots), static=tuple(s in set(e.static_slots) for s in slots),
            lanes=tuple(comp.slots[s].trigger_offset % lanes for s in slots),
            arg_words=tuple(arg_words), args=tuple(args),
            result=codec(sig.result) if rw else None, result_width=rw,
            handle_address=comp.slots[e.dynamic_slots[0]].address if e.dynamic_slots else None,
            handle_connected=bool(e.dynamic_slots) and present is not None and f"{g}_handle" in present,
            callbacks=tuple(callbacks),
            buffers=tuple(ExportBuffer(x.group, x.local, x.param_index, x.type.is_in,
                                       x.type.element.bits, word_of[x.param])
                          for x in engines if x.export == g),
            req_index=i))
    for imp in comp.imports:
        calls.append(b.call(f"{imp.component}_{imp.function}", imp.signature, imp.rep_slot,
                            imp.rep_address, imp.cep_address, None, n_exports + len(calls)))
    # an export of two or more slots reads its pending trigger word through a read port of
    # its own (allocated after every other, so their indices stay), the memory's read
    # multiplexer picking the slot: one LUT per bit of the return address instead of two or
    # three (cores/export TRIG_MEM)
    for i, e in enumerate(exports):
        if e.n >= 2:
            idx = {comp.slots[s].trigger_offset - comp.slots[s].offset for s in e.slots}
            if len(idx) == 1:
                exports[i] = replace(e, trig_port=b.read_port(e.name, list(e.slots), idx.pop()))
    rd_addr_width = max(1, clog2(comp.slot_words))
    if not b.rd_ports:   # one port (address 0, unused) for a component without any
        b.rd_ports.append(ReadPort(0, (0,), None, ()))
    max_words = max([1] + [x.nwords for x in exports] + [c.nwords for c in calls])
    dup_sources = tuple((e.name, k) for e in exports for k in range(e.n))
    stray_sources = tuple(c.name for c in calls)
    dma = linked.dma_of(comp.name)
    s_id, m_id = top_id_widths(linked)
    return WrapperModel(
        comp=comp, engines=tuple(engines), data_width=dw, lanes=lanes, s_id_width=s_id,
        m_id_width=m_id, window_bits=comp.window_bits, num_slots=len(comp.slots),
        words=comp.slot_words, slot_first=tuple(comp.slot_first), slot_trig=tuple(comp.slot_trig),
        dma=dma, ports=tuple(user_ports(comp, dma)),
        stream_ports=tuple(stream_ports(dma.data_width)) if dma else (),
        rd_addr_width=rd_addr_width, rd_ports=tuple(b.rd_ports), exports=tuple(exports),
        calls=tuple(calls), max_words=max_words, nw_width=clog2(max_words + 1),
        dup_sources=dup_sources, stray_sources=stray_sources,
        dup_width=max(1, clog2(len(dup_sources) + 1)),
        stray_width=max(1, clog2(len(stray_sources) + 1)),
        dup_single=len(dup_sources) <= 1 or dw == 32,
        stray_single=len(stray_sources) <= 1 or dw == 32)
