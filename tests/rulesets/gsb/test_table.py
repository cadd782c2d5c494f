"""Grown Slightly Bald on the table, from the examples its text gives (distances in unit
widths, UW: heavy infantry move 1, light and medium infantry 2, heavy cavalry 3).

"Light troops can move through other friendly troops if there is room for them to move
through fully, but cannot be moved through themselves except by other lights." "Light troops
can disengage from melee (one unit width is used to about face, the rest to move away from
the melee) but cannot shoot or melee again on that turn. Heavy cavalry can disengage from
combat with infantry in the same way. Units cannot disengage if they are sandwiched by
attacks to front and rear, or on both flanks." "Units attacked in flank can turn to face on
their turn if not already engaged to their front." "Range is 1 unit width ... Must have line
of sight, and distance is measured from centre front of unit." "Units in hills or woods or
meleeing into hills or woods use 2 dice maximum." "Players deploy their armies secretly, up
to 1 foot in from their respective board edges. When armies are revealed, Carthaginian
player may have two units swap places if desired."

The sample armies stand on the 150 x 90 cm table (18.75 x 11.25 UW); each test moves the few
units it needs to the middle of the table. A foot unit is 1 x 0.5 UW, cavalry 1 x 0.75."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.battle import (
    Act,
    BattleSession,
    BattleState,
    CommandError,
    Deploy,
    MoveUnit,
    NextPhase,
    StartBattle,
    new_battle,
)
from app.core.battle.sample import sample_roster
from app.rules.geometry import edge_distance
from app.rules.mechanics import Combatant, Situation, TurnView, mechanics_for
from app.rules.movement import MoveCheck
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rules.sight import ShotReach
from app.rules.table import Table, TerrainKind, TerrainPiece
from app.rulesets.gsb.base import DISENGAGED
from app.rulesets.gsb.mechanics import GSBMechanics

# Rome: A1-A4 heavy infantry, A5-A8 allied infantry, A9-A10 light infantry, A11-A12 heavy
# cavalry. Carthage: B1-B2 heavy infantry, B3-B5 medium infantry, B6-B7 light infantry, B8
# the elephant, B9-B10 heavy cavalry, B11 light cavalry.


@pytest.fixture
def mech(registry: Registry) -> GSBMechanics:
    m = mechanics_for(registry.get("grown-slightly-bald"))
    assert isinstance(m, GSBMechanics)
    return m


@pytest.fixture
def start(mech: GSBMechanics) -> BattleState:
    rs = mech.ruleset
    return new_battle(rs, mech, (sample_roster(rs, "rome"), sample_roster(rs, "carthage")))


@pytest.fixture
def view(start: BattleState) -> TurnView:
    return start.view()


def place(view: TurnView, unit_id: str, x: float, y: float, facing: float) -> TurnView:
    units = tuple(
        replace(u, x=x, y=y, facing=facing) if u.unit_id == unit_id else u for u in view.units
    )
    return replace(view, units=units)


def only(view: TurnView, *placed: tuple[str, float, float, float]) -> TurnView:
    """Just the named units, each at (x, y) with its facing: the rest of both armies off
    stage so that no one else touches or blocks."""
    keep = {p[0] for p in placed}
    v = replace(view, units=tuple(u for u in view.units if u.unit_id in keep))
    for uid, x, y, facing in placed:
        v = place(v, uid, x, y, facing)
    return v


def with_terrain(
    view: TurnView, *pieces: tuple[TerrainKind, tuple[tuple[float, float], ...]]
) -> TurnView:
    widths = {"river": 0.5, "road": 0.25, "stream": 0.25}
    terrain = tuple(
        TerrainPiece(f"T{i + 1}", kind, pts, width=widths.get(kind))
        for i, (kind, pts) in enumerate(pieces)
    )
    return replace(view, table=Table(view.table.width, view.table.height, terrain))


def check(mech: GSBMechanics, view: TurnView, unit_id: str, path: str) -> MoveCheck:
    return mech.check_move(view, unit_id, Path(parse_path(path)))


def said(found: MoveCheck) -> list[str]:
    return [str(b) for b in found.breaches]


def band(y0: float, y1: float) -> tuple[tuple[float, float], ...]:
    """A strip across the middle of the table from y0 to y1."""
    return ((6.0, y0), (12.0, y0), (12.0, y1), (6.0, y1))


# --------------------------------------------------------------------------- moves


def test_a_legal_move_costs_its_unit_widths(mech: GSBMechanics, view: TurnView) -> None:
    """Heavy cavalry move 3: a 45 degree pivot is free, so pivot and 3 forward is exactly
    its move; one more UW is refused naming the movement rule."""
    v = only(view, ("A11", 9.0, 3.0, 0.0))
    ok = check(mech, v, "A11", "pivot 45; forward 3")
    assert ok.ok, said(ok)
    assert ok.cost == pytest.approx(3.0) and ok.allowance == 3.0
    over = check(mech, v, "A11", "forward 4")
    assert over.forbidden
    assert any("would move 4.0 UW with 3.0 UW of its 3 UW left" in s for s in said(over))


def test_terrain_does_not_slow_but_lakes_and_rivers_stop(
    mech: GSBMechanics, view: TurnView
) -> None:
    """No GSB terrain slows a move (errata terrain-kinds): woods cost their distance and
    are noted with their melee cap; a lake cannot be entered, a river only at a ford."""
    v = with_terrain(only(view, ("A5", 9.0, 3.0, 0.0)), ("woods", band(3.5, 4.5)))
    through = check(mech, v, "A5", "forward 2")
    assert through.ok and through.cost == pytest.approx(2.0)
    assert [t.kind for t in through.terrain_crossed] == ["woods"]
    assert "at most 2 melee dice" in through.terrain_crossed[0].note
    lake = check(mech, with_terrain(v, ("lake", band(3.5, 4.5))), "A5", "forward 2")
    assert lake.forbidden and any(s.startswith("GSB, Terrain:") for s in said(lake))
    river = ((0.0, 4.0), (18.75, 4.0))
    assert check(mech, with_terrain(v, ("river", river)), "A5", "forward 2").forbidden
    ford = ((8.0, 3.5), (10.0, 3.5), (10.0, 4.5), (8.0, 4.5))
    at_ford = check(mech, with_terrain(v, ("river", river), ("ford", ford)), "A5", "forward 2")
    assert at_ford.ok, said(at_ford)


def test_light_troops_pass_through_friends_with_room(mech: GSBMechanics, view: TurnView) -> None:
    v = only(view, ("A9", 9.0, 3.0, 0.0), ("A1", 9.0, 4.0, 0.0))
    through = check(mech, v, "A9", "forward 2")  # clears the legion by half a UW
    assert through.ok, said(through)
    no_room = check(mech, v, "A9", "forward 1")  # would stop on top of it
    assert no_room.forbidden and any("would end on top of" in s for s in said(no_room))
    # allied infantry may not pass through the velites
    v = only(view, ("A5", 9.0, 3.0, 0.0), ("A9", 9.0, 4.0, 0.0))
    formed = check(mech, v, "A5", "forward 2")
    assert formed.forbidden and any("a friend it may not pass" in s for s in said(formed))
    # a light unit passes through a light one (Numidian horse through Carthage's skirmishers)
    v = only(view, ("B11", 9.0, 8.0, 180.0), ("B6", 9.0, 7.0, 180.0))
    assert check(mech, v, "B11", "forward 2").ok


def test_a_charge_ends_front_to_front_or_flat_on_the_flank(
    mech: GSBMechanics, view: TurnView
) -> None:
    """Legionaries 1 UW from Libyans charge straight in, front to front, spending their 1 UW;
    heavy cavalry off the Libyans' flank end flat against it, facing it."""
    v = only(view, ("A1", 9.0, 6.0, 0.0), ("B1", 9.0, 7.5, 180.0))
    front = mech.contact(v, "A1", "B1")
    assert not front.forbidden, [str(b) for b in front.breaches]
    assert front.how == "front" and front.check is not None
    assert front.check.cost == pytest.approx(1.0)
    end = front.aligned_end
    assert (end.x, end.y, end.facing) == pytest.approx((9.0, 7.0, 0.0))
    v = only(view, ("A11", 11.5, 7.5, 270.0), ("B1", 9.0, 7.5, 180.0))
    flank = mech.contact(v, "A11", "B1")
    assert not flank.forbidden and flank.how == "flank"
    end = flank.aligned_end
    assert (end.x, end.y, end.facing % 360) == pytest.approx((9.875, 7.5, 270.0))
    # in contact, the melee reads the flank from the table: heavy cavalry's 3 dice + 2
    charged = place(v, "A11", end.x, end.y, end.facing)
    sit = Situation(actor=charged.unit("A11"), target=charged.unit("B1"), view=charged)
    options = mech.derive_options("melee", sit)
    assert options["attack"] == "flank"
    strike = mech.melee_strike(replace(sit, options={**options}))
    assert strike.dice == 5


