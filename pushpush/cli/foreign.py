"""The ``pushpush sim-overlay`` subcommand: a Vivado overlay (its ``.hwh`` and the user's
RTL) on the simulated board (:mod:`pushpush.pynq.foreign`), and optionally a PYNQ notebook
script run on it unchanged."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import EXIT_INVALID, EXIT_OK, Command, UsageError


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("hwh", metavar="DESIGN.hwh", help="the block design's hardware handoff "
                   "(Vivado writes it beside the .bit)")
    p.add_argument("--rtl", nargs="+", default=[], metavar="FILE",
                   help="the Verilog of your own IPs (HLS: solution/impl/verilog/*.v), every file")
    p.add_argument("--top-map", action="append", default=[], metavar="CELL=MODULE",
                   help="the Verilog module of a cell whose module is not its MODTYPE (also: a "
                        "model of your own for a Xilinx IP pushpush has none of)")
    p.add_argument("-o", "--output", metavar="DIR", help="the overlay folder to write "
                   "(default: sim_overlay/<name> beside the .hwh)")
    p.add_argument("--name", help="the overlay's name: <name>.bit, <name>.hwh (default: the .hwh's)")
    p.add_argument("--simulator", choices=("auto", "icarus", "verilator"), default="auto",
                   help="the simulator the overlay asks for (PUSHPUSH_SIM overrides it)")
    p.add_argument("--run", metavar="SCRIPT", help="then run this PYNQ script unchanged in the "
                   "folder, on the simulated board (its exit status is the command's)")
    p.add_argument("--arg", action="append", default=[], dest="args", metavar="ARG",
                   help="an argument for SCRIPT (repeat for more)")


def _run(args: argparse.Namespace) -> int:
    from ..pynq.foreign import ForeignOverlayError, run_unchanged, write_foreign_overlay
    from ..pynq.simulated.simbit import read_manifest

    hwh = Path(args.hwh)
    if not hwh.is_file():
        raise UsageError(f"{hwh}: no such file (give the .hwh Vivado wrote beside the .bit)")
    name = args.name or hwh.stem
    out = Path(args.output) if args.output else hwh.resolve().parent / "sim_overlay" / name
    if args.args and not args.run:
        raise UsageError(f"arguments {' '.join(args.args)!r} are for --run SCRIPT, and no --run was given")
    try:
        bit = write_foreign_overlay(hwh, args.rtl, out, top_map=args.top_map, name=name,
                                    simulator=args.simulator)
    except ForeignOverlayError as e:
        print(f"pushpush: error: {e}", file=sys.stderr)
        return EXIT_INVALID
    done = read_manifest(bit)["foreign"]
    print(f"{bit}")
    for cell, mod in done["user"].items():
        print(f"  {cell}: your module {mod}")
    for cell, kind in done["models"].items():
        print(f"  {cell}: pushpush's {kind} model")
    if done["intc"]:
        print(f"  {done['intc']}: the simulated board's axi_intc model, inputs "
              + ", ".join(done["intr"]))
    for s in done["slaves"]:
        print(f"  GP0 {s}")
    for n in done["notes"]:
        print(f"  note: {n}")
    if not args.run:
        print(f"pushpush: load it with pynq.Overlay('{bit}') after 'import pushpush.pynq', or run "
              f"a notebook script unchanged: pushpush sim-overlay {args.hwh} ... --run notebook.py",
              file=sys.stderr)
        return EXIT_OK
    return run_unchanged(args.run, bit.parent, args=args.args).returncode


_SIM_OVERLAY = Command(
    name="sim-overlay",
    help="a Vivado overlay (.hwh + your RTL) on the simulated board; run its notebook unchanged",
    description="Read a Vivado block design's .hwh (cells, address map, interrupts, AXI-Stream\n"
                "paths) and the Verilog of your own IPs, and write a folder that PYNQ's Overlay\n"
                "loads on the simulated board: <name>.bit (a simulation bitstream), <name>.hwh\n"
                "(yours, unchanged), rtl/ (the PL around your cells). Xilinx IPs get models:\n"
                "axi_dma (simple mode), axi_gpio, axi_intc; interconnects, SmartConnects,\n"
                "proc_sys_reset, xlconcat and xlconstant are wiring. Any other IP is refused with\n"
                "its cell name and what to do (docs/foreign-overlays.md).",
    epilog="examples:\n"
           "  pushpush sim-overlay design_1.hwh --rtl hls/solution1/impl/verilog/*.v\n"
           "  pushpush sim-overlay design_1.hwh --rtl rtl/*.v --top-map accel_0=accel_top \\\n"
           "      -o sim --run notebook.py\n"
           "\nexit status: 0 written (with --run: the script's), 1 the design cannot be\n"
           "simulated (the message names the cell), 2 a file is missing",
    configure=_configure,
    run=_run,
)

COMMANDS = (_SIM_OVERLAY,)
