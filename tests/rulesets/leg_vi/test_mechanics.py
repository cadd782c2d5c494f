"""Leg VI Carthago mechanics (app/rulesets/leg_vi/mechanics.py), checked against the
source (seeds/001_1ffb8d4b557d8999.txt) and the errata decisions in errata.toml. Each test's
docstring restates the rule it checks in our own words."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.dice import ScriptedDice, SeededDice
from app.rules.geometry import bearing
from app.rules.mechanics import (
    Combatant,
    LeaderView,
    Situation,
    Status,
    TurnView,
    mechanics_for,
)
from app.rules.ruleset import Ruleset
from app.rulesets.leg_vi.combat_rules import combat_dice, hit_faces
from app.rulesets.leg_vi.fates import elephant_fate_dist
from app.rulesets.leg_vi.mechanics import LegVIMechanics
from app.rulesets.leg_vi.schema import tables
from app.rulesets.leg_vi.units import DpResult, IllegalAction, position_key, result_band, take_dps
from tests.rules.mechanics_harness import (
    assert_frequencies_match,
    assert_odds_sum_to_one,
    combatant,
)

COMMAND, SKIRMISH, MANOEUVRE, CHARGE, COMBAT, AFTER, RALLY = range(7)


@pytest.fixture(scope="module")
def mech(rs: Ruleset) -> LegVIMechanics:
    assert type(mechanics_for(rs)) is LegVIMechanics
    return LegVIMechanics(rs)


def unit(mech: LegVIMechanics, troop: str, size: int, **kw: Any) -> Combatant:
    return combatant(mech, troop, size, **kw)


def placed(c: Combatant, x: float, y: float, facing: float = 0.0) -> Combatant:
    """A unit on the table with a 20mm-base footprint (in inches)."""
    bases = c.status.strength if c.status.formation != "column" else 1
    return Combatant(
        c.unit_id,
        c.name,
        c.troop,
        c.side,
        c.status,
        c.leader,
        c.army,
        x,
        y,
        facing,
        width=0.8 * bases,
        depth=0.8,
    )


def view(
    *units: Combatant,
    turn: int = 1,
    phase: int = COMMAND,
    sides: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
) -> TurnView:
    return TurnView(
        turn, phase, 0, tuple(units), sides, ("roman", "carthaginian"), ("Rome", "Carthage")
    )


def script(*rolls: tuple[str, tuple[int, ...]]) -> ScriptedDice:
    return ScriptedDice(list(rolls))


def general(**kw: Any) -> LeaderView:
    return LeaderView(id="scipio", name="Scipio", rank="general", **kw)


def commander(**kw: Any) -> LeaderView:
    return LeaderView(id="mago", name="Mago", rank="commander", **kw)


def melee(mech: LegVIMechanics, a: Combatant, d: Combatant, dice: ScriptedDice, **opts: Any) -> Any:
    res = mech.resolve("melee", Situation(actor=a, target=d, options=opts), dice)
    assert dice.exhausted
    return res


# --------------------------------------------------------------------------- set-up, DPs


def test_initial_status(mech: LegVIMechanics) -> None:
    """Strength counts bases; a 10-base legion stands in three-line quincunx; light troops
    are always unformed; others start in line; elephants are always C grade."""
    leg = mech.initial_status("mi", 10, "B")
    assert (leg.strength, leg.formation, leg.extra["lines"]) == (10, "quincunx", 3)
    assert mech.initial_status("mi", 4, "B").formation == "line"
    assert mech.initial_status("li", 6, "C").formation == "unformed"
    el = mech.initial_status("el", 1, None)
    assert (el.grade, el.formation) == ("C", None)
    assert mech.strength_unit == "bases" and mech.engine == "leg-vi"


def test_shaken_thresholds(mech: LegVIMechanics) -> None:
    """A unit is shaken at 5 DPs; a legion in quincunx one more for each line beyond the
    first (6 with two lines, 7 with three)."""
    t = mech.t
    assert mech.u(unit(mech, "hi", 4)).shaken_at == 5
    assert mech.u(unit(mech, "mi", 10)).shaken_at == 7
    two = unit(mech, "mi", 10, extra={"lines": 2})
    assert mech.u(two).shaken_at == 6
    in_line = unit(mech, "mi", 10, formation="line")
    assert mech.u(in_line).shaken_at == t.dp_limits.shaken_at


def test_dps_turn_into_casualties_once_shaken(mech: LegVIMechanics) -> None:
    """Reaching the threshold makes a unit shaken; each further DP from shooting, combat or
    morale removes a base. Fatigue DPs stop at 3 DPs in all."""
    u = mech.u(unit(mech, "hi", 4, dps=4))
    assert take_dps(u, 3, "combat") == DpResult(dps=1, casualties=2, shaken=True)
    assert take_dps(u, 1, "morale") == DpResult(dps=1, shaken=True)
    shaken = mech.u(unit(mech, "hi", 4, dps=5, markers=frozenset({"shaken"})))
    assert take_dps(shaken, 2, "shooting") == DpResult(casualties=2)
    tired = mech.u(unit(mech, "hi", 4, dps=2))
    assert take_dps(tired, 2, "fatigue") == DpResult(dps=1)
    assert take_dps(mech.u(unit(mech, "hi", 4, dps=3)), 2, "fatigue") == DpResult()
    assert take_dps(mech.u(unit(mech, "el", 1)), 3, "combat") == DpResult()


def test_victory_is_declared_by_players(mech: LegVIMechanics) -> None:
    """Leg VI has no victory rule."""
    assert mech.victory(view(unit(mech, "hi", 4))) is None


# --------------------------------------------------------------------------- turn


def test_initiative_rerolls_ties_and_resets_the_turn(mech: LegVIMechanics) -> None:
    """Each turn opens with a D6 each for initiative, ties rolled again (errata
    'initiative-die'); last turn's markers and inspiration go, leaders' actions reset."""
    a = unit(
        mech,
        "mi",
        4,
        uid="a",
        markers=frozenset({"moved", "control_halt", "shaken"}),
        extra={"inspire": 2},
    )
    b = unit(mech, "hi", 4, side=1, uid="b")
    v = view(a, b, sides=({"actions_used:scipio": 2, "leader_did:scipio": "steady"}, {}))
    res = mech.begin_phase(v, script(("d6", (3,)), ("d6", (3,)), ("d6", (2,)), ("d6", (5,))))
    assert res.initiative == 1
    assert res.sides[0]["actions_used:scipio"] == 0 and res.sides[0]["leader_did:scipio"] == ""
    change = {c.unit_id: c.effects for c in res.others}["a"]
    assert change.markers_remove == {"moved", "control_halt"}
    assert change.extra_remove == {"inspire"} and "turn_start" in change.extra
    assert "tie" in res.explanation[0]
    assert mech.begin_phase(view(a, b, phase=SKIRMISH), script()).initiative is None


def test_second_in_command_takes_over(mech: LegVIMechanics) -> None:
    """A killed leader's second in command takes his place the following turn with 1
    action: the side record says when, and the command phase of that turn brings him in."""
    v = view(unit(mech, "mi", 4), turn=3, sides=({"successor:scipio": 3}, {}))
    res = mech.begin_phase(v, script(("d6", (6,)), ("d6", (1,))))
    (event,) = res.leader_events
    assert (event.leader_id, event.status) == ("scipio", "fit")
    assert res.sides[0]["leader_actions:scipio"] == 1 and res.sides[0]["successor:scipio"] == 0
    assert mech.leader_budget(general(), res.sides[0]) == 1


# --------------------------------------------------------------------------- leaders


def test_leader_action_budget(mech: LegVIMechanics) -> None:
    """A General has 2 actions, a Commander 1, an exceptional leader one more; a wound costs
    one action, so a wounded commander can no longer steady or inspire."""
    assert mech.leader_budget(general(), {}) == 2
    assert mech.leader_budget(general(fields={"exceptional": True}), {}) == 3
    assert mech.leader_budget(general(wounds=1), {}) == 1
    assert mech.leader_budget(commander(), {}) == 1
    assert mech.leader_budget(commander(wounds=1), {}) == 0
    c = unit(mech, "mi", 4, dps=2, leader=commander(wounds=1))
    with pytest.raises(IllegalAction, match="no action left"):
        mech.resolve("steady", Situation(actor=c, view=view(c)), script())


def test_leader_move_spends_an_action(mech: LegVIMechanics) -> None:
    """Move (1 action): up to 12 inches in the command phase; the core moves him."""
    c = unit(mech, "mi", 4, leader=general())
    res = mech.resolve("leader_move", Situation(actor=c, view=view(c)), script())
    assert res.sides[0] == {"actions_used:scipio": 1}
    assert '12"' in res.explanation[0]
    c2 = unit(mech, "mi", 4, leader=general())
    with pytest.raises(IllegalAction, match="command phase"):
        mech.resolve("leader_move", Situation(actor=c2, view=view(c2, phase=MANOEUVRE)), script())


def test_steady_removes_a_dp_and_ends_shaken(mech: LegVIMechanics) -> None:
    """Steady (1 action): take 1 DP off the unit, even in combat; a shaken unit steadied is
    no longer shaken; unit and leader then stay halted in the move phases."""
    c = unit(mech, "hi", 4, dps=5, markers=frozenset({"shaken"}), leader=general())
    res = mech.resolve("steady", Situation(actor=c, view=view(c)), script())
    eff = res.outcome.attacker
    assert (eff.dps, eff.markers_remove, eff.markers_add) == (-1, {"shaken"}, {"steadied"})
    after = c.status.apply(eff)
    assert after.dps == 4 and not after.has("shaken")
    assert mech.move_allowance(Combatant("x", "x", "hi", 0, after)) == 0.0


def test_no_steady_and_inspire_in_one_turn(mech: LegVIMechanics) -> None:
    """A two-action leader may steady twice or inspire twice, but not both in one turn."""
    c = unit(mech, "hi", 4, dps=2, leader=general())
    v = view(c, sides=({"actions_used:scipio": 1, "leader_did:scipio": "steady"}, {}))
    with pytest.raises(IllegalAction, match="may not steady and inspire"):
        mech.resolve("inspire", Situation(actor=c, view=v), script())
    res = mech.resolve("steady", Situation(actor=c, view=v), script())
    assert res.sides[0]["actions_used:scipio"] == 2


def test_inspire_adds_combat_dice_up_to_two(mech: LegVIMechanics) -> None:
    """Inspire: +1 combat die for each inspire action, at most +2, for this turn."""
    c = unit(mech, "mi", 4, grade="C", leader=general())
    res = mech.resolve("inspire", Situation(actor=c, view=view(c)), script())
    assert res.outcome.attacker.extra == {"inspire": 1}
    twice = unit(mech, "mi", 4, grade="C", leader=general(), extra={"inspire": 2})
    with pytest.raises(IllegalAction, match="limit"):
        mech.resolve("inspire", Situation(actor=twice, view=view(twice)), script())
    enemy = unit(mech, "mi", 4, grade="C", side=1)
    s = mech._melee_sides(Situation(actor=twice, target=enemy, options={"charge": "none"}))[0]
    assert combat_dice(mech.t, s)[0] == 4 + 2


# --------------------------------------------------------------------------- control


@pytest.mark.parametrize(
    ("troop", "grade", "die"),
    [
        ("li", "C", "avd"),
        ("lc", "D", "avd"),
        ("mi", "A", "avd"),
        ("mi", "B", "d6"),
        ("el", None, "d6"),
    ],
)
def test_control_test_die(mech: LegVIMechanics, troop: str, grade: str | None, die: str) -> None:
    """Roll 1 AvD for light troops and A grade units, 1 D6 for all others."""
    c = unit(mech, troop, 1 if troop == "el" else 4, grade=grade)
    faces = (3,) if die == "avd" else (4,)
    res = mech.resolve("control_test", Situation(actor=c), script((die, faces)))
    assert res.outcome.attacker.markers_add == {"control_free"}


@pytest.mark.parametrize(
    ("roll", "marker"),
    [
        (1, "control_halt"),
        (2, "control_halt"),
        (3, "control_free"),
        (4, "control_free"),
        (5, "control_repeat"),
        (6, "control_repeat"),
    ],
)
def test_control_test_bands(mech: LegVIMechanics, roll: int, marker: str) -> None:
    """1-2 halt for the turn (no charge), 3-4 act as wished, 5-6 repeat the last move."""
    c = unit(mech, "mi", 4, grade="C")
    res = mech.resolve("control_test", Situation(actor=c), script(("d6", (roll,))))
    assert res.outcome.attacker.markers_add == {marker}


def test_control_test_modifiers(mech: LegVIMechanics) -> None:
    """+1 if charging, looting, routing or pursuing (off the table counts as the end band,
    errata 'control-test-range'); pursuit goes on only on 5 or more. An attached leader may
    shift the score by 1 after the roll."""
    chaser = unit(mech, "mi", 4, grade="C", markers=frozenset({"pursuing"}))
    res = mech.resolve("control_test", Situation(actor=chaser), script(("d6", (3,))))
    assert res.outcome.attacker.markers_remove == {"pursuing"}
    res = mech.resolve("control_test", Situation(actor=chaser), script(("d6", (6,))))
    assert res.outcome.attacker.markers_add == {"control_repeat"}
    assert not res.outcome.attacker.markers_remove
    led = unit(mech, "mi", 4, grade="C", leader=general())
    res = mech.resolve("control_test", Situation(actor=led), script(("d6", (2,))))
    assert res.outcome.attacker.markers_add == {"control_free"}
    res = mech.resolve(
        "control_test", Situation(actor=led, options={"prefer": "none"}), script(("d6", (2,)))
    )
    assert res.outcome.attacker.markers_add == {"control_halt"}
    odds = mech.odds("control_test", Situation(actor=led))
    assert_odds_sum_to_one(odds)
    free = sum(p for o, p in odds.items() if "control_free" in o.attacker.markers_add)
    assert free == Fraction(4, 6)  # 2 (+1), 3, 4 and 5 (-1); a 1 or a 6 cannot reach 3-4


def test_control_test_odds_match_resolver(mech: LegVIMechanics) -> None:
    c = unit(mech, "li", 4, grade="C", markers=frozenset({"routing", "shaken"}))
    assert_frequencies_match(mech, "control_test", Situation(actor=c), n=1500)


# --------------------------------------------------------------------------- movement


def test_march_moves(mech: LegVIMechanics) -> None:
    """March move beyond 8 inches of enemy: 8 inches for infantry and elephants, 12 for
    cavalry; closer, dice decide; units halted by a control test do not move."""
    enemy = placed(unit(mech, "hi", 4, side=1, uid="e"), 0, 30)
    for troop, allowance in (("mi", 8.0), ("el", 8.0), ("lc", 12.0), ("mc", 12.0)):
        c = placed(unit(mech, troop, 1 if troop == "el" else 4, uid="u"), 0, 0)
        assert mech.move_allowance(c, view(c, enemy)) == allowance
    near = placed(unit(mech, "mi", 4, uid="u"), 0, 23)
    assert mech.move_allowance(near, view(near, enemy)) is None
    halted = unit(mech, "mi", 4, markers=frozenset({"control_halt"}))
    assert mech.move_allowance(halted) == 0.0
    chasing = unit(mech, "mi", 4, markers=frozenset({"pursuing"}))
    assert mech.move_allowance(chasing) is None


@pytest.mark.parametrize(
    ("troop", "formation", "dps", "faces", "fatigue"),
    [
        ("hi", "line", 0, (5, 5), 2),  # HI in line: every die of 5-6, the AvD too
        ("hi", "line", 2, (5, 6), 1),  # never past 3 DPs
        ("hi", "column", 0, (5, 6), 0),  # no fatigue in column
        ("triarii", "line", 0, (5, 5), 0),  # triarii tire like MI, on a 6
        ("mi", "line", 0, (5, 6), 1),
        ("mi", "quincunx", 0, (4, 6), 1),
        ("li", "unformed", 0, (5, 6), 0),
        ("el", None, 0, (5, 6), 0),
    ],
)
def test_dice_move_fatigue(
    mech: LegVIMechanics,
    troop: str,
    formation: str | None,
    dps: int,
    faces: tuple[int, int],
    fatigue: int,
) -> None:
    """Dice moves: AvD + optional D6 inches. Fatigue: HI in line (not triarii) a DP per
    move die of 5-6, other formed troops in line or quincunx on a 6; nothing for elephants,
    unformed troops or columns; none once a unit has 3 DPs (errata 'fatigue-which-die')."""
    size = 10 if formation == "quincunx" else 1 if troop == "el" else 4
    c = unit(mech, troop, size, dps=dps, formation=formation)
    res = mech.resolve(
        "dice_move", Situation(actor=c), script(("avd", (faces[0],)), ("d6", (faces[1],)))
    )
    assert res.outcome.attacker.dps == fatigue
    assert res.outcome.attacker.move == f'move {sum(faces)}"'
    assert "moved" in res.outcome.attacker.markers_add


def test_cavalry_third_die_and_rout_bonus(mech: LegVIMechanics) -> None:
    """Cavalry may add a third D6 only if it moved earlier in the turn; evade, rout, retire
    and pursue roll every die (errata 'maximum-dice'); first rout and retire moves add 1
    inch a die."""
    cav = unit(mech, "lc", 4, markers=frozenset({"moved"}))
    res = mech.resolve(
        "dice_move",
        Situation(actor=cav, options={"third_d6": True}),
        script(("avd", (3,)), ("d6", (4,)), ("d6", (6,))),
    )
    assert res.outcome.attacker.move == 'move 13"'
    fresh = unit(mech, "lc", 4)
    res = mech.resolve(
        "dice_move",
        Situation(actor=fresh, options={"third_d6": True}),
        script(("avd", (3,)), ("d6", (4,))),
    )
    assert res.outcome.attacker.move == 'move 7"'
    router = unit(mech, "mi", 4, markers=frozenset({"routing", "shaken"}))
    res = mech.resolve(
        "dice_move",
        Situation(actor=router, options={"kind": "rout"}),
        script(("avd", (3,)), ("d6", (4,))),
    )
    assert res.outcome.attacker.move == 'rout 9"' and res.outcome.attacker.dps == 0
    res = mech.resolve(
        "dice_move",
        Situation(actor=router, options={"kind": "rout", "first": False}),
        script(("avd", (3,)), ("d6", (4,))),
    )
    assert res.outcome.attacker.move == 'rout 7"'
    short = unit(mech, "mi", 4)
    res = mech.resolve(
        "dice_move", Situation(actor=short, options={"extra_d6": False}), script(("avd", (4,)))
    )
    assert res.outcome.attacker.move == 'move 4"'


def test_dice_move_odds(mech: LegVIMechanics) -> None:
    c = unit(mech, "hi", 4)
    odds = mech.odds("dice_move", Situation(actor=c))
    assert_odds_sum_to_one(odds)
    two = sum(p for o, p in odds.items() if o.attacker.dps == 2)
    assert two == Fraction(1, 6) * Fraction(2, 6)  # AvD 5 and D6 5-6
    assert_frequencies_match(mech, "dice_move", Situation(actor=c), n=1500)


@pytest.mark.parametrize(
    ("troop", "size", "status", "kind", "near", "dps"),
    [
        ("hi", 4, {}, "wheel", "yes", 1),  # HI wheeling within 8 inches
        ("hi", 4, {}, "wheel", "no", 0),
        ("hi", 4, {"formation": "column"}, "wheel", "yes", 0),
        ("triarii", 2, {}, "wheel", "yes", 0),  # triarii manoeuvre as MI
        ("mi", 4, {}, "wheel", "yes", 0),
        ("mi", 4, {}, "change_formation", "yes", 1),
        ("li", 4, {}, "change_formation", "yes", 0),
        ("mc", 4, {}, "about_face", "yes", 1),
        ("mi", 4, {}, "about_face", "yes", 0),
        ("mi", 4, {}, "passage_of_lines", "yes", 1),
        ("hi", 4, {"dps": 3}, "wheel", "yes", 0),  # none past 3 DPs
        ("hi", 4, {}, "rough_terrain", "no", 2),  # formed HI 2, MI and triarii 1
        ("triarii", 2, {}, "rough_terrain", "no", 1),
        ("mi", 4, {"formation": "unformed"}, "rough_terrain", "no", 0),
        ("mc", 4, {}, "light_cover", "no", 1),  # cavalry: 1 DP in light woods
        ("el", 1, {}, "light_cover", "no", 0),
    ],
)
def test_manoeuvre_dps(
    mech: LegVIMechanics,
    troop: str,
    size: int,
    status: dict[str, Any],
    kind: str,
    near: str,
    dps: int,
) -> None:
    """Manoeuvres within 8 inches cost formed troops a DP where listed (wheel: HI not in
    column; change of formation: formed units; about face: formed cavalry; passage of
    lines); rough terrain costs formed HI 2, formed MI and triarii 1, unformed infantry 0;
    light woods cost cavalry 1; no fatigue or manoeuvre DPs once a unit has 3."""
    c = unit(mech, troop, size, **status)
    sit = Situation(actor=c, options={"kind": kind, "enemy_near": near})
    assert mech.resolve("manoeuvre", sit, script()).outcome.attacker.dps == dps


def test_manoeuvre_limits(mech: LegVIMechanics) -> None:
    """Rough terrain is impassable to cavalry and elephants (errata
    'rough-usually-impassable'); side-steps are for A and B grade infantry; legions in
    quincunx open and close ranks."""
    for troop, size in (("mc", 4), ("el", 1)):
        with pytest.raises(IllegalAction, match="impassable"):
            mech.resolve(
                "manoeuvre",
                Situation(actor=unit(mech, troop, size), options={"kind": "rough_terrain"}),
                script(),
            )
    with pytest.raises(IllegalAction, match="A and B"):
        mech.resolve(
            "manoeuvre",
            Situation(actor=unit(mech, "mi", 4, grade="C"), options={"kind": "side_step"}),
            script(),
        )
    leg = unit(mech, "mi", 10)
    res = mech.resolve("manoeuvre", Situation(actor=leg, options={"kind": "open_ranks"}), script())
    assert res.outcome.attacker.markers_add == {"open_ranks"}
    res = mech.resolve(
        "manoeuvre", Situation(actor=leg, options={"kind": "change_formation"}), script()
    )
    assert res.outcome.attacker.formation == "column"


def test_unattached_leader_captured(mech: LegVIMechanics) -> None:
    """An unattached leader contacted by enemy is captured; units within 4 inches take the
    lost leader's morale DPs."""
    stand_in = placed(unit(mech, "mi", 1, uid="stand", leader=general()), 0, 0)
    friend = placed(unit(mech, "mi", 4, uid="f"), 0, -2)
    res = mech.resolve(
        "leader_captured", Situation(actor=stand_in, view=view(stand_in, friend)), script()
    )
    assert res.leader_events[0].status == "captured"
    assert {c.unit_id: c.effects.dps for c in res.others} == {"f": 2}