def test_melee_in_woods_is_capped_from_the_table(mech: GSBMechanics, view: TurnView) -> None:
    v = only(view, ("A2", 9.0, 7.0, 0.0), ("B1", 9.0, 7.5, 180.0))
    v = with_terrain(v, ("woods", band(7.3, 8.5)))  # the Libyans stand in the wood
    sit = Situation(actor=v.unit("A2"), target=v.unit("B1"), view=v)
    options = mech.derive_options("melee", sit)
    assert options["terrain"] == "woods"
    assert mech.melee_strike(replace(sit, options=options)).dice == 2


# --------------------------------------------------------------------------- melee


def _li_in_melee(view: TurnView, *more: tuple[str, float, float, float]) -> TurnView:
    """Velites A9 at (9, 5) facing the Libyans B1, front to front."""
    return only(view, ("A9", 9.0, 5.0, 0.0), ("B1", 9.0, 5.5, 180.0), *more)


def test_light_troops_disengage_about_face_then_away(mech: GSBMechanics, view: TurnView) -> None:
    v = _li_in_melee(view)
    away = check(mech, v, "A9", "about face; forward 1")
    assert away.ok, said(away)
    assert away.cost == pytest.approx(2.0)  # 1 UW to about face (light troops!), 1 away
    assert away.legs[0].cost == 1.0 and "GSB, Disengaging" in away.legs[0].note
    backwards = check(mech, v, "A9", "back 1")
    assert backwards.forbidden
    assert any("GSB, Disengaging" in s and "first turning about" in s for s in said(backwards))
    sidestep = check(mech, v, "A9", "right 0.5")  # still touching the Libyans
    assert sidestep.forbidden
    assert any("may only disengage" in s for s in said(sidestep))


