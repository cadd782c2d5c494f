"""A throw-away PostgreSQL cluster for the tests and the load script: ``initdb`` in a temporary
folder, started on a free loopback port, stopped and removed at the end.

The binaries are found on PATH (``initdb``), else in Debian's ``/usr/lib/postgresql/*/bin``;
:func:`find_bin` says None when there are none (the tests then skip the PostgreSQL half, saying
so). PostgreSQL refuses to run as root: as root, the server runs as the ``postgres`` user (or
``nobody``). The cluster trusts loopback logins (a test cluster, never a club's), and skips
fsync: it is thrown away.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg2
import psycopg2.extensions

ADMIN = "castra_admin"


class SQLClient(psycopg2.extensions.connection):
    """A plain SQL client on a psycopg2 connection, as a member or the admin might use one
    (autocommit): :meth:`execute` runs a statement and gives its cursor, and the connection
    is closed when its ``with`` block ends."""

    def execute(self, sql: str, params: Any = None) -> psycopg2.extensions.cursor:
        cursor = self.cursor()
        cursor.execute(sql, params)
        return cursor

    def __enter__(self) -> SQLClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sql_client(url: str) -> SQLClient:
    """A :class:`SQLClient` logged in at ``url`` (autocommit)."""
    con = psycopg2.connect(url, connection_factory=SQLClient)
    con.autocommit = True
    assert isinstance(con, SQLClient)
    return con


def find_bin() -> Path | None:
    """The folder of PostgreSQL's server binaries, or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)
    return versions[0].parent if versions else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A running cluster; :meth:`url` names a database on it as the admin (or a member)."""

    def __init__(self, bindir: Path, root: Path) -> None:
        self.bindir = bindir
        self.root = root
        self.data = root / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = "postgres"
            try:
                pwd.getpwnam(user)
            except KeyError:
                user = "nobody"
            entry = pwd.getpwnam(user)
            os.chown(root, entry.pw_uid, entry.pw_gid)
            self._as = ["runuser", "-u", user, "--"]

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._as, *args],
            check=True,
            cwd=self.root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=120,
        )

    def start(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            ADMIN,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        )
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=150"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-o",
            options,
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    def url(self, database: str = "postgres", user: str = ADMIN) -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def admin_sql(self, *statements: str) -> None:
        """Statements run as the admin on the ``postgres`` database, outside a transaction
        (CREATE DATABASE cannot run in one)."""
        with sql_client(self.url()) as con:
            for statement in statements:
                con.execute(statement)

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new database (a copy of ``template``, which no one may be connected to); its
        admin URL."""
        # FILE_COPY: a checkpoint and a file copy, faster than WAL_LOG for a small template
        tail = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""
        self.admin_sql(f"CREATE DATABASE {name}{tail}")
        return self.url(name)

    def drop_database(self, name: str) -> None:
        self.admin_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def running_cluster() -> Iterator[Cluster | None]:
    """A started cluster for the block (None when this machine has no PostgreSQL)."""
    bindir = find_bin()
    if bindir is None:
        yield None
        return
    root = Path(tempfile.mkdtemp(prefix="castra-pg-"))
    cluster = Cluster(bindir, root)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