# --------------------------------------------------------------------------- shooting


def test_shooting_worked_example_formed_hi_frontally(mech: LegVIMechanics) -> None:
    """3 bases shoot at formed HI from the front: 3 dice halved, rounding up, to 2; each 6
    is a DP."""
    li = unit(mech, "li", 3, grade="C")
    hi = unit(mech, "hi", 4, side=1, grade="C")
    res = mech.resolve("shoot", Situation(actor=li, target=hi), script(("2d6", (6, 3))))
    assert res.outcome.defender.dps == 1 and res.outcome.result == "1 hit"
    res = mech.resolve(
        "shoot",
        Situation(actor=li, target=hi, options={"aspect": "flank"}),
        script(("3d6", (6, 6, 1))),
    )
    assert res.outcome.defender.dps == 2


@pytest.mark.parametrize(
    ("target", "size", "opts", "shooter_dps", "dice"),
    [
        ("li", 4, {}, 0, 2),  # light infantry: halved
        ("mi", 4, {"cover": True}, 0, 2),  # cover: halved
        ("mi", 4, {"cover": True, "aspect": "flank"}, 0, 2),  # never halved twice
        ("mi", 4, {}, 0, 3),
        ("mi", 10, {}, 0, 2),  # legion in quincunx, front
        ("mi", 10, {"aspect": "flank"}, 0, 2),
        ("mi", 10, {"aspect": "rear"}, 0, 3),
        ("mi", 4, {}, 1, 2),  # -1 die per shooter DP
        ("mi", 4, {}, 4, 1),  # always at least 1 die
        ("el", 1, {}, 0, 4),  # +1 die at elephants
        ("li", 4, {"bases": 1}, 0, 1),  # 1 base, halved, rounds up
    ],
)
def test_shooting_dice(
    mech: LegVIMechanics, target: str, size: int, opts: dict[str, Any], shooter_dps: int, dice: int
) -> None:
    """1 D6 per base in range; halve (once, round up) at LI, cover, formed HI from the front,
    a quincunx legion's front or flank; -1 die per shooter DP; +1 at elephants; min 1."""
    li = unit(mech, "li", 3, grade="C", dps=shooter_dps)
    d = unit(mech, target, size, side=1)
    _a, _d, n, _why = mech._shoot_parts(Situation(actor=li, target=d, options=opts))
    assert n == dice


