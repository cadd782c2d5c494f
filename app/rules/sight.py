"""Measuring on the table the way miniature players do: distance base edge to base edge, the
arc a target stands in, line of sight between base edges past blocking terrain and units,
the terrain between two units, and how far a unit stands from its commander (no Qt).

:class:`SightRules` (a mixin of :class:`~app.rules.mechanics.Mechanics`) holds the hooks a
ruleset overrides: :meth:`SightRules.arc_of` (its arc rule), :meth:`SightRules.units_block_sight`
(whether units block a line of sight), :meth:`SightRules.command_distance`, and
:meth:`SightRules.measure`, which puts them together. Which terrain blocks sight is each
ruleset's :meth:`~app.rules.movement.MovementRules.terrain_effect` (``blocks_los``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from app.rules.contact import ContactRules
from app.rules.geometry import (
    BBox,
    Footprint,
    Point,
    aspect,
    bbox_of,
    bboxes_meet,
    edge_distance,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    segment_polygon_intervals,
)
from app.rules.values import Combatant, TurnView

Arc = Literal["front", "flank", "rear"]
#: A sight line must run at least this far inside a piece or a base to be blocked by it
#: (grazing an edge or a corner does not block).
GRAZE = 1e-6
#: Points taken along the viewer's front edge (corners included) for sight lines.
FRONT_SAMPLES = 5


@dataclass(frozen=True)
class Measurement:
    """``unit_id`` measured to ``target_id``: ``distance`` base edge to base edge (0 when
    touching); ``arc``: which of the unit's arcs the target stands in; ``target_arc``:
    which of the target's arcs the unit stands in; ``los``: a clear line of sight from the
    unit's front edge to the target's base, else ``blocked_by`` (terrain piece and unit
    ids); ``crossing``: terrain pieces the line between their centres runs through (ids);
    ``command_distance``: how far the unit stands from its commander (None: no commander
    on the table, or the ruleset has no such measure)."""

    unit_id: str
    target_id: str
    distance: float
    arc: Arc
    target_arc: Arc
    los: bool
    blocked_by: tuple[str, ...]
    crossing: tuple[str, ...]
    command_distance: float | None


def front_edge(f: Footprint, samples: int = FRONT_SAMPLES) -> list[Point]:
    """Points along a base's front edge, corner to corner."""
    corners = f.corners()
    left, right = _front_corners(f, corners)
    n = max(2, samples)
    return [
        (left[0] + (right[0] - left[0]) * i / (n - 1), left[1] + (right[1] - left[1]) * i / (n - 1))
        for i in range(n)
    ]


def _front_corners(f: Footprint, corners: Sequence[Point]) -> tuple[Point, Point]:
    """The two corners farthest forward along the facing."""
    fx, fy = math.sin(math.radians(f.facing)), math.cos(math.radians(f.facing))
    ranked = sorted(corners, key=lambda p: (p[0] - f.x) * fx + (p[1] - f.y) * fy, reverse=True)
    return ranked[0], ranked[1]


def base_points(f: Footprint) -> list[Point]:
    """A base's corners, the middles of its edges and its centre: the points a sight line
    may end on."""
    corners = list(f.corners())
    mids = [
        ((corners[i - 1][0] + corners[i][0]) / 2, (corners[i - 1][1] + corners[i][1]) / 2)
        for i in range(len(corners))
    ]
    return [*corners, *mids, (f.x, f.y)]


def _runs_inside(a: Point, b: Point, poly: Sequence[Point]) -> bool:
    length = math.dist(a, b)
    inside = sum(t1 - t0 for t0, t1 in segment_polygon_intervals(a, b, poly))
    return inside * length > GRAZE


@dataclass(frozen=True)
class ShotReach:
    """A unit's shooting: its longest range (base edge to base edge) and its arc of fire in
    degrees about its facing (None: all round), with the rule they come from."""

    range: float
    arc: float | None
    rule: str


@dataclass(frozen=True)
class CommandReach:
    """A leader's or unit's command radius, measured from ``centre``, with its rule."""

    centre: Point
    radius: float
    rule: str


@dataclass(frozen=True)
class _Blocker:
    id: str
    box: BBox
    poly: tuple[Point, ...] | None  # an area or a base; None for a line with a width
    line: tuple[Point, ...] = ()
    half_width: float = 0.0

    def blocks(self, a: Point, b: Point) -> bool:
        if not bboxes_meet(self.box, bbox_of((a, b))):
            return False
        if self.poly is not None:
            return _runs_inside(a, b, self.poly)
        return any(
            _segment_distance(a, b, self.line[i - 1], self.line[i]) < self.half_width - GRAZE
            for i in range(1, len(self.line))
        )


def _segment_distance(a: Point, b: Point, c: Point, d: Point) -> float:
    return polygon_distance((a, b), (c, d))


def _clear(lines: Iterable[tuple[Point, Point]], blockers: Sequence[_Blocker]) -> bool:
    return any(not any(k.blocks(a, b) for k in blockers) for a, b in lines)


