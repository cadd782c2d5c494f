"""Quincunx mechanics (app/rulesets/quincunx/mechanics.py) against the rules of the source text
(Duke Seifried, 1999; seeds/000_084c64a871873e7e.txt) and the errata of the data.

Worked examples fix the dice with ScriptedDice (which also checks that the die asked for is
the one the rules name, so a wrong column fails); exact odds are checked to sum to one and
against the resolver's frequencies.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.dice import ScriptedDice, SeededDice
from app.rules.geometry import bearing
from app.rules.kept import forget_kept
from app.rules.mechanics import (
    Combatant,
    Effects,
    LeaderView,
    NotImplementedRule,
    Outcome,
    Resolution,
    Side,
    Situation,
    TurnView,
)
from app.rules.registry import BUILTIN_DIR
from app.rulesets import find_engine, load_ruleset
from app.rulesets.quincunx.geometry import (
    as_shift,
    clear_run,
    command_chain,
    command_reach,
    gap,
    in_arc,
)
from app.rulesets.quincunx.mechanics import QuincunxMechanics
from app.rulesets.quincunx.rules import elephant_loss
from app.rulesets.quincunx.schema import tables
from tests.rules.mechanics_harness import (
    assert_frequencies_match,
    assert_odds_sum_to_one,
    combatant,
)

ROOT = Path(__file__).resolve().parents[3]
FOLDER = BUILTIN_DIR / "quincunx"
RS = load_ruleset(FOLDER)
M = QuincunxMechanics(RS)
T = tables(RS)


def unit(troop: str, size: int, side: Side = 0, uid: str | None = None, **status: Any) -> Combatant:
    return combatant(M, troop, size, side=side, uid=uid or f"{troop}-{side}", **status)


def at(
    c: Combatant, x: float, y: float, width: float = 4, depth: float = 2, facing: float = 0
) -> Combatant:
    return replace(c, x=x, y=y, width=width, depth=depth, facing=facing)


def after(c: Combatant, effects: Effects) -> Combatant:
    return replace(c, status=c.status.apply(effects))


def with_leader(c: Combatant, name: str = "Marcus", wounds: int = 0, bonus: int = 0) -> Combatant:
    rank: Literal["general", "commander"] = (
        "general" if name in ("Scipio", "Hannibal") else "commander"
    )
    return replace(
        c, leader=LeaderView(f"ldr-{name}", name, rank, fields={"bonus": bonus}, wounds=wounds)
    )


def run(
    action: str,
    actor: Combatant | None,
    target: Combatant | None,
    script: list[tuple[str, tuple[int, ...]]],
    **options: Any,
) -> Resolution:
    dice = ScriptedDice(script)
    res = M.resolve(action, Situation(actor=actor, target=target, options=options), dice)
    assert dice.exhausted, "the resolver did not cast every scripted die"
    return res


def view(
    units: list[Combatant],
    sides: tuple[dict[str, Any], dict[str, Any]] | None = None,
    phase: str = "initiative",
    initiative: Side | None = None,
    round: int = 1,
) -> TurnView:
    ids = [p.id for p in RS.turn.phases]
    return TurnView(
        round=round,
        turn=1,
        phase=ids.index(phase),
        initiative=initiative,
        units=tuple(units),
        sides=sides or ({}, {}),
        armies=("roman", "carthaginian"),
        side_names=("Rome", "Carthage"),
    )


def results(odds: dict[Outcome, Fraction]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for o, p in odds.items():
        out[o.result] = out.get(o.result, Fraction(0)) + p
    return out


# --------------------------------------------------------------------------- the contract


def test_class_and_actions() -> None:
    assert find_engine("quincunx").mechanics.__name__ == "QuincunxMechanics"
    assert M.engine == "quincunx" and M.strength_unit == "figures"
    keys = {a.key: a for a in M.actions()}
    assert set(keys) >= {
        "melee",
        "shoot",
        "pre_melee",
        "evade",
        "trample",
        "rampage",
        "command_check",
    }
    for k in ("melee", "shoot", "pre_melee", "evade", "trample"):
        assert keys[k].odds and keys[k].targets == "pair"
    assert not keys["rampage"].odds
    with pytest.raises(NotImplementedRule):
        M.resolve("charge", Situation(), SeededDice(1))
    with pytest.raises(NotImplementedRule):
        M.odds("rampage", Situation())
    with pytest.raises(KeyError):
        M.odds(
            "melee",
            Situation(
                actor=unit("roman_hastati", 12),
                target=unit("celtic_swordsmen", 16, 1),
                options={"charge": True},
            ),
        )


def test_initial_status() -> None:
    """Figures are the strength; elephants count casualty points (12 per unit); psiloi are
    always skirmishers, peltasts start formed (three ranks in the battleline)."""
    h = M.initial_status("roman_hastati", 12, None)
    assert (h.strength, h.start_strength, h.rings, h.formation) == (12, 12, 0, "formed")
    assert M.initial_status("balearic_slingers", 12, None).formation == "skirmish"
    assert M.initial_status("roman_velites", 12, None).formation == "formed"
    assert M.initial_status("elephants", 12, None).strength == T.elephants.casualty_points_per_unit


def test_pass_through_number_is_data() -> None:
    """The pass-through chit blocks fire 'on the following round': one round, in the data."""
    assert T.missile_modifiers.pass_through_blocks_rounds == 1


def test_victory_is_declared_by_players() -> None:
    assert M.victory(view([unit("roman_hastati", 12)])) is None


# --------------------------------------------------------------------------- melee


def test_worked_example_fury_against_hastati() -> None:
    """Melee Matrix: fresh Hastati (0 rings) cast a d10; Celtic swordsmen charging cast a d12
    with +1 for fury on the initial attack. 9+1 against 3 is 7 points: three casualties
    (remainder dropped) to the Hastati, who recoil 4 MF (12") with a second ring; the Celts
    take one ring and their side casts a d12 for the next initiative."""
    h = unit("roman_hastati", 12, 0)
    c = unit("celtic_swordsmen", 16, 1)
    res = run("melee", c, h, [("d12", (9,)), ("d10", (3,))])
    o = res.outcome
    assert o.defender.casualties == 3 and o.defender.rings == 2
    assert o.defender.move == 'recoils 4 MF (12")'
    assert o.attacker.casualties == 0 and o.attacker.rings == 1 and o.attacker.move is None
    assert "fought" in o.attacker.markers_add and "fought" in o.defender.markers_add
    assert res.sides == (None, {"won_melee": True})
    assert any("fury" in line for line in res.explanation)


def test_fury_only_on_the_initial_attack() -> None:
    """Fury is for the initial attack round only (errata "initial-attack"): a continuing
    round of the same melee, or the Celts as the contacted side, get no +1."""
    h = unit("roman_hastati", 12, 0)
    c = unit("celtic_swordsmen", 16, 1, extra={"melee_with": h.unit_id})
    # continuing: 9 against 8 = 1 point, no decision (with fury it would be 2: a casualty)
    res = run("melee", c, h, [("d12", (9,)), ("d10", (8,))])
    assert res.outcome.result.startswith("no decision")
    res = run(
        "melee",
        unit("celtic_swordsmen", 16, 1),
        h,
        [("d12", (9,)), ("d10", (8,))],
        initial_attack="no",
    )
    assert res.outcome.result.startswith("no decision")
    # the Hastati attack the Celts: the Celts get no fury as defenders
    res = run("melee", h, unit("celtic_swordsmen", 16, 1), [("d10", (8,)), ("d12", (9,))])
    assert res.outcome.result.startswith("no decision")


def test_casualties_each_two_points_remainders_dropped() -> None:
    """Each two points of difference is a casualty on the lower side; remainders are
    disregarded; under two points nobody loses and the units stay in contact, each with a
    ring."""
    a = unit("roman_principes", 12, 0)
    d = unit("spanish_medium_cavalry", 16, 1)
    res = run("melee", a, d, [("d12", (10,)), ("d10", (6,))])  # 10 v 6+1 mounted: 3 -> 1
    assert res.outcome.defender.casualties == 1
    res = run("melee", a, d, [("d12", (7,)), ("d10", (6,))])  # 7 v 7: nothing
    o = res.outcome
    assert (o.attacker.casualties, o.defender.casualties) == (0, 0)
    assert (o.attacker.rings, o.defender.rings) == (1, 1)
    assert (
        o.attacker.extra["melee_with"] == d.unit_id and o.defender.extra["melee_with"] == a.unit_id
    )
    assert res.sides == (None, None)
    # the next round between the same units is no initial attack, and a decision ends contact
    a2, d2 = after(a, o.attacker), after(d, o.defender)
    res = run("melee", a2, d2, [("d12", (12,)), ("d10", (1,))])
    assert res.outcome.defender.casualties == 5
    assert "melee_with" in res.outcome.attacker.extra_remove


def test_pike_phalanx_adds_a_d6_on_initial_attack() -> None:
    """Carth. & L-P Pike Phalanx: on each initial round of attack cast the specified die
    plus 1d6."""
    p = unit("carthaginian_phalanx", 36, 1)
    h = unit("roman_hastati", 12, 0)
    res = run("melee", p, h, [("d12", (6,)), ("d6", (4,)), ("d10", (2,))])
    assert res.outcome.defender.casualties == 4  # 10 v 2
    res = run("melee", p, h, [("d12", (6,)), ("d10", (2,))], initial_attack="no")
    assert res.outcome.defender.casualties == 2


def test_spear_phalanx_plus_one_on_initial_attack() -> None:
    hp = unit("hellenic_phalanx", 36, 0)
    c = unit("celtic_swordsmen", 16, 1)
    res = run("melee", hp, c, [("d12", (5,)), ("d12", (4,))])  # 5+1 v 4
    assert res.outcome.defender.casualties == 1


def test_elephant_bonus_against_a_new_target() -> None:
    """Elephants: d12+2 on a new target, d12+1 next round, d12 in the third, then the matrix
    (d10 at the fourth); the pluses reappear against a new target, the die still follows the
    rings (errata "elephant-new-target")."""
    e = unit("elephants", 12, 1)
    h = unit("roman_hastati", 12, 0)
    scripts = [
        [("d12", (6,)), ("d10", (5,))],  # 6+2 v 5: one casualty, the Hastati recoil
        [("d12", (6,)), ("d8", (6,))],  # 6+1 v 6 (Hastati at two rings): nothing
        [("d12", (6,)), ("d8", (6,))],  # 6+0 v 6: nothing
    ]
    seen = []
    for i, script in enumerate(scripts):
        o = run("melee", e, h, script).outcome
        seen.append(o.result)
        assert o.attacker.extra["elephant_target"] == h.unit_id
        assert o.attacker.extra["elephant_rounds"] == i + 1
        e, h = after(e, o.attacker), after(h, o.defender)
    assert seen[0] == "defender loses 1 and recoils"
    assert seen[1].startswith("no decision") and seen[2].startswith("no decision")
    assert e.status.rings == 3
    # fourth round: d10 with no bonus
    res = run("melee", e, h, [("d10", (7,)), ("d6", (3,))])
    assert res.outcome.defender.casualties == 2
    # a new target: +2 again, on the d10 of three rings
    other = unit("roman_principes", 12, 0, uid="principes")
    res = run("melee", e, other, [("d10", (5,)), ("d12", (5,))])
    assert res.outcome.defender.casualties == 1
    res = run("melee", e, other, [("d10", (5,)), ("d12", (5,))], elephant_round=3)
    assert res.outcome.result.startswith("no decision")


def test_elephant_bonus_only_when_they_assault() -> None:
    """Errata "elephant-bonus-on-assault": the source gives the +2/+1 for the 'initial
    attack on new unit' and says the pluses reappear 'when a new target is assaulted', so
    elephants that are attacked cast their plain die; the round is still counted against
    that unit, so when they attack it next round they get the second round's +1."""
    e = unit("elephants", 12, 1)
    h = unit("roman_hastati", 12, 0)
    # Hastati attack: 6 v 6 on the plain d12 (with the old +2 the Hastati would lose one)
    res = run("melee", h, e, [("d10", (6,)), ("d12", (6,))])
    assert res.outcome.result.startswith("no decision")
    assert not any("elephants, round" in line for line in res.explanation)
    d = res.outcome.defender
    assert (d.extra["elephant_target"], d.extra["elephant_rounds"]) == (h.unit_id, 1)
    e, h = after(e, d), after(h, res.outcome.attacker)
    # next round the elephants attack the same unit: round 2, +1 (6+1 v 6 on d10 at 1 ring)
    res = run("melee", e, h, [("d12", (6,)), ("d10", (6,))])
    assert res.outcome.result.startswith("no decision")
    assert any("+1 elephants, round 2 against this target" in x for x in res.explanation)
    # the elephants assault a fresh unit: +2 (6+2 v 6)
    other = unit("roman_principes", 12, 0, uid="principes")
    res = run("melee", e, other, [("d12", (6,)), ("d12", (6,))])
    assert res.outcome.defender.casualties == 1
    # the elephant_round option says which round it is, but defending elephants get no bonus
    res = run("melee", other, e, [("d12", (6,)), ("d12", (6,))], elephant_round=1)
    assert res.outcome.result.startswith("no decision")


def test_trampled_elephants_get_no_bonus() -> None:
    """A berserk elephant trampling an elephant unit: the trampled unit is attacked, so it
    casts its plain d12 (d12+2 v d12: 5+2 v 7 is no decision)."""
    mad = unit("elephants", 12, 0, strength=3, markers=frozenset({"berserk"}))
    e = unit("elephants", 12, 1, uid="calm")
    res = run("trample", mad, e, [("d12+2", (5,)), ("d12", (7,))])
    assert res.outcome.result.startswith("no decision")


def test_defending_elephant_odds() -> None:
    """Hastati (d10) attacking fresh elephants (d12, no bonus): each two points of
    difference is a casualty; the elephants lose when the d10 beats the d12 by two."""
    odds = M.odds(
        "melee", Situation(actor=unit("roman_hastati", 12, 0), target=unit("elephants", 12, 1))
    )
    assert_odds_sum_to_one(odds)
    elephants_lose = sum(p for o, p in odds.items() if o.defender.casualties)
    assert elephants_lose == Fraction(
        sum(1 for h in range(1, 11) for el in range(1, 13) if h - el >= 2), 120
    )


def test_elephant_bonus_in_defence_is_a_data_override(tmp_path: Path) -> None:
    """A house-rules copy with new_target_bonus_on = "any" gives the bonus in defence too
    (the reading before the decision)."""
    folder = tmp_path / "quincunx"
    shutil.copytree(FOLDER, folder)
    path = folder / "tables.toml"
    text = path.read_text(encoding="utf-8")
    assert 'new_target_bonus_on = "assault"' in text
    path.write_text(text.replace('new_target_bonus_on = "assault"', 'new_target_bonus_on = "any"'))
    house = QuincunxMechanics(load_ruleset(folder))
    sit = Situation(actor=unit("roman_hastati", 12, 0), target=unit("elephants", 12, 1))
    res = house.resolve("melee", sit, ScriptedDice([("d10", (6,)), ("d12", (6,))]))
    assert res.outcome.attacker.casualties == 1  # 6 v 6+2


def test_mounted_flank_downhill_modifiers() -> None:
    """General modifiers: unit mounted +1, on the enemy flank +2, fighting downhill +1
    (elephants are not 'mounted': errata "elephant-not-mounted")."""
    eq = unit("roman_equites", 15, 0)
    al = unit("celtic_heavy_cavalry", 18, 1)
    res = run("melee", eq, al, [("d12", (5,)), ("d12", (5,))], initial_attack="no")
    assert res.outcome.result.startswith("no decision")  # both mounted
    h = unit("roman_hastati", 12, 0)
    c = unit("celtic_swordsmen", 16, 1)
    res = run("melee", h, c, [("d10", (5,)), ("d12", (5,))], flank=True)
    assert res.outcome.defender.casualties == 1
    res = run("melee", h, c, [("d10", (5,)), ("d12", (4,))], downhill=True)
    assert res.outcome.defender.casualties == 1
    res = run(
        "melee", h, c, [("d10", (5,)), ("d12", (4,))], defender_downhill=True, defender_flank=True
    )
    assert res.outcome.attacker.casualties == 1  # 5 v 4+3
    el = unit("elephants", 12, 1)
    res = run("melee", el, h, [("d12", (5,)), ("d10", (7,))], elephant_round=4)
    assert res.outcome.attacker.casualties == 1  # 5 v 7: no mounted +1 for elephants


def test_leader_bonus_in_melee() -> None:
    """A leader attached adds +1 to the unit's melee die; Hannibal and Scipio +2."""
    c = unit("celtic_swordsmen", 16, 1)
    h = with_leader(unit("roman_hastati", 12, 0))
    res = run("melee", h, c, [("d10", (5,)), ("d12", (4,))])
    assert res.outcome.defender.casualties == 1
    s = with_leader(unit("roman_hastati", 12, 0), "Scipio")
    res = run("melee", s, c, [("d10", (5,)), ("d12", (5,))])
    assert res.outcome.defender.casualties == 1
    res = run("melee", s, c, [("d10", (5,)), ("d12", (5,))], attacker_leader="none")
    assert res.outcome.result.startswith("no decision")
    res = run(
        "melee",
        unit("roman_hastati", 12, 0),
        c,
        [("d10", (5,)), ("d12", (5,))],
        attacker_leader="2",
    )
    assert res.outcome.defender.casualties == 1


@pytest.mark.parametrize(
    ("troop", "size", "status", "options", "die"),
    [
        # Velites: d8 d8 d6 ...; one column right in skirmish mode
        ("roman_velites", 12, {"rings": 1}, {}, "d8"),
        ("roman_velites", 12, {"rings": 1, "formation": "skirmish"}, {}, "d6"),
        # Celtic light javelins d8 d8 d8 d6 d4: formed volley 2 columns, skirmish volley 3
        ("celtic_light_javelins", 12, {"rings": 1}, {"attacker_volleyed": True}, "d6"),
        ("celtic_light_javelins", 12, {"formation": "skirmish"}, {"attacker_volleyed": True}, "d6"),
        (
            "celtic_light_javelins",
            12,
            {"formation": "skirmish", "extra": {"peltast_volley": True}},
            {},
            "d6",
        ),
        # Hastati d10 d10 d8 d8 d6 d6 d4 d4
        ("roman_hastati", 12, {"rings": 1}, {"wood_edge": True}, "d8"),
        ("roman_hastati", 12, {}, {"attacker_crossing": True}, "d8"),
        ("roman_hastati", 12, {"rings": 1, "strength": 6}, {}, "d8"),  # 50%: one column
        ("roman_hastati", 12, {"rings": 1, "strength": 7}, {}, "d10"),
        ("roman_hastati", 12, {"rings": 1, "strength": 4}, {}, "d8"),  # 33%: two, not three
        ("roman_hastati", 12, {"rings": 7}, {"attacker_crossing": True}, "d4"),  # last column
        ("roman_hastati", 12, {"rings": 3}, {}, "d8"),
        ("roman_hastati", 12, {"rings": 4}, {}, "d6"),
        ("celtic_swordsmen", 16, {"rings": 1, "strength": 8}, {"initial_attack": "no"}, "d10"),
        ("celtic_swordsmen", 16, {"rings": 1, "strength": 5}, {"initial_attack": "no"}, "d8"),
    ],
)
def test_column_shifts(
    troop: str, size: int, status: dict[str, Any], options: dict[str, Any], die: str
) -> None:
    """Columns to the right: skirmish mode 1, peltast volley 2 (3 in skirmish order, instead of
    the skirmish shift), wood edge 1 for the attackers, far shore of a stream 2 for the
    crossing side, attrition 50% one and 33% two (not three); past the last column reads the
    last (errata "melee-last-column", "column-shifts-combine")."""
    a = unit(troop, size, 0, **status)
    d = unit("moroccan_archers", 12, 1)  # always d4
    run("melee", a, d, [(die, (1,)), ("d4", (1,))], **options)


def test_lost_volley_and_straggling_in_melee() -> None:
    """A unit brought down to 25% disintegrates at once: stragglers retire 4 MF; a straggler
    met by an enemy unit of more than 95% strength is captured (errata
    "straggler-capture")."""
    h = unit("roman_hastati", 12, 0, strength=5)
    c = unit("celtic_swordsmen", 16, 1)
    res = run("melee", c, h, [("d12", (7,)), ("d10", (4,))])  # 8 v 4: 2 lost, 3 left = 25%
    d = res.outcome.defender
    assert d.casualties == 2 and "straggler" in d.markers_add and "stragglers" in (d.move or "")
    assert "disintegrates" in res.outcome.result
    straggler = after(h, d)
    res = run("melee", c, straggler, [])
    assert res.outcome.defender.eliminated and res.outcome.result == "stragglers captured"
    tired = unit("celtic_swordsmen", 16, 1, strength=15)  # 93.75%
    res = run("melee", tired, straggler, [])
    assert not res.outcome.defender.eliminated and res.outcome.result == "stragglers fall back"
    with pytest.raises(ValueError, match="no combat ability"):
        M.odds("melee", Situation(actor=straggler, target=c))


def test_destroyed_unit() -> None:
    h = unit("roman_hastati", 12, 0, strength=1)
    c = unit("celtic_swordsmen", 16, 1)
    res = run("melee", c, h, [("d12", (12,)), ("d8", (1,))])  # 33%: two columns right
    assert res.outcome.defender.eliminated and res.outcome.defender.casualties == 1


def test_horses_shy_from_elephants() -> None:
    """Elephants and Horses: only Numidian light horse and Liby-Phoenician heavy cavalry
    will face elephants; other cavalry may not attack them and withdraws: no melee."""
    e = unit("elephants", 12, 1)
    res = run("melee", unit("roman_equites", 15, 0), e, [])
    assert res.outcome.result.startswith("horses shy") and "withdraws" in (
        res.outcome.attacker.move or ""
    )
    res = run("melee", e, unit("allied_cavalry", 15, 0), [])
    assert "withdraws" in (res.outcome.defender.move or "")
    nlc = unit("numidian_light_cavalry", 16, 1)
    run("melee", nlc, unit("elephants", 12, 0), [("d8", (3,)), ("d12", (3,))])


def test_optional_victory_ring(tmp_path: Path, builtin_folder: Path) -> None:
    """The author's optional rule (off by default): a victory forcing a recoil removes the
    victor's ring for that round."""
    h, c = unit("roman_hastati", 12, 0), unit("celtic_swordsmen", 16, 1)
    res = run("melee", c, h, [("d12", (9,)), ("d10", (3,))])
    assert res.outcome.attacker.rings == 1
    copy = tmp_path / "quincunx-house"
    shutil.copytree(builtin_folder, copy)
    text = (copy / "tables.toml").read_text()
    (copy / "tables.toml").write_text(
        text.replace(
            "optional_victory_ring_removal = false", "optional_victory_ring_removal = true"
        )
    )
    text = (copy / "ruleset.toml").read_text()
    (copy / "ruleset.toml").write_text(text.replace('id = "quincunx"', 'id = "quincunx-house"', 1))
    house = find_engine("quincunx").mechanics(load_ruleset(copy, builtin=False))
    res = house.resolve(
        "melee", Situation(actor=c, target=h), ScriptedDice([("d12", (9,)), ("d10", (3,))])
    )
    assert res.outcome.attacker.rings == 0 and res.outcome.defender.rings == 2


# --------------------------------------------------------------------------- pre-melee volley


def test_pre_melee_pila_against_javelins() -> None:
    """Pre-Melee Missilery: Romans cast a d12 for pila, Celts and Spaniards a d10; the lower
    cast applies -1 to each melee die of the first round only. Recorded on the loser
    (pre_melee_penalty) and read and consumed by the melee."""
    h = unit("roman_hastati", 12, 0)
    c = unit("celtic_swordsmen", 16, 1)
    res = run("pre_melee", h, c, [("d12", (3,)), ("d10", (7,))])
    o = res.outcome
    assert o.attacker.extra == {"volley_used": True, "pre_melee_penalty": -1, "pre_melee_rounds": 1}
    assert o.defender.extra == {"volley_used": True}
    h, c = after(h, o.attacker), after(c, o.defender)
    # first round: Hastati 5-1 v Celts 4 (no fury: they were charged) -> no decision
    res = run("melee", h, c, [("d10", (5,)), ("d12", (4,))])
    assert res.outcome.result.startswith("no decision")
    assert {"pre_melee_penalty", "pre_melee_rounds"} <= res.outcome.attacker.extra_remove
    h, c = after(h, res.outcome.attacker), after(c, res.outcome.defender)
    assert "pre_melee_penalty" not in h.status.extra
    # second round, no penalty: 8 v 6 on the one-ring dice (d10, d12)
    res = run("melee", h, c, [("d10", (8,)), ("d12", (6,))])
    assert res.outcome.defender.casualties == 1
    # equal casts: nobody penalised
    res = run(
        "pre_melee",
        unit("roman_hastati", 12, 0),
        unit("celtic_swordsmen", 16, 1),
        [("d12", (5,)), ("d10", (5,))],
    )
    assert "pre_melee_penalty" not in res.outcome.attacker.extra
    assert "pre_melee_penalty" not in res.outcome.defender.extra


def test_pre_melee_automatic_losers() -> None:
    """Troops without a volley automatically lose against a line that has one; Celts and
    Spaniards cast only on their first engagement (errata "pre-melee-volley")."""
    h = unit("roman_hastati", 12, 0)
    res = run("pre_melee", unit("carthaginian_phalanx", 36, 1), h, [])
    assert res.outcome.attacker.extra["pre_melee_penalty"] == -1
    assert res.outcome.defender.extra == {"volley_used": True}
    res = run("pre_melee", unit("roman_triarii", 12, 0), unit("celtic_swordsmen", 16, 1), [])
    assert res.outcome.attacker.extra["pre_melee_penalty"] == -1
    spent = unit("celtic_swordsmen", 16, 1, extra={"volley_used": True})
    res = run("pre_melee", unit("roman_principes", 12, 0), spent, [])
    assert res.outcome.defender.extra["pre_melee_penalty"] == -1
    res = run("pre_melee", unit("carthaginian_phalanx", 36, 1), unit("roman_triarii", 12, 0), [])
    assert res.outcome.result == "no volley on either side"
    engaged = unit("roman_hastati", 12, 0, extra={"melee_with": "celtic_swordsmen-1"})
    res = run("pre_melee", engaged, unit("celtic_swordsmen", 16, 1), [])
    assert res.outcome.result.startswith("no volley: the melee is already")


def test_pre_melee_odds() -> None:
    h, c = unit("roman_hastati", 12, 0), unit("celtic_swordsmen", 16, 1)
    r = results(M.odds("pre_melee", Situation(actor=h, target=c)))
    assert r == {
        "attacker loses the volley: -1 in the first round": Fraction(3, 8),
        "equal casts: no effect": Fraction(1, 12),
        "defender loses the volley: -1 in the first round": Fraction(13, 24),
    }


def test_melee_option_for_volley_loser() -> None:
    h, c = unit("roman_hastati", 12, 0), unit("celtic_swordsmen", 16, 1)
    res = run("melee", h, c, [("d10", (5,)), ("d12", (5,))], pre_melee="defender")
    assert res.outcome.defender.casualties == 0 and res.outcome.result.startswith("no decision")
    res = run("melee", h, c, [("d10", (6,)), ("d12", (5,))], pre_melee="defender")
    assert res.outcome.defender.casualties == 1


# --------------------------------------------------------------------------- missilery


def test_worked_example_thirteen_firing_at_short_range() -> None:
    """Missilery Matrix: 13 or more firing at short range cast 2d12; the lower die is taken
    from the higher and each two points is a casualty; shielded battleline infantry take
    one off the difference. 11 and 2: 9 - 1 = 8: four casualties."""
    a = unit("moroccan_archers", 16, 1)
    h = unit("roman_hastati", 12, 0)
    res = run("shoot", a, h, [("2d12", (11, 2))])
    o = res.outcome
    assert o.defender.casualties == 4 and "shot_at" in o.defender.markers_add
    assert "fired" in o.attacker.markers_add
    assert res.sides == (None, None)  # missile casualties do not affect initiative


@pytest.mark.parametrize(
    ("firing", "options", "dice"),
    [
        (4, {"range": "long"}, "2d4"),
        (6, {}, "2d6"),
        (7, {"range": "long"}, "2d6"),
        (9, {}, "2d8"),
        (8, {"cover": True}, "2d4"),
        (10, {"range": "long"}, "2d8"),
        (12, {}, "2d10"),
        (11, {"cover": True}, "2d6"),
        (13, {"range": "long"}, "2d10"),
        (16, {"cover": True}, "2d8"),
        (5, {"cover": True, "crossing": True}, "2d4"),
        (9, {"range": "long", "crossing": True}, "2d8"),
        (16, {"crossing": True}, "2d12"),
        (16, {"distance": 12}, "2d12"),
        (16, {"distance": 13}, "2d10"),
        (16, {"distance": 24, "range": "short"}, "2d10"),
        (16, {"firing": 7}, "2d8"),
    ],
)
def test_missile_dice(firing: int, options: dict[str, Any], dice: str) -> None:
    """Dice by number firing and column (cover/overhead, long, short); a target crossing a
    stream raises one level, a 'No' cell rising to 2d4 (errata "stream-missile-level");
    bow ranges 12" / 24"."""
    a = unit("moroccan_archers", 16, 1, strength=firing)
    res = run("shoot", a, unit("allied_cavalry", 15, 0), [(dice, (1, 1))], **options)
    assert res.outcome.defender.casualties == 0


def test_no_fire_cases() -> None:
    """4-6 firing into cover: 'No'; fewer than 4 cannot fire (errata
    "missile-minimum-firers"); out of range; no fire into a melee."""
    target = unit("allied_cavalry", 15, 0)
    cases = [
        (unit("moroccan_archers", 16, 1, strength=6), {"cover": True}, "into cover"),
        (unit("moroccan_archers", 16, 1, strength=3), {}, "cannot shoot"),
        (unit("moroccan_archers", 16, 1), {"distance": 25}, "out of range"),
        (unit("numidian_javelins", 12, 1), {"distance": 10}, "out of range"),
    ]
    for shooter, options, words in cases:
        res = run("shoot", shooter, target, [], **options)
        assert res.outcome.result.startswith("no fire") and words in res.outcome.result
        odds = M.odds("shoot", Situation(actor=shooter, target=target, options=options))
        assert list(odds.values()) == [1]
    engaged = unit("allied_cavalry", 15, 0, extra={"melee_with": "x"})
    res = run("shoot", unit("moroccan_archers", 16, 1), engaged, [])
    assert "into a melee" in res.outcome.result
    with pytest.raises(ValueError, match="no missile weapons"):
        M.odds(
            "shoot",
            Situation(actor=unit("roman_hastati", 12, 0), target=unit("celtic_swordsmen", 16, 1)),
        )


def test_javelin_ranges() -> None:
    """Javelins: short 3" or less, long 3.1" to 9"."""
    j = unit("numidian_javelins", 12, 1)
    t = unit("allied_cavalry", 15, 0)
    run("shoot", j, t, [("2d10", (1, 1))], distance=3)
    run("shoot", j, t, [("2d8", (1, 1))], distance=4)
    run("shoot", j, t, [("2d8", (1, 1))], distance=9)


def test_missile_modifiers() -> None:
    """Modifiers to the difference: shielded battleline infantry, armoured heavy cavalry and
    skirmishers -1; flank +1; skirmishers cannot be outflanked; leader +1. Peltasts count as
    skirmishers only in skirmish mode (errata "missile-target-classes")."""
    a = unit("moroccan_archers", 16, 1)
    cases: list[tuple[Combatant, dict[str, Any], int]] = [
        (unit("allied_cavalry", 15, 0), {}, 3),  # 7: 3
        (unit("roman_equites", 15, 0), {}, 3),  # 6: 3
        (unit("roman_hastati", 12, 0), {}, 3),
        (unit("roman_hastati", 12, 0), {"flank": True}, 3),  # 7
        (unit("allied_cavalry", 15, 0), {"flank": True}, 4),  # 8
        (unit("extraordinarii", 12, 0), {}, 3),
        (unit("extraordinarii", 12, 0), {"flank": True}, 3),  # cannot be outflanked
        (unit("roman_velites", 12, 0), {}, 3),  # formed: 7
        (unit("roman_velites", 12, 0, formation="skirmish"), {}, 3),  # 6
        (unit("lusitanian_scutari", 16, 0), {}, 3),  # small caetra: no -1
    ]
    for target, options, cas in cases:
        res = run("shoot", a, target, [("2d12", (9, 2))], **options)
        assert res.outcome.defender.casualties == cas, (target.troop, options)
    # 9 - 1 = 8 against skirmishers vs 9 - 2 = 7 with two minuses: use an odd difference
    res = run("shoot", a, unit("extraordinarii", 12, 0), [("2d12", (10, 2))])
    assert res.outcome.defender.casualties == 3  # 8 - 1 = 7
    res = run("shoot", a, unit("allied_cavalry", 15, 0), [("2d12", (10, 2))])
    assert res.outcome.defender.casualties == 4
    res = run("shoot", a, unit("roman_velites", 12, 0), [("2d12", (10, 2))])
    assert res.outcome.defender.casualties == 4  # formed peltasts: no -1
    res = run("shoot", a, unit("roman_velites", 12, 0, formation="skirmish"), [("2d12", (10, 2))])
    assert res.outcome.defender.casualties == 3
    res = run("shoot", a, unit("lusitanian_scutari", 16, 0), [("2d12", (10, 2))])
    assert res.outcome.defender.casualties == 4  # small caetra
    res = run("shoot", with_leader(a), unit("roman_hastati", 12, 0), [("2d12", (10, 2))])
    assert res.outcome.defender.casualties == 4  # 8 - 1 + 1
    res = run(
        "shoot", with_leader(a, "Hannibal"), unit("roman_hastati", 12, 0), [("2d12", (10, 3))]
    )
    assert res.outcome.defender.casualties == 4  # 7 - 1 + 2


def test_shoot_odds_short_range_2d12() -> None:
    """The difference of 2d12 is k with probability 2(12-k)/144 (k > 0), 12/144 for 0."""
    a = unit("moroccan_archers", 16, 1)
    odds = M.odds("shoot", Situation(actor=a, target=unit("allied_cavalry", 15, 0)))
    by_cas = {o.defender.casualties: p for o, p in odds.items()}
    assert by_cas[0] == Fraction(12 + 22, 144)
    assert by_cas[5] == Fraction(2 * (12 - 10) + 2 * (12 - 11), 144)
    assert_odds_sum_to_one(odds)


def test_pass_through_fire_chit() -> None:
    """Pass-through fire: no fire may be issued on the following round (a chit), removed at
    the end of that round."""
    a = unit("balearic_slingers", 12, 1)
    t = unit("roman_hastati", 12, 0)
    res = run("shoot", a, t, [("2d10", (5, 5))], pass_through=True)
    assert "no_fire" in res.outcome.attacker.markers_add
    a = after(a, res.outcome.attacker)
    assert run("shoot", a, t, []).outcome.result.startswith("no fire")
    rest = M.end_phase(view([a, t], phase="rest"), SeededDice(1))
    a = after(a, next(c.effects for c in rest.others if c.unit_id == a.unit_id))
    assert a.status.has("no_fire") and "fired" not in a.status.markers  # still blocked next round
    rest = M.end_phase(view([a, t], phase="rest"), SeededDice(1))
    a = after(a, next(c.effects for c in rest.others if c.unit_id == a.unit_id))
    assert not a.status.has("no_fire")
    run("shoot", a, t, [("2d10", (5, 5))])


def test_peltasts_loose_javelins_before_melee() -> None:
    """Formed peltasts that loose missiles before a melee closes fight 2 columns right; the
    shot records it for the melee."""
    v = unit("roman_velites", 12, 0)
    c = unit("celtic_swordsmen", 16, 1)
    res = run("shoot", v, c, [("2d10", (4, 4))], before_melee=True, distance=2)
    v = after(v, res.outcome.attacker)
    assert v.status.extra["peltast_volley"] is True
    res = run("melee", v, c, [("d6", (4,)), ("d12", (5,))])
    assert "peltast_volley" in res.outcome.attacker.extra_remove
    with pytest.raises(ValueError, match="not peltasts"):
        run(
            "shoot",
            unit("balearic_slingers", 12, 1),
            unit("roman_hastati", 12, 0),
            [],
            before_melee=True,
        )


# --------------------------------------------------------------------------- elephants


def test_elephant_crew_losses_in_order() -> None:
    """Elephant Attrition: the pikeman falls first, then the javelineer, then the mahout,
    then the elephant (three hits); hits stay on one element until it is gone."""
    a = unit("moroccan_archers", 16, 0)
    e = unit("elephants", 12, 1)
    res = run("shoot", a, e, [("2d12", (7, 2))])  # 5: 2 casualties
    assert res.outcome.defender.casualties == 2
    assert any("pikeman of element 1, javelineer of element 1" in line for line in res.explanation)
    e7 = unit("elephants", 12, 1, strength=7)
    loss = M.loss(e7, 2)
    assert loss.words[0].endswith("elephant of element 1, pikeman of element 2")
    assert elephant_loss(T, 12, 12, 6, False).fallen == (
        "pikeman of element 1",
        "javelineer of element 1",
        "mahout of element 1",
        "elephant of element 1",
        "elephant of element 1",
        "elephant of element 1",
    )


def test_last_elephant_goes_berserk() -> None:
    """When only the last elephant is left, its first casualty sends it berserk instead of
    being captured (errata "elephant-last-beast")."""
    a = unit("moroccan_archers", 16, 0)
    e4 = unit("elephants", 12, 1, strength=4)
    res = run("shoot", a, e4, [("2d12", (8, 2))])  # 6: 3 casualties: the mahout, then berserk
    d = res.outcome.defender
    assert d.casualties == 1 and "berserk" in d.markers_add and not d.eliminated
    assert "berserk" in res.outcome.result
    mad = after(e4, d)
    assert mad.status.strength == 3 and mad.status.has("berserk")
    assert M.move_allowance(mad) is None
    with pytest.raises(ValueError):
        M.odds("shoot", Situation(actor=mad, target=unit("roman_hastati", 12, 0)))
    res = run("shoot", a, mad, [("2d12", (12, 1))])  # 11: 5: the elephant is killed
    assert res.outcome.defender.eliminated and res.outcome.defender.casualties == 3


def test_elephant_missile_strength() -> None:
    """An elephant unit casts as a twelve-man light javelin unit; after losses its casualty
    points fire (errata "elephant-missile-strength")."""
    t = unit("roman_equites", 15, 0)  # elephant javelins may be cast at horses
    run("shoot", unit("elephants", 12, 1), t, [("2d10", (1, 1))], distance=3)
    run("shoot", unit("elephants", 12, 1, strength=9), t, [("2d8", (1, 1))], distance=3)
    assert M.firing_strength(unit("elephants", 12, 1)) == 12


def test_trample() -> None:
    """A berserk elephant tramples with d12+2 against a unit in its path: each two points is
    a casualty to the lower side; a trampled unit that loses recoils with its second ring;
    a trample wins no initiative die."""
    mad = unit("elephants", 12, 1, strength=3, markers=frozenset({"berserk"}))
    h = unit("roman_hastati", 12, 0)
    res = run("trample", mad, h, [("d12+2", (10,)), ("d10", (4,))])
    assert res.outcome.defender.casualties == 4 and res.outcome.defender.rings == 2
    assert res.outcome.attacker.rings == 0 and res.sides == (None, None)
    res = run("trample", mad, h, [("d12+2", (1,)), ("d10", (10,))])
    assert res.outcome.attacker.eliminated and "destroyed" in res.outcome.result
    friend = unit("celtic_swordsmen", 16, 1, uid="celts")
    res = run("trample", mad, friend, [("d12+2", (3,)), ("d12", (2,))])
    assert res.outcome.defender.casualties == 1
    odds = M.odds("trample", Situation(actor=mad, target=h))
    assert_odds_sum_to_one(odds)
    # d12+2 v d10: the elephant is never 2+ lower unless the d10 beats it by 2
    p_lose = sum(p for o, p in odds.items() if o.attacker.casualties or o.attacker.eliminated)
    assert p_lose == Fraction(
        sum(1 for e in range(1, 13) for d in range(1, 11) if d - (e + 2) >= 2), 120
    )


def test_rampage_along_the_compass() -> None:
    """Rampage: d8 for direction (1 North ... 8 Northwest, North the edge behind the Romans:
    errata "rampage-north"), d6 for move factors; it tramples every unit in its path, friend
    or foe, nearest first."""
    mad = at(
        unit("elephants", 12, 1, strength=3, markers=frozenset({"berserk", "to_rampage"})),
        0,
        0,
        2,
        4,
        180,
    )
    h = at(unit("roman_hastati", 12, 0), 0, -4)
    p = at(unit("roman_principes", 12, 0), 10, -4)
    celts = at(unit("celtic_swordsmen", 16, 1, uid="celts"), 0, -10)
    v = view([mad, h, p, celts])
    res = M.resolve(
        "rampage",
        Situation(actor=mad, view=v),
        ScriptedDice([("d8", (1,)), ("d6", (2,)), ("d12+2", (10,)), ("d10", (4,))]),
    )
    assert [c.unit_id for c in res.others] == [h.unit_id]
    assert res.others[0].effects.casualties == 4
    eff = res.outcome.attacker
    assert eff.extra == {"rampage_bearing": 180, "rampage_inches": 6}
    assert "to_rampage" in eff.markers_remove and "North" in (eff.move or "")
    # East from the Romans' North: bearing 270, towards -x; a friendly unit there is trampled
    west_friend = at(unit("libyan_javelins", 12, 1, uid="libyans"), -7, 0)
    v = view([mad, h, west_friend])
    res = M.resolve(
        "rampage",
        Situation(actor=mad, view=v),
        ScriptedDice([("d8", (3,)), ("d6", (3,)), ("d12+2", (1,)), ("d6", (6,))]),
    )
    assert [c.unit_id for c in res.others] == ["libyans"]
    assert res.outcome.attacker.casualties == 1 and not res.outcome.attacker.eliminated  # 3 v 6
    with pytest.raises(ValueError, match="not a berserk"):
        M.resolve("rampage", Situation(actor=unit("elephants", 12, 1)), SeededDice(1))


def test_rampage_marked_each_turn() -> None:
    mad = unit("elephants", 12, 1, strength=2, markers=frozenset({"berserk"}))
    res = M.begin_phase(view([mad], phase="rampage", round=1), ScriptedDice([]))
    assert res.others[0].effects.markers_add == frozenset({"to_rampage"})
    res = M.begin_phase(view([mad], phase="rampage", round=2), ScriptedDice([]))
    assert res.others == ()


# --------------------------------------------------------------------------- leaders


@pytest.mark.parametrize(
    ("faces", "wounds", "status", "new_wounds"),
    [
        ((1, 1), 0, "killed", 0),
        ((3, 3), 0, "wounded", 1),
        ((6, 6), 1, "wounded", 2),
        ((4, 4), 2, "killed", 3),
        ((2, 5), 0, None, 0),
    ],
)
def test_leader_risk(
    faces: tuple[int, int], wounds: int, status: str | None, new_wounds: int
) -> None:
    """If the unit a leader is attached to loses casualties he casts 2d6: snake-eyes kill
    him, any other double wounds him; a third wound kills him even without snake eyes."""
    h = with_leader(unit("roman_hastati", 12, 0), wounds=wounds)
    c = unit("celtic_swordsmen", 16, 1)
    res = run("melee", c, h, [("d12", (9,)), ("d10", (3,)), ("2d6", faces)])
    if status is None:
        assert res.leader_events == ()
    else:
        (ev,) = res.leader_events
        assert (ev.leader_id, ev.status, ev.wounds) == ("ldr-Marcus", status, new_wounds)
    # no casualties, no risk; the winner's leader is not at risk
    run("melee", c, h, [("d12", (4,)), ("d10", (4,))])
    run("melee", with_leader(c), unit("roman_hastati", 12, 0), [("d12", (9,)), ("d10", (3,))])
    # missile casualties put him at risk too
    res = run("shoot", unit("moroccan_archers", 16, 1), h, [("2d12", (11, 2)), ("2d6", (1, 1))])
    assert res.leader_events[0].status == "killed"


def test_leader_move() -> None:
    """Leaders move 4 MF; wounded 2 MF, twice wounded 1 MF (3"; errata "leader-wound-move"),
    dead after a third wound."""
    moves = [M.leader_move(LeaderView("x", "X", "commander", wounds=w)) for w in range(4)]
    assert moves == [12, 6, 3, 0]


# --------------------------------------------------------------------------- initiative, the turn


def test_initiative_d10_and_d12_after_a_won_melee() -> None:
    """Sequence: each side casts a d10; a side that won a melee (forced a recoil) in either
    round casts a d12 for the next turn; the higher chooses move or counter-move; ties are
    cast again (errata "initiative-ties"). The die is recorded per side."""
    start = M.start_battle(view([]), ScriptedDice([]))
    assert start.sides[0] == {"initiative_die": "d10", "won_melee": False}
    res = M.begin_phase(
        view([], (dict(start.sides[0] or {}), dict(start.sides[1] or {}))),
        ScriptedDice([("d10", (7,)), ("d10", (3,))]),
    )
    assert res.initiative == 0
    assert res.sides[0] == {
        "initiative_die": "d10",
        "initiative_cast": 7,
        "won_melee": False,
        "moving": True,
    }
    assert res.sides[1] is not None and res.sides[1]["moving"] is False
    dice = ScriptedDice([("d10", (5,)), ("d12", (5,)), ("d10", (2,)), ("d12", (9,))])
    res = M.begin_phase(view([], ({"won_melee": False}, {"won_melee": True})), dice)
    assert dice.exhausted and res.initiative == 1
    assert res.sides[1] is not None and res.sides[1]["initiative_die"] == "d12"
    assert any("cast again" in line for line in res.explanation)
    # the second round of a turn casts nothing: the other side takes its round
    res = M.begin_phase(
        view([], ({"moving": False}, {"moving": True}), initiative=0, round=2),
        ScriptedDice([]),
    )
    assert res.initiative == 0 and "Carthage moves" in res.explanation[0]


def test_order_choice() -> None:
    res = M.resolve(
        "order",
        Situation(side=1, options={"choose": "counter_move"}, view=view([], initiative=1)),
        ScriptedDice([]),
    )
    assert res.sides == ({"moving": True}, {"moving": False})
    with pytest.raises(ValueError):
        M.resolve("order", Situation(side=0, view=view([], initiative=1)), ScriptedDice([]))


def test_rest_removes_a_ring() -> None:
    """A round of no activity (no fire, no move, no melee nor receipt of missilery) removes
    one ring; the round's markers are cleared and the next round goes to the other side."""
    idle = unit("roman_hastati", 12, 0, uid="idle", rings=3)
    fought = unit(
        "roman_principes",
        12,
        0,
        uid="fought",
        rings=3,
        markers=frozenset({"fought"}),
        extra={"melee_with": "x"},
    )
    moved = unit("roman_triarii", 12, 0, uid="moved", rings=2, markers=frozenset({"moved"}))
    shot = unit("celtic_swordsmen", 16, 1, uid="shot", rings=1, markers=frozenset({"shot_at"}))
    fresh = unit("celtic_swordsmen", 16, 1, uid="fresh")
    apart = unit("celtic_swordsmen", 16, 1, uid="apart", rings=1, extra={"melee_with": "y"})
    res = M.end_phase(
        view(
            [idle, fought, moved, shot, fresh, apart],
            ({"moving": True}, {"moving": False}),
            phase="rest",
        ),
        ScriptedDice([]),
    )
    ch = {c.unit_id: c.effects for c in res.others}
    assert ch["idle"].rings == -1
    assert ch["fought"].rings == 0 and ch["fought"].markers_remove == frozenset({"fought"})
    assert "melee_with" not in ch["fought"].extra_remove
    assert ch["moved"].rings == 0 and ch["shot"].rings == 0
    assert "fresh" not in ch
    assert ch["apart"].rings == -1 and "melee_with" in ch["apart"].extra_remove
    assert res.sides == ({"moving": False}, {"moving": True})
    res = M.end_phase(
        view([], ({"moving": False}, {"moving": True}), phase="rest", round=2),
        ScriptedDice([]),
    )
    assert res.sides[0] == {"moving": True}


def test_attrition_sweep() -> None:
    """Attrition table: at 25% a unit disintegrates (1 of 6, 3 of 12, 4 of 16 and 15, 5 of
    18, 9 of 36); other sizes use the exact quarter; elephants have their own attrition."""
    units = [
        unit("roman_hastati", 12, 0, uid="h3", strength=3),
        unit("roman_hastati", 12, 0, uid="h4", strength=4),
        unit("roman_equites", 15, 0, uid="e4", strength=4),
        unit("celtic_heavy_cavalry", 18, 1, uid="c5", strength=5),
        unit("carthaginian_phalanx", 36, 1, uid="p9", strength=9),
        unit("carthaginian_phalanx", 36, 1, uid="p10", strength=10),
        unit("celtic_swordsmen", 20, 1, uid="s5", strength=5),
        unit("celtic_swordsmen", 20, 1, uid="s6", strength=6),
        unit("roman_triarii", 6, 0, uid="t1", strength=1),
        unit("elephants", 12, 1, uid="el", strength=2),
        unit("roman_hastati", 12, 0, uid="old", strength=2, markers=frozenset({"straggler"})),
    ]
    res = M.end_phase(view(units, phase="attrition"), ScriptedDice([]))
    assert {c.unit_id for c in res.others} == {"h3", "e4", "c5", "p9", "s5", "t1"}
    assert all("straggler" in c.effects.markers_add for c in res.others)


def test_move_allowance() -> None:
    """Movement matrix (MF x 3"): battleline 2, formed peltasts 3, skirmishers 4, elephants 4
    (3 with lights), heavy/medium cavalry 4, light cavalry 6; an evaded or out-of-command unit
    cannot move."""
    assert M.move_allowance(unit("roman_hastati", 12)) == 6
    assert M.move_allowance(unit("roman_velites", 12)) == 9
    assert M.move_allowance(unit("roman_velites", 12, formation="skirmish")) == 12
    assert M.move_allowance(unit("roman_velites", 12, extra={"move_class": "battleline"})) == 6
    assert M.move_allowance(unit("elephants", 12)) == 12
    assert (
        M.move_allowance(unit("elephants", 12, extra={"move_class": "elephant_light_battlegroup"}))
        == 9
    )
    assert M.move_allowance(unit("roman_equites", 15)) == 12
    assert M.move_allowance(unit("numidian_light_cavalry", 16)) == 18
    assert M.move_allowance(unit("balearic_slingers", 12, markers=frozenset({"evaded"}))) == 0
    assert M.move_allowance(unit("roman_hastati", 12, markers=frozenset({"out_of_command"}))) == 0


def test_formation_action() -> None:
    v = unit("roman_velites", 12)
    res = M.resolve("formation", Situation(actor=v, options={"to": "skirmish"}), ScriptedDice([]))
    assert (
        res.outcome.attacker.formation == "skirmish" and "moved" in res.outcome.attacker.markers_add
    )
    res = M.resolve(
        "formation", Situation(actor=v, options={"move_class": "battleline"}), ScriptedDice([])
    )
    assert res.outcome.attacker.extra == {"move_class": "battleline"}
    with pytest.raises(ValueError, match="always formed"):
        M.resolve(
            "formation",
            Situation(actor=unit("roman_hastati", 12), options={"to": "skirmish"}),
            ScriptedDice([]),
        )


# --------------------------------------------------------------------------- evasion


def test_evasion() -> None:
    """Skirmishers contacted by a formed unit cast a d10 against the attacker's d6 and may
    withdraw one MF per point they are higher, within their normal move; only a higher cast
    that carries them clear succeeds (a tie fails: errata "evasion-ties"). The evaded unit
    cannot move in the next round (chit)."""
    s = unit("balearic_slingers", 12, 1)
    h = unit("roman_hastati", 12, 0)
    res = run("evade", s, h, [("d10", (9,)), ("d6", (2,))])
    a = res.outcome.attacker
    assert res.outcome.result == "evades 4 MF" and a.move == 'evades 4 MF (12")'
    assert {"evaded", "moved"} <= a.markers_add
    assert run("evade", s, h, [("d10", (4,)), ("d6", (4,))], needed=0).outcome.result.startswith(
        "evasion fails"
    )
    assert run("evade", s, h, [("d10", (5,)), ("d6", (3,))], needed=3).outcome.result.startswith(
        "evasion fails"
    )
    assert (
        run("evade", s, h, [("d10", (5,)), ("d6", (3,))], needed=2).outcome.result == "evades 2 MF"
    )
    assert run(
        "evade", s, h, [("d10", (9,)), ("d6", (1,))], exit_open=False
    ).outcome.result.startswith("evasion fails")
    with pytest.raises(ValueError):
        M.odds(
            "evade",
            Situation(actor=unit("roman_velites", 12), target=unit("celtic_swordsmen", 16, 1)),
        )
    with pytest.raises(ValueError):
        M.odds("evade", Situation(actor=s, target=unit("numidian_light_cavalry", 16, 0)))
    # the chit: no move this round and the next, then gone
    s = after(s, a)
    assert M.move_allowance(s) == 0
    for expected in (True, False):
        res = M.end_phase(view([s], phase="rest"), ScriptedDice([]))
        s = after(s, res.others[0].effects)
        assert s.status.has("evaded") is expected
    assert M.move_allowance(s) == 12


def test_evasion_odds() -> None:
    s = unit("balearic_slingers", 12, 1)
    h = unit("roman_hastati", 12, 0)
    r = results(M.odds("evade", Situation(actor=s, target=h, options={"needed": 2})))
    # d10 - d6 >= 2: sum over d6 of (10 - (k + 1)) / 60
    assert r["evasion fails: the melee follows"] == 1 - Fraction(
        sum(10 - k - 1 for k in range(1, 7)), 60
    )
    light_horse = unit("numidian_light_cavalry", 16, 1)  # 6 MF: up to 6
    r = results(M.odds("evade", Situation(actor=light_horse, target=h)))
    assert r["evades 6 MF"] == Fraction(sum(max(0, 10 - (k + 5)) for k in range(1, 7)), 60)


# --------------------------------------------------------------------------- command


def test_a_chain_of_command_asked_again_reads_where_the_units_stand_now() -> None:
    """The chains worked out are kept by where the units stand: the same group asked again
    gets the same chain, and a unit moved, a link taken away or out of the battle, or the
    commander moved is a chain worked out afresh."""
    forget_kept()
    c1 = at(unit("roman_hastati", 12, 0, uid="c1"), 0, 10)
    c2 = at(unit("roman_hastati", 12, 0, uid="c2"), 0, 16)
    end = at(unit("roman_hastati", 12, 0, uid="end"), 0, 22)
    assert command_chain([c1, c2, end], (0, 0), 12, 6) == {"c1", "c2", "end"}
    assert command_chain([c1, c2, end], (0, 0), 12, 6) == {"c1", "c2", "end"}
    assert command_chain([c1, at(c2, 0, 30), end], (0, 0), 12, 6) == {"c1"}
    assert command_chain([c1, end], (0, 0), 12, 6) == {"c1"}
    gone = replace(c2, status=replace(c2.status, eliminated=True))
    assert command_chain([c1, gone, end], (0, 0), 12, 6) == {"c1"}
    assert command_chain([c1, c2, end], (0, 32), 12, 6) == {"c1", "c2", "end"}
    assert command_chain([c1, c2, end], (0, 60), 12, 6) == set()
    assert command_chain([c1, c2, end], (0, 0), 12, 3) == {"c1"}
    forget_kept()


def test_command_range_and_chain() -> None:
    """Commanders: units must be within 4 MF (12") of their commander or trace a chain of
    affiliated units no further apart than 2 MF (6"); otherwise out of command."""
    near = at(unit("roman_hastati", 12, 0, uid="near"), 0, 10)
    c1 = at(unit("roman_hastati", 12, 0, uid="c1"), 0, 16)
    c2 = at(unit("roman_hastati", 12, 0, uid="c2"), 0, 22)
    linked = at(unit("roman_hastati", 12, 0, uid="linked"), 0, 30)
    lost = at(unit("roman_hastati", 12, 0, uid="lost"), 0, 40)
    group = [near, c1, c2, linked, lost]
    assert command_reach(linked, group, (0, 0), 12, 6)
    assert not command_reach(lost, group, (0, 0), 12, 6)
    assert not command_reach(linked, [near, linked], (0, 0), 12, 6)
    v = view(group)
    assert M.in_command(linked, v, commander_at=(0.0, 0.0))
    assert not M.in_command(linked, v, commander_at=(0.0, 0.0), group=["near", "linked"])
    led = with_leader(near)
    v = view([led, c1, c2, linked, lost])
    assert M.in_command(linked, v) and not M.in_command(lost, v)
    res = M.resolve(
        "command_check", Situation(actor=lost, others=(led, c1, c2, linked)), ScriptedDice([])
    )
    assert res.outcome.attacker.markers_add == frozenset({"out_of_command"})
    res = M.resolve(
        "command_check",
        Situation(
            actor=lost,
            others=(c1,),
            options={"commander_detached": True, "commander_x": 0, "commander_y": 30},
        ),
        ScriptedDice([]),
    )
    assert res.outcome.attacker.markers_remove == frozenset({"out_of_command"})
    with pytest.raises(ValueError, match="commander"):
        M.in_command(lost, view([lost]))


def test_geometry_gap() -> None:
    a = at(unit("roman_hastati", 12, 0), 0, 0, 4, 2)
    b = at(unit("roman_hastati", 12, 0), 0, 5, 4, 2, facing=90)  # rotated: spans y 3..7
    assert gap(a.footprint.corners(), b.footprint.corners()) == pytest.approx(2)
    c = at(unit("roman_hastati", 12, 0), 1, 0.5, 4, 2)
    assert gap(a.footprint.corners(), c.footprint.corners()) == 0


# --------------------------------------------------------------------------- exact odds


def test_melee_odds_worked_example() -> None:
    """d12+1 (fury) against d10: the Celts lose casualties only when the Hastati cast 2 or
    more above them."""
    h, c = unit("roman_hastati", 12, 0), unit("celtic_swordsmen", 16, 1)
    odds = M.odds("melee", Situation(actor=c, target=h))
    assert_odds_sum_to_one(odds)
    p_celts_lose = sum(p for o, p in odds.items() if o.attacker.casualties)
    assert p_celts_lose == Fraction(
        sum(1 for a in range(2, 14) for d in range(1, 11) if d - a >= 2), 120
    )
    recoil = sum(p for o, p in odds.items() if o.defender.move)
    assert recoil == Fraction(sum(1 for a in range(2, 14) for d in range(1, 11) if a - d >= 2), 120)


TROOPS = sorted(RS.troops)
PELTASTS = {t for t in TROOPS if M.troop(t).light_class == "peltast"}


def _size(troop: str) -> int:
    return 12 if troop == "elephants" else 16


@st.composite
def melee_cases(draw: st.DrawFn) -> Situation:
    a_troop = draw(st.sampled_from(TROOPS))
    d_troop = draw(st.sampled_from(TROOPS))
    units = []
    for troop, side in ((a_troop, 0), (d_troop, 1)):
        size = _size(troop)
        tr = M.troop(troop)
        formation = (
            draw(st.sampled_from(["formed", "skirmish"])) if tr.formation == "either" else None
        )
        u = unit(
            troop,
            size,
            side,
            rings=draw(st.integers(0, 9)),
            strength=draw(st.integers(size // 3, size)),
        )
        if formation:
            u = replace(u, status=replace(u.status, formation=formation))
        if draw(st.booleans()):
            u = with_leader(u, draw(st.sampled_from(["Marcus", "Scipio"])))
        units.append(u)
    options: dict[str, Any] = {
        "initial_attack": draw(st.sampled_from(["auto", "yes", "no"])),
        "flank": draw(st.booleans()),
        "defender_flank": draw(st.booleans()),
        "downhill": draw(st.booleans()),
        "wood_edge": draw(st.booleans()),
        "defender_crossing": draw(st.booleans()),
        "pre_melee": draw(st.sampled_from(["status", "none", "attacker", "defender"])),
        "elephant_round": draw(st.integers(0, 4)),
    }
    if a_troop in PELTASTS:
        options["attacker_volleyed"] = draw(st.booleans())
    return Situation(actor=units[0], target=units[1], options=options)


@settings(max_examples=150, deadline=None)
@given(melee_cases())
def test_melee_odds_sum_to_one(sit: Situation) -> None:
    odds = M.odds("melee", sit)
    assert_odds_sum_to_one(odds)
    res = M.resolve("melee", sit, SeededDice(str(sit.options)))
    assert res.outcome in odds


SHOOTERS = [t for t in TROOPS if M.troop(t).shoots]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(SHOOTERS),
    st.sampled_from(TROOPS),
    st.integers(1, 16),
    st.sampled_from(["short", "long"]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(0, 30),
)
def test_shoot_odds_sum_to_one(
    shooter: str,
    target: str,
    firing: int,
    rng: str,
    cover: bool,
    crossing: bool,
    flank: bool,
    distance: int,
) -> None:
    sit = Situation(
        actor=unit(shooter, 16, 1, strength=firing)
        if shooter != "elephants"
        else unit(shooter, 12, 1, strength=min(firing, 12)),
        target=unit(target, _size(target), 0),
        options={
            "range": rng,
            "cover": cover,
            "crossing": crossing,
            "flank": flank,
            "distance": distance,
        },
    )
    odds = M.odds("shoot", sit)
    assert_odds_sum_to_one(odds)
    assert M.resolve("shoot", sit, SeededDice(firing)).outcome in odds


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TROOPS), st.sampled_from(TROOPS), st.booleans())
def test_pre_melee_and_trample_odds_sum_to_one(a: str, d: str, used: bool) -> None:
    sit = Situation(
        actor=unit(a, _size(a), 0), target=unit(d, _size(d), 1, extra={"volley_used": used})
    )
    assert_odds_sum_to_one(M.odds("pre_melee", sit))
    mad = unit("elephants", 12, 1, strength=2, markers=frozenset({"berserk"}))
    assert_odds_sum_to_one(M.odds("trample", Situation(actor=mad, target=unit(d, _size(d), 0))))


FREQUENCY_CASES = [
    ("melee", "celtic_swordsmen", "roman_hastati", {}),
    ("melee", "carthaginian_phalanx", "roman_principes", {}),
    ("melee", "elephants", "roman_hastati", {}),
    ("melee", "roman_equites", "celtic_noble_cavalry", {"flank": True}),
    ("shoot", "moroccan_archers", "roman_hastati", {}),
    ("shoot", "balearic_slingers", "roman_velites", {"range": "long"}),
    ("pre_melee", "roman_hastati", "celtic_swordsmen", {}),
    ("evade", "balearic_slingers", "roman_hastati", {"needed": 2}),
]


@pytest.mark.parametrize(("action", "a", "d", "options"), FREQUENCY_CASES)
def test_frequencies_match_exact_odds(action: str, a: str, d: str, options: dict[str, Any]) -> None:
    actor = unit(a, _size(a), 1)
    target = unit(d, _size(d), 0)
    if a == "elephants" and d == "roman_hastati":
        target = with_leader(target)  # the risk roll rides along
    assert_frequencies_match(
        M, action, Situation(actor=actor, target=target, options=options), n=3000
    )


def test_trample_frequencies() -> None:
    mad = unit("elephants", 12, 1, strength=3, markers=frozenset({"berserk"}))
    assert_frequencies_match(
        M, "trample", Situation(actor=mad, target=unit("roman_triarii", 12, 0)), n=3000
    )


def test_odds_timing() -> None:
    """PRODUCT.md: under 10 ms per matchup; the worst case (a pike phalanx's initial attack,
    d12+d6, against every troop) must stay well under a generous 50 ms."""
    worst = 0.0
    p = with_leader(unit("carthaginian_phalanx", 36, 1), "Hannibal")
    for d in TROOPS:
        sit = Situation(actor=p, target=with_leader(unit(d, _size(d), 0)), options={"flank": True})
        t0 = time.perf_counter()
        M.odds("melee", sit)
        worst = max(worst, time.perf_counter() - t0)
    t0 = time.perf_counter()
    M.odds(
        "shoot",
        Situation(actor=unit("moroccan_archers", 16, 1), target=unit("roman_hastati", 12, 0)),
    )
    worst = max(worst, time.perf_counter() - t0)
    assert worst < 0.05, f"worst matchup took {worst * 1000:.1f} ms"


def test_arc_of_fire_helper() -> None:
    """Arc of fire: 90 degrees to the front, measured from the centre of the stand."""
    s = at(unit("balearic_slingers", 12, 1), 0, 0, facing=180)  # facing -y
    assert in_arc(s, at(unit("roman_hastati", 12, 0), 0, -10), T.missile_ranges.arc_degrees)
    assert in_arc(s, at(unit("roman_hastati", 12, 0), 9, -10), 90)
    assert not in_arc(s, at(unit("roman_hastati", 12, 0), 11, -10), 90)
    assert not in_arc(s, at(unit("roman_hastati", 12, 0), 0, 10), 90)


def test_last_elephant_in_melee_goes_berserk_without_recoil() -> None:
    """A melee casualty on the last elephant sends it berserk; it does not recoil, and the
    enemy has forced no recoil (no d12 for initiative)."""
    e = unit("elephants", 12, 1, strength=3)
    h = unit("roman_hastati", 12, 0)
    res = run("melee", h, e, [("d10", (10,)), ("d12", (1,))], elephant_round=4)
    d = res.outcome.defender
    assert "berserk" in d.markers_add and d.move == "goes berserk" and d.rings == 1
    assert res.sides == (None, None)


def test_rampage_order_and_death() -> None:
    """The elephant meets the units in its path nearest first and stops when killed."""
    mad = at(unit("elephants", 12, 1, strength=1, markers=frozenset({"berserk"})), 0, 0, 2, 4)
    near = at(unit("roman_hastati", 12, 0, uid="near"), 0, -3)
    far = at(unit("roman_principes", 12, 0, uid="far"), 0, -8)
    straggler = at(
        unit("roman_velites", 12, 0, uid="str", markers=frozenset({"straggler"})), 0, -14
    )
    script = [("d8", (1,)), ("d6", (6,)), ("d12+2", (2,)), ("d10", (9,))]
    res = M.resolve(
        "rampage",
        Situation(actor=mad, view=view([mad, far, straggler, near])),
        ScriptedDice(script),
    )
    assert [c.unit_id for c in res.others] == ["near"]
    assert res.outcome.attacker.eliminated and any("rampage ends" in x for x in res.explanation)
    res = M.resolve(
        "rampage",
        Situation(actor=mad, others=(far, straggler, near)),
        ScriptedDice(
            [
                ("d8", (1,)),
                ("d6", (6,)),
                ("d12+2", (6,)),
                ("d10", (5,)),
                ("d12+2", (6,)),
                ("d12", (8,)),
                ("d12+2", (1,)),
            ]
        ),
    )
    assert [c.unit_id for c in res.others] == ["near", "far", "str"]
    assert res.others[2].effects.casualties == 1  # stragglers cast nothing: 3 v 0


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([t for t in TROOPS if M.troop(t).formation != "formed"]),
    st.sampled_from(TROOPS),
    st.integers(0, 7),
    st.booleans(),
)
def test_evade_odds_sum_to_one(evader: str, attacker: str, needed: int, exit_open: bool) -> None:
    e = unit(evader, _size(evader), 1, formation="skirmish")
    a = unit(attacker, _size(attacker), 0, formation="formed")
    odds = M.odds(
        "evade", Situation(actor=e, target=a, options={"needed": needed, "exit_open": exit_open})
    )
    assert_odds_sum_to_one(odds)


