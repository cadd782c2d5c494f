"""Rosters: a ruleset, an army list, a side, a scale, units, leaders and commands.

Rosters are immutable values: every edit returns a new roster (see ``app.core.edits``), which
keeps undo and redo exact and lets the store, the file format and the GUI share one shape.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from app.rules.inputs import control_problem
from app.rules.leaderfields import NO_FIELDS, FieldValue, FieldValues, LeaderField
from app.rules.scale import Scale

if TYPE_CHECKING:  # annotations only: reading a stored roster needs no schema
    from app.rules.ruleset import Ruleset
    from app.rules.schema import ArmyList, StandardArmy


class LeaderStatus(StrEnum):
    FIT = "fit"
    WOUNDED = "wounded"
    KILLED = "killed"
    CAPTURED = "captured"

    @property
    def can_field(self) -> bool:
        return self in (LeaderStatus.FIT, LeaderStatus.WOUNDED)


Rank = Literal["general", "commander"]
CommandKind = Literal["infantry", "cavalry", "mixed"]

# ---------------------------------------------------------------------- bounds
# The one definition of what a roster may hold. The roster file's import
# (``app.core.rosterfile``) refuses anything outside these bounds, so every way into a roster
# (the edits, ``new_roster``, ``unit_from_entry``, the command line, the window's spin boxes)
# keeps to them: a roster that can be exported can always be imported again.

MAX_ID = 64
MAX_NAME = 200
MAX_SIDE = 100
MAX_GRADE = 16
MAX_NOTES = 10_000  # a unit's or a leader's notes
MAX_ROSTER_NOTES = 100_000
MIN_COUNT, MAX_COUNT = 1, 1000  # identical units on one roster line
MIN_SIZE, MAX_SIZE = 1, 100_000  # figures or bases of one unit
#: bases of one line of a multi-line unit (Leg VI legion lines are 2 to 4)
MIN_LINE_BASES, MAX_LINE_BASES = 1, 100
MAX_LINES = 20  # lines of one multi-line unit
MIN_WOUNDS, MAX_WOUNDS = 0, 20
#: the roster file's bonus key (``app.core.leaderkeys``; Quincunx and GSB declare the field)
MIN_BONUS, MAX_BONUS = -5, 5
#: fields an engine reads beyond the common ones, per leader (its declared LeaderFields)
MAX_LEADER_FIELDS = 20
MAX_UNITS, MAX_LEADERS, MAX_COMMANDS = 5000, 500, 500
#: a roster's card print job larger than this asks first (100 A4 pages of cards): the window
#: with a dialog, the command line by needing ``--yes``
CONFIRM_CARDS = 900


class RosterValueError(ValueError):
    """A value outside the bounds above: the edit or the new roster is refused, nothing is
    changed. ``problems`` lists each value that is out of bounds."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


def check(problems: list[str]) -> None:
    """Raise :class:`RosterValueError` when ``problems`` is not empty."""
    if problems:
        raise RosterValueError(problems)


def new_id(prefix: str) -> str:
    """A short id, unique within a roster (``u-3f2a9c1b``)."""
    import uuid  # only when an id is made: reading a roster needs none

    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Unit:
    """A roster line: ``count`` identical units of army-list entry ``entry``.

    ``size`` is in figures for rulesets that count figures and in bases for those that count
    bases. ``lines`` overrides the bases per line of a multi-line unit (a Leg VI legion with
    four understrength triarii bases)."""

    id: str
    entry: str
    name: str
    size: int
    count: int = 1
    grade: str | None = None
    command: str | None = None
    leader: str | None = None
    notes: str = ""
    lines: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Leader:
    id: str
    name: str
    rank: Rank = "commander"
    status: LeaderStatus = LeaderStatus.FIT
    wounds: int = 0
    notes: str = ""
    #: the fields his engine reads beyond these (declared by it: :mod:`app.rules.leaderfields`),
    #: only those set; read through the declaration (``BONUS.number(leader.fields)``)
    fields: Mapping[str, FieldValue] = NO_FIELDS

    def __post_init__(self) -> None:
        if not isinstance(self.fields, FieldValues):
            object.__setattr__(self, "fields", FieldValues(self.fields))


@dataclass(frozen=True)
class Command:
    """A command or battlegroup. ``kind`` matters where command limits depend on it (Leg VI);
    when it is None it is derived from the units (see ``app.core.validation``)."""

    id: str
    name: str
    leader: str | None = None
    kind: CommandKind | None = None


