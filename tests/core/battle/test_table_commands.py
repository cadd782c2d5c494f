"""The table in a battle: size and terrain changed only by commands, each undone, redone and
replayed exactly, stored and read back; a unit's distance moved is cleared each round."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.battle import (
    AddTerrain,
    BattleCommand,
    BattleSession,
    CommandError,
    EditTerrain,
    LayOutTable,
    NextPhase,
    RemoveTerrain,
    SetTable,
    StartBattle,
    new_battle,
)
from app.core.battle.serialize import state_from_dict, state_to_dict
from app.core.battle.session import step_from_dict, step_to_dict
from app.rules.registry import Registry
from app.rules.table import TerrainPiece
from tests.core.battle.test_session import roster
from tests.core.battle.toy import ToyMechanics

WOOD = ((10.0, 20.0), (20.0, 20.0), (20.0, 28.0), (10.0, 28.0))


def make_session(registry: Registry, seed: int = 5) -> BattleSession:
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    s = BattleSession(rs, mech, state, seed=seed)
    s.do(StartBattle())
    return s


@pytest.fixture
def session(registry: Registry) -> BattleSession:
    return make_session(registry)


def test_place_edit_and_remove_terrain(session: BattleSession) -> None:
    step = session.do(AddTerrain(terrain="woods", points=WOOD, name="Silva"))
    assert step.lines == ('Terrain placed: woods T1 "Silva" (4 points).',)
    river = session.do(AddTerrain(terrain="river", points=((0, 24), (72, 24))))
    (piece,) = [p for p in session.state.terrain if p.id == "T2"]
    assert piece.width == pytest.approx(3.0)  # D3 measures in inches: a river 3" wide
    assert '3" wide' in river.lines[0]
    session.do(EditTerrain(id="T1", name="Silva Litana", points=WOOD[:3]))
    assert session.state.table.piece("T1").points == WOOD[:3]
    session.do(EditTerrain(id="T2", terrain="road"))  # a river becomes a road, 1" wide
    assert session.state.table.piece("T2").width == pytest.approx(1.0)
    session.do(RemoveTerrain(id="T1"))
    assert [p.id for p in session.state.terrain] == ["T2"]
    assert session.state.view().table.terrain == session.state.terrain


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (AddTerrain(terrain="woods", points=((0, 0), (1, 1))), "at least 3 points"),
        (AddTerrain(terrain="woods", points=((0, 0), (math.nan, 1), (2, 0))), "finite"),
        (AddTerrain(terrain="volcano", points=WOOD), "unknown terrain kind"),  # type: ignore[arg-type]
        (AddTerrain(terrain="road", points=((0, 0), (9, 9)), width=-1), "more than 0"),
        (AddTerrain(terrain="woods", points=WOOD, name="\x07"), "control character"),
        (EditTerrain(id="T9", name="x"), "no terrain piece 'T9'"),
        (RemoveTerrain(id="T9"), "no terrain piece 'T9'"),
        (SetTable(width=math.inf, height=48), "finite"),
        (SetTable(width=0, height=48), "more than 0"),
        (SetTable(width=10, height=10), "would be off a 10 by 10 table"),
    ],
)
def test_bad_table_commands_change_nothing(
    session: BattleSession, command: BattleCommand, words: str
) -> None:
    before, steps = session.state, len(session.steps)
    with pytest.raises(CommandError, match=words):
        session.do(command)
    assert session.state == before and len(session.steps) == steps


def test_table_size_and_layout(session: BattleSession) -> None:
    session.do(SetTable(width=96, height=60))
    assert (session.state.width, session.state.height) == (96, 60)
    assert session.state.view().table.width == 96
    pieces = (
        TerrainPiece("T1", "hill", WOOD, "Hill"),
        TerrainPiece("T2", "stream", ((0, 30), (96, 31)), width=1),
    )
    step = session.do(LayOutTable(layout="hills and woods", pieces=pieces))
    assert session.state.terrain == pieces
    assert 'laid out as "hills and woods": 2 pieces (hill, stream)' in step.lines[0]
    again = step_from_dict(json.loads(json.dumps(step_to_dict(step))))
    assert again == step


def test_terrain_survives_json_and_old_states_have_no_new_keys(session: BattleSession) -> None:
    d = state_to_dict(session.state)
    assert all("moved" not in u for u in d["units"])
    session.do(AddTerrain(terrain="road", points=((0, 1), (72, 1)), width=2))
    session.do(AddTerrain(terrain="marsh", points=WOOD))
    d = state_to_dict(session.state)
    assert d["terrain"][0]["width"] == 2.0 and "width" not in d["terrain"][1]
    assert state_from_dict(json.loads(json.dumps(d))) == session.state
    for step in session.steps:
        assert step_from_dict(json.loads(json.dumps(step_to_dict(step)))) == step


# --------------------------------------------------------------------------- property

point = st.tuples(st.integers(-5, 80), st.integers(-5, 55))
TABLE_COMMANDS = st.one_of(
    st.builds(
        lambda kind, pts, name: AddTerrain(terrain=kind, points=tuple(pts), name=name),
        st.sampled_from(["woods", "hill", "river", "road", "marsh", "ford", "lake"]),
        st.lists(point, min_size=2, max_size=6),
        st.sampled_from(["", "Silva", "Collis"]),
    ),
    st.builds(
        lambda n, pts, name: EditTerrain(
            id=f"T{n}", points=None if pts is None else tuple(pts), name=name
        ),
        st.integers(1, 4),
        st.none() | st.lists(point, min_size=3, max_size=5),
        st.none() | st.sampled_from(["Renamed", ""]),
    ),
    st.builds(lambda n: RemoveTerrain(id=f"T{n}"), st.integers(1, 4)),
    st.builds(lambda w, h: SetTable(width=w, height=h), st.integers(40, 120), st.integers(30, 90)),
    st.builds(
        lambda pts: LayOutTable(
            layout="random", pieces=(TerrainPiece("T1", "woods", tuple(map(tuple, pts))),)
        ),
        st.just([[0, 0], [10, 0], [10, 10]]),
    ),
    st.just(NextPhase()),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(TABLE_COMMANDS, min_size=1, max_size=12), st.integers(0, 10_000))
def test_property_table_edits_undo_redo_replay(
    registry: Registry, commands: list[BattleCommand], seed: int
) -> None:
    """undo(do(x)) restores x exactly; redo lands on the same state; replay rebuilds every
    state; every step reads back from JSON as it was."""
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


def test_distance_moved_lasts_until_the_next_round(registry: Registry) -> None:
    from dataclasses import replace

    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    first = replace(state.units[0], moved=3.5)
    s = BattleSession(rs, mech, replace(state, units=(first, *state.units[1:])), seed=1)
    s.do(StartBattle())
    assert s.state.view().unit("A1").moved == 3.5
    assert state_to_dict(s.state)["units"][0]["moved"] == 3.5
    while s.state.turn == 1 and s.state.round == 1:
        assert s.state.unit("A1").moved == 3.5
        s.do(NextPhase())
    assert all(u.moved == 0 for u in s.state.units)
    assert "moved" not in state_to_dict(s.state)["units"][0]


def test_a_new_round_clears_moves_and_keeps_the_units_that_had_none(registry: Registry) -> None:
    """A new round rebuilds only the units that moved or carry the ``moved`` marker; the
    others stay the same objects (what was made of them once holds). The state is the one
    clearing every unit gives."""
    from dataclasses import replace

    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    units = list(state.units)
    units[0] = replace(units[0], moved=3.5)
    units[1] = replace(units[1], status=replace(units[1].status, markers=frozenset({"moved"})))
    units[2] = replace(units[2], moved=-0.0)  # no distance: kept as it is
    s = BattleSession(rs, mech, replace(state, units=tuple(units)), seed=1)
    s.do(StartBattle())
    while s.state.turn == 1 and s.state.round == 1:
        before = s.state
        s.do(NextPhase())
    after = s.state
    cleared = tuple(
        replace(u, status=replace(u.status, markers=u.status.markers - {"moved"}), moved=0.0)
        for u in before.units
    )
    assert after.units == cleared
    assert state_to_dict(after) == state_to_dict(replace(after, units=cleared))
    kept = [a is b for a, b in zip(before.units, after.units, strict=True)]
    assert kept[:2] == [False, False] and all(kept[2:])
    assert not after.units[1].status.has("moved") and after.units[0].moved == 0.0
