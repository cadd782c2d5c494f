"""Opening the store: a local SQLite file (where it lives, engine set-up, backup-then-migrate)
or a club's PostgreSQL server (:mod:`app.store.server`), chosen by the store's URL.

Start-up follows Vorta (``store/connection.py``): before a schema upgrade the user's file is
copied beside itself, so a failed or unwanted upgrade can always be undone by hand. A file
made by a newer Castra, or one that is not a healthy SQLite database, is refused and left
exactly as it was: it is only ever opened read-only until we know we may change it.

The fast path (a file already at :data:`SCHEMA_HEAD`) does not import Alembic, nor
SQLAlchemy: the engine is made on first use (reads go through :mod:`app.store.read`, plain
``sqlite3``), so the window opens and shows the library without the ORM.

Every session that writes begins with ``BEGIN IMMEDIATE``: it takes the write lock at once
(waiting up to :data:`BUSY_TIMEOUT_MS` for another writer), so two processes never both
read a row and then overwrite each other. Failures of the database (locked, read-only, a full
disk, damaged content) become :class:`StoreError` with one line saying what happened.

A ``postgresql://`` URL (``CASTRA_DB`` or ``--store``) opens a club server instead: the same
tables and migrations, each member connecting as their own role, with the database's
row-level security deciding what they may change (:mod:`app.store.server`). Opening one and
reading from it go through psycopg2 alone (:class:`PgReader`); SQLAlchemy is imported for the
first write, as on a file. Nothing above ``app.store`` knows which engine it has.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from app import bundled
from app.paths import data_dir
from app.store.guard import FileGuard, acquire, release, users
from app.storefiles import protect_store

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy import Engine
    from sqlalchemy.engine import Connection
    from sqlmodel import Session

#: The newest schema revision in ``db/versions``; a test checks it against Alembic's head.
SCHEMA_HEAD = "0012"
#: The Alembic folder (``env.py``, ``versions/``): the checkout's ``db/`` or the installed copy.
MIGRATIONS_DIR = bundled.MIGRATIONS_DIR
BUSY_TIMEOUT_MS = 5000
#: A store at most this big is checked (``PRAGMA quick_check``) at every opening, which
#: costs milliseconds; a bigger one only after an unclean shutdown, before a migration, or on
#: request (``castra store check``).
QUICK_CHECK_MAX_BYTES = 8_000_000
#: Below this much free space a store that SQLite cannot open is said to be on a full disk.
DISK_FULL_BYTES = 1_000_000
_SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreError(Exception):
    """The store cannot be opened or used; the message names the file and says what to do."""


class StoreDamaged(StoreError):
    """Content that passes SQLite's checks but cannot be read as Castra data (bad JSON in a
    column, an unknown status): the message names the roster or battle and the column."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"the store holds damaged data: {what}; it was left as it is (restore a backup, "
            "castra.sqlite3.bak-*, or delete that roster or battle)"
        )


class AccessRefused(StoreError):
    """The club server refused a change this member may not make (another player's roster,
    a result only an umpire records): nothing was written."""


class StaleWrite(StoreError):
    """A write based on a copy that was changed elsewhere since it was read (another window,
    the command line): refused, nothing written; the caller reloads."""


