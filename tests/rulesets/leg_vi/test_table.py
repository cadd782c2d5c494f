"""Leg VI on the table, worked examples from the text: "Movement must stop at 4" from formed
enemy"; "Unformed enemy must fall back in face of an advance by formed troops, maintaining a
4" distance"; "Charges may only be declared against enemy within 4""; march moves "must begin
and end their move beyond 8" of enemy"; non-march moves "are determined by dice. The full
distance must be moved"; "Rough Terrain ... Usually impassable for cavalry and elephants.
Formed HI (except triarii) take 2 DPs for moving through or across. Formed MI and triarii
take 1 DP. Unformed Infantry are not affected"; light troops shoot 4" and face all round;
"Units within 4" of a detached leader are under control"."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import (
    AddTerrain,
    BattleSession,
    CommandError,
    MoveUnit,
    NextPhase,
    StartBattle,
    new_battle,
)
from app.core.battle.commands import Act, Adjust
from app.core.battle.moves import plan_charge
from app.core.battle.sample import sample_roster
from app.core.battle.session import Step
from app.core.battle.state import BattleState, BattleUnit
from app.rules.geometry import edge_distance
from app.rules.mechanics import TurnView, mechanics_for
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rules.table import TerrainPiece
from app.rules.values import Combatant
from app.rulesets.leg_vi.mechanics import LegVIMechanics
from app.rulesets.leg_vi.units import ROLLED_KIND, ROLLED_MOVE, ROLLED_TURN

#: the phases' positions in the sequence of play (Leg VI, Playing the Game)
SKIRMISH, MANOEUVRE, CHARGE, AFTER_COMBAT = 1, 2, 3, 5
SEQ = "Leg VI, Playing the Game"
LEGION = "Leg VI, Roman Legions"
WOOD = ((30.0, 24.0), (42.0, 24.0), (42.0, 27.0), (30.0, 27.0))


@pytest.fixture
def mech(registry: Registry) -> LegVIMechanics:
    m = mechanics_for(registry.get("leg-vi-carthago"))
    assert isinstance(m, LegVIMechanics)
    return m


@pytest.fixture
def state(mech: LegVIMechanics) -> BattleState:
    """The sample battle in the manoeuvre phase (III), where formed troops move."""
    rs = mech.ruleset
    made = new_battle(rs, mech, (sample_roster(rs, "roman"), sample_roster(rs, "carthaginian")))
    return replace(made, phase=MANOEUVRE)


def at(state: BattleState, unit_id: str, x: float, y: float, facing: float) -> BattleState:
    return state.replace_unit(replace(state.unit(unit_id), x=x, y=y, facing=facing))


def alone(view: TurnView, *placed: tuple[str, float, float, float]) -> TurnView:
    """Only the named units on the table, where given."""
    units = tuple(replace(view.unit(uid), x=x, y=y, facing=f) for uid, x, y, f in placed)
    return replace(view, units=units)


def rolled(c: Combatant, distance: float, kind: str = "move", turn: int = 1) -> Combatant:
    extra = {**c.status.extra, ROLLED_MOVE: distance, ROLLED_TURN: turn, ROLLED_KIND: kind}
    return replace(c, status=replace(c.status, extra=extra))


def rolled_unit(u: BattleUnit, distance: float) -> BattleUnit:
    extra = {**u.status.extra, ROLLED_MOVE: distance, ROLLED_TURN: 1, ROLLED_KIND: "move"}
    return replace(u, status=replace(u.status, extra=extra))


def started(mech: LegVIMechanics, state: BattleState, phase: int) -> BattleSession:
    """A session of ``state``, the battle begun and turn 1 gone on to ``phase``."""
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    session.do(StartBattle())
    while session.state.phase != phase:
        session.do(NextPhase())
    return session


def in_control(session: BattleSession, side: int | None = None) -> BattleSession:
    """For the tests of other rules: the umpire takes the units the command phase found out
    of control as under control (a correction by hand, as the players would agree), and,
    when ``side`` should act now, the side acting first in the phase is done."""
    for u in session.state.units:
        if u.status.has("out_of_control"):
            session.do(Adjust(unit=u.id, field="marker", value="-out_of_control"))
    now = session.mechanics.side_to_move(session.state.view())
    if side is not None and now is not None and now != side:
        session.do(Act(action="done", side=now))
    return session


def rules(check: object, rule: str) -> list[str]:
    return [b.text for b in check.breaches if b.rule == rule]  # type: ignore[attr-defined]


def test_moves_stop_4_inches_from_formed_enemy(mech: LegVIMechanics, state: BattleState) -> None:
    """Allied spearmen (A6, formed HI) rolled 6" and advance on the Libyans (B2, formed HI)
    9.21" away: 5.21" ends 4" off, legal and made in full as far as the rule allows; 6"
    would come 3.2" from them and is refused; the same advance on caetrati (B4, light
    troops) is not stopped."""
    view = alone(state.view(), ("A6", 36, 20, 0), ("B2", 36, 30, 180))
    view = replace(view, units=(rolled(view.unit("A6"), 6.0), view.unit("B2")))
    gap = edge_distance(view.unit("A6").footprint, view.unit("B2").footprint)
    assert gap == pytest.approx(10 - 0.787, abs=0.01)
    legal = mech.check_move(view, "A6", Path(parse_path(f"forward {gap - 4:.4f}")))
    assert legal.ok and legal.cost == pytest.approx(gap - 4, abs=1e-3) and legal.allowance == 6
    refused = mech.check_move(view, "A6", Path(parse_path("forward 6")))
    assert refused.forbidden
    (text,) = rules(refused, "Leg VI, Movement")
    assert 'would come 3.2" from the formed enemy Libyan spearmen (B2)' in text
    assert 'moves stop 4" from formed enemy' in text
    # not short of the dice without a reason: 3" of 6" needs the umpire
    short = mech.check_move(view, "A6", Path(parse_path("forward 3")))
    assert not short.forbidden and short.needs_confirmation
    assert "made in full" in rules(short, "Leg VI, Non-March Moves")[0]
    # halting 4" short of a wood (rough terrain) or of a friend is the rule's own halt
    wood = TerrainPiece("T1", "woods", ((30, 27.0), (42, 27.0), (42, 29), (30, 29)))
    before_wood = replace(view, table=replace(view.table, terrain=(wood,)))
    halted = mech.check_move(before_wood, "A6", Path(parse_path("forward 2.606")))
    assert halted.ok, halted.breaches
    friend = replace(view.unit("A6"), unit_id="A9", x=36, y=27.0)
    before_friend = replace(view, units=(*view.units, friend))
    assert mech.check_move(before_friend, "A6", Path(parse_path("forward 2.213"))).ok
    # unformed enemy do not stop a move (they fall back instead)
    light = alone(state.view(), ("A6", 36, 20, 0), ("B4", 36, 30, 180))
    light = replace(light, units=(rolled(light.unit("A6"), 6.0), light.unit("B4")))
    assert mech.check_move(light, "A6", Path(parse_path("forward 6"))).ok


def test_march_moves_begin_and_end_beyond_8_inches(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """Beyond 8" of enemy infantry march 8" (no dice); the march may not end within 8"."""
    view = alone(state.view(), ("A6", 36, 10, 0), ("B2", 36, 30, 180))
    ok = mech.check_move(view, "A6", Path(parse_path("forward 8")))
    assert ok.ok and ok.allowance == 8 and ok.cost == pytest.approx(8)
    assert mech.check_move(view, "A6", Path(parse_path("forward 9"))).forbidden
    close = alone(state.view(), ("A6", 36, 14, 0), ("B2", 36, 30, 180))
    refused = mech.check_move(close, "A6", Path(parse_path("forward 8")))
    (text,) = rules(refused, "Leg VI, March Move")
    assert refused.forbidden and 'ends beyond 8" of enemy' in text.replace("and ends", "ends")


