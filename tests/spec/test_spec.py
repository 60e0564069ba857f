"""System description loader: every error path, with its exact file:line:column message."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushpush.errors import Diagnostic, SpecError
from pushpush.link import link
from pushpush.spec import DEFAULT_PL, DEFAULT_PS, Abe, Interconnect, Region, load_system, parse_system
from pushpush.types import parse_signature

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

GOOD = """\
system: demo
components:
  callee:
    kind: rtl
    module: callee_core
    sources: [rtl/callee_core.v]
    exports:
      f: "(x: i32) -> i32"
  host:
    kind: python
    imports: [callee.f]
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "system.yaml"
    p.write_text(textwrap.dedent(text))
    return p


def errors(tmp_path: Path, text: str) -> list[str]:
    p = write(tmp_path, text)
    with pytest.raises(SpecError) as info:
        load_system(p)
    return [str(d) for d in info.value.diagnostics]


def one_error(tmp_path: Path, text: str) -> str:
    errs = errors(tmp_path, text)
    assert len(errs) == 1, errs
    return errs[0]


def at(tmp_path: Path, line: int, col: int, message: str) -> str:
    return f"{tmp_path / 'system.yaml'}:{line}:{col}: {message}"


# --------------------------------------------------------------------------- valid input


def test_good_system_defaults(tmp_path: Path) -> None:
    spec = load_system(write(tmp_path, GOOD))
    assert spec.name == "demo"
    assert spec.board == "pynq-z1"
    assert spec.clock_mhz == 100
    assert spec.interconnect == Interconnect("crossbar", 32, "round_robin")
    assert spec.pl == DEFAULT_PL == Region(0x43C00000, 0x00400000)
    assert spec.ps == DEFAULT_PS == Region(0xFFFC0000, 0x00010000)
    callee, host = spec.components
    assert callee.kind == "rtl" and callee.module == "callee_core"
    assert callee.sources == (tmp_path / "rtl" / "callee_core.v",)
    assert callee.sources[0].is_absolute()
    assert callee.exports[0].name == "f"
    assert callee.exports[0].signature == parse_signature("(x: i32) -> i32")
    assert callee.exports[0].dynamic_slots == 1
    assert callee.runtime_words == 0 and callee.window is None and callee.abe is None
    assert host.kind == "python" and host.runtime_words == 256
    assert host.imports[0].target == "callee.f" and host.imports[0].expected is None


def test_all_options(tmp_path: Path) -> None:
    spec = load_system(write(tmp_path, """\
        system: full
        board: none
        clock_mhz: 125.5
        interconnect: {topology: shared, data_width: 64, arbitration: fair}
        regions:
          pl: {base: 0x40000000, size: 0x10000}
          ps: {base: "0xFFFF0000"}
        components:
          a:
            kind: rtl
            module: a_core
            sources: [../shared/a.v, a2.v]
            window: 8192
            abe: {nominal_burst: 16, max_outstanding: 4}
            exports:
              f: {signature: "(i64) -> f64", dynamic_slots: 3}
              g: {signature: "() -> void", dynamic_slots: 0}
            imports:
              b.h: "(v: u8) -> bool"
              a.f: "(y: i64) -> f64"
          b:
            kind: c
            runtime_words: 0
            exports: {h: "(u8) -> bool"}
            imports: [a.g]
        """))
    assert spec.board == "none" and spec.clock_mhz == 125.5
    assert spec.interconnect == Interconnect("shared", 64, "fair")
    assert spec.pl == Region(0x40000000, 0x10000)
    assert spec.ps == Region(0xFFFF0000, DEFAULT_PS.size)
    a, b = spec.components
    assert a.window == 8192 and a.abe == Abe(16, 4)
    assert a.sources == ((tmp_path.parent / "shared" / "a.v"), tmp_path / "a2.v")
    assert [(e.name, e.dynamic_slots) for e in a.exports] == [("f", 3), ("g", 0)]
    assert [i.target for i in a.imports] == ["b.h", "a.f"]  # a self-import is allowed
    assert a.imports[0].expected == parse_signature("(v: u8) -> bool")
    assert b.kind == "c" and b.runtime_words == 0


