"""The interconnect alone: Yosys area of ``pp_axi_interconnect`` against verilog-axi's
``axi_crossbar`` at the same sizes (part of ``pushpush bench area``).

Both are synthesised with the same Yosys (``synth_xilinx -family xc7``, flattened, through
:func:`pushpush.build.synth.synth_resources`) at N x N for N in :data:`SIZES`: 32-bit data,
32-bit addresses, ``S_ID_WIDTH`` :data:`ID_WIDTH` (the Zynq GP0 port's, which the generated
systems use), N windows of 64 KiB at ``0x4000_0000 + j * 0x1_0000``. verilog-axi is not
part of pushpush: it is measured only when the user points at a checkout of
https://github.com/alexforencich/verilog-axi (``--reference-verilog-axi PATH`` or
``$PUSHPUSH_VERILOG_AXI``; its ``rtl/`` folder is read there and nothing is copied), with
its default parameters (register slices, ``S_THREADS`` 2, ``S_ACCEPT`` 16, ``M_ISSUE`` 4);
without one its column says "not measured".

Example::

    from pushpush.bench.experiments.area.xbar_area import synth_pushpush, synth_verilog_axi
    print(synth_pushpush(4).luts)
    print(synth_verilog_axi(4, Path("~/src/verilog-axi")).luts)
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

from pushpush.build.cores import core_sources
from pushpush.build.synth import Resources, synth_resources

__all__ = ["SIZES", "SMOKE_SIZES", "alone_point", "alone_markdown", "ID_WIDTH", "ENV_VERILOG_AXI", "window_params", "synth_pushpush",
           "synth_verilog_axi", "verilog_axi_checkout", "VERILOG_AXI_FILES"]

SIZES = [2, 4, 8, 16]
SMOKE_SIZES = [2]
ID_WIDTH = 12
ENV_VERILOG_AXI = "PUSHPUSH_VERILOG_AXI"
WINDOW_BITS = 16
WINDOW_BASE = 0x4000_0000
#: the files of verilog-axi's axi_crossbar (under the checkout's rtl/)
VERILOG_AXI_FILES = ("axi_crossbar.v", "axi_crossbar_addr.v", "axi_crossbar_rd.v",
                     "axi_crossbar_wr.v", "axi_register_rd.v", "axi_register_wr.v",
                     "arbiter.v", "priority_encoder.v")


def window_params(n: int, addr_width: int = 32) -> dict[str, str]:
    """M_BASE_ADDR / M_ADDR_WIDTH of n 64 KiB windows, as Verilog literals."""
    base = 0
    bits = 0
    for j in range(n):
        base |= (WINDOW_BASE + j * (1 << WINDOW_BITS)) << (j * addr_width)
        bits |= WINDOW_BITS << (j * 32)
    return {"M_BASE_ADDR": f"{n * addr_width}'h{base:x}", "M_ADDR_WIDTH": f"{n * 32}'h{bits:x}"}


def synth_pushpush(n: int, params: Optional[dict[str, Any]] = None) -> Resources:
    """``pp_axi_interconnect`` N x N: the crossbar with the parameters the generator gives a
    crossbar system (:data:`pushpush.codegen.fabric.CROSSBAR_READ_TOPOLOGY`,
    :data:`~pushpush.codegen.fabric.CROSSBAR_SKID_BUFFERS`), round robin, unless ``params``
    say otherwise."""
    from pushpush.codegen.fabric import CROSSBAR_READ_TOPOLOGY, CROSSBAR_SKID_BUFFERS

    sources, top = core_sources("interconnect")
    p: dict[str, Any] = {"S_COUNT": n, "M_COUNT": n, "DATA_WIDTH": 32, "ADDR_WIDTH": 32,
                         "S_ID_WIDTH": ID_WIDTH, "M_ID_WIDTH": ID_WIDTH + max(0, (n - 1).bit_length()),
                         "TOPOLOGY": 0, "ARBITRATION": 0, "READ_TOPOLOGY": CROSSBAR_READ_TOPOLOGY,
                         "SKID_BUFFERS": CROSSBAR_SKID_BUFFERS}
    p.update(window_params(n))
    p.update(params or {})
    return synth_resources(sources, top, p, timeout_s=1800)


def verilog_axi_checkout(path: Optional[str | Path] = None) -> Optional[Path]:
    """The verilog-axi checkout to measure: ``path``, else ``$PUSHPUSH_VERILOG_AXI``, else
    None. Raises ValueError when the folder given has no ``rtl/axi_crossbar.v``."""
    given = path or os.environ.get(ENV_VERILOG_AXI)
    if not given:
        return None
    root = Path(given).expanduser()
    missing = [f for f in VERILOG_AXI_FILES if not (root / "rtl" / f).exists()]
    if missing:
        raise ValueError(f"{root}: not a verilog-axi checkout (no rtl/{missing[0]}); pass the folder "
                         "that holds rtl/axi_crossbar.v, e.g. a clone of "
                         "https://github.com/alexforencich/verilog-axi")
    return root


def _yosys_readable(checkout: Path, tmp: Path) -> list[Path]:
    """The crossbar's files from ``checkout``, copied into ``tmp`` with the field widths of
    ``$display`` format specifiers (``%2d``, ``%02d``) removed: Yosys 0.23 rejects them in
    the address decoder's elaboration-time report. Nothing else changes (no logic is
    affected); the user's checkout is only read."""
    out = []
    for f in VERILOG_AXI_FILES:
        text = (checkout / "rtl" / f).read_text()
        text = re.sub(r"%0?\d+([dxhb])", r"%\1", text)
        (tmp / f).write_text(text)
        out.append(tmp / f)
    return out


