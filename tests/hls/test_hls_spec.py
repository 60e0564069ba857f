"""``kind: hls`` in system.yaml: what it accepts, what it refuses (each at its line, with the
fix), what it becomes (an rtl component whose module is the generated adapter, the HLS top
kept in ``hls_top`` through the linker and the system map), and the port check of the HLS
top against what the adapter connects."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.codegen.generate import GenerateError, generate_files
from pushpush.errors import SpecError
from pushpush.link import link
from pushpush.spec import load_system
from pushpush.sysmap import from_json, to_json

MODULE = """`default_nettype none
module add2(input wire ap_clk, input wire ap_rst, input wire ap_start, output wire ap_done,
            output wire ap_idle, output wire ap_ready, input wire [31:0] a, input wire [15:0] b,
            output wire [31:0] ap_return);
assign ap_done = ap_start; assign ap_ready = ap_start; assign ap_idle = !ap_start;
assign ap_return = a + {{16{b[15]}}, b} + {31'd0, ap_clk ^ ap_clk ^ ap_rst ^ ap_rst};
endmodule
"""


def _system(tmp: Path, hls: str, module: str = MODULE) -> Path:
    (tmp / "hls").mkdir(exist_ok=True)
    (tmp / "hls" / "add2.v").write_text(module)
    y = tmp / "system.yaml"
    y.write_text("system: s\nboard: none\ncomponents:\n  acc:\n    kind: hls\n" + hls
                 + "  host:\n    kind: python\n    imports: [acc.add]\n")
    return y


GOOD = "    module: add2\n    sources: [hls/add2.v]\n    exports: {add: \"(a: i32, b: i16) -> i32\"}\n"


def _errors(tmp: Path, hls: str) -> list[str]:
    with pytest.raises(SpecError) as e:
        load_system(_system(tmp, hls))
    return [str(d) for d in e.value.diagnostics]


def test_an_hls_component_is_an_rtl_component_around_its_adapter(tmp_path: Path) -> None:
    spec = load_system(_system(tmp_path, GOOD))
    acc = next(c for c in spec.components if c.name == "acc")
    assert (acc.kind, acc.module, acc.hls_top) == ("rtl", "acc_hls_adapter", "add2")
    linked = link(spec)
    c = linked.component("acc")
    assert (c.kind, c.module, c.hls_top, c.region) == ("rtl", "acc_hls_adapter", "add2", "pl")
    back = from_json(to_json(linked))
    assert back.component("acc").hls_top == "add2"
    files = generate_files(linked)
    adapter = files["rtl/acc_hls_adapter.v"]
    assert "templates/verilog/hls_adapter.v.j2" in adapter.splitlines()[0]
    assert "add2 hls_top (" in adapter and ".b (add_b)" in adapter
    assert "rtl/acc_hls_adapter.v" in files["s.core"]
    assert "acc_hls_adapter" in files["rtl/acc_wrapper.v"]


@pytest.mark.parametrize("extra,needle", [
    ("    imports: [host.g]\n", "calls or takes functions (a full HLS participant"),
    ("    abe: {nominal_burst: 4, max_outstanding: 1}\n", "hls component 'acc' cannot have 'abe'"),
    ("    runtime_words: 16\n", "cannot have 'runtime_words'"),
    ("    reply_timeout: 100\n", "cannot have 'reply_timeout'"),
])
def test_keys_an_hls_component_cannot_have(tmp_path: Path, extra: str, needle: str) -> None:
    errors = _errors(tmp_path, GOOD + extra)
    assert any(needle in e for e in errors), errors
    assert all(e.startswith(str(tmp_path / "system.yaml") + ":") for e in errors)


def test_one_export_of_scalars(tmp_path: Path) -> None:
    two = ("    module: add2\n    sources: [hls/add2.v]\n    exports:\n"
           "      add: \"(a: i32, b: i16) -> i32\"\n      sub: \"(a: i32) -> i32\"\n")
    errors = _errors(tmp_path, two)
    assert any(":10:" in e and "must export exactly one function" in e for e in errors), errors
    fn = "    module: add2\n    sources: [hls/add2.v]\n    exports: {add: \"(a: i32, b: (i32) -> i32) -> i32\"}\n"
    errors = _errors(tmp_path, fn)
    # a function parameter makes it a full participant, which needs its C++ (hls_sources)
    assert any("calls or takes functions" in e and "hls_sources" in e for e in errors), errors
    buf = "    module: add2\n    sources: [hls/add2.v]\n    exports: {add: \"(a: i32, b: in i32[]) -> i32\"}\n"
    errors = _errors(tmp_path, buf)
    assert any("parameter 'b' of 'add' is a buffer" in e for e in errors), errors
    res = "    module: add2\n    sources: [hls/add2.v]\n    exports: {add: \"(a: i32, b: i16) -> (i32) -> i32\"}\n"
    errors = _errors(tmp_path, res)
    assert any("calls or takes functions" in e for e in errors), errors
    none = "    module: add2\n    sources: [hls/add2.v]\n"
    errors = _errors(tmp_path, none)
    assert any("must export exactly one function" in e for e in errors), errors


def test_module_and_sources_are_required(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "    sources: [hls/add2.v]\n    exports: {add: \"(a: i32, b: i16) -> i32\"}\n")
    assert any("module" in e for e in errors), errors
    errors = _errors(tmp_path, "    module: add2\n    exports: {add: \"(a: i32, b: i16) -> i32\"}\n")
    assert any("sources" in e for e in errors), errors


def test_the_hls_tops_ports_are_checked(tmp_path: Path) -> None:
    pytest.importorskip("pyslang")
    wrong = MODULE.replace("input wire [15:0] b", "input wire [31:0] b").replace(
        "output wire ap_idle,", "")
    linked = link(load_system(_system(tmp_path, GOOD, wrong)))
    with pytest.raises(GenerateError) as e:
        generate_files(linked)
    text = str(e.value)
    assert "has no port 'ap_idle'; the ap_ctrl_hs adapter connects 'output ap_idle'" in text
    assert "port 'b' of module 'add2'" in text and "32 bits wide" in text
    other = MODULE.replace("module add2", "module add3")
    linked = link(load_system(_system(tmp_path, GOOD, other)))
    with pytest.raises(GenerateError) as e:
        generate_files(linked)
    assert "module 'add2' is not defined" in str(e.value)


def test_hls_sources_go_through_link_and_the_map_and_only_hls_has_them(tmp_path: Path) -> None:
    (tmp_path / "hls").mkdir(exist_ok=True)
    (tmp_path / "hls" / "add2.cpp").write_text("int add2(int a, short b) {\n  return a + b;\n}\n")
    linked = link(load_system(_system(tmp_path, GOOD + "    hls_sources: [hls/add2.cpp]\n")))
    assert linked.component("acc").hls_sources == ("hls/add2.cpp",)
    assert from_json(to_json(linked)).component("acc").hls_sources == ("hls/add2.cpp",)
    y = tmp_path / "other.yaml"
    y.write_text("system: s\nboard: none\ncomponents:\n  r:\n    kind: rtl\n    module: add2\n"
                 "    sources: [hls/add2.v]\n    hls_sources: [hls/add2.cpp]\n"
                 "    exports: {add: \"(a: i32, b: i16) -> i32\"}\n")
    with pytest.raises(SpecError) as e:
        load_system(y)
    assert any(":8:5: rtl component 'r' cannot have 'hls_sources' (only hls components have the HLS "
               "C++ of a top function); remove it or use 'kind: hls'" in str(d) for d in e.value.diagnostics), \
        [str(d) for d in e.value.diagnostics]


def test_missing_verilog_and_stub_say_what_an_hls_component_needs(tmp_path: Path) -> None:
    from pushpush.codegen.generate import write_stub

    y = _system(tmp_path, GOOD.replace("hls/add2.v", "hls/exported/add2.v"))
    linked = link(load_system(y))
    with pytest.raises(GenerateError) as e:
        generate_files(linked)
    assert "source 'hls/exported/add2.v' of component 'acc' does not exist" in str(e.value)
    assert "the Verilog Vitis HLS exported" in str(e.value) and "--stub" not in str(e.value)
    with pytest.raises(GenerateError) as e:
        write_stub(linked, "acc", tmp_path / "stub.v")
    assert "is kind: hls" in str(e.value)


def test_a_combinational_top_has_no_clock_and_half_a_clock_is_refused(tmp_path: Path) -> None:
    comb = ("`default_nettype none\nmodule add2(input wire ap_start, output wire ap_done, output wire ap_idle,\n"
            "  output wire ap_ready, input wire [31:0] a, input wire [15:0] b, output wire [31:0] ap_return);\n"
            "assign ap_done = ap_start; assign ap_ready = ap_start; assign ap_idle = 1'b1;\n"
            "assign ap_return = a + {{16{b[15]}}, b};\nendmodule\n")
    adapter = generate_files(link(load_system(_system(tmp_path, GOOD, comb))))["rtl/acc_hls_adapter.v"]
    assert ".ap_clk" not in adapter and "is combinational" in adapter
    clocked = generate_files(link(load_system(_system(tmp_path, GOOD))))["rtl/acc_hls_adapter.v"]
    assert ".ap_clk   (clk)" in clocked and ".ap_rst   (rst)" in clocked
    half = comb.replace("module add2(input wire ap_start", "module add2(input wire ap_clk, input wire ap_start")
    with pytest.raises(GenerateError) as e:
        generate_files(link(load_system(_system(tmp_path, GOOD, half))))
    assert "has ap_clk without ap_rst" in str(e.value) and "ap_rst_n" in str(e.value)
