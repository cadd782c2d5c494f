"""The exact chances of big units without Python's greatest common divisors (issue 14):
:func:`product_fractions` and :func:`fractions_over` give exactly the Fractions that
``Fraction(x * y, den)`` gives, in lowest terms, whatever the weights."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from app.rules.dice import (
    binomial,
    coprime_fraction,
    fractions_over,
    product_fractions,
    valuation,
)


def plain(a: list[int], da: int, b: list[int], db: int) -> list[list[Fraction]]:
    return [[Fraction(x * y, da * db) for y in b] for x in a]


def lowest_terms(rows: list[list[Fraction]]) -> bool:
    return all(math.gcd(p.numerator, p.denominator) == 1 for row in rows for p in row)


def test_valuation_counts_each_prime_factor() -> None:
    for n in range(1, 2000):
        for p in (2, 3, 5, 7):
            m, v = n, 0
            while m % p == 0:
                m, v = m // p, v + 1
            assert valuation(n, p) == v
    assert valuation(3**1296 * 5, 3) == 1296
    assert valuation(-(2**70) * 3, 2) == 70
    with pytest.raises(ValueError):
        valuation(0, 3)


def test_coprime_fraction_is_the_plain_fraction() -> None:
    p = coprime_fraction(5**40, 6**50)
    assert p == Fraction(5**40, 6**50)
    assert (p.numerator, p.denominator) == (5**40, 6**50)
    assert p + Fraction(1, 3) == Fraction(5**40, 6**50) + Fraction(1, 3)


def test_products_of_dice_weights_equal_the_plain_fractions() -> None:
    """Random weights over denominators of dice primes (2, 3, 5, 7), zeros and weights
    sharing factors with the other side's denominator among them."""
    rng = random.Random(14)
    for _ in range(300):
        da = 2 ** rng.randint(0, 12) * 3 ** rng.randint(0, 12) * 5 ** rng.randint(0, 3)
        db = 2 ** rng.randint(0, 12) * 3 ** rng.randint(0, 12) * 7 ** rng.randint(0, 2)
        a = [rng.choice((0, 1, 2, 6, 9, 24)) * rng.randint(0, da) for _ in range(4)]
        b = [rng.randint(0, db) * rng.choice((1, 3, 8)) for _ in range(4)]
        got = product_fractions(a, da, b, db)
        assert got == plain(a, da, b, db)
        assert lowest_terms(got)
        assert fractions_over(a, da) == [Fraction(x, da) for x in a]


def test_other_primes_fall_back_to_plain_fractions() -> None:
    a, b = [1, 22, 23], [4, 46]
    got = product_fractions(a, 23 * 4, b, 46 * 9)
    assert got == plain(a, 23 * 4, b, 46 * 9)
    assert lowest_terms(got)


def test_two_big_binomials_paired() -> None:
    """Hits of 200 d6 at 6 against hits of 60 d6 at 5-6: whole-number weights over 6**n,
    paired, equal the Fractions of the binomials multiplied."""
    a = [math.comb(200, k) * 5 ** (200 - k) for k in range(201)]
    b = [math.comb(60, k) * 2**k * 4 ** (60 - k) for k in range(61)]
    got = product_fractions(a, 6**200, b, 6**60)
    ha, hb = binomial(200, Fraction(1, 6)), binomial(60, Fraction(1, 3))
    assert all(got[i][j] == ha[i] * hb[j] for i in range(0, 201, 7) for j in range(0, 61, 3))
    assert sum(sum(row, Fraction(0)) for row in got) == 1
    assert lowest_terms(got)


def test_a_python_without_the_private_constructors_gets_plain_fractions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path leans on a private hook of Python's Fraction; where a Python has
    neither, the same chances come as plain Fractions instead of a failure."""
    import app.rules.dice as dice

    monkeypatch.setattr(dice, "_FROM_COPRIME", None)
    monkeypatch.setattr(dice, "_FAST", False)
    a, b = [1, 5, 15, 20, 15, 5, 1], [3, 0, 9, 36]
    assert product_fractions(a, 64, b, 48) == plain(a, 64, b, 48)
    assert coprime_fraction(7, 12) == Fraction(7, 12)
