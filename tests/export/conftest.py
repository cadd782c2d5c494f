"""Rosters to print, one or more per ruleset, built from the real rulesets."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.roster import Command, Leader, Roster, new_roster, unit_from_entry
from app.rules.registry import Registry


@pytest.fixture(scope="session")
def quincunx_roster(registry: Registry) -> Roster:
    """The author's model legion at 1:100 (standard army: five battlegroups, Scipio)."""
    rs = registry.get("quincunx")
    return new_roster(rs, "roman", name="Consular army", scale="1:100", standard=True)


@pytest.fixture(scope="session")
def leg_vi_roster(registry: Registry) -> Roster:
    rs = registry.get("leg-vi-carthago")
    roster = new_roster(rs, "roman", name="Legio II")
    general = Leader(
        id="l-gen", name="Gaius Flaminius", rank="general", fields={"exceptional": True}
    )
    units = [
        unit_from_entry(rs, "roman", "roman_legion", grade="B", command="c-1", leader="l-gen"),
        unit_from_entry(rs, "roman", "velites", size=4, count=2, command="c-1"),
        unit_from_entry(rs, "roman", "roman_equites", command="c-1"),
    ]
    return replace(
        roster,
        units=tuple(units),
        leaders=(general,),
        commands=(Command(id="c-1", name="First command", leader="l-gen", kind="infantry"),),
    )


@pytest.fixture(scope="session")
def gsb_roster(registry: Registry) -> Roster:
    rs = registry.get("grown-slightly-bald")
    return new_roster(rs, "carthage", name="Hannibal's army", standard=True)


@pytest.fixture(scope="session")
def mwan_roster(registry: Registry) -> Roster:
    rs = registry.get("mwan90")
    roster = new_roster(rs, "roman", name="Consul's legion", scale="1:10")
    return roster.with_units(
        [unit_from_entry(rs, "roman", e) for e in ("hastati", "principes", "velites", "equites")]
    )


@pytest.fixture(scope="session")
def d3_roster(registry: Registry) -> Roster:
    rs = registry.get("d3-ancients")
    roster = new_roster(rs, "carthaginian", name="Hannibal at Trebia")
    hannibal = Leader(id="l-h", name="Hannibal", rank="general", fields={"quality": "good"})
    units = [unit_from_entry(rs, "carthaginian", e) for e in rs.army("carthaginian").entries]
    units[0] = replace(units[0], leader="l-h")
    return replace(roster, units=tuple(units), leaders=(hannibal,))


@pytest.fixture(scope="session")
def rosters(
    quincunx_roster: Roster,
    leg_vi_roster: Roster,
    gsb_roster: Roster,
    mwan_roster: Roster,
    d3_roster: Roster,
) -> dict[str, Roster]:
    """One roster per ruleset id."""
    return {
        r.ruleset: r for r in (quincunx_roster, leg_vi_roster, gsb_roster, mwan_roster, d3_roster)
    }
