"""Campaigns in the store: each one transaction, saved as it happens.

Each step is stored small, as battles are (:mod:`app.core.timeline`, schema 0010): the step,
its label and kind, the digest of the campaign it made, the change from the campaign before
(a nested diff) and, every :data:`SNAPSHOT_EVERY` steps or more, the whole campaign
compressed, as a head and parts (schema 0012, :func:`~app.core.campaign.stored.pack_campaign`:
the battles' armies as they went in and the results' units, most of it, are decoded only when
read). A state is checked when it is made (by the step) and written; reading builds
only the states a command reads (usually the cursor's), from the nearest snapshot, without
validating them again (:mod:`app.core.campaign.stored`), and checks the cursor's against its
digest. A campaign of 50 battles stored the whole campaign at every step (half a MB a step)
and re-read and re-validated all of them on every command.

Every write begins ``BEGIN IMMEDIATE`` (the store's write sessions) and checks the version
the session was loaded with: a write from a copy changed elsewhere (another window, the
command line) is refused with :class:`~app.store.engine.StaleWrite`, nothing written.
:func:`campaign_for_update` loads, changes and saves in one transaction, so the command line
is never stale. Reads use plain ``sqlite3`` and the campaign file's strict reader, so damaged
content is a one-line :class:`~app.store.engine.StoreDamaged`."""

from __future__ import annotations

import itertools
import json
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from app.collector import collector_paused
from app.core.campaign.model import Campaign, CampaignError, CampaignSide
from app.core.campaign.session import CampaignSession, Done
from app.core.campaign.steps import SIDES_KEPT, Step
from app.core.campaign.stored import SNAPSHOT_EVERY as SNAPSHOT_EVERY
from app.core.campaign.stored import (
    Builder,
    StoredDataError,
    apply_step_from_stored,
    pack_campaign,
    snapshot_due,
    unpack_campaign,
)
from app.core.timeline import (
    StateDict,
    Timeline,
    diff,
    digest,
    load_json,
)
from app.store.engine import (
    AccessRefused,
    Reader,
    StaleWrite,
    Store,
    StoreDamaged,
    StoreError,
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


def _step_row(
    campaign_id: int, n: int, done: Done, change: dict[str, Any], after: StateDict, snapshot: bool
) -> Any:
    from app.core.campaign.serialize import step_to_dict
    from app.store.models import CampaignStepRow

    return CampaignStepRow(
        campaign_id=campaign_id,
        n=n,
        kind=done.step.kind,
        label=done.step.label,
        step=json.dumps(step_to_dict(done.step), ensure_ascii=False),
        digest=digest(after),
        delta=json.dumps(change, ensure_ascii=False),
        snapshot=pack_campaign(after) if snapshot else None,
        side=_side_of(done),
    )


def _write_steps(
    db: Session, campaign_id: int, session: CampaignSession, first: int, timeline: Timeline[Any]
) -> None:
    """Add steps ``first`` onwards of ``session`` to the store and to ``timeline`` (whose
    first ``first`` steps are the stored ones): each its change from the state before."""
    from app.core.campaign.serialize import campaign_to_dict

    timeline.truncate(first)
    try:
        timeline.check(first)  # nothing is written on top of a damaged state
    except ValueError as exc:
        raise StoreDamaged(f"campaign {campaign_id} cannot be changed ({exc})") from None
    before = timeline.state_dict(first)
    last = timeline.nearest_snapshot(first)
    for n in range(first, len(session.done)):
        done = session.done[n]
        after = campaign_to_dict(done.campaign)
        snapshot = snapshot_due(n, last, done.kind)
        change = diff(before, after)
        beyond = set(change) - done.step.changes
        if beyond:  # the store reads past states by what each kind of step may change
            raise StoreError(
                f"campaign {campaign_id}: {done.step.label} changed "
                f"{', '.join(sorted(beyond))}, which a step of its kind never does; nothing "
                "was saved (a bug in Castra: please report it)"
            )
        row = _step_row(campaign_id, n, done, change, after, snapshot)
        db.add(row)
        timeline.append(change, after, snapshot=snapshot, digest=row.digest)
        last = n + 1 if snapshot else last
        before = after


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
    from app.core.campaign.serialize import campaign_to_dict
    from app.store.models import CampaignRow

    now = _now()
    start = campaign_to_dict(session.start)
    row = CampaignRow(
        name=session.campaign.name,
        ruleset=session.ruleset.id,
        start=json.dumps(start, ensure_ascii=False),
        cursor=session.cursor,
        created_at=now,
        updated_at=now,
        version=0,
    )
    with store.session() as db:
        db.add(row)
        db.flush()
        assert row.id is not None
        timeline = _timeline(start, [], {}, [])
        _write_steps(db, row.id, session, 0, timeline)
        db.flush()
        session.timeline = timeline
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


def _save(db: Session, campaign_id: int, session: CampaignSession, row: Any = None) -> None:
    """``row``: the campaign's row, locked and checked already in this transaction."""
    from sqlmodel import col, delete

    from app.store.models import CampaignStepRow

    if row is None:
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
        timeline = session.timeline or _memory_timeline(session)
        _write_steps(db, campaign_id, session, session.stored, timeline)
        session.timeline = timeline
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
    store: Store,
    *,
    campaign_id: int,
    registry: Registry | None = None,
    session: CampaignSession | None = None,
) -> Iterator[CampaignSession]:
    """The campaign loaded inside one write transaction; what the block does is saved when
    it ends, in the same transaction (another writer waits meanwhile).

    ``session``: the campaign as loaded earlier (a window's), used as it is when the store
    still holds that version, else refused (:class:`StaleWrite`) before the block runs;
    without it the campaign is loaded with ``registry``."""
    with store.session() as db:
        # locks the campaign on a server (SQLite: the write lock)
        row = _row(db, campaign_id, None if session is None else session.version)
        if session is None:
            if registry is None:
                raise ValueError("campaign_for_update needs the registry or a loaded session")
            session = _load(_dbapi(db), campaign_id, registry)
        before = (session.cursor, len(session.done), session.stored)
        yield session
        if (session.cursor, len(session.done), session.stored) != before:
            _save(db, campaign_id, session, row)


