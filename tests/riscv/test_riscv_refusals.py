"""What does not apply to a system with riscv components yet is refused with the reason and
the way that works (docs/riscv.md, Limits), never run half-way (a core with an empty memory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.build.fusesoc import BuildError, build
from pushpush.cli import main
from pushpush.link import load
from pushpush.pynq.simbit import write_sim_overlay

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "riscv_pingpong"


def test_simulated_board_refuses_riscv(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"riscv component\(s\) callee: the simulated board does not build"):
        write_sim_overlay(load(str(EXAMPLE / "system.yaml")), tmp_path)
    assert not any(tmp_path.iterdir())


def test_fusesoc_build_refuses_riscv(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match=r"riscv component\(s\) callee: the FuseSoC flow"):
        build(load(str(EXAMPLE / "system.yaml")), tmp_path / "out", "sim", progress=lambda s: None)
    assert not (tmp_path / "out").exists()


def test_run_refuses_another_simulator(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), "--sim", "verilator", "-o", str(tmp_path)]) != 0
    assert "runs in cocotb on Icarus; --sim verilator does not apply" in capsys.readouterr().err


def test_data_width_64_is_refused() -> None:
    from pushpush.codegen.render import GenerateError
    from pushpush.codegen.top_model import top_model

    with pytest.raises(GenerateError, match="need a 32-bit interconnect"):
        top_model(load(str(EXAMPLE / "system.yaml"), {"data_width": 64}))
