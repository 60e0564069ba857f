"""C code for ``kind: c`` components: the runtime, typed proxies, stubs and the serve loop.

:func:`render_c` takes the linked model only and returns ``{relative path: text}``:

* ``c/pp_runtime.h``, ``c/pp_runtime.c``: the C99 runtime (protocol, no allocation);
* ``c/pp_platform.h``, ``c/pp_platform_linux.c``, ``c/pp_platform_baremetal.c``,
  ``c/pp_platform_simboard.c``: the three platform layers;

  these are hand-written C (``c/runtime/`` of pushpush, :func:`pushpush.resources.c_runtime_dir`),
  copied as they are;
* ``c/pp_protocol.h``: the protocol's words, rendered from the Python constants
  (:mod:`pushpush.codegen.c_protocol`), included by ``pp_runtime.h``;
* per c component ``<comp>``: ``c/<comp>_pp.h`` / ``c/<comp>_pp.c`` (proxies, call
  helpers, adapters, ``<comp>_open``) and ``c/<comp>_skeleton.c.in`` (the exports to
  implement, a starting point to copy).

Naming inside component ``comp`` (a C identifier; see docs/c.md):

* ``int comp_open(pp_rt *rt, const pp_platform *plat)``: bind the runtime to the window,
  register the import sites and serve the exports;
* import ``callee.fn`` -> ``int comp_callee_fn(pp_rt *rt, <args>, <R> *result)``;
* export ``fn`` -> the user writes ``int comp_fn(pp_rt *rt, <args>, <R> *result)``;
* every function type ``T`` met in the component's signatures (mangled name ``M``):
  ``comp_fn_M`` (the C function pointer type), ``comp_call_M(rt, pp_fn f, <args>, <R> *)``
  (call a function value), ``comp_lend_M(rt, comp_fn_M fn, pp_fn *out)`` (lend a C function
  as a value; ``pp_release`` ends it).

Every function returns ``PP_OK`` (0) or a negative ``PP_E*`` code (pp_runtime.h); the
result is written through the last pointer only on success; ``void`` functions have none.

Example::

    from pushpush.codegen.c import render_c
    files = render_c(linked)            # {"c/pp_runtime.h": "...", "c/logger_pp.c": ...}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from pushpush.link import LinkedComponent, LinkedSystem, firewall_engines
from pushpush.resources import c_runtime_dir
from pushpush.types import BufferType, FunctionType, Scalar, Type, format_type

from .c_protocol import PROTOCOL_HEADER, render_protocol_header
from .render import GenerateError, generated_header, render_template

__all__ = ["render_c", "c_components", "RUNTIME_FILES", "c_type", "mangle"]

#: The PS interrupt the system top's interrupt reaches through axi_intc_0: IRQ_F2P[0] is GIC
#: interrupt 61 on a Zynq-7000 (PYNQ's ``raw_irq`` of the controller).
IRQ_F2P0_RAW = 61

#: The files shared by every c component: hand-written, in c/runtime/ (:func:`c_runtime_dir`),
#: copied as they are to c/<name>.
RUNTIME_FILES = ("pp_runtime.h", "pp_runtime.c", "pp_platform.h", "pp_platform_linux.c",
                 "pp_platform_baremetal.c", "pp_platform_simboard.c", "pp_firewall.h", "pp_firewall.c")

_C_TYPES = {"bool": "bool", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "u8": "uint8_t",
            "u16": "uint16_t", "u32": "uint32_t", "f32": "float", "i64": "int64_t",
            "u64": "uint64_t", "f64": "double"}

_C_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "bool", "true", "false", "rt", "result",
    "f", "fn", "out", "args", "res", "main",
}


def c_components(linked: LinkedSystem) -> list[LinkedComponent]:
    return [c for c in linked.components if c.kind in ("c", "riscv")]  # riscv: C on a soft core


def c_type(t: Type) -> str:
    """The C type of a PushPush type (``pp_fn`` for function values, ``void``)."""
    if isinstance(t, FunctionType):
        return "pp_fn"
    if isinstance(t, BufferType):
        return "pp_buf"
    assert isinstance(t, Scalar)
    return "void" if t.is_void else _C_TYPES[t.name]


def mangle(t: Type) -> str:
    """A C identifier naming a type structurally: ``(x: i32) -> i32`` is ``i32_ret_i32``,
    nested function types are bracketed ``F...E``: ``(f: (i32) -> i32) -> void`` is
    ``Fi32_ret_i32E_ret_void``."""
    if isinstance(t, Scalar):
        return t.name
    if isinstance(t, BufferType):
        return f"{t.direction}_{t.element.name}_buf"
    assert isinstance(t, FunctionType)
    ps = "_".join(_mangle_inner(p.type) for p in t.params) or "void"
    return f"{ps}_ret_{_mangle_inner(t.result)}"


def _mangle_inner(t: Type) -> str:
    return f"F{mangle(t)}E" if isinstance(t, FunctionType) else mangle(t)


def _encode(t: Type, e: str) -> list[str]:
    """Word expressions (uint32_t) of value expression ``e``."""
    if isinstance(t, FunctionType):
        return [f"({e}).addr"]
    if isinstance(t, BufferType):
        return [f"({e}).phys", f"({e}).len"]
    assert isinstance(t, Scalar)
    n = t.name
    if n == "void":
        return []
    if n == "bool":
        return [f"(uint32_t)(({e}) ? 1u : 0u)"]
    if n in ("i8", "i16", "i32"):
        return [f"(uint32_t)(int32_t)({e})"]
    if n in ("u8", "u16", "u32"):
        return [f"(uint32_t)({e})"]
    if n == "f32":
        return [f"pp_f32_bits({e})"]
    if n in ("i64", "u64"):
        return [f"(uint32_t)(uint64_t)({e})", f"(uint32_t)((uint64_t)({e}) >> 32)"]
    if n == "f64":
        return [f"(uint32_t)pp_f64_bits({e})", f"(uint32_t)(pp_f64_bits({e}) >> 32)"]
    raise AssertionError(n)


def _decode(t: Type, w: list[str]) -> str:
    """A value expression of type ``t`` from word expressions ``w``."""
    if isinstance(t, FunctionType):
        return f"pp_fn_at({w[0]})"
    if isinstance(t, BufferType):
        return f"pp_buf_at({w[0]}, {w[1]})"
    assert isinstance(t, Scalar)
    n = t.name
    if n == "bool":
        return f"({w[0]} != 0u)"
    if n in ("i8", "i16", "i32", "u8", "u16", "u32"):
        return f"({_C_TYPES[n]})({w[0]})"
    if n == "f32":
        return f"pp_bits_f32({w[0]})"
    wide = f"((uint64_t){w[0]} | ((uint64_t){w[1]} << 32))"
    if n == "i64":
        return f"(int64_t){wide}"
    if n == "u64":
        return wide
    if n == "f64":
        return f"pp_bits_f64({wide})"
    raise AssertionError(n)


@dataclass
class _Param:
    name: str
    ctype: str
    type: Type


@dataclass
class _Sig:
    """The C view of one function type."""

    ft: FunctionType
    params: list[_Param]
    result: str  # C type, "void" for none

    @property
    def arg_words(self) -> int:
        return self.ft.arg_words

    @property
    def result_words(self) -> int:
        return self.ft.result_words

    def decl_params(self, lead: str = "pp_rt *rt") -> str:
        """``pp_rt *rt, int32_t x, int32_t *result``."""
        parts = [lead] + [f"{p.ctype} {p.name}" for p in self.params]
        if self.result != "void":
            parts.append(f"{self.result} *result")
        return ", ".join(parts)

    def type_params(self) -> str:
        parts = ["pp_rt *"] + [p.ctype for p in self.params]
        if self.result != "void":
            parts.append(f"{self.result} *")
        return ", ".join(parts)

    def arg_stores(self) -> list[str]:
        """Statements filling ``pp_a`` with the argument words."""
        out: list[str] = []
        k = 0
        for p in self.params:
            for w in _encode(p.type, p.name):
                out.append(f"pp_a[{k}] = {w};")
                k += 1
        return out

    def arg_values(self) -> list[str]:
        """Expressions of the arguments decoded from ``pp_args`` (adapters)."""
        out = []
        k = 0
        for p in self.params:
            n = p.type.words
            out.append(_decode(p.type, [f"pp_args[{k + i}]" for i in range(n)]))
            k += n
        return out

    def result_decode(self) -> str:
        return _decode(self.ft.result, [f"pp_r[{i}]" for i in range(self.result_words)])

    def fw_bufs(self) -> list[str]:
        """``pp_fw_arg_of(...)`` of each buffer argument (the memory firewall's ranges)."""
        return _fw_bufs(self)

    def result_stores(self) -> list[str]:
        return [f"pp_res[{i}] = {w};" for i, w in enumerate(_encode(self.ft.result, "pp_value"))]


def _sig(ft: FunctionType) -> _Sig:
    params = []
    used: set[str] = set()
    for name, p in zip(ft.param_names(), ft.params):
        n = name
        while n in _C_KEYWORDS or n.startswith("pp_") or n in used:
            n = n + "_"
        used.add(n)
        params.append(_Param(n, c_type(p.type), p.type))
    return _Sig(ft, params, c_type(ft.result))


@dataclass
class _FnType:
    mangled: str
    sig: _Sig
    text: str


@dataclass
class _Import:
    name: str      # C function name
    target: str    # callee.fn
    site: int
    sig: _Sig
    cep: int
    rep: int


def _fw_bufs(sig: _Sig) -> list[str]:
    return [f"pp_fw_arg_of({p.name}, {p.type.element_bytes}u, {0 if p.type.is_in else 1})"
            for p in sig.params if isinstance(p.type, BufferType)]


@dataclass
class _FwSlot:
    cep: int
    first_engine: int
    nbufs: int
    what: str


def _firewall_model(linked: LinkedSystem, c: LinkedComponent) -> Optional[dict[str, object]]:
    """The memory firewall's constants and tables for component ``c``'s runtime (None
    without ``firewall:``): the register page, the table's size, the component's share of
    it (as the Python runtime's), the engines' names, and every cep slot of an rtl export
    with buffer parameters with its first engine (pp_firewall.h)."""
    fw = linked.firewall
    if fw is None or c.kind != "c":   # riscv: the firewall's page is the ARM's alone (linker)
        return None
    share = fw.share([x.name for x in linked.components if x.is_software], c.name)
    engines = firewall_engines(linked.components)
    slots = []
    for r in linked.components:
        if r.kind != "rtl":
            continue
        for e in r.exports:
            bufs = e.signature.buffer_params()
            if not bufs:
                continue
            first = engines.index((r.name, e.name, bufs[0].name))
            for idx in (*e.static_slots, *e.dynamic_slots):
                slots.append(_FwSlot(r.slots[idx].address, first, len(bufs), f"{r.name}.{e.name}"))
    return {"base": fw.base, "entries": fw.entries, "first": share.start, "count": len(share),
            "engines": [".".join(x) for x in engines], "slots": slots}


@dataclass
class _Slot:
    address: int
    kind: str      # PP_SLOT_STATIC / PP_SLOT_DYNAMIC
    what: str


@dataclass
class _Export:
    name: str      # C function the user writes
    export: str
    fntype: _FnType
    slots: list[_Slot] = field(default_factory=list)


def _collect(t: Type, into: dict[str, _FnType]) -> None:
    if not isinstance(t, FunctionType):
        return
    m = mangle(t)
    if m not in into:
        into[m] = _FnType(m, _sig(t), format_type(t, names=False))
    for p in t.params:
        _collect(p.type, into)
    _collect(t.result, into)


def _ident(name: str, what: str, comp: str) -> str:
    if not name.replace("_", "a").isalnum() or name[0].isdigit():
        raise GenerateError(f"component '{comp}': {what} '{name}' is not a C identifier; rename it")
    return name


def _component_model(linked: LinkedSystem, c: LinkedComponent) -> dict[str, object]:
    p = _ident(c.name, "the component name", c.name)
    fntypes: dict[str, _FnType] = {}
    imports = []
    for k, i in enumerate(c.imports):
        _collect(i.signature, fntypes)
        imports.append(_Import(f"{p}_{_ident(i.component, 'component', c.name)}_"
                               f"{_ident(i.function, 'function', c.name)}", i.target, k,
                               _sig(i.signature), i.cep_address, i.rep_address))
    exports = []
    for e in c.exports:
        _collect(e.signature, fntypes)
        ex = _Export(f"{p}_{_ident(e.name, 'export', c.name)}", e.name, fntypes[mangle(e.signature)])
        for who, idx in zip(e.importers, e.static_slots):
            ex.slots.append(_Slot(c.slots[idx].address, "PP_SLOT_STATIC", f"static slot of {who}"))
        for k, idx in enumerate(e.dynamic_slots):
            ex.slots.append(_Slot(c.slots[idx].address, "PP_SLOT_DYNAMIC", f"dynamic slot {k}"))
        exports.append(ex)
    names: dict[str, str] = {}
    for what, n in ([(f"import {i.target}", i.name) for i in imports]
                    + [(f"export {e.export}", e.name) for e in exports]
                    + [(f"function type {t.text}", f"{p}_{w}_{t.mangled}")
                       for t in fntypes.values() for w in ("fn", "call", "lend", "adapt")]
                    + [("the open function", f"{p}_open")]):
        if n in names:
            raise GenerateError(f"component '{c.name}': the C names of {names[n]} and {what} are "
                                f"both '{n}'; rename one of them in the system description")
        names[n] = what
    irq = None
    if linked.irq is not None and c.name in linked.irq.components:
        from .vivado import intc_address_block
        block = intc_address_block(linked)
        if block is not None:
            irq = {"pending": linked.irq.pending_address, "bit": linked.irq.bit(c.name),
                   "intc": block[0], "raw": IRQ_F2P0_RAW}
    return {"prefix": p, "upper": p.upper(), "comp": c, "imports": imports, "exports": exports,
            "fntypes": list(fntypes.values()), "irq": irq, "fw": _firewall_model(linked, c),
            "wait": "PP_WAIT_" + (c.wait or "sleep").upper()}


def render_c(linked: LinkedSystem) -> dict[str, str]:
    """Every C file of the system's ``c`` components (empty when there is none)."""
    comps = c_components(linked)
    if not comps:
        return {}
    files: dict[str, str] = {}
    runtime = c_runtime_dir()
    for name in RUNTIME_FILES:
        files[f"c/{name}"] = (runtime / name).read_text(encoding="utf-8")
    files[PROTOCOL_HEADER] = render_protocol_header()
    for c in comps:
        model = _component_model(linked, c)
        src = f"{linked.source_file} (component '{c.name}')"
        for tmpl, out in (("component.h.j2", f"c/{c.name}_pp.h"), ("component.c.j2", f"c/{c.name}_pp.c"),
                          ("skeleton.c.j2", f"c/{c.name}_skeleton.c.in")):
            head = (generated_header("/*", src) + f" Template: templates/c/{tmpl}. */")
            files[out] = render_template(f"c/{tmpl}", header=head, sys=linked, **model)
    return files
