"""``pushpush bench simboard``: how fast the simulated board is, per simulator.

For each simulator (Icarus, Verilator), in a fresh process each (PYNQ picks its device once
per process):

- **load, cold**: ``pushpush.pynq.load`` of the pingpong example with an empty build cache
  (generate, build, start); **load, warm**: the same again (the build comes from the cache);
- **py->rtl calls/s**: Python calls ``callee.f`` (``int f(int)`` in Verilog), wall clock;
  with it the simulated cycles per call (10.0 with the HDL PS side: the simulator pauses
  between a reply and the next request, docs/pynq.md) and where a call's wall time goes
  from the PYNQ process's view (``us gp0/wait/cpu``: the GP0 request's round trip, which
  now brings the call's return along when it arrives in the same clock edge as the
  trigger word's B, so waiting for the reply is ~0; this process's CPU);
- **rtl->py calls/s**: Verilog (``pingpong_caller``) calls a Python ``f`` n times in a
  dependency chain, wall clock of ``caller.run(n)``;
- **cycles/s**: simulated clock cycles per wall second while the board only runs
  (``bridge.run``);
- **idle CPU**: the simulator process's CPU time over 3 s with nothing to do (1 s after the
  last call), as % of one core; and the PYNQ process's own over the same time.

``--tree PATH`` measures another checkout (e.g. a worktree of an older commit, for a
before/after table); the measurement uses only ``pushpush.pynq.load`` and the bridge's
``info``/``run``, which every version has. Writes ``simboard.json`` and prints a table.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pushpush.bench.paths import CHECKOUT

__all__ = ["run_simboard_bench", "format_table", "measure", "cpu_seconds", "run"]

RTL2PY = """
system: rtl2py
clock_mhz: 100
components:
  caller:
    kind: rtl
    module: pingpong_caller
    sources: [pingpong_caller.v]
    exports:
      run: "(n: u32) -> u32"
    imports:
      callee.f: "(x: i32) -> i32"
  callee:
    kind: python
    exports:
      f: "(x: i32) -> i32"
    imports: [caller.run]