@pytest.mark.parametrize("name", ["pingpong", "audio_fir"])
def test_examples_load(name: str) -> None:
    spec = load_system(EXAMPLES / name / "system.yaml")
    assert spec.name == name


def test_parse_system_from_text() -> None:
    spec = parse_system(GOOD, file="inline.yaml", base_dir=Path("/proj"))
    assert spec.file == "inline.yaml"
    assert spec.components[0].sources == (Path("/proj/rtl/callee_core.v"),)


def test_str_of_spec_error_is_one_line_per_diagnostic() -> None:
    e = SpecError([Diagnostic("a.yaml", 1, 2, "one"), Diagnostic("a.yaml", 3, 4, "two")])
    assert str(e) == "a.yaml:1:2: one\na.yaml:3:4: two"


# --------------------------------------------------------------------------- YAML level


def test_yaml_syntax_error(tmp_path: Path) -> None:
    assert one_error(tmp_path, """\
        system: demo
        components:
          a:
            kind: rtl
           module: x
        """) == at(tmp_path, 5, 4, "YAML syntax error: expected <block end>, but found '<block mapping start>' "
                                   "while parsing a block mapping; check the indentation and quoting here")


def test_unquoted_signature_is_explained(tmp_path: Path) -> None:
    assert one_error(tmp_path, """\
        system: demo
        components:
          a:
            kind: python
            exports:
              f: (x: i32) -> i32
        """) == at(tmp_path, 6, 12, "YAML syntax error: mapping values are not allowed here; a value "
                                    "containing ': ' (like a signature) must be quoted, e.g. "
                                    "f: \"(x: i32) -> i32\"")


def test_tab_indentation(tmp_path: Path) -> None:
    p = tmp_path / "system.yaml"
    p.write_text("system: demo\ncomponents:\n\ta: {kind: c}\n")
    with pytest.raises(SpecError) as info:
        load_system(p)
    assert [str(d) for d in info.value.diagnostics] == [
        f"{p}:3:1: YAML syntax error: found character '\\t' that cannot start any token while "
        "scanning for the next token; YAML does not allow tabs for indentation; use spaces"]


def test_empty_file(tmp_path: Path) -> None:
    assert one_error(tmp_path, "# nothing\n") == at(
        tmp_path, 1, 1, "the file is empty; a system needs at least 'system: <name>' and 'components:'")


def test_top_level_not_a_mapping(tmp_path: Path) -> None:
    assert one_error(tmp_path, "- a\n- b\n") == at(
        tmp_path, 1, 1, "the system description must be a mapping (key: value lines), not a list; "
        "write one 'key: value' per line (see examples/pingpong/system.yaml)")


def test_duplicate_top_level_key(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "system: again\n") == at(
        tmp_path, 12, 1, "duplicate key 'system' in the system description (first at line 1); "
                         "remove or rename one")


# --------------------------------------------------------------------------- keys


def test_unknown_top_level_key_did_you_mean(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "clock_mz: 100\n") == at(
        tmp_path, 12, 1, "unknown key 'clock_mz' in the system description; did you mean 'clock_mhz'?")


def test_unknown_component_key_did_you_mean(tmp_path: Path) -> None:
    text = GOOD.replace("    imports: [callee.f]", "    improts: [callee.f]")
    assert one_error(tmp_path, text) == at(
        tmp_path, 11, 5, "unknown key 'improts' in component 'host'; did you mean 'imports'?")


def test_unknown_key_lists_allowed_keys(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "interconnect: {speed: 3}\n") == at(
        tmp_path, 12, 16, "unknown key 'speed' in 'interconnect'; allowed keys: topology, data_width, arbitration")


