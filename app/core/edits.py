"""Roster edits as command objects for :class:`app.core.history.History`.

Each edit names what it does (the label shown in Edit > Undo) and returns a new roster; the
roster before the edit is kept by the history, which is the edit's inverse.

An edit that would put a value out of the roster's bounds (``app.core.roster``: a count of 0,
an empty name, 21 wounds) raises :class:`~app.core.roster.RosterValueError`, a ``ValueError``,
and returns nothing: the history and the window's session then change nothing and say why.
Edits check the values they set, so a roster stored before a bound existed stays editable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.roster import (
    Command,
    Leader,
    Roster,
    RosterValueError,
    Unit,
    check,
    command_problems,
    leader_problems,
    new_id,
    roster_problems,
    unit_problems,
)
from app.rules.leaderfields import FieldValues, LeaderField
from app.rules.scale import Scale


def _checked(roster: Roster, *fields: str) -> Roster:
    """``roster`` if its ``fields`` are within bounds; else raise ``RosterValueError``."""
    check(roster_problems(roster, fields))
    return roster


def _one_unit(leader: str, unit: Unit) -> None:
    """A leader stands with one unit: a line of identical units (``count`` > 1) takes none,
    refused here rather than left for validation to flag (which of them would he be with?)."""
    if unit.count > 1:
        raise RosterValueError(
            [
                f"{leader} stands with one unit, and {unit.name} is a line of {unit.count} "
                "identical units: split one off first"
            ]
        )


def _index(roster: Roster, unit_id: str) -> int:
    for i, u in enumerate(roster.units):
        if u.id == unit_id:
            return i
    raise KeyError(f"roster has no unit {unit_id!r}")


@dataclass(frozen=True)
class AddUnit:
    unit: Unit
    index: int | None = None

    @property
    def label(self) -> str:
        return f"Add {self.unit.name}"

    def apply(self, roster: Roster) -> Roster:
        check(unit_problems(self.unit))
        units = list(roster.units)
        units.insert(len(units) if self.index is None else self.index, self.unit)
        return _checked(roster.with_units(units), "units")


@dataclass(frozen=True)
class RemoveUnits:
    unit_ids: tuple[str, ...]

    @property
    def label(self) -> str:
        n = len(self.unit_ids)
        return "Remove unit" if n == 1 else f"Remove {n} units"

    def apply(self, roster: Roster) -> Roster:
        gone = set(self.unit_ids)
        return roster.with_units(u for u in roster.units if u.id not in gone)


@dataclass(frozen=True)
class DuplicateUnit:
    """Copy a unit (a new id, no attached leader: a leader is with one unit only)."""

    unit_id: str
    new_unit_id: str = field(default_factory=lambda: new_id("u"))

    @property
    def label(self) -> str:
        return "Duplicate unit"

    def apply(self, roster: Roster) -> Roster:
        i = _index(roster, self.unit_id)
        copy = replace(roster.units[i], id=self.new_unit_id, leader=None)
        check(unit_problems(copy, ("id",)))
        units = list(roster.units)
        units.insert(i + 1, copy)
        return _checked(roster.with_units(units), "units")


@dataclass(frozen=True)
class UpdateUnit:
    """Change fields of one unit (name, size, count, grade, notes, command, leader, lines)."""

    unit_id: str
    changes: Mapping[str, Any]
    text: str = "Edit unit"

    @property
    def label(self) -> str:
        return self.text

    def apply(self, roster: Roster) -> Roster:
        i = _index(roster, self.unit_id)
        units = list(roster.units)
        unit = replace(units[i], **dict(self.changes))
        check(unit_problems(unit, self.changes.keys()))
        if unit.leader is not None and {"leader", "count"} & set(self.changes):
            _one_unit(roster.leader(unit.leader).name, unit)
        if "leader" in self.changes and unit.leader is not None:
            # A leader is attached to one unit at a time: detach him from any other.
            units = [replace(u, leader=None) if u.leader == unit.leader else u for u in units]
        units[i] = unit
        return roster.with_units(units)


@dataclass(frozen=True)
class MoveUnit:
    """Move a unit to another command (or none) and position in the roster's order."""

    unit_id: str
    command: str | None
    index: int | None = None

    @property
    def label(self) -> str:
        return "Move unit"

    def apply(self, roster: Roster) -> Roster:
        i = _index(roster, self.unit_id)
        units = list(roster.units)
        unit = replace(units.pop(i), command=self.command)
        units.insert(len(units) if self.index is None else min(self.index, len(units)), unit)
        return roster.with_units(units)


@dataclass(frozen=True)
class UpdateRoster:
    """Change roster-level fields: name, side, scale, notes."""

    changes: Mapping[str, Any]
    text: str = "Edit roster"

    @property
    def label(self) -> str:
        return self.text

    def apply(self, roster: Roster) -> Roster:
        allowed = {"name", "side", "scale", "notes"}
        bad = set(self.changes) - allowed
        if bad:
            raise KeyError(f"cannot change {', '.join(sorted(bad))} of a roster")
        changes = dict(self.changes)
        if changes.get("scale") is not None:
            changes["scale"] = Scale.parse(changes["scale"])
        return _checked(replace(roster, **changes), *self.changes)


@dataclass(frozen=True)
class AddCommand:
    command: Command

    @property
    def label(self) -> str:
        return f"Add {self.command.name}"

    def apply(self, roster: Roster) -> Roster:
        check(command_problems(self.command))
        return _checked(replace(roster, commands=(*roster.commands, self.command)), "commands")


@dataclass(frozen=True)
class UpdateCommand:
    command_id: str
    changes: Mapping[str, Any]
    text: str = "Edit command"

    @property
    def label(self) -> str:
        return self.text

    def apply(self, roster: Roster) -> Roster:
        changed = replace(roster.command(self.command_id), **dict(self.changes))
        check(command_problems(changed, self.changes.keys()))
        return replace(
            roster,
            commands=tuple(changed if c.id == self.command_id else c for c in roster.commands),
        )