def test_only_light_troops_shoot(mech: LegVIMechanics) -> None:
    with pytest.raises(IllegalAction, match="only light troops"):
        mech.resolve(
            "shoot",
            Situation(actor=unit(mech, "mc", 4), target=unit(mech, "mi", 4, side=1)),
            script(),
        )


def test_shooting_at_shaken_unit_removes_bases(mech: LegVIMechanics) -> None:
    """A shaken unit loses a base for each further DP from shooting."""
    li = unit(mech, "lc", 4, grade="C")
    d = unit(mech, "mi", 4, side=1, dps=5, markers=frozenset({"shaken"}))
    res = mech.resolve("shoot", Situation(actor=li, target=d), script(("4d6", (6, 6, 2, 1))))
    assert (res.outcome.defender.dps, res.outcome.defender.casualties) == (0, 2)


def test_shooting_at_elephants_tests_critical_hits(mech: LegVIMechanics) -> None:
    """Elephants take no DPs: each 6 is a critical-hit test (1-2), and a critical rolls
    again: 1-2 destroyed, 3-6 rampage."""
    li = unit(mech, "li", 3, grade="C")
    el = unit(mech, "el", 1, side=1)
    res = mech.resolve(
        "shoot",
        Situation(actor=li, target=el),
        script(("4d6", (6, 6, 1, 2)), ("d6", (4,)), ("d6", (2,)), ("d6", (5,))),
    )
    eff = res.outcome.defender
    assert eff.dps == 0 and "rampage" in eff.markers_add and not eff.eliminated
    res = mech.resolve(
        "shoot",
        Situation(actor=li, target=el),
        script(("4d6", (6, 6, 1, 2)), ("d6", (1,)), ("d6", (2,))),
    )
    assert res.outcome.defender.eliminated


def test_shooting_die_of_death(mech: LegVIMechanics) -> None:
    """A leader whose unit takes a shooting DP rolls the die of death: on a 1 roll again,
    1 killed, 2-4 wounded, 5-6 a flesh wound. A killed leader costs his unit 1 morale DP
    (the General 2) and the second in command comes next turn."""
    li = unit(mech, "li", 4, grade="C")
    d = unit(mech, "mi", 4, side=1, leader=general())
    v = view(li, d, turn=4, phase=SKIRMISH)
    res = mech.resolve(
        "shoot",
        Situation(actor=li, target=d, view=v),
        script(("4d6", (6, 1, 1, 1)), ("d6", (1,)), ("d6", (1,))),
    )
    assert res.outcome.defender.dps == 1 + 2 and res.outcome.result == "1 hit; leader killed"
    (event,) = res.leader_events
    assert (event.status, event.leader_id) == ("killed", "scipio")
    assert res.sides[1] == {"successor:scipio": 5}
    res = mech.resolve(
        "shoot",
        Situation(actor=li, target=d, view=v),
        script(("4d6", (6, 1, 1, 1)), ("d6", (1,)), ("d6", (3,))),
    )
    assert res.leader_events[0].status == "wounded" and res.outcome.defender.dps == 1
    res = mech.resolve(
        "shoot", Situation(actor=li, target=d, view=v), script(("4d6", (5, 1, 1, 1)))
    )  # no DP: no die of death
    assert not res.leader_events
    wounded = unit(mech, "mi", 4, side=1, leader=general(wounds=1))
    res = mech.resolve(
        "shoot",
        Situation(actor=li, target=wounded),
        script(("4d6", (6, 1, 1, 1)), ("d6", (1,)), ("d6", (4,))),
    )
    assert res.leader_events[0].status == "killed"  # a second wound kills


def test_shooting_odds(mech: LegVIMechanics) -> None:
    li = unit(mech, "li", 6, grade="C")
    hi = unit(mech, "hi", 4, side=1, leader=commander())
    odds = assert_frequencies_match(mech, "shoot", Situation(actor=li, target=hi), n=3000)
    killed = sum(p for o, p in odds.items() if "leader killed" in o.result)
    p_any = 1 - Fraction(5, 6) ** 3
    assert killed == p_any * Fraction(1, 36)
    el = unit(mech, "el", 1, side=1)
    assert_frequencies_match(mech, "shoot", Situation(actor=li, target=el), n=3000)


# --------------------------------------------------------------------------- charges


@pytest.mark.parametrize(
    ("charger", "target", "ok"),
    [
        ("li", "li", True),
        ("li", "el", True),
        ("li", "mi", False),
        ("li", "lc", False),
        ("lc", "mc", True),
        ("lc", "li", True),
        ("lc", "mi", False),
        ("lc", "hi", False),
        ("mi", "hi", True),
        ("mc", "li", True),
        ("el", "mi", True),
    ],
)
def test_who_may_charge_whom(mech: LegVIMechanics, charger: str, target: str, ok: bool) -> None:
    """Light infantry charge only LI or elephants; light cavalry only cavalry or unformed
    troops; others anything."""
    a = unit(mech, charger, 1 if charger == "el" else 4)
    d = unit(mech, target, 1 if target == "el" else 4, side=1)
    sit = Situation(actor=a, target=d)
    if ok:
        assert mech.resolve("charge", sit, script()).outcome.result in (
            "contact",
            "elephant passes through",
        )
    else:
        with pytest.raises(IllegalAction, match="may charge only"):
            mech.resolve("charge", sit, script())


@pytest.mark.parametrize(
    "status",
    [
        {"markers": frozenset({"shaken"}), "dps": 5},
        {"formation": "column"},
        {"markers": frozenset({"control_halt"})},
        {"markers": frozenset({"reformed"})},
    ],
)
def test_barred_charges(mech: LegVIMechanics, status: dict[str, Any]) -> None:
    """No charge while shaken, in column, halted by a control test or re-formed this turn."""
    a = unit(mech, "mi", 4, **status)
    with pytest.raises(IllegalAction, match="cannot charge"):
        mech.resolve("charge", Situation(actor=a, target=unit(mech, "mi", 4, side=1)), script())
    redressed = unit(mech, "mi", 4, markers=frozenset({"redressed"}))
    mech.resolve("charge", Situation(actor=redressed, target=unit(mech, "mi", 4, side=1)), script())