def test_out_of_command_units_make_no_aggressive_act() -> None:
    """Out of command: a unit cannot move and may make no aggressive act, but may defend."""
    lost = unit("roman_velites", 12, 0, markers=frozenset({"out_of_command"}))
    c = unit("celtic_swordsmen", 16, 1)
    with pytest.raises(ValueError, match="out of command"):
        M.odds("melee", Situation(actor=lost, target=c))
    with pytest.raises(ValueError, match="out of command"):
        M.odds("shoot", Situation(actor=lost, target=c))
    assert_odds_sum_to_one(M.odds("melee", Situation(actor=c, target=lost)))
    assert_odds_sum_to_one(
        M.odds("shoot", Situation(actor=lost, target=c, options={"pass_through": True}))
    )


# --------------------------------------------------------------------------- forced moves


def test_melee_loser_recoils_directly_away_from_the_victor() -> None:
    """Melee: the side that lost casualties recoils 4 MF (12") directly away from the victor,
    still facing it. The core makes the move (``Effects.shift``): the bearing runs from the
    victor's centre through the loser's, the distance is the tables' recoil; the winner
    stays where it is. Resolve and odds give the same outcome, shift and all."""
    recoil = T.melee_resolution.recoil_move_factors * T.movement.inches_per_move_factor
    assert recoil == T.melee_resolution.recoil_inches == 12
    h = at(unit("roman_hastati", 12, 0), 10, 10)  # facing +y
    # in contact with the Hastati's front, 1.5" to their right
    c = at(unit("celtic_swordsmen", 16, 1), 11.5, 12, facing=180)
    sit = Situation(actor=c, target=h)
    res = run("melee", c, h, [("d12", (9,)), ("d10", (3,))])  # 10 v 3: the Hastati lose
    d = res.outcome.defender
    assert d.move == 'recoils 4 MF (12")' and d.shift is not None
    assert d.shift == pytest.approx((bearing(11.5, 12, 10, 10), recoil))
    assert d.shift[0] == pytest.approx(180 + 36.8698976)  # back and to the left
    assert res.outcome.attacker.shift is None
    assert res.outcome in M.odds("melee", sit)
    res = run("melee", c, h, [("d12", (1,)), ("d10", (9,))])  # 2 v 9: the Celts lose
    assert res.outcome.defender.shift is None
    assert res.outcome.attacker.shift == pytest.approx((bearing(10, 10, 11.5, 12), recoil))
    assert res.outcome in M.odds("melee", sit)
    # a drawn round: nobody moves
    res = run("melee", c, h, [("d12", (4,)), ("d10", (5,))])
    assert res.outcome.attacker.shift is None and res.outcome.defender.shift is None
    # centres that coincide (no positions): the loser goes straight back to its rear
    turned = replace(unit("roman_hastati", 12, 0), facing=30)
    res = run("melee", unit("celtic_swordsmen", 16, 1), turned, [("d12", (9,)), ("d10", (3,))])
    assert res.outcome.defender.shift == pytest.approx((210, recoil))


