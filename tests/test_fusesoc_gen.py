"""The FuseSoC generator 'pushpush' (pushpush.fusesoc_gen), run by real FuseSoC: a user's own
.core that is "the pushpush system described by system.yaml" lints and builds in one
``fusesoc run``, and errors in the YAML reach the user with their positions."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pushpush.fusesoc_gen import GENERATOR_VLNV, cores_root

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

USER_CORE = """\
CAPI=2:
name: me:demo:{name}:0.1.0
description: the pushpush system of system.yaml, as my own core

filesets:
  generator:
    depend: ["pushpush:gen:pushpush"]

generate:
  system:
    generator: pushpush
    parameters: {{system: system.yaml}}

targets:
  default: &default
    filesets: [generator]
    generate: [system]
    toplevel: {name}_top
  lint:
    <<: *default
    flow: lint
    flow_options: {{tool: verilator, verilator_options: [-Wall]}}
  sim:
    <<: *default
    flow: sim
    flow_options: {{tool: icarus, iverilog_options: [-g2005, -Wall]}}
"""

pytestmark = pytest.mark.skipif(not (BIN / "fusesoc").exists() and shutil.which("fusesoc") is None,
                                reason="needs FuseSoC (pip install 'pushpush-fpga[sim]')")


def fusesoc(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # python3 on PATH is this interpreter, which imports this checkout's pushpush
    env = dict(os.environ, PYTHONPATH=str(REPO), PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    exe = str(BIN / "fusesoc") if (BIN / "fusesoc").exists() else "fusesoc"
    return subprocess.run([exe, "--cores-root", ".", "--cores-root", str(cores_root()), *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture
def pingpong(tmp_path: Path) -> Path:
    """examples/pingpong with a user .core beside its system.yaml."""
    folder = tmp_path / "pingpong"
    shutil.copytree(REPO / "examples" / "pingpong", folder)
    (folder / "pingpong.core").write_text(USER_CORE.format(name="pingpong"))
    return tmp_path


def work_root(root: Path, target: str) -> Path:
    return root / "build" / "me_demo_pingpong_0.1.0" / target


def test_cores_root_holds_the_generator() -> None:
    core = yaml.safe_load((cores_root() / "pushpush_gen.core").read_text())
    assert core["name"] == GENERATOR_VLNV
    gen = core["generators"]["pushpush"]
    assert gen["interpreter"] == "python3" and (cores_root() / gen["command"]).is_file()
    out = subprocess.run([sys.executable, "-m", "pushpush.fusesoc_gen", "--cores-root"],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)),
                         timeout=60)
    assert out.returncode == 0 and Path(out.stdout.strip()) == cores_root()


def test_lint_in_one_command(pingpong: Path) -> None:
    proc = fusesoc(pingpong, "run", "--target", "lint", "me:demo:pingpong")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Generating me:demo:pingpong-system:0.1.0" in proc.stderr + proc.stdout
    root = work_root(pingpong, "lint")
    vc = (root / "me_demo_pingpong_0.1.0.vc").read_text().split()
    assert "-Wall" in vc and vc[vc.index("--top-module") + 1] == "pingpong_top"
    files = [Path(f).name for f in vc if f.endswith(".v")]
    # the pushpush cores, the user's modules, the wrappers, the top last
    assert {"pp_call_engine.v", "pp_endpoint_mem.v", "pp_axi_interconnect.v", "pingpong_callee.v",
            "pingpong_caller.v", "callee_wrapper.v", "caller_wrapper.v"} <= set(files)
    assert files[-1] == "pingpong_top.v"
    assert "%Warning" not in proc.stdout + proc.stderr


def test_generated_core_is_self_contained(pingpong: Path) -> None:
    proc = fusesoc(pingpong, "run", "--setup", "--target", "lint", "me:demo:pingpong")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cores = list(work_root(pingpong, "lint").glob("generator_cache/*/*.core"))
    assert len(cores) == 1, cores  # FuseSoC reads every .core there: only the generator's
    text = cores[0].read_text()
    assert "template templates/fusesoc/generated.core.j2" in text.splitlines()[1]
    core = yaml.safe_load(text)
    assert core["name"] == "me:demo:pingpong-system:0.1.0"
    assert all("depend" not in fs for fs in core["filesets"].values())
    for fs in core["filesets"].values():
        for f in fs["files"]:
            name = f if isinstance(f, str) else next(iter(f))
            assert (cores[0].parent / name).is_file(), f
    # the system map, for a cocotb test of the system, lands in the work root
    assert core["filesets"]["map"]["files"] == [{"pingpong.map.json": {"copyto": "pingpong.map.json"}}]
    assert (work_root(pingpong, "lint") / "pingpong.map.json").is_file()


def test_sim_builds(pingpong: Path) -> None:
    proc = fusesoc(pingpong, "run", "--target", "sim", "me:demo:pingpong")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (work_root(pingpong, "sim") / "me_demo_pingpong_0.1.0").is_file()  # the vvp image


def test_yaml_errors_reach_the_user_with_positions(pingpong: Path) -> None:
    yml = pingpong / "pingpong" / "system.yaml"
    text = yml.read_text()
    line = text.splitlines().index("    kind: python") + 1
    yml.write_text(text.replace("    kind: python", "    kind: pyton"))
    proc = fusesoc(pingpong, "run", "--target", "lint", "me:demo:pingpong")
    assert proc.returncode != 0
    assert (f"{yml}:{line}:11: kind of component 'host' must be one of rtl, python, c, riscv, hls, not "
            f"'pyton'; did you mean 'python'?") in proc.stderr
    assert "pushpush generator: 1 error in the system description; nothing was generated" in proc.stderr
    assert "Failed to run generator 'system'" in proc.stderr


def test_missing_source_is_reported(pingpong: Path) -> None:
    (pingpong / "pingpong" / "rtl" / "pingpong_callee.v").unlink()
    proc = fusesoc(pingpong, "run", "--target", "lint", "me:demo:pingpong")
    assert proc.returncode != 0
    assert "pingpong_callee.v" in proc.stderr and "nothing was generated" in proc.stderr


def test_unknown_parameter(pingpong: Path) -> None:
    core = pingpong / "pingpong" / "pingpong.core"
    core.write_text(core.read_text().replace("{system: system.yaml}", "{sytem: system.yaml}"))
    proc = fusesoc(pingpong, "run", "--target", "lint", "me:demo:pingpong")
    assert proc.returncode != 0
    assert ("generator 'pushpush' (requested by core 'me:demo:pingpong-system:0.1.0'): unknown "
            "parameter sytem; parameters: system") in proc.stderr


# --------------------------------------------------------------------------- cocotb targets


def test_cores_with_a_cocotb_target() -> None:
    from pushpush.build.cocotb_fusesoc import cores_with_bench

    assert cores_with_bench() == ["abe", "axi_dma", "axil_bridge", "call_engine", "call_site", "chnl", "endpoint_mem", "export", "interconnect", "irq",
                                  "mem_firewall", "ps_window",
                                  "req_arbiter", "sim_ps", "traffic_gen"]


def test_abe_bench_through_fusesoc(tmp_path: Path) -> None:
    """cores/abe's cocotb target, through FuseSoC and Edalize's sim flow, with the wrapper."""
    from pushpush.build.cocotb_fusesoc import run_core_bench

    assert run_core_bench("abe", build_root=tmp_path, progress=lambda s: None) == 4


#: core -> (cocotb tests in its bench, the configuration the bench must read from the DUT)
DUT_CONFIGURED = {
    # the channel adapters' default timeout, moderate gaps (pp_chnl_rx, the target's toplevel)
    "chnl": (2, '{"TIMEOUT": 16384, "gap": 0.3, "seed": 1}'),
    # the 8-slot table the .core's comment spells out, 32-bit bus, 256-byte window
    "endpoint_mem": (10, '{"data_width": 32, "addr_width": 8, "words": 42, "slots": [[1, 3], [4, 4], '
                        '[6, 9], [12, 12], [13, 17], [20, 27], [30, 31], [40, 41]], "enable_read": 1}'),
    "interconnect": (8, "{'S': 2, 'M': 2, 'DW': 32, 'TOPOLOGY': 0, 'ARBITRATION': 0, 'READ_TOPOLOGY': 0, "
                     "'SKID_BUFFERS': 1, 'OPS': 20, 'M_CONNECT': 15}"),
    "req_arbiter": (1, '{"N": 3, "MAX_WORDS": 2, "NW_WIDTH": 2, "TRACK_DONE": 1, "TAG_BITS": 3}'),
}


@pytest.mark.parametrize("core", sorted(DUT_CONFIGURED))
def test_bench_configured_by_the_dut_through_fusesoc(core: str, tmp_path: Path) -> None:
    """The cores whose pytest benches take their configuration from the environment run
    through FuseSoC with nothing but the target's Verilog parameters (one short set each)."""
    from pushpush.build.cocotb_fusesoc import run_core_bench

    tests, cfg = DUT_CONFIGURED[core]
    assert run_core_bench(core, build_root=tmp_path, progress=lambda s: None) == tests
    log = (tmp_path / f"{core}-cocotb.log").read_text()
    assert f"configuration from the DUT's parameters: {cfg}" in log


