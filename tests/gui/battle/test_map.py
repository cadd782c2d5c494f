"""The battle map driven with the mouse and keys (offscreen): it draws a real battle, selects,
sends a MoveUnit for a legal drag and nothing for an illegal one (showing the rule), cancels
with Esc, deploys, turns, measures, toggles overlays, draws terrain and exports a PNG."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QApplication, QGraphicsItem
from pytestqt.qtbot import QtBot

from app.core.battle import AddTerrain, BattleSession, Deploy, MoveUnit, NextPhase
from app.core.battle.reach import RulerReading
from app.core.battle.sample import sample_session
from app.gui.battle.map import BattleMap
from app.gui.battle.map.unit_item import UnitItem
from app.rules.geometry import edge_distance
from app.rules.mechanics import mechanics_for
from app.rules.paths import Leg
from app.rules.registry import Registry

pytestmark = pytest.mark.gui

Mods = Qt.KeyboardModifier


@pytest.fixture
def session(registry: Registry) -> BattleSession:
    """A D3 battle past deployment (its Movement phase)."""
    rs = registry.get("d3-ancients")
    s = sample_session(rs, mechanics_for(rs))
    s.do(NextPhase())
    return s


@pytest.fixture
def battle_map(qtbot: QtBot, session: BattleSession) -> BattleMap:
    view = BattleMap()
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    qtbot.waitExposed(view)
    view.show_state(session.state, session.mechanics)
    view.fit_table()
    return view


def run(view: BattleMap, session: BattleSession, command: object) -> None:
    session.do(command)  # type: ignore[arg-type]
    view.show_state(session.state, session.mechanics)


def at(view: BattleMap, x: float, y: float) -> QPointF:
    """Viewport position of the table point (x, y)."""
    return QPointF(view.mapFromScene(view.map_scene.frame.to_scene(x, y)))


def mouse(
    view: BattleMap,
    kind: QEvent.Type,
    pos: QPointF,
    button: Qt.MouseButton = Qt.MouseButton.LeftButton,
    mods: Qt.KeyboardModifier = Mods.NoModifier,
) -> None:
    held = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else button
    moving = kind == QEvent.Type.MouseMove
    event = QMouseEvent(
        kind,
        pos,
        QPointF(view.viewport().mapToGlobal(pos.toPoint())),
        Qt.MouseButton.NoButton if moving else button,
        held,
        mods,
    )
    QApplication.sendEvent(view.viewport(), event)


def drag(
    view: BattleMap,
    start: tuple[float, float],
    end: tuple[float, float],
    *,
    release: bool = True,
    mods: Qt.KeyboardModifier = Mods.NoModifier,
) -> None:
    a, b = at(view, *start), at(view, *end)
    mouse(view, QEvent.Type.MouseButtonPress, a)
    for k in range(1, 6):
        t = k / 5
        mouse(view, QEvent.Type.MouseMove, a + (b - a) * t, mods=mods)
    if release:
        mouse(view, QEvent.Type.MouseButtonRelease, b, mods=mods)


def click(view: BattleMap, x: float, y: float, mods: Qt.KeyboardModifier = Mods.NoModifier) -> None:
    p = at(view, x, y)
    mouse(view, QEvent.Type.MouseButtonPress, p, mods=mods)
    mouse(view, QEvent.Type.MouseButtonRelease, p, mods=mods)


def key(view: BattleMap, k: Qt.Key, mods: Qt.KeyboardModifier = Mods.NoModifier) -> None:
    QApplication.sendEvent(view, QKeyEvent(QEvent.Type.KeyPress, k, mods))


def emitted(view: BattleMap) -> list[object]:
    out: list[object] = []
    view.commandRequested.connect(out.append)
    return out


# --------------------------------------------------------------------------- drawing


def test_draws_every_unit_at_its_footprint_and_every_piece(
    battle_map: BattleMap, session: BattleSession
) -> None:
    state = session.state
    scene = battle_map.map_scene
    assert set(scene.units) == {u.id for u in state.units}
    assert set(scene.terrain) == {t.id for t in state.terrain}
    a1 = state.unit("A1")
    item = scene.units["A1"]
    centre = scene.frame.to_scene(a1.x, a1.y)
    assert item.pos() == centre and item.rotation() == a1.facing
    # the base is the unit's real size: 12" by 3" in D3
    body = item.body
    assert body.width() == pytest.approx(scene.frame.length(a1.width))
    assert body.height() == pytest.approx(scene.frame.length(a1.depth))
    assert scene.units["B1"].rotation() == 180
    # state at a glance and the leader on his unit
    assert "Hastati" in item.tooltip()
    leader = next(ld for ld in state.leaders if ld.attached_to)
    assert scene.leaders[leader.id].parentItem() is scene.units[leader.attached_to]


def test_a_new_state_updates_items_in_place(battle_map: BattleMap, session: BattleSession) -> None:
    items = dict(battle_map.map_scene.units)
    before = {uid: item.pos() for uid, item in items.items()}
    run(battle_map, session, MoveUnit(unit="A3", legs=(Leg.straight(2),)))
    assert battle_map.map_scene.units == items  # the same items, none rebuilt
    moved = [uid for uid, item in items.items() if item.pos() != before[uid]]
    assert moved == ["A3"]
    a3 = session.state.unit("A3")
    assert items["A3"].pos() == battle_map.map_scene.frame.to_scene(a3.x, a3.y)
    assert items["A3"].cacheMode() == UnitItem.CacheMode.DeviceCoordinateCache


def test_a_unit_turned_off_a_right_angle_is_drawn_without_a_cache(
    battle_map: BattleMap, session: BattleSession
) -> None:
    """Qt keeps no device cache for an item turned off a right angle (it draws the cache
    afresh on every paint): such a unit is drawn straight; turned square again, cached."""
    item = battle_map.map_scene.units["A3"]
    a3 = session.state.unit("A3")
    modes = UnitItem.CacheMode
    for facing, mode in (
        (a3.facing + 5, modes.NoCache),
        (90.0, modes.DeviceCoordinateCache),
        (217.5, modes.NoCache),
        (180.0, modes.DeviceCoordinateCache),
    ):
        turned = session.state.replace_unit(replace(a3, facing=facing))
        battle_map.show_state(turned, session.mechanics)
        assert item.rotation() == facing % 360
        assert item.cacheMode() == mode


def test_a_units_tooltip_is_shown_on_hover_as_it_is_now(
    battle_map: BattleMap, session: BattleSession, qt_warnings_fail: list[str]
) -> None:
    """The pointer resting on a unit shows its tooltip (written when asked for, not for
    every unit of every state), and after a command it tells the unit as it is then."""
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    def hover(uid: str) -> str:
        a = session.state.unit(uid)
        pos = at(battle_map, a.x, a.y).toPoint()
        event = QHelpEvent(QEvent.Type.ToolTip, pos, battle_map.viewport().mapToGlobal(pos))
        QApplication.sendEvent(battle_map.viewport(), event)
        return QToolTip.text()

    item = battle_map.map_scene.units["A3"]
    assert item._tip_stale  # nothing written before it is asked for
    shown = hover("A3")
    assert shown == item.tooltip() and "<b>" + session.state.unit("A3").name in shown
    assert "moved" not in shown
    run(battle_map, session, MoveUnit(unit="A3", legs=(Leg.straight(2),)))
    assert "moved 2.0 this turn" in hover("A3") == item.toolTip() == item.tooltip()
    QToolTip.hideText()
    # the offscreen platform cannot raise the tooltip's window: its message, not ours
    qt_warnings_fail[:] = [m for m in qt_warnings_fail if "does not support raise()" not in m]


def test_state_at_a_glance(battle_map: BattleMap, session: BattleSession) -> None:
    from dataclasses import replace

    state = session.state
    a1 = state.unit("A1")
    hurt = replace(a1, status=replace(a1.status, hits=2, markers=frozenset({"shaken"})))
    battle_map.show_state(state.replace_unit(hurt), session.mechanics, read_only=True)
    text = battle_map.map_scene.units["A1"].state_text()
    assert "2 hits" in text and "shaken" in text


# --------------------------------------------------------------------------- selecting, acting


def test_click_selects_a_unit_of_either_side_never_a_target(
    battle_map: BattleMap, qtbot: QtBot, session: BattleSession
) -> None:
    """Issue 24: a click on the other side's unit while one is selected selects it; the
    target is chosen by the action (right-click > Charge or Act against, the Actions dock)
    and marked unlike the selection."""
    a1, b1 = session.state.unit("A1"), session.state.unit("B1")
    with qtbot.waitSignal(battle_map.unitSelected) as sig:
        click(battle_map, a1.x, a1.y)
    assert sig.args == ["A1"] and battle_map.selected_unit() == "A1"
    assert battle_map.map_scene.units["A1"].selected
    targets: list[tuple[str, str]] = []
    battle_map.targetRequested.connect(lambda a, b: targets.append((a, b)))
    with qtbot.waitSignal(battle_map.unitSelected) as sig:
        click(battle_map, b1.x, b1.y)
    assert sig.args == ["B1"] and battle_map.selected_unit() == "B1"
    assert targets == []
    assert not battle_map.map_scene.units["A1"].selected
    # the target the action chose: red corner marks, not the selection's yellow outline
    battle_map.set_target("A1")
    a1_item = battle_map.map_scene.units["A1"]
    assert a1_item.targeted and not a1_item.selected
    assert (
        battle_map.map_scene.units["B1"].selected and not battle_map.map_scene.units["B1"].targeted
    )
    battle_map.set_target(None)
    assert not a1_item.targeted
    click(battle_map, 70, 30)  # empty ground
    assert battle_map.selected_unit() is None


def test_context_menu_acts_against_and_measures(
    battle_map: BattleMap, qtbot: QtBot, session: BattleSession
) -> None:
    from app.gui.battle.map.menu import map_menu

    b1 = session.state.unit("B1")
    battle_map.select_unit("A1")
    menu = map_menu(battle_map, battle_map.map_scene.frame.to_scene(b1.x, b1.y))
    actions = {a.text(): a for a in menu.actions()}
    assert f"Act against {b1.name}..." in actions
    with qtbot.waitSignal(battle_map.targetRequested) as sig:
        actions[f"Act against {b1.name}..."].trigger()
    assert sig.args == ["A1", "B1"]
    with qtbot.waitSignal(battle_map.measured) as measured:
        actions[f"Measure to {b1.name}"].trigger()
    assert measured.args[0].to_unit == "B1"


# --------------------------------------------------------------------------- moving


def test_a_legal_drag_commits_a_move_unit(battle_map: BattleMap, session: BattleSession) -> None:
    sent = emitted(battle_map)
    a3 = session.state.unit("A3")
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 4), release=False)
    assert battle_map.ghost.isVisible()
    assert "forward 4" in battle_map.ghost.text and "cost 4.0" in battle_map.ghost.text
    assert "release to move; Esc cancels" in battle_map.ghost.text
    mouse(battle_map, QEvent.Type.MouseButtonRelease, at(battle_map, a3.x, a3.y + 4))
    assert len(sent) == 1
    move = sent[0]
    assert isinstance(move, MoveUnit) and move.unit == "A3" and not move.force
    assert [leg.kind for leg in move.legs] == ["straight"]
    assert move.legs[0].distance == pytest.approx(4, abs=0.05)
    run(battle_map, session, move)
    assert session.state.unit("A3").y == pytest.approx(a3.y + 4, abs=0.05)
    assert not battle_map.ghost.isVisible()


def test_an_illegal_drag_shows_the_rule_and_commits_nothing(
    battle_map: BattleMap, qtbot: QtBot, session: BattleSession
) -> None:
    sent = emitted(battle_map)
    a3 = session.state.unit("A3")
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 8), release=False)  # 9" allowance, but 8" ...
    drag(battle_map, (a3.x, a3.y), (a3.x + 1, a3.y + 12), release=False)  # ... 12" is too far
    text = battle_map.ghost.text
    assert "forbidden" in text and "of its 9" in text
    with qtbot.waitSignal(battle_map.message) as msg:
        mouse(battle_map, QEvent.Type.MouseButtonRelease, at(battle_map, a3.x + 1, a3.y + 12))
    assert sent == [] and "Not moved" in msg.args[0]
    assert session.state.unit("A3").y == a3.y


def test_forcing_a_forbidden_move_asks_and_is_sent_as_forced(
    battle_map: BattleMap, session: BattleSession
) -> None:
    sent = emitted(battle_map)
    asked: list[str] = []
    battle_map.confirm = lambda title, text: asked.append(text) is None
    a3 = session.state.unit("A3")
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 12), mods=Mods.AltModifier)
    assert len(asked) == 1 and "logged as an override" in asked[0]
    assert isinstance(sent[0], MoveUnit) and sent[0].force
    run(battle_map, session, sent[0])
    assert any("Forced past" in line for line in session.steps[-1].lines)


def test_a_move_needing_confirmation_asks_first(
    battle_map: BattleMap, session: BattleSession
) -> None:
    """A move the rules leave to the umpire ("confirm") is asked before it is sent, and
    sent forced when the umpire agrees. (D3 forbids rivers outright, so a house rule here
    makes entering a river the umpire's call.)"""
    from dataclasses import replace

    from app.rules.movement import TerrainEffect
    from app.rules.table import TerrainKind

    base = type(session.mechanics)

    class Umpire(base):  # type: ignore[misc, valid-type]
        def terrain_effect(self, unit: Any, kind: TerrainKind) -> TerrainEffect:
            found: TerrainEffect = super().terrain_effect(unit, kind)
            return replace(found, passable="confirm") if kind == "river" else found

    sent = emitted(battle_map)
    answers = [False, True]
    battle_map.confirm = lambda title, text: answers.pop(0)
    a3 = replace(session.state.unit("A3"), y=19.0)  # the river runs about y 24 here
    battle_map.show_state(session.state.replace_unit(a3), Umpire(session.ruleset))
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 4), release=False)
    assert "confirm" in battle_map.ghost.text and "river" in battle_map.ghost.text
    mouse(battle_map, QEvent.Type.MouseButtonRelease, at(battle_map, a3.x, a3.y + 4))
    assert sent == [] and answers == [True]  # asked, and the umpire said no
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 4))
    assert len(sent) == 1 and isinstance(sent[0], MoveUnit) and sent[0].force