def test_recoil_of_a_trampled_unit_and_no_recoil_when_destroyed_or_berserk() -> None:
    """A unit a berserk elephant tramples recoils away from it; a unit destroyed, or an
    elephant unit gone berserk, does not move."""
    mad = at(unit("elephants", 12, 1, strength=3, markers=frozenset({"berserk"})), 0, 0, 2, 4)
    h = at(unit("roman_hastati", 12, 0), 0, -4)
    res = run("trample", mad, h, [("d12+2", (10,)), ("d10", (4,))])
    assert res.outcome.defender.shift == pytest.approx((180, 12))
    assert res.outcome.attacker.shift is None
    last = at(unit("roman_hastati", 12, 0, strength=1), 0, -4)
    celts = at(unit("celtic_swordsmen", 16, 1), 0, -2, facing=180)
    res = run("melee", celts, last, [("d12", (12,)), ("d8", (1,))])
    assert res.outcome.defender.eliminated and res.outcome.defender.shift is None
    e = at(unit("elephants", 12, 1, strength=3), 0, -1, 2, 4, 180)  # touching h's front
    res = run("melee", h, e, [("d10", (10,)), ("d12", (1,))], elephant_round=4)
    assert res.outcome.defender.move == "goes berserk" and res.outcome.defender.shift is None


