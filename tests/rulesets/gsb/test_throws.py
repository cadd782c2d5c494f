"""Grown Slightly Bald's compound throws (app/rulesets/gsb/throws.py): each one's exact
distribution equals what its ``roll`` does with every face of every roll it makes
(:func:`explore_roll`); the unbounded elephant-terror re-roll is explored to a depth and must
agree with the closed form within the mass that exploration left out."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.rules.actions import Chooser, Faces, exact_of, explore, explore_roll
from app.rules.dice import ScriptedDice, power_capped
from app.rules.ruleset import Ruleset
from app.rulesets.gsb.rules import NO_DAMAGE, Body, Damage, LossRules
from app.rulesets.gsb.schema import tables
from app.rulesets.gsb.throws import (
    DeathTest,
    Rampage,
    StrikeHits,
    Wounds,
    rampage_table,
    terror_hits,
)


@pytest.fixture(scope="module")
def rules(rs: Ruleset) -> LossRules:
    return LossRules.of(tables(rs))


# --------------------------------------------------------------------------- the strike


def one_die(hit: int, miss: int, terror: int, cap: int) -> dict[int, Fraction]:
    """One die's hits: k terror faces, then a hit or a miss (read up to ``cap``)."""
    s = hit + miss + terror
    e, h, m = Fraction(terror, s), Fraction(hit, s), Fraction(miss, s)
    out = {0: m}
    for k in range(1, cap):
        out[k] = e**k * m + e ** (k - 1) * h
    out[cap] = 1 - sum(out.values(), Fraction(0))
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7])
@pytest.mark.parametrize(("hit", "miss", "terror"), [(2, 3, 1), (1, 4, 1), (3, 3, 0), (0, 5, 1)])
@pytest.mark.parametrize("cap", [1, 4, 9, 17])
def test_terror_closed_form_is_the_sum_of_dice(
    n: int, hit: int, miss: int, terror: int, cap: int
) -> None:
    """The negative-binomial closed form equals adding up ``n`` dice one at a time."""
    assert terror_hits(n, hit, miss, terror, cap) == {
        k: p for k, p in power_capped(one_die(hit, miss, terror, cap), n, cap).items() if p
    }


def test_terror_never_stopping_is_refused() -> None:
    with pytest.raises(ValueError, match="never stops"):
        terror_hits(2, 0, 0, 6, 4)


@pytest.mark.parametrize(
    ("spec", "need", "bonus", "cap"),
    [("3d6", 5, 0, 2), ("2d6", 6, 1, 4), ("4d6", 5, 0, 16), ("2d10z", 7, 0, 1)],
)
def test_strike_without_terror_matches_its_faces(
    spec: str, need: int, bonus: int, cap: int
) -> None:
    throw = StrikeHits(spec, need=need, bonus=bonus, cap=cap)
    assert throw.exact() == explore_roll(throw)


def test_terror_without_reroll_matches_its_faces() -> None:
    """A 4 scores even below the score needed, and is not rolled again."""
    throw = StrikeHits("3d6", need=6, terror=4, reroll=False, cap=3)
    assert throw.exact() == explore_roll(throw)
    assert throw.chances() == (Fraction(2, 6), 0)


class _Pruned(Exception):
    pass


class _BoundedDice:
    """Dice that try every face of the first ``rolls`` rolls and stop a run at the next."""

    def __init__(self, chooser: Chooser, rolls: int) -> None:
        self.chooser, self.left = chooser, rolls

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        if not self.left:
            raise _Pruned
        self.left -= 1
        return self.chooser.choose(lambda: exact_of(Faces(spec)))


PRUNED = -1


def explore_to_depth(throw: StrikeHits, rolls: int) -> dict[int, Fraction]:
    def run(ch: Chooser) -> int:
        try:
            return throw.roll(_BoundedDice(ch, rolls))[0]
        except _Pruned:
            return PRUNED

    return explore(run)


@pytest.mark.parametrize(("spec", "cap"), [("2d6", 9), ("3d6", 3), ("1d6", 6)])
def test_terror_rerolls_explored_to_a_depth(spec: str, cap: int) -> None:
    """Elephant terror (errata elephant-terror): every 4 scores and is rolled again, without
    end. Exploring the first rolls of ``roll`` gives, for each number of hits, at most the
    closed form's chance, and what is missing adds up to exactly the mass of the runs cut
    off, which shrinks with every roll explored."""
    throw = StrikeHits(spec, need=5, terror=4, reroll=True, cap=cap)
    exact = throw.exact()
    assert sum(exact.values()) == 1
    cut = []
    for depth in (1, 2, 3, 4):
        found = explore_to_depth(throw, depth)
        pruned = found.pop(PRUNED, Fraction(0))
        assert set(found) <= set(exact)
        missing = {k: exact[k] - found.get(k, Fraction(0)) for k in exact}
        assert all(m >= 0 for m in missing.values())
        assert sum(missing.values()) == pruned
        cut.append(pruned)
    assert cut == sorted(cut, reverse=True) and cut[-1] < cut[0] / 100


