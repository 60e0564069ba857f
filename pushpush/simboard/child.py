"""The simulator process of the simulated board: ``python -m pushpush.simboard.child
<config.json>`` builds the simulation (from the build cache when it can) and runs it; the
cocotb test inside is :mod:`pushpush.simboard.cocotb_main`. Started by
:class:`pushpush.pynq.simulated.bridge.SimBridge`, which it serves until told to stop or its parent
goes away (a watchdog then kills the process group: no orphans)."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from .ipc import SimConfig

__all__ = ["main"]


def main(config_path: str) -> int:
    """Build and run the simulation described by ``config_path``; the exit status."""
    cfg = SimConfig.from_json(Path(config_path).read_text())
    parent = cfg.parent_pid
    rundir = Path(config_path).resolve().parent

    def orphaned() -> bool:
        if os.getppid() == parent or _alive(parent):
            return False
        if not os.environ.get("PUSHPUSH_SIM_KEEP"):  # nobody else will remove the run folder
            shutil.rmtree(rundir, ignore_errors=True)
        return True

    def watchdog() -> None:
        while True:
            time.sleep(0.5)
            if orphaned():
                try:
                    os.killpg(os.getpgid(0), signal.SIGKILL)
                finally:
                    os._exit(3)

    threading.Thread(target=watchdog, daemon=True).start()
    from pushpush.build.sim import SimulationFailed, run_cocotb

    root = Path(__file__).resolve().parents[2]
    try:
        env = {"PUSHPUSH_SIM_CONFIG": config_path}
        if cfg.notify_fd >= 0:  # the simulator is our child: it opens the pipe through /proc
            env["PUSHPUSH_SIM_NOTIFY"] = f"/proc/{os.getpid()}/fd/{cfg.notify_fd}"
        if cfg.kick_fd >= 0:    # the kick pipe (read end), the same way
            env["PUSHPUSH_SIM_KICK"] = f"/proc/{os.getpid()}/fd/{cfg.kick_fd}"
        if cfg.irq_fd >= 0:     # the interrupt pipe, the same way
            env["PUSHPUSH_SIM_IRQ"] = f"/proc/{os.getpid()}/fd/{cfg.irq_fd}"
        if cfg.mmio_gap_us > 0:
            # register accesses (a Vivado overlay): cocotb writes the GP0 command signals at
            # once instead of in a ReadWrite phase of their own (one simulator round trip less
            # an access). Python writes them between two clock edges or in the callback of
            # the edge that ended the last access, both before the next rising edge samples.
            env["COCOTB_TRUST_INERTIAL_WRITES"] = "1"
        top, sources, parameters, build_args = simulation_inputs(cfg, rundir)
        print(f"pushpush: simulating {cfg.top} on {cfg.simulator}",
              flush=True)
        run_cocotb(toplevel=top, sources=sources, test_module="pushpush.simboard.cocotb_main",
                   test_dir=root, parameters=parameters, simulator=cfg.simulator,
                   build_dir=cfg.build_dir, extra_env=env, waves=cfg.waves, cache=cfg.cache,
                   extra_build_args=build_args)
    except SimulationFailed as e:
        print(f"pushpush: simulation failed: {e}", flush=True)
        return 1
    except Exception as e:  # build errors etc.
        print(f"pushpush: simulator did not run: {type(e).__name__}: {e}", flush=True)
        return 2
    finally:
        orphaned()
    return 0


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (not a zombie): the PYNQ process, watched by pid, since it
    is not our parent when a server started us for it (the emulated board's host side,
    tests/emulated/armhf_simhost.py)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def simulation_inputs(cfg: SimConfig, folder: Path) -> tuple[str, list[Path], dict[str, Any], list[str]]:
    """(toplevel, sources, parameters, extra build arguments) of the simulation of ``cfg``;
    the harness (the PS side in HDL, cores/sim_ps) is written into ``folder``."""
    defines = [f"-D{k}={v}" for k, v in sorted(cfg.defines.items())]
    top, sources, parameters = _harness(cfg, folder)
    # only the harness's marked signals are reached through VPI: let Verilator optimise the
    # rest (cocotb's runner marks every signal public otherwise)
    args = ["--no-public-flat-rw"] if cfg.simulator == "verilator" and not cfg.waves else []
    return top, sources, parameters, args + defines


def is_cached(cfg: SimConfig) -> bool:
    """Whether the simulation of ``cfg`` is in the build cache (it would start at once)."""
    import tempfile

    from pushpush.build.sim import is_cached as cached

    with tempfile.TemporaryDirectory(prefix="pushpush-key-") as tmp:
        top, sources, parameters, args = simulation_inputs(cfg, Path(tmp))
        return cached(toplevel=top, sources=sources, simulator=cfg.simulator,
                      parameters=parameters, extra_build_args=args)


def _harness(cfg: SimConfig, rundir: Path) -> tuple[str, list[Path], dict[str, Any]]:
    """The HDL PS's toplevel, sources and parameters: ``pushpush_simboard`` around the top."""
    from pushpush.build.cores import cores_rtl
    from pushpush.codegen.simboard import (HARNESS_CORES, HARNESS_TOP, PsMemPort, SimboardPorts,
                                           render_simboard)

    text = render_simboard(cfg.top, SimboardPorts(cfg.data_width, cfg.s_id_width, cfg.m_id_width),
                           clock_mhz=cfg.clock_mhz, parameters=cfg.parameters,
                           timeout_cycles=cfg.gp0_timeout_cycles, port_names=cfg.port_names,
                           mem_ports=[PsMemPort.from_json(p) for p in cfg.mem_ports],
                           m_axi_label=cfg.m_axi_label, irq=cfg.irq, intr=cfg.intr)
    harness = rundir / "pushpush_simboard.v"
    harness.write_text(text, encoding="utf-8")
    return HARNESS_TOP, [Path(s) for s in cfg.sources] + cores_rtl(list(HARNESS_CORES)) + [harness], {}




if __name__ == "__main__":
    # Spawned, not typed: the simulator process the simulated board starts
    # (pushpush.pynq.simulated.bridge runs 'python -m pushpush.simboard.child CONFIG').
    sys.exit(main(sys.argv[1]))
