"""Table geometry shared by the mechanics and the battle core: footprints, base-edge to
base-edge distances, and where one unit stands relative to another's front.

Angles are degrees; a facing or bearing of 0 looks towards +y, 90 towards +x (clockwise when
+y is up). Distances are in the ruleset's unit of measure. Every ruleset measures with these
(the arcs of fire differ by rules, and stay with each ruleset)."""

from __future__ import annotations

import itertools
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
    edges_a = [(a[i - 1], a[i]) for i in range(len(a))]
    edges_b = [(b[j - 1], b[j]) for j in range(len(b))]
    for p1, p2 in edges_a:
        for q1, q2 in edges_b:
            if _segments_cross(p1, p2, q1, q2):
                return 0.0
    # the least of each corner's distance to each edge of the other shape (each once: the
    # edges' ends are the corners, and the pairs of edges met each corner twice)
    best = math.inf
    for q1, q2 in edges_b:
        for p in a:
            d = _point_segment(p, q1, q2)
            if d < best:
                best = d
    for p1, p2 in edges_a:
        for q in b:
            d = _point_segment(q, p1, p2)
            if d < best:
                best = d
    return best


def edge_distance(a: Footprint, b: Footprint) -> float:
    """Shortest distance between the two rectangles (0 when they touch or overlap): the
    base-edge to base-edge measurement of the table."""
    return polygon_distance(a.corners(), b.corners())


def surely_apart(a: Footprint, b: Footprint, gap: float) -> bool:
    """Whether the two rectangles are surely more than ``gap`` apart edge to edge, by their
    circumscribed circles: a cheap test before :func:`edge_distance` (False says nothing)."""
    ra = math.hypot(a.width, a.depth) / 2
    rb = math.hypot(b.width, b.depth) / 2
    return math.hypot(a.x - b.x, a.y - b.y) - ra - rb > gap


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


# --------------------------------------------------------------------------- shapes
#
# Helpers for terrain and paths (``app.rules.table``, ``app.rules.paths``): bounding boxes for
# a cheap first test, overlap of convex shapes that treats touching as not overlapping (two
# units in base contact touch), and how much of a straight segment lies inside a polygon or
# within a distance of a line.

BBox = tuple[float, float, float, float]  # min x, min y, max x, max y


def bbox_of(points: Sequence[Point]) -> BBox:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def bboxes_meet(a: BBox, b: BBox, margin: float = 0.0) -> bool:
    """Whether two boxes overlap or come within ``margin`` of each other."""
    return not (
        a[2] + margin < b[0] or b[2] + margin < a[0] or a[3] + margin < b[1] or b[3] + margin < a[1]
    )


def rotate_about(p: Point, centre: Point, degrees: float) -> Point:
    """``p`` turned ``degrees`` clockwise (as facings turn) about ``centre``."""
    rad = math.radians(degrees)
    c, s = math.cos(rad), math.sin(rad)
    dx, dy = p[0] - centre[0], p[1] - centre[1]
    return (centre[0] + dx * c + dy * s, centre[1] - dx * s + dy * c)


def convex_hull(points: Sequence[Point]) -> tuple[Point, ...]:
    """The convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return tuple(pts)
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return tuple(lower[:-1] + upper[:-1])


def signed_area(poly: Sequence[Point]) -> float:
    """Positive when the points run counter-clockwise."""
    return sum(_cross((0.0, 0.0), poly[i - 1], poly[i]) for i in range(len(poly))) / 2


def convex_overlap(a: Sequence[Point], b: Sequence[Point], tolerance: float = EPS) -> bool:
    """Whether two convex polygons overlap by more than ``tolerance`` (separating axes):
    shapes that only touch along an edge or at a corner do not overlap."""
    for poly in (a, b):
        n = len(poly)
        if n < 2:
            continue
        for i in range(n):
            x1, y1 = poly[i - 1]
            x2, y2 = poly[i]
            nx, ny = y1 - y2, x2 - x1
            length = math.hypot(nx, ny)
            if length <= EPS:
                continue
            nx, ny = nx / length, ny / length
            pa = [p[0] * nx + p[1] * ny for p in a]
            pb = [p[0] * nx + p[1] * ny for p in b]
            if max(pa) <= min(pb) + tolerance or max(pb) <= min(pa) + tolerance:
                return False
    return True


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """``p`` inside the simple polygon ``poly`` (any shape; even-odd rule)."""
    x, y = p
    inside = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    return _point_segment(p, a, b)


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ``ab`` and ``cd`` meet (touching included)."""
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    ):
        return True
    return (
        _point_segment(a, c, d) <= EPS
        or _point_segment(b, c, d) <= EPS
        or _point_segment(c, a, b) <= EPS
        or _point_segment(d, a, b) <= EPS
    )


def polygon_is_simple(poly: Sequence[Point]) -> bool:
    """No two edges of ``poly`` meet except neighbours at their shared corner."""
    n = len(poly)
    edges = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue
            if segments_cross(*edges[i], *edges[j]):
                return False
    return True


