#!/usr/bin/env python3
"""Mutation testing of PushPush's protocol-critical code: does the suite notice a broken protocol?

Two kinds of mutants, both applied to a *copy* of the tree (the checkout is never touched):

- **listed mutants** (``scripts/mutation/mutants.toml``, ``[[mutant]]``): named one-line changes
  to the Verilog cores and the C runtime (c/runtime/), each run against the bench or C tests
  that should kill it. Before any mutant runs, each distinct test selection must pass on the
  unmutated copy (otherwise a "kill" would mean nothing).
- **Python mutants** (``[[python]]`` groups): mutmut (pinned in the ``dev`` extra) mutates
  the group's files and runs, for each mutant, the group's tests that cover the mutated
  function.

The report (killed, survived with each survivor's diff and, for a known-equivalent one, the
reason, errors, time) is written as Markdown, by default to
``benchmarks/results/mutation.md``.

Usage (from the repository root, with pushpush's environment)::

    python scripts/mutation/run_mutation.py              # everything (hours on 2 cores; see README)
    python scripts/mutation/run_mutation.py --listed     # the listed RTL and C mutants
    python scripts/mutation/run_mutation.py --python types link   # some mutmut groups
    python scripts/mutation/run_mutation.py --only call-site-seq-no-flip
    python scripts/mutation/run_mutation.py --smoke -o /tmp/m.md  # a few of each kind
    python scripts/mutation/run_mutation.py --python types --workdir /tmp/ppmut   # resumable:
        # run it again (after an interruption, or after sharpening tests) and mutmut continues
        # with the mutants without a result, after testing the earlier survivors again
        # (--survivors-only: just those; --report-only: no run, the report of what it holds)

Exit status: 0 when every listed mutant is killed (or explained) and every Python group
reaches ``--min-score`` (default 0.95) of killed among its mutants less the explained ones;
1 otherwise; 2 for bad input (a mutant whose ``find`` text is not in its file exactly once,
mutmut missing, ...), with a message naming what to fix.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LIST = Path(__file__).with_name("mutants.toml")
DEFAULT_REPORT = REPO / "benchmarks" / "results" / "mutation.md"
#: Hypothesis examples per property test inside mutation runs (the fixed examples carry the
#: kills; the properties still run, just shorter)
HYPOTHESIS_EXAMPLES = "20"


class HarnessError(Exception):
    """Bad input to the harness (the message names the file, the entry and the fix)."""


@dataclass(frozen=True)
class Listed:
    name: str
    file: str
    find: str
    replace: str
    why: str
    tests: tuple[str, ...]
    smoke: bool = False
    equivalent: str = ""


@dataclass(frozen=True)
class Group:
    name: str
    mutate: tuple[str, ...]
    tests: tuple[str, ...]
    smoke: str = ""
    #: (function, added text, why): a surviving mutant of that function (mutmut's mangled
    #: name, e.g. ``x__f32_value``) whose diff adds a line containing the text is explained
    #: as equivalent (matched on the diff, not on mutmut's numbering, which shifts with edits)
    equivalent: tuple[tuple[str, str, str], ...] = ()
    #: regular expressions: lines (statements) mutmut leaves alone ([mutmut] skip_lines)
    skip_lines: tuple[str, ...] = ()


@dataclass
class Result:
    name: str
    status: str  # killed, survived, explained, error
    seconds: float
    detail: str = ""


@dataclass
class GroupResult:
    name: str
    statuses: dict[str, str]
    seconds: float
    diffs: dict[str, str]
    equivalent: dict[str, str]
    error: str = ""

    def count(self, status: str) -> int:
        return sum(1 for s in self.statuses.values() if s == status)

    @property
    def unchecked(self) -> int:
        return self.count("not checked")

    @property
    def detected(self) -> int:
        return sum(1 for s in self.statuses.values() if s in DETECTED)

    @property
    def score(self) -> float:
        """Detected among the mutants tested and not explained as equivalent (an interrupted
        run's unchecked mutants are reported apart, see :attr:`unchecked`)."""
        counted = [n for n, s in self.statuses.items() if n not in self.equivalent and s != "not checked"]
        if not counted:
            return 0.0
        return sum(1 for n in counted if self.statuses[n] in DETECTED) / len(counted)


#: mutmut statuses that mean the tests noticed the mutant: a failure, a hang (the run's
#: timeout, a multiple of the tests' own time), a crash
DETECTED = frozenset({"killed", "timeout", "segfault"})


# ------------------------------------------------------------------------------ the list


def load(path: Path = LIST) -> tuple[list[Listed], list[Group]]:
    """The listed mutants and the mutmut groups of ``path``, checked."""
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise HarnessError(f"{path}: {e}") from None
    unknown_tables = set(data) - {"mutant", "python", "mutmut"}
    if unknown_tables:
        raise HarnessError(f"{path}: unknown table(s) {sorted(unknown_tables)}; the tables are [[mutant]], "
                           "[[python]] and [mutmut]")
    skip = data.get("mutmut", {}).get("skip_lines", [])
    for pattern in skip:
        try:
            re.compile(pattern)
        except re.error as e:
            raise HarnessError(f"{path}: [mutmut] skip_lines: {pattern!r} is not a regular expression: {e}") from None
    listed: list[Listed] = []
    for i, m in enumerate(data.get("mutant", [])):
        where = f"{path}: [[mutant]] #{i + 1} ({m.get('name', 'no name')})"
        for key in ("name", "file", "find", "replace", "why", "tests"):
            if key not in m:
                raise HarnessError(f"{where}: missing `{key}`")
        unknown = set(m) - {"name", "file", "find", "replace", "why", "tests", "smoke", "equivalent"}
        if unknown:
            raise HarnessError(f"{where}: unknown key(s) {sorted(unknown)}; the keys are name, file, find, "
                               "replace, why, tests, smoke, equivalent")
        if m["find"] == m["replace"]:
            raise HarnessError(f"{where}: `replace` equals `find`: not a mutant")
        listed.append(Listed(m["name"], m["file"], m["find"], m["replace"], m["why"], tuple(m["tests"]),
                             bool(m.get("smoke", False)), m.get("equivalent", "")))
    names = [m.name for m in listed]
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        raise HarnessError(f"{path}: mutant names must be unique: {dups}")
    groups: list[Group] = []
    for i, g in enumerate(data.get("python", [])):
        where = f"{path}: [[python]] #{i + 1} ({g.get('name', 'no name')})"
        for key in ("name", "mutate", "tests"):
            if key not in g:
                raise HarnessError(f"{where}: missing `{key}`")
        unknown = set(g) - {"name", "mutate", "tests", "smoke", "equivalent"}
        if unknown:
            raise HarnessError(f"{where}: unknown key(s) {sorted(unknown)}; the keys are name, mutate, tests, "
                               "smoke, equivalent")
        eq = []
        for j, e in enumerate(g.get("equivalent", [])):
            if set(e) != {"function", "added", "why"}:
                raise HarnessError(f"{where}: equivalent #{j + 1}: give exactly function, added and why, got "
                                   f"{sorted(e)}")
            eq.append((e["function"], e["added"], e["why"]))
        groups.append(Group(g["name"], tuple(g["mutate"]), tuple(g["tests"]), g.get("smoke", ""),
                            tuple(eq), tuple(skip)))
    return listed, groups


def check_applies(m: Listed, root: Path = REPO) -> None:
    """``m.find`` occurs exactly once in ``root / m.file``, else a HarnessError with the fix."""
    path = root / m.file
    if not path.is_file():
        raise HarnessError(f"{LIST}: mutant {m.name!r}: {m.file} does not exist; update or remove the mutant")
    n = path.read_text().count(m.find)
    if n != 1:
        raise HarnessError(
            f"{LIST}: mutant {m.name!r}: its `find` text occurs {n} times in {m.file} (it must occur exactly "
            f"once): the code changed; update `find` (and `replace`) to the new line")


# ------------------------------------------------------------------------------ copies


def tree_files(root: Path) -> list[str]:
    """The files of the working tree: tracked and untracked, not ignored (so uncommitted
    edits are tested too); without git, every file outside .git and build outputs."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=root, check=True, capture_output=True).stdout
        return [f for f in out.decode().split("\0") if f and (root / f).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", "sim_build", "__pycache__", "mutants", ".venv"}
        return [str(p.relative_to(root)) for p in root.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(root).parts)]


def copy_tree(root: Path, dest: Path, files: Sequence[str]) -> None:
    for f in files:
        target = dest / f
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copy2(root / f, target)
        except FileNotFoundError:  # an untracked file that a concurrent run removed meanwhile
            if (root / f).exists():
                raise


def python_env(copy: Path | None) -> dict[str, str]:
    """The environment for a run in ``copy``: its pushpush first on PYTHONPATH (none when
    ``copy`` is None: mutmut imports its mutated copy), no other pushpush tree; this Python's
    bin first on PATH (the pushpush CLI, the simulated board's child)."""
    env = os.environ.copy()
    keep = [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
            if p and not (Path(p) / "pushpush" / "__init__.py").exists()]
    env["PYTHONPATH"] = os.pathsep.join(([str(copy)] if copy else []) + keep)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PUSHPUSH_HYPOTHESIS_EXAMPLES"] = HYPOTHESIS_EXAMPLES
    return env


def run(cmd: Sequence[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int | None, str]:
    """(return code, or None on timeout; the combined output). The whole process group is
    killed on timeout (simulators, the board's child)."""
    with subprocess.Popen(list(cmd), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          start_new_session=True) as p:
        try:
            out, _ = p.communicate(timeout=timeout)
            return p.returncode, out.decode(errors="replace")
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
            return None, out.decode(errors="replace")


def pytest_cmd(tests: Sequence[str]) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:randomly", *tests]


def _summary(out: str) -> str:
    """The failing assertion or the pytest summary line of ``out``."""
    lines = [ln.strip() for ln in out.splitlines() if ln.strip()]
    for ln in lines:  # the C test programs' first failed check
        if "FAIL " in ln and ":" in ln:
            return ln[ln.index("FAIL "):][:300]
    for ln in lines:  # a cocotb bench's failing assertion, as its log reports it
        if ln.startswith("AssertionError:") or " AssertionError: " in ln:
            return ln[ln.index("AssertionError:"):][:300]
    for ln in lines:
        if ln.startswith("E ") and len(ln) > 3:
            return ln[2:].strip()[:300]
    for ln in reversed(lines):
        if re.search(r"\b(passed|failed|error|no tests ran)\b", ln):
            return ln[:300]
    return (lines[-1] if lines else "")[:300]


# ------------------------------------------------------------------------------ listed


def run_listed(mutants: Sequence[Listed], work: Path, jobs: int, timeout: float,
               log: bool = True) -> tuple[list[Result], list[Result]]:
    """(baselines, results): each distinct test selection on the unmutated copy, then each
    mutant in its own copy."""
    files = tree_files(REPO)
    for m in mutants:
        check_applies(m)
    clean = work / "unmutated"
    copy_tree(REPO, clean, files)
    selections = sorted({m.tests for m in mutants})

    def baseline(tests: tuple[str, ...]) -> Result:
        t0 = time.monotonic()
        rc, out = run(pytest_cmd(tests), clean, python_env(clean), timeout)
        status = "passed" if rc == 0 else "error"
        return Result(" ".join(tests), status, time.monotonic() - t0, "" if rc == 0 else _summary(out))

    def one(m: Listed) -> Result:
        copy = work / f"listed-{m.name}"
        copy_tree(REPO, copy, files)
        path = copy / m.file
        path.write_text(path.read_text().replace(m.find, m.replace, 1))
        t0 = time.monotonic()
        rc, out = run(pytest_cmd(m.tests), copy, python_env(copy), timeout)
        dt = time.monotonic() - t0
        shutil.rmtree(copy, ignore_errors=True)
        if rc is None:
            return Result(m.name, "killed", dt, f"timed out after {timeout:.0f} s (a hang is a kill)")
        if rc == 1:
            return Result(m.name, "killed", dt, _summary(out))
        if rc == 0:
            return Result(m.name, "explained" if m.equivalent else "survived", dt, m.equivalent or _summary(out))
        return Result(m.name, "error", dt, f"pytest exit status {rc}: {_summary(out)}")

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        baselines = list(pool.map(baseline, selections))
        bad = [b for b in baselines if b.status != "passed"]
        if bad:
            raise HarnessError("the unmutated tree fails these test selections, so no kill would mean "
                               "anything; fix them first: " + "; ".join(f"[{b.name}]: {b.detail}" for b in bad))
        results = []
        for r in pool.map(one, mutants):
            if log:
                print(f"  {r.status:9s} {r.name} ({r.seconds:.0f} s) {r.detail[:120]}", flush=True)
            results.append(r)
    shutil.rmtree(clean, ignore_errors=True)
    return baselines, results


# ------------------------------------------------------------------------------ mutmut


def mutmut_available() -> bool:
    return subprocess.run([sys.executable, "-c", "import mutmut"], env=python_env(None),
                          capture_output=True).returncode == 0


def mutmut_config(g: Group, copy: Path) -> str:
    also = sorted(p.name + ("/" if p.is_dir() else "") for p in copy.iterdir()
                  if p.name not in {"pushpush", "tests", "mutants", "pyproject.toml", ".git"})
    q = lambda xs: "[" + ", ".join(f'"{x}"' for x in xs) + "]"  # noqa: E731
    return ("\n[tool.mutmut]\n"
            'source_paths = ["pushpush/"]\n'
            f"only_mutate = {q(g.mutate)}\n"
            f"pytest_add_cli_args_test_selection = {q(g.tests)}\n"
            'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q", "-p", "mutmut_plugin"]\n'
            f"also_copy = {q(also)}\n"
            f"do_not_mutate_patterns = {_toml_list(g.skip_lines)}\n")


def _refresh_unmutated(g: Group, copy: Path) -> int:
    """mutmut copies the files it does not mutate into ``mutants/`` once and keeps them, so a
    resumed run tested the mutants against the tree of the first run (other modules, old
    tests). Put the tree's current text in place of each such file (the mutated files
    mutmut re-makes itself, keeping the results of unchanged functions). How many changed."""
    import fnmatch
    mut = copy / "mutants"
    if not mut.is_dir():
        return 0
    changed = 0
    for f in mut.rglob("*"):
        if not f.is_file() or f.suffix == ".meta":
            continue
        rel = f.relative_to(mut).as_posix()
        if any(fnmatch.fnmatch(rel, pat) for pat in g.mutate):
            continue
        src = copy / rel
        if src.is_file() and src.read_bytes() != f.read_bytes():
            shutil.copy2(src, f)
            changed += 1
    return changed


STATS = "mutmut-stats.json"
FINGERPRINT = "pushpush-fingerprint.txt"


def _fingerprint(g: Group, copy: Path) -> str:
    """The group's settings and the text of every Python file under pushpush/ and tests/ in
    the copy: what decides which tests cover which function."""
    h = hashlib.sha256(repr((g.mutate, g.tests)).encode())
    for top in ("pushpush", "tests"):
        for f in sorted((copy / top).rglob("*.py")):
            h.update(f.relative_to(copy).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _forget_coverage_if_changed(g: Group, copy: Path) -> bool:
    """mutmut maps tests to the functions they reach once (``mutants/mutmut-stats.json``) and
    keeps the map: after a test was added, or a function, a resumed run did not run the new
    test against the old survivors, nor any test against the new function's mutants ("no
    tests"). When the group's files or settings changed since the map was made, delete it so
    mutmut collects it again (one run of the group's tests). Whether it was deleted."""
    mut = copy / "mutants"
    if not mut.is_dir():
        return False
    now = _fingerprint(g, copy)
    mark = mut / FINGERPRINT
    stats = mut / STATS
    stale = stats.exists() and (not mark.is_file() or mark.read_text().strip() != now)
    if stale:
        stats.unlink()
    mark.write_text(now + "\n")
    return stale


def _toml_list(xs: Sequence[str]) -> str:
    """A TOML array of literal strings (regular expressions keep their backslashes)."""
    for x in xs:
        if "'" in x or "\n" in x:
            raise HarnessError(f"{LIST}: [mutmut] skip_lines: {x!r}: a pattern may not contain ' or a newline")
    return "[" + ", ".join(f"'{x}'" for x in xs) + "]"


def run_group(g: Group, work: Path, jobs: int, names: Sequence[str], timeout: float,
              keep: bool = False, report_only: bool = False, survivors_only: bool = False) -> GroupResult:
    """Run mutmut over ``g`` in ``work / python-<group>``. With ``keep`` the copy (and mutmut's
    state in its ``mutants/``) stays for the next run: the tree's files are copied over it
    again, the earlier survivors are tested again and then the mutants without a result, so an
    interrupted run resumes where it stopped. ``report_only``: no run, the results the last
    run left there (a partial run's, the unchecked mutants counted as such)."""
    copy = work / f"python-{g.name}"
    env = python_env(None)
    # mutmut_plugin.py (this folder): each test starts with pushpush's caches empty
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parent), env["PYTHONPATH"]])
    if report_only:
        if not (copy / "mutants").is_dir():
            raise HarnessError(f"--report-only: no mutmut state in {copy}; run the group with this --workdir "
                               "first")
        return _collect(g, copy, env, names, 0.0, "", keep=True)
    copy_tree(REPO, copy, tree_files(REPO))
    pyproject = copy / "pyproject.toml"
    if "[tool.mutmut]" in (REPO / "pyproject.toml").read_text():
        raise HarnessError("pyproject.toml has a [tool.mutmut] table: remove it; the groups are configured in "
                           f"{LIST}")
    with pyproject.open("a") as f:
        f.write(mutmut_config(g, copy))
    _refresh_unmutated(g, copy)
    _forget_coverage_if_changed(g, copy)
    # a resumed run: the survivors of earlier runs are tested again first (mutmut keeps a
    # decided result, but the tests may have been sharpened since; if the group's settings
    # changed, mutmut drops every result itself), then the mutants without a result
    again = [n for n in _undetected(copy) if not names or any(_glob(p, n) for p in names)]
    t0 = time.monotonic()
    rc, out = 0, ""
    if again:
        rc, out = run([sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *again], copy, env,
                      timeout)
    if rc == 0 and not survivors_only:
        rc, out = run([sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *names], copy, env,
                      max(1.0, timeout - (time.monotonic() - t0)))
    dt = time.monotonic() - t0
    error = ""
    if rc is None:
        error = f"mutmut run timed out after {timeout:.0f} s (results so far are reported)"
    elif rc != 0:
        error = f"mutmut run exited with {rc}: {_summary(out)}"
    return _collect(g, copy, env, names, dt, error, keep)


def _collect(g: Group, copy: Path, env: dict[str, str], names: Sequence[str], dt: float, error: str,
             keep: bool) -> GroupResult:
    """The results mutmut holds in ``copy``, with the diffs of the mutants not detected."""
    rc2, res = run([sys.executable, "-m", "mutmut", "results", "--all", "true"], copy, env, 600)
    statuses: dict[str, str] = {}
    for line in res.splitlines():
        m = re.match(r"\s+(\S+): (.+)$", line)
        if m and "__mutmut_" in m.group(1):
            statuses[m.group(1)] = m.group(2).strip()
    if names:
        statuses = {n: s for n, s in statuses.items() if any(_glob(p, n) for p in names)}
    diffs: dict[str, str] = {}
    explained: dict[str, str] = {}
    shown = _show([n for n, s in statuses.items() if s not in DETECTED and s != "not checked"], copy, env)
    for n, d in shown.items():
        why = _equivalent(g, n, d)
        if why:
            explained[n] = why
        else:
            diffs[n] = d.strip()
    if rc2 != 0 and not error:
        error = f"mutmut results exited with {rc2}: {_summary(res)}"
    if not keep:
        shutil.rmtree(copy, ignore_errors=True)
    return GroupResult(g.name, statuses, dt, diffs, explained, error)


_SHOW = """
import json, sys
from mutmut.__main__ import find_mutant, get_diff_for_mutant
out = {}
for name in json.loads(sys.stdin.read()):
    try:
        out[name] = get_diff_for_mutant(name, path=find_mutant(name).path)
    except Exception as e:  # a mutant mutmut cannot show: say so in the report
        out[name] = f"(mutmut cannot show this mutant: {e!r})"
print(json.dumps(out))
"""


def _show(names: Sequence[str], copy: Path, env: dict[str, str]) -> dict[str, str]:
    """Each mutant's diff (``mutmut show``), all from one process."""
    import json

    if not names:
        return {}
    p = subprocess.run([sys.executable, "-c", _SHOW], cwd=copy, env=env, input=json.dumps(list(names)),
                       capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        raise HarnessError(f"could not show the surviving mutants in {copy}: {_summary(p.stdout + p.stderr)}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def _undetected(copy: Path) -> list[str]:
    """The mutants that an earlier mutmut run in ``copy`` decided as not detected (survived,
    no tests): mutmut's state files ``mutants/**/*.meta``."""
    import json

    names = []
    for meta in sorted((copy / "mutants").rglob("*.meta")):
        try:
            codes = json.loads(meta.read_text()).get("exit_code_by_key", {})
        except (OSError, ValueError):
            continue
        names += [n for n, code in codes.items() if code in (0, 2, 5, 33, 35)]
    return names


def _equivalent(g: Group, name: str, diff: str) -> str:
    """The reason ``name`` (diff ``diff``) is equivalent, from the group's list, or ''."""
    added = [ln[1:] for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    for function, text, why in g.equivalent:
        if f".{function}__mutmut_" in name and any(text in ln for ln in added):
            return why
    return ""


def _glob(pattern: str, name: str) -> bool:
    import fnmatch

    return fnmatch.fnmatch(name, pattern)


# ------------------------------------------------------------------------------ report


def report(baselines: list[Result], listed: list[Result], groups: list[GroupResult], mutants: dict[str, Listed],
           seconds: float, argv: Sequence[str], min_score: float) -> str:
    out = ["# Mutation testing", "",
           f"Command: `python scripts/mutation/run_mutation.py {' '.join(argv)}`".replace("  ", " "),
           f"Wall time: {seconds:.0f} s. Host: {os.cpu_count()} cores. "
           f"Hypothesis examples per property in mutation runs: {HYPOTHESIS_EXAMPLES}.", "",
           "| kind | mutants | killed | survived | explained (equivalent) | errors | time |",
           "|---|---|---|---|---|---|---|"]
    if listed:
        c = {s: sum(1 for r in listed if r.status == s) for s in ("killed", "survived", "explained", "error")}
        out.append(f"| listed (RTL, C) | {len(listed)} | {c['killed']} | {c['survived']} | {c['explained']} | "
                   f"{c['error']} | {sum(r.seconds for r in listed):.0f} s (sum of the runs) |")
    for g in groups:
        undetected = len(g.statuses) - g.detected - g.unchecked
        other = {s: g.count(s) for s in sorted(set(g.statuses.values()) - DETECTED - {"not checked", "survived"})}
        out.append(f"| python: {g.name} | {len(g.statuses)}"
                   + (f" ({g.unchecked} not checked: partial run)" if g.unchecked else "")
                   + f" | {g.detected} ({g.count('timeout')} by timeout) | "
                   f"{undetected - len(g.equivalent)}"
                   + (f" ({', '.join(f'{n} {s}' for s, n in other.items())})" if other else "")
                   + f" | {len(g.equivalent)} | {1 if g.error else 0} | "
                   + (f"{g.seconds:.0f} s |" if g.seconds else "earlier run(s) (--report-only) |"))
    out.append("")
    if listed:
        out += ["## Listed mutants", "",
                "Each is a one-line change in a copy of the tree (scripts/mutation/mutants.toml), run against "
                "the tests listed there; every test selection first passed on the unmutated copy "
                f"({len(baselines)} selections, {sum(b.seconds for b in baselines):.0f} s).", "",
                "| mutant | file | status | time | what a user would see / how it was killed |", "|---|---|---|---|---|"]
        for r in listed:
            m = mutants[r.name]
            detail = r.detail.replace("|", "\\|").replace("\n", " ")
            out.append(f"| {r.name} | {m.file} | **{r.status}** | {r.seconds:.0f} s | {m.why}. <br>{detail} |")
        out.append("")
    for g in groups:
        out += [f"## Python: {g.name}", "",
                f"{len(g.statuses)} mutants, {g.detected} detected (killed, or hung past mutmut's timeout), "
                f"score {g.score:.1%} (target {min_score:.0%}; explained survivors not counted), {g.seconds:.0f} s."
                + (f" **Partial run:** {g.unchecked} mutants not checked yet (the score is over the "
                   f"{len(g.statuses) - g.unchecked} tested)." if g.unchecked else "")]
        if g.error:
            out += ["", f"**Error:** {g.error}"]
        others = {}
        for n, s in g.statuses.items():
            if s not in DETECTED:
                others.setdefault(s, []).append(n)
        for s, names in sorted(others.items()):
            out += ["", f"### {s} ({len(names)})", ""]
            for n in names:
                if s == "not checked":
                    continue
                if n in g.equivalent:
                    out.append(f"- `{n}`: explained: {g.equivalent[n]}")
                elif n in g.diffs:
                    out += [f"- `{n}`", "", "```diff", g.diffs[n], "```", ""]
                else:
                    out.append(f"- `{n}`")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# ------------------------------------------------------------------------------ main


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--listed", action="store_true", help="run the listed (RTL, C) mutants")
    ap.add_argument("--python", nargs="*", metavar="GROUP", help="run these mutmut groups (none named: all)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these listed mutants")
    ap.add_argument("--mutmut-names", nargs="+", metavar="GLOB", default=[],
                    help="with --python: only the mutmut mutants matching these (e.g. "
                         "'pushpush.types.codec.x__f32_value*')")
    ap.add_argument("--smoke", action="store_true", help="the smoke-sized run: the listed mutants marked smoke "
                    "and each group's smoke mutants")
    ap.add_argument("-j", "--jobs", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per listed mutant's test run")
    ap.add_argument("--group-timeout", type=float, default=4 * 3600.0, help="seconds per mutmut group")
    ap.add_argument("--min-score", type=float, default=0.95)
    ap.add_argument("--report-only", action="store_true", help="with --workdir and --python: no run, the "
                    "report of the results the groups' last runs left there (a partial run's)")
    ap.add_argument("--survivors-only", action="store_true", help="with --workdir: only test the earlier "
                    "survivors again (after sharpening tests), not the mutants still without a result")
    ap.add_argument("--workdir", type=Path, help="keep the copies here (not in a temporary folder): a mutmut "
                    "group run again with the same folder resumes, testing only the mutants without a result "
                    "(an interrupted or partial run continues; remove the folder to start afresh)")
    ap.add_argument("-o", "--output", type=Path, default=DEFAULT_REPORT)
    args = ap.parse_args(argv)
    try:
        listed_all, groups_all = load()
        everything = not args.listed and args.python is None and not args.only
        mutants = [m for m in listed_all if (args.listed or args.only or everything or args.smoke)]
        if args.only:
            unknown = set(args.only) - {m.name for m in listed_all}
            if unknown:
                raise HarnessError(f"no listed mutant named {sorted(unknown)}; see {LIST}")
            mutants = [m for m in mutants if m.name in args.only]
        if args.smoke:
            mutants = [m for m in mutants if m.smoke]
        if args.python is None:
            groups = groups_all if (everything or args.smoke) else []
        else:
            unknown = set(args.python) - {g.name for g in groups_all}
            if unknown:
                raise HarnessError(f"no Python group named {sorted(unknown)}; the groups: "
                                   f"{[g.name for g in groups_all]}")
            groups = [g for g in groups_all if not args.python or g.name in args.python]
        if args.smoke:
            groups = [g for g in groups if g.smoke]
        if args.mutmut_names and (args.python is None or args.smoke):
            raise HarnessError("--mutmut-names applies to the groups named with --python, not to --smoke or the "
                               "full run")
        if args.report_only and (not args.workdir or args.python is None or mutants):
            raise HarnessError("--report-only reports the Python groups named with --python from the state in "
                               "--workdir: give both, and no listed mutants")
        if args.survivors_only and not args.workdir:
            raise HarnessError("--survivors-only tests again the survivors of an earlier run kept in --workdir: "
                               "give --workdir")
        if groups and not mutmut_available():
            raise HarnessError(f"mutmut is not installed for {sys.executable}; install the dev extra: "
                               "pip install -e '.[dev]' (mutmut==3.8.1)")
        t0 = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="pp-mutation-") as tmp:
            work = Path(tmp)
            if args.workdir:
                work = args.workdir.resolve()
                if work == REPO or REPO in work.parents:
                    raise HarnessError(f"--workdir {args.workdir}: choose a folder outside the checkout {REPO} "
                                       "(the copies are copies of the checkout)")
                work.mkdir(parents=True, exist_ok=True)
            baselines, results = ([], [])
            if mutants:
                print(f"listed mutants: {len(mutants)}", flush=True)
                baselines, results = run_listed(mutants, work, args.jobs, args.timeout)
            group_results = []
            for g in groups:
                names = [g.smoke] if args.smoke else list(args.mutmut_names)
                print(f"python group {g.name}: mutmut on {', '.join(g.mutate)}", flush=True)
                gr = run_group(g, work, args.jobs, names, args.group_timeout, keep=args.workdir is not None,
                               report_only=args.report_only, survivors_only=args.survivors_only)
                print(f"  {len(gr.statuses)} mutants, {gr.detected} detected ({gr.score:.1%}), "
                      f"{gr.seconds:.0f} s {gr.error}", flush=True)
                group_results.append(gr)
        text = report(baselines, results, group_results, {m.name: m for m in listed_all},
                      time.monotonic() - t0, argv, args.min_score)
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text)
        print(f"report: {args.output}")
    except HarnessError as e:
        print(f"run_mutation: {e}", file=sys.stderr)
        return 2
    ok = all(r.status in ("killed", "explained") for r in results)
    # the smoke run checks that the harness works, not the score of a few mutants
    ok = ok and all(not g.error and g.statuses and (args.smoke or (g.score >= args.min_score and not g.unchecked))
                    for g in group_results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
