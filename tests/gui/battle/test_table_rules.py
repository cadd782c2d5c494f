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
from tests.cli.test_gsb_activations import gsb_battle
from tests.cli.test_table_charges import d3_battle
from tests.gui.battle.test_map import drag
from tests.gui.battle.test_window import activate, open_window

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


def test_gsb_a_unit_moves_on_the_map_only_once_activated(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """GSB, Turn order: "Active player moves and/or fights, one unit at a time. Two units
    activate for free ...": the velites dragged before they are activated stay where they
    were (the status bar names the rule); activated from the Actions dock, the same drag
    moves them; the legion activated before them may then not move."""
    session, _ = gsb_battle(registry)
    window = open_window(qtbot, session, settings)
    view = window.map
    view.fit_table()
    activate(window, "A1")  # on to Rome's activations; the legion acts first
    a3 = session.state.unit("A3")
    steps = len(session.steps)
    view.select_unit("A3")
    drag(view, (a3.x, a3.y), (a3.x, a3.y + 1))
    assert len(session.steps) == steps
    said = window.statusBar().currentMessage()
    assert "GSB, Turn order" in said and "(A3) has not been activated" in said
    activate(window, "A3")
    drag(view, (a3.x, a3.y), (a3.x, a3.y + 1))
    assert session.steps[-1].command.kind == "move"
    assert session.state.unit("A3").y == pytest.approx(a3.y + 1, abs=0.11)
    a1 = session.state.unit("A1")
    steps = len(session.steps)
    view.select_unit("A1")
    drag(view, (a1.x, a1.y), (a1.x - 0.5, a1.y - 0.5))
    assert len(session.steps) == steps
    assert "(A1) has already acted this turn" in window.statusBar().currentMessage()
