"""``pushpush build`` for a system with ``kind: riscv`` components (docs/riscv.md, "Board
builds"): the generated ``.core`` lists every file the soft core needs (pushpush:cores:riscv ->
pp_riscv.v -> ::picorv32:0-r1 -> the package's picorv32.v, which the build writes beside the
core with its license) and each program image as file type ``mem`` (Edalize's Vivado backend:
``read_mem``, which adds it to the project, where ``$readmemh`` finds it by its bare name); a
program too large for its memory is refused at the YAML line before any tool runs; the PL
address block the PS reaches holds every riscv window. The project itself runs under the
Vivado stand-in in tests/board/test_bd_tcl*.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from pushpush.build.fusesoc import build, fusesoc_command, work_root
from pushpush.c.riscv import ProgramDoesNotFit
from pushpush.codegen.generate import generate_files
from pushpush.codegen.riscv import (CORE_LICENSE, CORE_PACKAGE, CORE_VERSION, PICORV32_CORE_DIR, PICORV32_VLNV,
                                    picorv32_core_files, picorv32_dir)
from pushpush.codegen.vivado import pl_address_block
from pushpush.link import load
from pushpush.resources import cores_dir

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "riscv_pingpong"


def test_the_generated_core_lists_the_soft_core_and_the_program_image() -> None:
    linked = load(EXAMPLE / "system.yaml")
    core = yaml.safe_load(generate_files(linked)["riscv_pingpong.core"])
    rv = core["filesets"]["riscv"]
    assert rv["file_type"] == "mem"
    assert rv["files"] == [{"callee.mem": {"copyto": "callee.mem"}}]   # into the work root
    assert rv["depend"] == ["pushpush:cores:riscv"]
    assert "riscv" in core["targets"]["default"]["filesets"]
    assert "riscv" in core["targets"]["pynq_z1"]["filesets"]
    # the fileset comes before the block design: read_mem before the bd tcl is sourced
    pz = core["targets"]["pynq_z1"]["filesets"]
    assert pz.index("riscv") < pz.index("bd")
    # pushpush:cores:riscv: pp_riscv.v (and the .vlt its lint needs), then the package's core
    ours = yaml.safe_load((cores_dir() / "riscv" / "riscv.core").read_text())
    assert ours["filesets"]["rtl"]["files"] == ["pp_riscv.v"]
    assert ours["filesets"]["rtl"]["depend"] == [PICORV32_VLNV, "pushpush:cores:axi_slave"]
    assert ours["targets"]["default"]["filesets"] == ["rtl", "lint"]


def test_the_package_core_is_the_package_file_with_its_license() -> None:
    files = picorv32_core_files()
    core = yaml.safe_load(files[f"{PICORV32_CORE_DIR}/picorv32.core"])
    assert core["name"] == PICORV32_VLNV
    assert core["filesets"]["rtl"]["files"] == ["picorv32.v"]
    assert files[f"{PICORV32_CORE_DIR}/picorv32.v"] == (picorv32_dir() / "picorv32.v").read_text()
    assert "Permission to use, copy, modify" in files[f"{PICORV32_CORE_DIR}/picorv32.v"][:1000]
    assert files[f"{PICORV32_CORE_DIR}/COPYING"].startswith("ISC License")
    head = files[f"{PICORV32_CORE_DIR}/picorv32.core"]
    assert f"{CORE_PACKAGE}=={CORE_VERSION}" in head and CORE_LICENSE in head


def test_a_board_build_compiles_the_program_where_the_core_lists_it(tmp_path: Path) -> None:
    linked = load(EXAMPLE / "system.yaml")
    out = tmp_path / "out"
    result = build(linked, out, "pynq_z1", progress=lambda _m: None, vivado=None)
    assert result.setup_only
    root = work_root(linked, out, "pynq_z1")
    words = (root / "callee.mem").read_text().split()   # copyto: the project's folder
    assert len(words) == 16384 // 4 and any(w != "00000000" for w in words)
    assert (root / "callee.mem").read_bytes() == (out / "callee.mem").read_bytes()
    project = (root / f"pushpush_system_{linked.name}_0.1.0.tcl").read_text()
    assert "read_mem {callee.mem}" in project
    assert project.index("read_mem {callee.mem}") < project.index("source {")
    for f in ("pp_riscv.v", "picorv32.v"):
        assert re.search(r"read_verilog \{src/[^}]*/" + re.escape(f) + "}", project), f
    # no cores root besides pushpush's and the output folder (which holds the package's core)
    cmd = fusesoc_command(linked, out, "pynq_z1")
    assert [cmd[i + 1] for i, a in enumerate(cmd) if a == "--cores-root"] == [str(cores_dir()), str(out.absolute())]


def test_a_program_too_large_for_its_memory_is_refused_at_the_yaml_line(tmp_path: Path) -> None:
    text = (EXAMPLE / "system.yaml").read_text().replace("memory: 16KiB", "memory: 8KiB")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "callee.c").write_text((EXAMPLE / "c" / "callee.c").read_text())
    text = text.replace("../pingpong/rtl/", str(REPO / "examples" / "pingpong" / "rtl") + "/")
    (tmp_path / "system.yaml").write_text(text)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "memory: 8KiB" in ln)
    linked = load(tmp_path / "system.yaml")
    with pytest.raises(ProgramDoesNotFit) as e:
        build(linked, tmp_path / "out", "pynq_z1", progress=lambda _m: None, vivado=None)
    assert f"system.yaml:{line}:" in str(e.value) and "8192" in str(e.value)
    assert not (tmp_path / "out" / "build").exists()   # no tool ran


def test_the_ps_reaches_a_riscv_window_after_the_rtl_ones(tmp_path: Path) -> None:
    """A riscv component declared last, no interrupt block: the top's s_axi block still
    holds its window (it was computed from the rtl windows alone)."""
    cdir = tmp_path / "c"
    cdir.mkdir()
    (cdir / "callee.c").write_text((EXAMPLE / "c" / "callee.c").read_text())
    rtl = REPO / "examples" / "pingpong" / "rtl"
    (tmp_path / "system.yaml").write_text(f"""system: rvlast
