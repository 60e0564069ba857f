"""The ``pushpush deploy`` subcommand: copy what a board needs over ssh and run the self-check
there (:mod:`pushpush.deploy`)."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_INVALID, Command, UsageError


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("host", metavar="HOST", help="the board's address (as ssh takes it)")
    p.add_argument("systems", nargs="*", metavar="SYSTEM", default=["pingpong"],
                   help="system folders (or shipped examples' names) to copy with their overlay "
                        "files and C sources (default: pingpong)")
    p.add_argument("-l", "--user", help="remote user (default: ssh's; a PYNQ image's is xilinx)")
    p.add_argument("-p", "--port", type=int, help="ssh port")
    p.add_argument("-i", "--identity", metavar="FILE", help="ssh private key")
    p.add_argument("-o", "--ssh-option", action="append", default=[], metavar="OPT",
                   help="an ssh -o option (repeatable), e.g. UserKnownHostsFile=...")
    p.add_argument("--folder", default="pushpush", metavar="DIR",
                   help="remote folder (relative to the remote home; default: pushpush)")
    p.add_argument("--python", metavar="CMD",
                   help="the board's Python command (default: on a PYNQ image, PYNQ's venv as "
                        "root through sudo -n, after sourcing /etc/profile.d/pynq_venv.sh; "
                        "elsewhere python3)")
    p.add_argument("--wheel", metavar="FILE",
                   help="copy and install this wheel (default: built from this checkout, only "
                        "when the board has no pushpush or another version)")
    p.add_argument("--checks", metavar="GROUPS", help="the self-check's groups (default: all)")
    p.add_argument("--no-notebooks", action="store_true", help="do not copy the notebooks")
    p.add_argument("--no-selfcheck", action="store_true", help="copy only; run no self-check")
    p.add_argument("--timeout", type=float, default=900.0, metavar="S",
                   help="seconds each remote step may take (default 900)")


def _run(args: argparse.Namespace) -> int:
    from ..deploy import DeployError, Target, deploy
    if args.no_selfcheck and args.checks:
        raise UsageError("--checks chooses the self-check's groups; --no-selfcheck runs none")
    if args.timeout <= 0:
        raise UsageError(f"--timeout {args.timeout:g}: give a positive number of seconds")
    target = Target(args.host, user=args.user, port=args.port, identity=args.identity,
                    folder=args.folder, python=args.python, ssh_options=tuple(args.ssh_option))
    try:
        return deploy(target, args.systems, wheel=args.wheel, checks=args.checks,
                      notebooks=not args.no_notebooks, selfcheck=not args.no_selfcheck,
                      timeout=args.timeout, say=lambda s: print(s, flush=True))
    except FileNotFoundError as e:
        raise UsageError(str(e)) from None
    except DeployError as e:
        print(f"pushpush: error: {e}", file=sys.stderr)
        return EXIT_INVALID


_C1 = Command(
    name="deploy",
    help="copy pushpush, overlays, C sources and notebooks to a board over ssh; self-check there",
    description="Copy to a board over ssh what it needs: the wheel (when the board has no\n"
                "pushpush or another version), each system's folder with its overlay files\n"
                "and C sources, the notebooks; then run 'pushpush selfcheck' there and print\n"
                "its summary. ssh runs in BatchMode (keys only, no password prompt).",
    epilog="examples:\n"
           "  pushpush deploy pynq -l xilinx\n"
           "  pushpush deploy 192.168.2.99 -l xilinx examples/audio_fir my_system/\n"
           "\nexit status: the board's self-check's (0 all passed, 1 a check failed, 3 some\n"
           "skipped); 1 also when a copy or install failed, 2 usage errors",
    configure=_configure,
    run=_run,
)

COMMANDS = (_C1,)
