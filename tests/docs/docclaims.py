"""The claims a user document makes about the code, found and checked against the code itself.

A document (Markdown: README.md, docs/*.md, pynq_overlays/README.md, the notebooks' Markdown
cells) claims that:

- ``pushpush <command> [--option]`` exists: checked against the real argparse parser
  (:func:`pushpush.cli.build_parser`), subcommands, options, ``bench``'s experiments and their
  options, and the value of an option with fixed choices;
- a relative link ``[text](path)`` and a backticked repository path (`` `pushpush/apps.py` ``,
  a path whose first part is a top-level entry of the repository) exist;
- a ``PUSHPUSH_*`` name is an environment variable the code reads (:mod:`pushpush.envvars`) or
  a C macro the generated headers define;
- a Python path (``from pushpush.x import y``, ``import pushpush.x``, ``pushpush.x.y``)
  imports and resolves;
- a measured number (cycles, calls/s, LUT, seconds, load averages, ...) sits in a block marked
  as an example run with its command or as copied from a results file
  (:data:`EXAMPLE_RUN`, :data:`RESULTS`; docs/dev/docs-claims.md explains the markers);
- and no user document tells the project's development history (``issue N``).

:func:`check_file` returns every failed claim as a :class:`Finding` naming the file and line.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator, Optional

REPO = Path(__file__).resolve().parents[2]

#: ``<!-- example run: pushpush bench calls --quick -->`` before a block: the block's numbers
#: are what that command printed once (an example, not a promise)
EXAMPLE_RUN = re.compile(r"<!--\s*example run:\s*(?P<cmd>.+?)\s*-->")
#: ``<!-- results: benchmarks/results/calls.md -->`` before a block: its numbers are copied
#: from that generated results file
RESULTS = re.compile(r"<!--\s*results:\s*(?P<path>\S+)\s*-->")
#: a measured quantity: a number that a run on some machine gave, which another run, tool
#: version or design change moves: rates, wall times, load averages, synthesis counts, mean
#: cycles (a fraction). Exact integer cycle counts are design facts (the protocol's latency),
#: and a bound (``<= 350 LUT``) is a target: neither is a measurement.
MEASURED = re.compile(
    r"(?<![\w.<=≤])(?<!<= )(?<!≤ )(?<!< )(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*"
    r"(?:[kM]?calls/s|calls per second|[kMG]i?B/s|s wall|CPU s|µs/call|(?:LUTs?|FFs?|BRAMs?)\b)"
    r"|(?<![\w.])\d+\.\d+\s*cycles?\b"
    r"|\bload(?: average)?\s+\d+(?:\.\d+)?"
    r"|\b(?:passed|took|in)\s+\d+:\d\d\b")
#: development history in a user document
ISSUE_REF = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)

#: import paths that exist only in the built wheel (pyproject's force-include), not in a checkout
WHEEL_ONLY = {"pushpush.overlays", "pushpush.notebooks", "pushpush._data"}
#: repository paths that exist only in the built wheel or after a build
WHEEL_PATHS = ("pushpush/_data", "pushpush/overlays", "pushpush/notebooks")
FILE_SUFFIXES = {"json", "yaml", "yml", "core", "py", "md", "v", "h", "c", "whl", "bit", "hwh", "tcl",
                 "so", "txt", "ipynb", "sh", "j2", "log", "png", "csv", "toml", "ini", "cfg"}
#: folders that are generated, never committed (.gitignore): not claims about the repository
GENERATED_TOP = {"build", "dist", "sim_build", "out", ".venv", ".venv-pynq4", ".pytest_cache"}


@dataclass(frozen=True)
class Finding:
    """One failed claim: where, what kind, the text, and what to do."""

    file: str
    line: int
    kind: str
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.kind}: {self.text!r}: {self.why}"


# --------------------------------------------------------------------------- the CLI model


@dataclass
class CliModel:
    """The commands and options of ``pushpush``, read from its argparse parser."""

    options: dict[str, set[str]] = field(default_factory=dict)       # command -> option strings
    choices: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    takes_value: dict[tuple[str, str], bool] = field(default_factory=dict)
    experiments: dict[str, set[str]] = field(default_factory=dict)   # bench experiment -> options


def _sub_action(p: argparse.ArgumentParser) -> Optional[argparse._SubParsersAction]:
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            return a
    return None


def _opts(p: argparse.ArgumentParser, key: str, model: CliModel) -> set[str]:
    out: set[str] = set()
    for a in p._actions:
        for s in a.option_strings:
            out.add(s)
            model.takes_value[(key, s)] = a.nargs != 0
            if a.choices is not None:
                model.choices[(key, s)] = {str(c) for c in a.choices}
    return out


@lru_cache(maxsize=1)
def cli_model() -> CliModel:
    from pushpush.cli import build_parser

    model = CliModel()
    top = build_parser()
    model.options[""] = _opts(top, "", model)
    sub = _sub_action(top)
    assert sub is not None
    for name, p in sub.choices.items():
        model.options[name] = _opts(p, name, model)
        nested = _sub_action(p)
        if name == "build":   # --target takes a comma-separated list, checked against this
            from pushpush.build.fusesoc import TARGETS
            for opt in ("--target", "-t"):
                model.choices[("build", opt)] = set(TARGETS)
        if nested is not None:  # bench EXPERIMENT
            for exp, ep in nested.choices.items():
                model.experiments[exp] = _opts(ep, f"{name} {exp}", model)
    return model


_PLACEHOLDER = re.compile(r"^(?:<.*>|[A-Z][A-Z_]*|\.\.\.|\[.*\]|\{.*\}|\$.*)$")
_SHELL_END = {"|", "||", "&&", ";", "&", ">", ">>", "2>", "2>&1", "<", "#", ")"}


def check_command(words: list[str]) -> list[str]:
    """What is wrong with ``pushpush WORDS...`` (a shell-split command line after ``pushpush``)."""
    m = cli_model()
    if not words:
        return []
    cmd = words[0]
    if cmd.startswith("-"):
        return [] if cmd.split("=")[0] in m.options[""] else [f"pushpush has no option {cmd}"]
    if _PLACEHOLDER.match(cmd):
        return []
    if cmd not in m.options:
        return [f"pushpush has no command '{cmd}' (it has: {', '.join(sorted(k for k in m.options if k))})"]
    key = cmd
    allowed = set(m.options[cmd])
    rest = words[1:]
    if cmd == "bench" and m.experiments:
        exp = next((w for w in rest if not w.startswith("-")), None)
        if exp is not None and "|" in exp:
            bad = [e for e in exp.split("|") if e not in m.experiments]
            if bad:
                return [f"pushpush bench has no experiment '{bad[0]}' (it has: {', '.join(m.experiments)})"]
            allowed = allowed.union(*(m.experiments[e] for e in exp.split("|")))
        elif exp is not None and not _PLACEHOLDER.match(exp):
            if exp not in m.experiments:
                return [f"pushpush bench has no experiment '{exp}' (it has: {', '.join(m.experiments)})"]
            key = f"bench {exp}"
            allowed |= m.experiments[exp]
        else:
            allowed = allowed.union(*m.experiments.values())
    problems = []
    for i, w in enumerate(rest):
        if not w.startswith("-") or w in ("-", "--") or re.match(r"^-\d", w):
            continue
        opt, _, value = w.partition("=")
        if opt not in allowed:
            problems.append(f"'pushpush {key}' has no option {opt}")
            continue
        if not value and m.takes_value.get((key, opt), m.takes_value.get((cmd, opt), False)) \
                and i + 1 < len(rest):
            value = rest[i + 1]
        ch = m.choices.get((key, opt)) or m.choices.get((cmd, opt))
        if ch and value and not _PLACEHOLDER.match(value):
            bad = [v for v in re.split(r"[|,]", value) if v and v not in ch and not _PLACEHOLDER.match(v)]
            if bad:
                problems.append(f"'pushpush {key} {opt}' takes {', '.join(sorted(ch))}, not {bad[0]}")
    return problems


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text, comments=True)
    except ValueError:  # an unbalanced quote in prose: fall back to blanks
        return text.split()


def commands_in(code: str) -> Iterator[list[str]]:
    """Each ``pushpush ...`` command line in a piece of code (its words after ``pushpush``)."""
    for m in re.finditer(r"(?:^|(?<=[\s;&|(`$]))(?:python3? -m )?pushpush(?= |$)(?P<rest>[^\n]*)", code):
        start = m.start()
        before = code[max(0, code.rfind("\n", 0, start) + 1):start]
        # only at a command's position: line start, after a shell operator, env assignments,
        # a prompt, 'python -m', or a call of subprocess with a list is not shell: skip quotes
        if before.strip() and not re.search(r"(?:^|[;&|(]|\$\(|\$ |\w+=\S*\s)\s*$", before):
            continue
        words = []
        for w in _split(m.group("rest")):
            if w in _SHELL_END or w.startswith(("#", ">", "|")):
                break
            if w.endswith(")") and "(" not in w:   # the end of a subshell or of a parenthesis
                if w.rstrip(")"):
                    words.append(w.rstrip(")"))
                break
            words.append(w)
        yield words


# --------------------------------------------------------------------------- python paths


def resolve_python(dotted: str) -> Optional[str]:
    """None if ``dotted`` (``pushpush.x.y``) imports or is an attribute of an importable
    module; else why not."""
    if any(dotted == w or dotted.startswith(w + ".") for w in WHEEL_ONLY):
        return None
    parts = dotted.split(".")
    obj = None
    mod_len = 0
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        try:
            obj = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name and (name == e.name or name.startswith(e.name + ".")):
                continue  # this prefix is not a module: try a shorter one
            return f"importing {name} fails: {e}"
        except Exception as e:  # noqa: BLE001 - any import failure is the finding
            return f"importing {name} fails: {type(e).__name__}: {e}"
        mod_len = i
        break
    if obj is None:
        return f"no module {parts[0]}"
    for a in parts[mod_len:]:
        if not hasattr(obj, a):
            try:
                obj = importlib.import_module(f"{obj.__name__}.{a}")  # type: ignore[union-attr]
                continue
            except Exception:  # noqa: BLE001
                return f"{'.'.join(parts[:mod_len])} has no '{a}' (looked up {dotted})"
        obj = getattr(obj, a)
    return None


def python_paths_in(code: str) -> Iterator[str]:
    """Dotted ``pushpush`` paths in code: ``from pushpush.x import a, b`` gives ``pushpush.x.a``
    and ``pushpush.x.b``; ``pushpush.x.y`` itself."""
    for m in re.finditer(r"\bfrom\s+(pushpush(?:\.\w+)*)\s+import\s+\(?([\w ,]+)", code):
        for name in m.group(2).split(","):
            name = name.strip().split(" as ")[0].strip()
            if name and name != "as":
                yield f"{m.group(1)}.{name}"
    for m in re.finditer(r"(?<![\w/.:\-$~\"])pushpush(?:\.[A-Za-z_]\w*)+(?![-\w])", code):
        text = m.group(0)
        if text.rsplit(".", 1)[1] in FILE_SUFFIXES:
            continue  # a file name (pushpush.core), not a Python path
        yield text


# --------------------------------------------------------------------------- repository paths


@lru_cache(maxsize=4)
def _top_level(repo: Path) -> frozenset[str]:
    return frozenset(p.name for p in repo.iterdir() if p.name not in GENERATED_TOP and p.name != ".git")


def _expand_braces(text: str) -> list[str]:
    m = re.search(r"\{([^{}]*,[^{}]*)\}", text)
    if not m:
        return [text]
    return [y for alt in m.group(1).split(",")
            for y in _expand_braces(text[:m.start()] + alt + text[m.end():])]


def repo_path_claim(span: str, repo: Path) -> Optional[str]:
    """The repository path an inline code span claims, or None if it is not one."""
    s = span.strip()
    s = re.sub(r"::[\w\[\]-]+$", "", s)           # a test's node id
    s = re.sub(r":\d+(?:-\d+)?$", "", s)           # file:line
    s = re.sub(r"(?:\s+§.*|\s+\(.*\))$", "", s)
    if not s or re.search(r"[\s<>*$\[\]=~\"']|\.\.\.|^\.|^/|://", s):
        return None
    first = s.split("/", 1)[0]
    if "/" not in s and not re.match(r"^[\w.-]+\.(?:md|toml|sh)$", s):
        return None
    if first not in _top_level(repo):
        return None
    if any(re.match(r"^[A-Z]{2,}(?:_|\.py$|$)", part) for part in s.split("/")):
        return None                                  # a placeholder: experiments/NAME.py, NN_name.py
    if s.startswith(WHEEL_PATHS):
        return None
    return s


def path_exists(claim: str, repo: Path) -> bool:
    return all((repo / p.rstrip("/")).exists() for p in _expand_braces(claim))


# --------------------------------------------------------------------------- environment


@lru_cache(maxsize=1)
def c_macros() -> frozenset[str]:
    """``PUSHPUSH_*`` macros the C templates and runtime define (not environment variables)."""
    out = set()
    for d in ("templates/c", "c/runtime"):
        for p in (REPO / d).rglob("*"):
            if p.is_file():
                out |= set(re.findall(r"#define\s+(PUSHPUSH_\w+)", p.read_text(encoding="utf-8", errors="replace")))
    return frozenset(out)


def env_name_ok(name: str) -> bool:
    from pushpush.envvars import PREFIXES, known

    name = name.rstrip("_") if name.endswith("_") and name + "<KIND>" in PREFIXES.values() else name
    return known(name) or name in c_macros() or name in PREFIXES or \
        name + "_" in PREFIXES or name + "_<KIND>" in PREFIXES.values()


# --------------------------------------------------------------------------- Markdown


@dataclass
class Line:
    """A line of a document with its code parts (inline spans, or the whole line in a block)."""

    no: int
    text: str
    in_block: bool
    marked: bool  # inside a block marked as an example run or a results copy
    shell: bool = True  # in a block: one of shell commands (sh, console, no language)


def lines_of(text: str) -> Iterator[Line]:
    """The lines of Markdown ``text`` with whether they are code and whether they are marked.

    A marker comment covers the paragraph after it and the tables and fenced blocks that
    follow, up to the next paragraph of prose (or heading) after a blank line."""
    fence: Optional[str] = None
    shell = True
    marked = False
    seen_content = False
    prev_blank = False
    for no, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if fence is None and (EXAMPLE_RUN.search(raw) or RESULTS.search(raw)):
            marked, seen_content, prev_blank = True, False, False
            yield Line(no, raw, False, True)
            continue
        m = re.match(r"^\s*(```+|~~~+)", raw)
        if fence is None and marked and seen_content and prev_blank and stripped \
                and not m and not stripped.startswith("|"):
            marked = False   # a new paragraph of prose: the marked block has ended
        if m:
            if fence is None:
                fence = m.group(1)
                lang = stripped[len(fence):].strip().lower()
                shell = lang in ("", "sh", "bash", "shell", "console", "zsh", "text")
                seen_content, prev_blank = True, False
                yield Line(no, raw, False, marked)
                continue
            if stripped.startswith(fence):
                fence = None
                yield Line(no, raw, False, marked)
                continue
        if fence is None:
            prev_blank = not stripped
        if stripped:
            seen_content = True
        yield Line(no, raw, fence is not None, marked, shell)


def _spans(text: str) -> list[str]:
    return [m.group(2) for m in re.finditer(r"(`+)(.+?)\1", text)]


def _repo_command(cmd: str, repo: Path) -> bool:
    """``./bootstrap.sh MODE`` with a mode bootstrap.sh has, or ``[python] scripts/...`` naming
    a script that exists, each of ``;``-separated commands."""
    boot = (repo / "bootstrap.sh").read_text() if (repo / "bootstrap.sh").is_file() else ""
    modes = set(re.findall(r"^\s*([a-z0-9]+)\)", boot, re.M))
    for part in (p.split() for p in cmd.split(";")):
        if part and part[0] == "./bootstrap.sh" and len(part) == 2 and part[1] in modes:
            continue
        words = part[1:] if part and part[0].startswith("python") else part
        if words and words[0].startswith("scripts/") and (repo / words[0]).is_file():
            continue
        return False
    return True


def _marker_problems(line: Line, repo: Path) -> Iterator[str]:
    m = EXAMPLE_RUN.search(line.text)
    if m:
        cmd = m.group("cmd")
        found = list(commands_in(cmd))
        if not found and not _repo_command(cmd, repo):
            yield (f"an example run names its command: '<!-- example run: pushpush ... -->' (or "
                   f"./bootstrap.sh MODE, or a script of the repository), not {cmd!r}")
        for words in found:
            yield from check_command(words)
    m = RESULTS.search(line.text)
    if m and not (repo / m.group("path")).exists():
        yield f"the results file {m.group('path')} does not exist"


def check_text(text: str, rel: str, base: Path, repo: Path = REPO, *, user_doc: bool = True) -> list[Finding]:
    """Every failed claim in Markdown ``text`` (the file ``rel``, relative links from ``base``)."""
    out: list[Finding] = []

    def add(no: int, kind: str, what: str, why: str) -> None:
        out.append(Finding(rel, no, kind, what, why))

    for ln in lines_of(text):
        for why in _marker_problems(ln, repo):
            add(ln.no, "marker", ln.text.strip(), why)
        code = [ln.text] if ln.in_block else _spans(ln.text)
        prose = "" if ln.in_block else re.sub(r"(`+)(.+?)\1", " ", ln.text)
        # commands and options
        for piece in code:
            output = ln.in_block and (ln.marked or not ln.shell)
            for words in ([] if output else commands_in(piece)):
                for why in check_command(words):
                    add(ln.no, "command", "pushpush " + " ".join(words), why)
            for dotted in python_paths_in(piece):
                why = resolve_python(dotted)
                if why:
                    add(ln.no, "python", dotted, why)
            if not ln.in_block:
                claim = repo_path_claim(piece, repo)
                if claim and not path_exists(claim, repo):
                    add(ln.no, "path", claim, "no such file or folder in the repository")
        # links
        if not ln.in_block:
            for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", prose):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                    continue
                path = target.split("#", 1)[0]
                if path and not (base / path).exists():
                    add(ln.no, "link", target, f"no such file (relative to {base.relative_to(repo) if base.is_relative_to(repo) else base})")
        # environment variables
        for name in re.findall(r"\bPUSHPUSH_[A-Z0-9_]+(?:<KIND>)?", ln.text):
            if not env_name_ok(name.replace("<KIND>", "")):
                add(ln.no, "env", name, "pushpush reads no such variable (pushpush/envvars.py lists "
                                        "them; docs/environment.md)")
        if user_doc:
            for m in ISSUE_REF.finditer(ln.text):
                add(ln.no, "history", m.group(0), "development history belongs in docs/dev/, not in a "
                                                  "user document")
            if not ln.marked:
                for m in MEASURED.finditer(ln.text):
                    add(ln.no, "number", m.group(0), "a measured number outside a block marked "
                                                     "'<!-- example run: COMMAND -->' or "
                                                     "'<!-- results: FILE -->' (docs/dev/docs-claims.md)")
    return out


def markdown_of_notebook(path: Path) -> str:
    """The notebook's Markdown cells, one after another (line numbers are within that text)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
             for c in nb.get("cells", []) if c.get("cell_type") == "markdown"]
    return "\n\n".join(cells)


def check_file(path: Path, repo: Path = REPO, *, user_doc: bool = True) -> list[Finding]:
    rel = str(path.relative_to(repo)) if path.is_relative_to(repo) else str(path)
    if path.suffix == ".ipynb":
        text = markdown_of_notebook(path)
    else:
        text = path.read_text(encoding="utf-8")
    return check_text(text, rel, path.parent, repo, user_doc=user_doc)


def user_documents(repo: Path = REPO) -> list[Path]:
    """README.md, docs/*.md (not docs/dev/), pynq_overlays/README.md, the notebooks."""
    docs = [repo / "README.md", repo / "pynq_overlays" / "README.md"]
    docs += sorted((repo / "docs").glob("*.md"))
    docs += sorted((repo / "notebooks").glob("*.ipynb"))
    return [p for p in docs if p.exists()]


def contributor_documents(repo: Path = REPO) -> list[Path]:
    """docs/dev/*.md and docs/architecture.md: history and measurements allowed there."""
    return sorted((repo / "docs" / "dev").glob("*.md"))


def check_all(paths: Iterable[Path], repo: Path = REPO) -> list[Finding]:
    out: list[Finding] = []
    for p in paths:
        out += check_file(p, repo)
    return out
