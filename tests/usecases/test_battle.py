"""A battle step taken through the use case, as the window and ``castra battle`` both take
it: one transaction; a window's battle that another writer advanced is refused and left as
it was; a refused command writes nothing."""

from __future__ import annotations

import pytest

from app.core.battle import (
    BattleSession,
    CommandError,
    MoveUnit,
    NextPhase,
    StartBattle,
    new_battle,
)
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.usecases.access import StaleWrite, Store
from app.usecases.battle import (
    change_battle,
    create_battle,
    load_battle,
    reload_if_changed,
    updating_battle,
)
from tests.store.test_store_battles import rosters


def _battle(store: Store, registry: Registry) -> tuple[int, BattleSession]:
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters(registry)), seed=7, name="T")
    session.do(StartBattle())  # stored with the battle: step 1
    return create_battle(store, session=session, rosters=rosters(registry)), session


def _stored(store: Store, registry: Registry, bid: int) -> tuple[int, int]:
    s = load_battle(store, battle_id=bid, registry=registry)
    return s.cursor, len(s.steps)


def test_a_windows_step_and_its_undo_are_saved(store: Store, registry: Registry) -> None:
    bid, session = _battle(store, registry)
    done = change_battle(store, battle_id=bid, session=session, change=lambda s: s.do(NextPhase()))
    assert done.step_saved and not done.cursor_saved
    assert done.value is session.steps[1] and done.session is session
    assert _stored(store, registry, bid) == (2, 2)
    undone = change_battle(store, battle_id=bid, session=session, change=lambda s: s.undo())
    assert undone.cursor_saved and not undone.step_saved
    assert _stored(store, registry, bid) == (1, 2)  # the step is kept, to redo


def test_a_battle_loaded_in_the_transaction(store: Store, registry: Registry) -> None:
    """``castra battle``: no session of its own; the battle is loaded under the lock."""
    bid, _ = _battle(store, registry)
    done = change_battle(
        store, battle_id=bid, registry=registry, change=lambda s: s.do(NextPhase())
    )
    assert done.step_saved and done.session.cursor == 2
    assert _stored(store, registry, bid) == (2, 2)


def test_a_stale_window_is_refused_and_left_as_it_was(store: Store, registry: Registry) -> None:
    bid, window = _battle(store, registry)
    with updating_battle(store, battle_id=bid, registry=registry) as other:
        other.do(NextPhase())  # another process advances the battle
    with pytest.raises(StaleWrite):
        change_battle(store, battle_id=bid, session=window, change=lambda s: s.do(NextPhase()))
    assert (window.cursor, len(window.steps)) == (1, 1)
    assert _stored(store, registry, bid) == (2, 2)
    reloaded = reload_if_changed(store, battle_id=bid, session=window, registry=registry)
    assert reloaded is not None and reloaded.cursor == 2
    assert reload_if_changed(store, battle_id=bid, session=reloaded, registry=registry) is None


def test_a_refused_command_writes_nothing(store: Store, registry: Registry) -> None:
    bid, session = _battle(store, registry)
    change_battle(store, battle_id=bid, session=session, change=lambda s: s.do(NextPhase()))
    with pytest.raises(CommandError):
        change_battle(
            store,
            battle_id=bid,
            session=session,
            change=lambda s: s.do(MoveUnit(unit="nobody", x=1, y=1)),
        )
    assert (session.cursor, len(session.steps)) == (2, 2)
    assert _stored(store, registry, bid) == (2, 2)
    # the window's battle is still the stored version: its next step is saved
    change_battle(store, battle_id=bid, session=session, change=lambda s: s.do(NextPhase()))
    assert _stored(store, registry, bid) == (3, 3)


def test_a_step_not_saved_is_taken_back_from_the_window(store: Store, registry: Registry) -> None:
    """Whatever fails after the step was done and before it was saved (here the change
    itself), the window's battle is as it was before the step, and so is the store."""
    bid, session = _battle(store, registry)

    def step_then_fail(s: BattleSession) -> None:
        s.do(NextPhase())
        raise OSError("disk gone")

    with pytest.raises(OSError):
        change_battle(store, battle_id=bid, session=session, change=step_then_fail)
    assert (session.cursor, len(session.steps), session.serial) == (1, 1, 1)
    assert _stored(store, registry, bid) == (1, 1)
