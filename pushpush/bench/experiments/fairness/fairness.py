"""``pushpush bench fairness``: the ABE paper's fairness experiment in simulation.

Restuccia et al., "Is Your Bus Arbiter Really Fair?" (shared/seeds/001): a victim master
reading 16-beat bursts shares one memory port with 1..7 interferers reading bursts of
16..256 beats. Under round robin per transaction the victim gets (Eq. 1; the values of the
paper's Table 1, whose ratio to the fair share is Eq. 2)

    share = 16 / (16 + n * burst)

of the data instead of its fair share 1 / (n + 1). This benchmark measures the victim's
share in simulation for three interconnect configurations:

- ``round_robin``: pp_axi_interconnect with ARBITRATION=0, masters connected directly;
- ``abe``: the same, with a pp_abe (nominal burst 16, 4 outstanding) in front of every master;
- ``fair``: no ABEs, ARBITRATION=1 (deficit round robin over beats, quantum 16).

Harness: pushpush/bench/rtl/pp_fairness_top.v (8 pp_traffic_gen, optional pp_abe, the
interconnect, a pattern memory answering one beat per cycle with a 32-request read queue),
driven by :mod:`pushpush.bench.experiments.fairness.fairness_tb`. Every generator reads continuously with 4
bursts in flight; after a warm-up, every master's beats are counted over a window of a
whole number of arbitration periods (:func:`period`, at least 8192 cycles).
Share = victim beats / all beats in the window (the fraction of the delivered data, what
Eq. 1 describes); the bus utilisation (all beats / cycles) is reported too. Every read beat
is checked against the address pattern by the generators (errors must be 0).

The ABE's latency is measured too: one victim burst alone, with and without ABE (cycles from
start to the last beat), for a 16-beat and a 256-beat burst (split into 16 sub-bursts).

Example::

    from pushpush.bench.experiments.fairness.fairness import run_fairness, format_table
    res = run_fairness(quick=True, simulator="icarus", outdir="bench_out")
    print(format_table(res))
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

from pushpush.bench.paths import RTL_DIR

__all__ = ["CONFIGS", "FULL", "QUICK", "eq1_share", "eq2_ratio", "period", "points", "run_fairness",
           "format_table", "plot", "check_targets", "run"]

VICTIM_BURST = 16
OUTSTANDING = 4
NOMINAL_BURST = 16
ARB_QUANTUM = 16
MASTERS = 8

#: (name, label, harness parameters)
CONFIGS = [
    ("round_robin", "round robin", {"USE_ABE": 0, "ARBITRATION": 0}),
    ("abe", "with ABEs", {"USE_ABE": 1, "ARBITRATION": 0}),
    ("fair", "fair arbitration", {"USE_ABE": 0, "ARBITRATION": 1}),
]

FULL = {"interferers": list(range(1, 8)), "bursts": [16, 32, 64, 128, 256]}
QUICK = {"interferers": [1, 3], "bursts": [16, 64, 256]}

#: The harness (pushpush/bench/rtl/, shipped in the package) and the cores it instantiates.
HARNESS_DIR = RTL_DIR
HARNESS_CORES = ("abe", "traffic_gen", "interconnect")


def eq1_share(interferers: int, burst: int, victim: int = VICTIM_BURST) -> float:
    """The victim's share of the data under round robin (the paper's Eq. 1 / Table 1)."""
    return victim / (victim + interferers * burst)


def eq2_ratio(interferers: int, burst: int, victim: int = VICTIM_BURST) -> float:
    """The victim's share relative to the fair share 1/(n+1) (the paper's Eq. 2)."""
    return eq1_share(interferers, burst, victim) * (interferers + 1)


def period(config: str, interferers: int, burst: int) -> int:
    """Beats (= cycles, the memory is busy every cycle) after which the arbitration pattern
    repeats in steady state: one round-robin round (victim burst + one burst per
    interferer); with ABEs one round of nominal bursts; with deficit round robin (quantum
    16) the rounds in which every master is served ``max(burst, 16)`` beats."""
    if config == "round_robin":
        return VICTIM_BURST + interferers * burst
    if config == "abe":
        return NOMINAL_BURST * (interferers + 1)
    return max(burst, ARB_QUANTUM) * (interferers + 1)


def points(interferers: list[int], bursts: list[int], config: str = "round_robin",
           min_window: int = 8192) -> list[dict[str, int]]:
    """Measurement points: a warm-up of at least 4 periods, then a window of a whole number
    of periods (at least ``min_window`` cycles), so the share is not biased by where the
    window starts in the arbitration pattern."""
    out = []
    for n in interferers:
        for b in bursts:
            per = period(config, n, b)
            k = -(-min_window // per)
            out.append({"interferers": n, "burst": b, "warmup": max(2048, 4 * per),
                        "window": k * per})
    return out


def _sources() -> list[Path]:
    from pushpush.build.cores import cores_rtl

    return [HARNESS_DIR / "pp_bench_rdmem.v", HARNESS_DIR / "pp_fairness_top.v",
            *cores_rtl(HARNESS_CORES)]


#: ``topology`` argument of :func:`run_fairness` -> the harness's TOPOLOGY parameter
TOPOLOGIES = {"crossbar": 0, "shared": 1}


def _simulate(params: dict[str, int], pts: list[dict[str, Any]], simulator: str,
              build_dir: Path) -> list[dict[str, Any]]:
    from pushpush.build.sim import run_cocotb

    out = build_dir / "points.json"
    cfg = {"points": pts, "victim_burst": VICTIM_BURST, "outstanding": OUTSTANDING}
    run_cocotb(toplevel="pp_fairness_top", sources=_sources(), test_module="fairness_tb",
               test_dir=Path(__file__).parent, simulator=simulator, build_dir=build_dir,
               parameters={"N": MASTERS, "NOMINAL_BURST": NOMINAL_BURST,
                           "MAX_OUTSTANDING": OUTSTANDING, "ARB_QUANTUM": ARB_QUANTUM, **params},
               extra_env={"PP_BENCH": json.dumps(cfg), "PP_BENCH_OUT": str(out),
                          "COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "WARNING"),
                          "GPI_LOG_LEVEL": os.environ.get("GPI_LOG_LEVEL", "WARNING")})
    return json.loads(out.read_text())


def run_fairness(quick: bool = False, simulator: str = "icarus",
                 outdir: Optional[str | os.PathLike[str]] = None,
                 interferers: Optional[list[int]] = None, bursts: Optional[list[int]] = None,
                 configs: Optional[list[str]] = None, log=print,
                 topology: str = "crossbar") -> dict[str, Any]:
    """Run the experiment; returns (and, with ``outdir``, writes to ``fairness.json``) the
    results: ``rows`` (one per point: measured shares per configuration, Eq. 1, fair
    share), ``latency`` (ABE latency measurement), ``runtime_s``. ``topology``: the
    interconnect's (``"crossbar"``, the default, or ``"shared"``)."""
    if topology not in TOPOLOGIES:
        raise ValueError(f"topology '{topology}': choose one of {', '.join(TOPOLOGIES)}")
    topo = {"TOPOLOGY": TOPOLOGIES[topology]}
    sel = QUICK if quick else FULL
    ns, bs = interferers or sel["interferers"], bursts or sel["bursts"]
    pts = points(ns, bs)
    names = configs or [c[0] for c in CONFIGS]
    work = Path(outdir) if outdir else Path(tempfile.mkdtemp(prefix="pp_bench_"))
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    measured: dict[str, list[dict[str, Any]]] = {}
    runtimes: dict[str, float] = {}
    for name, label, params in CONFIGS:
        if name not in names:
            continue
        log(f"pushpush bench fairness: {label}: {len(pts)} points on {simulator} ...")
        t = time.monotonic()
        measured[name] = _simulate({**params, **topo}, points(ns, bs, name), simulator,
                                   work / "sim" / f"{name}_{topology}_{simulator}")
        runtimes[name] = round(time.monotonic() - t, 1)
    # ABE latency: one burst alone, with and without ABE
    lat_pts = [{"interferers": 0, "burst": 16, "victim_burst": vb, "latency": True}
               for vb in (16, 256)]
    latency = []
    if "round_robin" in names or "abe" in names:
        plain = _simulate({"USE_ABE": 0, "ARBITRATION": 0, **topo}, lat_pts, simulator,
                          work / "sim" / f"latency_plain_{topology}_{simulator}")
        abe = _simulate({"USE_ABE": 1, "ARBITRATION": 0, **topo}, lat_pts, simulator,
                        work / "sim" / f"latency_abe_{topology}_{simulator}")
        for p, a in zip(plain, abe):
            latency.append({"burst": p["victim_burst"], "cycles_without_abe": p["cycles"],
                            "cycles_with_abe": a["cycles"],
                            "added_cycles": a["cycles"] - p["cycles"]})
    rows = []
    for i, p in enumerate(pts):
        n, b = p["interferers"], p["burst"]
        row: dict[str, Any] = {"interferers": n, "burst": b, "eq1": eq1_share(n, b),
                               "eq2": eq2_ratio(n, b), "fair_share": 1 / (n + 1)}
        for name, res in measured.items():
            r = res[i]
            total = sum(r["beats"])
            row[name] = r["beats"][0] / total if total else 0.0
            row[f"{name}_utilisation"] = total / r["cycles"] if r["cycles"] else 0.0
            row[f"{name}_errors"] = r["errors"]
            row[f"{name}_beats"] = r["beats"]
            row[f"{name}_cycles"] = r["cycles"]
        rows.append(row)
    result = {"simulator": simulator, "topology": topology, "quick": quick, "victim_burst": VICTIM_BURST,
              "outstanding": OUTSTANDING, "abe_nominal_burst": NOMINAL_BURST,
              "arb_quantum": ARB_QUANTUM, "configs": list(measured), "rows": rows,
              "latency": latency, "runtime_s": round(time.monotonic() - t0, 1),
              "runtime_per_config_s": runtimes}
    if outdir:
        (work / "fairness.json").write_text(json.dumps(result, indent=1))
    return result


