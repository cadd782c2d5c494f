"""Reading rosters without the ORM: plain ``sqlite3`` queries returning exactly what the
ORM functions of :mod:`app.store.repo` return (``tests/store/test_store_read.py`` proves it
on every field), so the window can show the library and reopen the last roster, and
``castra roster list`` can answer, without importing SQLAlchemy (a third of a second). On a
club server the same queries go through psycopg2 alone (:func:`reading`).

Each call is one read transaction on a short-lived connection with the store's busy
timeout; nothing here writes. Content that cannot be decoded (bad JSON in ``lines``, an
unknown leader status, a date that is not a date) raises
:class:`~app.store.engine.StoreDamaged` naming the roster and the column.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast, get_args

from app.core.roster import (
    Command,
    CommandKind,
    Leader,
    LeaderStatus,
    Rank,
    Roster,
    Unit,
    leader_problems,
)
from app.rules.leaderfields import FieldValue, FieldValues
from app.rules.scale import Scale
from app.store.engine import (
    BUSY_TIMEOUT_MS,
    Reader,
    StoreDamaged,
    StoreError,
    describe_failure,
    read_only_uri,
)

if TYPE_CHECKING:
    from app.store.engine import Store


@dataclass(frozen=True)
class RosterSummary:
    """A line of the roster list: enough to show and choose, without loading the units."""

    id: int
    name: str
    ruleset: str
    army: str
    side: str
    scale: Scale | None
    units: int
    updated_at: datetime
    deleted: bool
    #: on a club server: whose roster it is and who changed it last (None locally)
    owner: str | None = None
    updated_by: str | None = None


@contextmanager
def reading(store: Store) -> Iterator[Reader]:
    """A read-only connection for one read transaction; database failures become
    :class:`StoreError`. On a club server, one repeatable-read transaction (every query sees
    the same moment) on a kept psycopg2 connection."""
    if store.on_server:
        with _server_reading(store) as reader:
            yield reader
        return
    store.check_files()
    try:
        if store.read_only:
            con = sqlite3.connect(read_only_uri(store.path), uri=True, isolation_level=None)
        else:
            con = sqlite3.connect(store.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(describe_failure(store.path, exc)) from None
    with closing(con):
        try:
            con.execute("PRAGMA query_only=ON")
            con.execute("BEGIN")
            yield con
            con.execute("COMMIT")
            store.pin_files()
        except sqlite3.Error as exc:
            raise StoreError(describe_failure(store.path, exc)) from None


@contextmanager
def _server_reading(store: Store) -> Iterator[Reader]:
    """A club server's read: one repeatable-read transaction on a kept psycopg2 connection,
    through psycopg2 alone (no SQLAlchemy, no sqlmodel, no pydantic: a command that only
    reads loads none of them). The database's row-level security sees the member's own
    login, as for every other query."""
    from app.store.engine import PgReader
    from app.store.server import describe_server_failure, driver

    psycopg2 = driver()

    try:
        conn = store.take()
    except psycopg2.Error as exc:
        raise StoreError(describe_server_failure(store.where, exc)) from None
    try:
        yield PgReader(conn)
        conn.commit()
    except psycopg2.Error as exc:
        conn.close()
        store.forget_readers()
        raise StoreError(describe_server_failure(store.where, exc)) from None
    except BaseException:
        try:
            conn.rollback()
        except psycopg2.Error:  # the connection is lost: what the read raised is the news
            conn.close()
            store.forget_readers()
        else:
            store.give_back(conn)
        raise
    store.give_back(conn)


def parse_time(value: object, where: str) -> datetime:
    """A stored time (UTC text, as SQLAlchemy writes it to SQLite; a server gives an aware
    datetime) as an aware UTC datetime."""
    if isinstance(value, datetime):
        return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        return datetime.fromisoformat(str(value)).replace(tzinfo=UTC)
    except ValueError:
        raise StoreDamaged(f"{where} holds {str(value)[:40]!r}, which is not a time") from None


def _time_of(value: object, rid: int) -> datetime:
    """:func:`parse_time` of a roster's ``updated_at``, naming the roster only on failure.
    The stored UTC text is read with its zone appended, in one call (a fifth of the time of
    reading it and then setting the zone: the list reads thousands); any text that does not
    read so (one that names its own zone, or no time) goes to :func:`parse_time`."""
    if type(value) is str:
        try:
            when = datetime.fromisoformat(value + "+00:00")
        except ValueError:
            pass
        else:
            if when.tzinfo is not None:  # a date alone reads, but without its zone
                return when
    return parse_time(value, f"roster {rid} updated_at")


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise StoreDamaged(f"{where} holds {value!r} where text belongs")
    return value


def _int(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise StoreDamaged(f"{where} holds {str(value)[:40]!r} where a whole number belongs")
    return value


def _opt_text(value: object, where: str) -> str | None:
    return None if value is None else _text(value, where)


def _opt_scale(value: object, where: str) -> Scale | None:
    text = _opt_text(value, where)
    try:
        return None if text is None else Scale.parse(text)
    except ValueError as exc:
        raise StoreDamaged(f"{where}: {exc}") from None


def _opt_int(value: object, where: str) -> int | None:
    return None if value is None else _int(value, where)


def _one_of(value: str | None, allowed: object, where: str) -> None:
    if value is not None and value not in get_args(allowed):
        raise StoreDamaged(f"{where} holds {value!r}, not one of {', '.join(get_args(allowed))}")


# --------------------------------------------------------------------------- listing


_new = object.__new__

_LIST = """
SELECT r.id, r.name, r.ruleset, r.army, r.side, r.scale, r.updated_at, r.deleted_at,
       coalesce(sum(u.count), 0), r.owner, r.updated_by
