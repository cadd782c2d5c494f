"""Battle use cases over a :class:`~app.store.engine.Store`: a battle is saved after every
command (one transaction), so a kill loses at most the action in flight, and it resumes
where it stopped.

Each step is stored small (:mod:`app.core.battle.timeline`): its command, rolls and log
lines, the digest of the state it produced, the change from the state before, and every
:data:`~app.core.battle.timeline.SNAPSHOT_EVERY` steps the whole state, compressed. Loading
reads the small columns and the snapshots' bytes and decodes nothing else; a state is
rebuilt when it is read (usually only the cursor's), from its nearest snapshot.

Reading is plain ``sqlite3`` (no ORM: ``battle show``, ``log`` and ``replay`` never import
SQLAlchemy). :func:`battle_for_update` loads, runs a command and saves in one transaction
holding the write lock, so two processes playing one battle lose no step.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from app.collector import collector_paused
from app.core.battle.commands import command_from_dict
from app.core.battle.serialize import rolls_from_list, state_to_dict
from app.core.battle.session import BattleSession, DataStamp, Step, step_to_dict
from app.core.battle.state import BattleState
from app.core.battle.timeline import Timeline, step_record, unpack_snapshot
from app.core.roster import Roster
from app.rules.mechanics import mechanics_for
from app.store.battle_list import BattleSummary as BattleSummary
from app.store.battle_list import list_battles as list_battles
from app.store.engine import (
    Reader,
    StaleWrite,
    Store,
    StoreDamaged,
    get_for_update,
    reader_of,
)
from app.store.read import reading

if TYPE_CHECKING:
    from sqlmodel import Session

    from app.rules.registry import Registry


def _now() -> datetime:
    return datetime.now(UTC)


def _dbapi(db: Session) -> Reader:
    return reader_of(db)


# --------------------------------------------------------------------------- writing


def create_battle(store: Store, *, session: BattleSession, rosters: tuple[Roster, Roster]) -> int:
    """Save a new battle and the steps it already has, in one transaction; returns its id.
    The battle records the ruleset data it is played with (``session.recorded``, else the
    data as it is now)."""
    from app.core.rosterfile import to_dict as roster_to_dict  # pydantic: when a battle is made
    from app.store.models import BattleRow

    now = _now()
    stamp = session.recorded or session.current_data
    row = BattleRow(
        name=session.name or f"{rosters[0].name} vs {rosters[1].name}",
        ruleset=session.ruleset.id,
        seed=session.seed,
        initial_state=json.dumps(state_to_dict(session.initial)),
        rosters=json.dumps([roster_to_dict(r) for r in rosters]),
        cursor=session.cursor,
        serial=session.serial,
        created_at=now,
        updated_at=now,
        data_version=stamp.data_version,
        data_fingerprint=stamp.fingerprint,
        version=0,
    )
    with store.session() as db:
        db.add(row)
        db.flush()
        assert row.id is not None
        for n in range(len(session.steps)):
            db.add(_step_row(row.id, n, session))
        _stamp(row, session)
        session.version = row.version
        return row.id


def _step_row(battle_id: int, n: int, session: BattleSession) -> Any:
    from app.store.models import BattleStepRow

    d = step_to_dict(session.steps[n], with_state=False)
    before = session.steps[n - 1].state if n else session.initial
    change, digest, snapshot = step_record(before, session.steps[n].state, n + 1)
    return BattleStepRow(
        battle_id=battle_id,
        n=n,
        command=json.dumps(d["command"]),
        rolls=json.dumps(d["rolls"]),
        lines=json.dumps(d["lines"]),
        turn=d["turn"],
        phase=d["phase"],
        digest=digest,
        delta=json.dumps(change, ensure_ascii=False),
        snapshot=snapshot,
    )


def _stamp(row: Any, session: BattleSession) -> None:
    row.cursor = session.cursor
    row.serial = session.serial
    result = session.state.result
    row.winner = None if result is None else result.winner
    row.result = None if result is None else result.reason
    row.updated_at = _now()
    row.version += 1


def _row(db: Session, battle_id: int, expected_version: int | None) -> Any:
    from app.store.models import BattleRow

    row = get_for_update(db, BattleRow, battle_id, f"battle {battle_id}")
    if row is None:
        raise KeyError(f"no battle with id {battle_id}")
    if expected_version is not None and row.version != expected_version:
        raise StaleWrite(
            f"battle {battle_id} was changed elsewhere since it was loaded (another window "
            "or the command line); this command was not saved"
        )
    return row


def save_step(store: Store, *, battle_id: int, session: BattleSession) -> None:
    """After ``session.do``: store the step just done, drop any stored redo branch beyond it,
    and record the cursor -- in one transaction. Refused (:class:`StaleWrite`) when the
    battle changed in the store since ``session`` was loaded."""
    with store.session() as db:
        _save_step(db, battle_id, session)


def _save_step(db: Session, battle_id: int, session: BattleSession, row: Any = None) -> None:
    """``row``: the battle's row, locked and checked already in this transaction."""
    from sqlmodel import col, delete

    from app.store.models import BattleStepRow

    n = session.cursor - 1
    if n < 0:
        raise ValueError("the session has no step to save")
    if row is None:
        row = _row(db, battle_id, session.version)
    db.exec(
        delete(BattleStepRow).where(
            col(BattleStepRow.battle_id) == battle_id, col(BattleStepRow.n) >= n
        )
    )
    db.add(_step_row(battle_id, n, session))
    _stamp(row, session)
    db.add(row)
    db.flush()
    session.version = row.version