def test_a_dice_move_rolled_is_the_allowance_of_the_move(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """Within 8" of enemy a move waits on its dice (the umpire confirms any distance); the
    dice_move action records what it rolled, and the move on the table is checked against
    it, through the core, so undo takes both back."""
    state = at(at(state, "A6", 36, 20, 0), "B2", 36, 28, 180)
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    session.do(StartBattle())
    view = session.state.view()
    unrolled = mech.check_move(view, "A6", Path(parse_path("forward 1")))
    assert unrolled.needs_confirmation and unrolled.allowance is None
    step = session.do(Act(action="dice_move", actor="A6"))
    extra = session.state.unit("A6").status.extra
    dist = float(extra[ROLLED_MOVE])
    assert extra[ROLLED_KIND] == "move" and f'{dist:g}"' in " ".join(step.lines)
    check = mech.check_move(session.state.view(), "A6", Path(parse_path("forward 20")))
    assert check.allowance == dist and check.forbidden
    assert any(f'with {dist:.1f}" of its {dist:g}" left' in b.text for b in check.breaches)
    # moved in full, or halted 4" from the Libyans: legal without the umpire
    gap = edge_distance(session.state.unit("A6").footprint, session.state.unit("B2").footprint)
    d = round(min(dist, gap - 4), 4)
    session.do(MoveUnit(unit="A6", legs=parse_path(f"forward {d}")))
    assert session.state.unit("A6").moved == pytest.approx(d)
    session.undo()
    session.undo()
    assert ROLLED_MOVE not in session.state.unit("A6").status.extra


def test_a_charge_is_declared_within_4_inches_and_ends_front_to_front(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """Spearmen 3.5" in front of the Libyans, a little to one side: the charge needs no dice
    and no allowance, and ends in contact front to front, lined up on the target; from 5"
    it is refused naming the rule."""
    view = alone(state.view(), ("A6", 35, 25.71, 0), ("B2", 36, 30, 180))
    view = replace(view, phase=CHARGE)
    found = mech.contact(view, "A6", "B2")
    assert found.path is not None and found.how == "front"
    assert not found.forbidden and not found.needs_confirmation, found.breaches
    end, target = found.aligned_end, view.unit("B2")
    assert edge_distance(end, target.footprint) == pytest.approx(0, abs=1e-6)
    assert end.facing == pytest.approx(0) and end.x == pytest.approx(target.x)
    far = alone(replace(state.view(), phase=CHARGE), ("A6", 36, 24.21, 0), ("B2", 36, 30, 180))
    refused = mech.contact(far, "A6", "B2")
    assert refused.forbidden
    assert any(
        "declared only against enemy within 4" in t for t in rules(refused, "Leg VI, Charges")
    )


def test_rough_terrain_by_troop(mech: LegVIMechanics, state: BattleState) -> None:
    """Woods: formed HI 2 DPs, formed MI 1, unformed infantry none, cavalry and elephants
    barred; a stream is a minor obstacle (cavalry 1 DP, elephants none); no terrain slows a
    move; woods block sight and are cover, hills block sight; a lake bars everyone."""
    v = state.view()
    hi, mi, li, cav = v.unit("A6"), v.unit("B3"), v.unit("A3"), v.unit("A5")
    assert [mech.terrain_dps(u, "woods") for u in (hi, mi, li, cav)] == [2, 1, 0, None]
    assert [mech.terrain_dps(u, "stream") for u in (hi, mi, li, cav)] == [2, 1, 0, 1]
    woods = mech.terrain_effect(hi, "woods")
    assert woods.passable is True and woods.cost_factor == 1 and woods.blocks_los and woods.cover
    assert woods.rule == "Leg VI, Rough Terrain" and "2 DPs" in woods.note
    assert mech.terrain_effect(cav, "woods").passable is False
    hill = mech.terrain_effect(cav, "hill")
    assert hill.passable is True and hill.blocks_los and not hill.cover
    assert mech.terrain_effect(li, "lake").passable is False


def test_moving_through_woods_costs_dps_once_made(mech: LegVIMechanics, state: BattleState) -> None:
    """Spearmen (formed HI) march 8" through a wood: the distance is not slowed, the move
    is legal, and once made the unit has 2 DPs, in the same step (undo takes them back);
    cavalry may not enter; velites go through untouched."""
    state = at(at(at(state, "A6", 36, 20, 0), "A5", 20, 20, 0), "A3", 31, 20, 0)
    session = started(mech, state, MANOEUVRE)
    session.do(AddTerrain(terrain="woods", points=WOOD, name="Silva"))
    check = mech.check_move(session.state.view(), "A6", Path(parse_path("forward 8")))
    assert check.ok and check.cost == pytest.approx(8)
    assert [t.kind for t in check.terrain_crossed] == ["woods"]
    step = session.do(MoveUnit(unit="A6", legs=parse_path("forward 8")))
    assert session.state.unit("A6").status.dps == 2
    assert any('rough terrain (woods T1 "Silva"): 2 DPs' in line for line in step.lines)
    session.undo()
    assert session.state.unit("A6").status.dps == 0
    session.redo()
    assert session.state.unit("A6").status.dps == 2
    cav = mech.check_move(session.state.view(), "A5", Path(parse_path("right 12; forward 6")))
    assert any("cannot enter the woods T1" in t for t in rules(cav, "Leg VI, Rough Terrain"))
    session.do(NextPhase())  # velites move in the skirmish phase of turn 2
    while session.state.phase != SKIRMISH:
        session.do(NextPhase())
    in_control(session, 0)
    session.do(MoveUnit(unit="A3", legs=parse_path("forward 8")))
    assert session.state.unit("A3").status.dps == 0


def test_unformed_enemy_fall_back_before_a_formed_advance(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """Allied spearmen march to 2" of the Spanish caetrati (light troops, 10" off): the
    caetrati fall back in the same step, directly away, until 4" off again."""
    state = at(at(state, "A6", 36, 14, 0), "B4", 36, 24.79, 180)
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    session.do(StartBattle())
    # A6 rolled 8" (a march would have to end beyond 8" of the caetrati)
    state = session.state.replace_unit(rolled_unit(session.state.unit("A6"), 8.0))
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    before = session.state.unit("B4")
    step = session.do(MoveUnit(unit="A6", legs=parse_path("forward 8")))
    after, spear = session.state.unit("B4"), session.state.unit("A6")
    gap = edge_distance(spear.footprint, after.footprint)
    assert 4 <= gap <= 4.01 and after.x == pytest.approx(before.x) and after.y > before.y
    assert after.facing == before.facing
    assert any(
        'fall back 2.00" before Italian or Greek allied spearmen (A6)' in x for x in step.lines
    )
    session.undo()
    assert session.state.unit("B4") == before


def test_line_of_sight_blocked_by_a_wood(mech: LegVIMechanics, state: BattleState) -> None:
    """Velites and caetrati 3" apart with a wood between them do not see each other; on
    open ground they do."""
    view = alone(state.view(), ("A3", 36, 22.6, 0), ("B4", 36, 28.4, 180))
    assert mech.line_of_sight(view, "A3", "B4") == (True, ())
    wood = TerrainPiece("T1", "woods", ((30, 24.5), (42, 24.5), (42, 26.5), (30, 26.5)))
    blocked = replace(view, table=replace(view.table, terrain=(wood,)))
    assert mech.line_of_sight(blocked, "A3", "B4") == (False, ("T1",))


def test_shooting_and_command_reach(mech: LegVIMechanics, state: BattleState) -> None:
    """Light troops shoot 4", all round (unformed, they face all round); others do not
    shoot. A detached leader controls units within 4" of him; an attached one only his."""
    view = state.view()
    reach = mech.shooting_reach(view, "A3")
    assert reach is not None and (reach.range, reach.arc) == (4.0, None)
    assert reach.rule == "Leg VI, Shooting"
    assert mech.shooting_reach(view, "A6") is None
    # the general rides with the legion: he controls it alone, no radius beyond it
    own = mech.command_reach(view, "A1")
    assert own is not None and own.radius == 0 and own.rule == "Leg VI, Control"
    assert own.centre == (view.unit("A1").x, view.unit("A1").y)
    assert mech.command_reach(view, "A6") is None  # the side's only leader is attached
    (general,) = [ld for ld in view.leaders if ld.side == 0]
    loose = replace(general, attached_to=None, x=40.0, y=12.0)
    view = replace(view, leaders=(loose,))
    cmd = mech.command_reach(view, "A6")
    assert cmd is not None and cmd.centre == (40.0, 12.0) and cmd.radius == 4.0
    assert cmd.rule == "Leg VI, Control"


def test_plan_charge_through_the_core(mech: LegVIMechanics, state: BattleState) -> None:
    """A charge made with the core's command: contact, nothing forced."""
    state = at(at(state, "A6", 36, 25.71, 0), "B2", 36, 30, 180)
    session = started(mech, state, CHARGE)
    charge = plan_charge(session.state, mech, "A6", "B2")
    step = session.do(charge)
    assert "contact front to front" in step.lines[0] and not charge.force
    a6, b2 = session.state.unit("A6"), session.state.unit("B2")
    assert edge_distance(a6.footprint, b2.footprint) == pytest.approx(0, abs=1e-6)


def test_a_rout_rolled_is_made_in_full_away_from_the_enemy(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """After a defeat the Gauls rout: the dice_move of kind rout records its roll (pips plus
    1" a die for a first rout move), and the rout made on the table with that roll as its
    allowance: straight back in full is legal with no umpire; towards the enemy it is
    refused; a shorter one needs the umpire; without a roll the umpire confirms any
    distance."""
    state = at(at(state, "B5", 36, 30, 180), "A6", 36, 27, 0)
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    session.do(StartBattle())
    view = session.state.view()
    assert mech.check_move(view, "B5", Path(parse_path("back 3")), reason="rout").allowance is None
    step = session.do(Act(action="dice_move", actor="B5", options={"kind": "rout"}))
    extra = session.state.unit("B5").status.extra
    dist = float(extra[ROLLED_MOVE])
    dice = [f for r in step.rolls for f in r.faces]
    assert len(dice) == 2 and dist == sum(dice) + len(dice)  # 1" a die for the first rout move
    view = session.state.view()
    made = mech.check_move(view, "B5", Path(parse_path(f"back {dist}")), reason="rout")
    assert made.ok and made.allowance == dist
    towards = mech.check_move(view, "B5", Path(parse_path("forward 1")), reason="rout")
    assert towards.forbidden
    assert "a rout moves away from the enemy" in rules(towards, "Leg VI, After Combat Moves")[0]
    short = mech.check_move(view, "B5", Path(parse_path("back 1")), reason="rout")
    assert short.needs_confirmation and not short.forbidden
    session.do(MoveUnit(unit="B5", legs=parse_path(f"back {dist}"), reason="rout"))
    assert session.state.unit("B5").y == pytest.approx(30 + dist)


def test_elephants_pass_through_enemy_light_troops(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """ "Elephants may harmlessly pass through enemy light troops": an elephant moving
    through the velites is not refused; through formed spearmen it is."""
    base = 20 / 25.4
    elephant = Combatant(
        "B9", "Elephant", "el", 1, mech.initial_status("el", 1, "C"), None, None,
        36, 18, 180, base, base,
    )  # fmt: skip
    view = state.view()
    velites = replace(view.unit("A3"), x=36, y=14, facing=0)
    spears = replace(view.unit("A6"), x=36, y=14, facing=0)
    through = replace(view, units=(rolled(elephant, 8.0), velites))
    assert mech.check_move(through, "B9", Path(parse_path("forward 8"))).ok
    blocked = replace(view, units=(rolled(elephant, 8.0), spears))
    refused = mech.check_move(blocked, "B9", Path(parse_path("forward 8")))
    assert any("would pass through the enemy" in b.text for b in refused.breaches)


def test_a_shot_needs_range_and_sight_and_woods_are_cover(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """Velites shoot the caetrati 3" off in the open; from 5" the shot is refused (range
    4"); with a wood between them it is refused (no clear sight); caetrati standing in the
    wood are in cover (dice halved) and seen from its edge."""
    state = at(at(state, "A3", 36, 20, 0), "B4", 36, 23.79, 180)
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    session.do(StartBattle())
    step = session.do(Act(action="shoot", actor="A3", target="B4"))
    assert any("shoots at" in line for line in step.lines)
    session.undo()
    far = at(session.state, "B4", 36, 25.79, 180)
    session = BattleSession(mech.ruleset, mech, far, seed=4)
    with pytest.raises(CommandError, match=r'caetrati is 5\.0" from Velites, beyond the 4" range'):
        session.do(Act(action="shoot", actor="A3", target="B4"))
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    session.do(AddTerrain(terrain="woods", points=((30, 21.2), (42, 21.2), (42, 23), (30, 23))))
    with pytest.raises(CommandError, match=r"no clear line of sight to .* \(blocked by T1\)"):
        session.do(Act(action="shoot", actor="A3", target="B4"))
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    session.do(AddTerrain(terrain="woods", points=((30, 23.5), (42, 23.5), (42, 27), (30, 27))))
    step = session.do(Act(action="shoot", actor="A3", target="B4"))
    assert any("in cover" in line for line in step.lines), step.lines


def test_each_troop_moves_in_its_phase(mech: LegVIMechanics, state: BattleState) -> None:
    """Phase II: "Light troops ... may: move"; Phase III: "Non-light troops ... may be
    moved"; Phase IV: "Declare charges and make charge and charge response moves". Velites
    move in the skirmish phase, not the manoeuvre phase; spearmen the other way round; a
    charge waits for the charge phase; a rout goes when the rules send it."""
    view = alone(state.view(), ("A3", 20, 10, 0), ("A6", 36, 10, 0), ("B2", 36, 15.5, 180))
    step = Path(parse_path("forward 2"))
    for phase, light_ok, formed_ok in ((SKIRMISH, True, False), (MANOEUVRE, False, True)):
        v = replace(view, phase=phase)
        light, formed = mech.check_move(v, "A3", step), mech.check_move(v, "A6", step)
        assert (not rules(light, SEQ)) == light_ok
        assert (not rules(formed, SEQ)) == formed_ok
    (why,) = rules(mech.check_move(replace(view, phase=MANOEUVRE), "A3", step), SEQ)
    assert why == (
        "Velites (A3): light troops move in the skirmish phase (II), not in the manoeuvre phase"
    )
    (why,) = rules(mech.check_move(replace(view, phase=0), "A6", step), SEQ)
    assert "troops other than light move in the manoeuvre phase (III), not in the command" in why
    for phase, refused in ((MANOEUVRE, True), (CHARGE, False)):
        charge = mech.contact(replace(view, phase=phase), "A6", "B2")
        assert bool(rules(charge, SEQ)) == refused
    assert (
        "may charge only in the charge phase (IV)"
        in rules(mech.contact(replace(view, phase=MANOEUVRE), "A6", "B2"), SEQ)[0]
    )
    rout = mech.check_move(replace(view, phase=AFTER_COMBAT), "A6", step, reason="rout")
    assert not rules(rout, SEQ)


def test_the_nearest_target_is_shot_and_engaged_units_are_not(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """Leg VI, Shooting: "The nearest target must be shot at ... Enemy engaged bases in
    combat are not eligible targets." Velites with caetrati 3" off and Gauls 2" off must
    shoot the Gauls; once the Gauls are in combat with the spearmen, the caetrati are the
    nearest eligible target and the Gauls may not be shot."""
    state = at(at(state, "A3", 36, 20, 0), "B4", 36, 23.79, 180)
    state = at(state, "B5", 40.5, 22.79, 180)
    session = in_control(started(mech, state, SKIRMISH), 0)
    with pytest.raises(CommandError, match=r"Gauls \(B5\) is nearer .* the nearest target must"):
        session.do(Act(action="shoot", actor="A3", target="B4"))
    step = session.do(Act(action="shoot", actor="A3", target="B5"))
    assert any("shoots at Gauls" in line for line in step.lines)
    session.undo()
    # the spearmen (A6) in contact with the Gauls' rear
    gauls, spear = state.unit("B5"), state.unit("A6")
    engaged = at(state, "A6", 40.5, gauls.y + (gauls.depth + spear.depth) / 2, 180)
    session = in_control(started(mech, engaged, SKIRMISH), 0)
    with pytest.raises(CommandError, match=r"Gauls is engaged in combat: engaged bases are not"):
        session.do(Act(action="shoot", actor="A3", target="B5"))
    step = session.do(Act(action="shoot", actor="A3", target="B4"))
    assert any("shoots at Spanish caetrati" in line for line in step.lines)


def test_a_pursuit_heads_for_the_enemy_it_pursues(mech: LegVIMechanics, state: BattleState) -> None:
    """Leg VI, After Combat Moves: "Pursue. Make a full unformed move, in an attempt to
    remain in contact with opponent who routed or retired." Spearmen pursuing the routing
    Gauls 3" off may follow them, not turn away from them."""
    view = alone(state.view(), ("A6", 36, 20, 0), ("B5", 36, 24.6, 0))
    gauls = view.unit("B5")
    gauls = replace(gauls, status=replace(gauls.status, markers=frozenset({"routing"})))
    view = replace(view, units=(view.unit("A6"), gauls), phase=AFTER_COMBAT)
    assert edge_distance(view.unit("A6").footprint, gauls.footprint) == pytest.approx(3.81, 0.01)
    follow = mech.check_move(view, "A6", Path(parse_path("forward 3")), reason="pursuit")
    assert not rules(follow, "Leg VI, After Combat Moves")
    away = mech.check_move(view, "A6", Path(parse_path("back 3")), reason="pursuit")
    (why,) = rules(away, "Leg VI, After Combat Moves")
    assert why == (
        'Italian or Greek allied spearmen (A6) would end 6.8" from Gauls (B5), 3.8" before: '
        "a pursuit heads for the enemy it pursues"
    )
    assert away.forbidden


def test_formed_units_step_sideways_or_back_only_as_a_side_step(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """Leg VI, Manoeuvre: "Movement by formed units must be directly to the front ... To do
    otherwise, requires units to manoeuvre"; "Side-step/step-back: Up to 2" taking a full
    move. A-B Grade Infantry only." The B grade Libyan spearmen side-step 2" or step back 1"
    and aside 1"; not 2.5", not after a step forward; the C grade allied spearmen and the
    equites may not; the velites (unformed) move freely. A legion "may only move in the
    direction of facing": the B grade Roman legion does not side-step at all (errata
    'formed-units-wheel')."""
    view = alone(
        state.view(),
        ("B2", 20, 10, 0),
        ("A6", 36, 10, 0),
        ("A3", 50, 10, 0),
        ("A4", 60, 10, 0),
        ("A1", 8, 30, 0),
    )

    def why(unit_id: str, path: str) -> list[str]:
        return rules(mech.check_move(view, unit_id, Path(parse_path(path))), "Leg VI, Manoeuvre")

    assert why("B2", "right 2") == [] and why("B2", "back 1; left 1") == []
    (too_far,) = why("B2", "right 2.5")
    assert too_far == (
        "Libyan spearmen (B2) is formed: it moves directly to its front; a side-step or step "
        'back goes 2" at most (asked: right 2.5)'
    )
    assert "takes the whole move" in why("B2", "forward 2; right 1")[0]
    assert "only A-B grade formed infantry side-step" in why("A6", "right 1")[0]
    assert "only A-B grade formed infantry side-step" in why("A4", "back 1")[0]
    assert why("A3", "right 3; back 2") == []
    assert mech.check_move(view, "B2", Path(parse_path("right 2"))).ok
    for path in ("right 2", "back 1"):
        (legion,) = rules(mech.check_move(view, "A1", Path(parse_path(path))), LEGION)
        assert legion.startswith("Roman legion (A1) is a legion: it moves only in the direction")


def test_formed_units_wheel_rather_than_pivot(mech: LegVIMechanics, state: BattleState) -> None:
    """Leg VI, Manoeuvre: "Wheel: Inside edge remains stationary, measure distance moved by
    outside edge"; "About Face: 1/2 move. Turns to the flank changes line into column and
    visa versa counting as a formation change." A formed unit turns by those, never by a
    pivot about its centre (errata 'formed-units-wheel'); unformed troops and elephants
    turn as they like."""
    view = alone(state.view(), ("B2", 20, 10, 0), ("A3", 50, 10, 0), ("A1", 8, 30, 0))

    def why(unit_id: str, path: str) -> list[str]:
        return rules(mech.check_move(view, unit_id, Path(parse_path(path))), "Leg VI, Manoeuvre")

    (pivot,) = why("B2", "pivot 30 right")
    assert pivot.startswith("Libyan spearmen (B2) is formed: it turns by wheeling")
    assert "not by a pivot about its centre (leg 1: pivot 30 right)" in pivot
    assert "a turn of 45 degrees in place" in why("B2", "turn 45 right")[0]
    for path in ("wheel 30 right", "wheel 30 left", "about face", "right face", "forward 1"):
        assert why("B2", path) == [], path
    assert why("A1", "wheel 45 right; forward 1") == []  # the legion wheels too
    assert why("A3", "pivot 30 right") == []  # the velites are unformed
    # moves to points vary 22.5 degrees off centre at most in all
    assert why("B2", "to 21,13") == []
    assert "turn it 27 degrees in all" in why("B2", "to 21,13; to 23,17")[0]


def test_manoeuvres_on_the_path_cost_their_dps_within_8_inches(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """Leg VI, Manoeuvre: "Wheel: ... One DP for HI within 8" of enemy. No penalty if in
    column or for other troops"; "About Face: ... 1 DP for formed cavalry." The Libyan
    spearmen (HI) wheeling 6" from the Gauls take 1 DP once made, undone with the move;
    the same wheel 10" off costs nothing; the Spanish scutarii (MI) wheel free; the Gallic
    cavalry facing about 6" from the enemy take 1 DP. (Within 8" of enemy a move is a dice
    move: the umpire confirms its length.)"""

    def confirmed(session: BattleSession, unit: str, path: str) -> Step:
        check = mech.check_move(session.state.view(), unit, Path(parse_path(path)))
        assert not check.forbidden, check.breaches
        return session.do(MoveUnit(unit=unit, legs=parse_path(path), force=True))

    state = at(at(state, "B2", 20, 30, 180), "A6", 20, 22.5, 0)
    state = at(at(state, "B3", 40, 30, 180), "B6", 56, 30, 180)
    # the legion (4.72" wide and 4.36" deep: errata 'legion-footprint') 7.4" from the Spanish
    state = at(at(state, "A1", 40, 20, 0), "A5", 56, 22.5, 0)
    session = started(mech, state, MANOEUVRE)
    view = session.state.view()
    assert edge_distance(view.unit("B2").footprint, view.unit("A6").footprint) < 8
    assert edge_distance(view.unit("B3").footprint, view.unit("A1").footprint) < 8
    step = confirmed(session, "B2", "wheel 30 right")
    assert session.state.unit("B2").status.dps == 1
    assert any('wheeled within 8" of enemy: 1 DP' in line for line in step.lines), step.lines
    session.undo()
    assert session.state.unit("B2").status.dps == 0
    confirmed(session, "B3", "wheel 30 right")
    assert session.state.unit("B3").status.dps == 0
    step = confirmed(session, "B6", "turn 180 right")
    assert session.state.unit("B6").status.dps == 1
    assert any('faced about within 8" of enemy: 1 DP' in line for line in step.lines)
    far = started(mech, at(state, "A6", 20, 17, 0), MANOEUVRE)
    confirmed(far, "B2", "wheel 30 right")
    assert far.state.unit("B2").status.dps == 0


def test_unformed_enemy_falling_back_stop_at_what_is_in_their_way(
    mech: LegVIMechanics, state: BattleState
) -> None:
    """The caetrati fall back before the spearmen as in the example above, but the Gauls
    stand 1.42" behind them: the core's checks of the fall-back (a forced move, facing kept)
    stop them short of the Gauls (errata 'light-fall-back'); at the table's edge they stop
    at the edge."""
    state = at(at(state, "A6", 36, 14, 0), "B4", 36, 24.79, 180)
    state = at(state, "B5", 36, 27, 180)
    state = state.replace_unit(rolled_unit(state.unit("A6"), 8.0))
    session = BattleSession(mech.ruleset, mech, state, seed=4)
    step = session.do(MoveUnit(unit="A6", legs=parse_path("forward 8")))
    caetrati, gauls = session.state.unit("B4"), session.state.unit("B5")
    gap = edge_distance(caetrati.footprint, gauls.footprint)
    assert 0 <= gap <= 0.02 and caetrati.y == pytest.approx(24.79 + 1.42, abs=1e-6)
    assert any(
        'fall back 1.42" before Italian or Greek allied spearmen (A6) and are stopped short '
        'of 4" (Castra, table: would end on top of Gauls (B5))' in line
        for line in step.lines
    ), step.lines
    edge = at(at(state, "A6", 36, 36.51, 0), "B4", 36, 47.3, 180)
    kept = tuple(u for u in edge.units if u.id in ("A6", "B4"))
    edge = replace(edge, units=kept, leaders=())
    session = BattleSession(mech.ruleset, mech, edge, seed=4)
    step = session.do(MoveUnit(unit="A6", legs=parse_path("forward 8")))
    caetrati = session.state.unit("B4")
    assert 48 - 0.011 <= caetrati.y + caetrati.depth / 2 <= 48 + 1e-9
    assert any('are stopped short of 4"' in line for line in step.lines), step.lines