def load_campaign(store: Store, *, campaign_id: int, registry: Registry) -> CampaignSession:
    # reading a campaign of 50 battles makes some 21,000 containers (its last whole state
    # and what is built from it), none in a cycle: one pass of the collector after the read,
    # not several young passes walking them as they are made
    with reading(store) as con, collector_paused():
        return _load(con, campaign_id, registry)


def _timeline(
    start: StateDict,
    deltas: list[Any],
    snapshots: dict[int, Any],
    digests: list[str],
    *,
    builder: Builder | None = None,
) -> Timeline[Campaign]:
    """The recorded campaigns of a stored campaign, each built without validating it again
    (it was checked when it was made); :meth:`~app.core.timeline.Timeline.check` holds one
    to its digest."""
    make = builder or Builder()

    def build(n: int, data: StateDict) -> Campaign:
        return make.campaign(data, f"step {n}" if n else "start")

    return _CampaignTimeline(start, deltas, snapshots, build=build, digests=digests)


class _CampaignTimeline(Timeline[Campaign]):
    """A campaign's timeline: a stored step's change is kept as its JSON text until a
    state needs it, then read as :func:`~app.core.timeline.load_json` reads it."""

    def decode_delta(self, text: str | bytes) -> Any:
        return load_json(text)


def _memory_timeline(session: CampaignSession) -> Timeline[Campaign]:
    """The timeline of a session made in memory, up to its stored steps."""
    from app.core.campaign.serialize import campaign_to_dict

    states = [campaign_to_dict(session.at(n)) for n in range(session.stored + 1)]
    deltas = [diff(a, b) for a, b in itertools.pairwise(states)]
    return _timeline(states[0], deltas, {}, [digest(s) for s in states[1:]])


