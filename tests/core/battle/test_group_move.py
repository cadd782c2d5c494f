"""Moving units by the line, through the core in each ruleset with its ready armies: a
group's move is one step and one undo; each member is checked as a single move is; a group
with a refused member is refused whole, naming each refusal, and the plan lets the others
move; the leading units move first, so those behind can follow into their room."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace

import pytest

from app.core.battle import (
    Act,
    BattleSession,
    CommandError,
    GroupMove,
    MoveUnit,
    NextPhase,
    command_from_dict,
    plan_group,
)
from app.core.battle.group import in_order, same_path
from app.rules.paths import Leg, parse_path
from app.rules.registry import Registry
from tests.core.battle.ready_fight import DUELS
from tests.core.battle.test_ready_battles import ready_session

RULESETS = sorted(DUELS)
FORWARD = parse_path("forward 1")


def take_control_tests(session: BattleSession) -> None:
    """What the players do before moving where the rules ask it. Leg VI, Control: "Units
    that are not under control at the end of the command phase ... must normally take a
    Control Test": each unit marked out of control and not yet tested this turn tests,
    scoring 3 ("Act as player wishes"); a test the rules refuse now is left for later."""
    tested = {"control_free", "control_halt", "control_repeat"}
    for u in session.state.units:
        if u.status.has("out_of_control") and not tested & set(u.status.markers):
            with suppress(CommandError):
                session.do(Act(action="control_test", actor=u.id), faces=[3])


def to_a_move(session: BattleSession, want: int = 3) -> tuple[int, list[str]]:
    """Go on, phase by phase, to the first in which a side may move ``want`` of its units
    one inch forward as a group (its units out of control tested first): that side and
    those units."""
    for _ in range(20):
        take_control_tests(session)
        state = session.state
        for side in (0, 1):
            units = [u.id for u in state.units if u.side == side]
            plan = plan_group(
                state, session.ruleset, session.mechanics, same_path(state, units, FORWARD)
            )
            free = [m.unit for m in plan.free]
            if len(free) >= want:
                return side, free[:want]
        session.do(NextPhase())
    raise AssertionError("no phase let a side move")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_group_moves_in_one_step_and_one_undo(registry: Registry, ruleset: str) -> None:
    session = ready_session(registry, ruleset)
    _side, units = to_a_move(session)
    before = session.state
    steps = session.cursor
    step = session.do(GroupMove(moves=tuple(same_path(before, units, FORWARD))))
    assert session.cursor == steps + 1
    after = session.state
    for uid in units:
        a, b = before.unit(uid), after.unit(uid)
        assert (a.x, a.y) != (b.x, b.y) and b.moved > a.moved
    untouched = [u.id for u in before.units if u.id not in units]
    assert all(before.unit(u) == after.unit(u) for u in untouched)
    # the log names the group and has each member's own move line
    assert step.lines[0].startswith("3 units move together")
    for uid in units:
        assert any(f"({uid})" in line for line in step.lines[1:])
    assert "Move 3 units" in step.command.title(after)
    # one undo restores every member; redo and replay give the same state again
    session.undo()
    assert session.state == before
    session.redo()
    assert session.state == after
    assert session.replay() == after
    # stored and read back as it was made
    assert command_from_dict(step.command.to_dict()) == step.command


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_partly_refused_group_names_each_refusal(registry: Registry, ruleset: str) -> None:
    session = ready_session(registry, ruleset)
    side, units = to_a_move(session)
    state = session.state
    others = [u.id for u in state.units if u.side == side and u.id not in units]
    far = [others[0], others[1]]  # far beyond any allowance, and off the table
    moves = [*same_path(state, units, FORWARD), *same_path(state, far, parse_path("forward 500"))]
    plan = plan_group(state, session.ruleset, session.mechanics, moves)
    assert sorted(m.unit for m in plan.free) == sorted(units)
    refused = plan.refused + plan.to_confirm
    assert sorted(m.unit for m in refused) == sorted(far)
    for member in refused:
        assert member.refusal is not None
        assert f"({member.unit})" in member.refusal
    # the whole group is refused, each refusal named, and nothing changes
    steps = session.cursor
    with pytest.raises(CommandError) as info:
        session.do(GroupMove(moves=tuple(moves)))
    assert "2 refused" in str(info.value)
    for uid in far:
        assert f"({uid})" in str(info.value)
    assert session.cursor == steps and session.state == state
    # ... or the others move, in one step
    others_move = plan.command()
    assert others_move is not None and sorted(others_move.units) == sorted(units)
    session.do(others_move)
    assert all(session.state.unit(u) == state.unit(u) for u in far)
    assert all(session.state.unit(u) != state.unit(u) for u in units)
    session.undo()
    assert session.state == state


def test_the_leading_unit_moves_first(registry: Registry) -> None:
    """GSB: heavy infantry may not pass through friends. A unit just behind another may
    not move forward alone, but the two as a group may: the one in front goes first."""
    session = ready_session(registry, "grown-slightly-bald")
    _side, (front_id, rear_id, _) = to_a_move(session)
    state = session.state
    front, rear = state.unit(front_id), state.unit(rear_id)
    # the rear unit straight behind the front one, a tenth of a unit width back
    back = -1 if front.facing % 360 < 90 or front.facing % 360 > 270 else 1
    behind = replace(
        rear,
        x=front.x,
        y=front.y + back * (front.depth / 2 + rear.depth / 2 + 0.1),
        facing=front.facing,
    )
    placed = state.replace_unit(behind)
    alone = plan_group(
        placed, session.ruleset, session.mechanics, same_path(placed, [rear_id], FORWARD)
    )
    assert alone.refused or alone.to_confirm, "the rear unit alone should be stopped by the front"
    group = same_path(placed, [rear_id, front_id], FORWARD)
    assert [m.unit for m in in_order(placed, group)] == [front_id, rear_id]
    plan = plan_group(placed, session.ruleset, session.mechanics, group)
    assert sorted(m.unit for m in plan.free) == sorted([front_id, rear_id])


def test_a_group_that_cannot_be_one_is_refused(registry: Registry) -> None:
    session = ready_session(registry, "grown-slightly-bald")
    state = session.state
    a = next(u.id for u in state.units if u.side == 0)
    b = next(u.id for u in state.units if u.side == 1)
    cases = {
        "at least one unit": (),
        "twice": (MoveUnit(unit=a, legs=FORWARD), MoveUnit(unit=a, legs=FORWARD)),
        "one side": (MoveUnit(unit=a, legs=FORWARD), MoveUnit(unit=b, legs=FORWARD)),
        "path of legs": (MoveUnit(unit=a, x=1.0, y=1.0),),
    }
    for words, moves in cases.items():
        with pytest.raises(CommandError, match=words):
            session.do(GroupMove(moves=moves))
        with pytest.raises(CommandError, match=words):
            plan_group(state, session.ruleset, session.mechanics, list(moves))
    assert session.state == state
    with pytest.raises(CommandError, match="no unit"):
        session.do(GroupMove(moves=(MoveUnit(unit="Z9", legs=(Leg.straight(1),)),)))


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "group_move", "moves": "A1"},
        {"kind": "group_move", "moves": ["A1"]},
        {"kind": "group_move", "moves": [{"unit": "A1", "legs": "forward"}]},
        {"kind": "group_move", "moves": [], "extra": 1},
    ],
)
def test_a_bad_stored_group_move_is_refused(data: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError)):
        command_from_dict(data)