def format_table(result: dict[str, Any]) -> str:
    """The table: one row per (interferers, burst), shares in percent."""
    labels = {c[0]: c[1] for c in CONFIGS}
    cols = [c for c in result["configs"]]
    head = ["N", "burst"] + [labels[c] for c in cols] + ["Eq. 1 (Table 1)", "Eq. 2 ratio",
                                                          "fair 1/(N+1)"]
    lines = []
    for r in result["rows"]:
        cells = [str(r["interferers"]), str(r["burst"])]
        cells += [f"{100 * r[c]:.2f}%" for c in cols]
        cells += [f"{100 * r['eq1']:.2f}%", f"{r['eq2']:.3f}", f"{100 * r['fair_share']:.2f}%"]
        lines.append(cells)
    widths = [max(len(x) for x in col) for col in zip(head, *lines)]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    out = ["victim share of the data (16-beat victim vs N interferers of the given burst, "
           f"{result.get('topology', 'crossbar')} interconnect, {result['simulator']}):",
           fmt.format(*head)]
    out += [fmt.format(*c) for c in lines]
    for lat in result.get("latency", []):
        out.append(f"ABE latency: one {lat['burst']}-beat read alone takes "
                   f"{lat['cycles_without_abe']} cycles without ABE, {lat['cycles_with_abe']} "
                   f"with: +{lat['added_cycles']} cycle(s)")
    return "\n".join(out)