def test_evade_responses(mech: LegVIMechanics) -> None:
    """Light troops and medium cavalry may evade (MC becoming unformed); others stand."""
    a = unit(mech, "mi", 4)
    with pytest.raises(IllegalAction, match="only stand"):
        mech.resolve(
            "charge",
            Situation(actor=a, target=unit(mech, "hi", 4, side=1), options={"response": "evade"}),
            script(),
        )
    mc = unit(mech, "mc", 4, side=1)
    res = mech.resolve(
        "charge",
        Situation(actor=a, target=mc, options={"response": "evade"}),
        script(("avd", (5,)), ("d6", (6,)), ("avd", (2,)), ("d6", (1,))),
    )
    assert res.outcome.result == "evaded"
    assert (
        res.outcome.defender.formation == "unformed"
        and "evading" in res.outcome.defender.markers_add
    )
    assert res.outcome.attacker.move == 'charge on 3"'


def test_evaders_caught_rout_and_take_a_free_hack(mech: LegVIMechanics) -> None:
    """Chargers whose target evaded roll all their move dice (with fatigue) and charge on;
    evaders caught rout, and the chargers get a free hack: a die per engaged base, a
    casualty on each 4+."""
    mc = unit(mech, "mc", 4, grade="C")
    li = unit(mech, "li", 4, side=1)
    res = mech.resolve(
        "charge",
        Situation(actor=mc, target=li, options={"response": "evade", "distance": 4}),
        script(("avd", (2,)), ("d6", (1,)), ("avd", (5,)), ("d6", (6,)), ("4d6", (4, 5, 1, 6))),
    )
    assert res.outcome.result == "caught and routed"
    d = res.outcome.defender
    assert d.casualties == 3 and {"routing", "shaken"} <= d.markers_add
    assert res.outcome.attacker.dps == 1  # formed cavalry tires on the 6


def test_a_b_infantry_may_halt_on_vacated_ground(mech: LegVIMechanics) -> None:
    a = unit(mech, "mi", 4, grade="B")
    li = unit(mech, "li", 4, side=1)
    res = mech.resolve(
        "charge",
        Situation(actor=a, target=li, options={"response": "evade", "halt_on_vacated": True}),
        script(("avd", (3,)), ("d6", (3,))),
    )
    assert res.outcome.attacker.move == "halt on the vacated ground"


def test_elephants_charging_light_troops_and_open_ranks(mech: LegVIMechanics) -> None:
    """Light troops receiving an elephant charge take 1 DP and are passed through; an
    elephant charging a legion with open ranks passes to its rear on 1-3, contacts on 4-6."""
    el = unit(mech, "el", 1)
    res = mech.resolve("charge", Situation(actor=el, target=unit(mech, "li", 4, side=1)), script())
    assert res.outcome.defender.dps == 1 and res.outcome.attacker.move == "pass through"
    legion = unit(mech, "mi", 10, side=1, markers=frozenset({"open_ranks"}))
    res = mech.resolve("charge", Situation(actor=el, target=legion), script(("d6", (3,))))
    assert res.outcome.result == "passes through the open ranks"
    res = mech.resolve("charge", Situation(actor=el, target=legion), script(("d6", (4,))))
    assert res.outcome.result == "contact"


def test_free_hack_odds(mech: LegVIMechanics) -> None:
    a = unit(mech, "mc", 3)
    d = unit(mech, "mi", 4, side=1, markers=frozenset({"routing", "shaken"}))
    odds = assert_frequencies_match(mech, "free_hack", Situation(actor=a, target=d), n=1500)
    assert {o.defender.casualties: p for o, p in odds.items()}[3] == Fraction(1, 8)


# --------------------------------------------------------------------------- combat dice


def dice_of(mech: LegVIMechanics, a: Combatant, d: Combatant, **opts: Any) -> tuple[int, int]:
    sa, sd = mech._melee_sides(Situation(actor=a, target=d, options=opts))
    return combat_dice(mech.t, sa)[0], combat_dice(mech.t, sd)[0]


def test_worked_example_mi_charging_hi(mech: LegVIMechanics) -> None:
    """4 bases of B grade MI charge D grade HI (4 bases) with 2 DPs: MI 4 + 1 (B) + 1 (MI
    charge) = 6 dice; HI 4 - 1 (D) + 2 (receiving a charge) - 2 (DPs) = 3 dice; both hit on
    5-6. 3 hits to 1: +2, a success (1 DP, follow up) against a set-back (2 DPs, fall back)."""
    mi = unit(mech, "mi", 4, grade="B")
    hi = unit(mech, "hi", 4, grade="D", side=1, dps=2)
    assert dice_of(mech, mi, hi) == (6, 3)
    res = melee(mech, mi, hi, script(("6d6", (6, 5, 5, 2, 1, 3)), ("3d6", (1, 2, 6))))
    o = res.outcome
    assert o.result == "Success / Set-back"
    assert (o.attacker.dps, o.attacker.move) == (1, "Follow up")
    assert (o.defender.dps, o.defender.move, o.defender.casualties) == (2, 'Fall back 1"', 0)


@pytest.mark.parametrize(
    ("troop", "size", "follow_up", "pursuit"),
    [("hi", 4, 2, 0), ("triarii", 2, 2, 0), ("mi", 4, 1, 1), ("mc", 4, 1, 1), ("el", 1, 3, 3)],
)
def test_hi_bonus_for_a_follow_up_not_a_pursuit(
    mech: LegVIMechanics, troop: str, size: int, follow_up: int, pursuit: int
) -> None:
    """Errata 'hi-follow-up-not-pursuit': heavy infantry get +2 for a charge, for receiving
    one or for a follow-up, but not for a pursuit into contact; MI and MC get +1 and
    elephants +3 for either."""
    a = unit(mech, troop, size)
    d = unit(mech, "mi", 4, side=1)
    base, _ = dice_of(mech, a, d, charge="none")
    assert dice_of(mech, a, d, charge="none", follow_up="attacker")[0] == base + follow_up
    assert dice_of(mech, a, d, charge="none", pursued="attacker")[0] == base + pursuit
    # the defender's pursuit is the defender's: the attacker's dice change only as the
    # pursuing infantry are unformed ("+2 Cavalry fighting unformed infantry"; issue 25)
    unformed_foe = 2 if troop == "mc" else 0
    assert dice_of(mech, a, d, charge="none", pursued="defender")[0] == base + unformed_foe


def test_mi_charging_hi_frontally_keeps_its_bonus(mech: LegVIMechanics) -> None:
    """Errata 'mc-charging-hi-frontally': the exception for charging HI frontally is MC's;
    MI charging HI in front keep their +1, MC lose theirs (not in a flank charge)."""
    hi = unit(mech, "hi", 4, side=1)
    for troop, bonus in (("mi", 1), ("mc", 0)):
        a = unit(mech, troop, 4)
        base, _ = dice_of(mech, a, hi, charge="none")
        assert dice_of(mech, a, hi, charge="attacker")[0] == base + bonus
        assert dice_of(mech, a, hi, charge="attacker", aspect="flank")[0] == base + 1


def test_pursuit_options_and_derived_pursuers(mech: LegVIMechanics) -> None:
    """A combat asks who followed up and who pursued into contact separately; the table
    fills in a pursuer from the ``pursuing`` marker a combat result leaves."""
    spec = mech.action("melee")
    assert spec.option("follow_up").label == "Who followed up into contact"
    assert spec.option("pursued").choices == ("none", "attacker", "defender")
    assert spec.option("pursued").default == "none"
    a = placed(unit(mech, "hi", 4, uid="a", markers=frozenset({"pursuing"})), 0, 2, 180)
    d = placed(unit(mech, "mi", 4, uid="d", side=1), 0, 0, 0)
    assert mech.derive_options("melee", Situation(actor=a, target=d))["pursued"] == "attacker"
    assert mech.derive_options("melee", Situation(actor=d, target=a))["pursued"] == "defender"


@pytest.mark.parametrize(
    ("a", "d", "opts", "expected"),
    [
        (("mi", 4, {"grade": "A"}), ("mi", 4, {"grade": "C"}), {"charge": "none"}, (6, 4)),
        (("mi", 4, {"grade": "D"}), ("hi", 4, {"grade": "C"}), {"charge": "none"}, (3, 4)),
        (("mi", 4, {}), ("mi", 4, {}), {"charge": "none", "a_supported": True}, (5, 4)),
        (("hi", 4, {}), ("mi", 4, {}), {"charge": "defender"}, (6, 5)),  # HI receives +2
        (("hi", 4, {}), ("mi", 4, {}), {"charge": "none", "follow_up": "attacker"}, (6, 4)),
        (("el", 1, {}), ("mi", 4, {}), {"charge": "attacker"}, (5, 4)),  # 2 dice +3 charging
        (("mc", 4, {}), ("el", 1, {}), {"charge": "attacker"}, (4, 2)),  # no MC bonus v El
        (("mc", 4, {}), ("hi", 4, {}), {"charge": "attacker"}, (4, 6)),  # nor HI frontally
        (("mc", 4, {}), ("hi", 4, {}), {"charge": "attacker", "aspect": "flank"}, (5, 6)),
        (("lc", 4, {}), ("li", 4, {}), {"charge": "attacker"}, (6, 4)),  # cav v unformed inf
        (("mi", 4, {"dps": 3}), ("mi", 4, {"dps": 6}), {"charge": "none"}, (1, 1)),
        (
            ("mi", 8, {"dps": 3}),
            ("mi", 8, {"dps": 4, "markers": frozenset({"shaken"})}),
            {"charge": "none"},
            (5, 1),
        ),  # -4 for DPs at most, -5 shaken, at least 1 die
        (("mi", 8, {}), ("mi", 8, {}), {"charge": "none", "a_bases": 12}, (10, 8)),
        (("mi", 10, {}), ("hi", 4, {}), {"charge": "none"}, (7, 4)),  # 4 + 2 + supported
        (
            ("mi", 10, {"markers": frozenset({"open_ranks"})}),
            ("hi", 4, {}),
            {"charge": "none"},
            (5, 4),
        ),
        (
            ("mi", 10, {"markers": frozenset({"relieved_ranks"})}),
            ("hi", 4, {}),
            {"charge": "none"},
            (8, 4),
        ),  # relieved ranks: the MI charge bonus
        (("mi", 4, {"formation": "column"}), ("mi", 4, {}), {"charge": "none"}, (1, 4)),
        (("mi", 4, {}), ("mi", 4, {}), {"charge": "none", "a_grade": "A"}, (6, 4)),
    ],
)
def test_combat_dice_and_factors(
    mech: LegVIMechanics,
    a: tuple[str, int, dict[str, Any]],
    d: tuple[str, int, dict[str, Any]],
    opts: dict[str, Any],
    expected: tuple[int, int],
) -> None:
    """A die per engaged base (2 per elephant) to at most 10, half a quincunx legion's
    second line (none with open ranks); +2 A, +1 B, -1 D; +1 supported (a three-line legion
    by its triarii); +1 MI/MC charging, pursuing or following up (not MC against elephants
    or charging HI frontally); +2 HI charging, receiving or following up; +3 elephants
    charging; +2 cavalry against unformed infantry; -1 per DP to -4; -5 shaken; at least 1."""
    grade_a = a[2].pop("grade", "C")
    grade_d = d[2].pop("grade", "C")
    ua = unit(mech, a[0], a[1], grade=grade_a, **a[2])
    ud = unit(mech, d[0], d[1], grade=grade_d, side=1, **d[2])
    assert dice_of(mech, ua, ud, **opts) == expected


