"""The rules on the table through the battle window, as a player meets them (issue 25): the
map's Charge (right-click an enemy) is the ruleset's charge, refused naming the rule where
the command line refuses it; the moves each ruleset's sequence and geometry forbid are
refused on the map as on the command line."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.core.battle import BattleSession, Step
from app.gui.battle.map.menu import map_menu
from app.gui.battle.window import BattleWindow
from app.rules.registry import Registry
from tests.cli.test_table_charges import d3_battle
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui


def menu_charge(window: BattleWindow, actor: str, target: str) -> Step | None:
    """Select ``actor`` on the map, right-click ``target`` and choose "Charge ..."; the step
    made, or None when the charge was refused (the status bar says why)."""
    view = window.map
    session: BattleSession = window.controller.session
    steps = len(session.steps)
    view.select_unit(actor)
    t = session.state.unit(target)
    menu = map_menu(view, view.map_scene.frame.to_scene(t.x, t.y))
    chosen = [a for a in menu.actions() if a.text() == f"Charge {t.name}"]
    assert chosen, [a.text() for a in menu.actions()]
    chosen[0].trigger()
    return session.steps[-1] if len(session.steps) > steps else None


def test_the_maps_charge_refuses_what_the_rules_refuse(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """D3, Charges: "Light infantry and light cavalry can only charge into combat providing
    the enemy unit is already engaged in combat." "Cavalry cannot charge elephants." The
    map's Charge refuses both in the status bar, naming the rule, and makes no step."""
    session, _ = d3_battle(registry)
    window = open_window(qtbot, session, settings)
    assert menu_charge(window, "A1", "B1") is None
    said = window.statusBar().currentMessage()
    assert "D3, Charges:" in said and "may charge only an enemy already in combat" in said
    assert menu_charge(window, "A3", "B2") is None
    assert "may not charge elephants" in window.statusBar().currentMessage()
    assert len(session.steps) == 2  # the start and the chance card