def describe_failure(path: Path, exc: BaseException) -> str:
    """One line for a database failure, saying what it means for the user."""
    text = str(getattr(exc, "orig", None) or exc).splitlines()[0] if str(exc) else repr(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        return (
            f"the store {path} is busy: another Castra window or command is writing to it "
            f"(waited {BUSY_TIMEOUT_MS / 1000:g} s); nothing was saved, try again"
        )
    if "readonly" in low or "read-only" in low:
        return (
            f"the store {path} is read-only (the file or its folder cannot be written); "
            "nothing was saved"
        )
    if "full" in low:
        return f"the disk holding {path} is full; nothing was saved"
    if "disk i/o" in low:
        return (
            f"could not write {path} ({text}: a full disk, a file size limit or a failing "
            "drive); nothing was saved"
        )
    if "malformed" in low or "not a database" in low or "corrupt" in low:
        return (
            f"the store {path} is damaged ({text}); restore a backup "
            "(castra.sqlite3.bak-*) or move it away"
        )
    return f"the store {path} failed: {text}"


#: The URL schemes that open a club server rather than a local file.
SERVER_SCHEMES = (
    "postgresql://",
    "postgres://",
    "postgresql+psycopg2://",
    "postgresql+psycopg://",
)


def is_server_url(text: str) -> bool:
    """Whether a store location names a PostgreSQL server rather than a SQLite file."""
    return text.strip().lower().startswith(SERVER_SCHEMES)


def default_location() -> str | Path:
    """``$CASTRA_DB`` if set (a ``postgresql://`` URL or a SQLite file path), else
    ``castra.sqlite3`` in the user data folder."""
    env = os.environ.get("CASTRA_DB")
    if env and is_server_url(env):
        return env.strip()
    return default_path()


def default_path() -> Path:
    """The local store's file: ``$CASTRA_DB`` if it is a path, else ``castra.sqlite3`` in the
    user data folder (also when ``$CASTRA_DB`` names a server: the local store stays there)."""
    env = os.environ.get("CASTRA_DB")
    if env and not is_server_url(env):
        return Path(env).expanduser()
    return data_dir() / "castra.sqlite3"


class Rows(Protocol):
    """What a read query gives back (a ``sqlite3`` cursor, or SQLAlchemy's result)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Reader(Protocol):
    """A connection inside one transaction that runs the store's portable read queries (``?``
    placeholders): a ``sqlite3`` connection, or :class:`ServerReader` on a club server."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Rows: ...


def get_for_update(session: Session, model: type[Any], ident: object, what: str) -> Any:
    """The row of ``model`` with key ``ident``, locked until the transaction ends (``FOR
    UPDATE`` on a server, where two members' read-check-write must not interleave; SQLite's
    writer holds the database lock already), or None if there is none. A row the member may
    read but not change (a server's policies hide it from ``FOR UPDATE``) raises
    :class:`AccessRefused` naming ``what``."""
    row = session.get(model, ident, with_for_update=True)
    if row is None and session.get(model, ident) is not None:
        member = session.info.get("member") or "this member"
        raise AccessRefused(
            f"the club server refused: {member} may not change {what}; nothing was saved"
        )
    return row


def reader_of(session: Session) -> Reader:
    """The read queries' connection inside ``session``'s transaction, either engine."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        return ServerReader(conn)
    con = conn.connection.dbapi_connection
    assert isinstance(con, sqlite3.Connection)
    return con


class ServerReader:
    """The read queries of :mod:`app.store.read` on a SQLAlchemy connection to a server (its
    driver takes ``%s`` placeholders where SQLite takes ``?``)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, parameters: Any = (), /) -> Rows:
        return self._conn.exec_driver_sql(sql.replace("?", "%s"), tuple(parameters))