@pytest.mark.parametrize(
    ("a", "d", "opts", "hard"),
    [
        (("li", 4, {}), ("mi", 4, {}), {"charge": "none"}, (True, False)),  # unformed
        (("li", 4, {}), ("el", 1, {}), {"charge": "none"}, (False, False)),  # LI v El: 5-6
        (("mi", 4, {"formation": "column"}), ("mi", 4, {}), {"charge": "none"}, (True, False)),
        (("mi", 4, {}), ("mi", 4, {}), {"ground": "defender"}, (True, False)),
        (("el", 1, {}), ("mi", 4, {}), {"ground": "defender"}, (False, False)),
        (("mi", 4, {}), ("mi", 4, {}), {"aspect": "flank"}, (False, True)),
        (("mi", 4, {}), ("li", 4, {}), {"aspect": "flank"}, (False, True)),  # LI unformed
        (("mi", 4, {}), ("mi", 10, {}), {"aspect": "flank"}, (False, False)),  # legion flank
        (("mi", 4, {}), ("mi", 10, {}), {"aspect": "rear"}, (False, True)),
        (("mi", 4, {}), ("mc", 4, {}), {"charge": "both"}, (True, False)),  # countercharged
        (("mi", 4, {}), ("mi", 4, {}), {"countercharged": "attacker"}, (True, False)),
        (("mi", 4, {"markers": frozenset({"shaken"})}), ("mi", 4, {}), {}, (True, False)),
    ],
)
def test_hit_numbers(
    mech: LegVIMechanics,
    a: tuple[str, int, dict[str, Any]],
    d: tuple[str, int, dict[str, Any]],
    opts: dict[str, Any],
    hard: tuple[bool, bool],
) -> None:
    """Hits on 6 only when unformed or in column (not LI against elephants), against an
    enemy with advantage of ground (not elephants), charged in flank or rear (light troops
    and quincunx legions only in the rear), or infantry that charged and were charged by
    cavalry or elephants; otherwise on 5-6. Shaken units are unformed."""
    ua = unit(mech, a[0], a[1], **a[2])
    ud = unit(mech, d[0], d[1], side=1, **d[2])
    sa, sd = mech._melee_sides(Situation(actor=ua, target=ud, options=opts))
    got = tuple(hit_faces(mech.t, s)[0] == (6,) for s in (sa, sd))
    assert got == hard


def test_leader_automatic_hit_and_die_of_death(mech: LegVIMechanics) -> None:
    """An attached leader adds one automatic hit; after the round he rolls the die of
    death (a 1, then 2-4: wounded, losing an action)."""
    a = unit(mech, "mi", 4, grade="C", leader=commander())
    d = unit(mech, "mi", 4, grade="C", side=1)
    res = melee(
        mech,
        a,
        d,
        script(("4d6", (1, 1, 1, 1)), ("4d6", (1, 1, 1, 1)), ("d6", (1,)), ("d6", (2,))),
        charge="none",
    )
    assert res.outcome.result == "Success / Set-back; attacker leader wounded"
    (event,) = res.leader_events
    assert (event.status, event.wounds) == ("wounded", 1)


# --------------------------------------------------------------------------- results


@pytest.mark.parametrize(
    ("hits_a", "hits_d", "bands"),
    [
        (4, 0, ("Victory", "Defeat")),
        (5, 1, ("Victory", "Defeat")),
        (3, 0, ("Success", "Set-back")),
        (1, 0, ("Success", "Set-back")),
        (2, 2, ("Inconclusive", "Inconclusive")),
        (0, 3, ("Set-back", "Success")),
        (0, 4, ("Defeat", "Victory")),
    ],
)
def test_result_bands(
    mech: LegVIMechanics, hits_a: int, hits_d: int, bands: tuple[str, str]
) -> None:
    """4+ victory (0 DPs), +1..+3 success (1 DP), equal (1 DP each), -1..-3 set-back
    (2 DPs), -4 or worse defeat (2 DPs and a casualty)."""
    a = unit(mech, "mi", 6, grade="C")
    d = unit(mech, "mi", 6, grade="C", side=1)
    fa = (5,) * hits_a + (1,) * (6 - hits_a)
    fd = (6,) * hits_d + (2,) * (6 - hits_d)
    res = melee(mech, a, d, script(("6d6", fa), ("6d6", fd)), charge="none")
    assert res.outcome.result == " / ".join(bands)
    want = {
        "Victory": (0, 0),
        "Success": (1, 0),
        "Inconclusive": (1, 0),
        "Set-back": (2, 0),
        "Defeat": (2, 1),
    }
    for eff, band in ((res.outcome.attacker, bands[0]), (res.outcome.defender, bands[1])):
        assert (eff.dps, eff.casualties) == want[band]


def fight(
    mech: LegVIMechanics, a: Combatant, d: Combatant, hits_a: int, hits_d: int, **opts: Any
) -> Any:
    """A round in which ``a`` scores ``hits_a`` and ``d`` ``hits_d`` (no leaders)."""
    sa, sd = mech._melee_sides(Situation(actor=a, target=d, options=opts))
    na, nd = combat_dice(mech.t, sa)[0], combat_dice(mech.t, sd)[0]
    assert hits_a <= na and hits_d <= nd
    rolls = [
        (f"{na}d6", (6,) * hits_a + (1,) * (na - hits_a)),
        (f"{nd}d6", (6,) * hits_d + (1,) * (nd - hits_d)),
    ]
    dice = ScriptedDice(rolls + [("d6", (3,))] * 6)
    return mech.resolve("melee", Situation(actor=a, target=d, options=opts), dice).outcome


def test_victory_moves(mech: LegVIMechanics) -> None:
    """Victory: A grade may halt; B grade formed infantry may halt if it did not charge;
    units facing only elephants or light troops may halt; others must pursue."""
    d = unit(mech, "mi", 4, side=1)
    for grade, charge, want in (
        ("A", "attacker", "Halt or Pursue (player's choice)"),
        ("B", "defender", "Halt or Pursue (player's choice)"),
        ("B", "attacker", "Pursue"),
        ("C", "none", "Pursue"),
    ):
        o = fight(mech, unit(mech, "mi", 8, grade=grade), d, 4, 0, charge=charge)
        assert o.attacker.move == want
    o = fight(mech, unit(mech, "mi", 8, grade="C"), d, 4, 0, charge="none")
    assert "pursuing" in o.attacker.markers_add and o.attacker.formation == "unformed"
    o = fight(mech, unit(mech, "mi", 8, grade="C"), unit(mech, "li", 4, side=1), 4, 0)
    assert o.attacker.move == "Halt or Pursue (player's choice)"


def test_success_moves(mech: LegVIMechanics) -> None:
    """Success: formed infantry that stood against cavalry or elephants halts; cavalry that
    charged formed infantry retires; elephants pass through formed infantry, inflicting an
    extra DP; A grade infantry or units against light troops may halt; others follow up or
    pursue."""
    mi = unit(mech, "mi", 6, grade="C")
    o = fight(mech, mi, unit(mech, "mc", 4, side=1), 2, 0, charge="defender")
    assert o.attacker.move == "Halt"
    o = fight(mech, unit(mech, "mc", 4), mi, 2, 0, charge="attacker")
    assert o.attacker.move == "Retire" and "retiring" in o.attacker.markers_add
    o = fight(mech, unit(mech, "el", 1), mi, 2, 0, charge="attacker")
    assert o.attacker.move == 'Pass through 4"' and o.defender.dps == 2 + 1
    o = fight(mech, unit(mech, "mi", 6, grade="A"), unit(mech, "mi", 4, side=1), 2, 0)
    assert o.attacker.move == "Halt or Follow up or Pursue (player's choice)"
    o = fight(mech, unit(mech, "mi", 6), unit(mech, "li", 4, side=1), 2, 0)
    assert o.attacker.move.endswith("(player's choice)")
    o = fight(mech, unit(mech, "mi", 6), unit(mech, "mi", 4, side=1), 2, 0)
    assert o.attacker.move == "Follow up"  # the enemy falls back
    o = fight(mech, unit(mech, "hi", 6), unit(mech, "mc", 4, side=1), 2, 0, charge="attacker")
    assert o.attacker.move == "Pursue"  # the enemy cavalry retires


def test_inconclusive_moves(mech: LegVIMechanics) -> None:
    """Inconclusive: cavalry facing formed infantry retires; cavalry or elephants that
    charged cavalry or LI pass through (LI passed through by cavalry take an extra DP);
    others halt."""
    o = fight(mech, unit(mech, "mc", 4), unit(mech, "mi", 4, side=1), 1, 1)
    assert o.attacker.move == "Retire" and o.defender.move == "Halt"
    o = fight(mech, unit(mech, "mc", 4), unit(mech, "li", 4, side=1), 1, 1)
    assert o.attacker.move == 'Pass through 4"' and o.defender.dps == 2
    o = fight(mech, unit(mech, "el", 1), unit(mech, "mc", 4, side=1), 1, 1)
    assert o.attacker.move == 'Pass through 4"' and o.defender.dps == 1


