"""Roster names stay unique: a taken name gets the next free number ("Trebia (2)")."""

from __future__ import annotations

from dataclasses import replace

from app.core.roster import MAX_NAME, Roster
from app.store import Store, delete_roster, save_roster, unique_name


def _named(roster: Roster, name: str) -> Roster:
    return replace(roster, name=name)


def test_taken_names_get_the_next_number(store: Store, full_roster: Roster) -> None:
    assert unique_name(store, name="Trebia") == "Trebia"
    first = save_roster(store, roster=_named(full_roster, "Trebia"))
    assert unique_name(store, name="trebia") == "trebia (2)"  # case does not make it new
    save_roster(store, roster=_named(full_roster, "Trebia (2)"))
    assert unique_name(store, name="Trebia") == "Trebia (3)"
    assert unique_name(store, name="Trebia (2)") == "Trebia (3)"  # not "Trebia (2) (2)"
    # a roster keeps its own name when renamed to it
    assert unique_name(store, name="Trebia", exclude_id=first) == "Trebia"
    # the bin counts: restoring must not make two rosters of one name
    delete_roster(store, roster_id=first)
    assert unique_name(store, name="Trebia") == "Trebia (3)"


def test_a_long_name_stays_within_the_bound(store: Store, full_roster: Roster) -> None:
    long = "x" * MAX_NAME
    save_roster(store, roster=_named(full_roster, long))
    name = unique_name(store, name=long)
    assert len(name) == MAX_NAME and name.endswith(" (2)")