def test_missing_system_and_components(tmp_path: Path) -> None:
    assert errors(tmp_path, "board: none\n") == [
        at(tmp_path, 1, 1, "missing required key 'system'; add a line 'system: <name>' at the top"),
        at(tmp_path, 1, 1, "missing required key 'components'; add 'components:' with one entry per component"),
    ]


def test_empty_components(tmp_path: Path) -> None:
    assert one_error(tmp_path, "system: demo\ncomponents: {}\n") == at(
        tmp_path, 2, 13, "'components' is empty; declare at least one component")


def test_bad_system_name(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("system: demo", "system: my-system")) == at(
        tmp_path, 1, 9, "system name 'my-system' is not a valid name; use letters, digits and '_', "
                        "not starting with a digit (e.g. 'my_system')")


def test_reserved_component_name(tmp_path: Path) -> None:
    text = GOOD.replace("  host:", "  module:")
    assert one_error(tmp_path, text) == at(
        tmp_path, 9, 3, "component name 'module' is a reserved word in Verilog, C or Python; "
                        "choose another name (e.g. 'module_')")


def test_bad_function_name(tmp_path: Path) -> None:
    errs = errors(tmp_path, GOOD.replace('      f: "(x', '      2f: "(x'))
    assert errs == [
        at(tmp_path, 8, 7, "function name '2f' is not a valid name; use letters, digits and '_', "
                           "not starting with a digit (e.g. '_2f')"),
        # the dropped export still counts as declared for the import check
        at(tmp_path, 11, 15, "import 'callee.f' names no export; did you mean 'callee.2f'?"),
    ]


def test_import_of_export_with_bad_signature_not_reported_again(tmp_path: Path) -> None:
    text = GOOD.replace('f: "(x: i32) -> i32"', 'f: "(x: i32) -> int"')
    assert errors(tmp_path, text) == [
        at(tmp_path, 8, 23, "invalid signature of export 'callee.f': unknown type 'int'; did you mean 'i32'?"),
    ]


def test_board_clock_interconnect_values(tmp_path: Path) -> None:
    assert errors(tmp_path, GOOD + textwrap.dedent("""\
        board: pynq_z2
        clock_mhz: fast
        interconnect: {topology: mesh, data_width: 48, arbitration: fiar}
        """)) == [
        at(tmp_path, 12, 8, "board must be one of pynq-z1, pynq-z2, zcu104, kv260, none, not 'pynq_z2'; did you mean 'pynq-z2'?"),
        at(tmp_path, 13, 12, "clock_mhz must be a number of MHz between 0 and 1000, not 'fast'; e.g. clock_mhz: 100"),
        at(tmp_path, 14, 26, "interconnect topology must be one of crossbar, shared, not 'mesh'; "
                                 "write one of them, e.g. crossbar"),
        at(tmp_path, 14, 44, "interconnect data_width must be one of 32, 64, not '48'; write one of them, e.g. 32"),
        at(tmp_path, 14, 61, "interconnect arbitration must be one of round_robin, fair, not 'fiar'; "
                             "did you mean 'fair'?"),
    ]


# --------------------------------------------------------------------------- components


def test_missing_kind(tmp_path: Path) -> None:
    assert one_error(tmp_path, "system: demo\ncomponents:\n  a:\n    exports: {}\n") == at(
        tmp_path, 3, 3, "component 'a' has no 'kind'; add 'kind: rtl', 'kind: python' or 'kind: c'")


def test_wrong_kind_did_you_mean(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("kind: python", "kind: pyhton")) == at(
        tmp_path, 10, 11, "kind of component 'host' must be one of rtl, python, c, riscv, hls, not 'pyhton'; "
                          "did you mean 'python'?")


def test_rtl_without_module(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("    module: callee_core\n", "")) == at(
        tmp_path, 3, 3, "rtl component 'callee' has no 'module'; add 'module: <Verilog module name>'")


def test_rtl_without_sources(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("    sources: [rtl/callee_core.v]\n", "")) == at(
        tmp_path, 3, 3, "rtl component 'callee' has no 'sources'; list the Verilog files that define "
                        "its module, e.g. sources: [rtl/callee_core.v]")


