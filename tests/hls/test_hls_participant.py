"""The full HLS participant's generated C++ (docs/hls.md, "The full HLS participant"): what the
spec makes of it, the files ``pushpush generate`` writes (header, top with the interface
pragmas, testbench, Vitis HLS script), the testbench compiled with g++ and run (the serve
step takes each call from the local memory, calls the function values and imports, answers
with the caller's SEQ echoed), and the script under the Vitis HLS stand-in. The whole example
on the simulated board is tests/hls/test_hls_callback.py (slow)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pushpush.codegen.generate import generate
from pushpush.errors import SpecError
from pushpush.link import link
from pushpush.spec import load_system

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "hls_callback"
STANDIN = Path(__file__).resolve().parent / "vitis_hls_standin.tcl"
GXX = ["g++", "-std=c++14", "-O1", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas"]


def _tb(folder: Path, component: str) -> list[str]:
    srcs = sorted(p.name for p in folder.glob("*.cpp"))
    r = subprocess.run([*GXX, *srcs, "-o", "tb"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(["./tb"], cwd=folder, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.splitlines()


def test_the_example_loads_as_a_participant_in_the_pl_or_as_c() -> None:
    from pushpush.link import load_csim

    linked = link(load_system(EXAMPLE / "system.yaml"))
    w = linked.component("worker")
    # in the PL: the IP's placement, a window laid out like a software window (docs/hls.md)
    assert (w.kind, w.region, w.module, w.hls_top, w.sources) == (
        "hls", "pl", "worker_hls_place", "worker_top", ("hls/worker_top.v",))
    assert [s.kind for s in w.slots] == ["cep_static", "cep_static", "cep_dynamic"]
    assert w.runtime_words >= 2   # the return slot of calls through function values
    # the C simulation form: a software window in the ARM's memory
    c = load_csim(EXAMPLE / "system.yaml").component("worker")
    assert (c.kind, c.region, c.hls_top, c.sources) == ("c", "ps", "worker_top", ())
    assert [s.offset for s in c.slots] == [s.offset for s in w.slots] and c.runtime_offset == w.runtime_offset


def test_generate_writes_the_hls_side_and_its_testbench_runs(tmp_path: Path) -> None:
    generate(link(load_system(EXAMPLE / "system.yaml")), tmp_path / "gen")
    folder = tmp_path / "gen" / "hls" / "worker"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["apply.cpp", "pp_protocol.h", "script.tcl", "worker_pp.hpp", "worker_tb.cpp",
                     "worker_top.cpp"]
    # in the PL: the placement among the rtl files, the IP's Verilog copied, both in the top
    top = (tmp_path / "gen" / "rtl" / "hls_callback_top.v").read_text()
    assert "worker_hls_place #(" in top and "1 worker (HLS IP's m_axi)" in top
    assert (tmp_path / "gen" / "rtl" / "worker_hls_place.v").is_file()
    assert (tmp_path / "gen" / "src" / "worker" / "worker_top.v").is_file()
    assert "rtl/worker_hls_place.v" in (tmp_path / "gen" / "hls_callback.core").read_text()
    top = (folder / "worker_top.cpp").read_text()
    for pragma in ("#pragma HLS INTERFACE mode=m_axi port=bus offset=off",
                   "#pragma HLS INTERFACE mode=ap_memory port=mem",
                   "#pragma HLS INTERFACE mode=ap_ctrl_none port=return"):
        assert pragma in top
    hpp = (folder / "worker_pp.hpp").read_text()
    assert "template <> class fn<int(int)>" in hpp and "memcpy(io().bus + addr / 4u" in hpp
    assert '#include "pp_protocol.h"' in hpp and "PP_TRIGGER_REP_MASK" in hpp
    # apply(f, x) = f(x) + 1 with the testbench's f answering its argument: x + 1, one callback
    # per call, the status echoing the SEQ the testbench alternates
    lines = _tb(folder, "worker")
    assert lines == [f"apply#{i} = {x + 1} (status 0x{0x40000001 if i & 1 else 1:08X}, callbacks {i + 1})"
                     for i, x in enumerate([0, 1, 12345, -5000])], lines
    log = tmp_path / "log"
    r = subprocess.run(["tclsh", str(STANDIN), "script.tcl", str(folder)], capture_output=True, text=True,
                       timeout=60, env={"STANDIN_LOG": str(log), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stdout + r.stderr
    steps = [ln.split()[0] for ln in log.read_text().splitlines()]
    assert steps[:2] == ["open_project", "set_top"] and steps[-4:] == ["csim_design", "csynth_design",
                                                                    "export_design", "exit"]
    assert "set_top worker_top" in log.read_text()


RICH = """system: rich
board: pynq-z1
components:
  acc:
    kind: hls
    module: acc_top
    sources: [hls/acc_top.v]
    hls_sources: [hls/acc.cpp]
    exports:
      mix: "(f: (a: i64, b: f32) -> f64, g: () -> void, x: u16) -> i64"
      pick: "(h: (u8) -> bool, n: u8) -> (u8) -> bool"
      fire: "(v: i32) -> void"
    imports: [host.twice]
  host:
    kind: python
    exports: {twice: "(a: i32) -> i32"}
    imports: [acc.mix, acc.pick, acc.fire]