def check_targets(result: dict[str, Any], tolerance: float = 0.01) -> list[str]:
    """Missed targets (empty: all met): round robin within ``tolerance`` of Eq. 1, ABE and
    fair within ``tolerance`` of the fair share (absolute, 0.01 = 1 percentage point), no
    data errors, ABE latency exactly +1 cycle."""
    bad = []
    for r in result["rows"]:
        where = f"N={r['interferers']} burst={r['burst']}"
        for name in result["configs"]:
            target = r["eq1"] if name == "round_robin" else r["fair_share"]
            if abs(r[name] - target) > tolerance:
                bad.append(f"{where}: {name} {100 * r[name]:.2f}% vs {100 * target:.2f}%")
            if r[f"{name}_errors"]:
                bad.append(f"{where}: {name}: {r[f'{name}_errors']} data/response errors")
    for lat in result.get("latency", []):
        if lat["added_cycles"] != 1:
            bad.append(f"ABE latency for a {lat['burst']}-beat burst: +{lat['added_cycles']}")
    return bad


def plot(result: dict[str, Any], path: str | os.PathLike[str]) -> Optional[Path]:
    """Fig. 2 style bar plot (one panel per interferer count): the victim's share per
    interferer burst for each configuration, with Eq. 1 and the fair share. Returns the
    path, or None when matplotlib is not installed."""
    from pushpush.bench.report import pyplot, save_figure

    plt = pyplot()
    if plt is None:
        return None
    labels = {c[0]: c[1] for c in CONFIGS}
    ns = sorted({r["interferers"] for r in result["rows"]})
    ncols = min(4, len(ns))
    nrows = (len(ns) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.4 * ncols + 0.6, 3.3 * nrows + 0.3),
                             squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[len(ns):]:
        ax.axis("off")
    for ax, n in zip(flat, ns):
        rows = [r for r in result["rows"] if r["interferers"] == n]
        xs = range(len(rows))
        width = 0.8 / (len(result["configs"]) + 1)
        for k, name in enumerate(result["configs"]):
            ax.bar([x + k * width for x in xs], [100 * r[name] for r in rows], width,
                   label=labels[name])
        ax.bar([x + len(result["configs"]) * width for x in xs], [100 * r["eq1"] for r in rows],
               width, label="Eq. 1 (Table 1)", color="0.7")
        ax.axhline(100 / (n + 1), color="k", linestyle="--", linewidth=1, label="fair share")
        ax.set_xticks([x + 0.4 - width / 2 for x in xs])
        ax.set_xticklabels([str(r["burst"]) for r in rows])
        ax.set_title(f"{n} interferer{'s' if n > 1 else ''}")
        ax.set_xlabel("interferer burst (beats)")
        ax.set_ylabel("victim share of the data (%)")
    if len(flat) > len(ns):
        handles, names = flat[0].get_legend_handles_labels()
        flat[len(ns)].legend(handles, names, loc="center")
    else:
        flat[-1].legend(fontsize=7)
    fig.suptitle(f"Victim ({VICTIM_BURST}-beat bursts) against N interferers "
                 f"({result['simulator']} simulation)", fontsize=10)
    return save_figure(fig, path, dpi=120)


