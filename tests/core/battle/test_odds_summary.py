"""What the Actions dock, ``castra odds`` and the advisor make of exact odds (issue 26): the
quick whole-number arithmetic of ``odds_summary`` gives exactly what the plain Fraction
arithmetic it replaced gives, the same rows in the same order (ties too), the same
Fractions and the same floats, on real odds of every ruleset's actions (the 4,900 outcomes
of MWAN #90's biggest melee among them) and on random ones made to tie."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.battle.advisor import STEADY, _breaks, effect_value, odds_words, weigh
from app.core.battle.odds_summary import (
    LOSS_KEYS,
    OutcomeRow,
    by_chance,
    chance_bars,
    common_numerators,
    effects_words,
    expected_losses,
    likeliest,
    outcome_rows,
    ranked,
    shares,
)
from app.rules.mechanics import (
    Combatant,
    Effects,
    Mechanics,
    NotImplementedRule,
    Odds,
    Outcome,
    Side,
    Situation,
    mechanics_for,
)
from app.rules.registry import Registry

# --------------------------------------------------------------------------- the plain ways


def plain_ranked(odds: Odds) -> list[tuple[Outcome, Fraction]]:
    return sorted(odds.items(), key=lambda kv: (-kv[1], kv[0].result))


def plain_rows(odds: Odds) -> list[tuple[str, str, str, Fraction, float]]:
    return [
        (o.result or "-", effects_words(o.attacker), effects_words(o.defender), p, float(p))
        for o, p in plain_ranked(odds)
    ]


def plain_expected(odds: Odds) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for o, p in odds.items():
        for side, e in (("attacker", o.attacker), ("defender", o.defender)):
            for key in LOSS_KEYS:
                value = getattr(e, key)
                if value:
                    name = f"{side}_{key}"
                    out[name] = out.get(name, Fraction(0)) + p * value
    return {k: v for k, v in out.items() if v}


def plain_bars(odds: Odds, most: int) -> list[tuple[str, Fraction]]:
    rows = plain_rows(odds)
    bars = [(r[0], r[3]) for r in rows[:most]]
    rest = sum((r[3] for r in rows[most:]), Fraction(0))
    if rest:
        bars.append((f"{len(rows) - most} other outcomes", rest))
    return bars


def assert_as_plain(odds: Odds) -> None:
    """Every function of ``odds_summary`` against its plain Fraction way: equal values and
    the same order, item by item (a dict's ``==`` ignores order, so its items are
    compared as lists)."""
    rows = outcome_rows(odds)
    assert [tuple(r) for r in rows] == plain_rows(odds)
    assert all(type(r) is OutcomeRow for r in rows)
    # the same Outcome objects in the same places, not only equal rows
    assert [(o, p) for o, p, _ in ranked(odds)] == plain_ranked(odds)
    assert [s for _, _, s in ranked(odds)] == [float(p) for _, p in plain_ranked(odds)]
    assert by_chance(odds) == sorted(odds.items(), key=lambda kv: -kv[1])
    assert shares(odds) == [float(p) for p in odds.values()]
    got = expected_losses(odds)
    assert list(got.items()) == list(plain_expected(odds).items())
    assert all(type(v) is Fraction for v in got.values())
    for most in (0, 1, 6, len(odds)):
        assert chance_bars(rows, most) == plain_bars(odds, most)
    if odds:
        best = likeliest(odds)
        assert best == max(odds.items(), key=lambda kv: kv[1])
        assert best[0] is max(odds.items(), key=lambda kv: kv[1])[0]


# --------------------------------------------------------------------------- real odds


def real_odds(
    reg: Registry, pairs_each: int = 6
) -> Iterator[tuple[str, Mechanics, Situation, Odds]]:
    """Odds of every built-in ruleset's actions between two units: a few troop pairs each
    (drawn the same way every run) at once, twice and four times the largest size the army
    lists allow, the first with each option away from its default."""
    rng = random.Random(26)
    for rs in sorted(reg, key=lambda r: r.id):
        if not rs.builtin:
            continue
        mech = mechanics_for(rs)
        largest: dict[str, int] = {}
        for army in rs.armies.values():
            for entry in army.entries.values():
                largest[entry.troop] = max(largest.get(entry.troop, 0), max(entry.sizes))
        troops = sorted(largest)
        for action in (a for a in mech.actions() if a.odds and a.targets == "pair"):
            pairs = [(x, y) for x in troops for y in troops]
            rng.shuffle(pairs)
            for i, (x, y) in enumerate(pairs[:pairs_each]):
                factor = (1, 2, 4)[i % 3]
                for options in variants(action) if i == 0 else [action.defaults()]:
                    sit = Situation(
                        actor=unit(mech, "A1", x, largest[x] * factor, 0),
                        target=unit(mech, "B1", y, largest[y] * factor, 1),
                        side=0,
                        options=options,
                    )
                    try:
                        odds = mech.odds(action.key, sit)
                    except (NotImplementedRule, ValueError, KeyError, LookupError):
                        continue
                    yield f"{rs.id} {action.key} {x} v {y} x{factor} {options}", mech, sit, odds


def unit(mech: Mechanics, uid: str, troop: str, size: int, side: Side) -> Combatant:
    return Combatant(uid, uid, troop, side, mech.initial_status(troop, size, None))


def variants(action: Any) -> list[dict[str, Any]]:
    """The default options, then each choice, bool and bound away from its default."""
    defaults: dict[str, Any] = action.defaults()
    out = [defaults]
    for o in action.options:
        values: list[Any] = (
            [True]
            if o.kind == "bool"
            else [v for v in (o.minimum, o.maximum) if v is not None]
            if o.kind == "int"
            else list(o.choices)
        )
        out += [{**defaults, o.key: v} for v in values if defaults.get(o.key) != v]
    return out


def test_real_odds_of_every_ruleset_come_out_as_the_plain_way(registry: Registry) -> None:
    real = list(real_odds(registry))
    rulesets = {name.split()[0] for name, _, _, _ in real}
    assert len(rulesets) == 5, rulesets
    assert len(real) > 100
    for name, _, _, odds in real:
        try:
            assert_as_plain(odds)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {exc}") from exc


def big_melee(registry: Registry) -> tuple[Mechanics, Situation, Odds]:
    """MWAN #90's melee of two greek heavy infantry of 72 figures, from the rear: 4,900
    outcomes whose chances have hundreds of digits over about a hundred denominators."""
    mech = mechanics_for(registry.get("mwan90"))
    troop = "greek_heavy_infantry"
    sit = Situation(
        actor=unit(mech, "A1", troop, 72, 0),
        target=unit(mech, "B1", troop, 72, 1),
        side=0,
        options={**mech.action("melee").defaults(), "attack": "rear"},
    )
    return mech, sit, mech.odds("melee", sit)


def test_the_biggest_melee_comes_out_as_the_plain_way(registry: Registry) -> None:
    odds = big_melee(registry)[2]
    assert len(odds) == 4900
    nums, top = common_numerators(odds)
    assert len({p.denominator for p in odds.values()}) > 50
    assert [Fraction(n, top) for n in nums] == list(odds.values())
    assert_as_plain(odds)


# --------------------------------------------------------------------------- random odds

EFFECTS = st.builds(
    Effects,
    casualties=st.integers(0, 3),
    hits=st.integers(0, 2),
    dps=st.sampled_from([0, 0, 1]),
    rings=st.sampled_from([0, 0, 1]),
    markers_add=st.frozensets(st.sampled_from(["shaken", "disordered"]), max_size=1),
    eliminated=st.booleans(),
    move=st.sampled_from([None, "recoils 1"]),
)
#: few chances and few results, so that many outcomes tie on both
CHANCES = st.one_of(
    st.sampled_from([Fraction(1, 6), Fraction(2, 12), Fraction(1, 3), Fraction(5, 36)]),
    st.fractions(min_value=0, max_value=1, max_denominator=6**12),
    st.builds(Fraction, st.integers(0, 6**40), st.just(6**40)),
)


@st.composite
def random_odds(draw: st.DrawFn) -> Odds:
    """Outcomes of a few shared effects objects (some used on both sides, some equal but
    not the same object) and a few results, with chances of many denominators."""
    pool = draw(st.lists(EFFECTS, min_size=1, max_size=5))
    pool += [Effects(**{k: getattr(e, k) for k in ("casualties", "hits")}) for e in pool[:2]]
    results = ["", "defender recoils", "attacker routs", "draw"]
    odds: Odds = {}
    for _ in range(draw(st.integers(0, 30))):
        o = Outcome(
            attacker=draw(st.sampled_from(pool)),
            defender=draw(st.sampled_from(pool)),
            result=draw(st.sampled_from(results)),
        )
        odds[o] = draw(CHANCES)
    return odds


@settings(max_examples=300, deadline=None)
@given(random_odds())
def test_random_odds_come_out_as_the_plain_way(odds: Odds) -> None:
    assert_as_plain(odds)


def test_ties_keep_the_order_of_results_then_of_the_odds() -> None:
    """Equal chances of different denominators' Fractions, equal results: the likeliest
    first, then by result, then as the odds hold them; the likeliest of a tie is the
    first."""
    a, b, c, d = (Outcome(Effects(casualties=i), result=r) for i, r in enumerate("bbac"))
    odds: Odds = {a: Fraction(1, 4), b: Fraction(1, 4), c: Fraction(1, 4), d: Fraction(1, 4)}
    assert [o for o, _, _ in ranked(odds)] == [c, a, b, d]
    assert [o for o, _ in by_chance(odds)] == [a, b, c, d]
    assert likeliest(odds) == (a, Fraction(1, 4))
    odds[d] = Fraction(1, 3)
    assert [o for o, _, _ in ranked(odds)] == [d, c, a, b]
    assert likeliest(odds) == (d, Fraction(1, 3))
    assert expected_losses(odds) == {"attacker_casualties": Fraction(1, 4) * 3 + 1}


def test_expectations_are_named_in_the_order_the_odds_first_name_them() -> None:
    hit = Effects(hits=1)
    lost = Effects(casualties=2)
    odds: Odds = {
        Outcome(Effects(), hit, "x"): Fraction(1, 2),
        Outcome(lost, Effects(rings=1), "y"): Fraction(1, 3),
        Outcome(hit, lost, "z"): Fraction(1, 6),
    }
    assert list(expected_losses(odds).items()) == [
        ("defender_hits", Fraction(1, 2)),
        ("attacker_casualties", Fraction(2, 3)),
        ("defender_rings", Fraction(1, 3)),
        ("attacker_hits", Fraction(1, 6)),
        ("defender_casualties", Fraction(1, 3)),
    ]
    assert outcome_rows({}) == [] and expected_losses({}) == {} and chance_bars([], 6) == []


# --------------------------------------------------------------------------- the advisor


def plain_weigh(
    mech: Mechanics, odds: Odds, actor: Combatant, target: Combatant
) -> tuple[float, float, float, float, float]:
    """:func:`~app.core.battle.advisor.weigh` as it was, with ``float`` of each chance."""
    given = taken = breaks = leader = 0.0
    for outcome, chance in odds.items():
        p = float(chance)
        given += p * effect_value(mech, outcome.defender, target)
        taken += p * effect_value(mech, outcome.attacker, actor)
        if _breaks(mech, outcome.defender, target):
            breaks += p
        leader += p * mech.leader_risk(actor, outcome.attacker, "melee")
    m = STEADY
    score = given - m.caution * taken + m.rout_weight * breaks - m.leader_weight * leader
    return given, taken, breaks, leader, score


def plain_words(odds: Odds) -> str:
    outcome, chance = max(odds.items(), key=lambda kv: kv[1])
    head = outcome.result or effects_words(outcome.defender)
    return f"likeliest: {head} ({float(chance) * 100:.0f}%)"


def test_the_advisor_weighs_and_words_real_odds_as_the_plain_way(registry: Registry) -> None:
    real = [r for r in real_odds(registry, pairs_each=3) if r[3]]
    real.append(("mwan90 biggest melee", *big_melee(registry)))
    for name, mech, sit, odds in real:
        assert sit.actor is not None and sit.target is not None
        numbers = weigh(mech, odds, sit.actor, sit.target)
        assert numbers == plain_weigh(mech, odds, sit.actor, sit.target), name
        assert odds_words(*numbers[:4], odds).endswith(plain_words(odds)), name
