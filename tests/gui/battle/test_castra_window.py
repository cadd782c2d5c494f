"""Castra in the battle window (issue 30), driven like a player, offscreen.

- New battle gives side B to Castra (cautious, one command bold) with its seed; the battle
  keeps who plays it.
- Castra plays a turn as one side: with "Play its turn" it gives its commands one at a time
  through the controller (each saved in the store, logged, shown on the map with its unit
  selected), stops when it is the player's turn, and never moves a unit of the player's side;
  each of its steps is undone by Undo like a player's.
- "Step" gives one command; an undo holds Castra back until asked again.
- The Advisor dock lists what the selected unit may do; clicking a fight sets it up in the
  Actions dock (nothing rolled), clicking a move shows it on the map (nothing moved) and
  Enter then makes it.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from app.core.battle import BattleSession, NextPhase, StartBattle, new_battle
from app.core.battle.advisor import advise
from app.core.battle.autoplay import Table, autoplay
from app.core.battle.moves import MoveUnit
from app.core.battle.opponent import decision_command
from app.core.battle.players import Player, Temperament, player_of
from app.core.ready import ready_armies, ready_roster
from app.gui.battle.actions import BattleKey
from app.gui.battle.advice_panel import COLUMNS
from app.gui.battle.controller import BattleController
from app.gui.battle.window import BattleWindow
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import Store
from app.store.battles import list_battles, load_battle

pytestmark = pytest.mark.gui


def castra_session(registry: Registry, ruleset: str, castra: Player | None) -> BattleSession:
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    a, b = (ready_roster(rs, r.army) for r in ready_armies(rs))
    records = ({}, castra.record() if castra is not None else {})
    state = new_battle(rs, mech, (a, b), records=records)
    session = BattleSession(rs, mech, state, seed=3, name="Castra test")
    session.do(StartBattle())
    return session


def open_window(
    qtbot: QtBot, session: BattleSession, settings: QSettings, store: Store | None = None
) -> BattleWindow:
    battle_id = None
    rosters = None
    if store is not None:
        from app.store.battles import battle_rosters, create_battle

        rs = session.ruleset
        rosters = tuple(ready_roster(rs, r.army) for r in ready_armies(rs))
        battle_id = create_battle(store, session=session, rosters=rosters)  # type: ignore[arg-type]
        del battle_rosters
    controller = BattleController(
        session,
        store=store,
        battle_id=battle_id,
        rosters=rosters,  # type: ignore[arg-type]
    )
    window = BattleWindow(controller, settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_new_battle_gives_a_side_to_castra(
    make_window: Any, registry: Registry, store: Store, qtbot: QtBot
) -> None:
    main_window = make_window()
    dialog = main_window.battles.new_battle()
    assert dialog is not None
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData("leg-vi-carthago"))
    dialog.roster_a.setCurrentIndex(dialog.roster_a.findData("leg-vi-carthago:roman"))
    dialog.roster_b.setCurrentIndex(dialog.roster_b.findData("leg-vi-carthago:carthaginian"))
    assert not dialog.castra_seed.isVisibleTo(dialog)
    dialog.played_b.setCurrentIndex(dialog.played_b.findData("cautious"))
    assert dialog.castra_seed.isVisibleTo(dialog)
    assert dialog.commands.rowCount() >= 2  # the Carthaginian ready army's commands
    first = dialog.commands.item(0, 0).data(Qt.ItemDataRole.UserRole)
    combo = dialog.commands.cellWidget(0, 2)
    combo.setCurrentIndex(combo.findData("bold"))
    dialog.castra_seed.setValue(42)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    [battle] = list_battles(store)
    stored = load_battle(store, battle_id=battle.id, registry=registry)
    player = player_of(stored.state, 1)
    assert player == Player(1, Temperament.CAUTIOUS, {first[1]: Temperament.BOLD}, 42)
    assert player_of(stored.state, 0) is None
    window = main_window.battles.windows[battle.id]
    assert window.castra.plays
    assert "Castra (cautious" in window.advice_panel.castra_label.text()


def test_castra_plays_its_turn_in_the_window(
    qtbot: QtBot, registry: Registry, store: Store, settings: QSettings
) -> None:
    session = castra_session(registry, "mwan90", Player(1, seed=4))
    window = open_window(qtbot, session, settings, store)
    runner = window.castra
    runner.auto = False
    runner.set_pace("fast")
    assert runner.plays and window.acts[BattleKey.CASTRA_PLAY].isEnabled()
    acted: list[Any] = []
    runner.acted.connect(acted.append)
    battle_id = window.controller.battle_id
    assert battle_id is not None
    for _ in range(12):  # the player passes each phase; Castra plays whatever is its
        before = session.cursor
        if runner.play_turn():
            qtbot.waitUntil(lambda: not runner.playing, timeout=60_000)
        assert runner.next_choice() is None  # it stopped on the player's turn
        mine = [s.command for s in session.steps[before : session.cursor]]
        for cmd in mine:
            unit = getattr(cmd, "unit", None) or getattr(cmd, "actor", None)
            assert unit is None or str(unit).startswith("B")  # never the player's units
        # the player ends its move where the rules ask it to (MWAN's end of move), else
        # ends the phase
        view = session.state.view()
        done = [d for d in session.mechanics.side_decisions(view, 0) if d.when == "done"]
        window.controller.execute(decision_command(done[0]) if done else NextPhase())
        if len(acted) > 12:
            break
    assert len(acted) > 12
    kinds = {type(c.command).__name__ for c in acted}
    assert "MoveUnit" in kinds
    # each of its steps was saved as it was taken, and is shown on the map and in the log
    stored = load_battle(store, battle_id=battle_id, registry=registry)
    assert stored.cursor == session.cursor
    last = acted[-1]
    unit = getattr(last.command, "unit", None) or getattr(last.command, "actor", None)
    if isinstance(unit, str):
        assert window.map.selected_unit() == unit
    assert window.log_panel.item_for_step(session.cursor) is not None
    # Undo takes back the player's step, then Castra's like a player's, and holds it back
    cursor = session.cursor
    window.acts[BattleKey.UNDO].trigger()
    window.acts[BattleKey.UNDO].trigger()
    assert session.cursor == cursor - 2
    qtbot.wait(50)
    assert not runner.playing and session.cursor == cursor - 2
    # Castra works its phase out afresh: Step gives one command of its side, and no more
    again = runner.next_choice()
    assert again is not None
    runner.step()
    assert session.cursor == cursor - 1
    unit = getattr(again.command, "unit", None) or getattr(again.command, "actor", None)
    assert unit is None or str(unit).startswith("B")
    qtbot.wait(50)
    assert not runner.playing and session.cursor == cursor - 1


def test_the_advisor_shows_a_move_on_the_map(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    session = castra_session(registry, "d3-ancients", None)
    window = open_window(qtbot, session, settings)
    assert not window.castra.plays
    assert not window.advice_panel.castra_bar.isVisibleTo(window)
    window.advice_dock.show()
    window.advice_dock.raise_()
    while session.ruleset.turn.phases[session.state.phase].id != "movement":
        window.controller.execute(NextPhase())
    side = session.mechanics.side_in_play(session.state.view())
    state = session.state
    unit = next(  # a unit of the side moving that the advisor moves
        u.id
        for u in state.units
        if u.side == side
        and any(
            a.kind == "move" for a in advise(state, session.ruleset, session.mechanics, unit=u.id)
        )
    )
    window.map.select_unit(unit)
    panel = window.advice_panel
    qtbot.waitUntil(lambda: panel.table.rowCount() > 0, timeout=10_000)
    moves = [i for i, a in enumerate(panel.entries) if isinstance(a.command, MoveUnit)]
    assert moves, [a.title for a in panel.entries]
    # columns of odds only where an entry has odds: moves leave "What" the room
    no_odds = all(a.odds is None for a in panel.entries)
    assert panel.table.isColumnHidden(COLUMNS.index("Gives")) == no_odds
    command = panel.entries[moves[0]].command
    before = session.cursor
    panel.table.cellClicked.emit(moves[0], 0)
    assert session.cursor == before  # nothing happens without the player
    assert window.map.ghost.isVisible()
    assert "Enter makes it" in window.map.ghost.text
    qtbot.keyClick(window.map, Qt.Key.Key_Return)
    assert session.cursor == before + 1
    assert session.steps[-1].command == command


def test_the_advisor_sets_up_a_fight_in_the_actions_dock(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    session = castra_session(registry, "mwan90", None)
    table = Table.of({0: Player(0, seed=1), 1: Player(1, seed=2)})
    found = None
    for _ in range(300):  # two Castra sides play until a unit may shoot or fight
        for side in (0, 1):
            found = next(
                (
                    a
                    for a in advise(session.state, session.ruleset, session.mechanics, side=side)
                    if a.kind in ("shoot", "melee")
                ),
                None,
            )
            if found is not None:
                break
        if found is not None:
            break
        autoplay(session, table, max_steps=1)
    assert found is not None
    window = open_window(qtbot, session, settings)
    window.advice_dock.show()
    window.advice_dock.raise_()
    window.map.select_unit(found.unit)
    panel = window.advice_panel
    qtbot.waitUntil(lambda: panel.table.rowCount() > 0, timeout=10_000)
    row = next(i for i, a in enumerate(panel.entries) if a.title == found.title)
    for name in ("Gives", "Takes", "Breaks"):  # a fight's odds are shown
        assert not panel.table.isColumnHidden(COLUMNS.index(name))
    before = session.cursor
    panel.table.cellClicked.emit(row, 0)
    assert session.cursor == before  # set up, not rolled
    acting = window.acting
    assert acting.actor.currentData() == found.unit
    assert acting.target.currentData() == found.target
    assert acting.action.currentData() == found.kind
    window.acts[BattleKey.ROLL].trigger()  # the player rolls it: the advisor's command
    assert session.cursor == before + 1
    assert session.steps[-1].command == found.command


def test_the_advisor_with_castra_fits_1280x720(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    # Quincunx's ready armies (the most units): Castra's bar, its plan and the list of
    # entries all in the dock, the window no taller than the screen
    session = castra_session(registry, "quincunx", Player(1, seed=1))
    window = open_window(qtbot, session, settings)
    window.castra.auto = False
    window.resize(1280, 720)
    window.advice_dock.raise_()
    while window.castra.next_choice() is None:  # the player passes to Castra's turn
        window.controller.execute(NextPhase())
    assert window.castra.step() is not None
    qtbot.wait(10)
    assert window.minimumSizeHint().height() <= 720
    assert window.height() == 720
    panel = window.advice_panel
    assert panel.castra_plan.isVisible() and panel.castra_plan.text().startswith("Plan:")
    label = panel.castra_plan  # its plan in a line, not cut; its last command in the tooltip
    lines = label.text().split("\n")
    assert len(lines) == 1 and "Last: Castra" in label.toolTip()
    assert label.height() >= len(lines) * label.fontMetrics().lineSpacing()
    assert label.width() <= panel.width()
    assert all(label.fontMetrics().horizontalAdvance(t) <= label.width() for t in lines)
    rows = panel.table.verticalHeader().defaultSectionSize()
    assert panel.table.viewport().height() >= 2 * rows
