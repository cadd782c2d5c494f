"""Roster operations: list, find and load rosters (plain ``sqlite3``, no ORM: the library
and a reopened roster show without SQLAlchemy); save, edit, rename, copy, delete, restore
and purge them, each one transaction that returns what it made (an id, the saved version,
the changed roster). The writes import the ORM on first use, as the store does."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from app.store.read import RosterChange as RosterChange
from app.store.read import RosterSummary as RosterSummary
from app.store.read import find_roster as find_roster
from app.store.read import list_rosters as list_rosters
from app.store.read import load_roster as load_roster
from app.store.read import load_roster_versioned as load_roster_versioned
from app.store.read import roster_history as roster_history
from app.store.read import roster_lock as roster_lock
from app.store.read import roster_version as roster_version
from app.store.read import seeded_samples as seeded_samples

if TYPE_CHECKING:
    from app.core.roster import Roster
    from app.rules.registry import Registry
    from app.store.engine import Store
    from app.store.repo import Saved as Saved


def save_roster(
    store: Store, *, roster: Roster, roster_id: int | None = None, what: str | None = None
) -> int:
    """Insert ``roster`` (``roster_id`` None) or replace roster ``roster_id`` with it, in
    one transaction; its id. ``what``: the change as the roster's history names it."""
    from app.store.repo import save_roster as save

    return save(store, roster=roster, roster_id=roster_id, what=what)


def write_roster(
    store: Store,
    *,
    roster: Roster,
    roster_id: int | None = None,
    expected_version: int | None = None,
    base: Roster | None = None,
    what: str | None = None,
) -> Saved:
    """An edited roster written (only what differs from ``base``, the roster as stored at
    ``expected_version``), refused (StaleWrite) when the store holds another version; its
    id and new version."""
    from app.store.repo import write_roster as write

    return write(
        store,
        roster=roster,
        roster_id=roster_id,
        expected_version=expected_version,
        base=base,
        what=what,
    )


def update_roster(
    store: Store,
    *,
    roster_id: int,
    change: Callable[[Roster], Roster],
    what: str | Callable[[], str | None] | None = None,
) -> Roster:
    """Read roster ``roster_id``, apply ``change`` and write the result in one transaction
    holding the write lock; the changed roster (an exception from ``change`` writes
    nothing)."""
    from app.store.repo import update_roster as update

    return update(store, roster_id=roster_id, change=change, what=what)


def unique_name(store: Store, *, name: str, exclude_id: int | None = None) -> str:
    """``name``, numbered when another roster has it already."""
    from app.store.repo import unique_name as unique

    return unique(store, name=name, exclude_id=exclude_id)


def save_new_rosters(store: Store, rosters: Iterable[Roster]) -> list[tuple[int, str]]:
    """Put ``rosters`` in the library, each under a name no roster has yet (numbered when
    taken); the (id, name) of each. A history's two armies, from the window or from
    ``castra scenario new --rosters``."""
    from dataclasses import replace

    out = []
    for roster in rosters:
        roster = replace(roster, name=unique_name(store, name=roster.name))
        out.append((save_roster(store, roster=roster), roster.name))
    return out


def rename_roster(store: Store, *, roster_id: int, name: str) -> None:
    from app.store.repo import rename_roster as rename

    rename(store, roster_id=roster_id, name=name)


def duplicate_roster(store: Store, *, roster_id: int, name: str | None = None) -> int:
    """A copy of roster ``roster_id``; the copy's id."""
    from app.store.repo import duplicate_roster as duplicate

    return duplicate(store, roster_id=roster_id, name=name)


def delete_roster(store: Store, *, roster_id: int) -> None:
    """Move roster ``roster_id`` to the deleted rosters (it can be restored)."""
    from app.store.repo import delete_roster as delete

    delete(store, roster_id=roster_id)


def restore_roster(store: Store, *, roster_id: int) -> None:
    from app.store.repo import restore_roster as restore

    restore(store, roster_id=roster_id)


def purge_roster(store: Store, *, roster_id: int) -> None:
    """Remove a deleted roster for good."""
    from app.store.repo import purge_roster as purge

    purge(store, roster_id=roster_id)


def seed_samples(store: Store, *, registry: Registry) -> list[int]:
    """The sample rosters a store has not been given yet (first start); their ids."""
    from app.store.repo import seed_samples as seed

    return seed(store, registry=registry)


def prepare_writes() -> None:
    """Load what the first write needs before the user makes it (the window's worker)."""
    from app.store.prepare import prepare_writes as prepare

    prepare()


def warm_writes(store: Store, roster_id: int | None) -> None:
    """Make the store's engine and compile a roster write's look-up, writing nothing."""
    from app.store.prepare import warm_writes as warm

    warm(store, roster_id)