@dataclass(frozen=True)
class Roster:
    name: str
    ruleset: str
    army: str
    side: str
    scale: Scale | None
    units: tuple[Unit, ...] = ()
    leaders: tuple[Leader, ...] = ()
    commands: tuple[Command, ...] = ()
    data_version: str | None = None
    notes: str = ""

    # ------------------------------------------------------------------ look-ups

    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(f"roster {self.name!r} has no unit {unit_id!r}")

    def leader(self, leader_id: str) -> Leader:
        for ld in self.leaders:
            if ld.id == leader_id:
                return ld
        raise KeyError(f"roster {self.name!r} has no leader {leader_id!r}")

    def command(self, command_id: str) -> Command:
        for c in self.commands:
            if c.id == command_id:
                return c
        raise KeyError(f"roster {self.name!r} has no command {command_id!r}")

    def units_in(self, command_id: str | None) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.command == command_id)

    def unit_count(self) -> int:
        return sum(u.count for u in self.units)

    def with_units(self, units: Iterable[Unit]) -> Roster:
        return replace(self, units=tuple(units))


# ---------------------------------------------------------------------- bounds checks


def _number(what: str, value: int, low: int, high: int) -> str | None:
    if low <= value <= high:
        return None
    return f"{what} {value:,} is out of range ({low:,} to {high:,})"


def _text(
    what: str, value: str, high: int, *, required: bool = False, multiline: bool = False
) -> str | None:
    """Why ``value`` cannot be this text: empty when ``required``, too long, or holding a
    control character (ESC, BEL, NUL, DEL, ...; notes may hold tabs and line breaks), which
    is refused at input so it never reaches the store, a terminal or a printed sheet."""
    if required and not value.strip():
        return f"{what} cannot be empty"
    if len(value) > high:
        return f"{what} is {len(value):,} characters long (at most {high:,})"
    return control_problem(what, value, multiline=multiline)


def _ident(what: str, value: str | None) -> str | None:
    return None if value is None else _text(what, value, MAX_ID, required=True)


def roster_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a roster's name (empty, or over :data:`MAX_NAME`), or None."""
    return _text("the roster name", name, MAX_NAME, required=True)


def _lines_problems(lines: Mapping[str, int] | None) -> list[str]:
    if not lines:
        return []
    out = []
    if len(lines) > MAX_LINES:
        out.append(f"{len(lines)} lines given (at most {MAX_LINES})")
    for name, bases in lines.items():
        p = _text("a line name", name, MAX_ID, required=True) or _number(
            f"{name} bases", bases, MIN_LINE_BASES, MAX_LINE_BASES
        )
        if p:
            out.append(p)
    return out


_Checks = Mapping[str, Callable[[], str | list[str] | None]]


def _problems(checks: _Checks, only: Collection[str] | None) -> list[str]:
    """Run the checks of the fields in ``only`` (all when None)."""
    out: list[str] = []
    for f, run in checks.items():
        if only is not None and f not in only:
            continue
        found = run()
        if isinstance(found, list):
            out.extend(found)
        elif found:
            out.append(found)
    return out


def unit_problems(unit: Unit, only: Collection[str] | None = None) -> list[str]:
    """What of ``unit`` is out of bounds (empty when nothing is). ``only`` limits the check to
    those fields: an edit is checked on the fields it sets, so a unit stored before a bound
    existed can still be edited back into it."""
    checks: _Checks = {
        "id": lambda: _ident("the unit id", unit.id),
        "entry": lambda: _ident("the entry id", unit.entry),
        "name": lambda: _text("the unit name", unit.name, MAX_NAME, required=True),
        "size": lambda: _number("size", unit.size, MIN_SIZE, MAX_SIZE),
        "count": lambda: _number("count", unit.count, MIN_COUNT, MAX_COUNT),
        "grade": lambda: None if unit.grade is None else _text("grade", unit.grade, MAX_GRADE),
        "command": lambda: _ident("the command id", unit.command),
        "leader": lambda: _ident("the leader id", unit.leader),
        "notes": lambda: _text("the notes", unit.notes, MAX_NOTES, multiline=True),
        "lines": lambda: _lines_problems(unit.lines),
    }
    return _problems(checks, only)


def leader_problems(
    leader: Leader, only: Collection[str] | None = None, declared: Iterable[LeaderField] = ()
) -> list[str]:
    """What of ``leader`` is out of bounds; ``only`` as for :func:`unit_problems` (a field's
    name stands for itself). His fields are checked against the ``declared`` ones of the
    same name; every value against the bounds any field keeps (a short word, a number of at
    most ``MAX_FIELD_NUMBER``)."""
    checks: dict[str, Callable[[], str | list[str] | None]] = {
        "id": lambda: _ident("the leader id", leader.id),
        "name": lambda: _text("the leader name", leader.name, MAX_NAME, required=True),
        "wounds": lambda: _number("wounds", leader.wounds, MIN_WOUNDS, MAX_WOUNDS),
        "notes": lambda: _text("the notes", leader.notes, MAX_NOTES, multiline=True),
    }
    by_name = {f.name: f for f in declared}
    if len(leader.fields) > MAX_LEADER_FIELDS:
        checks["fields"] = lambda: f"a leader holds at most {MAX_LEADER_FIELDS} fields"
    for name, value in leader.fields.items():
        checks[name] = partial(_field_problem, name, value, by_name.get(name))
    return _problems(checks, only)