@dataclass(frozen=True)
class RemoveCommand:
    """Remove a command; its units stay in the roster without a command."""

    command_id: str

    @property
    def label(self) -> str:
        return "Remove command"

    def apply(self, roster: Roster) -> Roster:
        roster.command(self.command_id)
        return replace(
            roster,
            commands=tuple(c for c in roster.commands if c.id != self.command_id),
            units=tuple(
                replace(u, command=None) if u.command == self.command_id else u
                for u in roster.units
            ),
        )


@dataclass(frozen=True)
class AddLeader:
    """Add a leader; his fields are checked against ``fields``, those the roster's ruleset
    declares (:mod:`app.rules.leaderfields`)."""

    leader: Leader
    fields: tuple[LeaderField, ...] = ()

    @property
    def label(self) -> str:
        return f"Add {self.leader.name}"

    def apply(self, roster: Roster) -> Roster:
        check(leader_problems(self.leader, declared=self.fields))
        return _checked(replace(roster, leaders=(*roster.leaders, self.leader)), "leaders")


@dataclass(frozen=True)
class UpdateLeader:
    """Change a leader: ``changes`` by name, each a common field of :class:`Leader` or one
    of ``fields``, those the roster's ruleset declares (:mod:`app.rules.leaderfields`),
    whose values are checked against the declaration (``None`` unsets one)."""

    leader_id: str
    changes: Mapping[str, Any]
    text: str = "Edit leader"
    fields: tuple[LeaderField, ...] = ()

    @property
    def label(self) -> str:
        return self.text

    def apply(self, roster: Roster) -> Roster:
        leader = roster.leader(self.leader_id)
        declared = {f.name for f in self.fields}
        common = {k: v for k, v in self.changes.items() if k not in declared}
        own = {k: v for k, v in self.changes.items() if k in declared}
        values = dict(leader.fields)
        values.update(own)
        changed = replace(leader, **common, fields=FieldValues(values))
        check(leader_problems(changed, self.changes.keys(), self.fields))
        return replace(
            roster,
            leaders=tuple(changed if ld.id == self.leader_id else ld for ld in roster.leaders),
        )


@dataclass(frozen=True)
class RemoveLeader:
    """Remove a leader, detaching him from his unit and command."""

    leader_id: str

    @property
    def label(self) -> str:
        return "Remove leader"

    def apply(self, roster: Roster) -> Roster:
        roster.leader(self.leader_id)
        lid = self.leader_id
        return replace(
            roster,
            leaders=tuple(ld for ld in roster.leaders if ld.id != lid),
            units=tuple(replace(u, leader=None) if u.leader == lid else u for u in roster.units),
            commands=tuple(
                replace(c, leader=None) if c.leader == lid else c for c in roster.commands
            ),
        )


@dataclass(frozen=True)
class SplitUnit:
    """Take one unit off a line of identical units (``count`` > 1) as a line of its own, placed
    just after it: a leader is attached to one unit, not to a line of three."""

    unit_id: str
    new_unit_id: str = field(default_factory=lambda: new_id("u"))

    @property
    def label(self) -> str:
        return "Split off one unit"

    def apply(self, roster: Roster) -> Roster:
        i = _index(roster, self.unit_id)
        unit = roster.units[i]
        if unit.count < 2:
            raise ValueError(f"{unit.name} is a single unit; there is nothing to split off")
        units = list(roster.units)
        units[i] = replace(unit, count=unit.count - 1)
        units.insert(i + 1, replace(unit, id=self.new_unit_id, count=1, leader=None))
        return _checked(roster.with_units(units), "units")


@dataclass(frozen=True)
class AssignCommand:
    """Make a leader lead one command (``command_id``), or none: he leaves any other command
    he led, and the command's previous leader leaves it."""

    leader_id: str
    command_id: str | None

    @property
    def label(self) -> str:
        return "Assign leader" if self.command_id else "Unassign leader"

    def apply(self, roster: Roster) -> Roster:
        roster.leader(self.leader_id)
        if self.command_id is not None:
            roster.command(self.command_id)
        commands = []
        for c in roster.commands:
            if c.id == self.command_id:
                commands.append(replace(c, leader=self.leader_id))
            elif c.leader == self.leader_id:
                commands.append(replace(c, leader=None))
            else:
                commands.append(c)
        return replace(roster, commands=tuple(commands))


@dataclass(frozen=True)
class AttachLeader:
    """Attach a leader to one unit (``unit_id``), or to none: he leaves any unit he was with,
    and the unit's previous leader is detached."""

    leader_id: str
    unit_id: str | None

    @property
    def label(self) -> str:
        return "Attach leader" if self.unit_id else "Detach leader"

    def apply(self, roster: Roster) -> Roster:
        leader = roster.leader(self.leader_id)
        if self.unit_id is not None:
            _one_unit(leader.name, roster.units[_index(roster, self.unit_id)])
        units = []
        for u in roster.units:
            if u.id == self.unit_id:
                units.append(replace(u, leader=self.leader_id))
            elif u.leader == self.leader_id:
                units.append(replace(u, leader=None))
            else:
                units.append(u)
        return roster.with_units(units)


@dataclass(frozen=True)
class Batch:
    """Several edits as one step of the history (moving three units to another command is one
    undo), applied in order; if one fails, none is applied."""

    edits: tuple[Any, ...]
    text: str

    @property
    def label(self) -> str:
        return self.text

    def apply(self, roster: Roster) -> Roster:
        for edit in self.edits:
            roster = edit.apply(roster)
        return roster
