"""Grown Slightly Bald's actions, each declared once (app/rulesets/gsb/mechanics.py): the
base class lists, resolves and counts them; melee and shooting give their odds in closed form
(:meth:`GSBCombat.attack_odds`), which must equal exploring their ``play`` with every throw."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from app.rules.mechanics import (
    Combatant,
    LeaderView,
    Mechanics,
    Scalar,
    Side,
    Situation,
    mechanics_for,
)
from app.rules.ruleset import Ruleset
from app.rulesets.gsb.mechanics import GSBMechanics
from tests.rules.mechanics_harness import combatant

TROOPS = (
    "heavy_infantry",
    "medium_infantry",
    "allied_infantry",
    "light_infantry",
    "heavy_cavalry",
    "light_cavalry",
    "elephants",
)
SHOOTERS = ("medium_infantry", "light_infantry", "light_cavalry")
GENERAL = LeaderView("general", "Hannibal", "general", fields={"bonus": 1})


@pytest.fixture(scope="module")
def mech(rs: Ruleset) -> GSBMechanics:
    m = mechanics_for(rs)
    assert isinstance(m, GSBMechanics)
    return m


def test_every_action_is_one_declaration(mech: GSBMechanics) -> None:
    """No GSB class writes its own ``actions``, ``resolve`` or ``odds``: the base class runs
    the declarations, and every action of the dice offers its odds (the deployment swap
    has none to offer)."""
    for cls in type(mech).__mro__:
        if cls.__module__.startswith("app.rulesets.gsb"):
            assert not {"actions", "resolve", "odds"} & set(vars(cls)), cls
    assert [a.key for a in mech.declare()] == ["activate", "shoot", "melee", "swap"]
    assert [a.closed_form is not None for a in mech.declare()] == [False, True, True, False]
    assert [a.odds for a in mech.actions()] == [True, True, True, False]


def state(
    mech: GSBMechanics, troop: str, side: Side, damage: int, general: bool = False
) -> Combatant:
    """A unit of the list's size that has taken ``damage`` hit points (and still stands)."""
    size = 1 if troop == "elephants" else 4
    hp = mech.gsb_troop(troop).hits_per_base
    damage = min(damage, size * hp - 1)
    return combatant(
        mech,
        troop,
        size,
        side=side,
        strength=size - damage // hp,
        hits=damage % hp,
        leader=GENERAL if general else None,
    )


MELEE_OPTIONS: list[dict[str, Scalar]] = [
    {},
    {"attack": "rear", "attacker_general": True, "defender_general": True},
    {"attack": "flank", "terrain": "woods", "optional_hc_flank_rear_vs_hi": True},
]


def explored(mech: Mechanics, action: str, sit: Situation) -> dict[object, Fraction]:
    return mech.declared(action).explored_odds(sit)


@pytest.mark.parametrize(("attacker", "defender"), list(itertools.product(TROOPS, TROOPS)))
def test_melee_closed_form_is_the_explored_play(
    mech: GSBMechanics, attacker: str, defender: str
) -> None:
    """Every pair of troop types at the list's size, fresh and worn down, with and without
    flank, generals and terrain: the closed form gives exactly the explored odds."""
    for options, (a_dmg, d_dmg) in itertools.product(MELEE_OPTIONS, [(0, 0), (5, 3), (0, 13)]):
        sit = Situation(
            actor=state(mech, attacker, 1, a_dmg),
            target=state(mech, defender, 0, d_dmg, general=d_dmg == 3),
            options=options,
        )
        assert mech.odds("melee", sit) == explored(mech, "melee", sit), (options, a_dmg, d_dmg)


@pytest.mark.parametrize(
    ("attacker", "size"), [("elephants", 2), ("elephants", 3), ("heavy_cavalry", 2)]
)
def test_big_elephant_fights_closed_form_is_the_explored_play(
    mech: GSBMechanics, attacker: str, size: int
) -> None:
    """Against elephants of several bases the rampage on the attacker runs past its remaining
    hit points (the odds' whole-number rampage table caps them): still exactly the explored
    play, with generals on both sides and after damage."""
    for a_hits, a_bases in ((0, size), (3, 1)):
        sit = Situation(
            actor=combatant(
                mech, attacker, size, side=1, strength=a_bases, hits=a_hits, leader=GENERAL
            ),
            target=combatant(mech, "elephants", size, side=0, leader=GENERAL),
            options={"attack": "flank"},
        )
        assert mech.odds("melee", sit) == explored(mech, "melee", sit), (a_hits, a_bases)


@pytest.mark.parametrize(("shooter", "target"), list(itertools.product(SHOOTERS, TROOPS)))
def test_shooting_closed_form_is_the_explored_play(
    mech: GSBMechanics, shooter: str, target: str
) -> None:
    for options, damage in itertools.product(
        [{}, {"defender_general": True, "target_fighting_elephants": True}], (0, 3, 7)
    ):
        sit = Situation(
            actor=state(mech, shooter, 1, 0),
            target=state(mech, target, 0, damage),
            options=options,
        )
        assert mech.odds("shoot", sit) == explored(mech, "shoot", sit)


def test_bystanders_do_not_change_the_odds(mech: GSBMechanics) -> None:
    """Units near a wounded elephant roll for its rampage when the melee is resolved, but
    their dice change neither unit's outcome, so the odds are the same with them."""
    hi, ele = state(mech, "heavy_infantry", 0, 0), state(mech, "elephants", 1, 0)
    near = (combatant(mech, "light_infantry", 4, side=1, uid="near"),)
    alone = Situation(actor=hi, target=ele)
    crowd = Situation(actor=hi, target=ele, others=near)
    assert explored(mech, "melee", crowd) == explored(mech, "melee", alone)
    assert mech.odds("melee", crowd) == mech.odds("melee", alone)


@pytest.mark.parametrize("nth", range(1, 13))
def test_activation_odds_are_its_play(mech: GSBMechanics, nth: int) -> None:
    """Activation is declared with no closed form: its odds are its play explored (the d10
    read 0-9 counted face by face)."""
    sit = Situation(side=0, options={"nth": nth})
    odds = mech.odds("activate", sit)
    need = mech.t.activation.needed(nth)
    ok = 1 if need is None else Fraction(max(0, 10 - need), 10)
    assert sum((p for o, p in odds.items() if o.result == "activated"), Fraction(0)) == ok
