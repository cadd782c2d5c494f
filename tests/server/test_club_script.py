"""Done when (issue 15): a club's evening, scripted once, run against a real PostgreSQL club
server and against a local SQLite store, ends with the same results.

The club is set up as docs/reference/club-server.md says (``castra server init``, two
players and an umpire added with ``castra server add-member``); each player builds and edits
their own army; the umpire makes a campaign of the two, assigns the sides, fights its one
battle (every step stored as it is made), records and applies the result; a player then
promotes a leader of their own side. On the server each member works as their own login role,
and the records name who did what; locally every member is the one user."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.core.battle import Adjust, AdjustLeader, EndBattle
from app.core.battle.serialize import state_to_dict
from app.core.campaign.fight import hand_back, start_battle
from app.core.campaign.model import Campaign, CampaignSide, Participant
from app.core.campaign.serialize import campaign_to_dict
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import AddBattle, ApplyResult, Promote
from app.core.roster import Leader, new_roster, unit_from_entry
from app.core.rosterfile import to_dict as roster_to_dict
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import Store, list_rosters, load_roster, open_store, save_roster, update_roster
from app.store.battles import battle_for_update, create_battle, load_battle
from app.store.campaigns import (
    assign_side,
    campaign_for_update,
    create_campaign,
    load_campaign,
    step_makers,
)
from tests.pgcluster import Cluster

Open = Callable[[str], Store]


def club_evening(open_as: Open, registry: Registry) -> dict[str, Any]:
    """The script: every member's part, through the store; what it ended with."""
    rs = registry.get("leg-vi-carthago")
    ann, bob, uma = open_as("ann"), open_as("bob"), open_as("uma")
    try:
        # the players build their armies, then edit them
        rome = replace(
            new_roster(rs, "roman", name="Rome 216"),
            units=(unit_from_entry(rs, "roman", "roman_legion", id="legion", leader="paullus"),),
            leaders=(Leader("paullus", "Paullus", rank="general"), Leader("varro", "Varro")),
        )
        carthage = replace(
            new_roster(rs, "carthaginian", name="Carthage 216"),
            units=(unit_from_entry(rs, "carthaginian", "gauls", id="gauls", count=2),),
            leaders=(Leader("hannibal", "Hannibal", rank="general"), Leader("mago", "Mago")),
        )
        rid_rome = save_roster(ann, roster=rome)
        rid_carthage = save_roster(bob, roster=carthage)
        velites = unit_from_entry(rs, "roman", "velites", id="velites", count=2)
        update_roster(
            ann, roster_id=rid_rome, change=lambda r: replace(r, units=(*r.units, velites))
        )
        spear = unit_from_entry(
            rs, "carthaginian", "libyan_spearmen", id="libyans", leader="hannibal"
        )
        update_roster(
            bob, roster_id=rid_carthage, change=lambda r: replace(r, units=(*r.units, spear))
        )
        # the umpire makes the campaign of the two armies and assigns the sides
        campaign = Campaign(
            name="Italy",
            ruleset=rs.id,
            sides=(
                CampaignSide("rome", "Rome", load_roster(uma, roster_id=rid_rome)),
                CampaignSide("carthage", "Carthage", load_roster(uma, roster_id=rid_carthage)),
            ),
        )
        cid = create_campaign(uma, session=CampaignSession(rs, campaign))
        assign_side(uma, campaign_id=cid, side="rome", member="ann")
        assign_side(uma, campaign_id=cid, side="carthage", member="bob")
        with campaign_for_update(uma, campaign_id=cid, registry=registry) as s:
            s.do(AddBattle("Cannae", (Participant("rome"), Participant("carthage")), date="216 BC"))
            battle_key = s.campaign.battles[0].id
            at_start = s.campaign
        # the umpire fights the battle, each step stored as it is made
        mech = mechanics_for(rs)
        fought, rosters = start_battle(rs, mech, at_start, battle_key, seed=11)
        bid = create_battle(uma, session=fought, rosters=rosters)
        for command in (
            Adjust(unit="A1", field="strength", value="5"),
            AdjustLeader(leader="A-varro", status="wounded", wounds=1),
            Adjust(unit="B2", field="strength", value="2"),
            EndBattle(winner=1, reason="the Romans are surrounded"),
        ):
            with battle_for_update(uma, battle_id=bid, registry=registry) as s:
                s.do(command)
        stored = load_battle(uma, battle_id=bid, registry=registry)
        # ... records and applies its result
        with campaign_for_update(uma, campaign_id=cid, registry=registry) as s:
            s.do(hand_back(battle_key, stored, rosters, battle_id=bid))
            s.do(ApplyResult(battle_key))
        # a player promotes a leader of their own side
        with campaign_for_update(ann, campaign_id=cid, registry=registry) as s:
            s.do(Promote("rome", "varro", "paullus"))
        final = load_campaign(bob, campaign_id=cid, registry=registry)
        return {
            "rosters": {
                s.name: roster_to_dict(load_roster(bob, roster_id=s.id)) for s in list_rosters(bob)
            },
            "battle": [state_to_dict(stored.replay(n)) for n in range(stored.cursor + 1)],
            "campaign": campaign_to_dict(final.campaign),
            "steps": [d.step.label for d in final.done],
            "makers": step_makers(uma, campaign_id=cid),
        }
    finally:
        for store in (ann, bob, uma):
            store.close()


def test_a_club_evening_ends_the_same_on_the_server_as_locally(
    pg_cluster: Cluster | None,
    pg_empty: str,
    tmp_path: Path,
    registry: Registry,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert pg_cluster is not None
    monkeypatch.setenv("CASTRA_DB", str(tmp_path / "unused.sqlite3"))  # --store sets it
    # the club's setup, as docs/reference/club-server.md gives it
    assert main(["server", "init", pg_empty]) == 0
    for name, role in (("ann", "player"), ("bob", "player"), ("uma", "umpire")):
        # (--existing: the test cluster's roles are shared by every test)
        args = ["--store", pg_empty, "server", "add-member", name, "--role", role]
        assert main([*args, "--existing"]) == 0
    capsys.readouterr()
    database = pg_empty.rsplit("/", 1)[1]
    on_server = club_evening(lambda m: open_store(pg_cluster.url(database, user=m)), registry)
    path = tmp_path / "castra.sqlite3"
    locally = club_evening(lambda m: open_store(path), registry)

    assert on_server["makers"] == ["uma", "uma", "uma", "ann"]  # who did each step
    assert locally["makers"] == [None] * 4  # a local store has one user
    for key in ("rosters", "battle", "campaign", "steps"):
        assert on_server[key] == locally[key], key
    assert on_server["steps"] == [
        "Add battle Cannae",
        "Record the result of b1",
        "Apply the result of b1",
        "Promote varro",
    ]
    rome = on_server["campaign"]["sides"][0]["army"]
    assert [ld["rank"] for ld in rome["leaders"] if ld["id"] == "varro"] == ["general"]