class PgReader:
    """The read queries of :mod:`app.store.read` on a psycopg2 connection to a club server,
    without SQLAlchemy (psycopg2 takes ``%s`` placeholders where SQLite takes ``?``). Each
    query gets a cursor of its own, as ``sqlite3.Connection.execute`` gives."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, parameters: Any = (), /) -> Rows:
        cursor = self._conn.cursor()
        cursor.execute(sql.replace("?", "%s"), tuple(parameters))
        rows: Rows = cursor
        return rows


#: Idle psycopg2 connections a club server's store keeps for its reads (as many as the
#: engine's pool keeps).
_IDLE_READERS = 4


@dataclass
class Store:
    """An open store. Use :meth:`session` for each unit of work (one transaction) that
    writes, :meth:`read_session` for ORM reads; :mod:`app.store.read` reads without the
    ORM."""

    path: Path
    #: The schema revision of the file after opening (None only with ``migrate=False``).
    revision: str | None = None
    #: The copy made before an upgrade at this opening, if there was one.
    backup: Path | None = None
    #: A club server's URL (no password: libpq finds it), None for a local file.
    url: str | None = None
    #: Who writes: the member's database role on a club server, None locally.
    member: str | None = None
    #: A local file Castra may read but not write (a read-only file, folder or mount):
    #: reads work, every write is refused in one line.
    read_only: bool = False
    _engine: Engine | None = field(default=None, repr=False)
    _closed: bool = field(default=False, repr=False)
    #: the pin and check of a local file's locks, shared with this process's other stores of it
    _guard: FileGuard | None = field(default=None, repr=False)
    #: a club server's address as given (``url`` is as shown): what connections are made to
    _dsn: str | None = field(default=None, repr=False)
    #: a club server's idle psycopg2 connections for reads (:meth:`take`, :meth:`give_back`)
    _idle: list[Any] = field(default_factory=list, repr=False)
    _idle_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.url is None and not self.read_only:  # nothing can change a read-only one
            self._guard = acquire(self.path)
            self._guard.add_reset(id(self), self._drop_engine)
            protect_store(self.path, on=True)
            self._guard.observe(files=False)

    def pin_files(self) -> None:
        """Pin the store's files while a short-lived reading connection has them open (only
        the engine's lasting connections note the files for :meth:`check_files`)."""
        if self._guard is not None:
            self._guard.observe(files=True)

    @property
    def on_server(self) -> bool:
        """Whether this is a club server (PostgreSQL) rather than a local file."""
        return self.url is not None

    @property
    def where(self) -> str:
        """The store as shown to the user: the file, or the server's URL."""
        return self.url if self.url is not None else str(self.path)

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine, made (and SQLAlchemy imported) on first use."""
        if self._engine is None:
            if self.url is not None:
                from app.store.server import server_engine

                self._engine = server_engine(self._dsn or self.url)
            else:
                self._engine = _make_engine(self.path, foreign_keys=True, read_only=self.read_only)
        return self._engine

    def take(self) -> Any:
        """A club server's psycopg2 connection for one read transaction: an idle one, or a
        new one (``psycopg2.Error`` when the server cannot be reached). Hand it back with
        :meth:`give_back`, or close it."""
        with self._idle_lock:
            if self._idle:
                return self._idle.pop()
        from app.store.server import connect

        return connect(self._dsn or self.where)

    def give_back(self, conn: Any) -> None:
        """A connection :meth:`take` gave, its transaction ended, kept for the next read
        (closed instead when the store is closed or enough are kept)."""
        with self._idle_lock:
            if not self._closed and len(self._idle) < _IDLE_READERS:
                self._idle.append(conn)
                return
        conn.close()

    def forget_readers(self) -> None:
        """Close every idle read connection (after a connection failed: the others most
        likely lost the server too)."""
        with self._idle_lock:
            idle, self._idle[:] = list(self._idle), []
        for conn in idle:
            conn.close()

    def reader(self, session: Session) -> Reader:
        """The read queries' connection inside ``session``'s transaction."""
        return reader_of(session)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One write transaction (``BEGIN IMMEDIATE``): committed when the block ends, rolled
        back if it raises. A database failure raises :class:`StoreError`; so does a write
        to a read-only store, before anything is done."""
        if self.read_only:
            raise StoreError(
                f"the store {self.path} is read-only (the file or its folder cannot be "
                "written): it opens for reading only; nothing was saved"
            )
        with self._session(write=True) as session:
            yield session

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """One read transaction (a plain ``BEGIN``: no write lock, readers never wait)."""
        with self._session(write=False) as session:
            yield session

    @contextmanager
    def rehearsal(self) -> Iterator[Session]:
        """A write transaction that is always rolled back, and is taken only if no other
        writer holds the store at this moment (it never waits for one: a busy store raises
        :class:`StoreError` at once). Nothing done in it reaches the store's files: it is
        for running a write's statements so that SQLAlchemy has compiled them before the
        user's first write (:func:`app.store.prepare.warm_writes`). A local file only."""
        if self.read_only or self.url is not None:
            raise StoreError("only a local store that can be written holds a rehearsal")
        with self._session(write=True, keep=False) as session:
            yield session

    @contextmanager
    def _session(self, *, write: bool, keep: bool = True) -> Iterator[Session]:
        """One transaction; with ``keep`` false it is rolled back at the end (and, a write,
        takes the write lock only if it is free now)."""
        from sqlalchemy.exc import DBAPIError, IntegrityError
        from sqlalchemy.orm.exc import StaleDataError
        from sqlmodel import Session

        self.check_files()
        try:
            with self.engine.connect() as conn:
                if not keep:  # never wait for another writer; the engine's timeout after
                    _busy_timeout(conn, 0)
                try:
                    conn = conn.execution_options(castra_write=write)
                    info = {"member": self.member}
                    with Session(bind=conn, expire_on_commit=False, info=info) as session:
                        try:
                            yield session
                            if keep:
                                session.commit()
                            else:
                                session.rollback()
                        except BaseException:
                            session.rollback()
                            raise
                finally:
                    if not keep:
                        _busy_timeout(conn, BUSY_TIMEOUT_MS)
                if self._guard is not None:
                    self._guard.observe(files=True, note=True)
        except IntegrityError:
            raise  # a broken constraint is a bug in the caller, not the user's problem
        except StaleDataError:
            # A server's row-level security hides a row from an UPDATE this member may not
            # make: it matches nothing (the transaction was rolled back).
            raise AccessRefused(self._refused()) from None
        except DBAPIError as exc:
            if self.url is not None:
                from app.store.server import describe_server_failure, is_refusal

                if is_refusal(exc):
                    raise AccessRefused(self._refused(exc)) from None
                raise StoreError(describe_server_failure(self.url, exc)) from None
            raise StoreError(describe_failure(self.path, exc)) from None
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise StoreError(describe_failure(self.path, exc)) from None
        if write and keep:
            self._check_written()

    def check_files(self) -> None:
        """Before a transaction: the store's files at their paths are still those this process
        opened (:mod:`app.store.guard`). A database file moved, replaced or deleted raises
        :class:`StoreError` (nothing is written to a file the user no longer sees). A ``-wal``
        or ``-shm`` deleted or replaced by another program resets this process's connections,
        so that nothing is read from or written to a deleted file, where the store is pinned;
        without the pin (a system without OFD locks) a reset could delete another process's
        ``-wal`` by name, so the transaction is refused instead."""
        guard = self._guard
        if guard is None:
            return
        lost = guard.lost()
        if lost is None:
            return
        if not self.path.exists() or lost.startswith(self.path.name + " "):
            raise StoreError(
                f"the store {self.path} was moved, replaced or deleted by another program "
                "while Castra had it open; nothing was saved. Close this window and open the "
                "store again"
            )
        if not guard.pinned:
            raise StoreError(self._unpinned(lost, "nothing was saved"))
        guard.reset()

    def _check_written(self) -> None:
        """After a write's commit: were the files lost *during* the transaction, the commit
        went to a deleted ``-wal``. Say so (never a silent loss), after resetting."""
        guard = self._guard
        if guard is None:
            return
        lost = guard.lost()
        if lost is None:
            return
        if not guard.pinned:
            raise StoreError(self._unpinned(lost, "this change may not have been saved"))
        guard.reset()
        raise StoreError(
            f"{lost} while this change was being written to {self.path.name}: it was not "
            "saved; Castra reopened the store, try again"
        )

    def _unpinned(self, lost: str, outcome: str) -> str:
        return (
            f"{lost} while Castra had {self.path.name} open (another program in this process "
            f"dropped Castra's locks on it); {outcome}. Close Castra and start it again"
        )

    def _drop_engine(self) -> None:
        """Close this store's connections (a new engine is made on next use)."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def _refused(self, exc: BaseException | None = None) -> str:
        detail = ""
        if exc is not None:
            detail = f" ({str(getattr(exc, 'orig', exc)).splitlines()[0]})"
        return (
            f"the club server refused this change: {self.member or 'this member'} may not "
            f"make it{detail}; nothing was saved"
        )

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every pooled connection (SQLite then folds the WAL back into the file)."""
        if self._closed:
            return
        self._closed = True
        guard = self._guard
        if guard is None:
            self.forget_readers()
            if self._engine is not None:
                self._engine.dispose()
            return
        guard.remove_reset(id(self))
        protect_store(self.path, on=False)
        release(guard, self._drop_engine)


