"""A club's shared store on PostgreSQL (issue 15): opening it as a member, setting it up
(``castra server init``) and adding members (``castra server add-member``).

The same tables and Alembic migrations as the local SQLite file; migration 0007 adds, on
PostgreSQL only, the members' group role and the row-level security policies that decide
what each member may change, so that a member with a SQL client of their own meets the same
refusals as the app. Each member connects as their own database role. Castra keeps no
password: the URL names none, and libpq finds it where the member keeps it (``~/.pgpass``,
``PGPASSWORD``, ``PGPASSFILE``, a service file).

A member never migrates the server: :func:`open_server` refuses a server whose schema is
not this Castra's, saying who can fix it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal

from app.store.engine import SCHEMA_HEAD, Store, StoreError, _alembic_config

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.engine import URL, Connection

#: Seconds to wait for a server to answer before saying it cannot be reached.
CONNECT_TIMEOUT_S = 5
#: The group role every member's role belongs to (created by migration 0007).
MEMBER_ROLE = "castra_member"
ROLES = ("player", "umpire")
Role = Literal["player", "umpire"]


def parse_url(url: str) -> URL:
    """The SQLAlchemy URL of a ``postgresql://`` store URL, on the psycopg 3 driver;
    :class:`StoreError` for one that cannot be read."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        raise StoreError(
            f"{url!r} is not a store URL (postgresql://USER@HOST:PORT/DATABASE)"
        ) from None
    if parsed.get_backend_name() not in ("postgresql", "postgres"):
        raise StoreError(f"{url!r} is not a PostgreSQL URL")
    if not parsed.database:
        raise StoreError(f"the URL {shown(url)} names no database (…/DATABASE at its end)")
    carried = _query_password(parsed)
    if carried:
        raise StoreError(
            f"the address {shown(url)} carries a password ({carried} in its query), which "
            "Castra would show and keep: put it in ~/.pgpass (or PGPASSWORD) and give the "
            "address without it"
        )
    return parsed.set(drivername="postgresql+psycopg")


def _query_password(parsed: URL) -> str | None:
    """The query key that carries a password (``password=``, or any option naming one), or
    None."""
    for key, value in parsed.query.items():
        values = value if isinstance(value, tuple) else (value,)
        if "password" in key.lower() or any("password" in v.lower() for v in values):
            return f"{key}=…"
    return None


def shown(url: str) -> str:
    """The URL as shown to the user: any password in it hidden."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        return "the URL given"
    hidden = {
        key: "***"
        for key, value in parsed.query.items()
        if "password" in key.lower()
        or any("password" in v.lower() for v in (value if isinstance(value, tuple) else (value,)))
    }
    rendered = parsed.update_query_dict(hidden).render_as_string(hide_password=True)
    return rendered.replace("%2A%2A%2A", "***")


def has_password(url: str) -> bool:
    """Whether a store URL carries a password, in its user part (``bob:pw@``) or its query
    (``?password=``, an option naming one): the window refuses to remember one (it belongs in
    ``~/.pgpass`` or ``PGPASSWORD``)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        return False
    return parsed.password is not None or _query_password(parsed) is not None


def server_engine(url: str) -> Engine:
    """An engine on the server: times in UTC, a short connect timeout, a small pool."""
    from sqlalchemy import create_engine

    return create_engine(
        parse_url(url),
        connect_args={
            "options": "-c timezone=UTC",
            "connect_timeout": CONNECT_TIMEOUT_S,
            "application_name": "castra",
        },
        pool_size=4,
        max_overflow=4,
    )


