"""D3 Ancients on the table, worked examples from its text: "Units may pivot at the start and
end of their move", "When charging a unit may not turn during their move. They must move
straight ahead", "Any unit that is passed through is treated as having moved", "Roads -
Units moving all their move on roads add 3"", "During the movement phase a player can
attempt to move their units", and the Confusion card ("cannot move ... but they are allowed
to pivot"). The battle-state tests play the moves through the core's commands, so undo and
replay keep what a move leaves behind."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import (
    BattleSession,
    CommandError,
    MoveUnit,
    NextPhase,
    StartBattle,
    new_battle,
    plan_charge,
)
from app.core.battle.sample import sample_roster
from app.core.battle.state import BattleState
from app.rules.geometry import edge_distance
from app.rules.mechanics import Scalar, Situation, TurnView, mechanics_for
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rules.table import Table, TerrainPiece
from app.rulesets.d3.base import OFF_ROAD, PIVOTED_AT_END
from app.rulesets.d3.mechanics import D3Mechanics

MOVEMENT, SHOOTING = 1, 2  # the phase indexes of D3's Movement and Shooting steps
# (sample armies: A1 heavy infantry at x 10.6, A2 veteran heavy infantry at 23.3, A3 light
# infantry at 36, A4 heavy cavalry at 48.7, all at y 8.7 facing +y, 12" x 3"; the
# Carthaginians face them from y 38.2 and 42.7)


@pytest.fixture
def mech(registry: Registry) -> D3Mechanics:
    m = mechanics_for(registry.get("d3-ancients"))
    assert isinstance(m, D3Mechanics)
    return m


def battle(mech: D3Mechanics) -> BattleState:
    rs = mech.ruleset
    return new_battle(rs, mech, (sample_roster(rs, "roman"), sample_roster(rs, "carthaginian")))


@pytest.fixture
def view(mech: D3Mechanics) -> TurnView:
    return replace(battle(mech).view(), phase=MOVEMENT, initiative=0)  # Rome's movement


def place(
    view: TurnView, unit_id: str, x: float, y: float, facing: float | None = None
) -> TurnView:
    units = tuple(
        replace(u, x=x, y=y, facing=u.facing if facing is None else facing)
        if u.unit_id == unit_id
        else u
        for u in view.units
    )
    return replace(view, units=units)


def lone_target(view: TurnView) -> TurnView:
    """B2 (Spanish heavy infantry) alone in the middle facing the Romans, its front edge
    along y 22.5 from x 30 to 42; the other Carthaginians far back."""
    v = place(view, "B2", 36.0, 24.0, 180.0)
    for other in ("B1", "B3", "B4", "B5", "B6", "B7", "B8"):
        v = place(v, other, 70.0 - 2 * int(other[1]), 47.0)
    return v


def texts(found: object) -> list[str]:
    return [str(b) for b in found.breaches]  # type: ignore[attr-defined]


def session(
    mech: D3Mechanics, state: BattleState | None = None, road: bool = False
) -> BattleSession:
    """A battle in Rome's first movement step (seed 5: Rome drew No Event)."""
    state = state or battle(mech)
    if road:  # a road up the table along A1's line
        piece = TerrainPiece("T1", "road", ((10.6, 0.0), (10.6, 48.0)), width=1.0)
        state = replace(state, terrain=(piece,))
    s = BattleSession(mech.ruleset, mech, replace(state, initiative=0), seed=5)
    s.do(StartBattle())
    s.do(NextPhase())
    assert s.state.phase == MOVEMENT and s.state.sides[0].record["card"] == "no_event"
    return s


def move(unit: str, path: str, **kw: object) -> MoveUnit:
    return MoveUnit(unit=unit, legs=parse_path(path), **kw)  # type: ignore[arg-type]


def refused(s: BattleSession, command: MoveUnit) -> str:
    before, steps = s.state, len(s.steps)
    with pytest.raises(CommandError) as err:
        s.do(command)
    assert s.state == before and len(s.steps) == steps
    return str(err.value)


# --------------------------------------------------------------------------- moves and pivots


