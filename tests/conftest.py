"""Shared fixtures: the real rulesets, loaded once per test session."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine
from tests.pgcluster import Cluster, running_cluster


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
