"""Roster use cases: save/load round trip, one transaction per save, bin, look-ups."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest

import app.store.repo as repo
from app.core.roster import Command, Leader, Roster, Unit
from app.rules.registry import Registry
from app.store import (
    Store,
    delete_roster,
    duplicate_roster,
    find_roster,
    list_rosters,
    load_roster,
    purge_roster,
    rename_roster,
    restore_roster,
    save_roster,
)
from tests.store.conftest import sql


def _child_rows(store: Store, roster_id: int) -> dict[str, int]:
    return {
        table: sql(store, f"SELECT count(*) FROM {table} WHERE roster_id = :r", r=roster_id)[0][0]
        for table in ("roster_unit", "roster_leader", "roster_command")
    }


def test_round_trip_keeps_every_field(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    loaded = load_roster(store, roster_id=rid)
    assert loaded == full_roster
    # field by field too, since Roster.extras is excluded from ==
    assert loaded.units == full_roster.units
    assert loaded.leaders == full_roster.leaders
    assert loaded.commands == full_roster.commands
    assert loaded.units[0].lines == {"hastati": 4, "principes": 4, "triarii": 4}
    assert list(loaded.units[0].lines or {}) == ["hastati", "principes", "triarii"]
    assert loaded.leaders[0].status.value == "wounded"
    assert loaded.leaders[0].fields["exceptional"] is True
    assert loaded.units[1].lines is None


def test_round_trip_of_empty_roster(store: Store) -> None:
    empty = Roster(name="Empty", ruleset="d3-ancients", army="roman", side="Rome", scale=None)
    rid = save_roster(store, roster=empty)
    assert load_roster(store, roster_id=rid) == empty


def test_order_is_kept(store: Store, full_roster: Roster) -> None:
    reordered = replace(full_roster, units=full_roster.units[::-1])
    rid = save_roster(store, roster=reordered)
    assert [u.id for u in load_roster(store, roster_id=rid).units] == [
        "u-eq",
        "u-velites",
        "u-legio1",
    ]


def test_save_replaces_children(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    smaller = replace(
        full_roster,
        name="Renamed",
        units=full_roster.units[:1],
        leaders=(),
        commands=(Command(id="c-9", name="Only"),),
    )
    assert save_roster(store, roster=smaller, roster_id=rid) == rid
    assert load_roster(store, roster_id=rid) == smaller
    assert _child_rows(store, rid) == {"roster_unit": 1, "roster_leader": 0, "roster_command": 1}
    assert len(list_rosters(store)) == 1


def test_save_updates_updated_at_not_created_at(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    [before] = sql(store, "SELECT created_at, updated_at FROM roster")
    save_roster(store, roster=full_roster, roster_id=rid)
    [after] = sql(store, "SELECT created_at, updated_at FROM roster")
    assert after[0] == before[0]
    assert after[1] >= before[1]
    summary = list_rosters(store)[0]
    assert summary.updated_at.tzinfo is UTC
    assert abs((datetime.now(UTC) - summary.updated_at).total_seconds()) < 60


def test_failure_inside_save_leaves_previous_roster(
    store: Store, full_roster: Roster, monkeypatch: pytest.MonkeyPatch
) -> None:
    rid = save_roster(store, roster=full_roster)

    def broken(*args: object) -> list[object]:
        raise RuntimeError("disk on fire")

    # Fails after the roster row was updated and the old children deleted (and flushed).
    monkeypatch.setattr(repo, "_command_rows", broken)
    changed = replace(full_roster, name="Half-saved", units=())
    with pytest.raises(RuntimeError, match="disk on fire"):
        save_roster(store, roster=changed, roster_id=rid)
    monkeypatch.undo()
    assert load_roster(store, roster_id=rid) == full_roster
    assert [s.name for s in list_rosters(store)] == [full_roster.name]


def test_failed_insert_leaves_nothing(
    store: Store, full_roster: Roster, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> list[object]:
        raise RuntimeError("boom")

    monkeypatch.setattr(repo, "_command_rows", broken)
    with pytest.raises(RuntimeError):
        save_roster(store, roster=full_roster)
    monkeypatch.undo()
    assert list_rosters(store, include_deleted=True) == []
    assert sql(store, "SELECT count(*) FROM roster_unit") == [(0,)]


def test_duplicate_ids_are_refused_before_writing(store: Store, full_roster: Roster) -> None:
    twice = replace(full_roster, units=(full_roster.units[0], full_roster.units[0]))
    with pytest.raises(ValueError, match="unit id 'u-legio1' is used twice"):
        save_roster(store, roster=twice)
    assert list_rosters(store) == []


def test_database_constraint_failure_rolls_back(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    twice = replace(full_roster, leaders=(full_roster.leaders[0], full_roster.leaders[0]))
    # Skip the friendly check to reach the UNIQUE (roster_id, uid) constraint itself.
    with pytest.raises(Exception, match=r"UNIQUE|unique constraint"), store.session() as session:
        repo._write(session, twice, rid)
    assert load_roster(store, roster_id=rid) == full_roster


def test_load_missing_names_the_id(store: Store) -> None:
    with pytest.raises(KeyError, match="no roster with id 42"):
        load_roster(store, roster_id=42)
    with pytest.raises(KeyError, match="42"):
        save_roster(
            store,
            roster=Roster(name="x", ruleset="r", army="a", side="s", scale=None),
            roster_id=42,
        )


def test_soft_delete_restore_purge(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    other = save_roster(store, roster=replace(full_roster, name="Other"))
    delete_roster(store, roster_id=rid)
    assert [s.id for s in list_rosters(store)] == [other]
    binned = [s for s in list_rosters(store, include_deleted=True) if s.id == rid]
    assert binned[0].deleted is True
    assert load_roster(store, roster_id=rid) == full_roster  # still there
    restore_roster(store, roster_id=rid)
    assert {s.id for s in list_rosters(store)} == {rid, other}
    assert not any(s.deleted for s in list_rosters(store, include_deleted=True))

    purge_roster(store, roster_id=rid)
    with pytest.raises(KeyError):
        load_roster(store, roster_id=rid)
    assert _child_rows(store, rid) == {"roster_unit": 0, "roster_leader": 0, "roster_command": 0}
    assert load_roster(store, roster_id=other).name == "Other"
    with pytest.raises(KeyError):
        purge_roster(store, roster_id=rid)
    with pytest.raises(KeyError):
        delete_roster(store, roster_id=rid)
    # ids are never reused after a purge
    assert save_roster(store, roster=full_roster) > other


def test_list_rosters_sorts_and_counts(store: Store) -> None:
    def roster(name: str, ruleset: str, side: str, counts: tuple[int, ...]) -> Roster:
        units = tuple(
            Unit(id=f"u{i}", entry="e", name="E", size=1, count=c) for i, c in enumerate(counts)
        )
        return Roster(name=name, ruleset=ruleset, army="a", side=side, scale="1:10", units=units)

    save_roster(store, roster=roster("zeta", "quincunx", "Rome", (2, 3)))
    save_roster(store, roster=roster("Alpha", "quincunx", "Rome", ()))
    save_roster(store, roster=roster("beta", "quincunx", "Carthage", (1,)))
    save_roster(store, roster=roster("aaa", "d3-ancients", "Rome", (1, 1, 1)))
    summaries = list_rosters(store)
    assert [(s.ruleset, s.side, s.name) for s in summaries] == [
        ("d3-ancients", "Rome", "aaa"),
        ("quincunx", "Carthage", "beta"),
        ("quincunx", "Rome", "Alpha"),
        ("quincunx", "Rome", "zeta"),
    ]
    assert [s.units for s in summaries] == [3, 1, 0, 5]
    assert summaries[0].scale == "1:10" and summaries[0].army == "a"


def test_find_roster(store: Store, full_roster: Roster) -> None:
    a = save_roster(store, roster=replace(full_roster, name="Hannibal's army"))
    b = save_roster(store, roster=replace(full_roster, name="Scipio"))
    c = save_roster(store, roster=replace(full_roster, name="scipio"))
    assert find_roster(store, key=str(a)) == a
    assert find_roster(store, key=f" {b} ") == b
    assert find_roster(store, key="HANNIBAL'S ARMY") == a
    with pytest.raises(LookupError, match=rf"2 rosters are named 'Scipio': {b} .*{c} "):
        find_roster(store, key="Scipio")
    with pytest.raises(LookupError, match='did you mean: "Hannibal\'s army"'):
        find_roster(store, key="hannibal")
    with pytest.raises(LookupError, match="no roster '999'"):
        find_roster(store, key="999")
    delete_roster(store, roster_id=a)
    with pytest.raises(LookupError, match=f"roster {a} is deleted"):
        find_roster(store, key=str(a))
    with pytest.raises(LookupError):
        find_roster(store, key="hannibal's army")
    assert find_roster(store, key="hannibal's army", include_deleted=True) == a


def test_rename_and_duplicate(store: Store, full_roster: Roster) -> None:
    rid = save_roster(store, roster=full_roster)
    rename_roster(store, roster_id=rid, name="  Trebia  ")
    assert load_roster(store, roster_id=rid).name == "Trebia"
    with pytest.raises(ValueError):
        rename_roster(store, roster_id=rid, name="  ")
    with pytest.raises(KeyError):
        rename_roster(store, roster_id=999, name="x")

    copy1 = duplicate_roster(store, roster_id=rid)
    copy2 = duplicate_roster(store, roster_id=rid)
    named = duplicate_roster(store, roster_id=rid, name="Mine")
    assert len({rid, copy1, copy2, named}) == 4
    assert load_roster(store, roster_id=copy1) == replace(full_roster, name="Trebia (copy)")
    assert load_roster(store, roster_id=copy2).name == "Trebia (copy 2)"
    assert load_roster(store, roster_id=named).name == "Mine"
    # the copy is independent of the original
    save_roster(store, roster=replace(full_roster, name="Trebia", units=()), roster_id=rid)
    assert len(load_roster(store, roster_id=copy1).units) == 3


def test_leader_defaults_round_trip(store: Store) -> None:
    roster = Roster(
        name="L",
        ruleset="gsb",
        army="rome",
        side="Rome",
        scale=None,
        leaders=(Leader(id="g", name="G", rank="general", fields={"quality": "good", "bonus": 0}),),
    )
    rid = save_roster(store, roster=roster)
    assert load_roster(store, roster_id=rid) == roster


def test_a_write_from_its_base_touches_only_the_changed_rows(store: Store) -> None:
    """Autosave of one edit writes only what changed (issue 14): the other rows keep their
    row ids, and the roster read back is the edited one."""
    from app.core.roster import Unit
    from app.store import load_roster_versioned, write_roster

    units = tuple(Unit(f"u-{i}", "hastati", f"Hastati {i}", 12) for i in range(1000))
    roster = Roster("Big", "quincunx", "roman", "Rome", "1:100", units=units)
    saved = write_roster(store, roster=roster)
    before = dict(sql(store, "SELECT uid, id FROM roster_unit"))
    edited = replace(
        roster,
        units=(
            *units[:10],
            *units[11:500],
            replace(units[500], size=10, notes="tired"),
            *units[501:],
            Unit("u-new", "principes", "Principes", 12),
        ),
    )
    again = write_roster(
        store, roster=edited, roster_id=saved.id, expected_version=saved.version, base=roster
    )
    assert again.version == saved.version + 1
    after = dict(sql(store, "SELECT uid, id FROM roster_unit"))
    assert "u-10" not in after and "u-new" in after
    assert all(after[uid] == before[uid] for uid in after if uid != "u-new")
    assert load_roster_versioned(store, roster_id=saved.id) == (edited, again.version)


def test_a_leader_field_of_any_engine_round_trips(store: Store, registry: Registry) -> None:
    """Schema 0011 keeps every field a leader has in one column: a field of an engine
    declared after the first three needs no migration, and the roster file writes it under
    the leader's ``fields``."""
    from app.core.rosterfile import RosterFileError, dumps, loads

    fields = {"veteran": True, "bonus": 1, "temper": "fiery"}
    roster = Roster(
        name="L",
        ruleset="quincunx",
        army="roman",
        side="Rome",
        scale="1:100",
        leaders=(Leader(id="g", name="G", rank="general", fields=fields),),
    )
    rid = save_roster(store, roster=roster)
    assert load_roster(store, roster_id=rid) == roster
    assert sql(store, "SELECT fields FROM roster_leader") == [
        ('{"bonus":1,"temper":"fiery","veteran":true}',)
    ]
    # a roster file holds them under the leader's fields, and importing it checks each
    # against the ruleset's declarations: Quincunx leaders have a bonus and nothing else
    text = dumps(roster)
    assert json.loads(text)["leaders"][0]["fields"] == {"temper": "fiery", "veteran": True}
    with pytest.raises(RosterFileError) as got:
        loads(text, registry)
    assert [p for p, _ in got.value.problems] == [
        "leaders[0].fields.temper",
        "leaders[0].fields.veteran",
    ]
    assert "Quincunx leaders have no veteran" in str(got.value)
    own = replace(roster, leaders=(Leader(id="g", name="G", fields={"bonus": 1}),))
    assert loads(dumps(own), registry) == own
