"""Opening the store: location, pragmas, backup-then-migrate, and refusing files we must not
change (newer schema, not SQLite, damaged), which are left byte for byte as they were."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest

from app.core.roster import Roster
from app.store import (
    SCHEMA_HEAD,
    Store,
    StoreError,
    default_path,
    list_rosters,
    load_roster,
    open_store,
    save_roster,
)
from tests.store.conftest import same_database

TABLES = {
    "alembic_version",
    "app_meta",
    "roster",
    "roster_change",
    "roster_command",
    "roster_leader",
    "roster_unit",
    "battle",
    "battle_step",
    "campaign",
    "campaign_step",
    "campaign_side",
    "club_member",
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as con:
        rows = con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
    return {r[0] for r in rows}


def revision(path: Path) -> list[str]:
    with sqlite3.connect(path) as con:
        return [r[0] for r in con.execute("SELECT version_num FROM alembic_version")]


def backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".bak-*"))


def make_head_file(path: Path) -> None:
    open_store(path).close()


# --------------------------------------------------------------------------- location


def test_castra_db_env_is_respected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "sub" / "dir" / "mine.sqlite3"
    monkeypatch.setenv("CASTRA_DB", str(target))
    assert default_path() == target
    store = open_store()
    try:
        assert store.path == target
        assert target.is_file()
    finally:
        store.close()


def test_default_path_is_user_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CASTRA_DB", raising=False)
    monkeypatch.delenv("CASTRA_HOME", raising=False)
    expected = Path(platformdirs.user_data_dir("castra", appauthor=False)) / "castra.sqlite3"
    assert default_path() == expected


# --------------------------------------------------------------------------- new file, pragmas


def test_new_file_is_created_at_head_without_backup(db_path: Path) -> None:
    store = open_store(db_path)
    store.close()
    assert store.revision == SCHEMA_HEAD
    assert store.backup is None
    assert tables(db_path) == TABLES
    assert revision(db_path) == [SCHEMA_HEAD]
    assert backups(db_path) == []


def test_empty_file_counts_as_new(db_path: Path) -> None:
    db_path.touch()
    open_store(db_path).close()
    assert revision(db_path) == [SCHEMA_HEAD]
    assert backups(db_path) == []


def test_wal_and_foreign_keys_are_on(store: Store) -> None:
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
    # every pooled connection, not only the first
    conns = [store.engine.connect() for _ in range(3)]
    try:
        assert all(c.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1 for c in conns)
    finally:
        for c in conns:
            c.close()


def test_foreign_keys_are_enforced(store: Store) -> None:
    from sqlalchemy.exc import IntegrityError

    from app.store.models import RosterCommandRow

    with pytest.raises(IntegrityError), store.session() as session:
        session.add(RosterCommandRow(roster_id=999, position=0, uid="c", name="C"))


def test_reopening_at_head_makes_no_backup(db_path: Path) -> None:
    make_head_file(db_path)
    store = open_store(db_path)
    store.close()
    assert store.backup is None
    assert backups(db_path) == []


def test_store_works_from_another_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store(Path("relative.sqlite3"))
    store.close()
    assert revision(tmp_path / "relative.sqlite3") == [SCHEMA_HEAD]


# --------------------------------------------------------------------------- upgrade with backup


def make_old_file(path: Path, revision: str) -> None:
    """A Castra store at an older schema revision (made at head, then downgraded)."""
    from alembic import command

    from app.store.engine import _alembic_config, migration_engine

    make_head_file(path)
    engine = migration_engine(path)
    with engine.begin() as conn:
        command.downgrade(_alembic_config(conn), revision)
    engine.dispose()


def test_another_programs_database_is_refused_untouched(db_path: Path) -> None:
    """An SQLite file with tables but no Castra schema stamp is another program's (Castra
    has stamped its files since its first schema): never backed up, never migrated."""
    with sqlite3.connect(db_path) as con:
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        con.execute("INSERT INTO notes (body) VALUES ('keep me')")
    con.close()
    before = _dir_state(db_path)
    for migrate in (True, False):
        with pytest.raises(StoreError) as err:
            open_store(db_path, migrate=migrate)
        assert "not a Castra database" in str(err.value) and "notes" in str(err.value)
        assert "not changed" in str(err.value)
    assert _dir_state(db_path) == before
    assert backups(db_path) == []


def test_old_castra_file_is_backed_up_then_upgraded(db_path: Path) -> None:
    make_old_file(db_path, "0003")
    with sqlite3.connect(db_path) as con:
        con.execute(
            "INSERT INTO roster (name, ruleset, army, side, notes, created_at, updated_at) "
            "VALUES ('keep me', 'r', 'a', 's', '', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
        )
    con.close()
    original = db_path.read_bytes()
    store = open_store(db_path)
    store.close()
    [backup] = backups(db_path)
    assert store.backup == backup
    assert backup.name.startswith("castra.sqlite3.bak-0003-")
    assert same_database(backup, original, db_path.with_name("original"))
    assert revision(db_path) == [SCHEMA_HEAD]
    assert [s.name for s in list_rosters(store)] == ["keep me"]


def test_file_at_base_revision_is_backed_up_then_upgraded(db_path: Path) -> None:
    """A file stamped at base: an alembic_version table with no row."""
    with sqlite3.connect(db_path) as con:
        con.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
    con.close()
    digest = sha256(db_path)
    store = open_store(db_path)
    store.close()
    [backup] = backups(db_path)
    assert sha256(backup) == digest
    assert revision(db_path) == [SCHEMA_HEAD]
    # the upgraded file is usable
    with open_store(db_path) as again:
        rid = save_roster(
            again, roster=Roster(name="A", ruleset="r", army="a", side="s", scale=None)
        )
        assert load_roster(again, roster_id=rid).name == "A"
    assert backups(db_path) == [backup]


def test_backup_includes_wal_content(db_path: Path) -> None:
    """Rows still in the -wal file (not yet folded into the main file) reach the backup."""
    make_old_file(db_path, "0003")
    keeper = sqlite3.connect(db_path, isolation_level=None)
    keeper.execute("PRAGMA journal_mode=WAL")
    keeper.execute("PRAGMA wal_autocheckpoint=0")
    keeper.execute("INSERT INTO app_meta VALUES ('note', 'only in the wal')")
    wal = db_path.with_name(db_path.name + "-wal")
    assert wal.stat().st_size > 0
    try:
        store = open_store(db_path)
        store.close()
    finally:
        keeper.close()
    assert store.backup is not None
    with sqlite3.connect(store.backup) as con:
        rows = con.execute("SELECT value FROM app_meta WHERE key = 'note'").fetchall()
        assert rows == [("only in the wal",)]
    con.close()


def test_failed_upgrade_is_rolled_back_and_names_the_backup(db_path: Path) -> None:
    """A file stamped at 0003 that lacks the roster table 0004 alters: the upgrade fails,
    and one transaction undoes all of it."""
    with sqlite3.connect(db_path) as con:
        con.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
        con.execute("INSERT INTO alembic_version VALUES ('0003')")
        con.execute("CREATE TABLE app_meta (key TEXT PRIMARY KEY, value TEXT)")
    con.close()
    with pytest.raises(StoreError) as err:
        open_store(db_path)
    [backup] = backups(db_path)
    message = str(err.value)
    assert str(db_path) in message
    assert str(backup) in message
    assert "from schema 0003 to " + SCHEMA_HEAD in message
    assert tables(db_path) == {"app_meta", "alembic_version"}
    assert revision(db_path) == ["0003"]


def test_migrate_false_opens_an_old_file_as_it_is(db_path: Path) -> None:
    make_old_file(db_path, "0003")
    digest = sha256(db_path)
    store = open_store(db_path, migrate=False)
    store.close()
    assert store.revision == "0003"
    assert store.backup is None
    assert backups(db_path) == []
    assert sha256(db_path) == digest


# --------------------------------------------------------------------------- refusals


def _dir_state(path: Path) -> dict[str, str]:
    return {p.name: sha256(p) for p in sorted(path.parent.iterdir()) if p.is_file()}


def test_newer_schema_is_refused_and_untouched(db_path: Path) -> None:
    make_head_file(db_path)
    with sqlite3.connect(db_path) as con:
        con.execute("UPDATE alembic_version SET version_num = 'ffff_future'")
    con.close()
    before = _dir_state(db_path)
    digest = sha256(db_path)

    for migrate in (True, False):
        with pytest.raises(StoreError) as err:
            open_store(db_path, migrate=migrate)
        message = str(err.value)
        assert str(db_path) in message
        assert "newer version of Castra" in message
        assert "ffff_future" in message
        assert f"knows up to {SCHEMA_HEAD}" in message
        assert "not changed" in message

    assert sha256(db_path) == digest
    assert backups(db_path) == []
    assert _dir_state(db_path) == before


def test_newer_schema_in_the_wal_is_refused_and_untouched(db_path: Path) -> None:
    """The newer revision sits in the -wal file (its writer still has it open): it is read,
    and neither the file nor the -wal is changed (no checkpoint). The -shm file is SQLite's
    shared-memory index, which every reader writes to, so it is not compared."""
    make_head_file(db_path)
    keeper = sqlite3.connect(db_path, isolation_level=None)
    try:
        keeper.execute("PRAGMA wal_autocheckpoint=0")
        keeper.execute("UPDATE alembic_version SET version_num = 'ffff_future'")
        before = _dir_state(db_path)
        before.pop(db_path.name + "-shm")
        assert db_path.stat().st_size > 0
        with pytest.raises(StoreError, match="ffff_future"):
            open_store(db_path)
        after = _dir_state(db_path)
        after.pop(db_path.name + "-shm")
        assert after == before
    finally:
        keeper.close()


def test_random_bytes_are_refused_and_untouched(db_path: Path) -> None:
    db_path.write_bytes(os.urandom(8192))
    before = _dir_state(db_path)
    with pytest.raises(StoreError, match="not an SQLite file") as err:
        open_store(db_path)
    assert str(db_path) in str(err.value)
    assert "not changed" in str(err.value)
    assert _dir_state(db_path) == before


def test_text_file_is_refused(db_path: Path) -> None:
    db_path.write_text("SQLite format 2 is not what you think\n")
    with pytest.raises(StoreError, match="not a Castra database"):
        open_store(db_path)


def test_damaged_database_is_refused_and_untouched(db_path: Path) -> None:
    make_head_file(db_path)
    with open_store(db_path) as store:
        for i in range(30):
            save_roster(
                store,
                roster=Roster(name=f"R{i}" * 50, ruleset="r", army="a", side="s", scale=None),
            )
    data = bytearray(db_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) > 3 * page
    data[page : 3 * page] = os.urandom(2 * page)  # pages 2 and 3: garbage
    db_path.write_bytes(bytes(data))
    before = _dir_state(db_path)
    with pytest.raises(StoreError) as err:
        open_store(db_path)
    message = str(err.value)
    assert str(db_path) in message
    assert "not changed" in message
    assert _dir_state(db_path) == before


def test_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not a file"):
        open_store(tmp_path)


def test_list_after_open(store: Store) -> None:
    assert list_rosters(store) == []


def test_opening_at_head_does_not_import_alembic(db_path: Path) -> None:
    """The start-up fast path: a file at SCHEMA_HEAD is opened without loading Alembic."""
    import subprocess
    import sys

    make_head_file(db_path)
    code = (
        "import sys; from pathlib import Path; from app.store import open_store; "
        f"s = open_store(Path({str(db_path)!r})); s.close(); "
        "assert s.backup is None; print('alembic' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "False"


def test_unusable_folder_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot use"):
        open_store(blocker / "castra.sqlite3")


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    """These tests are about the SQLite file itself (its opening, backups, WAL): that engine
    only (the club server's opening is in tests/server)."""
    s = open_store(db_path)
    yield s
    s.close()
