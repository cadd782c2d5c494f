"""The table and its terrain, as the battle core and every ruleset's mechanics see them (no
Qt): terrain pieces -- areas as simple polygons, rivers, roads and streams as lines with a
width -- with the geometry the rules need (is a point in it, how much of a leg lies in it,
does a unit's base touch it), and the :class:`Table` they lie on.

What a kind of terrain *means* (impassable, half speed, blocks sight, cover) is each
ruleset's business: :meth:`app.rules.mechanics.Mechanics.terrain_effect`. Positions are in
the ruleset's unit of measure (inches, centimetres or GSB unit widths), like the units'.

Every number that makes a piece is checked when it is made: a NaN, an infinity or an absurd
coordinate never enters a battle (a NaN once made a battle's replay fail for good), nor does
a polygon that crosses itself (its inside would be undefined).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Literal, get_args

from app.rules.geometry import (
    BBox,
    Footprint,
    Point,
    bbox_of,
    bboxes_meet,
    convex_overlap,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    polygon_is_simple,
    segment_band_intervals,
    segment_polygon_intervals,
    segments_cross,
    signed_area,
)
from app.rules.inputs import control_problem

TerrainKind = Literal[
    "woods", "hill", "river", "ford", "road", "marsh", "town", "broken", "stream", "lake"
]
TERRAIN_KINDS: tuple[TerrainKind, ...] = get_args(TerrainKind)
#: Kinds drawn as a line with a width; the others are areas (a ford is an area laid on a river).
LINEAR_KINDS: frozenset[TerrainKind] = frozenset({"river", "road", "stream"})
#: Width of a linear piece when none is given, in millimetres (a road 1", a stream 1", a
#: river 3"): layout defaults of the app, not rules numbers.
DEFAULT_WIDTH_MM: Mapping[TerrainKind, Fraction] = {
    "road": Fraction("25.4"),
    "stream": Fraction("25.4"),
    "river": Fraction("76.2"),
}

#: Largest coordinate or length Castra takes (in the ruleset's unit): far beyond any table.
MAX_LENGTH = 100_000.0
#: Largest side of a table (in the ruleset's unit).
MAX_TABLE = 20_000.0
#: Most points of one piece, and most pieces on one table.
MAX_POINTS = 500
MAX_PIECES = 1_000
MAX_NAME = 200
MAX_ID = 40


class TerrainError(ValueError):
    """A piece or a table that cannot be made; the message is one line."""


def coordinate_problem(what: str, value: object, limit: float = MAX_LENGTH) -> str | None:
    """Why ``value`` is not a usable coordinate or length (not a number, NaN, infinite, or
    beyond ``limit`` in size), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"{what} must be a number, not {value!r}"
    if not math.isfinite(value):
        return f"{what} must be a finite number, not {value}"
    if abs(value) > limit:
        return f"{what} {value:g} is out of range (at most {limit:,.0f} in size)"
    return None


def _check(problem: str | None) -> None:
    if problem is not None:
        raise TerrainError(problem)


def default_width(kind: TerrainKind, mm_per_unit: Fraction | float) -> float | None:
    """The width of a linear piece of ``kind`` in a unit of ``mm_per_unit`` millimetres
    (None for an area), exact where it can be (a river is 3.0 inches, not 3.0000000000000004)."""
    mm = DEFAULT_WIDTH_MM.get(kind)
    if mm is None:
        return None
    per = mm_per_unit if isinstance(mm_per_unit, Fraction) else Fraction(str(mm_per_unit))
    return float(mm / per)


