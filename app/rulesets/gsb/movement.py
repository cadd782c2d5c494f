"""Grown Slightly Bald on the table: what a pivot costs, what terrain is, who passes through
whom, how a unit leaves a melee or turns to face a flank attack, and how far it shoots.

- Pivots: "May pivot up to 45 degrees before moving an increment. Pivots greater than 45
  degrees use up a full unit width of movement. Light troops can pivot as much as they like
  with no penalty; elephants use up a unit width if they pivot at all" (``tables.pivot``,
  each troop's ``pivot`` names its row).
- Passing through: "Light troops can move through other friendly troops if there is room for
  them to move through fully, but cannot be moved through themselves except by other lights"
  (``tables.interpenetration``, the troops' ``passes_through_friends``).
- Disengaging: "Light troops can disengage from melee (one unit width is used to about face,
  the rest to move away from the melee) but cannot shoot or melee again on that turn. Heavy
  cavalry can disengage from combat with infantry in the same way. Units cannot disengage if
  they are sandwiched by attacks to front and rear, or on both flanks" (``tables.disengage``).
- Turning to face: "Units attacked in flank can turn to face on their turn if not already
  engaged to their front" (errata turn-to-face).
- Terrain: the text speaks only of hills and woods in melee; the rest is errata
  terrain-kinds (``tables.terrain.kinds``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from app.rules.contact import TOUCH
from app.rules.geometry import (
    Footprint,
    aspect,
    axes,
    edge_distance,
)
from app.rules.movement import (
    TABLE_RULE,
    Breach,
    LegCost,
    MoveCheck,
    MoveReason,
    TerrainEffect,
    TerrainSpan,
)
from app.rules.paths import Leg, Path, Traced
from app.rules.sight import ShotReach
from app.rules.table import TerrainKind
from app.rules.values import Combatant, Effects, Resolution, Side, TurnView, UnitChange
from app.rulesets.gsb.base import DISENGAGED, MOVED, PIVOT_GROUP, PIVOTED
from app.rulesets.gsb.combat import DISENGAGE_RULE, SHOOT_RULE, GSBCombat

PIVOT_RULE = "GSB, Pivots"
FACE_RULE = "GSB, Turning to face"
TERRAIN_RULE = "GSB, Terrain"
#: the legs that turn a unit in place (a wheel about a corner is costed as it moves)
PIVOT_LEGS = frozenset({"pivot", "turn"})
#: the moves a unit makes of its own will in its turn
CHOSEN = frozenset({"move", "charge"})
#: degrees of slack when reading an about face (180) or a turn to face (90)
ANGLE_SLACK = 1e-6


@dataclass(frozen=True)
class Engagement:
    """The enemies touching a unit where it stands, by the side of it they touch (its
    ``front``, ``rear``, ``left`` or ``right``)."""

    unit: Combatant
    enemies: tuple[tuple[Combatant, str], ...]

    def on(self, *sides: str) -> list[Combatant]:
        return [e for e, s in self.enemies if s in sides]

    @property
    def sides(self) -> frozenset[str]:
        return frozenset(s for _, s in self.enemies)


def _turned(angle: float) -> float:
    """The size of a turn of ``angle`` degrees, 0-180."""
    a = abs(angle) % 360
    return min(a, 360 - a)


def _side_touched(unit: Footprint, enemy: Combatant) -> str:
    """The side of ``unit`` an enemy's centre lies off: front, rear, left or right."""
    where = aspect(unit, enemy.x, enemy.y)
    if where != "flank":
        return where
    (rx, ry) = axes(unit.facing)[1]
    return "right" if (enemy.x - unit.x) * rx + (enemy.y - unit.y) * ry > 0 else "left"


class GSBMovementNeeds(Protocol):
    """What :class:`GSBMovement` uses of the activations (:class:`~app.rulesets.gsb.turn.GSBTurn`,
    which its base :class:`~app.rulesets.gsb.combat.GSBCombat` brings)."""

    def _active_side(self, view: TurnView) -> Side | None: ...

    def activation_problem(self, view: TurnView, unit: Combatant, doing: str) -> str | None: ...

    def claim_activation(self, view: TurnView, unit: Combatant) -> Resolution: ...


