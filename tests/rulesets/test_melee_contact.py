"""A melee needs contact when both units stand on the table (GSB, Leg VI, MWAN #90,
Quincunx; D3 refuses it in ``tests/rulesets/d3/test_mechanics.py``): one worked example per
ruleset with the two units front to front (odds given), 1" apart (refused, one line naming
the rule) and without positions (odds outside a battle: allowed); Leg VI's free hack the
same; and ``castra battle odds`` / ``castra battle melee`` inside a Quincunx battle (the
case found driving the window) saying why, exit 1, nothing changed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from app.rules.contact import not_in_contact
from app.rules.mechanics import Combatant, Mechanics, Situation, mechanics_for
from app.rules.registry import BUILTIN_DIR
from app.rulesets import load_ruleset
from tests.cli.test_battle_cli import Battle, Cli
from tests.cli.test_battle_cli import store_file as store_file  # the store under tmp_path
from tests.rules.mechanics_harness import assert_odds_sum_to_one, combatant

#: folder, action, the rule the refusal names, (attacker troop, size), (defender troop, size),
#: a base's width and depth in the ruleset's measure
CASES = (
    (
        "grown-slightly-bald",
        "melee",
        "GSB, Melee",
        ("heavy_infantry", 4),
        ("medium_infantry", 4),
        (1.0, 0.5),
    ),
    ("leg-vi-carthago", "melee", "Leg VI, Resolving combat", ("mi", 4), ("hi", 4), (3.2, 0.8)),
    ("mwan90", "melee", "MWAN #90, Melee", ("heavy_infantry", 12), ("medium_infantry", 12), (4, 1)),
    (
        "quincunx",
        "melee",
        "Quincunx, Melee",
        ("roman_hastati", 12),
        ("celtic_swordsmen", 16),
        (4, 2),
    ),
    (
        "leg-vi-carthago",
        "free_hack",
        "Leg VI, Charges and Pursue",
        ("mc", 4),
        ("mi", 4),
        (3.2, 0.8),
    ),
)


def _mech(folder: str) -> Mechanics:
    return mechanics_for(load_ruleset(BUILTIN_DIR / folder))


def _placed(c: Combatant, y: float, facing: float, size: tuple[float, float]) -> Combatant:
    return replace(c, x=0.0, y=y, facing=facing, width=size[0], depth=size[1])


@pytest.mark.parametrize(
    ("folder", "action", "rule", "att", "dfn", "size"),
    CASES,
    ids=[f"{c[0]}-{c[1]}" for c in CASES],
)
def test_refused_apart_allowed_touching_or_unplaced(
    folder: str,
    action: str,
    rule: str,
    att: tuple[str, int],
    dfn: tuple[str, int],
    size: tuple[float, float],
) -> None:
    mech = _mech(folder)
    a = combatant(mech, att[0], att[1], side=0, uid="A1")
    d = combatant(mech, dfn[0], dfn[1], side=1, uid="B1")
    depth = size[1]
    here = _placed(a, 0.0, 0.0, size)
    # front to front: the defender's front edge on the attacker's
    touching = _placed(d, depth, 180.0, size)
    assert_odds_sum_to_one(mech.odds(action, Situation(actor=here, target=touching)))
    # one inch (or unit width) apart: refused, naming the rule and both units
    apart = _placed(d, depth + 1.0, 180.0, size)
    with pytest.raises(ValueError) as refused:
        mech.odds(action, Situation(actor=here, target=apart))
    assert str(refused.value) == (f"{rule}: {a.name} (A1) is not in contact with {d.name} (B1)")
    # without positions (odds outside a battle) the player's word is taken
    assert_odds_sum_to_one(mech.odds(action, Situation(actor=a, target=d)))
    assert_odds_sum_to_one(mech.odds(action, Situation(actor=here, target=d)))


def test_not_in_contact_reads_base_edges() -> None:
    """Corner to corner counts as contact; a hair's breadth beyond it does not; a unit
    without a footprint is never refused."""
    mech = _mech("quincunx")
    a = _placed(combatant(mech, "roman_hastati", 12, uid="A1"), 0.0, 0.0, (4, 2))
    corner = replace(
        _placed(combatant(mech, "celtic_swordsmen", 16, side=1, uid="B1"), 2.0, 180.0, (4, 2)),
        x=4.0,
    )
    assert not_in_contact("Quincunx, Melee", a, corner) is None
    off = replace(corner, x=4.001)
    assert not_in_contact("Quincunx, Melee", a, off) == (
        "Quincunx, Melee: Roman Hastati (A1) is not in contact with Celtic Swordsmen (B1)"
    )
    assert not_in_contact("Quincunx, Melee", a, replace(off, width=0.0)) is None


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Cli:
    return Cli(capsys, tmp_path)


def test_quincunx_battle_refuses_a_melee_across_the_table(cli: Cli) -> None:
    """The tester's case: the Principes given a melee against a unit far across the table
    in the Movement phase. ``battle odds`` and ``battle melee`` say why, exit 1, and the
    battle is unchanged (no step, no rings)."""
    a, b = cli.rosters("quincunx")
    made = cli.json("battle", "new", a, b, "--seed", 7, "--layout", "hills and woods")
    battle = Battle(cli, int(made["id"]))
    battle("deploy", "A1", 27, 11, "--facing", 0)
    battle("deploy", "B1", 27, 37, "--facing", 180)
    battle.next_to("Movement")
    before, steps = battle.state(), battle.steps()
    names = {u: battle.unit(u, before)["name"] for u in ("A1", "B1")}
    why = f"Quincunx, Melee: {names['B1']} (B1) is not in contact with {names['A1']} (A1)"
    assert why in cli.fails("battle", "odds", battle.id, "melee", "B1", "A1")
    err = battle.refused("melee", "B1", "A1")
    assert why in err and len(err.strip().splitlines()) == 1
    assert battle.state() == before and battle.steps() == steps