def test_a_parameter_given_to_fusesoc_reaches_the_bench(tmp_path: Path) -> None:
    from pushpush.build.cocotb_fusesoc import BenchFailed, run_core_bench

    assert run_core_bench("req_arbiter", build_root=tmp_path, progress=lambda s: None,
                          parameters={"N": 5, "TRACK_DONE": 0}) == 1
    log = (tmp_path / "req_arbiter-cocotb.log").read_text()
    assert ('configuration from the DUT\'s parameters: {"N": 5, "MAX_WORDS": 2, "NW_WIDTH": 2, '
            '"TRACK_DONE": 0, "TAG_BITS": 3}') in log
    with pytest.raises(BenchFailed, match=r"req_arbiter: the cocotb target has no parameter M; its "
                                          r"parameters: N, MAX_WORDS, NW_WIDTH, TRACK_DONE, TAG_BITS"):
        run_core_bench("req_arbiter", build_root=tmp_path, parameters={"M": 2})


def test_interconnect_tb_wrapper_is_the_benchs(tmp_path: Path) -> None:
    """cores/interconnect/tb/pp_ic_wrap_2x2.v is exactly what the bench writes for 2x2."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("ic_bench", REPO / "tests" / "cores" / "test_interconnect.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    written = bench.write_wrapper(2, 2, tmp_path)
    assert written.read_text() == (REPO / "cores" / "interconnect" / "tb" / "pp_ic_wrap_2x2.v").read_text()


FAILING_BENCH = """\
import cocotb


