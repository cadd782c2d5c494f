"""What a ruleset's rosters use, asked in one place so the window and the command line show
only what applies (no "Add command" where the rules have no commands, no chance cards where
the rules have none, a leader field only where the rules read it).

Each answer comes from the ruleset's data; none names an engine except through its data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.roster import Leader
from app.rules.leaderfields import LeaderField, fields_of

if TYPE_CHECKING:  # annotations only: the command line imports this before any schema
    from app.rules.ruleset import Ruleset
    from app.rules.schema import ArmyEntry


def has_chance_cards(rs: Ruleset) -> bool:
    """Whether the ruleset's engine deals chance cards (D3 Ancients): its capability flag."""
    return rs.engine.has_chance_cards


def uses_commands(rs: Ruleset) -> bool:
    """Whether units are organised in commands (Leg VI commands with their limits, Quincunx
    battlegroups under commanders with a command range). D3 Ancients, GSB and MWAN #90 have a
    single general or none, and no commands."""
    return bool(rs.organisation.command_rules) or rs.leaders.command_range is not None


def declared_fields(rs: Ruleset) -> tuple[LeaderField, ...]:
    """The leader fields the ruleset's rules read beyond the common ones, as its engine
    declares them (:mod:`app.rules.leaderfields`), each where the ruleset's data gives it."""
    return fields_of(rs.engine.leader_fields, rs)


def leader_fields(rs: Ruleset) -> frozenset[str]:
    """The names of :func:`declared_fields`."""
    return frozenset(f.name for f in declared_fields(rs))


def extra_actions(rs: Ruleset, leader: Leader) -> int:
    """The actions the leader's fields add to those of his rank (Leg VI: an exceptional
    leader has one more)."""
    return sum(
        f.extra_actions(rs, f.get(leader.fields))
        for f in declared_fields(rs)
        if f.extra_actions is not None
    )


def line_choices(entry: ArmyEntry) -> list[tuple[str, dict[str, int] | None]]:
    """The ways a multi-line unit may be made up (Leg VI, Unit Organisation: a legion's
    triarii are 2 bases, or 4 understrength bases counting two as one). The first choice,
    ``None``, is the list's standard make-up; each line with an alternative adds one."""
    alternatives = [ln for ln in entry.lines if ln.alternative_bases is not None]
    if not alternatives:
        return []
    out: list[tuple[str, dict[str, int] | None]] = [
        ("standard (" + ", ".join(f"{ln.name} {ln.bases}" for ln in entry.lines) + ")", None)
    ]
    for ln in alternatives:
        assert ln.alternative_bases is not None
        out.append(
            (
                f"understrength {ln.name.lower()} ({ln.alternative_bases} bases)",
                {ln.name: ln.alternative_bases},
            )
        )
    return out


def lines_label(entry: ArmyEntry | None, lines: dict[str, int] | None) -> str:
    """How a unit's lines read in a table: empty for the standard make-up."""
    if not lines:
        return ""
    if entry is not None:
        for label, value in line_choices(entry):
            if value == dict(lines):
                return label
    return ", ".join(f"{name} {bases}" for name, bases in lines.items())
