"""MWAN #90 on the table: how each kind of unit may turn while it moves, and who may pass
through whom. The article: "Cavalry in line (& formed Medium Infantry) may wheel 90 degrees &
move 8" (or move then wheel). Light Cavalry (& formed Medium Infantry) may also about face
before or after movement. Heavy Infantry in line may only move forward or wheel 45 degrees.
Friendly skirmishers may move through elephants (but no other formed units)." The limits are
``tables.movement.rows`` (each troop's ``move_class``) and ``skirmishers_pass_through``.

Also: moves and charges only in the movement phase (Turn sequence); units in contact with the
enemy are pinned (Movement 1); the 4" bonus move is a pursuit's allowance (Melee 6);
skirmishers may not close with formed troops, and formed troops move on through skirmishers
(Melee 1); and what each kind of terrain is, from
``tables.terrain`` (the article names none: errata "terrain-movement", "terrain-sight",
"terrain-cover")."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from app.rules.contact import TOUCH, Contact, ContactHow, contact_pose
from app.rules.geometry import Footprint, aspect, axes, edge_distance
from app.rules.movement import (
    TABLE_RULE,
    Breach,
    LegCost,
    MoveCheck,
    MoveReason,
    TerrainEffect,
    TerrainSpan,
)
from app.rules.paths import Path, Traced
from app.rules.table import TerrainKind
from app.rules.values import Combatant, Effects, Resolution, TurnView, UnitChange
from app.rulesets.mwan90.base import MWAN90Base

MOVE_RULE = "MWAN #90, Movement"
MELEE_RULE = "MWAN #90, Melee"
SEQUENCE_RULE = "MWAN #90, Turn sequence"
#: how the core's breach for passing through an enemy begins
THROUGH_ENEMY = "would pass through the enemy "
MOVEMENT_PHASE = "movement"
MELEE_PHASE = "melee"
#: the moves the bonus move after a rout may be spent on (Melee 6)
BONUS_REASONS = frozenset({"pursuit", "charge"})
#: the article names no terrain: every kind is Castra's reading (tables.terrain)
TERRAIN_RULE = "MWAN #90, errata terrain-movement"
#: where a charge blocked at the centre of the target's front may end instead: its front
#: still against the target's, moved these shares of the way to corner to corner (a search
#: step of Castra's, not a rules number)
FRONT_OFFSETS = (0.25, 0.5, 0.75)
#: the moves a unit makes of its own will; routs, evades and pursuits go as the rules send them
CHOSEN = frozenset({"move", "charge"})
#: the legs that turn a unit (a move to a point turns as a pivot first)
TURNS = frozenset({"wheel", "pivot", "turn"})
#: in a unit's status ``extra``: the degrees it has wheeled this turn, and which turn
TURNED = "wheeled"
TURNED_TURN = "wheeled_turn"


class MWANMovement(MWAN90Base):
    """The movement hooks of :class:`~app.rules.mechanics.Mechanics` as MWAN #90 fills them."""

    def terrain_effect(self, unit: Combatant, kind: TerrainKind) -> TerrainEffect:
        """What terrain of ``kind`` is to ``unit``, from ``tables.terrain`` (Castra's
        reading, the article naming no terrain): half speed in woods, marsh, towns, broken
        ground, streams and fords, skirmishers at full speed in woods and broken ground,
        rivers only at a ford, lakes never; woods, towns and hills block sight; no cover."""
        row = self.t.terrain.kinds[kind]
        cost = row.cost_factor
        if row.unformed_cost_factor is not None and not self.formed(unit):
            cost = row.unformed_cost_factor
        return TerrainEffect(
            passable=row.passable,
            cost_factor=cost,
            blocks_los=row.blocks_sight,
            cover=row.cover,
            note=f"{row.label.lower()}: {row.note}",
            rule=TERRAIN_RULE,
        )

    def may_move(self, view: TurnView, unit_id: str, reason: MoveReason) -> Breach | None:
        """The core's answer, then MWAN #90, Turn sequence: units move and charge in the
        movement phase; and Movement 1: a unit in contact with the enemy is pinned in melee
        and may not move or charge. A rout, or the bonus move after a melee (a pursuit),
        goes as the rules send it. Turn sequence 2: "Movement: 1st side, 2nd side": in the
        movement phase the side moving second waits until the first side's move is over.
        """
        unit = view.unit(unit_id)
        side = self.side_to_move(view) if reason in CHOSEN else None
        if side is not None and unit.side != side and not unit.status.eliminated:
            now = view.side_names[side]
            if side == self.first_mover(view):
                text = (
                    f"{now} moves first this turn: {unit.name} ({unit_id}) may {reason} once "
                    f"{now}'s move is over (the end of move action)"
                )
            else:
                text = (
                    f"{view.side_names[unit.side]}'s move is over this turn: {now} moves now, "
                    f"and {unit.name} ({unit_id}) may not {reason}"
                )
            return Breach(SEQUENCE_RULE, text)
        found = super().may_move(view, unit_id, reason)
        if found is not None:
            return found
        bonus = reason in BONUS_REASONS and self.has_bonus_move(view, unit)
        if reason == "pursuit" and not bonus:
            return Breach(
                MELEE_RULE,
                f"{unit.name} ({unit_id}) has no bonus move: only a unit that has just routed "
                "or destroyed the enemy it fought, still touching where that enemy stood, "
                "has one (errata bonus-move)",
            )
        if reason not in CHOSEN:
            return found
        phases = self.ruleset.turn.phases
        if (
            0 <= view.phase < len(phases)
            and phases[view.phase].id != MOVEMENT_PHASE
            and not (bonus and self.t.melee.bonus_move_may_charge)
        ):
            return Breach(
                SEQUENCE_RULE,
                f"{unit.name} ({unit_id}) may {reason} only in the movement phase, not in "
                f"the {phases[view.phase].name.lower()} phase",
            )
        if self.pinned(unit, view):
            return Breach(
                MOVE_RULE,
                f"{unit.name} ({unit_id}) is in contact with the enemy: pinned in melee, it "
                "may not move",
            )
        return None

    def move_allowance_for(
        self, view: TurnView, unit: Combatant, reason: MoveReason
    ) -> float | None:
        """The core's allowance, and MWAN #90, Melee 6: a unit that routs its opponent has a
        post-melee bonus move of 4" (a pursuit, or a charge in the melee phase to start
        another melee), over and above what it moved before this turn."""
        if reason == "pursuit" or (reason == "charge" and self._phase_id(view) == MELEE_PHASE):
            return unit.moved + self.t.melee.post_melee_bonus_move
        return super().move_allowance_for(view, unit, reason)

    def has_bonus_move(self, view: TurnView, unit: Combatant) -> bool:
        """MWAN #90, Melee 6: "A unit that routs an opposing unit gets a post-melee bonus
        move of 4"". The state keeps no mark of it (errata bonus-move): in the melee phase, a
        unit has its bonus move while it still touches an enemy that is out of the battle
        (routed or destroyed: it stays where it stood), that is before it has moved away."""
        if self._phase_id(view) != MELEE_PHASE or unit.width <= 0:
            return False
        reach = math.hypot(unit.width, unit.depth) / 2 + TOUCH
        for e in view.units:
            if e.side == unit.side or not e.status.eliminated or e.width <= 0:
                continue
            near = reach + math.hypot(e.width, e.depth) / 2
            if abs(e.x - unit.x) > near or abs(e.y - unit.y) > near:
                continue
            if edge_distance(unit.footprint, e.footprint) <= TOUCH:
                return True
        return False

    def contact_poses(
        self, view: TurnView, unit: Combatant, target: Combatant
    ) -> list[tuple[ContactHow, Footprint]]:
        """MWAN #90, Melee 2: "Formed troops count all figures in contact to their front"
        (plus overlaps), so a charge ends front to front, never corner to corner (no figure
        in contact): from ahead of the target, centred on its front, or failing that slid
        along it (nearer side first) while the two fronts still overlap; from a flank or
        the rear, flat against it (the core's poses, less the corners)."""
        out: list[tuple[ContactHow, Footprint]] = [
            (h, p) for h, p in super().contact_poses(view, unit, target) if h != "corner"
        ]
        t = target.footprint
        if aspect(t, unit.x, unit.y) != "front":
            return out
        (rx, ry) = axes(t.facing)[1]
        near = 1.0 if (unit.x - t.x) * rx + (unit.y - t.y) * ry > 0 else -1.0
        most = (t.width + unit.width) / 2
        for share in FRONT_OFFSETS:
            for sign in (near, -near):
                pose = contact_pose(t, unit.width, unit.depth, "front", sign * share * most)
                out.append(("front", pose))
        return out

    def contact(self, view: TurnView, unit_id: str, target_id: str) -> Contact:
        """The core's search over :meth:`contact_poses` (front to front only, from ahead);
        when no front-to-front contact is open the charge is refused naming MWAN #90,
        Melee 2, rather than ending corner to corner."""
        found = super().contact(view, unit_id, target_id)
        if not found.forbidden or found.path is None:
            return found
        unit, target = view.unit(unit_id), view.unit(target_id)
        if aspect(target.footprint, unit.x, unit.y) != "front":
            return found
        why = Breach(
            MELEE_RULE,
            f"{unit.name} ({unit_id}) finds no open way to {target.name} ({target_id})'s "
            "front: a charge ends front to front (figures in contact to the front), not corner "
            "to corner",
        )
        return replace(found, breaches=(*found.breaches, why))

    def leg_cost(
        self, view: TurnView, unit: Combatant, traced: Traced, spans: Sequence[TerrainSpan]
    ) -> LegCost:
        """MWAN #90, Movement: "Cavalry in line (& formed Medium Infantry) may wheel 90 & move
        8" (or move then wheel). Light Cavalry (& formed Medium Infantry) may also about face
        before or after movement": for the classes whose turn comes with the move (cavalry,
        light cavalry, formed medium infantry; elephants and skirmishers by errata
        manoeuvre-gaps) a wheel, a pivot or an about face costs none of the 8" (how far it
        may turn is :meth:`check_move`'s). "Heavy Infantry in line may only move forward or
        wheel 45": their wheel is the move, costing all of it (errata turning-costs)."""
        cost = super().leg_cost(view, unit, traced, spans)
        parts = traced.parts or (traced,)
        turning = [p for p in parts if p.leg.kind in TURNS]
        if not turning:
            return cost
        row = self.t.movement.rows[self.mw_troop(unit.troop).move_class]
        arc = sum(p.distance for p in turning)
        if row.wheel_with_move:
            note = "the turn comes with the move"
            new = max(cost.cost - arc, 0.0)
        else:
            note = f'the wheel is the whole move ({row.move:g}")'
            new = max(cost.cost - arc, 0.0) + float(row.move)
        words = "; ".join(n for n in (cost.note, f"{MOVE_RULE}: {note}") if n)
        return replace(cost, cost=new, note=words)

    def may_pass_through(self, view: TurnView, unit: Combatant, other: Combatant) -> bool:
        """MWAN #90: friendly skirmishers may pass through elephants, and nobody else passes
        through a friend."""
        troop, them = self.mw_troop(unit.troop), self.mw_troop(other.troop)
        return troop.formed == "never" and them.category in self.t.movement.skirmishers_pass_through

    def check_move(
        self,
        view: TurnView,
        unit_id: str,
        path: Path,
        *,
        reason: MoveReason = "move",
        target: str | None = None,
    ) -> MoveCheck:
        """The core's checks, then MWAN's limits on turning for a move or a charge: the
        wheel (and pivots) the unit's class allows in all, about-faces only where allowed,
        heavy infantry only forward, and a wheel instead of a move where the class may not
        combine them. Melee 1: skirmishers may not end a move or a charge touching formed
        enemies; formed troops passing through enemy skirmishers scatter them, a move for
        the umpire to confirm, then the disperse action, not a move refused."""
        found = super().check_move(view, unit_id, path, reason=reason, target=target)
        if reason not in CHOSEN:
            return found
        unit = view.unit(unit_id)
        found, scattered = self._through_skirmishers(view, unit, found)
        who = f"{unit.name} ({unit.unit_id})"
        breaches: list[Breach] = self._full_move_through(view, unit, found, scattered)
        breaches += [
            Breach(
                MELEE_RULE,
                f"{who} are skirmishers and may not close with the formed {e.name} ({e.unit_id})",
            )
            for e in self._formed_touched(view, unit, found.end)
        ]
        row = self.t.movement.rows[self.mw_troop(unit.troop).move_class]
        turned = self._turned_before(view, unit)
        moved = unit.moved > 1e-9
        between = False  # a turn with moves before and after it, in the middle of the move
        for t in found.traced:
            for part in t.parts or (t,):
                leg = part.leg
                angle = abs(leg.angle) % 360
                if leg.kind == "turn" and abs(angle - 180) < 1e-6:
                    if not row.about_face:
                        breaches.append(
                            Breach(MOVE_RULE, f"{who}: {row.label.lower()} may not about face")
                        )
                    between = between or (moved and self._moves_after(found, part))
                    continue
                if leg.kind in TURNS:
                    if min(angle, 360 - angle) > 1e-6:
                        turned += min(angle, 360 - angle)
                        between = between or (moved and self._moves_after(found, part))
                elif part.distance > 1e-9:
                    moved = True
                    if row.forward_only and (leg.kind == "sideways" or leg.distance < 0):
                        breaches.append(
                            Breach(
                                MOVE_RULE,
                                f"{who}: {row.label.lower()} may only move forward or wheel",
                            )
                        )
        if between and row.wheel_with_move and row.max_wheel_deg is not None:
            breaches.append(
                Breach(
                    MOVE_RULE,
                    f"{who}: {row.label.lower()} turn before or after their move, not in the "
                    "middle of it",
                )
            )
        if row.max_wheel_deg is not None and turned > row.max_wheel_deg + 1e-6:
            breaches.append(
                Breach(
                    MOVE_RULE,
                    f"{who}: {row.label.lower()} may wheel at most {row.max_wheel_deg} degrees "
                    f"in a move ({turned:g} asked this turn)",
                )
            )
        if not row.wheel_with_move and turned > 1e-6 and moved:
            breaches.append(
                Breach(MOVE_RULE, f"{who}: {row.label.lower()} wheel instead of moving, not both")
            )
        return found.with_breaches(*breaches) if breaches else found

    @staticmethod
    def _moves_after(found: MoveCheck, turn: Traced) -> bool:
        """Whether the path moves on after the turn ``turn`` (one of its traced parts)."""
        after = False
        for t in found.traced:
            for part in t.parts or (t,):
                if after and part.leg.kind not in TURNS and part.distance > 1e-9:
                    return True
                if part is turn:
                    after = True
        return False

    def _turned_before(self, view: TurnView, unit: Combatant) -> float:
        """Degrees the unit has wheeled in its moves before this one this turn (about faces
        aside), kept in its status ``extra`` by :meth:`on_move`."""
        extra = unit.status.extra
        if extra.get(TURNED_TURN) != view.turn:
            return 0.0
        value = extra.get(TURNED, 0.0)
        return float(value) if isinstance(value, int | float) else 0.0

    def on_move(self, view: TurnView, unit_id: str, check: MoveCheck) -> Resolution:
        """MWAN #90, Movement: the degrees a move wheeled (about faces aside) are kept on the
        unit for the rest of the turn, so a turn made in one move and another in the next
        count together against the class's wheel."""
        base = super().on_move(view, unit_id, check)
        if check.reason not in CHOSEN:
            return base
        turned = 0.0
        for t in check.traced:
            for part in t.parts or (t,):
                angle = abs(part.leg.angle) % 360
                if part.leg.kind in TURNS and abs(angle - 180) > 1e-6:
                    turned += min(angle, 360 - angle)
        if turned <= 1e-6:
            return base
        unit = view.unit(unit_id)
        total = self._turned_before(view, unit) + turned
        mark = UnitChange(unit_id, Effects(extra={TURNED: round(total, 6), TURNED_TURN: view.turn}))
        return replace(base, others=(*base.others, mark))

    def _formed_touched(self, view: TurnView, unit: Combatant, end: Footprint) -> list[Combatant]:
        """MWAN #90, Melee 1: "Skirmishers may not close with formed troops": the formed
        enemies an unformed unit would touch where its move ends (none for formed troops)."""
        if not self.t.dispersal.skirmishers_may_not_close_with_formed or self.formed(unit):
            return []
        return self._touched(view, unit, end, True)

    def _touched(
        self, view: TurnView, unit: Combatant, end: Footprint, formed: bool
    ) -> list[Combatant]:
        """The enemies, formed or not as ``formed`` says, that ``end`` touches."""
        reach = math.hypot(end.width, end.depth) / 2 + TOUCH
        out = []
        for e in view.units:
            if e.side == unit.side or e.status.eliminated or e.width <= 0:
                continue
            near = reach + math.hypot(e.width, e.depth) / 2
            if abs(e.x - end.x) > near or abs(e.y - end.y) > near or self.formed(e) != formed:
                continue
            if edge_distance(end, e.footprint) <= TOUCH:
                out.append(e)
        return out

    def _full_move_through(
        self, view: TurnView, unit: Combatant, found: MoveCheck, scattered: list[Combatant]
    ) -> list[Breach]:
        """MWAN #90, Melee 1: "Formed troops that contact skirmishers will move their full
        movement": a formed unit whose move passes through enemy skirmishers, or ends
        touching them, spends all that is left of its move (``tables.dispersal
        .formed_move_full_distance``); a shorter move is refused."""
        if (
            not self.t.dispersal.formed_move_full_distance
            or not self.formed(unit)
            or found.left is None
            or found.cost >= found.left - 1e-6
        ):
            return []
        met = {
            e.unit_id: f"{e.name} ({e.unit_id})"
            for e in [*scattered, *self._touched(view, unit, found.end, False)]
        }
        if not met:
            return []
        u = self.length_symbol()
        return [
            Breach(
                MELEE_RULE,
                f"{unit.name} ({unit.unit_id}) meets the skirmishers "
                f"{', '.join(met.values())}: formed troops that contact skirmishers move "
                "their full movement through them "
                f"({found.cost:.1f}{u} of the {found.left:.1f}{u} left)",
            )
        ]

    def _through_skirmishers(
        self, view: TurnView, unit: Combatant, found: MoveCheck
    ) -> tuple[MoveCheck, list[Combatant]]:
        """MWAN #90, Melee 1: "Formed troops that contact skirmishers will move their full
        movement, dispersing the skirmishers as they move through them": the core's refusal
        to pass through an enemy becomes, for formed troops through skirmishers, a move the
        umpire confirms, to be followed by the disperse action. Also the skirmishers passed
        through."""
        if not self.formed(unit) or not any(
            b.rule == TABLE_RULE and b.text.startswith(THROUGH_ENEMY) for b in found.breaches
        ):
            return found, []
        scattered = {
            f"{THROUGH_ENEMY}{u.name} ({u.unit_id}) (": u
            for u in view.units
            if u.side != unit.side and not u.status.eliminated and not self.formed(u)
        }
        who = f"{unit.name} ({unit.unit_id})"
        out: list[Breach] = []
        met: list[Combatant] = []
        for b in found.breaches:
            keys = (k for k in scattered if b.rule == TABLE_RULE and b.text.startswith(k))
            hit = scattered.get(next(keys, ""))
            if hit is None:
                out.append(b)
                continue
            met.append(hit)
            out.append(
                Breach(
                    MELEE_RULE,
                    f"{who} moves on through the skirmishers {hit.name} ({hit.unit_id}), "
                    "scattering them: resolve it with the disperse action",
                    "confirm",
                )
            )
        return replace(found, breaches=tuple(out)), met