"""


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``; 0 elsewhere or
    once it is gone). Here, not in a module of its own, because :func:`measure` runs this
    file alone against another checkout's ``pushpush`` (``--tree``); simspeed uses it too."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _sim_pids(ol: Any) -> list[int]:
    """The simulator process and its descendants (the child python, the simulator)."""
    bridge = ol.device.bridge
    root = bridge.proc.pid
    pids = [root]
    for _ in range(3):
        for p in list(pids):
            try:
                kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
            except OSError:
                kids = []
            pids += [int(k) for k in kids if int(k) not in pids]
    return pids


def measure(simulator: str, calls: int, examples: Path, out: Path) -> dict[str, Any]:
    """One configuration, in this process (the environment selects the PS model/cache)."""
    import pushpush.pynq as ppq

    res: dict[str, Any] = {"simulator": simulator}
    pingpong = examples / "pingpong" / "system.yaml"
    t = time.monotonic()
    ol = ppq.load(pingpong, outdir=str(out / "pingpong"), simulator=simulator)
    res["load_cold_s"] = round(time.monotonic() - t, 2)
    ol.free()
    t = time.monotonic()
    ol = ppq.load(pingpong, outdir=str(out / "pingpong"), simulator=simulator)
    res["load_warm_s"] = round(time.monotonic() - t, 2)
    bridge = ol.device.bridge
    res["ps"] = bridge.info().get("ps", "hdl")
    f = ol.callee.f
    for i in range(5):
        f(i)
    spent = {"write": 0.0, "wait": 0.0}
    timed = []
    for owner, name, key in ((bridge, "write_words", "write"), (bridge, "wait_pl_write", "wait")):
        real = getattr(owner, name, None)
        if real is None:  # an older tree: no breakdown
            continue

        def wrapped(*a: Any, _real: Any = real, _key: str = key, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return _real(*a, **k)
            finally:
                spent[_key] += time.perf_counter() - t0

        setattr(owner, name, wrapped)
        timed.append((owner, name))
    c0 = bridge.info()["cycle"]
    cpu0 = time.process_time()
    t = time.monotonic()
    for i in range(calls):
        f(i)
    dt = time.monotonic() - t
    cpu = time.process_time() - cpu0
    c1 = bridge.info()["cycle"]
    for owner, name in timed:
        delattr(owner, name)
    res["py_rtl_calls_per_s"] = round(calls / dt, 1)
    res["py_rtl_cycles_per_call"] = round((c1 - c0) / calls, 1)
    # where a call's wall time goes (this process's view): the GP0 request's round trip to the
    # simulator, waiting for the PL's reply, this process's CPU, and the rest
    res["py_rtl_us"] = {"total": round(1e6 * dt / calls), "gp0_request": round(1e6 * spent["write"] / calls),
                        "wait_reply": round(1e6 * spent["wait"] / calls),
                        "pynq_cpu": round(1e6 * cpu / calls)}
    n = 20000 if simulator == "icarus" else 200000
    t = time.monotonic()
    bridge.run(n)
    res["cycles_per_s"] = round(n / (time.monotonic() - t))
    time.sleep(1.0)
    pids = _sim_pids(ol)
    before = sum(cpu_seconds(p) for p in pids)
    self_before = time.process_time()
    time.sleep(3.0)
    res["idle_cpu_pct"] = round(100 * (sum(cpu_seconds(p) for p in pids) - before) / 3.0, 1)
    res["idle_cpu_pynq_pct"] = round(100 * (time.process_time() - self_before) / 3.0, 1)
    ol.free()

    folder = out / "rtl2py-src"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "system.yaml").write_text(textwrap.dedent(RTL2PY))
    shutil.copy(examples / "pingpong" / "rtl" / "pingpong_caller.v", folder)
    ol = ppq.load(folder / "system.yaml", outdir=str(out / "rtl2py"), simulator=simulator)
    ol.export("f", lambda x: (x * 3 + 1) & 0x7FFFFFFF)
    ol.caller.run(3)
    n_hw = max(5, calls // 4)
    t = time.monotonic()
    ol.caller.run(n_hw)
    res["rtl_py_calls_per_s"] = round(n_hw / (time.monotonic() - t), 1)
    ol.free()
    return res


def _one(args: dict[str, Any]) -> None:
    out = Path(args["out"])
    res = measure(args["simulator"], int(args["calls"]), Path(args["examples"]), out)
    print("PUSHPUSH-BENCH " + json.dumps(res), flush=True)


def run_simboard_bench(simulators: Sequence[str] = ("icarus", "verilator"), calls: int = 300,
                       tree: Optional[str] = None, label: str = "",
                       log: Callable[[str], None] = lambda m: None) -> list[dict[str, Any]]:
    """Measure every simulator, each in a fresh process with an empty cache."""
    from pushpush.resources import examples_dir

    rows = []
    root = Path(tree).resolve() if tree else CHECKOUT
    for sim in simulators:
        if True:
            with tempfile.TemporaryDirectory(prefix="pushpush-bench-simboard-") as tmp:
                env = dict(os.environ, PUSHPUSH_BOARD="sim",
                           PUSHPUSH_CACHE=str(Path(tmp) / "cache"),
                           PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
                env.pop("PUSHPUSH_SIM", None)
                env.pop("PUSHPUSH_SIM_PS", None)   # the other tree's (--tree) default PS side
                args = {"simulator": sim, "calls": calls, "out": str(Path(tmp) / "out"),
                        "examples": str(examples_dir())}
                log(f"simboard bench: {sim}{' (' + label + ')' if label else ''} ...")
                code = ("import json, sys; sys.path.insert(0, %r); "
                        "import importlib.util as u; s = u.spec_from_file_location('b', %r); "
                        "m = u.module_from_spec(s); s.loader.exec_module(m); m._one(json.loads(%r))"
                        % (str(root), __file__, json.dumps(args)))
                proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                      text=True, timeout=3600, cwd=tmp)
                lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("PUSHPUSH-BENCH ")]
                if proc.returncode or not lines:
                    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
                    raise RuntimeError(f"the simboard bench failed for {sim}:\n{tail}")
                row = json.loads(lines[-1][len("PUSHPUSH-BENCH "):])
                row["tree"] = label or "this tree"
                rows.append(row)
    return rows


COLUMNS = [("tree", "tree"), ("simulator", "sim"), ("ps", "PS"), ("load_cold_s", "load cold s"),
           ("load_warm_s", "load warm s"), ("py_rtl_calls_per_s", "py->rtl /s"),
           ("py_rtl_cycles_per_call", "cyc/call"), ("py_rtl_split", "us gp0/wait/cpu"), ("rtl_py_calls_per_s", "rtl->py /s"),
           ("cycles_per_s", "cycles/s"), ("idle_cpu_pct", "idle sim %"),
           ("idle_cpu_pynq_pct", "idle pynq %")]


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    head = [h for _, h in COLUMNS]
    rows = [dict(r, py_rtl_split=("/".join(str(r["py_rtl_us"][k]) for k in
                                           ("gp0_request", "wait_reply", "pynq_cpu"))
                                  if "py_rtl_us" in r else "")) for r in rows]
    body = [[str(r.get(k, "")) for k, _ in COLUMNS] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    return "\n".join([fmt.format(*head), fmt.format(*("-" * w for w in widths))]
                     + [fmt.format(*b) for b in body])


def run(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    """``pushpush bench simboard`` (registry, :mod:`pushpush.bench.registry`)."""
    from pushpush.build.sim import available_simulators

    from pushpush.bench.registry import OptionError, result

    sims = [s for s in ("icarus", "verilator") if opts.sim in ("both", s)]
    missing = [s for s in sims if s not in available_simulators()]
    if missing:
        raise OptionError(f"simulator {', '.join(missing)} is not available here")
    calls = opts.calls or 300
    rows = []
    if opts.tree:
        rows += run_simboard_bench(sims, calls, tree=opts.tree, label=opts.label, log=log)
    rows += run_simboard_bench(sims, calls, log=log)
    out = Path(opts.output)
    out.mkdir(parents=True, exist_ok=True)
    (out / "simboard.json").write_text(json.dumps(rows, indent=1))
    table = format_table(rows)
    return result("simboard", "simboard: the simulated board's speed",
                  table + f"\n\nresults: {out / 'simboard.json'}", rows=rows, markdown=table)