"""

RICH_CPP = """#include "acc_pp.hpp"
static int fired;
long long mix(pp::fn<double(long long, float)> f, pp::fn<void()> g, unsigned short x)
{
    g();
    double d = f(-3000000000LL + x, 0.5f);          // the stand-in answers its first word
    return (long long)pp::host_twice((int)x) + (pp::failed() ? 1000000 : 0) + (d != 0.0 ? 1 : 0);
}
pp::fn<bool(unsigned char)> pick(pp::fn<bool(unsigned char)> h, unsigned char n)
{
    return n == 1 ? h : pp::fn<bool(unsigned char)>(0x1234u);
}
void fire(int v) { fired += v; }
"""


def test_every_type_and_nested_function_values_compile_and_serve(tmp_path: Path) -> None:
    (tmp_path / "hls").mkdir()
    (tmp_path / "hls" / "acc_top.v").write_text("// the exported IP would be here\n")
    (tmp_path / "hls" / "acc.cpp").write_text(RICH_CPP)
    (tmp_path / "system.yaml").write_text(RICH)
    linked = link(load_system(tmp_path / "system.yaml"))
    generate(linked, tmp_path / "gen")
    folder = tmp_path / "gen" / "hls" / "acc"
    hpp = (folder / "acc_pp.hpp").read_text()
    for sig in ("fn<double(long long, float)>", "fn<void()>", "fn<bool(unsigned char)>"):
        assert f"template <> class fn<{sig[3:-1]}>" in hpp, sig
    assert "inline int host_twice(int a)" in hpp
    lines = _tb(folder, "acc")
    mix = [ln for ln in lines if ln.startswith("mix#")]
    pick = [ln for ln in lines if ln.startswith("pick#")]
    fire = [ln for ln in lines if ln.startswith("fire#")]
    assert len(mix) == len(pick) == len(fire) == 4, lines
    # mix: host_twice's stand-in answers its argument x, f's stand-in a non-zero double
    assert [int(re.search(r"= (-?\d+)", ln).group(1)) for ln in mix] == [1, 2, 12346, 5001], mix
    # pick: n = 1 returns h (the third function parameter: the stand-in at 0x1000 + 2 * 64)
    assert [re.search(r"= (0x\w+)", ln).group(1) for ln in pick] == ["0x00001234", "0x00001080",
                                                                     "0x00001234", "0x00001234"], pick
    assert all("status 0x" in ln for ln in lines)
    assert all("void (status 0x" in ln for ln in fire)


def test_a_participant_needs_its_cpp_and_takes_no_buffers(tmp_path: Path) -> None:
    (tmp_path / "hls").mkdir()
    (tmp_path / "hls" / "x.v").write_text("\n")
    y = tmp_path / "system.yaml"
    y.write_text("system: s\nboard: none\ncomponents:\n  acc:\n    kind: hls\n    module: acc_top\n"
                 "    sources: [hls/x.v]\n    exports: {a: \"(f: () -> i32, b: in i32[]) -> i32\"}\n"
                 "  host:\n    kind: python\n    imports: [acc.a]\n")
    with pytest.raises(SpecError) as e:
        load_system(y)
    text = [str(d) for d in e.value.diagnostics]
    assert any(":4:3:" in t and "hls_sources: [hls/acc.cpp]" in t for t in text), text
    assert any("parameter 'b' of 'a' is a buffer" in t for t in text), text


def test_gxx_is_here() -> None:
    assert shutil.which("g++"), "g++ is missing: apt-get install g++ (bootstrap.sh installs it)"


def test_an_ap_ctrl_hs_top_in_c_simulation_is_not_a_participant() -> None:
    from pushpush.codegen.hls_pp import is_participant
    from pushpush.link import load_csim

    pingpong = load_csim(REPO / "examples" / "hls_pingpong" / "system.yaml").component("callee")
    assert (pingpong.kind, pingpong.hls_top) == ("c", "pingpong_step") and not is_participant(pingpong)
    assert is_participant(load_csim(EXAMPLE / "system.yaml").component("worker"))
    assert is_participant(link(load_system(EXAMPLE / "system.yaml")).component("worker"))
