"""Issue 21: SQLite's locks survive whatever else Castra's process does with the store's files.

SQLite locks with POSIX advisory locks, and closing *any* descriptor of a file drops all of a
process's locks on it. Here a descriptor is opened and closed by hand (what Qt's file dialog
did), another process then writes to the store and closes it (``castra roster rename``: it
believed it was the last user, checkpointed and deleted the ``-wal``), and the writes that
follow must all be in the store as another process reads it. Also: the second defence (a
``-wal`` deleted or replaced under us is noticed before a write and after its commit), the
store's backup made by SQLite, and no Python-level open of a store file on the paths that used
to make one.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.roster import Roster
from app.core.rosterfile import RosterFileError, export_file, read_file
from app.rules.registry import Registry
from app.store import StoreError, engine, open_store, save_roster, update_roster
from app.store import guard as guard_module
from app.store.engine import start_check

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX advisory locks")

ROOT = Path(__file__).resolve().parents[2]


def _other_process(db: Path, *args: str) -> str:
    """``castra ARGS`` in another process on the same store (it opens and closes it)."""
    env = dict(os.environ, CASTRA_DB=str(db), CASTRA_HOME=str(db.parent / "home"))
    out = subprocess.run(
        [sys.executable, "-m", "app", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def stored_names(db: Path) -> list[str]:
    """The rosters' names as a fresh process reads the store."""
    code = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "print('\\n'.join(r[0] for r in c.execute('SELECT name FROM roster ORDER BY id')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(db)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def drop_locks(db: Path, suffixes: tuple[str, ...] = ("",)) -> None:
    """What a file dialog sniffing the folder did: open and close the store's files (the
    database alone by default; ``-wal`` and ``-shm`` too with their suffixes)."""
    for suffix in suffixes:
        name = db.with_name(db.name + suffix)
        if name.exists():
            os.close(os.open(name, os.O_RDONLY))


def wal_identity(db: Path) -> tuple[int, int] | None:
    wal = db.with_name(db.name + "-wal")
    return (wal.stat().st_dev, wal.stat().st_ino) if wal.exists() else None


def checkpoint(db: Path) -> None:
    """Fold the ``-wal`` into the database file, from another process."""
    code = "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint')"
    subprocess.run([sys.executable, "-c", code, str(db)], check=True, timeout=60)


def _roster(full_roster: Roster, name: str) -> Roster:
    return replace(full_roster, name=name)


@pytest.mark.parametrize("suffixes", [("",), ("", "-wal", "-shm")], ids=["db", "all"])
def test_a_descriptor_closed_in_the_process_loses_no_write(
    db_path: Path, full_roster: Roster, suffixes: tuple[str, ...]
) -> None:
    """The issue's reproduction with roster saves: two writes, the files opened and closed,
    another process writes and closes the store, three more writes: all of them stored."""
    with open_store(db_path) as store:
        for n in range(2):
            save_roster(store, roster=_roster(full_roster, f"r{n}"))
        wal = wal_identity(db_path)
        drop_locks(db_path, suffixes)
        _other_process(db_path, "roster", "rename", "1", "elsewhere")
        for n in range(2, 5):
            save_roster(store, roster=_roster(full_roster, f"r{n}"))
        want = ["elsewhere", *(f"r{n}" for n in range(1, 5))]
        assert stored_names(db_path) == want
        assert wal_identity(db_path) == wal  # another process's close did not delete it
    assert stored_names(db_path) == want


