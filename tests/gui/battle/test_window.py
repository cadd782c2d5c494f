"""The battle window driven like a player (offscreen): a new battle from two sample rosters,
odds before rolling equal to ``castra odds``, Roll and Enter dice, undo and redo with the
same dice, a past step shown read-only, the layout kept across a restart, deployment by
drag, a charge."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMenu
from pytestqt.qtbot import QtBot

from app.cli import main
from app.core.battle import BattleSession, MoveUnit, NextPhase, StartBattle, new_battle
from app.core.battle.sample import sample_roster
from app.core.roster import Roster
from app.core.rosterfile import from_dict as roster_from_dict
from app.gui.battle.actions import BattleKey
from app.gui.battle.controller import BattleController
from app.gui.battle.log_panel import STEP_ROLE
from app.gui.battle.window import BattleWindow, step_title
from app.gui.main_window import MainWindow
from app.rules.geometry import edge_distance
from app.rules.mechanics import mechanics_for
from app.rules.paths import Leg
from app.rules.registry import Registry
from app.store import Store
from app.store.battles import list_battles, load_battle
from app.store.repo import save_roster
from tests.cli.test_battle_cli import ROSTERS
from tests.gui.battle.test_map import at, click, drag, mouse

pytestmark = pytest.mark.gui


def gsb_rosters(registry: Registry) -> tuple[Roster, Roster]:
    a, b = (roster_from_dict(d, registry) for d in ROSTERS["grown-slightly-bald"])
    return a, b


def gsb_session(registry: Registry, seed: int = 5) -> BattleSession:
    rs = registry.get("grown-slightly-bald")
    mech = mechanics_for(rs)
    s = BattleSession(
        rs, mech, new_battle(rs, mech, gsb_rosters(registry)), seed=seed, name="GSB test"
    )
    s.do(StartBattle())
    return s


def meet(session: BattleSession, mover: str, target: str) -> None:
    """Put ``mover`` front to front with ``target`` (a melee needs contact), the two facing
    each other across the table: straight to the point, in the stored form of a move."""
    a, b = session.state.unit(mover), session.state.unit(target)
    assert (a.facing, b.facing) == (0.0, 180.0)
    session.do(MoveUnit(unit=mover, x=b.x, y=b.y - (a.depth + b.depth) / 2, facing=0.0))


def open_window(
    qtbot: QtBot,
    session: BattleSession,
    settings: QSettings,
    store: Store | None = None,
    rosters: tuple[Roster, Roster] | None = None,
) -> BattleWindow:
    battle_id = None
    if store is not None:
        from app.store.battles import create_battle

        assert rosters is not None
        battle_id = create_battle(store, session=session, rosters=rosters)
    controller = BattleController(session, store=store, battle_id=battle_id, rosters=rosters)
    window = BattleWindow(controller, settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def activate(window: BattleWindow, uid: str) -> None:
    """GSB, Turn order: on to the activations of ``uid``'s side, then activate it from the
    Actions dock (the unit, "Activate a unit", Roll): only the unit activated moves and
    fights."""
    session = window.controller.session
    side = session.state.unit(uid).side
    for _ in range(12):
        if session.mechanics.side_in_play(session.state.view()) == side:
            break
        window.turn_panel.next_button.click()
    window.acting.set_pair(uid)
    window.acting.choose_action("activate")
    window.acting.roll_button.click()
    assert session.state.unit(uid).status.has("activated"), window.statusBar().currentMessage()


def to_phase(window: BattleWindow, name: str) -> None:
    for _ in range(12):
        if window.controller.phase_name() == name:
            return
        window.turn_panel.next_button.click()
    raise AssertionError(f"never reached {name}")


# --------------------------------------------------------------------------- new battle


def test_new_battle_from_two_sample_rosters(
    make_window: Any, registry: Registry, store: Store, qtbot: QtBot
) -> None:
    rs = registry.get("d3-ancients")
    a_id = save_roster(store, roster=sample_roster(rs, "roman"))
    b_id = save_roster(store, roster=sample_roster(rs, "carthaginian"))
    main_window: MainWindow = make_window()
    dialog = main_window.battles.new_battle()
    assert dialog is not None
    dialog.roster_a.setCurrentIndex(dialog.roster_a.findData(a_id))
    dialog.roster_b.setCurrentIndex(dialog.roster_b.findData(b_id))
    assert dialog.side_flags["supply_problems"][1].isVisibleTo(
        dialog
    )  # D3: supply problems may be chosen
    dialog.seed.setValue(77)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    [battle] = list_battles(store)
    window = main_window.battles.windows[battle.id]
    qtbot.waitExposed(window)
    state = window.controller.session.state
    assert state.started and window.controller.session.seed == 77
    assert {u.side for u in state.units} == {0, 1}
    assert window.map.deploying  # the first phase: units stand in their zones
    assert window.log_panel.tree.topLevelItemCount() == 1
    # the library lists it, and Resume opens the same window
    main_window.battles.refresh()
    assert main_window.battle_library.view.topLevelItemCount() == 1
    assert main_window.battles.resume() is window
    window.close()
    reopened = main_window.battles.open_battle(battle.id)
    assert reopened is not None and reopened.controller.session.cursor == 1
    reopened.close()


def test_a_battle_window_closed_is_deleted_with_its_battle(
    make_window: Any, registry: Registry, store: Store, qtbot: QtBot
) -> None:
    """Closing a battle window deletes it: its controller, Castra's runner, its map and docks
    and the battle it showed are freed as it goes, without the collector (each battle opened
    and closed used to stay in memory for the rest of the run, for the collector to go
    over), and nothing it had set for later runs on the deleted docks; the battle opens
    again from the store."""
    import gc
    import weakref

    from PySide6.QtCore import QCoreApplication

    from app.store.battles import create_battle

    session = gsb_session(registry)
    session.do(NextPhase())
    bid = create_battle(store, session=session, rosters=gsb_rosters(registry))
    del session
    main_window: MainWindow = make_window()
    window = main_window.battles.open_battle(bid)
    assert window is not None
    qtbot.waitExposed(window)
    battle = weakref.ref(window.controller.session)
    destroyed: list[bool] = []
    window.controller.destroyed.connect(lambda: destroyed.append(True))
    window.castra.destroyed.connect(lambda: destroyed.append(True))
    window.acting.choose_action("activate")  # sets a timer to fit the dock's options
    the_map, log = weakref.ref(window.map), weakref.ref(window.log_panel)
    window.close()
    assert bid not in main_window.battles.windows
    del window
    gc.collect()
    gc.disable()  # freed as the window goes, not left in cycles for the collector
    try:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # as the loop
        qtbot.wait(20)  # the timers that were set: none runs on what was deleted
        assert destroyed == [True, True]
        assert battle() is None and the_map() is None and log() is None
    finally:
        gc.enable()
    again = main_window.battles.open_battle(bid)
    assert again is not None and again.controller.session.cursor == 2
    again.close()


def test_new_battle_on_a_ready_made_table(
    make_window: Any, registry: Registry, store: Store, qtbot: QtBot
) -> None:
    """The New battle dialog offers the ruleset's ready-made tables; the one chosen is laid
    out on the battle's table (its terrain in the state, drawn on the map)."""
    rs = registry.get("d3-ancients")
    a_id = save_roster(store, roster=sample_roster(rs, "roman"))
    b_id = save_roster(store, roster=sample_roster(rs, "carthaginian"))
    main_window: MainWindow = make_window()
    dialog = main_window.battles.new_battle()
    assert dialog is not None
    dialog.roster_a.setCurrentIndex(dialog.roster_a.findData(a_id))
    dialog.roster_b.setCurrentIndex(dialog.roster_b.findData(b_id))
    names = [dialog.table.itemText(i) for i in range(dialog.table.count())]
    assert names[0].startswith("The ruleset's standard table")
    assert {"open plain", "river crossing", "hills and woods"} <= set(names)
    dialog.table.setCurrentIndex(names.index("river crossing"))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    [battle] = list_battles(store)
    window = main_window.battles.windows[battle.id]
    state = window.controller.session.state
    kinds = {t.kind for t in state.terrain}
    assert "river" in kinds and "ford" in kinds
    assert set(window.map.map_scene.terrain) == {t.id for t in state.terrain}
    window.close()


