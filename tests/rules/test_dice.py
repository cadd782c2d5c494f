from fractions import Fraction

import pytest

from app.rules.dice import (
    AVD_FACES,
    binomial,
    capped,
    capped_binomial,
    chance_at_least,
    chance_of_any,
    check_total,
    dist_of,
    expectation,
    max_of,
    parse_dice,
    power_capped,
)


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier"),
    [
        ("d10", 1, 10, 0),
        ("2d6", 2, 6, 0),
        ("d3+1", 1, 3, 1),
        ("d3-1", 1, 3, -1),
        ("d12+2", 1, 12, 2),
        ("D4", 1, 4, 0),
    ],
)
def test_parse(text: str, count: int, sides: int, modifier: int) -> None:
    spec = parse_dice(text)
    assert (spec.count, spec.sides, spec.modifier) == (count, sides, modifier)


def test_avd_is_the_average_die() -> None:
    spec = parse_dice("avd")
    assert spec.faces == AVD_FACES == (2, 3, 3, 4, 4, 5)
    d = dist_of(spec)
    assert d == {2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 6)}


@pytest.mark.parametrize("bad", ["", "d", "x6", "2d", "d1", "0d6", "d6+", "1.5d6"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(ValueError, match=r"dice expression|at least"):
        parse_dice(bad)


def test_two_d6() -> None:
    d = dist_of("2d6")
    check_total(d)
    assert d[7] == Fraction(6, 36)
    assert d[2] == d[12] == Fraction(1, 36)
    assert expectation(d) == 7


def test_d3_minus_one_can_be_zero() -> None:
    assert dist_of("d3-1") == {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}


def test_commander_two_d3_keep_higher() -> None:
    d = max_of(dist_of("d3"), dist_of("d3"))
    assert d == {1: Fraction(1, 9), 2: Fraction(3, 9), 3: Fraction(5, 9)}


def test_binomial_hits_on_five_or_six() -> None:
    d = binomial(4, Fraction(1, 3))
    check_total(d)
    assert d[0] == Fraction(16, 81)
    assert d[4] == Fraction(1, 81)


def test_check_total_catches_a_bad_distribution() -> None:
    with pytest.raises(ArithmeticError):
        check_total({1: Fraction(1, 2)})


def test_d10_read_zero_to_nine() -> None:
    spec = parse_dice("d10z")
    assert spec.faces == tuple(range(10))
    assert min(dist_of(spec)) == 0 and max(dist_of(spec)) == 9


def test_chance_at_least_with_bonus_and_excluded_faces() -> None:
    assert chance_at_least("d6", 5) == Fraction(1, 3)
    assert chance_at_least("d6", 5, bonus=1) == Fraction(1, 2)
    # GSB elephant terror: the 4 counts on its own, so a plain hit on 4+ excludes it
    assert chance_at_least("d6", 4, exclude=(4,)) == Fraction(1, 3)
    assert chance_at_least("d10z", 1) == Fraction(9, 10)


def test_chance_of_any_counts_repeated_faces() -> None:
    assert chance_of_any("d6", (5, 6)) == Fraction(1, 3)
    assert chance_of_any("avd", (3,)) == Fraction(1, 3)  # the AvD bears two 3s


def test_capped_binomial_lumps_the_tail() -> None:
    """Hits past ``cap`` change nothing: they count as ``cap``; the sum stays one."""
    full = binomial(6, Fraction(1, 3))
    got = capped_binomial(6, Fraction(1, 3), 2)
    assert got == {0: full[0], 1: full[1], 2: sum(full[k] for k in range(2, 7))}
    assert got == capped(full, 2)
    assert capped_binomial(3, Fraction(1, 2), 5) == binomial(3, Fraction(1, 2))
    check_total(got)


def test_power_capped_is_the_capped_sum_of_independent_values() -> None:
    two_d6 = dist_of("2d6")
    assert power_capped(dist_of("d6"), 2, 100) == two_d6
    assert power_capped(dist_of("d6"), 2, 10) == capped(two_d6, 10)
    assert power_capped({0: Fraction(1)}, 5, 3) == {0: Fraction(1)}
