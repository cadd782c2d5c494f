"""Roster totals at scale, checked against the numbers the source texts state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.edits import AddUnit, UpdateRoster
from app.core.roster import new_roster, unit_from_entry
from app.core.totals import roster_totals, unit_strength
from app.rules.registry import Registry


def test_quincunx_roman_model_legion(registry: Registry) -> None:
    """Quincunx, The Roman Army: 504 figures, the 'Actual' column sums to 5,040 men at 1:10."""
    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="Legion", standard=True)
    totals = roster_totals(rs, roster)
    assert roster.scale == "1:10"
    assert totals.figures == 60 + 120 + 120 + 120 + 15 + 45 + 24
    assert totals.men == 600 + 1200 + 1200 + 1200 + 150 + 450 + 240 == 5040
    assert totals.units == 5 + 10 + 10 + 10 + 1 + 3 + 2


def test_quincunx_model_armies_are_over_50000_at_1_100(registry: Registry) -> None:
    """Quincunx, Altering the Game Scale: at 1:100 each model army is 'over 50,000'."""
    rs = registry.get("quincunx")
    for army, men in (("roman", 50_400), ("carthaginian", 50_800)):
        roster = new_roster(rs, army, name=army, scale="1:100", standard=True)
        total = roster_totals(rs, roster).men
        assert total == men
        assert total is not None and total > 50_000


def test_quincunx_carthaginian_actual_column(registry: Registry) -> None:
    rs = registry.get("quincunx")
    roster = new_roster(rs, "carthaginian", name="Hannibal", standard=True)
    totals = roster_totals(rs, roster)
    assert totals.men == 5080
    elephants = [t for t in totals.per_unit if t.unit.entry == "elephants"]
    assert sum(t.total.men or 0 for t in elephants) == 240  # the table's 'Actual' for 2 units


def test_six_allied_cohorts_add_2160_men_at_1_10(registry: Registry) -> None:
    """Quincunx, Optional Additional Troops: 'Six cohorts would provide 2,160 more men.'"""
    rs = registry.get("quincunx")
    base = new_roster(rs, "roman", name="Legion", standard=True)
    roster = base
    for entry in ("allied_hastati", "allied_principes", "allied_lights"):
        roster = AddUnit(unit_from_entry(rs, "roman", entry, count=6)).apply(roster)
    added = roster_totals(rs, roster).men - roster_totals(rs, base).men  # type: ignore[operator]
    assert added == 2160
    big = UpdateRoster({"scale": "1:100"}).apply(roster)
    base_big = replace(base, scale="1:100")
    assert roster_totals(rs, big).men - roster_totals(rs, base_big).men == 21_600  # type: ignore[operator]


def test_switching_scale_changes_men_only(registry: Registry) -> None:
    rs = registry.get("quincunx")
    small = new_roster(rs, "roman", name="L", standard=True)
    big = UpdateRoster({"scale": "1:100"}).apply(small)
    a, b = roster_totals(rs, small), roster_totals(rs, big)
    assert (a.figures, a.bases, a.units) == (b.figures, b.bases, b.units)
    assert b.men == 10 * a.men  # type: ignore[operator]


def test_quincunx_maniple_is_two_century_bases(registry: Registry) -> None:
    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="L")
    hastati = unit_from_entry(rs, "roman", "hastati")
    s = unit_strength(rs, roster, hastati)
    assert (s.figures, s.bases, s.men) == (12, 2, 120)


def test_leg_vi_legion_counts_bases_and_men_per_line(registry: Registry) -> None:
    """Leg VI: a legion is 10 bases (hastati 4 MI, principes 4 MI, triarii 2 HI); men are the
    midpoints of the source's ranges (MI 350, HI 550)."""
    rs = registry.get("leg-vi-carthago")
    roster = new_roster(rs, "roman", name="Legio")
    assert roster.scale is None
    legion = unit_from_entry(rs, "roman", "roman_legion")
    s = unit_strength(rs, roster, legion)
    assert s.bases == 10
    assert s.men == 8 * 350 + 2 * 550
    assert s.figures is None  # the source gives no figures per base
    under = replace(legion, lines={"Triarii": 4})
    u = unit_strength(rs, roster, under)
    assert u.bases == 12 and u.men == s.men  # two understrength bases count as one