def test_a_move_costs_its_distance_and_pivots_are_free(mech: D3Mechanics, view: TurnView) -> None:
    """Heavy infantry 6"; a pivot at the start and at the end costs nothing (errata
    pivots-free), so a half turn, 6" and a half turn back is a legal move."""
    plain = mech.check_move(view, "A1", Path(parse_path("forward 6")))
    assert plain.ok and plain.cost == pytest.approx(6.0) and plain.allowance == 6
    turning = mech.check_move(
        view, "A1", Path(parse_path("pivot 90 left; forward 4; pivot 90 right"))
    )
    assert turning.ok, texts(turning)
    assert turning.cost == pytest.approx(4.0)
    assert [leg.cost for leg in turning.legs] == pytest.approx([0.0, 4.0, 0.0])
    assert "pivot free" in turning.legs[0].note
    too_far = mech.check_move(view, "A1", Path(parse_path("pivot 90 left; forward 7")))
    assert too_far.forbidden and any('would move 7.0" with 6.0"' in t for t in texts(too_far))
    # a move to a point pivots first: the pivot is free, the 5" straight counts
    a1 = view.unit("A1")
    to = mech.check_move(view, "A1", Path(parse_path(f"to {a1.x - 3},{a1.y + 4}")))
    assert to.ok and to.cost == pytest.approx(5.0)


def test_a_pivot_in_the_middle_of_a_move_is_refused(mech: D3Mechanics, view: TurnView) -> None:
    middle = mech.check_move(view, "A1", Path(parse_path("forward 2; pivot 90 right; forward 2")))
    assert middle.forbidden
    assert any(
        t.startswith("D3, Movement:") and "only at the start and end" in t and "leg 2" in t
        for t in texts(middle)
    ), texts(middle)
    # a wheel turns the unit while it moves: D3 has only pivots (errata turning-only-by-pivots)
    wheel = mech.check_move(view, "A4", Path(parse_path("wheel 30 right")))
    assert wheel.forbidden and any("D3, Movement:" in t and "a wheel" in t for t in texts(wheel))
    # a unit that has already moved this turn is past its start: it pivots only at the end
    moved = replace(
        view, units=tuple(replace(u, moved=2.0) if u.unit_id == "A1" else u for u in view.units)
    )
    assert mech.check_move(moved, "A1", Path(parse_path("pivot 45 left"))).ok
    late = mech.check_move(moved, "A1", Path(parse_path("pivot 45 left; forward 2")))
    assert late.forbidden and any("only at the start and end" in t for t in texts(late))


def test_after_its_end_pivot_a_unit_moves_no_further(mech: D3Mechanics) -> None:
    """Pivots end a move: a unit that moved, then pivoted, may not step on in the same turn
    (kept in the battle state as ``pivoted_at_end``); next turn it moves again."""
    s = session(mech)
    s.do(move("A1", "forward 2; pivot 45 right"))
    assert s.state.unit("A1").status.extra[PIVOTED_AT_END]
    err = refused(s, move("A1", "forward 1"))
    assert "D3, Movement: " in err and "pivoted at the end of its move" in err
    s.do(move("A1", "pivot 45 left"))  # pivoting further at the end is still a pivot
    s.undo()
    s.undo()
    assert PIVOTED_AT_END not in s.state.unit("A1").status.extra
    s.do(move("A1", "forward 1"))
    while s.state.initiative == 0:  # to the end of Rome's turn: the record is cleared
        s.do(NextPhase())
    assert PIVOTED_AT_END not in s.state.unit("A1").status.extra


def test_units_move_only_in_their_own_movement_step(mech: D3Mechanics, view: TurnView) -> None:
    """D3, Sequence of play: a side moves in its own turn's movement step."""
    shooting = mech.check_move(replace(view, phase=SHOOTING), "A1", Path(parse_path("forward 2")))
    assert any(
        t.startswith("D3, Movement: Hastati and principes may not move:") and "movement step" in t
        for t in texts(shooting)
    ), texts(shooting)
    enemy = mech.check_move(view, "B3", Path(parse_path("forward 2")))
    assert any("not their side's turn" in t for t in texts(enemy)), texts(enemy)