def test_d3_river_refused_on_the_map(battle_map: BattleMap, session: BattleSession) -> None:
    """D3, Terrain: rivers are crossed only at a bridge or ford; the ghost turns red with
    the rule and nothing is sent."""
    from dataclasses import replace

    sent = emitted(battle_map)
    a3 = replace(session.state.unit("A3"), y=19.0)
    battle_map.show_state(session.state.replace_unit(a3), session.mechanics)
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 4), release=False)
    assert "forbidden: D3, Terrain" in battle_map.ghost.text and "river" in battle_map.ghost.text
    mouse(battle_map, QEvent.Type.MouseButtonRelease, at(battle_map, a3.x, a3.y + 4))
    assert sent == []


def test_esc_cancels_a_drag(battle_map: BattleMap, session: BattleSession) -> None:
    sent = emitted(battle_map)
    a3 = session.state.unit("A3")
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 3), release=False)
    assert battle_map.ghost.isVisible()
    key(battle_map, Qt.Key.Key_Escape)
    assert not battle_map.ghost.isVisible()
    mouse(battle_map, QEvent.Type.MouseButtonRelease, at(battle_map, a3.x, a3.y + 3))
    assert sent == []


def test_keys_turn_and_wheel_then_enter_commits(
    battle_map: BattleMap, session: BattleSession
) -> None:
    sent = emitted(battle_map)
    run(battle_map, session, MoveUnit(unit="A3", legs=(Leg.straight(4),)))  # room to turn
    battle_map.select_unit("A3")
    key(battle_map, Qt.Key.Key_E)
    key(battle_map, Qt.Key.Key_E)
    assert "pivot 30 right" in battle_map.ghost.text
    # nothing is held to release: the ghost says what commits a move made by the keys
    assert "Enter to move; Esc cancels" in battle_map.ghost.text
    assert "release" not in battle_map.ghost.text
    key(battle_map, Qt.Key.Key_Q)
    assert "pivot 15 right" in battle_map.ghost.text
    key(battle_map, Qt.Key.Key_Return)
    assert len(sent) == 1 and isinstance(sent[0], MoveUnit) and sent[0].legs == (Leg.pivot(15),)
    run(battle_map, session, sent[0])
    assert battle_map.map_scene.units["A3"].rotation() == pytest.approx(15)
    key(battle_map, Qt.Key.Key_Q, Mods.ShiftModifier)
    assert "wheel 15 left" in battle_map.ghost.text
    # D3 turns a unit only by pivoting (errata turning-only-by-pivots): the wheel is
    # refused on the ghost, with its rule, and Enter sends nothing
    assert "forbidden: D3, Movement" in battle_map.ghost.text
    key(battle_map, Qt.Key.Key_Return)
    assert len(sent) == 1


