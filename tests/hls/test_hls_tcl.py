"""The Vitis HLS side of ``kind: hls`` without Vitis HLS (pushpush.codegen.hls_tcl):

- the generated script (``hls/<component>/script.tcl``) runs under a Tcl stand-in of the
  Vitis HLS commands (tests/hls/vitis_hls_standin.tcl: options per UG1399's command
  reference, the order a session needs, files that exist, a testbench with main(), the top
  function defined in a design file, a Xilinx part, a positive clock period), as
  tests/board checks the Vivado Tcl with its stand-in;
- the stand-in takes scripts of the form PYNQ's own HLS IP scripts have (Xilinx/PYNQ at
  19ed17d4, boards/ip/hls/*/script.tcl, BSD-3-Clause: open_project, set_top, add_files
  [-tb], open_solution "solution1", set_part {xc7z020clg400-1}, create_clock -period 7,
  csynth_design, export_design -format ip_catalog -description .. [-version ..]
  -display_name .., exit); all eight of them ran under it unchanged when it was written;
  here a script of the same shapes with our own names stands for them;
- the stand-in refuses what Vitis HLS would (each case below);
- the C testbench and the user's C++ compiled by g++ and run, as csim_design would run them:
  examples/hls_pingpong's pingpong_step.cpp gives the values of the model that the
  example's Verilog is checked against on the simulated board (tests/hls/test_hls_simboard.py),
  so C++, model and Verilog agree.

Only Vitis HLS can confirm: that its csim/csynth/export accept the script (the command
reference's options are checked, not Vitis's own parser), the schedule it makes, and that the
exported Verilog's ports are those the adapter connects (pushpush generate checks those ports
when the exported Verilog is in `sources:`).
"""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

from pushpush.codegen.generate import generate
from pushpush.link import load

HERE = Path(__file__).parent
REPO = HERE.parents[1]
STANDIN = HERE / "vitis_hls_standin.tcl"
EXAMPLE = REPO / "examples" / "hls_pingpong"


def _standin(script: Path, cwd: Path, log: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["tclsh", str(STANDIN), script.name, str(cwd)], capture_output=True,
                          text=True, timeout=60, env={"STANDIN_LOG": str(log), "PATH": "/usr/bin:/bin"})


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    generate(load(EXAMPLE / "system.yaml"), tmp_path / "gen")
    return tmp_path / "gen" / "hls" / "callee"


def test_the_generated_script_runs_under_the_standin(generated: Path, tmp_path: Path) -> None:
    log = tmp_path / "log"
    r = _standin(generated / "script.tcl", generated, log)
    assert r.returncode == 0, r.stderr
    cmds = [line.split()[0] for line in log.read_text().splitlines()]
    assert cmds == ["open_project", "set_top", "add_files", "add_files", "open_solution", "set_part",
                    "create_clock", "csim_design", "csynth_design", "export_design", "exit"]
    text = log.read_text()
    assert "set_part xc7z020clg400-1" in text and "create_clock -period 10" in text
    assert "open_solution solution1 -flow_target vivado" in text
    assert "export_design -format ip_catalog -rtl verilog" in text


def test_the_part_and_period_follow_the_board_and_clock(tmp_path: Path) -> None:
    y = (EXAMPLE / "system.yaml").read_text().replace("board: pynq-z1", "board: zcu104").replace(
        "clock_mhz: 100", "clock_mhz: 125").replace("../pingpong/rtl/", str(REPO / "examples/pingpong/rtl") + "/")
    (tmp_path / "hls").mkdir()
    for f in (EXAMPLE / "hls").iterdir():
        (tmp_path / "hls" / f.name).write_bytes(f.read_bytes())
    (tmp_path / "system.yaml").write_text(y)
    generate(load(tmp_path / "system.yaml"), tmp_path / "gen")
    script = (tmp_path / "gen" / "hls" / "callee" / "script.tcl").read_text()
    assert "set_part {xczu7ev-ffvc1156-2-e}" in script and "create_clock -period 8\n" in script
    r = _standin(tmp_path / "gen" / "hls" / "callee" / "script.tcl", tmp_path / "gen" / "hls" / "callee",
                 tmp_path / "log")
    assert r.returncode == 0, r.stderr


PYNQ_SHAPED = """open_project demo
set_top demo
add_files demo/demo.cpp
add_files -tb demo/demo_test.cpp
open_solution "solution1"
set_part {xc7z020clg400-1}
create_clock -period 7
csynth_design
export_design -format ip_catalog -description "A demo core" -version "1.4" -display_name "Demo"
exit
"""


