"""The Actions dock says, in its own words, what is still to choose before an action has
odds (a unit, a target, or a unit or side), rather than showing the command line's refusal."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.rules.registry import Registry
from tests.gui.battle.test_docks_fit import sample_window
from tests.gui.battle.test_window import meet

pytestmark = pytest.mark.gui


def _choose_action(window: object, key: str) -> None:
    acting = window.acting  # type: ignore[attr-defined]
    i = next(i for i in range(acting.action.count()) if acting.action.itemData(i) == key)
    acting.action.setCurrentIndex(i)


def test_the_dock_asks_for_what_is_missing_then_shows_the_odds(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    window = sample_window(qtbot, registry, settings, "grown-slightly-bald")
    meet(window.controller.session, "A1", "B1")  # a melee needs contact
    acting = window.acting
    acting.set_pair(None, None)
    _choose_action(window, "activate")
    assert acting.summary.text() == "Activate a unit: choose a unit or a side to see the odds."
    _choose_action(window, "melee")
    assert acting.summary.text().endswith(": choose a unit to see the odds.")
    acting.set_pair("A1", None)
    assert acting.summary.text().endswith(": choose a target to see the odds.")
    acting.set_pair("A1", "B1")
    assert "possible outcomes (exact)" in acting.summary.text()