def test_new_battle_offers_saved_layouts_and_names_a_bad_file(
    make_window: Any, registry: Registry, store: Store
) -> None:
    """A layout saved by the user is offered for its ruleset; a damaged file in the layouts
    folder is named in the dialog and the others still load."""
    import os

    from app.core.layouts import save_layout
    from app.rules.layouts import layout_of
    from app.rules.table import Table as RulesTable
    from app.rules.table import TerrainPiece as Piece

    folder = Path(os.environ["CASTRA_HOME"]) / "tables"
    table = RulesTable(72, 48, (Piece("T1", "woods", ((10, 10), (20, 10), (20, 20))),))
    save_layout(folder, layout_of("Club table", table, 25.4))
    (folder / "broken.json").write_text("{not json", encoding="utf-8")
    rs = registry.get("d3-ancients")
    save_roster(store, roster=sample_roster(rs, "roman"))
    save_roster(store, roster=sample_roster(rs, "carthaginian"))
    main_window: MainWindow = make_window()
    dialog = main_window.battles.new_battle()
    assert dialog is not None
    names = [dialog.table.itemText(i) for i in range(dialog.table.count())]
    assert "Club table (saved)" in names
    assert "broken.json" in dialog.error.text()
    dialog.table.setCurrentIndex(names.index("Club table (saved)"))
    made = dialog.chosen_table(rs)
    assert made is not None and [p.kind for p in made.terrain] == ["woods"]
    dialog.reject()