def test_a_unit_in_melee_fights_on_but_charges_no_one_else(
    mech: GSBMechanics, view: TurnView
) -> None:
    """The legion A1 fights the Libyans B1 front to front: charging them again keeps it in
    that melee; charging the Spanish B3 beside them would leave it."""
    v = only(view, ("A1", 9.0, 5.0, 0.0), ("B1", 9.0, 5.5, 180.0), ("B3", 10.5, 6.0, 180.0))
    again = mech.contact(v, "A1", "B1")
    assert not again.forbidden, [str(b) for b in again.breaches]
    elsewhere = mech.contact(v, "A1", "B3")
    assert any(b.rule == "GSB, Disengaging" for b in elsewhere.breaches)


def test_only_lights_and_heavy_cavalry_from_infantry_disengage(
    mech: GSBMechanics, view: TurnView
) -> None:
    legion = only(view, ("A1", 9.0, 5.0, 0.0), ("B1", 9.0, 5.5, 180.0))
    stuck = check(mech, legion, "A1", "about face; forward 1")
    assert any(
        s.startswith("GSB, Disengaging:") and "may not leave a melee" in s for s in said(stuck)
    )
    horse = only(view, ("A11", 9.0, 5.0, 0.0), ("B1", 9.0, 5.625, 180.0))
    assert check(mech, horse, "A11", "about face; forward 2").ok
    elephant = only(view, ("A11", 9.0, 5.0, 0.0), ("B8", 9.0, 5.625, 180.0))
    refused = check(mech, elephant, "A11", "about face; forward 2")
    assert any("disengage only from infantry" in s for s in said(refused))