board: pynq-z1
interconnect: {{topology: crossbar, data_width: 32}}
components:
  hw:
    kind: rtl
    module: pingpong_callee
    sources: [{rtl}/pingpong_callee.v]
    exports: {{f: "(x: i32) -> i32"}}
  callee:
    kind: riscv
    sources: [c/callee.c]
    exports: {{f: "(x: i32) -> i32", bench: "(n: u32) -> u32", last: "() -> i32"}}
    imports: [hw.f]
""")
    linked = load(tmp_path / "system.yaml")
    assert linked.irq is None
    rv = linked.component("callee")
    base, size = pl_address_block(linked)
    assert base <= rv.base and rv.base + rv.size <= base + size
    bd = generate_files(linked)["vivado/rvlast_bd.tcl"]
    assert re.search(r"#\s+callee\s+0x", bd) and "holding the rtl and riscv windows" in bd


def test_synth_counts_each_riscv_core_for_its_component() -> None:
    """Two riscv components share the module pp_riscv: the synth target's table counts each
    core by its instance in the top (``<component>_inst``), not for the interconnect."""
    from pushpush.build.synth import INFRA, TOTAL, netlist_resources

    def mod(cells: dict[str, str]) -> dict[str, object]:
        return {"attributes": {}, "cells": {n: {"type": t} for n, t in cells.items()}}

    core_a, core_b = "$paramod$aaa\\pp_riscv", "$paramod$bbb\\pp_riscv"
    netlist = {"modules": {
        "top": mod({"a_inst": core_a, "b_inst": core_b, "hw_inst": "hw_wrapper", "ic": "pp_ic"}),
        core_a: mod({"l1": "LUT6", "l2": "LUT6", "r": "RAMB36E1"}),
        core_b: mod({"l1": "LUT6", "f": "FDRE"}),
        "hw_wrapper": mod({"l": "LUT4"}),
        "pp_ic": mod({"l": "LUT2", "f": "FDRE"}),
    }}
    res = netlist_resources(netlist, "top", {"hw_wrapper": "hw"}, instances={"a_inst": "a", "b_inst": "b"})
    assert (res["a"].luts, res["a"].bram36) == (2, 1)
    assert (res["b"].luts, res["b"].ffs) == (1, 1)
    assert (res["hw"].luts, res[INFRA].luts, res[INFRA].ffs) == (1, 1, 1)
    assert res[TOTAL].luts == 5


def test_the_fusesoc_generator_refuses_a_riscv_system(tmp_path: Path) -> None:
    """The generator (a user's own core) carries neither the soft core nor the programs: it
    says so and where to go, instead of writing a core whose top cannot be built."""
    from pushpush.fusesoc_gen import GeneratorError, generate_core

    with pytest.raises(GeneratorError, match=r"riscv component\(s\) callee: .*'pushpush build'"):
        generate_core(EXAMPLE, "system.yaml", "local:demo:rv:0.1.0", tmp_path / "gen")
    assert not (tmp_path / "gen").exists()


@pytest.mark.parametrize("target", ["lint", "sim"])
def test_the_lint_and_sim_targets_build_a_riscv_system(target: str, tmp_path: Path) -> None:
    """The same .core's other targets: Verilator -Wall (the .vlt of pushpush:cores:riscv keeps
    it to our files) and the Icarus build, the image copied into the work root."""
    linked = load(EXAMPLE / "system.yaml")
    result = build(linked, tmp_path / "out", target, progress=lambda _m: None)
    root = work_root(linked, tmp_path / "out", target)
    assert (root / "callee.mem").is_file()
    if target == "lint":
        assert result.notes == ["Verilator -Wall: no warnings"]
    else:
        assert (root / f"pushpush_system_{linked.name}_0.1.0").is_file()   # iverilog's output