def test_bad_module_and_sources(tmp_path: Path) -> None:
    text = GOOD.replace("module: callee_core", "module: 3core").replace(
        "sources: [rtl/callee_core.v]", "sources: rtl/callee_core.v")
    assert errors(tmp_path, text) == [
        at(tmp_path, 5, 13, "module of component 'callee' must be a Verilog module name, not '3core'; "
                            "e.g. module: fir_core"),
        at(tmp_path, 6, 14, "sources of component 'callee' must be a list of paths, not "
                            "'rtl/callee_core.v'; e.g. sources: [rtl/fir_core.v]"),
    ]


def test_python_with_sources_and_module(tmp_path: Path) -> None:
    text = GOOD + "    module: m\n    sources: [a.v]\n    abe: {nominal_burst: 1, max_outstanding: 1}\n"
    why = "(only rtl components have Verilog modules, sources, burst settings and DMA streams); remove it or use 'kind: rtl'"
    assert errors(tmp_path, text) == [
        at(tmp_path, 12, 5, f"python component 'host' cannot have 'module' {why}"),
        at(tmp_path, 13, 5, f"python component 'host' cannot have 'sources' {why}"),
        at(tmp_path, 14, 5, f"python component 'host' cannot have 'abe' {why}"),
    ]


def test_c_with_module(tmp_path: Path) -> None:
    text = GOOD.replace("kind: python", "kind: c") + "    module: m\n"
    assert one_error(tmp_path, text) == at(
        tmp_path, 12, 5, "c component 'host' cannot have 'module' (only rtl components have Verilog "
                         "modules, sources, burst settings and DMA streams); remove it or use 'kind: rtl'")


def test_rtl_with_runtime_words(tmp_path: Path) -> None:
    text = GOOD.replace("    module: callee_core\n", "    module: callee_core\n    runtime_words: 4\n")
    assert one_error(tmp_path, text) == at(
        tmp_path, 6, 5, "rtl component 'callee' cannot have 'runtime_words' (only python and c "
                        "components have a run-time area); remove it")


def test_negative_runtime_words(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "    runtime_words: -1\n") == at(
        tmp_path, 12, 20, "runtime_words of component 'host' must be at least 0, not -1; e.g. runtime_words: 256")


def test_duplicate_component(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "  callee:\n    kind: c\n") == at(
        tmp_path, 12, 3, "duplicate component 'callee' in 'components' (first at line 3); remove or rename one")


def test_duplicate_function(tmp_path: Path) -> None:
    text = GOOD.replace('      f: "(x: i32) -> i32"\n', '      f: "(x: i32) -> i32"\n      f: "() -> void"\n')
    assert one_error(tmp_path, text) == at(
        tmp_path, 9, 7, "duplicate export 'f' in exports of component 'callee' (first at line 8); "
                        "remove or rename one")


# --------------------------------------------------------------------------- windows, abe


@pytest.mark.parametrize("value,message", [
    ("5000", "not 5000 (0x1388); use 0x1000 or 0x2000"),
    ("2048", "not 2048 (0x800); use 0x1000"),
    ("0x3000", "not 12288 (0x3000); use 0x2000 or 0x4000"),
])
def test_window_not_power_of_two_or_too_small(tmp_path: Path, value: str, message: str) -> None:
    assert one_error(tmp_path, GOOD + f"    window: {value}\n") == at(
        tmp_path, 12, 13, "window of component 'host' must be a power of two of at least 4096 "
                          f"(0x1000) bytes, {message}")


def test_window_not_an_integer(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "    window: big\n") == at(
        tmp_path, 12, 13, "window of component 'host' must be an integer, not 'big'; e.g. window: 0x1000")


