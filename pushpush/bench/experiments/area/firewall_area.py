"""The memory firewall's area for ``pushpush bench area`` (cores/mem_firewall, issue 46).

Yosys ``synth_xilinx -family xc7`` (:func:`pushpush.build.synth.synth_resources`) of
``pp_mem_firewall`` alone (the checked AXI4 path, the table, the refusal counter and latch,
and its register page's AXI4 front end) at several table sizes and bus widths::

    from pushpush.bench.experiments.area.firewall_area import firewall_area, firewall_area_markdown
    rows = firewall_area()
    print(firewall_area_markdown(rows))
"""

from __future__ import annotations

from typing import Any

from pushpush.bench.report import md_table

__all__ = ["FIREWALL_POINTS", "SMOKE_POINTS", "firewall_area", "firewall_area_markdown"]

#: (ENTRIES, DATA_WIDTH, TAG_BITS) measured by the full run
FIREWALL_POINTS = [(1, 32, 1), (4, 32, 2), (8, 32, 2), (16, 32, 3), (8, 64, 2)]
SMOKE_POINTS = [(8, 32, 2)]


def firewall_area(points: "list[tuple[int, int, int]] | None" = None) -> list[dict[str, Any]]:
    """LUT/FF/CARRY4 and LUT levels of pp_mem_firewall at each (entries, data width, tag bits)."""
    from pushpush.build.cores import cores_rtl
    from pushpush.build.synth import synth_resources

    rows = []
    for entries, width, tag_bits in points or FIREWALL_POINTS:
        params = {"ENTRIES": entries, "DATA_WIDTH": width, "ID_WIDTH": 4 + tag_bits,
                  "TAG_LSB": 4, "TAG_BITS": tag_bits}
        r = synth_resources(cores_rtl(["mem_firewall"]), "pp_mem_firewall", params)
        rows.append({"entries": entries, "data_width": width, "tag_bits": tag_bits,
                     "luts": r.luts, "ffs": r.ffs, "carry4": r.carry4, "lut_levels": r.lut_levels})
    return rows


def firewall_area_markdown(rows: list[dict[str, Any]]) -> str:
    return "\n".join([
        "The memory firewall (cores/mem_firewall, `pp_mem_firewall` alone, with its register "
        "page), Yosys `synth_xilinx -family xc7`:",
        "",
        md_table(("entries", "data width", "tag bits", "LUT", "FF", "CARRY4", "LUT levels"),
                 [(r["entries"], r["data_width"], r["tag_bits"], r["luts"], r["ffs"], r["carry4"],
                   r["lut_levels"]) for r in rows]),
    ])
