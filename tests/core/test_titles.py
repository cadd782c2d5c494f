"""Issue 24 (polish): what the window says of a step names units, leaders and battles, never
their internal ids ("Undo Fight battle b3", "Apply the result of b1", "Set A-scipio killed").
The command line's history keeps the ids (``label``)."""

from __future__ import annotations

from app.core.battle import AdjustLeader, AttachLeader, MoveUnit, new_battle
from app.core.battle.commands import Act, Adjust
from app.core.battle.moves import Charge
from app.core.battle.sample import sample_roster
from app.core.campaign.steps import ApplyResult, LinkBattle, Promote
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.core.campaign.helpers import leg_vi_campaign


def test_battle_steps_name_units_and_leaders(registry: Registry) -> None:
    rs = registry.get("d3-ancients")
    state = new_battle(
        rs,
        mechanics_for(rs),
        (sample_roster(rs, "roman"), sample_roster(rs, "carthaginian")),
    )
    a1, b1 = state.unit("A1"), state.unit("B1")
    leader = state.leaders[0]
    assert MoveUnit(unit="A1", x=1, y=1).title(state) == f"Move {a1.name} (A1)"
    assert Charge(unit="A1", target="B1").title(state) == (
        f"Charge: {a1.name} (A1) against {b1.name} (B1)"
    )
    assert Act(action="melee", actor="A1", target="B1").title(state) == (
        f"Melee: {a1.name} (A1) against {b1.name} (B1)"
    )
    assert (
        Adjust(unit="B1", field="hits", value="2").title(state) == f"Adjust {b1.name} (B1): hits 2"
    )
    assert AttachLeader(leader=leader.id, unit="A1").title(state) == (
        f"Attach {leader.name} to {a1.name} (A1)"
    )
    assert AdjustLeader(leader=leader.id, status="killed").title(state) == (
        f"Set {leader.name} killed"
    )
    assert leader.id not in AdjustLeader(leader=leader.id, status="killed").title(state)
    # the ids stay in the label the command line's history and JSON give
    assert MoveUnit(unit="A1", x=1, y=1).label == "Move A1"


def test_campaign_steps_name_battles_and_leaders(registry: Registry) -> None:
    session = leg_vi_campaign(registry)
    campaign = session.campaign
    first = campaign.battles[0]
    assert LinkBattle(first.id, 7).title(campaign) == f"Fight {first.name}"
    assert ApplyResult(first.id).title(campaign) == f"Apply the result of {first.name}"
    assert Promote("rome", "varro").title(campaign) == "Promote Varro"
    session.do(LinkBattle(first.id, 7))
    assert session.undo_label() == "Fight Trebia"
    assert first.id not in (session.undo_label() or "")