def test_confused_units_only_pivot(mech: D3Mechanics, view: TurnView) -> None:
    """Confusion: "A player's units cannot move this turn unless they have an attached
    commander, but they are allowed to pivot"."""
    card: dict[str, Scalar] = {**view.sides[0], "card": "confusion", "card_active": True}
    confused = replace(view, sides=(card, view.sides[1]))
    step = mech.check_move(confused, "A2", Path(parse_path("forward 1")))
    assert step.forbidden and any("Confusion card" in t for t in texts(step)), texts(step)
    pivot = mech.check_move(confused, "A2", Path(parse_path("pivot 90 left")))
    assert pivot.ok, texts(pivot)


def test_a_broken_army_does_not_advance(mech: D3Mechanics, view: TurnView) -> None:
    """Army Resolve: a broken army "may no longer advance upon, or towards, enemy units"."""
    broken: dict[str, Scalar] = {**view.sides[0], "resolve_broken": True}
    v = replace(view, sides=(broken, view.sides[1]))
    ahead = mech.check_move(v, "A1", Path(parse_path("forward 2")))
    assert any(t.startswith("D3, Army Resolve: Rome have lost their resolve") for t in texts(ahead))
    assert mech.check_move(v, "A1", Path(parse_path("back 2"))).ok
    assert mech.check_move(view, "A1", Path(parse_path("forward 2"))).ok


# --------------------------------------------------------------------------- charges


def test_a_charge_goes_straight_ahead_into_contact(mech: D3Mechanics, view: TurnView) -> None:
    """A1 stands 3.5" short of B2's front and 4" to its right, squarely facing it: the charge
    goes straight ahead and stops touching B2's front, where it meets it (errata
    charge-contact-straight-ahead: not turned, not slid to the centre)."""
    v = place(lone_target(view), "A1", 40.0, 17.5, 0.0)
    found = mech.contact(v, "A1", "B2")
    assert not found.breaches, texts(found)
    assert found.path is not None and str(found.path) == "forward 3.5"
    assert found.how == "front"
    end = found.aligned_end
    assert (end.x, end.y, end.facing) == pytest.approx((40.0, 21.0, 0.0))
    b2 = v.unit("B2").footprint
    assert edge_distance(end, b2) == pytest.approx(0.0, abs=1e-6)
    # set at an angle, it still goes straight ahead, touching corner first
    v = place(v, "A1", 36.0, 14.0, 20.0)
    slanted = mech.contact(v, "A1", "B2")
    assert slanted.path is not None and slanted.path.legs[0].kind == "straight"
    assert not slanted.forbidden, texts(slanted)
    assert slanted.aligned_end.facing == pytest.approx(20.0)
    assert edge_distance(slanted.aligned_end, b2) == pytest.approx(0.0, abs=1e-6)


def test_a_charge_that_needs_a_turn_is_refused(mech: D3Mechanics, view: TurnView) -> None:
    # A1 faces straight up the table, 20" to the left of B2: only a turn would reach it
    v = place(lone_target(view), "A1", 16.0, 17.5, 0.0)
    found = mech.contact(v, "A1", "B2")
    assert found.forbidden and found.path is not None  # the least bad path, to force
    assert any(
        t.startswith("D3, Charges: a charging unit may not turn: it moves straight ahead")
        for t in texts(found)
    ), texts(found)
    # a charge path with a pivot first, or a step sideways, is refused the same way
    for path in ("pivot 20 right; forward 3", "right 2; forward 3"):
        check = mech.check_move(v, "A1", Path(parse_path(path)), reason="charge", target="B2")
        assert any(t.startswith("D3, Charges: a charging unit may not turn") for t in texts(check))
    assert mech.check_move(v, "A1", Path(parse_path("forward 3")), reason="charge").ok


def test_a_charge_through_the_battle_commands(mech: D3Mechanics) -> None:
    """plan_charge stores the straight-ahead path; the charger ends touching, marked
    charged; undo puts it back."""
    state = battle(mech)
    state = state.replace_unit(replace(state.unit("B2"), x=36.0, y=24.0))
    state = state.replace_unit(replace(state.unit("A3"), x=36.0, y=2.0))
    state = state.replace_unit(replace(state.unit("A1"), x=38.0, y=18.0))
    s = session(mech, state)
    before = s.state
    charge = plan_charge(s.state, mech, "A1", "B2")
    assert [str(leg) for leg in charge.legs] == ["forward 3"] and charge.how == "front"
    step = s.do(charge)
    assert (
        step.lines[0]
        == "Hastati and principes (A1) charges Spanish infantry (B2): contact front to front."
    )
    a1 = s.state.unit("A1")
    assert (a1.x, a1.y) == pytest.approx((38.0, 21.0)) and a1.status.has("charged")
    s.undo()
    assert s.state == before


