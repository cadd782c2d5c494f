"""MWAN #90 on the table, worked examples from the article and Castra's recorded readings:
moves by class at the 8" of "Cavalry in line ... may wheel 90 & move 8"", terrain as
``tables.terrain`` decides it (errata "terrain-movement", "terrain-sight"), "Units in contact
with enemy are pinned", "Skirmishers may not close with formed troops", charges ending front
to front, and missiles: "Toss 1 die per figure with a clear shot ... Ranges: bows & slings
15", javelins 9"", checked on the table when both units stand on it (errata "clear-shot",
"missile-arc", "pre-melee-javelins")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import new_battle
from app.core.battle.sample import sample_roster
from app.rules.dice import ScriptedDice
from app.rules.geometry import edge_distance
from app.rules.mechanics import Situation, TurnView, mechanics_for
from app.rules.movement import MoveCheck
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rules.sight import ShotReach
from app.rules.table import Table, TerrainPiece
from app.rules.values import Combatant
from app.rulesets.mwan90.mechanics import MWAN90Mechanics


@pytest.fixture
def mech(registry: Registry) -> MWAN90Mechanics:
    m = mechanics_for(registry.get("mwan90"))
    assert isinstance(m, MWAN90Mechanics)
    return m


@pytest.fixture
def view(mech: MWAN90Mechanics) -> TurnView:
    rs = mech.ruleset
    state = new_battle(rs, mech, (sample_roster(rs, "roman"), sample_roster(rs, "carthaginian")))
    return replace(state.view(), phase=1)  # the movement phase


def at(view: TurnView, unit_id: str, x: float, y: float, facing: float = 0.0) -> Combatant:
    return replace(view.unit(unit_id), x=x, y=y, facing=facing)


def on(view: TurnView, *units: Combatant, terrain: tuple[TerrainPiece, ...] = ()) -> TurnView:
    """Only these units, on a bare 72" x 48" table with ``terrain``."""
    return replace(view, units=units, table=Table(72.0, 48.0, terrain))


def check(mech: MWAN90Mechanics, view: TurnView, unit: str, path: str) -> MoveCheck:
    return mech.check_move(view, unit, Path(parse_path(path)))


def texts(c: MoveCheck) -> str:
    return " | ".join(str(b) for b in c.breaches)


WOOD = TerrainPiece("T1", "woods", ((30.0, 22.0), (42.0, 22.0), (42.0, 24.0), (30.0, 24.0)))


# --------------------------------------------------------------------------- moves


def test_a_legal_move_costs_its_length_and_a_longer_one_is_refused(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    """ "Cavalry in line ... may wheel 90 & move 8"": a wheel of 90 comes with the 8" move,
    costing none of it (errata turning-costs); 9" straight is refused by the allowance."""
    v = on(view, at(view, "A6", 36.0, 20.0))
    straight = check(mech, v, "A6", "forward 8")
    assert straight.ok and straight.cost == pytest.approx(8.0) and straight.allowance == 8
    wheeled = check(mech, v, "A6", "wheel 90 right; forward 8")
    assert wheeled.ok, texts(wheeled)
    assert wheeled.cost == pytest.approx(8.0, abs=1e-9)
    too_far = check(mech, v, "A6", "forward 9")
    assert too_far.forbidden
    assert 'MWAN #90, movement: Roman cavalry (equites) (A6) would move 9.0" with 8.0"' in (
        texts(too_far)
    )