def synth_verilog_axi(n: int, checkout: Path) -> Resources:
    """verilog-axi's ``axi_crossbar`` N x N with its default parameters and the same
    widths and address map as :func:`synth_pushpush`."""
    p: dict[str, Any] = {"S_COUNT": n, "M_COUNT": n, "DATA_WIDTH": 32, "ADDR_WIDTH": 32,
                         "S_ID_WIDTH": ID_WIDTH, "M_ID_WIDTH": ID_WIDTH + max(0, (n - 1).bit_length()),
                         "M_REGIONS": 1}
    p.update(window_params(n))
    with tempfile.TemporaryDirectory(prefix="pp-vaxi-") as tmp:
        sources = _yosys_readable(checkout, Path(tmp))
        return synth_resources(sources, "axi_crossbar", p, timeout_s=3600)


def alone_point(point: dict[str, Any]) -> dict[str, Any]:
    """One sweep point (:func:`pushpush.bench.sweep.run_points`): ``{"design": "pushpush" |
    "verilog-axi", "n": N[, "checkout": PATH]}`` -> the point with ``luts``, ``ffs``,
    ``lut_levels`` and ``synth_s``."""
    t0 = time.monotonic()
    if point["design"] == "pushpush":
        res = synth_pushpush(point["n"])
    else:
        res = synth_verilog_axi(point["n"], Path(point["checkout"]))
    row = dict(point)
    row.update({"luts": res.luts, "ffs": res.ffs, "lut_levels": res.lut_levels,
                "synth_s": round(time.monotonic() - t0, 1)})
    return row


def alone_markdown(rows: list[dict[str, Any]], checkout: Optional[Path]) -> str:
    """The table of the interconnect-alone sweep: one line per size, both designs."""
    from pushpush.bench.report import md_table

    by = {(r["design"], r["n"]): r for r in rows}
    sizes = sorted({r["n"] for r in rows})

    def cell(design: str, n: int) -> str:
        r = by.get((design, n))
        if r is None:
            return "not measured"
        return f"{r['luts']:,} / {r['ffs']:,} / {r['lut_levels']}"

    ref = (f"verilog-axi `axi_crossbar` (checkout {checkout}, default parameters)" if checkout
           else f"verilog-axi `axi_crossbar`: not measured (give a checkout with "
                f"`--reference-verilog-axi PATH` or ${ENV_VERILOG_AXI})")
    return "\n".join([
        f"The interconnect alone, N x N crossbar, 32-bit data and address, {ID_WIDTH}-bit IDs, "
        f"64 KiB windows (LUT / FF / LUT levels, Yosys `synth_xilinx -family xc7 -flatten`): "
        "`pp_axi_interconnect` with the generator's crossbar parameters (shared read path, "
        "single-register stages: each master's AW payload and W beat held in a register of its "
        "own, the slaves' registers holding the granted master's index, the payload "
        "multiplexers after the registers with their selects from registers, built as LUT6 + "
        "MUXF7/MUXF8; a carry-free "
        f"round-robin grant) against {ref}.",
        "",
        md_table(("N", "pp_axi_interconnect", "verilog-axi axi_crossbar"),
                 [(n, cell("pushpush", n), cell("verilog-axi", n)) for n in sizes]),
    ])
