"""The self-check's record: one :class:`Check` per thing checked, the :class:`Report` of a run
(markdown for a person or a bug report, JSON for a program), its exit status, and
:func:`run_check`, which runs one check with a deadline.

A check passes, fails (with what went wrong) or is skipped (only when the thing it needs is
truly absent, e.g. no C compiler; the reason says what to install). :func:`run_check` turns
what a check function does into its :class:`Check`: returning a text passes with that
detail, raising :class:`Skip` skips, any other exception fails with its type and message,
and a check still running at its deadline fails with what the other side was doing (the
check's ``doing`` function).

>>> r = Report(environment={"python": "3.11.2"})
>>> r.add(Check("image.python", "pass", "Python 3.11.2"))
>>> r.add(Check("c.compiler", "skip", "no C compiler: apt-get install gcc"))
>>> r.exit_status(), r.counts()
(3, {'pass': 1, 'fail': 0, 'skip': 1})
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Optional

__all__ = ["Check", "Report", "Skip", "CheckTimeout", "run_check", "STATUSES", "EXIT_ALL_PASSED",
           "EXIT_FAILED", "EXIT_SKIPPED"]

STATUSES = ("pass", "fail", "skip")
#: exit status of ``pushpush selfcheck``: every check passed / one failed / none failed but
#: some were skipped (something is not there: the report says what to install)
EXIT_ALL_PASSED = 0
EXIT_FAILED = 1
EXIT_SKIPPED = 3


class Skip(Exception):
    """Raised by a check whose subject is not there; the message says why and what to install."""


class CheckTimeout(TimeoutError):
    """A check did not finish by its deadline; the message says what the other side was doing."""


@dataclass
class Check:
    """One check: ``name`` (``group.what``), ``status`` (pass/fail/skip), ``detail`` (what was
    seen, why it failed, or why it was skipped), ``seconds`` it took."""

    name: str
    status: str
    detail: str = ""
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"check {self.name}: status {self.status!r}, use one of {', '.join(STATUSES)}")


@dataclass
class Report:
    """The checks of one run, in order, and the environment they ran in."""

    environment: dict[str, Any] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)

    def add(self, check: Check) -> Check:
        self.checks.append(check)
        return check

    def counts(self) -> dict[str, int]:
        return {s: sum(c.status == s for c in self.checks) for s in STATUSES}

    @property
    def ok(self) -> bool:
        """No check failed (skipped ones are listed with why)."""
        return not any(c.status == "fail" for c in self.checks)

    def exit_status(self) -> int:
        """0 every check passed, 1 a check failed, 3 none failed but some were skipped."""
        n = self.counts()
        return EXIT_FAILED if n["fail"] else EXIT_SKIPPED if n["skip"] else EXIT_ALL_PASSED

    def summary(self) -> str:
        """One line: the counts and the verdict."""
        n = self.counts()
        verdict = ("FAILED: " + ", ".join(c.name for c in self.checks if c.status == "fail")
                   if n["fail"] else
                   "passed, some skipped: " + ", ".join(c.name for c in self.checks if c.status == "skip")
                   if n["skip"] else "all passed")
        return f"selfcheck: {n['pass']} passed, {n['fail']} failed, {n['skip']} skipped: {verdict}"

    def to_json(self) -> str:
        return json.dumps({"ok": self.ok, "exit_status": self.exit_status(), "counts": self.counts(),
                           "environment": self.environment,
                           "checks": [asdict(c) for c in self.checks]}, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "Report":
        data = json.loads(text)
        return cls(environment=dict(data.get("environment", {})),
                   checks=[Check(**c) for c in data.get("checks", [])])

    def to_markdown(self) -> str:
        mark = {"pass": "pass", "fail": "**FAIL**", "skip": "skipped"}
        lines = ["# pushpush self-check", "", self.summary(), "", "## Environment", "",
                 "| what | value |", "| --- | --- |"]
        lines += [f"| {k} | {_cell(v)} |" for k, v in self.environment.items()]
        lines += ["", "## Checks", "", "| check | result | seconds | detail |", "| --- | --- | ---: | --- |"]
        lines += [f"| {c.name} | {mark[c.status]} | {c.seconds:.2f} | {_cell(c.detail)} |"
                  for c in self.checks]
        return "\n".join(lines) + "\n"


def _cell(v: Any) -> str:
    return str(v).replace("|", "\\|").replace("\n", "<br>")


def run_check(name: str, fn: Callable[[], Optional[str]], *, timeout: float,
              doing: Optional[Callable[[], str]] = None) -> Check:
    """Run ``fn`` (see the module docstring) in a thread with a deadline of ``timeout`` s.

    At the deadline the check fails with ``doing()`` (what the other side was doing); the
    thread is left behind (a daemon: it cannot be stopped from outside), so the caller must
    stop using what it was touching."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["detail"] = fn() or ""
        except BaseException as e:  # noqa: BLE001 - every failure is reported, none escapes
            box["error"] = e

    t0 = time.monotonic()
    th = threading.Thread(target=work, name=f"selfcheck-{name}", daemon=True)
    th.start()
    th.join(timeout)
    secs = time.monotonic() - t0
    if th.is_alive():
        other = ""
        if doing is not None:
            try:
                other = doing()
            except Exception as e:  # noqa: BLE001
                other = f"(could not tell: {type(e).__name__}: {e})"
        return Check(name, "fail", f"no answer within {timeout:g} s" + (f"; {other}" if other else ""),
                     secs)
    e = box.get("error")
    if e is None:
        return Check(name, "pass", str(box["detail"]), secs)
    if isinstance(e, Skip):
        return Check(name, "skip", str(e), secs)
    return Check(name, "fail", f"{type(e).__name__}: {e}", secs)
