"""What does not apply to a system with riscv components is refused with the reason and the
way that works (docs/riscv.md, Limits), never run half-way (a core with an empty memory).
The simulated board runs them (tests/riscv/test_riscv_simboard.py), 'pushpush build' builds
them (tests/riscv/test_riscv_build.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.link import load

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "riscv_pingpong"


def test_data_width_64_is_refused() -> None:
    from pushpush.codegen.render import GenerateError
    from pushpush.codegen.top_model import top_model

    with pytest.raises(GenerateError, match="need a 32-bit interconnect"):
        top_model(load(str(EXAMPLE / "system.yaml"), {"data_width": 64}))