# --------------------------------------------------------------------------- engines


def _make_engine(path: Path, *, foreign_keys: bool, read_only: bool = False) -> Engine:
    from sqlalchemy import create_engine, event
    from sqlalchemy.engine import URL

    if read_only:
        engine = create_engine(
            URL.create("sqlite", database=read_only_uri(path), query={"uri": "true"})
        )
    else:
        engine = create_engine(URL.create("sqlite", database=str(path)))

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module (it skips it before DDL and SELECT) and emit
        # it ourselves below, so that a session and a migration are each one real transaction.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            # the busy timeout first: making a new file WAL takes the write lock, which a
            # command started at the same moment may hold (it waits, as for any writer)
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not read_only:
                cursor.execute("PRAGMA journal_mode=WAL").fetchall()
            cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A writer takes the write lock at once: a deferred transaction that reads and then
        # writes cannot wait for another writer (SQLite answers SQLITE_BUSY at once).
        write = conn.get_execution_options().get("castra_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _busy_timeout(conn: Connection, ms: int) -> None:
    """Set how long SQLite waits for another writer on ``conn``'s database connection."""
    dbapi = conn.connection.dbapi_connection
    assert isinstance(dbapi, sqlite3.Connection)
    dbapi.execute(f"PRAGMA busy_timeout={int(ms)}")


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


def open_store(
    path: Path | str | None = None,
    *,
    migrate: bool = True,
    check: bool = False,
    early: EarlyCheck | None = None,
) -> Store:
    """Open (creating if needed) the store at ``path`` or :func:`default_location`.

    A ``postgresql://`` URL opens a club server (:func:`app.store.server.open_server`: set
    up by ``castra server init``, never migrated by a member). Otherwise, a SQLite file:

    A file that is not a healthy SQLite database, that is another program's database, whose
    schema is newer than this Castra knows, or that is read-only, raises :class:`StoreError`
    and is not changed. A file behind :data:`SCHEMA_HEAD` is copied to
    ``<name>.bak-<revision>-<time>`` and upgraded (``migrate=False`` opens it as it is, for
    tools and tests). A new file is created at the head revision. ``check`` runs SQLite's
    integrity check whatever the file's size (see :data:`QUICK_CHECK_MAX_BYTES`); ``early``,
    that check already started on a thread (:func:`start_check`), is waited for instead of
    checking again."""
    where = path if path is not None else default_location()
    if isinstance(where, str) and is_server_url(where):
        from app.store.server import open_server

        return open_server(where)
    path = Path(where)
    if is_read_only(path):
        if early is not None and early.path == path:
            early.join()  # its answer is not used: the read-only opening checks for itself
        return _open_read_only(path, check=check)
    revisions = _probe(path, check=check, early=early)
    if revisions is not None and set(revisions) != {SCHEMA_HEAD}:
        _refuse_unknown(path, revisions)
    backup: Path | None = None
    revision: str | None = SCHEMA_HEAD
    if revisions is None or set(revisions) != {SCHEMA_HEAD}:
        current = revisions[0] if revisions else None
        if migrate:
            if revisions is not None:  # an existing file: check it whole, then copy it
                _quick_check(path)
                backup = _backup(path, current)
            _upgrade(path, current, backup)
        else:
            revision = current
    return Store(path=path, revision=revision, backup=backup)


def _probe(path: Path, *, check: bool = False, early: EarlyCheck | None = None) -> list[str] | None:
    """The file's Alembic revisions, or None when there is no database yet. Reads the file
    read-only; raises StoreError if it is unusable, read-only, or another program's."""
    if early is not None and early.path == path:
        # The early check's connection is not counted in users(): let it end before the
        # header is read below (closing that descriptor would drop its lock on the file).
        early.join()
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            _refuse_read_only(path.parent, path)
            return None
        if not path.is_file():
            raise StoreError(f"{path} is not a file; the Castra database must be a file")
        _refuse_read_only(path, path)
        _refuse_read_only(path.parent, path)
        size = path.stat().st_size
        if size == 0:
            return None
        header = _SQLITE_MAGIC
        if users(path) == 0:
            # Closing any descriptor of a file drops every POSIX lock this process holds on
            # it, SQLite's included: read the header only when we have no connection open.
            with path.open("rb") as fh:
                header = fh.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"cannot use {path} for the Castra database: {exc}") from None
    if header != _SQLITE_MAGIC:
        raise _not_sqlite(path)
    if early is not None and early.path == path:
        early.wait()  # raises what the check found
    elif check or size <= QUICK_CHECK_MAX_BYTES or _unclean(path):
        _quick_check(path)
    try:
        with closing(_reader(path)) as con:
            names = {
                str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if "alembic_version" not in names:
                if names - {"sqlite_sequence"}:
                    # Castra has stamped its files since its first schema: tables without a
                    # stamp are another program's, which we must not migrate.
                    shown = ", ".join(sorted(names)[:5])
                    raise StoreError(
                        f"{path} is not a Castra database (another program's SQLite file, with "
                        f"tables {shown}); the file was not changed. Move it away or set "
                        "CASTRA_DB to another file."
                    )
                return []
            return [str(r[0]) for r in con.execute("SELECT version_num FROM alembic_version")]
    except sqlite3.DatabaseError as exc:
        raise _unreadable(path, exc) from None


#: What SQLite says of a file whose content is damaged (only then is a backup advised).
_DAMAGE_WORDS = ("malformed", "not a database", "corrupt", "encrypted")


def _unreadable(path: Path, exc: sqlite3.DatabaseError) -> StoreError:
    """The error for a file SQLite could not read: restoring a backup is advised only when
    SQLite says the content is damaged; a full disk (SQLite cannot make the small files
    beside the store that even a read needs) or a failing one is said as such."""
    text = str(exc)
    if any(word in text.lower() for word in _DAMAGE_WORDS):
        return StoreError(
            f"{path} cannot be read as a Castra database ({text}); the file was not changed. "
            "Restore a backup (castra.sqlite3.bak-*) or move it away."
        )
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        free = None
    if "full" in text.lower() or (free is not None and free < DISK_FULL_BYTES):
        shown = "" if free is None else f" ({free // 1024:,} KB free)"
        return StoreError(
            f"the disk holding {path} is full{shown}: Castra cannot open the store, even to "
            "read it; free some space and try again. The store was not changed."
        )
    return StoreError(f"{describe_failure(path, exc)}; the store was not changed")


def _not_sqlite(path: Path) -> StoreError:
    return StoreError(
        f"{path} is not a Castra database (it is not an SQLite file); "
        "the file was not changed. Move it away or set CASTRA_DB to another file."
    )


def _damaged(path: Path, rows: list[Any]) -> StoreError:
    detail = "; ".join(str(r[0]) for r in rows[:3])
    return StoreError(
        f"{path} is damaged (SQLite integrity check: {detail}); the file was not "
        "changed. Restore a backup (castra.sqlite3.bak-*) or move it away."
    )


def is_read_only(path: Path) -> bool:
    """Whether ``path`` is a store file Castra may read but not write: the file, its folder
    or the file system they are on is read-only."""
    try:
        return path.is_file() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))
    except OSError:
        return False


