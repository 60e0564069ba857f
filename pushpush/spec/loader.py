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
from typing import Any, Iterable, Optional, Sequence, Union

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Diagnostic, Location, SpecError, did_you_mean
from ..types import FunctionType, TypeSyntaxError, parse_signature
from .fields import (
    ARBITRATIONS, BOARDS, DATA_WIDTHS, DEFAULT_DYNAMIC_SLOTS, DEFAULT_RUNTIME_WORDS, DEFAULT_WAIT,
    WAIT_MODES, DMA_DATA_WIDTHS, DMA_DEFAULT_BURST, DMA_DEFAULT_NAME, DMA_MAX_BURSTS,
    KINDS, MAX_BURST, MAX_CHANNELS, MAX_DYNAMIC_SLOTS, MAX_RUNTIME_WORDS, MAX_WINDOW, MIN_WINDOW,
    SOFTWARE_KINDS, SOFTWARE_WINDOWS, TOPOLOGIES, IMPORT_TARGET, VERILOG_IDENT,
    RISCV_MEMORY_DEFAULT, RISCV_MEMORY_MAX, RISCV_MEMORY_MIN,
)
from .fields import ABE_KEYS as _ABE_KEYS
from .fields import COMPONENT as _COMPONENT
from .fields import COMPONENT_KEYS as _COMPONENT_KEYS
from .fields import DMA_KEYS as _DMA_KEYS
from .fields import EXPORT_KEYS as _EXPORT_KEYS
from .fields import IDENT_RE as _IDENT
from .fields import INTERCONNECT_KEYS as _INTERCONNECT_KEYS
from .fields import REGION_KEYS as _REGION_KEYS
from .fields import REGION_NAMES as _REGION_NAMES
from .fields import RESERVED as _RESERVED
from .fields import TOP_KEYS as _TOP_KEYS
from .fields import VERILOG_KEYWORDS as _VERILOG_KEYWORDS
from .model import (
    CHANNEL_RX_SIGNATURE, CHANNEL_TX_SIGNATURE, DEFAULT_PS, Abe, ChannelSpec, ComponentSpec, Dma,
    ExportSpec, ImportSpec, Interconnect, Region, SystemSpec,
)
from .references import check_references
from .text import MAX_YAML_DEPTH, decode_text, too_deep

__all__ = ["load_system", "parse_system"]

_VERILOG_IDENT = re.compile(VERILOG_IDENT + r"\Z")
_IMPORT = re.compile(IMPORT_TARGET + r"\Z")

_Items = list[tuple[str, ScalarNode, Node]]


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


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _next_pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