def test_the_standin_takes_the_form_of_pynqs_hls_scripts(tmp_path: Path) -> None:
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "demo.cpp").write_text("void demo(int a, int *b) {\n  *b = a;\n}\n")
    (tmp_path / "demo" / "demo_test.cpp").write_text("int main() {\n  return 0;\n}\n")
    (tmp_path / "script.tcl").write_text(PYNQ_SHAPED)
    r = _standin(tmp_path / "script.tcl", tmp_path, tmp_path / "log")
    assert r.returncode == 0, r.stderr
    assert len((tmp_path / "log").read_text().splitlines()) == 10


@pytest.mark.parametrize("old,new,error", [
    ("csynth_design\n", "", "export_design: csynth_design first"),
    ("set_top pingpong_step", "set_top pingpong_stop", "top function 'pingpong_stop' is not defined"),
    ("add_files pingpong_step.cpp", "add_files pingpong_step.cc", "'pingpong_step.cc' is not a file"),
    ("-rtl verilog", "-rtl systemc", "-rtl systemc is not verilog or vhdl"),
    ("-format ip_catalog", "-format zip", "-format zip is not one of"),
    ("-flow_target vivado", "-flow_target fpga", "-flow_target must be vivado or vitis"),
    ("set_part {xc7z020clg400-1}", "set_part {pynq-z1}", "is not a Xilinx part name"),
    ("create_clock -period 10", "create_clock -period -3", "is not a positive number"),
    ("create_clock -period 10", "create_clock -freq 100", "unknown option '-freq'"),
    ("add_files -tb callee_tb.cpp\n", "", "csim_design: no testbench"),
    ("csim_design\n", "csim_design\nrun_hls\n", "not a Vitis HLS command the stand-in knows: run_hls"),
    ('open_solution "solution1" -flow_target vivado\n', "", "no open solution"),
])
def test_the_standin_refuses(generated: Path, tmp_path: Path, old: str, new: str, error: str) -> None:
    script = generated / "script.tcl"
    text = script.read_text()
    assert old in text
    script.write_text(text.replace(old, new, 1))
    r = _standin(script, generated, tmp_path / "log")
    assert r.returncode == 1 and error in r.stderr, r.stderr


def _model(xs: list[int]) -> list[int]:
    # the example's app.py by its path: another example's `app` may be in sys.modules already
    spec = importlib.util.spec_from_file_location("hls_pingpong_app", EXAMPLE / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    i32, step_model = app.i32, app.step_model
    s, out = 0, []
    for x in xs:
        s = step_model(s, x)
        out.append(i32(s))
    return out


def test_the_c_testbench_runs_the_example_under_gpp(generated: Path, tmp_path: Path) -> None:
    exe = tmp_path / "csim"
    subprocess.run(["g++", "-std=c++14", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas",
                    "-o", str(exe), str(generated / "callee_tb.cpp"), str(generated / "pingpong_step.cpp")],
                   check=True, timeout=120)
    lines = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=10).stdout.splitlines()
    assert lines == [f"pingpong_step#{i} = {v}" for i, v in enumerate(_model([0, 1, 12345, -5000]))]


def test_the_testbench_declares_each_type_as_c_does(tmp_path: Path) -> None:
    (tmp_path / "hls").mkdir()
    (tmp_path / "hls" / "k.v").write_text("module k(); endmodule\n")
    (tmp_path / "hls" / "k.cpp").write_text(
        "#include <cstdio>\nvoid k(long long a, bool b, float c, unsigned short d, signed char e, double f) {\n"
        "  std::printf(\"%lld %d %g %u %d %g\\n\", a, (int)b, (double)c, (unsigned)d, (int)e, f);\n}\n")
    (tmp_path / "system.yaml").write_text(
        "system: t\nboard: none\ncomponents:\n  k:\n    kind: hls\n    module: k\n    sources: [hls/k.v]\n"
        "    hls_sources: [hls/k.cpp]\n"
        "    exports: {k: \"(a: i64, b: bool, c: f32, d: u16, e: i8, f: f64) -> void\"}\n"
        "  host:\n    kind: python\n    imports: [k.k]\n")
    generate(load(tmp_path / "system.yaml"), tmp_path / "gen", check_ports=False)
    d = tmp_path / "gen" / "hls" / "k"
    exe = tmp_path / "csim"
    subprocess.run(["g++", "-std=c++14", "-Wall", "-Wextra", "-Werror", "-o", str(exe),
                    str(d / "k_tb.cpp"), str(d / "k.cpp")], check=True, timeout=120)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=10).stdout.splitlines()
    assert out[:2] == ["0 1 0 0 0 0", "k#0 = void"]
    assert out[6:8] == ["-5000 1 1000.12 5000 -128 1000.12", "k#3 = void"]
