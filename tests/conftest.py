"""Shared fixtures: the real rulesets, loaded once per test session."""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Castra's data folder for the whole test session, so that nothing a test makes (a store,
# its backups, the ruleset, scenario and icon caches) lands in the user's own: a folder of
# its own, removed at the end (one already named by $CASTRA_HOME is kept). The user's
# $CASTRA_DB (their store, or a club server) is never used: a test that needs a store names
# one.
os.environ.pop("CASTRA_DB", None)
if not os.environ.get("CASTRA_HOME"):
    os.environ["CASTRA_HOME"] = tempfile.mkdtemp(prefix="castra-tests-")
    atexit.register(shutil.rmtree, os.environ["CASTRA_HOME"], ignore_errors=True)

import pytest

from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine
from app.store import Store
from tests.pgcluster import Cluster, running_cluster, sql_client


@pytest.fixture(scope="session")
def registry() -> Registry:
    reg = Registry.load(find_engine, BUILTIN_DIR, [])
    assert not reg.failures, reg.failure_lines()
    return reg


# --------------------------------------------------------------------------- PostgreSQL

NO_POSTGRES = (
    "no PostgreSQL binaries on this machine (initdb, pg_ctl): the club-server half of the "
    "store tests is skipped; install PostgreSQL (Debian: apt-get install postgresql) to run it"
)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster | None]:
    """One PostgreSQL cluster for the whole test session (None without the binaries)."""
    with running_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="session")
def pg_template(pg_cluster: Cluster | None) -> str | None:
    """A database set up once as a club store (``castra server init``), copied for each test
    that needs one: a copy takes milliseconds where migrating takes most of a second."""
    if pg_cluster is None:
        return None
    from app.store.server import init_server

    init_server(pg_cluster.create_database("castra_template"))
    return "castra_template"


_databases = itertools.count(1)


@pytest.fixture
def pg_url(pg_cluster: Cluster | None, pg_template: str | None) -> Iterator[str]:
    """The admin URL of a fresh club store (a copy of the template), dropped afterwards."""
    if pg_cluster is None or pg_template is None:
        pytest.skip(NO_POSTGRES)
    name = f"castra_test_{next(_databases)}"
    url = pg_cluster.create_database(name, template=pg_template)
    yield url
    pg_cluster.drop_database(name)


@pytest.fixture
def pg_empty(pg_cluster: Cluster | None) -> Iterator[str]:
    """The admin URL of a fresh empty database (for ``castra server init``), dropped after."""
    if pg_cluster is None:
        pytest.skip(NO_POSTGRES)
    name = f"castra_empty_{next(_databases)}"
    url = pg_cluster.create_database(name)
    yield url
    pg_cluster.drop_database(name)


# --------------------------------------------------------------------------- a club


@dataclass
class Club:
    """A club store on the test cluster, opened as any of its members."""

    cluster: Cluster
    database: str
    admin_url: str
    opened: list[Store] = field(default_factory=list)

    def url(self, member: str) -> str:
        return self.cluster.url(self.database, user=member)

    def open(self, member: str) -> Store:
        """The store as ``member`` sees it (their own login role)."""
        from app.store import open_store

        store = open_store(self.url(member))
        self.opened.append(store)
        return store

    def raw(self, member: str) -> Any:
        """A plain SQL client logged in as ``member`` (autocommit), as a member might use."""
        return sql_client(self.url(member))


def add_members(url: str) -> None:
    """Players ann and bob and umpire uma, added by ``castra server add-member`` (with
    ``--existing``: the test cluster's roles are shared by every test's database)."""
    from app.cli import main

    for name, role in (("ann", "player"), ("bob", "player"), ("uma", "umpire")):
        args = ["server", "add-member", name, "--role", role, "--url", url]
        assert main([*args, "--existing"]) == 0


@pytest.fixture
def club(
    pg_cluster: Cluster | None, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> Iterator[Club]:
    """A club store (a copy of one made by ``castra server init``, as the template is; the
    init itself is tested on empty databases) with players ann and bob and umpire uma, added
    by ``castra server add-member``."""

    assert pg_cluster is not None
    add_members(pg_url)
    capsys.readouterr()
    c = Club(pg_cluster, pg_url.rsplit("/", 1)[1], pg_url)
    yield c
    for store in c.opened:
        store.close()
