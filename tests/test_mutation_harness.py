"""The mutation harness (scripts/mutation/) cannot rot: its list applies to today's tree and a
smoke-sized run kills its mutants (issue 35).

- every listed mutant's ``find`` text occurs exactly once in its file (an edit that moves
  or rewrites a mutated line fails here, naming the mutant to update), every test file a
  mutant or a mutmut group names exists, every mutmut group's files exist;
- the harness refuses a bad list with a message naming the entry;
- ``run_mutation.py --smoke``: the listed mutants marked ``smoke`` (one per kind of core and
  the C runtime) are applied to a copy and killed by their tests, each test selection having
  passed unmutated; mutmut runs a few mutants of the ``types`` group; the report is written.
  The checkout itself is never modified.

The full run (every listed mutant, every mutmut group) is a benchmark-style command:
``python scripts/mutation/run_mutation.py`` (docs/contributing.md).
"""

from __future__ import annotations

import glob
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "mutation" / "run_mutation.py"


def _harness():
    spec = importlib.util.spec_from_file_location("run_mutation", SCRIPT)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["run_mutation"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_every_listed_mutant_applies_to_this_tree() -> None:
    h = _harness()
    listed, groups = h.load()
    assert len(listed) >= 20 and {m.file.split("/")[0] for m in listed} == {"cores", "c"}
    for m in listed:
        h.check_applies(m)  # raises with the mutant's name and the fix
        for t in m.tests:
            if t.startswith("tests/"):
                assert (REPO / t).is_file(), f"mutant {m.name}: no test file {t}"
    # the cores and the C runtime the issue names are all covered
    files = {m.file for m in listed}
    for core in ("export", "call_site", "call_engine", "endpoint_mem", "interconnect", "abe"):
        assert any(f.startswith(f"cores/{core}/") for f in files), core
    assert "cores/interconnect/pp_arbiter.v" in files and "c/runtime/pp_runtime.c" in files
    assert any(m.smoke for m in listed)
    mutated = [p for g in groups for p in g.mutate]
    for p in mutated:
        assert glob.glob(str(REPO / p)), f"mutmut group pattern {p} matches no file"
    for want in ("pushpush/protocol.py", "pushpush/types/codec.py", "pushpush/link/linker.py", "pushpush/runtime/core.py"):
        assert any(glob.fnmatch.fnmatch(want, p) for p in mutated), want
    for g in groups:
        for t in g.tests:
            if t.startswith("tests/"):   # (not the pytest options, e.g. --deselect and its node id)
                assert (REPO / t.split("::")[0]).is_file(), f"group {g.name}: no test file {t}"


def test_bad_list_is_refused(tmp_path: Path) -> None:
    h = _harness()
    bad = tmp_path / "m.toml"
    bad.write_text('[[mutant]]\nname = "x"\nfile = "cores/export/pp_export.v"\nfind = "a"\nreplace = "b"\n'
                   'why = "w"\ntests = []\ncolour = 1\n')
    with pytest.raises(h.HarnessError, match=r"m.toml: \[\[mutant\]\] #1 \(x\): unknown key\(s\) \['colour'\]"):
        h.load(bad)
    gone = h.Listed("moved", "cores/export/pp_export.v", "no such line", "x", "w", ())
    with pytest.raises(h.HarnessError, match="mutant 'moved': its `find` text occurs 0 times in cores/export/"
                                             "pp_export.v .* update `find`"):
        h.check_applies(gone)


def test_smoke_run(tmp_path: Path) -> None:
    h = _harness()
    if not h.mutmut_available():
        pytest.fail("mutmut is not installed in this environment; install the dev extra: "
                    "pip install -e '.[dev]' (pins mutmut==3.8.1)")
    listed, groups = h.load()
    # the files the run mutates (in its copies): the checkout's must be unchanged after it
    watched = sorted({m.file for m in listed} | {str(p.relative_to(REPO)) for g in groups for pat in g.mutate
                                                 for p in REPO.glob(pat) if p.is_file()})
    before = {f: (REPO / f).read_bytes() for f in watched}
    out = tmp_path / "mutation.md"
    p = subprocess.run([sys.executable, str(SCRIPT), "--smoke", "-o", str(out)], cwd=REPO,
                       capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout + p.stderr
    text = out.read_text()
    smoke = [m.name for m in listed if m.smoke]
    for name in smoke:
        assert f"| {name} |" in text and f"| {name} | " in text
    rows = [ln for ln in text.splitlines() if ln.startswith("| ") and any(f"| {n} |" in ln for n in smoke)]
    assert len(rows) == len(smoke) and all("**killed**" in r for r in rows), rows
    assert "## Python: types" in text and "python: types" in text
    assert {f: (REPO / f).read_bytes() for f in watched} == before, "the harness touched the checkout"


@pytest.mark.long
def test_every_listed_mutant_is_killed(tmp_path: Path) -> None:
    """The full listed run (every RTL and C mutant; about 10 minutes on 2 cores): each is
    killed or explained as equivalent in the list."""
    out = tmp_path / "mutation.md"
    p = subprocess.run([sys.executable, str(SCRIPT), "--listed", "-o", str(out)], cwd=REPO,
                       capture_output=True, text=True, timeout=3 * 3600)
    assert p.returncode == 0, p.stdout + p.stderr + (out.read_text() if out.exists() else "")


def test_workdir_inside_the_checkout_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    h = _harness()
    if not h.mutmut_available():
        pytest.fail("mutmut is not installed in this environment; install the dev extra")
    assert h.main(["--python", "protocol", "--workdir", str(REPO / "mutation-work"), "-o", "/dev/null"]) == 2
    assert "choose a folder outside the checkout" in capsys.readouterr().err
    assert not (REPO / "mutation-work").exists()


def test_undetected_reads_mutmut_state(tmp_path: Path) -> None:
    """A resumed run (--workdir) tests again the mutants an earlier run left undetected:
    survived (0), no tests (33, 5), interrupted (2), suspicious (35); not killed (1), timed
    out (-24) or unchecked (None)."""
    import json

    h = _harness()
    meta = tmp_path / "mutants" / "pushpush" / "protocol.py.meta"
    meta.parent.mkdir(parents=True)
    codes = {"a": 0, "b": 1, "c": 33, "d": None, "e": -24, "f": 2, "g": 5, "h": 35}
    meta.write_text(json.dumps({"exit_code_by_key": codes}))
    (tmp_path / "mutants" / "broken.meta").write_text("{")  # a file mutmut is writing: skipped
    assert sorted(h._undetected(tmp_path)) == ["a", "c", "f", "g", "h"]


def test_report_only_needs_a_workdir_and_groups(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h = _harness()
    assert h.main(["--python", "protocol", "--report-only", "-o", str(tmp_path / "m.md")]) == 2
    assert "--report-only reports the Python groups named with --python from the state in --workdir" in \
        capsys.readouterr().err
    assert h.main(["--python", "protocol", "--report-only", "--workdir", str(tmp_path / "w"),
                   "-o", str(tmp_path / "m.md")]) == 2
    assert "no mutmut state in" in capsys.readouterr().err and not (tmp_path / "m.md").exists()


def test_survivors_only_needs_a_workdir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h = _harness()
    if not h.mutmut_available():
        pytest.fail("mutmut is not installed in this environment; install the dev extra")
    assert h.main(["--python", "protocol", "--survivors-only", "-o", str(tmp_path / "m.md")]) == 2
    assert "--survivors-only tests again the survivors of an earlier run kept in --workdir" in \
        capsys.readouterr().err


def test_a_resumed_group_sees_the_trees_other_files_as_they_are_now(tmp_path: Path) -> None:
    """mutmut keeps its first copy of the files it does not mutate in ``mutants/``; the
    harness puts the tree's current text there before each run (a resumed run tested the
    mutants against the old tree); the mutated files and mutmut's own state stay."""
    rm = _harness()
    g = next(x for x in rm.load()[1] if x.name == "runtime")
    copy = tmp_path / "python-runtime"
    for rel, now, kept in [("pushpush/runtime/sync.py", "new sync", "old sync"),
                           ("tests/runtime/test_x.py", "new test", "old test"),
                           ("pushpush/runtime/core.py", "tree core", "mutated core"),
                           ("pushpush/runtime/core.py.meta", None, "state")]:
        if now is not None:
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (copy / rel).write_text(now)
        (copy / "mutants" / rel).parent.mkdir(parents=True, exist_ok=True)
        (copy / "mutants" / rel).write_text(kept)
    assert rm._refresh_unmutated(g, copy) == 2
    got = {rel: (copy / "mutants" / rel).read_text() for rel in
           ["pushpush/runtime/sync.py", "tests/runtime/test_x.py", "pushpush/runtime/core.py",
            "pushpush/runtime/core.py.meta"]}
    assert got == {"pushpush/runtime/sync.py": "new sync", "tests/runtime/test_x.py": "new test",
                   "pushpush/runtime/core.py": "mutated core", "pushpush/runtime/core.py.meta": "state"}


def test_a_resumed_group_collects_its_coverage_map_again_after_a_change(tmp_path: Path) -> None:
    """mutmut's map of which tests reach which function is made once; after a test or a
    function was added it must be made again, or the new test never runs against the old
    survivors (they stay "survived") and the new function's mutants have "no tests"."""
    rm = _harness()
    g = next(x for x in rm.load()[1] if x.name == "link")
    copy = tmp_path / "python-link"
    (copy / "pushpush" / "link").mkdir(parents=True)
    (copy / "tests" / "link").mkdir(parents=True)
    (copy / "pushpush" / "link" / "linker.py").write_text("def f(): pass\n")
    (copy / "tests" / "link" / "test_link.py").write_text("def test_f(): pass\n")
    stats = copy / "mutants" / "mutmut-stats.json"
    stats.parent.mkdir()
    assert rm._forget_coverage_if_changed(g, tmp_path / "nowhere") is False
    stats.write_text("{}")
    assert rm._forget_coverage_if_changed(g, copy) is True     # a map of unknown age: made again
    assert not stats.exists()
    stats.write_text("{}")                                     # mutmut made it again
    assert rm._forget_coverage_if_changed(g, copy) is False     # nothing changed: kept
    assert stats.exists()
    (copy / "tests" / "link" / "test_new.py").write_text("def test_g(): pass\n")
    assert rm._forget_coverage_if_changed(g, copy) is True     # a new test: made again
    stats.write_text("{}")
    (copy / "pushpush" / "link" / "linker.py").write_text("def f(): pass\ndef g(): pass\n")
    assert rm._forget_coverage_if_changed(g, copy) is True     # a new function: made again
    stats.write_text("{}")
    other = type(g)(g.name, g.mutate, g.tests + ("tests/link/test_new.py",))
    assert rm._forget_coverage_if_changed(other, copy) is True  # another test list: made again
