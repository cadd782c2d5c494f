"""Leg VI, Manoeuvre: "Movement by formed units must be directly to the front with no more
than 22 1/2 degrees variation off centre. To do otherwise, requires units to manoeuvre."
"Unformed units and elephants move stands freely and independently.\""""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from app.core.battle import new_battle
from app.core.battle.sample import sample_roster
from app.rules.mechanics import TurnView, mechanics_for
from app.rules.movement import MoveCheck
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rulesets.leg_vi.mechanics import LegVIMechanics


@pytest.fixture
def mech(registry: Registry) -> LegVIMechanics:
    m = mechanics_for(registry.get("leg-vi-carthago"))
    assert isinstance(m, LegVIMechanics)
    return m


@pytest.fixture
def view(mech: LegVIMechanics) -> TurnView:
    rs = mech.ruleset
    state = new_battle(rs, mech, (sample_roster(rs, "roman"), sample_roster(rs, "carthaginian")))
    return state.view()


def to_point(mech: LegVIMechanics, view: TurnView, unit_id: str, degrees: float) -> MoveCheck:
    """The unit, alone mid-table facing +y, moves 6" to a point ``degrees`` off its front."""
    u = replace(view.unit(unit_id), x=36.0, y=20.0, facing=0.0)
    v = replace(view, units=(u,))
    x = 36.0 + 6 * math.sin(math.radians(degrees))
    y = 20.0 + 6 * math.cos(math.radians(degrees))
    return mech.check_move(v, unit_id, Path(parse_path(f"to {x:.3f},{y:.3f}")))


def manoeuvre(check: MoveCheck) -> list[str]:
    return [b.text for b in check.breaches if b.rule == "Leg VI, Manoeuvre"]


def test_formed_units_move_within_22_5_degrees_of_their_front(
    mech: LegVIMechanics, view: TurnView
) -> None:
    assert manoeuvre(to_point(mech, view, "A6", 20)) == []  # formed heavy infantry
    refused = to_point(mech, view, "A6", 30)
    assert refused.forbidden and len(manoeuvre(refused)) == 1
    assert "at most 22.5 degrees off centre (30 asked)" in manoeuvre(refused)[0]
    assert manoeuvre(to_point(mech, view, "A6", -30))


def test_unformed_troops_move_freely(mech: LegVIMechanics, view: TurnView) -> None:
    assert manoeuvre(to_point(mech, view, "A3", 60)) == []  # light infantry are unformed