def test_an_illegal_turn_is_refused_naming_the_rule(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Heavy infantry in line may only move forward or wheel 45 degrees."""
    v = on(view, at(view, "B1", 36.0, 30.0, 180.0))
    refused = check(mech, v, "B1", "wheel 90 left")
    assert refused.forbidden
    assert texts(refused).startswith("MWAN #90, Movement: ") and "at most 45 degrees" in texts(
        refused
    )


def test_woods_cost_double_for_formed_troops_not_for_skirmishers(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    """Errata terrain-movement: woods at half speed for formed troops, skirmishers at full
    speed. Hastati 6" forward through 2" of wood spend 8" (6 + 2 more), all they have; 6.5"
    is too far. Velites pass the same wood at 6"."""
    hastati = at(view, "A1", 36.0, 20.0)
    v = on(view, hastati, terrain=(WOOD,))
    six = check(mech, v, "A1", "forward 6")
    assert six.cost == pytest.approx(8.0) and not six.forbidden, texts(six)
    assert six.terrain_crossed[0].piece_id == "T1"
    assert "woods: half speed for formed troops" in six.terrain_crossed[0].note
    assert check(mech, v, "A1", "forward 6.5").forbidden
    velites = at(view, "A5", 36.0, 20.0)
    v = on(view, velites, terrain=(WOOD,))
    assert check(mech, v, "A5", "forward 6").cost == pytest.approx(6.0)


def test_rivers_only_at_a_ford_and_lakes_never(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Errata terrain-movement: a river is crossed only at a ford (at half speed); a lake
    cannot be entered."""
    river = TerrainPiece("T1", "river", ((0.0, 24.0), (72.0, 24.0)), width=2.0)
    ford = TerrainPiece("T2", "ford", ((33.0, 22.0), (39.0, 22.0), (39.0, 26.0), (33.0, 26.0)))
    cav = at(view, "A6", 20.0, 20.0)
    v = on(view, cav, terrain=(river, ford))
    wet = check(mech, v, "A6", "forward 7")
    assert wet.forbidden and "MWAN #90, errata terrain-movement: " in texts(wet)
    assert "cannot enter the river T1" in texts(wet)
    v = on(view, replace(cav, x=36.0), terrain=(river, ford))
    dry = check(mech, v, "A6", "forward 5")
    assert not dry.forbidden, texts(dry)
    assert dry.cost > 5.0  # half speed in the ford
    lake = TerrainPiece("T1", "lake", ((30.0, 24.0), (42.0, 24.0), (42.0, 30.0), (30.0, 30.0)))
    v = on(view, replace(cav, x=36.0), terrain=(lake,))
    assert "cannot enter the lake T1" in texts(check(mech, v, "A6", "forward 6"))


def test_terrain_is_read_from_the_data(mech: MWAN90Mechanics) -> None:
    """Every kind of the table has its row; the effect is the row's (no literals)."""
    t = mech.t.terrain
    cav = Combatant("c", "Cavalry", "cavalry", 0, mech.initial_status("cavalry", 8, None))
    skirm = Combatant(
        "s", "Velites", "skirmish_javelin", 0, mech.initial_status("skirmish_javelin", 8, None)
    )
    for kind, row in t.kinds.items():
        formed, loose = mech.terrain_effect(cav, kind), mech.terrain_effect(skirm, kind)
        assert (formed.passable, formed.cost_factor, formed.blocks_los, formed.cover) == (
            row.passable,
            row.cost_factor,
            row.blocks_sight,
            row.cover,
        )
        assert loose.cost_factor == (row.unformed_cost_factor or row.cost_factor)
        assert formed.rule == "MWAN #90, errata terrain-movement"
    assert {k for k, r in t.kinds.items() if r.blocks_sight} == {"woods", "town", "hill"}


def test_moves_only_in_the_movement_phase(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Turn sequence: 2. Movement, then missiles and melees; the 4" bonus move of a unit
    that routs its opponent (Melee 6) is a pursuit, made in the melee phase."""
    v = on(view, at(view, "A6", 36.0, 20.0))
    assert check(mech, v, "A6", "forward 4").ok
    for phase, name in ((0, "initiative"), (2, "missiles"), (3, "melee")):
        refused = check(mech, replace(v, phase=phase), "A6", "forward 4")
        assert (
            f"MWAN #90, Turn sequence: Roman cavalry (equites) (A6) may move only in the "
            f"movement phase, not in the {name} phase" in texts(refused)
        )
    pursuit = mech.check_move(
        replace(v, phase=3), "A6", Path(parse_path("forward 4")), reason="pursuit"
    )
    assert "MWAN #90, Melee: Roman cavalry (equites) (A6) has no bonus move" in texts(pursuit)


def test_the_bonus_move_pursues_or_charges_into_another_melee(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    """Melee 6: "A unit that routs an opposing unit gets a post-melee bonus move of 4". It
    may use this movement to initiate another melee" (errata bonus-move): the equites, 8"
    moved this turn, still touch the Numidians they routed (out of the battle, where they
    stood): in the melee phase they have 4" more, as a pursuit or a charge on the Gauls
    within reach, legal without forcing; 5" is too far, and once moved away there is no
    bonus left."""
    a6 = replace(at(view, "A6", 36.0, 20.0), moved=8.0)
    gone = at(view, "B7", 36.0, 20.0 + (a6.depth + view.unit("B7").depth) / 2, 180.0)
    gone = replace(gone, status=replace(gone.status, eliminated=True))
    gauls = at(view, "B1", 38.0, 20.0 + a6.depth / 2 + 1.0 + view.unit("B1").depth / 2, 180.0)
    v = replace(on(view, a6, gone, gauls), phase=3)  # the melee phase
    assert mech.has_bonus_move(v, a6)
    pursuit = mech.check_move(v, "A6", Path(parse_path("back 4")), reason="pursuit")
    assert pursuit.ok and pursuit.allowance == 12 and pursuit.left == 4, texts(pursuit)
    far = mech.check_move(v, "A6", Path(parse_path("back 5")), reason="pursuit")
    assert 'would move 5.0" with 4.0" of its 12" left (8.0" used this turn)' in texts(far)
    charge = mech.contact(v, "A6", "B1")
    assert charge.how == "front" and not charge.forbidden, charge.breaches
    assert charge.check is not None and charge.check.cost <= 4.0
    away = replace(v, units=(replace(a6, y=12.0), gone, gauls))
    assert not mech.has_bonus_move(away, away.unit("A6"))
    refused = mech.contact(away, "A6", "B1")
    assert "may charge only in the movement phase, not in the melee phase" in " | ".join(
        map(str, refused.breaches)
    )
    assert not mech.has_bonus_move(replace(v, phase=1), a6)  # only after a melee


def test_first_side_then_second_side(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Turn sequence 2: "Movement: 1st side, 2nd side (Initiative winner chooses 1st or 2nd
    move)". Carthage won: it moves first, and Rome's units wait (refused naming the rule),
    save for the moves the rules give the other side (an evade); once Carthage's move is
    over (end of move) Rome moves and Carthage no more. Had Carthage chosen to move second
    (move order, before anyone moves), Rome would have moved first."""
    a6, b8 = at(view, "A6", 36.0, 10.0), at(view, "B8", 36.0, 38.0, 180.0)
    v = replace(on(view, a6, b8), initiative=1)
    assert mech.side_to_move(v) == 1 and mech.side_to_move(replace(v, phase=2)) is None
    assert check(mech, v, "B8", "forward 4").ok
    wait = check(mech, v, "A6", "forward 4")
    assert wait.forbidden and texts(wait).startswith(
        "MWAN #90, Turn sequence: Carthage moves first this turn: Roman cavalry (equites) (A6) "
        "may move once Carthage's move is over (the end of move action)"
    )
    evade = mech.check_move(v, "A6", Path(parse_path("back 2")), reason="evade")
    assert not evade.forbidden, texts(evade)
    with pytest.raises(ValueError, match="it is Carthage's move, not Rome's"):
        mech.resolve("end_move", Situation(side=0, view=v), ScriptedDice([]))
    over = mech.resolve("end_move", Situation(side=1, view=v), ScriptedDice([]))
    assert over.explanation == ("Carthage's move is over: Rome moves",)
    after = replace(v, sides=(v.sides[0], {**v.sides[1], **(over.sides[1] or {})}))
    assert check(mech, after, "A6", "forward 4").ok
    assert "Carthage's move is over this turn: Rome moves now" in texts(
        check(mech, after, "B8", "forward 4")
    )
    with pytest.raises(ValueError, match="Rome moves second: its move ends with the phase"):
        mech.resolve("end_move", Situation(side=0, view=after), ScriptedDice([]))
    # the winner's choice
    with pytest.raises(ValueError, match="Carthage won the initiative: only it chooses"):
        mech.resolve("move_order", Situation(side=0, view=v), ScriptedDice([]))
    second = Situation(side=1, view=v, options={"choose": "second"})
    chose = mech.resolve("move_order", second, ScriptedDice([]))
    assert chose.explanation == ("Carthage chooses to move second: Rome moves first this turn",)
    rome_first = replace(v, sides=(v.sides[0], {**v.sides[1], **(chose.sides[1] or {})}))
    assert mech.side_to_move(rome_first) == 0
    assert check(mech, rome_first, "A6", "forward 4").ok
    assert mech.side_to_move(replace(rome_first, turn=2)) == 1  # a choice for one turn
    moved = replace(v, units=(replace(a6, moved=2.0), b8))
    with pytest.raises(ValueError, match="units have moved this turn"):
        mech.resolve("move_order", replace(second, view=moved), ScriptedDice([]))


def test_units_in_contact_are_pinned(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Movement 1: units in contact with the enemy are pinned in melee and may not move."""
    a6 = at(view, "A6", 36.0, 20.0)
    b8 = at(view, "B8", 36.0, 20.0 + (a6.depth + view.unit("B8").depth) / 2, 180.0)
    v = on(view, a6, b8)
    pinned = check(mech, v, "A6", "forward 1")
    assert pinned.forbidden and "MWAN #90, Movement: " in texts(pinned)
    assert "pinned in melee" in texts(pinned)
    free = on(view, a6, replace(b8, y=b8.y + 10))
    assert "pinned" not in texts(check(mech, free, "A6", "forward 1"))


# --------------------------------------------------------------------------- charges


def test_a_charge_ends_front_to_front(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Melee 2: formed troops count the figures in contact to their front, so a charge from
    ahead ends with the fronts flat together, centred; within 8" it is legal."""
    a6 = at(view, "A6", 36.0, 20.0)
    b8 = at(view, "B8", 37.0, 30.0, 180.0)
    v = on(view, a6, b8)
    found = mech.contact(v, "A6", "B8")
    assert found.how == "front" and not found.forbidden, found.breaches
    end = found.aligned_end
    assert edge_distance(end, b8.footprint) == pytest.approx(0.0, abs=1e-6)
    assert end.facing % 360 == pytest.approx(0.0) and end.x == pytest.approx(b8.x)
    assert found.check is not None and found.check.cost <= 8.0


def test_skirmishers_may_not_close_with_formed_troops(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    """Melee 1: skirmishers may not close with formed troops; they may with skirmishers."""
    velites = at(view, "A5", 36.0, 20.0)
    v = on(view, velites, at(view, "B1", 36.0, 26.0, 180.0))
    refused = mech.contact(v, "A5", "B1")
    assert refused.forbidden
    assert any(
        b.rule == "MWAN #90, Melee" and "may not close with the formed" in b.text
        for b in refused.breaches
    )
    gap = 26.0 - 20.0 - (velites.depth + view.unit("B1").depth) / 2
    closing = check(mech, v, "A5", f"forward {gap}")  # a plain move into contact, too
    assert "MWAN #90, Melee: Velites (A5) are skirmishers and may not close" in texts(closing)
    assert not check(mech, v, "A5", f"forward {gap - 1}").forbidden
    v = on(view, velites, at(view, "B6", 36.0, 26.0, 180.0))
    assert not mech.contact(v, "A5", "B6").forbidden


def test_formed_troops_move_on_through_skirmishers(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Melee 1: formed troops that contact skirmishers move their full movement through them,
    dispersing them: the umpire confirms the move (then the disperse action); through formed
    enemies the move stays refused."""
    cav = at(view, "A6", 36.0, 20.0)
    javelinmen = at(view, "B6", 36.0, 24.0, 180.0)
    v = on(view, cav, javelinmen)
    through = check(mech, v, "A6", "forward 8")
    assert not through.forbidden and through.needs_confirmation, texts(through)
    assert (
        "MWAN #90, Melee: Roman cavalry (equites) (A6) moves on through the skirmishers "
        "Libyan, Moorish and Spanish javelinmen (B6), scattering them" in texts(through)
    )
    v = on(view, cav, at(view, "B8", 36.0, 24.0, 180.0))
    assert "would pass through the enemy" in texts(check(mech, v, "A6", "forward 8"))
    velites = at(view, "A5", 36.0, 20.0)
    v = on(view, velites, javelinmen)
    assert check(mech, v, "A5", "forward 8").forbidden  # skirmishers do not


# --------------------------------------------------------------------------- missiles


def test_a_shot_out_of_range_is_refused(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Slings reach 15" and javelins 9", base edge to base edge."""
    slingers = at(view, "B5", 36.0, 40.0, 180.0)
    front = slingers.y - slingers.depth / 2
    cav = view.unit("A7")

    def target(gap: float) -> Combatant:
        return replace(cav, x=36.0, y=front - gap - cav.depth / 2, facing=0.0)

    near = target(14.5)
    v = on(view, slingers, near)
    assert mech.odds("shoot", Situation(actor=slingers, target=near, view=v))
    far = target(15.5)
    v = on(view, slingers, far)
    with pytest.raises(ValueError, match=r'MWAN #90, Missiles: .* is 15\.5" from .*15" range'):
        mech.odds("shoot", Situation(actor=slingers, target=far, view=v))
    velites = at(view, "A5", 36.0, 10.0)
    foe = replace(view.unit("B8"), x=36.0, y=10.0 + velites.depth / 2 + 9.5 + 2.0, facing=180.0)
    with pytest.raises(ValueError, match="javelin's 9\" range"):
        mech.odds("shoot", Situation(actor=velites, target=foe, view=on(view, velites, foe)))


def test_a_wood_blocks_the_line_of_sight(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Errata terrain-sight and clear-shot: a wood between shooter and target blocks the
    shot; without it the same shot is allowed."""
    slingers = at(view, "B5", 36.0, 30.0, 180.0)
    cav = at(view, "A7", 36.0, 18.0)
    v = on(view, slingers, cav, terrain=(WOOD,))
    assert mech.line_of_sight(v, "B5", "A7") == (False, ("T1",))
    with pytest.raises(ValueError, match=r"no clear shot .* blocked by the woods T1"):
        mech.odds("shoot", Situation(actor=slingers, target=cav, view=v))
    clear = on(view, slingers, cav)
    assert mech.odds("shoot", Situation(actor=slingers, target=cav, view=clear))


def test_a_unit_between_blocks_the_shot(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Errata clear-shot: a unit standing across the line, friend or foe, blocks it."""
    slingers = at(view, "B5", 36.0, 30.0, 180.0)
    cav = at(view, "A7", 36.0, 18.0)
    friend = at(view, "B1", 36.0, 24.0, 180.0)
    v = on(view, slingers, cav, replace(friend, width=12.0))
    with pytest.raises(ValueError, match=r"blocked by .*\(B1\)"):
        mech.odds("shoot", Situation(actor=slingers, target=cav, view=v))


def test_figures_with_a_clear_shot_counted_from_the_table(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    """Missiles: "Toss 1 die per figure with a clear shot", counted on the table (errata
    clear-shot-figures): the slingers' front cut into one stretch per figure (8); a wood
    before its left part leaves 5 stretches a clear line to the cavalry, so 5 figures
    shoot; in the open all 8 do; the shooters option is the players' own count and
    replaces it."""
    slingers = at(view, "B5", 36.0, 30.0, 180.0)
    cav = at(view, "A7", 36.0, 18.0)
    copse = TerrainPiece("T1", "woods", ((20.0, 20.0), (36.0, 20.0), (36.0, 28.0), (20.0, 28.0)))
    v = replace(on(view, slingers, cav, terrain=(copse,)), phase=2)
    sit = Situation(actor=slingers, target=cav, view=v)
    assert mech.clear_shooters(sit, 15.0, 8) == (5, 5, 8)
    plan = mech.shoot_plan(sit)
    assert plan.dice_a == 5 and "5 of 8 stretches of the shooting edge have a clear shot" in (
        " ".join(plan.why)
    )
    open_ground = replace(sit, view=replace(v, table=Table(72.0, 48.0, ())))
    assert mech.shoot_plan(open_ground).dice_a == 8
    told = mech.shoot_plan(replace(sit, options={"shooters": 7}))
    assert told.dice_a == 7 and "the player's count" in " ".join(told.why)
    assert (
        mech.clear_shooters(
            Situation(actor=replace(slingers, width=0.0, depth=0.0), target=cav), 15.0, 8
        )
        is None
    )


def test_formed_shooters_only_in_their_front_arc(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Errata missile-arc: formed light cavalry shoot into their 90-degree front arc;
    skirmishers (never formed) all round."""
    numidians = at(view, "B7", 36.0, 30.0, 180.0)  # facing down the table
    behind = at(view, "A7", 36.0, 37.0)
    v = on(view, numidians, behind)
    with pytest.raises(ValueError, match="outside the 90-degree front arc"):
        mech.odds("shoot", Situation(actor=numidians, target=behind, view=v))
    ahead = replace(behind, y=23.0)
    assert mech.odds(
        "shoot", Situation(actor=numidians, target=ahead, view=on(view, numidians, ahead))
    )
    slingers = at(view, "B5", 36.0, 30.0, 180.0)
    v = on(view, slingers, behind)
    assert mech.odds("shoot", Situation(actor=slingers, target=behind, view=v))


def test_without_positions_the_shot_is_not_checked(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Hand-set odds: units without a footprint shoot as before, whatever the distance."""
    slingers = replace(view.unit("B5"), width=0.0, depth=0.0)
    cav = replace(view.unit("A7"), width=0.0, depth=0.0, y=-500.0)
    assert mech.odds("shoot", Situation(actor=slingers, target=cav))
    hastati, scutarii = (replace(view.unit(u), width=0.0, depth=0.0) for u in ("A1", "B3"))
    assert mech.odds("javelins", Situation(actor=hastati, target=scutarii))


def test_pre_melee_javelins_only_in_contact(mech: MWAN90Mechanics, view: TurnView) -> None:
    """Only immediately before the first round of a melee: on the table the units touch."""
    hastati = at(view, "A1", 36.0, 20.0)
    scutarii = at(view, "B3", 36.0, 20.0 + hastati.depth, 180.0)
    v = on(view, hastati, scutarii)
    assert mech.odds("javelins", Situation(actor=hastati, target=scutarii, view=v))
    apart = replace(scutarii, y=scutarii.y + 3.0)
    with pytest.raises(ValueError, match=r'MWAN #90, Missiles: pre-melee .* 3\.0" apart'):
        mech.odds("javelins", Situation(actor=hastati, target=apart, view=on(view, hastati, apart)))


def test_shooting_reach_for_the_map(mech: MWAN90Mechanics, view: TurnView) -> None:
    """The map's overlay: slings 15" and velites' javelins 9" all round (unformed), formed
    light cavalry 9" in a 90-degree arc; formed infantry's javelins are thrown only before a
    melee, so they have no reach."""
    rule = "MWAN #90, Missiles"
    assert mech.shooting_reach(view, "B5") == ShotReach(15.0, None, rule)
    assert mech.shooting_reach(view, "A5") == ShotReach(9.0, None, rule)
    assert mech.shooting_reach(view, "A8") == ShotReach(9.0, 90, rule)
    assert mech.shooting_reach(view, "A1") is None


def test_no_command_radius(mech: MWAN90Mechanics, view: TurnView) -> None:
    """The article has no generals (errata no-leaders): no command radius for the map."""
    assert mech.command_reach(view, "A1") is None


def test_formed_troops_through_skirmishers_move_their_full_movement(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    """Melee 1: "Formed troops that contact skirmishers will move their full movement":
    cavalry passing through javelinmen 6" of their 8" is refused naming the rule, the full
    8" is the umpire's to confirm; a charge stopping against the skirmishers is refused too
    (they move on through them); a move short of the skirmishers is free. Touching them,
    the cavalry are not pinned (Movement 1 gives way to Melee 1), the skirmishers are."""
    cav = at(view, "A6", 36.0, 20.0)
    javelinmen = at(view, "B6", 36.0, 24.0, 180.0)
    v = on(view, cav, javelinmen)
    short = check(mech, v, "A6", "forward 7")
    assert short.forbidden
    assert (
        "MWAN #90, Melee: Roman cavalry (equites) (A6) meets the skirmishers Libyan, Moorish "
        "and Spanish javelinmen (B6): formed troops that contact skirmishers move their full "
        'movement through them (7.0" of the 8.0" left)' in texts(short)
    )
    full = check(mech, v, "A6", "forward 8")
    assert not full.forbidden and full.needs_confirmation, texts(full)
    gap = 24.0 - 20.0 - (cav.depth + javelinmen.depth) / 2
    stop = mech.contact(v, "A6", "B6")
    assert stop.forbidden and "move their full movement" in " | ".join(map(str, stop.breaches))
    assert check(mech, v, "A6", f"forward {gap - 0.5}").ok
    # touching the skirmishers, the horse is not pinned: it moves on through them
    touching = on(view, replace(cav, y=cav.y + gap), javelinmen)
    assert not mech.pinned(touching.unit("A6"), touching)
    on_through = check(mech, touching, "A6", "forward 8")
    assert not on_through.forbidden and on_through.needs_confirmation, texts(on_through)
    assert "pinned" in texts(check(mech, touching, "B6", "back 1"))  # skirmishers are


def test_a_charge_blocked_at_the_centre_slides_along_the_front_never_to_a_corner(
    mech: MWAN90Mechanics, view: TurnView
) -> None:
    """Melee 2: figures count "in contact to their front", so a charge whose centred pose
    is blocked (a friend stands there) ends front to front slid along the target's front,
    the fronts still overlapping; with the whole front blocked it is refused naming the
    rule, never corner to corner."""
    a6 = at(view, "A6", 36.0, 20.0)
    b8 = at(view, "B8", 36.0, 30.0, 180.0)
    centre = mech.contact(on(view, a6, b8), "A6", "B8").aligned_end
    friend = replace(at(view, "A7", centre.x - a6.width / 2, centre.y), width=a6.width / 2)
    v = on(view, a6, b8, friend)
    found = mech.contact(v, "A6", "B8")
    assert found.how == "front" and not found.forbidden, found.breaches
    end = found.aligned_end
    assert edge_distance(end, b8.footprint) == pytest.approx(0.0, abs=1e-6)
    assert end.facing % 360 == pytest.approx(0.0)
    assert 0 < abs(end.x - b8.x) < (b8.width + a6.width) / 2  # the fronts overlap
    wall = replace(at(view, "A7", 36.0, centre.y), width=b8.width + 2 * a6.width)
    blocked = mech.contact(on(view, a6, b8, wall), "A6", "B8")
    assert blocked.forbidden and blocked.how != "corner"
    assert "MWAN #90, Melee: Roman cavalry (equites) (A6) finds no open way to" in " | ".join(
        map(str, blocked.breaches)
    )
