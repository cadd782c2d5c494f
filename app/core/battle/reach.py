"""What the battle map overlays and its ruler show, asked of the mechanics (no Qt): how far
a unit can get this turn (:func:`reach_outline`, by the same checks as a drag), its line of
sight to each enemy, its shooting range and arc and its command radius where the ruleset's
mechanics give them, and a ruler reading base edge to base edge with the terrain crossed.

Every answer comes from the mechanics (``check_move``, ``terrain_effect``, the optional
hooks below); nothing here is a rule of its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from app.rules.geometry import Footprint, Point, heading_vector, polygon_distance
from app.rules.mechanics import Mechanics, TurnView
from app.rules.movement import MoveReason
from app.rules.paths import Leg, Path
from app.rules.sight import CommandReach, Measurement, ShotReach

#: Bearings sampled around a unit for its reach outline.
REACH_RAYS = 24


def drag_legs(
    start: Footprint, x: float, y: float, *, turn_to_face: bool = False, step: float = 0.0
) -> tuple[Leg, ...]:
    """The legs a drag of a unit's centre from ``start`` to (``x``, ``y``) stands for: straight
    on, then sideways, facing kept (the usual way a unit is pushed across the table); or with
    ``turn_to_face``, straight to the point, turning to face it first. Distances are
    rounded to ``step`` (a pointer is not that precise); parts shorter than a thousandth of
    the unit are dropped."""
    dx, dy = x - start.x, y - start.y
    if turn_to_face:
        return (Leg.to(x, y),) if math.hypot(dx, dy) > 1e-3 else ()
    fx, fy = heading_vector(start.facing)
    along = _snap(dx * fx + dy * fy, step)
    across = _snap(dx * fy - dy * fx, step)  # to the right
    legs: list[Leg] = []
    if abs(along) > 1e-3:
        legs.append(Leg.straight(round(along, 4)))
    if abs(across) > 1e-3:
        legs.append(Leg.sideways(round(across, 4)))
    return tuple(legs)


def _snap(value: float, step: float) -> float:
    return round(value / step) * step if step > 0 else value


@dataclass(frozen=True)
class Reach:
    """Where a unit's centre can get this turn for ``reason``: one point per bearing (the
    farthest the mechanics allow, straight on then sideways as a drag moves it), the
    allowance left, or None with ``why`` when no fixed distance applies."""

    unit_id: str
    outline: tuple[Point, ...]
    left: float | None
    why: str = ""


def reach_outline(
    mech: Mechanics,
    view: TurnView,
    unit_id: str,
    reason: MoveReason = "move",
    rays: int = REACH_RAYS,
) -> Reach:
    """The unit's reach: along each of ``rays`` bearings, the farthest point whose drag path
    :meth:`~app.rules.movement.MovementRules.check_move` does not forbid (scaled down by cost,
    then halved until legal)."""
    unit = view.unit(unit_id)
    allowance = mech.move_allowance_for(view, unit, reason)
    if allowance is None:
        return Reach(unit_id, (), None, "dice or the rules decide how far it may go")
    left = max(allowance - unit.moved, 0.0)
    start = unit.footprint
    if left <= 1e-6:
        return Reach(unit_id, ((start.x, start.y),), 0.0, "it has no move left this turn")
    points: list[Point] = []
    for k in range(rays):
        vx, vy = heading_vector(start.facing + 360.0 * k / rays)
        dist = left
        best = 0.0
        for _ in range(8):
            legs = drag_legs(start, start.x + vx * dist, start.y + vy * dist)
            if not legs:
                break
            check = mech.check_move(view, unit_id, Path(legs), reason=reason)
            if not check.forbidden:
                best = dist
                break
            if check.cost > left + 1e-6:
                dist *= max(0.1, min(0.95, left / check.cost))
            else:
                dist /= 2
        points.append((start.x + vx * best, start.y + vy * best))
    return Reach(unit_id, tuple(points), left)


# --------------------------------------------------------------------------- range, command


def shooting_reach(mech: Mechanics, view: TurnView, unit_id: str) -> ShotReach | None:
    """The unit's shooting range and arc from the mechanics' ``shooting_reach`` hook; None
    when the unit does not shoot or the ruleset's mechanics do not give it (yet)."""
    return mech.shooting_reach(view, unit_id)


def command_reach(mech: Mechanics, view: TurnView, unit_id: str) -> CommandReach | None:
    """The command radius about the unit (or its leader) from the mechanics'
    ``command_reach`` hook; None when the ruleset's mechanics do not give one (yet)."""
    return mech.command_reach(view, unit_id)


@dataclass(frozen=True)
class CommandLine:
    """How far a unit stands from its commander by the mechanics'
    :meth:`~app.rules.sight.SightRules.command_distance`, and the line to draw: from its base
    to the nearest leader of its side."""

    start: Point
    end: Point
    distance: float
    leader: str


def command_line(mech: Mechanics, view: TurnView, unit_id: str) -> CommandLine | None:
    """The unit's distance to its commander (None: no leader of its side on the table, or
    the ruleset has no such measure)."""
    unit = view.unit(unit_id)
    distance = mech.command_distance(view, unit)
    leaders = [ld for ld in view.leaders if ld.side == unit.side]
    if distance is None or not leaders:
        return None
    corners = unit.footprint.corners()
    near = min(leaders, key=lambda ld: polygon_distance(((ld.x, ld.y),), corners))
    start, _ = closest_points(corners, ((near.x, near.y),))
    return CommandLine(start, (near.x, near.y), distance, near.name)


