"""Issue 23: leaders stand with their troops when a battle begins, as each ruleset puts them.

- A leader the roster attaches to a unit starts with it (the first of a line of identical
  units), in every ruleset.
- Quincunx (errata "leaders-at-start"): "a leader may attach himself to a specific unit" and
  commanders should "place themselves in such a position as to be able to command their
  troops": Castra starts each with the unit nearest the centre of his battlegroup.
- Leg VI: "Units within 4" of a detached leader are considered to be under control ... Leaders
  attached to a unit only exert control over that unit": he starts detached, just behind the
  centre of his command.
- GSB: "generals must be attached to a unit"; D3: "Commanders must be attached to a heavy
  infantry or heavy cavalry unit at the start of the game".
- MWAN #90: the article has no leaders; one a roster names starts detached behind his command.
"""

from __future__ import annotations

import math
from dataclasses import replace

from app.core.battle import new_battle
from app.core.battle.sample import sample_roster
from app.core.battle.state import BattleLeader, BattleState, BattleUnit
from app.core.roster import Command, Leader, Roster, Unit, new_roster
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry


def _battle(registry: Registry, ruleset: str, a: Roster, b: Roster) -> BattleState:
    rs = registry.get(ruleset)
    return new_battle(rs, mechanics_for(rs), (a, b))


def _units_of(state: BattleState, side: int, roster: Roster, command: str) -> list[BattleUnit]:
    lines = {u.id for u in roster.units if u.command == command}
    return [u for u in state.units if u.side == side and u.roster_unit in lines]


def _nearest_centre(units: list[BattleUnit]) -> BattleUnit:
    cx = sum(u.x for u in units) / len(units)
    cy = sum(u.y for u in units) / len(units)
    return min(units, key=lambda u: math.hypot(u.x - cx, u.y - cy))


def _leader(state: BattleState, roster_id: str, side: int) -> BattleLeader:
    return state.leader(f"{'AB'[side]}-{roster_id}")


def test_quincunx_commanders_start_with_the_centre_of_their_battlegroups(
    registry: Registry,
) -> None:
    rs = registry.get("quincunx")
    rome, carthage = sample_roster(rs, "roman"), sample_roster(rs, "carthaginian")
    state = _battle(registry, "quincunx", rome, carthage)
    for side, roster in enumerate((rome, carthage)):
        assert roster.leaders and roster.commands
        for command in roster.commands:
            assert command.leader is not None
            leader = _leader(state, command.leader, side)
            units = _units_of(state, side, roster, command.id)
            assert leader.attached_to == _nearest_centre(units).id
            host = state.unit(leader.attached_to)
            assert (leader.x, leader.y) == (host.x, host.y)
    # none is piled at the middle of the baseline any more
    assert len({(ld.x, ld.y) for ld in state.leaders}) == len(state.leaders)


def _legion_rosters(registry: Registry) -> tuple[Roster, Roster]:
    rs = registry.get("leg-vi-carthago")
    rome = replace(
        new_roster(rs, "roman", name="Consuls"),
        units=(
            Unit("u1", "roman_legion", "Legio I", 10, command="c1", grade="B"),
            Unit("u2", "velites", "Velites", 4, command="c1", grade="B"),
            Unit("u3", "roman_equites", "Equites", 4, command="c2", grade="C"),
        ),
        leaders=(
            Leader("varro", "Varro", rank="general"),
            Leader("paullus", "Paullus", rank="commander"),
        ),
        commands=(Command("c1", "Centre", leader="varro"), Command("c2", "Horse", "paullus")),
    )
    carthage = replace(
        new_roster(rs, "carthaginian", name="Punic army"),
        units=(
            Unit("u1", "gauls", "Gauls", 6, command="c1", grade="C", leader="hannibal"),
            Unit("u2", "balearic_slingers", "Slingers", 4, command="c1", grade="C"),
        ),
        leaders=(Leader("hannibal", "Hannibal", rank="general", fields={"exceptional": True}),),
        commands=(Command("c1", "Centre", leader="hannibal"),),
    )
    return rome, carthage


