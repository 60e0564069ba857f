"""examples/riscv_pingpong as a whole generated system in cocotb: C on the RISC-V core
(kind: riscv) between real Verilog components and Python on the ARM model.

The generated top instantiates ``pp_riscv`` for component ``callee`` with its program
(``callee_mem.hex``, built by :func:`pushpush.c.riscv.build_program` from
examples/riscv_pingpong/c/callee.c, the generated proxies and the bare-metal runtime).
Pairings, every result checked against the pingpong state machine's model:

- ARM (Python) -> riscv: ``callee.f``;
- rtl -> riscv: ``caller.run(n)``, the Verilog caller's n chained calls of ``callee.f``
  (its return value is the exact cycle count of the n calls);
- riscv -> rtl: ``callee.bench(n)``, n chained calls of the Verilog ``hw.f`` from C (the
  core's cycle count), then ``callee.last()``, the last result;
- the window's counters read over AXI at offsets 0x0-0xC.

Cycles per call are printed (``RV_SYSTEM``) and the pytest side writes them to
``$RV_CYCLES_JSON`` when set (pushpush.bench's riscv rows).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from test_riscv_core import chain, model_f

REPO = Path(__file__).resolve().parents[2]
SYSTEM = REPO / "examples" / "riscv_pingpong" / "system.yaml"
N = 8

try:
    import cocotb
except ImportError:  # collected by pytest outside the simulator
    cocotb = None


if cocotb is not None:
    @cocotb.test()
    async def riscv_pingpong(dut):
        from pushpush.sim import cocotb_system

        out = {}
        async with cocotb_system(dut, "host") as rt:
            # ARM -> riscv
            state, x = 0, 5
            for _ in range(3):
                got = await rt.callee.f(x)
                state = model_f(state, x)
                assert got & 0xFFFFFFFF == state, (hex(got & 0xFFFFFFFF), hex(state))
                x = got
            # rtl -> riscv: the Verilog caller's n chained calls of callee.f (first x = n)
            cycles = await rt.caller.run(N)
            x = N
            for _ in range(N):
                state = model_f(state, x)
                x = state
            got = await rt.callee.f(1)
            state = model_f(state, 1)
            assert got & 0xFFFFFFFF == state, "callee.f's state after caller.run does not match the model"
            out["rtl_to_riscv"] = cycles / N
            # riscv -> rtl: n chained calls of hw.f from C, timed by the core
            cycles = await rt.callee.bench(N)
            assert cycles != 0xFFFFFFFF, "a call of hw.f from the core failed"
            last = await rt.callee.last()
            assert last & 0xFFFFFFFF == chain(N, 3), (hex(last & 0xFFFFFFFF), hex(chain(N, 3)))
            out["riscv_to_rtl"] = cycles / N
            # the Python runtime calls hw.f too: hw's state went on from the core's calls
            got = await rt.hw.f(9)
            assert got & 0xFFFFFFFF == model_f(chain(N, 3), 9)
        print("RV_SYSTEM " + json.dumps(out))
        path = os.environ.get("RV_CYCLES_JSON")
        if path:
            Path(path).write_text(json.dumps(out))


def simulate(tmp: Path, simulator: str = "icarus") -> dict:
    """Build the example's program and top, run the cocotb test above; the cycles per call."""
    from pushpush.build.sim import run_cocotb
    from pushpush.c.riscv import build_program
    from pushpush.codegen.riscv import core_sources
    from pushpush.codegen.top_model import riscv_mem_init
    from pushpush.sim.runner import COMPONENT_ENV, MAP_ENV, build_system

    build = build_system(SYSTEM, tmp / "gen")
    run = tmp / "run"   # the simulator's working directory: the program's $readmemh file
    run.mkdir(parents=True, exist_ok=True)
    for c in build.linked.components:
        if c.kind == "riscv":
            prog = build_program(tmp / "gen" / "c", build.linked.source_paths(c.name), components=[c.name],
                                 out_dir=tmp / "riscv" / c.name, memory_bytes=c.memory)
            shutil.copy(prog.hex_path, run / riscv_mem_init(c.name))
    shutil.copy(Path(__file__).with_name("test_riscv_core.py"), run)
    shutil.copy(Path(__file__), run)
    result = tmp / "cycles.json"
    run_cocotb(toplevel=build.top, sources=build.sources + core_sources(), test_module=Path(__file__).stem,
               test_dir=run, simulator=simulator, build_dir=tmp / "sim", cache=False,
               extra_env={MAP_ENV: str(build.map_path.resolve()), COMPONENT_ENV: "host",
                          "RV_CYCLES_JSON": str(result)})
    return json.loads(result.read_text())


@pytest.mark.parametrize("simulator", ["icarus"])
def test_riscv_pingpong_system(tmp_path, simulator):
    cycles = simulate(tmp_path, simulator)
    assert set(cycles) == {"rtl_to_riscv", "riscv_to_rtl"}
