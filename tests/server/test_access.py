"""Members, enforced by the database (issue 15): the row-level security policies made by the
migrations, met through the app and through a plain SQL client logged in as the member."""

from __future__ import annotations

from dataclasses import replace

import psycopg2.errors
import pytest

from app.core.roster import Roster, Unit
from app.rules.registry import Registry
from app.store import load_roster, rename_roster, save_roster, update_roster
from app.store.campaigns import (
    assign_side,
    campaign_for_update,
    create_campaign,
    load_campaign,
    step_makers,
)
from app.store.engine import AccessRefused
from tests.core.campaign.helpers import leg_vi_campaign
from tests.server.conftest import Club


def _roster(name: str) -> Roster:
    return Roster(name, "quincunx", "roman", "Rome", None, units=(Unit("u1", "hastati", "H", 12),))


def test_init_says_what_it_did(pg_empty: str, capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    assert main(["server", "init", pg_empty]) == 0
    out = capsys.readouterr().out
    assert "created the club store" in out and "castra_member" in out and "policies" in out
    assert main(["server", "init", pg_empty]) == 0  # a second time: nothing to do
    assert "nothing to do" in capsys.readouterr().out


def test_a_player_owns_what_they_make_and_changes_only_that(club: Club) -> None:
    ann, bob = club.open("ann"), club.open("bob")
    mine = save_roster(ann, roster=_roster("Ann's legion"))
    theirs = save_roster(bob, roster=_roster("Bob's legion"))
    rename_roster(ann, roster_id=mine, name="Ann's first legion")
    with pytest.raises(AccessRefused, match="refused"):
        rename_roster(ann, roster_id=theirs, name="Taken")
    assert load_roster(ann, roster_id=theirs).name == "Bob's legion"  # everyone reads all
    with club.raw("ann") as con:
        row = con.execute("SELECT owner, updated_by FROM roster WHERE id = %s", (mine,)).fetchone()
        assert row == ("ann", "ann")


def test_raw_sql_cannot_change_another_players_roster(club: Club) -> None:
    bob = club.open("bob")
    theirs = save_roster(bob, roster=_roster("Bob's legion"))
    before = load_roster(bob, roster_id=theirs)
    with club.raw("ann") as con:
        # the policies hide the row from a change: nothing matches
        assert con.execute("UPDATE roster SET name = 'x' WHERE id = %s", (theirs,)).rowcount == 0
        assert (
            con.execute("UPDATE roster_unit SET size = 1 WHERE roster_id = %s", (theirs,)).rowcount
            == 0
        )
        assert con.execute("DELETE FROM roster_unit WHERE roster_id = %s", (theirs,)).rowcount == 0
        assert con.execute("DELETE FROM roster WHERE id = %s", (theirs,)).rowcount == 0
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):
            con.execute(
                "INSERT INTO roster_unit (roster_id, position, uid, entry, name, size, count, "
                "notes) VALUES (%s, 9, 'x', 'hastati', 'X', 12, 1, '')",
                (theirs,),
            )
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):  # giving it away
            con.execute(
                "INSERT INTO roster (name, ruleset, army, side, notes, created_at, updated_at, "
                "version, owner, updated_by) VALUES ('x', 'q', 'r', 'R', '', now(), now(), 0, "
                "'bob', 'ann')"
            )
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):  # nor the member list
            con.execute("UPDATE club_member SET role = 'umpire' WHERE name = 'ann'")
    # nor the store's own facts
    with club.raw("ann") as con, pytest.raises(psycopg2.errors.InsufficientPrivilege):
        con.execute("INSERT INTO app_meta (key, value) VALUES ('samples_seeded', 'junk')")
    assert load_roster(bob, roster_id=theirs) == before


def test_only_the_umpire_records_and_applies_results(club: Club, registry: Registry) -> None:
    uma, ann = club.open("uma"), club.open("ann")
    with pytest.raises(AccessRefused):  # a player cannot make a campaign
        create_campaign(ann, session=leg_vi_campaign(registry))
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    assign_side(uma, campaign_id=cid, side="rome", member="ann")
    with pytest.raises(AccessRefused):
        assign_side(ann, campaign_id=cid, side="carthage", member="ann")
    before = load_campaign(uma, campaign_id=cid, registry=registry)
    with club.raw("ann") as con:
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):
            con.execute(
                "INSERT INTO campaign_step (campaign_id, n, kind, label, step, digest, delta, "
                "made_by) VALUES (%s, 3, 'apply', 'Apply', '{}', '', '{}', 'ann')",
                (cid,),
            )
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):  # nor as the umpire
            con.execute(
                "INSERT INTO campaign_step (campaign_id, n, kind, label, step, digest, delta, "
                "made_by) VALUES (%s, 3, 'record', 'Record', '{}', '', '{}', 'uma')",
                (cid,),
            )
        assert con.execute("UPDATE battle SET winner = 1").rowcount == 0
        assert con.execute("DELETE FROM campaign_step WHERE campaign_id = %s", (cid,)).rowcount == 0
    after = load_campaign(uma, campaign_id=cid, registry=registry)
    assert after.done == before.done and after.cursor == before.cursor
    assert step_makers(uma, campaign_id=cid) == ["uma"] * 3