def _load(con: Reader, campaign_id: int, registry: Registry) -> CampaignSession:
    row = con.execute(
        "SELECT start, cursor, version FROM campaign WHERE id = ?", (campaign_id,)
    ).fetchone()
    if row is None:
        raise KeyError(f"no campaign with id {campaign_id}")
    where = f"campaign {campaign_id}"
    rows = con.execute(
        "SELECT n, kind, label, step, digest, delta, snapshot FROM campaign_step "
        "WHERE campaign_id = ? ORDER BY n",
        (campaign_id,),
    ).fetchall()
    builder = Builder(damaged=lambda exc: StoreDamaged(f"{where} cannot be read ({exc})"))
    try:
        start_dict = load_json(row[0])
        start = builder.campaign(start_dict, "start")
        rs = registry.get(start.ruleset)
        deltas: list[Any] = []
        snapshots: dict[int, Any] = {}
        digests: list[str] = []
        steps: list[tuple[str, str, str]] = []
        blobs: dict[int, bytes] = {}
        for i, (n, kind, label, step, dg, change, snapshot) in enumerate(rows):
            if n != i:
                raise ValueError(f"step {i + 1} is missing")
            deltas.append(str(change))  # its JSON text, read when first asked for
            if snapshot is not None:
                blobs[n + 1] = bytes(snapshot)
                snapshots[n + 1] = _snapshot_reader(campaign_id, blobs[n + 1], builder)
            digests.append(str(dg))
            steps.append((str(kind), str(label), str(step)))
        cursor = int(row[1])
        if not 0 <= cursor <= len(steps):
            raise ValueError(f"cursor {cursor} is not from 0 to {len(steps)}")
        timeline = _timeline(start_dict, deltas, snapshots, digests, builder=builder)
        timeline.state(cursor)  # every command reads it: a damaged one is said here
        _remember_built(campaign_id, blobs.get(timeline.nearest_snapshot(cursor)), builder)
    except (StoredDataError, ValueError, TypeError, KeyError, IndexError) as exc:
        raise StoreDamaged(f"{where} cannot be read ({exc})") from None
    done = [
        Done(
            _StepRead(text, registry, where, n + 1),
            _CampaignAt(timeline, n + 1, where),
            kind=kind,
            label=label,
        )
        for n, (kind, label, text) in enumerate(steps)
    ]
    session = CampaignSession(
        rs, start, done=done, cursor=cursor, version=int(row[2]), timeline=timeline
    )
    kinds = [kind for kind, _, _ in steps]
    session.read_sides = _sides_reader(timeline, builder, kinds, where)
    return session


def _sides_reader(
    timeline: Timeline[Campaign], builder: Builder, kinds: list[str], where: str
) -> Any:
    """The sides after a stored step, from the sides' changes alone (a battle's result,
    some 20 KB of JSON at 50 battles, is not read to reach the armies after it)."""

    def read(n: int) -> tuple[CampaignSide, ...]:
        try:
            sides = timeline.part(n, "sides", lambda k: kinds[k - 1] in SIDES_KEPT)
            return builder.sides({"sides": sides}, f"step {n}")
        except (StoredDataError, ValueError, TypeError, KeyError, IndexError) as exc:
            raise StoreDamaged(f"{where} cannot be read at step {n} ({exc})") from None

    return read


#: how many whole states decoded (with what was built from them) are kept for the next read
READ_KEPT = 2


class _Decoded:
    """A stored whole state as decoded, and what was built from it."""

    __slots__ = ("built", "data")

    def __init__(self, data: StateDict) -> None:
        self.data = data
        self.built: Builder | None = None


#: the whole states read last, by campaign and their stored bytes: a campaign read again
#: (picked again, reloaded after another member's step, its window opened again) whose
#: store holds the same bytes is not decoded nor built again (at 50 battles its last whole
#: state is 1 MB of JSON, and some 40% of a read)
_decoded: OrderedDict[tuple[int, bytes], _Decoded] = OrderedDict()
_decoded_lock = threading.Lock()


