"""``pushpush selfcheck`` (pushpush/selfcheck): the report's logic (statuses, exit status,
markdown and JSON), a check's deadline with what the other side was doing, the image group
and the missing C compiler (skipped, saying what to install), usage errors, the pingpong
group on the simulated board, and (``slow``) every group on the simulated board."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from pushpush.cli import main
from pushpush.selfcheck import GROUPS, Check, Report, Skip
from pushpush.selfcheck.report import run_check

pytest.importorskip("pynq.pl_server")


@pytest.fixture(autouse=True)
def _simulated(monkeypatch):
    monkeypatch.setenv("PUSHPUSH_BOARD", "sim")
    monkeypatch.setenv("PUSHPUSH_SIM", "icarus")


def _json(folder: Path) -> dict:
    return json.loads((folder / "selfcheck.json").read_text())


# --------------------------------------------------------------------------- the report


def test_report_statuses_exit_status_and_formats():
    r = Report(environment={"python": "3.11.2", "where": "a | board"})
    r.add(Check("image.python", "pass", "Python 3.11.2", 0.01))
    assert r.exit_status() == 0 and r.ok and r.summary().endswith("all passed")
    r.add(Check("c.compiler", "skip", "no C compiler found: install gcc"))
    assert r.exit_status() == 3 and r.ok
    assert r.summary() == "selfcheck: 1 passed, 0 failed, 1 skipped: passed, some skipped: c.compiler"
    r.add(Check("calls.python_to_rtl", "fail", "CallTimeout: callee.f\nline two"))
    assert r.exit_status() == 1 and not r.ok
    assert r.summary().endswith("FAILED: calls.python_to_rtl")
    md = r.to_markdown()
    assert "| calls.python_to_rtl | **FAIL** | 0.00 | CallTimeout: callee.f<br>line two |" in md
    assert "| where | a \\| board |" in md            # a table cell stays one cell
    back = Report.from_json(r.to_json())
    assert back == r
    data = json.loads(r.to_json())
    assert data["counts"] == {"pass": 1, "fail": 1, "skip": 1} and data["exit_status"] == 1
    with pytest.raises(ValueError, match="use one of pass, fail, skip"):
        Check("x", "ok")


def test_run_check_pass_skip_fail_and_deadline():
    c = run_check("a", lambda: "seen", timeout=30)
    assert (c.name, c.status, c.detail) == ("a", "pass", "seen")

    def skip():
        raise Skip("no gcc: apt-get install gcc")

    def fail():
        raise KeyError("x")

    assert run_check("b", skip, timeout=30).status == "skip"
    c = run_check("c", fail, timeout=30)
    assert (c.status, c.detail) == ("fail", "KeyError: 'x'")
    never = threading.Event()
    c = run_check("d", never.wait, timeout=0.2, doing=lambda: "the PL was at cycle 42")
    never.set()
    assert c.status == "fail"
    assert c.detail == "no answer within 0.2 s; the PL was at cycle 42"


# --------------------------------------------------------------------------- the command


def test_usage_errors(tmp_path, capsys):
    assert main(["selfcheck", "--checks", "image,nope", "-o", str(tmp_path)]) == 2
    assert f"use groups of {', '.join(GROUPS)}" in capsys.readouterr().err
    assert main(["selfcheck", "--timeout", "0", "-o", str(tmp_path)]) == 2
    assert "positive number of seconds" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["selfcheck", "--checks", "image", "-o", str(tmp_path / "file" / "x")]) == 2
    assert "cannot write the report into" in capsys.readouterr().err


def test_image_group(tmp_path, capsys):
    assert main(["selfcheck", "-q", "--checks", "image", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "selfcheck: 3 passed, 0 failed, 0 skipped: all passed" in out
    data = _json(tmp_path)
    assert [c["name"] for c in data["checks"]] == ["image.python", "image.pynq", "image.pl_access"]
    assert data["environment"]["where"] == "the simulated board (icarus)"
    assert "SimDevice" in data["checks"][2]["detail"]
    assert (tmp_path / "selfcheck.md").read_text().startswith("# pushpush self-check\n")


def test_no_c_compiler_is_skipped_saying_what_to_install(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("CC", raising=False)
    assert main(["selfcheck", "-q", "--checks", "pingpong_c", "-o", str(tmp_path)]) == 3
    checks = {c["name"]: c for c in _json(tmp_path)["checks"]}
    assert checks["c.compiler"]["status"] == "skip"
    assert "apt-get install gcc" in checks["c.compiler"]["detail"]
    assert checks["calls.c_to_rtl"]["status"] == "skip"
    assert checks["calls.c_to_rtl"]["detail"].startswith("not run: c.compiler was skipped (no C compiler")
    assert "passed, some skipped: c.compiler" in capsys.readouterr().out


def test_pingpong_group_on_the_simulated_board(tmp_path, capsys):
    assert main(["selfcheck", "-q", "--checks", "pingpong", "-o", str(tmp_path)]) == 0, capsys.readouterr()
    checks = {c["name"]: c for c in _json(tmp_path)["checks"]}
    assert all(c["status"] == "pass" for c in checks.values()), checks
    assert set(checks) == {"pingpong.load", "pingpong.ocm_mapping", "pingpong.pl_read",
                           "pingpong.cma_allocate", "calls.python_to_rtl", "calls.rtl_to_rtl"}
    assert "OCM_CFG = 0x1F" in checks["pingpong.ocm_mapping"]["detail"]
    assert "16 calls of callee.f from Verilog" in checks["calls.rtl_to_rtl"]["detail"]


@pytest.mark.slow
def test_every_group_on_the_simulated_board(tmp_path, capsys):
    if not any(os.access(Path(d) / cc, os.X_OK) for d in os.environ["PATH"].split(os.pathsep)
               for cc in ("cc", "gcc")):
        pytest.fail("this test needs a C compiler (apt-get install gcc)")
    rc = main(["selfcheck", "-q", "-o", str(tmp_path)])
    out = capsys.readouterr().out
    data = _json(tmp_path)
    assert rc == 0, out
    names = [c["name"] for c in data["checks"]]
    for way in ("python_to_rtl", "rtl_to_rtl", "rtl_to_python", "c_to_rtl", "rtl_to_c",
                "python_to_c", "c_to_python", "c_to_c"):
        assert f"calls.{way}" in names
    assert {"audio_fir.interrupt_wait", "dma.transfer", "c.program", "pingpong.cma_allocate"} <= set(names)
    assert data["counts"] == {"pass": len(names), "fail": 0, "skip": 0}
    assert "firings of system_top_0/irq" in next(c["detail"] for c in data["checks"]
                                                 if c["name"] == "audio_fir.interrupt_wait")
