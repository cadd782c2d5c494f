"""A stored battle whose states are damaged (a snapshot or its first state not what Castra
wrote) is refused in one line where the window reads them: opening it, or showing a past
step. Opening read no state before building the window, so a damaged one was a traceback
with the window half made."""

from __future__ import annotations

import json

from pytestqt.qtbot import QtBot
from sqlalchemy import text

from app.core.battle import NextPhase
from app.core.battle.sample import sample_roster, sample_session
from app.gui.main_window import MainWindow
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import Store
from app.store.battles import create_battle


def _battle(window: MainWindow, registry: Registry) -> tuple[Store, int]:
    """The window's store, and a Quincunx battle of 25 steps stored in it (a snapshot after
    step 20)."""
    store = window.builder.store
    assert store is not None
    rs = registry.get("quincunx")
    session = sample_session(rs, mechanics_for(rs), seed=1)
    for _ in range(25):
        session.do(NextPhase())
    armies = list(rs.armies)
    rosters = (sample_roster(rs, armies[0]), sample_roster(rs, armies[1]))
    return store, create_battle(store, session=session, rosters=rosters)


def _sql(store: Store, statement: str, **params: object) -> None:
    with store.engine.begin() as conn:
        conn.execute(text(statement), params)


def test_a_battle_whose_state_is_damaged_is_refused_in_one_line(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    store, bid = _battle(window, registry)
    _sql(store, "UPDATE battle_step SET snapshot = x'00' WHERE snapshot IS NOT NULL")
    said: list[str] = []
    window.battles.message.connect(said.append)
    assert window.battles.open_battle(bid) is None
    assert len(said) == 1 and said[0].startswith("The battle cannot be opened: ")
    assert "damaged" in said[0] and "\n" not in said[0]
    assert bid not in window.battles.windows


def test_a_past_step_that_cannot_be_rebuilt_is_refused_in_one_line(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    store, bid = _battle(window, registry)
    _sql(
        store,
        "UPDATE battle SET initial_state = :s WHERE id = :i",
        s=json.dumps({"units": "damaged"}),
        i=bid,
    )
    battle = window.battles.open_battle(bid)  # at step 25: from the snapshot after step 20
    assert battle is not None
    qtbot.waitExposed(battle)
    said: list[str] = []
    battle.controller.message.connect(said.append)
    assert not battle.controller.show_step(3)  # replayed from the first state: damaged
    assert battle.controller.past is None
    assert len(said) == 1 and f"battle {bid} cannot be read" in said[0]
    assert battle.controller.state == battle.map.state  # the present, still shown