def test_set_back_moves_and_rout_when_shaken(mech: LegVIMechanics) -> None:
    """Set-back: a shaken unit routs (no DPs); formed infantry charged by cavalry or
    elephants halts; cavalry facing formed infantry, or after a second round, retires;
    unformed troops retire; others fall back 1 inch."""
    mi = unit(mech, "mi", 6)
    o = fight(mech, unit(mech, "mc", 4), unit(mech, "mi", 6, side=1), 0, 2, charge="attacker")
    assert (o.attacker.move, o.defender.move) == ("Retire", "Halt")
    o = fight(mech, mi, unit(mech, "mc", 4, side=1), 0, 2, charge="defender")
    assert o.attacker.move == "Halt"
    o = fight(mech, unit(mech, "mc", 4), unit(mech, "mc", 4, side=1), 0, 2, charge="none")
    assert o.attacker.move == 'Fall back 1"'
    o = fight(mech, unit(mech, "mc", 4), unit(mech, "mc", 4, side=1), 0, 2, charge="none", round=2)
    assert o.attacker.move == "Retire"
    o = fight(mech, unit(mech, "li", 4), unit(mech, "li", 4, side=1), 0, 2, charge="none")
    assert o.attacker.move == "Retire"
    shaken = unit(mech, "mi", 6, dps=5, markers=frozenset({"shaken"}))
    o = fight(mech, shaken, unit(mech, "mi", 4, side=1), 0, 1, charge="none")
    assert o.attacker.move == "Rout" and o.attacker.dps == 0 and o.attacker.casualties == 0
    assert "routing" in o.attacker.markers_add and o.defender.move == "Pursue"


def test_defeat(mech: LegVIMechanics) -> None:
    """Defeat: 2 DPs and a casualty; shaken or unformed units rout; a legion in three lines
    retires behind its triarii; others retire. A shaken unit's DPs become casualties."""
    o = fight(mech, unit(mech, "mi", 4, side=1), unit(mech, "hi", 8, side=0), 0, 4, charge="none")
    assert (o.attacker.dps, o.attacker.casualties, o.attacker.move) == (2, 1, "Retire")
    o = fight(mech, unit(mech, "li", 4), unit(mech, "hi", 8, side=1), 0, 4, charge="none")
    assert o.attacker.move == "Rout"
    o = fight(mech, unit(mech, "mi", 10), unit(mech, "hi", 8, side=1), 0, 4, charge="none")
    assert o.attacker.move == "Retire behind the triarii"
    shaken = unit(mech, "mi", 6, dps=5, markers=frozenset({"shaken"}))
    o = fight(mech, shaken, unit(mech, "hi", 8, side=1), 0, 4, charge="none")
    assert (o.attacker.casualties, o.attacker.move) == (3, "Rout")
    near = unit(mech, "mi", 6, dps=4)
    o = fight(mech, near, unit(mech, "hi", 8, side=1), 0, 1, charge="none")
    assert (o.attacker.dps, o.attacker.casualties) == (1, 1)
    assert "shaken" in o.attacker.markers_add


def test_elephants_test_critical_hits_in_combat(mech: LegVIMechanics) -> None:
    """Elephants take no DPs or casualties in combat: a critical-hit test per DP, and an
    automatic critical hit for a casualty."""
    el = unit(mech, "el", 1)
    mi = unit(mech, "mi", 6, side=1)
    res = melee(
        mech,
        el,
        mi,
        script(
            ("5d6", (1,) * 5), ("6d6", (6, 6, 6, 6, 1, 1)), ("d6", (3,)), ("d6", (4,)), ("d6", (5,))
        ),
    )
    o = res.outcome
    assert o.result == "Defeat / Victory; attacker elephant rampages"
    assert o.attacker.dps == 0 and o.attacker.casualties == 0
    assert "rampage" in o.attacker.markers_add
    res = melee(
        mech,
        el,
        mi,
        script(("5d6", (1,) * 5), ("6d6", (6, 1, 1, 1, 1, 1)), ("d6", (2,)), ("d6", (2,))),
    )
    assert res.outcome.attacker.eliminated


def test_supports_share_dps_and_leader_loss_costs_morale(mech: LegVIMechanics) -> None:
    """Supports share the DPs and move but not casualties; a leader killed or a unit
    routed costs friends within 4 inches morale DPs (1, the General 2; a rout 2)."""
    a = placed(unit(mech, "mi", 4, uid="a", leader=general()), 0, 0)
    sup = placed(unit(mech, "mi", 4, uid="s"), 0, -1.5)
    far = placed(unit(mech, "mi", 4, uid="f"), 0, -20)
    d = placed(unit(mech, "hi", 8, uid="d", side=1), 0, 0.8)  # in contact with a
    v = view(a, sup, far, d, turn=2, phase=COMBAT)
    # 0 hits + 1 for Scipio against 5: defeat; Scipio then dies (1, 1)
    dice = script(
        ("4d6", (1, 1, 1, 1)), ("8d6", (6, 6, 6, 6, 6, 1, 1, 1)), ("d6", (1,)), ("d6", (1,))
    )
    res = mech.resolve(
        "melee",
        Situation(actor=a, target=d, options={"charge": "none"}, others=(sup,), view=v),
        dice,
    )
    att = res.outcome.attacker
    assert (att.dps, att.casualties, att.move) == (2 + 2, 1, "Retire")  # + the General's 2
    others = {c.unit_id: c.effects for c in res.others}
    assert set(others) == {"s"}  # the far unit is beyond 4 inches
    # the support: the result's 2 DPs, 2 for the General, 1 for a friend retiring: shaken
    assert others["s"].dps == 5 and others["s"].casualties == 0
    assert others["s"].move == "Retire" and "shaken" in others["s"].markers_add
    assert res.sides[0] == {"successor:scipio": 3}


def test_relieve_ranks(mech: LegVIMechanics) -> None:
    """A legion in quincunx may relieve ranks once per line beyond the first: 1 DP off and
    the charge bonus in the next round."""
    leg = unit(mech, "mi", 10, dps=3)
    res = mech.resolve("relieve_ranks", Situation(actor=leg), script())
    eff = res.outcome.attacker
    assert (eff.dps, eff.markers_add, eff.extra) == (-1, {"relieved_ranks"}, {"reliefs": 1})
    spent = unit(mech, "mi", 10, extra={"lines": 3, "reliefs": 2})
    with pytest.raises(IllegalAction):
        mech.resolve("relieve_ranks", Situation(actor=spent), script())


def test_after_combat_move_blocked(mech: LegVIMechanics) -> None:
    """Units unable to fall back or retire stay and lose a base; routers unable to move
    surrender to enemy within 4 inches; a retiring HI or MI unit costs friends 1 DP."""
    a = placed(unit(mech, "mi", 4, uid="a"), 0, 0)
    friend = placed(unit(mech, "hi", 4, uid="b"), 4, 0)
    enemy = placed(unit(mech, "mi", 4, uid="e", side=1), 0, 2)
    v = view(a, friend, enemy, phase=AFTER)
    res = mech.resolve(
        "after_combat_move",
        Situation(actor=a, view=v, options={"move": "fall_back", "blocked": True}),
        script(),
    )
    assert res.outcome.attacker.casualties == 1
    res = mech.resolve(
        "after_combat_move", Situation(actor=a, view=v, options={"move": "retire"}), script()
    )
    assert {c.unit_id: c.effects.dps for c in res.others} == {"b": 1}
    res = mech.resolve(
        "after_combat_move",
        Situation(actor=a, view=v, options={"move": "rout", "blocked": True}),
        script(),
    )
    assert res.outcome.attacker.eliminated
    assert {c.unit_id: c.effects.dps for c in res.others} == {"b": 2}


# --------------------------------------------------------------------------- elephants


def test_rampage_and_stopping_it(mech: LegVIMechanics) -> None:
    """Stopping a rampage: 5-6 on a D6 kills the elephant, +2 each later turn; otherwise a
    new direction is rolled for the manoeuvre phase. A rampage moves AvD + D6 inches in the
    rolled direction (errata 'rampage-diagram', 'rampage-speed'); formed troops burst
    through take 2 DPs, unformed ones and open-ranked legions let it pass."""
    el = unit(mech, "el", 1, markers=frozenset({"rampage"}), extra={"stop_attempts": 0})
    res = mech.resolve("stop_rampage", Situation(actor=el), script(("d6", (4,)), ("d6", (3,))))
    eff = res.outcome.attacker
    assert not eff.eliminated and eff.extra == {"stop_attempts": 1, "rampage_direction": 3}
    later = Combatant(el.unit_id, el.name, el.troop, el.side, el.status.apply(eff))
    res = mech.resolve("stop_rampage", Situation(actor=later), script(("d6", (3,))))
    assert res.outcome.attacker.eliminated  # 3 + 2
    mi = unit(mech, "mi", 4, side=1, uid="m")
    li = unit(mech, "li", 4, side=1, uid="l")
    res = mech.resolve(
        "rampage", Situation(actor=later, others=(mi, li)), script(("avd", (4,)), ("d6", (5,)))
    )
    assert res.outcome.attacker.move == 'rampage 9" back right (120 degrees)'
    assert {c.unit_id: c.effects.dps for c in res.others} == {"m": 2}
    odds = mech.odds("stop_rampage", Situation(actor=el))
    assert_odds_sum_to_one(odds)
    assert sum(p for o, p in odds.items() if o.attacker.eliminated) == Fraction(1, 3)
    assert_odds_sum_to_one(mech.odds("rampage", Situation(actor=el)))
    # the direction is already rolled: only the distance varies, AvD + D6 = 3 to 11 inches
    assert len(mech.odds("rampage", Situation(actor=later))) == 9
    assert len(mech.odds("rampage", Situation(actor=el))) == 6 * 9


def test_command_phase_ends_with_stop_rampage_attempts(mech: LegVIMechanics) -> None:
    el = unit(mech, "el", 1, uid="el", markers=frozenset({"rampage"}))
    done = unit(mech, "el", 1, uid="done", markers=frozenset({"rampage", "rampage_tested"}))
    res = mech.end_phase(view(el, done), script(("d6", (6,))))
    assert [(c.unit_id, c.effects.eliminated) for c in res.others] == [("el", True)]


def test_elephant_fate_distribution(mech: LegVIMechanics) -> None:
    t = mech.t
    one = elephant_fate_dist(t, 1)
    assert one == {
        "unharmed": Fraction(2, 3),
        "destroyed": Fraction(1, 9),
        "rampage": Fraction(2, 9),
    }
    auto = elephant_fate_dist(t, 0, 1)
    assert auto == {"destroyed": Fraction(1, 3), "rampage": Fraction(2, 3)}


