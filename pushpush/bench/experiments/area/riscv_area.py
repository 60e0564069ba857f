"""The soft core's area for ``pushpush bench area`` (kind: riscv, docs/riscv.md).

Yosys ``synth_xilinx -family xc7`` (:func:`pushpush.build.synth.synth_resources`) of the
PicoRV32 and VexRiscv alone, in the configurations cores/riscv uses, and of the whole riscv component
on each
(``pp_riscv``: the core, its local memory, the dual-ported window, the control page and the
AXI master) with 16 KiB of memory and a 4 KiB window::

    from pushpush.bench.experiments.area.riscv_area import riscv_area, riscv_area_markdown
    rows = riscv_area()
    print(riscv_area_markdown(rows))
"""

from __future__ import annotations

from typing import Any

from pushpush.bench.report import md_table

__all__ = ["PICORV32_PARAMS", "riscv_area", "riscv_area_markdown"]

#: PicoRV32's parameters as cores/riscv/pp_riscv.v sets them
PICORV32_PARAMS = {"ENABLE_COUNTERS": 1, "ENABLE_COUNTERS64": 1, "BARREL_SHIFTER": 1,
                   "ENABLE_MUL": 0, "ENABLE_DIV": 0, "ENABLE_IRQ": 0}


def riscv_area(memory: int = 16384, window: int = 4096, whole: bool = True) -> list[dict[str, Any]]:
    """LUT/FF/LUTRAM/BRAM of each core alone (PicoRV32, VexRiscv) and (``whole``) of the
    whole component on each (the slower runs: Yosys maps its memories to BRAM; several
    minutes each on a busy host)."""
    from pushpush.build.synth import synth_resources
    from pushpush.codegen.riscv import CORE_PACKAGE, CORE_VERSION, VEX_FILE, VEX_PACKAGE, VEX_VERSION, core_sources

    from pushpush.build.cores import cores_rtl

    wrapper, vex, pico = core_sources(("picorv32", "vexriscv"))
    front_end = cores_rtl(["axi_slave"])   # the window's AXI slave front end
    whole_what = (f"(pp_riscv: core, {memory // 1024} KiB memory, {window // 1024} KiB window, control "
                  "page, AXI master)")
    runs = [(f"PicoRV32 alone ({CORE_PACKAGE} {CORE_VERSION}, RV32I, barrel shifter, counters)",
             [pico], "picorv32", PICORV32_PARAMS),
            (f"VexRiscv alone ({VEX_PACKAGE} {VEX_VERSION}, {VEX_FILE}: RV32IM, 4 KiB I and D caches)",
             [vex], "VexRiscv", {})]
    if whole:
        runs += [(f"riscv component on PicoRV32 {whole_what}", [*front_end, pico, wrapper], "pp_riscv",
                  {"MEM_BYTES": memory, "WIN_BYTES": window}),
                 (f"riscv component on VexRiscv {whole_what}", [*front_end, vex, wrapper], "pp_riscv",
                  {"MEM_BYTES": memory, "WIN_BYTES": window, "CPU": "vexriscv"})]
    rows = []
    for what, srcs, top, params in runs:
        r = synth_resources(srcs, top, params, timeout_s=3600)  # the 16 KiB memory's BRAM mapping is slow
        rows.append({"design": what, "top": top, "luts": r.luts, "ffs": r.ffs, "lutram": r.lutram,
                     "bram36": r.bram36, "carry4": r.carry4, "lut_levels": r.lut_levels})
    return rows


def riscv_area_markdown(rows: list[dict[str, Any]]) -> str:
    return "\n".join([
        "The soft core of `kind: riscv` (docs/riscv.md), Yosys `synth_xilinx -family xc7`:",
        "",
        md_table(("design", "LUT", "FF", "LUTRAM", "BRAM36", "CARRY4", "LUT levels"),
                 [(r["design"], r["luts"], r["ffs"], r["lutram"], f"{r['bram36']:g}", r["carry4"],
                   r["lut_levels"]) for r in rows]),
    ])
