"""A battle remembers the ruleset data it was recorded with: when that data has changed, redo
and replay keep the recorded states (explicitly, never silently); when it has not, a step
that no longer reproduces is a bug and raises ReplayError. Steps may decode their state
lazily and still compare and serialise the same."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.battle import (
    Act,
    BattleSession,
    MoveUnit,
    NextPhase,
    ReplayError,
    StartBattle,
    Step,
    new_battle,
)
from app.core.battle.dice import Roll
from app.core.battle.serialize import state_from_json, state_to_dict
from app.core.battle.session import DataStamp, step_to_dict
from app.rules.fingerprint import fingerprint, folder_fingerprint
from app.rules.loader import FILES
from app.rules.registry import Registry
from tests.core.battle.test_session import roster
from tests.core.battle.toy import ToyMechanics


@pytest.fixture
def session(registry: Registry) -> BattleSession:
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    s = BattleSession(rs, mech, state, seed=11)
    for cmd in (
        StartBattle(),
        MoveUnit(unit="A1", x=20, y=12),
        Act(action="melee", actor="A1", target="B1"),
        NextPhase(),
    ):
        s.do(cmd)
    return s


def tamper(session: BattleSession, n: int) -> Step:
    """Replace step ``n``'s recorded state by one its command cannot produce (as changed data
    or a determinism bug would); returns the tampered step."""
    old = session.steps[n]
    units = tuple(replace(u, x=u.x + 1) if u.id == "B3" else u for u in old.state.units)
    new = Step(
        old.command, old.rolls, old.lines, old.turn, old.phase, replace(old.state, units=units)
    )
    session.steps[n] = new
    return new


# --------------------------------------------------------------------------- fingerprint


def test_fingerprint_follows_every_file_byte(registry: Registry, tmp_path: Path) -> None:
    rs = registry.get("quincunx")
    copy = tmp_path / "house"
    copy.mkdir()
    for name in FILES:
        shutil.copyfile(rs.folder / name, copy / name)
    (copy / "mechanics.py").write_text("# a file beside the data\n", encoding="utf-8")
    assert folder_fingerprint(copy) == fingerprint(rs)
    assert len(fingerprint(rs)) == 64
    (copy / "mechanics.py").write_text("# not data\n", encoding="utf-8")
    assert folder_fingerprint(copy) == fingerprint(rs)  # only the five TOML files count
    for name in FILES:
        data = (copy / name).read_bytes()
        (copy / name).write_bytes(data + b"\n")
        assert folder_fingerprint(copy) != fingerprint(rs), name
        (copy / name).write_bytes(data)
    # bytes moved from one file to the next change it too
    a, b = (copy / FILES[0]).read_bytes(), (copy / FILES[1]).read_bytes()
    (copy / FILES[0]).write_bytes(a + b[:1])
    (copy / FILES[1]).write_bytes(b[1:])
    assert folder_fingerprint(copy) != fingerprint(rs)
    (copy / FILES[4]).unlink()
    assert folder_fingerprint(copy) == folder_fingerprint(copy)  # a missing file is fine
    assert folder_fingerprint(tmp_path / "nowhere") != folder_fingerprint(copy)


# --------------------------------------------------------------------------- recorded data


def test_a_new_battle_is_recorded_with_the_current_data(session: BattleSession) -> None:
    assert session.recorded is None and not session.data_changed
    assert session.current_data == DataStamp(
        session.ruleset.meta.data_version, fingerprint(session.ruleset)
    )
    assert session.data_warning() is None
    session.recorded = session.current_data
    assert not session.data_changed and session.data_warning() is None


def test_changed_data_is_told_in_one_line(session: BattleSession) -> None:
    session.recorded = DataStamp("0.9.0", "ab" * 32)
    assert session.data_changed
    warning = session.data_warning()
    assert warning is not None and "\n" not in warning
    assert warning.startswith("this battle was recorded with d3-ancients data 0.9.0")
    assert "(fingerprint abababababab)" in warning
    assert warning.endswith(
        "the data has changed since (now "
        f"{session.ruleset.meta.data_version}, "
        f"{session.current_data.fingerprint[:12]}): "
        "redo and replay use the recorded states"
    )


def test_divergence_with_unchanged_data_raises(session: BattleSession) -> None:
    tampered = tamper(session, 2)
    for _ in range(3):
        session.undo()
    session.redo()
    before = session.state
    with pytest.raises(ReplayError, match=r"redo of step 3 \(Melee"):
        session.redo()
    assert session.cursor == 2 and session.state == before  # unchanged
    with pytest.raises(
        ReplayError, match=r"replay of step 3 \(Melee.*\) diverged from the recorded state"
    ):
        session.replay(4)
    assert session.replay(2) == session.steps[1].state
    assert session.steps[2] is tampered  # the record is never rewritten


def test_trust_recorded_keeps_the_recorded_states(session: BattleSession) -> None:
    session.recorded = DataStamp("0.9.0", "0" * 64)
    tampered = tamper(session, 2)
    while session.can_undo():
        session.undo()
    session.redo(trust_recorded=True)
    assert session.last_divergence is None  # the start still reproduces
    session.redo(trust_recorded=True)
    step = session.redo(trust_recorded=True)
    assert step is tampered and session.state == tampered.state
    assert session.last_divergence is not None and "step 3" in session.last_divergence
    # the next step, executed again from the recorded state, differs too: it is kept as well
    after = session.redo(trust_recorded=True)
    assert session.cursor == 4 and session.state == after.state
    assert "step 4" in str(session.last_divergence)
    # replay returns what was recorded, without executing anything
    session.mechanics = None  # type: ignore[assignment]
    assert session.replay(3, trust_recorded=True) == tampered.state
    assert session.replay(0, trust_recorded=True) == session.initial
    with pytest.raises(IndexError):
        session.replay(9, trust_recorded=True)


def test_a_step_that_cannot_run_again_is_a_replay_error(session: BattleSession) -> None:
    """Fewer recorded rolls than the command asks for (or a command now refused) is a
    divergence too, not a raw LookupError or CommandError."""
    melee = session.steps[2]
    session.steps[2] = Step(
        melee.command, melee.rolls[:1], melee.lines, melee.turn, melee.phase, melee.state
    )
    session.undo()
    session.undo()
    with pytest.raises(
        ReplayError, match=r"redo of step 3 \(Melee.*\) diverged: no recorded roll left"
    ):
        session.redo()
    session.redo(trust_recorded=True)
    assert session.state == melee.state and "no recorded roll" in str(session.last_divergence)
    with pytest.raises(ReplayError):
        session.replay()
    extra = Roll("spare", "d6", (3,))
    session.steps[2] = Step(
        melee.command, (*melee.rolls, extra), melee.lines, melee.turn, melee.phase, melee.state
    )
    with pytest.raises(ReplayError, match="fewer rolls than were recorded"):
        session.replay()
    session.steps[1] = Step(MoveUnit(unit="Z9", x=1, y=1), (), (), 1, 0, session.steps[1].state)
    with pytest.raises(ReplayError, match="no unit 'Z9'"):
        session.replay()


# --------------------------------------------------------------------------- lazy steps


def test_a_lazy_step_decodes_once_compares_and_serialises_the_same(
    session: BattleSession,
) -> None:
    eager = session.steps[2]
    calls = []
    text = json.dumps(state_to_dict(eager.state))

    def load() -> object:
        calls.append(1)
        return state_from_json(text)()

    lazy = Step(eager.command, eager.rolls, eager.lines, eager.turn, eager.phase, load)  # type: ignore[arg-type]
    assert not lazy.decoded and "state=..." in repr(lazy)
    assert lazy.command == eager.command and lazy.rolls == eager.rolls and calls == []
    assert lazy == eager and eager == lazy and calls == [1]
    assert lazy.decoded and lazy.state is lazy.state and calls == [1]
    assert step_to_dict(lazy) == step_to_dict(eager)
    assert lazy != session.steps[1] and lazy != "a step"
    with pytest.raises(AttributeError):
        lazy.turn = 3  # type: ignore[misc]
