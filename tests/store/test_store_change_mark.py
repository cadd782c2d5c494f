"""The store's change mark (issue 15): it moves with every write of a roster, battle or
campaign, and only then, so a window on a club server can poll it cheaply for other members'
changes; a roster's stored version tells whether an open copy is still current."""

from __future__ import annotations

from itertools import pairwise

from app.core.roster import Roster
from app.store import (
    Store,
    delete_roster,
    load_roster_versioned,
    purge_roster,
    rename_roster,
    save_roster,
)
from app.store.read import change_mark, roster_version


def test_the_mark_moves_with_every_write_and_only_then(store: Store, full_roster: Roster) -> None:
    marks = [change_mark(store)]
    rid = save_roster(store, roster=full_roster)
    marks.append(change_mark(store))
    assert change_mark(store) == marks[-1]  # reading changes nothing
    rename_roster(store, roster_id=rid, name="Renamed")
    marks.append(change_mark(store))
    delete_roster(store, roster_id=rid)
    marks.append(change_mark(store))
    purge_roster(store, roster_id=rid)
    marks.append(change_mark(store))
    assert all(a != b for a, b in pairwise(marks))
    # a roster purged and another made and edited as often: the same count and versions
    first = save_roster(store, roster=full_roster)
    rename_roster(store, roster_id=first, name="A")
    before = change_mark(store)
    purge_roster(store, roster_id=first)
    second = save_roster(store, roster=full_roster)
    rename_roster(store, roster_id=second, name="B")
    assert change_mark(store) != before


def test_the_stored_version_of_a_roster(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    _, version = load_roster_versioned(store, roster_id=rid)
    assert roster_version(store, roster_id=rid) == version
    rename_roster(store, roster_id=rid, name="Renamed")
    assert roster_version(store, roster_id=rid) == version + 1
    assert roster_version(store, roster_id=rid + 1) is None
