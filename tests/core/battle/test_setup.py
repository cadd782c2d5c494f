"""Setting up a battle: the table and the units' footprints come from the ruleset's data (its
table size and unit width), the app's own 6 x 4 ft table only where a source gives none."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import default_table, new_battle
from app.core.battle.setup import APP_DEFAULT_TABLE, footprint
from app.core.edits import AddUnit
from app.core.roster import Roster, new_roster, unit_from_entry
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
    assert footprint(rs, entry, unit) == (1.0, 40 / 80)
    wide = with_meta(rs, unit_width_mm=160.0)
    assert footprint(wide, entry, unit) == (1.0, 20 / 160)


def test_a_unit_whose_entry_is_gone_is_refused(registry: Registry) -> None:
    """A roster unit whose army-list entry the data no longer has is refused before any
    footprint is worked out (there is no made-up footprint for it)."""
    rs = registry.get("grown-slightly-bald")
    roster = _one_unit(rs, "rome", "heavy_infantry")
    gone = replace(roster, units=(replace(roster.units[0], entry="war_camels"),))
    other = _one_unit(rs, "carthage", "heavy_infantry")
    with pytest.raises(ValueError, match="war_camels"):
        new_battle(rs, mechanics_for(rs), (gone, other))
