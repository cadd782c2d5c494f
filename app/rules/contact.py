"""Contact and deployment: where a charging unit ends touching its target (front to front,
to a flank, to the rear, corner to corner) and a legal path there; the sides' deployment
zones and the checks of a unit deployed (no Qt).

The core helpers (:func:`contact_pose`, :func:`corner_pose`, :func:`approach_paths`) are
geometry every ruleset shares; :class:`ContactRules` (a mixin of
:class:`~app.rules.mechanics.Mechanics`) holds the hooks a ruleset overrides: which poses a
charge may end in (:meth:`ContactRules.contact_poses`), the whole answer
(:meth:`ContactRules.contact`), what contact does to the units
(:meth:`ContactRules.on_contact`), the deployment zones and when deploying is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar, Literal, get_args

from app.rules.geometry import (
    Footprint,
    Point,
    aspect,
    axes,
    convex_overlap,
    edge_distance,
    point_in_polygon,
    point_segment_distance,
    segments_cross,
)
from app.rules.movement import TABLE_RULE, Breach, MoveCheck, MovementRules
from app.rules.paths import Leg, Path
from app.rules.values import Combatant, Resolution, Side, TurnView

ContactHow = Literal["front", "flank", "rear", "corner"]
CONTACT_HOWS: tuple[ContactHow, ...] = get_args(ContactHow)
Edge = Literal["front", "rear", "left", "right"]
Zone = tuple[Point, ...]
#: Contact is touching: base edges at most this far apart (in the ruleset's unit).
TOUCH = 1e-6


# --------------------------------------------------------------------------- poses


def contact_pose(
    target: Footprint, width: float, depth: float, edge: Edge, offset: float = 0.0
) -> Footprint:
    """The pose of a ``width`` x ``depth`` unit whose front edge lies flat against
    ``target``'s ``edge``, facing it squarely, centred on that edge's middle (moved
    ``offset`` along it: + towards the target's right for its front, ...)."""
    (fx, fy), (rx, ry) = axes(target.facing)
    if edge == "front":
        out, along, facing, reach = (fx, fy), (rx, ry), target.facing + 180, target.depth / 2
    elif edge == "rear":
        out, along, facing, reach = (-fx, -fy), (-rx, -ry), target.facing, target.depth / 2
    elif edge == "right":
        out, along, facing, reach = (rx, ry), (-fx, -fy), target.facing + 270, target.width / 2
    else:
        out, along, facing, reach = (-rx, -ry), (fx, fy), target.facing + 90, target.width / 2
    d = reach + depth / 2
    return Footprint(
        target.x + out[0] * d + along[0] * offset,
        target.y + out[1] * d + along[1] * offset,
        facing % 360,
        width,
        depth,
    )


def corner_pose(
    target: Footprint, width: float, depth: float, side: Literal["left", "right"]
) -> Footprint:
    """Corner to corner: facing the target's front, front edges in one line, the two
    bases touching only at a front corner (on the target's ``side``)."""
    offset = (target.width + width) / 2
    return contact_pose(target, width, depth, "front", offset if side == "right" else -offset)


def _signed_turn(frm: float, to: float) -> float:
    d = (to - frm) % 360
    return d - 360 if d > 180 else d


def approach_paths(start: Footprint, end: Footprint) -> list[tuple[Leg, ...]]:
    """Simple paths from ``start`` to the contact pose ``end``, cheapest shapes first:
    straight in when already lined up; turn to the end's facing, step sideways into line
    and go straight in; go to a point in front of the end pose (far enough for the unit to
    turn there clear of the target) and straight in; straight to the end pose."""
    out: list[tuple[Leg, ...]] = []
    turn = _signed_turn(start.facing, end.facing)
    (fx, fy), (rx, ry) = axes(end.facing)
    dx, dy = end.x - start.x, end.y - start.y
    forward, lateral = dx * fx + dy * fy, dx * rx + dy * ry
    if abs(turn) < 1e-6 and abs(lateral) < 1e-6 and forward > 0:
        out.append((Leg.straight(forward),))
    if forward > 0:
        legs: list[Leg] = []
        if abs(turn) >= 1e-6:
            legs.append(Leg.pivot(turn))
        if abs(lateral) >= 1e-6:
            legs.append(Leg.sideways(lateral))
        legs.append(Leg.straight(forward))
        out.append(tuple(legs))
    radius = math.hypot(end.width, end.depth) / 2
    standoff = max(0.0, radius - end.depth / 2) + 0.05
    ax, ay = end.x - fx * standoff, end.y - fy * standoff
    if math.hypot(ax - start.x, ay - start.y) > 1e-6 or abs(turn) >= 1e-6:
        out.append((Leg.to(ax, ay, end.facing), Leg.straight(standoff)))
    out.append((Leg.to(end.x, end.y, end.facing),))
    return out


def zone_holds(zone: Sequence[Point], corners: Sequence[Point], tolerance: float = 1e-6) -> bool:
    """Whether the simple polygon ``zone`` holds every corner (its edge included) and no
    edge of the zone cuts across the base."""
    for p in corners:
        on_edge = any(
            point_segment_distance(p, zone[i - 1], zone[i]) <= tolerance for i in range(len(zone))
        )
        if not on_edge and not point_in_polygon(p, zone):
            return False
    n = len(corners)
    if n < 3:
        return True
    for i in range(len(zone)):
        a, b = zone[i - 1], zone[i]
        for j in range(n):
            c, d = corners[j - 1], corners[j]
            if segments_cross(a, b, c, d) and not (
                point_segment_distance(c, a, b) <= tolerance
                or point_segment_distance(d, a, b) <= tolerance
                or point_segment_distance(a, c, d) <= tolerance
                or point_segment_distance(b, c, d) <= tolerance
            ):
                return False
    return True


def not_in_contact(rule: str, unit: Combatant, enemy: Combatant) -> str | None:
    """Why a melee between the two units is refused for want of contact (``"<rule>: X is
    not in contact with Y"``), or None: when their bases touch (edges at most
    :data:`TOUCH` apart), and when either unit has no footprint (odds outside a battle, a
    unit not placed), where the player's word is taken."""
    a, b = unit.footprint, enemy.footprint
    if not (a.has_size and b.has_size) or edge_distance(a, b) <= TOUCH:
        return None
    return (
        f"{rule}: {unit.name} ({unit.unit_id}) is not in contact with "
        f"{enemy.name} ({enemy.unit_id})"
    )


@dataclass(frozen=True)
class Contact:
    """How ``unit_id`` reaches ``target_id``: the ``path`` (None when there is none at
    all), the pose it ends in, touching the target (``aligned_end``), ``how`` it touches,
    and the rules the charge breaks (empty for a legal one)."""

    unit_id: str
    target_id: str
    path: Path | None
    aligned_end: Footprint
    how: ContactHow
    breaches: tuple[Breach, ...] = ()
    check: MoveCheck | None = field(default=None, compare=False, repr=False)

    @property
    def forbidden(self) -> bool:
        return any(b.severity == "forbidden" for b in self.breaches)

    @property
    def needs_confirmation(self) -> bool:
        return any(b.severity == "confirm" for b in self.breaches)


class ContactRules(MovementRules):
    """The contact and deployment hooks of :class:`~app.rules.mechanics.Mechanics`."""

    # ------------------------------------------------------------------ contact

    def contact_poses(
        self, view: TurnView, unit: Combatant, target: Combatant
    ) -> list[tuple[ContactHow, Footprint]]:
        """The poses a charge by ``unit`` on ``target`` may end in, preferred first: each
        ``(how, pose)`` with ``pose`` touching the target (build them with
        :func:`contact_pose` and :func:`corner_pose`). Override to align as the ruleset
        says (GSB: a charge into the flank turns the target to face; D3: one attacker per
        side). Default: by where the charger stands (the target's arcs split by its diagonals,
        :func:`~app.rules.geometry.aspect`): front to front, flat against the flank it is
        on, or against the rear; then corner to corner on either side of the front."""
        t = target.footprint
        where = aspect(t, unit.x, unit.y)
        w, d = unit.width, unit.depth
        out: list[tuple[ContactHow, Footprint]] = []
        if where == "front":
            out.append(("front", contact_pose(t, w, d, "front")))
        elif where == "rear":
            out.append(("rear", contact_pose(t, w, d, "rear")))
        else:
            (rx, ry) = axes(t.facing)[1]
            side: Edge = "right" if (unit.x - t.x) * rx + (unit.y - t.y) * ry > 0 else "left"
            out.append(("flank", contact_pose(t, w, d, side)))
        if where == "front":
            (rx, ry) = axes(t.facing)[1]
            near: Literal["left", "right"] = (
                "right" if (unit.x - t.x) * rx + (unit.y - t.y) * ry > 0 else "left"
            )
            far: Literal["left", "right"] = "left" if near == "right" else "right"
            out += [("corner", corner_pose(t, w, d, near)), ("corner", corner_pose(t, w, d, far))]
        return out

    def charge_problems(
        self, view: TurnView, unit: Combatant, target: Combatant, end: Footprint | None
    ) -> list[Breach]:
        """The ruleset's own refusals of a charge by ``unit`` on ``target`` ending at
        ``end`` (None: no path into contact was found), besides those of the move itself
        (:meth:`check_move` as a charge): who may charge whom (Leg VI's light troops, D3's
        light troops and cavalry), the sides of the target already taken (D3), ... each
        citing its rule. Default: none."""
        return []

    def check_charge(self, view: TurnView, unit_id: str, target_id: str, path: Path) -> MoveCheck:
        """Every check of a charge by ``unit_id`` on ``target_id`` along ``path``, as one
        :class:`MoveCheck`: the target a friend or out of the battle, the move as a charge
        (:meth:`check_move`), the path not reaching the target, and the ruleset's own rules
        of charging (:meth:`charge_problems`). The one answer both the search for a path
        (:meth:`contact`) and the core's :class:`~app.core.battle.Charge` (the command line's
        ``battle charge`` and the window's Charge alike) give, so a charge the rules refuse
        is refused whichever way it is made."""
        unit, target = view.unit(unit_id), view.unit(target_id)
        whom = f"{target.name} ({target_id})"
        problems: list[Breach] = []
        if target.side == unit.side:
            problems.append(Breach(TABLE_RULE, f"{whom} is a friend"))
        if target.status.eliminated:
            problems.append(Breach(TABLE_RULE, f"{whom} is out of the battle"))
        check = self.check_move(view, unit_id, path, reason="charge", target=target_id)
        after: list[Breach] = []
        if edge_distance(check.end, target.footprint) > TOUCH:
            after.append(Breach(TABLE_RULE, f"the path does not reach {whom}"))
        if target.side != unit.side:
            after += self.charge_problems(view, unit, target, check.end)
        return replace(check, breaches=(*problems, *check.breaches, *after))

    def contact(self, view: TurnView, unit_id: str, target_id: str) -> Contact:
        """A legal path for ``unit_id`` to charge into contact with ``target_id``, aligned
        as the rules say, or the rules the charge breaks. Default: for each pose of
        :meth:`contact_poses` in turn, the cheapest of :func:`approach_paths` that
        :meth:`check_charge` passes; failing all, the least bad one with its breaches. A
        friend, or a unit out of the battle, cannot be charged.

        Contract: the returned :class:`Contact` has a ``path`` ending touching the target
        (base edges at most :data:`TOUCH` apart) with its :class:`MoveCheck` as ``check``
        and no forbidden breach for a legal charge; or the breaches that make it illegal
        (each citing its rule), with the least bad path when there is one (the user may
        force it); ``path`` None only when no path was tried at all. The core's
        :class:`~app.core.battle.Charge` stores the path found, so a later change of this
        search never changes a stored battle's replay."""
        unit, target = view.unit(unit_id), view.unit(target_id)
        problems: list[Breach] = []
        if target.side == unit.side:
            problems.append(Breach(TABLE_RULE, f"{target.name} ({target_id}) is a friend"))
        if target.status.eliminated:
            problems.append(Breach(TABLE_RULE, f"{target.name} ({target_id}) is out of the battle"))
        best: tuple[tuple[int, int, float], Contact] | None = None
        for how, pose in self.contact_poses(view, unit, target):
            for legs in approach_paths(unit.footprint, pose):
                path = Path(legs)
                check = self.check_charge(view, unit_id, target_id, path)
                breaches = check.breaches
                found = Contact(unit_id, target_id, path, check.end, how, breaches, check)
                rank = (
                    sum(b.severity == "forbidden" for b in breaches),
                    sum(b.severity == "confirm" for b in breaches),
                    round(check.cost, 6),  # equal costs: the simpler path, listed first
                )
                if best is None or rank < best[0]:
                    best = (rank, found)
            if best is not None and best[0][:2] == (len(problems), 0):
                break
        if best is None:
            end = unit.footprint
            if target.side != unit.side:
                problems += self.charge_problems(view, unit, target, None)
            return Contact(unit_id, target_id, None, end, "front", (*problems,))
        return best[1]

    def on_contact(
        self, view: TurnView, unit_id: str, target_id: str, how: ContactHow
    ) -> Resolution:
        """What contact does once a charge reaches its target (markers such as
        "in_contact", a side's record, a forced turn to face), as a
        :class:`~app.rules.values.Resolution` the core applies after moving the charger
        (``view`` already shows it in contact). Default: nothing (the ruleset's melee reads
        contact from the positions)."""
        return Resolution()

    # ------------------------------------------------------------------ deployment

    #: the rule a deployment refusal cites (when deploying is open, where a unit may stand):
    #: the ruleset's own where its text gives one (GSB, Deployment), else the core's
    deployment_rule: ClassVar[str] = TABLE_RULE

    def deployment_depth(self, view: TurnView) -> float:
        """How far from its own table edge a side deploys, in the ruleset's unit. Default:
        a quarter of the table's depth -- a layout default of the app for rules that give
        no distance (each ruleset gives its own, or an errata entry says what it decided)."""
        return view.table.height / 4

    def deployment_zones(self, view: TurnView) -> tuple[Zone, Zone]:
        """Each side's deployment zone as a simple polygon (side 0's, side 1's), in the
        ruleset's unit on ``view.table``. Default: the strip within
        :meth:`deployment_depth` of its own edge (side 0 along y = 0, side 1 along the far
        edge). New battles stand every unit inside its zone; :meth:`check_deploy` refuses
        a unit deployed outside it. Override for zones of another shape (flank marches,
        a centre gap). A historical battle may set its own zones on the table
        (:attr:`app.rules.table.Table.zones`: Hannibal's ambush at Lake Trasimene), which
        then stand in place of these; the battle's notes say so."""
        if view.table.zones is not None:
            return view.table.zones
        w, h = view.table.width, view.table.height
        d = min(self.deployment_depth(view), h / 2)
        return (
            ((0.0, 0.0), (w, 0.0), (w, d), (0.0, d)),
            ((0.0, h - d), (w, h - d), (w, h), (0.0, h)),
        )

    def deployment_facing(self, side: Side) -> float:
        """The facing a side deploys with (degrees, 0 = +y): towards the enemy's edge."""
        return 0.0 if side == 0 else 180.0

    #: a new battle stands the units of a row side by side with no gap between them (where
    #: the rules reward lines that touch: Leg VI's control); else a small gap (the app's)
    deploy_touching: ClassVar[bool] = False

    def may_deploy(self, view: TurnView, unit_id: str) -> Breach | None:
        """Why ``unit_id`` may not be deployed now, or None. Default: deployment is open in
        the battle's first phase (turn 1, first round), before play begins."""
        if (view.turn, view.round, view.phase) != (1, 1, 0):
            return Breach(
                self.deployment_rule, "units are deployed only before play, in the first phase"
            )
        if view.unit(unit_id).status.eliminated:
            return Breach(TABLE_RULE, "the unit is out of the battle")
        return None

    def check_deploy(self, view: TurnView, unit_id: str, pose: Footprint) -> tuple[Breach, ...]:
        """The rules a unit deployed at ``pose`` breaks (empty: it may stand there):
        deployment closed (:meth:`may_deploy`), outside its side's zone, off the table, on
        another unit, or in terrain it cannot enter. Rulesets extend it with
        ``super().check_deploy(...)`` plus their own (distances from the enemy, GSB's
        order of deployment)."""
        unit = view.unit(unit_id)
        who = f"{unit.name} ({unit_id})"
        out: list[Breach] = []
        closed = self.may_deploy(view, unit_id)
        if closed is not None:
            out.append(closed)
        corners = pose.corners()
        zone = self.deployment_zones(view)[unit.side]
        if not zone_holds(zone, corners):
            out.append(
                Breach(
                    self.deployment_rule,
                    f"{who} would stand outside {view.side_names[unit.side]}'s deployment zone",
                )
            )
        if not view.table.holds(corners):
            out.append(Breach(TABLE_RULE, f"{who} would stand off the table"))
        for other in view.units:
            if other.unit_id == unit_id or other.status.eliminated:
                continue
            if convex_overlap(corners, other.footprint.corners()):
                out.append(
                    Breach(TABLE_RULE, f"{who} would stand on {other.name} ({other.unit_id})")
                )
        for piece in view.table.terrain:
            if piece.overlaps(pose):
                effect = self.terrain_effect(unit, piece.kind)
                if effect.passable is False:
                    out.append(
                        Breach(
                            effect.rule or TABLE_RULE,
                            f"{who} cannot stand in the {piece.kind} {piece.id}",
                        )
                    )
        return tuple(out)