FROM roster AS r LEFT OUTER JOIN roster_unit AS u ON u.roster_id = r.id
{where}
GROUP BY r.id
"""


def list_rosters(store: Store, *, include_deleted: bool = False) -> list[RosterSummary]:
    """Every roster (the bin too with ``include_deleted``), by ruleset, side and name."""
    where = "" if include_deleted else "WHERE r.deleted_at IS NULL"
    with reading(store) as con:
        rows = con.execute(_LIST.format(where=where)).fetchall()
    out = []
    scales: dict[object, Scale | None] = {}  # a store holds a handful of scales
    for rid, name, ruleset, army, side, scale, updated, deleted, units, owner, by in rows:
        if not (
            type(rid) is int
            and type(units) is int
            and type(name) is str
            and type(ruleset) is str
            and type(army) is str
            and type(side) is str
        ):
            _summary_checks(rid, name, ruleset, army, side, scale, units)  # raises
        if scale not in scales:
            scales[scale] = _opt_scale(scale, f"roster {rid} scale")
        # Made at once rather than through the frozen dataclass's __init__, which sets each
        # field through object.__setattr__: a third of the time, for thousands of rows. Every
        # field is given (tests/store/test_list_times.py holds it to RosterSummary(...)).
        summary = _new(RosterSummary)
        summary.__dict__.update(
            id=rid,
            name=name,
            ruleset=ruleset,
            army=army,
            side=side,
            scale=scales[scale],
            units=units,
            updated_at=_time_of(updated, rid),
            deleted=deleted is not None,
            owner=None if owner is None else str(owner),
            updated_by=None if by is None else str(by),
        )
        out.append(summary)
    out.sort(key=lambda s: (s.ruleset, s.side.casefold(), s.name.casefold(), s.id))
    return out


def _summary_checks(
    rid: object,
    name: object,
    ruleset: object,
    army: object,
    side: object,
    scale: object,
    units: object,
) -> None:
    """The checks of a roster-list row, in column order, each raising
    :class:`StoreDamaged` naming the roster and the column (the loop above checks the
    types first at once, and calls this only when one of them is wrong)."""
    at = f"roster {rid}"
    _int(rid, at)
    _text(name, f"{at} name")
    _text(ruleset, f"{at} ruleset")
    _text(army, f"{at} army")
    _text(side, f"{at} side")
    _opt_scale(scale, f"{at} scale")
    _int(units, f"{at} unit count")


def find_roster(store: Store, *, key: str, include_deleted: bool = False) -> int:
    """The id of the roster that ``key`` names: a numeric id, or else an exact name
    (case-insensitive). Deleted rosters count only with ``include_deleted``.

    Raises ``LookupError`` when nothing matches (listing near names) or when the name is
    ambiguous (listing the ids to choose from)."""
    key = key.strip()
    with reading(store) as con:
        rows = [
            (int(rid), str(name), deleted)
            for rid, name, deleted in con.execute("SELECT id, name, deleted_at FROM roster")
        ]
    live = [(rid, name) for rid, name, deleted in rows if include_deleted or deleted is None]
    if key.isdigit() and len(key) < 20:
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
    import difflib  # only to name the rosters meant (not loaded by the window's start)

    names = sorted({name for _, name in live})
    near = [n for n in names if folded and folded in n.casefold()]
    near += [n for n in difflib.get_close_matches(key, names, n=5, cutoff=0.6) if n not in near]
    hint = f"; did you mean: {', '.join(repr(n) for n in near[:5])}" if near else ""
    shown = key if len(key) <= 80 else key[:77] + "..."
    raise LookupError(f"no roster {shown!r}{hint}")


# --------------------------------------------------------------------------- loading


def load_roster(store: Store, *, roster_id: int) -> Roster:
    """The roster with id ``roster_id`` (deleted or not); ``KeyError`` naming the id if none."""
    return load_roster_versioned(store, roster_id=roster_id)[0]


def load_roster_versioned(store: Store, *, roster_id: int) -> tuple[Roster, int]:
    """The roster and its version (the number of writes it has had): a later write based on
    this copy names the version, and is refused if the roster changed in between."""
    with reading(store) as con:
        return roster_from_rows(con, roster_id)


def roster_from_rows(con: Reader, roster_id: int) -> tuple[Roster, int]:
    """Read roster ``roster_id`` and its version on ``con`` (inside its transaction)."""
    head = con.execute(
        "SELECT name, ruleset, army, side, scale, data_version, notes, version "
        "FROM roster WHERE id = ?",
        (roster_id,),
    ).fetchone()
    if head is None:
        raise KeyError(f"no roster with id {roster_id}")
    at = f"roster {roster_id}"
    units = con.execute(
        "SELECT uid, entry, name, size, count, grade, command, leader, notes, lines "
        "FROM roster_unit WHERE roster_id = ? ORDER BY position",
        (roster_id,),
    ).fetchall()
    leaders = con.execute(
        "SELECT uid, name, rank, status, wounds, fields, notes "
        "FROM roster_leader WHERE roster_id = ? ORDER BY position",
        (roster_id,),
    ).fetchall()
    commands = con.execute(
        "SELECT uid, name, leader, kind FROM roster_command WHERE roster_id = ? ORDER BY position",
        (roster_id,),
    ).fetchall()
    name, ruleset, army, side, scale, data_version, notes, version = head
    roster = Roster(
        name=_text(name, f"{at} name"),
        ruleset=_text(ruleset, f"{at} ruleset"),
        army=_text(army, f"{at} army"),
        side=_text(side, f"{at} side"),
        scale=_opt_scale(scale, f"{at} scale"),
        units=tuple(_unit(row, at) for row in units),
        leaders=tuple(_leader(row, at) for row in leaders),
        commands=tuple(_command(row, at) for row in commands),
        data_version=_opt_text(data_version, f"{at} data_version"),
        notes=_text(notes, f"{at} notes"),
    )
    return roster, _int(version, f"{at} version")


def fields_text(fields: Mapping[str, FieldValue]) -> str:
    """A leader's fields as ``roster_leader.fields`` holds them: a JSON object, keys sorted,
    compact (schema 0011)."""
    return json.dumps(dict(fields), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def leader_fields(text: object, where: str) -> FieldValues:
    """A leader's stored ``fields`` (:func:`fields_text`): names and values within the
    bounds any leader field keeps (``app.core.roster.leader_problems``); StoreDamaged else."""
    try:
        data: Any = json.loads(_text(text, where))
        if not isinstance(data, dict):
            raise ValueError("not an object")
        if any(not isinstance(v, bool | int | str) for v in data.values()):
            raise ValueError("not a number, yes/no or word")
        values = FieldValues(data)
    except (ValueError, TypeError):
        raise StoreDamaged(f"{where} is not valid ({str(text)[:40]!r})") from None
    problems = leader_problems(Leader(id="x", name="x", fields=values), values.keys())
    if problems:
        raise StoreDamaged(f"{where}: {problems[0]}")
    return values


def unit_lines(text: object, where: str) -> dict[str, int] | None:
    """A unit's stored ``lines`` (JSON object of line name -> bases) or None."""
    if text is None:
        return None
    try:
        data: Any = json.loads(_text(text, where))
        if not isinstance(data, dict):
            raise ValueError("not an object")
        return {str(k): int(v) for k, v in data.items()}
    except (ValueError, TypeError):
        raise StoreDamaged(f"{where} is not valid ({str(text)[:40]!r})") from None