def test_leg_vi_leaders_start_detached_behind_their_commands(registry: Registry) -> None:
    rome, carthage = _legion_rosters(registry)
    state = _battle(registry, "leg-vi-carthago", rome, carthage)
    for leader_id, command in (("varro", "c1"), ("paullus", "c2")):
        leader = _leader(state, leader_id, 0)
        assert leader.attached_to is None
        units = _units_of(state, 0, rome, command)
        # behind his command (side A faces +y), at its centre across the table
        assert leader.y < min(u.y - u.depth / 2 for u in units)
        assert leader.x == sum(u.x for u in units) / len(units)
        assert 0 <= leader.y <= state.height
    # a roster that attaches its leader is obeyed
    hannibal = _leader(state, "hannibal", 1)
    assert hannibal.attached_to == next(u.id for u in state.units if u.name == "Gauls")


def test_gsb_generals_start_with_a_unit(registry: Registry) -> None:
    rs = registry.get("grown-slightly-bald")
    rome, carthage = (
        replace(r, units=tuple(replace(u, leader=None) for u in r.units))  # nobody says where
        for r in (sample_roster(rs, "rome"), sample_roster(rs, "carthage"))
    )
    state = _battle(registry, "grown-slightly-bald", rome, carthage)
    for side in (0, 1):
        [general] = [ld for ld in state.leaders if ld.side == side]
        assert general.attached_to is not None
        side_units = [u for u in state.units if u.side == side]
        assert general.attached_to == _nearest_centre(side_units).id


def test_d3_commanders_start_on_heavy_foot_or_horse(registry: Registry) -> None:
    rs = registry.get("d3-ancients")
    rome = replace(
        new_roster(rs, "roman", name="Rome"),
        units=(
            Unit("u1", "velites", "Velites", 3),
            Unit("u2", "allied_cavalry", "Allied horse", 3),
            Unit("u3", "equites", "Equites", 3),
            Unit("u4", "velites", "More velites", 3),
        ),
        leaders=(Leader("scipio", "Scipio", rank="general"),),
    )
    carthage = sample_roster(rs, "carthaginian")
    state = _battle(registry, "d3-ancients", rome, carthage)
    scipio = _leader(state, "scipio", 0)
    assert state.unit(str(scipio.attached_to)).name == "Equites"  # the only heavy unit
    for ld in state.leaders:
        host = state.unit(str(ld.attached_to))
        assert rs.troops[host.troop].category.value in ("heavy_infantry", "heavy_cavalry")


def test_mwan90_leaders_the_article_lacks_start_detached(registry: Registry) -> None:
    rs = registry.get("mwan90")
    rome = replace(
        sample_roster(rs, "roman"), leaders=(Leader("scipio", "Scipio", rank="general"),)
    )
    rome = replace(rome, units=tuple(replace(u, leader=None) for u in rome.units))
    state = _battle(registry, "mwan90", rome, sample_roster(rs, "carthaginian"))
    scipio = _leader(state, "scipio", 0)
    assert scipio.attached_to is None
    assert scipio.y < min(u.y for u in state.units if u.side == 0)


def test_killed_and_captured_leaders_are_not_fielded(registry: Registry) -> None:
    from app.core.roster import LeaderStatus

    rome, carthage = _legion_rosters(registry)
    rome = replace(
        rome,
        leaders=(
            replace(rome.leaders[0], status=LeaderStatus.KILLED),
            replace(rome.leaders[1], status=LeaderStatus.WOUNDED, wounds=1),
        ),
    )
    state = _battle(registry, "leg-vi-carthago", rome, carthage)
    assert [(ld.name, ld.status, ld.wounds) for ld in state.leaders if ld.side == 0] == [
        ("Paullus", "wounded", 1)
    ]