def test_stragglers_retire_back_until_a_friendly_unit_behind() -> None:
    """Attrition: a unit brought down to 25% moves back 4 MF at once, or until it meets a
    friendly line or unit behind it. After a lost melee that comes on top of the recoil;
    an enemy behind, or a friend off to the side, does not stop it."""
    retire = T.stragglers.retire_move_factors * T.movement.inches_per_move_factor
    assert retire == T.stragglers.retire_inches == 12
    h = at(unit("roman_hastati", 12, 0, uid="h", strength=5), 0, 0)
    c = at(unit("celtic_swordsmen", 16, 1, uid="c"), 0, 2, facing=180)
    script = [("d12", (7,)), ("d10", (4,))]  # 8 v 4: 2 lost, 3 left = 25%
    res = run("melee", c, h, script)
    d = res.outcome.defender
    assert "straggler" in d.markers_add
    assert d.move == 'recoils 4 MF (12") and retires as stragglers (4 MF (12"))'
    assert d.shift == pytest.approx((180, 12 + retire))
    behind = at(unit("roman_principes", 12, 0, uid="p"), 0, -20)  # front edge at y = -19
    aside = at(unit("roman_triarii", 6, 0, uid="t"), 10, -14)
    enemy = at(unit("libyan_javelins", 12, 1, uid="l"), 0, -16)
    sit = Situation(actor=c, target=h, view=view([h, c, behind, aside, enemy]))
    res = M.resolve("melee", sit, ScriptedDice(script))
    d = res.outcome.defender
    # recoiled to y = -12 (rear edge -13), then back until it meets the Principes at -19
    assert d.shift == pytest.approx((180, 18))
    assert d.move.endswith('retires as stragglers (6", up to the friendly unit behind)')
    assert res.outcome in M.odds("melee", sit)
    # the attrition sweep and a straggler falling back before an enemy move the same way
    tired = at(unit("roman_hastati", 12, 0, uid="h", strength=3), 0, -10)
    res = M.end_phase(view([tired, behind, c], phase="attrition"), ScriptedDice([]))
    (change,) = res.others
    assert change.effects.shift == pytest.approx((180, 8))
    assert change.effects.move == 'retires as stragglers (8", up to the friendly unit behind)'
    res = M.end_phase(view([replace(tired, y=40), c], phase="attrition"), ScriptedDice([]))
    assert res.others[0].effects.shift == pytest.approx((180, retire))
    straggler = after(h, d)
    weary = unit("celtic_swordsmen", 16, 1, strength=15)
    res = run("melee", weary, straggler, [])
    assert res.outcome.result == "stragglers fall back"
    assert res.outcome.defender.shift == pytest.approx((180, retire))


