"""Each ruleset's leader rules carried through a campaign (Leg VI and Quincunx have their own
tests: ``test_campaign.py``, ``test_quincunx_wounds.py``): GSB, MWAN #90 and D3 are silent
on wounds, and their errata decide (``campaign-general-fate``, ``campaign-leaders``,
``campaign-commander-lost``); a battle put before another; a detachment's leaders."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import Act, Adjust, EndBattle, MoveUnit, NextPhase
from app.core.battle.commands import CommandError
from app.core.battle.result import hand_result, notes_from_log
from app.core.campaign.fight import battle_rosters, hand_back, start_battle
from app.core.campaign.model import Campaign, CampaignError, CampaignSide, Participant
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import AddBattle, ApplyResult, Promote, RecordResult
from app.core.roster import Leader, LeaderStatus, new_roster, unit_from_entry
from app.core.validation import validate
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry

#: (ruleset, (army, entry) of side A, (army, entry) of side B)
SMALL = {
    "grown-slightly-bald": (("rome", "heavy_infantry"), ("carthage", "heavy_infantry")),
    "mwan90": (("roman", "hastati"), ("carthaginian", "libyans")),
    "d3-ancients": (("roman", "legionaries"), ("carthaginian", "libyans")),
}


def _session(registry: Registry, ruleset: str, battles: int = 3) -> CampaignSession:
    attached = ruleset == "d3-ancients"
    """Two small armies, each a general attached to the first unit and a commander, and
    ``battles`` battles of the whole armies."""
    rs = registry.get(ruleset)
    sides = []
    for key, (army, entry), names in zip(
        ("a", "b"), SMALL[ruleset], (("scipio", "gracchus"), ("hannibal", "mago")), strict=True
    ):
        r = new_roster(rs, army, name=f"{key} army")
        r = replace(
            r,
            units=(
                unit_from_entry(rs, army, entry, id=f"{key}1", leader=names[0]),
                # D3: every commander is attached to a heavy unit (validation says so)
                unit_from_entry(
                    rs, army, entry, id=f"{key}2", leader=names[1] if attached else None
                ),
            ),
            leaders=(
                Leader(names[0], names[0].capitalize(), rank="general"),
                Leader(names[1], names[1].capitalize()),
            ),
        )
        sides.append(CampaignSide(key, key.upper(), r))
    session = CampaignSession(rs, Campaign("C", rs.id, (sides[0], sides[1])))
    for n in range(1, battles + 1):
        session.do(AddBattle(f"Battle {n}", (Participant("a"), Participant("b"))))
    return session


def _by_hand(session: CampaignSession, battle: str, fates: dict[str, tuple[str, int]]) -> None:
    rosters = battle_rosters(session.campaign, battle)
    session.do(RecordResult(battle, hand_result(rosters, winner=0, fates=fates)))  # type: ignore[arg-type]
    session.do(ApplyResult(battle))


@pytest.mark.parametrize("ruleset", ["grown-slightly-bald", "mwan90", "d3-ancients"])
def test_no_wound_kills_where_the_text_gives_no_wounds(registry: Registry, ruleset: str) -> None:
    """GSB (a general is fit or killed), MWAN #90 (no leader rules) and D3 (no wounds):
    wounds recorded by hand are kept, never kill, and the leader can still be fielded."""
    session = _session(registry, ruleset)
    assert session.ruleset.leaders.wounds_to_kill is None
    _by_hand(session, "Battle 1", {"scipio": ("wounded", 2)})
    _by_hand(session, "Battle 2", {"scipio": ("wounded", 3)})
    scipio = session.campaign.side("a").army.leader("scipio")
    assert (scipio.status, scipio.wounds) == (LeaderStatus.WOUNDED, 5)
    rosters = battle_rosters(session.campaign, "Battle 3")
    assert "scipio" in {ld.id for ld in rosters[0].leaders}
    messages = validate(session.ruleset, rosters[0]).messages
    assert not [m for m in messages if m.code.startswith("leader.") and m.severity == "error"]


@pytest.mark.parametrize("ruleset", ["grown-slightly-bald", "mwan90", "d3-ancients"])
def test_killed_general_is_replaced_by_promotion(registry: Registry, ruleset: str) -> None:
    """A general killed (GSB's death test, D3's commander lost with his unit, or recorded
    by hand) cannot be fielded again; promoting a commander gives the army a general, who
    takes the dead man's unit."""
    session = _session(registry, ruleset)
    _by_hand(session, "Battle 1", {"scipio": ("killed", 0)})
    rosters = battle_rosters(session.campaign, "Battle 2")
    assert [ld.id for ld in rosters[0].leaders] == ["gracchus"]
    assert rosters[0].unit("a1").leader is None
    if ruleset == "d3-ancients":  # Gracchus keeps his own unit
        session.do(Promote("a", "gracchus"))
        assert session.campaign.side("a").army.leader("gracchus").rank == "general"
        return
    with pytest.raises(CampaignError, match="Scipio is killed"):
        session.preview(AddBattle("X", (Participant("a", leaders=("scipio",)), Participant("b"))))
    session.do(Promote("a", "gracchus"))
    army = session.campaign.side("a").army
    assert army.leader("gracchus").rank == "general"
    assert army.leader("scipio").rank == "commander"
    assert army.unit("a1").leader == "gracchus"


