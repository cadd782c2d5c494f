"""Table geometry shared by the mechanics and the battle core: footprints, base-edge to
base-edge distances, and where one unit stands relative to another's front.

Angles are degrees; a facing or bearing of 0 looks towards +y, 90 towards +x (clockwise when
+y is up). Distances are in the ruleset's unit of measure. Every ruleset measures with these
(the arcs of fire differ by rules, and stay with each ruleset)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

Aspect = Literal["front", "flank", "rear"]
Point = tuple[float, float]
EPS = 1e-6


def heading_vector(degrees: float) -> Point:
    """Unit vector of a facing or bearing (0 = +y, 90 = +x)."""
    rad = math.radians(degrees)
    return (math.sin(rad), math.cos(rad))


def axes(facing: float) -> tuple[Point, Point]:
    """(forward, right) unit vectors of ``facing`` (0 = +y, clockwise)."""
    fx, fy = heading_vector(facing)
    return (fx, fy), (fy, -fx)


@dataclass(frozen=True)
class Footprint:
    """A unit's rectangle: centre (x, y), ``width`` along its front, ``depth`` behind it."""

    x: float
    y: float
    facing: float
    width: float
    depth: float

    @property
    def has_size(self) -> bool:
        return self.width > 0 and self.depth > 0

    def corners(self) -> tuple[Point, ...]:
        """Front-left, front-right, rear-right, rear-left; one point when it has no size."""
        if self.width <= 0 and self.depth <= 0:
            return ((self.x, self.y),)
        (fx, fy), (rx, ry) = axes(self.facing)
        hw, hd = self.width / 2, self.depth / 2
        return tuple(
            (self.x + fx * along + rx * across, self.y + fy * along + ry * across)
            for along, across in ((hd, -hw), (hd, hw), (-hd, hw), (-hd, -hw))
        )


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _point_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    return ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4))


def _area(poly: Sequence[Point]) -> float:
    return abs(sum(_cross((0.0, 0.0), poly[i - 1], poly[i]) for i in range(len(poly)))) / 2


def _inside(p: Point, poly: Sequence[Point]) -> bool:
    """``p`` inside or on the convex polygon ``poly`` (which must have some area)."""
    signs = [_cross(poly[i - 1], poly[i], p) for i in range(len(poly))]
    return all(s >= -EPS for s in signs) or all(s <= EPS for s in signs)


def polygon_distance(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Distance between the closest points of two convex shapes (points, segments or
    polygons); 0 when they touch, overlap or cross."""
    if _area(b) > EPS and any(_inside(p, b) for p in a):
        return 0.0
    if _area(a) > EPS and any(_inside(p, a) for p in b):
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


def edge_distance(a: Footprint, b: Footprint) -> float:
    """Shortest distance between the two rectangles (0 when they touch or overlap): the
    base-edge to base-edge measurement of the table."""
    return polygon_distance(a.corners(), b.corners())


def bearing(from_x: float, from_y: float, to_x: float, to_y: float) -> float:
    """The facing (degrees, 0 = +y) that looks from one point to the other."""
    return math.degrees(math.atan2(to_x - from_x, to_y - from_y)) % 360


def aspect(target: Footprint, attacker_x: float, attacker_y: float) -> Aspect:
    """Which side of ``target`` the point lies on: its front, a flank or its rear, split by
    the rectangle's diagonals (the usual tabletop reading)."""
    rel = (bearing(target.x, target.y, attacker_x, attacker_y) - target.facing) % 360
    half = math.degrees(math.atan2(target.width, target.depth))  # half-angle of the front arc
    if rel <= half or rel >= 360 - half:
        return "front"
    if 180 - half <= rel <= 180 + half:
        return "rear"
    return "flank"


# --------------------------------------------------------------------------- units


class Placed(Protocol):
    """A unit on the table, as the geometry reads it (a mechanics ``Combatant``)."""

    @property
    def x(self) -> float: ...

    @property
    def y(self) -> float: ...

    @property
    def facing(self) -> float: ...

    @property
    def footprint(self) -> Footprint: ...


def unit_distance(a: Placed, b: Placed) -> float:
    """Base edge to base edge between two units (0 when they touch or overlap): ranges,
    contact and "within" distances in every ruleset."""
    return edge_distance(a.footprint, b.footprint)


def away_bearing(source: Placed, unit: Placed) -> float:
    """The bearing that carries ``unit`` directly away from ``source`` (a recoil, a rout, an
    evade): from the source's centre through the unit's, or the unit's rear when the two
    centres coincide."""
    if abs(unit.x - source.x) <= 1e-9 and abs(unit.y - source.y) <= 1e-9:
        return (unit.facing + 180.0) % 360
    return bearing(source.x, source.y, unit.x, unit.y)