def run(opts: Any, log: Any) -> dict[str, Any]:
    """``pushpush bench fairness`` (registry, :mod:`pushpush.bench.registry`)."""
    from pushpush.bench.registry import missed_targets, result, simulator

    sim = simulator(opts.sim)
    out = Path(opts.output)
    res = run_fairness(quick=opts.quick, simulator=sim, outdir=out, log=log, topology=opts.topology)
    table = format_table(res)
    png = plot(res, out / "fairness.png")
    missed = check_targets(res)
    res["targets_missed"] = missed
    (out / "fairness.json").write_text(json.dumps(res, indent=1))
    lines = [table, f"\nresults: {out / 'fairness.json'}" + (
        f", plot: {png}" if png else
        " (no plot: install matplotlib, e.g. pip install 'pushpush-fpga[bench]')"),
        f"simulation time: {res['runtime_s']} s ({sim})"]
    if missed:
        lines.append("targets missed:\n  " + "\n  ".join(missed))
    else:
        lines.append("targets met: round robin within 1 point of Eq. 1, ABEs and fair arbitration "
                     "within 1 point of the fair share, ABE latency +1 cycle")
    return result("fairness", "fairness: a victim's share against interferers (ABE paper Table 1)",
                  "\n".join(lines), rows=res["rows"], targets=missed_targets(missed), markdown=table,
                  plots=[png.name] if png else [])