def test_deployment_drags_inside_the_zone(registry: Registry, qtbot: QtBot) -> None:
    rs = registry.get("d3-ancients")
    s = sample_session(rs, mechanics_for(rs))
    view = BattleMap()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    view.show_state(s.state, s.mechanics)
    assert view.deploying and view.map_scene.zones.isVisible()
    sent = emitted(view)
    a3 = s.state.unit("A3")
    view.select_unit("A3")
    drag(view, (a3.x, a3.y), (a3.x, a3.y + 20))  # beyond the 12" zone
    assert sent == []
    drag(view, (a3.x, a3.y), (a3.x + 0.5, a3.y - 3))
    assert len(sent) == 1 and isinstance(sent[0], Deploy)
    assert (sent[0].x, sent[0].y) == pytest.approx((a3.x + 0.5, a3.y - 3), abs=0.06)
    s.do(sent[0])
    assert s.state.unit("A3").y == pytest.approx(a3.y - 3, abs=0.06)


def test_read_only_sends_nothing(battle_map: BattleMap, session: BattleSession) -> None:
    battle_map.show_state(session.state, session.mechanics, read_only=True)
    sent = emitted(battle_map)
    a3 = session.state.unit("A3")
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 3))
    key(battle_map, Qt.Key.Key_E)
    assert sent == [] and not battle_map.ghost.isVisible()


