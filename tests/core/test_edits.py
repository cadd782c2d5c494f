"""Roster edits added for the army builder: split a line, assign and attach leaders, batches."""

from __future__ import annotations

import pytest

from app.core.edits import AssignCommand, AttachLeader, Batch, MoveUnit, SplitUnit, UpdateUnit
from app.core.history import History
from app.core.roster import Command, Leader, Roster, Unit


def _roster() -> Roster:
    return Roster(
        name="Test",
        ruleset="quincunx",
        army="roman",
        side="Rome",
        scale="1:10",
        units=(
            Unit(id="u1", entry="hastati", name="Hastati", size=12, count=3, command="c1"),
            Unit(id="u2", entry="velites", name="Velites", size=12, leader="l1"),
        ),
        leaders=(Leader(id="l1", name="Scipio"), Leader(id="l2", name="Laelius")),
        commands=(Command(id="c1", name="Left", leader="l1"), Command(id="c2", name="Right")),
    )


def test_split_unit_takes_one_off_a_line() -> None:
    roster = SplitUnit("u1", new_unit_id="u9").apply(_roster())
    assert [(u.id, u.count) for u in roster.units] == [("u1", 2), ("u9", 1), ("u2", 1)]
    assert roster.unit("u9").command == "c1"
    assert roster.unit_count() == _roster().unit_count()


def test_split_single_unit_is_refused() -> None:
    with pytest.raises(ValueError, match="single unit"):
        SplitUnit("u2").apply(_roster())


def test_assign_command_moves_the_leader() -> None:
    roster = AssignCommand("l1", "c2").apply(_roster())
    assert roster.command("c1").leader is None
    assert roster.command("c2").leader == "l1"
    roster = AssignCommand("l2", "c2").apply(roster)
    assert roster.command("c2").leader == "l2"
    roster = AssignCommand("l2", None).apply(roster)
    assert all(c.leader is None for c in roster.commands)
    with pytest.raises(KeyError):
        AssignCommand("l1", "nope").apply(roster)


def test_attach_leader_to_one_unit_only() -> None:
    roster = AttachLeader("l1", "u1").apply(_roster())
    assert roster.unit("u1").leader == "l1"
    assert roster.unit("u2").leader is None
    roster = AttachLeader("l1", None).apply(roster)
    assert all(u.leader is None for u in roster.units)
    with pytest.raises(KeyError):
        AttachLeader("l9", "u1").apply(roster)


def test_batch_is_one_undo_step_and_all_or_nothing() -> None:
    history = History(_roster())
    batch = Batch((MoveUnit("u1", "c2"), MoveUnit("u2", "c2")), "Move 2 units")
    history.apply(batch)
    assert {u.command for u in history.value.units} == {"c2"}
    assert history.status().undo_label == "Move 2 units"
    history.undo()
    assert history.value == _roster()
    bad = Batch((UpdateUnit("u1", {"name": "X"}), UpdateUnit("nope", {"name": "Y"})), "Bad")
    with pytest.raises(KeyError):
        history.apply(bad)
    assert history.value == _roster()
