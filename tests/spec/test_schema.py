"""The JSON Schema of system.yaml (pushpush.schema): the shipped file is current, every valid
system passes it, and it rejects what the loader rejects for structural reasons."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pushpush.errors import SpecError
from pushpush.schema import schema_path, schema_text, system_schema
from pushpush.spec import load_system, parse_system

REPO = Path(__file__).resolve().parents[2]

VALIDATOR = jsonschema.Draft202012Validator(system_schema())

VALID_FILES = sorted(
    list((REPO / "examples").glob("*/system.yaml"))
    + list((REPO / "tests").glob("**/system.yaml"))
)

# the GOOD system of test_spec.py
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

ALL_OPTIONS = """\
system: full
board: none
clock_mhz: 125.5
software_windows: ocm
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
  idle:
    kind: python
    exports:
    imports:
"""


def schema_errors(text: str) -> list[str]:
    return [e.message for e in VALIDATOR.iter_errors(yaml.safe_load(text))]


# --------------------------------------------------------------------------- the file


def test_shipped_schema_is_current() -> None:
    assert schema_path().read_text(encoding="utf-8") == schema_text(), (
        "pushpush/system.schema.json is stale: run 'pushpush schema -o pushpush/system.schema.json'")


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(system_schema())
    assert system_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_cli_prints_the_schema(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-m", "pushpush", "schema"], capture_output=True,
                         text=True, env=env, cwd=tmp_path, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == schema_text()
    assert json.loads(out.stdout)["required"] == ["system", "components"]


# --------------------------------------------------------------------------- accepted


@pytest.mark.parametrize("path", VALID_FILES, ids=[str(p.relative_to(REPO)) for p in VALID_FILES])
def test_valid_systems_pass(path: Path) -> None:
    load_system(path)  # the loader accepts it ...
    assert schema_errors(path.read_text()) == []  # ... and so does the schema


@pytest.mark.parametrize("text", [GOOD, ALL_OPTIONS, GOOD + "software_windows: ddr\n"],
                         ids=["good", "all_options", "ddr_windows"])
def test_valid_texts_pass(text: str) -> None:
    parse_system(text, base_dir=Path("/x"))
    assert schema_errors(text) == []


def test_examples_are_covered() -> None:
    names = {p.parent.name for p in VALID_FILES}
    assert {"pingpong", "audio_fir"} <= names


# --------------------------------------------------------------------------- rejected

#: The cases of test_spec.py the loader rejects for structural reasons (keys, types,
#: choices, minimums, names, kind rules); each as (id, YAML text).
STRUCTURAL = [
    ("not_a_mapping", "- a\n- b\n"),
    ("empty_file", "# nothing\n"),
    ("unknown_top_key", GOOD + "clock_mz: 100\n"),
    ("unknown_component_key", GOOD.replace("    imports: [callee.f]", "    improts: [callee.f]")),
    ("unknown_interconnect_key", GOOD + "interconnect: {speed: 3}\n"),
    ("missing_system_and_components", "board: none\n"),
    ("missing_components", "system: demo\n"),
    ("empty_components", "system: demo\ncomponents: {}\n"),
    ("bad_system_name", GOOD.replace("system: demo", "system: my-system")),
    ("reserved_component_name", GOOD.replace("  host:", "  module:")),
    ("bad_function_name", GOOD.replace('      f: "(x', '      2f: "(x')),
    ("board", GOOD + "board: pynq-z9\n"),
    ("clock_not_a_number", GOOD + "clock_mhz: fast\n"),
    ("clock_zero", GOOD + "clock_mhz: 0\n"),
    ("clock_too_high", GOOD + "clock_mhz: 1001\n"),
    ("topology", GOOD + "interconnect: {topology: mesh}\n"),
    ("data_width", GOOD + "interconnect: {data_width: 48}\n"),
    ("arbitration", GOOD + "interconnect: {arbitration: fiar}\n"),
    ("software_windows", GOOD + "software_windows: dram\n"),
    ("missing_kind", "system: demo\ncomponents:\n  a:\n    exports: {}\n"),
    ("wrong_kind", GOOD.replace("kind: python", "kind: pyhton")),
    ("rtl_without_module", GOOD.replace("    module: callee_core\n", "")),
    ("rtl_without_sources", GOOD.replace("    sources: [rtl/callee_core.v]\n", "")),
    ("bad_module", GOOD.replace("module: callee_core", "module: 3core")),
    ("keyword_module", GOOD.replace("module: callee_core", "module: wire")),
    ("sources_not_a_list", GOOD.replace("sources: [rtl/callee_core.v]", "sources: rtl/callee_core.v")),
    ("sources_empty", GOOD.replace("sources: [rtl/callee_core.v]", "sources: []")),
    ("python_with_module", GOOD + "    module: m\n"),
    ("python_with_sources", GOOD + "    sources: [a.v]\n"),
    ("python_with_abe", GOOD + "    abe: {nominal_burst: 1, max_outstanding: 1}\n"),
    ("c_with_module", GOOD.replace("kind: python", "kind: c") + "    module: m\n"),
    ("rtl_with_runtime_words",
     GOOD.replace("    module: callee_core\n", "    module: callee_core\n    runtime_words: 4\n")),
    ("negative_runtime_words", GOOD + "    runtime_words: -1\n"),
    ("window_5000", GOOD + "    window: 5000\n"),
    ("window_2048", GOOD + "    window: 2048\n"),
    ("window_0x3000", GOOD + "    window: 0x3000\n"),
    ("window_not_an_integer", GOOD + "    window: big\n"),
    ("window_too_big", GOOD + "    window: 0x20000000\n"),
    ("abe_burst_too_long", GOOD.replace(
        "    module: callee_core\n", "    module: callee_core\n    abe: {nominal_burst: 300, max_outstanding: 2}\n")),
    ("abe_missing_and_misspelt_key", GOOD.replace(
        "    module: callee_core\n", "    module: callee_core\n    abe: {nominal_burst: 16, max_outsanding: 2}\n")),
    ("export_without_signature", GOOD.replace('f: "(x: i32) -> i32"', 'f: {dynamic_slots: 1}')),
    ("export_negative_slots", GOOD.replace('f: "(x: i32) -> i32"',
                                           'f: {signature: "(x: i32) -> i32", dynamic_slots: -2}')),
    ("export_unknown_key", GOOD.replace('f: "(x: i32) -> i32"',
                                        'f: {signature: "(x: i32) -> i32", sig: "() -> void"}')),
    ("signature_not_a_string", GOOD.replace('f: "(x: i32) -> i32"', "f: [i32]")),
    ("scalar_is_not_a_signature", GOOD.replace('f: "(x: i32) -> i32"', 'f: "  i32"')),
    ("import_not_dotted", GOOD.replace("[callee.f]", "[callee]")),
    ("imports_wrong_shape", GOOD.replace("[callee.f]", "callee.f")),
    ("import_signature_not_a_string", GOOD.replace("[callee.f]", "{callee.f: 3}")),
    ("region_unknown", GOOD + "regions:\n  ddr: {}\n"),
    ("region_base_not_aligned", GOOD + "regions:\n  pl: {base: 0x43C00100}\n"),
    ("region_size_too_small", GOOD + "regions:\n  ps: {size: 0}\n"),
    ("region_unknown_key", GOOD + "regions:\n  pl: {start: 0x43C00000}\n"),
    ("component_not_a_mapping", GOOD + "  empty:\n"),
]


@pytest.mark.parametrize("text", [t for _, t in STRUCTURAL], ids=[i for i, _ in STRUCTURAL])
def test_structural_errors_are_rejected_by_loader_and_schema(text: str) -> None:
    with pytest.raises(SpecError):
        parse_system(text, base_dir=Path("/x"))
    assert schema_errors(text), "the schema accepts what the loader rejects"


def test_schema_error_names_the_place() -> None:
    errs = list(VALIDATOR.iter_errors(yaml.safe_load(GOOD + "clock_mhz: fast\n")))
    assert [list(e.absolute_path) for e in errs] == [["clock_mhz"]]


# --------------------------------------------------------------------------- never stricter

FUZZ_BASE = (REPO / "examples" / "audio_fir" / "system.yaml").read_text()


@settings(max_examples=int(os.environ.get("PUSHPUSH_FUZZ_EXAMPLES", "300")), deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(FUZZ_BASE)), st.integers(0, 3),
                          st.text(alphabet=" :-[]{}\"'\n#,.>|()ax0x1F_", max_size=3)), max_size=4))
def test_schema_accepts_whatever_the_loader_accepts(edits: list[tuple[int, int, str]]) -> None:
    text = FUZZ_BASE
    for pos, cut, insert in edits:
        pos = min(pos, len(text))
        text = text[:pos] + insert + text[pos + cut:]
    try:
        parse_system(text, file="f.yaml", base_dir=Path("/x"))
    except SpecError:
        return
    data: Any = yaml.safe_load(text)
    assert [e.message for e in VALIDATOR.iter_errors(data)] == [], text