def _unit(row: tuple[Any, ...], at: str) -> Unit:
    uid, entry, name, size, count, grade, command, leader, notes, lines = row
    where = f"{at} unit {uid!r}"
    return Unit(
        id=_text(uid, f"{at} unit id"),
        entry=_text(entry, f"{where} entry"),
        name=_text(name, f"{where} name"),
        size=_int(size, f"{where} size"),
        count=_int(count, f"{where} count"),
        grade=_opt_text(grade, f"{where} grade"),
        command=_opt_text(command, f"{where} command"),
        leader=_opt_text(leader, f"{where} leader"),
        notes=_text(notes, f"{where} notes"),
        lines=unit_lines(lines, f"{where} lines"),
    )


def _leader(row: tuple[Any, ...], at: str) -> Leader:
    uid, name, rank, status, wounds, fields, notes = row
    where = f"{at} leader {uid!r}"
    _one_of(rank, Rank, f"{where} rank")
    if status not in {s.value for s in LeaderStatus}:
        statuses = ", ".join(s.value for s in LeaderStatus)
        raise StoreDamaged(f"{where} status holds {status!r}, not one of {statuses}")
    return Leader(
        id=_text(uid, f"{at} leader id"),
        name=_text(name, f"{where} name"),
        rank=cast(Rank, rank),
        status=LeaderStatus(status),
        wounds=_int(wounds, f"{where} wounds"),
        notes=_text(notes, f"{where} notes"),
        fields=leader_fields(fields, f"{where} fields"),
    )