def describe_server_failure(url: str, exc: BaseException) -> str:
    """One line for a server's failure, naming the server and what happened."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    low = first.lower()
    where = shown(url)
    if "connection refused" in low or "could not connect" in low or "timeout" in low:
        return f"cannot reach the club server {where} ({first}); the local store is unchanged"
    if "password authentication failed" in low or "no password supplied" in low:
        return (
            f"the club server {where} refused the login ({first}); put the password in "
            "~/.pgpass or PGPASSWORD"
        )
    if "does not exist" in low and "database" in low:
        return f"the club server {where} has no such database ({first})"
    if "permission denied" in low:
        return f"the club server {where} refused: {first}; nothing was saved"
    return f"the club server {where} failed: {first}; nothing was saved"


def is_refusal(exc: BaseException) -> bool:
    """Whether a database error is the server refusing this member (SQLSTATE 42501:
    insufficient privilege, a row-level security policy)."""
    return getattr(getattr(exc, "orig", None), "sqlstate", None) == "42501"


@contextmanager
def _connected(url: str) -> Iterator[Connection]:
    """One connection and transaction on the server; failures become :class:`StoreError`."""
    from sqlalchemy.exc import DBAPIError

    engine = server_engine(url)
    try:
        with engine.begin() as conn:
            yield conn
    except DBAPIError as exc:
        raise StoreError(describe_server_failure(url, exc)) from None
    finally:
        engine.dispose()


def _revisions(conn: Connection) -> list[str] | None:
    """The server's schema revisions, or None when it has no Castra tables at all; a database
    holding other tables is refused (never migrated)."""
    import sqlalchemy as sa

    names = set(sa.inspect(conn).get_table_names())
    if "alembic_version" not in names:
        if names:
            listed = ", ".join(sorted(names)[:5])
            raise StoreError(
                f"that database is not a Castra club store (it holds tables {listed}); "
                "nothing was changed. Use an empty database."
            )
        return None
    version = sa.table("alembic_version", sa.column("version_num"))
    return [str(v) for v in conn.execute(sa.select(version.c.version_num)).scalars()]


def open_server(url: str) -> Store:
    """Open a club server as the member the URL (and libpq's environment) logs in as.

    Refused with a one-line :class:`StoreError` when the server cannot be reached or refuses
    the login, when the database was not set up (``castra server init``) or holds another
    schema revision than this Castra's. Nothing is written."""
    import sqlalchemy as sa

    engine = server_engine(url)
    from sqlalchemy.exc import DBAPIError

    try:
        with engine.connect() as conn:
            revisions = _revisions(conn)
            member = str(conn.execute(sa.select(sa.func.current_user())).scalar_one())
            conn.rollback()
    except DBAPIError as exc:
        engine.dispose()
        raise StoreError(describe_server_failure(url, exc)) from None
    except StoreError:
        engine.dispose()
        raise
    if revisions != [SCHEMA_HEAD]:
        engine.dispose()
        if revisions is None:
            raise StoreError(
                f"the club server {shown(url)} is not set up yet: its admin runs "
                f"`castra server init {shown(url)}`"
            )
        raise StoreError(
            f"the club server {shown(url)} has schema {', '.join(revisions) or 'none'}, this "
            f"Castra needs {SCHEMA_HEAD}: update Castra, or ask the club's admin to run "
            "`castra server init` with this version"
        )
    from pathlib import Path

    store = Store(path=Path(), revision=SCHEMA_HEAD, url=shown(url), member=member)
    store._engine = engine
    return store


# --------------------------------------------------------------------------- setting up


def _lock_down(conn: Connection) -> list[str]:
    """Take from PUBLIC (every role) what members must not have: connecting (members are
    granted it one by one), temporary objects, which could shadow Castra's tables, and CREATE
    in Castra's schema. Run at every ``init`` and ``add-member``: a database restored from a
    dump, or made by an older PostgreSQL, may have them back. Returns what was taken."""
    import sqlalchemy as sa

    database, schema, temp, create = conn.execute(
        sa.text(
            "SELECT current_database(), current_schema(), "
            "has_database_privilege('public', current_database(), 'TEMPORARY'), "
            "has_schema_privilege('public', current_schema(), 'CREATE')"
        )
    ).one()
    quote = conn.dialect.identifier_preparer.quote
    conn.exec_driver_sql(
        f"REVOKE CONNECT, TEMPORARY ON DATABASE {quote(str(database))} FROM PUBLIC"
    )
    conn.exec_driver_sql(f"REVOKE CREATE ON SCHEMA {quote(str(schema))} FROM PUBLIC")
    taken = ["temporary tables"] if temp else []
    return [*taken, f"CREATE in schema {schema}"] if create else taken


def init_server(url: str) -> list[str]:
    """Set up an empty database as a club store: the schema (every migration, in one
    transaction), the members' group role and the access policies; connections to it are
    then for members only, and no member may make temporary objects or create in the
    schema. On a club store made by an older Castra, upgrade it. Returns the lines saying
    what was done. Run as the database's owner (an admin role that may create roles)."""
    from alembic import command

    done: list[str] = []
    with _connected(url) as conn:
        import sqlalchemy as sa

        before = _revisions(conn)
        if before == [SCHEMA_HEAD]:
            taken = _lock_down(conn)
            line = f"{shown(url)} is already a club store at schema {SCHEMA_HEAD}"
            if taken:
                return [f"{line}; took from everyone: {', '.join(taken)}"]
            return [f"{line}: nothing to do"]
        command.upgrade(_alembic_config(conn), "head")
        database = conn.execute(sa.select(sa.func.current_database())).scalar_one()
        _lock_down(conn)
        owner = conn.execute(sa.select(sa.func.current_user())).scalar_one()
        if before is None:
            done.append(f"created the club store in {database} (schema {SCHEMA_HEAD})")
        else:
            done.append(f"upgraded {database} from schema {', '.join(before)} to {SCHEMA_HEAD}")
        done.append(f"role {MEMBER_ROLE}: every member belongs to it; members read everything")
        done.append(
            "access policies (row-level security): players change only their own rosters and "
            "the campaign sides they play; umpires record and apply battle results and manage "
            "campaigns"
        )
        done.append(
            f"only members may connect to {database} (its owner {owner} too); no member may "
            "make temporary tables or create anything in its schema; add members with "
            "`castra server add-member NAME --role player|umpire`"
        )
    return done


def add_member(
    url: str, *, name: str, role: Role, password: str | None = None, existing: bool = False
) -> str:
    """Add member ``name`` as a ``player`` or ``umpire``: their login role (created if the
    server has none of that name, with ``password`` stored by PostgreSQL as a SCRAM hash, or
    none: then they log in as the server's authentication allows), in the group role, allowed
    to connect, and recorded in ``club_member``. Run by the club's admin. Returns one line.

    A login role the server already has that is not yet this club's member is taken over
    only when ``existing`` says so (its password is then changed only if ``password`` is
    given); never a superuser's role, nor the admin's own. A member already in the club
    changes role."""
    import sqlalchemy as sa

    if role not in ROLES:
        raise StoreError(f"the role must be player or umpire, not {role!r}")
    if not name or len(name) > 63 or not all(c.isalnum() or c in "_-." for c in name):
        raise StoreError(
            f"{name!r} cannot be a member name: letters, digits, _ - . (at most 63 characters)"
        )
    members = sa.table("club_member", sa.column("name"), sa.column("role"))
    roles = sa.table("pg_roles", sa.column("rolname"), sa.column("rolsuper"))
    with _connected(url) as conn:
        if _revisions(conn) != [SCHEMA_HEAD]:
            raise StoreError(
                f"{shown(url)} is not a club store yet: run `castra server init` first"
            )
        quote = conn.dialect.identifier_preparer.quote
        admin = str(conn.execute(sa.select(sa.func.current_user())).scalar_one())
        if name == admin:
            raise StoreError(
                f"{name} is the role running this command (the club's admin): it cannot be a "
                "member; nothing was changed"
            )
        found = conn.execute(sa.select(roles.c.rolsuper).where(roles.c.rolname == name)).first()
        if found is not None and found[0]:
            raise StoreError(
                f"{name} is a superuser role on this server: it cannot be a member; nothing "
                "was changed"
            )
        had = conn.execute(sa.select(members.c.role).where(members.c.name == name)).first()
        if found is not None and had is None and not existing:
            raise StoreError(
                f"the server already has a role {name} (not a member of this club): add "
                "--existing to make that role a member; nothing was changed"
            )
        created = found is None
        if created:
            conn.exec_driver_sql(f"CREATE ROLE {quote(name)} LOGIN")
        if password is not None:
            # Hashed here by libpq (SCRAM-SHA-256): the password itself never reaches the
            # server, its logs or any file.
            pgconn = conn.connection.dbapi_connection.pgconn  # type: ignore[union-attr]
            hashed = pgconn.encrypt_password(
                password.encode(), name.encode(), b"scram-sha-256"
            ).decode()
            conn.exec_driver_sql(f"ALTER ROLE {quote(name)} PASSWORD '{hashed}'")
        conn.exec_driver_sql(f"GRANT {MEMBER_ROLE} TO {quote(name)}")
        _lock_down(conn)
        database = conn.execute(sa.select(sa.func.current_database())).scalar_one()
        conn.exec_driver_sql(f"GRANT CONNECT ON DATABASE {quote(str(database))} TO {quote(name)}")
        if had is None:
            conn.execute(sa.insert(members).values(name=name, role=role))
        else:
            conn.execute(sa.update(members).where(members.c.name == name).values(role=role))
    if created:
        what = "created the login role"
    elif had is None:
        what = "took over the existing login role"
    else:
        what = f"was {had[0]}"
    return f"added {name} as {role} to {database} ({what}; member of {MEMBER_ROLE})"


# --------------------------------------------------------------------------- live refresh

#: The channel the server tells every change on (migration 0009's triggers).
CHANGES_CHANNEL = "castra_changes"


class ChangeListener:
    """Another members' changes as the server tells them (``LISTEN castra_changes`` on a
    connection of its own): a window watches :meth:`fileno` for reading and calls
    :meth:`drain`, instead of asking for a change mark every few seconds."""

    def __init__(self, store: Store) -> None:
        import psycopg

        engine = store.engine
        args, params = engine.dialect.create_connect_args(engine.url)
        params = {**params, "connect_timeout": CONNECT_TIMEOUT_S}
        params["application_name"] = "castra-listen"
        self._where = store.where
        self._told: list[str] = []
        try:
            self._conn = psycopg.connect(*args, **params, autocommit=True)
            self._conn.add_notify_handler(lambda n: self._told.append(n.payload))
            self._conn.execute(f"LISTEN {CHANGES_CHANNEL}")
        except psycopg.Error as exc:
            raise StoreError(describe_server_failure(self._where, exc)) from None

    def fileno(self) -> int:
        return int(self._conn.fileno())

    def drain(self) -> list[str]:
        """The tables changed since the last call (each once, in order; empty when the
        server said nothing). :class:`StoreError` when the connection was lost."""
        import psycopg

        try:
            # reads what the server sent (its notifications go to the handler) and checks
            # that it is still there: a connection lost makes the socket readable too
            self._conn.execute("SELECT 1")
        except psycopg.Error as exc:
            raise StoreError(describe_server_failure(self._where, exc)) from None
        told, self._told[:] = list(self._told), []
        return list(dict.fromkeys(told))

    def close(self) -> None:
        import contextlib

        with contextlib.suppress(Exception):
            self._conn.close()