def test_stragglers_made_by_missiles_retire() -> None:
    """Missiles that bring a unit down to 25% send it back 4 MF as stragglers: every such
    outcome of the exact odds carries the move to the unit's rear."""
    s = at(unit("balearic_slingers", 12, 1), 0, 8, facing=180)
    h = at(unit("roman_hastati", 12, 0, strength=5), 0, 0, facing=90)
    odds = M.odds("shoot", Situation(actor=s, target=h))
    made = [o for o in odds if "straggler" in o.defender.markers_add]
    assert made and all(o.defender.shift == pytest.approx((270, 12)) for o in made)
    assert all(o.defender.shift is None for o in odds if o not in made)
    assert_frequencies_match(M, "shoot", Situation(actor=s, target=h), n=1500)


def test_evaders_withdraw_directly_away_from_the_attacker() -> None:
    """Evasion: the skirmishers withdraw one MF per point they cast above the attacker,
    directly away from it; a failed evasion moves nobody."""
    s = at(unit("balearic_slingers", 12, 1), 0, 0, facing=180)
    h = at(unit("roman_hastati", 12, 0), -3, -4)
    res = run("evade", s, h, [("d10", (9,)), ("d6", (2,))])
    assert res.outcome.attacker.shift == pytest.approx((bearing(-3, -4, 0, 0), 4 * 3))
    res = run("evade", s, h, [("d10", (2,)), ("d6", (5,))])
    assert res.outcome.attacker.shift is None


