"""Campaigns in the store: each one transaction, saved as it happens.

Every write begins ``BEGIN IMMEDIATE`` (the store's write sessions) and checks the version
the session was loaded with: a write from a copy changed elsewhere (another window, the
command line) is refused with :class:`~app.store.engine.StaleWrite`, nothing written.
:func:`campaign_for_update` loads, changes and saves in one transaction, so the command line
is never stale. Reads use plain ``sqlite3`` and the campaign file's strict reader, so damaged
content is a one-line :class:`~app.store.engine.StoreDamaged`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from app.core.campaign.model import CampaignError
from app.core.campaign.serialize import (
    CampaignDataError,
    campaign_from_dict,
    campaign_to_dict,
    step_from_dict,
    step_to_dict,
)
from app.core.campaign.session import CampaignSession, Done
from app.store.engine import (
    AccessRefused,
    Reader,
    StaleWrite,
    Store,
    StoreDamaged,
    get_for_update,
    reader_of,
)
from app.store.read import parse_time, reading

if TYPE_CHECKING:
    from sqlmodel import Session

    from app.rules.registry import Registry


@dataclass(frozen=True)
class CampaignSummary:
    id: int
    name: str
    ruleset: str
    steps: int
    updated_at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _dbapi(db: Session) -> Reader:
    return reader_of(db)


def _step_row(campaign_id: int, n: int, done: Done) -> Any:
    from app.store.models import CampaignStepRow

    return CampaignStepRow(
        campaign_id=campaign_id,
        n=n,
        kind=done.step.kind,
        label=done.step.label,
        step=json.dumps(step_to_dict(done.step), ensure_ascii=False),
        state=json.dumps(campaign_to_dict(done.campaign), ensure_ascii=False),
        side=_side_of(done),
    )


def _side_of(done: Done) -> str | None:
    """The campaign side a step changes (a side's id), for the server's per-side policy."""
    key = getattr(done.step, "side", None)
    if not isinstance(key, str):
        return None
    try:
        return done.campaign.side(key).id
    except CampaignError:
        return key


def create_campaign(store: Store, *, session: CampaignSession) -> int:
    """Store a new campaign with the steps it has, in one transaction; its id."""
    from app.store.models import CampaignRow

    now = _now()
    row = CampaignRow(
        name=session.campaign.name,
        ruleset=session.ruleset.id,
        start=json.dumps(campaign_to_dict(session.start), ensure_ascii=False),
        cursor=session.cursor,
        created_at=now,
        updated_at=now,
        version=0,
    )
    with store.session() as db:
        db.add(row)
        db.flush()
        assert row.id is not None
        for n, done in enumerate(session.done):
            db.add(_step_row(row.id, n, done))
        db.flush()
        session.stored = len(session.done)
        session.version = 0
        return row.id


def _row(db: Session, campaign_id: int, expected: int | None) -> Any:
    from app.store.models import CampaignRow

    row = get_for_update(db, CampaignRow, campaign_id, f"campaign {campaign_id}")
    if row is None:
        raise KeyError(f"no campaign with id {campaign_id}")
    if expected is not None and row.version != expected:
        raise StaleWrite(
            f"campaign {campaign_id} was changed elsewhere since it was loaded (another "
            "window or the command line); this change was not saved"
        )
    return row


def _save(db: Session, campaign_id: int, session: CampaignSession) -> None:
    from sqlmodel import col, delete

    from app.store.models import CampaignStepRow

    row = _row(db, campaign_id, session.version)
    count = _count(db, campaign_id)
    if session.stored < len(session.done) or session.stored != count:
        dropped = db.exec(
            delete(CampaignStepRow).where(
                col(CampaignStepRow.campaign_id) == campaign_id,
                col(CampaignStepRow.n) >= session.stored,
            )
        )
        if dropped.rowcount < count - session.stored:
            # a server's policies hide the steps this member may not drop (the umpire's
            # undone steps, kept to redo): refused, rather than colliding with them
            member = db.info.get("member") or "this member"
            raise AccessRefused(
                f"the club server refused this change: {member} may not drop steps another "
                f"member made in campaign {campaign_id} (undone, kept to redo); nothing was "
                "saved"
            )
        for n in range(session.stored, len(session.done)):
            db.add(_step_row(campaign_id, n, session.done[n]))
    row.cursor = session.cursor
    row.name = session.campaign.name
    row.version += 1
    row.updated_at = _now()
    db.add(row)
    db.flush()
    session.stored = len(session.done)
    session.version = row.version


def _count(db: Session, campaign_id: int) -> int:
    got = _dbapi(db).execute(
        "SELECT COUNT(*) FROM campaign_step WHERE campaign_id = ?", (campaign_id,)
    )
    return int(got.fetchone()[0])


def save_campaign(store: Store, *, campaign_id: int, session: CampaignSession) -> None:
    """After a step, an undo or a redo: store what changed (new steps, the redo branch
    dropped, the cursor). Refused (:class:`StaleWrite`) when the campaign changed in the
    store since ``session`` was loaded."""
    with store.session() as db:
        _save(db, campaign_id, session)


@contextmanager
def campaign_for_update(
    store: Store, *, campaign_id: int, registry: Registry
) -> Iterator[CampaignSession]:
    """The campaign loaded inside one write transaction; what the block does is saved when
    it ends, in the same transaction (another writer waits meanwhile)."""
    with store.session() as db:
        _row(db, campaign_id, None)  # locks the campaign on a server (SQLite: the write lock)
        session = _load(_dbapi(db), campaign_id, registry)
        before = (session.cursor, len(session.done), session.stored)
        yield session
        if (session.cursor, len(session.done), session.stored) != before:
            _save(db, campaign_id, session)


def load_campaign(store: Store, *, campaign_id: int, registry: Registry) -> CampaignSession:
    with reading(store) as con:
        return _load(con, campaign_id, registry)


def _load(con: Reader, campaign_id: int, registry: Registry) -> CampaignSession:
    row = con.execute(
        "SELECT start, cursor, version FROM campaign WHERE id = ?", (campaign_id,)
    ).fetchone()
    if row is None:
        raise KeyError(f"no campaign with id {campaign_id}")
    where = f"campaign {campaign_id}"
    try:
        start = campaign_from_dict(json.loads(row[0]), registry, "start")
        done = []
        for n, step, state in con.execute(
            "SELECT n, step, state FROM campaign_step WHERE campaign_id = ? ORDER BY n",
            (campaign_id,),
        ):
            at = f"step {n}"
            done.append(
                Done(
                    step_from_dict(json.loads(step), registry, at),
                    campaign_from_dict(json.loads(state), registry, at),
                )
            )
        rs = registry.get(start.ruleset)
        cursor = int(row[1])
        if not 0 <= cursor <= len(done):
            raise ValueError(f"cursor {cursor} is not from 0 to {len(done)}")
    except (CampaignDataError, ValueError, TypeError, KeyError) as exc:
        raise StoreDamaged(f"{where} cannot be read ({exc})") from None
    return CampaignSession(rs, start, done=done, cursor=cursor, version=int(row[2]))


def list_campaigns(store: Store) -> list[CampaignSummary]:
    with reading(store) as con:
        rows = con.execute(
            "SELECT c.id, c.name, c.ruleset, c.cursor, c.updated_at FROM campaign AS c "
            "ORDER BY c.updated_at DESC"
        ).fetchall()
    return [
        CampaignSummary(int(i), str(n), str(r), int(c), parse_time(u, f"campaign {i} updated_at"))
        for i, n, r, c, u in rows
    ]


def find_campaign(store: Store, *, key: str) -> int:
    """A campaign's id from an id or a name (case-insensitive); ``LookupError`` else."""
    campaigns = list_campaigns(store)
    if key.isdigit() and any(c.id == int(key) for c in campaigns):
        return int(key)
    named = [c for c in campaigns if c.name.casefold() == key.casefold()]
    if len(named) == 1:
        return named[0].id
    if len(named) > 1:
        ids = ", ".join(str(c.id) for c in named)
        raise LookupError(f"{len(named)} campaigns are named {key!r} (ids {ids}): give an id")
    raise LookupError(f"no campaign {key!r} (see `castra campaign list`)")


def delete_campaign(store: Store, *, campaign_id: int) -> None:
    with store.session() as db:
        db.delete(_row(db, campaign_id, None))


def assign_side(store: Store, *, campaign_id: int, side: str, member: str) -> None:
    """On a club server, member ``member`` plays ``side`` (its id) of the campaign: they may
    then make that side's steps (reinforce, promote, return a leader). Only an umpire may
    assign sides (the server refuses anyone else: :class:`~app.store.engine.AccessRefused`)."""
    from app.store.models import CampaignSideRow

    with store.session() as db:
        _row(db, campaign_id, None)
        db.merge(CampaignSideRow(campaign_id=campaign_id, side=side, member=member))


def unassign_side(store: Store, *, campaign_id: int, side: str) -> None:
    """Nobody plays ``side`` of the campaign any more (the umpire's, as :func:`assign_side`)."""
    from sqlmodel import col, delete

    from app.store.models import CampaignSideRow

    with store.session() as db:
        _row(db, campaign_id, None)
        db.execute(
            delete(CampaignSideRow).where(
                col(CampaignSideRow.campaign_id) == campaign_id,
                col(CampaignSideRow.side) == side,
            )
        )


def campaign_sides(store: Store, *, campaign_id: int) -> dict[str, str]:
    """Who plays each side of a campaign (side id -> member), as assigned on a club server."""
    from sqlmodel import col, select

    from app.store.models import CampaignSideRow

    query = select(col(CampaignSideRow.side), col(CampaignSideRow.member)).where(
        col(CampaignSideRow.campaign_id) == campaign_id
    )
    with store.read_session() as db:
        return {str(side): str(member) for side, member in db.exec(query).all()}


def step_makers(store: Store, *, campaign_id: int) -> list[str | None]:
    """Who made each stored step of a campaign, in order (None: a local store's step)."""
    from sqlmodel import col, select

    from app.store.models import CampaignStepRow

    query = (
        select(col(CampaignStepRow.made_by))
        .where(col(CampaignStepRow.campaign_id) == campaign_id)
        .order_by(col(CampaignStepRow.n))
    )
    with store.read_session() as db:
        return [None if m is None else str(m) for m in db.exec(query).all()]
