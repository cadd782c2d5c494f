"""The files of the stores this process has open: nothing but SQLite may open them.

Closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
included (:mod:`app.store.guard`), so the readers and writers of users' files
(:func:`app.rules.inputs.read_regular_file`, the exports, the window's file dialogs) ask here
first, with ``stat`` only, and refuse a store's file. A module of its own, importing nothing of
Castra, so that every layer may ask.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The open stores' files (each database with its ``-wal``, ``-shm`` and ``-journal``), counted
#: by the stores open.
_STORE_FILES: dict[Path, int] = {}


def store_files(db: Path) -> tuple[Path, ...]:
    """The database file and the files SQLite keeps beside it."""
    db = db.resolve()
    return (db, *(db.with_name(db.name + s) for s in ("-wal", "-shm", "-journal")))


def protect_store(db: Path, *, on: bool) -> None:
    """Count an open store (``on``) or one closed: while any is open, :func:`is_store_file`
    names its files."""
    for path in store_files(db):
        count = _STORE_FILES.get(path, 0) + (1 if on else -1)
        if count > 0:
            _STORE_FILES[path] = count
        else:
            _STORE_FILES.pop(path, None)


def store_folders() -> set[Path]:
    """The folders that hold a store this process has open."""
    return {path.parent for path in _STORE_FILES}


def is_store_file(path: Path) -> bool:
    """Whether ``path`` is (by name, or the same file by another name) a file of a store this
    process has open. Only ``stat``: the file is never opened (closing a descriptor of it would
    drop SQLite's locks)."""
    if not _STORE_FILES:
        return False
    try:
        target = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return False
    if target in _STORE_FILES:
        return True
    try:
        st = os.stat(target)
    except (OSError, ValueError):
        return False
    for known in _STORE_FILES:
        try:
            other = os.stat(known)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False
