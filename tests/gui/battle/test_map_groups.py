"""Moving by the line in the battle window (offscreen), in each ruleset with its ready
armies: units selected with Shift+click, a box on the ground or the context menu, dragged
together (one step, one undo restoring them all) or moved by one path; a group with units
the rules refuse says which and why, and moves the others only when the umpire agrees."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QPointF, QSettings, Qt
from pytestqt.qtbot import QtBot

from app.core.battle import BattleSession, GroupMove, MoveUnit, NextPhase
from app.gui.battle.actions import BattleKey
from app.gui.battle.map import BattleMap
from app.gui.battle.map.menu import map_menu
from app.gui.battle.window import BattleWindow
from app.rules.paths import Leg
from app.rules.registry import Registry
from tests.core.battle.ready_fight import DUELS
from tests.core.battle.test_group_move import to_a_move
from tests.core.battle.test_ready_battles import ready_session
from tests.gui.battle.test_map import at, mouse
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui

#: the rulesets in which a side moves several units in a phase once deployed. Not GSB: "Active
#: player moves and/or fights, one unit at a time" (GSB, Turn order), so a group dragged there
#: moves only the unit activated (tests/gui/battle/test_table_rules.py)
RULESETS = sorted(set(DUELS) - {"grown-slightly-bald"})
Shift = Qt.KeyboardModifier.ShiftModifier


class Table:
    """A window on a ready battle at a phase where a side may move ``units``."""

    def __init__(self, window: BattleWindow, side: int, units: list[str]) -> None:
        self.window, self.side, self.units = window, side, units

    @property
    def map(self) -> BattleMap:
        return self.window.map

    @property
    def session(self) -> BattleSession:
        return self.window.controller.session


@pytest.fixture(params=RULESETS)
def table(
    request: pytest.FixtureRequest, qtbot: QtBot, registry: Registry, settings: QSettings
) -> Iterator[Table]:
    session = ready_session(registry, request.param)
    window = open_window(qtbot, session, settings)
    window.resize(1280, 720)
    # past deployment (units are placed one at a time then), to a phase a side may move in
    for _ in range(20):
        side, units = to_a_move(session, 5)
        window.refresh()
        if not window.map.deploying:
            break
        session.do(NextPhase())
    window.refresh()
    window.map.zoom(2.0)
    yield Table(window, side, units)
    window.close()


def click(view: BattleMap, x: float, y: float, mods: Qt.KeyboardModifier) -> None:
    p = at(view, x, y)
    mouse(view, QEvent.Type.MouseButtonPress, p, mods=mods)
    mouse(view, QEvent.Type.MouseButtonRelease, p, mods=mods)


def drag(view: BattleMap, start: tuple[float, float], end: tuple[float, float]) -> None:
    a, b = at(view, *start), at(view, *end)
    mouse(view, QEvent.Type.MouseButtonPress, a)
    for k in range(1, 6):
        mouse(view, QEvent.Type.MouseMove, a + (b - a) * (k / 5))
    mouse(view, QEvent.Type.MouseButtonRelease, b)


def ahead(table: Table, uid: str, distance: float) -> tuple[float, float]:
    """The table point ``distance`` ahead of ``uid``'s centre."""
    u = table.session.state.unit(uid)
    f = math.radians(u.facing)
    return u.x + distance * math.sin(f), u.y + distance * math.cos(f)


def test_shift_click_selects_a_group_and_a_drag_moves_it_in_one_step(
    qtbot: QtBot, table: Table
) -> None:
    view, session = table.map, table.session
    first, *rest = table.units[:3]
    u = session.state.unit(first)
    view.select_unit(first)
    for uid in rest:
        v = session.state.unit(uid)
        click(view, v.x, v.y, Shift)
    assert set(view.selected_units()) == {first, *rest}
    assert all(view.map_scene.units[uid].selected for uid in table.units[:3])
    before = session.state
    steps = session.cursor
    drag(view, (u.x, u.y), ahead(table, first, 1.0))
    assert session.cursor == steps + 1, view.window().statusBar().currentMessage()
    step = session.steps[-1]
    assert isinstance(step.command, GroupMove) and len(step.command.moves) == 3
    for uid in table.units[:3]:
        assert session.state.unit(uid) != before.unit(uid)
        assert math.isclose(
            math.dist(
                (session.state.unit(uid).x, session.state.unit(uid).y),
                (before.unit(uid).x, before.unit(uid).y),
            ),
            1.0,
            abs_tol=0.11,
        )
    # the formation kept: each moved as the first did
    moved = [
        (
            session.state.unit(uid).x - before.unit(uid).x,
            session.state.unit(uid).y - before.unit(uid).y,
        )
        for uid in table.units[:3]
    ]
    assert all(math.isclose(m[0], moved[0][0], abs_tol=1e-6) for m in moved)
    # the group stays selected; one undo brings all three back
    assert set(view.selected_units()) == set(table.units[:3])
    table.window.acts[BattleKey.UNDO].trigger()
    assert session.state == before
    # a Shift+click on a member takes it out of the group
    click(view, before.unit(rest[0]).x, before.unit(rest[0]).y, Shift)
    assert set(view.selected_units()) == {first, rest[1]}


