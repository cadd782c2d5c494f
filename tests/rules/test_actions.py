"""Actions declared once: every throw's exact distribution equals counting its faces, and an
action's odds are what its ``play`` does with every throw."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.actions import (
    Action,
    Classify,
    Count,
    Faces,
    Highest,
    Joint,
    Throw,
    Throws,
    TooManyFaces,
    Total,
    explore,
    explore_roll,
)
from app.rules.dice import ScriptedDice, SeededDice
from app.rules.mechanics import (
    Combatant,
    Effects,
    NotImplementedRule,
    Outcome,
    Resolution,
    Situation,
    Status,
)
from app.rules.registry import Registry

DIE = st.sampled_from(["d3", "d4", "d6", "d8", "d10", "d12", "d10z", "avd"])


def many(die: str, n: int) -> str:
    return "avd" if die == "avd" else f"{n}{die}"


def brute(throw: Throw[object]) -> dict[object, Fraction]:
    """Every ordered face of every roll the throw makes, read by its own ``read``/``roll``."""
    return explore_roll(throw)


def test_total_of_two_d6_is_the_triangle() -> None:
    dist = Total("2d6").exact()
    assert dist[7] == Fraction(1, 6)
    assert dist[2] == dist[12] == Fraction(1, 36)
    assert dist == brute(Total("2d6"))


@settings(deadline=None)
@given(DIE, st.integers(1, 3), st.integers(-2, 2))
def test_total_matches_its_faces(die: str, n: int, modifier: int) -> None:
    spec = many(die, n) + (f"{modifier:+d}" if modifier and die != "avd" else "")
    assert Total(spec).exact() == brute(Total(spec))


@settings(deadline=None)
@given(DIE, st.integers(1, 3))
def test_highest_matches_its_faces(die: str, n: int) -> None:
    spec = many(die, n)
    assert Highest(spec).exact() == brute(Highest(spec))


def test_commander_keeps_the_higher_of_two_d3() -> None:
    assert Highest("2d3").exact() == {
        1: Fraction(1, 9),
        2: Fraction(3, 9),
        3: Fraction(5, 9),
    }


@settings(max_examples=60, deadline=None)
@given(
    DIE,
    st.integers(1, 4),
    st.integers(0, 7),
    st.integers(-2, 2),
    st.frozensets(st.integers(0, 6), max_size=2),
    st.one_of(st.none(), st.integers(0, 4)),
)
def test_count_matches_its_faces(
    die: str, n: int, need: int, bonus: int, never: frozenset[int], cap: int | None
) -> None:
    throw = Count(many(die, n), need=need, bonus=bonus, never=never, cap=cap)
    assert throw.exact() == brute(throw)


def test_count_is_binomial_for_many_dice() -> None:
    """Forty d6 hitting on 6 would be 6**40 faces to count; the closed form answers at once."""
    dist = Count("40d6", need=6).exact()
    assert sum(dist.values()) == 1
    assert dist[0] == Fraction(5, 6) ** 40


def double_one(faces: tuple[int, ...]) -> str:
    if faces[0] == faces[1]:
        return "killed" if faces[0] == 1 else "wounded"
    return "safe"


def test_classify_counts_multisets() -> None:
    dist = Classify("2d6", how=double_one).exact()
    assert dist == {
        "killed": Fraction(1, 36),
        "wounded": Fraction(5, 36),
        "safe": Fraction(30, 36),
    }
    assert dist == brute(Classify("2d6", how=double_one))


def test_classify_refuses_too_many_faces() -> None:
    with pytest.raises(TooManyFaces):
        Classify("60d6", how=len).exact()


def difference(a: int, b: int) -> int:
    return a - b


def test_joint_reads_two_rolls_together() -> None:
    throw = Joint(parts=(Total("d10"), Total("d8")), how=difference)
    dist = throw.exact()
    assert dist == brute(throw)
    assert dist[9] == Fraction(1, 80)
    assert len(dist) == 17


def test_joint_rolls_each_part_as_its_own_recorded_roll() -> None:
    dice = ScriptedDice([("d10", (7,)), ("d8", (2,))])
    value, shown = Joint(parts=(Total("d10", "a"), Total("d8", "b")), how=difference).roll(dice)
    assert (value, shown) == (5, "7; 2")
    assert dice.exhausted


def test_faces_in_order() -> None:
    dist = Faces("2d3").exact()
    assert len(dist) == 9
    assert dist[(1, 2)] == Fraction(1, 9)


def test_purpose_is_not_part_of_a_throw() -> None:
    assert Total("2d6", "Hastati") == Total("2d6", "Boii")
    assert Total("2d6") != Total("3d6")


# --------------------------------------------------------------------------- explore


def test_explore_follows_dependent_throws() -> None:
    """A die rolled again on a 1 (Leg VI's die of death): 1/6 of the time a second d6."""

    def run(th: Throws) -> str:
        first, _ = th.throw(Total("d6"))
        if first != 1:
            return "safe"
        second, _ = th.throw(Total("d6"))
        return "killed" if second == 1 else "wounded" if second <= 4 else "flesh wound"

    dist = explore(lambda ch: run(ch))
    assert dist == {
        "safe": Fraction(5, 6),
        "killed": Fraction(1, 36),
        "wounded": Fraction(3, 36),
        "flesh wound": Fraction(2, 36),
    }


def test_explore_refuses_runaway_branching() -> None:
    def run(th: Throws) -> int:
        return sum(th.throw(Faces("d6"))[0][0] for _ in range(12))

    with pytest.raises(TooManyFaces):
        explore(lambda ch: run(ch), limit=1000)


# --------------------------------------------------------------------------- an action


@dataclass(frozen=True)
class Plan:
    dice: int
    need: int


def _prepare(sit: Situation) -> Plan:
    dice = sit.number("dice", 3)
    if dice < 1:
        raise ValueError("no dice to throw")
    return Plan(dice, 5 if sit.flag("armoured") else 4)


def _play(sit: Situation, plan: Plan, th: Throws) -> Resolution:
    hits, shown = th.throw(Count(f"{plan.dice}d6", "volley", need=plan.need))
    outcome = Outcome(defender=Effects(hits=hits), result=f"{hits} hits")
    morale = ()
    if hits >= 2:
        holds, _ = th.throw(Total("d6", "morale"))
        if holds <= 2:
            outcome = Outcome(
                defender=Effects(hits=hits, markers_add=frozenset({"routed"})),
                result=f"{hits} hits, routs",
            )
        morale = (f"morale {holds}",)
    return Resolution(outcome=outcome, explanation=(f"volley {shown}", *morale))


VOLLEY: Action[Plan] = Action("volley", "Volley", "pair", play=_play, prepare=_prepare)


def test_action_odds_come_from_play() -> None:
    sit = Situation(options={"dice": 2})
    odds = VOLLEY.exact_odds(sit)
    assert sum(odds.values()) == 1
    half = Fraction(1, 2)
    assert odds[Outcome(defender=Effects(hits=0), result="0 hits")] == half * half
    routed = Outcome(
        defender=Effects(hits=2, markers_add=frozenset({"routed"})), result="2 hits, routs"
    )
    assert odds[routed] == half * half * Fraction(2, 6)


def test_action_resolves_with_the_same_play() -> None:
    dice = ScriptedDice([("3d6", (6, 5, 1)), ("d6", (2,))])
    res = VOLLEY.resolve(Situation(options={"dice": 3}), dice)
    assert res.outcome.result == "2 hits, routs"
    assert res.explanation == ("volley 6 5 1", "morale 2")
    assert dice.exhausted


def test_rolled_frequencies_match_the_odds() -> None:
    sit = Situation(options={"dice": 3, "armoured": True})
    odds = VOLLEY.exact_odds(sit)
    n = 6000
    seen = Counter(VOLLEY.resolve(sit, SeededDice(i)).outcome for i in range(n))
    assert set(seen) <= set(odds)
    for outcome, p in odds.items():
        sd = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen[outcome] / n - float(p)) <= 5 * sd + 0.002, outcome


