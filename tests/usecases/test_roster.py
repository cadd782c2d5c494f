"""Rosters put in the library under names no roster has yet, as the history dialog and
``castra scenario new --rosters`` both do it."""

from __future__ import annotations

from app.rules.registry import Registry
from app.usecases.access import Store
from app.usecases.roster import list_rosters, load_roster, save_new_rosters
from tests.store.test_store_battles import rosters


def test_new_rosters_are_numbered_when_their_names_are_taken(
    store: Store, registry: Registry
) -> None:
    first = save_new_rosters(store, rosters(registry))
    again = save_new_rosters(store, rosters(registry))
    assert [name for _, name in first] == ["roman", "carthaginian"]
    assert [name for _, name in again] == ["roman (2)", "carthaginian (2)"]
    assert len(list_rosters(store)) == 4
    rid, name = again[1]
    assert load_roster(store, roster_id=rid).name == name
