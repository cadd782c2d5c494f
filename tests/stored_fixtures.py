"""Stores written by an older Castra, kept gzipped under ``tests/data/`` for the migration
tests."""

from __future__ import annotations

import gzip
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any


def unzipped(fixture: Path, to: Path) -> Path:
    """The gzipped store ``fixture`` written out as ``to`` (a fresh copy to open and migrate)."""
    with gzip.open(fixture) as src, to.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return to


def sql(path: Path, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """``statement`` run on the store file ``path`` by a plain SQLite connection of its own
    (committed, then closed): its rows. For looking at, or damaging, what a store holds."""
    with closing(sqlite3.connect(path)) as con:
        rows = con.execute(statement, params).fetchall()
        con.commit()
        return rows
