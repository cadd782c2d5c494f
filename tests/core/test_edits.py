"""Roster edits added for the army builder: split a line, assign and attach leaders, batches."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.edits import (
    AddCommand,
    AddLeader,
    AddUnit,
    AssignCommand,
    AttachLeader,
    Batch,
    MoveUnit,
    SplitUnit,
    UpdateCommand,
    UpdateLeader,
    UpdateRoster,
    UpdateUnit,
)
from app.core.history import History
from app.core.roster import (
    MAX_COUNT,
    MAX_NAME,
    MAX_NOTES,
    MAX_SIDE,
    MAX_SIZE,
    MAX_WOUNDS,
    Command,
    Leader,
    Roster,
    RosterValueError,
    Unit,
    leader_problems,
    new_roster,
    roster_name_problem,
    unit_from_entry,
    unit_problems,
)
from app.rules.leader_bonus import BONUS
from app.rules.registry import Registry


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
    roster = SplitUnit("u1", new_unit_id="u9").apply(_roster())
    roster = AttachLeader("l1", "u9").apply(roster)
    assert roster.unit("u9").leader == "l1"
    assert roster.unit("u2").leader is None
    roster = AttachLeader("l1", None).apply(roster)
    assert all(u.leader is None for u in roster.units)
    with pytest.raises(KeyError):
        AttachLeader("l9", "u2").apply(roster)


def test_a_leader_is_not_attached_to_a_line_of_identical_units() -> None:
    """A leader stands with one unit (issue 25): attaching him to a line of 3 hastati, or
    making his unit a line of 2, is refused, naming the way out; the roster is unchanged
    (before, it was taken and validation flagged the roster as invalid)."""
    roster = _roster()
    for edit in (
        AttachLeader("l1", "u1"),
        UpdateUnit("u1", {"leader": "l1"}),
        UpdateUnit("u2", {"count": 2}),
    ):
        with pytest.raises(RosterValueError, match=r"a line of .* identical units: split one"):
            edit.apply(roster)


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


# ---------------------------------------------------------------------- bounds


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (UpdateUnit("u1", {"count": 0}), "count 0 is out of range (1 to 1,000)"),
        (UpdateUnit("u1", {"count": MAX_COUNT + 1}), "count 1,001"),
        (UpdateUnit("u1", {"size": -5}), "size -5 is out of range (1 to 100,000)"),
        (UpdateUnit("u1", {"size": 10**21}), "size 1,000,000,000,000,000,000,000"),
        (UpdateUnit("u1", {"name": ""}), "the unit name cannot be empty"),
        (UpdateUnit("u1", {"name": "   "}), "the unit name cannot be empty"),
        (UpdateUnit("u1", {"name": "x" * (MAX_NAME + 1)}), "201 characters long (at most 200)"),
        (UpdateUnit("u1", {"notes": "x" * (MAX_NOTES + 1)}), "the notes"),
        (UpdateUnit("u1", {"lines": {"Triarii": -40}}), "Triarii bases -40 is out of range"),
        (UpdateUnit("u1", {"grade": "x" * 17}), "grade"),
        (AddUnit(Unit(id="u5", entry="hastati", name="H", size=12, count=0)), "count 0"),
        (UpdateLeader("l1", {"wounds": 21}), "wounds 21 is out of range (0 to 20)"),
        (UpdateLeader("l1", {"wounds": -1}), "wounds -1"),
        (UpdateLeader("l1", {"bonus": 6}, fields=(BONUS,)), "bonus 6 is out of range (-5 to 5)"),
        (UpdateLeader("l1", {"name": ""}), "the leader name cannot be empty"),
        (AddLeader(Leader(id="l5", name="X", wounds=99)), "wounds 99"),
        (UpdateCommand("c1", {"name": " "}), "the command name cannot be empty"),
        (AddCommand(Command(id="c5", name="")), "the command name cannot be empty"),
        (UpdateRoster({"name": ""}), "the roster name cannot be empty"),
        (UpdateRoster({"side": "x" * (MAX_SIDE + 1)}), "the side"),
        (Batch((MoveUnit("u1", "c2"), UpdateUnit("u1", {"count": 0})), "Both"), "count 0"),
    ],
)
def test_out_of_bounds_edit_is_refused_and_changes_nothing(edit: object, words: str) -> None:
    """A value a roster file could not hold is refused with a ValueError naming it."""
    history = History(_roster())
    with pytest.raises(RosterValueError) as info:
        history.apply(edit)
    assert isinstance(info.value, ValueError)
    assert words in str(info.value)
    assert history.value == _roster() and not history.status().can_undo


def test_edits_within_bounds_and_of_other_fields_pass() -> None:
    """An edit checks what it sets: a unit stored out of bounds can still be edited back."""
    stored = _roster().with_units([replace(_roster().units[0], size=-5), _roster().units[1]])
    renamed = UpdateUnit("u1", {"name": "Hastati I"}).apply(stored)
    assert renamed.unit("u1").name == "Hastati I"
    fixed = UpdateUnit("u1", {"size": MAX_SIZE, "count": MAX_COUNT}).apply(renamed)
    assert (fixed.unit("u1").size, fixed.unit("u1").count) == (MAX_SIZE, MAX_COUNT)
    with pytest.raises(RosterValueError):
        UpdateUnit("u1", {"size": -4}).apply(stored)


def test_new_roster_and_unit_from_entry_keep_to_the_bounds(registry: Registry) -> None:
    rs = registry.get("quincunx")
    with pytest.raises(RosterValueError, match="the roster name cannot be empty"):
        new_roster(rs, "carthaginian", name="")
    with pytest.raises(RosterValueError, match="200"):
        new_roster(rs, "carthaginian", name="x" * (MAX_NAME + 1))
    with pytest.raises(RosterValueError, match="size -5"):
        unit_from_entry(rs, "carthaginian", "celtic_swordsmen", size=-5)
    with pytest.raises(RosterValueError, match="the unit name cannot be empty"):
        unit_from_entry(rs, "carthaginian", "celtic_swordsmen", name="")
    assert roster_name_problem("Cannae") is None
    assert unit_problems(unit_from_entry(rs, "carthaginian", "celtic_swordsmen")) == []
    assert leader_problems(Leader(id="l", name="Hanno", wounds=MAX_WOUNDS)) == []
