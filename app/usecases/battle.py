"""Battle operations: make a battle, take a step (a command, an undo, a redo), reload it.

Listing battles is light (the battle manager shows at start); the rest loads the battle
core on first use.

A step is taken one way, by the window and by ``castra battle`` alike: inside one write
transaction (the store's write lock; on a club server the battle's row lock) the battle is
checked or loaded, the step is done and the new step or cursor is saved. A window's battle
loaded earlier is refused (:class:`~app.store.engine.StaleWrite`) when the store holds a
newer version, and is left as it was whenever nothing was saved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from app.store.battle_list import BattleSummary as BattleSummary
from app.store.battle_list import list_battles as list_battles
from app.store.read import battle_lock as battle_lock
from app.store.read import battle_version

if TYPE_CHECKING:
    from app.core.battle.session import BattleSession
    from app.core.roster import Roster
    from app.rules.registry import Registry
    from app.store.engine import Store

T = TypeVar("T")


@dataclass(frozen=True)
class BattleChanged(Generic[T]):
    """What one battle operation changed: ``value`` is what the change returned (the step
    done, the step undone...); ``step_saved`` when a new step was stored (any redo branch
    beyond it dropped), ``cursor_saved`` when only the cursor moved (an undo, a redo)."""

    session: BattleSession
    value: T
    step_saved: bool
    cursor_saved: bool


@contextmanager
def updating_battle(
    store: Store,
    *,
    battle_id: int,
    registry: Registry | None = None,
    session: BattleSession | None = None,
) -> Iterator[BattleSession]:
    """The battle inside one write transaction; what the block does to it is saved when the
    block ends. ``session``: the battle as the caller loaded it (a window's), refused when
    the store holds a newer version and restored as it was when the block or the save
    fails; without it the battle is loaded (``registry``) inside the transaction."""
    from app.store.battles import battle_for_update

    mark = None if session is None else (list(session.steps), session.cursor, session.serial)
    try:
        with battle_for_update(
            store, battle_id=battle_id, registry=registry, session=session
        ) as battle:
            yield battle
    except BaseException:
        if session is not None and mark is not None:
            session.steps[:], session.cursor, session.serial = mark
        raise


def change_battle(
    store: Store,
    *,
    battle_id: int,
    change: Callable[[BattleSession], T],
    registry: Registry | None = None,
    session: BattleSession | None = None,
) -> BattleChanged[T]:
    """Run ``change`` on the battle (``session.do(...)``, ``undo()``, ``redo()``) and save
    it, in one transaction (:func:`updating_battle`)."""
    with updating_battle(store, battle_id=battle_id, registry=registry, session=session) as s:
        serial, cursor = s.serial, s.cursor
        value = change(s)
    return BattleChanged(s, value, s.serial != serial, s.serial == serial and s.cursor != cursor)


def reload_if_changed(
    store: Store, *, battle_id: int, session: BattleSession, registry: Registry
) -> BattleSession | None:
    """The battle as stored when the store holds another version than ``session`` (another
    member advanced it on a club server), else None."""
    stored = battle_version(store, battle_id=battle_id)
    if stored is None or stored == session.version:
        return None
    return load_battle(store, battle_id=battle_id, registry=registry)


def create_battle(store: Store, *, session: BattleSession, rosters: tuple[Roster, Roster]) -> int:
    """Save a new battle (with the steps it has already) in one transaction; its id."""
    from app.store.battles import create_battle as create

    return create(store, session=session, rosters=rosters)


def load_battle(store: Store, *, battle_id: int, registry: Registry) -> BattleSession:
    """The battle as it was left (KeyError when there is none)."""
    from app.store.battles import load_battle as load

    return load(store, battle_id=battle_id, registry=registry)


def battle_rosters(store: Store, *, battle_id: int, registry: Registry) -> tuple[Roster, Roster]:
    """The two rosters the battle was made from, as they were then."""
    from app.store.battles import battle_rosters as rosters

    return rosters(store, battle_id=battle_id, registry=registry)
