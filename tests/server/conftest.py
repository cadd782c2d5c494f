"""A club set up as its README says: ``castra server init`` on an empty database, then two
players and an umpire added with ``castra server add-member``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from app.cli import main
from app.store import Store, open_store
from tests.pgcluster import Cluster
from tests.store.conftest import full_roster  # noqa: F401  (a fixture here too)


@dataclass
class Club:
    cluster: Cluster
    database: str
    admin_url: str
    opened: list[Store] = field(default_factory=list)

    def url(self, member: str) -> str:
        return self.cluster.url(self.database, user=member)

    def open(self, member: str) -> Store:
        """The store as ``member`` sees it (their own login role)."""
        store = open_store(self.url(member))
        self.opened.append(store)
        return store

    def raw(self, member: str):  # type: ignore[no-untyped-def]
        """A plain SQL client logged in as ``member`` (autocommit), as a member might use."""
        import psycopg

        return psycopg.connect(self.url(member), autocommit=True)


@pytest.fixture
def club(
    pg_cluster: Cluster | None, pg_empty: str, capsys: pytest.CaptureFixture[str]
) -> Iterator[Club]:
    assert pg_cluster is not None
    assert main(["server", "init", pg_empty]) == 0
    for name, role in (("ann", "player"), ("bob", "player"), ("uma", "umpire")):
        assert main(["server", "add-member", name, "--role", role, "--url", pg_empty]) == 0
    capsys.readouterr()
    c = Club(pg_cluster, pg_empty.rsplit("/", 1)[1], pg_empty)
    yield c
    for store in c.opened:
        store.close()
