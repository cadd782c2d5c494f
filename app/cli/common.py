"""Shared pieces of the command line: errors, the registry and store, JSON output."""

from __future__ import annotations

import argparse
import io
import json
import math
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.rules.inputs import control_problem, escape_controls

if TYPE_CHECKING:
    from app.core.roster import Roster
    from app.rules.registry import Registry

Handler = Callable[[Any], int]


class LateParser(argparse.ArgumentParser):
    """A command's parser whose ``late`` arguments are added only when that command is
    parsed (or its help shown): arguments that ask every engine (the conditions a side may
    start a battle under) cost nothing to the commands beside it."""

    late: Callable[[argparse.ArgumentParser], None] | None = None

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self.late is not None:
            late, self.late = self.late, None
            late(self)
        return super().parse_known_args(args, namespace)


class CliError(Exception):
    """A failure to report in one line; ``code`` is the exit status (1 input, 2 usage)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


#: Largest id the store can hold (SQLite's INTEGER).
MAX_ID = 2**63 - 1
#: Bound of a coordinate or distance typed on the command line: far beyond any table.
MAX_COORD = 1_000_000.0
#: Bound of a count typed on the command line (steps, rings, hits, ...).
MAX_SMALL = 1_000_000


_NUMBER = re.compile(r"[+-]?[0-9_]*\.?[0-9_]*([eE][+-]?[0-9_]+)?")


def number(
    what: str, low: float, high: float, *, whole: bool = True
) -> Callable[[str], int | float]:
    """An argparse ``type`` for a bounded number: a whole number (``whole``) or a finite
    decimal. A value out of range, NaN, infinity or a number of thousands of digits raises
    :class:`CliError` (exit 1, one line), which argparse lets through to :func:`main`: it
    is bad input, not bad usage. Text that is no number at all is a usage error (exit 2)."""

    def parse(text: str) -> int | float:
        shown = text if len(text) <= 24 else text[:20] + "..."
        bad = control_problem(what, text)
        if bad:
            raise CliError(bad)
        if len(text) > 40:
            if _NUMBER.fullmatch(text.strip()):
                raise CliError(f"{what}: a number of {len(text.strip()):,} characters is too large")
            raise argparse.ArgumentTypeError(f"not a number: {shown!r}")
        try:
            number_value = float(text)
        except ValueError:
            kind = "a whole number" if whole else "a number"
            # not a number at all: a usage error (exit 2), as argparse's own types give
            raise argparse.ArgumentTypeError(f"expected {kind}, not {shown!r}") from None
        value: int | float = number_value
        if whole:
            try:
                value = int(text)
            except ValueError:  # NaN, infinity, 2.5: a number, but not a whole one
                raise CliError(f"{what} must be a whole number, not {shown!r}") from None
        if not math.isfinite(value):
            raise CliError(f"{what} must be a finite number, not {shown!r}")
        if not low <= value <= high:
            raise CliError(f"{what} {_n(value)} is out of range ({_n(low)} to {_n(high)})")
        return value

    parse.__name__ = "whole number" if whole else "number"
    return parse


def _n(value: float) -> str:
    """``1,000,000`` rather than ``1e+06``."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def os_error_text(exc: OSError) -> str:
    """``/tmp/x: No such file or directory`` rather than ``[Errno 2] ...``."""
    if exc.strerror and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror}"
    return exc.strerror or str(exc)


_registry: Registry | None = None


def registry() -> Registry:
    """The rulesets, each loaded when first asked for (``castra odds quincunx`` reads one
    folder); failures are reported on stderr once every folder has been read."""
    global _registry
    if _registry is None:
        from app.paths import cache_dir, user_rulesets_dir
        from app.rules.registry import BUILTIN_DIR, LazyRegistry
        from app.rulesets import find_engine

        def warn(reg: Registry) -> None:
            for key, err in sorted(reg.failures.items()):
                print(f"castra: warning: ruleset {key}: {err.first}", file=sys.stderr)

        _registry = LazyRegistry(
            find_engine, BUILTIN_DIR, [user_rulesets_dir()], on_load=warn, cache_dir=cache_dir()
        )
    return _registry


#: the stores this command opened, closed when it ends (:func:`close_stores`)
_OPENED: list[Any] = []


def store() -> Any:
    """Open the store (CASTRA_DB or the user data folder), migrating it if needed; it is
    closed when the command ends."""
    from app.usecases.access import StoreError, open_store

    try:
        opened = open_store()
    except StoreError as exc:
        raise CliError(str(exc)) from None
    _OPENED.append(opened)
    return opened


def find_stored(st: Any, key: str, *, include_deleted: bool = False) -> int:
    """The id of the stored roster ``key`` names (an id or a name)."""
    from app.usecases.roster import find_roster

    try:
        return int(find_roster(st, key=key, include_deleted=include_deleted))
    except LookupError as exc:
        raise CliError(str(exc.args[0]) if exc.args else str(exc)) from None


def close_stores() -> None:
    """Close the stores the command opened: SQLite then folds the ``-wal`` back into the
    file and removes it, where no other process has the store open (a process that exits
    with its connections open leaves the ``-wal`` for the next one to recover)."""
    while _OPENED:
        _OPENED.pop().close()


def resolve_roster(text: str) -> Roster:
    """A ROSTER argument: a roster file when ``text`` names an existing path, else a stored
    roster's id or name, else a ready army (``RULESET:ARMY``, by ids or names:
    ``leg-vi-carthago:roman``, ``"Leg VI: Republican Roman"``; :mod:`app.core.ready`). A
    ``*.json`` path that does not exist is a missing file, not a name to look up."""
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
    from app.core.ready import find_ready, ready_roster
    from app.usecases.roster import find_roster, load_roster

    st = store()
    try:
        return load_roster(st, roster_id=find_roster(st, key=text))
    except LookupError as exc:
        message = str(exc.args[0]) if exc.args else str(exc)
        ready = find_ready(registry(), text)
        if ready is not None:
            return ready_roster(*ready)
        if "/" in text or "\\" in text:  # meant as a path, most likely
            message = f"no roster file {text} (and {message})"
        elif ":" in text:
            message += "; a ready army is RULESET:ARMY (castra armies RULESET lists them)"
        raise CliError(message) from None
    finally:
        st.close()


class EscapingWriter(io.TextIOBase):
    """A text stream that writes through to ``stream`` with control characters escaped
    (:func:`app.rules.inputs.escape_controls`): a roster or unit name holding ESC or BEL,
    stored before Castra refused them or read from a file being refused, cannot move the
    cursor, ring the bell or recolour the user's terminal. Bytes written to ``buffer`` (a
    PDF to standard output) pass unchanged."""

    def __init__(self, stream: Any) -> None:
        super().__init__()
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escape_controls(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    @property
    def buffer(self) -> Any:
        return self._stream.buffer

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self._stream, "encoding", "utf-8"))

    def isatty(self) -> bool:
        return bool(self._stream.isatty())

    def fileno(self) -> int:
        return int(self._stream.fileno())


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
