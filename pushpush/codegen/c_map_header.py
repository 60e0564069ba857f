"""The C system-map header ``c/<system>_map.h``: every window, slot, trigger and argument
layout of a linked system as C99 macros and word-layout structs.

Naming (``SYS`` is the system name upper-cased, ``COMP`` a component, ``FN`` a function):

* ``SYS_FIREWALL_BASE`` / ``_ENTRIES`` and ``SYS_COMP_FIREWALL_FIRST`` / ``_COUNT`` (with
  ``firewall:``): the memory firewall's register page, its table's size and each software
  component's share of the entries (as the runtimes split them); ``SYS_DMA_FIREWALL_BASE``
  (with ``firewall:`` and ``dma:``): each AXI DMA's own firewall page (PYNQ drives DMAs; C
  programs do not);
* ``SYS_COMP_BASE`` / ``_SIZE`` / ``_SLOT_WORDS`` (and ``_RUNTIME_ADDR`` / ``_RUNTIME_OFFSET``
  / ``_RUNTIME_WORDS`` for software components): the component's endpoint window;
* ``SYS_COMP_SLOT<i>_ADDR`` / ``_OFFSET`` / ``_WORDS`` / ``_TRIGGER_ADDR`` /
  ``_TRIGGER_OFFSET``: every slot, by window index (the comment says what it is for);
* ``SYS_COMP_FN_ARG_WORDS`` / ``_RESULT_WORDS`` / ``_CEP_WORDS`` / ``_REP_WORDS``,
  ``SYS_COMP_FN_ARG_<NAME>_OFFSET`` / ``_WORDS`` (word offsets inside a cep slot) and
  ``SYS_COMP_FN_TRIGGER_OFFSET``, ``SYS_COMP_FN_STATUS_OFFSET`` (in the rep slot): the
  layout of each exported function; ``SYS_COMP_FN_CEP_<IMPORTER>_ADDR`` (static slot of
  an importer) and ``SYS_COMP_FN_DYNAMIC<k>_ADDR``;
* ``SYS_COMP_IMPORT_CALLEE_FN_CEP_ADDR`` / ``_CEP_TRIGGER_ADDR`` / ``_REP_ADDR`` /
  ``_REP_TRIGGER_ADDR``: each import site;
* ``SYS_COMP_FN_CB_<PARAM>_REP_ADDR`` / ``_REP_TRIGGER_ADDR``: rtl callback reps;
* ``sys_comp_fn_args_t`` / ``sys_comp_fn_result_t``: structs of ``uint32_t`` words matching
  a cep / rep slot word for word (64-bit values are ``_lo``/``_hi`` pairs); the PushPush
  type of every field is in its comment.

Plain C99 with ``<stdint.h>``; compiles with ``gcc -std=c99 -Wall -Wextra -Werror``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pushpush.link import WORD_BYTES, LinkedComponent, LinkedSystem
from pushpush.types import BufferType, FunctionType, Type, format_type

from .render import GenerateError, generated_header, render_template

__all__ = ["header_path", "render_c_header"]


def header_path(linked: LinkedSystem) -> str:
    """Where the header goes in the output folder."""
    return f"c/{linked.name}_map.h"


@dataclass
class _Define:
    name: str
    value: str
    comment: str = ""


@dataclass
class _Field:
    name: str
    comment: str


@dataclass
class _Struct:
    name: str
    comment: str
    fields: list[_Field]


@dataclass
class _Section:
    title: list[str]
    defines: list[_Define]
    structs: list[_Struct]


def _u(n: int) -> str:
    return f"0x{n:08X}u"


def _n(n: int) -> str:
    return f"{n}u"


def _fields_for(name: str, t: Type, what: str) -> list[_Field]:
    ty = format_type(t)
    if isinstance(t, BufferType):
        return [_Field(f"{name}_addr", f"{what} {ty}: physical byte address"),
                _Field(f"{name}_len", f"{what} {ty}: length in elements")]
    if t.words == 2:
        return [_Field(f"{name}_lo", f"{what} {ty}, low word"),
                _Field(f"{name}_hi", f"{what} {ty}, high word")]
    if t.words == 1:
        note = " (function value: a cep address)" if isinstance(t, FunctionType) else ""
        return [_Field(name, f"{what} {ty}{note}")]
    return []


class _Builder:
    def __init__(self, linked: LinkedSystem):
        self.linked = linked
        self.prefix = linked.name.upper()
        self.seen: dict[str, str] = {}

    def name(self, *parts: str) -> str:
        n = "_".join([self.prefix, *[p.upper() for p in parts]])
        return n

    def define(self, out: list[_Define], name: str, value: str, comment: str = "") -> None:
        if name in self.seen and self.seen[name] != value:
            raise GenerateError(
                f"C header: the macro {name} would have two values ({self.seen[name]} and "
                f"{value}); rename a component or function so their names do not collide")
        if name in self.seen:
            return
        self.seen[name] = value
        out.append(_Define(name, value, comment))

    def component(self, c: LinkedComponent) -> _Section:
        d: list[_Define] = []
        structs: list[_Struct] = []
        title = [f"component '{c.name}' ({c.kind}" + (f", module {c.module}" if c.module else "")
                 + f"): window 0x{c.base:08X}..0x{c.end - 1:08X}, {c.size} bytes, "
                 + f"{c.words_used} words used"]
        self.define(d, self.name(c.name, "BASE"), _u(c.base), "window base (byte address)")
        self.define(d, self.name(c.name, "SIZE"), _u(c.size), "window size in bytes")
        self.define(d, self.name(c.name, "SLOT_WORDS"), _n(c.slot_words), "words taken by the slots")
        self.define(d, self.name(c.name, "NUM_SLOTS"), _n(len(c.slots)))
        if c.runtime_words:
            self.define(d, self.name(c.name, "RUNTIME_OFFSET"), _n(c.runtime_offset),
                        "run-time area: word offset")
            self.define(d, self.name(c.name, "RUNTIME_ADDR"), _u(c.runtime_address),
                        "run-time area: byte address")
            self.define(d, self.name(c.name, "RUNTIME_WORDS"), _n(c.runtime_words),
                        "run-time area: words")
        for s in c.slots:
            what = {"cep_static": f"call endpoint of {s.function} for {s.importer}",
                    "cep_dynamic": f"call endpoint of {s.function} (dynamic)",
                    "rep_import": f"return endpoint of the import {s.function}",
                    "rep_callback": f"return endpoint of {s.function}'s parameter {s.param}"}[s.kind]
            base = f"SLOT{s.index}"
            self.define(d, self.name(c.name, base, "ADDR"), _u(s.address),
                        f"slot {s.index}: {what}: {format_type(s.signature)}")
            self.define(d, self.name(c.name, base, "OFFSET"), _n(s.offset))
            self.define(d, self.name(c.name, base, "WORDS"), _n(s.words))
            self.define(d, self.name(c.name, base, "TRIGGER_ADDR"), _u(s.trigger_address))
            self.define(d, self.name(c.name, base, "TRIGGER_OFFSET"), _n(s.trigger_offset))
        for e in c.exports:
            sig = e.signature
            fn = self.name(c.name, e.name)
            self.define(d, f"{fn}_ARG_WORDS", _n(sig.arg_words),
                        f"export {e.name}: {format_type(sig)}")
            self.define(d, f"{fn}_RESULT_WORDS", _n(sig.result_words))
            self.define(d, f"{fn}_CEP_WORDS", _n(sig.cep_words))
            self.define(d, f"{fn}_REP_WORDS", _n(sig.rep_words))
            for a in sig.arg_layout():
                self.define(d, f"{fn}_ARG_{a.name.upper()}_OFFSET", _n(a.offset),
                            f"{a.name}: {format_type(a.type)}")
                self.define(d, f"{fn}_ARG_{a.name.upper()}_WORDS", _n(a.words))
            self.define(d, f"{fn}_TRIGGER_OFFSET", _n(sig.arg_words), "in the cep slot")
            self.define(d, f"{fn}_STATUS_OFFSET", _n(sig.result_words), "in the rep slot")
            for who, idx in zip(e.importers, e.static_slots):
                s = c.slots[idx]
                self.define(d, f"{fn}_CEP_{who.upper()}_ADDR", _u(s.address),
                            f"slot {idx}, reserved for {who}")
                self.define(d, f"{fn}_CEP_{who.upper()}_TRIGGER_ADDR", _u(s.trigger_address))
            for k, idx in enumerate(e.dynamic_slots):
                s = c.slots[idx]
                self.define(d, f"{fn}_DYNAMIC{k}_ADDR", _u(s.address), f"slot {idx}")
                self.define(d, f"{fn}_DYNAMIC{k}_TRIGGER_ADDR", _u(s.trigger_address))
            for cb in e.callbacks:
                self.define(d, f"{fn}_CB_{cb.param.upper()}_REP_ADDR", _u(cb.rep_address),
                            f"slot {cb.rep_slot}: result of calling {cb.param}: "
                            f"{format_type(cb.signature)}")
                self.define(d, f"{fn}_CB_{cb.param.upper()}_REP_TRIGGER_ADDR",
                            _u(cb.rep_trigger_address))
            sname = f"{self.linked.name}_{c.name}_{e.name}".lower()
            args = [f for a in sig.arg_layout() for f in _fields_for(a.name, a.type, "argument")]
            trig = "trigger"
            while trig in {f.name for f in args}:
                trig = "pp_" + trig
            args.append(_Field(trig, "caller's rep address (bit 0: one-way); 0 = idle"))
            structs.append(_Struct(f"{sname}_args_t",
                                   f"cep slot of {c.name}.{e.name}: {format_type(sig)}", args))
            res = _fields_for("result", sig.result, "result")
            res.append(_Field("status", "1 = ok; bit 31 set = error code; 0 = idle"))
            structs.append(_Struct(f"{sname}_result_t", f"rep slot of a call of {c.name}.{e.name}",
                                   res))
        for i in c.imports:
            imp = self.name(c.name, "IMPORT", i.component, i.function)
            self.define(d, f"{imp}_CEP_ADDR", _u(i.cep_address),
                        f"import {i.target}: {format_type(i.signature)} (slot {i.cep_slot} of "
                        f"{i.component})")
            self.define(d, f"{imp}_CEP_TRIGGER_ADDR", _u(i.cep_trigger_address))
            self.define(d, f"{imp}_REP_ADDR", _u(i.rep_address), f"slot {i.rep_slot} of {c.name}")
            self.define(d, f"{imp}_REP_TRIGGER_ADDR", _u(i.rep_trigger_address))
        return _Section(title, d, structs)


def render_c_header(linked: LinkedSystem) -> str:
    """The header text (deterministic)."""
    b = _Builder(linked)
    top: list[_Define] = []
    b.define(top, b.name("WORD_BYTES"), _n(WORD_BYTES), "all offsets count 32-bit words")
    mhz = linked.clock_mhz
    b.define(top, b.name("CLOCK_MHZ"), _n(int(mhz)) if float(mhz).is_integer() else f"{mhz:g}",
             "PL clock (FCLK0)")
    b.define(top, b.name("PL_BASE"), _u(linked.pl.base), "region of the rtl windows (M_AXI_GP0)")
    b.define(top, b.name("PL_SIZE"), _u(linked.pl.size))
    b.define(top, b.name("PS_BASE"), _u(linked.ps.base), "region of the software windows (OCM)")
    b.define(top, b.name("PS_SIZE"), _u(linked.ps.size))
    b.define(top, b.name("NUM_COMPONENTS"), _n(len(linked.components)))
    if linked.firewall is not None:   # the memory firewall (firewall: in the YAML)
        fw = linked.firewall
        b.define(top, b.name("FIREWALL_BASE"), _u(fw.base), "the memory firewall's register page (GP0 only)")
        b.define(top, b.name("FIREWALL_ENTRIES"), _n(fw.entries), "entries of its table")
        software = [c.name for c in linked.components if c.is_software]
        for name in software:
            share = fw.share(software, name)
            b.define(top, b.name(name, "FIREWALL_FIRST"), _n(share.start),
                     f"{name}'s entries of the table: first")
            b.define(top, b.name(name, "FIREWALL_COUNT"), _n(len(share)))
    if linked.window_guard is not None:   # the window guard (firewall: guarding the windows)
        b.define(top, b.name("WINDOW_GUARD_BASE"), _u(linked.window_guard.base),
                 "the window guard's register page (GP0 only; pp_wg_take)")
        masters = ", ".join(f'"{n}"' for n in ["ps", *(c.name for c in linked.components if not c.is_software)])
        b.define(top, b.name("PL_MASTERS"), "{" + masters + "}",
                 "names of the top's masters by index (pp_wg_refusal.master)")
    for d in linked.dmas:   # a DMA's own memory firewall (firewall: and dma:; Python drives it)
        if d.firewall is not None:
            b.define(top, b.name(d.name, "FIREWALL_BASE"), _u(d.firewall.base),
                     f"{d.name}'s memory firewall (entry 0 MM2S, 1 S2MM; GP0 only)")
    sections = [b.component(c) for c in linked.components]
    guard = f"PUSHPUSH_{linked.name.upper()}_MAP_H"
    width = max([len(x.name) for s in sections for x in s.defines] + [len(x.name) for x in top])
    return render_template(
        "c/map.h.j2",
        header=generated_header("/*", linked.source_file) + " */",
        sys=linked, guard=guard, top=top, sections=sections, width=width + 1,
    )
