"""Reading what users hand us, safely: files, text and numbers of any shape.

Every way into Castra (roster files, ruleset folders, later campaign files, command-line
values and the window's forms) uses these helpers, so each kind of hostile input is refused
the same way, with one line that names what is wrong:

- only regular files are read, and at most ``limit + 1`` bytes of them (``st_size`` is 0 for
  a device or a pipe: ``/dev/zero`` must not fill the memory, a FIFO must not hang);
- JSON and TOML are parsed with their numbers checked: no NaN or infinity, no integer of
  thousands of digits, no nesting deeper than :data:`MAX_DEPTH`;
- text holds no control characters (ESC, BEL, NUL, DEL, ...), except tab and newline in
  multi-line notes; anything printed to a terminal goes through :func:`escape_controls`.

This module sits at the bottom layer (``app.rules``) so the ruleset loader can use it as well
as the core's roster and campaign files, the store, the command line and the window.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Mapping
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from app.storefiles import is_store_file

#: Deepest nesting of lists and tables a data file may have (ours need 6).
MAX_DEPTH = 32
#: Largest integer magnitude in a data file: far above any count or size we bound, far below
#: what would make arithmetic on it slow (a 5,000-digit integer is refused before parsing).
MAX_INT = 10**15
#: Most digits of a number token (longer ones are refused before Python converts them).
MAX_DIGITS = 40
#: Python's own limit on the digits of an integer it converts from text (``int("9" * 5000)``
#: raises); longer numbers in TOML are refused before parsing, naming the line.
_PY_DIGITS = 4000
#: Longest string in a data file.
MAX_STRING = 100_000

#: Characters that show nothing or turn the text around them: the soft hyphen, zero-width
#: spaces and joiners, the bidirectional marks, embeddings, overrides and isolates (a name
#: holding U+202E reads backwards), the word joiner and invisible operators, the BOM.
_INVISIBLE = (
    "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb"
)
_CONTROLS_LINE = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_INVISIBLE}]")
_CONTROLS_MULTILINE = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{_INVISIBLE}]")


class InputError(ValueError):
    """Input refused; the message is one line naming what is wrong."""


# --------------------------------------------------------------------------- files


def read_regular_file(path: Path, limit: int, *, what: str = "file") -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes; else
    :class:`InputError` saying why. The file is opened without blocking and its type checked
    on the open descriptor (so a FIFO swapped in after a check cannot hang us), and at most
    ``limit + 1`` bytes are read (a size from ``stat`` is 0 for devices and pipes). The
    message does not repeat the path: the caller names the file.

    The files of a store this process has open are refused before they are opened (closing
    a descriptor of one would drop SQLite's locks on it: :func:`refuse_store_file`)."""
    refuse_store_file(path, what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"the {what} is not a regular file (it is {_kind(info.st_mode)})")
        if info.st_size > limit:
            raise InputError(f"the {what} is {info.st_size:,} bytes; it may be at most {limit:,}")
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if total > limit:
        raise InputError(f"the {what} is more than {limit:,} bytes; it may be at most {limit:,}")
    return b"".join(chunks)


def refuse_store_file(path: Path, what: str = "file") -> None:
    """:class:`InputError` if ``path`` is a file of Castra's open store (the database or its
    ``-wal``, ``-shm`` or ``-journal``): it is read and written by SQLite alone, never as a
    roster, a layout or an export."""
    if is_store_file(path):
        raise InputError(
            f"the {what} is Castra's own store ({Path(path).name}), which only Castra's database "
            "may open; choose another file"
        )


class StoreTarget(OSError):
    """A file to be written that is a file of Castra's open store: refused, nothing written
    (an ``OSError``, as every other reason a file cannot be written)."""

    def __str__(self) -> str:
        return str(self.args[0])


def refuse_store_target(path: Path) -> None:
    """:class:`StoreTarget` if writing ``path`` would replace a file of Castra's open store
    (an export saved over ``castra.sqlite3`` would destroy it)."""
    if is_store_file(path):
        raise StoreTarget(
            f"{Path(path).name} is Castra's own store; nothing was written: choose another file"
        )


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a pipe"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a plain file"


def decode_utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start:,})") from None


# --------------------------------------------------------------------------- numbers


def _number_token(token: str) -> None:
    digits = sum(c.isdigit() for c in token)
    if digits > MAX_DIGITS:
        raise InputError(f"a number of {digits:,} digits (at most {MAX_DIGITS} are read)")


def _parse_int(token: str) -> int:
    _number_token(token)
    return int(token)


def _parse_float(token: str) -> float:
    _number_token(token)
    value = float(token)
    if not math.isfinite(value):
        raise InputError(f"{token} is not a finite number")
    return value


def _parse_toml_float(token: str) -> float:
    """TOML's floats, ``inf`` and ``nan`` included: :func:`data_problems` then refuses a
    non-finite one with its key path."""
    _number_token(token)
    return float(token)


def _refuse_constant(token: str) -> float:
    raise InputError(f"{token} is not a number Castra accepts (no NaN or infinity)")


def finite_problem(what: str, value: float, low: float, high: float) -> str | None:
    """Why ``value`` is not a finite number within ``low``-``high``, or None."""
    if not math.isfinite(value):
        return f"{what} must be a finite number, not {value}"
    if not low <= value <= high:
        return f"{what} {value:g} is out of range ({low:g} to {high:g})"
    return None


# --------------------------------------------------------------------------- text


