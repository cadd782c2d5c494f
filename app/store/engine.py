"""Opening the SQLite store: where the file lives, engine set-up, backup-then-migrate.

Start-up follows Vorta (``store/connection.py``): before a schema upgrade the user's file is
copied beside itself, so a failed or unwanted upgrade can always be undone by hand. A file
made by a newer Castra, or one that is not a healthy SQLite database, is refused and left
exactly as it was: it is only ever opened read-only until we know we may change it.

The fast path (a file already at :data:`SCHEMA_HEAD`) does not import Alembic at all; the
app opens the store at start and the window must be usable within a second.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL
from sqlmodel import Session

from app.paths import data_dir

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.engine import Connection

#: The newest schema revision in ``db/versions``; a test checks it against Alembic's head.
SCHEMA_HEAD = "0003"
#: The Alembic folder (``env.py``, ``versions/``), found from this file, not the current dir.
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "db"
BUSY_TIMEOUT_MS = 5000
_SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreError(Exception):
    """The store cannot be opened; the message names the file and says what to do."""


def default_path() -> Path:
    """``$CASTRA_DB`` if set, else ``castra.sqlite3`` in the user data folder."""
    env = os.environ.get("CASTRA_DB")
    if env:
        return Path(env).expanduser()
    return data_dir() / "castra.sqlite3"


@dataclass
class Store:
    """An open store. Use :meth:`session` for each unit of work (one transaction)."""

    path: Path
    engine: Engine
    #: The schema revision of the file after opening (None only with ``migrate=False``).
    revision: str | None = None
    #: The copy made before an upgrade at this opening, if there was one.
    backup: Path | None = None
    _closed: bool = field(default=False, repr=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        with Session(self.engine, expire_on_commit=False) as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every pooled connection (SQLite then folds the WAL back into the file)."""
        if not self._closed:
            self.engine.dispose()
            self._closed = True


# --------------------------------------------------------------------------- engines


def _make_engine(path: Path, *, foreign_keys: bool) -> Engine:
    engine = create_engine(URL.create("sqlite", database=str(path)))

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module (it skips it before DDL and SELECT) and emit
        # it ourselves below, so that a session and a migration are each one real transaction.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL").fetchall()
            cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")

    return engine


def make_engine(path: Path) -> Engine:
    """The app's engine: WAL journal, foreign keys enforced, a busy timeout."""
    return _make_engine(path, foreign_keys=True)


def migration_engine(path: Path) -> Engine:
    """An engine for migrations: foreign keys OFF, because a batch migration rebuilds a table
    by dropping it, and with foreign keys on that drop would cascade into its child rows.
    (``PRAGMA foreign_keys`` cannot change inside a transaction, so it is set per connection.)
    The upgrade ends with ``PRAGMA foreign_key_check``."""
    return _make_engine(path, foreign_keys=False)


# --------------------------------------------------------------------------- opening


def open_store(path: Path | None = None, *, migrate: bool = True) -> Store:
    """Open (creating if needed) the store at ``path`` or :func:`default_path`.

    A file that is not a healthy SQLite database, or whose schema is newer than this Castra
    knows, raises :class:`StoreError` and is not changed. A file behind :data:`SCHEMA_HEAD`
    is copied to ``<name>.bak-<revision>-<time>`` and upgraded (``migrate=False`` opens it
    as it is, for tools and tests). A new file is created at the head revision."""
    path = Path(path) if path is not None else default_path()
    revisions = _probe(path)
    if revisions is not None and set(revisions) != {SCHEMA_HEAD}:
        _refuse_unknown(path, revisions)
    backup: Path | None = None
    revision: str | None = SCHEMA_HEAD
    if revisions is None or set(revisions) != {SCHEMA_HEAD}:
        current = revisions[0] if revisions else None
        if migrate:
            if revisions is not None:  # an existing file: copy it first
                backup = _backup(path, current)
            _upgrade(path, current, backup)
        else:
            revision = current
    return Store(path=path, engine=make_engine(path), revision=revision, backup=backup)


