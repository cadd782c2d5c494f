"""The compiled code of the methods :mod:`dataclasses` writes, kept from one start of the
window to the next.

``dataclasses`` writes a class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` as Python source and compiles it as the class is made
(``exec`` of a string, one a method on Python 3.11 and 3.12). The window's start makes some
fifty dataclasses: about 300 compilations, an eighth of the instructions of a start. While
:func:`start` is in effect, the name ``exec`` inside ``dataclasses`` is :func:`_exec`, which
runs the code an earlier start compiled from the very same source, read from
``<data folder>/cache/``; source it has not seen is compiled as ``exec`` compiles it (the
file name ``<string>``, no ``__future__`` flag, the interpreter's optimisation level), so a
class is made exactly as it would be without the file. :func:`finish`, once the roster is
open, puts ``exec`` back and writes what this start used if it compiled anything new: the
file holds one start's code and never grows with use.

The file is a cache: one that is missing, damaged (its digest is checked before any of its
code is read), not a regular file, too large, or written by another Python (its bytecode
magic number, in the name and inside) is ignored and replaced; one that cannot be written
is left alone. Nothing else of ``dataclasses`` is touched, and a Python whose
``dataclasses`` already has a name ``exec`` of its own is left as it is."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import marshal
import os
import stat
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

#: a file larger than this is not one Castra wrote (a start's code is about 200 KB)
MAX_BYTES = 8 * 1024 * 1024

_known: dict[str, CodeType] = {}
_used: dict[str, CodeType] = {}
_path: Path | None = None
#: how many sources this start compiled, and how many it found already compiled
counts = {"compiled": 0, "reused": 0}


def cache_file(folder: Path) -> Path | None:
    """The file in ``folder`` for this Python's bytecode, or None when it writes none."""
    tag = sys.implementation.cache_tag
    return None if tag is None else folder / f"dataclasses.{tag}.marshal"


def _header() -> tuple[bytes, int]:
    return (MAGIC_NUMBER, sys.flags.optimize)


#: what a file Castra wrote begins with, before the digest of the rest
_MARK = b"castra-classcode 1\n"


def _digest(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=32).digest()


def _pack(table: dict[str, CodeType]) -> bytes:
    """The file's bytes: :data:`_MARK`, the digest of the marshalled code, the code. Code
    that marshal reads back from a file damaged since (a byte changed on the disk) could
    crash the interpreter as it runs: such a file is refused by its digest, never read."""
    payload = marshal.dumps((_header(), table))
    return _MARK + _digest(payload) + payload


def _unpack(data: bytes) -> Any:
    """What :func:`_pack` wrote, or ValueError for anything else."""
    start = len(_MARK) + 32
    if not data.startswith(_MARK) or _digest(data[start:]) != data[len(_MARK) : start]:
        raise ValueError("not a file Castra wrote, or damaged")
    return marshal.loads(data[start:])


def _read(path: Path) -> dict[str, CodeType]:
    """The code in ``path``, or nothing when it is not a file this Python wrote."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return {}
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return {}
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_BYTES + 1)
        header, table = _unpack(data)
        if tuple(header) != _header() or not isinstance(table, dict):
            return {}
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    finally:
        os.close(fd)
    if not all(isinstance(k, str) and isinstance(v, CodeType) for k, v in table.items()):
        return {}
    return table


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """``exec`` for ``dataclasses``: a string's code compiled once, by this start or one
    before it."""
    if isinstance(source, str):
        code = _known.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            counts["compiled"] += 1
        else:
            counts["reused"] += 1
        _used[source] = code
        source = code
    exec(source, globals, locals)


def start(folder: Path) -> None:
    """Make ``dataclasses`` reuse the code kept in ``folder`` until :func:`finish`."""
    global _path
    path = cache_file(folder)
    if path is None or _path is not None or "exec" in vars(dataclasses):
        return
    _known.update(_read(path))
    counts.update(compiled=0, reused=0)
    _path = path
    dataclasses.exec = _exec  # type: ignore[attr-defined]


def finish() -> None:
    """``dataclasses`` compiles with ``exec`` again; the code this start used is written if
    any of it was new."""
    global _path
    path, _path = _path, None
    if path is None:
        return
    if vars(dataclasses).get("exec") is _exec:
        del dataclasses.exec  # type: ignore[attr-defined]
    fresh = counts["compiled"] > 0
    used = dict(_used)
    _known.clear()
    _used.clear()
    if fresh:
        _write(path, used)


def _write(path: Path, table: dict[str, CodeType]) -> None:
    """Write ``table`` whole or not at all (a cache: a failure costs the next start time)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(_pack(table))
        os.replace(tmp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
