"""The loader: YAML in, a validated :class:`SystemSpec` out.

:func:`load_system` reads a ``system.yaml`` keeping the position of every node, checks
everything it can (keys, kinds, names, numbers, signatures, imports against exports) and
raises one :class:`~pushpush.errors.SpecError` listing **all** problems, each as
``file:line:column: what is wrong; how to fix it``. Nothing here assigns addresses: that is
:mod:`pushpush.link`'s job.

The YAML format is documented in ``docs/system-map.md`` (section "System description") and
by the commented examples under ``examples/``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from dataclasses import replace
from typing import Any, Iterable, Optional, Union

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Diagnostic, Location, SpecError
from ..types import FunctionType, parse_signature
from .fields import (
    ABE, BOARDS, COMPONENT, DEFAULT_DYNAMIC_SLOTS, DEFAULT_REPLY_TIMEOUT, DMA, EXPORT, IMPORT_TARGET, INTERCONNECT,
    MAX_CHANNELS, REGION, REGIONS, RISCV_MEMORY_MAX, RISCV_MEMORY_MIN, SOFTWARE_KINDS, SYSTEM,
)
from .fields import FIREWALL, FIREWALL_DEFAULT_ENTRIES, TRACE, TRACE_DEFAULT_DEPTH, Int, Str
from .model import (
    CHANNEL_RX_SIGNATURE, CHANNEL_TX_SIGNATURE, DEFAULT_PS, Abe, ChannelSpec, ComponentSpec, Dma,
    ExportSpec, ImportSpec, Interconnect, Region, SystemSpec,
)
from .hls import as_loaded, hls_problems
from .reader import _is_null, _is_pow2, _Reader
from .references import check_references
from .text import compose, decode_text

__all__ = ["load_system", "parse_system"]

#: The count form of ``channels:`` without its maximum (over it, the message is RIFFA's limit).
_CHANNEL_COUNT = next(replace(o, maximum=None) for o in COMPONENT.field("channels").value.options  # type: ignore[union-attr]
                      if isinstance(o, Int))
_IMPORT = re.compile(IMPORT_TARGET + r"\Z")


def load_system(path: Union[str, os.PathLike[str]], board: Optional[str] = None) -> SystemSpec:
    """Read and validate the system description at ``path`` (``board``: instead of the
    file's ``board:``, e.g. ``pushpush run --board zcu104``; checked as if the file said it).

    Raises ``OSError`` if the file cannot be read and :class:`SpecError` (every problem,
    with positions) if it is not a valid system.
    """
    p = Path(path)
    text = decode_text(p.read_bytes(), str(path))
    return parse_system(text, file=str(path), base_dir=p.parent.absolute(), board=board)



def parse_system(text: str, file: str = "<system>", base_dir: Optional[Path] = None,
                 board: Optional[str] = None) -> SystemSpec:
    """Validate the YAML ``text``; ``file`` names it in diagnostics, sources are relative to
    ``base_dir`` (default: the current directory); ``board`` overrides its ``board:``."""
    if board is not None and board not in BOARDS:
        raise ValueError(f"unknown board {board!r}: use one of {', '.join(BOARDS)}")
    loader = _Loader(text, file, (base_dir or Path.cwd()).absolute())
    loader.board_override = board
    spec = loader.load()
    if loader.diags or spec is None:
        raise SpecError(_sorted(loader.diags))
    return spec



def _sorted(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diags, key=lambda d: (d.line, d.column))


def _board_facts(name: Optional[str]) -> Any:
    """The facts of board ``name`` (pushpush.boards; ``none``: the PYNQ-Z1's addresses)."""
    from ..boards import board
    return board(name)


class _Loader(_Reader):
    """One pass over a system description's YAML node tree, collecting diagnostics."""

    def __init__(self, text: str, file: str, base_dir: Path):
        super().__init__(text, file)
        self.base_dir = base_dir
        #: Components and exports present in the file but dropped for their own errors.
        self.declared: set[str] = set()
        #: A board given instead of the file's ``board:`` (parse_system's ``board``).
        self.board_override: Optional[str] = None
        #: The board's facts (pushpush.boards): its PL address range and default region.
        self.board_facts = _board_facts(None)

    # -- the document ---------------------------------------------------------------------

    def load(self) -> Optional[SystemSpec]:
        try:
            root = compose(self.text, self.file)
        except SpecError as e:
            self.diags.extend(e.diagnostics)
            return None
        top = self.record(root, SYSTEM, "the system description", at=Location(self.file, 1, 1),
                          lacks="missing required key '{key}'",
                          name=lambda key: "system name" if key == "system" else key)
        if top is None:
            return None
        by_key = top.nodes
        defaults = {f.name: f.default for f in SYSTEM.fields}

        name: Optional[str] = top.values.get("system")
        loc = self.loc(by_key["system"][0]) if "system" in by_key else Location(self.file, 1, 1)

        board = top.values.get("board", defaults["board"])
        if self.board_override is not None:
            board = self.board_override
        self.board_facts = _board_facts(board)

        clock: float = top.values.get("clock_mhz", defaults["clock_mhz"])
        if board != "none":     # the board's PL clock must make it (pushpush.boards)
            from ..boards import pl_clock_error
            why = pl_clock_error(self.board_facts, float(clock))
            if why:
                where = by_key["clock_mhz"][1] if "clock_mhz" in by_key else loc
                self.error(where, f"{why}; or board: none for simulation only")

        software_windows = top.values.get("software_windows", defaults["software_windows"])
        sw_node = top.node("software_windows")

        interconnect = Interconnect()
        if "interconnect" in by_key:
            interconnect = self.interconnect(by_key["interconnect"][1])

        pl, ps = Region(*self.board_facts.default_pl), DEFAULT_PS
        region_locs: dict[str, Location] = {}
        if "regions" in by_key:
            pl, ps = self.regions(by_key["regions"][1], region_locs)

        components: list[ComponentSpec] = []
        components_loc: Optional[Location] = None
        if "components" in by_key:
            key_node, node = by_key["components"]
            components_loc = self.loc(key_node)
            comp_items = self.mapping(node, "'components'", item="component")
            if comp_items is not None:
                if not comp_items:
                    self.error(node, "'components' is empty; declare at least one component")
                for cname, cname_node, cnode in comp_items:
                    comp = self.component(cname, cname_node, cnode)
                    if comp is not None:
                        components.append(comp)
                    else:
                        self.declared.add(cname)

        c_comps = [c.name for c in components if c.kind == "c"]
        if software_windows == "ddr" and c_comps and sw_node is not None:
            self.error(sw_node, f"software_windows: ddr is not supported with c components yet "
                                f"({', '.join(repr(c) for c in c_comps)}): their runtime maps the "
                                f"windows at regions.ps (/dev/mem on the board), not a pynq.allocate "
                                f"buffer; use software_windows: ocm")

        trace_depth = self.trace(by_key["trace"][1]) if "trace" in by_key else 0
        self._firewall_entries_loc: Optional[Location] = None
        firewall_entries = self.firewall(by_key["firewall"][1]) if "firewall" in by_key else 0

        if name is None:
            return None
        spec = SystemSpec(
            name=name, components=tuple(components), board=board, clock_mhz=clock,
            software_windows=software_windows, interconnect=interconnect, pl=pl, ps=ps, file=self.file, base_dir=self.base_dir,
            trace_depth=trace_depth, firewall_entries=firewall_entries, loc=loc, components_loc=components_loc, region_locs=region_locs,
            firewall_entries_loc=self._firewall_entries_loc,
        )
        self.diags.extend(check_references(spec, self.declared))
        return spec

    def trace(self, node: Node) -> int:
        """``trace:`` (fields.TRACE): true, false or ``{depth: N}``; the ring's depth in
        records, 0 for none."""
        if not isinstance(node, MappingNode):
            v = self.value(node) if isinstance(node, ScalarNode) else None
            if isinstance(v, bool):
                return TRACE_DEFAULT_DEPTH if v else 0
            self.error(node, f"trace must be true, false or a mapping such as {{depth: 4096}}, "
                             f"not {self._describe(node)}; e.g. trace: true")
            return 0
        read = self.record(node, TRACE, "'trace'", name=lambda key: f"trace {key}")
        if read is None or not read.ok:
            return 0
        depth = read.values.get("depth", TRACE_DEFAULT_DEPTH)
        if depth & (depth - 1):
            lower = 1 << (depth.bit_length() - 1)
            self.error(read.node("depth") or node,
                       f"trace depth must be a power of two (records in the ring), not {depth}; "
                       f"use {lower} or {2 * lower}")
            return 0
        return int(depth)

    def firewall(self, node: Node) -> int:
        """``firewall:`` (fields.FIREWALL): true, false or ``{entries: N}``; the table's
        entries, 0 for none."""
        if not isinstance(node, MappingNode):
            v = self.value(node) if isinstance(node, ScalarNode) else None
            if isinstance(v, bool):
                return FIREWALL_DEFAULT_ENTRIES if v else 0
            self.error(node, f"firewall must be true, false or a mapping such as {{entries: 8}}, "
                             f"not {self._describe(node)}; e.g. firewall: true")
            return 0
        read = self.record(node, FIREWALL, "'firewall'", name=lambda key: f"firewall {key}")
        if read is None or not read.ok:
            return 0
        if "entries" in read.nodes:
            self._firewall_entries_loc = self.loc(read.nodes["entries"][0])
        return int(read.values.get("entries", FIREWALL_DEFAULT_ENTRIES))

    def interconnect(self, node: Node) -> Interconnect:
        read = self.record(node, INTERCONNECT, "'interconnect'", name=lambda key: f"interconnect {key}")
        return Interconnect(**read.values) if read is not None else Interconnect()

    def regions(self, node: Node, locs: dict[str, Location]) -> tuple[Region, Region]:
        result = {"pl": Region(*self.board_facts.default_pl), "ps": DEFAULT_PS}
        read = self.record(node, REGIONS, "'regions'", item="region")
        if read is None:
            return result["pl"], result["ps"]
        for rname, (rkey, rnode) in read.nodes.items():
            if rname not in result:
                continue
            locs[rname] = self.loc(rkey)
            default = result[rname]
            region_read = self.record(
                rnode, REGION, f"region '{rname}'", name=lambda key: f"regions.{rname}.{key}",
                examples={"base": f"base: 0x{default.base:08X}", "size": f"size: 0x{default.size:08X}"})
            if region_read is None:
                continue
            for key, (_, vnode) in region_read.nodes.items():
                if key in REGION.keys:
                    locs[f"{rname}.{key}"] = self.loc(vnode)
            if not region_read.ok:
                continue
            base = region_read.values.get("base", default.base)
            size = region_read.values.get("size", default.size)
            region = Region(base, size)
            bf = self.board_facts
            lo, hi = bf.pl_range if rname == "pl" else (0, 1 << 32)
            if not (lo <= region.base and region.end <= hi):
                rng = (f"the {bf.title}'s {bf.master_port} range 0x{lo:08X}-0x{hi - 1:08X}"
                       if rname == "pl" else "the 32-bit address space")
                self.error(locs[rname], f"region '{rname}' 0x{region.base:08X}-0x{region.end - 1:X} "
                                        f"must lie inside {rng}; change its base or size")
                continue
            result[rname] = region
        pl, ps = result["pl"], result["ps"]
        if pl.base < ps.end and ps.base < pl.end:
            where = locs.get("ps") or locs.get("pl") or self.loc(node)
            self.error(where, f"regions 'pl' (0x{pl.base:08X}-0x{pl.end - 1:08X}) and 'ps' "
                              f"(0x{ps.base:08X}-0x{ps.end - 1:08X}) overlap; move one of them")
        return pl, ps

    def component(self, name: str, name_node: ScalarNode, node: Node) -> Optional[ComponentSpec]:
        ok_name = self.check_identifier(name_node, name, "component name")
        what = f"component '{name}'"
        read = self.record(node, COMPONENT, what, at=name_node, fixes={
            "sources": (f"list the C files of its program, e.g. sources: [c/{name}.c]"
                        if self._kind_of(node) == "riscv" else
                        f"list the Verilog files that define its module, e.g. sources: "
                        f"[rtl/{self._module_of(node) or name}.v]")})
        if read is None:
            return None
        by_key, values = read.nodes, read.values
        cloc = self.loc(name_node)
        kind: Optional[str] = values.get("kind")

        if kind is not None:
            # every key whose field is not for this kind (riscv shares sources with rtl and
            # runtime_words with software; memory is its own)
            forbidden = tuple(f.name for f in COMPONENT.fields if f.kinds is not None and kind not in f.kinds)
            for key in forbidden:
                if key in by_key:
                    if kind == "hls":
                        why = ("an hls component is a Vitis HLS top function under ap_ctrl_hs: it "
                               "has a module, sources and one export; no soft core, burst settings, "
                               "DMA streams, channels, replies to wait for or run-time area")
                        fix = "remove it"
                    elif kind == "riscv":
                        why = ("a riscv component is C on a soft core: it has sources and memory, no "
                               "Verilog module, burst settings, DMA streams or wait mode")
                        fix = "remove it"
                    elif key == "hls_sources":
                        why = "only hls components have the HLS C++ of a top function"
                        fix = "remove it or use 'kind: hls'"
                    elif key == "memory":
                        why = "only riscv components have a soft core's memory"
                        fix = "remove it or use 'kind: riscv'"
                    elif key == "reply_timeout":
                        why = ("only rtl components' calls wait for replies in the PL; a software "
                               "caller's calls time out in its runtime (timeout=)")
                        fix = "remove it"
                    elif kind in SOFTWARE_KINDS:
                        why = "only rtl components have Verilog modules, sources, burst settings and DMA streams"
                        fix = "remove it or use 'kind: rtl'"
                    elif key == "wait":
                        why = "only python and c components wait for calls in software"
                        fix = "remove it"
                    else:
                        why = "only python and c components have a run-time area"
                        fix = "remove it"
                    self.error(by_key[key][0], f"{kind} {what} cannot have '{key}' ({why}); {fix}")

        module: Optional[str] = values.get("module") if kind in ("rtl", "hls") else None
        sources: list[Path] = []
        source_locs: list[Location] = []
        if kind in ("rtl", "riscv", "hls") and "sources" in by_key:
            sources, source_locs = self.sources(by_key["sources"][1], what)
        memory, memory_loc, cpu = 0, None, ""
        if kind == "riscv":
            cpu = values.get("cpu", COMPONENT.field("cpu").default)
            memory = values.get("memory", COMPONENT.field("memory").default)
            if "memory" in by_key:
                memory_loc = self.loc(by_key["memory"][1])
                memory = self.memory(by_key["memory"][1], what) or memory

        exports: list[ExportSpec] = []
        if "exports" in by_key and not _is_null(by_key["exports"][1]):
            exports = self.exports(by_key["exports"][1], name)
        imports: list[ImportSpec] = []
        if "imports" in by_key and not _is_null(by_key["imports"][1]):
            imports = self.imports(by_key["imports"][1], name)

        window: Optional[int] = values.get("window")
        window_loc = self.loc(by_key["window"][1]) if "window" in by_key else None

        abe: Optional[Abe] = None
        if "abe" in by_key and kind == "rtl":
            abe = self.abe(by_key["abe"][1], what)
        dma: Optional[Dma] = None
        if "dma" in by_key and kind == "rtl":
            dma = self.dma(by_key["dma"][0], by_key["dma"][1], what)

        channels: list[ChannelSpec] = []
        if "channels" in by_key and kind == "rtl":
            channels = self.channels(by_key["channels"][1], what)
            exports = self.channel_exports(channels, exports, name)

        # the declared defaults apply to the kinds that have the key; the others get 0 / ""
        runtime_words = values.get("runtime_words", 0)
        wait = values.get("wait", "")
        reply_timeout = values.get("reply_timeout", DEFAULT_REPLY_TIMEOUT)

        if ok_name is None or kind is None:
            return None
        comp = ComponentSpec(
            name=name, kind=kind, module=module, sources=tuple(sources), exports=tuple(exports),
            imports=tuple(imports), window=window, abe=abe, dma=dma, channels=tuple(channels),
            runtime_words=runtime_words, reply_timeout=reply_timeout,
            wait=wait, loc=cloc, window_loc=window_loc, source_locs=tuple(source_locs),
            memory=memory, memory_loc=memory_loc, cpu=cpu,
        )
        if kind == "hls":  # the ap_ctrl_hs rules; then the rtl component it is in the PL
            if "hls_sources" in by_key:
                comp = replace(comp, hls_sources=tuple(self.sources(by_key["hls_sources"][1], what)[0]))
            hls_problems(comp, self.error)
            return as_loaded(comp)
        return comp

    def _kind_of(self, node: Node) -> Optional[str]:
        """The ``kind:`` a component mapping says, unchecked (for a message's example)."""
        return self._scalar_at(node, "kind")

    def _module_of(self, node: Node) -> Optional[str]:
        """The ``module:`` a component mapping names, if it is a valid module name."""
        module = self._scalar_at(node, "module")
        shape = COMPONENT.field("module").value
        assert isinstance(shape, Str) and shape.pattern is not None
        ok = module is not None and re.fullmatch(shape.pattern, module) and module not in shape.reserved
        return module if ok else None

    def _scalar_at(self, node: Node, key: str) -> Optional[str]:
        if not isinstance(node, MappingNode):
            return None
        for k, v in node.value:
            if isinstance(k, ScalarNode) and k.value == key and isinstance(v, ScalarNode) \
                    and isinstance(self.value(v), str):
                return str(v.value)
        return None

    def memory(self, node: Node, what: str) -> Optional[int]:
        """A riscv component's memory: bytes (4096, 0x4000) or "<n>KiB", a power of two."""
        value = self.value(node) if isinstance(node, ScalarNode) else None
        n: Optional[int] = None
        if isinstance(value, str) and re.fullmatch(r"[0-9]+ ?KiB", value.strip()):
            n = int(value.strip()[:-3]) * 1024
        else:
            n = self.int_in(node, Int(minimum=0), f"memory of {what}", "memory: 16KiB")
            if n is None:
                return None
        if not _is_pow2(n) or not RISCV_MEMORY_MIN <= n <= RISCV_MEMORY_MAX:
            self.error(node, f"memory of {what} must be a power of two from 4KiB to "
                             f"{RISCV_MEMORY_MAX // 1024}KiB (bytes or e.g. 16KiB), not "
                             f"{self._describe(node)}; e.g. memory: 16KiB")
            return None
        return n

    def sources(self, node: Node, what: str) -> tuple[list[Path], list[Location]]:
        """The sources' absolute paths and where each stands in the YAML."""
        if not isinstance(node, SequenceNode):
            self.error(node, f"sources of {what} must be a list of paths, not "
                             f"{self._describe(node)}; e.g. sources: [rtl/fir_core.v]")
            return [], []
        if not node.value:
            self.error(node, f"sources of {what} is empty; list the Verilog files, e.g. [rtl/fir_core.v]")
        out: list[Path] = []
        locs: list[Location] = []
        for item in node.value:
            s = self.get_str(item, f"a source of {what}", "rtl/fir_core.v")
            if s is not None:
                out.append(Path(os.path.normpath(os.path.join(self.base_dir, s))))
                locs.append(self.loc(item))
        return out, locs

    def exports(self, node: Node, comp: str) -> list[ExportSpec]:
        items = self.mapping(node, f"exports of component '{comp}'", item="export")
        if items is None:
            return []
        out: list[ExportSpec] = []
        for fname, fnode, vnode in items:
            ok = self.check_identifier(fnode, fname, "function name")
            what = f"export '{comp}.{fname}'"
            sig: Optional[FunctionType] = None
            dynamic = DEFAULT_DYNAMIC_SLOTS
            if isinstance(vnode, MappingNode):
                read = self.record(vnode, EXPORT, what)
                if read is not None:
                    sig = read.values.get("signature")
                    dynamic = read.values.get("dynamic_slots", dynamic)
            else:
                sig = self.value_of(vnode, EXPORT.field("signature").value, f"signature of {what}", "")
            if ok is not None and sig is not None:
                out.append(ExportSpec(fname, sig, dynamic, loc=self.loc(fnode)))
            else:
                self.declared.add(f"{comp}.{fname}")
        return out

    def channels(self, node: Node, what: str) -> list[ChannelSpec]:
        """``channels: 2`` (named ch0, ch1) or ``channels: [audio, video]``: at most
        :data:`MAX_CHANNELS` (RIFFA's 12), names unique identifiers."""
        example = "channels: 2 or channels: [audio, video]"
        if isinstance(node, SequenceNode):
            out: list[ChannelSpec] = []
            seen: set[str] = set()
            if not node.value:
                self.error(node, f"channels of {what} is empty; give a count or names, e.g. {example}")
            for item in node.value:
                n = self.get_identifier(item, f"a channel name of {what}", "channels: [audio, video]")
                if n is None:
                    continue
                if n in seen:
                    self.error(item, f"channel '{n}' of {what} is listed twice; give each channel "
                                     f"its own name")
                    continue
                seen.add(n)
                out.append(ChannelSpec(n, len(out), loc=self.loc(item)))
            if len(node.value) > MAX_CHANNELS:
                self.error(node, f"{what} has {len(node.value)} channels; RIFFA's limit is "
                                 f"{MAX_CHANNELS}: remove {len(node.value) - MAX_CHANNELS} or split "
                                 f"the core into two components")
                return []
            return out
        n = self.int_in(node, _CHANNEL_COUNT, f"channels of {what}", example)
        if n is None:
            return []
        if n > MAX_CHANNELS:
            self.error(node, f"{what} has {n} channels; RIFFA's limit is {MAX_CHANNELS}: use at "
                             f"most {MAX_CHANNELS} or split the core into two components")
            return []
        return [ChannelSpec(f"ch{i}", i, loc=self.loc(node)) for i in range(n)]

    def channel_exports(self, channels: list[ChannelSpec], exports: list[ExportSpec],
                        comp: str) -> list[ExportSpec]:
        """``exports`` plus each channel's ``<c>_rx`` and ``<c>_tx``; a name the user
        exports already is an error at the channel."""
        out = list(exports)
        names = {e.name: e for e in exports}
        rx_sig = parse_signature(CHANNEL_RX_SIGNATURE)
        tx_sig = parse_signature(CHANNEL_TX_SIGNATURE)
        for ch in channels:
            for fname, sig in ((ch.rx, rx_sig), (ch.tx, tx_sig)):
                if fname in names:
                    self.error(ch.loc or Location(self.file, 1, 1),
                               f"channel '{ch.name}' of component '{comp}' needs the export "
                               f"'{fname}', which the component exports already; rename the "
                               f"channel or the export")
                    continue
                e = ExportSpec(fname, sig, DEFAULT_DYNAMIC_SLOTS, loc=ch.loc)
                names[fname] = e
                out.append(e)
        return out

    def imports(self, node: Node, comp: str) -> list[ImportSpec]:
        out: list[ImportSpec] = []
        what = f"imports of component '{comp}'"
        entries: list[tuple[Node, Optional[Node]]] = []
        if isinstance(node, SequenceNode):
            entries = [(item, None) for item in node.value]
        elif isinstance(node, MappingNode):
            entries = [(kn, vn) for _, kn, vn in (self.mapping(node, what, item="import") or [])]
        else:
            self.error(node, f"{what} must be a list or a mapping, not {self._describe(node)}; "
                             f"write e.g. [fir.fir] or {{fir.fir: \"<signature>\"}}")
            return out
        for target_node, sig_node in entries:
            if not isinstance(target_node, ScalarNode) or not isinstance(self.value(target_node), str):
                self.error(target_node, f"an import of component '{comp}' must be "
                                        f"'component.function', not {self._describe(target_node)}; "
                                        "write e.g. fir.fir")
                continue
            m = _IMPORT.match(target_node.value)
            if not m:
                self.error(target_node, f"import '{target_node.value}' of component '{comp}' must "
                                        f"name a component and a function; write e.g. 'fir.fir'")
                continue
            expected: Optional[FunctionType] = None
            expected_loc: Optional[Location] = None
            if sig_node is not None:
                expected_loc = self.loc(sig_node)
                expected = self.signature(sig_node, f"expected signature of import '{target_node.value}'")
                if expected is None:
                    continue
            out.append(ImportSpec(m.group(1), m.group(2), expected,
                                  loc=self.loc(target_node), expected_loc=expected_loc))
        return out

    def abe(self, node: Node, what: str) -> Optional[Abe]:
        read = self.record(node, ABE, f"abe of {what}", name=lambda key: f"abe.{key} of {what}")
        if read is None or not read.ok:
            return None
        return Abe(**read.values)

    def dma(self, key_node: Node, node: Node, what: str) -> Optional[Dma]:
        """``dma: {name: axi_dma_0, data_width: 32, max_burst: 16}`` (every key optional;
        ``dma: {}`` or ``dma:`` alone takes the defaults)."""
        if _is_null(node):
            return Dma(loc=self.loc(key_node))
        read = self.record(node, DMA, f"dma of {what}",
                           name=lambda key: f"dma name of {what}" if key == "name" else f"dma.{key} of {what}")
        if read is None or not read.ok:
            return None
        return Dma(**read.values, loc=self.loc(key_node))