def test_sandwiched_units_cannot_disengage(mech: GSBMechanics, view: TurnView) -> None:
    front_and_rear = _li_in_melee(view, ("B2", 9.0, 4.5, 0.0))
    refused = check(mech, front_and_rear, "A9", "about face; left 1.5")
    assert any("attacked front and rear" in s for s in said(refused)), said(refused)
    flanks = only(view, ("A9", 9.0, 5.0, 0.0), ("B1", 8.25, 5.0, 90.0), ("B2", 9.75, 5.0, 270.0))
    refused = check(mech, flanks, "A9", "about face; forward 1")
    assert any("attacked on both flanks" in s for s in said(refused)), said(refused)


def test_a_flanked_unit_turns_to_face_for_free(mech: GSBMechanics, view: TurnView) -> None:
    """Spanish horse B9 hit the legion A1's right flank: the legion turns right and steps up
    to it, front to front, spending none of its 1 UW (errata turn-to-face)."""
    v = only(view, ("A1", 9.0, 5.0, 0.0), ("B9", 9.875, 5.0, 270.0))
    face = check(mech, v, "A1", "turn 90; forward 0.25")
    assert face.ok, said(face)
    assert face.cost == pytest.approx(0.0)
    assert "GSB, Turning to face" in face.legs[0].note
    assert face.end.facing == pytest.approx(90.0)
    assert edge_distance(face.end, v.unit("B9").footprint) == pytest.approx(0.0, abs=1e-9)
    wrong_way = check(mech, v, "A1", "turn 90 left")
    assert any("would not face" in s for s in said(wrong_way)), said(wrong_way)
    # engaged to its front as well: no turning
    pinned = place(
        only(view, ("A1", 9.0, 5.0, 0.0), ("B9", 9.875, 5.0, 270.0), ("B1", 0, 0, 0)),
        "B1",
        9.0,
        5.5,
        180.0,
    )
    refused = check(mech, pinned, "A1", "turn 90; forward 0.25")
    assert any("GSB, Turning to face" in s and "engaged to its front" in s for s in said(refused))
    # attacked in the rear only: the text gives the turn to a flank attack
    rear = only(view, ("A1", 9.0, 5.0, 0.0), ("B9", 9.0, 4.375, 0.0))
    refused = check(mech, rear, "A1", "turn 90; forward 0.25")
    assert any("not attacked in a flank" in s for s in said(refused)), said(refused)


# --------------------------------------------------------------------------- shooting


def _shooter(view: TurnView, target_y: float) -> TurnView:
    """Velites A9 at (9, 5) facing +y; the Spanish B3 ahead at ``target_y`` facing them."""
    return only(view, ("A9", 9.0, 5.0, 0.0), ("B3", 9.0, target_y, 180.0))


def test_shooting_reach_is_1_uw_forward(mech: GSBMechanics, view: TurnView) -> None:
    assert mech.shooting_reach(view, "A9") == ShotReach(1.0, 180.0, "GSB, Shooting")
    assert mech.shooting_reach(view, "B3") == ShotReach(1.0, 180.0, "GSB, Shooting")
    assert mech.shooting_reach(view, "A1") is None  # heavy infantry do not shoot
    assert mech.command_reach(view, "A1") is None  # GSB has no command radius


def _odds(mech: GSBMechanics, v: TurnView) -> Any:
    sit = Situation(actor=v.unit("A9"), target=v.unit("B3"), view=v)
    return mech.odds("shoot", sit)


