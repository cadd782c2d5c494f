"""The contact rule is on by default: an engine's ``melee`` between two units standing on
the table with their bases apart is refused (odds and resolving), naming the rule and both
units, without the engine writing a check of its own; touching units and units not placed
(odds outside a battle) are not; an engine opts out with ``contact_actions``. The five
rulesets' own refusals keep their words (``tests/rulesets/test_melee_contact.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from app.rules.actions import Action, Throws, Total
from app.rules.dice import SeededDice
from app.rules.mechanics import Combatant, Mechanics, Outcome, Resolution, Situation
from app.rules.registry import Registry
from tests.rules.mechanics_harness import assert_odds_sum_to_one, combatant


def _play(sit: Situation, plan: None, throws: Throws) -> Resolution:
    face, _ = throws.throw(Total("d6", "to hit"))
    return Resolution(Outcome(result="hit" if face >= 4 else "miss"))


class Sketch(Mechanics):
    """A melee written with no contact check at all, as a new engine might first write it."""

    engine = "sketch"

    def declare(self) -> Sequence[Action[Any]]:
        return (Action("melee", "Melee", "pair", _play), Action("shoot", "Shoot", "pair", _play))


class FightsApart(Sketch):
    """The same, opting out: its rules let units fight at a distance."""

    contact_actions: ClassVar[frozenset[str]] = frozenset()


def _units(mech: Mechanics, gap: float) -> tuple[Combatant, Combatant]:
    a = combatant(mech, "roman_hastati", 12, side=0, uid="A1")
    d = combatant(mech, "celtic_swordsmen", 16, side=1, uid="B1")
    a = replace(a, x=0.0, y=0.0, facing=0.0, width=4.0, depth=2.0)
    d = replace(d, x=0.0, y=2.0 + gap, facing=180.0, width=4.0, depth=2.0)
    return a, d


def test_melee_thirty_inches_apart_is_refused_by_default(registry: Registry) -> None:
    mech = Sketch(registry.get("quincunx"))
    a, d = _units(mech, 30.0)
    why = "Quincunx, Melee: Roman Hastati (A1) is not in contact with Celtic Swordsmen (B1)"
    with pytest.raises(ValueError) as odds:
        mech.odds("melee", Situation(actor=a, target=d))
    with pytest.raises(ValueError) as resolved:
        mech.resolve("melee", Situation(actor=a, target=d), SeededDice(1))
    assert str(odds.value) == str(resolved.value) == why
    # an action not in contact_actions (shooting) is not the contact rule's business
    assert_odds_sum_to_one(mech.odds("shoot", Situation(actor=a, target=d)))


def test_touching_or_unplaced_units_fight(registry: Registry) -> None:
    mech = Sketch(registry.get("quincunx"))
    a, d = _units(mech, 0.0)
    odds = mech.odds("melee", Situation(actor=a, target=d))
    assert odds == {Outcome(result="hit"): Fraction(1, 2), Outcome(result="miss"): Fraction(1, 2)}
    assert mech.resolve("melee", Situation(actor=a, target=d), SeededDice(1)).outcome in odds
    far_a, far_d = _units(mech, 30.0)
    unplaced = replace(far_d, width=0.0, depth=0.0)
    assert_odds_sum_to_one(mech.odds("melee", Situation(actor=far_a, target=unplaced)))


def test_an_engine_opts_out(registry: Registry) -> None:
    mech = FightsApart(registry.get("quincunx"))
    a, d = _units(mech, 30.0)
    assert_odds_sum_to_one(mech.odds("melee", Situation(actor=a, target=d)))
    assert mech.resolve("melee", Situation(actor=a, target=d), SeededDice(1)).outcome.result


def test_the_five_keep_the_rule_on(registry: Registry) -> None:
    """No built-in engine opts out: each fights its melee in contact."""
    for rs in registry:
        assert "melee" in rs.engine.mechanics.contact_actions, rs.id