def control_problem(what: str, value: str, *, multiline: bool = False) -> str | None:
    """Why ``value`` cannot be taken as text (it holds a control character: ESC, BEL, NUL,
    DEL, ...; a ``multiline`` text may hold tabs and line breaks), or None."""
    found = (_CONTROLS_MULTILINE if multiline else _CONTROLS_LINE).search(value)
    if found is None:
        return None
    char = found.group()
    if ord(char) > 0x9F:
        return (
            f"{what} holds an invisible or direction-changing character (U+{ord(char):04X} at "
            f"position {found.start() + 1}); only plain visible text is allowed"
        )
    return (
        f"{what} holds a control character (U+{ord(char):04X} at position {found.start() + 1}); "
        "control characters are not allowed"
    )


def escape_controls(text: str) -> str:
    """``text`` safe for a terminal: each control character but tab and newline is shown as
    an escape (``\\x1b``), so a name cannot move the cursor, ring the bell or recolour, and
    each invisible or direction-changing one as ``\\u202e``."""
    return _CONTROLS_MULTILINE.sub(_escaped, text)


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code <= 0xFF and code != 0xAD else f"\\u{code:04x}"


# --------------------------------------------------------------------------- data trees


def data_problems(data: object, *, max_depth: int = MAX_DEPTH) -> list[tuple[str, str]]:
    """``(key path, problem)`` for each value a data file may not hold: nesting deeper than
    ``max_depth``, an integer beyond :data:`MAX_INT`, a non-finite float, a string longer
    than :data:`MAX_STRING` or holding a control character other than tab and newline, a
    date or time (no Castra file has one). Walks without recursion; a value's key path is
    written out only for a problem (every load of a ruleset walks its whole cache)."""
    problems: list[tuple[Any, str]] = []
    # (value, depth, where): ``where`` is None at the top, else (the parent's where, key);
    # a list index is kept as a one-item tuple
    stack: list[tuple[Any, int, Any]] = [(data, 0, None)]
    pop, push = stack.pop, stack.append
    search_text = _CONTROLS_MULTILINE.search
    while stack and len(problems) < 20:
        node, depth, where = pop()
        if depth > max_depth:
            problems.append((where, f"nested more than {max_depth} levels deep"))
            continue
        kind = type(node)
        if kind is str:  # the most common values first, by their exact type
            if len(node) > MAX_STRING or search_text(node):
                problems.append((where, _text_problem(node)))
        elif kind is bool:
            continue
        elif kind is int:
            if abs(node) > MAX_INT:
                problems.append((where, f"the number is too large (at most {MAX_INT:,})"))
        elif isinstance(node, Mapping):
            for key, value in node.items():
                bad = control_problem("a key", key) if isinstance(key, str) else None
                if bad:
                    problems.append((where, bad))
                push((value, depth + 1, (where, key)))
        elif isinstance(node, list | tuple):
            for i, value in enumerate(node):
                push((value, depth + 1, (where, (i,))))
        elif isinstance(node, bool):
            continue
        elif isinstance(node, int):
            if abs(node) > MAX_INT:
                problems.append((where, f"the number is too large (at most {MAX_INT:,})"))
        elif isinstance(node, float):
            if not math.isfinite(node):
                problems.append((where, f"{node} is not a finite number"))
        elif isinstance(node, str):
            if len(node) > MAX_STRING or search_text(node):
                problems.append((where, _text_problem(node)))
        elif isinstance(node, datetime | date | time):
            problems.append((where, "a date or time is not allowed here"))
    out = [(_path(where), problem) for where, problem in problems]
    out.sort()
    return out


def _text_problem(text: str) -> str:
    if len(text) > MAX_STRING:
        return f"text of {len(text):,} characters (at most {MAX_STRING:,})"
    return control_problem("the text", text, multiline=True) or ""


def _path(where: Any) -> str:
    """The key path (``a.b[0].c``) of a value's ``where`` in :func:`data_problems`."""
    keys: list[Any] = []
    while where is not None:
        where, key = where
        keys.append(key)
    path = ""
    for key in reversed(keys):
        index = type(key) is tuple
        path = f"{path}[{key[0]}]" if index else f"{path}.{key}" if path else str(key)
    return path


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the JSON text, refusing a key given twice (JSON keeps the last one
    silently: a value the writer meant may be lost unseen)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                shown = escape_controls(key[:40]) + ("..." if len(key) > 40 else "")
                raise InputError(f'the key "{shown}" is given twice in one object')
            seen.add(key)
    return obj


def loads_json(text: str) -> Any:
    """Parse JSON refusing NaN and infinity, numbers of more than :data:`MAX_DIGITS` digits,
    a key given twice in one object and nesting too deep for the parser (:class:`InputError`
    with one line); the caller checks the tree with :func:`data_problems`."""
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise InputError("nested too deeply") from None
    except ValueError as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"not valid JSON: {exc}") from None


def loads_toml(text: str) -> dict[str, Any]:
    """Parse TOML refusing numbers too long to convert (tomllib converts integers of any
    length); NaN, infinity and big numbers parse, and :func:`data_problems` then refuses them
    with their key path."""
    long = re.search(r"(?<![0-9A-Za-z_])[0-9][0-9_]{" + str(_PY_DIGITS) + r",}", text)
    if long is not None:
        line = text.count("\n", 0, long.start()) + 1
        raise InputError(
            f"line {line}: a number of {len(long.group()):,} digits is too large to read"
        )
    import tomllib  # only when TOML is read: a cached ruleset needs none

    try:
        return tomllib.loads(text, parse_float=_parse_toml_float)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise InputError("nested too deeply") from None
    except ValueError as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"not valid TOML: {exc}") from None
