"""Terrain pieces and the table: contains, length of a leg inside, crossing, overlapping a
base, bounding boxes, JSON round-trip, and refusing bad numbers when a piece is made."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.rules.geometry import (
    Footprint,
    bbox_of,
    convex_overlap,
    point_in_polygon,
    polygon_is_simple,
    segment_band_intervals,
    segment_polygon_intervals,
)
from app.rules.table import (
    DEFAULT_TABLE,
    MAX_LENGTH,
    Table,
    TerrainError,
    TerrainPiece,
    default_width,
)

SQUARE = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
# an L: the square with its top-right quarter cut away
ELL = ((0.0, 0.0), (10.0, 0.0), (10.0, 5.0), (5.0, 5.0), (5.0, 10.0), (0.0, 10.0))


def wood(points: tuple[tuple[float, float], ...] = SQUARE) -> TerrainPiece:
    return TerrainPiece("T1", "woods", points, name="Big wood")


def river(width: float = 2.0) -> TerrainPiece:
    return TerrainPiece("T2", "river", ((0.0, 20.0), (30.0, 20.0), (30.0, 40.0)), width=width)


# --------------------------------------------------------------------------- areas


def test_contains_a_square_and_an_ell() -> None:
    w, ell = wood(), wood(ELL)
    assert w.contains((5, 5)) and w.contains((0.5, 9.5))
    assert not w.contains((11, 5)) and not w.contains((-0.1, 5))
    assert ell.contains((2, 8)) and ell.contains((8, 2))
    assert not ell.contains((8, 8))  # the notch


def test_length_inside_an_area() -> None:
    w, ell = wood(), wood(ELL)
    assert w.segment_inside_length((-5, 5), (15, 5)) == pytest.approx(10)
    assert w.segment_inside_length((5, 5), (5, 20)) == pytest.approx(5)
    assert w.segment_inside_length((20, 0), (20, 10)) == 0
    # diagonal through the square: its whole diagonal
    assert w.segment_inside_length((-1, -1), (11, 11)) == pytest.approx(10 * math.sqrt(2))
    # across the L at y = 8: only 0-5 is inside
    assert ell.segment_inside_length((-2, 8), (12, 8)) == pytest.approx(5)
    # along x = 8 from the bottom: 0-5
    assert ell.segment_inside_length((8, -1), (8, 12)) == pytest.approx(5)


def test_crosses_an_area() -> None:
    w = wood()
    assert w.crosses((-5, 5), (15, 5))
    assert w.crosses((5, 5), (5, 6))  # wholly inside
    assert w.crosses((10, -5), (10, 15))  # along its edge
    assert not w.crosses((11, -5), (11, 15))


def test_overlaps_a_base() -> None:
    w, ell = wood(), wood(ELL)
    assert w.overlaps(Footprint(5, 5, 0, 2, 2))
    assert w.overlaps(Footprint(11, 5, 0, 4, 2))  # half in
    assert not w.overlaps(Footprint(12, 5, 0, 4, 2))  # touches the edge only
    assert not w.overlaps(Footprint(13, 5, 45, 2, 2))
    assert not ell.overlaps(Footprint(8, 8, 0, 3, 3))  # in the notch
    assert ell.overlaps(Footprint(8, 8, 0, 8, 8))


def test_bounding_box() -> None:
    assert wood(ELL).bbox == (0, 0, 10, 10)
    assert river(2).bbox == (-1, 19, 31, 41)


# --------------------------------------------------------------------------- lines


def test_a_river_is_a_band_of_its_width() -> None:
    r = river(2)
    assert r.contains((10, 20.9)) and not r.contains((10, 21.1))
    assert r.contains((30.9, 30)) and not r.contains((31.1, 30))
    # crossing it square on: its width
    assert r.segment_inside_length((10, 0), (10, 50)) == pytest.approx(2)
    # crossing at 45 degrees: width x sqrt 2
    assert r.segment_inside_length((0, 10), (20, 30)) == pytest.approx(2 * math.sqrt(2))
    # along it
    assert r.segment_inside_length((5, 20), (15, 20)) == pytest.approx(10)
    assert r.crosses((10, 0), (10, 50)) and not r.crosses((10, 0), (10, 18.9))
    assert r.overlaps(Footprint(10, 18, 0, 4, 2.2)) and not r.overlaps(Footprint(10, 17, 0, 4, 2))


def test_default_widths_in_each_unit() -> None:
    assert default_width("river", 25.4) == pytest.approx(3)
    assert default_width("road", 10) == pytest.approx(2.54)
    assert default_width("woods", 25.4) is None


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"points": ((0, 0), (1, 0))}, "at least 3 points"),
        ({"points": ((0, 0), (1, 0), (2, 0))}, "enclose no area"),
        ({"points": ((0, 0), (10, 10), (10, 0), (0, 5))}, "crosses itself"),
        ({"points": ((0, 0), (math.nan, 0), (1, 1))}, "point 2 x must be a finite number"),
        ({"points": ((0, 0), (1, math.inf), (1, 1))}, "point 2 y must be a finite number"),
        ({"points": ((0, 0), (1e9, 0), (1, 1))}, "out of range"),
        ({"points": ((0, 0), ("a", 0), (1, 1))}, "must be a number"),
        ({"points": ((0, 0), (1,), (1, 1))}, "two numbers"),
        ({"kind": "volcano"}, "unknown terrain kind 'volcano'"),
        ({"name": "wood\x1b[31m"}, "control character"),
        ({"id": ""}, "terrain id"),
        ({"width": 2.0}, "only rivers, roads and streams have a width"),
    ],
)
def test_bad_pieces_are_refused(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"id": "T1", "kind": "woods", "points": SQUARE, **kwargs}
    with pytest.raises(TerrainError, match=message):
        TerrainPiece(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("width", "message"),
    [(None, "needs a width"), (0.0, "more than 0"), (math.nan, "finite"), (1e12, "out of range")],
)
def test_bad_widths_are_refused(width: float | None, message: str) -> None:
    with pytest.raises(TerrainError, match=message):
        TerrainPiece("T1", "road", ((0, 0), (10, 0)), width=width)


def test_bad_tables_are_refused() -> None:
    for w, h, message in ((0, 48, "more than 0"), (math.nan, 48, "finite"), (72, 1e9, "range")):
        with pytest.raises(TerrainError, match=message):
            Table(w, h)
    assert Table(72, 48, ()) == DEFAULT_TABLE


def test_round_trip_and_strict_reading() -> None:
    for piece in (wood(ELL), river()):
        assert TerrainPiece.from_dict(piece.to_dict()) == piece
    assert "width" not in wood().to_dict()  # old states have no width key
    with pytest.raises(TerrainError, match="has no key colour"):
        TerrainPiece.from_dict({**wood().to_dict(), "colour": "green"})
    with pytest.raises(TerrainError, match="points must be a list"):
        TerrainPiece.from_dict({**wood().to_dict(), "points": "0,0"})


def test_table_lookups() -> None:
    t = Table(72, 48, (wood(), river()))
    assert t.piece("T2").kind == "river"
    with pytest.raises(KeyError, match=r"no terrain piece .T9.*T1, T2"):
        t.piece("T9")
    assert t.next_id() == "T3"
    assert [p.id for p in t.pieces_at((5, 5))] == ["T1"]
    assert t.holds(((0, 0), (72, 48))) and not t.holds(((0, 0), (72.1, 48)))


# --------------------------------------------------------------------------- properties

coord = st.floats(-50, 50, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(x0=coord, y0=coord, x1=coord, y1=coord)
def test_inside_length_of_a_rectangle_matches_clipping(
    x0: float, y0: float, x1: float, y1: float
) -> None:
    """Against an independent answer: Liang-Barsky clipping of the segment to the box. A
    segment lying along one of the box's edges is left out: clipping counts the edge as
    inside, while a track grazing a piece's edge does not run inside it (measure zero)."""
    assume(not (y0 == y1 and y0 in (-5.0, 15.0)) and not (x0 == x1 and x0 in (-10.0, 20.0)))
    box = ((-10.0, -5.0), (20.0, -5.0), (20.0, 15.0), (-10.0, 15.0))
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 + 10), (dx, 20 - x0), (-dy, y0 + 5), (dy, 15 - y0)):
        if p == 0:
            if q < 0:
                lo, hi = 1.0, 0.0
        else:
            t = q / p
            lo, hi = (max(lo, t), hi) if p < 0 else (lo, min(hi, t))
    expected = max(0.0, hi - lo) * math.hypot(dx, dy)
    got = sum(t1 - t0 for t0, t1 in segment_polygon_intervals((x0, y0), (x1, y1), box))
    assert got * math.hypot(dx, dy) == pytest.approx(expected, abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(x=coord, y=coord, half=st.floats(0.1, 5))
def test_band_contains_exactly_the_points_within_half_its_width(
    x: float, y: float, half: float
) -> None:
    line = ((-20.0, 0.0), (0.0, 0.0), (10.0, 10.0))
    piece = TerrainPiece("T1", "road", line, width=2 * half)
    inside = bool(segment_band_intervals((x, y), (x, y + 1e-9), line, half))
    assert piece.contains((x, y)) == inside or abs(_dist(x, y, line) - half) < 1e-6


def _dist(x: float, y: float, line: tuple[tuple[float, float], ...]) -> float:
    from app.rules.geometry import point_segment_distance

    return min(point_segment_distance((x, y), a, b) for a, b in itertools.pairwise(line))


def test_helpers_on_simple_cases() -> None:
    assert point_in_polygon((1, 1), SQUARE) and not point_in_polygon((11, 1), SQUARE)
    assert polygon_is_simple(ELL) and not polygon_is_simple(((0, 0), (4, 4), (4, 0), (0, 4)))
    a = Footprint(0, 0, 0, 4, 2).corners()
    assert convex_overlap(a, Footprint(1, 0, 0, 4, 2).corners())
    assert not convex_overlap(a, Footprint(4, 0, 0, 4, 2).corners())  # touching side by side
    assert not convex_overlap(a, Footprint(4, 2, 0, 4, 2).corners())  # corner to corner
    assert MAX_LENGTH >= 10_000


_near_edge = st.one_of(
    st.floats(-1e-5, 1e-5), st.floats(-2, 74), st.floats(72 - 1e-5, 72 + 1e-5), st.just(-1e-6)
)


@settings(max_examples=300, deadline=None)
@given(points=st.lists(st.tuples(_near_edge, _near_edge), min_size=1, max_size=8))
def test_a_box_is_held_when_every_point_in_it_is(points: list[tuple[float, float]]) -> None:
    """A move's check asks whether the box round everything a leg sweeps is on the table,
    in place of each point: the same answer, at the edge and its tolerance too."""
    table = Table(72, 72)
    assert table.holds_box(bbox_of(points)) == table.holds(points)
