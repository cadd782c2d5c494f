"""Shared checks for every ruleset's mechanics: exact odds sum to one, and the resolver's
frequencies over many seeded rolls match the exact odds."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from app.rules.dice import SeededDice
from app.rules.mechanics import (
    Combatant,
    LeaderView,
    Mechanics,
    Odds,
    Outcome,
    Side,
    Situation,
    Status,
)


def combatant(
    mech: Mechanics,
    troop: str,
    size: int,
    *,
    side: Side = 0,
    uid: str | None = None,
    grade: str | None = None,
    leader: LeaderView | None = None,
    **status: object,
) -> Combatant:
    """A unit of ``troop`` straight from the mechanics' ``initial_status``, with any status
    fields overridden (``rings=2``, ``dps=3``, ``strength=7``, ``markers=frozenset(...)``)."""
    base = mech.initial_status(troop, size, grade)
    fields = {**base.__dict__, **status}
    return Combatant(
        unit_id=uid or f"{troop}-{side}",
        name=mech.troop_name(troop),
        troop=troop,
        side=side,
        status=Status(**fields),
        leader=leader,
    )


def assert_odds_sum_to_one(odds: Odds) -> None:
    total = sum(odds.values(), Fraction(0))
    assert total == 1, f"odds sum to {total}"
    assert all(p > 0 for p in odds.values())


def assert_frequencies_match(
    mech: Mechanics, action: str, sit: Situation, *, n: int = 4000, seed: int = 1
) -> Odds:
    """Resolve ``action`` ``n`` times with seeded dice; every outcome seen must have a
    positive exact probability, and each frequency must lie within five standard errors
    (plus a small allowance) of its exact probability."""
    odds = mech.odds(action, sit)
    assert_odds_sum_to_one(odds)
    seen: Counter[Outcome] = Counter()
    for i in range(n):
        res = mech.resolve(action, sit, SeededDice(f"{seed}:{i}"))
        seen[res.outcome] += 1
    for outcome in seen:
        assert outcome in odds, f"resolver produced an outcome the odds do not know: {outcome}"
    for outcome, p in odds.items():
        freq = seen[outcome] / n
        sd = math.sqrt(float(p * (1 - p)) / n)
        assert abs(freq - float(p)) <= 5 * sd + 2 / n, (
            f"{outcome.result or outcome}: frequency {freq:.4f} vs exact {float(p):.4f}"
        )
    return odds