def test_a_player_moves_only_the_side_they_play(club: Club, registry: Registry) -> None:
    from app.core.campaign.steps import Promote

    uma, ann = club.open("uma"), club.open("ann")
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    assign_side(uma, campaign_id=cid, side="rome", member="ann")
    with campaign_for_update(ann, campaign_id=cid, registry=registry) as s:
        s.do(Promote("rome", "varro", "paullus"))
    with (
        pytest.raises(AccessRefused),
        campaign_for_update(ann, campaign_id=cid, registry=registry) as s,
    ):
        s.do(Promote("carthage", "mago", "hannibal"))
    with (
        pytest.raises(AccessRefused),
        campaign_for_update(ann, campaign_id=cid, registry=registry) as s,
    ):
        s.undo()  # her own step: fine
        s.undo()  # the umpire's: refused, and so is the whole change
    with club.raw("ann") as con:
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):  # back past the umpire
            con.execute("UPDATE campaign SET cursor = 0, updated_by = 'ann' WHERE id = %s", (cid,))
        with pytest.raises(psycopg2.errors.InsufficientPrivilege):  # its start
            con.execute("UPDATE campaign SET start = '{}' WHERE id = %s", (cid,))
    with campaign_for_update(ann, campaign_id=cid, registry=registry) as s:
        s.undo()  # her own step alone
    with campaign_for_update(ann, campaign_id=cid, registry=registry) as s:
        s.redo()
    assert step_makers(uma, campaign_id=cid) == ["uma", "uma", "uma", "ann"]
    got = load_campaign(uma, campaign_id=cid, registry=registry)
    assert got.campaign.side("carthage").army.leader("hannibal").rank == "general"
    assert replace(got.campaign.side("rome").army.leader("varro")).rank == "general"


def test_the_roster_list_and_campaign_log_name_who_changed_what(
    club: Club,
    registry: Registry,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import json

    from app.cli import main

    ann, uma = club.open("ann"), club.open("uma")
    rid = save_roster(ann, roster=_roster("Ann's legion"))
    update_roster(uma, roster_id=rid, change=lambda r: replace(r, notes="checked"))
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    monkeypatch.setenv("CASTRA_DB", club.url("bob"))
    assert main(["roster", "list", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert (row["owner"], row["updated_by"]) == ("ann", "uma")
    assert main(["roster", "list"]) == 0
    assert "changed by" in capsys.readouterr().out
    assert main(["campaign", "show", str(cid), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert [s["by"] for s in steps] == ["uma"] * 3
    assert main(["campaign", "show", str(cid)]) == 0
    assert "(by uma)" in capsys.readouterr().out


def test_a_players_step_cannot_carry_changes_to_another_side(
    club: Club, registry: Registry
) -> None:
    """A step row holds the change it made to the campaign before it; the database reads it,
    so a player's hand-made step for their own side cannot change another side's army, the
    battles or their results, rename a side, or carry a whole campaign."""
    import copy
    import json

    from app.core.timeline import diff, digest, pack_snapshot

    uma = club.open("uma")
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    assign_side(uma, campaign_id=cid, side="rome", member="ann")
    loaded = load_campaign(uma, campaign_id=cid, registry=registry)
    assert loaded.timeline is not None
    n = loaded.cursor - 1
    before = loaded.timeline.state_dict(loaded.cursor)
    carthage = next(i for i, s in enumerate(before["sides"]) if s["id"] == "carthage")
    rome = next(i for i, s in enumerate(before["sides"]) if s["id"] == "rome")

    def insert(after: dict[str, object], change: object = None, whole: bool = False) -> None:
        with club.raw("ann") as con:
            con.execute(
                "INSERT INTO campaign_step (campaign_id, n, kind, label, step, digest, delta, "
                "snapshot, side, made_by) VALUES (%s, %s, 'reinforce', 'Reinforce', '{}', %s, "
                "%s, %s, 'rome', 'ann')",
                (
                    cid,
                    n + 1,
                    digest(after),
                    json.dumps(diff(before, after) if change is None else change),
                    pack_snapshot(after) if whole else None,
                ),
            )

    def refused(after: dict[str, object], change: object = None, whole: bool = False) -> None:
        with pytest.raises(psycopg2.errors.InsufficientPrivilege, match="only the side they play"):
            insert(after, change, whole)

    robbed = copy.deepcopy(before)
    robbed["sides"][carthage]["army"]["units"] = []  # Carthage's army gone
    refused(robbed)
    rewritten = copy.deepcopy(before)
    rewritten["battles"] = []  # the battles (and their results) gone
    refused(rewritten)
    renamed = copy.deepcopy(before)
    renamed["sides"][rome]["id"] = "carthage"  # her side passed off as another
    refused(renamed)
    own = copy.deepcopy(before)
    own["sides"][rome]["army"]["notes"] = "drilled all winter"  # her own side: allowed...
    refused(own, {"sides": {"whole": own["sides"]}})  # ...but not as the sides whole
    refused(own, {"sides": {"items": {str(rome): {"whole": own["sides"][rome]}}, "length": 2}})
    refused(own, whole=True)  # nor with a whole campaign the server cannot read
    insert(own)
    with club.raw("uma") as con:
        [(made_by,)] = con.execute(
            "SELECT made_by FROM campaign_step WHERE campaign_id = %s AND n = %s", (cid, n + 1)
        ).fetchall()
    assert made_by == "ann"


def test_a_read_on_a_club_server_loads_no_orm(club: Club) -> None:
    """``castra roster list`` on a club server reads through SQLAlchemy's core alone: no
    ORM session, so neither sqlmodel nor pydantic is imported (a third of its time)."""
    import os
    import subprocess
    import sys

    uma = club.open("uma")
    save_roster(uma, roster=_roster("Umpire's legion"))
    code = (
        "import sys\nfrom app.cli import main\ncode = main(['roster', 'list'])\n"
        "print('LOADED', code, sorted(m for m in ('sqlmodel', 'pydantic') if m in sys.modules))"
    )
    env = {**os.environ, "CASTRA_DB": club.url("bob"), "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert "Umpire's legion" in out.stdout, out.stdout + out.stderr
    assert "LOADED 0 []" in out.stdout, out.stdout
