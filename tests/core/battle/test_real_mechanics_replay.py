"""Undo, redo and replay with every ruleset's real mechanics: whatever a player does, undo
restores the state exactly, redo reproduces the same rolls and state, and replay from the
start rebuilds every state from the recorded rolls (so the mechanics roll deterministically)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.battle import (
    Act,
    BattleSession,
    CommandError,
    MoveUnit,
    NextPhase,
    StartBattle,
    new_battle,
)
from app.core.edits import AddUnit
from app.core.roster import Roster, new_roster, unit_from_entry
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.builtin import ruleset_ids

RULESETS = ruleset_ids()


def army(registry: Registry, ruleset: str, index: int) -> Roster:
    rs = registry.get(ruleset)
    army_id = list(rs.armies)[index]
    roster = new_roster(rs, army_id, name=f"side {index}")
    for entry_id in list(rs.army(army_id).entries)[:4]:
        roster = AddUnit(unit_from_entry(rs, army_id, entry_id)).apply(roster)
    return roster


def session(registry: Registry, ruleset: str, seed: int) -> BattleSession:
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    state = new_battle(rs, mech, (army(registry, ruleset, 0), army(registry, ruleset, 1)))
    s = BattleSession(rs, mech, state, seed=seed)
    s.do(StartBattle())
    return s


def commands(state_units: int = 4) -> st.SearchStrategy[object]:
    unit = st.integers(1, state_units)
    return st.one_of(
        st.builds(lambda a, b: Act(action="melee", actor=f"A{a}", target=f"B{b}"), unit, unit),
        st.builds(lambda a, b: Act(action="melee", actor=f"B{a}", target=f"A{b}"), unit, unit),
        st.builds(lambda a, b: Act(action="shoot", actor=f"A{a}", target=f"B{b}"), unit, unit),
        st.builds(
            lambda a, x, y: MoveUnit(unit=f"A{a}", x=x, y=y),
            unit,
            st.floats(1, 10),
            st.floats(1, 10),
        ),
        st.just(NextPhase()),
    )


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cmds=st.lists(commands(), min_size=1, max_size=10), seed=st.integers(0, 10_000))
def test_undo_redo_replay_with_real_mechanics(
    registry: Registry, ruleset: str, cmds: list[object], seed: int
) -> None:
    s = session(registry, ruleset, seed)
    for cmd in cmds:
        before = s.state
        try:
            step = s.do(cmd)  # type: ignore[arg-type]
        except CommandError:
            assert s.state == before
            continue
        s.undo()
        assert s.state == before
        s.redo()
        assert s.state == step.state
        assert s.steps[s.cursor - 1].rolls == step.rolls
    assert s.replay() == s.state
