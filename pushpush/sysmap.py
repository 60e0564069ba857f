"""The system map: a linked system as deterministic JSON, and back.

``to_json(link(load_system(p)))`` is byte-identical for the same YAML and the same pushpush
version: no absolute paths, no timestamps, keys in a fixed order. ``from_json`` reads it
back into an equal :class:`~pushpush.link.LinkedSystem`. The format is documented in
``docs/system-map.md``.

Addresses and sizes in bytes are hex strings (``"0x43C00000"``); word offsets, word
counts and slot indices are plain integers. Objects whose values are all scalars are
written on one line, so the file reads like a table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from . import __version__
from .errors import SystemMapError
from .link import (
    ChannelInfo,
    WORD_BYTES,
    CallbackInfo,
    DmaBlock,
    ExportInfo,
    ImportInfo,
    LinkedComponent,
    LinkedSystem,
    Slot,
    TraceBlock,
    FirewallBlock,
    WindowGuard,
    WindowRule,
    trace_pulses,
)
from .link.linker import place_irq, place_ps_window_register
from .spec import DEFAULT_WAIT, Abe, Interconnect, Region
from .spec.fields import DEFAULT_REPLY_TIMEOUT
from .types import FunctionType, TypeSyntaxError, format_type, parse_signature

__all__ = ["SCHEMA", "SCHEMA_VERSION", "COUNTERS", "to_json", "from_json", "to_dict", "from_dict"]

SCHEMA = "pushpush.system-map"
SCHEMA_VERSION = 1
#: The fault counters (docs/architecture.md §2.2) and the byte offset at which an AXI read
#: of an rtl component's window returns each (32-bit, saturating); software components keep
#: them in their runtime.
COUNTERS = {"collisions": 0x0, "duplicates": 0x4, "strays": 0x8, "write_errors": 0xC}


def _hex(n: int) -> str:
    return f"0x{n:08X}"


def to_dict(linked: LinkedSystem) -> dict[str, Any]:
    """The system map as plain JSON-compatible data (key order is the file's order)."""
    return {
        "schema": SCHEMA,
        "version": SCHEMA_VERSION,
        "generator": f"pushpush {__version__}",
        "source": linked.source_file,
        "system": linked.name,
        "board": linked.board,
        "clock_mhz": linked.clock_mhz,
        "word_bytes": WORD_BYTES,
        "interconnect": {
            "topology": linked.interconnect.topology,
            "data_width": linked.interconnect.data_width,
            "arbitration": linked.interconnect.arbitration,
        },
        "regions": {
            name: {"base": _hex(r.base), "size": _hex(r.size)}
            for name, r in (("pl", linked.pl), ("ps", linked.ps))
        },
        "counters": dict(COUNTERS),
        **_software_windows(linked),
        **_dmas(linked),
        **_channels(linked),
        **_trace(linked),
        **_firewall(linked),
        **_window_guard(linked),
        "components": [_component(c) for c in linked.components],
    }


def _trace(linked: LinkedSystem) -> dict[str, Any]:
    """The ``trace`` entry (only with ``trace:``; docs/trace.md): the PL trace buffer's page,
    its depth in records and its events, bit k of a record's mask = ``events[k]``: the
    trigger word of every slot (components in declaration order, slots in window order),
    then the rtl modules' handshakes (``take``/``result`` of an export, ``call``/``reply``
    of a call port: :func:`pushpush.link.trace_pulses`)."""
    t = linked.trace
    if t is None:
        return {}
    slots = [{"component": c.name, "slot": s.index, "kind": str(s.kind), "function": s.function,
              "address": _hex(s.trigger_address)} for c in linked.components for s in c.slots]
    pulses = [{"component": c.name, "kind": k, "port": port}
              for c in linked.components for k, port in trace_pulses(c)]
    return {"trace": {"base": _hex(t.base), "size": _hex(t.size), "depth": t.depth,
                      "events": slots + pulses}}


def _firewall(linked: LinkedSystem) -> dict[str, Any]:
    """The ``firewall`` entry (only with ``firewall:``): the memory firewall's register page
    and its table's size (cores/mem_firewall)."""
    f = linked.firewall
    if f is None:
        return {}
    return {"firewall": {"base": _hex(f.base), "size": _hex(f.size), "entries": f.entries}}


def _window_guard(linked: LinkedSystem) -> dict[str, Any]:
    """The ``window_guard`` entry (only with ``firewall:`` guarding the software windows):
    its register page, the rules (which PL component may write which bytes of which
    software window, and why), which the top's constant table is made of (docs/system-map.md)."""
    g = linked.window_guard
    if g is None:
        return {}
    return {"window_guard": {
        "base": _hex(g.base), "size": _hex(g.size),
        "rules": [{"master": r.master, "tag": r.tag, "window": r.window, "first": _hex(r.first),
                   "last": _hex(r.last), "what": r.what} for r in g.rules]}}


def _read_window_guard(data: dict[str, Any]) -> Optional[WindowGuard]:
    g = data.get("window_guard")
    if not g:
        return None
    return WindowGuard(_int(g["base"]),
                       tuple(WindowRule(r["master"], int(r["tag"]), r["window"], _int(r["first"]),
                                        _int(r["last"]), r["what"]) for r in g["rules"]))


def _dmas(linked: LinkedSystem) -> dict[str, Any]:
    """The ``dmas`` entry (only when the system has a ``dma:``; docs/system-map.md)."""
    if not linked.dmas:
        return {}
    return {"dmas": [{"name": d.name, "component": d.component, "base": _hex(d.base),
                      "size": _hex(d.size), "data_width": d.data_width,
                      "max_burst": d.max_burst, "hp_port": d.hp_port, **_dma_firewall(d)}
                     for d in linked.dmas]}


def _dma_firewall(d: DmaBlock) -> dict[str, Any]:
    """A DMA's ``firewall`` (only with ``firewall:``): its memory firewall's register page
    and its table's size (entry 0 MM2S, entry 1 S2MM)."""
    f = d.firewall
    if f is None:
        return {}
    return {"firewall": {"base": _hex(f.base), "size": _hex(f.size), "entries": f.entries}}


def _read_dmas(data: dict[str, Any]) -> tuple[DmaBlock, ...]:
    return tuple(DmaBlock(d["name"], d["component"], _int(d["base"]), int(d["data_width"]),
                          int(d["max_burst"]), d["hp_port"],
                          firewall_base=_int(d["firewall"]["base"]) if d.get("firewall") else None)
                 for d in data.get("dmas") or [])


def _channels(linked: LinkedSystem) -> dict[str, Any]:
    """The ``channels`` entry (only when a component has ``channels:``; docs/system-map.md)."""
    if not linked.channels:
        return {}
    return {"channels": [{"component": c.component, "name": c.name, "index": c.index,
                          "rx": c.rx, "tx": c.tx} for c in linked.channels]}


def _read_channels(data: dict[str, Any]) -> tuple[ChannelInfo, ...]:
    return tuple(ChannelInfo(str(c["component"]), str(c["name"]), int(c["index"]))
                 for c in data.get("channels") or [])


def _software_windows(linked: LinkedSystem) -> dict[str, Any]:
    """The ``software_windows`` entry: only for "ddr" (an "ocm" map has none, as before)."""
    if linked.software_windows == "ocm":
        return {}
    reg = linked.ps_window_register
    return {"software_windows": {"memory": linked.software_windows,
                                 "base_register": _hex(reg) if reg is not None else None}}


def _component(c: LinkedComponent) -> dict[str, Any]:
    return {
        "name": c.name,
        "kind": c.kind,
        "region": c.region,
        "module": c.module,
        "sources": list(c.sources),
        "window": {"base": _hex(c.base), "size": _hex(c.size), "end": _hex(c.end)},
        "slot_words": c.slot_words,
        "runtime": {"offset": c.runtime_offset, "words": c.runtime_words,
                    "address": _hex(c.runtime_address)},
        **({"wait": c.wait} if c.is_software and c.wait != DEFAULT_WAIT else {}),
        **({"memory": _hex(c.memory)} if c.kind == "riscv" else {}),
        **({"hls_top": c.hls_top} if c.hls_top is not None else {}),
        **({"hls_sources": list(c.hls_sources)} if c.hls_sources else {}),
        **({"cpu": c.cpu} if c.kind == "riscv" and c.cpu not in ("", "picorv32") else {}),
        **({"reply_timeout": c.reply_timeout}
           if c.kind == "rtl" and c.reply_timeout != DEFAULT_REPLY_TIMEOUT else {}),
        "abe": None if c.abe is None else {"nominal_burst": c.abe.nominal_burst,
                                            "max_outstanding": c.abe.max_outstanding},
        "exports": [
            {
                "name": e.name,
                "signature": format_type(e.signature),
                "importers": list(e.importers),
                "static_slots": list(e.static_slots),
                "dynamic_slots": list(e.dynamic_slots),
                "callbacks": [
                    {"param": cb.param, "param_index": cb.param_index,
                     "signature": format_type(cb.signature), "rep_slot": cb.rep_slot,
                     "rep_address": _hex(cb.rep_address),
                     "rep_trigger_address": _hex(cb.rep_trigger_address)}
                    for cb in e.callbacks
                ],
            }
            for e in c.exports
        ],
        "imports": [
            {"target": i.target, "cep_slot": i.cep_slot, "cep_address": _hex(i.cep_address),
             "cep_trigger_address": _hex(i.cep_trigger_address), "rep_slot": i.rep_slot,
             "rep_address": _hex(i.rep_address), "rep_trigger_address": _hex(i.rep_trigger_address),
             "signature": format_type(i.signature)}
            for i in c.imports
        ],
        "slots": [
            {"index": s.index, "kind": s.kind, "function": s.function, "importer": s.importer,
             "param": s.param, "offset": s.offset, "words": s.words,
             "trigger_offset": s.trigger_offset, "address": _hex(s.address),
             "trigger_address": _hex(s.trigger_address), "signature": format_type(s.signature)}
            for s in c.slots
        ],
    }


def to_json(linked: LinkedSystem) -> str:
    """The system map text (UTF-8, ending in a newline)."""
    return _dump(to_dict(linked), 0) + "\n"


def _is_flat(v: Any) -> bool:
    if isinstance(v, dict):
        return all(not isinstance(x, (dict, list)) or (isinstance(x, list) and all(
            not isinstance(y, (dict, list)) for y in x)) for x in v.values())
    return False


def _dump(v: Any, indent: int) -> str:
    pad = "  " * (indent + 1)
    if isinstance(v, dict):
        if not v:
            return "{}"
        if indent > 0 and _is_flat(v):
            return json.dumps(v, ensure_ascii=False)
        body = ",\n".join(f"{pad}{json.dumps(k)}: {_dump(x, indent + 1)}" for k, x in v.items())
        return "{\n" + body + "\n" + "  " * indent + "}"
    if isinstance(v, list):
        if all(not isinstance(x, (dict, list)) for x in v):
            return json.dumps(v, ensure_ascii=False)
        body = ",\n".join(pad + _dump(x, indent + 1) for x in v)
        return "[\n" + body + "\n" + "  " * indent + "]"
    return json.dumps(v, ensure_ascii=False)


# --------------------------------------------------------------------------- reading


def from_json(text: str, base_dir: Optional[Path] = None) -> LinkedSystem:
    """Read a system map; ``base_dir`` is the YAML file's directory (for source paths).

    Raises :class:`~pushpush.errors.SystemMapError` for anything that is not a system map
    of a supported version.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SystemMapError(f"not JSON: {e}") from None
    return from_dict(data, base_dir)


def from_dict(data: Any, base_dir: Optional[Path] = None) -> LinkedSystem:
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise SystemMapError(f"not a pushpush system map (expected \"schema\": \"{SCHEMA}\")")
    version = data.get("version")
    if not isinstance(version, int) or version > SCHEMA_VERSION or version < 1:
        raise SystemMapError(f"system map version {version!r} is not supported by pushpush "
                             f"{__version__} (it reads version {SCHEMA_VERSION}); re-run 'pushpush map --json'")
    try:
        ic = data["interconnect"]
        regions = data["regions"]
        pl = _region(regions["pl"])
        components = tuple(_read_component(c) for c in data["components"])
        software_windows = (data.get("software_windows") or {}).get("memory", "ocm")
        # the map names no interrupt page: place it (and the ddr register page) as link() does
        reg = place_ps_window_register(software_windows, components)
        return LinkedSystem(
            name=data["system"], board=data["board"], clock_mhz=data["clock_mhz"],
            interconnect=Interconnect(ic["topology"], ic["data_width"], ic["arbitration"]),
            pl=pl, ps=_region(regions["ps"]),
            components=components,
            source_file=data["source"], base_dir=base_dir,
            software_windows=software_windows,
            dmas=_read_dmas(data),
            channels=_read_channels(data),
            ps_window_register=reg,
            irq=place_irq(pl, components, reg),
            trace=(TraceBlock(_int(data["trace"]["base"]), int(data["trace"]["depth"]))
                   if data.get("trace") else None),
            firewall=(FirewallBlock(_int(data["firewall"]["base"]), int(data["firewall"]["entries"]))
                      if data.get("firewall") else None),
            window_guard=_read_window_guard(data),
        )
    except (KeyError, TypeError, ValueError, AttributeError, TypeSyntaxError) as e:
        raise SystemMapError(f"malformed system map: {type(e).__name__}: {e}") from None


def _check_derived(d: dict[str, Any], c: LinkedComponent) -> None:
    """The redundant fields of a component must agree with the ones it is rebuilt from."""
    problems = []
    if _int(d["window"]["end"]) != c.end:
        problems.append("window.end")
    if (d["runtime"]["offset"], _int(d["runtime"]["address"])) != (c.runtime_offset, c.runtime_address):
        problems.append("runtime")
    for sd, s in zip(d["slots"], c.slots):
        if (sd["trigger_offset"], _int(sd["trigger_address"])) != (s.trigger_offset, s.trigger_address):
            problems.append(f"slot {s.index} trigger")
    if problems:
        raise ValueError(f"component '{c.name}': inconsistent {', '.join(problems)}")


def _int(s: str) -> int:
    return int(s, 16) if isinstance(s, str) else int(s)


def _region(d: dict[str, Any]) -> Region:
    return Region(_int(d["base"]), _int(d["size"]))


def _sig(s: str) -> FunctionType:
    return parse_signature(s)


def _riscv_memory(d: dict[str, Any]) -> int:
    """A riscv component's local memory in bytes (``memory``; 0 for other kinds)."""
    if d["kind"] != "riscv":
        return 0
    if "memory" not in d:
        raise SystemMapError(f"component '{d['name']}' is kind riscv but has no 'memory' (its local "
                             f"memory in bytes): the map was written by an older pushpush; "
                             f"regenerate it with 'pushpush generate'")
    return _int(d["memory"])


def _read_component(d: dict[str, Any]) -> LinkedComponent:
    abe = d.get("abe")
    slots = tuple(
        Slot(index=s["index"], kind=s["kind"], function=s["function"], signature=_sig(s["signature"]),
             offset=s["offset"], words=s["words"], address=_int(s["address"]),
             importer=s.get("importer"), param=s.get("param"))
        for s in d["slots"]
    )
    exports = tuple(
        ExportInfo(
            name=e["name"], signature=_sig(e["signature"]), importers=tuple(e["importers"]),
            static_slots=tuple(e["static_slots"]), dynamic_slots=tuple(e["dynamic_slots"]),
            callbacks=tuple(
                CallbackInfo(cb["param"], cb["param_index"], _sig(cb["signature"]), cb["rep_slot"],
                             _int(cb["rep_address"]), _int(cb["rep_trigger_address"]))
                for cb in e["callbacks"]))
        for e in d["exports"]
    )
    imports = []
    for i in d["imports"]:
        component, _, function = i["target"].partition(".")
        imports.append(ImportInfo(
            component=component, function=function, signature=_sig(i["signature"]),
            cep_slot=i["cep_slot"], cep_address=_int(i["cep_address"]),
            cep_trigger_address=_int(i["cep_trigger_address"]), rep_slot=i["rep_slot"],
            rep_address=_int(i["rep_address"]), rep_trigger_address=_int(i["rep_trigger_address"])))
    comp = LinkedComponent(
        name=d["name"], kind=d["kind"], region=d["region"], module=d["module"],
        sources=tuple(d["sources"]), base=_int(d["window"]["base"]), size=_int(d["window"]["size"]),
        slot_words=d["slot_words"], runtime_words=d["runtime"]["words"],
        wait=d.get("wait", DEFAULT_WAIT) if d["region"] == "ps" else "",
        memory=_riscv_memory(d),
        cpu=str(d.get("cpu", "picorv32")) if d["kind"] == "riscv" else "",
        reply_timeout=int(d.get("reply_timeout", DEFAULT_REPLY_TIMEOUT)) if d["kind"] == "rtl" else DEFAULT_REPLY_TIMEOUT,
        abe=None if abe is None else Abe(abe["nominal_burst"], abe["max_outstanding"]),
        exports=exports, imports=tuple(imports), slots=slots,
        hls_top=d.get("hls_top"),
        hls_sources=tuple(d.get("hls_sources") or ()),
    )
    _check_derived(d, comp)
    return comp
