"""Opening a club server (issue 15): a server that cannot be reached, that refuses, or that
was not set up is one line, and nothing is written anywhere; a local path in CASTRA_DB still
opens the local file."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.store import StoreError, open_store
from app.store.engine import default_location, default_path
from tests.pgcluster import Cluster


def test_an_unreachable_server_is_one_line() -> None:
    with pytest.raises(StoreError, match=r"^cannot reach the club server") as got:
        open_store("postgresql://ann@127.0.0.1:1/club")
    assert "\n" not in str(got.value)


def test_a_database_not_set_up_says_who_sets_it_up(pg_empty: str) -> None:
    with pytest.raises(StoreError, match="not set up yet: its admin runs `castra server init"):
        open_store(pg_empty)


def test_a_missing_database_and_an_unknown_member_are_refused(
    pg_cluster: Cluster | None, pg_url: str
) -> None:
    assert pg_cluster is not None
    with pytest.raises(StoreError, match=r"no such database|does not exist"):
        open_store(pg_cluster.url("no_such_club"))
    with pytest.raises(StoreError, match=r"refused|does not exist"):
        open_store(pg_url.replace("castra_admin@", "stranger@"))


def test_castra_db_names_a_file_or_a_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASTRA_DB", str(tmp_path / "mine.sqlite3"))
    assert default_location() == default_path() == tmp_path / "mine.sqlite3"
    monkeypatch.setenv("CASTRA_DB", "postgresql://ann@club.example/castra")
    assert default_location() == "postgresql://ann@club.example/castra"
    assert default_path().name == "castra.sqlite3"  # the local store stays where it was