def test_abe_validation(tmp_path: Path) -> None:
    text = GOOD.replace("    module: callee_core\n",
                        "    module: callee_core\n    abe: {nominal_burst: 300, max_outsanding: 2}\n")
    assert errors(tmp_path, text) == [
        at(tmp_path, 6, 10, "abe of component 'callee' has no 'max_outstanding'; add e.g. max_outstanding: 4"),
        at(tmp_path, 6, 26, "abe.nominal_burst of component 'callee' is 300 but AXI4 bursts have at "
                            "most 256 beats; use at most 256"),
        at(tmp_path, 6, 31, "unknown key 'max_outsanding' in abe of component 'callee'; "
                            "did you mean 'max_outstanding'?"),
    ]


def test_export_mapping_form_errors(tmp_path: Path) -> None:
    text = GOOD.replace('      f: "(x: i32) -> i32"',
                        '      f: {dynamic_slots: -2, sig: "() -> void"}')
    assert errors(tmp_path, text) == [
        at(tmp_path, 8, 10, "export 'callee.f' has no 'signature'; add e.g. signature: \"(x: i32) -> i32\""),
        at(tmp_path, 8, 26, "dynamic_slots of export 'callee.f' must be at least 0, not -2; e.g. dynamic_slots: 1"),
        at(tmp_path, 8, 30, "unknown key 'sig' in export 'callee.f'; did you mean 'signature'?"),
    ]


# --------------------------------------------------------------------------- signatures


def test_bad_signature_double_quoted(tmp_path: Path) -> None:
    text = GOOD.replace('f: "(x: i32) -> i32"', 'f: "(coeff: (u32) -> i33) -> i32"')
    assert one_error(tmp_path, text) == at(
        tmp_path, 8, 28, "invalid signature of export 'callee.f': unknown type 'i33'; did you mean 'i32'?")


def test_bad_signature_single_quoted_and_plain(tmp_path: Path) -> None:
    text = GOOD.replace('f: "(x: i32) -> i32"', "f: '(x: int) -> i32'\n      g: ()->flt")
    assert errors(tmp_path, text) == [
        at(tmp_path, 8, 15, "invalid signature of export 'callee.f': unknown type 'int'; did you mean 'i32'?"),
        at(tmp_path, 9, 14, "invalid signature of export 'callee.g': unknown type 'flt'; expected one of bool, "
                            "i8, i16, i32, u8, u16, u32, f32, i64, u64, f64, void or a function type '(...) -> ...'"),
    ]


def test_bad_signature_in_block_scalar(tmp_path: Path) -> None:
    text = GOOD.replace('f: "(x: i32) -> i32"', "f: >\n        (a: i32,\n         b: q32) -> void")
    assert one_error(tmp_path, text) == at(
        tmp_path, 10, 13, "invalid signature of export 'callee.f': unknown type 'q32'; did you mean 'u32'?")


def test_bad_signature_at_end_of_text(tmp_path: Path) -> None:
    text = GOOD.replace('f: "(x: i32) -> i32"', 'f: "(x: i32) ->"')
    assert one_error(tmp_path, text) == at(
        tmp_path, 8, 22, "invalid signature of export 'callee.f': expected a type, found end of text; "
        "write a type such as 'i32' or '(i32) -> void' here")


def test_scalar_is_not_a_signature(tmp_path: Path) -> None:
    text = GOOD.replace('f: "(x: i32) -> i32"', 'f: "  i32"')
    assert one_error(tmp_path, text) == at(
        tmp_path, 8, 13, "invalid signature of export 'callee.f': expected a function signature, found "
                         "the scalar type 'i32'; write e.g. '(x: i32) -> i32'")


def test_signature_not_a_string(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace('f: "(x: i32) -> i32"', "f: [i32]")) == at(
        tmp_path, 8, 10, "signature of export 'callee.f' must be a signature string, not a list; "
                         "e.g. \"(x: i32) -> i32\"")


