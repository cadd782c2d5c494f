"""A store in a temporary file for the use cases (the store's own tests run them on a club
server too)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.usecases.access import Store, open_store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(tmp_path / "castra.sqlite3")
    yield s
    s.close()