@pytest.mark.parametrize(
    ("ruleset", "army", "entry", "bases", "men"),
    [
        ("leg-vi-carthago", "carthaginian", "elephants", 1, 10),
        ("leg-vi-carthago", "carthaginian", "numidian_cavalry", 4, 700),
        ("grown-slightly-bald", "rome", "heavy_infantry", 4, None),
        ("d3-ancients", "roman", "legionaries", 3, None),
    ],
)
def test_base_counting_rulesets(
    registry: Registry, ruleset: str, army: str, entry: str, bases: int, men: int | None
) -> None:
    rs = registry.get(ruleset)
    roster = new_roster(rs, army, name="x")
    unit = unit_from_entry(rs, army, entry)
    if ruleset == "leg-vi-carthago" and entry == "numidian_cavalry":
        unit = replace(unit, size=4)
    s = unit_strength(rs, roster, unit)
    assert s.bases == bases
    assert s.men == men


def test_count_multiplies_identical_units(registry: Registry) -> None:
    rs = registry.get("mwan90")
    roster = new_roster(rs, "roman", name="x", scale="1:100")
    roster = AddUnit(unit_from_entry(rs, "roman", "hastati", size=16, count=3)).apply(roster)
    t = roster_totals(rs, roster)
    assert (t.units, t.figures, t.men) == (3, 48, 4800)


def test_unknown_entry_keeps_its_size(registry: Registry) -> None:
    """Without its entry a unit still has its size, and in a figure-counting ruleset its men
    (figures times the scale); bases need the entry's basing."""
    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="x")
    ghost = replace(unit_from_entry(rs, "roman", "hastati"), entry="gone", size=10)
    s = unit_strength(rs, roster, ghost)
    assert (s.figures, s.bases, s.men) == (10, None, 100)
    leg = registry.get("leg-vi-carthago")
    roster = new_roster(leg, "roman", name="x")
    ghost = replace(unit_from_entry(leg, "roman", "velites"), entry="gone", size=4)
    s = unit_strength(leg, roster, ghost)
    assert (s.figures, s.bases, s.men) == (None, 4, None)


@pytest.mark.parametrize(
    ("ruleset", "army", "entry"),
    [("quincunx", "roman", "hastati"), ("leg-vi-carthago", "roman", "velites")],
)
def test_unknown_entry_is_left_out_of_the_totals_and_counted(
    registry: Registry, ruleset: str, army: str, entry: str
) -> None:
    """One unit kept from an older data version must not blank the roster's bases and men:
    the totals sum the known units and say how many they leave out."""
    rs = registry.get(ruleset)
    roster = new_roster(rs, army, name="x")
    roster = AddUnit(unit_from_entry(rs, army, entry, count=2)).apply(roster)
    known = roster_totals(rs, roster)
    assert known.excluded == 0 and known.bases is not None and known.men is not None
    ghost = replace(unit_from_entry(rs, army, entry), entry="gone", count=3)
    with_ghost = roster_totals(rs, AddUnit(ghost).apply(roster))
    assert with_ghost.units == known.units + 3  # every unit is counted ...
    assert with_ghost.excluded == 3  # ... but three are left out of the sums
    assert with_ghost.strength == known.strength
    assert [t.known for t in with_ghost.per_unit] == [True, False]
    assert with_ghost.per_unit[1].total.bases is None or ruleset == "leg-vi-carthago"


def test_unknown_army_list_leaves_every_unit_out(registry: Registry) -> None:
    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="x", standard=True)
    gone = replace(roster, army="persian")
    t = roster_totals(rs, gone)
    assert t.excluded == t.units == roster.unit_count()
    assert (t.figures, t.bases, t.men) == (0, 0, 0)


def test_totals_from_an_earlier_value_equal_totals_made_afresh(registry: Registry) -> None:
    """An edit's totals reuse the unchanged units' strengths (the window's 1,000-unit
    roster): the same totals as made from scratch, whatever the edit changed."""
    from app.core.edits import RemoveUnits, UpdateUnit

    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="R", scale="1:10", standard=True)
    edits = [
        UpdateUnit(roster.units[0].id, {"size": 20}),
        UpdateUnit(roster.units[1].id, {"count": 3}),
        AddUnit(replace(roster.units[2], id="gone", entry="not-in-the-list")),
        RemoveUnits((roster.units[3].id,)),
    ]
    before = (roster, roster_totals(rs, roster))
    for edit in edits:
        after = edit.apply(before[0])
        got = roster_totals(rs, after, before)
        assert got == roster_totals(rs, after)
        before = (after, got)
    rescaled = replace(before[0], scale="1:100")  # every unit's men change: none reused
    assert roster_totals(rs, rescaled, before) == roster_totals(rs, rescaled)
    assert roster_totals(rs, rescaled).excluded == 1
