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

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import parse_qsl, quote, quote_plus, unquote

from app.collector import collector_paused
from app.store.engine import (
    SCHEMA_HEAD,
    Reader,
    ServerReader,
    Store,
    StoreError,
    _alembic_config,
)

if TYPE_CHECKING:
    import psycopg2.extensions
    from sqlalchemy import Engine
    from sqlalchemy.engine import Connection

#: SQLAlchemy's name of the driver every connection to a club server goes through.
DRIVERNAME = "postgresql+psycopg2"
#: Seconds to wait for a server to answer before saying it cannot be reached.
CONNECT_TIMEOUT_S = 5
#: The group role every member's role belongs to (created by migration 0007).
MEMBER_ROLE = "castra_member"
ROLES = ("player", "umpire")
Role = Literal["player", "umpire"]


@dataclass(frozen=True)
class ServerURL:
    """A ``postgresql://`` store address read into its parts, as SQLAlchemy's ``make_url``
    reads it (``tests/server/test_url.py`` holds the two to the same answers), without
    importing SQLAlchemy: the command line reads a club server through psycopg2 alone."""

    drivername: str
    username: str | None = None
    password: str | None = None
    host: str | None = None
    port: int | None = None
    database: str | None = None
    #: each key's value, or its values in order when the key is given more than once
    query: dict[str, str | tuple[str, ...]] = field(default_factory=dict)

    @property
    def backend(self) -> str:
        """``postgresql`` of ``postgresql+psycopg2``."""
        return self.drivername.split("+")[0]

    def render(self, *, hide_password: bool = True) -> str:
        """The address written out again (SQLAlchemy's ``render_as_string``): each part
        quoted, the query's keys sorted, the password ``***`` unless ``hide_password`` is
        False."""
        s = self.drivername + "://"
        if self.username is not None:
            s += quote(self.username, safe=" +")
            if self.password is not None:
                s += ":" + ("***" if hide_password else quote(self.password, safe=" +"))
            s += "@"
        if self.host is not None:
            s += f"[{self.host}]" if ":" in self.host else self.host
        if self.port is not None:
            s += ":" + str(self.port)
        if self.database is not None:
            s += "/" + quote(self.database, safe=" +/")
        if self.query:
            s += "?" + "&".join(
                f"{quote_plus(k)}={quote_plus(v)}"
                for k in sorted(self.query)
                for v in _values(self.query[k])
            )
        return s

    def connect_args(self) -> dict[str, Any]:
        """psycopg2's ``connect`` arguments for this address, as SQLAlchemy's psycopg2 dialect
        makes them (``create_connect_args``): host, dbname, user, password and port where
        given, then the query's options; several hosts (``?host=h1,h2&port=p1,p2`` or
        ``?host=h1:p1&host=h2:p2``) joined by commas."""
        opts: dict[str, Any] = {}
        for name, value in (
            ("host", self.host),
            ("dbname", self.database),
            ("user", self.username),
            ("password", self.password),
            ("port", self.port),
        ):
            if value:
                opts[name] = value
        hosts, ports = _multihost(self.query)
        opts.update(self.query)
        if hosts:
            opts["host"] = ",".join(h or "" for h in hosts)
            comma_ports = ",".join(str(p) if p else "" for p in ports or ())
            if comma_ports:
                opts["port"] = comma_ports
        return opts


