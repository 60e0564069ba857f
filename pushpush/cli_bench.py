"""The ``pushpush bench`` subcommand.

``pushpush bench fairness [--quick] [--sim icarus|verilator] [--topology crossbar|shared]
[-o DIR]``: the ABE paper's fairness experiment (Table 1 / Fig. 2) in simulation, see
:mod:`pushpush.bench.fairness`.

``pushpush bench scaling [--quick] [--sim icarus|verilator] [--pairs 1,2,4,8] [--calls N]
[-o DIR]``: total MCalls/s and cycles per call of 1..N concurrent pingpong pairs on the shared
and the crossbar interconnect, see :mod:`pushpush.bench.scaling`.

``pushpush bench simboard [--sim icarus|verilator|both] [--ps hdl|cocotb|both] [--calls N]
[--tree PATH --label NAME] [-o DIR]``: the simulated board's speed (load cold/warm, calls/s
both ways, cycles/s, idle CPU), see :mod:`pushpush.bench.simboard`.

``pushpush bench callpath [--calls N] [--tree PATH --label NAME] [--check] [-o DIR]``: the
Python runtime's CPU time per ``int f(int)`` call (sync, asyncio, served) against the
in-memory bus, no simulator, see :mod:`pushpush.bench.callpath`.

``pushpush bench dma [--smoke] [--sim icarus|verilator] [-o DIR] [--check]``: bulk transfers with
PYNQ's DMA driver from 8 B to 6 MiB (TX, RX, both; whole and in blocks, single and double
buffer), exact cycles, MB/s against the HP port's limit, the seed paper's Table I beside ours;
``dma.json``, ``dma.md``, ``dma.png``. See :mod:`pushpush.bench.dma`.

``pushpush bench channels [--smoke] [--sim icarus|verilator] [-o DIR] [--check]``: RIFFA-style
channels, send/recv/both from 4 B to 4 MiB against the bus limit, a round trip in cycles,
RIFFA's published figures beside ours; ``channels.json``, ``.md``, ``.png``. See
:mod:`pushpush.bench.channels`.

``pushpush bench wait [--calls N] [--modes sleep,poll,yield,interrupt] [--sim ...] [-o DIR]``:
the wake-up latency of a Python handler and of a C one (trigger write -> handler running) per
wait mode, idle
and with a CPU hog per core, and the waiting process's CPU use, laid out like the FSL driver
paper's Table 1 with its numbers; a histogram (wait.png). See :mod:`pushpush.bench.wait`.
``pushpush bench calls|area|args|all [--smoke] [--jobs N] [--out DIR] [--check]``: the
PushPush paper's evaluation (Table II/III, Fig. 4, Fig. 5/6; ``all`` adds scaling, Fig. 3):
JSON, PNG plots and Markdown into DIR (default ``benchmarks/results``), sweep points in
parallel, see :mod:`pushpush.bench.suite`. ``--executor slurm`` (or ``$PUSHPUSH_EXECUTOR``)
runs the sweep points of calls, scaling, area, args and all as Slurm jobs (docs/cluster.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .cli_common import EXIT_INVALID, EXIT_OK, Command, UsageError

BENCHMARKS = ("fairness", "scaling", "simboard", "callpath", "wait", "calls", "area", "args", "all",
              "summary", "dma", "channels")
DEFAULT_OUT = "benchmarks/results"

if TYPE_CHECKING:
    from .executor import Executor


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("benchmark", choices=BENCHMARKS, help="which benchmark")
    p.add_argument("--quick", action="store_true",
                   help="a small subset (fairness: 1 and 3 interferers, bursts 16/64/256, what "
                        "CI runs; scaling: 1 and 4 pairs)")
    p.add_argument("--sim", choices=("icarus", "verilator", "both"), default=None,
                   help="simulator (fairness, scaling: default icarus; simboard: default both)")
    p.add_argument("--ps", choices=("hdl", "cocotb", "both"), default="both",
                   help="simboard: the PS model(s) to measure (default: both)")
    p.add_argument("--tree", metavar="PATH",
                   help="simboard, callpath: also measure the pushpush checkout at PATH (e.g. a "
                        "worktree of an older commit), for a before/after table")
    p.add_argument("--label", default="before", help="simboard, callpath: the name of --tree's rows")
    p.add_argument("-o", "--output", "--out", metavar="DIR", default=DEFAULT_OUT,
                   help="results folder: <benchmark>.json, .md, .png, summary.md (all), the "
                        f"simulation and synthesis builds under work/ (default: {DEFAULT_OUT})")
    p.add_argument("--smoke", action="store_true",
                   help="calls, scaling, area, args, all: a few points per experiment (what CI "
                        "runs), so the benchmark code cannot rot")
    p.add_argument("--jobs", "-j", type=int, default=None,
                   help="calls, scaling, area, args, all: sweep points run in parallel (default: "
                        "$PUSHPUSH_BENCH_JOBS, else one per core)")
    p.add_argument("--executor", choices=("local", "slurm"), default=None,
                   help="calls, scaling, area, args, all: where the sweep points run: local (a "
                        "process pool, the default) or slurm (a job array; work folder "
                        "$PUSHPUSH_SLURM_DIR, else DIR/work/slurm; docs/cluster.md) (default: "
                        "$PUSHPUSH_EXECUTOR, else local)")
    p.add_argument("--args-grid", metavar="NARGS:PAIRS",
                   help="args: a sub-grid, argument counts and pair counts, e.g. 0,8,32:1,8 "
                        "(default 0,1,2,4,8,16,24,32:1,3,6,8)")
    p.add_argument("--check", action="store_true",
                   help="exit 1 if a target is missed (fairness: round robin within 1 point of "
                        "Eq. 1, ABE and fair arbitration within 1 point of the fair share, ABE +1 "
                        "cycle; scaling: at least 20 MCalls/s on the shared bus from 4 pairs; "
                        "callpath: at most 7 µs of runtime CPU per sync call; calls, area, args, all: "
                        "any target of theirs)")
    p.add_argument("--reference-verilog-axi", metavar="PATH", default=None,
                   help="area: also synthesise verilog-axi's axi_crossbar from this checkout of "
                        "https://github.com/alexforencich/verilog-axi at the same sizes, as the "
                        "reference point (default: $PUSHPUSH_VERILOG_AXI; without one: not measured)")
    p.add_argument("--rounds", type=int, default=3,
                   help="callpath: rounds, the trees alternating; the best round is shown (default 3)")
    p.add_argument("--topology", choices=("crossbar", "shared"), default="crossbar",
                   help="fairness: the interconnect's topology (default: crossbar)")
    p.add_argument("--pairs", metavar="N,N,...", default=None,
                   help="scaling: pair counts (default 1,2,4,8,12,15; --quick 1,4)")
    p.add_argument("--calls", type=int, default=None,
                   help="scaling: calls per pair (default 200); simboard: Python -> Verilog "
                        "calls per measurement (default 300); callpath: calls per path "
                        "(default 10000); wait: calls per mode and load (default 200; the "
                        "documented run uses 10000)")
    p.add_argument("--modes", metavar="M,M,...", default=None,
                   help="wait: the wait modes to measure (default sleep,poll,yield,interrupt)")
    p.add_argument("--loads", metavar="L,L", default="idle,loaded",
                   help="wait: idle, loaded (one CPU hog per core) or both (default)")


def _paper(args: argparse.Namespace) -> int:
    from .bench.suite import EXPERIMENTS, run_all, run_experiment

    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: at least 1")
    out = Path(args.output)
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    if args.benchmark == "summary":
        from .bench.suite import summarise
        try:
            path = summarise(out, "pushpush bench summary" + (f" --out {args.output}"
                                                              if args.output != DEFAULT_OUT else ""), say)
        except FileNotFoundError as exc:
            raise UsageError(str(exc)) from None
        print(f"summary: {path}")
        return EXIT_OK
    if args.benchmark == "all":
        cmd = "pushpush bench all" + (" --smoke" if args.smoke else "") + \
              (f" --out {args.output}" if args.output != DEFAULT_OUT else "")
        results = run_all(out, smoke=args.smoke, jobs=args.jobs, simulator=args.sim,
                          only=EXPERIMENTS, command=cmd, log=say)
    else:
        grid: list[Optional[list[int]]] = [None, None]
        if args.args_grid:
            try:
                grid = [[int(x) for x in part.split(",")] for part in args.args_grid.split(":")]
                if len(grid) != 2 or min(grid[0]) < 0 or max(grid[0]) > 64 or min(grid[1]) < 1 \
                        or max(grid[1]) > 15:
                    raise ValueError
            except ValueError:
                raise UsageError(f"--args-grid {args.args_grid}: give argument counts (0..64) and "
                                 "pair counts (1..15), e.g. --args-grid 0,8,32:1,8") from None
        results = [run_experiment(args.benchmark, out, smoke=args.smoke, jobs=args.jobs,
                                  simulator=args.sim, log=say, args_nargs=grid[0],
                                  args_pairs=grid[1])]
    missed = []
    for r in results:
        print((out / f"{r['experiment']}.md").read_text())
        missed += [f"{r['experiment']}: {t['target']}: {t['ours']}" for t in r["targets"] if not t["met"]]
    if args.benchmark == "all":
        print(f"summary: {out / 'summary.md'}")
    print(f"results: {', '.join(str(out / (r['experiment'] + '.json')) for r in results)}")
    if missed:
        print("targets missed:\n  " + "\n  ".join(missed))
    return EXIT_INVALID if (missed and args.check) else EXIT_OK


def _run_scaling(args: argparse.Namespace) -> int:
    from .bench.report import write_result
    from .bench.scaling import QUICK_PAIRS, TARGET_MCALLS, check_targets, format_table, run_scaling
    from .bench.scaling_report import FULL_PAIRS, add_common

    if args.pairs:
        try:
            pairs = [int(x) for x in args.pairs.split(",")]
        except ValueError:
            raise UsageError(f"--pairs {args.pairs}: give pair counts separated by commas, "
                             "e.g. --pairs 1,2,4,8") from None
        if not pairs or min(pairs) < 1 or max(pairs) > 15:
            raise UsageError(f"--pairs {args.pairs}: pair counts must be 1..15 (2 components "
                             "each, plus the ARM, on at most 32 interconnect ports)")
    else:
        pairs = QUICK_PAIRS if args.quick else FULL_PAIRS
    if args.calls is None:
        args.calls = 200
    if args.calls < 10:
        raise UsageError(f"--calls {args.calls}: at least 10 calls per pair")
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    result = run_scaling(pairs=pairs, calls=args.calls, simulator=args.sim,
                         outdir=out / "work" / "scaling", log=lambda m: print(m, file=sys.stderr),
                         jobs=args.jobs)
    add_common(result, out, args.jobs, smoke=False)
    missed = check_targets(result)
    result["targets_missed"] = missed
    print(format_table(result))
    write_result(out, result)
    print(f"\nresults: {out / 'scaling.json'}")
    print(f"simulation time: {result['runtime_s']} s ({args.sim})")
    if missed:
        print("targets missed:\n  " + "\n  ".join(missed))
    elif any(r["pairs"] >= 4 for r in result["rows"]):
        print(f"targets met: the shared bus carries at least {TARGET_MCALLS:g} MCalls/s from 4 pairs")
    return EXIT_INVALID if (missed and args.check) else EXIT_OK


def _simboard(args: argparse.Namespace) -> int:
    from .bench.simboard import format_table, run_simboard_bench
    from .build.sim import available_simulators

    sims = [s for s in ("icarus", "verilator") if args.sim in (None, "both", s)]
    missing = [s for s in sims if s not in available_simulators()]
    if missing:
        raise UsageError(f"simulator {', '.join(missing)} is not available here")
    ps = ["hdl", "cocotb"] if args.ps == "both" else [args.ps]
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    calls = args.calls or 300
    rows = []
    if args.tree:
        rows += run_simboard_bench(sims, ["cocotb"], calls, tree=args.tree,
                                   label=args.label, log=say)
    rows += run_simboard_bench(sims, ps, calls, log=say)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    (out / "simboard.json").write_text(json.dumps(rows, indent=1))
    print(format_table(rows))
    print(f"\nresults: {out / 'simboard.json'}")
    return EXIT_OK


def _callpath(args: argparse.Namespace) -> int:
    from .bench.callpath import TARGET_US, best_rows, check_target, format_table, run_rounds

    calls = args.calls or 10_000
    if calls < 10:
        raise UsageError(f"--calls {calls}: at least 10 calls")
    if args.rounds < 1:
        raise UsageError(f"--rounds {args.rounds}: at least 1")
    all_rows = run_rounds(args.rounds, calls, args.tree, args.label,
                          log=lambda m: print(m, file=sys.stderr, flush=True))
    rows = best_rows(all_rows)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    (out / "callpath.json").write_text(json.dumps({"best": rows, "rounds": all_rows}, indent=1))
    print(f"CPU µs per int f(int) call against the in-memory bus, best of {args.rounds} round(s) "
          "(bus: the same bus operations alone; runtime = call - bus)")
    print(format_table(rows))
    print(f"\nresults: {out / 'callpath.json'}")
    missed = check_target(rows)
    if missed:
        print("target missed:\n  " + "\n  ".join(missed))
    else:
        print(f"target met: at most {TARGET_US:g} µs of runtime CPU per sync call (median)")
    return EXIT_INVALID if (missed and args.check) else EXIT_OK


def _wait(args: argparse.Namespace) -> int:
    from .bench.wait import LOADS, MODES, format_table, plot_histogram, run_wait

    calls = args.calls or 200
    if calls < 1:
        raise UsageError(f"--calls {calls}: at least 1 call")
    modes = tuple(args.modes.split(",")) if args.modes else MODES
    loads = tuple(args.loads.split(","))
    bad = [m for m in modes if m not in MODES] + [x for x in loads if x not in LOADS]
    if bad:
        raise UsageError(f"unknown {', '.join(bad)}: --modes takes {','.join(MODES)}, "
                         f"--loads {','.join(LOADS)}")
    sim = args.sim if args.sim in ("icarus", "verilator") else "auto"
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    result = run_wait(calls, modes=modes, loads=loads, simulator=sim, outdir=str(out / "wait-build"))
    (out / "wait.json").write_text(json.dumps(result, indent=1))
    print(format_table(result))
    png = plot_histogram(result, out / "wait.png")
    print(f"\nresults: {out / 'wait.json'}" + (f", histogram: {png}" if png else
                                                  " (no histogram: matplotlib is not installed)"))
    return EXIT_OK


def _dma(args: argparse.Namespace) -> int:
    from .bench.dma import run_dma
    from .bench.report import write_result

    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    sim = args.sim if args.sim not in (None, "both") else "auto"
    res = run_dma(out, smoke=args.smoke, simulator=sim, log=say)
    write_result(out, res)
    print((out / "dma.md").read_text())
    print(f"results: {out / 'dma.json'}" + (f", plot: {out / res['plots'][0]}" if res["plots"] else ""))
    missed = [f"dma: {t['target']}: {t['ours']}" for t in res["targets"] if not t["met"]]
    if missed:
        print("targets missed:\n  " + "\n  ".join(missed))
    return EXIT_INVALID if (missed and args.check) else EXIT_OK


def _channels(args: argparse.Namespace) -> int:
    from .bench.channels import run_channels

    out = Path(args.output)
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    sim = args.sim if args.sim not in (None, "both") else "auto"
    res = run_channels(out, smoke=args.smoke, simulator=sim, log=say)
    print(res["markdown"])
    print(f"results: {out / 'channels.json'}"
          + (f", plot: {out / res['plots'][0]}" if res["plots"] else ""))
    missed = [f"channels: {t['target']}: {t['ours']}" for t in res["targets"] if not t["met"]]
    if missed:
        print("targets missed:\n  " + "\n  ".join(missed))
    return EXIT_INVALID if ((missed or not res["ok"]) and args.check) else EXIT_OK


#: the benchmarks whose sweep points go through an executor (pushpush.executor)
FANNED_OUT = ("calls", "scaling", "area", "args", "all")


def _executor(args: argparse.Namespace) -> Optional["Executor"]:
    """The executor of a fanned-out benchmark (None: the local pool of --jobs)."""
    from .executor import executor_name, get_executor

    if args.benchmark not in FANNED_OUT:
        if args.executor is not None:
            raise UsageError(f"--executor applies to {', '.join(FANNED_OUT)} only: "
                             f"{args.benchmark} runs on this machine")
        return None
    try:
        name = executor_name(args.executor)
        if name == "local":
            return None
        return get_executor(name, jobs=args.jobs, workdir=Path(args.output) / "work" / "slurm")
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    from .bench.sweep import using_executor

    executor = _executor(args)
    with using_executor(executor):
        return _dispatch(args)


def _dispatch(args: argparse.Namespace) -> int:
    from .bench.fairness import check_targets, format_table, plot, run_fairness
    from .build.sim import available_simulators

    if args.benchmark == "simboard":
        return _simboard(args)
    if args.benchmark == "callpath":
        return _callpath(args)
    if args.benchmark == "wait":
        return _wait(args)
    if args.benchmark == "dma":
        return _dma(args)
    if args.benchmark == "channels":
        return _channels(args)
    args.sim = args.sim if args.sim not in (None, "both") else "icarus"
    if args.sim not in available_simulators():
        raise UsageError(f"simulator '{args.sim}' is not available here "
                          f"(available: {', '.join(available_simulators()) or 'none'})")
    if args.reference_verilog_axi:
        # read by pushpush.bench.area (also under 'all'); checked before any synthesis runs
        from .bench.xbar_area import ENV_VERILOG_AXI, verilog_axi_checkout
        try:
            verilog_axi_checkout(args.reference_verilog_axi)
        except ValueError as exc:
            raise UsageError(f"--reference-verilog-axi: {exc}") from None
        os.environ[ENV_VERILOG_AXI] = str(Path(args.reference_verilog_axi).expanduser().resolve())
    if args.benchmark in ("calls", "area", "args", "all", "summary") or (args.benchmark == "scaling" and args.smoke):
        return _paper(args)
    if args.benchmark == "scaling":
        return _run_scaling(args)
    out = Path(args.output)
    result = run_fairness(quick=args.quick, simulator=args.sim, outdir=out,
                          log=lambda m: print(m, file=sys.stderr), topology=args.topology)
    print(format_table(result))
    png = plot(result, out / "fairness.png")
    missed = check_targets(result)
    result["targets_missed"] = missed
    (out / "fairness.json").write_text(json.dumps(result, indent=1))
    print(f"\nresults: {out / 'fairness.json'}" + (f", plot: {png}" if png else
          " (no plot: install matplotlib, e.g. pip install 'pushpush-fpga[bench]')"))
    print(f"simulation time: {result['runtime_s']} s ({args.sim})")
    if missed:
        print("targets missed:\n  " + "\n  ".join(missed))
    else:
        print("targets met: round robin within 1 point of Eq. 1, ABEs and fair arbitration "
              "within 1 point of the fair share, ABE latency +1 cycle")
    return EXIT_INVALID if (missed and args.check) else EXIT_OK


_C1 = Command(
    name="bench",
    help="run a benchmark in simulation (all: the PushPush paper's evaluation; "
         "fairness: the ABE paper's Table 1 / Fig. 2; "
         "scaling: MCalls/s of concurrent callers; simboard: the simulated board's speed; "
         "callpath: the Python runtime's CPU per call; dma: bulk transfers with PYNQ's DMA driver; "
         "channels: RIFFA-style send/recv)",
    description="Benchmarks in simulation (cocotb on Icarus or Verilator).\n\n"
                "fairness: a 16-beat victim master against 1..7 interferers with bursts of\n"
                "16..256 beats, reading one memory through pp_axi_interconnect, under round\n"
                "robin, with an ABE (pp_abe, nominal burst 16) per master, and with fair\n"
                "arbitration (deficit round robin over beats); the victim's share next to\n"
                "the paper's Eq. 1 (Table 1) and the fair share 1/(N+1). Writes\n"
                "DIR/fairness.json and DIR/fairness.png and prints the table.\n\n"
                "scaling: 1, 2, 4, 8 pairs of int f(int) callers (the pingpong example's\n"
                "caller and callee, every pair calling back to back) at once on the shared\n"
                "bus (round robin and fair) and the crossbar; prints total MCalls/s at\n"
                "100 MHz and the cycles per call of every pair, from simulated cycle counts,\n"
                "and writes DIR/scaling.json.\n\n"
                "simboard: the simulated board's load time (cold, warm), Python->Verilog and\n"
                "Verilog->Python calls/s, simulated cycles/s and idle CPU, for each simulator\n"
                "and PS model (hdl: the default; cocotb: the previous one); --tree adds another\n"
                "checkout's numbers (before/after). Writes DIR/simboard.json.\n\n"
                "calls, scaling, area, args (the PushPush paper's Table II/III, Fig. 3, Fig. 4,\n"
                "Fig. 5/6), all (every one, plus DIR/summary.md): systems generated from YAML by\n"
                "pushpush (pushpush/bench/pairs_system.py), simulated (exact cycle counts; MCalls/s and\n"
                "MB/s at 100 MHz) or synthesised with Yosys; sweep points in parallel (--jobs);\n"
                "the Yosys runs go through Edalize, so EDALIZE_LAUNCHER (e.g. srun) prefixes\n"
                "them. Writes DIR/<experiment>.json, .md and .png; --smoke: a few points each.\n"
                "--executor slurm runs every sweep point as a task of a Slurm job array and\n"
                "skips the points a previous run finished (docs/cluster.md).\n\n"
                "callpath (no simulator): the Python runtime's CPU time per int f(int) call\n"
                "against the in-memory bus: sync calls, asyncio calls and a served call (mean,\n"
                "median, p99 over --calls calls), the bus's own share and the runtime's;\n"
                "--tree adds another checkout's numbers. Writes DIR/callpath.json.\n\n"
                "dma: PYNQ's pynq.lib.dma.DMA on the simulated board against an AXI DMA\n"
                "(pp_axi_dma, 64-bit, bursts of 16): TX, RX and loop-back from 8 B to 6 MiB,\n"
                "whole and in 64 KiB blocks (single and double buffer), exact cycles from the\n"
                "DMA shell's probe, MB/s against the HP port's limit (97% target from 64 KiB),\n"
                "the simulated board's software time apart, the seed paper's Table I beside\n"
                "ours. Writes DIR/dma.json, .md and .png; --smoke: 8 B, 4 KiB, 64 KiB.\n\n"
                "channels: RIFFA-style channels (channels: in the YAML) on the simulated\n"
                "board: send, recv and both at once from 4 B to 4 MiB, exact cycles counted\n"
                "in the core, MB/s against buf_axi's limit (97% target from 64 KiB), a 1-word\n"
                "round trip in cycles, RIFFA 2.1's Tables III/IV beside ours. Writes\n"
                "DIR/channels.json, .md and .png; --smoke: 4 B, 1 KiB, 64 KiB.",
    epilog="examples:\n"
           "  pushpush bench all                  # benchmarks/results/summary.md\n"
           "  pushpush bench all --smoke --out /tmp/smoke\n"
           "  pushpush bench calls --jobs 2\n"
           "  PUSHPUSH_SLURM_PARTITION=fpga pushpush bench all --executor slurm --out /shared/me/res\n"
           "  pushpush bench args --args-grid 0,8,32:1,8\n"
           "  pushpush bench summary              # summary.md from the JSON already there\n"
           "  pushpush bench fairness --quick\n"
           "  pushpush bench fairness --sim verilator -o results/\n"
           "  pushpush bench fairness --quick --topology shared\n"
           "  pushpush bench scaling\n"
           "  pushpush bench scaling --pairs 4 --calls 100\n"
           "  pushpush bench simboard --sim icarus --ps hdl\n"
           "  pushpush bench callpath --tree /tmp/before --label before\n"
           "  pushpush bench dma --smoke\n"
           "  pushpush bench channels --smoke",
    configure=_configure,
    run=_run,
)

COMMANDS = (_C1,)
