"""Every claim a user document makes about the code holds (tests/docs/docclaims.py finds them).

The documents: README.md, docs/*.md, pynq_overlays/README.md, the notebooks' Markdown; the
contributors' documents (docs/architecture.md, docs/dev/) are checked too, except for
development history and measured numbers, which belong there. The negative tests put each
kind of mistake the issue that introduced this test found into a copy of a document and show
that it is caught, with its file and line.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from docclaims import (REPO, check_command, check_file, contributor_documents, user_documents)

#: documents for contributors: commands, paths, links, variables and imports are checked;
#: history ("issue N") and measurements belong here
CONTRIBUTORS = {"docs/architecture.md", "docs/contributing.md"}

#: Findings the lead's rewrite of README.md removes (issue 44 item 1, being done beside this
#: test): pinned so that the test passes meanwhile, fails on any new finding, and fails once
#: one of these is fixed, so the list only shrinks. Empty it with the rewrite.
PENDING: dict[str, set[tuple[int, str, str]]] = {}


def _rel(p: Path) -> str:
    return str(p.relative_to(REPO))


@pytest.mark.parametrize("doc", user_documents() + contributor_documents(), ids=_rel)
def test_document_claims_hold(doc: Path) -> None:
    rel = _rel(doc)
    user = rel not in CONTRIBUTORS and not rel.startswith("docs/dev/")
    found = check_file(doc, user_doc=user)
    got = {(f.line, f.kind, f.text) for f in found}
    pending = PENDING.get(rel, set())
    new = [str(f) for f in found if (f.line, f.kind, f.text) not in pending]
    assert not new, "claims that do not hold:\n" + "\n".join(new)
    fixed = sorted(pending - got)
    assert not fixed, f"{rel}: fixed (or moved): remove from PENDING in {__file__}: {fixed}"


def test_every_notebook_is_named_in_the_pynq_guide() -> None:
    """docs/pynq.md lists the shipped notebooks; a new one is listed too."""
    text = (REPO / "docs" / "pynq.md").read_text(encoding="utf-8")
    missing = [p.stem for p in sorted((REPO / "notebooks").glob("*.ipynb")) if p.stem not in text]
    assert not missing, f"docs/pynq.md does not name the notebooks {missing}"


def test_the_marker_convention_is_documented() -> None:
    """The findings' messages send contributors to docs/dev/docs-claims.md: it explains both markers."""
    text = (REPO / "docs" / "dev" / "docs-claims.md").read_text(encoding="utf-8")
    assert "<!-- example run: " in text and "<!-- results: " in text


# --------------------------------------------------------------------------- on copies


@pytest.fixture
def repo_copy(tmp_path: Path) -> Path:
    """A repository whose docs/ and README.md are copies (everything else linked)."""
    root = tmp_path / "repo"
    root.mkdir()
    for entry in REPO.iterdir():
        if entry.name in ("docs", "README.md", ".git"):
            continue
        os.symlink(entry, root / entry.name)
    (root / "docs").mkdir()
    for p in (REPO / "docs").iterdir():
        if p.is_file():
            (root / "docs" / p.name).write_bytes(p.read_bytes())
    (root / "README.md").write_bytes((REPO / "README.md").read_bytes())
    return root


def _inject(doc: Path, text: str) -> int:
    """Append ``text`` (one paragraph) to ``doc``; returns the line number of its first line."""
    old = doc.read_text(encoding="utf-8")
    if not old.endswith("\n"):
        old += "\n"
    doc.write_text(old + "\n" + text + "\n", encoding="utf-8")
    return old.count("\n") + 2


