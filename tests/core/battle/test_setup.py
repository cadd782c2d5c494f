"""Setting up a battle: the table and the units' footprints come from the ruleset's data (its
table size and unit width), the app's own 6 x 4 ft table only where a source gives none."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import default_table, new_battle
from app.core.battle.setup import APP_DEFAULT_TABLE
from app.core.edits import AddLeader, AddUnit
from app.core.roster import Leader, Roster, new_roster, unit_from_entry
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset
from app.rules.schema import TableSize


def with_meta(rs: Ruleset, **changes: object) -> Ruleset:
    """A house-rules copy of ``rs`` with ``meta`` fields changed."""
    return replace(rs, meta=rs.meta.model_copy(update=changes))


def test_gsb_table_from_its_data(registry: Registry) -> None:
    """GSB, from the source: a 150 x 90 cm table, measured in 8 cm unit widths."""
    rs = registry.get("grown-slightly-bald")
    assert rs.meta.table == TableSize(width=150, height=90, unit="cm")
    assert rs.meta.unit_width_mm == 80
    table = default_table(rs)
    assert (table.width, table.height) == (1500 / 80, 900 / 80)


@pytest.mark.parametrize("ruleset", ["quincunx", "leg-vi-carthago", "mwan90", "d3-ancients"])
def test_app_default_table_where_the_source_gives_none(registry: Registry, ruleset: str) -> None:
    """No other source gives a table size: the app's 6 x 4 ft, exactly 72 x 48 inches."""
    rs = registry.get(ruleset)
    assert rs.meta.table is None
    assert TableSize(width=6, height=4, unit="ft") == APP_DEFAULT_TABLE
    table = default_table(rs)
    assert (table.width, table.height) == (72, 48)


def test_table_units_are_read_as_given(registry: Registry) -> None:
    """A table in feet is feet (the old text parser read "6 x 4 ft" as 6 x 4 cm)."""
    gsb = with_meta(
        registry.get("grown-slightly-bald"), table=TableSize(width=6, height=4, unit="ft")
    )
    table = default_table(gsb)
    assert table.width == pytest.approx(6 * 304.8 / 80)
    assert table.height == pytest.approx(4 * 304.8 / 80)
    quincunx = with_meta(registry.get("quincunx"), table=TableSize(width=120, height=80, unit="cm"))
    table = default_table(quincunx)
    assert table.width == pytest.approx(1200 / 25.4) and table.height == pytest.approx(800 / 25.4)


def _one_unit(rs: Ruleset, army: str, entry: str) -> Roster:
    roster = new_roster(rs, army, name=army)
    return AddUnit(unit_from_entry(rs, army, entry)).apply(roster)


def test_gsb_footprint_in_its_unit_width(registry: Registry) -> None:
    """GSB, our basing: four 40 x 20 mm bases two wide and two deep make one unit width of
    the data's 8 cm; a house copy with a 16 cm unit width sets them four abreast."""
    rs = registry.get("grown-slightly-bald")
    unit = _one_unit(rs, "rome", "heavy_infantry").units[0]
    entry = rs.army("rome").entries["heavy_infantry"]
    assert mechanics_for(rs).footprint(entry, unit.size) == (1.0, 40 / 80)
    wide = with_meta(rs, unit_width_mm=160.0)
    assert mechanics_for(wide).footprint(entry, unit.size) == (1.0, 20 / 160)


def test_figures_stand_in_the_ranks_their_ruleset_gives(registry: Registry) -> None:
    """Singly based figures stand in ranks of 20 mm figures: a Quincunx phalanx of 36 in the
    four ranks it forms in, 9 files; an MWAN #90 citizen phalanx of 12 in its three
    fighting ranks, 4 files; Quincunx troops that give no ranks in two."""
    inch = 25.4
    q = registry.get("quincunx")
    mech = mechanics_for(q)
    phalanx = q.army("carthaginian").entries["carthaginian_phalanx"]
    assert mech.figure_ranks(phalanx.troop) == 4
    assert mech.footprint(phalanx, 36) == pytest.approx((9 * 20 / inch, 4 * 20 / inch))
    slingers = q.army("carthaginian").entries["balearic_slingers"]
    assert mech.footprint(slingers, 12) == pytest.approx((6 * 20 / inch, 2 * 20 / inch))
    m = registry.get("mwan90")
    citizens = m.army("carthaginian").entries["citizen_phalanx"]
    assert mechanics_for(m).footprint(citizens, 12) == pytest.approx((4 * 20 / inch, 3 * 20 / inch))


def test_a_legion_stands_in_its_lines(registry: Registry) -> None:
    """Leg VI: a legion's 10 bases stand as hastati 4, principes 4, triarii 2, one line
    behind another: the four 20 mm bases of a line spaced over 120 mm ("the same as 6
    bases rather than the actual 4"), three lines 1" apart ("a gap of up to 1 inch between
    lines"; errata legion-footprint)."""
    rs = registry.get("leg-vi-carthago")
    legion = rs.army("roman").entries["roman_legion"]
    assert mechanics_for(rs).footprint(legion, 10) == pytest.approx((120 / 25.4, 60 / 25.4 + 2))


def test_only_d3_keeps_chance_card_conditions_in_the_side_records(registry: Registry) -> None:
    """A side's record starts with its army and side name, then what its ruleset keeps
    there: D3 the commander's quality (the general's, else average) and supply problems
    for its chance cards; the others nothing more."""
    for rs in registry:
        if rs.engine.has_chance_cards:
            continue
        armies = list(rs.armies)
        rosters = (_one_unit(rs, armies[0], next(iter(rs.army(armies[0]).entries))),) * 2
        state = new_battle(rs, mechanics_for(rs), (rosters[0], rosters[1]))
        for side in state.sides:
            assert set(side.record) == {"army", "side_name"}, rs.id
    rs = registry.get("d3-ancients")
    rome = AddLeader(
        Leader(id="c", name="Scipio", rank="general", fields={"quality": "good"})
    ).apply(_one_unit(rs, "roman", "legionaries"))
    carthage = _one_unit(rs, "carthaginian", next(iter(rs.army("carthaginian").entries)))
    state = new_battle(rs, mechanics_for(rs), (rome, carthage), records=({}, {"extra": 1}))
    assert state.sides[0].record == {
        "army": "roman",
        "side_name": rome.side,
        "commander_quality": "good",
        "supply_problems": False,
    }
    assert state.sides[1].record == {
        "army": "carthaginian",
        "side_name": carthage.side,
        "commander_quality": "average",
        "supply_problems": False,
        "extra": 1,
    }
    assert list(state.sides[1].record)[-1] == "extra"


def test_a_unit_whose_entry_is_gone_is_refused(registry: Registry) -> None:
    """A roster unit whose army-list entry the data no longer has is refused before any
    footprint is worked out (there is no made-up footprint for it)."""
    rs = registry.get("grown-slightly-bald")
    roster = _one_unit(rs, "rome", "heavy_infantry")
    gone = replace(roster, units=(replace(roster.units[0], entry="war_camels"),))
    other = _one_unit(rs, "carthage", "heavy_infantry")
    with pytest.raises(ValueError, match="war_camels"):
        new_battle(rs, mechanics_for(rs), (gone, other))
