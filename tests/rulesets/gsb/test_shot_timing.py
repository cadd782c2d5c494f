"""Grown Slightly Bald: when a unit shoots in its activation, worked on the table.

"Only medium infantry and lights can shoot. ... Roll 2 dice, hitting on 6s. ... Lights may
shoot before or after movement; light cavalry may pause to shoot during movement and then
continue movement." The data gives each shooter a timing (``tables.shooting.rows``): medium
infantry ``after_move`` (errata mi-shooting-timing: after any move, and no move after the
shot), light infantry ``before_or_after_move``, light cavalry
``before_during_or_after_move``; a unit shoots once an activation (errata shot-timing).

The shooter stands in the middle of the table facing up the table (+y); a foot unit is
1 x 0.5 UW, cavalry 1 x 0.75, and the range is 1 UW from the middle of the front edge."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import (
    Act,
    BattleSession,
    BattleState,
    CommandError,
    MoveUnit,
    NextPhase,
    StartBattle,
    new_battle,
)
from app.core.battle.reach import reach_outline
from app.core.battle.sample import sample_roster
from app.rules.mechanics import mechanics_for
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rulesets.gsb.base import SHOT, SHOT_AFTER_MOVING
from app.rulesets.gsb.mechanics import GSBMechanics

# Rome: A1-A4 heavy infantry, A9-A10 light infantry. Carthage: B1-B2 heavy infantry, B3-B5
# medium infantry, B6-B7 light infantry, B11 light cavalry.
ROME, CARTHAGE = 0, 1


@pytest.fixture
def mech(registry: Registry) -> GSBMechanics:
    m = mechanics_for(registry.get("grown-slightly-bald"))
    assert isinstance(m, GSBMechanics)
    return m


def session(
    mech: GSBMechanics, side: int, *where: tuple[str, float, float, float]
) -> BattleSession:
    """A battle with the named units at (x, y, facing), begun and advanced to ``side``'s
    activations."""
    rs = mech.ruleset
    state: BattleState = new_battle(
        rs, mech, (sample_roster(rs, "rome"), sample_roster(rs, "carthage"))
    )
    for uid, x, y, facing in where:
        state = state.replace_unit(replace(state.unit(uid), x=x, y=y, facing=facing))
    s = BattleSession(rs, mech, state, seed=9)
    s.do(StartBattle())
    for _ in range(3):
        s.do(NextPhase())
        if mech.side_to_move(s.state.view()) == side:
            return s
    raise AssertionError(f"side {side} never came to play")


def activate(s: BattleSession, uid: str) -> None:
    """Activate ``uid`` (GSB, Turn order: only the unit activated acts), free: these tests
    are of shooting, so each activation is given as the first (the ``nth`` option)."""
    s.do(Act(action="activate", actor=uid, options={"nth": 1}))


def move(s: BattleSession, uid: str, path: str, *, force: bool = False) -> None:
    s.do(MoveUnit(uid, legs=parse_path(path), force=force))


def shoot(s: BattleSession, uid: str, target: str) -> None:
    s.do(Act(action="shoot", actor=uid, target=target))


def test_medium_infantry_shoot_after_moving_and_then_move_no_more(mech: GSBMechanics) -> None:
    """Spanish (B3) 2 UW from the legion A1: forward 1 brings it within range; it shoots;
    the rest of its 2 UW move is refused, naming the rule and the troop's timing, unless
    forced."""
    s = session(mech, CARTHAGE, ("B3", 9.0, 7.0, 180.0), ("A1", 9.0, 4.5, 0.0))
    activate(s, "B3")
    move(s, "B3", "forward 1")
    shoot(s, "B3", "A1")
    b3 = s.state.unit("B3")
    assert b3.status.has(SHOT) and b3.status.extra.get(SHOT_AFTER_MOVING) is True
    with pytest.raises(CommandError) as refused:
        move(s, "B3", "forward 0.5")
    said = str(refused.value)
    assert "GSB, Shooting" in said and "medium infantry shoot after moving" in said
    assert "moves no more this activation" in said and said.count("\n") == 0
    # its charge too; the map shows no reach left
    with pytest.raises(CommandError, match="GSB, Shooting"):
        s.do(MoveUnit("B3", legs=parse_path("forward 0.5"), reason="charge"))
    reach = reach_outline(mech, s.state.view(), "B3")
    assert {(round(x, 6), round(y, 6)) for x, y in reach.outline} == {(9.0, 6.0)}
    move(s, "B3", "forward 0.5", force=True)  # the players may override it
    assert s.state.unit("B3").y == pytest.approx(5.5)


def test_medium_infantry_may_shoot_without_moving_but_not_move_after(
    mech: GSBMechanics,
) -> None:
    """'After any movement' includes none: Spanish in range shoot where they stand, and
    may not then move."""
    s = session(mech, CARTHAGE, ("B3", 9.0, 6.0, 180.0), ("A1", 9.0, 4.5, 0.0))
    activate(s, "B3")
    shoot(s, "B3", "A1")
    assert s.state.unit("B3").status.extra.get(SHOT_AFTER_MOVING) is None
    with pytest.raises(CommandError, match=r"GSB, Shooting: .*has shot \(medium infantry"):
        move(s, "B3", "pivot 45")


def test_a_unit_shoots_once_an_activation(mech: GSBMechanics) -> None:
    """Every timing: a second shot is refused, and its odds with the same line. The
    action's help says so, with each troop's timing from the data."""
    help_text = mech.action("shoot").help
    assert "once an activation" in help_text
    assert "Light infantry: before or after moving." in help_text
    s = session(
        mech,
        CARTHAGE,
        ("B3", 6.0, 6.0, 180.0),
        ("A1", 6.0, 4.5, 0.0),
        ("B6", 9.0, 6.0, 180.0),
        ("A2", 9.0, 4.5, 0.0),
        ("B11", 12.0, 6.0, 180.0),
        ("A3", 12.0, 4.5, 0.0),
    )
    for shooter, target, words in (
        ("B3", "A1", "medium infantry shoot after moving"),
        ("B6", "A2", "light infantry shoot before or after moving"),
        ("B11", "A3", "light cavalry shoot before, during or after moving"),
    ):
        activate(s, shooter)
        assert s.odds("shoot", shooter, target)  # the first shot has odds
        shoot(s, shooter, target)
        with pytest.raises(CommandError) as refused:
            shoot(s, shooter, target)
        said = str(refused.value)
        assert "GSB, Shooting" in said and "has already shot in this activation" in said
        assert words in said and said.count("\n") == 0
        with pytest.raises(ValueError, match="has already shot in this activation") as odds:
            s.odds("shoot", shooter, target)
        assert words in str(odds.value)


def test_light_infantry_shoot_then_move_or_move_then_shoot(mech: GSBMechanics) -> None:
    """Slingers (B6) shoot and then use their 2 UW; other slingers (B7) move 1, shoot, and
    may not move on: that would put the shot in the middle of their move."""
    s = session(
        mech,
        CARTHAGE,
        ("B6", 6.0, 6.0, 180.0),
        ("A1", 6.0, 4.5, 0.0),
        ("B7", 9.0, 7.0, 180.0),
        ("A2", 9.0, 4.5, 0.0),
    )
    activate(s, "B6")
    shoot(s, "B6", "A1")
    move(s, "B6", "turn 90; forward 1")
    move(s, "B6", "forward 1")  # shot before moving: the whole move is still its own
    assert s.state.unit("B6").moved == pytest.approx(2.0)

    activate(s, "B7")
    move(s, "B7", "forward 1")
    shoot(s, "B7", "A2")
    with pytest.raises(CommandError) as refused:
        move(s, "B7", "turn 90")
    said = str(refused.value)
    assert "GSB, Shooting: " in said and "(B7) moved, then shot" in said
    assert "moved, then shot (light infantry shoot before or after moving, not in the " in said
    assert "its move is over this activation" in said


def test_light_cavalry_pause_to_shoot_and_move_on(mech: GSBMechanics) -> None:
    """Numidians (B11, 4 UW) move 1, shoot, and use the rest of their move."""
    s = session(mech, CARTHAGE, ("B11", 9.0, 7.0, 180.0), ("A1", 9.0, 4.5, 0.0))
    activate(s, "B11")
    move(s, "B11", "forward 1")
    shoot(s, "B11", "A1")
    move(s, "B11", "turn 90; forward 3")
    assert s.state.unit("B11").moved == pytest.approx(4.0)


def test_the_record_is_in_the_state_and_cleared_at_the_next_initiative(
    mech: GSBMechanics,
) -> None:
    """Undo takes the shot and its record back, redo and replay bring them again; the unit
    is not activated again this turn ("Units may only be activated once per turn"), and the
    next turn's initiative starts afresh."""
    s = session(mech, ROME, ("A9", 9.0, 4.0, 0.0), ("B1", 9.0, 5.5, 180.0))
    activate(s, "A9")
    move(s, "A9", "forward 0.5")
    shoot(s, "A9", "B1")
    shot = s.state
    assert shot.unit("A9").status.has(SHOT)
    s.undo()
    assert not s.state.unit("A9").status.has(SHOT)
    assert mech.check_move(s.state.view(), "A9", Path(parse_path("forward 0.25"))).ok
    s.redo()
    assert s.state == shot and s.replay() == shot
    with pytest.raises(CommandError, match="GSB, Shooting"):
        move(s, "A9", "forward 0.25")
    with pytest.raises(CommandError, match="has already acted this turn"):
        s.do(Act(action="activate", actor="A9"))
    # the next turn's initiative clears it
    while s.state.turn == 1:
        s.do(NextPhase())
    a9 = s.state.unit("A9")
    assert not a9.status.has(SHOT) and SHOT_AFTER_MOVING not in a9.status.extra
