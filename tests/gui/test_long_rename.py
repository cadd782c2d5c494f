"""Renaming a roster to a name over the limit says why (found driving the window: renaming in
place to 250 characters kept the old name, and the status bar showed only "Rename roster to
YYYY…", the reason lost after the long name)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.core.roster import MAX_NAME
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from tests.gui.test_library import open_new, roster_of

pytestmark = pytest.mark.gui


def test_a_name_over_the_limit_is_refused_with_its_reason(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    session = open_new(window, registry, "quincunx", "carthaginian", name="Hannibal")
    rid = session.roster_id
    assert rid is not None
    said: list[str] = []
    window.library.message.connect(said.append)
    index = window.library._find(rid)
    window.library.model.setData(index, "Y" * (MAX_NAME + 50))  # in place, as F2 does
    qtbot.wait(10)
    assert roster_of(window).name == "Hannibal"
    assert said and said[-1].startswith("Not renamed: ") and f"{MAX_NAME}" in said[-1]
    assert len(said[-1]) < 120  # the reason, not the name, fills the status bar
    # the window's own rename (a session edit) names the roster briefly in what it refuses
    refused: list[str] = []
    session.refused.connect(refused.append)
    window.builder.rename_roster(rid, "Z" * (MAX_NAME + 50))
    assert roster_of(window).name == "Hannibal"
    assert refused and "Z" * 50 not in refused[-1] and f"{MAX_NAME}" in refused[-1]
