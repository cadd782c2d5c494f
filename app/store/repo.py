"""Roster writes over a :class:`~app.store.engine.Store`: keyword-only functions, each one
transaction, taking core :class:`~app.core.roster.Roster` values. Reads are in
:mod:`app.store.read` (plain ``sqlite3``, no ORM).

Every write begins ``BEGIN IMMEDIATE`` and bumps the roster's ``version``. A write made from
a copy read earlier names that copy's version (``expected_version``) and is refused with
:class:`~app.store.engine.StaleWrite` if the roster changed in between (another window, the
command line): nothing is silently overwritten. :func:`update_roster` reads, changes and
writes in one transaction, so it never works from a stale copy.

A roster is saved whole, or, given the copy it was last saved as (``base``), only its
changed units, leaders and commands are written, in bulk: an edit of a 1,000-unit roster
writes one row, not a thousand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table, bindparam, delete, insert, update
from sqlmodel import Session, SQLModel, col, select

from app.core.ready import ready_roster
from app.core.roster import (
    MAX_NAME,
    Command,
    Leader,
    Roster,
    Unit,
    roster_name_problem,
)
from app.store.engine import StaleWrite, Store, get_for_update, reader_of
from app.store.models import (
    AppMeta,
    RosterChangeRow,
    RosterCommandRow,
    RosterLeaderRow,
    RosterRow,
    RosterUnitRow,
)
from app.store.read import fields_text, roster_from_rows

if TYPE_CHECKING:
    from app.rules.registry import Registry

SAMPLES_KEY = "samples_seeded"


@dataclass(frozen=True)
class Saved:
    """Where a roster was written: its id and its version after the write."""

    id: int
    version: int


def _now() -> datetime:
    # Aware UTC, stored as UTC text; app.store.read gives it back aware.
    return datetime.now(UTC)


# --------------------------------------------------------------------------- save


def save_roster(
    store: Store, *, roster: Roster, roster_id: int | None = None, what: str | None = None
) -> int:
    """Insert ``roster`` (``roster_id`` None) or replace roster ``roster_id`` with it, with
    all its units, leaders and commands, in one transaction. Returns the roster's id.

    Raises ``KeyError`` if ``roster_id`` does not exist and ``ValueError`` if two units,
    leaders or commands share an id (the core ids are unique within a roster). ``what``:
    the change as the roster's history names it ("created", "changed" by default)."""
    return write_roster(store, roster=roster, roster_id=roster_id, what=what).id


def write_roster(
    store: Store,
    *,
    roster: Roster,
    roster_id: int | None = None,
    expected_version: int | None = None,
    base: Roster | None = None,
    what: str | None = None,
) -> Saved:
    """Write ``roster`` as :func:`save_roster` does, refusing (:class:`StaleWrite`) when
    ``expected_version`` is given and the stored roster is at another version. ``base``:
    the roster as stored at ``expected_version``; only what differs from it is written.
    ``what``: the change as the roster's history names it (an edit's label)."""
    with store.session() as session:
        return write_in(session, roster, roster_id, expected_version, base, what=what)


def update_roster(
    store: Store,
    *,
    roster_id: int,
    change: Callable[[Roster], Roster],
    what: str | Callable[[], str | None] | None = None,
) -> Roster:
    """Read roster ``roster_id``, apply ``change`` and write the result, in one transaction
    holding the write lock: a writer elsewhere waits, and nothing it wrote is lost. Returns
    the changed roster; an exception from ``change`` writes nothing. ``what``: the change as
    the roster's history names it, or a function giving it once ``change`` has run."""
    with store.session() as session:
        _get(session, roster_id)  # locks the roster on a server (SQLite: the write lock)
        current, version = roster_from_rows(reader_of(session), roster_id)
        changed = change(current)
        label = what() if callable(what) else what  # known once ``change`` has run
        write_in(session, changed, roster_id, version, current, what=label)
        return changed


def write_in(
    session: Session,
    roster: Roster,
    roster_id: int | None,
    expected_version: int | None = None,
    base: Roster | None = None,
    *,
    what: str | None = None,
) -> Saved:
    """:func:`write_roster` inside a transaction the caller holds (``session``): the
    roster's ids checked (ValueError for one used twice, nothing written), then written."""
    _check_ids(roster)
    return _write(session, roster, roster_id, expected_version, base, what=what)


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