def _snapshot_reader(campaign_id: int, blob: bytes, builder: Builder) -> Any:
    """The whole state stored as ``blob``, decoded when first read, or as decoded by an
    earlier read of the same bytes (``builder`` then knows what was built from it)."""

    def read() -> StateDict:
        key = (campaign_id, blob)
        with _decoded_lock:
            got = _decoded.get(key)
            if got is not None:
                _decoded.move_to_end(key)
        if got is None:
            try:
                got = _Decoded(unpack_campaign(blob))
            except zlib.error as exc:  # not compressed as Castra writes: damaged
                raise ValueError(f"a whole state stored is not readable ({exc})") from None
            with _decoded_lock:
                _decoded[key] = got
                while len(_decoded) > READ_KEPT:
                    _decoded.popitem(last=False)
        elif got.built is not None:
            builder.learn(got.built)
        return got.data

    return read


def forget_decoded() -> None:
    """Drop the whole states kept decoded (:data:`READ_KEPT`): the next read of every
    campaign decodes and builds its state again, as the first read in a process does."""
    with _decoded_lock:
        _decoded.clear()


def _remember_built(campaign_id: int, blob: bytes | None, builder: Builder) -> None:
    """Keep, with the decoded whole state stored as ``blob``, what ``builder`` built from
    it (the sides, battles and armies the read state shares with it)."""
    if blob is None:
        return
    with _decoded_lock:
        got = _decoded.get((campaign_id, blob))
    if got is not None:
        got.built = builder.built_from(got.data)


class _StepRead:
    """A stored step, decoded (and checked) when it is first read: one small object a step
    (a campaign of 50 battles has 150), where closures made several for the cyclic
    collector to walk."""

    __slots__ = ("_n", "_registry", "_text", "_where")

    def __init__(self, text: str, registry: Registry, where: str, n: int) -> None:
        self._text = text
        self._registry = registry
        self._where = where
        self._n = n

    def __call__(self) -> Step:
        where = f"{self._where} step {self._n}"
        try:
            obj = json.loads(self._text)
        except ValueError as exc:
            raise StoreDamaged(f"{where} cannot be read ({exc})") from None
        quick = apply_step_from_stored(obj)  # the chronicle reads every apply step
        if quick is not None:
            return quick
        from app.core.campaign.serialize import CampaignDataError, step_from_dict  # pydantic

        try:
            return step_from_dict(obj, self._registry, where)
        except (CampaignDataError, ValueError) as exc:
            raise StoreDamaged(f"{where} cannot be read ({exc})") from None


class _CampaignAt:
    """The campaign after stored step ``n``, rebuilt from the timeline when called (a
    damaged one is the store's one line)."""

    __slots__ = ("_n", "_timeline", "_where")

    def __init__(self, timeline: Timeline[Campaign], n: int, where: str) -> None:
        self._timeline = timeline
        self._n = n
        self._where = where

    def __call__(self) -> Campaign:
        try:
            return self._timeline.state(self._n)
        except (StoredDataError, ValueError, TypeError, KeyError, IndexError) as exc:
            raise StoreDamaged(f"{self._where} cannot be read at step {self._n} ({exc})") from None


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
    with reading(store) as con:
        rows = con.execute(
            "SELECT side, member FROM campaign_side WHERE campaign_id = ?", (campaign_id,)
        ).fetchall()
    return {str(side): str(member) for side, member in rows}


def step_makers(store: Store, *, campaign_id: int) -> list[str | None]:
    """Who made each stored step of a campaign, in order (None: a local store's step)."""
    with reading(store) as con:
        rows = con.execute(
            "SELECT made_by FROM campaign_step WHERE campaign_id = ? ORDER BY n", (campaign_id,)
        ).fetchall()
    return [None if m is None else str(m) for (m,) in rows]
