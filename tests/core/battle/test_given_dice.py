"""Real dice: a command executed with faces the players threw, asked one throw at a time,
checked, and recorded like any roll (undo, redo and replay reuse them)."""

from __future__ import annotations

import pytest

from app.core.battle import Act, BattleSession, CommandError, NextPhase, StartBattle, new_battle
from app.core.battle.given import DiceRequest, faces_problem, parse_faces
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.core.battle.test_real_mechanics_replay import RULESETS, army
from tests.core.battle.test_session import session  # noqa: F401  (fixture)


def melee() -> Act:
    return Act(action="melee", actor="A1", target="B1")


def test_the_core_asks_for_each_throw_in_order(session: BattleSession) -> None:  # noqa: F811
    first = session.next_request(melee())
    assert first is not None
    assert (first.spec, first.index, first.count) == ("d6", 0, 1)
    assert "melee die" in first.purpose
    second = session.next_request(melee(), [5])
    assert second is not None and second.index == 1
    assert session.next_request(melee(), [5, 2]) is None
    assert session.cursor == 1  # asking changed nothing


def test_given_faces_decide_and_are_recorded(session: BattleSession) -> None:  # noqa: F811
    step = session.do(melee(), faces=[6, 2])
    assert [r.faces for r in step.rolls] == [(6,), (2,)]
    assert step.state.unit("B1").status.hits == 4  # 6 - 2: the toy's difference in hits
    assert step.lines[-1] == "Dice thrown at the table, entered by hand."
    after = session.state
    session.undo()
    session.redo()
    assert session.state == after
    assert session.steps[-1].rolls == step.rolls
    assert session.replay() == after


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ([6], "ran out"),
        ([6, 2, 3], "threw 2 dice but 3 faces were given"),
        ([7, 2], "7 is not a face of d6"),
        ([0, 2], "0 is not a face of d6"),
    ],
)
def test_wrong_faces_are_refused_and_change_nothing(
    session: BattleSession,  # noqa: F811
    faces: list[int],
    message: str,
) -> None:
    before = (session.state, session.cursor, len(session.steps), session.serial)
    with pytest.raises(CommandError, match=message):
        session.do(melee(), faces=faces)
    assert (session.state, session.cursor, len(session.steps), session.serial) == before


def test_a_phase_roll_takes_given_faces_too(session: BattleSession) -> None:  # noqa: F811
    # the toy rolls initiative (a d6 a side) when phase 0 begins; go round to it
    phases = len(session.ruleset.turn.phases)
    for _ in range(phases - 1):
        session.do(NextPhase())
    req = session.next_request(NextPhase())
    assert req is not None and "initiative" in req.purpose
    step = session.do(NextPhase(), faces=[2, 5])
    assert step.state.initiative == 1
    assert [r.faces for r in step.rolls] == [(2,), (5,)]


def test_checks_and_parsing() -> None:
    assert faces_problem("2d6", [4]) == "2d6 is 2 dice: give 2 faces, not 1"
    assert faces_problem("d10z", [0]) is None
    assert (
        faces_problem("d10", [0])
        == "0 is not a face of d10 (its faces: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)"
    )
    assert faces_problem("avd", [3]) is None
    assert faces_problem("avd", [1]) is not None
    assert parse_faces("4, 6") == [4, 6]
    assert parse_faces("4 6 1") == [4, 6, 1]
    for bad in ("", "four", "4.5", "-1", "1e3", "١"):
        with pytest.raises(ValueError):
            parse_faces(bad)
    assert DiceRequest("4d6", "shooting", 0).describe() == "4 x d6 (1-6)"
    assert DiceRequest("avd", "x", 0).describe() == "AvD (2-5)"


def answer(s: BattleSession, cmd: Act | NextPhase) -> list[int] | None:
    """Faces for every throw of ``cmd``, asked one request at a time (the highest face, then
    the lowest, in turn: a tie thrown again and again would never end), or None when the
    command cannot be carried out here."""
    faces: list[int] = []
    for _ in range(100):
        try:
            req = s.next_request(cmd, faces)
        except CommandError:
            return None
        if req is None:
            return faces
        faces += [req.faces[-1] if req.index % 2 == 0 else req.faces[0]] * req.count
    raise AssertionError("a command asked for more than 100 throws")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_takes_given_dice(registry: Registry, ruleset: str) -> None:
    """Whatever a ruleset's melee and phases throw, asking request by request and answering
    each executes the command with exactly those faces, and redo gives the same state."""
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    state = new_battle(rs, mech, (army(registry, ruleset, 0), army(registry, ruleset, 1)))
    s = BattleSession(rs, mech, state, seed=1)
    s.do(StartBattle())
    played = 0
    for _ in range(3 * len(rs.turn.phases)):
        for cmd in (Act(action="melee", actor="A1", target="B1"), NextPhase()):
            faces = answer(s, cmd)
            if faces is None:
                continue
            step = s.do(cmd, faces=faces)
            assert [f for r in step.rolls for f in r.faces] == faces
            played += bool(faces)
            s.undo()
            s.redo()
            assert s.state == step.state
            break
    assert played, f"{ruleset}: nothing threw dice"
    assert s.replay() == s.state