def test_a_shot_out_of_range_or_sight_is_refused(mech: GSBMechanics, view: TurnView) -> None:
    """Range is measured from the middle of the shooter's front edge (5.25) to the target's
    base: at 6.5 the Spanish front edge (6.25) is exactly 1 UW away; at 6.6 it is beyond."""
    assert sum(_odds(mech, _shooter(view, 6.5)).values()) == 1
    with pytest.raises(ValueError, match=r"GSB, Shooting: .* beyond the 1 UW range"):
        _odds(mech, _shooter(view, 6.6))
    wood = with_terrain(_shooter(view, 6.5), ("woods", band(5.5, 6.0)))
    with pytest.raises(ValueError, match=r"no line of sight .* \(blocked by T1\)"):
        _odds(mech, wood)
    behind = only(view, ("A9", 9.0, 5.0, 0.0), ("B3", 9.0, 4.0, 180.0))
    with pytest.raises(ValueError, match="is not ahead of"):
        _odds(mech, behind)
    # hand-set geometry (no positions): the odds work as before
    loose = replace(
        view,
        units=tuple(replace(u, width=0.0, depth=0.0) for u in _shooter(view, 9.0).units),
    )
    assert sum(_odds(mech, loose).values()) == 1


# --------------------------------------------------------------------------- a battle


def session_of(mech: GSBMechanics, state: BattleState) -> BattleSession:
    s = BattleSession(mech.ruleset, mech, state, seed=9)
    s.do(StartBattle())
    return s


def placed(state: BattleState, *where: tuple[str, float, float, float]) -> BattleState:
    for uid, x, y, facing in where:
        state = state.replace_unit(replace(state.unit(uid), x=x, y=y, facing=facing))
    return state


def test_a_disengaged_unit_neither_shoots_nor_fights_that_turn(
    mech: GSBMechanics, start: BattleState
) -> None:
    state = placed(start, ("A9", 9.0, 5.0, 0.0), ("B1", 9.0, 5.5, 180.0), ("B3", 7.5, 5.0, 0.0))
    s = session_of(mech, state)
    s.do(NextPhase())
    s.do(Act(action="activate", actor="A9"))
    step = s.do(MoveUnit("A9", legs=parse_path("about face; forward 1")))
    assert any("has disengaged" in line for line in step.lines)
    assert s.state.unit("A9").status.has(DISENGAGED)
    for action, target in (("shoot", "B3"), ("melee", "B1")):
        with pytest.raises(CommandError, match=r"GSB, Disengaging: .* may not"):
            s.do(Act(action=action, actor="A9", target=target))
    s.undo()
    assert not s.state.unit("A9").status.has(DISENGAGED)
    s.redo()
    assert s.replay() == s.state
    # the next turn's initiative clears it
    s.do(NextPhase())
    s.do(NextPhase())
    assert s.state.turn == 2 and not s.state.unit("A9").status.has(DISENGAGED)


def _combatant(state: BattleState, uid: str) -> Combatant:
    return state.combatant(state.unit(uid))


def test_deployment_is_1_foot_deep_and_carthage_swaps_once(
    mech: GSBMechanics, start: BattleState
) -> None:
    s = session_of(mech, start)
    assert mech.deployment_depth(s.state.view()) == pytest.approx(304.8 / 80)
    # the legion is 0.5 UW deep: its centre may stand 3.56 UW from the edge, not 3.6
    s.do(Deploy("A1", 9.0, 3.5, 0.0))
    with pytest.raises(CommandError, match="outside Rome's deployment zone"):
        s.do(Deploy("A1", 9.0, 3.6, 0.0))
    b1, b9 = _combatant(s.state, "B1"), _combatant(s.state, "B9")
    with pytest.raises(CommandError, match="only Carthage may swap"):
        s.do(Act(action="swap", actor="A1", target="A2"))
    s.do(Act(action="swap", actor="B1", target="B9"))
    a, b = _combatant(s.state, "B1"), _combatant(s.state, "B9")
    assert (a.x, a.y, a.facing) == pytest.approx((b9.x, b9.y, b1.facing))
    assert (b.x, b.y, b.facing) == pytest.approx((b1.x, b1.y, b9.facing))
    with pytest.raises(CommandError, match="already swapped"):
        s.do(Act(action="swap", actor="B2", target="B3"))
    s.undo()
    assert (_combatant(s.state, "B1").x, _combatant(s.state, "B9").x) == (b1.x, b9.x)
    s.do(NextPhase())  # play begins: deployment is over
    with pytest.raises(CommandError, match="swap is made as the armies are revealed"):
        s.do(Act(action="swap", actor="B1", target="B9"))
