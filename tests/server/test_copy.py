"""Moving between stores (issue 15): a local roster, and a campaign with the battle it was
fought with, copied to the club server and back, whole: the same ids, versions and history;
a copy that cannot be made whole writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.battle import EndBattle
from app.core.campaign.fight import hand_back, start_battle
from app.core.campaign.steps import ApplyResult
from app.core.roster import Roster
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import (
    AccessRefused,
    StoreError,
    list_rosters,
    load_roster_versioned,
    open_store,
    rename_roster,
    save_roster,
)
from app.store.battles import create_battle, list_battles, load_battle
from app.store.campaigns import create_campaign, list_campaigns, load_campaign
from app.store.transfer import copy_campaign, copy_roster
from tests.core.campaign.helpers import leg_vi_campaign
from tests.server.conftest import Club


def test_a_roster_goes_to_the_server_and_back_whole(
    club: Club, tmp_path: Path, full_roster: Roster
) -> None:
    local = open_store(tmp_path / "a.sqlite3")
    save_roster(local, roster=full_roster)
    rid = save_roster(local, roster=full_roster)
    rename_roster(local, roster_id=rid, name="Renamed once")
    before = load_roster_versioned(local, roster_id=rid)
    ann = club.open("ann")
    assert copy_roster(local, ann, roster_id=rid).rosters == (rid,)
    assert load_roster_versioned(ann, roster_id=rid) == before
    rename_roster(ann, roster_id=rid, name="Edited at the club")  # it is ann's now
    with pytest.raises(StoreError, match="already exists"):
        copy_roster(local, ann, roster_id=rid)
    back = open_store(tmp_path / "b.sqlite3")
    copy_roster(ann, back, roster_id=rid)
    assert load_roster_versioned(back, roster_id=rid) == load_roster_versioned(ann, roster_id=rid)
    assert save_roster(ann, roster=full_roster) > rid  # the server's ids went past it
    local.close()
    back.close()


def test_a_campaign_goes_with_its_battles_and_back(
    club: Club, tmp_path: Path, registry: Registry
) -> None:
    local = open_store(tmp_path / "a.sqlite3")
    session = leg_vi_campaign(registry)
    cid = create_campaign(local, session=session)
    rs = session.ruleset
    fought, rosters = start_battle(rs, mechanics_for(rs), session.campaign, "Trebia", seed=4)
    fought.do(EndBattle(winner=0, reason="agreed"))
    bid = create_battle(local, session=fought, rosters=rosters)
    from app.store.campaigns import campaign_for_update

    with campaign_for_update(local, campaign_id=cid, registry=registry) as s:
        s.do(hand_back("Trebia", fought, rosters, battle_id=bid))
        s.do(ApplyResult("Trebia"))
    with pytest.raises(AccessRefused):  # a player may not bring campaigns to the club
        copy_campaign(local, club.open("ann"), campaign_id=cid, registry=registry)
    uma = club.open("uma")
    assert list_campaigns(uma) == [] and list_battles(uma) == []  # nothing half-written
    copied = copy_campaign(local, uma, campaign_id=cid, registry=registry)
    assert copied.campaigns == (cid,) and copied.battles == (bid,)
    back = open_store(tmp_path / "b.sqlite3")
    copy_campaign(uma, back, campaign_id=cid, registry=registry)
    for store in (uma, back):
        got = load_campaign(store, campaign_id=cid, registry=registry)
        want = load_campaign(local, campaign_id=cid, registry=registry)
        assert (got.done, got.cursor, got.version) == (want.done, want.cursor, want.version)
        battle = load_battle(store, battle_id=bid, registry=registry)
        assert battle.steps == fought.steps and battle.state == fought.state
    assert list_rosters(back) == []
    local.close()
    back.close()


def test_the_command_line_copies_to_the_server_and_says_so(
    club: Club,
    tmp_path: Path,
    full_roster: Roster,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.cli import main

    path = tmp_path / "a.sqlite3"
    with open_store(path) as local:
        rid = save_roster(local, roster=full_roster)
    monkeypatch.setenv("CASTRA_DB", str(path))
    assert main(["store", "copy", "roster", str(rid), "--to", club.url("ann")]) == 0
    assert f"copied roster {rid}" in capsys.readouterr().out
    assert main(["store", "copy", "roster", str(rid), "--to", club.url("ann")]) == 1
    assert "already exists" in capsys.readouterr().err
    gone = "postgresql://ann@127.0.0.1:1/nowhere"
    assert main(["store", "copy", "roster", str(rid), "--to", gone]) == 1
    err = capsys.readouterr().err
    assert err.startswith("castra: cannot reach the club server") and err.count("\n") == 1