@cocotb.test()
async def always_fails(dut):
    assert False, "deliberately failing"
"""


def test_failing_bench_fails_although_fusesoc_exits_0(tmp_path: Path) -> None:
    """Why the wrapper: Edalize exits 0 on a failing cocotb test; the wrapper does not."""
    from pushpush.build.cocotb_fusesoc import BenchFailed, run_core_bench

    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "test_abe.py").write_text(FAILING_BENCH)
    with pytest.raises(BenchFailed, match=r"abe: 1 of 1 cocotb tests failed: always_fails"):
        run_core_bench("abe", test_dir=bench, build_root=tmp_path / "b", progress=lambda s: None)
    log = (tmp_path / "b" / "abe-cocotb.log").read_text()
    assert "deliberately failing" in log  # the test ran and failed, and fusesoc exited 0


def test_without_gpi_users_nothing_runs_and_fusesoc_exits_0(tmp_path: Path) -> None:
    """Why the wrapper: without GPI_USERS cocotb 2 never starts under Edalize, silently."""
    from pushpush.build.cocotb_fusesoc import bench_env
    from pushpush.resources import cores_dir

    results = tmp_path / "results.xml"
    env = bench_env("pp_abe", REPO / "tests" / "cores", results)
    del env["GPI_USERS"]
    exe = str(BIN / "fusesoc") if (BIN / "fusesoc").exists() else "fusesoc"
    proc = subprocess.run([exe, "--cores-root", str(cores_dir()), "run", "--build-root", str(tmp_path),
                           "--target", "cocotb", "pushpush:cores:abe"], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not results.exists()


# --------------------------------------------------------------------------- a system's cocotb target


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """The folder 'pushpush init demo' scaffolds (system.yaml, rtl/, tests/test_demo.py, demo.core)."""
    from pushpush.scaffold import scaffold

    scaffold(tmp_path / "demo")
    return tmp_path / "demo"


def test_scaffolded_system_cocotb_test_through_fusesoc(demo: Path) -> None:
    """demo.core's cocotb target: FuseSoC runs the generator, then tests/test_demo.py's
    cocotb tests against demo_top, with the system map the generator copied to the work root."""
    from pushpush.fusesoc_gen.cocotb_target import run_system_bench

    assert run_system_bench(demo / "demo.core", progress=lambda s: None) == 1
    work = demo / "build" / "local_demo_system_0.1.0" / "cocotb"
    assert (work / "demo.map.json").is_file()
    log = (demo / "build" / "demo-cocotb.log").read_text()
    assert "Generating local:demo:system-system:0.1.0" in log
    assert "test_demo.add_works passed" in log


def test_a_wrong_system_fails_its_cocotb_target(demo: Path, tmp_path: Path) -> None:
    """The system test really drives the generated hardware: a subtracting adder fails it."""
    from pushpush.build.cocotb_fusesoc import BenchFailed
    from pushpush.fusesoc_gen.cocotb_target import main, run_system_bench

    rtl = demo / "rtl" / "demo_adder.v"
    text = rtl.read_text()
    assert text.count("add_a + add_b") == 2
    rtl.write_text(text.replace("add_a + add_b", "add_a - add_b"))

    with pytest.raises(BenchFailed, match=r"demo: 1 of 1 cocotb tests failed: add_works"):
        run_system_bench(demo / "demo.core", build_root=tmp_path / "b", progress=lambda s: None)
    # the command line reports it too, with exit status 1
    assert main([str(demo / "demo.core"), "--build-root", str(tmp_path / "b")]) == 1


def test_system_yaml_errors_reach_the_cocotb_target_user(demo: Path) -> None:
    from pushpush.build.cocotb_fusesoc import BenchFailed
    from pushpush.fusesoc_gen.cocotb_target import run_system_bench

    yml = demo / "system.yaml"
    text = yml.read_text()
    line = text.splitlines().index("    kind: python") + 1
    yml.write_text(text.replace("    kind: python", "    kind: pyton"))
    with pytest.raises(BenchFailed) as err:
        run_system_bench(demo / "demo.core", progress=lambda s: None)
    assert f"{yml}:{line}:11: kind of component 'host' must be one of rtl, python, c" in str(err.value)


def test_a_core_without_a_cocotb_target_is_refused(demo: Path) -> None:
    from pushpush.build.cocotb_fusesoc import BenchFailed
    from pushpush.fusesoc_gen.cocotb_target import run_system_bench

    core = demo / "demo.core"
    core.write_text(core.read_text().replace("cocotb_module: test_demo, ", ""))
    with pytest.raises(BenchFailed, match=r"demo.core: no 'cocotb' target with flow_options: "
                                          r"\{cocotb_module: <test module>\}"):
        run_system_bench(core, progress=lambda s: None)


def test_the_generated_core_carries_the_systems_own_cores(tmp_path: Path) -> None:
    """A system with firewall: and trace: instantiates pp_mem_firewall and pp_trace: the
    generator copies them into its core (it carried only the cores every system has)."""
    from pushpush.fusesoc_gen import generate_core
    src = Path(__file__).resolve().parents[1] / "examples" / "pingpong"
    shutil.copytree(src, tmp_path / "pp")
    yaml_path = tmp_path / "pp" / "system.yaml"
    yaml_path.write_text(yaml_path.read_text().replace("\ncomponents:", "\nfirewall: true\ntrace: true\ncomponents:", 1))
    out = tmp_path / "out"
    generate_core(tmp_path / "pp", "system.yaml", "me:demo:pp", out)
    assert (out / "pushpush_cores" / "mem_firewall" / "pp_mem_firewall.v").is_file()
    assert (out / "pushpush_cores" / "trace" / "pp_trace.v").is_file()
