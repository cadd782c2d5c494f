"""Moves as paths in a battle: checked by the mechanics, refused naming the rule unless
forced (and the log says so), the distance moved cumulative over the turn, undo, redo,
replay and JSON; and the old x/y/facing form still reads back and plays as before."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.battle import (
    AddTerrain,
    BattleCommand,
    BattleSession,
    CommandError,
    MoveUnit,
    NextPhase,
)
from app.core.battle.commands import command_from_dict
from app.core.battle.session import step_from_dict, step_to_dict
from app.rules.paths import Leg, parse_path
from app.rules.registry import Registry
from tests.core.battle.test_table_commands import make_session


@pytest.fixture
def session(registry: Registry) -> BattleSession:
    return make_session(registry)


def move(unit: str, path: str, **kw: object) -> MoveUnit:
    return MoveUnit(unit=unit, legs=parse_path(path), **kw)  # type: ignore[arg-type]


def test_a_legal_path_moves_the_unit_and_counts_its_cost(session: BattleSession) -> None:
    a1 = session.state.unit("A1")
    step = session.do(move("A1", "forward 2; left 1"))
    after = session.state.unit("A1")
    assert (after.x, after.y, after.facing) == (a1.x - 1, a1.y + 2, a1.facing)
    assert after.moved == 3 and "moved" in after.status.markers
    assert step.lines[0].endswith(': forward 2; left 1 (3.0" = 2.0 + 1.0; 3.0" of its 6" left).')
    leader = session.state.leader_of("A1")
    assert leader is not None and (leader.x, leader.y) == (after.x, after.y)
    # the allowance is cumulative: 3" more is fine, then nothing is left
    session.do(move("A1", "forward 3"))
    assert session.state.unit("A1").moved == 6
    with pytest.raises(CommandError, match=r'with 0.0" of its 6" left \(6.0" used this turn\)'):
        session.do(move("A1", "forward 1"))
    # a new turn: the full allowance again
    while session.state.turn == 1:
        session.do(NextPhase())
    assert session.state.unit("A1").moved == 0
    session.do(move("A1", "forward 1"))


def test_a_forbidden_move_is_refused_naming_the_rule(session: BattleSession) -> None:
    before, steps = session.state, len(session.steps)
    with pytest.raises(CommandError) as err:
        session.do(move("A1", "back 20"))
    text = str(err.value)
    name = session.state.unit("A1").name
    assert text.startswith(f"{name} (A1) may not move so: Castra, table:")
    assert "would leave the table" in text and "(and 1 more)" in text
    assert text.endswith("force it to override")
    assert session.state == before and len(session.steps) == steps


def test_a_forced_move_records_the_override(session: BattleSession) -> None:
    step = session.do(move("A1", "forward 8", force=True))
    assert any(
        line.startswith("Forced past: D3 Ancients, movement:") and 'would move 8.0"' in line
        for line in step.lines
    )
    assert session.state.unit("A1").moved == 8
    again = step_from_dict(json.loads(json.dumps(step_to_dict(step))))
    assert again == step and again.command.force  # type: ignore[attr-defined]


def test_terrain_in_the_log(session: BattleSession) -> None:
    a1 = session.state.unit("A1")
    wood = ((a1.x - 8, a1.y + 2), (a1.x + 8, a1.y + 2), (a1.x + 8, a1.y + 9), (a1.x - 8, a1.y + 9))
    session.do(AddTerrain(terrain="woods", points=wood, name="Silva"))
    step = session.do(move("A1", "forward 4"))
    assert session.state.unit("A1").moved == pytest.approx(6)  # 1" open + 3" of woods x2
    assert step.lines[1] == (
        'Terrain crossed: woods T1 "Silva" (woods: half speed (generic; D3 Ancients: woods)).'
    )


def test_bad_moves_change_nothing(session: BattleSession) -> None:
    for command, words in (
        (MoveUnit(unit="A1"), "at least one leg"),
        (MoveUnit(unit="Z9", legs=(Leg.straight(1),)), "no unit 'Z9'"),
        (MoveUnit(unit="A1", legs=(Leg.straight(1),), reason="dance"), "reason is one of"),  # type: ignore[arg-type]
        (MoveUnit(unit="A1", legs=(Leg.straight(1),), reason="deploy"), "reason is one of"),
    ):
        before = session.state
        with pytest.raises(CommandError, match=words):
            session.do(command)
        assert session.state == before


def test_the_old_form_reads_back_and_plays_as_before(session: BattleSession) -> None:
    old = {"kind": "move", "unit": "A2", "x": 30.0, "y": 15.0, "facing": 10.0}
    cmd = command_from_dict(old)
    assert isinstance(cmd, MoveUnit) and cmd.legacy and cmd.to_dict() == old
    step = session.do(cmd)
    a2 = session.state.unit("A2")
    assert (a2.x, a2.y, a2.facing, a2.moved) == (30, 15, 10, 0)  # unchecked, not counted
    assert "moves" in step.lines[0] and "turns to face 10 degrees" in step.lines[0]
    new = move("A2", "to 31,15")
    assert command_from_dict(json.loads(json.dumps(new.to_dict()))) == new
    with pytest.raises(ValueError, match="leg 1: unknown leg 'hop'"):
        command_from_dict({"kind": "move", "unit": "A1", "legs": [{"kind": "hop"}]})


# --------------------------------------------------------------------------- property

PATHS = st.lists(
    st.sampled_from(
        [
            "forward 2",
            "back 1",
            "right 1",
            "left 2",
            "wheel 20 left",
            "wheel 15 right",
            "pivot 30",
            "about face",
            "forward 9",
        ]
    ),
    min_size=1,
    max_size=4,
).map("; ".join)
MOVES = st.one_of(
    st.builds(
        lambda u, p, f: move(u, p, force=f),
        st.sampled_from(["A1", "A2", "A3", "B1", "B2"]),
        PATHS,
        st.booleans(),
    ),
    st.builds(
        lambda u, x, y: MoveUnit(unit=u, legs=(Leg.to(x, y),), reason="move"),
        st.sampled_from(["A1", "B3"]),
        st.integers(5, 65),
        st.integers(5, 40),
    ),
    st.builds(
        lambda u, x, y: MoveUnit(unit=u, x=x, y=y),
        st.sampled_from(["A2"]),
        st.integers(5, 65),
        st.integers(5, 40),
    ),
    st.just(NextPhase()),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(MOVES, min_size=1, max_size=12), st.integers(0, 10_000))
def test_property_moves_undo_redo_replay(
    registry: Registry, commands: list[BattleCommand], seed: int
) -> None:
    s = make_session(registry, seed)
    for cmd in commands:
        before = s.state
        try:
            step = s.do(cmd)
        except CommandError:
            assert s.state == before
            continue
        s.undo()
        assert s.state == before
        s.redo()
        assert s.state == step.state
        assert step_from_dict(json.loads(json.dumps(step_to_dict(step)))) == step
    for k in range(len(s.steps) + 1):
        assert s.replay(k) == (s.steps[k - 1].state if k else s.initial)
