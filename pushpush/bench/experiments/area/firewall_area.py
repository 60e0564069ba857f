"""The memory firewall's area for ``pushpush bench area`` (cores/mem_firewall, issue 46).

Yosys ``synth_xilinx -family xc7`` (:func:`pushpush.build.synth.synth_resources`) of
``pp_mem_firewall`` alone (the checked AXI4 path, the table, the refusal counter and latch,
and its register page's AXI4 front end) at several table sizes and bus widths, as the buffer
engines' path has it (``path`` "buffers": the top's table, the engine's index in the ID) and
as each AXI DMA of ``dma:`` has it (``path`` "dma": ``<sys>_dma_firewall``, its own table of
:data:`~pushpush.link.DMA_FIREWALL_ENTRIES` entries, one master, a 6-bit ID, the register page
on the 32-bit GP0 with its 12-bit IDs; one per DMA), and in its static form (``ENTRIES`` 0,
``STATIC_ENTRIES`` constant entries: the window guard on the top's ``m_axi``, whose table is
fixed when the system is linked) for a table like a linked system's (:func:`static_table`)::

    from pushpush.bench.experiments.area.firewall_area import *
    print(firewall_area_markdown(firewall_area()))
    print(firewall_static_area_markdown(firewall_static_area()))
"""

from __future__ import annotations

from typing import Any

from pushpush.bench.report import md_table

__all__ = ["FIREWALL_POINTS", "SMOKE_POINTS", "DMA_POINTS", "SMOKE_DMA_POINTS", "SMOKE_STATIC_POINTS",
           "STATIC_POINTS", "firewall_area", "firewall_area_markdown", "firewall_static_area",
           "firewall_static_area_markdown", "static_table"]

#: (ENTRIES, DATA_WIDTH, TAG_BITS) measured by the full run
FIREWALL_POINTS = [(1, 32, 1), (4, 32, 2), (8, 32, 2), (16, 32, 3), (8, 64, 2)]
SMOKE_POINTS = [(8, 32, 2)]
#: (STATIC_ENTRIES, TAG_BITS, READ too) of the static form measured by the full run
STATIC_POINTS = [(8, 1, False), (8, 4, False), (16, 1, False), (16, 4, False), (32, 1, False), (32, 4, False),
                 (32, 4, True), (64, 4, False)]
SMOKE_STATIC_POINTS = [(8, 1, False)]
#: where :func:`static_table` puts its ranges: the OCM, as ``software_windows: ocm`` does
OCM_BASE = 0xFFFC0000
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


def static_table(entries: int, tag_bits: int, read: bool = False) -> list[tuple[int, int, int]]:
    """A static table like a linked system's: (BASE, LIMIT, ATTR) of slot ranges of 64 to 320
    bytes, four per 4 KiB software window in the OCM, WRITE (and READ with ``read``), each
    for one master (owners in turn over the ``2**tag_bits`` tags), the last for every master."""
    table = []
    for i in range(entries):
        base = OCM_BASE + (i // 4) * 0x1000 + (i % 4) * 0x200 + 0x40 * (i % 3)
        limit = base + 0x40 * (1 + i % 5) - 1
        attr = (3 if read else 2) | (4 if i == entries - 1 else (i % (1 << tag_bits)) << 8)
        table.append((base, limit, attr))
    return table


def static_parameters(table: list[tuple[int, int, int]]) -> dict[str, str]:
    """pp_mem_firewall's STATIC_* parameters for ``table`` (BASE, LIMIT, ATTR per entry), as
    Verilog literals of the parameters' whole widths (packed as the system top packs them)."""
    from pushpush.codegen.top_model import TopWindowGuard

    pack = TopWindowGuard.packed
    bases, limits, attrs = ([e[k] for e in table] for k in range(3))
    return {"STATIC_ENTRIES": str(len(table)), "STATIC_BASE": f"2048'h{pack(32, bases):x}",
            "STATIC_LIMIT": f"2048'h{pack(32, limits):x}", "STATIC_ATTR": f"1024'h{pack(16, attrs):x}"}


def firewall_static_area(points: "list[tuple[int, int, bool]] | None" = None) -> list[dict[str, Any]]:
    """LUT/FF/CARRY4 and LUT levels of pp_mem_firewall's static form (no runtime table, 32-bit
    path) at each (static entries, tag bits, READ too) of :func:`static_table`."""
    from pushpush.build.cores import cores_rtl
    from pushpush.build.synth import synth_resources

    rows = []
    for entries, tag_bits, read in points or STATIC_POINTS:
        params = {"ENTRIES": 0, "DATA_WIDTH": 32, "ID_WIDTH": 4 + tag_bits, "TAG_LSB": 4, "TAG_BITS": tag_bits,
                  **static_parameters(static_table(entries, tag_bits, read))}
        r = synth_resources(cores_rtl(["mem_firewall"]), "pp_mem_firewall", params)
        rows.append({"static_entries": entries, "tag_bits": tag_bits, "directions": "RW" if read else "W",
                     "luts": r.luts, "ffs": r.ffs, "carry4": r.carry4, "lut_levels": r.lut_levels})
    return rows


def firewall_static_area_markdown(rows: list[dict[str, Any]]) -> str:
    return "\n".join([
        "The memory firewall's static form (`ENTRIES` 0, `STATIC_ENTRIES` constant entries: the "
        "top's `m_axi`), slot ranges of 64..320 bytes in 4 KiB OCM windows, 32-bit path, Yosys "
        "`synth_xilinx -family xc7`:",
        "",
        md_table(("static entries", "tag bits", "directions", "LUT", "FF", "CARRY4", "LUT levels"),
                 [(r["static_entries"], r["tag_bits"], r["directions"], r["luts"], r["ffs"], r["carry4"],
                   r["lut_levels"]) for r in rows]),
    ])