def test_d3_commander_lost_with_his_unit_is_killed_in_the_campaign(registry: Registry) -> None:
    """D3: "If a commander's unit is eliminated ..."; errata "campaign-commander-lost": he is
    recorded killed. Fought through the battle core: the unit, at 8 hits, takes one more in
    melee and is eliminated at the end of the turn, the mechanics mark its commander killed,
    and the campaign carries both."""
    session = _session(registry, "d3-ancients")
    rs = session.ruleset
    bs, rosters = start_battle(rs, mechanics_for(rs), session.campaign, "Battle 1", seed=3)
    target = next(u for u in bs.state.units if u.id == "B1")
    bs.do(MoveUnit(unit="A1", x=target.x, y=target.y - 1))
    bs.do(Adjust(unit="B1", field="hits", value="8"))
    for _ in range(20):
        try:
            bs.do(Act(action="melee", actor="A1", target="B1"))
            break
        except CommandError:
            bs.do(NextPhase())  # to the Melee step of Rome's turn
    while (
        bs.state.result is None
        and not next(u for u in bs.state.units if u.id == "B1").status.eliminated
    ):
        bs.do(NextPhase())
    assert bs.state.leader("B-hannibal").status == "killed"
    if bs.state.result is None:
        bs.do(EndBattle(winner=0, reason="the players agree"))  # type: ignore[arg-type]
    step = hand_back("Battle 1", bs, rosters, battle_id=None)
    session.do(step)
    session.do(ApplyResult("Battle 1"))
    carthage = session.campaign.side("b")
    assert carthage.army.leader("hannibal").status is LeaderStatus.KILLED
    assert [(x.unit.id, x.reason) for x in carthage.lost] == [("b1", "destroyed")]
    assert "hannibal" not in {
        ld.id for ld in battle_rosters(session.campaign, "Battle 2")[1].leaders
    }


def test_a_battle_put_before_another(registry: Registry) -> None:
    session = _session(registry, "mwan90", battles=2)
    _by_hand(session, "Battle 1", {})
    session.do(AddBattle("Skirmish", (Participant("a"), Participant("b")), before="Battle 2"))
    assert [b.name for b in session.campaign.battles] == ["Battle 1", "Skirmish", "Battle 2"]
    assert session.campaign.battle("Skirmish").id == "b3"  # ids are never reused
    with pytest.raises(CampaignError, match="apply the result of Skirmish first"):
        rosters = battle_rosters(session.campaign, "Battle 2")
        session.do(RecordResult("Battle 2", hand_result(rosters, winner=0)))
        session.do(ApplyResult("Battle 2"))
    with pytest.raises(CampaignError, match="Battle 1 is applied"):
        session.preview(AddBattle("Too late", (Participant("a"), Participant("b")), before="b1"))


def test_a_detachment_takes_only_its_own_leaders(registry: Registry) -> None:
    session = _session(registry, "mwan90", battles=0)
    session.do(AddBattle("Raid", (Participant("a", units=("a2",)), Participant("b"))))
    rosters = battle_rosters(session.campaign, "Raid")
    assert rosters[0].leaders == ()  # Scipio stays with a1, Gracchus leads nothing here
    session.do(AddBattle("Sortie", (Participant("a", units=("a1",)), Participant("b"))))
    assert [ld.id for ld in battle_rosters(session.campaign, "Sortie")[0].leaders] == ["scipio"]


def test_chronicle_notes_keep_outcomes_not_initiative() -> None:
    lines = [
        "Carthage wins and chooses to move or counter-move (moves first).",
        "P. Cornelius Scipio joins Equites (A1).",
        "Velites (A5) are destroyed.",
        "The battle ends: Carthage wins (declared by the players).",
    ]
    assert notes_from_log(lines, ["P. Cornelius Scipio"]) == (lines[2], lines[3])


def test_a_unit_named_lost_without_a_reason_is_lost(registry: Registry) -> None:
    session = _session(registry, "mwan90", battles=1)
    rosters = battle_rosters(session.campaign, "Battle 1")
    result = hand_result(rosters, winner=1, lost={("a2", 0): ""})
    assert [(u.roster_unit, u.lost, u.reason) for u in result.sides[0].units] == [
        ("a1", False, None),
        ("a2", True, "lost"),
    ]