def test_a_partly_refused_group_says_who_and_why_and_moves_the_others(
    qtbot: QtBot, table: Table
) -> None:
    view, session = table.map, table.session
    free, spent = table.units[:3], table.units[3:5]
    state = session.state
    for uid in spent:  # each moves its whole allowance first: nothing left
        allowance = session.mechanics.move_allowance(state.combatant(state.unit(uid)), state.view())
        assert allowance
        table.window.controller.execute(MoveUnit(unit=uid, legs=(Leg.straight(allowance),)))
    assert session.cursor >= 2
    before, steps = session.state, session.cursor
    view.select_units([*free, *spent])
    asked: list[str] = []
    answers = [False, True]

    def umpire(title: str, text: str) -> bool:
        asked.append(text)
        return answers.pop(0)

    view.confirm = umpire
    # the ghost says who may not move while the group is dragged
    u = before.unit(free[0])
    a, b = at(view, u.x, u.y), at(view, *ahead(table, free[0], 1.0))
    mouse(view, QEvent.Type.MouseButtonPress, a)
    for k in range(1, 6):
        mouse(view, QEvent.Type.MouseMove, a + (b - a) * (k / 5))
    ghost = view.group_ghost.text
    assert "3 may move" in ghost and "2 may not" in ghost
    for uid in spent:
        assert f"({uid}): refused:" in ghost
    # released, the umpire is asked; no: nothing moves
    mouse(view, QEvent.Type.MouseButtonRelease, b)
    assert len(asked) == 1 and session.cursor == steps and session.state == before
    for uid in spent:
        assert f"({uid})" in asked[0]
    assert "Move the other 3?" in asked[0]
    # the same by one path, and yes: the three move in one step, the two stay
    assert view.move_group_by("forward 1")
    assert session.cursor == steps + 1
    assert all(session.state.unit(uid) != before.unit(uid) for uid in free)
    assert all(session.state.unit(uid) == before.unit(uid) for uid in spent)
    table.window.acts[BattleKey.UNDO].trigger()
    assert session.state == before


def test_a_path_nobody_may_take_moves_nobody(table: Table) -> None:
    view, session = table.map, table.session
    messages: list[str] = []
    view.message.connect(messages.append)
    view.select_units(table.units[:3])
    before, steps = session.state, session.cursor
    assert not view.move_group_by("forward 900")
    assert session.cursor == steps and session.state == before
    assert messages[-1].startswith("Not moved: ")
    assert all(f"({uid})" in messages[-1] for uid in table.units[:3])
    assert not view.move_group_by("forwards and back")
    assert "cannot read the leg" in messages[-1]


def test_a_box_on_the_ground_selects_one_sides_units(table: Table) -> None:
    view, state = table.map, table.session.state
    scene = view.map_scene
    items = [scene.units[u] for u in table.units[:2]]
    box = items[0].mapRectToScene(items[0].body).united(items[1].mapRectToScene(items[1].body))
    m = scene.frame.length(0.2)
    box = box.adjusted(-m, -m, m, m)
    corners = [
        (box.topLeft(), box.bottomRight()),
        (box.bottomRight(), box.topLeft()),
        (box.topRight(), box.bottomLeft()),
        (box.bottomLeft(), box.topRight()),
    ]
    bare = [(a, b) for a, b in corners if scene.unit_at(a) is None]
    assert bare, "some corner of the box is bare ground"
    a, b = bare[0]
    drag(view, scene.frame.to_table(a), scene.frame.to_table(b))
    chosen = set(view.selected_units())
    assert set(table.units[:2]) <= chosen
    assert {state.unit(u).side for u in chosen} == {table.side}
    # a click on bare ground selects nothing
    p = view.mapFromScene(a)
    mouse(view, QEvent.Type.MouseButtonPress, QPointF(p))
    mouse(view, QEvent.Type.MouseButtonRelease, QPointF(p))
    assert view.selected_units() == ()


def test_the_menu_selects_a_command_or_the_whole_side(table: Table) -> None:
    view, state = table.map, table.session.state
    first = state.unit(table.units[0])
    menu = map_menu(view, view.map_scene.frame.to_scene(first.x, first.y))
    actions = {a.text(): a for a in menu.actions()}
    side_name = state.sides[table.side].name
    everyone = [u.id for u in state.units if u.side == table.side and not u.status.eliminated]
    whole = f"Select all of {side_name} ({len(everyone)} units)"
    assert whole in actions
    if first.command is not None:
        mates = [u.id for u in state.units if u.side == first.side and u.command == first.command]
        word = table.session.ruleset.organisation.group_name
        if len(mates) > 1:
            actions[f"Select this {word} ({len(mates)} units)"].trigger()
            assert set(view.selected_units()) == set(mates)
            assert view.selected_unit() == first.id
    actions[whole].trigger()
    assert set(view.selected_units()) == set(everyone)
    menu = map_menu(view, view.map_scene.frame.to_scene(first.x, first.y))
    assert any(a.text().startswith("Move the group by a path") for a in menu.actions())