class _Loader:
    """One pass over the YAML node tree, collecting diagnostics."""

    def __init__(self, text: str, file: str, base_dir: Path):
        self.text = text
        self.file = file
        self.base_dir = base_dir
        self.diags: list[Diagnostic] = []
        self._ctor = yaml.constructor.SafeConstructor()
        #: Components and exports present in the file but dropped for their own errors.
        self.declared: set[str] = set()
        #: A board given instead of the file's ``board:`` (parse_system's ``board``).
        self.board_override: Optional[str] = None
        #: The board's facts (pushpush.boards): its PL address range and default region.
        self.board_facts = _board_facts(None)

    # -- helpers --------------------------------------------------------------------------

    def loc(self, node: Node) -> Location:
        return Location(self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def error(self, where: Union[Node, Location], message: str) -> None:
        loc = where if isinstance(where, Location) else self.loc(where)
        self.diags.append(Diagnostic.at(loc, message))

    def value(self, node: ScalarNode) -> Any:
        try:
            return self._ctor.construct_object(node, deep=True)
        except yaml.YAMLError:
            return node.value

    def mapping(self, node: Node, what: str, item: str = "key") -> Optional[_Items]:
        """The (key, key node, value node) triples of a mapping, duplicates reported."""
        if not isinstance(node, MappingNode):
            self.error(node, f"{what} must be a mapping (key: value lines), not {self._describe(node)}; "
                             f"write one 'key: value' per line (see examples/pingpong/system.yaml)")
            return None
        items: _Items = []
        first: dict[str, ScalarNode] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                self.error(key_node, f"keys of {what} must be plain names, not {self._describe(key_node)}; "
                                     "write a name before the ':'")
                continue
            key = str(key_node.value)
            if key in first:
                self.error(key_node, f"duplicate {item} '{key}' in {what} (first at line "
                                     f"{first[key].start_mark.line + 1}); remove or rename one")
                continue
            first[key] = key_node
            items.append((key, key_node, value_node))
        return items

    def check_keys(self, items: _Items, allowed: Sequence[str], what: str) -> None:
        for key, key_node, _ in items:
            if key not in allowed:
                hint = did_you_mean(key, allowed) or f"; allowed keys: {', '.join(allowed)}"
                self.error(key_node, f"unknown key '{key}' in {what}{hint}")

    @staticmethod
    def _describe(node: Node) -> str:
        if isinstance(node, MappingNode):
            return "a mapping"
        if isinstance(node, SequenceNode):
            return "a list"
        if node.tag.endswith(":null"):
            return "empty"
        return f"'{node.value}'"

    def get_str(self, node: Node, what: str, example: str) -> Optional[str]:
        if isinstance(node, ScalarNode):
            v = self.value(node)
            if isinstance(v, str) and v != "":
                return v
        self.error(node, f"{what} must be a string, not {self._describe(node)}; e.g. {example}")
        return None

    def get_int(self, node: Node, what: str, example: str, minimum: Optional[int] = None,
                maximum: Optional[int] = None) -> Optional[int]:
        v: Any = None
        if isinstance(node, ScalarNode):
            v = self.value(node)
            if isinstance(v, str):
                try:
                    v = int(v.replace("_", ""), 0)
                except ValueError:
                    v = None
        if not isinstance(v, int) or isinstance(v, bool):
            self.error(node, f"{what} must be an integer, not {self._describe(node)}; e.g. {example}")
            return None
        if minimum is not None and v < minimum:
            self.error(node, f"{what} must be at least {minimum}, not {v}; e.g. {example}")
            return None
        if maximum is not None and v > maximum:
            self.error(node, f"{what} is {v} but one window holds at most {maximum}; use a smaller "
                             f"value, e.g. {example}")
            return None
        return v

    def get_choice(self, node: Node, what: str, choices: Sequence[Any]) -> Optional[Any]:
        v = self.value(node) if isinstance(node, ScalarNode) else None
        if v in choices and not isinstance(v, bool):
            return v
        shown = ", ".join(str(c) for c in choices)
        hint = did_you_mean(str(v), [str(c) for c in choices]) if isinstance(node, ScalarNode) else ""
        hint = hint or f"; write one of them, e.g. {choices[0]}"
        self.error(node, f"{what} must be one of {shown}, not {self._describe(node)}{hint}")
        return None

    def get_identifier(self, node: Node, what: str, example: str) -> Optional[str]:
        if not isinstance(node, ScalarNode) or not isinstance(self.value(node), str):
            self.error(node, f"{what} must be a name, not {self._describe(node)}; e.g. {example}")
            return None
        return self.check_identifier(node, str(node.value), what)

    def check_identifier(self, node: Node, name: str, what: str) -> Optional[str]:
        if not _IDENT.match(name):
            self.error(node, f"{what} '{name}' is not a valid name; use letters, digits and '_', "
                             f"not starting with a digit (e.g. '{_suggest_ident(name)}')")
            return None
        if name in _RESERVED:
            self.error(node, f"{what} '{name}' is a reserved word in Verilog, C or Python; "
                             f"choose another name (e.g. '{name}_')")
            return None
        return name

    def signature(self, node: Node, what: str) -> Optional[FunctionType]:
        if not isinstance(node, ScalarNode) or not isinstance(self.value(node), str):
            self.error(node, f"{what} must be a signature string, not {self._describe(node)}; "
                             f"e.g. \"(x: i32) -> i32\"")
            return None
        text = str(node.value)
        try:
            return parse_signature(text)
        except TypeSyntaxError as e:
            self.error(self._column_in(node, text, e.column), f"invalid {what}: {e.message}")
            return None

    def _column_in(self, node: ScalarNode, value: str, column: int) -> Location:
        """The file position of 1-based ``column`` of a scalar's value.

        Works for plain, quoted and block scalars, on one line or several: the n-th
        non-blank character of the value is the n-th non-blank character of the scalar's
        source after its opening quote or block header. Falls back to the scalar's start if
        the two disagree (escape sequences)."""
        start, end = node.start_mark.index, node.end_mark.index
        raw = self.text[start:end]
        p = 0
        if node.style in ('"', "'"):
            p = 1
        elif node.style in ("|", ">"):
            p = raw.find("\n") + 1
            if p == 0:
                return self.loc(node)
        c = max(0, min(column - 1, len(value)))
        n = sum(1 for ch in value[:c] if not ch.isspace())
        at_end = not value[c:].strip()
        count = 0
        after_last = p
        found = -1
        while p < len(raw):
            if not raw[p].isspace():
                if count == n and not at_end:
                    found = p
                    break
                count += 1
                after_last = p + 1
                if at_end and count == n:
                    break
            p += 1
        if at_end:
            found = after_last
        elif found < 0 or raw[found] != value[c:].lstrip()[:1]:
            return self.loc(node)
        before = raw[:found]
        nl = before.rfind("\n")
        if nl < 0:
            return Location(self.file, node.start_mark.line + 1, node.start_mark.column + found + 1)
        return Location(self.file, node.start_mark.line + before.count("\n") + 1, found - nl)

    # -- the document ---------------------------------------------------------------------

    def load(self) -> Optional[SystemSpec]:
        deep = too_deep(self.text)
        if deep is not None:
            self.error(Location(self.file, *deep),
                       f"YAML nested more than {MAX_YAML_DEPTH} levels deep; a system description "
                       "needs only a few levels: remove the extra brackets")
            return None
        try:
            root = yaml.compose(self.text, Loader=yaml.SafeLoader)
        except RecursionError:
            self.error(Location(self.file, 1, 1),
                       "YAML nested too deeply to read; a system description needs only a few levels: "
                       "flatten it")
            return None
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            what = e.problem or "syntax error"
            ctx = f" {e.context}" if e.context else ""
            fix = "check the indentation and quoting here"
            if "mapping values are not allowed" in what:
                fix = "a value containing ': ' (like a signature) must be quoted, e.g. f: \"(x: i32) -> i32\""
            elif "'\\t'" in what:
                fix = "YAML does not allow tabs for indentation; use spaces"
            self.error(Location(self.file, line, col), f"YAML syntax error: {what}{ctx}; {fix}")
            return None
        except yaml.reader.ReaderError as e:
            pos = min(e.position, len(self.text))
            line = self.text.count("\n", 0, pos) + 1
            col = pos - self.text.rfind("\n", 0, pos)
            self.error(Location(self.file, line, col),
                       f"character U+{e.character if isinstance(e.character, int) else ord(e.character):04X} "
                       "is not allowed in YAML; delete it (control characters often come from a copy and paste)")
            return None
        except yaml.YAMLError as e:  # pragma: no cover - unmarked errors are rare
            self.error(Location(self.file, 1, 1), f"YAML error: {e}; check the file's syntax")
            return None
        if root is None:
            self.error(Location(self.file, 1, 1),
                       "the file is empty; a system needs at least 'system: <name>' and 'components:'")
            return None
        items = self.mapping(root, "the system description")
        if items is None:
            return None
        self.check_keys(items, _TOP_KEYS, "the system description")
        by_key = {k: (kn, vn) for k, kn, vn in items}

        name: Optional[str] = None
        loc = Location(self.file, 1, 1)
        if "system" in by_key:
            loc = self.loc(by_key["system"][0])
            name = self.get_identifier(by_key["system"][1], "system name", "system: audio")
        else:
            self.error(Location(self.file, 1, 1),
                       "missing required key 'system'; add a line 'system: <name>' at the top")

        board = "pynq-z1"
        if "board" in by_key:
            node = by_key["board"][1]
            if isinstance(node, ScalarNode) and node.tag.endswith(":null"):
                board = "none"
            else:
                board = self.get_choice(node, "board", BOARDS) or board
        if self.board_override is not None:
            board = self.board_override
        self.board_facts = _board_facts(board)

        clock: float = 100
        if "clock_mhz" in by_key:
            node = by_key["clock_mhz"][1]
            v = self.value(node) if isinstance(node, ScalarNode) else None
            if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 1000:
                clock = v
            else:
                self.error(node, f"clock_mhz must be a number of MHz between 0 and 1000, not "
                                 f"{self._describe(node)}; e.g. clock_mhz: 100")
        if board != "none":     # the board's PL clock must make it (pushpush.boards)
            from ..boards import pl_clock_error
            why = pl_clock_error(self.board_facts, float(clock))
            if why:
                where = by_key["clock_mhz"][1] if "clock_mhz" in by_key else loc
                self.error(where, f"{why}; or board: none for simulation only")

        software_windows = "ocm"
        sw_node: Optional[Node] = None
        if "software_windows" in by_key:
            sw_node = by_key["software_windows"][1]
            software_windows = self.get_choice(sw_node, "software_windows",
                                               SOFTWARE_WINDOWS) or software_windows

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
        else:
            self.error(Location(self.file, 1, 1),
                       "missing required key 'components'; add 'components:' with one entry per component")

        c_comps = [c.name for c in components if c.kind == "c"]
        if software_windows == "ddr" and c_comps and sw_node is not None:
            self.error(sw_node, f"software_windows: ddr is not supported with c components yet "
                                f"({', '.join(repr(c) for c in c_comps)}): their runtime maps the "
                                f"windows at regions.ps (/dev/mem on the board), not a pynq.allocate "
                                f"buffer; use software_windows: ocm")

        if name is None:
            return None
        spec = SystemSpec(
            name=name, components=tuple(components), board=board, clock_mhz=clock,
            software_windows=software_windows, interconnect=interconnect, pl=pl, ps=ps, file=self.file, base_dir=self.base_dir,
            loc=loc, components_loc=components_loc, region_locs=region_locs,
        )
        self.diags.extend(check_references(spec, self.declared))
        return spec

    def interconnect(self, node: Node) -> Interconnect:
        items = self.mapping(node, "'interconnect'")
        if items is None:
            return Interconnect()
        self.check_keys(items, _INTERCONNECT_KEYS, "'interconnect'")
        out = Interconnect()
        for key, _, vnode in items:
            if key == "topology":
                topology = self.get_choice(vnode, "interconnect topology", TOPOLOGIES)
                out = Interconnect(topology or out.topology, out.data_width, out.arbitration)
            elif key == "data_width":
                width = self.get_choice(vnode, "interconnect data_width", DATA_WIDTHS)
                out = Interconnect(out.topology, width or out.data_width, out.arbitration)
            elif key == "arbitration":
                arb = self.get_choice(vnode, "interconnect arbitration", ARBITRATIONS)
                out = Interconnect(out.topology, out.data_width, arb or out.arbitration)
        return out

    def regions(self, node: Node, locs: dict[str, Location]) -> tuple[Region, Region]:
        result = {"pl": Region(*self.board_facts.default_pl), "ps": DEFAULT_PS}
        items = self.mapping(node, "'regions'", item="region")
        if items is None:
            return result["pl"], result["ps"]
        self.check_keys(items, _REGION_NAMES, "'regions'")
        for rname, rkey, rnode in items:
            if rname not in result:
                continue
            locs[rname] = self.loc(rkey)
            ritems = self.mapping(rnode, f"region '{rname}'")
            if ritems is None:
                continue
            self.check_keys(ritems, _REGION_KEYS, f"region '{rname}'")
            base, size = result[rname].base, result[rname].size
            ok = True
            for key, knode, vnode in ritems:
                if key not in _REGION_KEYS:
                    continue
                locs[f"{rname}.{key}"] = self.loc(vnode)
                v = self.get_int(vnode, f"regions.{rname}.{key}", f"{key}: 0x{result[rname].base if key == 'base' else result[rname].size:08X}"
                                 , minimum=0 if key == "base" else MIN_WINDOW)
                if v is None:
                    ok = False
                elif v % MIN_WINDOW:
                    self.error(vnode, f"regions.{rname}.{key} 0x{v:X} is not a multiple of 4096 "
                                      f"(0x1000); e.g. 0x{v - v % MIN_WINDOW:X}")
                    ok = False
                elif key == "base":
                    base = v
                else:
                    size = v
            if not ok:
                continue
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
        items = self.mapping(node, what)
        if items is None:
            return None
        self.check_keys(items, _COMPONENT_KEYS, what)
        by_key = {k: (kn, vn) for k, kn, vn in items}
        cloc = self.loc(name_node)

        kind: Optional[str] = None
        if "kind" not in by_key:
            self.error(name_node, f"{what} has no 'kind'; add 'kind: rtl', 'kind: python' or 'kind: c'")
        else:
            kind = self.get_choice(by_key["kind"][1], f"kind of {what}", KINDS)

        if kind is not None:
            # every key whose field is not for this kind (riscv shares sources with rtl and
            # runtime_words with software; memory is its own)
            forbidden = tuple(f.name for f in _COMPONENT.fields if f.kinds is not None and kind not in f.kinds)
            for key in forbidden:
                if key in by_key:
                    if kind == "riscv":
                        why = ("a riscv component is C on a soft core: it has sources and memory, no "
                               "Verilog module, burst settings, DMA streams or wait mode")
                        fix = "remove it"
                    elif key == "memory":
                        why = "only riscv components have a soft core's memory"
                        fix = "remove it or use 'kind: riscv'"
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

        module: Optional[str] = None
        sources: list[Path] = []
        source_locs: list[Location] = []
        if kind == "rtl":
            if "module" not in by_key:
                self.error(name_node, f"rtl {what} has no 'module'; add 'module: <Verilog module name>'")
            else:
                mnode = by_key["module"][1]
                if isinstance(mnode, ScalarNode) and isinstance(self.value(mnode), str) \
                        and _VERILOG_IDENT.match(mnode.value) and mnode.value not in _VERILOG_KEYWORDS:
                    module = mnode.value
                else:
                    self.error(mnode, f"module of {what} must be a Verilog module name, not "
                                      f"{self._describe(mnode)}; e.g. module: fir_core")
            if "sources" not in by_key:
                self.error(name_node, f"rtl {what} has no 'sources'; list the Verilog files that "
                                      f"define its module, e.g. sources: [rtl/{module or name}.v]")
            else:
                sources, source_locs = self.sources(by_key["sources"][1], what)
        memory, memory_loc = 0, None
        if kind == "riscv":
            if "sources" not in by_key:
                self.error(name_node, f"riscv {what} has no 'sources'; list the C files of its "
                                      f"program, e.g. sources: [c/{name}.c]")
            else:
                sources, source_locs = self.sources(by_key["sources"][1], what)
            memory = RISCV_MEMORY_DEFAULT
            if "memory" in by_key:
                memory_loc = self.loc(by_key["memory"][1])
                memory = self.memory(by_key["memory"][1], what) or memory

        exports: list[ExportSpec] = []
        if "exports" in by_key and not _is_null(by_key["exports"][1]):
            exports = self.exports(by_key["exports"][1], name)
        imports: list[ImportSpec] = []
        if "imports" in by_key and not _is_null(by_key["imports"][1]):
            imports = self.imports(by_key["imports"][1], name)

        window: Optional[int] = None
        window_loc: Optional[Location] = None
        if "window" in by_key:
            wnode = by_key["window"][1]
            window_loc = self.loc(wnode)
            window = self.get_int(wnode, f"window of {what}", "window: 0x1000", minimum=0,
                                  maximum=MAX_WINDOW)
            if window is not None and (not _is_pow2(window) or window < MIN_WINDOW):
                lower = max(MIN_WINDOW, _next_pow2(window) // 2 if window else 0)
                upper = max(MIN_WINDOW, _next_pow2(window))
                sugg = f"0x{upper:X}" if lower == upper else f"0x{lower:X} or 0x{upper:X}"
                self.error(wnode, f"window of {what} must be a power of two of at least 4096 "
                                  f"(0x1000) bytes, not {window} (0x{window:X}); use {sugg}")
                window = None

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

        has_runtime = kind in SOFTWARE_KINDS or kind == "riscv"
        runtime_words = DEFAULT_RUNTIME_WORDS if has_runtime else 0
        if "runtime_words" in by_key and has_runtime:
            rw = self.get_int(by_key["runtime_words"][1], f"runtime_words of {what}",
                              "runtime_words: 256", minimum=0, maximum=MAX_RUNTIME_WORDS)
            runtime_words = rw if rw is not None else runtime_words

        wait = DEFAULT_WAIT if kind in SOFTWARE_KINDS else ""
        if "wait" in by_key and kind in SOFTWARE_KINDS:
            w = self.get_choice(by_key["wait"][1], f"wait of {what}", WAIT_MODES)
            wait = w if w is not None else wait

        if ok_name is None or kind is None:
            return None
        return ComponentSpec(
            name=name, kind=kind, module=module, sources=tuple(sources), exports=tuple(exports),
            imports=tuple(imports), window=window, abe=abe, dma=dma, channels=tuple(channels),
            runtime_words=runtime_words,
            wait=wait, loc=cloc, window_loc=window_loc, source_locs=tuple(source_locs),
            memory=memory, memory_loc=memory_loc,
        )

    def memory(self, node: Node, what: str) -> Optional[int]:
        """A riscv component's memory: bytes (4096, 0x4000) or "<n>KiB", a power of two."""
        value = self.value(node) if isinstance(node, ScalarNode) else None
        n: Optional[int] = None
        if isinstance(value, str) and re.fullmatch(r"[0-9]+ ?KiB", value.strip()):
            n = int(value.strip()[:-3]) * 1024
        else:
            n = self.get_int(node, f"memory of {what}", "memory: 16KiB", minimum=0)
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
            sig_node: Optional[Node] = vnode
            dynamic = DEFAULT_DYNAMIC_SLOTS
            if isinstance(vnode, MappingNode):
                what = f"export '{comp}.{fname}'"
                eitems = self.mapping(vnode, what) or []
                self.check_keys(eitems, _EXPORT_KEYS, what)
                ekeys = {k: v for k, _, v in eitems}
                sig_node = ekeys.get("signature")
                if sig_node is None:
                    self.error(vnode, f"{what} has no 'signature'; add e.g. signature: \"(x: i32) -> i32\"")
                if "dynamic_slots" in ekeys:
                    d = self.get_int(ekeys["dynamic_slots"], f"dynamic_slots of {what}",
                                     "dynamic_slots: 1", minimum=0, maximum=MAX_DYNAMIC_SLOTS)
                    dynamic = d if d is not None else dynamic
            sig = self.signature(sig_node, f"signature of export '{comp}.{fname}'") if sig_node else None
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
        n = self.get_int(node, f"channels of {what}", example, minimum=1)
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
        items = self.mapping(node, f"abe of {what}")
        if items is None:
            return None
        self.check_keys(items, _ABE_KEYS, f"abe of {what}")
        by_key = {k: v for k, _, v in items}
        values: dict[str, Optional[int]] = {}
        for key, example in (("nominal_burst", "nominal_burst: 16"), ("max_outstanding", "max_outstanding: 4")):
            if key not in by_key:
                self.error(node, f"abe of {what} has no '{key}'; add e.g. {example}")
                values[key] = None
                continue
            values[key] = self.get_int(by_key[key], f"abe.{key} of {what}", example, minimum=1)
        nb = values["nominal_burst"]
        if nb is not None and nb > MAX_BURST:
            self.error(by_key["nominal_burst"], f"abe.nominal_burst of {what} is {nb} but AXI4 "
                                                f"bursts have at most {MAX_BURST} beats; use at most {MAX_BURST}")
            nb = None
        mo = values["max_outstanding"]
        if nb is None or mo is None:
            return None
        return Abe(nb, mo)


    def dma(self, key_node: Node, node: Node, what: str) -> Optional[Dma]:
        """``dma: {name: axi_dma_0, data_width: 32, max_burst: 16}`` (every key optional;
        ``dma: {}`` or ``dma:`` alone takes the defaults)."""
        if _is_null(node):
            return Dma(loc=self.loc(key_node))
        items = self.mapping(node, f"dma of {what}")
        if items is None:
            return None
        self.check_keys(items, _DMA_KEYS, f"dma of {what}")
        by_key = {k: v for k, _, v in items}
        name: Optional[str] = DMA_DEFAULT_NAME
        if "name" in by_key:
            name = self.get_identifier(by_key["name"], f"dma name of {what}", "name: axi_dma_0")
        width = DMA_DATA_WIDTHS[0]
        if "data_width" in by_key:
            width = self.get_choice(by_key["data_width"], f"dma.data_width of {what}", DMA_DATA_WIDTHS)
        burst = DMA_DEFAULT_BURST
        if "max_burst" in by_key:
            burst = self.get_choice(by_key["max_burst"], f"dma.max_burst of {what}", DMA_MAX_BURSTS)
        if name is None or width is None or burst is None:
            return None
        return Dma(name, int(width), int(burst), loc=self.loc(key_node))


def _is_null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag.endswith(":null")


def _suggest_ident(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not s or s[0].isdigit():
        s = "_" + s
    return s
