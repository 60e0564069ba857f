"""The pushpush command line: exit codes and output of validate and map."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pushpush import __version__
from pushpush.cli import commands, main
from pushpush.link import link
from pushpush.spec import load_system
from pushpush.sysmap import to_json

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PINGPONG = str(EXAMPLES / "pingpong" / "system.yaml")
AUDIO = str(EXAMPLES / "audio_fir" / "system.yaml")


def test_validate_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", PINGPONG, str(EXAMPLES / "audio_fir")]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{PINGPONG}: OK: system 'pingpong': 3 components (2 rtl, 1 python), 2 exports, 3 imports, 8 slots",
        f"{EXAMPLES / 'audio_fir'}: OK: system 'audio_fir': 2 components (1 rtl, 1 python), 4 exports, "
        "1 import, 9 slots",
    ]
    assert err == ""


def test_validate_counts_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    """A riscv component is counted (the summary once named rtl, python and c only)."""
    yaml = str(EXAMPLES / "riscv_pingpong" / "system.yaml")
    assert main(["validate", yaml]) == 0
    out = capsys.readouterr().out
    assert "4 components (2 rtl, 1 python, 1 riscv)" in out, out


def test_validate_lists_all_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "system.yaml"
    bad.write_text("system: bad\nbord: x\ncomponents:\n  a:\n    kind: verilog\n  b:\n"
                   "    kind: python\n    imports: [fir.firr]\n")
    assert main(["validate", str(bad), PINGPONG]) == 1
    out, err = capsys.readouterr()
    assert out == f"{PINGPONG}: OK: system 'pingpong': 3 components (2 rtl, 1 python), 2 exports, 3 imports, 8 slots\n"
    assert err.splitlines() == [
        f"{bad}:2:1: unknown key 'bord' in the system description; did you mean 'board'?",
        f"{bad}:5:11: kind of component 'a' must be one of rtl, python, c, riscv, hls, not 'verilog'; write one of them, e.g. rtl",
        f"{bad}:8:15: import 'fir.firr' names no component 'fir'; components are: a, b",
        "pushpush: 3 errors in 1 file",
    ]


def test_validate_reports_a_missing_source_at_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "system.yaml"
    bad.write_text("system: s\ncomponents:\n  a:\n    kind: rtl\n    module: a\n"
                   "    sources: [rtl/a.v]\n    exports: {f: \"() -> void\"}\n")
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{bad}:6:15: ") and "rtl/a.v" in err[0]
    assert err[-1] == "pushpush: 1 error in 1 file"


def test_validate_reports_link_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "system.yaml"
    bad.write_text("system: s\nregions: {ps: {size: 0x1000}}\ncomponents:\n  a: {kind: c}\n  b: {kind: c}\n")
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{bad}:2:22: region 'ps' (base 0xFFFC0000, size 0x1000) is too small")
    assert err[1] == "pushpush: 1 error in 1 file"


def test_validate_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.yaml"
    assert main(["validate", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"pushpush: error: cannot read '{missing}': no such file\n"


def test_validate_directory_without_system_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"pushpush: error: cannot read '{tmp_path / 'system.yaml'}': no such file\n"


def test_validate_undecodable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "system.yaml"
    p.write_bytes(b"system: \xff\xfe\n")
    assert main(["validate", str(p)]) == 1  # an invalid description, at its place
    assert capsys.readouterr().err.startswith(f"{p}:1:9: byte 0xFF is not UTF-8; save the file as UTF-8")


def test_map_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", AUDIO]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "system audio_fir (system.yaml): board pynq-z1, 100 MHz, crossbar 32-bit round_robin"
    assert lines[1] == "regions: pl 0x43C00000-0x43FFFFFF (4 MiB), ps 0xFFFC0000-0xFFFCFFFF (64 KiB)"
    assert ("fir: rtl module fir_core, region pl, window 0x43C00000-0x43C00FFF (4 KiB, 15 of 1024 words used)"
            in lines)
    assert "  slot  kind          function  for    offset  words  trigger  address     trigger addr" in lines
    assert "     0  cep_static    fir       host        0      5        4  0x43C00000  0x43C00010" in lines
    assert "     4  rep_callback  fir       sink       14      1       14  0x43C00038  0x43C00038" in lines
    assert "  run-time area: words 6..261 at 0xFFFC0018" in lines
    assert "  import fir.fir: call 0x43C00000 (slot 0 of fir), result at 0xFFFC0014 (slot 3)" in lines


def test_map_json_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "--json", PINGPONG]) == 0
    out = capsys.readouterr().out
    assert out == to_json(link(load_system(PINGPONG)))
    assert json.loads(out)["schema"] == "pushpush.system-map"


def test_map_json_to_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "map.json"
    assert main(["map", "--json", "-o", str(target), str(EXAMPLES / "pingpong")]) == 0
    out, err = capsys.readouterr()
    assert out == "" and err == f"pushpush: wrote {target}\n"
    assert target.read_text() == to_json(link(load_system(PINGPONG)))


def test_map_output_unwritable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no" / "such" / "dir" / "map.json"
    assert main(["map", "--json", "-o", str(target), PINGPONG]) == 2
    assert capsys.readouterr().err.startswith(f"pushpush: error: cannot write '{target}'")


def test_map_invalid_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "system.yaml"
    bad.write_text("system: 1x\ncomponents: {a: {kind: c}}\n")
    assert main(["map", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"{bad}:1:9: system name '1x' is not a valid name; use letters, digits and '_', not starting "
        "with a digit (e.g. '_1x')",
        "pushpush: 1 error",
    ]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"pushpush {__version__}\n"


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "validate" in out and "map" in out and "examples:" in out
    for name in commands():
        assert main([name, "--help"]) == 0
        assert "examples:" in capsys.readouterr().out


def test_no_command_and_bad_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: pushpush" in capsys.readouterr().err
    assert main(["frobnicate"]) == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err
    assert main(["validate"]) == 2
    assert "the following arguments are required: SYSTEM_YAML" in capsys.readouterr().err


def test_help_names_every_experiment_and_target(capsys: pytest.CaptureFixture[str]) -> None:
    """The one-line helps list what the command takes, from the same tables it checks."""
    from pushpush.bench.registry import EXPERIMENTS
    from pushpush.build.fusesoc import TARGETS

    by_name = commands()
    assert all(name in by_name["bench"].help for name in EXPERIMENTS), by_name["bench"].help
    assert all(t in by_name["build"].help for t in TARGETS), by_name["build"].help