#: the largest number a leader field may hold, whatever its declaration
MAX_FIELD_NUMBER = 1_000_000


def _field_problem(name: str, value: object, field: LeaderField | None) -> str | None:
    where = _ident("a leader field's name", name)
    if where:
        return where
    if field is not None:
        return field.problem(value)
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _number(name, value, -MAX_FIELD_NUMBER, MAX_FIELD_NUMBER)
    if isinstance(value, str):
        return _text(name, value, MAX_GRADE, required=True)
    return f"{name} {value!r} is not a number, yes/no or word"


def command_problems(command: Command, only: Collection[str] | None = None) -> list[str]:
    """What of ``command`` is out of bounds; ``only`` as for :func:`unit_problems`."""
    checks: _Checks = {
        "id": lambda: _ident("the command id", command.id),
        "name": lambda: _text("the command name", command.name, MAX_NAME, required=True),
        "leader": lambda: _ident("the leader id", command.leader),
    }
    return _problems(checks, only)


def roster_problems(roster: Roster, only: Collection[str] | None = None) -> list[str]:
    """What of the roster's own fields (name, side, notes) and of its numbers of units,
    leaders and commands is out of bounds; ``only`` as for :func:`unit_problems`. The units,
    leaders and commands themselves are checked by their own functions."""
    checks: _Checks = {
        "name": lambda: roster_name_problem(roster.name),
        "side": lambda: _text("the side", roster.side, MAX_SIDE),
        "notes": lambda: _text("the roster notes", roster.notes, MAX_ROSTER_NOTES, multiline=True),
        "units": lambda: (
            None
            if len(roster.units) <= MAX_UNITS
            else f"a roster holds at most {MAX_UNITS:,} unit lines"
        ),
        "leaders": lambda: (
            None
            if len(roster.leaders) <= MAX_LEADERS
            else f"a roster holds at most {MAX_LEADERS:,} leaders"
        ),
        "commands": lambda: (
            None
            if len(roster.commands) <= MAX_COMMANDS
            else f"a roster holds at most {MAX_COMMANDS:,} commands"
        ),
    }
    return _problems(checks, only)


def new_roster(
    rs: Ruleset,
    army_id: str,
    *,
    name: str,
    side: str | None = None,
    scale: Scale | str | None = None,
    standard: bool = False,
) -> Roster:
    """A new roster for ``army_id``, empty or holding the list's standard army. A name or
    side out of bounds raises :class:`RosterValueError`."""
    army = rs.army(army_id)
    if scale is None and rs.counts_figures:
        scale = rs.meta.default_scale
    if not rs.counts_figures:
        scale = None
    elif scale is None or Scale.parse(scale) not in rs.meta.scales:
        raise ValueError(f"scale {scale!r} is not one of {', '.join(rs.meta.scales)}")
    roster = Roster(
        name=name,
        ruleset=rs.id,
        army=army_id,
        side=side or army.side,
        scale=None if scale is None else Scale.parse(scale),
        data_version=rs.meta.data_version,
    )
    check(roster_problems(roster, ("name", "side")))
    if standard:
        if army.standard is None:
            raise ValueError(f"army list {army.name!r} has no standard army in the source")
        roster = _with_standard(roster, army, army.standard)
    return roster


def _with_standard(roster: Roster, army: ArmyList, std: StandardArmy) -> Roster:
    leaders = tuple(
        Leader(
            id=ld.id,
            name=ld.name,
            rank=ld.rank,
            notes=ld.notes or "",
            fields=ld.fields(),
        )
        for ld in std.leaders
    )
    commands = tuple(
        Command(id=c.id, name=c.name, leader=c.leader, kind=c.kind) for c in std.commands
    )
    units = []
    for su in std.units:
        entry = army.entries[su.entry]
        units.append(
            Unit(
                id=new_id("u"),
                entry=su.entry,
                name=su.name or entry.name,
                size=su.size or entry.default_size,
                count=su.count,
                grade=su.grade or entry.default_grade,
                command=su.command,
                leader=su.leader,
            )
        )
    return replace(roster, units=tuple(units), leaders=leaders, commands=commands)


def unit_from_entry(rs: Ruleset, army_id: str, entry_id: str, **changes: Any) -> Unit:
    """A unit of ``entry_id`` at the list's default size and grade; ``changes`` override.
    A value out of bounds raises :class:`RosterValueError`."""
    entry = rs.army(army_id).entries.get(entry_id)
    if entry is None:
        raise KeyError(f"army list {army_id!r} has no entry {entry_id!r}")
    unit = Unit(
        id=new_id("u"),
        entry=entry_id,
        name=entry.name,
        size=entry.default_size,
        grade=entry.default_grade,
    )
    unit = replace(unit, **changes)
    check(unit_problems(unit))
    return unit