# --------------------------------------------------------------------------- pass-through, road


def test_a_unit_passed_through_counts_as_having_moved(mech: D3Mechanics) -> None:
    """Light infantry pass through a friend, which then counts as having moved: it may not
    move this turn (errata pass-through-garbled); undo and replay keep that."""
    state = battle(mech)
    state = state.replace_unit(replace(state.unit("A2"), x=36.0, y=14.0))  # 5" ahead of A3
    s = session(mech, state)
    check = mech.check_move(s.state.view(), "A3", Path(parse_path("forward 9")))
    assert check.ok and check.passed == ("A2",)
    step = s.do(move("A3", "forward 9"))
    assert any("passed through Triarii (A2): they count as having moved" in x for x in step.lines)
    a2 = s.state.unit("A2")
    assert {"moved", "passed_through"} <= a2.status.markers
    err = refused(s, move("A2", "back 1"))
    assert err.startswith("Triarii (A2) may not move so: D3, Movement: Triarii may not move:")
    assert "passed through by a friend" in err
    after = s.state
    assert s.replay() == after
    s.undo()
    assert "passed_through" not in s.state.unit("A2").status.markers
    s.do(move("A2", "back 1"))  # not passed through now: it may move


def test_the_road_bonus_is_judged_over_the_whole_turn(mech: D3Mechanics) -> None:
    """Roads: "Units moving all their move on roads add 3"" (errata road-whole-turn)."""
    state = battle(mech)
    state = state.replace_unit(replace(state.unit("A1"), y=14.0))
    # two moves along the road: 4" and then 5" more, 9" in all
    s = session(mech, state, road=True)
    s.do(move("A1", "forward 4"))
    step = s.do(move("A1", "forward 5"))
    assert '0.0" of its 9" left' in step.lines[0]
    # a step off the road first: the turn is not all on the road, so 6" in all
    s = session(mech, state, road=True)
    s.do(move("A1", "right 1; left 1"))
    assert s.state.unit("A1").status.extra[OFF_ROAD]
    err = refused(s, move("A1", "forward 7"))
    assert 'D3 Ancients, movement: Hastati and principes (A1) would move 7.0" with 4.0"' in err
    assert s.replay() == s.state
    s.do(move("A1", "forward 4"))
    # the bonus used on the road, the unit may not then leave it: its 6" are spent
    s = session(mech, state, road=True)
    s.do(move("A1", "forward 8"))
    assert "would move" in refused(s, move("A1", "right 1"))


# --------------------------------------------------------------------------- sight


def test_a_wood_between_blocks_the_line_of_sight_and_the_shot(
    mech: D3Mechanics, view: TurnView
) -> None:
    """Errata sight-through-terrain: light infantry 10" from slingers see them over open
    ground, and may shoot at them; a wood laid between blocks the line, and the shot."""
    v = place(lone_target(view), "A3", 48.7, 25.0)
    v = place(v, "B4", 48.7, 38.2)
    seen, _ = mech.line_of_sight(v, "A3", "B4")
    assert seen
    wood = TerrainPiece("T1", "woods", ((40.0, 30.0), (58.0, 30.0), (58.0, 34.0), (40.0, 34.0)))
    wooded = replace(v, table=Table(v.table.width, v.table.height, (wood,)))
    seen, blockers = mech.line_of_sight(wooded, "A3", "B4")
    assert not seen and blockers == ("T1",)
    # so the light infantry may shoot at the slingers in the open, not through the wood
    v, wooded = replace(v, phase=SHOOTING), replace(wooded, phase=SHOOTING)
    assert mech.odds("shoot", Situation(v.unit("A3"), v.unit("B4"), view=v))
    with pytest.raises(ValueError, match=r"Velites cannot see .*: T1 in the way"):
        mech.odds("shoot", Situation(wooded.unit("A3"), wooded.unit("B4"), view=wooded))
