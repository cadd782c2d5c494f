"""Errors raised while loading a ruleset: each names the file, the key path and the problem."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a ruleset file."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: {self.message}"


class RulesetError(Exception):
    """A ruleset folder could not be loaded. ``problems`` lists every problem found."""

    def __init__(self, ruleset: str, problems: Sequence[Problem]) -> None:
        self.ruleset = ruleset
        self.problems = tuple(problems)
        lines = "\n".join(f"  {p}" for p in self.problems[:20])
        more = len(self.problems) - 20
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(f"ruleset {ruleset!r} did not load:\n{lines}{tail}")

    @property
    def first(self) -> Problem:
        return self.problems[0]


def key_path(loc: Sequence[int | str]) -> str:
    """Format a pydantic error location as ``armies.roman.entries.hastati.sizes[0]``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
