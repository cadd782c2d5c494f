"""The Actions dock says why a melee between units apart has no odds (the tester's case: a
Quincunx melee across the river of the sample battle), and shows them once the two touch."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.rules.registry import Registry
from tests.gui.battle.test_docks_fit import sample_window
from tests.gui.battle.test_window import meet

pytestmark = pytest.mark.gui


def test_odds_panel_says_the_units_are_not_in_contact(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    window = sample_window(qtbot, registry, settings, "quincunx")
    acting = window.acting
    state = window.controller.state
    names = {u: state.unit(u).name for u in ("A1", "B1")}
    acting.set_pair("A1", "B1")
    acting.choose_action("melee")
    assert acting.summary.text() == (
        f"No odds: Quincunx, Melee: {names['A1']} (A1) is not in contact with {names['B1']} (B1)"
    )
    assert not acting.chart.bars
    meet(window.controller.session, "A1", "B1")
    acting.update_odds()
    assert "possible outcomes (exact)" in acting.summary.text() and acting.chart.bars
