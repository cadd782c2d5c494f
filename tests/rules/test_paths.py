"""Moves as paths: tracing legs (poses, distances, swept shapes, tracks), a wheel's outer
arc, text and JSON round trips, and bad legs refused in one line."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.geometry import Footprint, convex_overlap, heading_vector, point_in_polygon
from app.rules.kept import forget_kept
from app.rules.paths import (
    Leg,
    Path,
    PathError,
    end_pose,
    legs_from_list,
    legs_to_list,
    parse_leg,
    parse_path,
    path_text,
    trace,
)

START = Footprint(30.0, 10.0, 0.0, 12.0, 2.0)


def close(a: tuple[float, float], b: tuple[float, float], tol: float = 1e-6) -> bool:
    return math.dist(a, b) <= tol


def test_straight_sideways_and_back() -> None:
    (t1, t2, t3) = trace(START, parse_path("forward 6; right 2; back 1"))
    assert (t1.end.x, t1.end.y) == (30, 16) and t1.distance == 6
    assert (t2.end.x, t2.end.y) == (32, 16) and t2.distance == 2
    assert (t3.end.x, t3.end.y) == (32, 15) and t3.distance == 1
    assert t3.end.facing == 0
    turned = Footprint(0, 0, 90, 4, 2)
    (t,) = trace(turned, (Leg.straight(5),))
    assert (t.end.x, t.end.y) == (5, 0)  # exact at right angles


def test_a_wheel_costs_its_outer_front_corner_arc() -> None:
    (t,) = trace(START, (Leg.wheel(90, "right"),))
    fl0, fr0, _, _ = START.corners()
    fl1, fr1, _, _ = t.end.corners()
    assert close(fr0, fr1)  # the pivot corner stays put
    assert t.end.facing == 90
    assert t.distance == pytest.approx(12 * math.pi / 2)  # width x angle
    assert close(t.tracks[0][0], fl0) and close(t.tracks[0][-1], fl1)
    assert fl1[1] > fl0[1]  # the outer flank swung forward
    # a wheel to the left, forward, is about the left corner with a negative angle
    (left,) = trace(START, (parse_leg("wheel 45 left"),))
    assert close(left.end.corners()[0], fl0) and left.end.facing == 315
    assert left.distance == pytest.approx(12 * math.pi / 4)


def test_pivots_turns_and_moves_to_a_point() -> None:
    (p,) = trace(START, (Leg.pivot(90),))
    assert (p.end.x, p.end.y, p.end.facing) == pytest.approx((30, 10, 90))
    assert p.distance == pytest.approx(math.hypot(12, 2) / 2 * math.pi / 2)
    (about,) = trace(START, parse_path("about face"))
    assert about.end.facing == 180 and about.leg == Leg.turn(180)
    # to a point ahead: no turn; to a point aside: pivot, straight, and the given facing
    (ahead,) = trace(START, (Leg.to(30, 20),))
    assert ahead.distance == pytest.approx(10) and not ahead.parts[:-1]
    (aside,) = trace(START, (Leg.to(40, 20, facing=0),))
    assert (aside.end.x, aside.end.y, aside.end.facing) == (40, 20, 0)
    assert [q.leg.kind for q in aside.parts] == ["pivot", "straight", "pivot"]
    assert aside.distance == pytest.approx(sum(q.distance for q in aside.parts))
    pivot = math.hypot(12, 2) / 2 * math.radians(45)
    assert aside.distance == pytest.approx(2 * pivot + math.hypot(10, 10))
    (stay,) = trace(START, (Leg.to(30, 10),))
    assert stay.distance == 0 and stay.end == START


def test_swept_shape_covers_the_ground_passed_over() -> None:
    (t,) = trace(START, (Leg.straight(20),))
    blocker = Footprint(30, 20, 0, 2, 2)  # in the way, not at either end
    assert any(convex_overlap(poly, blocker.corners()) for poly in t.swept)
    aside = Footprint(40, 20, 0, 2, 2)
    assert not any(convex_overlap(poly, aside.corners()) for poly in t.swept)
    (w,) = trace(START, (Leg.wheel(90, "right"),))
    # a unit in the arc swept by the wheeling flank
    in_arc = Footprint(36 - 12 * math.cos(math.radians(45)), 11 + 8, 0, 1, 1)
    assert any(convex_overlap(poly, in_arc.corners()) for poly in w.swept)


# --------------------------------------------------------------------------- properties

distance = st.floats(-30, 30, allow_nan=False).map(lambda v: round(v, 3))
angle = st.floats(-180, 180, allow_nan=False).map(lambda v: round(v, 3))
legs = st.one_of(
    distance.map(Leg.straight),
    distance.map(Leg.sideways),
    st.tuples(angle, st.sampled_from(["left", "right"])).map(lambda a: Leg.wheel(*a)),
    angle.map(Leg.pivot),
    angle.map(Leg.turn),
    st.tuples(distance, distance, st.none() | angle.map(lambda a: a % 360)).map(
        lambda a: Leg.to(30 + a[0], 10 + a[1], a[2])
    ),
)
start = st.builds(
    Footprint,
    st.floats(0, 72, allow_nan=False),
    st.floats(0, 48, allow_nan=False),
    st.floats(0, 359, allow_nan=False),
    st.floats(0.5, 20, allow_nan=False),
    st.floats(0.5, 6, allow_nan=False),
)


def _exact(traced: tuple[object, ...]) -> str:
    """The traced legs as text that tells 0.0 from -0.0 and 1 from 1.0."""
    return repr(traced)


@settings(max_examples=60, deadline=None)
@given(f=start, path=st.lists(legs, min_size=1, max_size=4))
def test_a_path_traced_again_is_the_same_as_traced_afresh(f: Footprint, path: list[Leg]) -> None:
    forget_kept()
    first = trace(f, path)
    again = trace(f, path)  # the kept legs
    forget_kept()
    assert _exact(again) == _exact(first) == _exact(trace(f, path))


def test_a_pose_or_leg_equal_but_not_alike_is_traced_afresh() -> None:
    """A kept leg is given again only for a pose and leg alike to the last bit: a pose of
    whole numbers or a negative zero (equal to the floats, to zero) traces to numbers of
    their own kind and sign."""
    forget_kept()
    floats = Footprint(30.0, 10.0, 0.0, 12.0, 2.0)
    ints = Footprint(30, 10, 0, 12, 2)
    assert _exact(trace(floats, [Leg.straight(0.0)])) != _exact(trace(ints, [Leg.straight(0.0)]))
    assert trace(ints, [Leg.straight(0.0)])[0].end.facing.__class__ is int
    negative = Footprint(30.0, 10.0, -0.0, 12.0, 2.0)
    assert str(trace(floats, [Leg.straight(3.0)])[0].end.facing) == "0.0"
    assert str(trace(negative, [Leg.straight(3.0)])[0].end.facing) == "-0.0"
    # the pose traced with a leg of 0.0 above is kept; the leg of -0.0 is its own
    assert str(trace(floats, [Leg.straight(-0.0)])[0].leg.distance) == "-0.0"
    forget_kept()


@settings(max_examples=150, deadline=None)
@given(f=start, path=st.lists(legs, min_size=1, max_size=10))
def test_a_traced_path_chains_and_costs_the_sum_of_its_legs(f: Footprint, path: list[Leg]) -> None:
    traced = trace(f, path)
    assert traced[0].start == f
    for a, b in itertools.pairwise(traced):
        assert b.start == a.end
    for t in traced:
        assert t.distance >= 0
        # the base keeps its size; the track's length is the leg's distance (arcs as chords)
        assert (t.end.width, t.end.depth) == (f.width, f.depth)
        length = sum(math.dist(p, q) for line in t.tracks for p, q in itertools.pairwise(line))
        assert length == pytest.approx(t.distance, rel=2e-3, abs=1e-6)
        # the end base lies within what was swept
        cx, cy = t.end.x, t.end.y
        assert any(point_in_polygon((cx, cy), poly) for poly in t.swept) or t.distance == 0
    assert end_pose(f, path) == traced[-1].end
    assert sum(t.distance for t in traced) >= 0


@settings(max_examples=150, deadline=None)
@given(f=start, d=distance, a=angle)
def test_straight_and_pivot_geometry(f: Footprint, d: float, a: float) -> None:
    (s,) = trace(f, (Leg.straight(d),))
    vx, vy = heading_vector(f.facing)
    assert (s.end.x, s.end.y) == pytest.approx((f.x + vx * d, f.y + vy * d), abs=1e-9)
    assert s.distance == pytest.approx(abs(d))
    (p,) = trace(f, (Leg.pivot(a),))
    assert (p.end.x, p.end.y) == pytest.approx((f.x, f.y), abs=1e-9)
    assert (p.end.facing - f.facing - a) % 360 == pytest.approx(0, abs=1e-9) or (
        p.end.facing - f.facing - a
    ) % 360 == pytest.approx(360, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(f=start, a=angle, about=st.sampled_from(["left", "right"]))
def test_a_wheel_turns_about_its_corner_and_costs_the_outer_arc(
    f: Footprint, a: float, about: str
) -> None:
    (w,) = trace(f, (Leg.wheel(a, about),))  # type: ignore[arg-type]
    i = 0 if about == "left" else 1
    assert close(w.end.corners()[i], f.corners()[i], 1e-6)
    outer0, outer1 = f.corners()[1 - i], w.end.corners()[1 - i]
    assert w.distance == pytest.approx(f.width * math.radians(abs(a)))
    # the outer corner ends a chord of that arc away
    assert math.dist(outer0, outer1) == pytest.approx(
        2 * f.width * math.sin(math.radians(abs(a)) / 2), abs=1e-6
    )


@settings(max_examples=200, deadline=None)
@given(path=st.lists(legs, min_size=1, max_size=10))
def test_paths_round_trip_through_text_and_json(path: list[Leg]) -> None:
    assert legs_from_list(legs_to_list(path)) == tuple(path)
    again = parse_path(path_text(path))
    for a, b in zip(again, path, strict=True):
        assert a.kind == b.kind and a.about == b.about
        assert a.distance == pytest.approx(b.distance, abs=1e-4)
        assert a.angle == pytest.approx(b.angle, abs=1e-4)


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("forward nan", "cannot read the leg"),
        ("forward 1e400", "finite"),
        ("forward 1e9", "out of range"),
        ("forward " + "9" * 50, "too large"),
        ("pivot 720", "out of range"),
        ("wheel 45 sideways", "cannot read the leg"),
        ("fly 3", "cannot read the leg 'fly 3'"),
        ("forward 3; ;", None),
        ("", "no legs"),
        (";".join(["forward 1"] * 51), "at most 50 legs"),
        ("to 1e7,3", "out of range"),
    ],
)
def test_bad_paths_are_refused(text: str, message: str | None) -> None:
    if message is None:
        assert parse_path(text) == (Leg.straight(3),)
        return
    with pytest.raises(PathError, match=message):
        parse_path(text)


def test_bad_legs_are_refused() -> None:
    with pytest.raises(PathError, match="finite"):
        Leg.straight(math.nan)
    with pytest.raises(PathError, match="about its front left or front right"):
        Leg("wheel", angle=10)
    with pytest.raises(PathError, match="has no key speed"):
        Leg.from_dict({"kind": "straight", "distance": 1, "speed": 2})
    with pytest.raises(PathError, match="leg 2: unknown leg 'jump'"):
        legs_from_list([{"kind": "straight", "distance": 1}, {"kind": "jump"}])
    with pytest.raises(PathError, match="must be a number"):
        Leg.from_dict({"kind": "straight", "distance": "6"})
    with pytest.raises(PathError, match="at least one leg"):
        Path(())
    assert str(Path.parse("forward 6; wheel 45 left; forward 3")) == (
        "forward 6; wheel 45 left; forward 3"
    )