# --------------------------------------------------------------------------- odds and dice


def cli_odds(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["odds", *args, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_odds_before_rolling_equal_castra_odds(
    qtbot: QtBot,
    registry: Registry,
    settings: QSettings,
    capsys: pytest.CaptureFixture[str],
) -> None:
    session = gsb_session(registry)
    window = open_window(qtbot, session, settings)
    to_phase(window, "First player's activations")
    acting = window.acting
    # any two units, by hand (without generals: ``castra odds`` gives only a bonus), with
    # the geometry set by hand: an attack on the flank
    state = session.state
    a, b = (
        next(u for u in state.units if u.side == side and state.leader_of(u.id) is None)
        for side in (0, 1)
    )
    meet(session, a.id, b.id)
    acting.set_pair(a.id, b.id)
    acting.choose_action("melee")
    acting.set_option("attack", "flank")
    assert acting.rows, acting.summary.text()
    values = {k: acting._widget_value(k) for k in acting._option_widgets}
    sets = [f"{k}={'yes' if v is True else 'no' if v is False else v}" for k, v in values.items()]
    data = cli_odds(
        capsys,
        "grown-slightly-bald",
        "--attacker",
        a.entry,
        "--defender",
        b.entry,
        "--size-a",
        str(a.status.start_strength),
        "--size-d",
        str(b.status.start_strength),
        *[x for s in sets for x in ("--set", s)],
    )
    cli = {o["result"]: Fraction(o["fraction"]) for o in data["outcomes"]}
    gui = {r.result: r.chance for r in acting.rows}
    assert gui == cli and sum(gui.values()) == 1
    expected = {k: round(float(v), 4) for k, v in acting.expected.items()}
    assert expected == data["expected"]
    # the chart draws them: the likeliest outcome is the first bar
    assert acting.chart.bars[0] == (acting.rows[0].result, acting.rows[0].chance)


def test_roll_then_undo_and_redo_with_the_same_dice(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    session = gsb_session(registry)
    meet(session, "A1", "B1")
    window = open_window(qtbot, session, settings)
    activate(window, "A1")
    window.acting.set_pair("A1", "B1")
    window.acting.choose_action("melee")
    before, steps = session.state, len(session.steps)
    window.acting.roll_button.click()
    assert len(session.steps) == steps + 1
    step = session.steps[-1]
    assert step.rolls and step.lines[0].startswith("Melee: ")
    undo = window.acts[BattleKey.UNDO]
    assert undo.text().replace("&", "") == f"Undo: {step_title(step)}"
    assert step_title(step).startswith("Melee: Legionaries (heavy infantry) (A1) against ")
    item = window.log_panel.item_for_step(len(session.steps))
    rolls = [item.child(i).text(0) for i in range(item.childCount())]
    assert any(r.startswith("Dice: ") and "->" in r for r in rolls)
    after = session.state
    undo.trigger()
    assert session.state == before
    redo = window.acts[BattleKey.REDO]
    assert redo.text().replace("&", "").startswith("Redo: Melee: ")
    redo.trigger()
    assert session.state == after and session.steps[-1].rolls == step.rolls


def test_enter_dice_asks_each_throw_and_checks_the_faces(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    session = gsb_session(registry)
    meet(session, "A1", "B1")
    window = open_window(qtbot, session, settings)
    activate(window, "A1")
    window.acting.set_pair("A1", "B1")
    window.acting.choose_action("melee")
    steps = len(session.steps)
    dialog = window.enter_dice()
    assert dialog is not None and dialog.request is not None
    assert dialog.request.spec == "5d6" and "5 x d6 (1-6)" in dialog.prompt.text()
    dialog.edit.setText("1 2 3")
    dialog.take()
    assert "give 5 faces, not 3" in dialog.error.text() and dialog.faces == []
    dialog.edit.setText("1 2 9 1 2")
    dialog.take()
    assert "9 is not a face of 5d6" in dialog.error.text()
    dialog.edit.setText("1 2 1 2 1")  # every die misses: nothing more is thrown
    dialog.take()
    assert dialog.step is not None and len(session.steps) == steps + 1
    assert [r.faces for r in session.steps[-1].rolls] == [(1, 2, 1, 2, 1)]
    assert "entered by hand" in session.steps[-1].lines[-1]
    window.acts[BattleKey.UNDO].trigger()
    window.acts[BattleKey.REDO].trigger()
    assert [r.faces for r in session.steps[-1].rolls] == [(1, 2, 1, 2, 1)]


# --------------------------------------------------------------------------- the log and the past


def test_a_log_step_clicked_shows_the_past_read_only(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    session = gsb_session(registry)
    meet(session, "A1", "B1")
    window = open_window(qtbot, session, settings)
    activate(window, "A1")
    window.acting.set_pair("A1", "B1")
    window.acting.choose_action("melee")
    window.acting.roll_button.click()
    # a move after the roll, by another unit of the side in play, activated (GSB: only
    # the unit activated moves): the past step shown has it where it stood before it
    uid = "A2"
    activate(window, uid)
    a1 = session.state.unit(uid)
    step = window.controller.execute(MoveUnit(unit=uid, legs=(Leg.straight(0.5),)))
    assert step is not None, window.statusBar().currentMessage()
    moved = session.state.unit(uid)
    assert (moved.x, moved.y) != (a1.x, a1.y)
    present = session.state
    n = len(session.steps) - 3
    tree = window.log_panel.tree
    item = window.log_panel.item_for_step(n)
    tree.scrollToItem(item)
    rect = tree.visualItemRect(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.controller.past == n
    assert window.controller.state == session.steps[n - 1].state == session.replay(n)
    assert window.map.read_only and window.log_panel.present_button.isVisible()
    scene = window.map.map_scene
    past = window.controller.state.unit(uid)
    assert (past.x, past.y) == (a1.x, a1.y)
    assert scene.units[uid].pos() == scene.frame.to_scene(a1.x, a1.y)
    assert not window.acting.roll_button.isEnabled()
    assert not window.acts[BattleKey.UNDO].isEnabled()
    steps = len(session.steps)
    window.acting.roll_button.click()  # disabled: nothing happens
    assert len(session.steps) == steps
    assert tree.selectedItems() == [item]
    window.log_panel.present_button.click()
    assert window.controller.past is None and window.controller.state == present
    assert tree.selectedItems() == []
    assert scene.units[uid].pos() == scene.frame.to_scene(moved.x, moved.y)
    assert not window.map.read_only and window.acting.roll_button.isEnabled()


# --------------------------------------------------------------------------- layout


def test_layout_is_restored_after_a_restart(
    qtbot: QtBot, registry: Registry, tmp_path: Path
) -> None:
    ini = str(tmp_path / "layout.ini")
    settings = QSettings(ini, QSettings.Format.IniFormat)
    window = open_window(qtbot, gsb_session(registry), settings)
    window.sides_dock.hide()
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, window.log_dock)
    window.close()
    again = open_window(qtbot, gsb_session(registry), QSettings(ini, QSettings.Format.IniFormat))
    assert not again.sides_dock.isVisible()
    assert again.dockWidgetArea(again.log_dock) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert again.unit_dock.isVisible() or again.unit_dock.isVisibleTo(again)
    again.acts[BattleKey.RESET_LAYOUT].trigger()
    assert again.sides_dock.isVisibleTo(again)
    assert again.dockWidgetArea(again.log_dock) == Qt.DockWidgetArea.RightDockWidgetArea
    again.close()


def test_the_window_fits_1280_by_720(qtbot: QtBot, registry: Registry, settings: QSettings) -> None:
    window = open_window(qtbot, gsb_session(registry), settings)
    window.resize(1280, 720)
    qtbot.wait(10)
    assert window.width() <= 1280 and window.height() <= 720
    assert window.map.width() >= 500 and window.map.height() >= 400
    for button in (window.acting.roll_button, window.acting.dice_button):
        assert button.isVisible() and button.width() >= 60


# --------------------------------------------------------------------------- the table


def d3_session(registry: Registry, seed: int = 3) -> BattleSession:
    """The two D3 rosters of the command-line tests on an open table, started: both armies
    stand in their deployment zones, in the first phase."""
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    a, b = (roster_from_dict(d, registry) for d in ROSTERS["d3-ancients"])
    session = BattleSession(rs, mech, new_battle(rs, mech, (a, b)), seed=seed, name="D3 test")
    session.do(StartBattle())
    return session


def test_deploy_by_drag_illegal_refused_legal_committed_then_a_charge(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Deployment by drag (out of the zone refused, inside committed), then the Roman
    cavalry dragged towards the enemy in its side's Movement phases, and once within reach
    a real charge from the Actions dock: the rules find the path, the two units touch, and
    the log says so."""
    session = d3_session(registry)
    window = open_window(qtbot, session, settings)
    view = window.map
    view.fit_table()
    assert view.deploying
    a5 = session.state.unit("A5")
    steps = len(session.steps)
    view.select_unit("A5")
    drag(view, (a5.x, a5.y), (a5.x, a5.y + 20))  # beyond the deployment zone
    assert len(session.steps) == steps
    assert session.state.unit("A5").y == a5.y
    drag(view, (a5.x, a5.y), (a5.x + 0.5, a5.y - 3))
    assert len(session.steps) == steps + 1
    assert session.steps[-1].command.kind == "deploy"
    assert session.state.unit("A5").y == pytest.approx(a5.y - 3, abs=0.11)  # snapped
    assert "deploys" in window.log_panel.item_for_step(len(session.steps)).toolTip(0)

    # too far at first: the charge is refused in one line and nothing is done
    to_phase(window, "Movement")
    assert session.mechanics.side_in_play(session.state.view()) == 0
    window.acting.set_pair("A5", "B5")
    steps = len(session.steps)
    window.acts[BattleKey.CHARGE].trigger()
    assert len(session.steps) == steps
    refused = window.statusBar().currentMessage()
    assert refused.startswith("Equites (Roman cavalry) (A5) ") and "(B5)" in refused
    assert "may not charge" in refused or "cannot reach" in refused

    # the cavalry closes in by drags on the map, in Rome's Movement phases only
    charged = False
    for _player_turn in range(12):
        to_phase(window, "Movement")
        if session.mechanics.side_in_play(session.state.view()) != 0:
            window.turn_panel.next_button.click()
            continue
        if charge(window, "A5", "B5"):
            charged = True
            break
        view_now = session.state.view()
        if not session.mechanics.move_allowance(view_now.unit("A5"), view_now):
            window.turn_panel.next_button.click()  # D3's Confusion card: no move this turn
            continue
        assert close_in(window, "A5", "B5"), window.statusBar().currentMessage()
        assert session.steps[-1].command.kind == "move"
        window.turn_panel.next_button.click()
    assert charged
    step = session.steps[-1]
    assert step.command.kind == "charge"
    state = session.state
    a5, b5 = state.unit("A5"), state.unit("B5")
    assert edge_distance(a5.footprint, b5.footprint) == pytest.approx(0, abs=1e-6)
    assert step.lines[0].startswith("Equites (Roman cavalry) (A5) charges")
    text = window.log_panel.item_for_step(len(session.steps)).toolTip(0)
    assert "charges" in text and "B5" in text


def test_mouse_press_on_the_map_selects_for_the_docks(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    session = gsb_session(registry)
    window = open_window(qtbot, session, settings)
    view = window.map
    view.fit_table()
    b1 = session.state.unit("B1")
    p = at(view, b1.x, b1.y)
    mouse(view, QEvent.Type.MouseButtonPress, p)
    mouse(view, QEvent.Type.MouseButtonRelease, p)
    assert window.unit_panel.unit_id == "B1"
    assert window.acting.actor.currentData() == "B1"
    assert "B1" in window.unit_panel.view.toPlainText()


def test_a_stored_battle_saves_every_step(
    qtbot: QtBot, registry: Registry, settings: QSettings, store: Store
) -> None:
    session = gsb_session(registry)
    window = open_window(qtbot, session, settings, store, gsb_rosters(registry))
    bid = window.controller.battle_id
    assert bid is not None
    window.turn_panel.next_button.click()
    window.acts[BattleKey.UNDO].trigger()
    loaded = load_battle(store, battle_id=bid, registry=registry)
    assert len(loaded.steps) == 2 and loaded.cursor == 1
    assert isinstance(loaded.steps[1].command, NextPhase)


# --------------------------------------------------------------------------- whole battles


def live(window: BattleWindow, side: int) -> list[str]:
    state = window.controller.session.state
    return [u.id for u in state.units if u.side == side and not u.status.eliminated]


def nearest(window: BattleWindow, unit: str, foes: list[str]) -> str:
    state = window.controller.session.state
    u = state.unit(unit)
    return min(foes, key=lambda f: (state.unit(f).x - u.x) ** 2 + (state.unit(f).y - u.y) ** 2)


def act(window: BattleWindow, action: str, unit: str | None, target: str | None = None) -> str:
    """Choose in the Actions dock and press Roll; the step's words ("" when refused)."""
    session = window.controller.session
    window.acting.choose_action(action)
    window.acting.set_pair(unit, target)
    steps = len(session.steps)
    window.acting.roll_button.click()
    return " ".join(session.steps[-1].lines) if len(session.steps) > steps else ""


def charge(window: BattleWindow, unit: str, target: str) -> bool:
    session = window.controller.session
    window.acting.set_pair(unit, target)
    steps = len(session.steps)
    window.acting.charge_button.click()
    return len(session.steps) > steps


def close_in(window: BattleWindow, unit: str, foe: str) -> bool:
    """Drag ``unit`` on the map straight towards ``foe``, nine tenths of its move (or up to
    a little short of it); whether the move was committed."""
    session = window.controller.session
    state = session.state
    u, f = state.unit(unit), state.unit(foe)
    allowance = session.mechanics.move_allowance(state.combatant(u), state.view()) or 0.0
    dx, dy = f.x - u.x, f.y - u.y
    dist = (dx * dx + dy * dy) ** 0.5
    step = min(allowance * 0.9, max(dist - (u.depth + f.depth), 0.0))
    if step <= 0.05 or dist == 0:
        return False
    end = (u.x + dx / dist * step, u.y + dy / dist * step)
    steps = len(session.steps)
    window.map.fit_table()
    window.map.select_unit(unit)
    drag(window.map, (u.x, u.y), end)
    return len(session.steps) > steps


def test_a_whole_gsb_battle_through_the_window(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """GSB to its victory rule with the window's own controls: Next phase, activation and
    melee from the Actions dock with Roll, moves dragged on the map, charges planned by the
    core from the dock."""
    session = gsb_session(registry, seed=11)
    window = open_window(qtbot, session, settings)
    melees = charges = moves = 0
    for _ in range(60):  # turns
        if session.state.result is not None:
            break
        to_phase(window, "First player's activations")
        for phase in ("First player's activations", "Second player's activations"):
            if session.state.result is not None:
                break
            to_phase(window, phase)
            side = session.mechanics.side_in_play(session.state.view())
            assert side is not None
            for unit in live(window, side):
                foes = live(window, 1 - side)
                if not foes or session.state.result is not None:
                    break
                said = act(window, "activate", unit)
                if "fails" in said or not said:
                    break
                foe = nearest(window, unit, foes)
                if charge(window, unit, foe):
                    charges += 1
                    if act(window, "melee", unit, foe):
                        melees += 1
                elif close_in(window, unit, foe):
                    moves += 1
        if session.state.result is None:
            window.turn_panel.next_button.click()
    result = session.state.result
    assert result is not None and result.winner is not None, session.log_text()[-2000:]
    assert "victory stars" in result.reason
    assert all(step.command.kind != "end" for step in session.steps)  # none declared
    assert melees >= 3 and charges >= 3 and moves >= 3
    # the result the window shows is the core's
    assert window.findChild(QDialog, "resultDialog") is not None
    assert not window.acting.roll_button.isEnabled()


def test_a_whole_d3_battle_through_the_window(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """D3 to its victory rule (errata: a broken army loses, or after the 15th turn the
    smaller share lost wins) with the window's controls: each player turn's chance card
    and phases by Next phase, moves dragged on the map, charges from the Actions dock,
    melee with Roll."""
    session = d3_session(registry)
    window = open_window(qtbot, session, settings)
    melees = charges = moves = 0
    for _ in range(200):  # phases
        if session.state.result is not None:
            break
        phase = window.controller.phase_name()
        side = session.mechanics.side_in_play(session.state.view())
        assert side is not None
        if phase == "Movement":
            for unit in live(window, side):
                foes = live(window, 1 - side)
                if not foes:
                    break
                foe = nearest(window, unit, foes)
                if charge(window, unit, foe):
                    charges += 1
                elif close_in(window, unit, foe):
                    moves += 1
        elif phase == "Melee":
            for unit in live(window, side):
                foes = live(window, 1 - side)
                if not foes or session.state.result is not None:
                    break
                if act(window, "melee", unit, nearest(window, unit, foes)):
                    melees += 1
        if session.state.result is None:
            window.turn_panel.next_button.click()
    result = session.state.result
    assert result is not None, session.log_text()[-3000:]
    # ended by the ruleset's own victory rule, never declared by hand
    verdict = session.mechanics.victory(session.state.view())
    assert verdict is not None and (result.winner, result.reason) == (
        verdict.winner,
        verdict.reason,
    )
    assert all(step.command.kind != "end" for step in session.steps)
    assert melees >= 3 and charges >= 3 and moves >= 3
    assert window.findChild(QDialog, "resultDialog") is not None


# --------------------------------------------------------------------------- terrain


def test_terrain_drawn_from_the_map_menu_and_undone(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Map > Terrain: the ruleset's kinds in its own words; a wood drawn with the mouse is a
    battle step, undone with Ctrl+Z like any other."""
    window = open_window(qtbot, gsb_session(registry), settings)
    menu = window.findChild(QMenu, "terrainMenu")
    assert menu is not None
    texts = [a.text() for a in menu.actions() if a.text()]
    assert texts[0].startswith("&Edit pieces") and any(t.startswith("Draw Woods") for t in texts)
    before = len(window.controller.session.state.terrain)
    steps = window.controller.session.cursor
    window.terrain_tools["terrain:woods"].trigger()
    assert window.terrain_tools["terrain:woods"].isChecked()
    assert not window.acts[BattleKey.TOOL_SELECT].isChecked()
    view = window.map
    for x, y in ((3.0, 5.0), (5.0, 5.0), (5.0, 7.0)):
        click(view, x, y)
    mouse(view, QEvent.Type.MouseButtonDblClick, at(view, 5.0, 7.0))
    state = window.controller.session.state
    assert len(state.terrain) == before + 1 and state.terrain[-1].kind == "woods"
    assert window.controller.session.cursor == steps + 1
    window.acts[BattleKey.UNDO].trigger()
    assert len(window.controller.session.state.terrain) == before
    window.set_tool("select")
    assert not any(a.isChecked() for a in window.terrain_tools.values())


def test_the_leaders_dock_lists_the_units_to_attach_to_when_it_is_seen(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Tabbed behind the Unit dock, the Leaders dock's list of units to attach a leader to
    is filled once the dock is seen, with every unit still in the battle as it then is."""
    from app.core.battle import Adjust

    window = open_window(qtbot, gsb_session(registry), settings)
    panel, combo = window.leaders_panel, window.leaders_panel.unit_combo
    assert not panel.seen  # the Unit dock is in front
    assert combo.count() == 0
    gone = window.controller.state.units[1]
    window.controller.execute(Adjust(unit=gone.id, field="strength", value="0"))
    assert combo.count() == 0  # still unseen: nothing listed yet

    def listed() -> list[tuple[str, object]]:
        return [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]

    window.leaders_dock.raise_()
    qtbot.waitUntil(lambda: panel.seen)
    state = window.controller.state
    assert state.unit(gone.id).status.eliminated
    expected = [("(detach)", None)] + [
        (f"{u.id} {u.name}", u.id) for u in state.units if not u.status.eliminated
    ]
    assert listed() == expected and (f"{gone.id} {gone.name}", gone.id) not in expected
    # seen, it follows every step at once, as before
    window.controller.undo()
    assert (f"{gone.id} {gone.name}", gone.id) in listed()
    assert len(listed()) == len(window.controller.state.units) + 1


def test_the_log_greys_the_steps_undone(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Steps undone (the redo branch) are listed greyed after the present, whether they were
    undone in the window or before it opened; redone, or replaced by a new step, they are
    not."""
    from PySide6.QtGui import QColor

    session = gsb_session(registry)
    for _ in range(3):
        session.do(NextPhase())
    session.undo()  # undone before the window opens
    window = open_window(qtbot, session, settings)
    tree = window.log_panel.tree
    c = window.controller

    def greyed() -> list[int]:
        grey = QColor("#999")
        out = []
        for i in range(tree.topLevelItemCount()):
            item = tree.topLevelItem(i)
            assert item is not None
            if (
                item.foreground(0).color() == grey
                and item.foreground(0).style() != Qt.BrushStyle.NoBrush
            ):
                out.append(i + 1)
        return out

    steps = len(session.steps)
    assert tree.topLevelItemCount() == steps and greyed() == [steps]
    c.undo()
    assert greyed() == [steps - 1, steps]
    c.redo()
    assert greyed() == [steps]
    c.execute(NextPhase())  # a new step replaces the redo branch
    assert tree.topLevelItemCount() == steps and greyed() == []


def test_the_log_writes_the_lines_it_shows(
    qtbot: QtBot, registry: Registry, settings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step's line says its number, turn and command, all its lines in its tooltip, and is
    written when the view shows it: a battle of 300 steps opens writing the titles of the
    lines in sight, not 300; a line scrolled to is written as any other."""
    session = gsb_session(registry)
    for _ in range(299):
        session.do(NextPhase())
    titled: list[int] = []
    title = NextPhase.title

    def counted(command: NextPhase, state: Any) -> str:
        titled.append(1)
        return title(command, state)

    monkeypatch.setattr(NextPhase, "title", counted)
    window = open_window(qtbot, session, settings)
    window.log_dock.raise_()
    qtbot.waitExposed(window)
    tree = window.log_panel.tree
    assert tree.topLevelItemCount() == len(session.steps) == 300
    assert 0 < len(titled) < 60
    names = session.state
    for n in (1, 150, 300):
        item = window.log_panel.item_for_step(n)
        step = session.steps[n - 1]
        tree.scrollToItem(item)
        assert item.text(0) == f"{n}. T{step.turn} {title(step.command, names)}"
        assert item.toolTip(0) == " ".join(step.lines)
        assert item.data(0, STEP_ROLE) == n
        assert item.childCount() == 1 + len(step.rolls)
        assert item.child(0).data(0, STEP_ROLE) == n
    assert len(titled) < 120


def test_the_log_follows_commands_undo_and_redo_line_by_line(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """A command adds its line to the log (the lines listed stay the same items, the one
    chosen stays chosen); an undo or a redo greys or ungreys that step's line alone; the
    arrow keys move through the lines."""
    from PySide6.QtGui import QColor

    session = gsb_session(registry)
    for _ in range(4):
        session.do(NextPhase())
    window = open_window(qtbot, session, settings)
    window.log_dock.raise_()
    qtbot.waitExposed(window)
    tree = window.log_panel.tree
    c = window.controller
    lines = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    tree.setCurrentItem(lines[2])
    changed: list[int] = []
    tree.model().dataChanged.connect(lambda first, last, _roles: changed.append(first.row()))
    c.execute(NextPhase())
    assert tree.topLevelItemCount() == 6
    assert [tree.topLevelItem(i) for i in range(5)] == lines
    assert tree.currentItem() is lines[2] and tree.selectedItems() == [lines[2]]
    assert changed == []

    def lines_now() -> list[Any]:
        return [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]

    def grey(n: int) -> bool:
        brush = lines_now()[n - 1].foreground(0)
        return brush.style() != Qt.BrushStyle.NoBrush and brush.color() == QColor("#999")

    assert not any(grey(n) for n in range(1, 7))
    c.undo()
    assert changed == [5] and grey(6) and not any(grey(n) for n in range(1, 6))
    c.undo()
    assert changed == [5, 4] and grey(5) and grey(6) and not grey(4)
    c.redo()
    assert changed == [5, 4, 4] and not grey(5) and grey(6)
    assert tree.currentItem() is lines[2]
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_Down)
    assert tree.currentItem() is lines[3]
    qtbot.keyClick(tree, Qt.Key.Key_Right)  # opens the step: its lines under it
    assert lines[3].isExpanded() and lines[3].childCount() == 1 + len(session.steps[3].rolls)
    assert lines[3].child(0).text(0) == " ".join(session.steps[3].lines)


def test_the_sides_dock_writes_its_page_when_it_is_seen(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """Tabbed behind the Unit dock, the Sides dock writes its page once it is seen, for the
    battle as it then is, and while seen it follows every step."""
    from app.core.battle import Adjust

    window = open_window(qtbot, gsb_session(registry), settings)
    panel = window.sides_panel
    assert not panel.seen and panel.view.toPlainText() == ""
    gone = window.controller.state.units[1]
    window.controller.execute(Adjust(unit=gone.id, field="strength", value="0"))
    assert panel.view.toPlainText() == ""  # unseen: nothing written
    window.sides_dock.raise_()
    qtbot.waitUntil(lambda: panel.seen)
    units = len([u for u in window.controller.state.units if u.side == gone.side])
    assert panel.view.toPlainText().count(f"units left\n{units - 1} of {units}") == 1
    window.controller.undo()
    text = panel.view.toPlainText()
    assert f"{units - 1} of {units}" not in text and text.count("units left\n3 of 3") == 2
