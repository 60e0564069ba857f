"""riscv_pingpong: the soft core's rows of the calls table (PushPush paper, Table II).

C on a soft RISC-V core in the PL (kind: riscv, docs/riscv.md) between the real Verilog
pingpong caller and callee and Python on the ARM. The simulated board does not load a core's
program yet, so this example runs in cocotb (``SIMULATE_IN_COCOTB``: ``pushpush run`` calls
``main(None, outdir)`` instead of loading an overlay): pushpush builds the program, generates
the top and runs pushpush/bench/riscv_tb.py against it (Icarus), which checks every result
against the pingpong state machine's model and measures:

* **riscv -> rtl**: ``callee.bench(n)``, n chained calls of the Verilog ``hw.f`` from C, timed
  by the core's cycle counter (exact);
* **rtl -> riscv**: ``caller.run(n)``, the Verilog caller's n chained calls of the C
  ``callee.f`` (exact);
* **python -> riscv**: Python on the cocotb ARM model calling ``callee.f`` (simulated bus
  cycles only: the model's computation takes none).

Printed beside the paper's MicroBlaze rows. Run: ``pushpush run examples/riscv_pingpong``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

#: ``pushpush run`` runs this example in cocotb, not on the simulated board
SIMULATE_IN_COCOTB = True

CLOCK_MHZ = 100.0
#: (our key, caller, callee, the paper's Table II client and server)
ROWS = (("riscv_to_rtl", "riscv", "rtl", "MBlaze", "VHLS"),
        ("rtl_to_riscv", "rtl", "riscv", "VHLS", "MBlaze"),
        ("python_to_riscv", "python", "riscv", "ARM", "MBlaze"))


def main(ol: Any = None, outdir: str = "build/riscv_pingpong", calls: int = 40,
         out: Callable[[str], None] = print) -> dict[str, Any]:
    """Build, simulate and print the rows; ``ol`` must be None (there is no overlay)."""
    from pushpush.bench.paper import TABLE_II
    from pushpush.bench.riscv_rows import run_riscv_rows

    if ol is not None:
        raise ValueError("riscv_pingpong runs in cocotb, not on a loaded overlay: main(None)")
    r = run_riscv_rows(Path(outdir) / "cocotb", calls=calls)
    out(f"{'caller -> callee':<18} {'cycles/call':>12} {'MCalls/s @100 MHz':>18}   paper (Table II)")
    rows = []
    for key, caller, callee, pc, ps in ROWS:
        cpc = r[key]
        exact = caller != "python"
        rate = f"{CLOCK_MHZ / cpc:.3f}" if exact else "- (bus only)"
        paper = TABLE_II[pc][ps]
        out(f"{caller + ' -> ' + callee:<18} {cpc:>12.2f} {rate:>18}   {pc} -> {ps} {paper:.2f} "
            f"({CLOCK_MHZ / paper:.0f} cycles)")
        rows.append({"caller": caller, "callee": callee, "cycles_per_call": cpc,
                     "mcalls": round(CLOCK_MHZ / cpc, 3) if exact else None, "paper_mcalls": paper})
    prog = r["programs"]["callee"]
    out(f"program: {prog['used_bytes']} of {prog['memory_bytes']} bytes of the core's memory")
    return {"ok": True, "rows": rows, "problems": []}
