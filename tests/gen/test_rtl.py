"""pushpush.codegen.rtl without simulation: the port contract, name checks, determinism,
stubs, and lint of generated systems (Icarus and Verilator, -Wall, no warnings)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from gensim import core_rtl_files, generate_system, lint, load_example

from pushpush import __version__
from pushpush.codegen.render import GenerateError, environment
from pushpush.codegen.fabric import core_dependencies, top_module_name, wrapper_module_name
from pushpush.codegen.ports import UserPort, check_names, user_ports
from pushpush.codegen.rtl import render_rtl, render_stub
from pushpush.link import link
from pushpush.spec import load_system, parse_system

HERE = Path(__file__).resolve().parent


def _ports(linked, comp):
    return [(p.name, p.direction, p.width, p.group, p.optional)
            for p in user_ports(linked.component(comp))]


def test_pingpong_ports():
    linked = load_example("pingpong")
    assert _ports(linked, "callee") == [
        ("clk", "input", 1, "", False), ("rst", "input", 1, "", False),
        ("f_valid", "input", 1, "f", False), ("f_ready", "output", 1, "f", False),
        ("f_x", "input", 32, "f", False),
        ("f_result_valid", "output", 1, "f", False), ("f_result_ready", "input", 1, "f", False),
        ("f_result", "output", 32, "f", False),
        ("f_handle", "input", 32, "f", True),
    ]
    assert [p[0] for p in _ports(linked, "caller")] == [
        "clk", "rst", "run_valid", "run_ready", "run_n", "run_result_valid", "run_result_ready",
        "run_result", "run_handle", "callee_f_valid", "callee_f_ready", "callee_f_x",
        "callee_f_result_valid", "callee_f_result_ready", "callee_f_result",
        "callee_f_result_error"]
    assert _ports(linked, "caller")[-1] == ("callee_f_result_error", "input", 1, "callee_f", False)


def test_callback_and_type_ports():
    linked = load_example("audio_fir")
    ports = {p[0]: p[1:] for p in _ports(linked, "fir")}
    assert ports["fir_coeff"] == ("input", 32, "fir", False)          # the handle
    assert ports["fir_taps"] == ("input", 32, "fir", False)
    assert "fir_result" not in ports                                   # void
    assert ports["fir_coeff_valid"] == ("output", 1, "fir_coeff", False)
    assert ports["fir_coeff_arg0"] == ("output", 32, "fir_coeff", False)
    assert ports["fir_coeff_result"] == ("input", 32, "fir_coeff", False)
    assert "fir_src_arg0" not in ports and ports["fir_src_result"][1] == 32
    assert "fir_sink_result" not in ports and ports["fir_sink_result_error"][0] == "input"
    linked = link(load_system(HERE / "hof" / "system.yaml"))
    widths = {p[0]: p[2] for p in _ports(linked, "mixer")}
    assert (widths["mix_a"], widths["mix_b"], widths["mix_c"], widths["mix_d"],
            widths["mix_result"]) == (8, 16, 64, 1, 64)
    vm = environment().get_template("verilog/wrapper_macros.v.j2").module
    assert vm.port_decl(UserPort("mix_a", "input", 8, "mix")) == "input  wire [7:0] mix_a"
    assert vm.port_decl(UserPort("mix_d", "output", 1, "mix")) == "output wire mix_d"


def _linked(tmp_path: Path, text: str):
    p = tmp_path / "system.yaml"
    p.write_text(textwrap.dedent(text))
    return link(load_system(p))


def test_check_names(tmp_path):
    assert check_names(load_example("pingpong")) == []
    assert check_names(load_example("audio_fir")) == []
    bad = _linked(tmp_path, """\
        system: clash
        components:
          a:
            kind: rtl
            module: b_wrapper
            sources: [a.v]
            exports:
              f: "(valid: i32) -> i32"
              b_g: "(x: i32) -> void"
            imports: [b.g]
          b:
            kind: rtl
            module: pp_b
            sources: [b.v]
            exports: {g: "(x: i32) -> void"}
        """)
    msgs = check_names(bad)
    text = "\n".join(msgs)
    assert all(m.startswith("system.yaml: ") or "system.yaml" in m for m in msgs)
    assert "module 'b_wrapper' has the name of the wrapper of component 'b'" in text
    assert "module 'pp_b': names starting with 'pp_' are reserved" in text
    assert "parameter 'valid' of export 'f' would be port 'f_valid'" in text
    assert "export 'b_g' and import 'b.g'" in text or "import 'b.g' and export 'b_g'" in text
    with pytest.raises(GenerateError, match="cannot generate RTL"):
        render_rtl(bad)


def test_render_is_deterministic_and_headed():
    linked = load_example("pingpong")
    a, b = render_rtl(linked), render_rtl(load_example("pingpong"))
    assert a == b
    assert sorted(a) == ["rtl/callee_wrapper.v", "rtl/caller_wrapper.v", "rtl/pingpong_top.v"]
    assert top_module_name(linked) == "pingpong_top"
    assert wrapper_module_name(linked.component("caller")) == "caller_wrapper"
    templates = {"rtl/callee_wrapper.v": "verilog/wrapper.v.j2", "rtl/caller_wrapper.v": "verilog/wrapper.v.j2",
                 "rtl/pingpong_top.v": "verilog/top.v.j2", "stub": "verilog/stub.v.j2"}
    for name, text in list(a.items()) + [("stub", render_stub(linked, "callee"))]:
        lines = text.splitlines()
        # the header names the input and the template the file came from; the stub is the
        # user's file from then on, so it says so instead of "Do not edit"
        if name == "stub":
            assert lines[0] == (f"// Skeleton by pushpush {__version__} from system.yaml with "
                                f"templates/{templates[name]}: yours to edit (generate --stub "
                                f"overwrites it only with --force).")
        else:
            assert lines[0] == (f"// Generated by pushpush {__version__} from system.yaml with "
                                f"templates/{templates[name]}. Do not edit: regenerate.")
        assert "`default_nettype none" in lines and lines[-1] == "`default_nettype wire"
        assert text.endswith("\n")
    # addresses come from the linked model
    top = a["rtl/pingpong_top.v"]
    assert "32'h43C00000" in top and "32'h43C01000" in top and "32'hFFFC0000" in top
    assert "32'h43C01000" in a["rtl/caller_wrapper.v"]      # callee.f's slot for caller
    assert {p.name for p in core_rtl_files()} >= {"pp_call_engine.v", "pp_endpoint_mem.v",
                                                   "pp_axi_interconnect.v"}
    assert core_dependencies() == ["axi_slave", "call_engine", "endpoint_mem", "req_arbiter", "call_site", "export", "interconnect", "abe",
                                   "ps_window", "irq", "axi_dma", "chnl"]
    assert "pp_irq_pending #(" in top and "32'h43C02000" in top   # the interrupt block, after the windows


def test_optional_handle_connected_when_present():
    linked = load_example("pingpong")
    plain = render_rtl(linked)["rtl/callee_wrapper.v"]
    assert ".f_handle(" not in plain
    with_handle = render_rtl(linked, {"callee": {"f_handle"}})["rtl/callee_wrapper.v"]
    addr = linked.component("callee").slots[linked.component("callee").export("f").dynamic_slots[0]].address
    assert f".f_handle(32'h{addr:08X})" in with_handle


def test_no_rtl_no_files(tmp_path):
    linked = _linked(tmp_path, """\
        system: soft
        components:
          a: {kind: python, exports: {f: "() -> void"}}
        """)
    assert render_rtl(linked) == {}


@pytest.mark.parametrize("example,comp", [("pingpong", "caller"), ("pingpong", "callee"),
                                          ("audio_fir", "fir"), ("hof", "mapper"), ("hof", "mixer")])
def test_stub_lints_clean(tmp_path, example, comp):
    linked = (link(load_system(HERE / "hof" / "system.yaml")) if example == "hof"
              else load_example(example))
    module = linked.component(comp).module
    path = tmp_path / f"{module}.v"
    path.write_text(render_stub(linked, comp))
    assert lint([path], module) == []


@pytest.mark.parametrize("data_width,topology", [(32, "crossbar"), (64, "shared")])
def test_audio_fir_with_stub_lints_clean(tmp_path, data_width, topology):
    """The higher-order example (callbacks with void and argument-less signatures), with the
    generated stub standing in for the user's fir_core."""
    linked = load_example("audio_fir", data_width=data_width, topology=topology)
    gen = generate_system(linked, tmp_path / "gen")
    stub = tmp_path / "fir_core.v"
    stub.write_text(render_stub(linked, "fir"))
    sources = [s for s in gen.sources if s.parent.name != "rtl" or "gen" in s.parts] + [stub]
    sources = [s for s in sources if s.exists()]
    assert lint(sources, gen.top) == []


