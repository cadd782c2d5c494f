"""MWAN #90's actions declared once (app/rules/actions.py): each action's odds are its own
``play`` run with every throw, and with real dice ``play`` rolls exactly the dice the rules
roll, in the same order, one recorded roll per side."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from app.rules.actions import explore_roll
from app.rules.dice import ScriptedDice, SeededDice, binomial
from app.rules.mechanics import Situation
from app.rules.ruleset import Ruleset
from app.rulesets.mwan90.mechanics import MWAN90Mechanics
from app.rulesets.mwan90.rules import Hits, hits_throw
from tests.rules.mechanics_harness import combatant


@pytest.fixture(scope="module")
def mech(rs: Ruleset) -> MWAN90Mechanics:
    return MWAN90Mechanics(rs)


def test_no_action_written_twice() -> None:
    """The base class lists, resolves and counts the odds of the declared actions: MWAN #90
    overrides none of them."""
    for name in ("actions", "resolve", "odds"):
        assert name not in vars(MWAN90Mechanics)


def test_declared_actions(mech: MWAN90Mechanics) -> None:
    assert [a.key for a in mech.declare()] == [
        "shoot",
        "javelins",
        "melee",
        "disperse",
        "move_order",
        "end_move",
        "morale_check",
    ]
    assert [a.key for a in mech.actions()] == [a.key for a in mech.declare()]


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 4),
    need=st.integers(1, 7),
    cap=st.one_of(st.none(), st.integers(0, 5)),
)
def test_hits_exact_is_counting_the_faces(n: int, need: int, cap: int | None) -> None:
    """A throw of hits reads as many dice at ``need`` or more, capped: its closed form (a
    binomial) equals trying every face of its one roll."""
    throw = Hits(f"{n}d6", "test", need=need, cap=cap)
    assert throw.exact() == explore_roll(throw)


def test_hits_capped_but_words_count_every_hit() -> None:
    """Hits past the cap change nothing, so the reading stops there; the log still shows
    every hit the players see on the table."""
    throw = hits_throw("d6", 5, 5, 2, "Hastati melee")
    assert throw.spec == "5d6"
    d = ScriptedDice([("5d6", (6, 5, 5, 1, 2))])
    assert throw.roll(d) == (2, "6 5 5 1 2: 3 hit(s)")
    assert d.exhausted
    assert throw.exact() == {
        0: binomial(5, Fraction(1, 3))[0],
        1: binomial(5, Fraction(1, 3))[1],
        2: 1 - binomial(5, Fraction(1, 3))[0] - binomial(5, Fraction(1, 3))[1],
    }


@pytest.mark.parametrize(
    ("action", "att", "dfn", "rolls"),
    [
        ("melee", "heavy_infantry_javelin", "medium_infantry_javelin", "a:12d6 d:10d6"),
        ("javelins", "heavy_infantry_javelin", "medium_infantry_javelin", "a:6d6 d:5d6"),
        ("javelins", "heavy_infantry_javelin", "barbarian_medium_infantry", "a:6d6"),
        ("shoot", "skirmish_sling", "medium_infantry_javelin", "a:8d6"),
        ("disperse", "heavy_infantry_javelin", "skirmish_javelin", "d:8d6"),
    ],
)
def test_dice_rolled_in_order(
    mech: MWAN90Mechanics, action: str, att: str, dfn: str, rolls: str
) -> None:
    """One roll per side that has dice, the attacker's first (stored battles replay these
    rolls and fail loudly on any other): the dice and the purposes of the log."""
    sizes = {"skirmish_sling": 8, "skirmish_javelin": 8, "medium_infantry_javelin": 10}
    a = combatant(mech, att, sizes.get(att, 12))
    d = combatant(mech, dfn, sizes.get(dfn, 12), side=1)
    dice = SeededDice(3)
    res = mech.resolve(action, Situation(actor=a, target=d), dice)
    names = {"a": a.name, "d": d.name}
    want = [(f"{names[who]} {action}", spec) for who, spec in (r.split(":") for r in rolls.split())]
    assert [(purpose, spec) for purpose, spec, _ in dice.rolls] == want
    assert res.outcome in mech.odds(action, Situation(actor=a, target=d))


def test_explored_odds_are_the_product_of_capped_binomials(mech: MWAN90Mechanics) -> None:
    """Melee odds come from exploring the one ``play``: each side's hits a binomial capped
    at the other's rout, both thrown at once."""
    a = combatant(mech, "cavalry", 8)
    d = combatant(mech, "medium_infantry", 10, side=1)
    odds = mech.declared("melee").explored_odds(Situation(actor=a, target=d))
    third = Fraction(1, 3)
    by_losses: dict[tuple[int, int], Fraction] = {}
    for o, p in odds.items():
        key = (o.attacker.casualties, o.defender.casualties)
        by_losses[key] = by_losses.get(key, Fraction(0)) + p
    on_d, on_a = binomial(8, third), binomial(10, third)
    assert by_losses[(0, 0)] == on_d[0] * on_a[0]
    assert by_losses[(2, 3)] == on_a[2] * on_d[3]
    assert sum(by_losses.values()) == 1


