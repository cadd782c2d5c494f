"""D3 Ancients on the table: what each kind of terrain is to each troop, the road bonus
(judged over the unit's whole turn), pivots (free, only at the start and end of a move),
passing through friends (who then count as having moved), who moves when, and which
charges the rules allow (straight ahead without turning, one attacker to each side of a
target, no cavalry against elephants, light troops only into a fight already joined).

Every rule comes from the data (``tables.movement``, ``tables.terrain``,
``tables.charges`` and the troop profiles' ``may_enter``, ``road_bonus``,
``passes_through_friends``, ``may_charge...``); this module only reads it through the
core's movement and contact hooks.

What a move leaves in the battle state (:meth:`D3Movement.on_move`): a friend passed
through gets the ``moved`` and ``passed_through`` markers (it may not move again this
turn); a unit that moved off the road gets ``off_road`` in its status ``extra`` (no road
bonus for the rest of the turn). :meth:`~app.rulesets.d3.turn.D3Turn.end_phase` clears both
at the end of the side's turn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from app.rules.contact import ContactHow
from app.rules.geometry import Footprint, Point, axes, edge_distance
from app.rules.movement import (
    Breach,
    LegCost,
    MoveCheck,
    MoveReason,
    TerrainEffect,
    TerrainSpan,
)
from app.rules.paths import Leg, Path, Traced, end_pose
from app.rules.sight import ShotReach
from app.rules.table import TerrainKind
from app.rules.values import Combatant, Effects, Resolution, TurnView, UnitChange
from app.rulesets.d3.base import OFF_ROAD, PASSED_THROUGH, PIVOTED_AT_END
from app.rulesets.d3.rules import attack_side, has_footprint, in_contact
from app.rulesets.d3.schema import TerrainType
from app.rulesets.d3.turn import D3Turn

#: Castra's terrain kinds as D3's terrain types (``tables.terrain.types``): the source
#: lists streams with rocks and fields as broken ground, and fords as river crossings.
D3_TERRAIN: dict[TerrainKind, str] = {
    "woods": "woods",
    "town": "towns",
    "marsh": "marsh",
    "lake": "lakes",
    "river": "rivers",
    "ford": "river_crossings",
    "broken": "broken_ground",
    "stream": "broken_ground",
    "road": "roads",
    "hill": "hills",
}
#: The source says nothing of sight: woods, towns and hills block it (errata
#: "sight-through-terrain").
BLOCKS_SIGHT = frozenset({"woods", "towns", "hills"})
TERRAIN_RULE = "D3, Terrain"
CHARGE_RULE = "D3, Charges"
MOVE_RULE = "D3, Movement"
ROAD_KINDS = frozenset({"road"})
#: the side of a target a charge touches (``tables.charges.sides``) as the core's words
HOW: dict[str, ContactHow] = {
    "front": "front",
    "left_flank": "flank",
    "right_flank": "flank",
    "rear": "rear",
}
_TURNING = frozenset({"pivot", "turn"})


def steps_of(traced: Sequence[Traced]) -> list[Traced]:
    """The path as its elementary steps: a move to a point as the pivot, straight leg and
    pivot it is made of; every other leg as it is; steps that go nowhere left out."""
    out: list[Traced] = []
    for t in traced:
        for step in t.parts or (t,):
            kind = step.leg.kind
            if kind in _TURNING or kind == "wheel":
                if abs(step.leg.angle) > 1e-7:
                    out.append(step)
            elif step.distance > 1e-9:
                out.append(step)
    return out


def _ray_hit(p: Point, d: Point, a: Point, b: Point) -> float | None:
    """How far along ``d`` from ``p`` the segment ``a``-``b`` is met (None: never)."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    den = d[0] * ey - d[1] * ex
    if abs(den) < 1e-12:
        return None  # parallel: the ends of the other polygon's edges find the contact
    wx, wy = a[0] - p[0], a[1] - p[1]
    t = (wx * ey - wy * ex) / den
    s = (wx * d[1] - wy * d[0]) / den
    return t if -1e-9 <= s <= 1 + 1e-9 and t >= -1e-9 else None


