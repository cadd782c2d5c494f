"""Quincunx actions declared once (app/rulesets/quincunx/mechanics.py, combat.py, throws.py):
each throw's exact distribution equals every face of the rolls it makes, the odds are what
``play`` does with every reading, and the words of a roll show each side's faces."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.actions import Classify, Joint, Total, exact_of, explore_roll
from app.rules.dice import ScriptedDice
from app.rules.mechanics import (
    Combatant,
    LeaderView,
    NotImplementedRule,
    Resolution,
    Situation,
)
from app.rules.registry import BUILTIN_DIR
from app.rulesets import load_ruleset
from app.rulesets.quincunx.mechanics import QuincunxMechanics
from app.rulesets.quincunx.rules import risk_reading
from app.rulesets.quincunx.throws import SideCast, clash, side_cast, sides_of, spread
from tests.rules.mechanics_harness import combatant

RS = load_ruleset(BUILTIN_DIR / "quincunx")
M = QuincunxMechanics(RS)

MELEE_DICE = st.sampled_from(["d4", "d6", "d8", "d10", "d12", "d12+2"])


def unit(troop: str, size: int, side: int = 0, **status: Any) -> Combatant:
    return combatant(M, troop, size, side=0 if side == 0 else 1, uid=f"{troop}-{side}", **status)


def led(c: Combatant, name: str) -> Combatant:
    return replace(c, leader=LeaderView(f"ldr-{name}", name, "commander"))


def run(
    action: str,
    actor: Combatant | None,
    target: Combatant | None,
    script: list[tuple[str, tuple[int, ...]]],
    **options: Any,
) -> Resolution:
    dice = ScriptedDice(script)
    res = M.resolve(action, Situation(actor=actor, target=target, options=options), dice)
    assert dice.exhausted, "the resolver did not cast every scripted die"
    return res


# --------------------------------------------------------------------------- throws


@settings(max_examples=40, deadline=None)
@given(st.lists(MELEE_DICE, max_size=2), st.integers(-3, 4))
def test_a_side_cast_is_what_its_rolls_give(specs: list[str], modifier: int) -> None:
    """One side's melee cast (its dice rolled one by one, their pluses and its modifier)
    read exactly as every face of every roll it makes; no dice (stragglers): the modifier."""
    throw = side_cast(tuple(specs), modifier, "a side")
    assert throw.exact() == explore_roll(throw)
    if not specs:
        assert throw.exact() == {modifier: Fraction(1)}


def test_a_clash_is_the_difference_of_the_two_casts() -> None:
    """A pike phalanx's initial attack (d12 + d6, +1) against a d10: the difference counted
    from the parts' distributions equals every face of the three rolls."""
    throw = clash(side_cast(("d12", "d6"), 1, "pike"), side_cast(("d10",), 0, "hastati"))
    dist = exact_of(throw)
    assert dist == explore_roll(throw)
    assert dist == Joint.exact(throw)  # the whole-number convolution is the Joint's reading
    assert min(dist) == 1 + 1 + 1 - 10 and max(dist) == 12 + 6 + 1 - 1
    assert dist[18] == Fraction(1, 12 * 6 * 10)


def test_a_clash_rolls_each_die_as_recorded_and_says_each_sides_faces() -> None:
    dice = ScriptedDice([("d12", (9,)), ("d6", (4,)), ("d12+2", (3,))])
    diff, shown = clash(
        side_cast(("d12", "d6"), 1, "pike"), side_cast(("d12+2",), 0, "elephant")
    ).roll(dice)
    assert dice.exhausted
    assert diff == (9 + 4 + 1) - (3 + 2)
    assert sides_of(shown) == ("9 + 4 -> 14", "3 -> 5")


def test_equal_casts_share_their_odds_whatever_their_purpose() -> None:
    assert side_cast(("d10",), 1, "Hastati") == side_cast(("d10",), 1, "Boii")
    assert side_cast(("d10",), 1, "x") != side_cast(("d10",), 2, "x")
    assert SideCast("d10", "x", ("d10",), 0) == side_cast(("d10",), 0, "y")


@pytest.mark.parametrize("spec", ["2d4", "2d6", "2d8", "2d10", "2d12"])
def test_missile_pair_read_as_high_minus_low(spec: str) -> None:
    sides = int(spec[2:])
    dist = Classify(spec, how=spread).exact()
    assert dist == explore_roll(Classify(spec, how=spread))
    assert dist[0] == Fraction(1, sides)
    assert dist[sides - 1] == Fraction(2, sides * sides)