def test_terror_rolls_fours_again_as_new_rolls() -> None:
    dice = ScriptedDice([("3d6", (4, 5, 1)), ("1d6", (4,)), ("1d6", (2,))])
    hits, shown = StrikeHits("3d6", need=5, terror=4, reroll=True, cap=2).roll(dice)
    assert dice.exhausted
    assert (hits, shown) == (2, "4 5 1; terror re-roll 4; terror re-roll 2: 3 hit(s), 2 count")


# --------------------------------------------------------------------------- hit points


def test_death_test_is_a_double_six(rules: LossRules) -> None:
    throw = DeathTest("2d6", dies_on=rules.dies_on)
    assert throw.exact() == {True: Fraction(1, 36), False: Fraction(35, 36)}
    assert throw.exact() == explore_roll(throw)


def wounds(rules: LossRules, body: Body, taken: int, **kw: bool) -> Wounds:
    flags = {"fighting": False, "general": False, "test": True, **kw}
    return Wounds(rules.morale_die, "morale", rules=rules, body=body, taken=taken, **flags)


@pytest.mark.parametrize(
    ("body", "taken"),
    [
        (Body(4, 0, 4), 3),  # no base lost: no roll
        (Body(4, 3, 4), 1),  # one base, one morale roll
        (Body(3, 2, 4), 6),  # two bases lost to hits
        (Body(2, 1, 2), 3),  # lights down to their last base
        (Body(3, 0, 2), 6),  # destroyed by hits alone
        (Body(1, 0, 4), 4),  # the elephant
    ],
)
@pytest.mark.parametrize(
    "flags",
    [{}, {"fighting": True}, {"general": True}, {"general": True, "test": False}],
)
def test_wounds_match_their_faces(
    rules: LossRules, body: Body, taken: int, flags: dict[str, bool]
) -> None:
    """Base loss, the morale roll for each base lost (4-6 for the last base or against
    elephants), then the general's death test: the distribution counted in closed form is
    what the rolls give."""
    throw = wounds(rules, body, taken, **flags)
    assert throw.exact() == explore_roll(throw)


def test_wounds_chained_morale_match_their_faces(rules: LossRules) -> None:
    """With ``chain`` (a house rule) a base lost on morale calls for another roll."""
    chained = LossRules(**{**rules.__dict__, "chain": True})
    for body, taken in ((Body(3, 3, 4), 1), (Body(4, 2, 2), 2)):
        throw = wounds(chained, body, taken, general=True)
        assert throw.exact() == explore_roll(throw)


def test_no_hits_no_rolls(rules: LossRules) -> None:
    throw = wounds(rules, Body(4, 0, 4), 0, general=True)
    assert throw.exact() == {NO_DAMAGE: 1}
    dice = ScriptedDice([])
    assert throw.roll(dice) == (NO_DAMAGE, "") and dice.exhausted


def test_wounds_roll_in_order(rules: LossRules) -> None:
    """Two bases go to 3 hits on lights with a hit already: morale after each (the first
    holds, the second takes the third base), then the general survives his test."""
    throw = wounds(rules, Body(4, 1, 2), 3, general=True)
    dice = ScriptedDice([("d6", (3,)), ("d6", (5,)), ("2d6", (6, 1))])
    damage, words = throw.roll(dice)
    assert dice.exhausted
    assert damage == Damage(3, 2, 1)
    assert len(words.splitlines()) == 3


@pytest.mark.parametrize(
    ("body", "hits", "fighting", "general"),
    [
        (Body(4, 0, 4), 1, True, False),
        (Body(2, 3, 4), 2, True, True),
        (Body(2, 1, 2), 2, False, False),
        (Body(1, 1, 4), 3, False, True),
    ],
)
def test_rampage_matches_its_faces(
    rules: LossRules, body: Body, hits: int, fighting: bool, general: bool
) -> None:
    """A d6 per hit on the elephant, each 6 a hit (at most the unit's remaining hit
    points), and what those hits cost."""
    throw = Rampage(
        rules.rampage_die,
        "rampage",
        rules=rules,
        body=body,
        elephant_hits=hits,
        fighting=fighting,
        general=general,
        test=True,
    )
    assert throw.exact() == explore_roll(throw)


@pytest.mark.parametrize(
    ("body", "most", "fighting", "general", "test"),
    [
        (Body(4, 0, 4), 16, True, True, True),
        (Body(2, 3, 4), 9, False, True, False),
        (Body(1, 1, 2), 5, True, False, True),
        (Body(16, 0, 4), 12, True, True, True),
        (Body(4, 0, 4), 0, True, False, True),
    ],
)
def test_rampage_table_is_each_rampage(
    rules: LossRules, body: Body, most: int, fighting: bool, general: bool, test: bool
) -> None:
    """The whole-number table the melee odds use is, for every number of elephant hits, the
    Rampage throw's own distribution (itself tested against its faces above), including past
    the unit's remaining hit points (hits capped)."""
    den, table = rampage_table(rules, body, most, fighting, general, test)
    assert len(table) == most + 1
    for k, weights in enumerate(table):
        throw = Rampage(
            rules.rampage_die,
            rules=rules,
            body=body,
            elephant_hits=k,
            fighting=fighting,
            general=general,
            test=test,
        )
        expected = exact_of(throw) if k else {NO_DAMAGE: Fraction(1)}
        assert {d: Fraction(w, den) for d, w in weights.items() if w} == expected, k
