"""Reads from a club server through psycopg2 alone (issue 26): the command line's reads load
no SQLAlchemy, sqlmodel or pydantic, log in as the member (the database's row-level
security sees the member's own login), refuse another schema in one line, and come back
after the server dropped the connection."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from app.core.roster import Roster, Unit
from app.store import list_rosters, open_store, save_roster
from app.store.engine import SCHEMA_HEAD, StoreError
from app.store.read import member_role, roster_lock
from tests.pgcluster import sql_client
from tests.server.conftest import Club

#: runs ``castra`` with the given arguments and says which of these it loaded
_RUN = (
    "import json, sys\n"
    "from app.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "heavy = ('sqlalchemy', 'sqlmodel', 'pydantic', 'alembic', 'psycopg')\n"
    "print(json.dumps([code, sorted(m for m in heavy if m in sys.modules)]), file=sys.stderr)\n"
)


def _castra(*args: str) -> tuple[int, list[str], str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CASTRA_DB"}
    done = subprocess.run(
        [sys.executable, "-c", _RUN, *args], capture_output=True, text=True, env=env, timeout=60
    )
    *said, last = done.stderr.splitlines()
    code, loaded = json.loads(last)
    return code, loaded, done.stdout, "\n".join(said)


@pytest.fixture(scope="module", autouse=True)
def installed() -> None:
    """The command line as on a machine where Castra has run before: the rulesets' cache in
    the data folder is filled (the first run after an install reads and checks the rulesets'
    files once, with pydantic, and keeps what it read)."""
    from app.paths import load_registry

    load_registry()


def _roster(name: str) -> Roster:
    return Roster(name, "quincunx", "roman", "Rome", None, units=(Unit("u1", "hastati", "H", 12),))


def test_the_command_lines_reads_load_no_sqlalchemy(club: Club) -> None:
    ann, bob = club.open("ann"), club.open("bob")
    mine = save_roster(ann, roster=_roster("Ann's legion"))
    save_roster(bob, roster=_roster("Bob's legion"))
    url = club.url("ann")
    for args, shows in (
        (("roster", "list"), "Bob's legion"),
        (("roster", "list", "--deleted", "--json"), '"owner": "bob"'),
        (("roster", "show", str(mine)), "Ann's legion"),
        (("roster", "show", "Bob's legion"), "Bob's legion"),
        (("roster", "history", str(mine)), "ann  created"),
        (("battle", "list"), "id  name"),
    ):
        code, loaded, out, err = _castra("--store", url, *args)
        assert (code, loaded, err) == (0, [], ""), (args, loaded, err)
        assert shows in out, (args, out)
    code, loaded, out, err = _castra("--store", url, "roster", "list")
    assert "Ann's legion" in out and "Bob's legion" in out and "ann" in out and "bob" in out
    code, loaded, out, err = _castra("--store", url, "roster", "show", "nosuch")
    assert (code, loaded) == (1, []) and err.startswith("castra: no roster 'nosuch'"), err


def test_reads_are_the_members_own_login(club: Club) -> None:
    ann, bob = club.open("ann"), club.open("bob")
    theirs = save_roster(bob, roster=_roster("Bob's legion"))
    assert (
        ann.member == "ann"
        and member_role(ann) == "player"
        and member_role(club.open("uma")) == "umpire"
    )
    assert roster_lock(ann, roster_id=theirs) == "bob's roster: read-only (you are ann, a player)"
    assert roster_lock(bob, roster_id=theirs) is None
    assert [r.owner for r in list_rosters(ann)] == ["bob"]


def test_another_schema_is_refused_in_one_line_without_sqlalchemy(club: Club) -> None:
    with sql_client(club.admin_url) as con:
        con.execute("UPDATE alembic_version SET version_num = '0009'")
    code, loaded, out, err = _castra("--store", club.url("ann"), "roster", "list")
    assert (code, loaded, out) == (1, [], "")
    assert err == (
        f"castra: the club server {club.url('ann')} has schema 0009, "
        f"this Castra needs {SCHEMA_HEAD}: update Castra, or ask the club's admin to run "
        "`castra server init` with this version"
    )
    with pytest.raises(StoreError, match=r"has schema 0009, this Castra needs"):
        open_store(club.url("ann"))


def test_a_read_after_the_server_dropped_the_connection(club: Club) -> None:
    ann = club.open("ann")
    save_roster(ann, roster=_roster("Ann's legion"))
    assert len(list_rosters(ann)) == 1  # its connection is kept for the next read
    with sql_client(club.admin_url) as con:
        con.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE usename = 'ann' AND application_name = 'castra'"
        )
    with pytest.raises(StoreError) as got:
        list_rosters(ann)
    assert str(got.value).startswith(f"the club server {ann.where} failed: ")
    assert "\n" not in str(got.value)
    assert len(list_rosters(ann)) == 1  # a new connection


def test_an_address_naming_psycopg_3_opens_the_same_store(club: Club) -> None:
    save_roster(club.open("ann"), roster=_roster("Ann's legion"))
    url = club.url("ann").replace("postgresql://", "postgresql+psycopg://", 1)
    code, loaded, out, err = _castra("--store", url, "roster", "list")
    assert (code, loaded, err) == (0, [], "") and "Ann's legion" in out
    assert [r.name for r in list_rosters(club.open("ann"))] == ["Ann's legion"]
    with open_store(url) as store:
        save_roster(store, roster=_roster("Written through it"))
    assert sorted(r.name for r in list_rosters(club.open("ann"))) == [
        "Ann's legion",
        "Written through it",
    ]