# --------------------------------------------------------------------------- ruler, overlays


def test_ruler_measures_base_edge_to_base_edge(
    battle_map: BattleMap, qtbot: QtBot, session: BattleSession
) -> None:
    a3, b3 = session.state.unit("A3"), session.state.unit("B3")
    battle_map.set_tool("ruler")
    with qtbot.waitSignal(battle_map.measured) as sig:
        drag(battle_map, (a3.x, a3.y), (b3.x, b3.y))
    reading = sig.args[0]
    assert isinstance(reading, RulerReading) and reading.kind == "units"
    assert reading.distance == pytest.approx(edge_distance(a3.footprint, b3.footprint))
    m = reading.measurement  # the mechanics' own measure: arcs and sight
    assert m is not None and m.arc == "front" and m.target_arc == "front" and m.los
    crossed = {c.kind for c in reading.crossed}
    assert "river" in crossed  # the Trebia runs across the middle of the table
    assert battle_map.ruler.line.isVisible()
    # the units at its ends by name, on the ruler's card and in the status line ("A3 to
    # B3" told a player nothing the map shows)
    ends = f"{a3.name} (A3) to {b3.name} (B3)"
    assert ends in battle_map.ruler.label.lines
    assert reading.text().startswith(f"{ends}: ")
    key(battle_map, Qt.Key.Key_Escape)
    assert not battle_map.ruler.line.isVisible()


