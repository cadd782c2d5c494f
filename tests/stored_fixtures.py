"""Stores written by an older Castra, kept gzipped under ``tests/data/`` for the migration
tests."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path


def unzipped(fixture: Path, to: Path) -> Path:
    """The gzipped store ``fixture`` written out as ``to`` (a fresh copy to open and migrate)."""
    with gzip.open(fixture) as src, to.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return to