def _command(row: tuple[Any, ...], at: str) -> Command:
    uid, name, leader, kind = row
    where = f"{at} command {uid!r}"
    _one_of(kind, CommandKind, f"{where} kind")
    return Command(
        id=_text(uid, f"{at} command id"),
        name=_text(name, f"{where} name"),
        leader=_opt_text(leader, f"{where} leader"),
        kind=cast(CommandKind | None, kind),
    )


def seeded_samples(store: Store) -> set[str]:
    """The ``ruleset/army`` keys whose sample roster was already given (``app_meta``), so
    the window can tell without the ORM whether a newly loaded ruleset brings a sample."""
    with reading(store) as con:
        row = con.execute("SELECT value FROM app_meta WHERE key = 'samples_seeded'").fetchone()
    if row is None:
        return set()
    try:
        keys = json.loads(row[0])
        if not isinstance(keys, list):
            raise ValueError("not a list")
    except ValueError:
        raise StoreDamaged(f"app_meta samples_seeded holds {str(row[0])[:40]!r}") from None
    return {str(k) for k in keys}


def change_mark(store: Store) -> tuple[int, ...]:
    """A cheap mark that changes whenever anything in the store does (every write bumps a
    version, or adds or removes a row; ids are never reused, so a removal and an addition do
    not cancel out): a window on a club server polls it every few seconds and reloads what
    it shows when it moves (another member's change)."""
    from sqlalchemy import func, select
    from sqlmodel import col

    from app.store.models import BattleRow, CampaignRow, RosterRow

    columns = []
    for model in (RosterRow, BattleRow, CampaignRow):
        columns += [
            select(func.count()).select_from(model).scalar_subquery(),
            select(func.coalesce(func.sum(col(model.version)), 0)).scalar_subquery(),
            select(func.coalesce(func.max(col(model.id)), 0)).scalar_subquery(),
        ]
    with store.read_session() as session:
        row = session.execute(select(*columns)).one()
    return tuple(int(v) for v in row)


def roster_version(store: Store, *, roster_id: int) -> int | None:
    """The stored version of a roster (None if it is gone), to tell whether an open copy is
    still the stored one."""
    from app.store.models import RosterRow

    return _stored_version(store, RosterRow, roster_id)