def test_overlays_toggle(battle_map: BattleMap) -> None:
    overlays = battle_map.overlays
    battle_map.select_unit("A3")
    for name in ("reach", "los", "range", "command"):
        battle_map.toggle_overlay(name, True)
    assert overlays.items["reach"].isVisible() and not overlays.items["reach"].path().isEmpty()
    assert overlays.items["los"].isVisible()
    assert "reach: 9.0" in overlays.notes["reach"]
    assert "range" in overlays.notes
    # the mechanics' command distance, drawn to the nearest leader of its side
    assert "from" in overlays.notes["command"] and overlays.items["command"].isVisible()
    battle_map.toggle_overlay("reach", False)
    assert not overlays.items["reach"].isVisible()
    battle_map.select_unit(None)
    assert not overlays.items["los"].isVisible()
    with pytest.raises(ValueError, match="no overlay"):
        battle_map.toggle_overlay("fog", True)


def test_grid_and_tools(battle_map: BattleMap) -> None:
    battle_map.set_grid(True)
    assert battle_map.map_scene.grid.isVisible()
    battle_map.set_grid(False)
    assert not battle_map.map_scene.grid.isVisible()
    with pytest.raises(ValueError, match="no map tool"):
        battle_map.set_tool("brush")


# --------------------------------------------------------------------------- terrain


