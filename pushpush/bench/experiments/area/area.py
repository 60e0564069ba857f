"""``pushpush bench area``: the PushPush paper's Fig. 4 with Yosys (no Vivado).

Systems of N components (:mod:`pushpush.bench.pairs_system`: N/2 callers and N/2 callees of
``int f(int)``; N = 1 is one callee alone) plus the ARM's ports, on the shared interconnect
and the crossbar (32-bit, round robin), built with ``pushpush build --target synth``
(FuseSoC/Edalize, Yosys ``synth_xilinx -family xc7``, the PYNQ-Z1's xc7z020). The PushPush
logic is the whole design minus the user modules (each user module synthesised alone):
the interconnect, and per component the endpoint window and call engine of its wrapper.

LUT and FF counts are fitted against N (linear and quadratic, R^2) and drawn with the
Z-7020's capacity (53,200 LUT, 106,400 FF). Yosys numbers are estimates: Vivado usually
lands within a few tens of percent.

The interconnect alone is also swept (:mod:`pushpush.bench.experiments.area.xbar_area`): the crossbar at
2x2 .. 16x16 against verilog-axi's ``axi_crossbar`` at the same sizes in the same run, when a
checkout of verilog-axi is given (``pushpush bench area --reference-verilog-axi PATH`` or
``$PUSHPUSH_VERILOG_AXI``; otherwise its column says "not measured").

The Yosys runs go through Edalize's generated Makefile, so ``EDALIZE_LAUNCHER`` (e.g.
``srun``) prefixes every tool run: a sweep can be spread over a cluster by the launcher.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional

from pushpush.bench import paper
from pushpush.bench.report import fit_growth, md_table, meta, pyplot, save_figure
from pushpush.bench.sweep import run_points

__all__ = ["run_area", "synth_point", "FULL_COMPONENTS"]

FULL_COMPONENTS = [1, 2, 4, 8, 16]
SMOKE_COMPONENTS = [1]
TOPOLOGIES = ["shared", "crossbar"]


def synth_point(point: dict[str, Any]) -> dict[str, Any]:
    """Generate and synthesise one system; returns the point with ``total``,
    ``interconnect``, ``user`` and ``pushpush`` (LUT/FF dicts) and ``synth_s``."""
    from pushpush.build.fusesoc import build
    from pushpush.build.synth import synth_resources
    from pushpush.link import load

    from pushpush.bench.pairs_system import caller_module, callee_module, write_pairs_system

    t0 = time.monotonic()
    n, work = point["components"], Path(point["work"]).resolve()
    ic = {"topology": point["topology"], "arbitration": "round_robin"}
    if n == 1:
        yaml = write_pairs_system(work, 1, 1, 0, ic, name=f"area_{point['topology']}_1",
                                  caller_kind="python")
    else:
        if n % 2:
            raise ValueError(f"area: component counts above 1 must be even (callers + callees), not {n}")
        yaml = write_pairs_system(work, n // 2, 1, 0, ic, name=f"area_{point['topology']}_{n}")
    linked = load(yaml)
    res = build(linked, work / "out", "synth", progress=lambda m: None,
                flat=False)  # the sweep reads the hierarchy-kept totals only
    user = {"luts": 0, "ffs": 0}
    mods = [callee_module(1, 0)] * (n if n == 1 else n // 2)
    mods += [caller_module(p, 1) for p in range(n // 2)] if n > 1 else []
    cache: dict[str, Any] = {}
    for m in mods:
        key = m if m.startswith("bench_callee") else "caller"
        if key not in cache:
            cache[key] = synth_resources([work / f"{m}.v"], m)
        user["luts"] += cache[key].luts
        user["ffs"] += cache[key].ffs
    total, infra = res.resources["total"], res.resources["interconnect"]
    row = dict(point)
    row.update({"total": {"luts": total.luts, "ffs": total.ffs},
                "interconnect": {"luts": infra.luts, "ffs": infra.ffs},
                "user": user,
                "pushpush": {"luts": total.luts - user["luts"], "ffs": total.ffs - user["ffs"]},
                "per_component": {c: {"luts": r.luts, "ffs": r.ffs} for c, r in res.resources.items()
                                  if c not in ("total", "interconnect")},
                "synth_s": round(time.monotonic() - t0, 1)})
    return row


def run_area(out: Path, smoke: bool = False, jobs: Optional[int] = None,
             log: Callable[[str], None] = print,
             verilog_axi: Optional[Path] = None) -> dict[str, Any]:
    """Run the experiment; returns the common result dict (see :mod:`pushpush.bench.report`).
    ``verilog_axi``: a checkout of verilog-axi to measure as the reference (default
    ``$PUSHPUSH_VERILOG_AXI``, else not measured)."""
    from pushpush.bench.experiments.area.xbar_area import SIZES, SMOKE_SIZES, alone_markdown, alone_point, verilog_axi_checkout

    t0 = time.monotonic()
    checkout = verilog_axi_checkout(verilog_axi)
    comps = SMOKE_COMPONENTS if smoke else FULL_COMPONENTS
    work = out / "work" / "area"
    pts = [{"work": str(work / f"{t}_{n}"), "label": f"area {t} {n} component(s)",
            "topology": t, "components": n} for t in TOPOLOGIES for n in comps
           if not smoke or t == "shared"]
    log(f"area: {len(pts)} Yosys synth_xilinx runs")
    sizes = SMOKE_SIZES if smoke else SIZES
    alone_pts = [{"design": d, "n": n, "label": f"area {d} {n}x{n} alone",
                  **({"checkout": str(checkout)} if d == "verilog-axi" else {})}
                 for d in (["pushpush"] + (["verilog-axi"] if checkout else [])) for n in sizes]
    log(f"area: {len(alone_pts)} Yosys runs of the interconnect alone")
    # the slowest (largest) first, so that parallel workers finish together
    alone = run_points(alone_point, sorted(alone_pts, key=lambda p: -p["n"]), jobs, log, kind="synth")
    alone.sort(key=lambda r: (r["design"], r["n"]))
    rows = run_points(synth_point, pts, jobs, log, kind="synth")
    fits: dict[str, dict[str, Any]] = {}
    for t in TOPOLOGIES:
        rs = [r for r in rows if r["topology"] == t]
        if not rs:
            continue
        for res in ("luts", "ffs"):
            fits[f"{t}_{res}"] = fit_growth([r["components"] for r in rs],
                                            [r["pushpush"][res] for r in rs])
    plots = _plot(rows, fits, out)
    from pushpush.bench.experiments.area.riscv_area import riscv_area, riscv_area_markdown
    log(f"area: the soft cores of kind: riscv ({2 if smoke else 4} Yosys run(s); smoke: the cores alone)")
    riscv = riscv_area(whole=not smoke)
    from pushpush.bench.experiments.area import firewall_area as fwa
    fw_pts, dma_pts = (fwa.SMOKE_POINTS, fwa.SMOKE_DMA_POINTS) if smoke else (fwa.FIREWALL_POINTS, fwa.DMA_POINTS)
    static_pts = fwa.SMOKE_STATIC_POINTS if smoke else fwa.STATIC_POINTS
    log(f"area: the memory firewall (cores/mem_firewall) at {len(fw_pts)} size(s), as "
        f"{len(dma_pts)} AXI DMA firewall(s), its static form at {len(static_pts)}")
    firewall = fwa.firewall_area(fw_pts, dma_pts)
    firewall_static = fwa.firewall_static_area(static_pts)
    from pushpush.bench.experiments.area.window_guard_area import SMOKE_SYSTEMS, SYSTEMS, window_guard_area, window_guard_area_markdown
    log(f"area: the window guard of {len(SMOKE_SYSTEMS if smoke else SYSTEMS)} system(s)")
    window_guard = window_guard_area(SMOKE_SYSTEMS if smoke else SYSTEMS)
    return {"experiment": "area", "title": "area: PushPush logic against component count (Fig. 4)",
            "meta": meta("yosys", jobs), "smoke": smoke, "rows": rows, "fits": fits,
            "interconnect_alone": alone, "riscv": riscv, "firewall": firewall, "firewall_static": firewall_static,
            "window_guard": window_guard,
            "targets": [], "markdown": _markdown(rows, fits) + "\n\n" + alone_markdown(alone, checkout)
            + "\n\n" + riscv_area_markdown(riscv) + "\n\n" + fwa.firewall_area_markdown(firewall)
            + "\n\n" + fwa.firewall_static_area_markdown(firewall_static)
            + "\n\n" + window_guard_area_markdown(window_guard),
            "plots": plots,
            "wall_s": round(time.monotonic() - t0, 1)}


def _fit_text(f: dict[str, Any]) -> str:
    best = f.get("best")
    if best is None:
        return "-"
    c = f[best]["coeffs"]
    terms = " + ".join(f"{v:g}·N^{len(c) - 1 - i}" if len(c) - 1 - i > 1 else
                       (f"{v:g}·N" if len(c) - 1 - i == 1 else f"{v:g}") for i, v in enumerate(c))
    other = "quadratic" if best == "linear" else "linear"
    alt = f" ({other} R^2 {f[other]['r2']:.4f})" if other in f else ""
    return f"{best}: {terms}, R^2 {f[best]['r2']:.4f}{alt}"


def _markdown(rows: list[dict[str, Any]], fits: dict[str, dict[str, Any]]) -> str:
    lines = [
        "Yosys `synth_xilinx -family xc7` (estimates), N components (N/2 callers + N/2 callees of "
        "`int f(int)`) plus the ARM's ports. PushPush logic = total - the user modules: the "
        "interconnect plus every component's endpoint window and call engine. The paper: linear "
        "growth for the shared interconnect, quadratic for the crossbar (both R^2 > 0.99); its "
        f"crossbar did not fit the Z-7020 beyond {paper.FIG3_CROSSBAR_MAX_COMPONENTS} components.",
        "",
        md_table(("interconnect", "N", "PushPush LUT", "PushPush FF", "of which interconnect LUT/FF",
                  "user LUT/FF", f"% of Z-7020 LUT ({paper.Z7020_LUT:,})"),
                 [(r["topology"], r["components"], r["pushpush"]["luts"], r["pushpush"]["ffs"],
                   f"{r['interconnect']['luts']}/{r['interconnect']['ffs']}",
                   f"{r['user']['luts']}/{r['user']['ffs']}",
                   f"{100 * r['pushpush']['luts'] / paper.Z7020_LUT:.1f}%") for r in rows]),
        "",
        "Fitted growth (PushPush logic against N):",
        "",
        md_table(("", "fit"), [(k.replace("_", " "), _fit_text(v)) for k, v in fits.items()]),
    ]
    return "\n".join(lines)


def _plot(rows: list[dict[str, Any]], fits: dict[str, dict[str, Any]], out: Path) -> list[str]:
    plt = pyplot()
    if plt is None:
        return []
    import numpy as np

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, res, cap, name in ((axes[0], "luts", paper.Z7020_LUT, "LUT"),
                               (axes[1], "ffs", paper.Z7020_FF, "FF")):
        for t, style in (("shared", "s"), ("crossbar", "o")):
            rs = sorted((r for r in rows if r["topology"] == t), key=lambda r: r["components"])
            xs = [r["components"] for r in rs]
            line = ax.plot(xs, [r["pushpush"][res] for r in rs], style, label=f"{t}")[0]
            f = fits.get(f"{t}_{res}", {})
            if f.get("best"):
                xx = np.linspace(min(xs), max(xs), 50)
                ax.plot(xx, np.polyval(f[f["best"]]["coeffs"], xx), "-", color=line.get_color(),
                        lw=0.8, label=f"{t} {f['best']} fit, R^2 {f[f['best']]['r2']:.3f}")
        ax.axhline(cap, color="r", ls=":", label=f"Z-7020: {cap:,} {name}")
        ax.set_yscale("log")
        ax.set_xlabel("components")
        ax.set_ylabel(f"{name} (Yosys, xc7)")
        ax.set_title(f"PushPush logic: {name}")
        ax.legend(fontsize=7)
    save_figure(fig, out / "area.png")
    return ["area.png"]