def _write(
    session: Session,
    roster: Roster,
    roster_id: int | None,
    expected_version: int | None = None,
    base: Roster | None = None,
    *,
    what: str | None = None,
) -> Saved:
    now = _now()
    if roster_id is None:
        row = RosterRow(created_at=now, updated_at=now, version=0, **_head(roster))
        session.add(row)
        session.flush()
        base = None
    else:
        row = _get(session, roster_id)
        if expected_version is not None and row.version != expected_version:
            raise StaleWrite(
                f"roster {roster_id} ({row.name!r}) was changed elsewhere since it was read "
                f"(another window or the command line); this change was not saved"
            )
        if expected_version is None:
            base = None
        for key, value in _head(roster).items():
            setattr(row, key, value)
        row.updated_at = now
        row.version += 1
        session.add(row)
        session.flush()
    assert row.id is not None
    rid = row.id
    whole = roster_id is None or base is None
    for table, rows, old in (
        (
            _table(RosterUnitRow),
            _unit_rows(roster.units),
            None if base is None else _unit_rows(base.units),
        ),
        (
            _table(RosterLeaderRow),
            _leader_rows(roster.leaders),
            None if base is None else _leader_rows(base.leaders),
        ),
        (
            _table(RosterCommandRow),
            _command_rows(roster.commands),
            None if base is None else _command_rows(base.commands),
        ),
    ):
        _sync(session, table, rid, rows, None if whole else old)
    record_change(session, row, what or ("created" if roster_id is None else "changed"))
    return Saved(rid, row.version)


def record_change(session: Session, row: RosterRow, what: str) -> None:
    """Add the roster's history line for this write (in its transaction): what was done and
    the version it made; on a club server the maker is named as every change's is."""
    assert row.id is not None
    session.add(
        RosterChangeRow(roster_id=row.id, version=row.version, made_at=_now(), what=what[:200])
    )
    session.flush()


def _head(roster: Roster) -> dict[str, Any]:
    return {
        "name": roster.name,
        "ruleset": roster.ruleset,
        "army": roster.army,
        "side": roster.side,
        "scale": roster.scale,
        "data_version": roster.data_version,
        "notes": roster.notes,
    }


Rows = list[dict[str, Any]]


def _table(model: type[SQLModel]) -> Table:
    table: Table = SQLModel.metadata.tables[str(model.__tablename__)]
    return table


def _sync(session: Session, table: Table, rid: int, new: Rows, old: Rows | None) -> None:
    """Make the child rows of roster ``rid`` in ``table`` be ``new`` (by uid). With ``old``
    (the rows as stored) only the differences are written, each kind in one bulk statement;
    otherwise every row is replaced."""
    if old is None:
        session.execute(delete(table).where(table.c.roster_id == rid))
        if new:
            session.execute(insert(table), [{"roster_id": rid, **r} for r in new])
        return
    new_by = {r["uid"]: r for r in new}
    old_by = {r["uid"]: r for r in old}
    if len(new_by) != len(new):  # a duplicate id: let the UNIQUE constraint say so
        _sync(session, table, rid, new, None)
        return
    gone = [uid for uid in old_by if uid not in new_by]
    added = [{"roster_id": rid, **r} for uid, r in new_by.items() if uid not in old_by]
    changed = [
        {"b_rid": rid, "b_uid": uid, **{f"v_{k}": v for k, v in r.items() if k != "uid"}}
        for uid, r in new_by.items()
        if uid in old_by and old_by[uid] != r
    ]
    if gone:
        session.execute(
            delete(table).where(table.c.roster_id == rid, table.c.uid.in_(gone)),
        )
    if changed:
        columns = [k for k in new[0] if k != "uid"]
        statement = (
            update(table)
            .where(table.c.roster_id == bindparam("b_rid"), table.c.uid == bindparam("b_uid"))
            .values({k: bindparam(f"v_{k}") for k in columns})
        )
        session.connection().execute(statement, changed)
    if added:
        session.execute(insert(table), added)


def _unit_rows(units: Iterable[Unit]) -> Rows:
    return [
        {
            "position": i,
            "uid": u.id,
            "entry": u.entry,
            "name": u.name,
            "size": u.size,
            "count": u.count,
            "grade": u.grade,
            "command": u.command,
            "leader": u.leader,
            "notes": u.notes,
            "lines": json.dumps(dict(u.lines), ensure_ascii=False) if u.lines is not None else None,
        }
        for i, u in enumerate(units)
    ]


