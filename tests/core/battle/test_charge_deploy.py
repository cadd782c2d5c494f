"""Charge and Deploy in a battle: a charge moves the unit along the path found into contact
(front to front, to a flank), refused naming the rule unless forced; the stored command
holds its path and replays it; deployment is inside the side's zone before play only; a new
battle stands every unit inside its zone."""

from __future__ import annotations

import json
import math

import pytest

from app.core.battle import (
    BattleSession,
    Charge,
    CommandError,
    Deploy,
    MoveUnit,
    NextPhase,
    plan_charge,
)
from app.core.battle.commands import command_from_dict
from app.core.battle.session import step_from_dict, step_to_dict
from app.rules.contact import zone_holds
from app.rules.geometry import edge_distance
from app.rules.registry import Registry
from tests.core.battle.test_table_commands import make_session


@pytest.fixture
def session(registry: Registry) -> BattleSession:
    return make_session(registry)


def charge(s: BattleSession, unit: str, target: str, force: bool = False) -> Charge:
    return plan_charge(s.state, s.mechanics, unit, target, force=force)


def test_a_charge_ends_front_to_front_and_replays(session: BattleSession) -> None:
    b1 = session.state.unit("B1")
    # B1's front edge is at y = b1.y - 1.5; stand A1 3.3" short of it (unchecked old form)
    session.do(MoveUnit(unit="A1", x=b1.x, y=b1.y - 3 - 3.3))
    cmd = charge(session, "A1", "B1")
    assert cmd.how == "front" and len(cmd.legs) == 1
    step = session.do(cmd)
    a1 = session.state.unit("A1")
    assert (a1.x, a1.y, a1.facing) == pytest.approx((b1.x, b1.y - 3, 0))
    assert a1.moved == pytest.approx(3.3)
    assert edge_distance(a1.footprint, b1.footprint) == pytest.approx(0, abs=1e-9)
    assert step.lines[0].endswith("(B1): contact front to front.")
    again = step_from_dict(json.loads(json.dumps(step_to_dict(step))))
    assert again == step
    assert command_from_dict(cmd.to_dict()) == cmd
    session.undo()
    session.redo()
    assert session.state == step.state
    assert session.replay(len(session.steps)) == step.state


def test_a_flank_charge(session: BattleSession) -> None:
    b1 = session.state.unit("B1")  # faces -y: its right flank is towards -x
    session.do(MoveUnit(unit="A1", x=b1.x - 6 - 1.5 - 3.78, y=b1.y, facing=90))
    session.do(charge(session, "A1", "B1"))
    a1 = session.state.unit("A1")
    assert (a1.x, a1.y, a1.facing) == pytest.approx((b1.x - 7.5, b1.y, 90))
    assert "contact to the flank" in session.steps[-1].lines[0]


def test_a_charge_the_rules_forbid_is_refused_unless_forced(session: BattleSession) -> None:
    before = session.state
    with pytest.raises(CommandError) as err:
        session.do(charge(session, "A1", "B1"))
    text = str(err.value)
    assert "may not charge Libyan (African) veterans 1 (B1): D3 Ancients, movement:" in text
    assert text.endswith("force it to override") and session.state == before
    step = session.do(charge(session, "A1", "B1", force=True))
    assert any(line.startswith("Forced past: D3 Ancients, movement:") for line in step.lines)
    a1, b1 = session.state.unit("A1"), session.state.unit("B1")
    assert edge_distance(a1.footprint, b1.footprint) < 1e-6


def test_a_friend_cannot_be_charged(session: BattleSession) -> None:
    with pytest.raises(CommandError, match=r"is a friend"):
        session.do(charge(session, "A1", "A2"))
    with pytest.raises(CommandError, match=r"is a friend"):  # a hand-made path as well
        session.do(Charge(unit="A1", target="A2", legs=charge(session, "A1", "B1").legs))


def test_a_path_that_does_not_reach_is_no_charge(session: BattleSession) -> None:
    from app.rules.paths import Leg

    with pytest.raises(CommandError, match="the path does not reach"):
        session.do(Charge(unit="A1", target="B1", legs=(Leg.straight(2),)))


def test_deploy_inside_the_zone_before_play(session: BattleSession) -> None:
    step = session.do(Deploy(unit="A1", x=10, y=5, facing=0))
    a1 = session.state.unit("A1")
    assert (a1.x, a1.y, a1.moved) == (10, 5, 0)
    assert step.lines[0].endswith("deploys at (10, 5) facing 0 degrees.")
    leader = session.state.leader_of("A1")
    assert leader is None or (leader.x, leader.y) == (10, 5)
    for cmd, words in (
        (Deploy(unit="A1", x=10, y=12), "outside Rome's deployment zone"),
        (Deploy(unit="A1", x=36, y=8.7), "would stand on"),
        (Deploy(unit="A1", x=math.nan, y=5), "finite"),
        (Deploy(unit="A1", x=1e300, y=5), "out of range"),
        (Deploy(unit="B1", x=10, y=5), "outside Carthage's deployment zone"),
    ):
        before = session.state
        with pytest.raises(CommandError, match=words):
            session.do(cmd)
        assert session.state == before
    session.do(Deploy(unit="A1", x=10, y=12, force=True))
    session.do(NextPhase())
    with pytest.raises(CommandError, match="only before play"):
        session.do(Deploy(unit="A2", x=50, y=5))


def test_a_new_battle_stands_every_unit_in_its_zone(session: BattleSession) -> None:
    view = session.state.view()
    zones = session.mechanics.deployment_zones(view)
    for u in session.state.units:
        assert zone_holds(zones[u.side], u.footprint.corners()), u.id
        assert u.facing == (0 if u.side == 0 else 180)
        assert session.mechanics.check_deploy(view, u.id, u.footprint) == ()


def test_a_narrow_zone_packs_the_rows_inside_it(registry: Registry) -> None:
    from app.core.battle import new_battle
    from app.rules.mechanics import TurnView
    from tests.core.battle.test_table_commands import roster
    from tests.core.battle.toy import ToyMechanics

    class Narrow(ToyMechanics):
        def deployment_depth(self, view: TurnView) -> float:
            return 4.0

    rs = registry.get("d3-ancients")
    mech = Narrow(rs)
    state = new_battle(rs, mech, (roster(registry, "roman"), roster(registry, "carthaginian")))
    zones = mech.deployment_zones(state.view())
    assert zones[0][2] == (72.0, 4.0)
    for u in state.units:
        assert zone_holds(zones[u.side], u.footprint.corners()), (u.id, u.y)
