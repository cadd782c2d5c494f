"""The rehearsal of a roster's writes (app.store.prepare, issue 26): the window runs them on a
scratch roster in a transaction that is rolled back, once it is idle after the start, so
that SQLAlchemy has compiled every statement before the user's first edit. Nothing may reach
the store, a busy store is left alone at once, and the user's first edit then compiles no
statement."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine.interfaces import CacheStats

from app.core.roster import Roster
from app.store import Store, load_roster, open_store, save_roster
from app.store.engine import BUSY_TIMEOUT_MS, StoreError
from app.store.prepare import rehearse_roster_writes, warm_writes
from app.store.repo import write_roster


@pytest.fixture
def local(db_path: Path) -> Iterator[Store]:
    with open_store(db_path) as store:
        yield store


def _dump(path: Path) -> list[str]:
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as con:
        return list(con.iterdump())


def _misses(store: Store) -> list[str]:
    """A list that collects the statements SQLAlchemy compiles (cache misses) on ``store``."""
    missed: list[str] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def _seen(_conn: Any, _cursor: Any, statement: str, _p: Any, context: Any, _m: Any) -> None:
        if context is not None and context.cache_hit is CacheStats.CACHE_MISS:
            missed.append(statement.split(" WHERE")[0])

    return missed


def test_a_rehearsal_leaves_the_store_as_it_was(
    local: Store, db_path: Path, full_roster: Roster
) -> None:
    rid = save_roster(local, roster=full_roster)
    wal = db_path.with_name(db_path.name + "-wal")
    before = _dump(db_path)
    files = db_path.read_bytes(), wal.read_bytes()
    assert rehearse_roster_writes(local)
    assert (db_path.read_bytes(), wal.read_bytes()) == files  # nothing reached the files
    assert _dump(db_path) == before
    assert load_roster(local, roster_id=rid) == full_roster
    # the next real write takes the next ids and version, as if nothing had been rehearsed
    saved = write_roster(local, roster=replace(full_roster, notes="n"), roster_id=rid)
    assert saved.version == 1
    with closing(sqlite3.connect(db_path)) as con:
        assert con.execute("SELECT count(*) FROM roster").fetchone() == (1,)
        assert con.execute("SELECT max(id) FROM roster_change").fetchone() == (2,)


def test_after_the_rehearsal_an_edit_compiles_no_statement(
    local: Store, full_roster: Roster
) -> None:
    rid = save_roster(local, roster=full_roster)
    stored = load_roster(local, roster_id=rid)
    fresh = open_store(local.path)  # a new process's store: nothing compiled yet
    try:
        missed = _misses(fresh)
        warm_writes(fresh, rid)
        assert missed, "the rehearsal compiles the writes' statements"
        missed.clear()
        unit = stored.units[0]
        leader = stored.leaders[0]
        assert len(stored.units) > 2
        edits = [
            replace(stored, units=(replace(unit, notes="edited"), *stored.units[1:])),
            replace(stored, leaders=(replace(leader, notes="edited"), *stored.leaders[1:])),
            replace(stored, units=stored.units[1:]),  # the others move up
            replace(stored, units=(*stored.units[1:], replace(unit, id="added"))),
        ]
        edits.append(replace(edits[-1], name="Renamed"))
        edits.append(replace(edits[-1], notes="Noted"))
        base, version = stored, 0
        for edited in edits:
            saved = write_roster(
                fresh, roster=edited, roster_id=rid, expected_version=version, base=base
            )
            base, version = edited, saved.version
        assert missed == []
    finally:
        fresh.close()
    assert load_roster(local, roster_id=rid) == edits[-1]


def test_the_rehearsal_without_it_the_first_edit_compiles(
    local: Store, full_roster: Roster
) -> None:
    """The check above can fail: without the rehearsal the same edit compiles."""
    rid = save_roster(local, roster=full_roster)
    stored = load_roster(local, roster_id=rid)
    fresh = open_store(local.path)
    try:
        missed = _misses(fresh)
        unit = replace(stored.units[0], notes="edited")
        edited = replace(stored, units=(unit, *stored.units[1:]))
        write_roster(fresh, roster=edited, roster_id=rid, expected_version=0, base=stored)
        assert any(s.startswith("UPDATE roster_unit") for s in missed), missed
    finally:
        fresh.close()


def test_a_busy_store_is_left_alone_at_once(local: Store, db_path: Path) -> None:
    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # another writer holds the store
        start = time.monotonic()
        assert not rehearse_roster_writes(local)
        assert time.monotonic() - start < BUSY_TIMEOUT_MS / 1000 / 2
        other.execute("ROLLBACK")
    # the engine's connections wait for other writers again, as every write should
    with local.read_session() as db:
        con = db.connection().connection.dbapi_connection
        assert con is not None
        assert con.execute("PRAGMA busy_timeout").fetchone() == (BUSY_TIMEOUT_MS,)
    assert rehearse_roster_writes(local)


def test_only_a_local_store_that_can_be_written_holds_a_rehearsal(db_path: Path) -> None:
    with open_store(db_path) as writable:
        save_roster(writable, roster=Roster("R", "quincunx", "roman", "Rome", None))
    before = _dump(db_path)
    store = Store(db_path, read_only=True)  # as a store on a read-only file or mount opens
    try:
        with pytest.raises(StoreError, match="rehearsal"), store.rehearsal():
            pass
        warm_writes(store, 1)  # makes the engine and reads; rehearses nothing
    finally:
        store.close()
    assert _dump(db_path) == before
