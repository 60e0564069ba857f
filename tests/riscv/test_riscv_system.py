"""examples/riscv_pingpong as a whole generated system in cocotb (Icarus): C on the RISC-V
core (kind: riscv) between the real Verilog pingpong caller and callee and Python on the ARM
model, through pushpush.bench.experiments.calls.riscv_rows (the cocotb side, pushpush/bench/experiments/calls/riscv_tb.py, checks
every result against the state machine's model): python -> riscv, rtl -> riscv, riscv -> rtl."""

from __future__ import annotations

from pushpush.bench.experiments.calls.riscv_rows import run_riscv_rows


def test_riscv_pingpong_system(tmp_path):
    r = run_riscv_rows(tmp_path, calls=8)
    print(r)
    assert r["programs"]["callee"]["used_bytes"] <= 16384
    # cycles per call: software time on the core is simulated cycles; bounds, not timings
    for key in ("rtl_to_riscv", "riscv_to_rtl", "python_to_riscv"):
        assert 0 < r[key] < 20000, (key, r[key])
