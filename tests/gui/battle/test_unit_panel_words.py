"""The Unit panel speaks the roster's words (found driving the window: it showed command ids
such as "left_wing_infantry" and distances such as "moved this turn 4.53606")."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.core.battle import BattleSession, StartBattle, new_battle
from app.core.battle.sample import sample_roster
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import Store
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui


def test_command_names_and_rounded_moves(
    qtbot: QtBot,
    registry: Registry,
    settings: QSettings,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rs = registry.get("quincunx")
    rosters = (sample_roster(rs, "roman"), sample_roster(rs, "carthaginian"))
    mech = mechanics_for(rs)
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=1)
    session.do(StartBattle())
    window = open_window(qtbot, session, settings, store, rosters)
    roster = rosters[0]
    commanded = next(u for u in roster.units if u.command)
    command = next(c for c in roster.commands if c.id == commanded.command)
    unit = next(u for u in session.state.units if u.side == 0 and u.roster_unit == commanded.id)
    panel = window.unit_panel
    monkeypatch.setattr(panel, "_unit", lambda: replace(unit, moved=4.53606))
    panel.show_unit(unit.id)
    text = panel.view.toPlainText()
    assert f"command{command.name}" in text.replace("\n", "").replace("\t", "")
    assert "moved this turn4.5" in text.replace("\n", "").replace("\t", "")
    assert "4.53606" not in text


def test_the_roster_line_names_its_army_list_entry(
    qtbot: QtBot, registry: Registry, settings: QSettings, store: Store
) -> None:
    """The Unit dock gives the unit's army-list entry by its name ("Roman legion"), not by
    the data's id ("roman_legion", seen at a game night in Leg VI)."""
    rs = registry.get("leg-vi-carthago")
    armies = list(rs.armies)
    rosters = (sample_roster(rs, armies[0]), sample_roster(rs, armies[-1]))
    mech = mechanics_for(rs)
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=1)
    session.do(StartBattle())
    window = open_window(qtbot, session, settings, store, rosters)
    unit = session.state.units[0]
    line = next(u for u in rosters[0].units if u.id == unit.roster_unit)
    entry = rs.armies[rosters[0].army].entries[line.entry]
    assert entry.name != line.entry
    window.unit_panel.show_unit(unit.id)
    text = window.unit_panel.view.toPlainText().replace("\n", "").replace("\t", "")
    assert f"entry{entry.name}" in text
    assert line.entry not in text