FORMED = (
    "heavy_infantry",
    "heavy_infantry_javelin",
    "greek_heavy_infantry",
    "medium_infantry_javelin",
    "barbarian_medium_infantry",
    "light_cavalry",
    "cavalry",
    "elephants",
)
SKIRMISHERS = ("skirmish_javelin", "skirmish_sling")


@settings(max_examples=200, deadline=None)
@given(
    pair=st.one_of(
        st.tuples(st.sampled_from(FORMED), st.sampled_from(FORMED)),
        st.tuples(st.sampled_from(SKIRMISHERS), st.sampled_from(SKIRMISHERS)),
    ),
    sizes=st.tuples(st.integers(4, 10), st.integers(4, 10)),
    lost=st.tuples(st.integers(0, 4), st.integers(0, 4)),
    attack=st.sampled_from(("front", "flank", "rear")),
    tripled=st.sampled_from(("attacker", "attacked")),
    overlaps=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    support=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    supported=st.sampled_from(("none", "none", "none", "attacker", "defender")),
    disordered=st.booleans(),
)
def test_melee_closed_form_is_the_explored_play(
    mech: MWAN90Mechanics,
    pair: tuple[str, str],
    sizes: tuple[int, int],
    lost: tuple[int, int],
    attack: str,
    tripled: str,
    overlaps: tuple[int, int],
    support: tuple[int, int],
    supported: str,
    disordered: bool,
) -> None:
    """Melee's odds use a closed form (whole-number binomials paired up) for speed; on
    matchups small enough to explore it equals exploring ``play`` throw by throw: every
    outcome and every fraction (worn units, routs, bonus moves, disorder, shared dice)."""
    a_size = min(sizes[0], 3) if pair[0] == "elephants" else sizes[0]
    d_size = min(sizes[1], 3) if pair[1] == "elephants" else sizes[1]
    att = combatant(mech, pair[0], a_size, strength=max(1, a_size - lost[0]))
    dfn = combatant(
        mech,
        pair[1],
        d_size,
        side=1,
        strength=max(1, d_size - lost[1]),
        markers=frozenset({"disordered"}) if disordered else frozenset(),
    )
    sit = Situation(
        actor=att,
        target=dfn,
        options={
            "attack": attack,
            "flank_tripled": tripled,
            "a_overlaps": overlaps[0],
            "d_overlaps": overlaps[1],
            "a_support": support[0],
            "d_support": support[1],
            "supported_cavalry": supported,
        },
    )
    action = mech.declared("melee")
    assert action.closed_form is not None
    try:
        plan = action.prepare(sit)
    except ValueError:
        event("refused")  # alike either way (skirmishers against formed, ...)
        return
    closed = action.closed_form(sit, plan)
    event(f"{len(closed) // 10 * 10}+ outcomes")
    assert closed == action.explored_odds(sit)


@settings(max_examples=40, deadline=None)
@given(
    att=st.sampled_from(("heavy_infantry_javelin", "medium_infantry_javelin")),
    dfn=st.sampled_from(FORMED),
    sizes=st.tuples(st.integers(4, 12), st.integers(2, 12)),
    fronts=st.tuples(st.integers(0, 6), st.integers(0, 6)),
)
def test_javelin_closed_form_is_the_explored_play(
    mech: MWAN90Mechanics, att: str, dfn: str, sizes: tuple[int, int], fronts: tuple[int, int]
) -> None:
    d_size = min(sizes[1], 4) if dfn == "elephants" else max(sizes[1], 4)
    sit = Situation(
        actor=combatant(mech, att, sizes[0]),
        target=combatant(mech, dfn, d_size, side=1),
        options={"a_front": fronts[0], "d_front": fronts[1]},
    )
    action = mech.declared("javelins")
    assert action.closed_form is not None
    assert action.closed_form(sit, action.prepare(sit)) == action.explored_odds(sit)


def test_too_many_outcomes_are_refused(mech: MWAN90Mechanics) -> None:
    """Exact odds of two enormous units (hundreds of thousands of outcomes) are refused in
    one line rather than counted for minutes."""
    a = combatant(mech, "heavy_infantry", 1000)
    d = combatant(mech, "heavy_infantry", 1000, side=1)
    with pytest.raises(ValueError, match="too many to count exactly"):
        mech.odds("melee", Situation(actor=a, target=d))