MISTAKES: dict[str, tuple[str, str, str | list[str]]] = {
    # the list: docs/pynq.md linked docs/benchmarks.md (absent) ...
    "absent link": ("See [the benchmarks](benchmarks.md).", "link", "benchmarks.md"),
    "absent path": ("The numbers are in `docs/benchmarks.md`.", "path", "docs/benchmarks.md"),
    # ... and named `pushpush stub` (it is `generate --stub`)
    "absent command": ("Start with `pushpush stub adder`.", "command", "pushpush stub adder"),
    "wrong option": ("Run `pushpush run --simulator icarus examples/pingpong`.", "command",
                     "pushpush run --simulator icarus examples/pingpong"),
    "wrong choice": ("```sh\npushpush run --sim questa examples/pingpong\n```", "command",
                     "pushpush run --sim questa examples/pingpong"),
    "wrong build target": ("`pushpush build examples/pingpong --target lint,vivado`", "command",
                           "pushpush build examples/pingpong --target lint,vivado"),
    "absent experiment": ("`pushpush bench latency --quick`", "command", "pushpush bench latency --quick"),
    "option of another experiment": ("`pushpush bench simspeed --executor slurm`", "command",
                                     "pushpush bench simspeed --executor slurm"),
    "bogus variable": ("Set `PUSHPUSH_SIMULATOR=verilator`.", "env", "PUSHPUSH_SIMULATOR"),
    "bad import": ("```python\nfrom pushpush.runtime import Runtime\n```", "python",
                   "pushpush.runtime.Runtime"),
    "bad module": ("The shell is `pushpush.codegen.chnl.channel_shell`.", "python",
                   "pushpush.codegen.chnl.channel_shell"),
    # the README's c -> rtl numbers, given as facts
    "unmarked number": ("A c -> rtl call takes 10.5 cycles: 488 calls/s.", "number", ["10.5 cycles", "488 calls/s"]),
    "history": ("This was fixed in issue 28.", "history", "issue 28"),
    "marker without a command": ("<!-- example run: on my laptop -->\n```\n488 calls/s\n```", "marker",
                                 "<!-- example run: on my laptop -->"),
    "marker with a bad command": ("<!-- example run: pushpush bench calls --fast -->\n```\n488 calls/s\n```",
                                  "marker", "<!-- example run: pushpush bench calls --fast -->"),
    "marker with a bootstrap mode it lacks": ("<!-- example run: ./bootstrap.sh speedtest -->\n```\n488 calls/s\n```",
                                              "marker", "<!-- example run: ./bootstrap.sh speedtest -->"),
    "marker with an absent script": ("<!-- example run: python scripts/fast.py -->\n```\n488 calls/s\n```",
                                     "marker", "<!-- example run: python scripts/fast.py -->"),
    "results marker, absent file": ("<!-- results: benchmarks/results/latency.md -->\n| a | 488 calls/s |",
                                    "marker", "<!-- results: benchmarks/results/latency.md -->"),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_mistake_is_caught_with_its_file_and_line(repo_copy: Path, mistake: str) -> None:
    text, kind, shown = MISTAKES[mistake]
    doc = repo_copy / "docs" / "pynq.md"
    assert check_file(doc, repo_copy) == [], "the copy starts clean"
    line = _inject(doc, text)
    found = check_file(doc, repo_copy)
    shown_all = shown if isinstance(shown, list) else [shown]
    assert [(f.file, f.kind, f.text) for f in found] == [("docs/pynq.md", kind, t) for t in shown_all], found
    assert line <= found[0].line <= line + text.count("\n")
    assert str(found[0]).startswith(f"docs/pynq.md:{found[0].line}: {kind}: ")


@pytest.mark.parametrize("text", [
    "<!-- example run: pushpush bench calls --smoke -->\n```\nc -> rtl   230.2 cycles   64 calls/s\n```",
    "<!-- results: benchmarks/results/calls.md -->\n| c -> rtl | 202.00 | 11 calls/s |",
    "<!-- example run: ./bootstrap.sh test; ./bootstrap.sh tier2 -->\n| pytest | 2,303 passed in 9:51 |",
    "<!-- example run: python scripts/mutation/run_mutation.py --listed -->\n```\n4.5 mutants a second\n```",
    "Each word takes 1 cycle; the callee answers in 6 cycles (exact, from the protocol).",
    "A component stays within <= 350 LUT.",
    "```sh\npushpush generate . --stub adder -o rtl   # the skeleton\npushpush bench calls|scaling --executor slurm\n```",
    "See [the system map](system-map.md#fields), `pushpush/apps.py:42` and `pushpush.apps.open_system`.",
    "`PUSHPUSH_RESOURCES_VIVADO=cpus=8` and the C macro `PUSHPUSH_STATUS_OK`.",
])
def test_what_is_right_is_not_flagged(repo_copy: Path, text: str) -> None:
    doc = repo_copy / "docs" / "pynq.md"
    _inject(doc, text)
    assert check_file(doc, repo_copy) == []


def test_a_marker_covers_its_block_and_no_further(repo_copy: Path) -> None:
    doc = repo_copy / "docs" / "pynq.md"
    line = _inject(doc, "<!-- example run: pushpush bench calls -->\n```\n64 calls/s\n```\n"
                        "| then | 65 calls/s |\n\nA later paragraph: 66 calls/s.")
    found = check_file(doc, repo_copy)
    assert [(f.line - line, f.text) for f in found] == [(6, "66 calls/s")]


def test_the_command_check_reads_the_real_parser() -> None:
    assert check_command(["generate", ".", "--stub", "adder"]) == []
    assert check_command(["stub"])[0].startswith("pushpush has no command 'stub'")
    assert check_command(["bench", "dma", "--smoke"]) == []
    assert check_command(["bench", "dma", "--quick"]) == ["'pushpush bench dma' has no option --quick"]
    assert check_command(["run", "--sim", "icarus|verilator", "."]) == []


def test_the_scaffolded_readme_holds_too(tmp_path: Path) -> None:
    """`pushpush init`'s README is the user's first document: its commands, options, imports
    and paths (relative to the scaffolded folder) hold as well."""
    from pushpush.scaffold import scaffold

    scaffold(tmp_path / "demo")
    found = check_file(tmp_path / "demo" / "README.md", tmp_path / "demo")
    assert found == [], "\n".join(map(str, found))
