"""``pushpush bench scaling`` in the common results format (the PushPush paper's Fig. 3).

Runs :func:`pushpush.bench.experiments.scaling.scaling.run_scaling` (N pingpong pairs calling at once, shared
round robin, shared fair, crossbar) over the machine's cores and adds per-pair MCalls/s, the
crossbar's scaling efficiency (total / (N x one pair)), the paper's Fig. 3 observations, a
plot and the targets: the crossbar's total at least 0.9 x N x one pair, and (issue 12) at
least 20 MCalls/s on the shared bus from 4 pairs.

N pairs are 2N components plus the ARM on the interconnect (at most 64 ports per side, so
N = 16 fits; the paper's crossbar stopped at 13 components on the Z-7020).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional

from pushpush.bench import paper
from pushpush.bench.report import md_table, meta, pyplot, save_figure
from pushpush.bench.experiments.scaling.scaling import BUS_LIMIT_CYCLES, TARGET_MCALLS, check_targets, run_scaling

__all__ = ["run_scaling_experiment", "FULL_PAIRS", "SMOKE_PAIRS", "TARGET_EFFICIENCY"]

FULL_PAIRS = [1, 2, 4, 8, 12, 16]
SMOKE_PAIRS = [1, 2]
#: ours: crossbar total >= this x N x one pair
TARGET_EFFICIENCY = 0.9


def add_common(result: dict[str, Any], out: Path, jobs: Optional[int], smoke: bool) -> dict[str, Any]:
    """Add the common-format keys (experiment, meta, targets, markdown, plots) to a
    :func:`run_scaling` result, in place; returns it."""
    rows = result["rows"]
    single = {r["config"]: r["mcalls"] for r in rows if r["pairs"] == 1}
    for r in rows:
        r["mcalls_per_pair"] = round(r["mcalls"] / r["pairs"], 3)
        r["components"] = 2 * r["pairs"]
        one = single.get(r["config"])
        r["efficiency"] = round(r["mcalls"] / (r["pairs"] * one), 3) if one else None
    targets = []
    for r in rows:
        if r["config"] == "crossbar" and r["pairs"] > 1 and r["efficiency"] is not None:
            cpc = sum(r["cpc"]) / len(r["cpc"])
            one_cpc = 100.0 / single["crossbar"]
            targets.append({
                "target": f"crossbar, {r['pairs']} pairs: total >= {TARGET_EFFICIENCY:g} x N x one pair",
                "ours": f"{r['mcalls']:.2f} MCalls/s = {r['efficiency']:.2f} x N x one pair",
                "met": r["efficiency"] >= TARGET_EFFICIENCY,
                "note": f"{cpc:.2f} cycles/call per pair against {one_cpc:.2f} for one pair"
                        + ("" if r["efficiency"] >= TARGET_EFFICIENCY else
                           f": {cpc - one_cpc:.2f} cycles/call waiting in the crossbar's arbiters")})
    missed_shared = check_targets(result)
    for r in rows:
        if r["config"].startswith("shared") and r["pairs"] >= 4:
            targets.append({"target": f"{r['label']}, {r['pairs']} pairs: >= {TARGET_MCALLS:g} MCalls/s "
                                      "(issue 12)",
                            "ours": f"{r['mcalls']:.2f} MCalls/s",
                            "met": r["mcalls"] >= TARGET_MCALLS,
                            "note": f"one bus, {BUS_LIMIT_CYCLES} beats per call: at most "
                                    f"{100 / BUS_LIMIT_CYCLES:g} MCalls/s"})
    result.update({
        "experiment": "scaling", "title": "scaling: N caller/callee pairs at once (Fig. 3)",
        "meta": meta(result["simulator"], jobs), "smoke": smoke, "targets": targets,
        "targets_missed": missed_shared, "wall_s": result["runtime_s"],
        "markdown": _markdown(rows, result["calls"]), "plots": _plot(rows, out),
    })
    return result


def run_scaling_experiment(out: Path, smoke: bool = False, jobs: Optional[int] = None,
                           simulator: str = "icarus", pairs: Optional[list[int]] = None,
                           calls: Optional[int] = None,
                           log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the experiment; returns the common result dict (see :mod:`pushpush.bench.report`)."""
    t0 = time.monotonic()
    ps = pairs or (SMOKE_PAIRS if smoke else FULL_PAIRS)
    configs = ["crossbar"] if smoke else None
    n = calls or (30 if smoke else 100)
    log(f"scaling: pairs {ps}, {n} calls per pair")
    result = run_scaling(pairs=ps, configs=configs, calls=n, simulator=simulator,
                         outdir=out / "work" / "scaling", log=log, jobs=jobs)
    add_common(result, out, jobs, smoke)
    result["wall_s"] = round(time.monotonic() - t0, 1)
    return result


def _markdown(rows: list[dict[str, Any]], calls: int) -> str:
    lines = [
        f"N pairs of pingpong's `int f(int)` caller and callee (examples/pingpong/rtl), every pair "
        f"calling back to back, {calls} calls each; measured while all pairs are busy. The paper "
        "(Vivado HLS components on a Zynq): linear total from 2 to 6 components on both; the "
        "crossbar linear up to 9, then dropping off; no crossbar beyond "
        f"{paper.FIG3_CROSSBAR_MAX_COMPONENTS} components (device full).",
        "",
        md_table(("configuration", "pairs", "components", "total MCalls/s", "MCalls/s per pair",
                  "cycles/call per pair (min..max)", "total / (N x one pair)"),
                 [(r["label"], r["pairs"], r["components"], r["mcalls"], r["mcalls_per_pair"],
                   f"{min(r['cpc']):.2f}..{max(r['cpc']):.2f}", r["efficiency"]) for r in rows]),
    ]
    return "\n".join(lines)


def _plot(rows: list[dict[str, Any]], out: Path) -> list[str]:
    plt = pyplot()
    if plt is None:
        return []
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for cfg in sorted({r["config"] for r in rows}):
        rs = sorted((r for r in rows if r["config"] == cfg), key=lambda r: r["pairs"])
        label = rs[0]["label"]
        axes[0].plot([r["pairs"] for r in rs], [r["mcalls"] for r in rs], "-o", label=label)
        axes[1].plot([r["pairs"] for r in rs], [r["mcalls_per_pair"] for r in rs], "-o", label=label)
    xb = sorted((r for r in rows if r["config"] == "crossbar"), key=lambda r: r["pairs"])
    if xb:
        one = xb[0]["mcalls"] / xb[0]["pairs"]
        axes[0].plot([r["pairs"] for r in xb], [one * r["pairs"] * TARGET_EFFICIENCY for r in xb],
                     "k:", label=f"target {TARGET_EFFICIENCY:g} x N x one pair (crossbar)")
    axes[0].axhline(100 / BUS_LIMIT_CYCLES, color="r", ls=":", label="one bus: 4 beats/call")
    axes[1].axhline(paper.HW_HW_MCALLS, color="g", ls=":", label="paper: one VHLS pair, 4.54")
    axes[0].set_title("total MCalls/s")
    axes[1].set_title("MCalls/s per pair")
    for ax in axes:
        ax.set_xlabel("caller/callee pairs")
        ax.legend(fontsize=7)
    save_figure(fig, out / "scaling.png")
    return ["scaling.png"]
