"""Roster history on a club server (issue 15): each line names the member who made the
change; members read every roster's history, add lines only for a roster they may change and
only under their own name (the database checks it), and never change or delete one. Shown by
``castra roster history``."""

from __future__ import annotations

import json
from dataclasses import replace

import psycopg2.errors
import pytest

from app.cli import main
from app.core.roster import Roster, Unit
from app.store import rename_roster, save_roster, update_roster
from app.store.read import roster_history
from tests.server.conftest import Club


def _roster(name: str) -> Roster:
    return Roster(name, "quincunx", "roman", "Rome", None, units=(Unit("u1", "hastati", "H", 12),))


def test_the_history_names_who_made_each_change(
    club: Club, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, uma = club.open("ann"), club.open("uma")
    rid = save_roster(ann, roster=_roster("Ann's legion"))
    update_roster(uma, roster_id=rid, change=lambda r: replace(r, notes="checked"), what="Check")
    rename_roster(ann, roster_id=rid, name="Ann's first legion")
    assert [(c.made_by, c.what) for c in roster_history(club.open("bob"), roster_id=rid)] == [
        ("ann", "created"),
        ("uma", "Check"),
        ("ann", 'renamed to "Ann\'s first legion"'),
    ]
    monkeypatch.setenv("CASTRA_DB", club.url("bob"))
    assert main(["roster", "history", str(rid), "--json"]) == 0
    lines = json.loads(capsys.readouterr().out)
    assert [(x["version"], x["by"]) for x in lines] == [(0, "ann"), (1, "uma"), (2, "ann")]
    assert main(["roster", "history", "Ann's first legion"]) == 0
    out = capsys.readouterr().out
    assert "uma" in out and "Check" in out and "when (UTC)" in out
    assert main(["roster", "history", "no such roster"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_members_cannot_forge_or_rewrite_history(club: Club) -> None:
    ann, bob = club.open("ann"), club.open("bob")
    mine = save_roster(ann, roster=_roster("Ann's legion"))
    theirs = save_roster(bob, roster=_roster("Bob's legion"))
    insert = (
        "INSERT INTO roster_change (roster_id, version, made_at, made_by, what) "
        "VALUES (%s, 9, now(), %s, 'forged')"
    )
    with club.raw("ann") as con:
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):  # in another's name
            con.execute(insert, (mine, "uma"))
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):  # on another's roster
            con.execute(insert, (theirs, "ann"))
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):  # insert-only
            con.execute("UPDATE roster_change SET what = 'x' WHERE roster_id = %s", (mine,))
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):
            con.execute("DELETE FROM roster_change WHERE roster_id = %s", (mine,))
        con.execute(insert, (mine, "ann"))  # her own line on her own roster: allowed
    assert [c.what for c in roster_history(bob, roster_id=theirs)] == ["created"]
    assert [c.what for c in roster_history(bob, roster_id=mine)] == ["created", "forged"]