class SightRules(ContactRules):
    """The measuring hooks of :class:`~app.rules.mechanics.Mechanics`."""

    def arc_of(self, view: TurnView, unit: Combatant, target: Combatant) -> Arc:
        """Which of ``unit``'s arcs ``target`` (its centre) stands in. Default: the base's
        diagonals split front, flanks and rear (:func:`~app.rules.geometry.aspect`, the
        usual tabletop reading); a ruleset with its own arc (MWAN's 45 degrees from the
        front corners, ...) overrides it."""
        return aspect(unit.footprint, target.x, target.y)

    def units_block_sight(
        self, view: TurnView, unit: Combatant, target: Combatant, other: Combatant
    ) -> bool:
        """Whether ``other`` standing between ``unit`` and ``target`` blocks the line of
        sight. Default: every unit on the table does (a ruleset whose skirmishers or
        elephants do not, or that lets troops on a hill see over, overrides it)."""
        return True

    def command_distance(self, view: TurnView, unit: Combatant) -> float | None:
        """How far ``unit`` stands from its commander, in the ruleset's unit: from its base
        edge to the nearest active leader of its side (0 when one is attached to it); None
        when its side has no leader on the table. Rulesets with command ranges measured
        otherwise (from the general's unit, to the nearest base) override it."""
        best: float | None = None
        corners = unit.footprint.corners()
        for ld in view.leaders:
            if ld.side != unit.side:
                continue
            if ld.attached_to == unit.unit_id:
                return 0.0
            d = _point_to_base((ld.x, ld.y), corners)
            best = d if best is None else min(best, d)
        return best

    def shooting_reach(self, view: TurnView, unit_id: str) -> ShotReach | None:
        """The unit's longest shooting range and its arc of fire, for the map's overlay; None
        when it does not shoot. A ruleset with shooting overrides this from its tables."""
        return None

    def command_reach(self, view: TurnView, unit_id: str) -> CommandReach | None:
        """The command radius that reaches this unit (about its leader), for the map's
        overlay; None when the ruleset has no command radius. Overridden from its tables."""
        return None

    def _blockers(self, view: TurnView, unit: Combatant, target: Combatant) -> list[_Blocker]:
        a, b = unit.footprint, target.footprint
        box = bbox_of([*a.corners(), *b.corners()])
        out: list[_Blocker] = []
        for piece in view.table.terrain:
            if not bboxes_meet(piece.bbox, box):
                continue
            if not self.terrain_effect(unit, piece.kind).blocks_los:
                continue
            # a unit at the edge of a wood (or on a hill) sees out and is seen: the piece
            # either unit stands in does not block between them
            if piece.overlaps(a) or piece.overlaps(b):
                continue
            if piece.linear:
                out.append(_Blocker(piece.id, piece.bbox, None, piece.points, piece.half_width))
            else:
                out.append(_Blocker(piece.id, piece.bbox, piece.points))
        for other in view.units:
            if other.unit_id in (unit.unit_id, target.unit_id) or other.status.eliminated:
                continue
            corners = other.footprint.corners()
            obox = bbox_of(corners)
            if not bboxes_meet(obox, box):
                continue
            if self.units_block_sight(view, unit, target, other):
                out.append(_Blocker(other.unit_id, obox, corners))
        return out

    def line_of_sight(
        self, view: TurnView, unit_id: str, target_id: str
    ) -> tuple[bool, tuple[str, ...]]:
        """Whether ``unit_id`` sees ``target_id``: clear when a straight line from a point
        of its front edge to a point of the target's base runs through no blocking terrain
        (:meth:`terrain_effect` ``blocks_los``) and no unit that blocks sight
        (:meth:`units_block_sight`); else what blocks it (the blockers of the line between
        the front edge's middle and the target's centre, or of every line)."""
        unit, target = view.unit(unit_id), view.unit(target_id)
        blockers = self._blockers(view, unit, target)
        if not blockers:
            return True, ()
        starts = front_edge(unit.footprint)
        ends = base_points(target.footprint)
        if _clear(((s, e) for s in starts for e in ends), blockers):
            return True, ()
        middle = starts[len(starts) // 2]
        centre = (target.x, target.y)
        ids = [k.id for k in blockers if k.blocks(middle, centre)]
        if not ids:
            ids = [k.id for k in blockers if any(k.blocks(s, e) for s in starts for e in ends)]
        return False, tuple(ids)

    def measure(self, view: TurnView, unit_id: str, target_id: str) -> Measurement:
        """Everything a player measures from ``unit_id`` to ``target_id`` (see
        :class:`Measurement`); rulesets change its parts through the hooks above."""
        unit, target = view.unit(unit_id), view.unit(target_id)
        los, blocked = self.line_of_sight(view, unit_id, target_id)
        a, b = (unit.x, unit.y), (target.x, target.y)
        crossing = tuple(p.id for p in view.table.terrain if p.crosses(a, b))
        return Measurement(
            unit_id=unit_id,
            target_id=target_id,
            distance=edge_distance(unit.footprint, target.footprint),
            arc=self.arc_of(view, unit, target),
            target_arc=self.arc_of(view, target, unit),
            los=los,
            blocked_by=blocked,
            crossing=crossing,
            command_distance=self.command_distance(view, unit),
        )


def _point_to_base(p: Point, corners: Sequence[Point]) -> float:
    if point_in_polygon(p, corners):
        return 0.0
    return min(point_segment_distance(p, corners[i - 1], corners[i]) for i in range(len(corners)))
