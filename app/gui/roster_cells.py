"""The roster tree's columns and what its cells do when edited: the choices a cell offers
(the army list's sizes and grades, the roster's leaders) and the core edit a new value
becomes. Plain functions of the session, so the model only maps indexes to units."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any

from app.core.capabilities import line_choices
from app.core.edits import (
    AssignCommand,
    AttachLeader,
    Batch,
    MoveUnit,
    UpdateCommand,
    UpdateUnit,
)
from app.core.roster import Command, Roster, Unit
from app.gui.session import RosterSession


class Col(IntEnum):
    NAME = 0
    TYPE = 1
    QTY = 2
    SIZE = 3
    GRADE = 4
    LINES = 5
    FIGURES = 6
    BASES = 7
    MEN = 8
    LEADER = 9
    NOTES = 10


NUMERIC_COLUMNS = (Col.QTY, Col.SIZE, Col.FIGURES, Col.BASES, Col.MEN)


def insertion_index(units: Sequence[Unit], command: str | None, before: str | None) -> int:
    """Where a unit goes in the roster's order: just before unit ``before``, or after the last
    unit of ``command`` (the end of the roster if it has none)."""
    if before is not None:
        for i, u in enumerate(units):
            if u.id == before:
                return i
    last = None
    for i, u in enumerate(units):
        if u.command == command:
            last = i
    return len(units) if last is None else last + 1


def move_units(
    roster: Roster, unit_ids: Sequence[str], command: str | None, before: str | None
) -> Batch:
    """One undoable edit moving ``unit_ids`` (in order) into ``command`` before unit
    ``before`` (or at the end of the command)."""
    edits = []
    for uid in unit_ids:
        rest = [u for u in roster.units if u.id != uid]
        edit = MoveUnit(uid, command, insertion_index(rest, command, before))
        roster = edit.apply(roster)
        edits.append(edit)
    n = len(unit_ids)
    return Batch(tuple(edits), "Move unit" if n == 1 else f"Move {n} units")


def cell_choices(
    session: RosterSession, unit: Unit | None, command: Command | None, col: Col
) -> list[tuple[str, Any]] | None:
    """The values a cell of ``unit`` (or of the group of ``command``) may take, for the
    combo-box delegate; None for free text, an empty list for a cell with nothing to choose."""
    leaders = [("(none)", None)] + [(ld.name, ld.id) for ld in session.roster.leaders]
    if unit is not None:
        entry = session.army.entries.get(unit.entry)
        if col == Col.SIZE:
            if entry is None or (len(entry.sizes) < 2 and unit.size in entry.sizes):
                return []
            out: list[tuple[str, Any]] = [(str(s), s) for s in entry.sizes]
            if unit.size not in entry.sizes:
                out.append((f"{unit.size} (not allowed)", unit.size))
            return out
        if col == Col.GRADE:
            if entry is None or not entry.grades:
                return []
            return [(g, g) for g in entry.grades]
        if col == Col.LINES:
            return line_choices(entry) if entry is not None else []
        if col == Col.LEADER:
            return leaders
        return None
    if command is None:
        return None
    if col == Col.TYPE:
        return [
            ("(from its units)", None),
            ("infantry", "infantry"),
            ("cavalry", "cavalry"),
            ("mixed", "mixed"),
        ]
    if col == Col.LEADER:
        return leaders
    return None


def cell_edit(
    session: RosterSession, unit: Unit | None, command: Command | None, col: Col, value: Any
) -> Any:
    """The core edit that puts ``value`` in a cell of ``unit`` (or of ``command``'s group),
    or None when there is nothing to change."""
    roster = session.roster
    if unit is not None:
        name = unit.name
        if col == Col.NAME:
            text = str(value).strip()
            return UpdateUnit(unit.id, {"name": text}, f"Rename {name}") if text else None
        if col == Col.QTY:
            count = int(value)
            return (
                UpdateUnit(unit.id, {"count": count}, f"Set quantity of {name}")
                if count >= 1
                else None
            )
        if col == Col.SIZE:
            return UpdateUnit(unit.id, {"size": int(value)}, f"Set size of {name}")
        if col == Col.GRADE:
            return UpdateUnit(unit.id, {"grade": value}, f"Set grade of {name}")
        if col == Col.NOTES:
            return UpdateUnit(unit.id, {"notes": str(value)}, f"Edit notes of {name}")
        if col == Col.LINES:
            lines = dict(value) if value else None
            what = "Standard lines" if lines is None else "Understrength lines"
            return UpdateUnit(unit.id, {"lines": lines}, f"{what} in {name}")
        if col == Col.LEADER:
            if value is None:
                if unit.leader is None:
                    return None
                return Batch((AttachLeader(unit.leader, None),), f"Detach leader from {name}")
            leader = roster.leader(str(value))
            return Batch((AttachLeader(leader.id, unit.id),), f"Attach {leader.name} to {name}")
        return None
    if command is None:
        return None
    if col == Col.NAME:
        text = str(value).strip()
        return UpdateCommand(command.id, {"name": text}, f"Rename {command.name}") if text else None
    if col == Col.TYPE:
        return UpdateCommand(command.id, {"kind": value}, f"Set kind of {command.name}")
    if col == Col.LEADER:
        if value is None:
            return UpdateCommand(command.id, {"leader": None}, f"Unassign leader of {command.name}")
        leader = roster.leader(str(value))
        return Batch((AssignCommand(leader.id, command.id),), f"{leader.name} leads {command.name}")
    return None
