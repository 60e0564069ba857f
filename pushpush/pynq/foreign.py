"""A Vivado overlay on the simulated board: its ``.hwh``, the user's RTL, the notebook unchanged.

:func:`write_foreign_overlay` writes, for a block design made outside pushpush, the folder
that PYNQ's ``Overlay`` loads on the simulated board::

    <name>.bit      a simulation bitstream (pushpush.pynq.simulated.simbit): the manifest of
                    the simulation (the shell module, the Verilog: the user's files where
                    they are, pushpush's cores, the shell in rtl/)
    <name>.hwh      the design's own .hwh, copied unchanged: PYNQ reads ip_dict, register
                    maps, interrupts and the DMA's parameters from it as on the board
    <name>.dtbo     the empty marker PYNQ 4.0's Overlay.free() needs (simulated board only)
    rtl/<name>_foreign_shell.v   the PL around the user's cells (pushpush.codegen.foreign_shell)

:func:`run_unchanged` runs a PYNQ script (a notebook exported as ``.py``) as it is, in
that folder, with the simulated board as PYNQ's device: a fresh Python that imports
:mod:`pushpush.pynq` (which registers the device) and then runs the script as ``__main__``.

Example (``pushpush sim-overlay`` is the same from the shell)::

    bit = write_foreign_overlay("design_1.hwh", ["hls/accel.v", "hls/accel_control_s_axi.v"],
                                "sim_overlay")
    run_unchanged("notebook.py", bit.parent)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Mapping, Optional, Sequence

from pushpush.codegen.foreign_plan import ForeignOverlayError, ForeignPlan, plan_foreign
from pushpush.codegen.foreign_shell import S_ID_WIDTH, intr_ports, render_foreign_shell, shell_cores
from pushpush.codegen.hwh_read import read_hwh

from .simulated.simbit import write_sim_bitstream

__all__ = ["ForeignOverlayError", "rtl_modules", "plan_overlay", "write_foreign_overlay",
           "run_unchanged", "OCM_HIGH"]

#: Wall-clock gap (µs) between two register accesses up to which the simulated PL waits for
#: the next access instead of running on (SimConfig.mmio_gap_us).
MMIO_GAP_US = 2000.0
#: The ARM's high on-chip memory (the simulated board's ``ps`` region for a foreign design).
OCM_HIGH = (0xFFFC0000, 0x40000)
_MODULE = re.compile(r"^\s*module\s+([A-Za-z_][\w$]*)", re.M)
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def rtl_modules(files: Sequence[str | os.PathLike[str]]) -> dict[str, Path]:
    """Verilog module name -> the file defining it, for the user's RTL files."""
    out: dict[str, Path] = {}
    for f in files:
        p = Path(f)
        try:
            text = p.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise ForeignOverlayError(f"{p}: cannot read the RTL file ({e.strerror}); give the "
                                      "Verilog of your IP (HLS: solution/impl/verilog/*.v)") from None
        for name in _MODULE.findall(_COMMENTS.sub("", text)):
            if name in out and out[name] != p.resolve():
                raise ForeignOverlayError(f"{p}: module '{name}' is defined in {out[name]} too; "
                                          "give each module once")
            out[name] = p.resolve()
    return out


def _parse_map(top_map: Optional[Mapping[str, str] | Sequence[str]]) -> dict[str, str]:
    if top_map is None:
        return {}
    if isinstance(top_map, Mapping):
        return dict(top_map)
    out = {}
    for item in top_map:
        cell, sep, mod = item.partition("=")
        if not sep or not cell or not mod:
            raise ForeignOverlayError(f"--top-map {item!r}: write CELL=MODULE (the block "
                                      "design's cell name, then your Verilog module's name)")
        out[cell] = mod
    return out


def plan_overlay(hwh: str | os.PathLike[str], rtl: Sequence[str | os.PathLike[str]],
                 top_map: Optional[Mapping[str, str] | Sequence[str]] = None) -> ForeignPlan:
    """What the simulated board makes of the design (:mod:`pushpush.codegen.foreign_plan`)."""
    return plan_foreign(read_hwh(hwh), set(rtl_modules(rtl)), _parse_map(top_map))


def _clock_mhz(plan: ForeignPlan) -> float:
    p = plan.design.ps.params
    for key in ("PCW_FPGA0_PERIPHERAL_FREQMHZ", "PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ"):
        try:
            return float(p[key])
        except (KeyError, ValueError):
            continue
    return 100.0


