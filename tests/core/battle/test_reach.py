"""What the map's overlays and ruler ask of the core: the legs a drag stands for, a unit's
reach by the mechanics' own checks, sight blocked by terrain that blocks it, and a ruler
reading base edge to base edge with the terrain crossed (no Qt)."""

from __future__ import annotations

import math

import pytest

from app.core.battle import AddTerrain, BattleSession, NextPhase
from app.core.battle.reach import drag_legs, reach_outline, ruler, sight
from app.core.battle.sample import sample_session
from app.rules.geometry import Footprint, edge_distance
from app.rules.mechanics import mechanics_for
from app.rules.paths import Leg, Path
from app.rules.registry import Registry


@pytest.fixture
def session(registry: Registry) -> BattleSession:
    rs = registry.get("d3-ancients")
    s = sample_session(rs, mechanics_for(rs))
    s.do(NextPhase())
    return s


def test_a_drag_is_straight_on_then_sideways_facing_kept() -> None:
    start = Footprint(10, 10, 90, 4, 1)  # facing +x
    assert drag_legs(start, 13, 8) == (Leg.straight(3), Leg.sideways(2))
    assert drag_legs(start, 10.0004, 10) == ()
    assert drag_legs(start, 13.04, 10, step=0.1) == (Leg.straight(3.0),)
    (to,) = drag_legs(start, 10, 14, turn_to_face=True)
    assert to == Leg.to(10, 14)


def test_reach_is_where_check_move_allows(session: BattleSession) -> None:
    view = session.state.view()
    mech = session.mechanics
    reach = reach_outline(mech, view, "A3")
    assert reach.left == 9.0 and len(reach.outline) == 24
    a3 = view.unit("A3")
    ahead = reach.outline[0]  # straight ahead: the whole 9"
    assert ahead == pytest.approx((a3.x, a3.y + 9.0))
    for x, y in reach.outline:
        legs = drag_legs(a3.footprint, x, y)
        if legs:
            assert not mech.check_move(view, "A3", Path(legs)).forbidden
    # sideways the neighbours are 0.72" away: hardly any reach
    assert math.dist(reach.outline[6], (a3.x, a3.y)) < 1.0


def test_sight_is_blocked_by_woods_between(session: BattleSession) -> None:
    s = session
    s.do(AddTerrain(terrain="woods", points=((27, 20), (45, 20), (45, 28), (27, 28))))
    view = s.state.view()
    blocked = sight(s.mechanics, view, "A3", "B3")
    assert not blocked.clear and blocked.blocked_by == (s.state.terrain[-1].id,)
    clear = sight(s.mechanics, view, "A2", "B2")  # only the river between: it blocks nothing
    assert clear.clear


def test_ruler_between_units_is_base_edge_to_base_edge(session: BattleSession) -> None:
    view = session.state.view()
    a3, b3 = view.unit("A3"), view.unit("B3")
    reading = ruler(view, (0, 0), (0, 0), "A3", "B3")
    assert reading.kind == "units"
    assert reading.distance == pytest.approx(edge_distance(a3.footprint, b3.footprint))
    assert math.dist(reading.start, reading.end) == pytest.approx(reading.distance)
    assert "river" in {c.kind for c in reading.crossed}
    free = ruler(view, (1, 1), (4, 5))
    assert free.distance == pytest.approx(5.0) and free.kind == "points"
    assert free.text('"').startswith('5.00"')