def test_drawing_a_polygon_emits_add_terrain(battle_map: BattleMap, session: BattleSession) -> None:
    sent = emitted(battle_map)
    battle_map.set_tool("terrain:woods")
    click(battle_map, 60, 14)
    click(battle_map, 68, 14)
    click(battle_map, 68, 20)
    mouse(battle_map, QEvent.Type.MouseButtonDblClick, at(battle_map, 68, 20))
    assert len(sent) == 1
    add = sent[0]
    assert isinstance(add, AddTerrain) and add.terrain == "woods" and len(add.points) == 3
    assert add.points[0] == pytest.approx((60, 14), abs=0.05)
    run(battle_map, session, add)
    assert len(battle_map.map_scene.terrain) == 7


def test_drawing_a_road_and_enter_finishes(battle_map: BattleMap) -> None:
    sent = emitted(battle_map)
    battle_map.set_tool("terrain:road")
    click(battle_map, 2, 2)
    key(battle_map, Qt.Key.Key_Return)
    assert sent == []  # one point is no road: it goes on
    click(battle_map, 10, 4)
    key(battle_map, Qt.Key.Key_Return)
    assert isinstance(sent[0], AddTerrain) and sent[0].terrain == "road"


def test_editing_moves_a_corner_and_deletes(battle_map: BattleMap, session: BattleSession) -> None:
    sent = emitted(battle_map)
    marsh = session.state.table.piece("T6")
    battle_map.set_tool("terrain:edit")
    x, y = marsh.points[0]
    drag(battle_map, (x + 1, y + 1), (x + 1, y + 1))  # a click inside: picks the piece
    assert battle_map.terrain_edit is not None and sent == []
    drag(battle_map, (x, y), (x - 2, y - 1))
    assert len(sent) == 1
    edit = sent[0]
    assert edit.id == "T6" and edit.points[0] == pytest.approx((x - 2, y - 1), abs=0.05)  # type: ignore[attr-defined]
    run(battle_map, session, edit)
    battle_map.set_tool("terrain:edit")
    click(battle_map, x + 1, y + 1)
    key(battle_map, Qt.Key.Key_Delete)
    assert sent[-1].id == "T6" and type(sent[-1]).__name__ == "RemoveTerrain"  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- export