def test_yaml_without_positions_still_generates():
    text = (HERE / "hof" / "system.yaml").read_text()
    linked = link(parse_system(text, file="system.yaml", base_dir=HERE / "hof"))
    assert set(render_rtl(linked)) == {"rtl/mapper_wrapper.v", "rtl/sq_wrapper.v",
                                       "rtl/mixer_wrapper.v", "rtl/hof_top.v"}


def test_check_names_duplicate_port(tmp_path):
    linked = _linked(tmp_path, """\
        system: dup
        components:
          a:
            kind: rtl
            module: a
            sources: [a.v]
            exports:
              f: "(p: (i32) -> i32, p_valid: i32) -> void"
        """)
    assert check_names(linked) == [
        "system.yaml: component 'a': two ports would be called 'f_p_valid' (port groups 'f' "
        "and 'f_p'); rename a function or parameter"]


def test_self_import_lints_clean(tmp_path):
    """A component calling its own export (its engine writes into its own window)."""
    d = tmp_path / "selfish"
    d.mkdir()
    (d / "system.yaml").write_text(textwrap.dedent("""\
        system: selfish
        interconnect: {topology: shared}
        components:
          a:
            kind: rtl
            module: self_caller
            sources: [self_caller.v]
            exports: {f: "(x: u64) -> bool"}
            imports: [a.f]
        """))
    linked = link(load_system(d / "system.yaml"))
    (d / "self_caller.v").write_text(render_stub(linked, "a"))
    gen = generate_system(linked, tmp_path / "gen")
    assert lint(gen.sources, gen.top) == []


def test_small_and_wide_shapes_lint_clean(tmp_path):
    """An import-only component (one requester, tagged), an export without arguments or
    result, an export with three static importers and two dynamic slots, 64-bit data."""
    d = tmp_path / "shapes"
    d.mkdir()
    (d / "system.yaml").write_text(textwrap.dedent("""\
        system: shapes
        interconnect: {data_width: 64}
        components:
          a: {kind: rtl, module: shp_a, sources: [shp_a.v], imports: [b.g, b.h]}
          c: {kind: rtl, module: shp_c, sources: [shp_c.v], imports: [b.h]}
          b:
            kind: rtl
            module: shp_b
            sources: [shp_b.v]
            exports:
              g: "() -> void"
              h: {signature: "(f64, i16, bool) -> f64", dynamic_slots: 2}
          host: {kind: python, imports: [b.h]}
        """))
    linked = link(load_system(d / "system.yaml"))
    for comp in ("a", "b", "c"):
        (d / f"{linked.component(comp).module}.v").write_text(render_stub(linked, comp))
    gen = generate_system(linked, tmp_path / "gen")
    assert lint(gen.sources, gen.top) == []
