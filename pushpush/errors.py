"""Diagnostics: errors in user input, each pointing at ``file:line:column``.

Loading and linking a system collect every problem they find as a :class:`Diagnostic`
and then raise one :class:`SpecError` (or its subclass :class:`LinkError`) holding them
all, so the user sees every mistake at once. ``str()`` of the exception is one line per
diagnostic, in the usual compiler format ``file:line:column: message``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, Sequence

__all__ = [
    "Location",
    "Diagnostic",
    "PushPushError",
    "SpecError",
    "LinkError",
    "SystemMapError",
    "did_you_mean",
]


@dataclass(frozen=True, order=True)
class Location:
    """A position in an input file; ``line`` and ``column`` are 1-based."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem in the user's input: where it is and what to do about it."""

    file: str
    line: int
    column: int
    message: str

    @classmethod
    def at(cls, loc: Location, message: str) -> "Diagnostic":
        return cls(loc.file, loc.line, loc.column, message)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class PushPushError(Exception):
    """Base class of the errors pushpush reports to users (never a traceback)."""


class SpecError(PushPushError):
    """A system description is invalid; holds every :class:`Diagnostic` found."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.diagnostics)


class LinkError(SpecError):
    """The system is well formed but cannot be linked (windows, regions, slots)."""


class SystemMapError(PushPushError):
    """A system map (JSON) is malformed or of an unsupported schema version."""


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """Return ``"; did you mean 'x'?"`` for the closest candidate, or ``""``."""
    pool = sorted(set(candidates))
    matches = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not matches and len(word) >= 3:
        matches = [c for c in pool if c.startswith(word)][:1]
    return f"; did you mean '{matches[0]}'?" if matches else ""