def test_bad_expected_import_signature(tmp_path: Path) -> None:
    text = GOOD.replace("    imports: [callee.f]", '    imports: {callee.f: "(x: i32 -> i32"}')
    assert one_error(tmp_path, text) == at(
        tmp_path, 11, 34, "invalid expected signature of import 'callee.f': expected ',' or ')' after a "
                          "parameter, found '->'; separate parameters with ','")


# --------------------------------------------------------------------------- imports


def test_unknown_function_did_you_mean(tmp_path: Path) -> None:
    text = GOOD.replace('f: "(x: i32) -> i32"', 'fir: "(x: i32) -> i32"').replace("[callee.f]", "[callee.firr]")
    assert one_error(tmp_path, text) == at(
        tmp_path, 11, 15, "import 'callee.firr' names no export; did you mean 'callee.fir'?")


def test_unknown_function_found_in_other_component(tmp_path: Path) -> None:
    text = GOOD + '    exports: {sink: "(i32) -> void"}\n'
    text = text.replace("[callee.f]", "[callee.f, callee.sink]")
    assert one_error(tmp_path, text) == at(
        tmp_path, 11, 25, "import 'callee.sink' names no export; did you mean 'host.sink'?")


def test_unknown_function_lists_exports(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("[callee.f]", "[callee.process]")) == at(
        tmp_path, 11, 15, "import 'callee.process' names no export; 'callee' exports: f")


def test_import_of_component_without_exports(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("[callee.f]", "[callee.f, host.zzzzz]")) == at(
        tmp_path, 11, 25, "import 'host.zzzzz' names no export; 'host' exports nothing")


def test_unknown_component_did_you_mean(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("[callee.f]", "[calee.f]")) == at(
        tmp_path, 11, 15, "import 'calee.f' names no component 'calee'; did you mean 'callee.f'?")


def test_unknown_component_lists_components(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("[callee.f]", "[zz.top]")) == at(
        tmp_path, 11, 15, "import 'zz.top' names no component 'zz'; components are: callee, host")


def test_import_not_dotted(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("[callee.f]", "[callee]")) == at(
        tmp_path, 11, 15, "import 'callee' of component 'host' must name a component and a function; write e.g. 'fir.fir'")


def test_import_twice(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("[callee.f]", "[callee.f, callee.f]")) == at(
        tmp_path, 11, 25, "component 'host' imports 'callee.f' twice; remove one")


def test_imports_wrong_shape(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("[callee.f]", "callee.f")) == at(
        tmp_path, 11, 14, "imports of component 'host' must be a list or a mapping, not 'callee.f'; "
                          "write e.g. [fir.fir] or {fir.fir: \"<signature>\"}")


def test_import_signature_mismatch(tmp_path: Path) -> None:
    text = GOOD.replace("    imports: [callee.f]", "    imports:\n      callee.f: \"(y: u32) -> i32\"")
    assert one_error(tmp_path, text) == at(
        tmp_path, 12, 17, "import 'callee.f' expects '(y: u32) -> i32' but 'callee.f' is exported as "
                          "'(x: i32) -> i32'; make the signatures agree (parameter names may differ, "
                          "types must not)")


def test_import_signature_names_may_differ(tmp_path: Path) -> None:
    text = GOOD.replace("    imports: [callee.f]", "    imports:\n      callee.f: \"(value: i32) -> i32\"")
    spec = load_system(write(tmp_path, text))
    assert spec.components[1].imports[0].expected == parse_signature("(value: i32) -> i32")


# --------------------------------------------------------------------------- regions


def test_region_errors(tmp_path: Path) -> None:
    assert errors(tmp_path, GOOD + textwrap.dedent("""\
        regions:
          pl: {base: 0x43C00100, size: 0x10000}
          ps: {base: 0x20000000, size: 0x1000}
          ddr: {}
        """)) == [
        at(tmp_path, 13, 14, "regions.pl.base 0x43C00100 is not a multiple of 4096 (0x1000); e.g. 0x43C00000"),
        at(tmp_path, 15, 3, "unknown key 'ddr' in 'regions'; allowed keys: pl, ps"),
    ]