def straight_ahead_distance(unit: Footprint, target: Footprint) -> float | None:
    """How far ``unit`` goes straight ahead before its base first touches ``target``'s
    (None when it never does, or touches or overlaps it already)."""
    fwd = axes(unit.facing)[0]
    back = (-fwd[0], -fwd[1])
    mine, theirs = unit.corners(), target.corners()
    best = math.inf
    for points, poly, d in ((mine, theirs, fwd), (theirs, mine, back)):
        for p in points:
            for i in range(len(poly)):
                t = _ray_hit(p, d, poly[i - 1], poly[i])
                if t is not None:
                    best = min(best, t)
    return best if 1e-9 < best < math.inf else None


class D3Movement(D3Turn):
    """The movement and contact hooks of :class:`~app.rules.mechanics.Mechanics` as D3
    Ancients' rules fill them."""

    def terrain_effect(self, unit: Combatant, kind: TerrainKind) -> TerrainEffect:
        """D3, Terrain: no terrain slows a unit; woods only for light infantry and
        warbands, broken ground (and streams) only for infantry, marsh and lakes for
        nobody, rivers only at a bridge or ford; woods and towns are cover."""
        d3 = D3_TERRAIN[kind]
        t: TerrainType = self.t.terrain.types[d3]
        troop = self.troop(unit.troop)
        if t.entry == "all":
            passable = True
        elif t.entry == "listed":
            passable = d3 in troop.may_enter
        else:  # "none"; "crossings": a ford laid on the river is where it is crossed
            passable = False
        note = f"{t.name.lower()}: {t.effect}"
        if not passable and t.entry == "listed":
            note = f"{t.name.lower()}: {troop.name} may not enter ({t.effect})"
        return TerrainEffect(
            passable=passable,
            cost_factor=1.0,
            blocks_los=d3 in BLOCKS_SIGHT,
            cover=t.cover,
            note=note,
            rule=TERRAIN_RULE,
        )

    def leg_cost(
        self, view: TurnView, unit: Combatant, traced: Traced, spans: Sequence[TerrainSpan]
    ) -> LegCost:
        """D3, Movement: the core's cost (no terrain slows a D3 unit), less any pivot, which
        costs nothing (errata pivots-free: catapults and confused units, which may not move,
        may still pivot)."""
        cost = super().leg_cost(view, unit, traced, spans)
        if not self.t.movement.pivots_free:
            return cost
        turned = sum(s.distance for s in (traced.parts or (traced,)) if s.leg.kind in _TURNING)
        if turned <= 0:
            return cost
        note = "; ".join(n for n in (cost.note, "pivot free") if n)
        return replace(cost, cost=max(cost.cost - turned, 0.0), note=note)

    def _on_road(
        self,
        view: TurnView,
        unit: Combatant,
        traced: Sequence[Traced],
        spans: Sequence[Sequence[TerrainSpan]] | None = None,
    ) -> bool | None:
        """Whether every step of the path that moves (pivots aside) runs wholly along road
        pieces; None when it does not move at all. ``spans``: each leg's terrain spans when
        the caller has them (a move to a point that pivots is measured along its straight
        part alone)."""
        moving = False
        for k, t in enumerate(traced):
            for step in steps_of((t,)):
                if step.leg.kind in _TURNING:
                    continue
                moving = True
                whole = spans is not None and len(t.parts) <= 1
                found = spans[k] if whole and spans is not None else None
                if found is None:
                    found = self.terrain_spans(view, unit, step)
                if sum(s.fraction for s in found if s.piece.kind in ROAD_KINDS) < 1 - 1e-6:
                    return False
        return moving or None

    def allowance_bonus(
        self,
        view: TurnView,
        unit: Combatant,
        traced: Sequence[Traced],
        spans: Sequence[Sequence[TerrainSpan]],
    ) -> float:
        """D3, Terrain: "Units moving all their move on roads add 3" to their move
        distance", judged over the unit's whole turn (errata road-whole-turn): this path
        moves only along roads (pivots aside) and the unit has not moved off the road
        earlier this turn (``off_road``, left by :meth:`on_move`). A unit that used the
        bonus and then leaves the road is held by the allowance: its plain distance is
        already spent."""
        bonus = self.troop(unit.troop).road_bonus
        if not bonus or unit.status.extra.get(OFF_ROAD):
            return 0.0
        if not any(s.piece.kind in ROAD_KINDS for leg in spans for s in leg):
            return 0.0
        return bonus if self._on_road(view, unit, traced, spans) else 0.0

    def shooting_reach(self, view: TurnView, unit_id: str) -> ShotReach | None:
        """D3, Shooting: light infantry and light cavalry reach 12", catapults 24", in the
        front arc (lines drawn 45 degrees outward from the front corners, so 90 degrees in
        all); None for troops that do not shoot. For the map's overlay."""
        troop = self.troop(view.unit(unit_id).troop)
        if troop.shoot_hits is None or not troop.weapons:
            return None
        reach = max(w.long_range for w in troop.weapons)
        return ShotReach(reach, 2 * self.t.shooting.front_arc_degrees, "D3, Shooting")

    def may_pass_through(self, view: TurnView, unit: Combatant, other: Combatant) -> bool:
        """D3, Movement: only light infantry may pass through friendly units."""
        return self.troop(unit.troop).passes_through_friends

    # ----------------------------------------------------------------- the check of a move

    def may_move(self, view: TurnView, unit_id: str, reason: MoveReason) -> Breach | None:
        """The core's answer, then D3's for a unit's own move: its side's movement step (or
        the unit named for the Initiative card), not a catapult, not held by Confusion, out
        of combat unless cavalry (what the Turn dock counts: under Confusion only the
        commander's unit may move). A pivot on the spot is judged by :meth:`check_move`."""
        found = super().may_move(view, unit_id, reason)
        if found is not None or reason != "move" or view.initiative is None:
            return found
        if self.may_deploy(view, unit_id) is None:
            return None  # deployment is open: units are placed in their zones, not moved
        problem = self.why_not_move(view.unit(unit_id), view)
        return None if problem is None else Breach(MOVE_RULE, problem)

    def check_move(
        self,
        view: TurnView,
        unit_id: str,
        path: Path,
        *,
        reason: MoveReason = "move",
        target: str | None = None,
    ) -> MoveCheck:
        """The core's checks, then D3's for a move or a charge: who may move now (the
        side's movement step, not after being passed through, catapults and confused units
        only pivot, only cavalry leave a combat); a broken army (its side's record, kept
        at each elimination step) does not advance towards the enemy; a charge goes
        straight ahead without any turn; a move turns only by pivoting at its start or end
        (errata pivots-free, turning-only-by-pivots)."""
        found = super().check_move(view, unit_id, path, reason=reason, target=target)
        if reason not in ("move", "charge"):
            return found
        unit = view.unit(unit_id)
        steps = steps_of(found.traced)
        more: list[Breach] = []
        if view.initiative is not None:
            if reason == "move":
                # :meth:`may_move` (the core's first check) said why the unit may not move
                # at all; a pivot on the spot is judged here, so its answer gives way
                said = self.may_move(view, unit_id, reason)
                if said is not None and said.rule == MOVE_RULE:
                    found = replace(found, breaches=tuple(b for b in found.breaches if b != said))
            pivot_only = all(s.leg.kind in _TURNING for s in steps)
            problem = self.why_not_move(unit, view, pivot_only=pivot_only)
            if problem is not None:
                more.append(Breach(MOVE_RULE, problem))
        if has_footprint(unit) and bool(view.sides[unit.side].get("resolve_broken", False)):
            more += self._no_advance(view, unit, found.end)
        if reason == "charge" and self.t.charges.straight_ahead_only:
            more += self._straight_ahead(unit, steps)
        else:
            more += self._pivots(unit, steps, unit.moved > 1e-9)
        return found.with_breaches(*more) if more else found

    def on_contact(
        self, view: TurnView, unit_id: str, target_id: str, how: ContactHow
    ) -> Resolution:
        """D3, Charges: the unit that moved into contact is marked ``charged``: it fights
        in the melee step although it moved (errata moved-units-and-charges)."""
        mark = Effects(markers_add=frozenset({"charged"}))
        return Resolution(others=(UnitChange(unit_id, mark),))

    def _no_advance(self, view: TurnView, unit: Combatant, end: Footprint) -> list[Breach]:
        """D3, Army Resolve: a broken army "may no longer advance upon, or towards, enemy
        units": the move may not end nearer the closest enemy than the unit started."""
        enemies = [
            u.footprint
            for u in view.units
            if u.side != unit.side and not u.status.eliminated and has_footprint(u)
        ]
        if not enemies:
            return []
        before = min(edge_distance(unit.footprint, e) for e in enemies)
        after = min(edge_distance(end, e) for e in enemies)
        if after >= before - 1e-6:
            return []
        u = self.length_symbol()
        return [
            Breach(
                "D3, Army Resolve",
                f"{self._name(view, unit.side)} have lost their resolve: {unit.name} "
                f"({unit.unit_id}) may not advance towards the enemy (the nearest from "
                f"{before:.1f}{u} to {after:.1f}{u})",
            )
        ]

    def _straight_ahead(self, unit: Combatant, steps: Sequence[Traced]) -> list[Breach]:
        """D3, Charges: every step of a charge goes straight ahead (no pivot, wheel, step
        sideways or back)."""
        for s in steps:
            if s.leg.kind != "straight" or s.leg.distance < 0:
                what = "turns" if s.leg.kind in (*_TURNING, "wheel") else "does not go ahead"
                return [
                    Breach(
                        CHARGE_RULE,
                        f"a charging unit may not turn: it moves straight ahead, and "
                        f"{unit.name} ({unit.unit_id}) {what} in leg {s.index + 1} "
                        f"({s.leg})",
                    )
                ]
        return []

    def _pivots(self, unit: Combatant, steps: Sequence[Traced], moved: bool) -> list[Breach]:
        """D3, Movement: "Units may pivot at the start and end of their move": a pivot
        before the first step that moves or after the last (a unit that has moved this
        turn is past its start); no wheel (errata turning-only-by-pivots)."""
        m = self.t.movement
        who = f"{unit.name} ({unit.unit_id})"
        moving = [i for i, s in enumerate(steps) if s.leg.kind not in _TURNING]
        if moving and unit.status.extra.get(PIVOTED_AT_END):
            return [
                Breach(
                    MOVE_RULE,
                    f"{who} pivoted at the end of its move this turn: it may not move on",
                )
            ]
        for i, s in enumerate(steps):
            if s.leg.kind == "wheel" and not m.wheels:
                return [
                    Breach(
                        MOVE_RULE,
                        f"{who} turns only by pivoting at the start or end of its move; a "
                        f"wheel (leg {s.index + 1}: {s.leg}) turns it while it moves",
                    )
                ]
            if s.leg.kind not in _TURNING:
                continue
            before = not moved and (not moving or i < moving[0])
            after = not moving or i > moving[-1]
            if not ((before and m.pivot_at_start) or (after and m.pivot_at_end)):
                return [
                    Breach(
                        MOVE_RULE,
                        f"{who} may pivot only at the start and end of its move, not in the "
                        f"middle (leg {s.index + 1}: {s.leg})",
                    )
                ]
        return []

    def on_move(self, view: TurnView, unit_id: str, check: MoveCheck) -> Resolution:
        """What a D3 move leaves behind: each friend it passed through counts as having
        moved this turn (markers ``moved`` and ``passed_through``: it may not shoot or move
        again, errata pass-through-garbled); in the mover's status ``extra``, ``off_road``
        after a step off the road (no road bonus for the rest of the turn, errata
        road-whole-turn) and ``pivoted_at_end`` after a pivot that ends its move (it may
        not move on this turn)."""
        unit = view.unit(unit_id)
        changes: list[UnitChange] = []
        lines: list[str] = []
        if check.passed and self.t.movement.passed_through_counts_as_moved:
            marks = Effects(markers_add=frozenset({"moved", PASSED_THROUGH}))
            names = [f"{view.unit(u).name} ({u})" for u in check.passed]
            changes += [UnitChange(u, marks) for u in check.passed]
            lines.append(
                f"{unit.name} ({unit_id}) passed through {', '.join(names)}: "
                "they count as having moved this turn (D3, Movement)."
            )
        record: dict[str, bool] = {}
        roads = any(p.kind in ROAD_KINDS for p in view.table.terrain)
        if (
            roads
            and self.troop(unit.troop).road_bonus
            and not unit.status.extra.get(OFF_ROAD)
            and self._on_road(view, unit, check.traced) is False
        ):
            record[OFF_ROAD] = True
        steps = steps_of(check.traced)
        ends_turning = bool(steps) and steps[-1].leg.kind in _TURNING
        moved_before = unit.moved - check.cost > 1e-9
        if ends_turning and (moved_before or any(s.leg.kind not in _TURNING for s in steps)):
            record[PIVOTED_AT_END] = True
        if record:
            changes.append(UnitChange(unit_id, Effects(extra=record)))
        return Resolution(others=tuple(changes), explanation=tuple(lines))

    def _sides_taken(self, view: TurnView, unit: Combatant, target: Combatant) -> dict[str, str]:
        """The sides of ``target`` that already have their attacker (D3, Charges: "Only one
        attacking unit can contact each side of an enemy unit"): side -> who is there."""
        limit = self.t.charges.max_attackers_per_side
        there: dict[str, list[Combatant]] = {}
        for u in view.units:
            if (
                u.side == unit.side
                and u.unit_id != unit.unit_id
                and not u.status.eliminated
                and has_footprint(u)
                and in_contact(u, target)
            ):
                there.setdefault(attack_side(target, u), []).append(u)
        return {
            side: ", ".join(f"{u.name} ({u.unit_id})" for u in us)
            for side, us in there.items()
            if len(us) >= limit
        }

    def contact_poses(
        self, view: TurnView, unit: Combatant, target: Combatant
    ) -> list[tuple[ContactHow, Footprint]]:
        """D3, Charges: "a unit may not turn during their move. They must move straight
        ahead": the pose where the charger, going straight ahead, first touches the target
        (errata charge-contact-straight-ahead), unless that side of the target already has
        its one attacker. When the target is not straight ahead, the core's poses (a charge
        there needs a turn, which :meth:`check_move` refuses), less those on a side already
        taken."""
        taken = self._sides_taken(view, unit, target)
        if self.t.charges.straight_ahead_only and has_footprint(unit) and has_footprint(target):
            ahead = straight_ahead_distance(unit.footprint, target.footprint)
            if ahead is not None:
                pose = end_pose(unit.footprint, (Leg.straight(ahead),))
                side = attack_side(target, replace(unit, x=pose.x, y=pose.y))
                if side not in taken:
                    return [(HOW.get(side, "front"), pose)]
        poses = super().contact_poses(view, unit, target)
        if not taken:
            return poses
        return [
            (how, pose)
            for how, pose in poses
            if attack_side(target, replace(unit, x=pose.x, y=pose.y, facing=pose.facing))
            not in taken
        ]

    def charge_problems(
        self, view: TurnView, unit: Combatant, target: Combatant, end: Footprint | None
    ) -> list[Breach]:
        """D3, Charges: the troop may not charge this target now (cavalry against elephants,
        light troops against an enemy not already in combat, a unit that may not move, a
        broken army); and "Only one attacking unit can contact each side of an enemy unit":
        the side of the target ``end`` touches already has its attacker."""
        out: list[Breach] = []
        problem = self.may_charge(unit, target, view)
        if problem is not None:
            out.append(Breach(CHARGE_RULE, problem))
        taken = self._sides_taken(view, unit, target)
        if not taken:
            return out
        if end is None:
            sides = "; ".join(f"{s.replace('_', ' ')}: {w}" for s, w in sorted(taken.items()))
            out.append(
                Breach(
                    CHARGE_RULE,
                    f"only one attacking unit may contact each side of an enemy, and the "
                    f"sides of {target.name} ({target.unit_id}) it could reach are taken "
                    f"({sides})",
                )
            )
            return out
        side = attack_side(target, replace(unit, x=end.x, y=end.y, facing=end.facing))
        if side in taken:
            out.append(
                Breach(
                    CHARGE_RULE,
                    f"only one attacking unit may contact each side of an enemy: the "
                    f"{side.replace('_', ' ')} of {target.name} ({target.unit_id}) has "
                    f"{taken[side]}",
                )
            )
        return out
