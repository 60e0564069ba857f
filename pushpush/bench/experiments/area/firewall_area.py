"""The memory firewall's area for ``pushpush bench area`` (cores/mem_firewall, issue 46).

Yosys ``synth_xilinx -family xc7`` (:func:`pushpush.build.synth.synth_resources`) of
``pp_mem_firewall`` alone (the checked AXI4 path, the table, the refusal counter and latch,
and its register page's AXI4 front end) at several table sizes and bus widths, as the buffer
engines' path has it (``path`` "buffers": the top's table, the engine's index in the ID) and
as each AXI DMA of ``dma:`` has it (``path`` "dma": ``<sys>_dma_firewall``, its own table of
:data:`~pushpush.link.DMA_FIREWALL_ENTRIES` entries, one master, a 6-bit ID, the register page
on the 32-bit GP0 with its 12-bit IDs; one per DMA)::

    from pushpush.bench.experiments.area.firewall_area import firewall_area, firewall_area_markdown
    rows = firewall_area()
    print(firewall_area_markdown(rows))
"""

from __future__ import annotations

from typing import Any

from pushpush.bench.report import md_table

__all__ = ["FIREWALL_POINTS", "SMOKE_POINTS", "DMA_POINTS", "SMOKE_DMA_POINTS", "firewall_area",
           "firewall_area_markdown"]

#: (ENTRIES, DATA_WIDTH, TAG_BITS) measured by the full run
FIREWALL_POINTS = [(1, 32, 1), (4, 32, 2), (8, 32, 2), (16, 32, 3), (8, 64, 2)]
SMOKE_POINTS = [(8, 32, 2)]
#: an AXI DMA's firewall: (DATA_WIDTH,) of the DMA's memory map (dma: data_width)
DMA_POINTS = [32, 64]
SMOKE_DMA_POINTS = [32]


def firewall_area(points: "list[tuple[int, int, int]] | None" = None,
                  dma_points: "list[int] | None" = None) -> list[dict[str, Any]]:
    """LUT/FF/CARRY4 and LUT levels of pp_mem_firewall at each (entries, data width, tag bits)
    of the buffer engines' path, then as an AXI DMA's firewall at each data width."""
    from pushpush.build.cores import cores_rtl
    from pushpush.build.synth import synth_resources
    from pushpush.codegen.dma import DMA_ID_WIDTH
    from pushpush.link import DMA_FIREWALL_ENTRIES

    rows = []
    for entries, width, tag_bits in points or FIREWALL_POINTS:
        params = {"ENTRIES": entries, "DATA_WIDTH": width, "ID_WIDTH": 4 + tag_bits,
                  "TAG_LSB": 4, "TAG_BITS": tag_bits}
        r = synth_resources(cores_rtl(["mem_firewall"]), "pp_mem_firewall", params)
        rows.append({"path": "buffers", "entries": entries, "data_width": width, "tag_bits": tag_bits,
                     "luts": r.luts, "ffs": r.ffs, "carry4": r.carry4, "lut_levels": r.lut_levels})
    for width in DMA_POINTS if dma_points is None else dma_points:
        # as <sys>_dma_firewall instantiates it (codegen/dma.py, templates/verilog/dma_firewall.v.j2)
        params = {"ENTRIES": DMA_FIREWALL_ENTRIES, "DATA_WIDTH": width, "ID_WIDTH": DMA_ID_WIDTH,
                  "TAG_LSB": 0, "TAG_BITS": 1, "REG_DATA_WIDTH": 32, "REG_ID_WIDTH": 12}
        r = synth_resources(cores_rtl(["mem_firewall"]), "pp_mem_firewall", params)
        rows.append({"path": "dma", "entries": DMA_FIREWALL_ENTRIES, "data_width": width, "tag_bits": 1,
                     "luts": r.luts, "ffs": r.ffs, "carry4": r.carry4, "lut_levels": r.lut_levels})
    return rows


def firewall_area_markdown(rows: list[dict[str, Any]]) -> str:
    return "\n".join([
        "The memory firewall (cores/mem_firewall, `pp_mem_firewall` alone, with its register "
        "page), Yosys `synth_xilinx -family xc7`; path `buffers`: the buffer engines' (one in the "
        "top), `dma`: an AXI DMA's own (one per `dma:`, two entries):",
        "",
        md_table(("path", "entries", "data width", "tag bits", "LUT", "FF", "CARRY4", "LUT levels"),
                 [(r.get("path", "buffers"), r["entries"], r["data_width"], r["tag_bits"], r["luts"],
                   r["ffs"], r["carry4"], r["lut_levels"]) for r in rows]),
    ])