def test_export_png_writes_an_image(battle_map: BattleMap, tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    assert battle_map.export_png(str(out))
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 1000
    assert out.stat().st_size > 10_000


def card_rect(view: BattleMap, label: QGraphicsItem) -> QRectF:
    """Where a label's card is drawn on the map's viewport (its size is in pixels)."""
    anchor = QPointF(view.mapFromScene(label.scenePos()))
    return label.boundingRect().translated(anchor)


def test_a_drag_near_the_right_edge_keeps_its_card_on_the_map(
    qtbot: QtBot, battle_map: BattleMap, session: BattleSession
) -> None:
    """Issue 24: at 1280 px a drag's card ran off the right edge of the window."""
    battle_map.resize(560, 500)
    battle_map.fit_table()
    right = max(session.state.units, key=lambda u: u.x)
    battle_map.select_unit(right.id)
    drag(battle_map, (right.x, right.y), (right.x + 1.5, right.y + 2), release=False)
    assert battle_map.ghost.isVisible()
    area = QRectF(battle_map.viewport().rect())
    card = card_rect(battle_map, battle_map.ghost.label)
    assert area.contains(card), (card, area)
    assert battle_map.ghost.label.offset.x() < 0  # drawn to the left of its anchor
    key(battle_map, Qt.Key.Key_Escape)
    # the ruler's card too
    battle_map.set_tool("ruler")
    left = min(session.state.units, key=lambda u: u.x)
    drag(battle_map, (left.x, left.y), (right.x + 2, right.y))
    assert area.contains(card_rect(battle_map, battle_map.ruler.label))


def test_a_drag_s_card_is_never_under_the_legend(
    battle_map: BattleMap, session: BattleSession
) -> None:
    """The legend sits over the map's bottom-left corner, and a drag's card (its cost and
    the rules it breaks) drawn there was hidden under it: the card keeps out of the
    legend's way."""
    legend = battle_map.legend
    assert legend.isVisible()
    box = QRectF(legend.geometry())
    # the table point under the legend's top-right part: a drag's end there puts its card
    # (drawn at the end's top right) over the legend
    corner = battle_map.mapToScene(box.center().toPoint())
    frame = battle_map.map_scene.frame
    x, y = frame.to_table(corner)
    unit = min(session.state.units, key=lambda u: (u.x - x) ** 2 + (u.y - y) ** 2)
    battle_map.select_unit(unit.id)
    drag(battle_map, (unit.x, unit.y), (x, y), release=False)
    label = battle_map.ghost.label
    assert battle_map.ghost.isVisible() and label.isVisible()
    card = battle_map.mapFromScene(label.sceneBoundingRect()).boundingRect()
    assert not QRectF(card).intersects(box), (card, box)
    key(battle_map, Qt.Key.Key_Escape)


def test_the_drag_card_names_the_terrain_crossed_as_the_ruler_does(
    battle_map: BattleMap, session: BattleSession
) -> None:
    """The drag card says what the path goes through by the piece's name as well as its id
    ('river T1 "Aufidus"'), as the ruler and the log do, not by the id alone."""
    from dataclasses import replace

    from app.rules.movement import TerrainEffect
    from app.rules.table import TerrainKind

    base = type(session.mechanics)

    class Wade(base):  # type: ignore[misc, valid-type]
        def terrain_effect(self, unit: Any, kind: TerrainKind) -> TerrainEffect:
            found: TerrainEffect = super().terrain_effect(unit, kind)
            return replace(found, passable=True) if kind == "river" else found

    river = next(p for p in session.state.terrain if p.kind == "river")
    terrain = tuple(replace(p, name="Aufidus") if p is river else p for p in session.state.terrain)
    named = replace(session.state, terrain=terrain)
    a3 = replace(named.unit("A3"), y=19.0)  # the river runs about y 24 here
    battle_map.show_state(named.replace_unit(a3), Wade(session.ruleset))
    battle_map.select_unit("A3")
    drag(battle_map, (a3.x, a3.y), (a3.x, a3.y + 8), release=False)
    assert f'through river {river.id} "Aufidus"' in battle_map.ghost.text