def test_frequencies_match_exact_odds_with_positions() -> None:
    """With units placed on the table (the recoil's bearing and a straggler's retreat
    depend on where everyone stands) the resolver's outcomes are still those of the
    exact odds."""
    h = at(unit("roman_hastati", 12, 0, uid="h", strength=6), 10, 10)
    c = at(unit("celtic_swordsmen", 16, 1, uid="c"), 12, 12, facing=180)  # touching h
    p = at(unit("roman_principes", 12, 0, uid="p"), 10, -8)
    sit = Situation(actor=c, target=h, view=view([h, c, p]))
    odds = assert_frequencies_match(M, "melee", sit, n=3000)
    assert any(o.defender.shift and "straggler" in o.defender.markers_add for o in odds)


def test_clear_run_geometry() -> None:
    """How far a footprint goes before it meets another: along the heading, stopped at
    first contact, not by a unit beside its path or one it already overlaps."""
    mover = at(unit("roman_hastati", 12, 0), 0, 0).footprint  # 4 x 2, facing +y
    ahead = at(unit("roman_principes", 12, 0), 1, 10)
    beside = at(unit("roman_triarii", 6, 0), 5, 5)
    touching = at(unit("roman_velites", 12, 0), 0, 1.5)
    assert clear_run(mover, 0, 20, [ahead, beside]) == pytest.approx(8)
    assert clear_run(mover, 0, 5, [ahead]) == 5
    assert clear_run(mover, 180, 20, [ahead, touching]) == 20
    turned = at(unit("roman_principes", 12, 0), 10, 0, facing=90)  # 2 wide along x
    assert clear_run(mover, 90, 20, [turned]) == pytest.approx(7)
    assert as_shift(0, 0) is None
    assert as_shift(0, -3) == (180, 3)


def test_missiles_only_within_the_arc_of_fire() -> None:
    """Missilery: units shoot in a 90-degree arc to their front, measured from the centre of
    the stand. A target behind the slingers, or off to their side, cannot be shot at."""
    slingers = at(unit("balearic_slingers", 12, 1), 20, 20, facing=0)  # facing +y
    ahead = at(unit("roman_hastati", 12, 0), 22, 28)
    behind = at(unit("roman_hastati", 12, 0), 20, 12)
    beside = at(unit("roman_hastati", 12, 0), 30, 21)
    res = run("shoot", slingers, ahead, [("2d8", (1, 8))], range="long")
    assert res.outcome.defender.casualties > 0 and "arc" not in res.outcome.result
    for target in (behind, beside):
        res = run("shoot", slingers, target, [], range="long")
        assert res.outcome.defender.is_empty and "arc" in res.outcome.result
        assert M.odds("shoot", Situation(actor=slingers, target=target)) == {res.outcome: 1}
