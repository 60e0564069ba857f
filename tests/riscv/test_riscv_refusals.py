"""What does not apply to a system with riscv components yet is refused with the reason and
the way that works (docs/riscv.md, Limits), never run half-way (a core with an empty memory).
The simulated board runs them (tests/riscv/test_riscv_simboard.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.build.fusesoc import BuildError, build
from pushpush.link import load

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "riscv_pingpong"


def test_fusesoc_build_refuses_riscv(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match=r"riscv component\(s\) callee: the FuseSoC flow"):
        build(load(str(EXAMPLE / "system.yaml")), tmp_path / "out", "sim", progress=lambda s: None)
    assert not (tmp_path / "out").exists()


def test_data_width_64_is_refused() -> None:
    from pushpush.codegen.render import GenerateError
    from pushpush.codegen.top_model import top_model

    with pytest.raises(GenerateError, match="need a 32-bit interconnect"):
        top_model(load(str(EXAMPLE / "system.yaml"), {"data_width": 64}))