class GSBMovement(GSBCombat, GSBMovementNeeds):
    """The movement, contact and sight hooks of :class:`~app.rules.mechanics.Mechanics` as
    GSB fills them."""

    # -- who touches whom -----------------------------------------------------------------

    def engagement(self, view: TurnView, unit: Combatant) -> Engagement:
        """The enemies touching ``unit`` (base edges at most :data:`TOUCH` apart), each
        with the side of it they touch. One pass over the units with a bounding-box test
        first; the last answer is kept for the same view (a path's legs ask again)."""
        cached = self.__dict__.get("_engagement")
        if cached is not None and cached[0] is view and cached[1] is unit:
            return cached[2]  # type: ignore[no-any-return]
        found: list[tuple[Combatant, str]] = []
        fp = unit.footprint
        if fp.has_size:
            reach = (unit.width**2 + unit.depth**2) ** 0.5 / 2 + TOUCH
            for other in view.units:
                if other.side == unit.side or other.status.eliminated:
                    continue
                r = reach + (other.width**2 + other.depth**2) ** 0.5 / 2
                if abs(other.x - unit.x) > r or abs(other.y - unit.y) > r:
                    continue
                if not other.footprint.has_size:
                    continue
                if edge_distance(fp, other.footprint) <= TOUCH:
                    found.append((other, _side_touched(fp, other)))
        answer = Engagement(unit, tuple(found))
        self.__dict__["_engagement"] = (view, unit, answer)
        return answer

    # -- terrain --------------------------------------------------------------------------

    def terrain_effect(self, unit: Combatant, kind: TerrainKind) -> TerrainEffect:
        """GSB, Terrain (errata terrain-kinds): nothing slows a unit; woods, hills and
        towns block sight across them and cap melee dice; lakes, and rivers away from a
        ford, cannot be entered; the rest is open ground. A kind the data leaves out reads
        as the core's generic terrain."""
        row = self.t.terrain.kinds.get(kind)
        if row is None:
            return super().terrain_effect(unit, kind)
        words = [row.label.lower()]
        if row.melee_cap is not None:
            cap = self.t.terrain.rows[row.melee_cap].max_dice
            words.append(f"at most {cap} melee dice in or into it")
        if row.passable is False:
            words.append("cannot be entered")
        return TerrainEffect(
            passable=row.passable,
            cost_factor=1.0,
            blocks_los=row.blocks_sight,
            cover=False,
            note=": ".join(words[:1]) + (f" ({'; '.join(words[1:])})" if words[1:] else ""),
            rule=TERRAIN_RULE,
        )

    def melee_cap_at(self, view: TurnView, unit: Combatant) -> str | None:
        """The row of ``tables.terrain.rows`` (hills, woods) capping the melee dice of a
        unit standing (even partly) in such terrain, or None."""
        if not unit.footprint.has_size:
            return None
        for piece in view.table.terrain:
            row = self.t.terrain.kinds.get(piece.kind)
            if row is not None and row.melee_cap is not None and piece.overlaps(unit.footprint):
                return row.melee_cap
        return None

    # -- the cost of a leg ----------------------------------------------------------------

    def leg_cost(
        self, view: TurnView, unit: Combatant, traced: Traced, spans: Sequence[TerrainSpan]
    ) -> LegCost:
        """GSB, Pivots: a pivot within the troop's free angle costs nothing; beyond it (or,
        for elephants, any pivot at all) it costs the row's unit widths; light troops pivot
        freely. A unit in melee: the about face that begins a disengagement costs 1 UW
        (GSB, Disengaging), and turning to face a flank attack, with the step that closes
        up to the attacker, costs nothing (errata turn-to-face). Other legs cost as the core
        measures them."""
        special = self._engaged_leg(view, unit, traced)
        if special is not None:
            cost, note = special
            return LegCost(
                traced.index,
                traced.leg.kind,
                traced.distance,
                cost,
                tuple(s.piece.id for s in spans),
                note,
            )
        if traced.leg.kind not in PIVOT_LEGS:
            return super().leg_cost(view, unit, traced, spans)
        kind = self.t.pivot.kinds[self.gsb_troop(unit.troop).pivot]
        angle = _turned(traced.leg.angle)
        if angle < 1e-9 or kind.free_deg is None or angle <= kind.free_deg + 1e-9:
            cost, note = 0.0, f"{angle:g} degree pivot: free ({kind.label})"
        else:
            cost, note = (
                float(kind.cost),
                f"{angle:g} degree pivot: {kind.cost:g} UW ({kind.label})",
            )
        return LegCost(
            traced.index,
            traced.leg.kind,
            traced.distance,
            cost,
            tuple(s.piece.id for s in spans),
            f"{PIVOT_RULE}: {note}",
        )

    def _engaged_leg(
        self, view: TurnView, unit: Combatant, traced: Traced
    ) -> tuple[float, str] | None:
        """The cost of the first legs of a unit in melee, when the rules set it: the about
        face of a disengagement, a turn to face and its closing step. None otherwise (the
        cheap tests first: only a turn in place, or the straight leg after one, asks who
        touches the unit)."""
        leg = traced.leg
        if traced.index == 0 and leg.kind in PIVOT_LEGS:
            angle = _turned(leg.angle)
            about = abs(angle - 180) <= ANGLE_SLACK
            face = abs(angle - 90) <= ANGLE_SLACK
            if not (about or face):
                return None
            engaged = self.engagement(view, unit)
            if not engaged.enemies:
                return None
            if about and self.gsb_troop(unit.troop).disengage != "none":
                cost = self.t.disengage.about_face_cost
                return float(cost), f"{DISENGAGE_RULE}: about face to leave the melee, {cost} UW"
            if face and self._faces_attacker(engaged, traced.end) is not None:
                cost = self.t.disengage.turn_to_face_cost
                return float(cost), f"{FACE_RULE}: turns to face the flank attack, {cost} UW"
            return None
        if (
            traced.index == 1
            and leg.kind == "straight"
            and leg.distance > 0
            and _turned(traced.start.facing - unit.facing) > ANGLE_SLACK
        ):
            engaged = self.engagement(view, unit)
            attacker = self._faces_attacker(engaged, traced.start) if engaged.enemies else None
            if attacker is not None and edge_distance(traced.end, attacker.footprint) <= TOUCH:
                cost = self.t.disengage.turn_to_face_cost
                return 0.0 if cost == 0 else float(leg.distance), (
                    f"{FACE_RULE}: closes up to {attacker.name} ({attacker.unit_id})"
                )
        return None

    def _faces_attacker(self, engaged: Engagement, pose: Footprint) -> Combatant | None:
        """The flank attacker that ``pose`` faces, when turning to face is allowed: the
        unit is attacked in a flank and nothing engages its front."""
        if not self.t.movement.flanked_may_turn_to_face or engaged.on("front"):
            return None
        for enemy in engaged.on("left", "right"):
            if aspect(pose, enemy.x, enemy.y) == "front":
                return enemy
        return None

    # -- the checks -----------------------------------------------------------------------

    def side_to_move(self, view: TurnView) -> Side | None:
        """GSB, Turn order: "Active player moves and/or fights": in each player's
        activations only that side moves (deployment, before play, is open to both)."""
        return self._active_side(view)

    def may_move(self, view: TurnView, unit_id: str, reason: MoveReason) -> Breach | None:
        """The core's rule (only the side whose activations these are moves), then GSB, Turn
        order: only the unit activated now moves or charges, once a turn
        (:meth:`~app.rulesets.gsb.turn.GSBTurn.activation_problem`); then GSB, Shooting: a
        unit that has shot in its activation moves or charges on only as its troop's timing
        lets it (medium infantry not at all, light
        infantry only if they shot before moving, light cavalry freely;
        :meth:`move_after_shot_problem`)."""
        found = super().may_move(view, unit_id, reason)
        if found is not None or reason not in CHOSEN:
            return found
        unit = view.unit(unit_id)
        turn = self.activation_problem(view, unit, reason)
        if turn is not None:
            rule, _, text = turn.partition(": ")
            return Breach(rule, text)
        problem = self.move_after_shot_problem(unit)
        return None if problem is None else Breach(SHOOT_RULE, problem)

    def may_pass_through(self, view: TurnView, unit: Combatant, other: Combatant) -> bool:
        """GSB, Movement: light troops pass through friends (with room to clear them: the
        core refuses a move ending on a unit), and only lights pass through lights."""
        ip = self.t.interpenetration
        mover = self.gsb_troop(unit.troop)
        if not (ip.lights_pass_friends_if_room and mover.passes_through_friends):
            return False
        lights_only = ip.only_lights_pass_lights and self.is_light(other)
        return not lights_only or self.is_light(unit)

    def is_light(self, unit: Combatant) -> bool:
        """Light troops: light infantry and light cavalry (by troop category)."""
        return self.gsb_troop(unit.troop).category in ("light_infantry", "light_cavalry")

    def check_move(
        self,
        view: TurnView,
        unit_id: str,
        path: Path,
        *,
        reason: MoveReason = "move",
        target: str | None = None,
    ) -> MoveCheck:
        """The core's checks, then, for a unit in melee moving in its turn: it may only
        disengage (its type allowing, not sandwiched, beginning with an about face and
        ending clear of the enemies it fought) or turn to face a flank attack (nothing
        engaging its front). A charge on an enemy it already fights, facing as it stands,
        keeps it in that melee. These breaches come first (the refusal names the first)."""
        found = super().check_move(view, unit_id, path, reason=reason, target=target)
        if reason not in CHOSEN:
            return found
        unit = view.unit(unit_id)
        found = self._pivots_per_increment(view, unit, found)
        engaged = self.engagement(view, unit)
        if not engaged.enemies:
            return found
        if reason == "charge" and self._stays_in_fight(engaged, found, target):
            return found
        found = self._turned_in_place(engaged, path, found)
        breaches = self._engaged_breaches(engaged, path, found)
        if not breaches:
            return found
        # the melee rule first (it is why the move is refused, whatever else it breaks),
        # after the turn order's (a unit not acting now moves in no way at all)
        turn = tuple(b for b in found.breaches if b.rule == self.sequence_rule)
        rest = tuple(b for b in found.breaches if b.rule != self.sequence_rule)
        return replace(found, breaches=(*turn, *breaches, *rest))

    def _pivot_walk(
        self, view: TurnView, unit: Combatant, found: MoveCheck
    ) -> tuple[list[LegCost], float, int]:
        """The legs' costs with GSB's pivots read per increment (errata pivot-increments):
        "May pivot up to 45 degrees before moving an increment": the increment is a whole
        unit width, and the pivots made before one increment (since the unit last finished
        one, this move or earlier in its activation) add up: within the free 45 degrees
        they cost nothing; a pivot that takes them past it costs a unit width. Also the
        degrees pivoted in the increment under way at the end, and its number."""
        kind = self.t.pivot.kinds[self.gsb_troop(unit.troop).pivot]
        legs = list(found.legs)
        if kind.free_deg is None or kind.free_deg == 0:
            return legs, 0.0, 0
        moved = unit.moved
        group = math.floor(moved + 1e-6)
        used = self._pivoted_before(view, unit, group)
        for i, (t, cost) in enumerate(zip(found.traced, found.legs, strict=True)):
            if t.leg.kind in PIVOT_LEGS and cost.note.startswith(PIVOT_RULE):
                angle = _turned(t.leg.angle)
                here = math.floor(moved + 1e-6)
                if here != group:
                    group, used = here, 0.0
                used += angle
                if angle > 1e-9 and cost.cost == 0 and used > kind.free_deg + 1e-9:
                    note = (
                        f"{PIVOT_RULE}: {used:g} degrees pivoted before one increment: "
                        f"{kind.cost:g} UW ({kind.label})"
                    )
                    legs[i] = replace(cost, cost=float(kind.cost), note=note)
            moved += legs[i].cost
        return legs, used, group

    def _pivoted_before(self, view: TurnView, unit: Combatant, group: int) -> float:
        """Degrees the unit pivoted before the increment ``group`` in its earlier moves this
        activation (its status ``extra``)."""
        extra = unit.status.extra
        if extra.get(PIVOT_GROUP) != group or not unit.status.has(MOVED):
            return 0.0
        value = extra.get(PIVOTED, 0.0)
        return float(value) if isinstance(value, int | float) else 0.0

    def _pivots_per_increment(self, view: TurnView, unit: Combatant, found: MoveCheck) -> MoveCheck:
        """The check with its pivots costed per increment (:meth:`_pivot_walk`) and the
        allowance checked again on the new total."""
        legs, _, _ = self._pivot_walk(view, unit, found)
        if legs == list(found.legs):
            return found
        cost = sum(c.cost for c in legs)
        rule = f"{self.ruleset.meta.short_name}, movement"
        kept = [b for b in found.breaches if b.rule != rule]
        if found.left is not None and cost > found.left + 1e-6:
            who = f"{unit.name} ({unit.unit_id})"
            used = f" ({unit.moved:.1f} UW used this turn)" if unit.moved else ""
            kept.append(
                Breach(
                    rule,
                    f"{who} would move {cost:.1f} UW with {max(found.left, 0.0):.1f} UW of its "
                    f"{found.allowance:g} UW left{used}",
                )
            )
        return replace(found, legs=tuple(legs), cost=cost, breaches=tuple(kept))

    def _stays_in_fight(self, engaged: Engagement, found: MoveCheck, target: str | None) -> bool:
        """A charge on an enemy the unit already fights, ending still touching it and
        facing as it did: the unit stays in its melee (it fights on, "to its front")."""
        foe = next((e for e, _ in engaged.enemies if e.unit_id == target), None)
        return (
            foe is not None
            and edge_distance(found.end, foe.footprint) <= TOUCH
            and _turned(found.end.facing - engaged.unit.facing) <= ANGLE_SLACK
        )

    def _turned_in_place(self, engaged: Engagement, path: Path, found: MoveCheck) -> MoveCheck:
        """A unit in melee turns about (to disengage) or to face where it stands: the core
        traces a turn in place as sweeping a circle, which cuts into the enemies touching
        it; that first turn does not pass through them."""
        if not path.legs or path.legs[0].kind not in PIVOT_LEGS:
            return found
        spared = {
            Breach(TABLE_RULE, f"would pass through the enemy {e.name} ({e.unit_id}) (leg 1)")
            for e, _ in engaged.enemies
        }
        kept = tuple(b for b in found.breaches if b not in spared)
        return found if len(kept) == len(found.breaches) else replace(found, breaches=kept)

    def _engaged_breaches(self, engaged: Engagement, path: Path, found: MoveCheck) -> list[Breach]:
        unit = engaged.unit
        who = f"{unit.name} ({unit.unit_id})"
        foes = [e for e, _ in engaged.enemies]
        names = ", ".join(f"{e.name} ({e.unit_id})" for e in foes)
        still = [e for e in foes if edge_distance(found.end, e.footprint) <= TOUCH]
        legs = path.legs
        first = legs[0] if legs else None
        turns = first is not None and first.kind in PIVOT_LEGS
        if (
            turns
            and first is not None
            and abs(_turned(first.angle) - 90) <= ANGLE_SLACK
            and all(leg.kind == "straight" and leg.distance > 0 for leg in legs[1:])
        ):
            return self._face_breaches(engaged, found, who)
        if still:
            return [
                Breach(
                    DISENGAGE_RULE,
                    f"{who} is in melee with {names}: it may only disengage (about face, then "
                    "move clear) or turn to face an attack on its flank",
                )
            ]
        return self._disengage_breaches(engaged, first, who)

    def _face_breaches(self, engaged: Engagement, found: MoveCheck, who: str) -> list[Breach]:
        if not self.t.movement.flanked_may_turn_to_face:
            return [Breach(FACE_RULE, "these rules do not let a flanked unit turn to face")]
        if engaged.on("front"):
            front = ", ".join(f"{e.name} ({e.unit_id})" for e in engaged.on("front"))
            return [Breach(FACE_RULE, f"{who} is engaged to its front ({front}): it may not turn")]
        if not engaged.on("left", "right"):
            return [Breach(FACE_RULE, f"{who} is not attacked in a flank: it may not turn")]
        turned = found.traced[0].end if found.traced else found.end
        if self._faces_attacker(engaged, turned) is None:
            return [Breach(FACE_RULE, f"{who} would not face the unit attacking its flank")]
        return []

    def _disengage_breaches(self, engaged: Engagement, first: Leg | None, who: str) -> list[Breach]:
        d = self.t.disengage
        unit = engaged.unit
        troop = self.gsb_troop(unit.troop)
        out: list[Breach] = []
        if troop.disengage == "none":
            out.append(
                Breach(
                    DISENGAGE_RULE,
                    f"{who}: {troop.name.lower()} may not leave a melee (only light troops, "
                    "and heavy cavalry fighting infantry, disengage)",
                )
            )
        elif troop.disengage == "from_infantry":
            others = [e for e, _ in engaged.enemies if e.troop not in d.infantry]
            if others:
                names = ", ".join(f"{e.name} ({self.troop_name(e.troop).lower()})" for e in others)
                out.append(
                    Breach(
                        DISENGAGE_RULE,
                        f"{who}: {troop.name.lower()} disengage only from infantry, not from "
                        f"{names}",
                    )
                )
        sides = engaged.sides
        if "front_and_rear" in d.blocked_when and {"front", "rear"} <= sides:
            out.append(
                Breach(DISENGAGE_RULE, f"{who} is attacked front and rear: it cannot disengage")
            )
        if "both_flanks" in d.blocked_when and {"left", "right"} <= sides:
            out.append(
                Breach(DISENGAGE_RULE, f"{who} is attacked on both flanks: it cannot disengage")
            )
        about = (
            first is not None
            and first.kind in PIVOT_LEGS
            and abs(_turned(first.angle) - 180) <= ANGLE_SLACK
        )
        if troop.disengage != "none" and not about:
            out.append(
                Breach(
                    DISENGAGE_RULE,
                    f"{who} disengages by first turning about ({d.about_face_cost} UW), then "
                    "moving away",
                )
            )
        return out

    def on_move(self, view: TurnView, unit_id: str, check: MoveCheck) -> Resolution:
        """GSB, Turn order: a unit that moves on an activation rolled without naming its
        unit takes it (:meth:`~app.rulesets.gsb.turn.GSBTurn.claim_activation`). GSB,
        Disengaging: a unit that was in melee where its move began and ends it
        touching none of those enemies has disengaged: marked so until the next initiative,
        it may not shoot or fight in melee again this turn. ``view`` shows the unit moved;
        where it stood is the start of the path's first leg."""
        base = super().on_move(view, unit_id, check)
        if check.reason not in CHOSEN or not check.traced:
            return base
        moved_unit = view.unit(unit_id)
        before = replace(moved_unit, moved=moved_unit.moved - check.cost)
        _, pivoted, group = self._pivot_walk(view, before, check)
        if pivoted:
            mark = Effects(extra={PIVOTED: round(pivoted, 6), PIVOT_GROUP: group})
            base = replace(base, others=(*base.others, UnitChange(unit_id, mark)))
        claim = self.claim_activation(view, view.unit(unit_id))
        if claim != Resolution():
            base = replace(
                base,
                others=(*base.others, *claim.others),
                sides=claim.sides,
                explanation=(*base.explanation, *claim.explanation),
            )
        if not self.t.disengage.no_shoot_or_melee_after:
            return base
        moved = view.unit(unit_id)
        start = check.traced[0].start
        was = replace(moved, x=start.x, y=start.y, facing=start.facing)
        engaged = self.engagement(view, was)
        if not engaged.enemies:
            return base
        if any(edge_distance(check.end, e.footprint) <= TOUCH for e, _ in engaged.enemies):
            return base
        mark = Effects(markers_add=frozenset({DISENGAGED}))
        return replace(
            base,
            others=(*base.others, UnitChange(unit_id, mark)),
            explanation=(
                *base.explanation,
                f"{moved.name} ({unit_id}) has disengaged from the melee: no more shooting or "
                f"melee this turn ({DISENGAGE_RULE}).",
            ),
        )

    # -- shooting -------------------------------------------------------------------------

    def shooting_reach(self, view: TurnView, unit_id: str) -> ShotReach | None:
        """GSB, Shooting: medium infantry and light troops reach 1 UW, forward (errata
        shooting-arc); None for troops that do not shoot. For the map's overlay."""
        unit = view.unit(unit_id)
        s = self.t.shooting
        if unit.troop not in s.rows or not self.gsb_troop(unit.troop).shoots:
            return None
        arc = None if s.arc_degrees is None else float(s.arc_degrees)
        return ShotReach(float(s.range), arc, SHOOT_RULE)