@dataclass(frozen=True)
class TerrainPiece:
    """One piece of terrain. ``points``: an area's corners in order (a simple polygon, not
    necessarily convex), or a linear piece's centre line; ``width``: a linear piece's width
    (None for an area). A piece never changes; an edit makes a new one."""

    id: str
    kind: TerrainKind
    points: tuple[Point, ...]
    name: str = ""
    width: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id or len(self.id) > MAX_ID:
            raise TerrainError(f"a terrain id must be 1-{MAX_ID} characters")
        _check(control_problem("the terrain id", self.id))
        if self.kind not in TERRAIN_KINDS:
            raise TerrainError(
                f"unknown terrain kind {self.kind!r} (kinds: {', '.join(TERRAIN_KINDS)})"
            )
        if not isinstance(self.name, str) or len(self.name) > MAX_NAME:
            raise TerrainError(f"a terrain name is text of at most {MAX_NAME} characters")
        _check(control_problem("the terrain name", self.name))
        if len(self.points) > MAX_POINTS:
            raise TerrainError(f"a piece has at most {MAX_POINTS} points, not {len(self.points)}")
        points = []
        for i, p in enumerate(self.points):
            if not isinstance(p, tuple | list) or len(p) != 2:
                raise TerrainError(f"point {i + 1} must be two numbers x,y")
            for axis, value in zip("xy", p, strict=True):
                _check(coordinate_problem(f"point {i + 1} {axis}", value))
            points.append((float(p[0]), float(p[1])))
        object.__setattr__(self, "points", tuple(points))
        if self.linear:
            if len(points) < 2:
                raise TerrainError(f"a {self.kind} is a line of at least 2 points")
            if any(math.dist(a, b) <= 1e-9 for a, b in itertools.pairwise(points)):
                raise TerrainError(f"a {self.kind} has two equal points in a row")
            if self.width is None:
                raise TerrainError(f"a {self.kind} needs a width")
            _check(coordinate_problem("the width", self.width))
            if self.width <= 0:
                raise TerrainError(f"the width must be more than 0, not {self.width:g}")
            object.__setattr__(self, "width", float(self.width))
        else:
            if self.width is not None:
                raise TerrainError(
                    f"a {self.kind} is an area; only rivers, roads and streams have a width"
                )
            if len(points) < 3:
                raise TerrainError(f"a {self.kind} is an area of at least 3 points")
            if abs(signed_area(points)) <= 1e-9:
                raise TerrainError(f"the points of the {self.kind} piece enclose no area")
            if not polygon_is_simple(points):
                raise TerrainError(f"the outline of the {self.kind} piece crosses itself")

    # ------------------------------------------------------------------ shape

    @property
    def linear(self) -> bool:
        return self.kind in LINEAR_KINDS

    @property
    def half_width(self) -> float:
        return (self.width or 0.0) / 2

    @cached_property
    def bbox(self) -> BBox:
        """The box around the piece (a linear piece's band included): the cheap first test
        before any exact one."""
        x0, y0, x1, y1 = bbox_of(self.points)
        h = self.half_width
        return (x0 - h, y0 - h, x1 + h, y1 + h)

    def contains(self, p: Point) -> bool:
        """Whether the point lies in the piece (an area's inside, a line's band)."""
        x0, y0, x1, y1 = self.bbox
        if not (x0 <= p[0] <= x1 and y0 <= p[1] <= y1):
            return False
        if self.linear:
            h = self.half_width
            pts = self.points
            return any(
                point_segment_distance(p, pts[i - 1], pts[i]) <= h for i in range(1, len(pts))
            )
        return point_in_polygon(p, self.points)

    def intervals(self, a: Point, b: Point) -> list[tuple[float, float]]:
        """The parts of the straight segment ``ab`` inside the piece, as parameters
        ``(t0, t1)`` along it (0 at ``a``, 1 at ``b``)."""
        if not bboxes_meet(self.bbox, bbox_of((a, b))):
            return []
        if self.linear:
            return segment_band_intervals(a, b, self.points, self.half_width)
        return segment_polygon_intervals(a, b, self.points)

    def segment_inside_length(self, a: Point, b: Point) -> float:
        """How much of a straight leg from ``a`` to ``b`` lies in the piece."""
        return math.dist(a, b) * sum(t1 - t0 for t0, t1 in self.intervals(a, b))

    def crosses(self, a: Point, b: Point) -> bool:
        """Whether the segment ``ab`` meets the piece at all (enters it, crosses it, or
        starts or ends in it)."""
        if not bboxes_meet(self.bbox, bbox_of((a, b))):
            return False
        if self.intervals(a, b) or self.contains(a) or self.contains(b):
            return True
        if self.linear:
            return False
        pts = self.points
        return any(segments_cross(a, b, pts[i - 1], pts[i]) for i in range(len(pts)))

    def overlaps_polygon(self, poly: Sequence[Point], box: BBox | None = None) -> bool:
        """Whether the convex polygon ``poly`` (a unit's base, a swept shape) overlaps the
        piece; merely touching its edge does not count."""
        if not bboxes_meet(self.bbox, box or bbox_of(poly)):
            return False
        pts = self.points
        if self.linear:
            h = self.half_width
            return any(
                polygon_distance((pts[i - 1], pts[i]), poly) < h - 1e-9 for i in range(1, len(pts))
            )
        # a convex piece is one separating-axes test; any piece: corners inside or edges
        # crossing
        if _is_convex(pts):
            return convex_overlap(pts, poly)
        if any(point_in_polygon(p, pts) for p in poly):
            return True
        if any(point_in_polygon(p, poly) for p in pts):
            return True
        n, m = len(pts), len(poly)
        return any(
            _proper_cross(pts[i - 1], pts[i], poly[j - 1], poly[j])
            for i in range(n)
            for j in range(m)
        )

    def overlaps(self, footprint: Footprint) -> bool:
        """Whether a unit's base overlaps the piece."""
        return self.overlaps_polygon(footprint.corners())

    # ------------------------------------------------------------------ data

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON; ``width`` only for a linear piece, so a state without linear pieces
        serialises as it did before pieces had a width."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "points": [[float(x), float(y)] for x, y in self.points],
            "name": self.name,
        }
        if self.width is not None:
            out["width"] = float(self.width)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TerrainPiece:
        """Read back :meth:`to_dict` (:class:`TerrainError` naming what is wrong)."""
        if not isinstance(data, Mapping):
            raise TerrainError("a terrain piece must be an object")
        unknown = sorted(set(data) - {"id", "kind", "points", "name", "width"})
        if unknown:
            raise TerrainError(f"a terrain piece has no key {', '.join(unknown)}")
        points = data.get("points")
        if not isinstance(points, list | tuple):
            raise TerrainError("a terrain piece's points must be a list of [x, y]")
        return cls(
            id=data.get("id", ""),
            kind=data.get("kind", ""),
            points=tuple(tuple(p) if isinstance(p, list | tuple) else p for p in points),
            name=data.get("name", ""),
            width=data.get("width"),
        )