def save_cursor(store: Store, *, battle_id: int, session: BattleSession) -> None:
    """After ``undo`` or ``redo``: the steps are stored already; record where we are."""
    with store.session() as db:
        _save_cursor(db, battle_id, session)


def _save_cursor(db: Session, battle_id: int, session: BattleSession, row: Any = None) -> None:
    if row is None:
        row = _row(db, battle_id, session.version)
    _stamp(row, session)
    db.add(row)
    db.flush()
    session.version = row.version


@contextmanager
def battle_for_update(
    store: Store,
    *,
    battle_id: int,
    registry: Registry | None = None,
    session: BattleSession | None = None,
) -> Iterator[BattleSession]:
    """The battle, loaded inside one write transaction; what the block does to it (a new
    step, or undo and redo moving the cursor) is saved when the block ends, in the same
    transaction. Another writer waits meanwhile, so nothing either does is lost.

    ``session``: the battle as loaded earlier (a window's), used as it is when the store
    still holds that version, else refused (:class:`StaleWrite`) before the block runs;
    without it the battle is loaded with ``registry``."""
    with store.session() as db:
        # locks the battle on a server (SQLite: the write lock)
        row = _row(db, battle_id, None if session is None else session.version)
        if session is None:
            if registry is None:
                raise ValueError("battle_for_update needs the registry or a loaded session")
            session = _load(_dbapi(db), battle_id, registry)
        serial, cursor = session.serial, session.cursor
        yield session
        if session.serial != serial:
            _save_step(db, battle_id, session, row)
        elif session.cursor != cursor:
            _save_cursor(db, battle_id, session, row)


# --------------------------------------------------------------------------- reading


def load_battle(store: Store, *, battle_id: int, registry: Registry) -> BattleSession:
    """The battle as it was left: every stored step (the redo branch too) and the cursor.
    No state is decoded until it is read; the session knows the data it was recorded with
    (None for a battle made before that was kept)."""
    with reading(store) as con, collector_paused():
        return _load(con, battle_id, registry)