def _probe(path: Path) -> list[str] | None:
    """The file's Alembic revisions ([] for an SQLite file without them), or None when there
    is no database yet. Reads the file read-only; raises StoreError if it is unusable."""
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            return None
        if not path.is_file():
            raise StoreError(f"{path} is not a file; the Castra database must be a file")
        if path.stat().st_size == 0:
            return None
        with path.open("rb") as fh:
            header = fh.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"cannot use {path} for the Castra database: {exc}") from None
    if header != _SQLITE_MAGIC:
        raise StoreError(
            f"{path} is not a Castra database (it is not an SQLite file); "
            "the file was not changed. Move it away or set CASTRA_DB to another file."
        )
    try:
        with closing(_reader(path)) as con:
            rows = con.execute("PRAGMA quick_check").fetchall()
            if rows != [("ok",)]:
                detail = "; ".join(str(r[0]) for r in rows[:3])
                raise StoreError(
                    f"{path} is damaged (SQLite integrity check: {detail}); the file was not "
                    "changed. Restore a backup (castra.sqlite3.bak-*) or move it away."
                )
            has_version = con.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
            ).fetchone()
            if not has_version:
                return []
            return [str(r[0]) for r in con.execute("SELECT version_num FROM alembic_version")]
    except sqlite3.DatabaseError as exc:
        raise StoreError(
            f"{path} cannot be read as a Castra database ({exc}); the file was not changed. "
            "Restore a backup (castra.sqlite3.bak-*) or move it away."
        ) from None


def _reader(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the main file. Where a ``-wal`` file holds content
    (a crash, or another program writing), open read-only so that closing cannot fold it into
    the file. Otherwise a read-only *query* connection: SQLite then removes the ``-wal`` and
    ``-shm`` files it made when it closes (a ``mode=ro`` connection would leave them behind)."""
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    con = sqlite3.connect(path)
    con.execute("PRAGMA query_only=ON")
    return con


def _known_revisions() -> tuple[set[str], str]:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(_alembic_config())
    return {r.revision for r in script.walk_revisions()}, str(script.get_current_head())


def _refuse_unknown(path: Path, revisions: list[str]) -> None:
    known, head = _known_revisions()
    unknown = [r for r in revisions if r not in known]
    if unknown:
        raise StoreError(
            f"{path} was made by a newer version of Castra (schema {', '.join(unknown)}); "
            f"this version knows up to {head}; the file was not changed. "
            "Update Castra, or set CASTRA_DB to use another file."
        )


def _alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    cfg.set_main_option("path_separator", "os")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def backup_name(path: Path, revision: str | None, when: datetime | None = None) -> Path:
    """``castra.sqlite3.bak-0001-20250101-120000`` beside the file (``empty`` when the file
    had no schema revision); a counter is added if that name is taken."""
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = path.with_name(f"{path.name}.bak-{revision or 'empty'}-{stamp}")
    candidate, n = base, 1
    while candidate.exists():
        candidate = base.with_name(f"{base.name}-{n}")
        n += 1
    return candidate


def _backup(path: Path, revision: str | None) -> Path:
    """Copy the whole database (WAL content included) to a backup file beside it."""
    target = backup_name(path, revision)
    partial = target.with_name(target.name + ".partial")
    try:
        with closing(sqlite3.connect(path, isolation_level=None, timeout=5)) as con:
            # Fold any WAL content into the main file, then hold the write lock while copying
            # so that nobody changes the file under the copy.
            busy = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            con.execute("BEGIN IMMEDIATE")
            try:
                wal = path.with_name(path.name + "-wal")
                if busy or (wal.exists() and wal.stat().st_size > 0):
                    raise StoreError(
                        f"{path} is in use by another program; close it and start Castra again"
                    )
                shutil.copyfile(path, partial)
            finally:
                con.execute("ROLLBACK")
        partial.replace(target)
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        raise StoreError(
            f"could not back up {path} before upgrading it ({exc}); the file was not changed"
        ) from None
    return target


def _upgrade(path: Path, current: str | None, backup: Path | None) -> None:
    """``alembic upgrade head`` on ``path``, in one transaction with foreign keys off."""
    from alembic import command

    engine = migration_engine(path)
    try:
        with engine.begin() as conn:
            command.upgrade(_alembic_config(conn), "head")
            problems = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise StoreError(f"foreign key check failed after the upgrade: {problems[:3]}")
    except Exception as exc:
        where = f"; the file from before is saved as {backup}" if backup is not None else ""
        raise StoreError(
            f"could not upgrade {path} from schema {current or 'empty'} to {SCHEMA_HEAD}: "
            f"{exc}{where}"
        ) from exc
    finally:
        engine.dispose()
