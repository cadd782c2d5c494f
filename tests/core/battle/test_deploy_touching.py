"""Leg VI, Control: "Units ... in a line that touches a controlled unit" are under control,
so a new Leg VI battle stands each row's units side by side, touching: with the app's small
gaps between them some of the ready armies started out of control. Other rulesets keep the
gaps."""

from __future__ import annotations

from itertools import pairwise

from app.core.battle import BattleSession, NextPhase, StartBattle, new_battle
from app.core.ready import ready_roster
from app.rules.geometry import edge_distance
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry


def _battle(registry: Registry, ruleset: str) -> BattleSession:
    rs = registry.get(ruleset)
    mech = mechanics_for(rs)
    armies = list(rs.armies)
    rosters = (ready_roster(rs, armies[0]), ready_roster(rs, armies[1]))
    return BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=2)


def _row_gaps(session: BattleSession) -> list[float]:
    """Gaps between neighbours standing in one row (the same y), each side."""
    gaps = []
    units = sorted(session.state.units, key=lambda u: (u.side, round(u.y, 3), u.x))
    for a, b in pairwise(units):
        if a.side == b.side and abs(a.y - b.y) < 1e-6:
            gaps.append(edge_distance(a.footprint, b.footprint))
    return gaps


def test_leg_vi_lines_stand_touching_and_start_under_control(registry: Registry) -> None:
    session = _battle(registry, "leg-vi-carthago")
    gaps = _row_gaps(session)
    assert gaps and max(gaps) < 1e-6
    session.do(StartBattle())
    session.do(NextPhase())  # the command phase ends: control is judged
    out = [u.id for u in session.state.units if u.status.has("out_of_control")]
    assert out == []


def test_other_rulesets_keep_a_gap_between_units(registry: Registry) -> None:
    gaps = _row_gaps(_battle(registry, "d3-ancients"))
    assert gaps and min(gaps) > 0