# --------------------------------------------------------------------------- redress, rally


@pytest.mark.parametrize(
    ("grade", "near", "removed"),
    [
        ("A", "no", 2),
        ("A", "yes", 1),
        ("B", "no", 1),
        ("B", "yes", 1),
        ("C", "no", 1),
        ("C", "yes", 0),
        ("D", "no", 1),
    ],
)
def test_redress(mech: LegVIMechanics, grade: str, near: str, removed: int) -> None:
    """Redress ranks: A grade 1 DP plus 1 beyond 4 inches of enemy; B grade 1; C and D 1
    only beyond 4 inches; not when shaken or in combat."""
    c = unit(mech, "mi", 4, grade=grade, dps=3)
    res = mech.resolve("redress", Situation(actor=c, options={"enemy_near": near}), script())
    assert res.outcome.attacker.dps == -removed
    shaken = unit(mech, "mi", 4, dps=5, markers=frozenset({"shaken"}))
    with pytest.raises(IllegalAction):
        mech.resolve("redress", Situation(actor=shaken), script())


def test_rally_phase(mech: LegVIMechanics) -> None:
    """Shaken units that stayed halted all turn beyond 8 inches of unbroken enemy rally in
    the rally phase with 4 DPs (errata 'rally-with-4-dps')."""
    shaken = {"dps": 7, "markers": frozenset({"shaken"})}
    still = placed(unit(mech, "mi", 10, uid="still", **shaken), 0, 0)
    still = Combatant(
        **{
            **still.__dict__,
            "status": Status(
                **{
                    **still.status.__dict__,
                    "extra": {**still.status.extra, "turn_start": position_key(still)},
                }
            ),
        }
    )
    moved = placed(
        unit(mech, "mi", 4, uid="moved", dps=5, markers=frozenset({"shaken", "moved"})), 20, 0
    )
    near = placed(unit(mech, "mi", 4, uid="near", **shaken), 40, 0)
    enemy = placed(unit(mech, "hi", 4, uid="e", side=1), 40, 6)
    broken = placed(unit(mech, "hi", 4, uid="b", side=1, markers=frozenset({"routing"})), 0, 5)
    res = mech.end_phase(view(still, moved, near, enemy, broken, phase=RALLY), script())
    effects = {c.unit_id: c.effects for c in res.others}
    assert set(effects) == {"still"}
    assert effects["still"].dps == 4 - 7 and effects["still"].markers_remove == {"shaken"}
    res = mech.resolve("rally", Situation(actor=near, view=view(near, enemy)), script())
    assert res.outcome.result == "does not rally"


def test_reform(mech: LegVIMechanics) -> None:
    c = unit(mech, "mc", 4, formation="unformed", markers=frozenset({"evading"}))
    res = mech.resolve("reform", Situation(actor=c, options={"formation": "line"}), script())
    assert res.outcome.attacker.formation == "line"
    assert "reformed" in res.outcome.attacker.markers_add
    with pytest.raises(IllegalAction):
        mech.resolve("reform", Situation(actor=unit(mech, "li", 4)), script())


def test_morale_action(mech: LegVIMechanics) -> None:
    c = unit(mech, "mi", 4, dps=4)
    res = mech.resolve("morale", Situation(actor=c, options={"event": "general_lost"}), script())
    assert (res.outcome.attacker.dps, res.outcome.attacker.casualties) == (1, 1)
    el = unit(mech, "el", 1)
    res = mech.resolve("morale", Situation(actor=el), script())
    assert res.outcome.attacker.is_empty


# --------------------------------------------------------------------------- odds


def test_derived_options(mech: LegVIMechanics) -> None:
    """The table fills in the options it decides: the side of the target the attacker is
    on, who charged this turn (from the charge action's markers), and the bases engaged
    where the two touch (side by side, each touches the other with a flank: its end base)."""
    a = placed(unit(mech, "mi", 4, uid="a", markers=frozenset({"charging"})), 3, 0, 0)
    d = placed(unit(mech, "mi", 4, uid="d", side=1), 0, 0, 0)  # a is off d's right flank
    sit = Situation(actor=a, target=d, view=view(a, d, phase=COMBAT))
    opts = mech.derive_options("melee", sit)
    assert (opts["aspect"], opts["charge"]) == ("flank", "attacker")
    assert (opts["a_bases"], opts["d_bases"]) == (1, 1)
    spec = mech.action("melee")
    for key, value in opts.items():
        option = spec.option(key)
        if option.kind == "choice":
            assert value in option.choices
        else:
            assert isinstance(value, int) and option.minimum <= value <= option.maximum
    both = Situation(
        actor=a,
        target=placed(
            unit(mech, "mi", 4, uid="d", side=1, markers=frozenset({"charging"})), 0, 5, 180
        ),
    )
    assert mech.derive_options("melee", both)["charge"] == "both"
    assert isinstance(mech.derive_options("charge", sit)["distance"], int)


def test_every_action_is_resolvable(mech: LegVIMechanics) -> None:
    keys = {a.key for a in mech.actions()}
    assert {"melee", "shoot"} <= keys
    assert all(a.odds for a in mech.actions() if a.key in ("melee", "shoot"))
    for a in mech.actions():
        if a.odds:
            assert a.key in {
                "melee",
                "shoot",
                "free_hack",
                "control_test",
                "dice_move",
                "rampage",
                "stop_rampage",
            }
    from app.rules.mechanics import NotImplementedRule

    with pytest.raises(NotImplementedRule):
        mech.resolve("cast_spell", Situation(), script())


MELEE_TROOPS = [
    ("li", 4),
    ("mi", 4),
    ("mi", 10),
    ("hi", 6),
    ("triarii", 2),
    ("lc", 4),
    ("mc", 3),
    ("el", 1),
]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(MELEE_TROOPS),
    st.sampled_from(MELEE_TROOPS),
    st.sampled_from(["A", "B", "C", "D"]),
    st.sampled_from(["A", "B", "C", "D"]),
    st.integers(0, 6),
    st.integers(0, 6),
    st.sampled_from(["attacker", "defender", "both", "none"]),
    st.sampled_from(["front", "flank", "rear"]),
    st.booleans(),
    st.booleans(),
)
def test_melee_odds_sum_to_one(
    mech: LegVIMechanics,
    a: tuple[str, int],
    d: tuple[str, int],
    ga: str,
    gd: str,
    da: int,
    dd: int,
    charge: str,
    flank: str,
    leader_a: bool,
    leader_d: bool,
) -> None:
    ua = unit(
        mech,
        a[0],
        a[1],
        grade=ga if a[0] != "el" else "C",
        dps=da if a[0] != "el" else 0,
        markers=frozenset({"shaken"}) if da >= 5 and a[0] != "el" else frozenset(),
        leader=general() if leader_a else None,
    )
    ud = unit(
        mech,
        d[0],
        d[1],
        side=1,
        grade=gd if d[0] != "el" else "C",
        dps=dd if d[0] != "el" else 0,
        leader=commander() if leader_d else None,
    )
    odds = mech.odds(
        "melee", Situation(actor=ua, target=ud, options={"charge": charge, "aspect": flank})
    )
    assert_odds_sum_to_one(odds)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([("li", 2), ("li", 8), ("lc", 4)]),
    st.sampled_from(MELEE_TROOPS),
    st.integers(0, 5),
    st.booleans(),
    st.sampled_from(["front", "flank", "rear"]),
    st.booleans(),
)
def test_shooting_odds_sum_to_one(
    mech: LegVIMechanics,
    s: tuple[str, int],
    d: tuple[str, int],
    dps: int,
    cover: bool,
    aspect: str,
    leader: bool,
) -> None:
    shooter = unit(mech, s[0], s[1], dps=dps)
    target = unit(mech, d[0], d[1], side=1, leader=general() if leader else None)
    odds = mech.odds(
        "shoot", Situation(actor=shooter, target=target, options={"cover": cover, "aspect": aspect})
    )
    assert_odds_sum_to_one(odds)


@pytest.mark.parametrize(
    ("a", "d", "opts"),
    [
        (("mi", 4, "B", None), ("hi", 4, "D", None), {"charge": "attacker"}),
        (("el", 1, "C", None), ("mi", 10, "B", "general"), {"charge": "attacker"}),
        (("mc", 4, "C", "commander"), ("li", 4, "C", None), {"charge": "attacker"}),
        (
            ("hi", 6, "A", None),
            ("mi", 4, "C", None),
            {"charge": "none", "aspect": "flank", "ground": "defender"},
        ),
    ],
)
def test_melee_frequencies_match_odds(
    mech: LegVIMechanics, a: tuple[Any, ...], d: tuple[Any, ...], opts: dict[str, Any]
) -> None:
    leaders = {"general": general(), "commander": commander(), None: None}
    ua = unit(mech, a[0], a[1], grade=a[2], leader=leaders[a[3]], dps=1 if a[0] != "el" else 0)
    ud = unit(mech, d[0], d[1], grade=d[2], side=1, leader=leaders[d[3]])
    assert_frequencies_match(mech, "melee", Situation(actor=ua, target=ud, options=opts), n=2500)


def test_melee_odds_worked_example_distribution(mech: LegVIMechanics) -> None:
    """The B grade MI (6 dice at 5-6) against the D grade HI with 2 DPs (3 dice at 5-6):
    the bands' probabilities follow from the two binomial hit counts."""
    from app.rules.dice import binomial

    mi = unit(mech, "mi", 4, grade="B")
    hi = unit(mech, "hi", 4, grade="D", side=1, dps=2)
    odds = mech.odds("melee", Situation(actor=mi, target=hi, options={"charge": "attacker"}))
    p = Fraction(1, 3)
    ha, hd = binomial(6, p), binomial(3, p)
    want: dict[str, Fraction] = {}
    for x, px in ha.items():
        for y, py in hd.items():
            band = result_band(mech.t, x - y)
            want[band] = want.get(band, Fraction(0)) + px * py
    got = {o.result.split(" / ")[0]: pr for o, pr in odds.items()}
    names = {b: mech.t.combat_results.bands[b].name for b in want}
    assert {names[b]: v for b, v in want.items()} == got


