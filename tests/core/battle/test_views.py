"""A state's view (what the mechanics see): each unit's combatant is made once for as long
as the unit and its leader are the same objects, and is always the one
:meth:`BattleState.combatant` makes from the state itself."""

from __future__ import annotations

from dataclasses import replace

from app.core.battle import BattleSession, MoveUnit, NextPhase, StartBattle, new_battle
from app.core.battle.state import BattleState
from app.rules.registry import Registry
from tests.core.battle.test_session import roster
from tests.core.battle.toy import ToyMechanics


def _as_made(state: BattleState) -> None:
    """The view's combatants are those made afresh from the state, unit by unit."""
    assert state.view().units == tuple(state.combatant(u) for u in state.units)


def test_the_view_follows_units_leaders_and_armies(registry: Registry) -> None:
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    assert state.leaders, "the test needs a leader"
    _as_made(state)
    first = state.view().units
    unit = state.units[0]
    # a state with the same units shares their combatants
    same = replace(state, turn=2)
    _as_made(same)
    assert all(a is b for a, b in zip(first, same.view().units, strict=True))
    # a unit changed is seen changed, the others are shared
    moved = state.replace_unit(replace(unit, x=unit.x + 1.0))
    _as_made(moved)
    assert moved.view().units[0].x == unit.x + 1.0
    assert all(a is b for a, b in zip(first[1:], moved.view().units[1:], strict=True))
    # a leader attached to the unit, moved, wounded, detached, killed: each seen
    leader = state.leaders[0]
    steps = [
        replace(leader, attached_to=unit.id),
        replace(leader, attached_to=unit.id, x=5.0),
        replace(leader, attached_to=unit.id, wounds=1, status="wounded"),
        replace(leader, attached_to=unit.id, status="killed"),
        replace(leader, attached_to=None),
    ]
    for changed in steps:
        led = state.replace_leader(changed)
        _as_made(led)
        seen = led.view().unit(unit.id).leader
        expected = led.leader_of(unit.id)
        assert (seen is None) == (expected is None)
        if expected is not None:
            assert seen == BattleState.leader_view(expected)
    # two leaders on one unit: the first active one, as leader_of finds him
    if len(state.leaders) > 1:
        two = replace(
            state,
            leaders=(
                replace(state.leaders[0], attached_to=unit.id, status="killed"),
                replace(state.leaders[1], attached_to=unit.id),
            ),
        )
        _as_made(two)
    # the side's army renamed: seen
    side = state.sides[unit.side]
    sides = list(state.sides)
    sides[unit.side] = replace(side, army="other")
    renamed = replace(state, sides=(sides[0], sides[1]))
    _as_made(renamed)
    assert renamed.view().unit(unit.id).army == "other"


def test_a_battle_played_sees_what_its_states_hold(registry: Registry) -> None:
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    s = BattleSession(rs, mech, state, seed=3)
    s.do(StartBattle())
    for i in range(12):
        if i % 3 == 0:
            u = s.state.units[i % len(s.state.units)]
            s.do(MoveUnit(unit=u.id, x=u.x, y=u.y + 0.5, facing=u.facing))
        else:
            s.do(NextPhase())
        _as_made(s.state)
    for k in range(len(s.steps) + 1):
        _as_made(s.replay(k))


def test_a_state_with_the_same_units_and_leaders_takes_the_last_views_whole(
    registry: Registry,
) -> None:
    """A state that holds the very tuples of units and leaders the last view was made of
    (a Next phase: the phase moves on, the units stay) gets that view's combatants and
    leaders' views as they are; its own turn, phase and records all the same; and a state
    whose armies, units or leaders are other objects is made unit by unit again."""
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    first = state.view()
    later = replace(state, turn=3, phase=1, round=2, initiative=1)
    seen = later.view()
    assert seen is not first
    assert seen.units is first.units and seen.leaders is first.leaders
    assert (seen.turn, seen.phase, seen.round, seen.initiative) == (3, 1, 2, 1)
    _as_made(later)
    # a side's record changed: the record seen is the new one, the units are shared
    sides = list(state.sides)
    sides[0] = replace(sides[0], record={"stars": 2})
    recorded = replace(state, sides=(sides[0], sides[1]))
    assert recorded.view().sides[0] == {"stars": 2}
    assert recorded.view().units is first.units
    # equal tuples that are other objects: made again, unit by unit, and equal
    copied = replace(state, units=tuple(list(state.units)), leaders=tuple(list(state.leaders)))
    assert copied.view().units is not first.units
    _as_made(copied)
    # another army: every combatant is made for it, never taken whole
    sides = list(state.sides)
    sides[1] = replace(sides[1], army="other")
    other = replace(state, sides=(sides[0], sides[1]))
    assert other.view().units is not first.units
    _as_made(other)
    assert {u.army for u in other.view().units if u.side == 1} == {"other"}
