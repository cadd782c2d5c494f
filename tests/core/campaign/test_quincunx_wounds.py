"""Quincunx, Commanders: wounds carried through a campaign slow the commander in the next
battle (4 MF, 2 MF, 1 MF) and the third kills; the campaign's file round-trips."""

from __future__ import annotations

from app.core.battle.result import hand_result
from app.core.campaign.campaignfile import dumps, loads
from app.core.campaign.fight import battle_rosters, start_battle
from app.core.campaign.model import Campaign, CampaignSide, Participant
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import AddBattle, ApplyResult, RecordResult
from app.core.roster import LeaderStatus, new_roster
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry


def _session(registry: Registry) -> CampaignSession:
    rs = registry.get("quincunx")
    rome = new_roster(rs, "roman", name="Rome", standard=True)
    carthage = new_roster(rs, "carthaginian", name="Carthage", standard=True)
    c = Campaign(
        "Q", rs.id, (CampaignSide("r", "Rome", rome), CampaignSide("c", "Carthage", carthage))
    )
    s = CampaignSession(rs, c)
    for n in ("One", "Two", "Three", "Four"):
        s.do(AddBattle(n, (Participant("r"), Participant("c"))))
    return s


def _wound_scipio(s: CampaignSession, battle: str) -> None:
    rosters = battle_rosters(s.campaign, battle)
    s.do(RecordResult(battle, hand_result(rosters, winner=0, fates={"scipio": ("wounded", 1)})))
    s.do(ApplyResult(battle))


def test_wounded_commander_moves_slower_next_battle_and_third_wound_kills(
    registry: Registry,
) -> None:
    s = _session(registry)
    rs = s.ruleset
    mech = mechanics_for(rs)
    moves = []
    for battle in ("One", "Two", "Three"):
        bs, _ = start_battle(rs, mech, s.campaign, battle, seed=1)
        moves.append(mech.leader_move(bs.state.leader_view(bs.state.leader("A-scipio"))))  # type: ignore[attr-defined]
        _wound_scipio(s, battle)
    assert moves == [12.0, 6.0, 3.0]  # 4 MF, 2 MF, 1 MF (errata "leader-wound-move")
    scipio = s.campaign.side("r").army.leader("scipio")
    assert (scipio.status, scipio.wounds) == (LeaderStatus.KILLED, 3)
    rosters = battle_rosters(s.campaign, "Four")
    assert "scipio" not in {ld.id for ld in rosters[0].leaders}


def test_campaign_file_round_trip(registry: Registry) -> None:
    s = _session(registry)
    _wound_scipio(s, "One")
    s.undo()
    again = loads(dumps(s), registry)
    assert again.start == s.start
    assert again.cursor == s.cursor and len(again.done) == len(s.done)
    assert [d.campaign for d in again.done] == [d.campaign for d in s.done]