def test_leader_risk_reading() -> None:
    """2d6: a double one (1/36), another double (5/36), no double (30/36)."""
    throw = Classify("2d6", how=risk_reading)
    assert throw.exact() == {
        "double one": Fraction(1, 36),
        "double": Fraction(5, 36),
        "no double": Fraction(30, 36),
    }
    assert throw.exact() == explore_roll(throw)


def test_opposed_single_dice() -> None:
    """The pre-melee volley (d12 against d10) and evasion (d10 against d6) read as the
    difference of two single dice."""
    throw = clash(Total("d12"), Total("d10"))
    dist = exact_of(throw)
    assert dist == explore_roll(throw)
    assert dist[0] == Fraction(10, 120)
    assert sum(p for v, p in dist.items() if v > 0) == Fraction(sum(range(2, 12)) + 0, 120)


# --------------------------------------------------------------------------- declarations


def test_every_action_is_declared_once() -> None:
    """The base class lists, resolves and counts each action from its declaration; the
    ones without odds refuse them."""
    declared = {a.key: a for a in M.declare()}
    assert [a.key for a in M.actions()] == list(declared)
    assert {k for k, a in declared.items() if a.odds} == {
        "melee",
        "shoot",
        "pre_melee",
        "evade",
        "trample",
    }
    for key in ("rampage", "command_check", "formation", "order"):
        with pytest.raises(NotImplementedRule, match="no odds"):
            M.odds(key, Situation(actor=unit("elephants", 12)))
    for key, action in declared.items():
        assert action.spec == M.action(key)
        assert action.closed_form is None  # every odds is counted from play


def test_options_are_filled_and_checked_before_any_die() -> None:
    h, c = unit("roman_hastati", 12, 0), unit("celtic_swordsmen", 16, 1)
    with pytest.raises(KeyError, match="no option 'charge'"):
        M.resolve("melee", Situation(actor=c, target=h, options={"charge": True}), ScriptedDice([]))
    # a refusal before the dice: nothing is rolled
    with pytest.raises(ValueError, match="against an enemy unit"):
        M.resolve(
            "melee", Situation(actor=c, target=unit("roman_hastati", 12, 1)), ScriptedDice([])
        )


# --------------------------------------------------------------------------- words


def test_melee_words_show_each_sides_faces_and_total() -> None:
    """The log of a melee: each side's cast with its faces and total, the difference, the
    losses and moves, the result, the leader's risk roll as it fell, the winner's d12."""
    p = unit("carthaginian_phalanx", 36, 1)
    h = led(unit("roman_hastati", 12, 0), "Marcus")
    res = run("melee", p, h, [("d12", (6,)), ("d6", (4,)), ("d10", (2,)), ("2d6", (5, 3))])
    assert res.explanation[0] == (
        "Carthaginian Pike Phalanx casts d12 (0 rings) +d6 initial attack: 6 + 4 -> 10."
    )
    assert res.explanation[1] == "Roman Hastati casts d10 (0 rings) +1 leader: 2 -> 3."
    assert res.explanation[2] == "Difference 7: 3 casualties to Roman Hastati."
    assert "Result: defender loses 3 and recoils." in res.explanation
    assert "Risk to Marcus: 2d6 = 5, 3: Marcus is unhurt." in res.explanation
    assert res.explanation[-1] == "The winner's side will cast a d12 for the next initiative."


def test_missile_volley_and_evasion_words() -> None:
    h, c = unit("roman_hastati", 12, 0), unit("celtic_swordsmen", 16, 1)
    res = run("pre_melee", h, c, [("d12", (3,)), ("d10", (7,))])
    assert res.explanation[:2] == (
        "Roman Hastati cast d12 for their volley: 3.",
        "Celtic Swordsmen cast d10 for their volley: 7.",
    )
    res = run("shoot", unit("moroccan_archers", 16, 1), h, [("2d12", (2, 11))])
    assert res.explanation[1].startswith("Dice 2 and 11: difference 9 -1 = 8")
    s = unit("balearic_slingers", 12, 1)
    res = run("evade", s, h, [("d10", (9,)), ("d6", (2,))])
    assert res.explanation[0].startswith(
        "Balearic Slingers try to evade Roman Hastati: d10 = 9 against d6 = 2"
    )
