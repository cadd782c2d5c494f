"""Rosters: a ruleset, an army list, a side, a scale, units, leaders and commands.

Rosters are immutable values: every edit returns a new roster (see ``app.core.edits``), which
keeps undo and redo exact and lets the store, the file format and the GUI share one shape.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

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
Quality = Literal["good", "average", "poor"]


def new_id(prefix: str) -> str:
    """A short id, unique within a roster (``u-3f2a9c1b``)."""
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
    bonus: int | None = None
    exceptional: bool = False
    quality: Quality | None = None
    notes: str = ""


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
    scale: str | None
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


def new_roster(
    rs: Ruleset,
    army_id: str,
    *,
    name: str,
    side: str | None = None,
    scale: str | None = None,
    standard: bool = False,
) -> Roster:
    """A new roster for ``army_id``, empty or holding the list's standard army."""
    army = rs.army(army_id)
    if scale is None and rs.counts_figures:
        scale = rs.meta.default_scale
    if not rs.counts_figures:
        scale = None
    elif scale not in rs.meta.scales:
        raise ValueError(f"scale {scale!r} is not one of {', '.join(rs.meta.scales)}")
    roster = Roster(
        name=name,
        ruleset=rs.id,
        army=army_id,
        side=side or army.side,
        scale=scale,
        data_version=rs.meta.data_version,
    )
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
            bonus=ld.bonus,
            exceptional=ld.exceptional,
            quality=ld.quality,
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


def unit_from_entry(rs: Ruleset, army_id: str, entry_id: str, **changes: object) -> Unit:
    """A unit of ``entry_id`` at the list's default size and grade; ``changes`` override."""
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
    return replace(unit, **changes)  # type: ignore[arg-type]