def _is_convex(poly: Sequence[Point]) -> bool:
    sign = 0.0
    n = len(poly)
    for i in range(n):
        a, b, c = poly[i - 2], poly[i - 1], poly[i]
        z = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        if abs(z) <= 1e-12:
            continue
        if sign == 0.0:
            sign = z
        elif (z > 0) != (sign > 0):
            return False
    return True


def _proper_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def cross(o: Point, p: Point, q: Point) -> float:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    d1, d2 = cross(c, d, a), cross(c, d, b)
    d3, d4 = cross(a, b, c), cross(a, b, d)
    return d1 * d2 < -1e-12 and d3 * d4 < -1e-12


@dataclass(frozen=True)
class Table:
    """The playing area: ``width`` along each side's base edge (x), ``height`` from side
    0's edge (y = 0) to side 1's (y = height), in the ruleset's unit, and its terrain."""

    width: float = 72.0
    height: float = 48.0
    terrain: tuple[TerrainPiece, ...] = field(default=())
    #: deployment zones a historical battle sets in place of the ruleset's (side 0's, side
    #: 1's), each a simple polygon in fractions of the table (x of its width, y of its
    #: height), so they follow the table when it is resized; None: the ruleset's own
    zone_fractions: tuple[tuple[Point, ...], tuple[Point, ...]] | None = None

    def __post_init__(self) -> None:
        for what, value in (("the table width", self.width), ("the table height", self.height)):
            _check(coordinate_problem(what, value, MAX_TABLE))
            if value <= 0:
                raise TerrainError(f"{what} must be more than 0, not {value:g}")
        if len(self.terrain) > MAX_PIECES:
            raise TerrainError(f"a table has at most {MAX_PIECES} terrain pieces")
        for zone in self.zone_fractions or ():
            if len(zone) < 3 or len(zone) > MAX_POINTS or not polygon_is_simple(zone):
                raise TerrainError("a deployment zone is a simple polygon of 3 or more points")
            for x, y in zone:
                if not (math.isfinite(x) and math.isfinite(y) and 0 <= x <= 1 and 0 <= y <= 1):
                    raise TerrainError("a deployment zone's points are fractions of the table")

    @property
    def zones(self) -> tuple[tuple[Point, ...], tuple[Point, ...]] | None:
        """The historical battle's deployment zones on this table, in the ruleset's unit
        (None: the ruleset's own, :meth:`app.rules.contact.ContactRules.deployment_zones`)."""
        if self.zone_fractions is None:
            return None
        a, b = (
            tuple((x * self.width, y * self.height) for x, y in zone)
            for zone in self.zone_fractions
        )
        return a, b

    @property
    def bbox(self) -> BBox:
        return (0.0, 0.0, self.width, self.height)

    def piece(self, piece_id: str) -> TerrainPiece:
        for p in self.terrain:
            if p.id == piece_id:
                return p
        known = ", ".join(p.id for p in self.terrain[:20]) or "none"
        raise KeyError(f"no terrain piece {piece_id!r} on this table (pieces: {known})")

    def holds(self, poly: Sequence[Point], tolerance: float = 1e-6) -> bool:
        """Whether every point of ``poly`` is on the table (its edge included)."""
        return all(
            -tolerance <= x <= self.width + tolerance and -tolerance <= y <= self.height + tolerance
            for x, y in poly
        )

    def holds_box(self, box: BBox, tolerance: float = 1e-6) -> bool:
        """Whether every point within ``box`` (min x, min y, max x, max y) is on the table:
        :meth:`holds` of the points whose box it is."""
        return (
            -tolerance <= box[0]
            and box[2] <= self.width + tolerance
            and -tolerance <= box[1]
            and box[3] <= self.height + tolerance
        )

    def pieces_at(self, p: Point) -> tuple[TerrainPiece, ...]:
        return tuple(t for t in self.terrain if t.contains(p))

    def next_id(self) -> str:
        """A fresh piece id: ``T1``, ``T2``, ..."""
        taken = {p.id for p in self.terrain}
        n = len(self.terrain) + 1
        while f"T{n}" in taken:
            n += 1
        return f"T{n}"


#: The table a battle view has when none is given: 6 by 4 feet, no terrain.
DEFAULT_TABLE = Table()
