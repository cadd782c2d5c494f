"""Table geometry: base-edge distances, crossing footprints, front/flank/rear."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.geometry import (
    Footprint,
    Point,
    _area,
    _inside,
    _point_segment,
    _segments_cross,
    aspect,
    away_bearing,
    axes,
    bbox_of,
    bboxes_meet,
    bearing,
    convex_overlap,
    edge_distance,
    heading_vector,
    polygon_distance,
    surely_apart,
    unit_distance,
)
from app.rules.paths import Leg, trace


def test_edge_to_edge_distance() -> None:
    a = Footprint(0, 0, 0, 4, 2)
    b = Footprint(0, 10, 180, 4, 2)
    assert edge_distance(a, b) == pytest.approx(8)  # 10 between centres less two half-depths
    assert edge_distance(a, Footprint(2 + 3 + 1, 0, 0, 2, 2)) == pytest.approx(3)


def test_touching_and_overlapping_are_zero() -> None:
    a = Footprint(0, 0, 0, 4, 2)
    assert edge_distance(a, Footprint(4, 0, 0, 4, 2)) == 0
    assert edge_distance(a, Footprint(1, 0.5, 30, 4, 2)) == 0


def test_crossing_rectangles_with_no_corner_inside_are_in_contact() -> None:
    """A long thin unit laid across another: neither has a corner inside the other."""
    long_a = Footprint(0, 0, 0, 20, 1)  # wide along x
    long_b = Footprint(0, 0, 90, 20, 1)  # turned: wide along y
    assert edge_distance(long_a, long_b) == 0


def test_points_and_segments() -> None:
    assert polygon_distance([(0, 0)], [(3, 4)]) == pytest.approx(5)
    assert polygon_distance([(0, 0), (10, 0)], [(5, 3)]) == pytest.approx(3)
    assert Footprint(1, 2, 0, 0, 0).corners() == ((1, 2),)


def test_corners_run_front_left_to_rear_left() -> None:
    fl, fr, rr, rl = Footprint(0, 0, 0, 4, 2).corners()
    assert fl == pytest.approx((-2, 1)) and fr == pytest.approx((2, 1))
    assert rr == pytest.approx((2, -1)) and rl == pytest.approx((-2, -1))


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [(0, 10, "front"), (10, 0, "flank"), (-10, 0, "flank"), (0, -10, "rear"), (3, 10, "front")],
)
def test_aspect(x: float, y: float, expected: str) -> None:
    assert aspect(Footprint(0, 0, 0, 8, 2), x, y) == expected


def test_bearing_is_clockwise_from_plus_y() -> None:
    assert bearing(0, 0, 0, 5) == pytest.approx(0)
    assert bearing(0, 0, 5, 0) == pytest.approx(90)
    assert bearing(0, 0, 0, -5) == pytest.approx(180)


@dataclass(frozen=True)
class Unit:
    """Anything placed on the table (the mechanics pass a ``Combatant``)."""

    x: float
    y: float
    facing: float = 0.0
    width: float = 4.0
    depth: float = 2.0

    @property
    def footprint(self) -> Footprint:
        return Footprint(self.x, self.y, self.facing, self.width, self.depth)


def test_unit_distance_is_base_edge_to_base_edge() -> None:
    """Two 4x2 units 10 apart centre to centre, front to back: 8 between their edges."""
    assert unit_distance(Unit(0, 0), Unit(0, 10)) == pytest.approx(8)
    assert unit_distance(Unit(0, 0), Unit(3, 1)) == 0  # they overlap
    assert unit_distance(Unit(0, 0, width=0, depth=0), Unit(0, 10)) == pytest.approx(9)


def test_away_bearing_runs_from_the_source_through_the_unit() -> None:
    assert away_bearing(Unit(0, 0), Unit(0, 5)) == pytest.approx(0)
    assert away_bearing(Unit(0, 0), Unit(-5, 0)) == pytest.approx(270)
    # centres together: straight back from the unit's own facing
    assert away_bearing(Unit(1, 1), Unit(1, 1, facing=90)) == pytest.approx(270)


def test_axes_are_forward_and_right() -> None:
    forward, right = axes(90)
    assert forward == pytest.approx((1, 0)) and right == pytest.approx((0, -1))
    assert axes(0) == (heading_vector(0), (1.0, -0.0))


# --------------------------------------------------------------------------- the front arc


def test_the_front_arc_is_one_shared_implementation() -> None:
    """D3's and MWAN #90's front arcs are app.rules.geometry.in_front_arc (they drifted as
    copies: a tolerance of EPS against 0, the arc as its half-angle against the whole)."""
    from app.rules.geometry import Footprint, in_front_arc

    shooter = Footprint(0.0, 0.0, 0.0, 4.0, 1.0)  # front edge at y = 0.5, corners at x = +-2
    ahead = Footprint(0.0, 10.0, 180.0, 4.0, 1.0)
    beside = Footprint(20.0, 3.0, 180.0, 2.0, 1.0)
    behind = Footprint(0.0, -10.0, 0.0, 4.0, 1.0)
    assert in_front_arc(shooter, ahead, 0.0)  # straight ahead, even with no arc outward
    assert not in_front_arc(shooter, behind, 89.0)
    assert not in_front_arc(shooter, beside, 45.0)  # 18" out at 2.5" ahead: outside 45
    assert in_front_arc(shooter, beside, 85.0)  # but inside a wide arc
    # a target whose nearest corner lies exactly on the arc's line: the tolerance decides
    on_line = Footprint(2.0 + 5.0 + 0.5, 5.5 + 0.5, 0.0, 1.0, 1.0)  # corner at (7, 5.5)
    assert in_front_arc(shooter, on_line, 45.0, tolerance=1e-6)


def test_each_ruleset_reads_its_arc_its_own_way() -> None:
    """D3: 'arc_degrees' outward from straight ahead; MWAN #90: the whole arc (half each
    side). The same target, a 90-degree arc: inside for MWAN (45 each side) iff inside for D3
    at 45."""
    from app.rules.geometry import Footprint
    from app.rules.mechanics import Combatant, Status
    from app.rulesets.d3.rules import in_front_arc as d3_arc
    from app.rulesets.mwan90.shooting import in_front_arc as mwan_arc

    def unit(x: float, y: float, facing: float) -> Combatant:
        return Combatant(
            "U", "u", "t", 0, Status(1, 1), x=x, y=y, facing=facing, width=4.0, depth=1.0
        )

    shooter = unit(0.0, 0.0, 0.0)
    for x in (0.0, 5.0, 9.3, 12.5, 20.0):  # none on the arc's line (the tolerances differ)
        target = unit(x, 8.0, 180.0)
        assert d3_arc(shooter, target, 45.0) == mwan_arc(shooter, target, 90.0)
    assert Footprint(0, 0, 0, 1, 1).has_size


def test_surely_apart_only_when_the_edges_are_farther_than_the_gap() -> None:
    import random

    rng = random.Random(7)
    said = 0
    for _ in range(2000):
        a, b = (
            Footprint(rng.uniform(0, 20), rng.uniform(0, 20), rng.uniform(0, 360),
                      rng.uniform(0.5, 6), rng.uniform(0.5, 3))
            for _ in range(2)
        )  # fmt: skip
        gap = rng.uniform(0, 3)
        if surely_apart(a, b, gap):
            said += 1
            assert edge_distance(a, b) > gap
    assert said > 100  # the test says something often
    # side by side and touching: never apart
    assert not surely_apart(Footprint(0, 0, 0, 4, 2), Footprint(4, 0, 0, 4, 2), 0.0)


def _distance_pair_by_pair(a: Sequence[Point], b: Sequence[Point]) -> float:
    """polygon_distance as it was measured before (each pair of edges in turn, each end of
    both against the other): the same number to the last bit."""
    if _area(b) > 1e-6 and any(_inside(p, b) for p in a):
        return 0.0
    if _area(a) > 1e-6 and any(_inside(p, a) for p in b):
        return 0.0
    best = math.inf
    for i in range(len(a)):
        p1, p2 = a[i - 1], a[i]
        for j in range(len(b)):
            q1, q2 = b[j - 1], b[j]
            if _segments_cross(p1, p2, q1, q2):
                return 0.0
            best = min(
                best,
                _point_segment(p1, q1, q2),
                _point_segment(p2, q1, q2),
                _point_segment(q1, p1, p2),
                _point_segment(q2, p1, p2),
            )
    return best


_coord = st.floats(-50, 50, allow_nan=False)
_pose = st.builds(
    Footprint, _coord, _coord, st.floats(0, 360), st.floats(0.1, 12), st.floats(0.1, 6)
)
_shape = st.one_of(
    _pose.map(lambda f: f.corners()),
    st.tuples(_coord, _coord).map(lambda p: (p,)),
    st.tuples(st.tuples(_coord, _coord), st.tuples(_coord, _coord)),
)


@settings(max_examples=400, deadline=None)
@given(a=_shape, b=_shape)
def test_polygon_distance_is_the_least_of_every_corner_to_every_edge(
    a: tuple[Point, ...], b: tuple[Point, ...]
) -> None:
    assert polygon_distance(a, b) == _distance_pair_by_pair(a, b)
    assert polygon_distance(b, a) == _distance_pair_by_pair(b, a)


_leg = st.one_of(
    st.floats(-20, 20).map(Leg.straight),
    st.floats(-20, 20).map(Leg.sideways),
    st.floats(-180, 180).map(lambda a: Leg.wheel(a, "left")),
    st.floats(-180, 180).map(lambda a: Leg.wheel(a, "right")),
    st.floats(-180, 180).map(Leg.pivot),
)


@settings(max_examples=300, deadline=None)
@given(mover=_pose, near=_pose, leg=_leg)
def test_a_swept_shape_whose_box_misses_a_base_does_not_overlap_it(
    mover: Footprint, near: Footprint, leg: Leg
) -> None:
    """What a move's check takes for granted when it tests a base's own box before the
    overlap (app.rules.movement): a shape swept by a move whose box misses a base's box
    does not overlap the base, nor does the base where the move ends."""
    # a base within some 20" of the mover (the offsets of ``near``, scaled down)
    other = Footprint(
        mover.x + near.x / 2.5, mover.y + near.y / 2.5, near.facing, near.width, near.depth
    )
    corners = other.corners()
    for t in trace(mover, [leg]):
        for poly in (*t.swept, t.end.corners()):
            if not bboxes_meet(bbox_of(poly), bbox_of(corners)):
                assert not convex_overlap(poly, corners)
                assert not convex_overlap(corners, poly)


def test_a_combatants_footprint_is_made_once_and_follows_its_numbers() -> None:
    """A combatant's footprint is kept once made (a move's check and the Turn dock ask it of
    every unit, again and again), is the footprint of its own numbers, and a combatant
    replaced with other numbers has its own; equality ignores what is kept."""
    from dataclasses import replace

    from app.rules.values import Combatant, Status

    unit = Combatant(
        "A1",
        "Hastati",
        "hi",
        0,
        Status(strength=4, start_strength=4),
        x=3.0,
        y=4.0,
        facing=90.0,
        width=2.0,
        depth=1.0,
    )
    first = unit.footprint
    assert first == Footprint(3.0, 4.0, 90.0, 2.0, 1.0) and unit.footprint is first
    moved = replace(unit, x=5.0)
    assert moved.footprint == Footprint(5.0, 4.0, 90.0, 2.0, 1.0)
    twin = replace(unit)  # made afresh by its constructor: nothing kept
    assert twin == unit and twin.footprint == first
