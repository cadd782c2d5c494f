"""GSB pivots, from the text: "May pivot up to 45 degrees before moving an increment. Pivots
greater than 45 degrees use up a full unit width of movement. Light troops can pivot as much
as they like with no penalty; elephants use up a unit width if they pivot at all."
(Distances in unit widths: heavy infantry move 1, light infantry and elephants 2.)"""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import new_battle
from app.core.battle.sample import sample_roster
from app.rules.mechanics import Combatant, TurnView, mechanics_for
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rulesets.gsb.mechanics import GSBMechanics


@pytest.fixture
def mech(registry: Registry) -> GSBMechanics:
    m = mechanics_for(registry.get("grown-slightly-bald"))
    assert isinstance(m, GSBMechanics)
    return m


def alone(mech: GSBMechanics, troop: str) -> tuple[TurnView, Combatant]:
    """A unit of ``troop`` alone in the middle of the table."""
    rs = mech.ruleset
    state = new_battle(rs, mech, (sample_roster(rs, "rome"), sample_roster(rs, "carthage")))
    view = state.view()
    unit = next(u for u in view.units if u.troop == troop)
    unit = replace(unit, x=view.table.width / 2, y=view.table.height / 2, facing=0.0)
    return replace(view, units=(unit,)), unit


def check(mech: GSBMechanics, view: TurnView, unit: Combatant, path: str) -> object:
    return mech.check_move(view, unit.unit_id, Path(parse_path(path)))


def test_a_pivot_of_45_degrees_is_free(mech: GSBMechanics) -> None:
    view, hi = alone(mech, "heavy_infantry")
    ok = check(mech, view, hi, "pivot 45; forward 1")
    assert not ok.forbidden, ok.breaches  # type: ignore[attr-defined]
    assert ok.cost == pytest.approx(1.0)  # type: ignore[attr-defined]
    assert "GSB, Pivots" in ok.legs[0].note  # type: ignore[attr-defined]


def test_a_bigger_pivot_uses_a_unit_width(mech: GSBMechanics) -> None:
    view, hi = alone(mech, "heavy_infantry")
    refused = check(mech, view, hi, "pivot 90; forward 1")
    assert refused.cost == pytest.approx(2.0)  # type: ignore[attr-defined]
    assert refused.forbidden  # type: ignore[attr-defined]
    assert any("1.0 UW of its 1 UW left" in b.text for b in refused.breaches)  # type: ignore[attr-defined]
    assert check(mech, view, hi, "pivot 90").cost == pytest.approx(1.0)  # type: ignore[attr-defined]


def test_light_troops_pivot_freely(mech: GSBMechanics) -> None:
    view, li = alone(mech, "light_infantry")
    ok = check(mech, view, li, "about face; forward 2")
    assert not ok.forbidden and ok.cost == pytest.approx(2.0)  # type: ignore[attr-defined]


def test_elephants_pay_a_unit_width_for_any_pivot(mech: GSBMechanics) -> None:
    view, el = alone(mech, "elephants")
    assert check(mech, view, el, "pivot 10; forward 1").cost == pytest.approx(2.0)  # type: ignore[attr-defined]
    assert check(mech, view, el, "pivot 10; forward 2").forbidden  # type: ignore[attr-defined]
    assert check(mech, view, el, "forward 2").cost == pytest.approx(2.0)  # type: ignore[attr-defined]
