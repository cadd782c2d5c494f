"""First start: the standard armies of the sources become sample rosters, once only."""

from __future__ import annotations

from pathlib import Path

from app.core.roster import new_roster
from app.rules.registry import Registry
from app.rulesets import find_engine
from app.store import (
    Store,
    delete_roster,
    list_rosters,
    load_roster,
    open_store,
    purge_roster,
    seed_samples,
)


def test_seed_once_per_standard_army(store: Store, tiny_registry: Registry) -> None:
    ids = seed_samples(store, registry=tiny_registry)
    assert len(ids) == 2  # "gauls" has no standard army
    names = {s.name for s in list_rosters(store)}
    assert names == {"Quincunx: Roman", "Beta: Punic"}

    roman = load_roster(store, roster_id=ids[0])
    expected = new_roster(
        tiny_registry.get("alpha"), "roman", name="Quincunx: Roman", standard=True
    )
    assert roman.ruleset == "alpha" and roman.army == "roman" and roman.scale == "1:10"
    assert roman.leaders == expected.leaders
    assert roman.commands == expected.commands
    assert [(u.entry, u.name, u.size, u.count, u.command, u.leader) for u in roman.units] == [
        (u.entry, u.name, u.size, u.count, u.command, u.leader) for u in expected.units
    ]
    assert "Roman model legion" in roman.notes and "p. 3" in roman.notes
    punic = load_roster(store, roster_id=ids[1])
    assert punic.scale is None and punic.units[0].size == 36


def test_second_time_does_nothing_even_after_deletion(
    store: Store, tiny_registry: Registry
) -> None:
    ids = seed_samples(store, registry=tiny_registry)
    assert seed_samples(store, registry=tiny_registry) == []
    delete_roster(store, roster_id=ids[0])
    purge_roster(store, roster_id=ids[1])
    assert seed_samples(store, registry=tiny_registry) == []
    assert list_rosters(store) == []


def test_seeded_state_survives_reopening(db_path: Path, tiny_registry: Registry) -> None:
    with open_store(db_path) as store:
        assert len(seed_samples(store, registry=tiny_registry)) == 2
    with open_store(db_path) as store:
        assert seed_samples(store, registry=tiny_registry) == []


def test_nothing_to_seed_leaves_it_for_later(store: Store, tiny_registry: Registry) -> None:
    """A first start where no ruleset loaded must not use up the samples."""
    assert seed_samples(store, registry=Registry(find_engine)) == []
    assert len(seed_samples(store, registry=tiny_registry)) == 2


def test_seed_from_the_real_rulesets(store: Store) -> None:
    registry = Registry.load(find_engine)
    standard = sorted(
        (rs.id, army_id)
        for rs in registry
        for army_id, army in rs.armies.items()
        if army.standard is not None
    )
    # a Roman and a Carthaginian ready army in each of the five rulesets: the sources' own
    # in Quincunx and GSB, Castra's in Leg VI, MWAN #90 and D3
    assert len(standard) == 10
    assert {rs for rs, _ in standard} == {rs.id for rs in registry}
    ids = seed_samples(store, registry=registry)
    assert len(ids) == len(standard)
    assert sorted((s.ruleset, s.army) for s in list_rosters(store)) == standard
    for rid in ids:
        roster = load_roster(store, roster_id=rid)
        rs = registry.get(roster.ruleset)
        assert roster.units
        assert roster.name.startswith(rs.meta.short_name + ": ")
        assert roster.data_version == rs.meta.data_version
        std = rs.army(roster.army).standard
        assert std is not None
        assert ("Built by Castra" in roster.notes) == (std.origin == "castra")
    assert seed_samples(store, registry=registry) == []


def test_a_store_seeded_before_gets_the_new_ready_armies_once(store: Store) -> None:
    """A store seeded when only Quincunx and GSB had ready armies gets the six new ones (Leg
    VI, MWAN #90 and D3) at its next start, once, and none of the four it had again."""
    import json

    from app.store.models import AppMeta
    from app.store.repo import SAMPLES_KEY

    registry = Registry.load(find_engine)
    before = [
        "grown-slightly-bald/carthage",
        "grown-slightly-bald/rome",
        "quincunx/carthaginian",
        "quincunx/roman",
    ]
    with store.session() as session:
        session.merge(AppMeta(key=SAMPLES_KEY, value=json.dumps(before)))
    ids = seed_samples(store, registry=registry)
    got = sorted((s.ruleset, s.army) for s in list_rosters(store))
    assert got == [
        ("d3-ancients", "carthaginian"),
        ("d3-ancients", "roman"),
        ("leg-vi-carthago", "carthaginian"),
        ("leg-vi-carthago", "roman"),
        ("mwan90", "carthaginian"),
        ("mwan90", "roman"),
    ]
    assert len(ids) == 6
    assert seed_samples(store, registry=registry) == []
