"""Leg VI's own throws (app/rulesets/leg_vi/throws.py and fates.py): each closed form equals
trying every face of every roll the throw makes (``explore_roll``), the rolls are made in the
rules' order, and every action with odds rolls with the frequencies its odds give."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.actions import Count, exact_of, explore_roll
from app.rules.dice import ScriptedDice
from app.rules.mechanics import LeaderView, Situation
from app.rules.ruleset import Ruleset
from app.rulesets.leg_vi.fates import (
    DeathRoll,
    critical_dist,
    death_roll,
    elephant_criticals,
)
from app.rulesets.leg_vi.mechanics import LegVIMechanics
from app.rulesets.leg_vi.throws import Bands, CombatHits, band_limits, combat_hits, hits_on
from app.rulesets.leg_vi.units import result_band
from tests.rules.mechanics_harness import assert_frequencies_match, combatant


@pytest.fixture(scope="module")
def mech(rs: Ruleset) -> LegVIMechanics:
    return LegVIMechanics(rs)


def _old_critical_dist(
    p_crit: Fraction, p_destroy: Fraction, tests: int, auto: int
) -> dict[str, Fraction]:
    """The step-by-step reckoning the closed form replaced: each critical hit destroys or
    sets rampaging an elephant not yet destroyed."""
    state = {"unharmed": Fraction(1), "rampage": Fraction(0), "destroyed": Fraction(0)}
    for p_c in [p_crit] * tests + [Fraction(1)] * auto:
        state = {
            "unharmed": state["unharmed"] * (1 - p_c),
            "rampage": (state["unharmed"] + state["rampage"]) * p_c * (1 - p_destroy)
            + state["rampage"] * (1 - p_c),
            "destroyed": state["destroyed"]
            + (state["unharmed"] + state["rampage"]) * p_c * p_destroy,
        }
    return {k: v for k, v in state.items() if v}


@pytest.mark.parametrize(("tests", "auto"), list(itertools.product(range(4), range(3))))
def test_elephant_criticals_closed_form_is_every_roll(
    mech: LegVIMechanics, tests: int, auto: int
) -> None:
    """Elephant critical hits: a D6 per test (1-2 a critical), an automatic critical per
    casualty, each critical rolled again (1-2 destroyed); no more dice once destroyed."""
    throw = elephant_criticals(mech.t, tests, auto, "Surus")
    assert throw.exact() == explore_roll(throw)


@given(st.integers(0, 60), st.integers(0, 4))
def test_elephant_closed_form_matches_step_by_step(tests: int, auto: int) -> None:
    from app.rulesets.leg_vi.tables_schema import Band, ElephantCritical

    ec = ElephantCritical(
        title="t",
        die="d6",
        critical_on=(1, 2),
        automatic_on_casualty=True,
        outcome_die="d6",
        outcomes=(
            Band(low=1, high=2, result="destroyed", label="Destroyed"),
            Band(low=3, high=6, result="rampage", label="Rampage"),
        ),
    )
    assert critical_dist(ec, tests, auto) == _old_critical_dist(
        Fraction(1, 3), Fraction(1, 3), tests, auto
    )


def test_elephant_criticals_roll_in_order(mech: LegVIMechanics) -> None:
    """Two tests: the first a critical (rolled again: rampage), the second a critical that
    destroys; an automatic critical after that rolls nothing."""
    dice = ScriptedDice([("d6", (2,)), ("d6", (5,)), ("d6", (1,)), ("d6", (1,))])
    fate, text = elephant_criticals(mech.t, 2, 1, "Surus").roll(dice)
    assert fate == "destroyed" and dice.exhausted
    assert text.splitlines() == [
        "critical hit test for Surus: 2, a critical hit; rolled again 5: Rampage",
        "critical hit test for Surus: 1, a critical hit; rolled again 1: Destroyed",
    ]


@pytest.mark.parametrize("wounds", [0, 1])
def test_die_of_death_closed_form_is_every_roll(mech: LegVIMechanics, wounds: int) -> None:
    """Risk to Leader: a D6, and on a 1 again: 1 killed, 2-4 wounded (a second wound
    kills), 5-6 a flesh wound."""
    leader = LeaderView("mago", "Mago", "commander", wounds=wounds)
    throw = death_roll(mech.t, leader, "he fought")
    assert throw.exact() == explore_roll(throw)
    killed = Fraction(1, 36) + (Fraction(3, 36) if wounds else 0)
    assert throw.exact()["killed"] == killed


def test_die_of_death_names_the_leader_but_is_one_throw(mech: LegVIMechanics) -> None:
    """The words are not part of the throw: two leaders with the same wounds share one
    cached distribution."""
    a = death_roll(mech.t, LeaderView("a", "Hanno", "commander"), "x")
    b = death_roll(mech.t, LeaderView("b", "Mago", "general"), "y")
    assert a == b and isinstance(a, DeathRoll)
    fate, text = a.roll(ScriptedDice([("d6", (1,)), ("d6", (1,))]))
    assert fate == "killed" and text == "die of death for Hanno (x): 1, then 1 = Killed"


@given(st.integers(1, 40), st.sampled_from([(5, 6), (6,), (2, 4, 6)]))
def test_hits_on_counts_exactly_the_faces_given(n: int, on: tuple[int, ...]) -> None:
    throw = hits_on(f"{n}d6", on)
    assert throw.chance == Fraction(len(on), 6)
    assert throw.read((1, 2, 3, 4, 5, 6)[:n]) == sum(1 for f in (1, 2, 3, 4, 5, 6)[:n] if f in on)


def _product(throw: CombatHits) -> dict[Bands, Fraction]:
    """Both sides' binomials multiplied out in Fractions, read by the throw's bands."""
    out: dict[Bands, Fraction] = {}
    for (ha, pa), (hd, pd) in itertools.product(
        exact_of(throw.attacker).items(), exact_of(throw.defender).items()
    ):
        key = throw.reading(ha, hd)
        out[key] = out.get(key, Fraction(0)) + pa * pd
    return out


@pytest.mark.parametrize(
    ("na", "nd", "auto"), [(1, 1, (0, 0)), (2, 1, (1, 0)), (1, 3, (0, 1)), (3, 2, (1, 1))]
)
def test_combat_hits_closed_form_is_every_roll(
    mech: LegVIMechanics, na: int, nd: int, auto: tuple[int, int]
) -> None:
    """Both sides' dice, read as the result bands of the hit difference: the whole-number
    convolution equals every face of both rolls."""
    throw = combat_hits(mech.t, (na, nd), ((5, 6), (6,)), auto, ("A", "D"))
    assert throw.exact() == explore_roll(throw)


@settings(max_examples=40)
@given(
    st.integers(1, 25),
    st.integers(1, 25),
    st.sampled_from([(5, 6), (6,)]),
    st.sampled_from([(5, 6), (6,)]),
    st.integers(0, 1),
    st.integers(0, 1),
)
def test_combat_hits_closed_form_for_many_dice(
    mech: LegVIMechanics,
    na: int,
    nd: int,
    on_a: tuple[int, ...],
    on_d: tuple[int, ...],
    auto_a: int,
    auto_d: int,
) -> None:
    throw = combat_hits(mech.t, (na, nd), (on_a, on_d), (auto_a, auto_d), ("A", "D"))
    dist = throw.exact()
    assert dist == _product(throw)
    for bands in dist:
        assert bands.attacker in mech.t.combat_results.bands


def test_combat_hits_roll_attacker_then_defender(mech: LegVIMechanics) -> None:
    throw = combat_hits(mech.t, (3, 2), ((5, 6), (6,)), (1, 0), ("Hastati", "Gauls"))
    dice = ScriptedDice([("3d6", (6, 5, 1)), ("2d6", (6, 5))])
    read, shown = throw.roll(dice)
    assert dice.exhausted and shown == "6 5 1; 6 5"
    assert throw.hits(shown) == (3, 1)
    assert read == Bands(result_band(mech.t, 2), result_band(mech.t, -2), True)
    assert throw.bands == band_limits(mech.t)
    assert isinstance(throw.attacker, Count) and throw.attacker.purpose == "combat dice for Hastati"


# --------------------------------------------------------------------------- the harness


def test_rampage_frequencies_match_odds(mech: LegVIMechanics) -> None:
    el = combatant(mech, "el", 1, markers=frozenset({"rampage"}))
    assert_frequencies_match(mech, "rampage", Situation(actor=el), n=3000)
    goes_on = combatant(
        mech, "el", 1, markers=frozenset({"rampage"}), extra={"rampage_direction": 2}
    )
    assert_frequencies_match(mech, "rampage", Situation(actor=goes_on), n=1500)


def test_stop_rampage_frequencies_match_odds(mech: LegVIMechanics) -> None:
    for tries in (0, 1):
        el = combatant(
            mech, "el", 1, markers=frozenset({"rampage"}), extra={"stop_attempts": tries}
        )
        assert_frequencies_match(mech, "stop_rampage", Situation(actor=el), n=2000)


def test_melee_frequencies_with_elephants_and_leaders(mech: LegVIMechanics) -> None:
    """Every throw of a round at once: both sides' dice, both elephants' critical hits and
    both leaders' die of death."""
    a = combatant(mech, "el", 1, leader=LeaderView("m", "Mago", "commander", wounds=1))
    d = combatant(mech, "el", 1, side=1, leader=LeaderView("s", "Scipio", "general"))
    sit = Situation(actor=a, target=d, options={"charge": "both"})
    assert_frequencies_match(mech, "melee", sit, n=3000)