def _values(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


#: SQLAlchemy's pattern of a database URL (``sqlalchemy.engine.url._parse_url``)
_URL = re.compile(
    r"""
        (?P<name>[\w\+]+)://
        (?:
            (?P<username>[^:/]*)
            (?::(?P<password>[^@]*))?
        @)?
        (?:
            (?:
                \[(?P<ipv6host>[^/\?]+)\] |
                (?P<ipv4host>[^/:\?]+)
            )?
            (?::(?P<port>[^/\?]*))?
        )?
        (?:/(?P<database>[^\?]*))?
        (?:\?(?P<query>.*))?
        """,
    re.X,
)


class _Unreadable(ValueError):
    """Text that is no database URL at all."""


class _BadPort(ValueError):
    """An address whose port is not a number; ``url`` is the rest of it, read."""

    def __init__(self, port: str, url: ServerURL) -> None:
        super().__init__(f"invalid literal for int() with base 10: {port!r}")
        self.port = port
        self.url = url


class _BadHosts(ValueError):
    """A query whose hosts and ports cannot be paired (the message says why)."""


def read_url(text: str) -> ServerURL:
    """``text`` read as a database URL, part by part as SQLAlchemy reads it; raises
    :class:`ValueError` for text that is not one."""
    m = _URL.match(text)
    if m is None:
        raise _Unreadable(text)
    parts = m.groupdict()
    query: dict[str, str | tuple[str, ...]] = {}
    for key, value in parse_qsl(parts["query"] or ""):
        had = query.get(key)
        query[key] = value if had is None else (*_values(had), value)
    url = ServerURL(
        drivername=parts["name"],
        username=None if parts["username"] is None else unquote(parts["username"]),
        password=None if parts["password"] is None else unquote(parts["password"]),
        host=parts["ipv4host"] or parts["ipv6host"],
        database=None if parts["database"] is None else unquote(parts["database"]),
        query=query,
    )
    port = parts["port"]
    if port is None:
        return url
    try:
        return replace(url, port=int(port))
    except ValueError:
        raise _BadPort(port, url) from None


def _multihost(
    query: dict[str, str | tuple[str, ...]],
) -> tuple[tuple[str | None, ...] | None, tuple[int | None, ...] | None]:
    """The hosts and ports a query names (``host=h1,h2&port=p1,p2``, or
    ``host=h1:p1&host=h2:p2``), as SQLAlchemy's PostgreSQL dialect reads them
    (``_split_multihost_from_url``); ValueError when they cannot be paired."""
    hosts: tuple[str | None, ...] | None = None
    ports_str: tuple[str | None, ...] | None = None
    integrated = False
    host = query.get("host")
    if isinstance(host, tuple):
        integrated = True
        try:
            hosts, ports_str = zip(
                *[t.split(":") if ":" in t else (t, None) for t in host], strict=False
            )
        except ValueError:  # every host=… holds two colons or more
            raise _BadHosts(f"its hosts {', '.join(host)} are not HOST or HOST:PORT") from None
    elif isinstance(host, str):
        hosts = tuple(host.split(","))
        if "port" not in query and len(hosts) == 1 and ":" in hosts[0]:
            found = re.match(r"^([a-zA-Z0-9\-\.]*)(?:\:(\d*))?$", hosts[0])
            if found:
                integrated = True
                h, p = found.group(1, 2)
                hosts, ports_str = (h,), ((p,) if p else (None,))
    if "port" in query:
        if integrated:
            raise _BadHosts(
                "its query gives ports both in host=HOST:PORT and in port=; give "
                "host=h1,h2&port=p1,p2 or host=h1:p1&host=h2:p2"
            )
        given = query["port"]
        ports_str = given if isinstance(given, tuple) else tuple(given.split(","))
    ports: tuple[int | None, ...] | None = None
    if ports_str:
        try:
            ports = tuple(int(x) if x else None for x in ports_str)
        except ValueError:
            bad = next(x for x in ports_str if x and not _is_number(x))
            raise _BadHosts(f"its query's port {bad!r} is not a number") from None
    if ports and (
        (not hosts and len(ports) > 1)
        or (hosts and len(hosts) != len(ports) and (len(hosts) > 1 or len(ports) > 1))
    ):
        raise _BadHosts(f"its query names {len(hosts or ())} hosts and {len(ports)} ports")
    if hosts is not None and ports is None:
        ports = tuple(None for _ in hosts)
    return hosts, ports


def _is_number(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def parse_url(url: str) -> ServerURL:
    """A ``postgresql://`` store URL read, on the psycopg2 driver; :class:`StoreError` for
    one that cannot be read, that names no database, or that carries a password in its
    query."""
    try:
        parsed = read_url(url.strip())
    except _Unreadable:
        raise StoreError(
            f"{url!r} is not a store URL (postgresql://USER@HOST:PORT/DATABASE)"
        ) from None
    except _BadPort as exc:
        raise StoreError(
            f"the URL's port {exc.port!r} is not a number (postgresql://USER@HOST:PORT/DATABASE)"
        ) from None
    if parsed.backend not in ("postgresql", "postgres"):
        raise StoreError(f"{url!r} is not a PostgreSQL URL")
    if not parsed.database:
        raise StoreError(f"the URL {shown(url)} names no database (…/DATABASE at its end)")
    if _has_nul(parsed):
        raise StoreError(
            f"the URL {shown(url)} holds a NUL character (%00), which no connection setting "
            "may hold"
        )
    carried = _query_password(parsed)
    if carried:
        raise StoreError(
            f"the address {shown(url)} carries a password ({carried} in its query), which "
            "Castra would show and keep: put it in ~/.pgpass (or PGPASSWORD) and give the "
            "address without it"
        )
    try:
        parsed.connect_args()
    except _BadHosts as exc:
        raise StoreError(f"the URL {shown(url)} cannot be used: {exc}") from None
    return replace(parsed, drivername=DRIVERNAME)


def _has_nul(parsed: ServerURL) -> bool:
    """Whether a part of the address, decoded, holds a NUL (libpq's settings are C strings:
    psycopg2 refuses one with a ValueError, psycopg 3 cut the setting short at it)."""
    parts = [parsed.username, parsed.password, parsed.host, parsed.database]
    for key, value in parsed.query.items():
        parts += [key, *_values(value)]
    return any(part is not None and "\x00" in part for part in parts)


def _query_password(parsed: ServerURL) -> str | None:
    """The query key that carries a password (``password=``, or any option naming one), or
    None."""
    for key, value in parsed.query.items():
        if _names_password(key, value):
            return f"{key}=…"
    return None


def _names_password(key: str, value: str | tuple[str, ...]) -> bool:
    return "password" in key.lower() or any("password" in v.lower() for v in _values(value))


def shown(url: str) -> str:
    """The URL as shown to the user: any password in it hidden."""
    try:
        parsed = read_url(url.strip())
    except (_Unreadable, _BadPort):
        return "the URL given"
    query = {k: "***" if _names_password(k, v) else v for k, v in parsed.query.items()}
    rendered = replace(parsed, query=query).render(hide_password=True)
    return rendered.replace("%2A%2A%2A", "***")


def has_password(url: str) -> bool:
    """Whether a store URL carries a password, in its user part (``bob:pw@``) or its query
    (``?password=``, an option naming one): the window refuses to remember one (it belongs in
    ``~/.pgpass`` or ``PGPASSWORD``)."""
    try:
        parsed = read_url(url.strip())
    except _Unreadable:
        return False
    except _BadPort as exc:
        parsed = exc.url
    return parsed.password is not None or _query_password(parsed) is not None


def server_engine(url: str) -> Engine:
    """An engine on the server: times in UTC, a short connect timeout, a small pool."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import URL

    parsed = parse_url(url)
    return create_engine(
        URL.create(
            parsed.drivername,
            username=parsed.username,
            password=parsed.password,
            host=parsed.host,
            port=parsed.port,
            database=parsed.database,
            query=parsed.query,
        ),
        connect_args=dict(CONNECT_ARGS),
        pool_size=4,
        max_overflow=4,
    )


#: What every connection to the server is opened with: times in UTC, a short connect
#: timeout, Castra's name in the server's list of sessions.
CONNECT_ARGS = {
    "options": "-c timezone=UTC",
    "connect_timeout": CONNECT_TIMEOUT_S,
    "application_name": "castra",
}


def driver() -> Any:
    """The psycopg2 module, imported with the cyclic garbage collector paused: its import
    makes long-lived objects (its type casters and some 250 error classes) and no garbage,
    so the collector's passes over them are wasted (about 2% of the import's instructions;
    a command line's read on a club server pays the import once)."""
    if "psycopg2" not in sys.modules:
        with collector_paused():
            import psycopg2  # noqa: F401
    return sys.modules["psycopg2"]


def connect(url: str) -> psycopg2.extensions.connection:
    """A psycopg2 connection to the server (no SQLAlchemy: the reads of
    :mod:`app.store.read`), opened with the arguments an engine's connection has
    (:data:`CONNECT_ARGS` over the URL's own), each transaction repeatable-read. Raises
    :class:`StoreError` for a URL that cannot be used, ``psycopg2.Error`` when the server
    cannot be reached or refuses."""
    args = {**parse_url(url).connect_args(), **CONNECT_ARGS}
    psycopg2 = driver()
    conn = psycopg2.connect(**args)
    conn.isolation_level = psycopg2.extensions.ISOLATION_LEVEL_REPEATABLE_READ
    return conn  # type: ignore[no-any-return]


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
    return getattr(getattr(exc, "orig", None), "pgcode", None) == "42501"


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


#: The tables in the schema a member's session sees first (what SQLAlchemy's
#: ``inspect(...).get_table_names()`` lists on PostgreSQL: ordinary and partitioned tables,
#: not temporary ones, visible on the search path, outside ``pg_catalog``).
_TABLES = (
    "SELECT c.relname FROM pg_catalog.pg_class c "
    "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
    "WHERE c.relkind IN ('r', 'p') AND c.relpersistence != 't' "
    "AND pg_catalog.pg_table_is_visible(c.oid) AND n.nspname != 'pg_catalog'"
)


def _revisions(con: Reader) -> list[str] | None:
    """The server's schema revisions, or None when it has no Castra tables at all; a database
    holding other tables is refused (never migrated)."""
    names = {str(name) for (name,) in con.execute(_TABLES).fetchall()}
    if "alembic_version" not in names:
        if names:
            listed = ", ".join(sorted(names)[:5])
            raise StoreError(
                f"that database is not a Castra club store (it holds tables {listed}); "
                "nothing was changed. Use an empty database."
            )
        return None
    rows = con.execute("SELECT version_num FROM alembic_version").fetchall()
    return [str(v) for (v,) in rows]


def open_server(url: str) -> Store:
    """Open a club server as the member the URL (and libpq's environment) logs in as.

    Refused with a one-line :class:`StoreError` when the server cannot be reached or refuses
    the login, when the database was not set up (``castra server init``) or holds another
    schema revision than this Castra's. Nothing is written. The check is made through
    psycopg2 alone (no SQLAlchemy), and its connection kept for the store's reads."""
    psycopg2 = driver()

    from app.store.engine import PgReader

    try:
        conn = connect(url)  # a URL that cannot be used: StoreError, before anything else
        try:
            reader = PgReader(conn)
            revisions = _revisions(reader)
            member = str(reader.execute("SELECT current_user").fetchone()[0])
            conn.rollback()
        except BaseException:
            conn.close()
            raise
    except psycopg2.Error as exc:
        raise StoreError(describe_server_failure(url, exc)) from None
    if revisions != [SCHEMA_HEAD]:
        conn.close()
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

    store = Store(path=Path(), revision=SCHEMA_HEAD, url=shown(url), member=member, _dsn=url)
    store.give_back(conn)
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

        before = _revisions(ServerReader(conn))
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
        if _revisions(ServerReader(conn)) != [SCHEMA_HEAD]:
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
            from psycopg2.extensions import connection, encrypt_password

            pgconn = conn.connection.dbapi_connection
            assert isinstance(pgconn, connection)  # the engine's driver is psycopg2
            hashed = encrypt_password(password, name, pgconn, "scram-sha-256")
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
        psycopg2 = driver()
        engine = store.engine
        args, params = engine.dialect.create_connect_args(engine.url)
        params = {**params, "connect_timeout": CONNECT_TIMEOUT_S}
        params["application_name"] = "castra-listen"
        self._where = store.where
        try:
            self._conn = psycopg2.connect(*args, **params)
            self._conn.autocommit = True
            with self._conn.cursor() as cur:
                cur.execute(f"LISTEN {CHANGES_CHANNEL}")
        except psycopg2.Error as exc:
            raise StoreError(describe_server_failure(self._where, exc)) from None

    def fileno(self) -> int:
        return int(self._conn.fileno())

    def drain(self) -> list[str]:
        """The tables changed since the last call (each once, in order; empty when the
        server said nothing). :class:`StoreError` when the connection was lost."""
        psycopg2 = driver()
        try:
            # reads what the server sent (its notifications go to ``notifies``) and checks
            # that it is still there: a connection lost makes the socket readable too
            with self._conn.cursor() as cur:
                cur.execute("SELECT 1")
        except psycopg2.Error as exc:
            raise StoreError(describe_server_failure(self._where, exc)) from None
        told = [n.payload for n in self._conn.notifies]
        self._conn.notifies.clear()
        return list(dict.fromkeys(told))

    def close(self) -> None:
        import contextlib

        with contextlib.suppress(Exception):
            self._conn.close()