def test_odds_speed(mech: LegVIMechanics) -> None:
    """Worst case: elephant against a led legion, both leaders at risk: under 50 ms."""
    el = unit(mech, "el", 1, leader=commander())
    leg = unit(mech, "mi", 10, side=1, leader=general(), dps=2)
    sit = Situation(actor=el, target=leg, options={"charge": "attacker", "a_bases": 5})
    start = time.perf_counter()
    for _ in range(5):
        mech.odds("melee", sit)
    assert (time.perf_counter() - start) / 5 < 0.05
    li = unit(mech, "li", 8)
    start = time.perf_counter()
    mech.odds("shoot", Situation(actor=li, target=unit(mech, "el", 1, side=1)))
    assert time.perf_counter() - start < 0.05


def test_resolve_is_deterministic(mech: LegVIMechanics) -> None:
    """The same seed gives the same outcome and the same rolls (replay)."""
    a = unit(mech, "el", 1)
    d = unit(mech, "mi", 10, side=1, leader=general())
    sit = Situation(actor=a, target=d)
    one, two = SeededDice(7), SeededDice(7)
    assert mech.resolve("melee", sit, one) == mech.resolve("melee", sit, two)
    replay = ScriptedDice([(spec, faces) for _p, spec, faces in one.rolls])
    assert (
        mech.resolve("melee", sit, replay).outcome
        == mech.resolve("melee", sit, SeededDice(7)).outcome
    )
    assert tables(mech.ruleset) is mech.t


# --------------------------------------------------------------------------- forced moves


def test_fall_back_is_made_on_the_table(mech: LegVIMechanics) -> None:
    """After Combat Moves: a unit told to fall back goes back 1 inch facing the enemy. The
    combat makes the move (``Effects.shift``): directly away from the enemy (from its
    centre through the loser's), the distance from the tables; the winner following up
    is the player's move. Resolve and odds agree on the outcome, shift and all."""
    back = mech.t.after_combat_moves.moves["fall_back"].distance
    assert back == 1.0
    a = placed(unit(mech, "mc", 4, uid="a"), 10, 10)  # facing +y
    d = placed(unit(mech, "mc", 4, uid="d", side=1), 11, 10.8, facing=180)
    o = fight(mech, a, d, 0, 2, charge="none")
    assert o.attacker.move == 'Fall back 1"'
    assert o.attacker.shift == pytest.approx((bearing(11, 10.8, 10, 10), back))
    assert o.defender.shift is None
    sit = Situation(actor=a, target=d, options={"charge": "none"})
    assert o in mech.odds("melee", sit)
    o = fight(mech, a, d, 2, 0, charge="none")
    assert o.defender.move == 'Fall back 1"'
    assert o.defender.shift == pytest.approx((bearing(10, 10, 11, 10.8), back))
    # no positions: straight back to the unit's rear
    o = fight(mech, unit(mech, "mc", 4), unit(mech, "mc", 4, side=1), 0, 2, charge="none")
    assert o.attacker.shift == (180.0, back)


def test_legion_that_may_relieve_ranks_falls_back_by_the_players_choice(
    mech: LegVIMechanics,
) -> None:
    """A legion relieving ranks stays instead of falling back, so the combat leaves its
    fall back to the player: the after-combat move makes it (1 inch to its rear, still
    facing the enemy). A unit whose fall back the combat already made is not moved again;
    one unable to move stays and loses a base."""
    leg = placed(unit(mech, "mi", 10, uid="leg"), 0, 0)
    foe = placed(unit(mech, "mi", 4, uid="foe", side=1), 0, 0.8, facing=180)
    o = fight(mech, leg, foe, 0, 2, charge="none")
    assert o.attacker.move == 'Fall back 1"; may relieve ranks' and o.attacker.shift is None
    res = mech.resolve(
        "after_combat_move", Situation(actor=leg, options={"move": "fall_back"}), script()
    )
    assert res.outcome.attacker.shift == (180.0, 1.0)
    assert res.outcome.attacker.move == 'Fall back 1"'
    res = mech.resolve(
        "after_combat_move",
        Situation(actor=leg, options={"move": "fall_back", "blocked": True}),
        script(),
    )
    assert res.outcome.attacker.shift is None and res.outcome.attacker.casualties == 1
    # no relief left: the fall back is compulsory and the combat makes it
    spent = placed(unit(mech, "mi", 10, uid="leg", extra={"lines": 3, "reliefs": 2}), 0, 0)
    o = fight(mech, spent, foe, 0, 2, charge="none")
    assert o.attacker.move == 'Fall back 1"' and o.attacker.shift == pytest.approx((180, 1))
    cav = placed(unit(mech, "mc", 4, uid="cav"), 0, 0)
    res = mech.resolve(
        "after_combat_move", Situation(actor=cav, options={"move": "fall_back"}), script()
    )
    assert res.outcome.attacker.shift is None
    assert res.outcome.attacker.move == 'Fall back 1" (made with the combat)'
    res = mech.resolve(
        "after_combat_move",
        Situation(actor=cav, options={"move": "fall_back", "blocked": True}),
        script(),
    )
    assert res.outcome.attacker.casualties == 1
    assert any("put it back" in line for line in res.explanation)


def test_pass_through_and_retire_behind_the_triarii_are_made_on_the_table(
    mech: LegVIMechanics,
) -> None:
    """Pass through: 4 inches straight ahead through the enemy; a legion in three lines
    defeated retires behind its triarii, moving back its full depth. Moves of dice
    (retire, rout, pursue) and the player's choices stay in words."""
    ahead = mech.t.after_combat_moves.moves["pass_through"].distance
    assert ahead == 4.0
    cav = placed(unit(mech, "mc", 4), 0, 0, facing=90)
    li = placed(unit(mech, "li", 4, side=1), 0.8, 0, facing=270)  # in contact with cav
    o = fight(mech, cav, li, 1, 1)
    assert o.attacker.move == 'Pass through 4"' and o.attacker.shift == (90.0, ahead)
    assert o.defender.shift is None
    leg = placed(unit(mech, "mi", 10), 0, 0)
    o = fight(mech, leg, placed(unit(mech, "hi", 8, side=1), 0, 0.8, 180), 0, 4, charge="none")
    assert o.attacker.move == "Retire behind the triarii"
    assert o.attacker.shift == pytest.approx((180, leg.depth))
    o = fight(mech, unit(mech, "mi", 4), unit(mech, "hi", 8, side=1), 0, 4, charge="none")
    assert o.attacker.move == "Retire" and o.attacker.shift is None
    o = fight(mech, unit(mech, "mi", 8, grade="C"), unit(mech, "mi", 4, side=1), 4, 0)
    assert o.attacker.move == "Pursue" and o.attacker.shift is None
    o = fight(mech, unit(mech, "mi", 6, grade="A"), unit(mech, "mi", 4, side=1), 2, 0)
    assert o.attacker.move.endswith("(player's choice)") and o.attacker.shift is None


def test_supports_fall_back_with_the_unit_they_support(mech: LegVIMechanics) -> None:
    """Supports make the same move as the unit they back: the same shift."""
    a = placed(unit(mech, "mi", 4, uid="a"), 0, 0)
    sup = placed(unit(mech, "mi", 4, uid="s"), 0, -1.5)
    d = placed(unit(mech, "mi", 4, uid="d", side=1), 0.5, 0.8, facing=180)
    res = mech.resolve(
        "melee",
        Situation(actor=a, target=d, options={"charge": "none"}, others=(sup,)),
        script(("4d6", (1, 1, 1, 1)), ("4d6", (6, 6, 1, 1))),
    )
    att = res.outcome.attacker
    assert att.move == 'Fall back 1"' and att.shift == pytest.approx((bearing(0.5, 0.8, 0, 0), 1))
    (support,) = res.others
    assert support.unit_id == "s" and support.effects.shift == att.shift


def test_melee_frequencies_match_odds_with_positions(mech: LegVIMechanics) -> None:
    """With the units placed (the fall back's bearing depends on where they stand) the
    resolver's outcomes are still those of the exact odds."""
    a = placed(unit(mech, "mc", 4, uid="a"), 10, 10)
    d = placed(unit(mech, "mi", 4, uid="d", side=1, grade="C"), 10.7, 10.8, facing=180)
    sit = Situation(actor=a, target=d, options={"charge": "none"})
    odds = assert_frequencies_match(mech, "melee", sit, n=2500)
    assert any(o.attacker.shift or o.defender.shift for o in odds)


def test_evaders_move_their_rolled_distance_away_from_the_chargers(mech: LegVIMechanics) -> None:
    """Evade with a full move away: the evaders' rolled move is made on the table,
    directly away from the chargers, whether they get away or are caught."""
    a = placed(unit(mech, "mi", 4), 0, 0)
    mc = placed(unit(mech, "mc", 4, side=1), 1, 3, facing=180)
    res = mech.resolve(
        "charge",
        Situation(actor=a, target=mc, options={"response": "evade"}),
        script(("avd", (5,)), ("d6", (6,)), ("avd", (2,)), ("d6", (1,))),
    )
    assert res.outcome.result == "evaded" and res.outcome.attacker.shift is None
    assert res.outcome.defender.shift == pytest.approx((bearing(0, 0, 1, 3), 11))
    chargers = placed(unit(mech, "mc", 4, grade="C"), 0, 0)
    li = placed(unit(mech, "li", 4, side=1), 0, 3, facing=180)
    res = mech.resolve(
        "charge",
        Situation(actor=chargers, target=li, options={"response": "evade", "distance": 4}),
        script(("avd", (2,)), ("d6", (1,)), ("avd", (5,)), ("d6", (6,)), ("4d6", (4, 5, 1, 6))),
    )
    d = res.outcome.defender
    assert res.outcome.result == "caught and routed"
    assert d.move == 'evade 3", caught: rout' and d.shift == pytest.approx((0, 3))


def test_rampage_is_made_on_the_table(mech: LegVIMechanics) -> None:
    """A rampaging elephant moves the rolled inches in the rolled direction, read clockwise
    from its facing (it has turned to face the cause)."""
    el = placed(
        unit(mech, "el", 1, markers=frozenset({"rampage"}), extra={"rampage_direction": 3}),
        0,
        0,
        facing=90,
    )
    res = mech.resolve("rampage", Situation(actor=el), script(("avd", (4,)), ("d6", (5,))))
    assert res.outcome.attacker.shift == (210.0, 9.0)
    odds = mech.odds("rampage", Situation(actor=el))
    assert res.outcome in odds
    assert {o.attacker.shift for o in odds} == {(210.0, float(n)) for n in range(3, 12)}
