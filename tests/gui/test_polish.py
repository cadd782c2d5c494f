"""Issue 24, polish found on the way: File > Quit ends Castra with the Campaigns window
(it stayed, and the process with it), the Campaigns window has Close, and View > Reset
layout reaches a battle window opened afterwards."""

from __future__ import annotations

from typing import Any

from pytestqt.qtbot import QtBot

from app.core.battle.sample import sample_session
from app.gui.actions import ActionKey
from app.gui.main_window import MainWindow
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store.battles import create_battle


def test_quit_closes_the_campaigns_window(qtbot: QtBot, window: MainWindow) -> None:
    window.action_registry[ActionKey.NEW_CAMPAIGN_TEMPLATE].trigger()
    view: Any = window.campaign_view  # type: ignore[attr-defined]
    qtbot.waitExposed(view)
    assert view.isVisible()
    window.action_registry[ActionKey.QUIT].trigger()
    assert not view.isVisible() and not window.isVisible()


def test_the_campaigns_window_closes_from_its_menu(qtbot: QtBot, window: MainWindow) -> None:
    window.action_registry[ActionKey.NEW_CAMPAIGN_TEMPLATE].trigger()
    view: Any = window.campaign_view  # type: ignore[attr-defined]
    qtbot.waitExposed(view)
    close = view.actions_[ActionKey.CV_CLOSE]
    assert close in view.menuBar().actions()[0].menu().actions()
    close.trigger()
    assert not view.isVisible() and window.isVisible()


def test_reset_layout_reaches_a_battle_window_opened_later(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    rs = registry.get("grown-slightly-bald")
    store = window.builder.store
    assert store is not None
    ids = []
    for seed in (1, 2):
        session = sample_session(rs, mechanics_for(rs), seed=seed)
        ids.append(create_battle(store, session=session, rosters=_rosters(session)))
    first = window.battles.open_battle(ids[0])
    assert first is not None
    qtbot.waitExposed(first)
    first.log_dock.hide()
    first.turn_dock.hide()
    first.close()  # the layout without the Log and Turn docks is kept
    window.reset_layout()  # the main window's View > Reset layout
    second = window.battles.open_battle(ids[1])
    assert second is not None
    qtbot.waitExposed(second)
    assert second.log_dock.isVisible() and second.turn_dock.isVisible()
    # a battle window's own reset is kept at once for the next one too
    second.sides_dock.hide()
    second.close()
    third = window.battles.open_battle(ids[0])
    assert third is not None
    qtbot.waitExposed(third)
    assert not third.sides_dock.toggleViewAction().isChecked()  # kept hidden
    third.reset_layout()
    assert third.sides_dock.toggleViewAction().isChecked()
    reopened = _reopen(window, third, ids[0], qtbot)  # while the third is still open
    assert reopened.sides_dock.toggleViewAction().isChecked()


def _reopen(window: MainWindow, battle: Any, battle_id: int, qtbot: QtBot) -> Any:
    """Open a second battle window while ``battle`` stays open: it reads the kept layout."""
    rs = battle.controller.session.ruleset
    store = window.builder.store
    session = sample_session(rs, mechanics_for(rs), seed=9)
    other = window.battles.open_battle(
        create_battle(store, session=session, rosters=_rosters(session))
    )
    assert other is not None
    qtbot.waitExposed(other)
    return other


def _rosters(session: Any) -> Any:
    from app.core.battle.sample import sample_roster

    rs = session.ruleset
    armies = list(rs.armies)
    return (sample_roster(rs, armies[0]), sample_roster(rs, armies[1]))
