"""The rules on the table through the battle window, as a player meets them (issue 25): the
map's Charge (right-click an enemy) is the ruleset's charge, refused naming the rule where
the command line refuses it; the moves each ruleset's sequence and geometry forbid are
refused on the map as on the command line."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QSettings
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from app.core.battle import Act, BattleSession, Step
from app.gui.battle.map.menu import map_menu
from app.gui.battle.window import BattleWindow
from app.rules.geometry import edge_distance
from app.rules.registry import Registry
from tests.cli.test_gsb_activations import gsb_battle
from tests.cli.test_leg_vi_table_rules import leg_vi_battle
from tests.cli.test_quincunx_command import battle_in_rome_round
from tests.cli.test_table_charges import d3_battle
from tests.gui.battle.test_map import at, drag, mouse
from tests.gui.battle.test_window import activate, open_window
from tests.table_setup import roster_of, started

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


def test_gsb_a_group_dragged_on_the_map_moves_only_the_activated_unit(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """GSB, Turn order: "Active player moves and/or fights, one unit at a time." Three
    Roman units selected together and dragged once the first is activated: while dragged,
    the group's label says the other two may not move, naming the rule; released, the
    umpire is asked whether the one that may moves alone, and only it moves."""
    rs = registry.get("grown-slightly-bald")
    rosters = (
        roster_of(rs, "rome", ["heavy_infantry", "heavy_infantry", "light_infantry"]),
        roster_of(rs, "carthage", ["medium_infantry"]),
    )
    places = {
        "A1": (10.0, 4.0, 0.0),
        "A2": (16.0, 4.0, 0.0),
        "A3": (22.0, 4.0, 0.0),
        "B1": (16.0, 40.0, 180.0),
    }
    session = started(rs, rosters, places, seed=7)
    window = open_window(qtbot, session, settings)
    view = window.map
    view.fit_table()
    activate(window, "A1")
    asked: list[str] = []
    view.confirm = lambda title, text: asked.append(text) or True
    before, steps = session.state, len(session.steps)
    view.select_units(["A1", "A2", "A3"])
    a, b = at(view, 10.0, 4.0), at(view, 10.0, 5.0)
    mouse(view, QEvent.Type.MouseButtonPress, a)
    for k in range(1, 6):
        mouse(view, QEvent.Type.MouseMove, a + (b - a) * (k / 5))
    ghost = view.group_ghost.text
    assert "1 may move" in ghost and "2 may not" in ghost, ghost
    assert "GSB, Turn order" in ghost and "(A2)" in ghost and "(A3)" in ghost
    mouse(view, QEvent.Type.MouseButtonRelease, b)
    assert len(asked) == 1 and "Move the other 1?" in asked[0]
    assert len(session.steps) == steps + 1
    assert session.state.unit("A1").y == pytest.approx(5.0, abs=0.11)
    assert session.state.unit("A2") == before.unit("A2")
    assert session.state.unit("A3") == before.unit("A3")


def _lead(session: BattleSession, side: int) -> None:
    """Leg VI: let ``side`` act (the side leading the phase says it is done)."""
    now = session.mechanics.side_to_move(session.state.view())
    if now is not None and now != side:
        session.do(Act(action="done", side=now))


def leg_vi_closing(registry: Registry, gap: float) -> BattleSession:
    """The legion (A1) ``gap`` inches (base edge to base edge) in front of the Libyan
    spearmen (B2, formed), each general beside his unit, in Rome's manoeuvre phase."""
    legion_half = (3 * 20 / 25.4 + 2) / 2
    spear_half = 20 / 25.4 / 2
    session, _ = leg_vi_battle(
        registry,
        {
            "A1": (30.0, 10.0, 0.0),
            "A-gen": (30.0, 6.0, 0.0),
            "B2": (30.0, 10.0 + legion_half + gap + spear_half, 180.0),
            "B-gen": (34.0, 10.0 + legion_half + gap + 3.0, 0.0),
        },
    )
    _lead(session, 0)
    return session


