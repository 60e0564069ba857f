"""``pushpush run``: the main job, on the simulated board (through PYNQ).

Each example is generated, compiled (Icarus unless PUSHPUSH_SIM says otherwise), loaded
through PYNQ and its app.py run; the exit status says whether its checks passed.

    PYTHONPATH=$PWD pytest -q tests/run          # ~40 s on Icarus
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytest.importorskip("pynq.pl_server", reason="pushpush run needs PYNQ (pushpush-fpga[pynq])")


def pushpush(*args: str, cwd: Path, timeout: float = 600,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env or {}), PUSHPUSH_BOARD="sim",
               PYTHONPATH=os.pathsep.join([str(REPO)] + ([os.environ["PYTHONPATH"]]
                                                         if os.environ.get("PYTHONPATH") else [])))
    return subprocess.run([sys.executable, "-c", "import sys; from pushpush.cli import main; sys.exit(main(sys.argv[1:]))", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_run_pingpong_prints_calls_table(tmp_path: Path) -> None:
    p = pushpush("run", str(REPO / "examples" / "pingpong"), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    # the hardware-to-hardware row: exact simulated cycles, 6 per call at 100 MHz
    row = next(ln for ln in out.splitlines() if ln.strip().startswith("rtl -> rtl"))
    assert row.split()[3:5] == ["6.00", "16.667"], row
    assert any(ln.strip().startswith("python -> rtl") for ln in out.splitlines())
    assert "SIMULATION" in out and "not measured yet" in out
    assert "all results match the callee model" in out
    # progress while building, on stderr; the overlay generated under build/
    assert "compiling the system" in p.stderr and "simulated board up" in p.stderr
    assert (tmp_path / "build" / "pingpong" / "pynq_sim" / "pingpong.bit").is_file()


def test_run_audio_fir_checks_against_numpy(tmp_path: Path) -> None:
    p = pushpush("run", "audio_fir", "-o", str(tmp_path / "ov"), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "output vs np.convolve (int32): all equal" in p.stdout
    assert "higher-order" in p.stdout and "equal to np.convolve" in p.stdout
    assert "checks: passed" in p.stdout
    assert (tmp_path / "ov" / "audio_fir.hwh").is_file()


def test_run_usage_errors(tmp_path: Path) -> None:
    p = pushpush("run", str(tmp_path / "nothing"), cwd=tmp_path)
    assert p.returncode == 2 and "no example" in p.stderr
    (tmp_path / "sys").mkdir()
    (tmp_path / "sys" / "system.yaml").write_text(
        (REPO / "examples" / "pingpong" / "system.yaml").read_text().replace(
            "rtl/", str(REPO / "examples" / "pingpong" / "rtl") + "/"))
    p = pushpush("run", str(tmp_path / "sys"), cwd=tmp_path)
    assert p.returncode == 2 and "has no app.py" in p.stderr


def test_run_failing_app_exits_1(tmp_path: Path) -> None:
    ex = tmp_path / "pp"
    ex.mkdir()
    (ex / "system.yaml").write_text((REPO / "examples" / "pingpong" / "system.yaml").read_text()
                                    .replace("rtl/", str(REPO / "examples" / "pingpong" / "rtl") + "/"))
    (ex / "app.py").write_text(
        "def main(ol, out=print):\n"
        "    r = ol.callee.f(1)\n"
        "    out(f'f(1) = {r}')\n"
        "    return {'ok': r == 12345}\n")
    p = pushpush("run", str(ex), "-q", cwd=tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "f(1) = " in p.stdout and "FAILED" in p.stderr


def test_run_says_which_simulator_ran_each_example_and_why(tmp_path: Path) -> None:
    """auto on a machine where Verilator cannot build (no C++ compiler on PATH): Icarus, the
    reason in one line, and the closing table names each example's simulator and wall time;
    no background build is started (the build cache stays empty of it)."""
    import shutil
    tools = tmp_path / "bin"
    tools.mkdir()
    for t in ("iverilog", "vvp", "make"):
        os.symlink(shutil.which(t), tools / t)
    p = pushpush("run", "pingpong", "audio_fir", "-q", cwd=tmp_path,
                 env={"PATH": str(tools), "PUSHPUSH_SIM": "auto", "CXX": "",
                      "PUSHPUSH_CACHE": str(tmp_path / "cache")})
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stderr.splitlines()
    assert "pushpush: pingpong: ok (simulator: icarus (Verilator cannot build here); " \
        "application" in p.stderr, p.stderr
    table = lines[lines.index(next(ln for ln in lines if ln.split()[1:3] == ["example", "wall"])):]
    rows = {ln.split()[1]: ln for ln in table[1:]}
    for name in ("pingpong", "audio_fir"):
        assert rows[name].split()[2].endswith("s")
        assert rows[name].endswith("icarus (Verilator cannot build here)"), table
    assert "all" in rows
    assert not list((tmp_path / "cache").glob("*.bg*"))