def test_without_the_pin_a_lost_wal_refuses_the_next_write(
    db_path: Path, full_roster: Roster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A system without OFD locks: the other process's close deletes the ``-wal`` under us.
    The next write sees it and is refused in one line (a reset could delete a ``-wal`` another
    process left, by name), and nothing the other process wrote is lost."""
    monkeypatch.setattr(guard_module, "_ofd_lock", lambda *a, **k: False)
    with open_store(db_path) as store:
        save_roster(store, roster=_roster(full_roster, "before"))
        wal = wal_identity(db_path)
        drop_locks(db_path)
        _other_process(db_path, "roster", "rename", "1", "elsewhere")
        assert wal_identity(db_path) != wal  # it happened: ours is a deleted file
        refused = r"castra\.sqlite3-(wal|shm) was .*nothing was saved"
        with pytest.raises(StoreError, match=refused) as e:
            save_roster(store, roster=_roster(full_roster, "after"))
        assert "\n" not in str(e.value)
        assert stored_names(db_path) == ["elsewhere"]


def test_a_wal_deleted_during_a_write_is_said_not_saved(db_path: Path, full_roster: Roster) -> None:
    """Another program deletes the ``-wal`` and ``-shm`` while a write is in its
    transaction: the commit went to deleted files, so the write raises StoreError naming what
    happened, and the store (read by another process) holds what it says; the next write is
    stored."""
    with open_store(db_path) as store:
        rid = save_roster(store, roster=_roster(full_roster, "first"))
        checkpoint(db_path)  # "first" in the database file: deleting the -wal loses nothing
        from app.store.models import RosterRow

        said = r"castra\.sqlite3-(wal|shm) was deleted.*not saved"
        with pytest.raises(StoreError, match=said), store.session() as session:
            row = session.get(RosterRow, rid)
            assert row is not None
            row.name = "lost"
            session.add(row)
            session.flush()
            for suffix in ("-wal", "-shm"):
                db_path.with_name(db_path.name + suffix).unlink()
        assert stored_names(db_path) == ["first"]
        save_roster(store, roster=_roster(full_roster, "second"))
        assert stored_names(db_path) == ["first", "second"]


def test_a_store_file_moved_away_refuses_writes(
    db_path: Path, full_roster: Roster, tmp_path: Path
) -> None:
    """The database itself replaced under the open store (a backup moved over it): writes are
    refused in one line instead of going to a file the user no longer sees."""
    with open_store(db_path) as store:
        save_roster(store, roster=_roster(full_roster, "mine"))
        elsewhere = tmp_path / "moved.sqlite3"
        db_path.rename(elsewhere)
        with closing(sqlite3.connect(db_path)) as con:
            con.execute("CREATE TABLE other (x)")
        with pytest.raises(StoreError, match="moved, replaced or deleted") as err:
            save_roster(store, roster=_roster(full_roster, "nowhere"))
        assert "\n" not in str(err.value)


# --------------------------------------------------------------------------- no raw opens

_WATCHED: list[set[str]] = []


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event == "open" and _WATCHED and args and isinstance(args[0], str | bytes | os.PathLike):
        name = os.fsdecode(args[0])
        if any(name.startswith(p) for p in _WATCHED[-1]):
            raise AssertionError(f"Castra's process opened {name} by itself")


sys.addaudithook(_audit)


@contextmanager
def no_python_opens(db: Path) -> Iterator[None]:
    """Any Python-level ``open``/``os.open`` of the store's files inside fails the test
    (SQLite's own opens are C calls, not audited)."""
    _WATCHED.append({str(db), str(db.resolve())})
    try:
        yield
    finally:
        _WATCHED.pop()


def _old_file(db: Path) -> None:
    from alembic import command

    from app.store.engine import _alembic_config, migration_engine

    engine = migration_engine(db)
    with engine.begin() as conn:
        command.upgrade(_alembic_config(conn), "0007")
    engine.dispose()


def test_the_backup_before_a_migration_is_made_by_sqlite(db_path: Path) -> None:
    """The copy before an upgrade used to be a file copy (open, read, close the store: its
    connection's locks dropped mid-copy). Now SQLite's backup: no Python open of the file,
    and the copy is a database holding what the file held."""
    _old_file(db_path)
    with no_python_opens(db_path):
        backup = engine._backup(db_path, "0007")
    with closing(sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)) as c:
        assert c.execute("SELECT version_num FROM alembic_version").fetchall() == [("0007",)]


def test_probes_of_an_open_store_do_not_open_its_files(db_path: Path, full_roster: Roster) -> None:
    """With the store open in this process: opening it again, the early check and reads read
    no header, no ``-shm`` lock state, nothing, but through SQLite."""
    with open_store(db_path) as store:
        save_roster(store, roster=_roster(full_roster, "a"))
        with no_python_opens(db_path):
            assert start_check(db_path) is None
            with open_store(db_path) as again:
                save_roster(again, roster=_roster(full_roster, "b"))
            from app.store.read import list_rosters

            assert [s.name for s in list_rosters(store)] == ["a", "b"]


def test_the_store_cannot_be_imported_or_overwritten_as_a_file(
    db_path: Path, full_roster: Roster, tiny_registry: Registry, tmp_path: Path
) -> None:
    """Reading the store as a roster file (a user picking it in the import dialog) and
    writing an export over it are refused in one line before the file is opened."""
    with open_store(db_path) as store:
        save_roster(store, roster=_roster(full_roster, "kept"))
        before = stored_names(db_path)
        for name in (db_path, db_path.with_name(db_path.name + "-wal")):
            with no_python_opens(db_path), pytest.raises(RosterFileError) as err:
                read_file(name, tiny_registry)
            assert "Castra's own store" in str(err.value) and "\n" not in str(err.value)
        link = tmp_path / "link.json"
        link.symlink_to(db_path)
        with no_python_opens(db_path), pytest.raises(OSError, match="Castra's own store"):
            export_file(full_roster, link)
        with pytest.raises(OSError, match="Castra's own store"):
            export_file(full_roster, db_path)
        update_roster(store, roster_id=1, change=lambda r: replace(r, name="still here"))
        assert stored_names(db_path) == ["still here"] and before == ["kept"]