def _leader_rows(leaders: Iterable[Leader]) -> Rows:
    return [
        {
            "position": i,
            "uid": ld.id,
            "name": ld.name,
            "rank": ld.rank,
            "status": ld.status.value,
            "wounds": ld.wounds,
            "fields": fields_text(ld.fields),
            "notes": ld.notes,
        }
        for i, ld in enumerate(leaders)
    ]


def _command_rows(commands: Iterable[Command]) -> Rows:
    return [
        {
            "position": i,
            "uid": c.id,
            "name": c.name,
            "leader": c.leader,
            "kind": c.kind,
        }
        for i, c in enumerate(commands)
    ]


def _get(session: Session, roster_id: int) -> RosterRow:
    """The roster's row, locked until the transaction ends (:func:`get_for_update`)."""
    row: RosterRow | None = get_for_update(session, RosterRow, roster_id, f"roster {roster_id}")
    if row is None:
        raise KeyError(f"no roster with id {roster_id}")
    return row


def _touch(row: RosterRow) -> None:
    row.updated_at = _now()
    row.version += 1


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
    """Give roster ``roster_id`` a new name (not empty, not too long, no control
    characters: :func:`app.core.roster.roster_name_problem`)."""
    name = name.strip()
    problem = roster_name_problem(name)
    if problem:
        raise ValueError(problem)
    with store.session() as session:
        row = _get(session, roster_id)
        row.name = name
        _touch(row)
        session.add(row)
        session.flush()
        record_change(session, row, f"renamed to {name!r}")


def duplicate_roster(store: Store, *, roster_id: int, name: str | None = None) -> int:
    """Copy roster ``roster_id`` (units, leaders, commands) as a new roster named ``name`` or
    ``"<name> (copy)"`` (``(copy 2)``, ... if taken). Returns the new id."""
    with store.session() as session:
        original, _ = roster_from_rows(reader_of(session), roster_id)
        if name is None:
            taken = {n.casefold() for n in session.exec(select(col(RosterRow.name))).all()}
            name = f"{original.name} (copy)"
            n = 2
            while name.casefold() in taken:
                name = f"{original.name} (copy {n})"
                n += 1
        what = f"made as a copy of roster {roster_id} ({original.name!r})"
        return _write(session, replace(original, name=name), None, what=what).id


def delete_roster(store: Store, *, roster_id: int) -> None:
    """Move roster ``roster_id`` to the bin (soft delete; :func:`restore_roster` undoes it)."""
    with store.session() as session:
        row = _get(session, roster_id)
        if row.deleted_at is None:
            row.deleted_at = _now()
            row.version += 1
            session.add(row)
            session.flush()
            record_change(session, row, "moved to the bin")


def restore_roster(store: Store, *, roster_id: int) -> None:
    """Take roster ``roster_id`` out of the bin."""
    with store.session() as session:
        row = _get(session, roster_id)
        if row.deleted_at is not None:
            row.deleted_at = None
            row.version += 1
            session.add(row)
            session.flush()
            record_change(session, row, "taken out of the bin")


def purge_roster(store: Store, *, roster_id: int) -> None:
    """Delete roster ``roster_id`` for good; its units, leaders and commands go with it (the
    foreign keys cascade)."""
    with store.session() as session:
        _get(session, roster_id)
        session.exec(delete(RosterRow).where(col(RosterRow.id) == roster_id))


# --------------------------------------------------------------------------- samples


def seed_samples(store: Store, *, registry: Registry) -> list[int]:
    """On first start, one sample roster per army list that has a ready army (the source's
    standard army, or one Castra built: :func:`app.core.ready.ready_roster`), named
    ``"<ruleset short name>: <army list name>"`` ("Quincunx: Republican Roman model
    legion"), its notes saying whose army it is and where it comes from. Returns the new ids.

    What was seeded is recorded in ``app_meta`` (key ``samples_seeded``, a JSON list of
    ``ruleset/army``), so an army's sample is given once only, even if the user deletes it;
    an army whose ruleset failed to load at first start gets its sample once it loads, and a
    ready army added by a later Castra is given once to a store seeded before it."""
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
                roster = ready_roster(rs, army_id)
                ids.append(_write(session, roster, None, what="created as a sample").id)
                done.append(key)
        if ids:
            session.merge(AppMeta(key=SAMPLES_KEY, value=json.dumps(done)))
        return ids
