"""A club's game night at 1280x720, as a new player meets it (QA pass): what was cut off,
named by an internal id or did nothing visible, each held to what the player should see."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.core.battle import BattleSession, StartBattle, new_battle
from app.core.battle.sample import sample_roster
from app.gui.battle.window import BattleWindow
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.builtin import ruleset_ids
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui

RULESETS = ruleset_ids()


def deploying_window(
    qtbot: QtBot, registry: Registry, settings: QSettings, rid: str
) -> BattleWindow:
    """A new battle of the ruleset's first two lists as New battle opens it (started, its
    deployment open), at 1280x720."""
    rs = registry.get(rid)
    mech = mechanics_for(rs)
    armies = list(rs.armies)
    rosters = (sample_roster(rs, armies[0]), sample_roster(rs, armies[-1]))
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=3, name="QA")
    session.do(StartBattle())  # as New battle starts it: the first phase, deployment open
    window = open_window(qtbot, session, settings)
    window.resize(1280, 720)
    qtbot.wait(20)
    return window


@pytest.mark.parametrize("rid", RULESETS)
def test_the_turn_dock_is_never_squeezed_at_1280x720(
    qtbot: QtBot, registry: Registry, settings: QSettings, rid: str
) -> None:
    """Deployment open, the Turn dock says five lines or more: each of its labels is as tall
    as its text needs (its rows were squeezed, cutting 'Carthage' and the last line)."""
    window = deploying_window(qtbot, registry, settings, rid)
    panel = window.turn_panel
    labels = [w for w in panel.findChildren(QLabel) if w.isVisible() and w.text()]
    assert len(labels) >= 8  # four names, four values, the sides' lines

    def whole() -> bool:
        return all(
            w.height() >= (w.heightForWidth(w.width()) if w.wordWrap() else w.sizeHint().height())
            for w in labels
        )

    qtbot.waitUntil(whole, timeout=2000)
    assert window.turn_dock.geometry().bottom() < window.unit_dock.geometry().top()


def test_the_leaders_dock_names_each_leader_s_side(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """The Leaders dock says whose leader he is as the result does ("Hannibal (Carthage)"),
    not by the side's letter ("Hannibal (A)")."""
    window = deploying_window(qtbot, registry, settings, "quincunx")
    state = window.controller.state
    table = window.leaders_panel.table
    assert table.rowCount() == len(state.leaders) > 1
    for row, leader in enumerate(state.leaders):
        item = table.item(row, 0)
        assert item is not None
        assert item.text() == f"{leader.name} ({state.sides[leader.side].name})"


def test_a_long_action_name_does_not_widen_the_actions_dock(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """MWAN #90's "End of the first side's move" sat on the button that does the action,
    and the button's width pushed the Actions dock wider (the map narrower, the table's
    right edge out of sight, and the layout kept so for every later battle). The button
    keeps to its row, its name cut short with "…" and whole in its tooltip."""
    from app.core.battle import NextPhase

    window = deploying_window(qtbot, registry, settings, "mwan90")
    session = window.controller.session
    mech = session.mechanics
    while mech.side_to_move(session.state.view()) is None:
        window.controller.execute(NextPhase())
    qtbot.wait(20)
    dock, button = window.actions_dock, window.acting.roll_button
    width = dock.width()
    acting = window.acting
    acting.choose_action("end_move")
    acting.side.setCurrentIndex(acting.side.findData(mech.side_to_move(session.state.view())))
    qtbot.wait(20)
    assert dock.width() == width
    assert button.full_text == "End of the first side's move"
    shown = button.text()
    assert shown == button.full_text or (
        shown.endswith("…") and button.toolTip() == button.full_text
    )
    assert button.fontMetrics().horizontalAdvance(shown) <= button.width()


def test_a_charge_the_rules_refuse_is_forced_with_alt_as_a_move_is(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """A refused charge said "force it to override", and the window had no way to: the
    Charge (button, key or the map's menu) held with Alt asks the umpire and goes ahead,
    logged as an override; without Alt the refusal says how."""
    from app.core.battle import Charge
    from app.gui.battle.actions import BattleKey
    from tests.gui.battle.test_window import d3_session, to_phase

    session = d3_session(registry)
    window = open_window(qtbot, session, settings)
    to_phase(window, "Movement")
    window.acting.set_pair("A5", "B5")  # 25" apart: beyond its move
    steps = len(session.steps)
    assert window.charge(force=False) is None and len(session.steps) == steps
    said = window.statusBar().currentMessage()
    assert "may not charge" in said and "Alt+C forces it" in said and "force it to" not in said
    assert "Alt+C" in [k.toString() for k in window.acts[BattleKey.CHARGE].shortcuts()]
    asked: list[str] = []
    window.map.confirm = lambda title, text: asked.append(text) is None and False
    assert window.charge(force=True) is None and len(session.steps) == steps  # said no
    assert asked and "logged as an override" in asked[0]
    window.map.confirm = lambda title, text: True
    step = window.charge(force=True)
    assert step is not None and isinstance(step.command, Charge) and step.command.force
    assert any("Forced past" in line for line in step.lines)


def test_the_sides_dock_speaks_the_players_words(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """D3's Sides dock showed the data's ids: "Rome (roman)", "commander unit B7", the
    drawn card twice ("card" and "card name") and empty rows ("initiative unit")."""
    window = deploying_window(qtbot, registry, settings, "d3-ancients")
    state = window.controller.state
    rs = window.controller.session.ruleset
    window.sides_dock.raise_()  # tabbed behind the Unit dock: its page is written when seen
    qtbot.waitUntil(lambda: window.sides_panel.seen)
    text = window.sides_panel.view.toPlainText()
    for side in state.sides:
        assert f"{side.name} ({rs.armies[side.army].name})" in text
        assert f"({side.army})" not in text
        commander = state.unit(str(side.record["commander_unit"]))
        assert f"{commander.name} ({commander.id})" in text
    drawn = [s for s in state.sides if s.record.get("card_name")]
    assert drawn  # the side in play drew its card as the battle began
    assert f"chance card\n{drawn[0].record['card_name']}" in text
    # the cards drawn so far by name too: one card was shown by its id ("rally")
    assert f"cards drawn\n{drawn[0].record['card_name']}" in text
    lines = text.splitlines()
    assert "card" not in lines and "card name" not in lines
    assert "initiative unit" not in lines


def test_the_whole_table_stays_in_view_when_the_window_grows(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Opened at 1280x720 the map shows the whole table; the window enlarged, it still does,
    larger (the player had to press F); once the player has zoomed, a resize keeps the zoom."""
    window = deploying_window(qtbot, registry, settings, "quincunx")
    view = window.map
    table = view.map_scene.table_rect

    def shown() -> bool:
        return view.mapToScene(view.viewport().rect()).boundingRect().contains(table)

    qtbot.waitUntil(shown, timeout=2000)
    small = view.transform().m11()
    window.resize(1900, 1060)
    qtbot.waitUntil(lambda: view.transform().m11() > small * 1.2, timeout=2000)
    assert shown()
    view.zoom(2.0)
    zoomed = view.transform().m11()
    window.resize(1280, 720)
    qtbot.wait(50)
    assert view.transform().m11() == pytest.approx(zoomed)
