"""MWAN #90's exact odds of big units (issue 14): the closed form of melee at four times the
largest units the army lists allow, which the bench times, is the plain enumeration of
``play`` throw by throw, and it makes one Fraction and one outcome per pair of the sides'
results (fewer for two units alike), with no second pass to add them up."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

import app.rules.dice as dice
import app.rules.values as values
from app.rules.dice import product_fractions
from app.rules.mechanics import Situation
from app.rules.ruleset import Ruleset
from app.rules.values import (
    CheckedOdds,
    Effects,
    Outcome,
    effects_with,
    normalise,
    paired_outcomes,
)
from app.rulesets.mwan90.combat import MWANCombat
from app.rulesets.mwan90.mechanics import MWAN90Mechanics
from tests.rules.mechanics_harness import combatant


@pytest.fixture(scope="module")
def mech(rs: Ruleset) -> MWAN90Mechanics:
    return MWAN90Mechanics(rs)


#: the slowest matchups the bench's search found (four times the lists' largest units), and
#: one with every kind of result: disorder, routs both ways and bonus moves
BIG = {
    "wedge": (
        "barbarian_medium_infantry",
        64,
        "barbarian_medium_infantry",
        64,
        {"d_formation": "wedge"},
    ),
    "flank": ("barbarian_medium_infantry", 64, "heavy_infantry", 64, {"attack": "flank"}),
    "front": ("barbarian_medium_infantry", 64, "heavy_infantry", 64, {}),
    "rear": ("greek_heavy_infantry", 72, "greek_heavy_infantry", 72, {"attack": "rear"}),
    "small": ("cavalry", 12, "elephants", 4, {"attack": "flank"}),
}


def situation(mech: MWAN90Mechanics, name: str) -> Situation:
    ta, sa, td, sd, options = BIG[name]
    return Situation(
        actor=combatant(mech, ta, sa), target=combatant(mech, td, sd, side=1), options=options
    )


@pytest.mark.parametrize("name", sorted(BIG))
def test_big_melee_is_the_plain_enumeration(mech: MWAN90Mechanics, name: str) -> None:
    """The odds the bench times are those of exploring ``play`` throw by throw, outcome by
    outcome and fraction by fraction, and those of pairing the effects with plain
    Fractions (:meth:`MWANCombat._merged`); in lowest terms."""
    sit = situation(mech, name)
    action = mech.declared("melee")
    odds = mech.odds("melee", sit)
    assert odds == action.explored_odds(sit)
    plan = action.prepare(sit)
    on_d, den_d = mech._weights(plan.dice_a, plan.need_a, plan.cap_d, plan)
    on_a, den_a = mech._weights(plan.dice_d, plan.need_d, plan.cap_a, plan)
    eff_d = {mech.defender_effects(plan, sit, h): w for h, w in on_d.items()}
    eff_a = {mech.losses(sit.attacker, plan.form_a, h): w for h, w in on_a.items()}
    assert odds == mech._merged(plan, eff_a, den_a, eff_d, den_d)
    assert all(p == Fraction(p.numerator, p.denominator) for p in odds.values())
    assert sum(odds.values(), Fraction(0)) == 1


def test_outcomes_built_in_bulk_hash_and_compare_as_plain_ones(mech: MWAN90Mechanics) -> None:
    """Every outcome of the quick path equals, and hashes as, the same outcome built the
    plain way: a dict of plain outcomes finds each of them."""
    odds = mech.odds("melee", situation(mech, "small"))
    plain = {Outcome(o.attacker, o.defender, o.result): p for o, p in odds.items()}
    assert plain == odds
    assert all(plain[o] is p and hash(o) == hash(replace(o)) for o, p in odds.items())


def test_each_pair_makes_one_fraction_and_no_outcome_the_slow_way(
    mech: MWAN90Mechanics, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Work counted, not timed: a pair of the sides' results costs one Fraction (half of
    them for two units alike, whose products are symmetric), no outcome goes through
    ``outcome_of``, and ``normalise`` adds nothing up again."""
    made = [0]
    make = dice._MAKE
    assert make is not None

    def counting(n: int, d: int) -> Fraction:
        made[0] += 1
        return make(n, d)

    slow: list[Any] = []
    monkeypatch.setattr(dice, "_MAKE", counting)
    monkeypatch.setattr(MWANCombat, "outcome_of", lambda *a, **k: slow.append(a))
    monkeypatch.setattr(values, "_by_denominator", lambda *a: slow.append(a))
    for name, alike in (("flank", False), ("rear", False), ("wedge", True)):
        made[0] = 0
        odds = mech.odds("melee", situation(mech, name))
        side = round(len(odds) ** 0.5)
        assert made[0] == (side * (side + 1) // 2 if alike else len(odds)), name
    assert slow == []


def test_a_side_whose_chances_do_not_sum_to_one_is_refused(
    mech: MWAN90Mechanics, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The closed form checks its total in whole numbers before it makes its Fractions
    (so ``normalise`` takes them as they are): weights that miss are an error."""
    real = MWANCombat._weights

    def short(self: MWANCombat, *args: Any) -> tuple[dict[int, int], int]:
        weights, den = real(self, *args)
        return weights, den + 1

    monkeypatch.setattr(MWANCombat, "_weights", short)
    with pytest.raises(ArithmeticError, match="do not sum to 1"):
        mech.odds("melee", situation(mech, "small"))


def test_checked_odds_pass_normalise_as_they_are_and_others_are_still_checked() -> None:
    a, b = Outcome(result="a"), Outcome(result="b")
    checked = CheckedOdds({a: Fraction(1, 3), b: Fraction(2, 3)})
    assert normalise(checked) == checked and type(normalise(checked)) is dict
    with pytest.raises(ArithmeticError):
        normalise({a: Fraction(1, 3), b: Fraction(1, 3)})


def test_a_throw_against_itself_shares_the_mirrored_products() -> None:
    """Two units alike: the product below the diagonal is the very Fraction above it, and
    every product is the plain one, zeros included."""
    a = [0, 1, 5, 10, 10, 5, 1, 0, 32]
    rows = product_fractions(a, 64, a, 64)
    assert rows == [[Fraction(x * y, 64 * 64) for y in a] for x in a]
    assert all(rows[i][j] is rows[j][i] for i in range(len(a)) for j in range(i))
    assert all(p.denominator == 1 for p in rows[0])
    b = [4, 3, 0, 20, 1, 6, 30, 0, 0]  # the same denominator, other chances: no mirror
    assert product_fractions(a, 64, b, 64) == [[Fraction(x * y, 64 * 64) for y in b] for x in a]


def test_paired_outcomes_are_plain_outcomes() -> None:
    hit, gone = Effects(casualties=2), Effects(casualties=9, eliminated=True)
    made = paired_outcomes(
        [(hit, "A ", "!", hash(hit)), (gone, "B ", "", hash(gone))], hit, "x", hash(hit)
    )
    assert made == [Outcome(hit, hit, "A x!"), Outcome(gone, hit, "B x")]
    assert [hash(o) for o in made] == [
        hash(Outcome(hit, hit, "A x!")),
        hash(Outcome(gone, hit, "B x")),
    ]


def test_outcomes_that_differ_only_in_their_label_hash_apart() -> None:
    """Some actions give many outcomes with the same effects and different labels (Leg
    VI's shooting): their hashes must not all collide."""
    assert len({hash(Outcome(result=f"{n} hits, saved")) for n in range(200)}) > 190


def test_effects_with_is_replace() -> None:
    e = Effects(casualties=3, markers_add=frozenset({"disordered"}), extra={"k": 1})
    hash(e)  # its kept hash must not pass to the copy
    for changes in ({"move": 'bonus move 4"'}, {"casualties": 5, "eliminated": True}, {}):
        copy = effects_with(e, **changes)
        assert copy == replace(e, **changes) and hash(copy) == hash(replace(e, **changes))
    with pytest.raises(TypeError, match="no field"):
        effects_with(e, moves="x")


def test_totals_over_many_denominators() -> None:
    """Hundreds of distinct denominators, none a multiple of all the others (the odds of a
    flank attack at four times the list sizes): still the exact sum."""
    dens = [2**i * 3**j for i in range(0, 40, 3) for j in range(0, 30, 2)]
    parts = [Fraction(1 + k % 7, d) for k, d in enumerate(dens)]
    assert values.exact_sum(parts) == sum(parts, Fraction(0))
