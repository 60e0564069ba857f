"""Linker and system map: layouts, addresses, errors, determinism, round trips."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pushpush.errors import LinkError, SpecError, SystemMapError
from pushpush.link import WORD_BYTES, LinkedSystem, link, window_size_for
from pushpush.spec import ComponentSpec, ExportSpec, ImportSpec, Region, SystemSpec, load_system
from pushpush.sysmap import SCHEMA, SCHEMA_VERSION, from_json, to_dict, to_json
from pushpush.types import parse_signature

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def linked_example(name: str) -> LinkedSystem:
    return link(load_system(EXAMPLES / name / "system.yaml"))


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "system.yaml"
    p.write_text(textwrap.dedent(text))
    return p


def link_errors(tmp_path: Path, text: str) -> list[str]:
    spec = load_system(write(tmp_path, text))
    with pytest.raises(LinkError) as info:
        link(spec)
    return [str(d) for d in info.value.diagnostics]


# --------------------------------------------------------------------------- examples


def test_pingpong_layout() -> None:
    sys_ = linked_example("pingpong")
    caller, callee, host = sys_.components
    assert [c.name for c in sys_.components] == ["caller", "callee", "host"]
    # all windows 4 KiB; rtl first-fit in declaration order, python in the OCM
    assert (caller.base, caller.size) == (0x43C00000, 0x1000)
    assert (callee.base, callee.size) == (0x43C01000, 0x1000)
    assert (host.base, host.size) == (0xFFFC0000, 0x1000)

    # callee: static slot per importer (caller, host in declaration order), one dynamic slot
    assert [(s.index, s.kind, s.function, s.importer, s.offset, s.words, s.trigger_offset)
            for s in callee.slots] == [
        (0, "cep_static", "f", "caller", 0, 2, 1),
        (1, "cep_static", "f", "host", 2, 2, 3),
        (2, "cep_dynamic", "f", None, 4, 2, 5),
    ]
    assert callee.slot_first == (0, 2, 4) and callee.slot_trig == (1, 3, 5)
    assert [hex(s.address) for s in callee.slots] == ["0x43c01000", "0x43c01008", "0x43c01010"]
    assert [hex(s.trigger_address) for s in callee.slots] == ["0x43c01004", "0x43c0100c", "0x43c01014"]
    f = callee.export("f")
    assert f.importers == ("caller", "host") and f.static_slots == (0, 1) and f.dynamic_slots == (2,)

    # caller: the cep slots of its export run (host's static one, one dynamic), then one rep
    # for its import; it writes its own static slot in callee's window
    assert [(s.kind, s.function, s.importer, s.offset, s.words) for s in caller.slots] == [
        ("cep_static", "run", "host", 0, 2), ("cep_dynamic", "run", None, 2, 2),
        ("rep_import", "callee.f", None, 4, 2)]
    imp = caller.import_("callee.f")
    assert (imp.cep_slot, imp.cep_address, imp.cep_trigger_address) == (0, 0x43C01000, 0x43C01004)
    assert (imp.rep_slot, imp.rep_address, imp.rep_trigger_address) == (2, 0x43C00010, 0x43C00014)

    hi = host.import_("callee.f")
    assert (hi.cep_slot, hi.cep_address, hi.rep_address) == (1, 0x43C01008, 0xFFFC0000)
    hr = host.import_("caller.run")
    assert (hr.cep_slot, hr.cep_address, hr.rep_address) == (0, 0x43C00000, 0xFFFC0008)
    assert host.slot_words == 4 and host.runtime_words == 256
    assert host.runtime_offset == 4 and host.runtime_address == 0xFFFC0010


def test_audio_fir_layout() -> None:
    sys_ = linked_example("audio_fir")
    fir, host = sys_.components
    assert (fir.base, fir.size, host.base, host.size) == (0x43C00000, 0x1000, 0xFFFC0000, 0x1000)
    # cep of fir: 4 argument words + trigger; reps of the callbacks: result words + status
    assert [(s.index, s.kind, s.importer, s.param, s.offset, s.words) for s in fir.slots] == [
        (0, "cep_static", "host", None, 0, 5),
        (1, "cep_dynamic", None, None, 5, 5),
        (2, "rep_callback", None, "coeff", 10, 2),
        (3, "rep_callback", None, "src", 12, 2),
        (4, "rep_callback", None, "sink", 14, 1),
    ]
    assert fir.slot_trig == (4, 9, 11, 13, 14)
    cbs = fir.export("fir").callbacks
    assert [(c.param, c.param_index, c.rep_slot, hex(c.rep_address)) for c in cbs] == [
        ("coeff", 0, 2, "0x43c00028"), ("src", 1, 3, "0x43c00030"), ("sink", 2, 4, "0x43c00038")]
    assert cbs[0].signature == parse_signature("(u32) -> i32")
    # host: one dynamic cep per export, then the rep of its import, then the run-time area
    assert [(s.kind, s.function, s.offset, s.words) for s in host.slots] == [
        ("cep_dynamic", "coeff", 0, 2), ("cep_dynamic", "source", 2, 1),
        ("cep_dynamic", "sink", 3, 2), ("rep_import", "fir.fir", 5, 1)]
    imp = host.import_("fir.fir")
    assert (imp.cep_address, imp.cep_trigger_address, imp.rep_address) == (0x43C00000, 0x43C00010, 0xFFFC0014)
    assert host.runtime_offset == 6


def test_locate() -> None:
    sys_ = linked_example("pingpong")
    comp, slot = sys_.locate(0x43C0100C)
    assert comp.name == "callee" and slot is not None and slot.index == 1
    assert sys_.locate(0xFFFC0100)[1] is None  # run-time area
    assert sys_.locate(0x1000) is None


def test_self_import(tmp_path: Path) -> None:
    sys_ = link(load_system(write(tmp_path, """\
        system: selfish
        components:
          a:
            kind: rtl
            module: a
            sources: [a.v]
            exports: {f: "(u32) -> u32"}
            imports: [a.f]
        """)))
    (a,) = sys_.components
    assert [(s.kind, s.importer) for s in a.slots] == [("cep_static", "a"), ("cep_dynamic", None), ("rep_import", None)]
    assert a.imports[0].cep_address == a.base and a.imports[0].rep_address == a.base + 16


def test_window_grows_and_aligns(tmp_path: Path) -> None:
    sys_ = link(load_system(write(tmp_path, """\
        system: big
        components:
          tiny:
            kind: rtl
            module: s
            sources: [s.v]
            exports: {f: "() -> void"}
          big:
            kind: rtl
            module: b
            sources: [b.v]
            exports: {g: {signature: "(x: i64, y: i64) -> i64", dynamic_slots: 300}}
          sw:
            kind: c
            runtime_words: 2000
        """)))
    tiny, big, sw = sys_.components
    assert big.words_used == 300 * 5 and big.size == 0x2000  # 6000 bytes -> 8 KiB
    assert big.base == 0x43C00000 and tiny.base == 0x43C02000  # largest first
    assert tiny.size == 0x1000
    assert sw.size == 0x2000 and sw.base == 0xFFFC0000
    assert window_size_for(0) == 4096 and window_size_for(1024) == 4096 and window_size_for(1025) == 8192


@pytest.mark.parametrize("base", [0x43C01000, 0x43C03000])
def test_first_fit_uses_alignment_gap(tmp_path: Path, base: int) -> None:
    # a is placed size-aligned at 0x43C04000; b first fits in the gap before it, also when
    # the gap ends exactly where a begins (touching is not overlapping)
    sys_ = link(load_system(write(tmp_path, f"""\
        system: gap
        regions: {{pl: {{base: 0x{base:08X}, size: 0x10000}}}}
        components:
          a: {{kind: rtl, module: a, sources: [a.v], window: 0x4000}}
          b: {{kind: rtl, module: b, sources: [b.v]}}
        """)))
    a, b = sys_.components
    assert a.base == 0x43C04000
    assert b.base == base


def test_first_fit_moves_a_window_again_past_one_it_checked_before(tmp_path: Path) -> None:
    # largest first: a (16 KiB) at 0x43C04000, b (8 KiB) at 0x43C02000, c at 0x43C01000;
    # d starts at 0x43C01000, moves past c into b, past b into a, past a: 0x43C08000
    sys_ = link(load_system(write(tmp_path, """\
        system: gap
        regions: {pl: {base: 0x43C01000, size: 0x10000}}
        components:
          a: {kind: rtl, module: a, sources: [a.v], window: 0x4000}
          b: {kind: rtl, module: b, sources: [b.v], window: 0x2000}
          c: {kind: rtl, module: c, sources: [c.v]}
          d: {kind: rtl, module: d, sources: [d.v]}
        """)))
    got = {c.name: (c.base, c.end) for c in sys_.components}
    assert got == {"a": (0x43C04000, 0x43C08000), "b": (0x43C02000, 0x43C04000),
                   "c": (0x43C01000, 0x43C02000), "d": (0x43C08000, 0x43C09000)}


def test_window_too_small(tmp_path: Path) -> None:
    assert link_errors(tmp_path, """\
        system: tight
        components:
          a:
            kind: rtl
            module: a
            sources: [a.v]
            window: 4096
            exports: {f: {signature: "(u32, u32, u32) -> u32", dynamic_slots: 300}}
        """) == [f"{tmp_path / 'system.yaml'}:7:13: window of component 'a' is 4096 (0x1000) bytes but its "
                 "slots need 1200 words (4800 bytes); set window to at least 0x2000 or remove it"]


def test_software_window_too_small_counts_runtime_area(tmp_path: Path) -> None:
    assert link_errors(tmp_path, """\
        system: tight
        components:
          h: {kind: python, window: 0x1000, runtime_words: 1024, exports: {f: "() -> void"}}
        """) == [f"{tmp_path / 'system.yaml'}:3:29: window of component 'h' is 4096 (0x1000) bytes but its "
                 "slots and run-time area need 1025 words (4100 bytes); set window to at least 0x2000 "
                 "or remove it"]


@pytest.mark.parametrize("regions,components,at,region,kinds,listing,need", [
    # the ps region given with a size: the message points at its size
    ("regions:\n  ps: {base: 0xFFFC0000, size: 0x2000}\n",
     "  a: {kind: python}\n  b: {kind: c, window: 0x2000}\n  r: {kind: rtl, module: r, sources: [r.v]}\n",
     "3:32", "'ps' (base 0xFFFC0000, size 0x2000)", "python and c", "'a' 0x1000, 'b' 0x2000", "0x3000"),
    # the default ps region: at the components
    ("", "  a: {kind: python, window: 0x10000}\n  b: {kind: c}\n",
     "2:1", "'ps' (base 0xFFFC0000, size 0x10000)", "python and c", "'a' 0x10000, 'b' 0x1000", "0x11000"),
    # the pl region: its rtl windows
    ("regions:\n  pl: {base: 0x43C00000, size: 0x1000}\n",
     "  a: {kind: rtl, module: a, sources: [a.v]}\n  b: {kind: rtl, module: b, sources: [b.v]}\n",
     "3:32", "'pl' (base 0x43C00000, size 0x1000)", "rtl", "'a' 0x1000, 'b' 0x1000", "0x2000"),
    # a region given without a size (its default, 4 MiB): at the region's own line; the
    # 8 MiB window is placed size-aligned, at 0x44000000
    ("regions:\n  pl: {base: 0x43C00000}\n", "  a: {kind: rtl, module: a, sources: [a.v], window: 0x800000}\n",
     "3:3", "'pl' (base 0x43C00000, size 0x400000)", "rtl", "'a' 0x800000", "0xC00000"),
], ids=["ps-size", "ps-default", "pl-size", "pl-no-size"])
def test_region_too_small(tmp_path: Path, regions: str, components: str, at: str, region: str, kinds: str,
                          listing: str, need: str) -> None:
    name = region.split("'")[1]
    assert link_errors(tmp_path, "system: crowded\n" + regions + "components:\n" + components) == [
        f"{tmp_path / 'system.yaml'}:{at}: region {region} is too small for the {kinds} windows ({listing}): "
        f"they need {need} bytes from its base; set regions.{name}.size to at least {need} or make the "
        "windows smaller"]


def test_a_window_exactly_as_large_as_its_slots_and_run_time_area(tmp_path: Path) -> None:
    sys_ = link(load_system(write(tmp_path, """\
        system: exact
        components:
          h: {kind: python, window: 0x1000, runtime_words: 1023, exports: {f: "() -> void"}}
        """)))
    (h,) = sys_.components
    assert h.size == 0x1000 and h.slot_words + h.runtime_words == 1024


def test_unaligned_region_built_in_code_keeps_windows_inside_it() -> None:
    # the YAML refuses such a base; a model built in code may have one: the window still
    # starts at the first 4 KiB boundary inside the region, never below it
    spec = SystemSpec(name="s", file="s.yaml", pl=Region(0x43C00001, 0x10000),
                      components=(ComponentSpec("r", "rtl", module="r"),))
    (r,) = link(spec).components
    assert r.base == 0x43C01000


def test_rtl_component_built_in_code_gets_no_run_time_area() -> None:
    # ComponentSpec's runtime_words default (256) applies to software; an rtl component's
    # window holds its slots only: 1,000 words fit 4 KiB
    sig = parse_signature("(x: u32) -> u32")
    spec = SystemSpec(name="s", file="s.yaml", components=(
        ComponentSpec("r", "rtl", module="r", exports=(ExportSpec("f", sig, dynamic_slots=500),)),))
    (r,) = link(spec).components
    assert r.runtime_words == 0 and r.words_used == 1000 and r.size == 0x1000


def test_reply_timeout_is_an_rtl_callers_own(tmp_path: Path) -> None:
    from pushpush.spec.fields import DEFAULT_REPLY_TIMEOUT

    s = link(load_system(write(tmp_path, """\
        system: t
        components:
          r: {kind: rtl, module: r, sources: [r.v], reply_timeout: 500}
          host: {kind: python}
        """)))
    assert (s.component("r").reply_timeout, s.component("host").reply_timeout) == (500, DEFAULT_REPLY_TIMEOUT)
    # a model built in code may give software one: the linked component has the default
    built = link(SystemSpec(name="s", file="s.yaml", components=(
        ComponentSpec("h", "python", reply_timeout=500), ComponentSpec("r", "rtl", module="r", reply_timeout=500))))
    assert (built.component("r").reply_timeout, built.component("h").reply_timeout) == (500, DEFAULT_REPLY_TIMEOUT)


def test_callback_slots_of_an_rtl_export_carry_its_name() -> None:
    linked = linked_example("audio_fir")
    fir = linked.component("fir")
    cbs = [s for s in fir.slots if s.kind.value == "rep_callback"]
    assert cbs and all(s.function == "fir" for s in cbs)
    assert {s.param for s in cbs} >= {"coeff"}


DDR = """\
    system: dw
    software_windows: ddr
    regions:
      pl: {base: 0x43C00000, size: 0x2000}
    components:
      r: {kind: rtl, module: r, sources: [r.v]}
      s: {kind: rtl, module: s, sources: [s.v], exports: {f: "() -> u32"}}
      host: {kind: python, imports: [s.f]}
    """


def test_ddr_windows_get_a_register_block_after_the_rtl_windows(tmp_path: Path) -> None:
    linked = link(load_system(write(tmp_path, DDR.replace("size: 0x2000", "size: 0x4000"))))
    assert linked.software_windows == "ddr"
    assert linked.ps_window_register == max(c.end for c in linked.components if c.kind == "rtl")
    data = to_dict(linked)
    assert data["software_windows"] == {"memory": "ddr",
                                        "base_register": f"0x{linked.ps_window_register:08X}"}
    assert from_json(to_json(linked)) == linked
    # ocm (the default) keeps the map as it was: no software_windows entry
    ocm = link(load_system(write(tmp_path, DDR.replace("    software_windows: ddr\n", "")
                                  .replace("size: 0x2000", "size: 0x4000"))))
    assert ocm.software_windows == "ocm" and ocm.ps_window_register is None
    assert "software_windows" not in to_dict(ocm)


def test_ddr_windows_register_block_must_fit_the_pl_region(tmp_path: Path) -> None:
    assert link_errors(tmp_path, DDR) == [
        f"{tmp_path / 'system.yaml'}:4:32: software_windows: ddr needs a 4 KiB register block "
        "after the last rtl window (at 0x43C02000), but region 'pl' ends at 0x43C02000; set "
        "regions.pl.size to at least 0x3000"]


def test_software_windows_value_is_checked(tmp_path: Path) -> None:
    path = write(tmp_path, DDR.replace("software_windows: ddr", "software_windows: dram"))
    with pytest.raises(SpecError) as info:
        load_system(path)
    assert str(info.value.diagnostics[0]) == (
        f"{path}:2:19: software_windows must be one of ocm, ddr, not 'dram'; write one of "
        "them, e.g. ocm")


def test_ddr_windows_refuse_c_components(tmp_path: Path) -> None:
    path = write(tmp_path, DDR.rstrip(" ") + "      cc: {kind: c}\n")
    with pytest.raises(SpecError) as info:
        load_system(path)
    assert str(info.value.diagnostics[0]) == (
        f"{path}:2:19: software_windows: ddr is not supported with c components yet ('cc'): "
        "their runtime maps the windows at regions.ps (/dev/mem on the board), not a "
        "pynq.allocate buffer; use software_windows: ocm")


def test_link_rechecks_references_for_models_built_in_code() -> None:
    sig = parse_signature("() -> void")
    spec = SystemSpec(name="s", file="s.yaml", components=(
        ComponentSpec("a", "python", imports=(ImportSpec("b", "f"),)),
        ComponentSpec("b", "c", exports=(ExportSpec("g", sig),)),
    ))
    with pytest.raises(LinkError) as info:
        link(spec)
    assert str(info.value) == "s.yaml:1:1: import 'b.f' names no export; 'b' exports: g"
    assert isinstance(info.value, SpecError)


# --------------------------------------------------------------------------- system map


@pytest.mark.parametrize("name", ["pingpong", "audio_fir"])
def test_map_is_deterministic_and_round_trips(name: str) -> None:
    a = to_json(linked_example(name))
    b = to_json(linked_example(name))
    assert a == b
    assert str(EXAMPLES) not in a  # no absolute paths
    back = from_json(a)
    assert back == linked_example(name)
    assert to_json(back) == a


def test_map_header_and_sources() -> None:
    data = json.loads(to_json(linked_example("pingpong")))
    assert data["schema"] == SCHEMA == "pushpush.system-map"
    assert data["version"] == SCHEMA_VERSION == 1
    assert data["generator"].startswith("pushpush ")
    assert data["source"] == "system.yaml"
    assert data["components"][0]["sources"] == ["rtl/pingpong_caller.v"]
    assert data["components"][1]["window"] == {"base": "0x43C01000", "size": "0x00001000", "end": "0x43C02000"}
    assert data == to_dict(linked_example("pingpong"))


def test_source_paths_resolve_against_base_dir(tmp_path: Path) -> None:
    text = to_json(linked_example("pingpong"))
    back = from_json(text, base_dir=tmp_path)
    assert back.source_paths("caller") == [tmp_path / "rtl" / "pingpong_caller.v"]
    orig = linked_example("pingpong")
    assert orig.source_paths("callee") == [EXAMPLES / "pingpong" / "rtl" / "pingpong_callee.v"]


def test_map_json_is_the_same_from_another_directory(tmp_path: Path) -> None:
    src = (EXAMPLES / "audio_fir" / "system.yaml").read_text()
    (tmp_path / "elsewhere").mkdir()
    p = tmp_path / "elsewhere" / "system.yaml"
    p.write_text(src)
    assert to_json(link(load_system(p))) == to_json(linked_example("audio_fir"))


@pytest.mark.parametrize("text,message", [
    ("[1]", "not a pushpush system map"),
    ("{nope", "not JSON"),
    ('{"schema": "pushpush.system-map", "version": 99}', "system map version 99 is not supported"),
    ('{"schema": "pushpush.system-map", "version": 1}', "malformed system map: KeyError"),
])
def test_from_json_rejects(text: str, message: str) -> None:
    with pytest.raises(SystemMapError, match=message):
        from_json(text)


# --------------------------------------------------------------------------- property test

SIGS = ["() -> void", "(x: i32) -> i32", "(a: i64, b: f64) -> f64", "(cb: (u32) -> i32, n: u32) -> void",
        "(f: (i32) -> void, g: () -> i64) -> (u8) -> bool", "(u8, u16, u32, i8, i16, i32, f32, bool) -> u64"]


@st.composite
def systems(draw: st.DrawFn) -> SystemSpec:
    n = draw(st.integers(1, 8))
    kinds = [draw(st.sampled_from(["rtl", "python", "c"])) for _ in range(n)]
    exports = []
    for i in range(n):
        k = draw(st.integers(0, 3))
        exports.append([ExportSpec(f"f{j}", parse_signature(draw(st.sampled_from(SIGS))),
                                   draw(st.integers(0, 40))) for j in range(k)])
    targets = [(f"c{i}", e.name) for i in range(n) for e in exports[i]]
    imports = [draw(st.lists(st.sampled_from(targets), unique=True, max_size=4)) if targets else []
               for _ in range(n)]
    imported = {t for imps in imports for t in imps}
    # an export nobody imports needs a dynamic slot (else it is an error)
    exports = [[e if e.dynamic_slots or (f"c{i}", e.name) in imported else ExportSpec(e.name, e.signature, 1)
                for e in exports[i]] for i in range(n)]
    comps = []
    for i in range(n):
        imps = imports[i]
        window = draw(st.sampled_from([None, None, 0x8000, 0x10000]))  # always large enough
        comps.append(ComponentSpec(
            f"c{i}", kinds[i], module=f"m{i}" if kinds[i] == "rtl" else None, exports=tuple(exports[i]),
            imports=tuple(ImportSpec(c, f) for c, f in imps), window=window,
            runtime_words=draw(st.integers(0, 3000)) if kinds[i] != "rtl" else 0))
    pl = Region(draw(st.sampled_from([0x40000000, 0x43C00000, 0x43C03000])), 0x100000)
    ps = Region(draw(st.sampled_from([0xFFF00000, 0xFFF01000])), 0x100000)
    return SystemSpec(name="rand", components=tuple(comps), pl=pl, ps=ps, file="rand.yaml")


# PUSHPUSH_HYPOTHESIS_EXAMPLES: fewer in mutation runs (scripts/mutation), more for a long search
@settings(max_examples=int(os.environ.get("PUSHPUSH_HYPOTHESIS_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(systems())
def test_random_systems_link_consistently(spec: SystemSpec) -> None:
    linked = link(spec)
    windows = []
    for c, cs in zip(linked.components, spec.components):
        region = linked.pl if cs.kind == "rtl" else linked.ps
        assert c.size >= 4096 and c.size & (c.size - 1) == 0
        assert c.base % c.size == 0
        assert region.contains(c.base, c.size)
        assert c.words_used * WORD_BYTES <= c.size
        if cs.window is None:
            assert c.size == window_size_for(c.words_used)
        else:
            assert c.size == cs.window
        windows.append((c.base, c.end))
        # slots contiguous, indexed in window order, sized by their signature
        offset = 0
        for i, s in enumerate(c.slots):
            assert s.index == i and s.offset == offset
            assert s.words == (s.signature.cep_words if s.is_cep else s.signature.rep_words)
            assert s.address == c.base + WORD_BYTES * s.offset
            assert s.trigger_address == c.base + WORD_BYTES * s.trigger_offset
            offset += s.words
        assert offset == c.slot_words
        order = {"cep_static": 0, "cep_dynamic": 0, "rep_import": 1, "rep_callback": 2}
        assert [order[s.kind] for s in c.slots] == sorted(order[s.kind] for s in c.slots)
        if c.is_software:
            assert not any(s.kind == "rep_callback" for s in c.slots)
        # every import writes its own static slot in the callee and gets a rep here
        for imp in c.imports:
            callee = linked.component(imp.component)
            cep = callee.slots[imp.cep_slot]
            assert cep.kind == "cep_static" and cep.importer == c.name and cep.function == imp.function
            assert imp.cep_address == cep.address and imp.cep_trigger_address == cep.trigger_address
            rep = c.slots[imp.rep_slot]
            assert rep.kind == "rep_import" and rep.function == imp.target
            assert imp.rep_address == rep.address and rep.words == cep.signature.rep_words
    windows.sort()
    for (lo1, hi1), (lo2, hi2) in zip(windows, windows[1:]):
        assert hi1 <= lo2
    text = to_json(linked)
    assert from_json(text) == linked
    assert to_json(from_json(text)) == text


def test_documented_example_is_current() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "system-map.md").read_text()
    block = doc.split("```json\n", 1)[1].split("```", 1)[0]
    assert block == to_json(linked_example("pingpong")), "regenerate the example in docs/system-map.md"


def test_from_json_rejects_inconsistent_derived_fields() -> None:
    data = to_dict(linked_example("pingpong"))
    data["components"][1]["slots"][0]["trigger_address"] = "0x43C01008"
    with pytest.raises(SystemMapError, match="component 'callee': inconsistent slot 0 trigger"):
        from_json(json.dumps(data))


def test_the_linker_places_the_irq_page_and_the_register_page_and_the_model_stores_them(tmp_path: Path) -> None:
    """Placement is the linker's (pushpush.link.linker): the ddr register page follows the
    last rtl window, the irq page is the first free page after both; the model holds them
    as values and the system map gives them back."""
    import dataclasses
    linked = link(load_system(write(tmp_path, DDR.replace("size: 0x2000", "size: 0x4000"))))
    names = {f.name for f in dataclasses.fields(linked)}
    assert {"irq", "ps_window_register"} <= names
    reg = linked.ps_window_register
    assert reg is not None and linked.irq is not None
    used = [(c.base, c.end) for c in linked.components if c.kind == "rtl"] + [(reg, reg + 0x1000)]
    assert all(not (lo < linked.irq.base + 0x1000 and linked.irq.base < hi) for lo, hi in used)
    assert linked.irq.base == linked.pl.base + 0x3000 and linked.irq.components == ("host",)
    back = from_json(to_json(linked))
    assert (back.irq, back.ps_window_register) == (linked.irq, reg)


# ------------------------------------------------------------ the linked model's accessors
# (issue 35: mutants of these survived; each test states what a caller of the model sees)


def test_load_applies_board_and_interconnect_overrides() -> None:
    from pushpush.link import load

    path = EXAMPLES / "pingpong" / "system.yaml"
    plain = load(path)
    assert plain == linked_example("pingpong") and plain.interconnect.topology == "crossbar"
    shared = load(str(path), {"topology": "shared", "arbitration": "fair"})
    assert (shared.interconnect.topology, shared.interconnect.arbitration) == ("shared", "fair")
    assert shared.components == plain.components
    other = load(path, board="zcu104")
    assert other.board == "zcu104" and plain.board != "zcu104"


def test_with_interconnect_checks_each_setting() -> None:
    linked = linked_example("pingpong")
    assert linked.with_interconnect() is linked
    wide = linked.with_interconnect(data_width=64, topology="shared")
    assert (wide.interconnect.data_width, wide.interconnect.topology) == (64, "shared")
    assert wide.interconnect.arbitration == linked.interconnect.arbitration and wide.components == linked.components
    assert linked.with_interconnect(arbitration="fair").interconnect.arbitration == "fair"
    with pytest.raises(ValueError) as info:
        linked.with_interconnect(topolgy="shared")
    assert str(info.value) == ("interconnect has no setting 'topolgy'; did you mean 'topology'?; settings: "
                               "topology, data_width, arbitration")
    with pytest.raises(ValueError) as info:
        linked.with_interconnect(data_width=48)
    assert str(info.value) == "interconnect data_width must be one of 32, 64, not 48"
    with pytest.raises(ValueError, match="interconnect topology must be one of crossbar, shared, not 'ring'"):
        linked.with_interconnect(topology="ring")
    with pytest.raises(ValueError, match="arbitration must be one of round_robin, fair, not True"):
        linked.with_interconnect(arbitration=True)


def test_channels_dmas_and_regions_of_the_model() -> None:
    ch = linked_example("channels")
    assert [c.name for c in ch.channels_of("hw")] == ["loop", "acc", "stuck"] and ch.channels_of("host") == ()
    assert ch.channel("hw", "acc").index == 1 and ch.channel("hw", "2").name == "stuck"
    assert ch.channel("hw", "0") is ch.channel("hw", "loop")
    with pytest.raises(KeyError) as info:
        ch.channel("hw", "nope")
    assert info.value.args[0] == "component 'hw' has no channel 'nope' (its channels: loop, acc, stuck)"
    with pytest.raises(KeyError) as info:
        ch.channel("host", "loop")
    assert info.value.args[0] == "component 'host' has no channel 'loop' (its channels: none)"
    assert ch.dma_of("hw") is None
    dma = linked_example("dma_stream")
    assert dma.dma_of("scaler") is dma.dmas[0] and dma.dma_of("host") is None
    assert ch.region("pl") is ch.pl and ch.region("ps") is ch.ps and ch.pl != ch.ps


def test_where_names_the_declaration() -> None:
    linked = linked_example("pingpong")
    yaml = str(EXAMPLES / "pingpong" / "system.yaml")
    assert linked.where() == f"{yaml}:1:1" or linked.where().startswith(f"{yaml}:")
    assert linked.where("callee") == str(linked.component("callee").loc) and linked.where("callee") != linked.where()
    assert linked.where("callee").endswith(":36:3") and linked.where("host").endswith(":46:3")
    bare = from_json(to_json(linked))  # a model without positions names its file
    assert bare.where() == "system.yaml" and bare.where("callee") == "system.yaml"
    with pytest.raises(KeyError, match="no component 'nobody'"):
        linked.where("nobody")


def test_irq_bits_and_slot_kind_format() -> None:
    from pushpush.link.model import IrqBlock, SlotKind

    irq = IrqBlock(0x43C0_1000, ("a", "b"))
    assert (irq.bit("a"), irq.bit("b")) == (0, 1)
    with pytest.raises(ValueError) as info:
        irq.bit("c")
    assert str(info.value) == "component 'c' has no pending bit (only the first 32 software components have one)"
    assert f"{SlotKind.REP_IMPORT:>12}|{SlotKind.CEP_STATIC:<11}|" == "  rep_import|cep_static |"


def test_locate_at_window_and_slot_boundaries() -> None:
    linked = linked_example("pingpong")
    callee = linked.component("callee")
    s0, s1 = callee.slots[0], callee.slots[1]
    assert linked.locate(callee.base) == (callee, s0)
    assert linked.locate(s1.address) == (callee, s1)  # a slot's first word is its own, not the previous one's
    assert linked.locate(s1.address - 1) == (callee, s0)
    assert linked.locate(s0.trigger_address) == (callee, s0)
    last = max(linked.components, key=lambda c: c.end)
    assert linked.locate(last.end - 1)[0] is last and linked.locate(last.end) is None
    assert linked.locate(callee.base - 1) is None or linked.locate(callee.base - 1)[0] is not callee


def test_positions_of_exports_imports_and_components_survive_linking() -> None:
    linked = linked_example("pingpong")
    yaml = str(EXAMPLES / "pingpong" / "system.yaml")
    caller, callee, host = (linked.component(n) for n in ("caller", "callee", "host"))
    assert str(caller.loc) == f"{yaml}:23:3" and str(host.loc) == f"{yaml}:46:3"
    assert [str(s) for s in caller.source_locs] == [f"{yaml}:26:15"]
    assert [str(e.loc) for e in callee.exports] == [f"{yaml}:41:7"]
    assert [str(i.loc) for i in caller.imports] == [f"{yaml}:31:7"]
    assert [str(i.loc) for i in host.imports] == [f"{yaml}:48:15", f"{yaml}:48:25"]
    rv = linked_example("riscv_pingpong").component("callee")
    assert rv.memory == 16384 and str(rv.memory_loc).endswith("system.yaml:28:13")


def test_sources_of_a_model_built_in_code_keep_their_paths(tmp_path: Path) -> None:
    absolute = tmp_path / "r.v"
    spec = SystemSpec(name="s", file="s.yaml", components=(
        ComponentSpec(name="r", kind="rtl", module="r", sources=(absolute, Path("rel/x.v")), wait="poll",
                      exports=(ExportSpec("f", parse_signature("() -> u32")),)),))
    assert spec.base_dir is None
    r = link(spec).component("r")
    assert r.sources == (absolute.as_posix(), "rel/x.v")
    # an rtl component has no run-time area and no wait mode, whatever the model says
    assert spec.components[0].runtime_words == 256 and (r.runtime_words, r.wait) == (0, "")


def test_ddr_register_block_may_end_the_pl_region_exactly(tmp_path: Path) -> None:
    linked = link(load_system(write(tmp_path, DDR.replace("size: 0x2000", "size: 0x3000"))))
    assert linked.ps_window_register == linked.pl.end - 0x1000


def test_place_irq_at_its_limits() -> None:
    import dataclasses

    from pushpush.link.linker import place_irq

    base = linked_example("pingpong")
    rtl0, host = base.component("callee"), base.component("host")
    pl = Region(0x4000_0000, 0x0100_0000)

    def rtl(n: int, first_page: int = 0) -> list:
        return [dataclasses.replace(rtl0, name=f"r{i}", base=pl.base + (first_page + i) * 0x1000, size=0x1000)
                for i in range(n)]

    # the first free page: the one before a window counts, and placement stops there
    irq = place_irq(pl, rtl(2, first_page=1) + [host], None)
    assert irq is not None and irq.base == pl.base and irq.components == ("host",)
    assert place_irq(pl, rtl(2) + [host], None).base == pl.base + 0x2000
    assert place_irq(pl, rtl(2) + [host], pl.base + 0x2000).base == pl.base + 0x3000
    # no rtl, no software component, or a full region: no block
    assert place_irq(pl, [host], None) is None
    assert place_irq(pl, rtl(2), None) is None
    small = Region(pl.base, 0x2000)
    assert place_irq(small, rtl(2) + [host], None) is None
    assert place_irq(Region(pl.base, 0x3000), rtl(2) + [host], None).base == pl.base + 0x2000
    # interconnect ports: the ARM's and the block's besides one per rtl window (and the
    # DDR windows' register block)
    assert place_irq(pl, rtl(62) + [host], None) is not None
    assert place_irq(pl, rtl(63) + [host], None) is None
    assert place_irq(pl, rtl(61) + [host], pl.base + 61 * 0x1000) is not None
    assert place_irq(pl, rtl(62) + [host], pl.base + 62 * 0x1000) is None


def test_at_most_32_buffer_engines(tmp_path: Path) -> None:
    exports = "".join(f'          f{i}: "(a: in u32[], b: out u32[]) -> void"\n' for i in range(16))
    text = f"""\
    system: bufs
    components:
      hw:
        kind: rtl
        module: m
        sources: [m.v]
        exports:
{exports}      host: {{kind: python, imports: [hw.f0]}}
    """
    assert len(link(load_system(write(tmp_path, text))).component("hw").exports) == 16  # 32 engines
    more = text.replace("      host:", '          g: "(c: in u32[]) -> void"\n      host:')
    assert link_errors(tmp_path, more) == [
        f"{tmp_path / 'system.yaml'}:24:7: export 'g' of 'hw': the system has more than 32 buffer parameters in "
        "rtl exports (each has its own DMA engine on S_AXI_HP0, whose IDs are 6 bits); use at most 32"]


def test_ddr_register_block_error_points_at_the_pl_region_or_the_components(tmp_path: Path) -> None:
    """Without regions.pl.size the message points at regions.pl, without regions at
    components: the line the fix goes to."""
    full = (DDR.replace('sources: [r.v]}', 'sources: [r.v], window: 0x200000}')
            .replace('sources: [s.v],', 'sources: [s.v], window: 0x200000,').replace("size: 0x2000", "size: 0x400000"))
    [msg] = link_errors(tmp_path, full.replace("pl: {base: 0x43C00000, size: 0x400000}", "pl: {base: 0x43C00000}"))
    assert msg.startswith(f"{tmp_path / 'system.yaml'}:4:3: software_windows: ddr needs a 4 KiB register block")
    [msg] = link_errors(tmp_path, full.replace("    regions:\n      pl: {base: 0x43C00000, size: 0x400000}\n", ""))
    assert msg.startswith(f"{tmp_path / 'system.yaml'}:3:1: software_windows: ddr needs a 4 KiB register block")


def test_abe_settings_reach_the_linked_component(tmp_path: Path) -> None:
    text = DDR.replace("    software_windows: ddr\n", "").replace(
        'sources: [r.v]}', 'sources: [r.v], abe: {nominal_burst: 16, max_outstanding: 4}}')
    linked = link(load_system(write(tmp_path, text)))
    abe = linked.component("r").abe
    assert abe is not None and (abe.nominal_burst, abe.max_outstanding) == (16, 4)
    assert linked.component("s").abe is None


BUFS = """\
    system: b
    components:
      hw:
        kind: rtl
        module: m
        sources: [m.v]
        exports:
          f: "(src: in u32[], dst: out u16[], k: u32) -> u32"
      host:
        kind: python
        imports: [hw.f]
    """


def test_buffer_parameters_where_they_cannot_go(tmp_path: Path) -> None:
    """Each refusal names the export or import, at its line, and what to do instead."""
    y = tmp_path / "system.yaml"
    nested = BUFS.replace('f: "(src: in u32[], dst: out u16[], k: u32) -> u32"', 'g: "(cb: (in u8[]) -> void) -> i32"')
    assert link_errors(tmp_path, nested.replace("hw.f", "hw.g")) == [
        f"{y}:8:7: export 'g' of 'hw': a buffer inside a function-typed parameter or a result "
        "((cb: (in u8[]) -> void) -> i32) is not supported; buffers are parameters of the export's own "
        "signature only: pass the buffer as a parameter of this export"]
    python = BUFS.rstrip(" ") + '        exports: {p: "(a: in u8[], b: out u32[]) -> void"}\n'
    assert link_errors(tmp_path, python) == [
        f"{y}:12:15: export 'p' of python component 'host' takes buffer parameter(s) 'a', 'b': buffers are "
        "supported for rtl exports only (not yet for python or c exports); make the exporter an rtl component, "
        "or pass the data as scalar parameters"]


def test_buffer_export_imported_by_rtl_and_checked_after_plain_exports(tmp_path: Path) -> None:
    y = tmp_path / "system.yaml"
    rtl = BUFS.rstrip(" ") + "      r2:\n        kind: rtl\n        module: m2\n        sources: [m2.v]\n" \
                             "        imports: [hw.f]\n"
    assert link_errors(tmp_path, rtl) == [
        f"{y}:16:15: import 'hw.f' of rtl component 'r2': its signature ((src: in u32[], dst: out u16[], "
        "k: u32) -> u32) has buffer parameters, which only python and c components can pass so far "
        "(physically contiguous memory: a pynq.allocate buffer, or a pp_buf in C); call it from a python or c "
        "component"]
    # an rtl importer's plain import first: its buffer import after it is still checked
    both = rtl.replace('-> u32"\n      host:', '-> u32"\n          g: "(x: u32) -> u32"\n      host:').replace(
        "imports: [hw.f]\n", "imports: [hw.g, hw.f]\n").replace("        imports: [hw.g, hw.f]\n      r2", "        imports: [hw.f]\n      r2")
    assert [e.split(": ", 1)[1][:32] for e in link_errors(tmp_path, both)] == ["import 'hw.f' of rtl component '"]
    # a python export without buffers first: the one after it is still checked
    later = BUFS.rstrip(" ") + '        exports:\n          q: "(x: u32) -> u32"\n          p: "(a: in u8[]) -> void"\n'
    assert [e.split(": ", 1)[1][:40] for e in link_errors(tmp_path, later)] == [
        "export 'p' of python component 'host' ta"]


@pytest.mark.parametrize("ddr, limit", [(False, 63), (True, 62)])
def test_rtl_component_count_at_the_interconnect_limit(tmp_path: Path, ddr: bool, limit: int) -> None:
    """63 rtl components (62 with ddr windows, whose register block takes a port) fit the
    64-port interconnect; one more is refused at its own line."""
    def system(n: int) -> str:
        rtl = "".join(f"  r{i}: {{kind: rtl, module: r{i}, sources: [r{i}.v]}}\n" for i in range(n))
        return (f"system: many\n{'software_windows: ddr' if ddr else ''}\nregions:\n  pl: {{base: 0x40000000, "
                f"size: 0x1000000}}\ncomponents:\n{rtl}  host: {{kind: python}}\n  h2: {{kind: python}}\n")
    assert len(link(load_system(write(tmp_path, system(limit)))).components) == limit + 2
    assert link_errors(tmp_path, system(limit + 1)) == [
        f"{tmp_path / 'system.yaml'}:{6 + limit}:3: component 'r{limit}' is rtl component {limit + 1} of "
        f"{limit + 1}: the interconnect has at most 64 ports per side (the ARM's and one per rtl component), so "
        f"a system holds at most {limit} rtl components; merge components into fewer modules (one module may "
        "export several functions), or make some python or c"]