def test_leg_vi_drags_end_where_the_rules_put_them_and_the_maps_charge_counts(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Leg VI, Non-March Moves: "The full distance must be moved except that movement must
    halt at 4" from formed enemy." Charges: "Charges may only be declared against enemy
    within 4"." A dice move dragged past the 4" line on the map ends exactly 4" from the
    Libyans (not 3.8", refused, nor 4.1", too far to charge from), with no override asked;
    then the map's Charge (right-click the enemy) moves into contact and is the charge the
    combat reads: its odds are those with "who charged: attacker", not "none" (issue 25)."""
    session = leg_vi_closing(registry, 6.0)
    session.do(Act(action="dice_move", actor="A1"))  # rolled at the table: the dice say how far
    rolled = float(session.state.unit("A1").status.extra["rolled_move"])
    assert rolled > 2.0  # AvD (2 at least) and a D6
    window = open_window(qtbot, session, settings)
    view = window.map
    view.fit_table()
    a1 = session.state.unit("A1")
    steps = len(session.steps)
    view.select_unit("A1")
    drag(view, (a1.x, a1.y), (a1.x, a1.y + 5.0))  # 5": past the 4" line (2")
    assert len(session.steps) == steps + 1, window.statusBar().currentMessage()
    step = session.steps[-1]
    assert step.command.kind == "move" and not step.command.force  # type: ignore[attr-defined]
    state = session.state
    gap = edge_distance(state.unit("A1").footprint, state.unit("B2").footprint)
    assert gap == pytest.approx(4.0, abs=1e-3) and gap >= 4.0 - 0.01
    # the charge phase: the map's Charge reaches contact from exactly 4"
    while session.mechanics.phase_ids[session.state.phase] != "charge":  # type: ignore[attr-defined]
        window.turn_panel.next_button.click()
    _lead(session, 0)
    charged = menu_charge(window, "A1", "B2")
    assert charged is not None, window.statusBar().currentMessage()
    assert any("the combat counts the charge" in line for line in charged.lines)
    assert session.state.unit("A1").status.has("charging")
    while session.mechanics.phase_ids[session.state.phase] != "combat":  # type: ignore[attr-defined]
        window.turn_panel.next_button.click()
    window.acting.set_pair("A1", "B2")
    window.acting.choose_action("melee")
    who = window.acting._option_widgets["charge"]  # the Actions dock's "Who charged"
    assert isinstance(who, QComboBox) and who.currentText() == "attacker"
    assert window.acting.odds == session.odds("melee", "A1", "B2")  # the odds shown
    derived = session.odds("melee", "A1", "B2")
    assert derived == session.odds("melee", "A1", "B2", {"charge": "attacker"})
    assert derived != session.odds("melee", "A1", "B2", {"charge": "none"})


def test_leg_vi_a_dice_moves_drag_goes_its_full_rolled_distance(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Leg VI, Non-March Moves: "The full distance must be moved": a dice move dragged
    short on the map (1") ends at its rolled distance, with no question to the umpire."""
    session = leg_vi_closing(registry, 15.0)  # far enough that no roll reaches the 4" line
    session.do(Act(action="dice_move", actor="A1"))
    rolled = float(session.state.unit("A1").status.extra["rolled_move"])
    window = open_window(qtbot, session, settings)
    view = window.map
    view.fit_table()
    a1 = session.state.unit("A1")
    view.select_unit("A1")
    drag(view, (a1.x, a1.y), (a1.x, a1.y + 1.0))
    step = session.steps[-1]
    assert step.command.kind == "move" and not step.command.force  # type: ignore[attr-defined]
    assert session.state.unit("A1").y == pytest.approx(a1.y + rolled, abs=1e-3)


def test_quincunx_a_unit_out_of_command_is_not_dragged(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Quincunx, Commanders: "A unit not meeting this criteria is out of command and can
    not move": the velites 17" from their legate stay where they are when dragged, the
    status bar naming the rule; the maniple beside him moves."""
    session, _ = battle_in_rome_round(
        registry,
        {
            "A1": (20.0, 8.0, 0.0),
            "A2": (25.0, 8.0, 0.0),
            "A3": (30.0, 8.0, 0.0),
            "A4": (44.0, 8.0, 0.0),
            "A5": (60.0, 8.0, 0.0),
            "B1": (25.0, 40.0, 180.0),
            "B2": (44.0, 30.0, 180.0),
        },
        {"A-consul": (60.0, 4.0)},
    )
    window = open_window(qtbot, session, settings)
    view = window.map
    view.fit_table()
    a4 = session.state.unit("A4")
    steps = len(session.steps)
    view.select_unit("A4")
    drag(view, (a4.x, a4.y), (a4.x, a4.y + 3))
    assert len(session.steps) == steps
    said = window.statusBar().currentMessage()
    assert "Quincunx, Commanders: Velites (A4) is out of command" in said
    a1 = session.state.unit("A1")
    view.select_unit("A1")
    drag(view, (a1.x, a1.y), (a1.x, a1.y + 3))
    assert session.steps[-1].command.kind == "move"


def test_mwan90_the_players_give_a_morale_checks_result_in_the_actions_dock(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """MWAN #90, Morale 3: the article's table is lost ("Unit in:" and nothing more): the
    Actions dock's Morale check takes the players' result (its Result option) and the step
    applies it; without one it says why and changes nothing."""
    rs = registry.get("mwan90")
    rosters = (
        roster_of(rs, "roman", ["hastati", "principes"]),
        roster_of(rs, "carthaginian", ["libyans"]),
    )
    session = started(rs, rosters)
    window = open_window(qtbot, session, settings)
    acting = window.acting
    acting.set_pair("A2")
    acting.choose_action("morale_check")
    steps = len(session.steps)
    acting.roll_button.click()
    assert len(session.steps) == steps
    assert "incomplete in the source" in window.statusBar().currentMessage()
    result = acting._option_widgets["result"]
    assert isinstance(result, QComboBox)
    result.setCurrentIndex(result.findText("routs"))
    acting.roll_button.click()
    assert len(session.steps) == steps + 1
    assert "routs (the players' call" in session.steps[-1].lines[1]
    assert session.state.unit("A2").status.eliminated
