"""The decisions a side takes and the umpire's default result (issue 30): each ruleset's
side decisions are its own actions, allowed when listed; the three rulesets with no victory
rule state Castra's default for the umpire's call in their data and errata, and it reads as
documented."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import BattleSession, StartBattle, new_battle
from app.core.battle.advisor import refusal
from app.core.battle.opponent import decision_command
from app.core.ready import ready_armies, ready_roster
from app.rules.decisions import UmpireDefault, losses_result
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.rules.values import TurnView

NO_VICTORY_RULE = {"quincunx": 10, "leg-vi-carthago": 12, "mwan90": 12}
RULE = UmpireDefault(title="half, or 12 turns", lost_share=0.5, turns=12)


def view(turn: int) -> TurnView:
    return TurnView(turn, 0, None, (), ({}, {}), ("rome", "carthage"), ("Rome", "Carthage"))


@pytest.mark.parametrize("ruleset", sorted(NO_VICTORY_RULE))
def test_the_umpire_default_is_data_with_its_errata(registry: Registry, ruleset: str) -> None:
    rs = registry.get(ruleset)
    rule = mechanics_for(rs).umpire_default()
    assert rule is not None
    assert (rule.lost_share, rule.turns) == (0.5, NO_VICTORY_RULE[ruleset])
    [note] = [e for e in rs.errata if e.id == "umpire-default"]
    assert "tables.umpire" in note.applies_to and f"after {rule.turns} turns" in note.decision


@pytest.mark.parametrize("ruleset", ["d3-ancients", "grown-slightly-bald"])
def test_rulesets_with_a_victory_rule_need_no_umpire(registry: Registry, ruleset: str) -> None:
    assert mechanics_for(registry.get(ruleset)).umpire_default() is None


def test_half_the_army_lost_loses_at_once() -> None:
    won = losses_result(RULE, view(3), [2, 5], [8, 10], "destroyed")
    assert won is not None and won.winner == 0
    assert "Castra's default" in won.reason and "Carthage lost 5 of 10" in won.reason
    assert losses_result(RULE, view(3), [2, 4], [8, 10], "destroyed") is None


def test_both_broken_the_larger_share_loses_equal_shares_draw() -> None:
    found = losses_result(RULE, view(3), [6, 5], [8, 10], "destroyed")
    assert found is not None and found.winner == 1
    drawn = losses_result(RULE, view(3), [4, 5], [8, 10], "destroyed")
    assert drawn is not None and drawn.winner is None


def test_after_the_last_turn_the_smaller_share_wins() -> None:
    assert losses_result(RULE, view(12), [1, 1], [8, 10], "destroyed") is None
    found = losses_result(RULE, view(13), [1, 1], [8, 10], "destroyed")
    assert found is not None and found.winner == 1  # 1 of 10 is the smaller share
    even = losses_result(RULE, view(13), [1, 1], [10, 10], "destroyed")
    assert even is not None and even.winner is None


@pytest.mark.parametrize(
    "ruleset", ["d3-ancients", "grown-slightly-bald", "leg-vi-carthago", "mwan90", "quincunx"]
)
def test_side_decisions_are_the_rulesets_own_actions(registry: Registry, ruleset: str) -> None:
    """Through a few phases of the ready armies' battle, every decision listed for a side is
    one of its ruleset's actions, and the ones due now are allowed by their own checks."""
    from app.core.battle import NextPhase

    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    a, b = (ready_roster(rs, r.army) for r in ready_armies(rs))
    session = BattleSession(rs, mech, new_battle(rs, mech, (a, b)), seed=2)
    session.do(StartBattle())
    keys = {spec.key for spec in mech.actions()}
    listed = 0
    for _ in range(2 * len(rs.turn.phases)):
        state = session.state
        for side in (0, 1):
            for d in mech.side_decisions(state.view(), side):
                assert d.action in keys and d.side == side and d.rule
                assert d.options in d.all_choices()
                if d.when == "now" and not d.optional:
                    assert refusal(state, rs, mech, decision_command(d)) is None, d
                listed += 1
        session.do(NextPhase())
    assert listed > 0


def test_a_unit_lost_counts_its_markers() -> None:
    from app.rules.mechanics import Combatant, Mechanics, Status

    unit = Combatant("A1", "Hastati", "hi", 0, Status(strength=5, start_strength=10))
    mech = Mechanics.__new__(Mechanics)
    assert not mech.unit_lost(unit)
    routed = replace(unit, status=replace(unit.status, markers=frozenset({"routed"})))
    assert mech.unit_lost(routed)