def write_foreign_overlay(hwh: str | os.PathLike[str], rtl: Sequence[str | os.PathLike[str]],
                          outdir: str | os.PathLike[str], *,
                          top_map: Optional[Mapping[str, str] | Sequence[str]] = None,
                          name: Optional[str] = None, simulator: str = "auto") -> Path:
    """Write the simulated board's folder for the block design ``hwh`` with the user's
    Verilog ``rtl`` (see the module docstring); returns the ``.bit`` path. Raises
    :class:`ForeignOverlayError` for a cell with no model or RTL, naming it and the fix."""
    if simulator not in ("auto", "icarus", "verilator"):
        raise ForeignOverlayError(f"simulator {simulator!r}: use auto, icarus or verilator")
    src = Path(hwh).resolve()
    modules = rtl_modules(rtl)
    plan = plan_foreign(read_hwh(src), set(modules), _parse_map(top_map))
    name = name or src.stem
    if not re.fullmatch(r"[A-Za-z_][\w.-]*", name):
        raise ForeignOverlayError(f"overlay name {name!r}: use letters, digits, _ . -")
    out = Path(outdir).resolve()
    (out / "rtl").mkdir(parents=True, exist_ok=True)
    shell = out / "rtl" / f"{plan.module}.v"
    shell.write_text(render_foreign_shell(plan), encoding="utf-8")
    from pushpush.build.cores import cores_rtl
    user_files = sorted({modules[m] for m in plan.user.values()})
    # every file given: a user module may instantiate submodules the .hwh does not name
    others = [Path(f).resolve() for f in rtl if Path(f).resolve() not in user_files]
    sources = cores_rtl(shell_cores(plan)) + user_files + others + [shell]
    if src != (out / f"{name}.hwh"):
        shutil.copyfile(src, out / f"{name}.hwh")
    (out / f"{name}.dtbo").write_bytes(b"")
    from pushpush.codegen.simboard import PsMemPort
    mem_ports = [PsMemPort(m.prefix.removesuffix("_axi") + "_mem" if m.prefix.endswith("_axi")
                           else m.prefix + "_mem", m.prefix, m.data_width, m.id_width, m.label)
                 for m in plan.masters]
    manifest = {
        "format": "pushpush-sim-bitstream", "version": 1, "system": name, "top": plan.module,
        "sources": [os.path.relpath(s, out) for s in sources], "simulator": simulator,
        "clock_mhz": _clock_mhz(plan), "parameters": {},
        "ps": {"base": OCM_HIGH[0], "size": OCM_HIGH[1]},
        "ports": {"data_width": plan.data_width, "s_id_width": S_ID_WIDTH,
                  "m_id_width": S_ID_WIDTH, "m_axi": "S_AXI_GP0", "irq": bool(plan.intr),
                  "intr": intr_ports(plan), "mem_ports": [p.to_json() for p in mem_ports]},
        # the software drives the PL by register accesses: no free-running between two
        # of them (pushpush.simboard.hdl.SimLoop.mmio_gap)
        # and single register stores are posted, as the ARM posts stores to device memory
        "pacing": {"mmio_gap_us": MMIO_GAP_US, "posted_writes": True},
        "foreign": {"hwh": src.name, "user": plan.user, "models": plan.models,
                    "intc": plan.intc, "notes": plan.notes,
                    "intr": [e.removeprefix("n_") for e in plan.intr],
                    "slaves": [f"0x{s.base:08X} +0x{s.size:X}: {s.cell}/{s.bus.name}"
                               for s in plan.slaves]},
    }
    dmas = [{"name": s.cell, "base": s.base, "size": s.size} for s in plan.slaves
            if plan.models.get(s.cell) == "axi_dma"]
    if dmas:
        manifest["dmas"] = dmas
    return write_sim_bitstream(out / f"{name}.bit", manifest)


def run_unchanged(script: str | os.PathLike[str], cwd: str | os.PathLike[str], *,
                  args: Sequence[str] = (), simulator: Optional[str] = None,
                  timeout: Optional[float] = None, env: Optional[Mapping[str, str]] = None,
                  capture: bool = False) -> subprocess.CompletedProcess[str]:
    """Run the PYNQ script ``script`` as it is, in ``cwd`` (the overlay's folder), on the
    simulated board (``PUSHPUSH_BOARD=sim``; ``simulator``: ``PUSHPUSH_SIM``). ``timeout``
    (seconds) ends it with :class:`subprocess.TimeoutExpired`."""
    path = Path(script).resolve()
    if not path.is_file():
        raise ForeignOverlayError(f"{script}: no such script")
    boot = ("import sys, runpy, pushpush.pynq; sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')")
    e = dict(os.environ if env is None else env)
    e["PUSHPUSH_BOARD"] = "sim"
    here = str(Path(__file__).resolve().parents[2])
    e["PYTHONPATH"] = os.pathsep.join([here] + [x for x in e.get("PYTHONPATH", "").split(os.pathsep) if x])
    if simulator:
        e["PUSHPUSH_SIM"] = simulator
    return subprocess.run([sys.executable, "-c", boot, str(path), *args], cwd=str(cwd), env=e,
                          timeout=timeout, text=True, capture_output=capture, check=False)
