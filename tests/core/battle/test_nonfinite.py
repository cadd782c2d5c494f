"""A battle state with a number that is not finite is named in one line after a command
(:func:`nonfinite_problem`), whichever unit, field or sign it is, and a state of huge but
finite numbers is not."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from app.core.battle import new_battle
from app.core.battle.session import nonfinite_problem
from app.core.battle.state import BattleState
from app.rules.registry import Registry
from tests.core.battle.test_session import roster
from tests.core.battle.toy import ToyMechanics

FIELDS = {
    "x": "x",
    "y": "y",
    "facing": "facing",
    "width": "width",
    "depth": "depth",
    "moved": "moved distance",
}


def _state(registry: Registry) -> BattleState:
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    return new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))


def test_a_finite_state_has_no_problem(registry: Registry) -> None:
    state = _state(registry)
    assert nonfinite_problem(state) is None
    # huge finite numbers whose sum overflows: still finite, still no problem
    unit = state.units[-1]
    huge = state.replace_unit(replace(unit, x=1e308, y=1e308, width=1e308))
    assert math.isinf(huge.units[-1].x + huge.units[-1].y)  # the sum overflows
    assert nonfinite_problem(huge) is None


@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_each_field_not_finite_is_named(registry: Registry, field: str, value: float) -> None:
    state = _state(registry)
    unit = state.units[len(state.units) // 2]
    bad = state.replace_unit(replace(unit, **{field: value}))
    assert (
        nonfinite_problem(bad) == f"{unit.name} ({unit.id}) would get a {FIELDS[field]} of {value}"
    )


def test_infinities_that_cancel_are_still_named(registry: Registry) -> None:
    """+inf and -inf in one unit sum to NaN: the first of them is named."""
    state = _state(registry)
    unit = state.units[0]
    bad = state.replace_unit(replace(unit, x=math.inf, y=-math.inf))
    assert nonfinite_problem(bad) == f"{unit.name} ({unit.id}) would get a x of inf"
