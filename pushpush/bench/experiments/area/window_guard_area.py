"""The window guard's area for ``pushpush bench area`` (``firewall:``, cores/mem_firewall).

The window guard is ``pp_mem_firewall`` with no runtime-written entries and a constant table
the link derives (:mod:`pushpush.link.window_rules`), on the system top's ``m_axi``. Its
size depends on the system: how many ranges its PL components may write in the software
windows and how many masters the ID names. For each system of :data:`SYSTEMS` (with
``firewall: true`` added) this synthesises the guard exactly as the system's top
instantiates it (Yosys ``synth_xilinx -family xc7``, the core alone with its register
page)::

    from pushpush.bench.experiments.area.window_guard_area import window_guard_area, window_guard_area_markdown
    print(window_guard_area_markdown(window_guard_area()))
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pushpush.bench.report import md_table

__all__ = ["SYSTEMS", "SMOKE_SYSTEMS", "guard_parameters", "window_guard_area", "window_guard_area_markdown"]

_ROOT = Path(__file__).resolve().parents[4]
#: (label, system.yaml relative to the repository) measured by the full run
SYSTEMS = [("pingpong", "examples/pingpong/system.yaml"), ("audio_fir", "examples/audio_fir/system.yaml"),
           ("riscv_pingpong", "examples/riscv_pingpong/system.yaml"), ("hof", "tests/gen/hof/system.yaml")]
SMOKE_SYSTEMS = SYSTEMS[:1]
#: LUTs of the PYNQ-Z1's and Z2's Zynq-7020 (the share a guard takes)
Z7020_LUTS = 53_200


def guard_parameters(yaml: Path) -> dict[str, Any]:
    """The window guard's parameters in the top of the system at ``yaml`` with ``firewall: true``."""
    import tempfile

    from pushpush.bench.experiments.area.firewall_area import static_parameters
    from pushpush.codegen.top_model import top_model
    from pushpush.link import load

    text = yaml.read_text()
    if "\nfirewall:" not in text:
        text = text.replace("\ncomponents:", "\nfirewall: true\ncomponents:", 1)
    with tempfile.TemporaryDirectory(prefix="pp-guard-") as tmp:   # the top's model reads no source
        copy = Path(tmp) / yaml.name
        copy.write_text(text)
        m = top_model(load(copy))
    g = m.window_guard
    assert g is not None, f"{yaml}: no window guard"
    return {"DATA_WIDTH": m.data_width, "REG_DATA_WIDTH": m.data_width, "ID_WIDTH": m.m_id,
            "REG_ID_WIDTH": m.m_id, "ENTRIES": 0, "TAG_LSB": g.tag_lsb, "TAG_BITS": g.tag_bits,
            **static_parameters(list(zip(g.bases, g.limits, g.attrs)))}


def window_guard_area(systems: "list[tuple[str, str]] | None" = None) -> list[dict[str, Any]]:
    """LUT/FF/CARRY4 and LUT levels of each system's window guard."""
    from pushpush.build.cores import cores_rtl
    from pushpush.build.synth import synth_resources

    rows = []
    for label, rel in systems or SYSTEMS:
        params = guard_parameters(_ROOT / rel)
        r = synth_resources(cores_rtl(["mem_firewall"]), "pp_mem_firewall", params)
        rows.append({"system": label, "entries": int(params["STATIC_ENTRIES"]), "tag_bits": params["TAG_BITS"],
                     "data_width": params["DATA_WIDTH"], "luts": r.luts, "ffs": r.ffs, "carry4": r.carry4,
                     "lut_levels": r.lut_levels})
    return rows


def window_guard_area_markdown(rows: list[dict[str, Any]]) -> str:
    return "\n".join([
        "The window guard (`firewall:`: `pp_mem_firewall` with the link's constant table on the "
        "top's m_axi, with its register page) of each system, Yosys `synth_xilinx -family xc7`; "
        f"the share of a Zynq-7020's {Z7020_LUTS:,} LUTs:",
        "",
        md_table(("system", "entries", "tag bits", "data width", "LUT", "% of Z-7020", "FF", "CARRY4",
                  "LUT levels"),
                 [(r["system"], r["entries"], r["tag_bits"], r["data_width"], r["luts"],
                   f"{100 * r['luts'] / Z7020_LUTS:.2f}", r["ffs"], r["carry4"], r["lut_levels"])
                  for r in rows]),
    ])