def test_prepare_refuses_before_any_dice() -> None:
    with pytest.raises(ValueError, match="no dice"):
        VOLLEY.exact_odds(Situation(options={"dice": 0}))


def test_closed_form_is_used_and_can_be_checked() -> None:
    def closed(sit: Situation, plan: Plan) -> dict[Outcome, Fraction]:
        return VOLLEY.explored_odds(sit)

    action = Action("volley", "Volley", "pair", play=_play, prepare=_prepare, closed_form=closed)
    sit = Situation(options={"dice": 4})
    assert action.exact_odds(sit) == action.explored_odds(sit) == VOLLEY.exact_odds(sit)
    assert action.spec.key == "volley" and action.spec.odds


# --------------------------------------------------------------------------- the base class


def test_mechanics_run_their_declared_actions(registry: Registry) -> None:
    """The base class lists, resolves and counts the odds of each declared action from its
    one declaration, and refuses an action it does not declare."""
    from tests.core.battle.toy import ToyMechanics

    mech = ToyMechanics(registry.get("d3-ancients"))
    assert [(a.key, a.odds) for a in mech.actions()] == [("melee", True), ("rally", False)]
    a = Combatant("A1", "A", "heavy_infantry", 0, Status(1, 1))
    d = Combatant("B1", "B", "heavy_infantry", 1, Status(1, 1))
    sit = Situation(actor=a, target=d, options={"bonus": 1})
    odds = mech.odds("melee", sit)
    assert sum(odds.values()) == 1
    assert odds[Outcome(result="no effect")] == Fraction(5, 36)
    res = mech.resolve("melee", sit, ScriptedDice([("d6", (3,)), ("d6", (4,))]))
    assert res.outcome == Outcome(result="no effect")
    with pytest.raises(NotImplementedRule, match="has no action 'charge'"):
        mech.odds("charge", sit)


def test_exact_odds_refuse_a_throw_of_thousands_of_dice() -> None:
    """A unit of thousands of bases would make odds of thousands of digits, computed for
    minutes: refused at once (the roll itself still works)."""
    import time

    start = time.perf_counter()
    with pytest.raises(TooManyFaces, match="too many to count the exact odds"):
        VOLLEY.exact_odds(Situation(options={"dice": 4000}))
    assert time.perf_counter() - start < 1
    res = VOLLEY.resolve(Situation(options={"dice": 4000}), SeededDice(3))
    assert res.outcome.defender.hits > 1000


def test_exact_odds_leave_the_cyclic_collector_as_they_found_it(registry: Registry) -> None:
    """Odds are made with the cyclic collector off (their thousands of outcomes hold no
    cycle); it is on again afterwards, and stays off if it was off (the window's start)."""
    import gc

    from app.rules.mechanics import Combatant, Situation, mechanics_for

    rs = registry.get("mwan90")
    mech = mechanics_for(rs)
    troop = "greek_heavy_infantry"
    a = Combatant("A1", "a", troop, 0, mech.initial_status(troop, 24, None))
    d = Combatant("B1", "d", troop, 1, mech.initial_status(troop, 24, None))
    sit = Situation(actor=a, target=d, side=0, options={})
    assert gc.isenabled()
    odds = mech.odds("melee", sit)
    assert gc.isenabled() and sum(odds.values()) == 1
    gc.disable()
    try:
        assert mech.odds("melee", sit) == odds
        assert not gc.isenabled()
    finally:
        gc.enable()
