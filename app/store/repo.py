"""Roster use cases over a :class:`~app.store.engine.Store`: keyword-only functions, each one
transaction, taking and returning core :class:`~app.core.roster.Roster` values.

A roster is saved whole: its row and all its units, leaders and commands are replaced in one
transaction, so a failure half-way leaves the roster as it was before.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, cast, get_args

from sqlalchemy import func
from sqlmodel import Session, col, delete, select

from app.core.roster import (
    MAX_NAME,
    Command,
    CommandKind,
    Leader,
    LeaderStatus,
    Quality,
    Rank,
    Roster,
    Unit,
    new_roster,
)
from app.rules.scale import Scale
from app.store.engine import Store
from app.store.models import (
    AppMeta,
    RosterCommandRow,
    RosterLeaderRow,
    RosterRow,
    RosterUnitRow,
)

if TYPE_CHECKING:
    from app.rules.registry import Registry

SAMPLES_KEY = "samples_seeded"


@dataclass(frozen=True)
class RosterSummary:
    """A line of the roster list: enough to show and choose, without loading the units."""

    id: int
    name: str
    ruleset: str
    army: str
    side: str
    scale: str | None
    units: int
    updated_at: datetime
    deleted: bool


def _now() -> datetime:
    # Aware UTC: sqlmodel's UTCDateTime stores it as UTC text and reads it back aware.
    return datetime.now(UTC)


# --------------------------------------------------------------------------- save and load


def save_roster(store: Store, *, roster: Roster, roster_id: int | None = None) -> int:
    """Insert ``roster`` (``roster_id`` None) or replace roster ``roster_id`` with it, with
    all its units, leaders and commands, in one transaction. Returns the roster's id.

    Raises ``KeyError`` if ``roster_id`` does not exist and ``ValueError`` if two units,
    leaders or commands share an id (the core ids are unique within a roster)."""
    _check_ids(roster)
    with store.session() as session:
        return _write(session, roster, roster_id)


def _check_ids(roster: Roster) -> None:
    for what, ids in (
        ("unit", [u.id for u in roster.units]),
        ("leader", [ld.id for ld in roster.leaders]),
        ("command", [c.id for c in roster.commands]),
    ):
        seen: set[str] = set()
        for ident in ids:
            if ident in seen:
                raise ValueError(f"roster {roster.name!r}: {what} id {ident!r} is used twice")
            seen.add(ident)


def _write(session: Session, roster: Roster, roster_id: int | None) -> int:
    now = _now()
    if roster_id is None:
        row = RosterRow(
            name=roster.name,
            ruleset=roster.ruleset,
            army=roster.army,
            side=roster.side,
            scale=roster.scale,
            data_version=roster.data_version,
            notes=roster.notes,
            created_at=now,
            updated_at=now,
        )
        session.add(row)
        session.flush()
    else:
        row = _get(session, roster_id)
        row.name = roster.name
        row.ruleset = roster.ruleset
        row.army = roster.army
        row.side = roster.side
        row.scale = roster.scale
        row.data_version = roster.data_version
        row.notes = roster.notes
        row.updated_at = now
        session.add(row)
        for table in (RosterUnitRow, RosterLeaderRow, RosterCommandRow):
            session.exec(delete(table).where(col(table.roster_id) == roster_id))
    assert row.id is not None
    rid = row.id
    session.add_all(_unit_rows(rid, roster.units))
    session.add_all(_leader_rows(rid, roster.leaders))
    session.add_all(_command_rows(rid, roster.commands))
    session.flush()
    return rid


def _unit_rows(roster_id: int, units: Iterable[Unit]) -> list[RosterUnitRow]:
    return [
        RosterUnitRow(
            roster_id=roster_id,
            position=i,
            uid=u.id,
            entry=u.entry,
            name=u.name,
            size=u.size,
            count=u.count,
            grade=u.grade,
            command=u.command,
            leader=u.leader,
            notes=u.notes,
            lines=json.dumps(dict(u.lines), ensure_ascii=False) if u.lines is not None else None,
        )
        for i, u in enumerate(units)
    ]


def _leader_rows(roster_id: int, leaders: Iterable[Leader]) -> list[RosterLeaderRow]:
    return [
        RosterLeaderRow(
            roster_id=roster_id,
            position=i,
            uid=ld.id,
            name=ld.name,
            rank=ld.rank,
            status=ld.status.value,
            wounds=ld.wounds,
            bonus=ld.bonus,
            exceptional=ld.exceptional,
            quality=ld.quality,
            notes=ld.notes,
        )
        for i, ld in enumerate(leaders)
    ]


def _command_rows(roster_id: int, commands: Iterable[Command]) -> list[RosterCommandRow]:
    return [
        RosterCommandRow(
            roster_id=roster_id, position=i, uid=c.id, name=c.name, leader=c.leader, kind=c.kind
        )
        for i, c in enumerate(commands)
    ]


def load_roster(store: Store, *, roster_id: int) -> Roster:
    """The roster with id ``roster_id`` (deleted or not); ``KeyError`` naming the id if none."""
    with store.session() as session:
        row = _get(session, roster_id)
        units = session.exec(
            select(RosterUnitRow)
            .where(RosterUnitRow.roster_id == roster_id)
            .order_by(col(RosterUnitRow.position))
        ).all()
        leaders = session.exec(
            select(RosterLeaderRow)
            .where(RosterLeaderRow.roster_id == roster_id)
            .order_by(col(RosterLeaderRow.position))
        ).all()
        commands = session.exec(
            select(RosterCommandRow)
            .where(RosterCommandRow.roster_id == roster_id)
            .order_by(col(RosterCommandRow.position))
        ).all()
        return Roster(
            name=row.name,
            ruleset=row.ruleset,
            army=row.army,
            side=row.side,
            scale=Scale.parse(row.scale) if row.scale else None,
            units=tuple(_unit(u) for u in units),
            leaders=tuple(_leader(ld) for ld in leaders),
            commands=tuple(_command(c) for c in commands),
            data_version=row.data_version,
            notes=row.notes,
        )


def _check(value: str | None, allowed: object, what: str) -> None:
    if value is not None and value not in get_args(allowed):
        raise ValueError(f"stored {what} {value!r} is not one of {get_args(allowed)}")


def _unit(row: RosterUnitRow) -> Unit:
    lines: dict[str, int] | None = None
    if row.lines is not None:
        lines = {str(k): int(v) for k, v in json.loads(row.lines).items()}
    return Unit(
        id=row.uid,
        entry=row.entry,
        name=row.name,
        size=row.size,
        count=row.count,
        grade=row.grade,
        command=row.command,
        leader=row.leader,
        notes=row.notes,
        lines=lines,
    )


def _leader(row: RosterLeaderRow) -> Leader:
    _check(row.rank, Rank, "leader rank")
    _check(row.quality, Quality, "leader quality")
    return Leader(
        id=row.uid,
        name=row.name,
        rank=cast(Rank, row.rank),
        status=LeaderStatus(row.status),
        wounds=row.wounds,
        bonus=row.bonus,
        exceptional=row.exceptional,
        quality=cast(Quality | None, row.quality),
        notes=row.notes,
    )


def _command(row: RosterCommandRow) -> Command:
    _check(row.kind, CommandKind, "command kind")
    return Command(
        id=row.uid, name=row.name, leader=row.leader, kind=cast(CommandKind | None, row.kind)
    )


def _get(session: Session, roster_id: int) -> RosterRow:
    row = session.get(RosterRow, roster_id)
    if row is None:
        raise KeyError(f"no roster with id {roster_id}")
    return row


# --------------------------------------------------------------------------- listing, finding


def list_rosters(store: Store, *, include_deleted: bool = False) -> list[RosterSummary]:
    """Every roster (the bin too with ``include_deleted``), by ruleset, side and name."""
    units = func.coalesce(func.sum(RosterUnitRow.count), 0)
    query = (
        select(RosterRow, units)
        .join(RosterUnitRow, col(RosterUnitRow.roster_id) == col(RosterRow.id), isouter=True)
        .group_by(col(RosterRow.id))
    )
    if not include_deleted:
        query = query.where(col(RosterRow.deleted_at).is_(None))
    with store.session() as session:
        rows = session.exec(query).all()
    out = [
        RosterSummary(
            id=cast(int, row.id),
            name=row.name,
            ruleset=row.ruleset,
            army=row.army,
            side=row.side,
            scale=Scale.parse(row.scale) if row.scale else None,
            units=int(count),
            updated_at=row.updated_at,
            deleted=row.deleted_at is not None,
        )
        for row, count in rows
    ]
    out.sort(key=lambda s: (s.ruleset, s.side.casefold(), s.name.casefold(), s.id))
    return out


def find_roster(store: Store, *, key: str, include_deleted: bool = False) -> int:
    """The id of the roster that ``key`` names: a numeric id, or else an exact name
    (case-insensitive). Deleted rosters count only with ``include_deleted``.

    Raises ``LookupError`` when nothing matches (listing near names) or when the name is
    ambiguous (listing the ids to choose from)."""
    key = key.strip()
    with store.session() as session:
        rows = [
            (cast(int, rid), name, deleted)
            for rid, name, deleted in session.exec(
                select(col(RosterRow.id), col(RosterRow.name), col(RosterRow.deleted_at))
            ).all()
        ]
    live = [(rid, name) for rid, name, deleted in rows if include_deleted or deleted is None]
    if key.isdigit():
        wanted = int(key)
        if any(rid == wanted for rid, _ in live):
            return wanted
        if any(rid == wanted for rid, _, _ in rows):
            raise LookupError(f"roster {wanted} is deleted; restore it first")
    folded = key.casefold()
    matches = [(rid, name) for rid, name in live if name.casefold() == folded]
    if len(matches) == 1:
        return matches[0][0]
    if matches:
        choices = ", ".join(f"{rid} ({name!r})" for rid, name in sorted(matches))
        raise LookupError(f"{len(matches)} rosters are named {key!r}: {choices}; use the id")
    names = sorted({name for _, name in live})
    near = [n for n in names if folded and folded in n.casefold()]
    near += [n for n in difflib.get_close_matches(key, names, n=5, cutoff=0.6) if n not in near]
    hint = f"; did you mean: {', '.join(repr(n) for n in near[:5])}" if near else ""
    raise LookupError(f"no roster {key!r}{hint}")


def unique_name(store: Store, *, name: str, exclude_id: int | None = None) -> str:
    """``name``, or ``"name (2)"``, ``"name (3)"``, ... when another roster (in the bin too)
    has it, compared without case: a name then always finds one roster. ``exclude_id`` is a
    roster being renamed, which may keep its own name."""
    with store.session() as session:
        taken = {
            n.casefold()
            for rid, n in session.exec(select(col(RosterRow.id), col(RosterRow.name))).all()
            if rid != exclude_id
        }
    if name.casefold() not in taken:
        return name
    base, n = name, 2
    match = re.fullmatch(r"(.*\S) \((\d{1,6})\)", name)
    if match:  # "Trebia (2)" taken: "Trebia (3)", not "Trebia (2) (2)"
        base, n = match.group(1), int(match.group(2)) + 1

    def numbered(k: int) -> str:
        tail = f" ({k})"
        return base[: MAX_NAME - len(tail)].rstrip() + tail  # stays within the bound

    while numbered(n).casefold() in taken:
        n += 1
    return numbered(n)


# --------------------------------------------------------------------------- edits


def rename_roster(store: Store, *, roster_id: int, name: str) -> None:
    """Give roster ``roster_id`` a new (non-empty) name."""
    name = name.strip()
    if not name:
        raise ValueError("a roster name cannot be empty")
    with store.session() as session:
        row = _get(session, roster_id)
        row.name = name
        row.updated_at = _now()
        session.add(row)


def duplicate_roster(store: Store, *, roster_id: int, name: str | None = None) -> int:
    """Copy roster ``roster_id`` (units, leaders, commands) as a new roster named ``name`` or
    ``"<name> (copy)"`` (``(copy 2)``, ... if taken). Returns the new id."""
    original = load_roster(store, roster_id=roster_id)
    with store.session() as session:
        if name is None:
            taken = {n.casefold() for n in session.exec(select(col(RosterRow.name))).all()}
            name = f"{original.name} (copy)"
            n = 2
            while name.casefold() in taken:
                name = f"{original.name} (copy {n})"
                n += 1
        return _write(session, replace(original, name=name), None)


def delete_roster(store: Store, *, roster_id: int) -> None:
    """Move roster ``roster_id`` to the bin (soft delete; :func:`restore_roster` undoes it)."""
    with store.session() as session:
        row = _get(session, roster_id)
        if row.deleted_at is None:
            row.deleted_at = _now()
            session.add(row)


def restore_roster(store: Store, *, roster_id: int) -> None:
    """Take roster ``roster_id`` out of the bin."""
    with store.session() as session:
        row = _get(session, roster_id)
        if row.deleted_at is not None:
            row.deleted_at = None
            session.add(row)


def purge_roster(store: Store, *, roster_id: int) -> None:
    """Delete roster ``roster_id`` for good; its units, leaders and commands go with it (the
    foreign keys cascade)."""
    with store.session() as session:
        _get(session, roster_id)
        session.exec(delete(RosterRow).where(col(RosterRow.id) == roster_id))


# --------------------------------------------------------------------------- samples


def seed_samples(store: Store, *, registry: Registry) -> list[int]:
    """On first start, one sample roster per army list that has a standard army in its source,
    named ``"<ruleset short name>: <army list name>"`` ("Quincunx: Republican Roman model
    legion"), its notes naming the standard army and where the source gives it. Returns the
    new ids.

    What was seeded is recorded in ``app_meta`` (key ``samples_seeded``, a JSON list of
    ``ruleset/army``), so an army's sample is given once only, even if the user deletes it;
    an army whose ruleset failed to load at first start gets its sample once it loads."""
    with store.session() as session:
        meta = session.get(AppMeta, SAMPLES_KEY)
        done: list[str] = json.loads(meta.value) if meta is not None else []
        ids: list[int] = []
        for rs in sorted(registry, key=lambda r: r.id):
            for army_id in sorted(rs.armies):
                army = rs.armies[army_id]
                key = f"{rs.id}/{army_id}"
                if army.standard is None or key in done:
                    continue
                roster = new_roster(
                    rs, army_id, name=f"{rs.meta.short_name}: {army.name}", standard=True
                )
                std = army.standard
                roster = replace(roster, notes=f"Sample: {std.name}. Source: {std.source}.")
                ids.append(_write(session, roster, None))
                done.append(key)
        if ids:
            session.merge(AppMeta(key=SAMPLES_KEY, value=json.dumps(done)))
        return ids