def _merge(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for t0, t1 in sorted(intervals):
        if out and t0 <= out[-1][1] + 1e-12:
            out[-1] = (out[-1][0], max(out[-1][1], t1))
        else:
            out.append((t0, t1))
    return out


def segment_polygon_intervals(
    a: Point, b: Point, poly: Sequence[Point]
) -> list[tuple[float, float]]:
    """The parts of segment ``ab`` inside the simple polygon ``poly``, as parameters
    ``(t0, t1)`` along it (0 at ``a``, 1 at ``b``), merged and sorted."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    cuts = [0.0, 1.0]
    for i in range(len(poly)):
        c, d = poly[i - 1], poly[i]
        ex, ey = d[0] - c[0], d[1] - c[1]
        denom = dx * ey - dy * ex
        if abs(denom) <= 1e-15:
            continue
        t = ((c[0] - a[0]) * ey - (c[1] - a[1]) * ex) / denom
        u = ((c[0] - a[0]) * dy - (c[1] - a[1]) * dx) / denom
        if 0.0 < t < 1.0 and -1e-12 <= u <= 1 + 1e-12:
            cuts.append(t)
    cuts.sort()
    inside = []
    for t0, t1 in itertools.pairwise(cuts):
        if t1 - t0 <= 1e-12:
            continue
        tm = (t0 + t1) / 2
        if point_in_polygon((a[0] + dx * tm, a[1] + dy * tm), poly):
            inside.append((t0, t1))
    return _merge(inside)


def _disc_interval(a: Point, d: Point, c: Point, r: float) -> tuple[float, float] | None:
    fx, fy = a[0] - c[0], a[1] - c[1]
    qa = d[0] * d[0] + d[1] * d[1]
    qb = 2 * (fx * d[0] + fy * d[1])
    qc = fx * fx + fy * fy - r * r
    if qa <= 1e-18:
        return (0.0, 1.0) if qc <= 0 else None
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    root = math.sqrt(disc)
    return ((-qb - root) / (2 * qa), (-qb + root) / (2 * qa))


def _slab_interval(a: Point, d: Point, p: Point, q: Point, r: float) -> tuple[float, float] | None:
    """Where ``a + t d`` lies in the rectangle around segment ``pq`` reaching ``r`` to each
    side (clipping against its four sides)."""
    ux, uy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(ux, uy)
    if length <= 1e-12:
        return None
    ux, uy = ux / length, uy / length
    lo, hi = -math.inf, math.inf
    # along the segment: 0 <= (P - p).u <= length; across it: |(P - p).n| <= r
    for (nx, ny), low, high in (((ux, uy), 0.0, length), ((-uy, ux), -r, r)):
        s0 = (a[0] - p[0]) * nx + (a[1] - p[1]) * ny
        ds = d[0] * nx + d[1] * ny
        if abs(ds) <= 1e-15:
            if s0 < low or s0 > high:
                return None
            continue
        t1, t2 = (low - s0) / ds, (high - s0) / ds
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return (lo, hi) if lo <= hi else None


def segment_band_intervals(
    a: Point, b: Point, line: Sequence[Point], half_width: float
) -> list[tuple[float, float]]:
    """The parts of segment ``ab`` within ``half_width`` of the polyline ``line`` (a river,
    a road: a band with rounded joints), as merged parameters along ``ab``."""
    d = (b[0] - a[0], b[1] - a[1])
    out: list[tuple[float, float]] = []
    for i in range(1, len(line)):
        p, q = line[i - 1], line[i]
        parts = [
            _slab_interval(a, d, p, q, half_width),
            _disc_interval(a, d, p, half_width),
            _disc_interval(a, d, q, half_width),
        ]
        found = [x for x in parts if x is not None]
        if not found:
            continue
        t0 = max(0.0, min(x[0] for x in found))
        t1 = min(1.0, max(x[1] for x in found))
        if t1 > t0:
            out.append((t0, t1))
    return _merge(out)


# --------------------------------------------------------------------------- a front arc


def clip_half_plane(
    poly: Sequence[Point], keep: tuple[float, float, float], tolerance: float = 0.0
) -> list[Point]:
    """The part of a convex ``poly`` where ``k0*x + k1*y + k2 >= -tolerance``
    (Sutherland-Hodgman, one edge)."""
    k0, k1, k2 = keep
    out: list[Point] = []
    for i, cur in enumerate(poly):
        prev = poly[i - 1]
        vc = k0 * cur[0] + k1 * cur[1] + k2
        vp = k0 * prev[0] + k1 * prev[1] + k2
        if vc >= -tolerance:
            if vp < -tolerance:
                t = vp / (vp - vc)
                out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
            out.append(cur)
        elif vp >= -tolerance:
            t = vp / (vp - vc)
            out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
    return out


def in_front_arc(
    shooter: Footprint,
    target: Footprint,
    outward_degrees: float,
    *,
    tolerance: float = 0.0,
    front_margin: float = 0.0,
) -> bool:
    """Whether some part of ``target`` lies in ``shooter``'s front arc: ahead of its front
    edge (less ``front_margin``), between lines drawn ``outward_degrees`` outward from
    straight ahead at each front corner. A ruleset says what its arc is: an arc of A degrees
    in all is ``outward_degrees = A / 2``. ``tolerance`` is how far outside a clipping line
    a corner may lie and still count as inside."""
    (fx, fy), (rx, ry) = axes(shooter.facing)
    poly: list[Point] = [
        (
            (px - shooter.x) * rx + (py - shooter.y) * ry,
            (px - shooter.x) * fx + (py - shooter.y) * fy,
        )
        for px, py in target.corners()
    ]
    front, half = shooter.depth / 2, shooter.width / 2
    slope = math.tan(math.radians(outward_degrees))
    # ahead of the front edge: ly - front >= 0; inside each slanted side:
    # half + slope * (ly - front) -/+ lx >= 0
    for keep in (
        (0.0, 1.0, -front + front_margin),
        (-1.0, slope, half - slope * front),
        (1.0, slope, half - slope * front),
    ):
        poly = clip_half_plane(poly, keep, tolerance)
        if not poly:
            return False
    return True