def test_pl_region_outside_gp0(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "regions:\n  pl: {base: 0x80000000}\n") == at(
        tmp_path, 13, 3, "region 'pl' 0x80000000-0x803FFFFF must lie inside the PYNQ-Z1's M_AXI_GP0 range "
                         "0x40000000-0x7FFFFFFF; change its base or size")


def test_regions_overlap(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "regions:\n  ps: {base: 0x43C10000, size: 0x1000}\n") == at(
        tmp_path, 13, 3, "regions 'pl' (0x43C00000-0x43FFFFFF) and 'ps' (0x43C10000-0x43C10FFF) overlap; "
                         "move one of them")


def test_all_errors_are_collected(tmp_path: Path) -> None:
    text = GOOD.replace("kind: python", "kind: pyton").replace("module: callee_core", "modul: callee_core")
    errs = errors(tmp_path, text + "bord: x\n")
    assert len(errs) == 4
    assert [e.split(": ", 1)[0] for e in errs] == [
        f"{tmp_path / 'system.yaml'}:3:3", f"{tmp_path / 'system.yaml'}:5:5",
        f"{tmp_path / 'system.yaml'}:10:11", f"{tmp_path / 'system.yaml'}:12:1"]


def test_component_must_be_a_mapping(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "  empty:\n") == at(
        tmp_path, 12, 9, "component 'empty' must be a mapping (key: value lines), not empty; "
        "write one 'key: value' per line (see examples/pingpong/system.yaml)")


def test_empty_exports_and_imports_are_allowed(tmp_path: Path) -> None:
    spec = load_system(write(tmp_path, GOOD + "  idle:\n    kind: c\n    exports:\n    imports:\n"))
    assert spec.component("idle") is not None
    idle = spec.component("idle")
    assert idle is not None and idle.exports == () and idle.imports == ()


def test_uncallable_export(tmp_path: Path) -> None:
    text = GOOD + '    exports:\n      unused: {signature: "() -> void", dynamic_slots: 0}\n'
    assert one_error(tmp_path, text) == at(
        tmp_path, 13, 7, "export 'host.unused' can never be called: no component imports it and it "
                         "has dynamic_slots: 0; give it dynamic slots or remove it")


FUZZ_BASE = (EXAMPLES / "audio_fir" / "system.yaml").read_text()


@settings(max_examples=int(os.environ.get("PUSHPUSH_FUZZ_EXAMPLES", "300")), deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(FUZZ_BASE)), st.integers(0, 3),
                          st.text(alphabet=" :-[]{}\"'\n\t#,.>|()ax0", max_size=3)), max_size=4))
def test_mangled_input_gives_diagnostics_not_crashes(edits: list[tuple[int, int, str]]) -> None:
    text = FUZZ_BASE
    for pos, cut, insert in edits:
        pos = min(pos, len(text))
        text = text[:pos] + insert + text[pos + cut:]
    try:
        link(parse_system(text, file="f.yaml", base_dir=Path("/x")))
    except SpecError as e:  # LinkError is a SpecError
        assert e.diagnostics
        for d in e.diagnostics:
            assert d.file == "f.yaml" and d.line >= 1 and d.column >= 1 and d.message


def test_every_declared_number_shows_an_example_in_its_messages() -> None:
    """The loader's one generic routine reads every scalar field from its declaration
    (pushpush/spec/fields.py); each number it checks has an example line to show (region
    bounds take theirs from the board's default region) and each required key a fix."""
    from pushpush.spec.fields import ABE, COMPONENT, DMA, EXPORT, INTERCONNECT, SYSTEM, Int, Num
    for rec in (SYSTEM, INTERCONNECT, COMPONENT, EXPORT, ABE, DMA):
        for f in rec.fields:
            if isinstance(f.value, (Int, Num)):
                assert f.example.startswith(f"{f.name}: "), (rec.name, f.name)
            if f.required or f.required_for:
                assert f.example or f.missing or f.name == "sources", (rec.name, f.name)
