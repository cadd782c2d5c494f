"""Shared pieces of the command line: errors, the registry and store, JSON output."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.rules.registry import Registry

if TYPE_CHECKING:
    from app.core.roster import Roster

Handler = Callable[[Any], int]


class CliError(Exception):
    """A failure to report in one line; ``code`` is the exit status (1 input, 2 usage)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def os_error_text(exc: OSError) -> str:
    """``/tmp/x: No such file or directory`` rather than ``[Errno 2] ...``."""
    if exc.strerror and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror}"
    return exc.strerror or str(exc)


_registry: Registry | None = None


def registry() -> Registry:
    """The rulesets, loaded once per run; failures are reported on stderr."""
    global _registry
    if _registry is None:
        from app.paths import load_registry

        _registry = load_registry()
        for line in _registry.failure_lines():
            print(f"castra: warning: ruleset {line}", file=sys.stderr)
    return _registry


def store() -> Any:
    """Open the store (CASTRA_DB or the user data folder), migrating it if needed."""
    from app.store import StoreError, open_store

    try:
        return open_store()
    except StoreError as exc:
        raise CliError(str(exc)) from None


def resolve_roster(text: str) -> Roster:
    """A ROSTER argument: a roster file when ``text`` names an existing path, else a stored
    roster's id or name. A ``*.json`` path that does not exist is a missing file, not a name
    to look up in the store."""
    from app.core.rosterfile import RosterFileError, read_file

    path = Path(text)
    try:
        exists = path.exists()
    except OSError:  # e.g. a long roster name is too long for a file name
        exists = False
    if exists:
        if not path.is_file():
            raise CliError(f"{text} is not a roster file")
        try:
            return read_file(path, registry())
        except RosterFileError as exc:
            raise CliError(str(exc)) from None
    if path.suffix.lower() == ".json":
        raise CliError(f"no roster file {text}: no such file")
    from app.store import find_roster, load_roster

    st = store()
    try:
        return load_roster(st, roster_id=find_roster(st, key=text))
    except LookupError as exc:
        message = str(exc.args[0]) if exc.args else str(exc)
        if "/" in text or "\\" in text:  # meant as a path, most likely
            message = f"no roster file {text} (and {message})"
        raise CliError(message) from None
    finally:
        st.close()


def print_json(obj: object) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def table(rows: Sequence[Sequence[object]], header: Sequence[str]) -> str:
    """A plain text table, columns padded; numbers right-aligned."""
    cells = [[str(h) for h in header]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    numeric = [all(_is_num(r[i]) for r in rows) and bool(rows) for i in range(len(header))]
    out = []
    for n, row in enumerate(cells):
        parts = [
            c.rjust(w) if numeric[i] and n > 0 else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        out.append("  ".join(parts).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _is_num(value: object) -> bool:
    if isinstance(value, str):
        return value == "-" or value.replace(",", "").isdigit()
    return value is None or isinstance(value, int | float)


def fmt(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"