# --------------------------------------------------------------------------- sight, ruler


@dataclass(frozen=True)
class Sight:
    """A line of sight from ``a`` to ``b``, drawn between their closest base edges: clear,
    or what blocks it (terrain pieces and units, by the mechanics'
    :meth:`~app.rules.sight.SightRules.line_of_sight`)."""

    a: str
    b: str
    start: Point
    end: Point
    blocked_by: tuple[str, ...]

    @property
    def clear(self) -> bool:
        return not self.blocked_by


def closest_points(p: Sequence[Point], q: Sequence[Point]) -> tuple[Point, Point]:
    """The closest pair of points of two convex polygons (for a ruler drawn base edge to base
    edge); their distance is :func:`~app.rules.geometry.polygon_distance`."""
    best: tuple[float, Point, Point] = (math.inf, p[0], q[0])
    for poly, other, flip in ((p, q, False), (q, p, True)):
        for pt in poly:
            for i in range(len(other)):
                a, b = other[i - 1], other[i]
                dx, dy = b[0] - a[0], b[1] - a[1]
                l2 = dx * dx + dy * dy
                t = (
                    0.0
                    if l2 == 0
                    else max(0.0, min(1.0, ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / l2))
                )
                c = (a[0] + t * dx, a[1] + t * dy)
                d = math.dist(pt, c)
                if d < best[0]:
                    best = (d, c, pt) if flip else (d, pt, c)
    return best[1], best[2]


def sight(mech: Mechanics, view: TurnView, a_id: str, b_id: str) -> Sight:
    """Line of sight from ``a_id`` to ``b_id`` as the ruleset's mechanics judge it (from the
    front edge, past blocking terrain and units), with the line to draw for it."""
    a, b = view.unit(a_id), view.unit(b_id)
    start, end = closest_points(a.footprint.corners(), b.footprint.corners())
    if math.dist(start, end) <= 1e-9:
        start, end = (a.x, a.y), (b.x, b.y)
    los, blocked = mech.line_of_sight(view, a_id, b_id)
    return Sight(a_id, b_id, start, end, () if los else blocked or ("?",))


@dataclass(frozen=True)
class Crossed:
    piece_id: str
    kind: str
    name: str
    length: float


@dataclass(frozen=True)
class RulerReading:
    """A measurement on the table: from ``start`` to ``end`` (base edge to base edge when
    both ends are units), its ``distance`` in the ruleset's unit, the units at its ends, and
    the terrain the line crosses with the length inside each piece."""

    start: Point
    end: Point
    distance: float
    from_unit: str | None
    to_unit: str | None
    crossed: tuple[Crossed, ...]
    kind: Literal["points", "units"] = "points"
    #: between two units: the mechanics' measurement (arcs, sight, command distance)
    measurement: Measurement | None = None
    #: the units at the ends in words ("Hastati (A1)"), as a player reads them
    from_words: str = ""
    to_words: str = ""

    @property
    def ends(self) -> str:
        """``Hastati (A1) to Gauls (B3)`` between two units, else empty."""
        if not (self.from_unit and self.to_unit):
            return ""
        return f"{self.from_words or self.from_unit} to {self.to_words or self.to_unit}"

    def text(self, symbol: str = '"') -> str:
        ends = f"{self.ends}: " if self.ends else ""
        out = f"{ends}{self.distance:.2f}{symbol}"
        m = self.measurement
        if m is not None:
            sight = "in sight" if m.los else "out of sight"
            out += f" ({m.arc} arc, {sight})"
        if self.crossed:
            out += " across " + ", ".join(
                f"{c.kind} {c.piece_id}" + (f' "{c.name}"' if c.name else "") for c in self.crossed
            )
        return out


def ruler(
    view: TurnView,
    start: Point,
    end: Point,
    from_unit: str | None = None,
    to_unit: str | None = None,
    mech: Mechanics | None = None,
) -> RulerReading:
    """Measure from ``start`` to ``end``; when both ends are units, base edge to base edge
    (the closest points of their footprints, as players measure), with the mechanics'
    :meth:`~app.rules.sight.SightRules.measure` when ``mech`` is given."""
    kind: Literal["points", "units"] = "points"
    measurement = None
    if from_unit is not None and to_unit is not None and from_unit != to_unit:
        fa, fb = view.unit(from_unit).footprint, view.unit(to_unit).footprint
        start, end = closest_points(fa.corners(), fb.corners())
        if mech is not None:
            measurement = mech.measure(view, from_unit, to_unit)
            distance = measurement.distance
        else:
            distance = polygon_distance(fa.corners(), fb.corners())
        kind = "units"
    else:
        distance = math.dist(start, end)
    crossed = tuple(
        Crossed(t.id, t.kind, t.name, t.segment_inside_length(start, end))
        for t in view.table.terrain
        if distance > 1e-9 and t.crosses(start, end)
    )
    return RulerReading(
        start,
        end,
        distance,
        from_unit,
        to_unit,
        crossed,
        kind,
        measurement,
        _words(view, from_unit),
        _words(view, to_unit),
    )


def _words(view: TurnView, unit_id: str | None) -> str:
    """A unit at an end of the ruler by name and id, as the log names it."""
    if unit_id is None:
        return ""
    try:
        return f"{view.unit(unit_id).name} ({unit_id})"
    except KeyError:
        return unit_id