def battle_version(store: Store, *, battle_id: int) -> int | None:
    """The stored version of a battle (None if it is gone): an open battle window reloads
    when another member moved it on."""
    from app.store.models import BattleRow

    return _stored_version(store, BattleRow, battle_id)


def campaign_version(store: Store, *, campaign_id: int) -> int | None:
    """The stored version of a campaign (None if it is gone), as :func:`battle_version`."""
    from app.store.models import CampaignRow

    return _stored_version(store, CampaignRow, campaign_id)


def _stored_version(store: Store, model: Any, ident: int) -> int | None:
    from sqlalchemy import select

    with store.read_session() as session:
        found = session.execute(select(model.version).where(model.id == ident)).scalar()
    return None if found is None else int(found)


def club_members(store: Store) -> dict[str, str]:
    """The club's members and their roles (name -> ``player`` or ``umpire``), by name; empty
    on a local store."""
    if not store.on_server:
        return {}
    with reading(store) as con:
        rows = con.execute("SELECT name, role FROM club_member ORDER BY name").fetchall()
    return {str(name): str(role) for name, role in rows}


def member_role(store: Store) -> str | None:
    """This member's role on a club server (``player`` or ``umpire``), or None: a local
    store, or the club's admin (who owns the tables: the policies do not hold them)."""
    if not store.on_server:
        return None
    with reading(store) as con:
        row = con.execute("SELECT m.role FROM club_member m WHERE m.name = current_user").fetchone()
    return None if row is None or row[0] is None else str(row[0])


def battle_lock(store: Store) -> str | None:
    """Why this member may not change battles, in one line, or None when they may: on a
    club server battles are the umpire's (the database's policies, migration 0007)."""
    if member_role(store) != "player":
        return None
    return f"battles are the umpire's: read-only (you are {store.member}, a player)"


def roster_lock(store: Store, *, roster_id: int) -> str | None:
    """Why this member may not change roster ``roster_id``, in one line, or None when they
    may (always on a local store). On a club server a player changes only the rosters they
    own, an umpire any (the rule the database's policies enforce, migration 0007): the
    window opens another member's roster read-only instead of refusing at save."""
    if not store.on_server:
        return None
    with reading(store) as con:
        row = con.execute(
            "SELECT r.owner, (SELECT m.role FROM club_member m WHERE m.name = current_user), "
            "current_user FROM roster r WHERE r.id = ?",
            (roster_id,),
        ).fetchone()
    if row is None:
        raise KeyError(f"no roster with id {roster_id}")
    owner, role, member = (None if v is None else str(v) for v in row)
    if role is None or role == "umpire" or owner == member:
        # an umpire changes any roster; one who is no member at all is the club's admin,
        # who owns the tables (the policies do not hold them)
        return None
    whose = f"{owner}'s roster" if owner else "a roster nobody owns"
    return f"{whose}: read-only (you are {member}, a {role})"


@dataclass(frozen=True)
class RosterChange:
    """A line of a roster's history: one write (schema 0008)."""

    #: the roster's version after this change
    version: int
    made_at: datetime
    #: on a club server, the member who made it; None locally
    made_by: str | None
    what: str


def roster_history(store: Store, *, roster_id: int) -> list[RosterChange]:
    """Every recorded change of roster ``roster_id``, oldest first (``KeyError`` naming the
    id if there is no such roster). Writes made before schema 0008 were not recorded."""
    with reading(store) as con:
        if con.execute("SELECT 1 FROM roster WHERE id = ?", (roster_id,)).fetchone() is None:
            raise KeyError(f"no roster with id {roster_id}")
        rows = con.execute(
            "SELECT version, made_at, made_by, what FROM roster_change WHERE roster_id = ? "
            "ORDER BY id",
            (roster_id,),
        ).fetchall()
    where = f"roster {roster_id} history"
    return [
        RosterChange(
            version=_int(version, f"{where} version"),
            made_at=parse_time(made_at, f"{where} made_at"),
            made_by=_opt_text(made_by, f"{where} made_by"),
            what=_text(what, f"{where} what"),
        )
        for version, made_at, made_by, what in rows
    ]
