"""A three-battle Leg VI campaign fought through the battle core (issue 11's "done when"),
and the same campaign recorded by hand."""

from __future__ import annotations

import pytest

from app.core.battle.result import hand_result
from app.core.campaign.diff import diff
from app.core.campaign.fight import battle_rosters, start_battle
from app.core.campaign.model import CampaignError, Participant
from app.core.campaign.steps import AddBattle, ApplyResult, RecordResult
from app.core.roster import LeaderStatus
from app.core.validation import validate
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.core.campaign.helpers import army, fight, leg_vi_campaign

#: Trebia: the legion loses 3 of 10 bases, the first velites 2 of 6, the second is
#: destroyed; Servilius is killed and Varro wounded; Carthage wins.
TREBIA = (
    [("A1", 7), ("A2", 4), ("A3", 0)],
    [("A-servilius", "killed", None), ("A-varro", "wounded", None)],
    1,
)
#: Trasimene: Varro is wounded again (his second wound) and Paullus captured; the Gauls
#: lose 4 of 8 bases.
TRASIMENE = ([("B2", 4)], [("A-varro", "wounded", None), ("A-paullus", "captured", None)], 1)
CANNAE = ([("A1", 2), ("B3", 6)], [("B-mago", "wounded", None)], 1)


def test_three_battles_through_the_core(registry: Registry) -> None:
    session = leg_vi_campaign(registry)
    rs = session.ruleset
    mech = mechanics_for(rs)
    fight(registry, session, "Trebia", TREBIA)
    after_trebia = session.campaign
    rome = army(session, "rome")
    # losses carried by the ruleset's default recovery (Leg VI: half, rounded down)
    assert rs.campaign.recovery == "half"
    assert rome.unit("legion").size == 7 + 3 // 2
    assert rome.unit("velites").size == 4 + 1 and rome.unit("velites").count == 1
    assert [(x.unit.name, x.reason, x.battle) for x in after_trebia.side("rome").lost] == [
        ("Velites", "destroyed", "b1")
    ]
    assert rome.leader("servilius").status is LeaderStatus.KILLED
    assert (rome.leader("varro").status, rome.leader("varro").wounds) == (LeaderStatus.WOUNDED, 1)

    # a leader killed in battle 1 cannot be fielded in battle 2
    rosters = battle_rosters(session.campaign, "Trasimene")
    assert "servilius" not in {ld.id for ld in rosters[0].leaders}
    with pytest.raises(CampaignError, match="Servilius is killed"):
        session.preview(
            AddBattle(
                "Skirmish", (Participant("rome", leaders=("servilius",)), Participant("carthage"))
            )
        )
    assert not [m for m in validate(rs, rosters[0]).messages if m.code == "leader.unfit"]

    # a leader wounded in battle 1 fights battle 2 with the ruleset's penalty: one action less
    bs, _ = start_battle(rs, mech, session.campaign, "Trasimene", seed=3)
    varro = bs.state.leader("A-varro")
    assert varro.wounds == 1
    budget = mech.leader_budget(bs.state.leader_view(varro), bs.state.sides[0].record)  # type: ignore[attr-defined]
    fit = mech.leader_budget(bs.state.leader_view(bs.state.leader("B-mago")), {})  # type: ignore[attr-defined]
    assert (budget, fit) == (0, 1)

    fight(registry, session, "Trasimene", TRASIMENE)
    rome = army(session, "rome")
    # a second Leg VI wound kills, though it was recorded as a wound
    assert (rome.leader("varro").status, rome.leader("varro").wounds) == (LeaderStatus.KILLED, 2)
    assert rome.leader("paullus").status is LeaderStatus.CAPTURED
    assert army(session, "carthage").units[1].size == 4 + 2  # the first Gauls: 8 -> 4, +2

    # undoing the application of battle 2's result restores battle 1's aftermath exactly
    session.undo()
    assert session.campaign.battle("Trasimene").result is not None
    session.undo()
    assert session.campaign == after_trebia
    session.redo()
    session.redo()
    fight(registry, session, "Cannae", CANNAE)
    assert army(session, "carthage").leader("mago").wounds == 1
    assert [b.applied for b in session.campaign.battles] == [True, True, True]
    # each battle keeps the armies as they went in
    went = session.campaign.battle("Cannae").went_in
    assert went is not None and "paullus" not in {ld.id for ld in went[0].leaders}


@pytest.mark.parametrize(("rule", "legion"), [("none", 7), ("half", 8), ("all", 10)])
def test_recovery_rules(registry: Registry, rule: str, legion: int) -> None:
    session = leg_vi_campaign(registry, recovery=rule)
    fight(registry, session, "Trebia", TREBIA)
    assert army(session, "rome").unit("legion").size == legion
    # a destroyed unit never comes back, whatever the rule
    assert len(session.campaign.side("rome").lost) == 1


def test_the_same_campaign_by_hand_gives_the_same_armies(registry: Registry) -> None:
    fought = leg_vi_campaign(registry)
    for name, plan in (("Trebia", TREBIA), ("Trasimene", TRASIMENE), ("Cannae", CANNAE)):
        fight(registry, fought, name, plan)
    by_hand = leg_vi_campaign(registry)
    hand = {
        "Trebia": dict(
            ends={("legion", 0): 7, ("velites", 0): 4, ("velites", 1): 0},
            fates={"servilius": ("killed", 0), "varro": ("wounded", 1)},
        ),
        "Trasimene": dict(
            ends={("gauls", 0): 4}, fates={"varro": ("wounded", 1), "paullus": ("captured", 0)}
        ),
        "Cannae": dict(ends={("legion", 0): 2, ("gauls.2", 0): 6}, fates={"mago": ("wounded", 1)}),
    }
    for name, fields in hand.items():
        rosters = battle_rosters(by_hand.campaign, name)
        result = hand_result(rosters, winner=1, **fields)  # type: ignore[arg-type]
        by_hand.do(RecordResult(name, result))
        by_hand.do(ApplyResult(name))
    for side in ("rome", "carthage"):
        assert by_hand.campaign.side(side) == fought.campaign.side(side)


def test_apply_preview_is_a_diff_in_words(registry: Registry) -> None:
    session = leg_vi_campaign(registry)
    rosters = battle_rosters(session.campaign, "Trebia")
    result = hand_result(
        rosters,
        winner=1,
        ends={("legion", 0): 7, ("velites", 1): 0},
        fates={"paullus": ("killed", 0), "varro": ("wounded", 1)},
    )
    session.do(RecordResult("Trebia", result))
    lines = diff(session.ruleset, session.campaign, session.preview(ApplyResult("Trebia")))
    assert "  Paullus: fit -> killed" in lines
    assert "  Varro: fit -> wounded (1 wound)" in lines
    assert "  Roman legion: 10 bases -> 8 bases" in lines
    assert "  Velites: 2 x 6 bases -> 6 bases" in lines
    assert "  Velites: 6 bases -> lost (destroyed)" in lines


def test_results_apply_in_order_and_once(registry: Registry) -> None:
    session = leg_vi_campaign(registry)
    rosters = battle_rosters(session.campaign, "Trasimene")
    session.do(RecordResult("Trasimene", hand_result(rosters, winner=None)))
    with pytest.raises(CampaignError, match="has no result"):
        session.do(ApplyResult("Trebia"))
    with pytest.raises(CampaignError, match="apply the result of Trebia first"):
        session.do(ApplyResult("Trasimene"))
    fight(registry, session, "Trebia", TREBIA)
    with pytest.raises(CampaignError, match="already applied"):
        session.do(ApplyResult("Trebia"))