def _load(con: Reader, battle_id: int, registry: Registry) -> BattleSession:
    head = con.execute(
        "SELECT ruleset, seed, initial_state, cursor, serial, name, data_version, "
        "data_fingerprint, version FROM battle WHERE id = ?",
        (battle_id,),
    ).fetchone()
    if head is None:
        raise KeyError(f"no battle with id {battle_id}")
    ruleset, seed, initial_text, cursor, serial, name, data_version, fingerprint, version = head
    rows = con.execute(
        "SELECT n, command, rolls, lines, turn, phase, digest, delta, snapshot "
        "FROM battle_step WHERE battle_id = ? ORDER BY n",
        (battle_id,),
    ).fetchall()
    where = f"battle {battle_id}"
    rs = registry.get(ruleset)
    try:
        deltas: list[Any] = []
        snapshots: dict[int, Any] = {}
        steps_data = []
        for i, (n, command, rolls, lines, turn, phase, digest, change, snapshot) in enumerate(rows):
            if n != i:
                raise ValueError(f"step {i + 1} is missing")
            deltas.append(change)  # its JSON text, read when first asked for
            if snapshot is not None:
                snapshots[n + 1] = _lazy_snapshot(bytes(snapshot))
            steps_data.append(
                (
                    command_from_dict(_json(command)),
                    rolls_from_list(_json(rolls)),
                    tuple(_json(lines)),
                    int(turn),
                    int(phase),
                    str(digest),
                )
            )
        # the state before the first step is read when it is asked for (a replay from
        # the start, a step before the first snapshot): a battle opens at its cursor
        timeline = _StoredTimeline(where, _lazy_initial(initial_text, where), deltas, snapshots)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise StoreDamaged(f"{where} cannot be read ({type(exc).__name__}: {exc})") from None
    steps = [
        Step(command, rolls, lines, turn, phase, timeline.loader(n + 1), digest=digest, cache=False)
        for n, (command, rolls, lines, turn, phase, digest) in enumerate(steps_data)
    ]
    recorded = None
    if data_version is not None and fingerprint is not None:
        recorded = DataStamp(data_version, fingerprint)
    return BattleSession(
        rs,
        mechanics_for(rs),
        _initial_state(timeline, where),
        seed=int(seed),
        steps=steps,
        cursor=int(cursor),
        serial=int(serial),
        name=str(name),
        recorded=recorded,
        version=int(version),
        timeline=timeline,
    )


#: the JSON parser's own scanner: one value from a place in a text, and where it ends
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _json(text: str) -> Any:
    """``json.loads(text)``, read straight by the parser's scanner (a step's command, rolls
    and lines are small texts, and a 1,000-step battle has 3,000 of them: loads' own checks
    cost more than the parse). A text that is not one JSON value and nothing after it is
    given to ``json.loads``, which reads blanks around it and refuses anything else as it
    always did (and so is anything but a text)."""
    if type(text) is not str:
        return json.loads(text)
    try:
        value, end = _SCAN(text, 0)
    except StopIteration:
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def _lazy_initial(text: str, where: str) -> Callable[[], dict[str, Any]]:
    def load() -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads(text)
            return data
        except ValueError as exc:
            raise StoreDamaged(f"{where}'s first state is not valid JSON ({exc})") from None

    return load


def _initial_state(timeline: Timeline, where: str) -> Callable[[], BattleState]:
    """The battle's first state, built from the timeline when it is first read."""
    return lambda: timeline.state(0)


class _StoredTimeline(Timeline):
    """A stored battle's recorded states: one that cannot be rebuilt from what is stored (a
    first state, snapshot or change that is not what Castra wrote) is a damaged store,
    said in one line, whenever it is read."""

    def __init__(self, where: str, *args: Any) -> None:
        super().__init__(*args)
        self.where = where

    def decode_delta(self, text: str | bytes) -> Any:
        try:
            return json.loads(text)
        except ValueError as exc:
            raise StoreDamaged(
                f"{self.where} cannot be read (a step's change is not valid JSON: {exc})"
            ) from None

    def state(self, n: int) -> BattleState:
        try:
            return super().state(n)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise StoreDamaged(
                f"{self.where} cannot be read ({type(exc).__name__}: {exc})"
            ) from None


def _lazy_snapshot(blob: bytes) -> Any:
    def load() -> Any:
        try:
            return unpack_snapshot(blob)
        except Exception as exc:  # zlib.error, a bad JSON: damaged either way
            raise StoreDamaged(f"a battle snapshot cannot be read ({exc})") from None

    return load


def battle_rosters(store: Store, *, battle_id: int, registry: Registry) -> tuple[Roster, Roster]:
    from app.core.rosterfile import from_dict as roster_from_dict  # pydantic: when read

    with reading(store) as con:
        row = con.execute("SELECT rosters FROM battle WHERE id = ?", (battle_id,)).fetchone()
    if row is None:
        raise KeyError(f"no battle with id {battle_id}")
    a, b = (roster_from_dict(d, registry) for d in json.loads(row[0]))
    return a, b


def delete_battle(store: Store, *, battle_id: int) -> None:
    with store.session() as db:
        db.delete(_row(db, battle_id, None))
