"""Quincunx: the table geometry its rules need (command range, the arc of fire, the
rampage path, moves stopping at the first unit in the way).

Positions follow :class:`app.rules.mechanics.Combatant`: a footprint ``width`` x ``depth``
centred on (``x``, ``y``); ``facing`` in degrees with 0 towards +y, read clockwise (90 is +x).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from app.rules.geometry import Footprint, Point, heading_vector, polygon_distance
from app.rules.kept import kept
from app.rules.mechanics import Combatant

if TYPE_CHECKING:
    pass


EPS = 1e-9


# --------------------------------------------------------------------------- geometry


#: Shortest distance between two convex shapes (points, segments or rectangles); 0 when
#: they touch or overlap.
gap = polygon_distance


def command_reach(
    unit: Combatant,
    friends: Iterable[Combatant],
    commander: Point,
    range_inches: float,
    chain_inches: float,
) -> bool:
    """Quincunx, Commanders: a unit may move if it is within ``range_inches`` of its
    commander, or linked to a unit that is by a chain of friendly units no more than
    ``chain_inches`` apart (footprint to footprint)."""
    return unit.unit_id in command_chain((*friends, unit), commander, range_inches, chain_inches)


def command_chain(
    units: Iterable[Combatant], commander: Point, range_inches: float, chain_inches: float
) -> set[str]:
    """The ids of ``units`` in command of a commander at ``commander``: within
    ``range_inches`` of him, or linked to one that is by a chain of these units no more than
    ``chain_inches`` apart (footprint to footprint); units out of the battle never are."""
    placed = tuple((u.unit_id, u.footprint) for u in units if not u.status.eliminated)
    return set(_chain(placed, commander, range_inches, chain_inches))


#: how many chains :func:`command_chain` keeps: a battle's states differ by the few units a
#: step moved, so most battlegroups stand as they stood, and their chains are the same
CHAINS_KEPT = 512


@kept(CHAINS_KEPT)
def _chain(
    placed: tuple[tuple[str, Footprint], ...],
    commander: Point,
    range_inches: float,
    chain_inches: float,
) -> frozenset[str]:
    """:func:`command_chain` of units standing at these footprints (by id)."""
    nodes = {uid: fp.corners() for uid, fp in placed}
    reached = [uid for uid, fp in nodes.items() if gap((commander,), fp) <= range_inches + EPS]
    seen = set(reached)
    while reached:
        here = nodes[reached.pop()]
        for uid, fp in nodes.items():
            if uid not in seen and gap(here, fp) <= chain_inches + EPS:
                seen.add(uid)
                reached.append(uid)
    return frozenset(seen)


def in_arc(shooter: Combatant, target: Combatant, arc_degrees: float) -> bool:
    """Quincunx, Missilery: the target's centre lies in the arc of fire to the shooter's
    front, measured from the centre of the stand."""
    dx, dy = target.x - shooter.x, target.y - shooter.y
    if dx == 0 and dy == 0:
        return True
    bearing = math.degrees(math.atan2(dx, dy))
    off = (bearing - shooter.facing + 180) % 360 - 180
    return abs(off) <= arc_degrees / 2 + EPS


def units_in_path(
    mover: Combatant, bearing: float, distance: float, candidates: Iterable[Combatant]
) -> list[Combatant]:
    """Units whose footprint the mover's path crosses (a straight line of ``distance`` along
    ``bearing`` from its centre, as wide as the mover), nearest first."""
    vx, vy = heading_vector(bearing)
    start = (mover.x, mover.y)
    end = (mover.x + vx * distance, mover.y + vy * distance)
    half = max(mover.width, 0.0) / 2
    hit = [
        u
        for u in candidates
        if u.unit_id != mover.unit_id
        and not u.status.eliminated
        and gap((start, end), u.footprint.corners()) <= half + EPS
    ]
    return sorted(hit, key=lambda u: (u.x - mover.x) * vx + (u.y - mover.y) * vy)


def _normals(corners: Sequence[Point]) -> list[Point]:
    out = []
    for i in range(len(corners)):
        ex, ey = corners[i][0] - corners[i - 1][0], corners[i][1] - corners[i - 1][1]
        length = math.hypot(ex, ey)
        if length > EPS:
            out.append((-ey / length, ex / length))
    return out


def _span(corners: Sequence[Point], axis: Point) -> tuple[float, float]:
    dots = [px * axis[0] + py * axis[1] for px, py in corners]
    return min(dots), max(dots)


def first_contact(
    moving: Sequence[Point], heading: float, limit: float, still: Sequence[Point]
) -> float | None:
    """How far ``moving`` (a convex shape's corners) goes along ``heading`` before it runs
    into ``still`` (their insides would overlap), within ``limit``; None when it never does,
    or when the two already overlap where it starts (that unit is not in its way).
    Separating axes: on each edge normal the overlap is an interval of the distance
    travelled; the shapes overlap where every axis does."""
    vx, vy = heading_vector(heading)
    lo, hi = -math.inf, math.inf
    for axis in (*_normals(moving), *_normals(still)):
        a0, a1 = _span(moving, axis)
        b0, b1 = _span(still, axis)
        speed = vx * axis[0] + vy * axis[1]
        start, end = (
            b0 - a1 + EPS,
            b1 - a0 - EPS,
        )  # overlap while start < t * speed < end
        if abs(speed) <= EPS:
            if not start < 0 < end:
                return None
            continue
        t0, t1 = sorted((start / speed, end / speed))
        lo, hi = max(lo, t0), min(hi, t1)
    if lo >= hi or hi <= 0 or lo < 0 or lo >= limit:
        return None
    return lo


def clear_run(
    mover: Footprint, heading: float, distance: float, blockers: Iterable[Combatant]
) -> float:
    """How far ``mover`` can go along ``heading``, at most ``distance``, before its footprint
    meets one of ``blockers`` (units without a footprint never block)."""
    run = distance
    corners = mover.corners()
    for b in blockers:
        if not b.footprint.has_size:
            continue
        hit = first_contact(corners, heading, run, b.footprint.corners())
        if hit is not None:
            run = hit
    return run


def as_shift(dx: float, dy: float) -> tuple[float, float] | None:
    """A displacement as ``Effects.shift`` (bearing, distance), None when it is nothing."""
    distance = math.hypot(dx, dy)
    if distance <= EPS:
        return None
    return round(math.degrees(math.atan2(dx, dy)), 9) % 360, round(distance, 9)
