"""MWAN #90 on the table, from the article: "Cavalry in line (& formed Medium Infantry) may
wheel 90 & move 8" (or move then wheel). Light Cavalry (& formed Medium Infantry) may also
about face before or after movement. Heavy Infantry in line may only move forward or wheel
45. Friendly skirmishers may move through elephants (but no other formed units)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import new_battle
from app.core.battle.sample import sample_roster
from app.rules.mechanics import TurnView, mechanics_for
from app.rules.movement import MoveCheck
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rulesets.mwan90.mechanics import MWAN90Mechanics


@pytest.fixture
def mech(registry: Registry) -> MWAN90Mechanics:
    m = mechanics_for(registry.get("mwan90"))
    assert isinstance(m, MWAN90Mechanics)
    return m


@pytest.fixture
def view(mech: MWAN90Mechanics) -> TurnView:
    rs = mech.ruleset
    state = new_battle(rs, mech, (sample_roster(rs, "roman"), sample_roster(rs, "carthaginian")))
    return replace(state.view(), phase=1)  # the movement phase


def alone(view: TurnView, unit_id: str) -> TurnView:
    """The unit alone in the middle of the table."""
    u = replace(view.unit(unit_id), x=36.0, y=24.0, facing=0.0)
    return replace(view, units=(u,))


def check(mech: MWAN90Mechanics, view: TurnView, unit: str, path: str) -> MoveCheck:
    return mech.check_move(view, unit, Path(parse_path(path)))


def texts(c: MoveCheck) -> str:
    return " | ".join(f"{b.rule}: {b.text}" for b in c.breaches)


def test_heavy_infantry_only_forward_or_a_45_degree_wheel(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    v = alone(view, "A3")  # heavy infantry
    assert not check(mech, v, "A3", "forward 4").forbidden
    assert not check(mech, v, "A3", "wheel 45 left").forbidden
    too_far = check(mech, v, "A3", "wheel 60 left")
    assert too_far.forbidden and "may wheel at most 45 degrees" in texts(too_far)
    both = check(mech, v, "A3", "wheel 20 left; forward 2")
    assert "wheel instead of moving" in texts(both)
    assert "may only move forward" in texts(check(mech, v, "A3", "back 1"))
    assert "may not about face" in texts(check(mech, v, "A3", "about face"))


def test_cavalry_wheel_90_and_light_cavalry_about_face(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    v = alone(view, "A6")  # cavalry in line
    ok = check(mech, v, "A6", "wheel 90 right; forward 2")
    assert "MWAN #90, Movement" not in texts(ok), texts(ok)
    assert "may not about face" in texts(check(mech, v, "A6", "about face"))
    v = alone(view, "A8")  # light cavalry
    turned = check(mech, v, "A8", "about face; forward 2")
    assert "MWAN #90, Movement" not in texts(turned), texts(turned)


def test_skirmishers_pass_only_through_elephants(mech: MWAN90Mechanics, view: TurnView) -> None:
    skirmish = replace(view.unit("A5"), x=36.0, y=20.0, facing=0.0)
    friend = replace(view.unit("A3"), x=36.0, y=24.0, facing=0.0)  # heavy infantry ahead
    v = replace(view, units=(skirmish, friend))
    through_foot = check(mech, v, "A5", "forward 8")
    assert through_foot.forbidden and "A3" in texts(through_foot)
    elephant = replace(friend, troop="elephants")
    v = replace(view, units=(skirmish, elephant))
    through_elephant = check(mech, v, "A5", "forward 8")
    assert not through_elephant.forbidden, texts(through_elephant)