def read_only_uri(path: Path) -> str:
    """The SQLite URI that reads a read-only store: ``mode=ro``, and ``immutable`` where its
    folder cannot be written (a read-only mount: SQLite could not make the ``-shm`` file a
    WAL read needs, and nothing can change the file there)."""
    uri = f"{path.resolve().as_uri()}?mode=ro"
    if not os.access(path.parent, os.W_OK):
        uri += "&immutable=1"
    return uri


def _open_read_only(path: Path, *, check: bool) -> Store:
    """A store that cannot be written, opened for reading: the same checks as a writable
    one (an SQLite file, Castra's, healthy), and its schema must be this Castra's (it cannot
    be upgraded)."""
    try:
        with path.open("rb") as fh:
            header = fh.read(len(_SQLITE_MAGIC))
        size = path.stat().st_size
    except OSError as exc:
        raise StoreError(f"cannot use {path} for the Castra database: {exc}") from None
    if header != _SQLITE_MAGIC:
        raise _not_sqlite(path)
    try:
        with closing(sqlite3.connect(read_only_uri(path), uri=True)) as con:
            if check or size <= QUICK_CHECK_MAX_BYTES:
                rows = con.execute("PRAGMA quick_check").fetchall()
                if rows != [("ok",)]:
                    raise _damaged(path, rows)
            names = {
                str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            revisions = (
                [str(r[0]) for r in con.execute("SELECT version_num FROM alembic_version")]
                if "alembic_version" in names
                else []
            )
    except sqlite3.DatabaseError as exc:
        raise _unreadable(path, exc) from None
    if revisions != [SCHEMA_HEAD]:
        _refuse_unknown(path, revisions)
        raise StoreError(
            f"the store {path} is read-only and at schema {', '.join(revisions) or 'none'}; "
            f"this Castra needs {SCHEMA_HEAD} and cannot upgrade a file it cannot write. "
            "Make it writable once, or set CASTRA_DB to another file."
        )
    return Store(path=path, revision=SCHEMA_HEAD, read_only=True)


def _refuse_read_only(target: Path, path: Path) -> None:
    if not os.access(target, os.W_OK):
        what = "folder" if target.is_dir() else "file"
        raise StoreError(
            f"the store {path} is read-only (its {what} cannot be written); Castra needs to "
            "write to it. Make it writable, or set CASTRA_DB to another file."
        )


def _quick_check(path: Path) -> None:
    """SQLite's quick check of the whole file; StoreError (the file untouched) if it fails."""
    try:
        with closing(_reader(path)) as con:
            rows = con.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        raise _unreadable(path, exc) from None
    if rows != [("ok",)]:
        raise _damaged(path, rows)


class EarlyCheck:
    """The quick check :func:`open_store` would make of a store file, started on a thread
    ahead of opening it: SQLite checks the file without holding Python's lock, so the
    window's start builds and shows the window on one core while the other checks the file
    (some 8 ms for a store of 3,000 rosters). :meth:`wait` gives its answer."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._error: StoreError | None = None
        # Not a daemon: a quit before the store is opened waits for the check to end.
        self._thread = threading.Thread(target=self._run, name="castra-store-check")
        self._thread.start()

    def _run(self) -> None:
        try:
            _quick_check(self.path)
        except StoreError as exc:
            self._error = exc
        except Exception as exc:  # an unreadable file: said when the store is opened
            self._error = StoreError(f"cannot use {self.path} for the Castra database: {exc}")

    def join(self) -> None:
        """Wait for the check to end (its answer is given by :meth:`wait`)."""
        self._thread.join()

    def wait(self) -> None:
        """Wait for the check; raises :class:`StoreError` when it found the file unusable."""
        self._thread.join()
        if self._error is not None:
            raise self._error


def start_check(where: Path | str | None = None) -> EarlyCheck | None:
    """Start the quick check that :func:`open_store` of ``where`` (default: the user's
    store) is due to make, or None when it makes none: a club server, a file not there
    yet or not an SQLite file (opening says why), a big file shut down cleanly, or a file
    this process already has open."""
    where = where if where is not None else default_location()
    if isinstance(where, str) and is_server_url(where):
        return None
    path = Path(where)
    try:
        if not path.is_file() or users(path) > 0:
            return None
        size = path.stat().st_size
        with path.open("rb") as fh:
            if fh.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
                return None
    except OSError:
        return None
    if size > QUICK_CHECK_MAX_BYTES and not _unclean(path):
        return None
    return EarlyCheck(path)


def integrity_check(path: Path) -> list[str]:
    """``PRAGMA integrity_check`` of the store (``["ok"]`` when healthy), read-only: the full
    check, on request (``castra store check``) and in the reliability tests."""
    read_only = is_read_only(path)
    con = sqlite3.connect(read_only_uri(path), uri=True) if read_only else _reader(path)
    with closing(con):
        return [str(r[0]) for r in con.execute("PRAGMA integrity_check").fetchall()]


def _unclean(path: Path) -> bool:
    """Whether the store was left by a process that did not close it: its ``-wal`` file
    holds content and no other process has the database open (SQLite keeps a shared lock on
    byte 128 of the ``-shm`` file while a connection is open). Where locks cannot be asked
    about, a non-empty ``-wal`` counts as unclean."""
    wal = path.with_name(path.name + "-wal")
    try:
        if not wal.exists() or wal.stat().st_size == 0:
            return False
    except OSError:
        return True
    if users(path) > 0:  # POSIX locks do not show our own
        return False
    shm = path.with_name(path.name + "-shm")
    try:
        import fcntl
        import struct

        fd = os.open(shm, os.O_RDONLY)
    except (ImportError, OSError):
        return True
    try:
        query = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, 128, 1, 0)
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
        lock_type = struct.unpack("hhqqi4x", answer)[0]
    except (OSError, struct.error):
        return True
    finally:
        os.close(fd)
    return bool(lock_type == fcntl.F_UNLCK)


def _reader(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the main file. Where a ``-wal`` file holds content
    left by a process that is gone (a crash), open read-only so that closing cannot fold it
    into the file. Otherwise a read-only *query* connection: SQLite then removes the
    ``-wal`` and ``-shm`` files it made when it closes, and it reads safely beside other
    processes writing (a ``mode=ro`` connection there fails with a disk I/O error)."""
    if _unclean(path):
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    con = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000)
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
    """Copy the whole database (WAL content included) to a backup file beside it, with
    SQLite's own backup (never by reading the file: closing another descriptor of it would
    drop the copying connection's locks, and a writer could change the file under the copy).
    """
    target = backup_name(path, revision)
    partial = target.with_name(target.name + ".partial")
    try:
        with closing(sqlite3.connect(path, isolation_level=None, timeout=5)) as con:
            busy = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            wal = path.with_name(path.name + "-wal")
            if busy or (wal.exists() and wal.stat().st_size > 0):
                raise StoreError(
                    f"{path} is in use by another program; close it and start Castra again"
                )
            with closing(sqlite3.connect(partial, isolation_level=None)) as copy:
                con.backup(copy)
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
        # BEGIN IMMEDIATE: the write lock first, waiting for another Castra creating or
        # upgrading the same file (commands started together on a store not made yet); once
        # it is ours, Alembic reads the revision in this transaction and does only what is
        # left (nothing, when the other made it)
        with engine.connect() as conn, conn.execution_options(castra_write=True).begin():
            command.upgrade(_alembic_config(conn), "head")
            problems = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise StoreError(f"foreign key check failed after the upgrade: {problems[:3]}")
    except Exception as exc:
        where = f"; the file from before is saved as {backup}" if backup is not None else ""
        # one line, never the SQL the driver puts in its message
        text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        said = describe_failure(path, exc) if "locked" in str(exc) else (text or [repr(exc)])[0]
        raise StoreError(
            f"could not upgrade {path} from schema {current or 'empty'} to {SCHEMA_HEAD}: "
            f"{said}{where}"
        ) from exc
    finally:
        engine.dispose()
