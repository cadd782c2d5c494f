"""Showing odds keeps the battle window at 1280x720 (found driving the window: with a unit and
a target chosen, Leg VI's and Quincunx's windows grew to 735 pixels, and held at 720 the Log
dock covered the Roll, Enter dice and Charge buttons). The odds scroll in what the Actions
dock leaves them; the buttons stay whole and uncovered."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings
from PySide6.QtWidgets import QDockWidget, QWidget
from pytestqt.qtbot import QtBot

from app.rules.registry import Registry
from tests.gui.battle.test_docks_fit import RULESETS, sample_window
from tests.gui.battle.test_window import meet

pytestmark = pytest.mark.gui


def _global(widget: QWidget) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


@pytest.mark.parametrize("rid", RULESETS)
def test_odds_shown_keep_the_window_and_the_buttons(
    qtbot: QtBot, registry: Registry, settings: QSettings, rid: str
) -> None:
    window = sample_window(qtbot, registry, settings, rid)
    meet(window.controller.session, "A1", "B1")  # a melee needs contact
    acting = window.acting
    for _ in range(12):  # to a phase where some action of A1 on B1 has odds
        acting.set_pair("A1", "B1")
        for i in range(acting.action.count()):
            acting.choose_action(str(acting.action.itemData(i)))
            if acting.chart.bars:
                break
        if acting.chart.bars:
            break
        window.turn_panel.next_button.click()
    qtbot.wait(20)
    assert acting.chart.bars, (rid, acting.summary.text())  # the odds are shown
    assert window.minimumSizeHint().height() <= 720, rid
    assert (window.width(), window.height()) == (1280, 720), rid
    docks = {d.objectName(): d for d in window.findChildren(QDockWidget)}
    log = _global(docks["logDock"]) if docks["logDock"].isVisible() else QRect()
    actions = _global(docks["actionsDock"])
    for button in (window.acting.roll_button, window.acting.dice_button):
        rect = _global(button)
        assert button.isVisible() and rect.height() >= button.sizeHint().height() - 2, rid
        assert actions.contains(rect), (rid, button.text())
        assert not log.intersects(rect), (rid, button.text())
