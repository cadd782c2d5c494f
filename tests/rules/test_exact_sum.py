"""The quick exact sum behind ``normalise`` gives exactly what ``sum`` gives."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from app.rules.values import Effects, Outcome, exact_sum, normalise


def test_exact_sum_equals_sum_over_dice_denominators() -> None:
    rng = random.Random(90)
    den = 6**200
    values = [Fraction(rng.randrange(1, den), den) for _ in range(300)]
    assert exact_sum(values) == sum(values, Fraction(0))


def test_exact_sum_equals_sum_when_no_denominator_holds_the_others() -> None:
    values = [Fraction(1, 3), Fraction(1, 4), Fraction(5, 7), Fraction(-2, 9), Fraction(0)]
    assert exact_sum(values) == sum(values, Fraction(0))
    assert exact_sum([]) == 0


def test_normalise_still_refuses_odds_that_do_not_sum_to_one() -> None:
    a, b = Outcome(result="a"), Outcome(result="b")
    assert normalise({a: Fraction(1, 3), b: Fraction(2, 3)}) == {
        a: Fraction(1, 3),
        b: Fraction(2, 3),
    }
    assert normalise({a: Fraction(1), b: Fraction(0)}) == {a: Fraction(1)}
    with pytest.raises(ArithmeticError, match="odds sum to 5/6"):
        normalise({a: Fraction(1, 2), b: Fraction(1, 3)})


def test_an_effects_hash_is_kept_and_equal_effects_hash_alike() -> None:
    one = Effects(casualties=2, extra={"b": 1, "a": 2})
    first = hash(one)
    assert hash(one) == first
    assert hash(Effects(casualties=2, extra={"a": 2, "b": 1})) == first
    assert one == Effects(casualties=2, extra={"a": 2, "b": 1})
