"""The ``pushpush run`` subcommand: the main job.

For each example folder: open its system through PYNQ (on a board the Vivado build, found
in the example's ``pynq_overlays/<system>/`` where ``pushpush build`` writes it, the current
folder, then the installed overlays; otherwise the simulated board, generated and compiled first,
with progress), run the example's ``app.py`` ``main(overlay)`` and print its results. The
exit status is 1 if an application's checks fail or the system cannot be run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from ..apps import shipped_examples
from .common import EXIT_INVALID, EXIT_OK, Command, UsageError

DEFAULT_OUT = "build/{system}/pynq_sim"


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("examples", nargs="+", metavar="EXAMPLE",
                   help="example folder with system.yaml and app.py (or a shipped example's "
                        f"name: {', '.join(shipped_examples())})")
    p.add_argument("--sim", "-s", choices=("auto", "icarus", "verilator"), default=None,
                   help="simulator of the simulated board (default: $PUSHPUSH_SIM or auto: "
                        "Verilator when this system's Verilator build is cached, else Icarus "
                        "while that build runs in the background for the next run)")
    p.add_argument("-o", "--output", metavar="DIR",
                   help=f"where the simulated board's overlay is generated "
                        f"(default: {DEFAULT_OUT.format(system='<system>')})")
    p.add_argument("--board", "-b", default=None, metavar="BOARD",
                   help="run on this board instead of the YAML's board: (pynq-z1, pynq-z2, zcu104, "
                        "kv260): the simulated board is then that board, with its addresses, bus "
                        "widths and PS")
    p.add_argument("--trace", metavar="FILE", default=None,
                   help="record every call of the run into FILE (Chrome trace-event JSON: open it "
                        "in ui.perfetto.dev) and print per-function latency statistics; on the "
                        "simulated board (Icarus or Verilator), one example (docs/trace.md)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress messages")


def _progress(quiet: bool):
    if quiet:
        return lambda s: None

    def say(s: str) -> None:
        print(s, file=sys.stderr, flush=True)
    return say


def _run_one(example: str, args: argparse.Namespace, done: list[tuple[str, str, float]]) -> bool:
    """Run one example; append (example, where it ran, wall seconds) to ``done``."""
    from .. import apps

    try:
        folder = apps.find_example(example)
    except FileNotFoundError as e:
        raise UsageError(str(e)) from None
    if not (folder / "app.py").is_file():
        raise UsageError(f"example '{folder}' has no app.py: nothing to run")
    try:
        import pushpush.pynq as ppq
    except ImportError as e:  # pragma: no cover
        raise UsageError(f"pushpush run needs PYNQ: pip install 'pushpush-fpga[simboard]' ({e})") from None
    if ppq.PushPushOverlay is None:  # pragma: no cover
        raise UsageError("pushpush run needs PYNQ: pip install 'pushpush-fpga[simboard]'")
    from ..link import load

    from ..boards import BOARD_NAMES
    if args.board is not None and args.board not in BOARD_NAMES:
        raise UsageError(f"--board {args.board}: use one of {', '.join(BOARD_NAMES)}")
    system = load(folder / "system.yaml", board=args.board).name
    say = _progress(args.quiet)
    out = args.output if args.output and len(args.examples) == 1 else \
        os.path.join(args.output, system) if args.output else DEFAULT_OUT.format(system=system)
    if args.trace is not None:   # issue 31 (docs/trace.md)
        if len(args.examples) > 1:
            raise UsageError("--trace FILE records one example: run the examples one at a time")
    say(f"pushpush: running {folder.name} ({folder})")
    t0 = time.monotonic()
    app = apps.load_app(folder)
    try:
        ol = apps.open_system(folder, outdir=out, simulator=args.sim, progress=say,
                              **({"board": args.board} if args.board else {}))
    except ppq.SimulatorError as e:
        print(f"pushpush: error: {folder.name}: the simulated board did not start: {e}",
              file=sys.stderr)
        if getattr(e, "log_tail", ""):
            print(e.log_tail, file=sys.stderr)
        return False
    except (FileNotFoundError, ppq.PynqVersionError) as e:   # on a board: no Vivado build,
        print(f"pushpush: error: {folder.name}: {e}", file=sys.stderr)   # or a PYNQ it lacks
        return False
    ran = _simulator_text(ol)
    _board_line(ol)
    try:
        say("      running the application")
        if not args.quiet:
            print(flush=True)
        t1 = time.monotonic()
        if args.trace is None:
            result = app.main(ol)
        else:
            with ol.trace(args.trace, out=print):
                result = app.main(ol)
            say(f"      trace written to {args.trace} (open it in ui.perfetto.dev)")
        sys.stdout.flush()
    except ppq.SimulatorError as e:
        print(f"pushpush: error: {folder.name}: the simulated board failed: {e}", file=sys.stderr)
        if getattr(e, "log_tail", ""):
            print(e.log_tail, file=sys.stderr)
        return False
    except Exception as e:  # a timeout, a failed call: report, not a traceback
        print(f"pushpush: error: {folder.name}: {type(e).__name__}: {e}", file=sys.stderr)
        return False
    finally:
        ol.free()
        done.append((folder.name, ran, time.monotonic() - t0))
    ok = bool(result.get("ok")) if isinstance(result, dict) else bool(result)
    if not args.quiet:
        print(flush=True)
    print(f"pushpush: {folder.name}: {'ok' if ok else 'FAILED'} (simulator: {ran}; application "
          f"{time.monotonic() - t1:.1f} s, total {time.monotonic() - t0:.1f} s)",
          file=sys.stderr, flush=True)
    return ok


def _simulator_text(ol: object) -> str:
    """Where an overlay runs, for the summary: ``verilator (cached build)``,
    ``icarus (Verilator build started in the background)``, ... or ``board``."""
    dev = getattr(ol, "device", None)
    sim = getattr(dev, "simulator", None)
    if not sim:
        return "board"
    note = getattr(dev, "simulator_note", "")
    return f"{sim} ({note})" if note else str(sim)


def _board_line(ol: object) -> None:
    """One line on stdout before the application's: which board (simulated or not) the
    system runs on, where its PL and software windows are and through which PS ports."""
    try:
        from ..boards import board
        linked = ol.system.linked          # type: ignore[attr-defined]
        b = board(linked.board)
        rtl = min(c.base for c in linked.components if c.kind == "rtl")
        sim = getattr(getattr(ol, "device", None), "bridge", None) is not None
        port = b.port("S_AXI_HP0" if linked.software_windows == "ddr" else "S_AXI_GP0")
        print(f"board: {b.title} ({linked.board}{', simulated' if sim else ''}): {b.ps_modtype}, "
              f"the PL at 0x{rtl:08X} behind {b.master_port} ({linked.interconnect.data_width}-bit), "
              f"the software windows at 0x{linked.ps.base:08X} through {port}", flush=True)
    except (AttributeError, ValueError, StopIteration):
        pass       # an overlay without a linked system: nothing to say


def _run(args: argparse.Namespace) -> int:
    failed = []
    done: list[tuple[str, str, float]] = []
    t0 = time.monotonic()
    for example in args.examples:
        if not _run_one(example, args, done):
            failed.append(example)
    if len(args.examples) > 1:
        print(f"pushpush: {len(args.examples) - len(failed)} of {len(args.examples)} examples ok"
              + (f"; failed: {', '.join(failed)}" if failed else ""), file=sys.stderr)
    if done:    # which simulator ran each example and its wall time (load, run, stop)
        width = max(len(name) for name, _, _ in done)
        print(f"pushpush: {'example'.ljust(width)}  {'wall':>7}  simulator", file=sys.stderr)
        for name, ran, wall in done:
            print(f"pushpush: {name.ljust(width)}  {wall:6.1f}s  {ran}", file=sys.stderr)
        print(f"pushpush: {'all'.ljust(width)}  {time.monotonic() - t0:6.1f}s", file=sys.stderr,
              flush=True)
    return EXIT_INVALID if failed else EXIT_OK


_C1 = Command(
    name="run",
    help="run an example's application through PYNQ (on the simulated board without a board)",
    description="Load each example's system through PYNQ and run its application (app.py's\n"
                "main(overlay)), printing its results. On a PYNQ board the overlay is the Vivado\n"
                "build, looked for in <example>/pynq_overlays/<system>/ (where 'pushpush build\n"
                "--target pynq_z1' writes it), the current folder, then the installed overlays;\n"
                "everywhere else it is the simulated board:\n"
                "the system is generated (into build/<system>/pynq_sim), compiled by the\n"
                "simulator and started, with progress on stderr. PUSHPUSH_BOARD=sim|pynq forces\n"
                "the choice.\n"
                "  pingpong   calls table: caller kind x callee kind, cycles per call, MCalls/s\n"
                "  audio_fir  FIR filter in Verilog calling back into Python, checked against numpy",
    epilog="examples:\n"
           "  pushpush run examples/audio_fir examples/pingpong\n"
           "  pushpush run pingpong --sim verilator\n"
           "  pushpush run examples/pingpong --board zcu104\n"
           "  pushpush run examples/audio_fir --trace fir.trace\n"
           "\nexit status: 0 every check passed, 1 a check failed or the system did not run,\n"
           "2 usage errors",
    configure=_configure,
    run=_run,
)

__all__ = ["DEFAULT_OUT"]

COMMANDS = (_C1,)
