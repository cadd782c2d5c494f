"""Quincunx on the table, from the examples its text gives: battlelines move 2 MF (6"),
cavalry 4 MF, light cavalry 6 MF; "Only light troops may enter woods unless there is a
'road' through the forest. Peltasts ... may 'form' only on roads or clearings"; a stream is
crossed "1) Move to the edge of the stream and stop. 2) Next turn move into the center of
the stream and stop. 3) Move to the far shore and stop"; "Units can be removed from a melee
only when you have the initiative conferred by being the mover in a new turn. You may not
remove from a melee on a countermove. If you remove from a melee you may not initiate
another melee that round"; "a unit ... must fight two enemy units. The combats are fought
separately - the unit on the right first"; horses not used to elephants "must remain two
move factors away from them"; missile ranges (javelin 9", bow and sling 24") in "a 90
degree arc of fire to your front"; units "within four move factors (12") of their
commander"."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.rules.dice import ScriptedDice
from app.rules.mechanics import Combatant, LeaderView, Situation, TurnView
from app.rules.movement import MoveCheck, MoveReason
from app.rules.paths import Path, parse_path
from app.rules.registry import BUILTIN_DIR
from app.rules.table import Table, TerrainKind, TerrainPiece
from app.rulesets import load_ruleset
from app.rulesets.quincunx.mechanics import QuincunxMechanics
from app.rulesets.quincunx.rules import EVADED, FIRED, FOUGHT, MELEE_WITH, OUT_OF_COMMAND
from app.rulesets.quincunx.schema import tables
from tests.rules.mechanics_harness import combatant

RS = load_ruleset(BUILTIN_DIR / "quincunx")
M = QuincunxMechanics(RS)
T = tables(RS)
MOVEMENT = [p.id for p in RS.turn.phases].index("movement")
#: footprints of the standard bases (inches): a maniple or warband, cavalry, elephants
SIZES: dict[str, tuple[float, float]] = {
    "roman_hastati": (4.7, 1.6),
    "roman_velites": (3.2, 2.4),
    "extraordinarii": (4.7, 1.6),
    "roman_equites": (4.9, 5.9),
    "numidian_light_cavalry": (7.9, 3.9),
    "celtic_swordsmen": (6.3, 1.6),
    "balearic_slingers": (4.7, 1.6),
    "elephants": (3.2, 3.2),
}


def unit(
    uid: str, troop: str, x: float, y: float, facing: float = 0.0, side: int = 0, **status: Any
) -> Combatant:
    c = combatant(M, troop, 12, side=0 if side == 0 else 1, uid=uid, **status)
    w, d = SIZES[troop]
    return replace(c, x=x, y=y, facing=facing, width=w, depth=d)


def table(
    units: list[Combatant],
    *pieces: tuple[TerrainKind, tuple[tuple[float, float], ...]],
    round: int = 1,
    mover: int = 0,
    leaders: tuple[LeaderView, ...] = (),
) -> TurnView:
    widths = {"river": 3.0, "road": 1.0, "stream": 1.0}
    terrain = tuple(
        TerrainPiece(f"T{i + 1}", kind, pts, width=widths.get(kind))
        for i, (kind, pts) in enumerate(pieces)
    )
    return TurnView(
        turn=1,
        phase=MOVEMENT,
        initiative=0,
        units=tuple(units),
        sides=({"moving": mover == 0}, {"moving": mover == 1}),
        armies=("roman", "carthaginian"),
        side_names=("Rome", "Carthage"),
        round=round,
        leaders=leaders,
        table=Table(72.0, 48.0, terrain),
    )


def check(
    v: TurnView, uid: str, path: str, reason: MoveReason = "move", target: str | None = None
) -> MoveCheck:
    return M.check_move(v, uid, Path(parse_path(path)), reason=reason, target=target)


def said(c: MoveCheck) -> list[str]:
    return [str(b) for b in c.breaches if b.severity == "forbidden"]


#: a wood across the table ahead of the Roman line (y 12 to 16)
WOOD = ((0.0, 12.0), (72.0, 12.0), (72.0, 16.0), (0.0, 16.0))


# --------------------------------------------------------------------------- the allowance


def test_a_battleline_moves_two_move_factors() -> None:
    v = table([unit("A1", "roman_hastati", 20, 8)])
    ok = check(v, "A1", "forward 5; wheel 10 right")
    assert not ok.breaches, said(ok)
    assert ok.allowance == 6.0 and ok.legs[0].cost == pytest.approx(5.0)
    assert ok.cost == pytest.approx(5 + 4.7 * 3.14159265 * 10 / 180, abs=1e-3)
    far = check(v, "A1", "forward 7")
    assert far.forbidden
    assert said(far) == [
        'Quincunx, Movement Matrix: Roman Hastati (A1) would move 7.0" (2.33 MF) with 2 MF left of '
        "its 2 MF (roman/carthaginian battleline)"
    ]
    # what it used this round counts: 4" moved leaves 2" (0.67 MF)
    moved = table([replace(unit("A1", "roman_hastati", 20, 8), moved=4.0)])
    assert "0.67 MF left" in said(check(moved, "A1", "forward 3"))[0]
    assert not check(moved, "A1", "forward 2").breaches


def test_light_cavalry_six_move_factors_skirmishing_peltasts_four() -> None:
    v = table(
        [
            unit("A1", "numidian_light_cavalry", 20, 8),
            unit("A2", "roman_velites", 40, 8),
            unit("A3", "roman_velites", 50, 8, formation="skirmish"),
        ]
    )
    assert not check(v, "A1", "forward 18").breaches
    assert check(v, "A1", "forward 18.5").forbidden
    assert not check(v, "A2", "forward 9").breaches  # formed peltasts 3 MF
    assert check(v, "A2", "forward 10").forbidden
    assert not check(v, "A3", "forward 12").breaches  # skirmishers 4 MF


def test_only_skirmishers_split_move() -> None:
    shot = frozenset({FIRED})
    v = table(
        [
            replace(unit("A1", "balearic_slingers", 20, 8, markers=shot), moved=5.0),
            unit("A2", "roman_velites", 40, 8, markers=shot),
            unit("A3", "roman_velites", 50, 8, formation="skirmish", markers=shot),
        ]
    )
    back = check(v, "A1", "back 5")  # up 5", shot, back 5": within its 12"
    assert not back.breaches and back.remaining == pytest.approx(2.0)
    formed = check(v, "A2", "back 3")
    assert formed.forbidden and "split move" in said(formed)[0]
    assert not check(v, "A3", "back 3").breaches


def test_only_the_moving_side_and_units_in_command_move() -> None:
    v = table(
        [
            unit("A1", "roman_hastati", 20, 8, markers=frozenset({OUT_OF_COMMAND})),
            unit("A2", "roman_velites", 40, 8, formation="skirmish", markers=frozenset({EVADED})),
            unit("B1", "celtic_swordsmen", 20, 40, 180, side=1),
        ]
    )
    assert "Quincunx, Commanders" in said(check(v, "A1", "forward 1"))[0]
    assert "out of command" in said(check(v, "A1", "forward 1"))[0]
    assert said(check(v, "A2", "forward 1"))[0].startswith("Quincunx, Movement Matrix: ")
    assert "evaded" in said(check(v, "A2", "forward 1"))[0]
    assert "it is Rome's move" in said(check(v, "B1", "forward 1"))[0]
    # asked again of the same view (it keeps its answers), each unit and reason has its own
    for _ in range(2):
        assert "out of command" in said(check(v, "A1", "forward 1"))[0]
        assert "evaded" in said(check(v, "A2", "forward 1"))[0]
        assert M.may_move(v, "B1", "move") is not None
        assert M.may_move(v, "B1", "rout") is None
        assert M.may_move(v, "A1", "rout") is None  # driven back out of command all the same
    # the counter-move: Carthage moves, Rome does not
    v2 = replace(v, sides=({"moving": False}, {"moving": True}), round=2)
    assert not check(v2, "B1", "forward 1").breaches
    assert M.side_to_move(v2) == 1


# --------------------------------------------------------------------------- terrain


def test_only_light_troops_enter_woods() -> None:
    v = table(
        [
            unit("A1", "roman_hastati", 10, 10),
            unit("A2", "extraordinarii", 30, 10),
            unit("A3", "roman_velites", 45, 10),
            unit("A4", "roman_velites", 55, 10, formation="skirmish"),
            unit("A5", "numidian_light_cavalry", 65, 8),
        ],
        ("woods", WOOD),
    )
    heavy = check(v, "A1", "forward 4")
    assert heavy.forbidden and "Quincunx, Woods" in said(heavy)[0]
    assert "are not light troops" in said(heavy)[0]
    psiloi = check(v, "A2", "forward 4")
    assert not psiloi.breaches and psiloi.cost == pytest.approx(4.0)  # woods do not slow
    formed = check(v, "A3", "forward 4")
    assert formed.forbidden and "formed peltasts only on a road" in said(formed)[0]
    assert not check(v, "A4", "forward 4").breaches
    assert not check(v, "A5", "forward 6").breaches
    # the rule is the troops' enters_woods flag
    assert [M.troop(t).enters_woods for t in ("roman_hastati", "extraordinarii")] == [False, True]


def test_a_road_through_the_wood_opens_it() -> None:
    road = ((20.0, 0.0), (20.0, 48.0))
    v = table(
        [unit("A1", "roman_hastati", 20, 10), unit("A2", "roman_hastati", 30, 10)],
        ("woods", WOOD),
        ("road", road),
    )
    along = check(v, "A1", "forward 5")
    assert not along.breaches, said(along)
    off = check(v, "A2", "forward 5")
    assert off.forbidden and "Quincunx, Woods" in said(off)[0]


def test_a_stream_is_crossed_in_three_moves() -> None:
    stream = ((0.0, 20.0), (72.0, 20.0))  # the water from y 19.5 to 20.5
    at_bank = 19.5 - 0.8 - 0.2  # the front edge 0.2" short of the water
    v = table(
        [unit("A1", "roman_hastati", 10, at_bank), unit("A2", "roman_hastati", 30, 14)],
        ("stream", stream),
    )
    whole = check(v, "A1", "forward 3")
    assert whole.forbidden and said(whole)[0].startswith("Quincunx, Water: ")
    assert "in one move" in said(whole)[0]
    far = check(v, "A2", "forward 5")  # from 4.7" away: to the bank first
    assert far.forbidden and "must first stop at the bank" in said(far)[0]
    into = check(v, "A1", "forward 1")  # from the bank into the water: allowed
    assert not into.breaches, said(into)
    assert into.cost == pytest.approx(1.0)
    # in the water, in a later round: out to the far bank and stop
    mid = table([unit("A1", "roman_hastati", 10, 20.0)], ("stream", stream))
    assert not check(mid, "A1", "forward 1.5").breaches
    on = check(mid, "A1", "forward 4")
    assert on.forbidden and "stops at its bank" in said(on)[0]
    # not twice in a round: a unit that has moved does not go on into or out of the water
    hurried = table(
        [replace(unit("A1", "roman_hastati", 10, at_bank), moved=2.0)], ("stream", stream)
    )
    assert "only as its first move of a round" in said(check(hurried, "A1", "forward 1"))[0]


def test_a_river_only_at_a_ford() -> None:
    river = ((0.0, 20.0), (72.0, 20.0))  # 3" wide: y 18.5 to 21.5
    ford = ((8.0, 17.0), (12.0, 17.0), (12.0, 23.0), (8.0, 23.0))
    v = table(
        [unit("A1", "roman_hastati", 10, 17.5), unit("A2", "roman_hastati", 30, 17.5)],
        ("river", river),
        ("ford", ford),
    )
    at_ford = check(v, "A1", "forward 1.5")
    assert not at_ford.breaches, said(at_ford)
    elsewhere = check(v, "A2", "forward 1.5")
    assert elsewhere.forbidden and "crossed only at a ford" in said(elsewhere)[0]


def test_kinds_the_text_does_not_name_are_errata() -> None:
    hastati = unit("A1", "roman_hastati", 10, 10)
    slingers = unit("A2", "extraordinarii", 20, 10)
    kinds: tuple[tuple[TerrainKind, bool, bool], ...] = (
        ("hill", True, True),
        ("broken", True, True),
        ("town", False, True),
        ("marsh", False, True),
        ("lake", False, False),
    )
    for kind, passable, light in kinds:
        heavy = M.terrain_effect(hastati, kind)
        assert heavy.passable is passable, kind
        assert M.terrain_effect(slingers, kind).passable is light, kind
        assert heavy.rule.endswith('(errata "terrain-kinds")'), kind
        assert heavy.cost_factor == 1.0
    assert M.terrain_effect(hastati, "hill").blocks_los
    assert {e.id for e in RS.errata} >= {
        "terrain-kinds",
        "woods-light-troops",
        "woods-edge",
        "stream-crossing",
        "break-off",
        "two-enemies-right-first",
        "horses-keep-away",
    }


def test_a_wood_blocks_the_line_of_sight() -> None:
    v = table(
        [
            unit("A1", "balearic_slingers", 30, 8),
            unit("B1", "celtic_swordsmen", 30, 22, 180, side=1),
        ],
        ("woods", WOOD),
    )
    clear, blocked = M.line_of_sight(v, "A1", "B1")
    assert not clear and blocked == ("T1",)
    assert M.line_of_sight(replace(v, table=Table(72.0, 48.0)), "A1", "B1") == (True, ())
    # the shot is refused: out of sight; without the wood, out of range (javelins 9")
    shot = M.resolve(
        "shoot", Situation(actor=v.unit("A1"), target=v.unit("B1"), view=v), ScriptedDice([])
    )
    assert "out of sight behind T1" in shot.outcome.result


def test_shots_refused_out_of_range() -> None:
    slingers = unit("A1", "balearic_slingers", 30, 8)
    near = unit("B1", "celtic_swordsmen", 30, 8 + 0.8 + 0.8 + 20, 180, side=1)  # 20" apart
    far = replace(near, y=8 + 0.8 + 0.8 + 25)  # 25": beyond the sling's 24"
    v = table([slingers, far])
    out = M.resolve("shoot", Situation(actor=slingers, target=far, view=v), ScriptedDice([]))
    assert out.outcome.result.startswith('no fire: out of range: 25.0" away, the sling reaches 24"')
    v = table([slingers, near])
    dice = ScriptedDice([("2d8", (5, 1))])  # 12 firing at long range
    hit = M.resolve(
        "shoot", Situation(actor=slingers, target=near, view=v, options={"range": "long"}), dice
    )
    assert "no fire" not in hit.outcome.result and dice.exhausted


# --------------------------------------------------------------------------- melee


def locked(round: int, mover: int) -> TurnView:
    """A maniple and a warband locked in melee after an undecided round."""
    a = unit("A1", "roman_hastati", 20, 20, extra={MELEE_WITH: "B1"})
    b = unit("B1", "celtic_swordsmen", 20, 21.6, 180, side=1, extra={MELEE_WITH: "A1"})
    c = unit("B2", "celtic_swordsmen", 40, 24, 180, side=1)
    return table([a, b, c], round=round, mover=mover)


def test_leaving_a_melee_only_as_the_mover_of_a_new_turn() -> None:
    counter = check(locked(round=2, mover=0), "A1", "back 3")
    assert counter.forbidden and said(counter)[0].startswith(
        "Quincunx, Melee: Roman Hastati (A1) is in"
    )
    assert "never on a counter-move" in said(counter)[0]
    assert not check(locked(round=1, mover=0), "A1", "back 3").breaches
    # having left it, no new melee that round: a charge is refused
    v = locked(round=1, mover=0)
    gone = replace(v.unit("A1"), y=17.0, moved=3.0)
    v = replace(v, units=(gone, v.unit("B1"), v.unit("B2")))
    charge = check(v, "A1", "forward 1", reason="charge", target="B2")
    assert any("left a melee this round" in s for s in said(charge))
    with pytest.raises(ValueError, match="left a melee this round"):
        M.odds("melee", Situation(actor=gone, target=v.unit("B2"), view=v))


def test_fighting_two_enemies_the_right_hand_one_first() -> None:
    # a maniple facing +y with two warbands touching its front: B2 on its right (+x)
    a = unit("A1", "roman_hastati", 20, 20)
    left = unit("B1", "celtic_swordsmen", 17.5, 21.6, 180, side=1)
    right = unit("B2", "celtic_swordsmen", 23.9, 21.6, 180, side=1)
    v = table([a, left, right])
    assert M.right_hand_first(v, a, left) == right
    with pytest.raises(ValueError, match=r"the one on its right, .* \(B2\), first"):
        M.odds("melee", Situation(actor=left, target=a, view=v))
    M.odds("melee", Situation(actor=right, target=a, view=v))  # the right-hand one: fought
    fought = replace(right, status=replace(right.status, markers=frozenset({FOUGHT})))
    v2 = replace(v, units=(a, left, fought))
    M.odds("melee", Situation(actor=left, target=a, view=v2))  # then the left-hand one


def test_a_charge_ends_front_to_front() -> None:
    v = table(
        [unit("A1", "roman_hastati", 20, 20), unit("B1", "celtic_swordsmen", 21, 25, 180, side=1)]
    )
    found = M.contact(v, "A1", "B1")
    assert found.path is not None and found.check is not None and not found.breaches
    assert found.how == "front"
    end = found.aligned_end
    assert end.facing % 360 == pytest.approx(0.0) and end.x == pytest.approx(21.0)
    assert end.y + 0.8 == pytest.approx(25 - 0.8)  # front edge on the warband's front edge
    assert found.check.cost <= 6.0


def test_horses_keep_two_move_factors_from_elephants() -> None:
    v = table(
        [
            unit("A1", "roman_equites", 20, 10),
            unit("A2", "numidian_light_cavalry", 30, 10),
            unit("B1", "elephants", 25, 25, 180, side=1),
        ]
    )
    close = check(v, "A1", "forward 7")  # front edge 3.45" from the elephants
    assert close.forbidden and said(close)[0].startswith("Quincunx, Elephants and Horses: ")
    assert 'stay 2 MF (6")' in said(close)[0]
    assert not check(v, "A1", "forward 4").breaches  # 6.45" away
    assert not check(v, "A2", "forward 10").breaches  # Numidians are used to elephants
    charge = M.contact(v, "A1", "B1")
    assert any("may not charge the elephants" in str(b) for b in charge.breaches)


# --------------------------------------------------------------------------- the map


def test_shooting_reach_by_weapon_in_the_arc() -> None:
    v = table(
        [
            unit("A1", "roman_velites", 20, 8),
            unit("A2", "balearic_slingers", 30, 8),
            unit("A3", "roman_hastati", 40, 8),
            unit("B1", "elephants", 25, 25, 180, side=1),
        ]
    )
    velites = M.shooting_reach(v, "A1")
    assert velites is not None and (velites.range, velites.arc) == (9.0, 90.0)
    assert velites.rule == "Quincunx, Missilery"
    slingers = M.shooting_reach(v, "A2")
    assert slingers is not None and slingers.range == 24.0
    assert M.shooting_reach(v, "A3") is None  # hastati cast pila only before a melee
    elephants = M.shooting_reach(v, "B1")
    assert elephants is not None and elephants.range == 9.0  # the crews' javelins


def test_command_reach_four_move_factors_about_the_commander() -> None:
    scipio = LeaderView("L1", "Scipio", "general", side=0, x=30.0, y=2.0)
    hannibal = LeaderView("L2", "Hannibal", "general", side=1, x=30.0, y=46.0)
    legate = LeaderView("L3", "Legate", "commander", side=0, x=60.0, y=2.0)
    v = table(
        [unit("A1", "roman_hastati", 55, 8), unit("B1", "celtic_swordsmen", 20, 40, 180, side=1)],
        leaders=(scipio, hannibal, legate),
    )
    reach = M.command_reach(v, "A1")
    assert reach is not None and reach.centre == (60.0, 2.0) and reach.radius == 12.0
    assert reach.rule.startswith("Quincunx, Commanders")
    other = M.command_reach(v, "B1")
    assert other is not None and other.centre == (30.0, 46.0)
    assert M.command_reach(replace(v, leaders=()), "A1") is None


# --------------------------------------------------------------------------- the ground


def test_only_the_edge_of_a_wood_fights_or_is_shot_at() -> None:
    wood = ((20.0, 20.0), (40.0, 20.0), (40.0, 30.0), (20.0, 30.0))
    slingers = unit("A1", "balearic_slingers", 30, 12)
    hastati = unit("A2", "roman_hastati", 30, 18.9, rings=1)  # touching the warband: d10
    edge = unit("B1", "celtic_swordsmen", 30, 20.5, 180, side=1)  # astride the outline
    deep = unit("B2", "celtic_swordsmen", 30, 26, 180, side=1)
    v = table([slingers, hastati, edge, deep], ("woods", wood))
    # at the edge: shot at in the cover column (12 firing: 2d6, not 2d10 at short range)
    dice = ScriptedDice([("2d6", (4, 1))])
    shot = M.resolve("shoot", Situation(actor=slingers, target=edge, view=v), dice)
    assert dice.exhausted and "1 casualty" in shot.outcome.result
    # deep in the wood: neither shot at nor fought from outside
    out = M.resolve("shoot", Situation(actor=slingers, target=deep, view=v), ScriptedDice([]))
    assert out.outcome.result.startswith("no fire: Celtic Swordsmen stand deep in the woods T1")
    with pytest.raises(ValueError, match="only troops at its edge fight"):
        M.odds("melee", Situation(actor=hastati, target=deep, view=v))
    # the attackers of defenders at the edge read one column right (d8), set from the table
    on_table = M.odds("melee", Situation(actor=hastati, target=edge, view=v))
    bare = replace(v, table=Table(72.0, 48.0))
    flag = {"wood_edge": True}
    by_hand = M.odds("melee", Situation(actor=hastati, target=edge, view=bare, options=flag))
    in_open = M.odds("melee", Situation(actor=hastati, target=edge, view=bare))
    assert on_table == by_hand != in_open


def test_a_unit_in_the_water_fights_as_crossing() -> None:
    stream = ((0.0, 20.0), (72.0, 20.0))
    wading = unit("A1", "roman_hastati", 30, 20.0)  # in the stream
    warband = unit("B1", "celtic_swordsmen", 30, 21.6, 180, side=1)
    v = table([wading, warband], ("stream", stream))
    on_table = M.odds("melee", Situation(actor=wading, target=warband, view=v))
    by_hand = M.odds(
        "melee", Situation(actor=wading, target=warband, options={"attacker_crossing": True})
    )
    assert on_table == by_hand != M.odds("melee", Situation(actor=wading, target=warband))
