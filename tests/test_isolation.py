"""The tests run in a data folder of their own: nothing they make lands in the user's."""

from __future__ import annotations

from pathlib import Path

import platformdirs

from app.datadir import data_dir
from app.store.engine import default_path


def test_the_session_has_its_own_data_folder_and_no_user_store() -> None:
    own = Path(platformdirs.user_data_dir("castra", appauthor=False))
    assert data_dir() != own and data_dir().is_dir()
    assert default_path().parent == data_dir()
